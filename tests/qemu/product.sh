#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# QEMU product tests of aspmctl.efi: the UEFI Shell tool, the
# chainloader in front of the efi-stub and of a Linux kernel, FADT emulation,
# config-write accounting from QEMU's pci_cfg trace, the lspci -F dump and
# the boot-mode error paths.  One line "ok|FAIL <what>" per check; writes
# "product P F" to RESULTS/product.count and ends with "P passed, F failed".
#
#   tests/qemu/product.sh APP [--out DIR] [--results DIR] [--timeout S]
#       [--stub EFI] [--kernel BZIMAGE --initrd IMG] [--no-kernel] [--jobs N]
#
# APP is build/aspmctl.efi.  The efi-stub is built into DIR with
# tests/efi-stub/build.sh unless --stub is given.  The kernel defaults to
# KERNEL_UNPATCHED and INITRAMFS of linux/kernel-env.sh (make
# kernel-unpatched builds it; make test does, in its kernel suite); when
# there is none, the Linux checks FAIL, unless --no-kernel lists them as
# "skip".
# Boots run N at a time (default 2) on tests/qemu/topologies/default.topo,
# each in DIR/NAME (run.sh's output: serial.log, trace.log, esp/, status);
# files the app writes go to FAT images (DIR/img/*.img, read back with
# mtools) because QEMU's vvfat ESP does not keep guest writes reliably.
# Needs dosfstools, mtools and pciutils besides QEMU and OVMF.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
app='' out=build/qemu-product results=build/results stub='' kernel='' initrd=''
use_kernel=1 jobs=${ASPMCTL_PRODUCT_JOBS:-2} tshort=60 tlong=150
topo=$here/topologies/default.topo
guid=5b3c4e1a-9f2d-4c7e-8a61-2d0e6f4b9c13
usage() { sed -n '3,20p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
while [ $# -gt 0 ]; do
	case "$1" in
	--out)		out=$2; shift 2 ;;
	--results)	results=$2; shift 2 ;;
	--timeout)	tshort=$2; tlong=$2; shift 2 ;;
	--stub)		stub=$2; shift 2 ;;
	--kernel)	kernel=$2; shift 2 ;;
	--initrd)	initrd=$2; shift 2 ;;
	--no-kernel)	use_kernel=0; shift ;;
	--jobs)		jobs=$2; shift 2 ;;
	-h|--help)	usage ;;
	-*)		echo "product.sh: unknown option $1" >&2; usage ;;
	*)		app=$1; shift ;;
	esac
done
[ -n "$app" ] || usage
[ -f "$app" ] || { echo "product.sh: no such file: $app" >&2; exit 2; }
t0=$(date +%s.%N)
mkdir -p "$out"
out=$(cd "$out" && pwd)
# shellcheck source=tests/lib/suite.sh
. "$here/../lib/suite.sh"
suite_start product "$results"
app=$(cd "$(dirname "$app")" && pwd)/$(basename "$app")
checks=$out/checks.txt
: >"$checks"
note() { echo "$*" >>"$checks"; }

# ---------------------------------------------------------------- inputs
if [ -z "$stub" ]; then
	stub=$out/efi-stub.efi
	"$root/tests/efi-stub/build.sh" "$stub" >"$out/stub-build.log" 2>&1 ||
		{ note "FAIL efi-stub: build failed, see $out/stub-build.log"; stub=''; }
fi
if [ $use_kernel -eq 1 ] && [ -z "$kernel" ]; then
	kernel=$("$root/linux/kernel-env.sh" --get KERNEL_UNPATCHED 2>/dev/null || true)
	initrd=$("$root/linux/kernel-env.sh" --get INITRAMFS 2>/dev/null || true)
fi
if [ $use_kernel -eq 0 ] || [ ! -f "$kernel" ] || [ ! -f "$initrd" ]; then
	[ $use_kernel -eq 0 ] || echo "product: no kernel at '${kernel:-?}' / initrd '${initrd:-?}' (make kernel-unpatched): the Linux checks fail (--no-kernel skips them)"
	kernel='' initrd=''
fi
# the checker: 1 kernel present, 0 missing (its checks fail), skip (--no-kernel)
kernel_mode=$([ -n "$kernel" ] && echo 1 || { [ $use_kernel -eq 1 ] && echo 0 || echo skip; })
for t in mkfs.vfat mmd mcopy lspci; do
	command -v $t >/dev/null && continue
	note "FAIL prerequisites: $t missing (apt-get install dosfstools mtools pciutils)"
	suite_count_file "$checks" 0 product.sh
	suite_end
	exit 1
done

# ---------------------------------------------------------------- UEFI Shell script
# QEMU 7.2's vvfat (the fat:rw: ESP of run.sh) does not keep what the guest
# writes: seen here, a 222770-byte dump had zeros from 184 KiB on, a new
# 6 KiB results file held another file's clusters, and one run died in
# vvfat's handle_renames_and_mkdirs assertion.  So whatever the app writes
# and a check reads back goes to a real FAT image on a second AHCI disk
# (made and read with mtools): here FS1, with another copy of the app; in
# the boot-mode runs below, the disk OVMF boots first (bootindex=0).
nsh=$out/shell.nsh
cases=$out/shell-cases.tsv
: >"$nsh"
: >"$cases"
# sec NAME EXPECT(0x0|0x2|0xE) MUST-CONTAIN COMMAND-LINE
sec() {
	printf 'echo "product-begin %s"\n%s\necho "product-end %s lasterror=%%lasterror%%"\n' \
		"$1" "$4" "$1" >>"$nsh"
	printf '%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" >>"$cases"
}
A='fs0:\aspmctl.efi'
B='fs1:\aspmctl.efi'
sec report	0x0 ''	"$A report"
sec report-v	0x0 ''	"$A report -v"
sec plan	0x0 ''	"$A plan --policy force"
# per-device exclusions on the NVMe drive (QEMU's nvme is 1b36:0010, at
# 05:00.0 below the switch), one rule that matches nothing, a bad rule
sec plan-excl	0x0 ''	"$A plan --policy powersupersave --disable L0s@1b36:0010 --disable L1@dead:beef"
sec bad-disable	0x2 "'L3@1b36:0010'"	"$A plan --disable L3@1b36:0010"
sec apply	0x0 ''	"$A apply --policy clear"
sec remove	0x0 ''	"$A remove 0000:04:00.0"
sec help	0x0 ''	"$A -h"
sec version	0x0 ''	"$A version"
sec bad-option	0x2 "'--bogus'"		"$A report --bogus"
sec bad-policy	0x2 "'sometimes'"	"$A plan --policy sometimes"
sec bad-bdf	0x2 "'0000:zz:00.0'"	"$A remove 0000:zz:00.0"
sec no-bdf	0x2 'missing BDF'	"$A remove"
sec unknown	0x2 "'frobnicate'"	"$A frobnicate"
sec fadt-noflag	0x2 '--set-no-aspm'	"$A fadt"
sec bad-dump-dir 0x2 "'mydump'"		"$A dump mydump"
sec apply-apply	0x2 "'remove'"		"$A apply --apply"
printf 'if exist fs1:\\product.tag then\n  echo "product-image fs1 ok"\nendif\n' >>"$nsh"
sec dump	0x0 ''	"$B dump"
# boot mode, errors: a configuration file that cannot be read (a folder),
# one with a bad value, a next loader that does not exist
printf 'mkdir fs1:\\EFI\\aspmctl\\aspmctl.conf\n' >>"$nsh"
sec conf-unreadable 0x0 'unreadable conf' "$B boot --next \\stub.efi --next-options \"unreadable conf\""
printf 'rm -q fs1:\\EFI\\aspmctl\\aspmctl.conf\n' >>"$nsh"
printf 'cp -q fs1:\\conf\\badvalue.cfg fs1:\\EFI\\aspmctl\\aspmctl.conf\n' >>"$nsh"
sec conf-bad-value 0x0 'after bad value' "$B boot"
printf 'rm -q fs1:\\EFI\\aspmctl\\aspmctl.conf\n' >>"$nsh"
printf 'cp -q fs1:\\conf\\big.cfg fs1:\\EFI\\aspmctl\\aspmctl.conf\n' >>"$nsh"
sec conf-too-long 0x0 'too long conf' "$B boot --next \\stub.efi --next-options \"too long conf\""
printf 'rm -q fs1:\\EFI\\aspmctl\\aspmctl.conf\n' >>"$nsh"
sec missing-next 0xE '\nope.efi' "$B boot --next \\nope.efi"
# FADT emulation, then Linux from the Shell
sec fadt-set	0x0 ''	"$A fadt --set-no-aspm"
sec report-fadt	0x0 ''	"$A report"
[ -z "$kernel" ] ||
	printf '%s\n' 'fs0:\vmlinuz.efi console=ttyS0 initrd=\initrd.img panic=-1 aspmctl.product=shell' >>"$nsh"

# mkimg NAME [SRC DEST]...: DIR/img/NAME.img, a FAT image with
# EFI/aspmctl/ and the files given; prints its path
mkimg() {
	local img=$out/img/$1.img
	shift
	mkdir -p "$out/img"
	rm -f "$img"
	mkfs.vfat -C -n ASPMTEST "$img" 16384 >/dev/null
	mmd -i "$img" ::/EFI ::/EFI/BOOT ::/EFI/aspmctl ::/conf
	while [ $# -gt 1 ]; do
		[ -z "$1" ] || mcopy -i "$img" "$1" "::/$2"
		shift 2
	done
	echo "$img"
}
stage=$out/stage
mkdir -p "$stage"
printf 'command = boot\npolicy = sometimes\nnext = \\stub.efi\nnext-options = after bad value\n' \
	>"$stage/badvalue.cfg"
{ echo 'command = boot'; for i in $(seq 1 160); do
	echo "# padding line $i: a configuration file longer than the app reads"; done
	echo 'next = \stub.efi'; } >"$stage/big.cfg"
echo "aspmctl product test image" >"$stage/product.tag"
img=$(mkimg fs1 "$app" aspmctl.efi "$stub" stub.efi "$stage/product.tag" product.tag \
	"$stage/badvalue.cfg" conf/badvalue.cfg "$stage/big.cfg" conf/big.cfg)

# ---------------------------------------------------------------- boot-mode images
# conf NAME: stdin -> DIR/stage/NAME.conf; prints the path
conf() { cat >"$stage/$1.conf"; echo "$stage/$1.conf"; }
# esp-extra for the trace runs (no file written there)
extra() {
	local d=$out/extra/$1
	rm -rf "$d"
	mkdir -p "$d/EFI/aspmctl"
	cat >"$d/EFI/aspmctl/aspmctl.conf"
	echo "$d"
}
# (a boot entry with neither a command nor aspmctl.conf has nothing to do)
x_report=$(printf 'command = report\n' | extra report)
x_plan=$(printf 'command = plan\npolicy = force\n' | extra plan)
x_apply=$(printf 'command = apply\npolicy = force\n' | extra apply)
B64=EFI/BOOT/BOOTX64.EFI
C=EFI/aspmctl/aspmctl.conf
chain_opts='alpha beta=2 "gamma delta" \x\y.txt'
# saved as Windows Notepad does ("Unicode": UTF-16LE with a BOM, CRLF), a
# '/' path and a quoted value: the app must read it as the plain file
utf16() { python3 -c 'import sys; t = sys.stdin.read().replace("\n", "\r\n"); sys.stdout.buffer.write(("\ufeff" + t).encode("utf-16-le"))'; }
i_chain=$(mkimg chain-stub "$app" $B64 "$stub" stub.efi "$(printf '%s\n' '# chainload the efi-stub' \
	'command = boot' 'policy = force  # a comment' 'next = /stub.efi' "next-options = '$chain_opts'" |
	utf16 | conf chain-stub)" $C)
i_badconf=$(mkimg bad-conf "$app" $B64 "$stub" stub.efi "$(printf 'command = boot\nthis line has no equals sign\nnext = \\stub.efi\nnext-options = after bad syntax\n' |
	conf bad-conf)" $C)
i_missing=$(mkimg missing-next "$app" $B64 "$(printf 'command = boot\nnext = \\EFI\\nope\\missing.efi\n' |
	conf missing-next)" $C)
kopts="console=ttyS0 initrd=\\initrd.img aspmctl.guid=$guid panic=-1"
if [ -n "$kernel" ]; then
	i_linux=$(mkimg chain-linux "$app" $B64 "$kernel" vmlinuz.efi "$initrd" initrd.img \
		"$(printf '%s\n' 'command = boot' 'policy = force' 'next = \vmlinuz.efi' \
		"next-options = $kopts aspmctl.product=chain-linux" | conf chain-linux)" $C)
	i_linux_fadt=$(mkimg chain-linux-fadt "$app" $B64 "$kernel" vmlinuz.efi "$initrd" initrd.img \
		"$(printf '%s\n' 'command = boot' 'emulate-fadt = set-no-aspm' 'fadt-mode = clear' \
		'next = \vmlinuz.efi' "next-options = $kopts aspmctl.product=chain-linux-fadt" |
		conf chain-linux-fadt)" $C)
fi
# first boot disk: the image; run.sh's vvfat ESP (port 0) holds the efi-stub
# as BOOTX64.EFI, i.e. the next boot option
disk() {
	printf '%s\n' --qemu-arg -drive --qemu-arg "file=$1,format=raw,if=none,id=testimg" \
		--qemu-arg -device --qemu-arg "ide-hd,drive=testimg,bus=ide.1${2:+,bootindex=$2}"
}

# ---------------------------------------------------------------- boots
: >"$out/boots.txt"
boot() {	# boot NAME RUN.SH-ARGS...
	local name=$1 d=$out/$1
	shift
	while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
	mkdir -p "$d"
	rm -f "$d/rc" "$d/run.out"
	echo "$name" >>"$out/boots.txt"
	(
		rc=0
		"$here/run.sh" --topology "$topo" --out "$d" --quiet "$@" >"$d/run.out" 2>&1 || rc=$?
		echo $rc >"$d/rc"
	) &
}
kargs=()
[ -z "$kernel" ] || kargs=(--kernel "$kernel" --initrd "$initrd")
mapfile -t fs1_args < <(disk "$img")
returned='^aspmctl: .* returned \(EFI status'
linux_done='^=== aspmctl-init: done ==='
first() { mapfile -t img_args < <(disk "$1" 0); }

echo "product: boots on $(basename "$topo"), $jobs at a time, output in $out"
# longest first
boot shell --app "$app" --nsh "$nsh" --timeout "$tlong" ${kargs[@]+"${kargs[@]}"} \
	"${fs1_args[@]}" ${kernel:+--until "$linux_done"}
if [ -n "$stub" ]; then
	if [ -n "$kernel" ]; then
		first "$i_linux"
		boot chain-linux --app "$stub" "${img_args[@]}" --timeout "$tlong" --until "$linux_done"
		first "$i_linux_fadt"
		boot chain-linux-fadt --app "$stub" "${img_args[@]}" --timeout "$tlong" --until "$linux_done"
	fi
	boot stub-1 --app "$stub" --trace --timeout "$tshort"
	boot stub-2 --app "$stub" --trace --timeout "$tshort"
	first "$i_chain"
	boot chain-stub --app "$stub" "${img_args[@]}" --timeout "$tshort" --until "$returned"
	first "$i_badconf"
	boot bad-conf --app "$stub" "${img_args[@]}" --timeout "$tshort" --until "$returned"
	first "$i_missing"
	boot missing-next --app "$stub" "${img_args[@]}" --timeout "$tshort" \
		--until '^efi-stub: load-options|^UEFI Interactive Shell'
fi
boot report --app "$app" --esp-extra "$x_report" --trace --timeout "$tshort"
boot plan --app "$app" --esp-extra "$x_plan" --trace --timeout "$tshort"
boot apply --app "$app" --esp-extra "$x_apply" --trace --timeout "$tshort"
wait
t1=$(date +%s.%N)

# read back what the app wrote on the images
dumpfile=$out/dump-config.txt
rm -f "$dumpfile" "$out"/*/boot.txt
mcopy -n -i "$img" ::/EFI/aspmctl/dump/config.txt "$dumpfile" 2>/dev/null || true
for n in chain-stub missing-next chain-linux chain-linux-fadt; do
	if [ ! -f "$out/img/$n.img" ] || [ ! -d "$out/$n" ]; then continue; fi
	mcopy -n -i "$out/img/$n.img" ::/EFI/aspmctl/results/boot.txt "$out/$n/boot.txt" 2>/dev/null || true
done

# ---------------------------------------------------------------- checks
python3 "$here/product_check.py" "$out" "$root" "$guid" "$dumpfile" "$kernel_mode" "${stub:+1}" \
	>>"$checks" 2>"$out/check.err" || note "FAIL checker crashed: $(tail -n 3 "$out/check.err" | tr '\n' ' ')"

# ---------------------------------------------------------------- verdict
suite_count_file "$checks" 0 product.sh
t2=$(date +%s.%N)
awk -v a="$t0" -v b="$t1" -v c="$t2" -v n="$(wc -l <"$out/boots.txt")" \
	'BEGIN { printf "product: %d boots in %.0f s, checks %.1f s, total %.0f s\n", n, b - a, c - b, c - a }'
suite_end
