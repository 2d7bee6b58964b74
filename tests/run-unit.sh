#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Run cmocka unit-test binaries; record and print "N passed, N failed".
#   tests/run-unit.sh RESULTS_DIR BIN...
set -u
results=$1
shift
# shellcheck source=tests/lib/suite.sh
. "$(dirname "$0")/lib/suite.sh"
suite_start unit "$results"
for bin in "$@"; do
	log="$results/$(basename "$bin").log"
	"$bin" >"$log" 2>&1
	rc=$?
	p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -1)
	f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -1)
	p=${p:-0}
	f=${f:-0}
	if [ $rc -ne 0 ] && [ "$f" -eq 0 ]; then
		# crashed (sanitizer, abort) before cmocka could count
		f=1
	fi
	printf '%-40s %3s passed, %3s failed\n' "$(basename "$bin")" "$p" "$f"
	[ "$f" -ne 0 ] && sed 's/^/    /' "$log" | grep -v '^    \[ *\(RUN\|OK\) *\]' | tail -40
	suite_add "$p" "$f"
done
suite_end
