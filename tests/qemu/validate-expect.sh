#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Check expect.py against the machine itself, without aspmctl: boot each
# topology into OVMF's UEFI Shell, run `pci` (the listing) and `pci B D F`
# (a config-space dump) for every expected function, and compare IDs, class
# codes, PCI Express port types (read from the dump's capability list) and
# bridge bus numbers with what expect.py derived from the topology file.
#
#   tests/qemu/validate-expect.sh [--out DIR] [--results DIR] [TOPO...]
#       (default: all topologies; with --results, RESULTS/validate-expect.count)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=build/validate-expect results=
while [ $# -gt 0 ]; do
	case "$1" in
	--out)		out=$2; shift 2 ;;
	--results)	results=$2; shift 2 ;;
	*)		break ;;
	esac
done
[ $# -gt 0 ] || set -- "$here"/topologies/*.topo
# shellcheck source=tests/lib/suite.sh
. "$here/../lib/suite.sh"
suite_start validate-expect "$results"
for topo in "$@"; do
	name=$(basename "$topo" .topo)
	dir=$out/$name
	mkdir -p "$dir"
	python3 "$here/expect.py" --nsh "$topo" >"$dir/check.nsh"
	n=$(($(wc -l <"$dir/check.nsh") - 1))
	if "$here/run.sh" --topology "$topo" --nsh "$dir/check.nsh" --out "$dir" \
		--quiet --timeout $((120 + n * 3)) &&
	   python3 "$here/expect.py" --check-shell "$dir/serial.log" "$topo" >"$dir/check.txt"; then
		suite_check 0 "$name: $n functions match ($(sed -n 's/.*wall=\([0-9.]*\).*/\1/p' "$dir/status") s)"
	else
		suite_check 1 "$name (see $dir/check.txt)"
		grep -v '^ok' "$dir/check.txt" 2>/dev/null | sed 's/^/    /' || true
	fi
done
suite_end
