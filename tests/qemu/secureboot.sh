#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Secure Boot end to end: aspmctl.efi under OVMF with Debian's snakeoil
# variable store (PK, KEK and db hold the snakeoil certificate; Secure Boot
# enforcing), started from boot entries written as efibootmgr writes them
# (tests/qemu/efivars.py) on a GPT disk.  One line "ok|FAIL <what>" per
# check; writes "secureboot P F" to RESULTS/secureboot.count and ends with
# "P passed, F failed".
#
#   tests/qemu/secureboot.sh APP [--out DIR] [--results DIR] [--jobs N]
#       [--timeout S] [--kernel BZIMAGE --initrd IMG]
#
# APP is the unsigned build/aspmctl.efi; the suite signs copies of it, of
# the efi-stub and of the kernel (default: KERNEL_PATCHED and INITRAMFS of
# linux/kernel-env.sh) with scripts/sign.sh's test key.  Cells:
#   signed-linux   signed app -> policy -> signed kernel: Secure Boot on in Linux
#   unsigned-app   the firmware refuses the app, boots the next entry
#   unsigned-next  signed app, unsigned next loader: refused, recorded,
#                  error returned; the next entry (Linux) reads the summary
#   fadt           --emulate-fadt set-no-aspm under Secure Boot, seen by Linux
#   shim           Microsoft-key store (OVMF_VARS_4M.ms.fd): Debian's signed
#                  shim -> the app (test key in MokList) -> kernel (same key)
# Needs sbsigntool, openssl, fdisk (sfdisk), dosfstools, mtools, ovmf,
# shim-signed, QEMU.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
app='' out=build/qemu-secureboot results=build/results kernel='' initrd=''
jobs=${ASPMCTL_PRODUCT_JOBS:-2} tlong=180
topo=$here/topologies/default.topo
guid=5b3c4e1a-9f2d-4c7e-8a61-2d0e6f4b9c13
code=${ASPMCTL_SB_CODE:-/usr/share/OVMF/OVMF_CODE_4M.snakeoil.fd}
vars=${ASPMCTL_SB_VARS:-/usr/share/OVMF/OVMF_VARS_4M.snakeoil.fd}
ms_code=/usr/share/OVMF/OVMF_CODE_4M.ms.fd ms_vars=/usr/share/OVMF/OVMF_VARS_4M.ms.fd
shim=/usr/lib/shim/shimx64.efi.signed
usage() { sed -n '3,24p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
while [ $# -gt 0 ]; do
	case "$1" in
	--out)		out=$2; shift 2 ;;
	--results)	results=$2; shift 2 ;;
	--timeout)	tlong=$2; shift 2 ;;
	--kernel)	kernel=$2; shift 2 ;;
	--initrd)	initrd=$2; shift 2 ;;
	--jobs)		jobs=$2; shift 2 ;;
	-h|--help)	usage ;;
	-*)		echo "secureboot.sh: unknown option $1" >&2; usage ;;
	*)		app=$1; shift ;;
	esac
done
[ -n "$app" ] || usage
[ -f "$app" ] || { echo "secureboot.sh: no such file: $app" >&2; exit 2; }
t0=$(date +%s.%N)
mkdir -p "$out"
out=$(cd "$out" && pwd)
# shellcheck source=tests/lib/suite.sh
. "$here/../lib/suite.sh"
suite_start secureboot "$results"
checks=$out/checks.txt
: >"$checks"
note() { echo "$*" >>"$checks"; }
verdict() {
	suite_count_file "$checks" 0 secureboot.sh
	suite_end
}

# ---------------------------------------------------------------- inputs
for t in sbsign sbverify openssl sfdisk mkfs.vfat mcopy qemu-system-x86_64; do
	command -v $t >/dev/null && continue
	note "FAIL prerequisites: $t missing (scripts/install-deps.sh test)"
done
for f in "$code" "$vars" "$ms_code" "$ms_vars"; do
	[ -f "$f" ] || note "FAIL prerequisites: $f missing (apt-get install ovmf)"
done
[ -f "$shim" ] || note "FAIL prerequisites: $shim missing (apt-get install shim-signed)"
if [ -z "$kernel" ]; then
	kernel=$("$root/linux/kernel-env.sh" --get KERNEL_PATCHED 2>/dev/null || true)
	initrd=$("$root/linux/kernel-env.sh" --get INITRAMFS 2>/dev/null || true)
fi
[ -f "$kernel" ] && [ -f "$initrd" ] ||
	note "FAIL prerequisites: no kernel at '${kernel:-?}' / initrd '${initrd:-?}' (make kernel)"
if grep -q '^FAIL' "$checks"; then verdict; exit 1; fi

in=$out/inputs
rm -rf "$in"
mkdir -p "$in"
"$root/tests/efi-stub/build.sh" "$in/stub.efi" >"$in/stub-build.log" 2>&1 ||
	{ note "FAIL efi-stub: build failed, see $in/stub-build.log"; verdict; exit 1; }
# signed copies (the kernel cache is never modified)
sign() { "$root/scripts/sign.sh" "$1" "$2" >>"$in/sign.log" 2>&1; }
if sign "$app" "$in/aspmctl.signed.efi" && sign "$in/stub.efi" "$in/stub.signed.efi" &&
	sign "$kernel" "$in/vmlinuz.signed.efi"; then
	note "ok inputs: app, efi-stub and kernel signed with the snakeoil test key (scripts/sign.sh, sbverify)"
else
	note "FAIL inputs: signing failed, see $in/sign.log"; verdict; exit 1
fi
# the unsigned images really carry no signature (a cell that boots a
# signed image as "unsigned" would prove nothing)
signed=''
for f in "$app" "$in/stub.efi"; do
	sbverify --list "$f" 2>/dev/null | grep -q '^signature 1' && signed="$signed $f"
done
[ -z "$signed" ] && note "ok inputs: $(basename "$app") and the unsigned efi-stub carry no signature" ||
	note "FAIL inputs: signed already:$signed"

# ---------------------------------------------------------------- disks
# disk NAME CONF [SRC DEST]...: DIR/NAME/disk.img, GPT with one EFI system
# partition (FAT at 1 MiB), \EFI\aspmctl\aspmctl.conf from CONF's text
disk() {
	local d=$out/$1 conf=$2 img
	shift 2
	mkdir -p "$d"
	img=$d/disk.img
	rm -f "$img"
	truncate -s 48M "$img"
	printf 'label: gpt\nstart=2048, type=C12A7328-F81F-11D2-BA4B-00A0C93EC93B\n' |
		sfdisk -q "$img"
	mkfs.vfat --offset 2048 -n ASPMSB "$img" $(( (48 * 1024 - 1024 - 64) )) >/dev/null 2>&1
	mmd -i "$img@@1M" ::/EFI ::/EFI/aspmctl ::/EFI/next
	printf '%s\n' "$conf" >"$d/aspmctl.conf"
	mcopy -i "$img@@1M" "$d/aspmctl.conf" ::/EFI/aspmctl/aspmctl.conf
	while [ $# -gt 1 ]; do
		mcopy -i "$img@@1M" "$1" "::/$2"
		shift 2
	done
}
# entries NAME ENTRY...: DIR/NAME/vars.fd, the snakeoil store (STORE=
# another one, MOK=a DER certificate for MokList) with these boot entries
# in this BootOrder
entries() {
	local n=$1
	shift
	local a=()
	for e in "$@"; do a+=(--entry "$e"); done
	[ -z "${MOK:-}" ] || a+=(--mok-cert "$MOK")
	python3 "$here/efivars.py" "${STORE:-$vars}" "$out/$n/vars.fd" --disk "$out/$n/disk.img" "${a[@]}"
}
kopts="console=ttyS0 initrd=\\initrd.img aspmctl.guid=$guid panic=-1"
SA=$in/aspmctl.signed.efi
SS=$in/stub.signed.efi
SK=$in/vmlinuz.signed.efi
APP='10|aspmctl|\EFI\aspmctl\aspmctl.efi'
NEXT_STUB='11|next entry|\EFI\next\stub.efi|next-entry|u'

disk signed-linux "$(printf '%s\n' 'command = boot' 'policy = force' 'next = \vmlinuz.efi' \
	"next-options = $kopts aspmctl.product=signed-linux")" \
	"$SA" EFI/aspmctl/aspmctl.efi "$SK" vmlinuz.efi "$initrd" initrd.img "$SS" EFI/next/stub.efi
entries signed-linux "$APP" "$NEXT_STUB"

disk unsigned-app "$(printf '%s\n' 'command = boot' 'next = \EFI\next\stub.efi' 'next-options = from-aspmctl')" \
	"$app" EFI/aspmctl/aspmctl.efi "$SS" EFI/next/stub.efi
entries unsigned-app "$APP" "$NEXT_STUB"

disk unsigned-next "$(printf '%s\n' 'command = boot' 'policy = force' 'next = \EFI\next\unsigned.efi' \
	'next-options = from-aspmctl')" \
	"$SA" EFI/aspmctl/aspmctl.efi "$in/stub.efi" EFI/next/unsigned.efi "$SK" vmlinuz.efi \
	"$initrd" initrd.img
entries unsigned-next "$APP" "11|linux|\\vmlinuz.efi|$kopts aspmctl.product=next-entry|u"

disk fadt "$(printf '%s\n' 'command = boot' 'emulate-fadt = set-no-aspm' 'fadt-mode = clear' \
	'next = \vmlinuz.efi' "next-options = $kopts aspmctl.product=fadt")" \
	"$SA" EFI/aspmctl/aspmctl.efi "$SK" vmlinuz.efi "$initrd" initrd.img "$SS" EFI/next/stub.efi
entries fadt "$APP" "$NEXT_STUB"

# shim: the entry starts shim with the app's path as its load option (UCS-2,
# efibootmgr -u), as a distribution's shim entry names grubx64.efi; the
# test certificate goes into MokList as mokutil --import + MokManager
# would put it; db holds only Microsoft's keys
openssl x509 -in /usr/share/ovmf/PkKek-1-snakeoil.pem -outform DER -out "$in/test-key.der"
disk shim "$(printf '%s\n' 'command = boot' 'next = \vmlinuz.efi' "next-options = $kopts aspmctl.product=shim")" \
	"$shim" EFI/aspmctl/shimx64.efi "$SA" EFI/aspmctl/aspmctl.efi "$SK" vmlinuz.efi \
	"$initrd" initrd.img "$SS" EFI/next/stub.efi
STORE=$ms_vars MOK=$in/test-key.der entries shim \
	'10|shim|\EFI\aspmctl\shimx64.efi|\EFI\aspmctl\aspmctl.efi|u' "$NEXT_STUB"

# ---------------------------------------------------------------- boots
# The secure-boot OVMF needs SMM and a secure flash (TCG here).  run.sh's
# own ESP (vvfat, BOOTX64.EFI = the signed stub, no options) comes after
# the entries: OVMF appends it to BootOrder.
: >"$out/boots.txt"
boot() {	# boot NAME UNTIL [CODE]
	local name=$1 d=$out/$1 fw=${3:-$code}
	while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
	rm -f "$d/rc" "$d/run.out"
	echo "$name" >>"$out/boots.txt"
	(
		rc=0
		ASPMCTL_OVMF_CODE=$fw ASPMCTL_OVMF_VARS=$d/vars.fd \
		"$here/run.sh" --topology "$topo" --out "$d/run" --quiet --app "$SS" \
			--timeout "$tlong" --until "$2" \
			--qemu-arg -machine --qemu-arg smm=on \
			--qemu-arg -global --qemu-arg driver=cfi.pflash01,property=secure,value=on \
			--qemu-arg -drive --qemu-arg "file=$d/disk.img,format=raw,if=none,id=sbdisk" \
			--qemu-arg -device --qemu-arg "ide-hd,drive=sbdisk,bus=ide.1" \
			>"$d/run.out" 2>&1 || rc=$?
		echo $rc >"$d/rc"
	) &
}
linux_done='^=== aspmctl-init: done ==='
echo "secureboot: boots on $(basename "$topo") under $(basename "$code"), $jobs at a time, output in $out"
boot signed-linux "$linux_done"
boot unsigned-next "$linux_done"
boot fadt "$linux_done"
boot shim "$linux_done" "$ms_code"
boot unsigned-app '^efi-stub: load-options'
wait
t1=$(date +%s.%N)
for n in signed-linux unsigned-app unsigned-next fadt shim; do
	rm -f "$out/$n/boot.txt"
	mcopy -n -i "$out/$n/disk.img@@1M" ::/EFI/aspmctl/results/boot.txt "$out/$n/boot.txt" 2>/dev/null || true
done

# ---------------------------------------------------------------- checks
python3 "$here/secureboot_check.py" "$out" "$guid" >>"$checks" 2>"$out/check.err" ||
	note "FAIL checker crashed: $(tail -n 3 "$out/check.err" | tr '\n' ' ')"
t2=$(date +%s.%N)
awk -v a="$t0" -v b="$t1" -v c="$t2" -v n="$(wc -l <"$out/boots.txt")" \
	'BEGIN { printf "secureboot: %d boots in %.0f s, total %.0f s\n", n, b - a, c - a }' >&2
verdict
