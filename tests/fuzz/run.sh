#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Build and run the libFuzzer targets (clang 14, ASan + UBSan).
#   tests/fuzz/run.sh [--time S] [--out DIR] [--results DIR]
# For each target: replay the committed corpus (tests/fuzz/corpus/NAME),
# then fuzz for S seconds (default 300; `make test` uses 30) with new units
# kept in DIR/corpus-NAME. Prints executions, coverage and findings; a
# crash leaves DIR/crash-* and fails. Writes "fuzz P F" to RESULTS.
set -u
cd "$(dirname "$0")/../.."
time=300 out=build/fuzz results=build/results
while [ $# -gt 0 ]; do
	case "$1" in
	--time)		time=$2; shift 2 ;;
	--out)		out=$2; shift 2 ;;
	--results)	results=$2; shift 2 ;;
	*)		echo "run.sh: unknown option $1" >&2; exit 2 ;;
	esac
done
mkdir -p "$out" "$results"
CFLAGS="-g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -I. -DASPMCTL_HOST"
passed=0 failed=0
check() {
	if [ "$1" -eq 0 ]; then
		echo "ok   $2"; passed=$((passed + 1))
	else
		echo "FAIL $2"; failed=$((failed + 1))
	fi
}
build() {
	# shellcheck disable=SC2086
	clang $CFLAGS "tests/fuzz/fuzz_$1.c" $2 -o "$out/fuzz_$1" 2>"$out/build-$1.log"
}
build acpi "lib/*.c acpi/*.c" ; check $? "build fuzz_acpi"
build pcie "tests/sim/*.c lib/*.c acpi/*.c pcie/*.c"; check $? "build fuzz_pcie"
for t in acpi pcie; do
	[ -x "$out/fuzz_$t" ] || continue
	mkdir -p "$out/corpus-$t"
	"$out/fuzz_$t" -runs=0 "tests/fuzz/corpus/$t" >"$out/replay-$t.log" 2>&1
	check $? "fuzz_$t replays $(ls "tests/fuzz/corpus/$t" | wc -l) committed inputs"
	"$out/fuzz_$t" -max_total_time="$time" -print_final_stats=1 \
		-artifact_prefix="$out/" "$out/corpus-$t" "tests/fuzz/corpus/$t" \
		>"$out/fuzz-$t.log" 2>&1
	rc=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/fuzz-$t.log")
	cov=$(grep -o 'cov: [0-9]*' "$out/fuzz-$t.log" | tail -1)
	crashes=$(ls "$out"/crash-* "$out"/leak-* "$out"/timeout-* 2>/dev/null | wc -l)
	check $rc "fuzz_$t for ${time}s: ${runs:-0} executions, ${cov:-cov: ?}, $crashes finding(s)"
	[ $rc -eq 0 ] || grep -A20 'ERROR\|==ERROR' "$out/fuzz-$t.log" | head -30
done
echo "fuzz $passed $failed" >"$results/fuzz.count"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
