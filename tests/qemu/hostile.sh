#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Hostile firmware tables in QEMU: OVMF's ACPI plus a second MCFG added with
# -acpitable (overlapping the first; with a zero base; reversed bus range).
# aspmctl.efi runs in boot mode (BOOTX64.EFI + aspmctl.conf) and must: name
# the bad region, never use it, enumerate through the good one, write
# nothing it was not asked to, and still start the next stage (efi-stub).
#   tests/qemu/hostile.sh APP [--out DIR] [--results DIR]
set -u
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
app=${1:?usage: hostile.sh APP [--out DIR] [--results DIR]}
shift
# shellcheck source=tests/qemu/lib.sh
. "$here/lib.sh"
suite_init hostile build/qemu-hostile "$@"
check() { suite_check "$@"; }	# check STATUS WHAT

stub=$out/efi-stub.efi
"$repo/tests/efi-stub/build.sh" "$stub" >"$out/stub-build.log" 2>&1
check $? "efi-stub builds"

# mcfg.py NAME BASE START END: a complete MCFG (header, checksum) on stdout
mcfg() {
	python3 - "$@" <<'PY'
import struct, sys
base, start, end = int(sys.argv[1], 0), int(sys.argv[2], 0), int(sys.argv[3], 0)
t = bytearray(60)
t[0:4] = b'MCFG'
struct.pack_into('<IB', t, 4, 60, 1)
t[10:16] = b'ASPMCT'
t[16:24] = b'HOSTILE '
struct.pack_into('<QHBB', t, 44, base, 0, start, end)
t[9] = (-sum(t)) & 0xff
sys.stdout.buffer.write(bytes(t))
PY
}

# case: name, base, start bus, end bus, what the app must say
cases=(
	"overlap 0xc0000000 0x00 0xff OVERLAPS(unused)"
	"zero-base 0x0 0x00 0x3f ZERO-BASE(unused)"
	"reversed 0xd0000000 0x40 0x10 REVERSED(unused)"
)
for c in "${cases[@]}"; do
	read -r name base start end word <<<"$c"
	d=$out/$name
	rm -rf "$d"
	mkdir -p "$d/extra/EFI/aspmctl"
	mcfg "$base" "$start" "$end" >"$d/mcfg.bin"
	cp "$stub" "$d/extra/stub.efi"
	printf 'command = boot\npolicy = force\nnext = \\stub.efi\nnext-options = stub.efi after-%s\n' \
		"$name" >"$d/extra/EFI/aspmctl/aspmctl.conf"
	rc=0
	"$here/run.sh" --topology "$here/topologies/one-rp.topo" --app "$app" \
		--out "$d/run" --esp-extra "$d/extra" --quiet --timeout 120 \
		--until '^efi-stub: load-options' \
		--qemu-arg -acpitable --qemu-arg "file=$d/mcfg.bin" \
		>"$d/run.out" 2>&1 || rc=$?
	log=$d/run/serial.log
	s=$(sed 's/\r$//' "$log" 2>/dev/null || true)
	check $rc "$name: boot finished (run.sh status $rc)"
	echo "$s" | grep -q "MCFG: 2 table(s), 2 region(s)"
	check $? "$name: both MCFG tables seen"
	echo "$s" | grep "^  segment 0000 " | grep -qF "$word"
	check $? "$name: the bad region is reported as $word"
	echo "$s" | grep -q "^aspm link up=0000:00:02.0 down=0000:01:00.0"
	check $? "$name: enumeration went through the good region (link found)"
	w=$(echo "$s" | grep -c "^aspm write " || true)
	echo "$s" | grep -q "^aspm stats .* writes=$w "
	check $? "$name: only the planned writes were made ($w, all Link Control)"
	echo "$s" | grep -q "^efi-stub: load-options .*after-$name"
	check $? "$name: the next stage started with its options"
done
suite_end
