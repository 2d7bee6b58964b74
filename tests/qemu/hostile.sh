#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Hostile firmware tables in QEMU, boot mode: aspmctl.efi runs as
# \EFI\BOOT\BOOTX64.EFI with an aspmctl.conf saying "command = boot" and
# next = \stub.efi, on OVMF's ACPI plus one table added with -acpitable.
# For every case: the app's messages, no config write beyond the planned
# Link Control ones, the run ends, and the next stage (the efi-stub) still
# starts with its options.
#   - a second MCFG overlapping the first, with a zero base, with a reversed
#     bus range: the bad region is named and never used;
#   - an MCFG of odd length: skipped, enumeration through OVMF's MCFG;
#   - a second FADT (276 bytes, no-ASPM set) and a short one (116 bytes):
#     OVMF's AcpiTableDxe refuses a second FADT and leaves an XSDT whose only
#     entry is 0 -- the app says so, finds no FADT and no MCFG, writes
#     nothing and still boots;
#   - an extra table with a bad checksum: QEMU recomputes the checksum of
#     -acpitable tables (so a bad checksum cannot be presented this way; the
#     unit tests cover it): the extra table must be harmless.
# Plus a boot entry with no aspmctl.conf and no load options: the app must
# return an error so that the boot manager starts the next boot option
# (the efi-stub on the second disk), not stop at its menu.
#   tests/qemu/hostile.sh APP [--out DIR] [--results DIR]
set -u
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
app=${1:?usage: hostile.sh APP [--out DIR] [--results DIR]}
shift
# shellcheck source=tests/lib/suite.sh
. "$here/../lib/suite.sh"
suite_init hostile build/qemu-hostile "$@"
check() { suite_check "$@"; }	# check STATUS WHAT
app=$(cd "$(dirname "$app")" && pwd)/$(basename "$app")

stub=$out/efi-stub.efi
"$repo/tests/efi-stub/build.sh" "$stub" >"$out/stub-build.log" 2>&1
check $? "efi-stub builds"

# table KIND [ARGS]: a complete ACPI table (header, checksum) on stdout
#   mcfg BASE START END | fadt LENGTH | mcfg-odd | badsum
table() {
	python3 "$here/acpi_table.py" "$@"
}

# boot NAME TABLE-ARGS...: boot mode with that table added; sets $s (the
# serial log) and checks what every case must show
boot() {
	local name=$1 d=$out/$1 rc=0 w
	shift
	rm -rf "$d"
	mkdir -p "$d/extra/EFI/aspmctl"
	table "$@" >"$d/table.bin"
	cp "$stub" "$d/extra/stub.efi"
	printf 'command = boot\npolicy = force\nnext = \\stub.efi\nnext-options = stub.efi after-%s\n' \
		"$name" >"$d/extra/EFI/aspmctl/aspmctl.conf"
	"$here/run.sh" --topology "$here/topologies/one-rp.topo" --app "$app" \
		--out "$d/run" --esp-extra "$d/extra" --quiet --timeout 120 \
		--until '^efi-stub: load-options' \
		--qemu-arg -acpitable --qemu-arg "file=$d/table.bin" \
		>"$d/run.out" 2>&1 || rc=$?
	s=$(sed 's/\r$//' "$d/run/serial.log" 2>/dev/null || true)
	check $rc "$name: boot finished (run.sh status $rc)"
	w=$(echo "$s" | grep -c "^aspm write " || true)
	echo "$s" | grep -q "^aspm stats .* writes=$w " ||
		{ [ "$w" -eq 0 ] && ! echo "$s" | grep -q "^aspm stats "; }
	check $? "$name: only the planned writes were made ($w, all Link Control)"
	echo "$s" | grep -q "^aspm summary aspmctl .* next=\\\\stub.efi unconfirmed=1 tries=3 fallback=none$"
	check $? "$name: the summary was published: $(echo "$s" | grep -m1 '^aspm summary' | cut -c14-)"
	echo "$s" | grep -q "^efi-stub: load-options .*after-$name\""
	check $? "$name: the next stage started with its options"
}
has() {	# has NAME REGEX WHAT
	echo "$s" | grep -qE "$2"
	check $? "$1: $3"
}

# a second MCFG: name, base, start bus, end bus, what the app must say
for c in "overlap 0xc0000000 0x00 0xff OVERLAPS(unused)" \
	 "zero-base 0x0 0x00 0x3f ZERO-BASE(unused)" \
	 "reversed 0xd0000000 0x40 0x10 REVERSED(unused)"; do
	read -r name base start end word <<<"$c"
	boot "$name" mcfg "$base" "$start" "$end"
	has "$name" "^MCFG: 2 table\(s\), 2 region\(s\)" "both MCFG tables seen"
	echo "$s" | grep "^  segment 0000 " | grep -qF "$word"
	check $? "$name: the bad region is reported as $word"
	has "$name" "^aspm link up=0000:00:02.0 down=0000:01:00.0" \
		"enumeration went through the good region (link found)"
done

boot mcfg-odd mcfg-odd
has mcfg-odd "^aspmctl: warning: XSDT entry [0-9]+ at 0x[0-9a-f]+: MCFG is 59 bytes: not 44 \+ n \* 16; skipped \(bad length\)$" \
	"the odd MCFG is named and skipped"
has mcfg-odd "^MCFG: 1 table\(s\), 1 region\(s\)$" "OVMF's own MCFG is used"
has mcfg-odd "^aspm link up=0000:00:02.0 down=0000:01:00.0" "enumeration went through it (link found)"

for len in 276 116; do
	name=second-fadt-$len
	boot $name fadt $len
	has $name "^aspmctl: warning: XSDT entry 0 is 0; skipped$" \
		"OVMF refused the second FADT and left a zero XSDT entry: named and skipped"
	has $name "^aspmctl: error: no FADT \(FACP\) among the 1 entries of the XSDT at 0x[0-9a-f]+ \(not found\)$" \
		"no FADT: said so"
	has $name "^aspmctl: error: no usable MCFG region: cannot reach PCIe config space; nothing was written \(not found\)$" \
		"no MCFG: nothing written, said so"
	has $name "^aspm summary aspmctl .* action=none .* status=not-found next=" "summary records the error"
done

boot badsum badsum
has badsum "^ACPI: RSDP at 0x[0-9a-f]+ revision 2 OEM \"BOCHS \", XSDT at 0x[0-9a-f]+ \([0-9]+ entries\)$" \
	"the extra table (checksum recomputed by QEMU) validates: no invalid entry"
has badsum "^aspm summary aspmctl .* action=force .* status=ok " "the policy ran"

# ---------------------------------------------------------------- no configuration
# A boot entry without aspmctl.conf and without load options: the first
# boot disk (bootindex 0) is a FAT image with only the app as BOOTX64.EFI;
# the next boot option is OVMF's (run.sh's ESP with the efi-stub, or the
# built-in UEFI Shell): reaching it, not the boot manager menu, is the point.
name=no-conf
d=$out/$name
rm -rf "$d"
mkdir -p "$d"
img=$d/boot.img
rc=0
if mkfs.vfat -C -n ASPMNOCONF "$img" 8192 >/dev/null &&
	mmd -i "$img" ::/EFI ::/EFI/BOOT && mcopy -i "$img" "$app" ::/EFI/BOOT/BOOTX64.EFI; then
	"$here/run.sh" --topology "$here/topologies/one-rp.topo" --app "$stub" \
		--out "$d/run" --quiet --timeout 120 \
		--until '^efi-stub: load-options|^UEFI Interactive Shell|Boot Manager Menu' \
		--qemu-arg -drive --qemu-arg "file=$img,format=raw,if=none,id=noconf" \
		--qemu-arg -device --qemu-arg "ide-hd,drive=noconf,bus=ide.1,bootindex=0" \
		>"$d/run.out" 2>&1 || rc=$?
else
	rc=1
fi
s=$(sed 's/\r$//' "$d/run/serial.log" 2>/dev/null || true)
check $rc "$name: boot finished (run.sh status $rc)"
has $name "^aspmctl: error: \\\\EFI\\\\aspmctl\\\\aspmctl.conf: not found and no command in the load options: nothing to do as a boot entry \(not found\)$" \
	"the app says there is nothing to do"
has $name "^aspmctl: configuration unusable: ASPM left as it is$" "ASPM left as it is"
! echo "$s" | grep -q "^aspm write "
check $? "$name: no config write"
has $name "^aspmctl: done status=0x800000000000000[eE] EFI_NOT_FOUND$" "the app returns EFI_NOT_FOUND, not EFI_SUCCESS"
rest=$(echo "$s" | sed -n '/^aspmctl: done status=/,$p')
echo "$rest" | grep -qE '^BdsDxe: failed to start Boot[0-9A-F]+ .*: Not Found$' &&
	echo "$rest" | grep -qE '^BdsDxe: starting Boot[0-9A-F]+ ' &&
	echo "$rest" | grep -qE '^(efi-stub: started|UEFI Interactive Shell)'
check $? "$name: the boot manager failed that option and started the next one, no menu: $(echo "$rest" |
	grep -m1 -E '^(efi-stub: started|UEFI Interactive Shell)')"
bt=$(mtype -i "$img" ::/EFI/aspmctl/results/boot.txt 2>/dev/null | sed 's/\r$//' || true)
echo "$bt" | grep -q "^aspm summary aspmctl .* action=none .* status=not-found next=- unconfirmed=- tries=0 fallback=none$"
check $? "$name: results\\boot.txt written and records the error"
suite_end
