#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Check expect.py against the machine itself, without aspmctl: boot each
# topology into OVMF's UEFI Shell, run `pci` (the listing) and `pci B D F`
# (a config-space dump) for every expected function, and compare IDs, class
# codes, PCI Express port types (read from the dump's capability list) and
# bridge bus numbers with what expect.py derived from the topology file.
#
#   tests/qemu/validate-expect.sh [--out DIR] [TOPO...]   (default: all)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=build/validate-expect
if [ "${1:-}" = --out ]; then out=$2; shift 2; fi
[ $# -gt 0 ] || set -- "$here"/topologies/*.topo
pass=0 fail=0
for topo in "$@"; do
	name=$(basename "$topo" .topo)
	dir=$out/$name
	mkdir -p "$dir"
	python3 "$here/expect.py" --nsh "$topo" >"$dir/check.nsh"
	n=$(($(wc -l <"$dir/check.nsh") - 1))
	if "$here/run.sh" --topology "$topo" --nsh "$dir/check.nsh" --out "$dir" \
		--quiet --timeout $((120 + n * 3)) &&
	   python3 "$here/expect.py" --check-shell "$dir/serial.log" "$topo" >"$dir/check.txt"; then
		pass=$((pass + 1))
		echo "ok   $name: $n functions match ($(sed -n 's/.*wall=\([0-9.]*\).*/\1/p' "$dir/status") s)"
	else
		fail=$((fail + 1))
		echo "FAIL $name (see $dir/check.txt)"
		grep -v '^ok' "$dir/check.txt" 2>/dev/null | sed 's/^/    /' || true
	fi
done
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
