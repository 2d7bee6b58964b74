# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
# The one pass/fail counter of the shell suites (sourced, not run): option
# parsing for --out/--results, ok/FAIL lines, the RESULTS/NAME.count line
# ("NAME P F") that tests/run-tests.sh adds up and the last line
# "P passed, F failed".  POSIX sh (dash) and bash.
#
#   . tests/lib/suite.sh
#   suite_init NAME DEFAULT_OUT "$@"     sets out, results; exits 2 on a bad option
#   suite_start NAME [RESULTS]           for suites that parse their own options:
#                                        sets suite_name and results (empty: no
#                                        count file is written)
#   suite_check STATUS WHAT              prints "ok   WHAT" (STATUS 0) or
#                                        "FAIL WHAT" and counts it
#   suite_add PASSED FAILED              adds counts found elsewhere
#   suite_run NAME COMMAND...            runs it, log in $out/NAME.log, counts it;
#                                        on failure shows the log's tail, returns 1
#   suite_count_file FILE RC WHAT        prints FILE and counts its ok/FAIL lines
#                                        (a checker's, WHAT); exit status RC
#                                        without a FAIL line counts as one failure
#   suite_end                            writes the count, prints the total,
#                                        returns non-zero on any failure

suite_passed=0 suite_failed=0 suite_name=${suite_name:-} results=${results:-}

suite_init() {
	suite_name=$1 out=$2 results=build/results
	shift 2
	while [ $# -gt 0 ]; do
		case "$1" in
		--out)		[ $# -ge 2 ] || suite_usage "--out needs a directory"
				out=$2; shift 2 ;;
		--results)	[ $# -ge 2 ] || suite_usage "--results needs a directory"
				results=$2; shift 2 ;;
		*)		suite_usage "unknown option $1" ;;
		esac
	done
	mkdir -p "$out" "$results"
	# absolute: run.sh starts QEMU from its own directory
	out=$(cd "$out" && pwd)
	results=$(cd "$results" && pwd)
}

suite_start() {
	suite_name=$1 results=${2:-}
	[ -z "$results" ] || mkdir -p "$results"
}

suite_usage() {
	echo "$suite_name: $1" >&2
	exit 2
}

suite_check() {
	if [ "$1" -eq 0 ]; then
		echo "ok   $2"; suite_passed=$((suite_passed + 1))
	else
		echo "FAIL $2"; suite_failed=$((suite_failed + 1))
	fi
}

suite_add() {
	suite_passed=$((suite_passed + $1))
	suite_failed=$((suite_failed + $2))
}

suite_run() {
	_name=$1
	shift
	if "$@" >"$out/$_name.log" 2>&1; then
		suite_check 0 "$_name"
	else
		suite_check 1 "$_name (log: $out/$_name.log)"
		tail -n 15 "$out/$_name.log" | sed 's/^/     /'
		return 1
	fi
}

suite_count_file() {
	cat "$1"
	_p=$(grep -c '^ok ' "$1" || true)
	_f=$(grep -c '^FAIL ' "$1" || true)
	if [ "$2" != 0 ] && [ "$_f" = 0 ]; then
		_f=1
		echo "FAIL $3 exited with $2"
	fi
	suite_add "$_p" "$_f"
}

suite_end() {
	[ -z "$results" ] ||
		echo "$suite_name $suite_passed $suite_failed" >"$results/$suite_name.count"
	echo "$suite_passed passed, $suite_failed failed"
	[ "$suite_failed" -eq 0 ]
}
