#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Build and run the libFuzzer targets (clang 14, ASan + UBSan).
#   tests/fuzz/run.sh [--time S] [--out DIR] [--results DIR] [--only "acpi pcie twin aml"]
#                     [--replay-only "aml"]
# For each target: replay the committed corpus (tests/fuzz/corpus/NAME;
# aml's is made here: the ASL test tables of tests/aml compiled by iasl,
# never committed, with the regression inputs of tests/fuzz/corpus/aml,
# in DIR/seeds-aml),
# then fuzz for S seconds (default 300; `make test` uses 30) with new units
# kept in DIR/corpus-NAME. Prints executions, coverage and findings; a
# crash, leak, timeout (an input running over 10 s) or out-of-memory
# leaves DIR/NAME-crash-* (and so on) and fails. Stale findings of a target
# are removed before it runs. A target named by --replay-only replays
# its seeds and is not fuzzed. Writes "fuzz P F" to RESULTS. The functions
# in tests/fuzz/coverage-ignore.txt get no coverage instrumentation. To see
# what the app printed for one input: FUZZ_PRINT=1 DIR/fuzz_NAME FILE.
set -u
cd "$(dirname "$0")/../.." || exit 2
time=300 out=build/fuzz results=build/results targets="acpi pcie twin aml" replay_only=
while [ $# -gt 0 ]; do
	case "$1" in
	--time)		time=$2; shift 2 ;;
	--out)		out=$2; shift 2 ;;
	--results)	results=$2; shift 2 ;;
	--only)		targets=$2; shift 2 ;;
	--replay-only)	replay_only=$2; shift 2 ;;
	*)		echo "run.sh: unknown option $1" >&2; exit 2 ;;
	esac
done
mkdir -p "$out"
# shellcheck source=tests/lib/suite.sh
. tests/lib/suite.sh
suite_start fuzz "$results"
CFLAGS="-g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
	-fsanitize-coverage-ignorelist=tests/fuzz/coverage-ignore.txt -I. -DASPMCTL_HOST"
check() { suite_check "$@"; }	# check STATUS WHAT
build() {
	# shellcheck disable=SC2086
	clang $CFLAGS "tests/fuzz/fuzz_$1.c" $2 -o "$out/fuzz_$1" 2>"$out/build-$1.log"
}
# ACPICA and acpi/aml as the fuzz kind of acpi/aml/acpica.mk builds them
# (clang, ASan + UBSan, fuzzer-no-link): records/ and app/ call it too.
# And the ASL test tables, fuzz_aml's seeds.
aml=build/aml/fuzz/libaml.a
make --no-print-directory -s "$aml" aml-tables >"$out/build-libaml.log" 2>&1
check $? "build $aml and the ASL tables"
build acpi "lib/*.c acpi/*.c pcie/*.c records/*.c $aml"; check $? "build fuzz_acpi"
build pcie "tests/sim/*.c tests/lib/*.c host/platform.c twin/*.c lib/*.c acpi/*.c pcie/*.c records/*.c app/*.c $aml"
check $? "build fuzz_pcie"
build twin "twin/*.c lib/*.c pcie/cfg.c"; check $? "build fuzz_twin"
case " $targets " in
*" aml "*)
	build aml "lib/*.c pcie/cfg.c $aml"; check $? "build fuzz_aml"
	# the seeds: every table alone as a DSDT, and the two-table machine
	# (fuzz_aml.c's separator between the DSDT and the SSDT)
	rm -rf "$out/seeds-aml"
	mkdir -p "$out/seeds-aml"
	cp build/aml-tables/*.aml "$out/seeds-aml/" 2>/dev/null
	cp tests/fuzz/corpus/aml/regress-* "$out/seeds-aml/" 2>/dev/null
	[ -f build/aml-tables/dsdt-base.aml ] && [ -f build/aml-tables/ssdt-bridge.aml ] &&
		{ cat build/aml-tables/dsdt-base.aml; printf -- '--SSDT--'
		  cat build/aml-tables/ssdt-bridge.aml; } >"$out/seeds-aml/two-tables"
	;;
esac
# the ACPI images of the seeds are a few KiB; let them grow. A pcie input
# is a header and at most 24 records. A twin input is dump text: one
# 4096-byte function is some 15 KiB of it.
max_len() {
	case "$1" in
	acpi|twin|aml)	echo 65536 ;;
	*)	echo 2048 ;;
	esac
}
# the seeds of target $1: committed, or (aml) made above
seeds() {
	case "$1" in
	aml)	echo "$out/seeds-aml" ;;
	*)	echo "tests/fuzz/corpus/$1" ;;
	esac
}
# a finding of target $t lands in $out/$t-crash-* etc.
run_target() {
	"$out/fuzz_$t" -timeout=10 -max_len="$(max_len "$t")" \
		-artifact_prefix="$out/$t-" "$@"
}
findings() {
	ls "$out/$1"-crash-* "$out/$1"-leak-* "$out/$1"-timeout-* \
		"$out/$1"-oom-* 2>/dev/null
}
# findings of an earlier layout, without the target's name: stale
rm -f "$out"/crash-* "$out"/leak-* "$out"/timeout-* "$out"/oom-*
for t in $targets; do
	[ -x "$out/fuzz_$t" ] || continue
	rm -f "$out/$t"-crash-* "$out/$t"-leak-* "$out/$t"-timeout-* "$out/$t"-oom-*
	mkdir -p "$out/corpus-$t"
	seed=$(seeds "$t")
	run_target -runs=0 "$seed" >"$out/replay-$t.log" 2>&1
	rc=$?
	check $rc "fuzz_$t replays $(ls "$seed" | wc -l) seed inputs"
	[ $rc -eq 0 ] || grep -A20 'ERROR\|ALARM' "$out/replay-$t.log" | head -30
	case " $replay_only " in *" $t "*) continue ;; esac
	run_target -max_total_time="$time" -print_final_stats=1 \
		"$out/corpus-$t" "$seed" >"$out/fuzz-$t.log" 2>&1
	rc=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/fuzz-$t.log")
	cov=$(grep -o 'cov: [0-9]*' "$out/fuzz-$t.log" | tail -1)
	n=$(findings "$t" | wc -l)
	check $rc "fuzz_$t for ${time}s: ${runs:-0} executions, ${cov:-cov: ?}, $n finding(s)"
	[ $rc -eq 0 ] || grep -A20 'ERROR\|ALARM' "$out/fuzz-$t.log" | head -30
	findings "$t" | sed 's/^/     finding: /'
done
suite_end
