#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# QEMU smoke test: boot APP (report mode, no arguments) on a topology and
# check its `fn` and `aspm link` records (docs/records.md) against
# tests/qemu/expect.py, which derives the expectation from the topology file
# alone.  One line per check; writes "qemu-smoke P F" to RESULTS/qemu-smoke.count
# and ends with "P passed, F failed".
#
#   tests/qemu/smoke.sh APP [--topology FILE] [--out DIR] [--results DIR]
#                           [--timeout S]
#   tests/qemu/smoke.sh --log SERIAL_LOG [--topology FILE] ...   (no boot:
#                           check an existing serial log)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
app='' log='' topo=$here/topologies/default.topo out=build/qemu-smoke
results=build/results timeout=${ASPMCTL_TIMEOUT:-180}
while [ $# -gt 0 ]; do
	case "$1" in
	--topology)	topo=$2; shift 2 ;;
	--out)		out=$2; shift 2 ;;
	--results)	results=$2; shift 2 ;;
	--timeout)	timeout=$2; shift 2 ;;
	--log)		log=$2; shift 2 ;;
	-*)		echo "smoke.sh: unknown option $1" >&2; exit 2 ;;
	*)		app=$1; shift ;;
	esac
done
[ -n "$app" ] || [ -n "$log" ] || { sed -n '3,13p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
mkdir -p "$out"
# shellcheck source=tests/lib/suite.sh
. "$here/../lib/suite.sh"
suite_start qemu-smoke "$results"
checks=$out/checks.txt
: >"$checks"
have_expect=1

echo "qemu-smoke: topology $(basename "$topo")"
# The expectation must exist before anything else counts.
if ! python3 "$here/expect.py" "$topo" >"$out/expected.txt" 2>"$out/expect.err"; then
	echo "FAIL expect.py: $(cat "$out/expect.err")" >>"$checks"
	have_expect=0
fi

if [ -z "$log" ]; then
	rc=0
	"$here/run.sh" --topology "$topo" --app "$app" --out "$out" --quiet \
		--timeout "$timeout" -- report >"$out/run.out" 2>&1 || rc=$?
	log=$out/serial.log
	status=$(sed -n 's/^status=\([A-Z]*\).*/\1/p' "$out/status" 2>/dev/null || true)
	wall=$(sed -n 's/.* wall=\([0-9.]*\).*/\1/p' "$out/status" 2>/dev/null || true)
	appt=$(sed -n 's/.* app=\([0-9.-]*\).*/\1/p' "$out/status" 2>/dev/null || true)
	case $rc in
	0)	echo "ok   boot: app reached at ${appt}s, done at ${wall}s (TCG)" >>"$checks" ;;
	124)	echo "FAIL boot: TIMEOUT after ${timeout}s (no 'aspmctl: done'); see $out/serial.log" >>"$checks" ;;
	*)	echo "FAIL boot: run.sh exit $rc (${status:-no status}); see $out/run.out" >>"$checks" ;;
	esac
fi

done_line=$(grep -a -m1 '^aspmctl: done' "$log" || true)
if [ $have_expect -eq 1 ]; then
	if [ -z "$done_line" ]; then
		echo "FAIL app exit: no 'aspmctl: done' line" >>"$checks"
	elif [[ $done_line =~ status=0x0+($|[[:space:]]) ]]; then
		echo "ok   app exit: $done_line" >>"$checks"
	else
		echo "FAIL app exit: $done_line" >>"$checks"
	fi
	python3 "$here/expect.py" --check-app "$log" "$topo" >>"$checks" 2>&1 ||
		echo "FAIL expect.py --check-app crashed" >>"$checks"
fi

suite_count_file "$checks" 0 smoke.sh
suite_end
