#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Boot a test kernel in QEMU (q35, TCG, OVMF loading it with -kernel; or
# SeaBIOS, --firmware bios) with the test initramfs, and check that /init printed its report and the guest
# powered off before the time limit.
#
# Usage: linux/boot-test.sh [options] [-- QEMU-ARGS...]
#   --variant V       patched (default) or unpatched kernel of the current series
#   --kernel FILE     boot this bzImage instead
#   --initrd FILE     default: the series' initramfs.cpio.gz
#   --append STRING   added to "console=ttyS0,115200 panic=-1" (repeatable)
#   --timeout SEC     hard limit for the whole run (default 180)
#   --out DIR         for serial.log, qemu.log, OVMF_VARS.fd, result
#                     (default <series dir>/boot/<variant>)
#   --memory MIB      guest RAM (default 512)
#   --firmware F      ovmf (default) or bios: QEMU's SeaBIOS, no UEFI (no
#                     efivars; about 10 s less per boot under TCG), for
#                     boots that test only the kernel (make difffuzz)
#   --check-runs      also fail when an aspmctl.run= command exits non-zero
#   --interactive     console on this terminal, aspmctl.shell=1, no checks
#   QEMU-ARGS         appended to QEMU's command line (topology devices);
#                     every NIC needs romfile= (empty) or OVMF tries PXE
# QEMU starts through tests/qemu/launch.sh. Environment: ASPMCTL_ACCEL (tcg;
# kvm is opt-in: OVMF fails under KVM on some hosts), QEMU
# (qemu-system-x86_64), ASPMCTL_OVMF_CODE, ASPMCTL_OVMF_VARS.
# Exit status 0 when the report is complete and the guest powered off.

set -eu
LINUX_DIR=$(cd "$(dirname "$0")" && pwd)
. "$LINUX_DIR/lib.sh"

variant=patched
kernel=""
initrd=""
append=""
timeout_s=180
out=""
mem=512
interactive=0
check_runs=0
firmware=ovmf
while [ $# -gt 0 ]; do
	case $1 in
	--variant) [ $# -ge 2 ] || die "--variant needs a value"; variant=$2; shift ;;
	--kernel) [ $# -ge 2 ] || die "--kernel needs a file"; kernel=$2; shift ;;
	--initrd) [ $# -ge 2 ] || die "--initrd needs a file"; initrd=$2; shift ;;
	--append) [ $# -ge 2 ] || die "--append needs a string"; append="$append $2"; shift ;;
	--timeout) [ $# -ge 2 ] || die "--timeout needs seconds"; timeout_s=$2; shift ;;
	--out) [ $# -ge 2 ] || die "--out needs a directory"; out=$2; shift ;;
	--memory) [ $# -ge 2 ] || die "--memory needs MiB"; mem=$2; shift ;;
	--firmware) [ $# -ge 2 ] || die "--firmware needs ovmf or bios"; firmware=$2; shift ;;
	--interactive) interactive=1 ;;
	--check-runs) check_runs=1 ;;
	--) shift; break ;;
	-h | --help) usage; exit 0 ;;
	*) die "unknown argument '$1' (see --help; QEMU arguments go after --)" ;;
	esac
	shift
done
case $variant in
patched | unpatched) ;;
*) die "--variant must be patched or unpatched, not '$variant'" ;;
esac
case $firmware in
ovmf | bios) ;;
*) die "--firmware must be ovmf or bios, not '$firmware'" ;;
esac
case $timeout_s$mem in
*[!0-9]*) die "--timeout and --memory take whole numbers" ;;
esac

# the one launcher: machine, firmware (ASPMCTL_OVMF_CODE / ASPMCTL_OVMF_VARS),
# accelerator, serial console and time limit
launch=$REPO_ROOT/tests/qemu/launch.sh
if ! "$launch" --check --firmware "$firmware" 2>/dev/null; then
	"$REPO_ROOT/scripts/install-deps.sh" run ||
		die "QEMU or OVMF missing and could not be installed (scripts/install-deps.sh run)"
fi
"$launch" --check --firmware "$firmware" || die "QEMU or OVMF missing (packages qemu-system-x86, ovmf)"

if [ -z "$kernel" ] || [ -z "$initrd" ] || [ -z "$out" ]; then
	linux_paths
	[ -n "$kernel" ] || kernel=$(build_dir "$variant")/arch/x86/boot/bzImage
	[ -n "$initrd" ] || initrd=$INITRAMFS
	[ -n "$out" ] || out=$KDIR/boot/$variant
fi
[ -f "$kernel" ] || die "kernel $kernel not found: run make kernel (linux/build-kernel.sh)"
[ -f "$initrd" ] || die "initramfs $initrd not found: run make kernel (linux/build-kernel.sh)"
mkdir -p "$out"
out=$(cd "$out" && pwd)
case $out in
*,*) die "QEMU option values cannot hold commas: $out" ;;
esac

# Every NIC must come without its iPXE option ROM.
prev=""
for a in "$@"; do
	case $prev in
	-device | -nic | -net | -netdev) ;;
	*) prev=$a; continue ;;
	esac
	opt=$prev
	prev=$a
	if [ "$opt" = -nic ] && [ "$a" != none ]; then
		die "-nic $a: use -netdev plus -device MODEL,netdev=ID,romfile= (an option ROM makes OVMF try PXE for minutes)"
	fi
	[ "$opt" = -netdev ] && continue
	case ${a%%,*} in
	*e1000* | *rtl8139* | *virtio-net* | *ne2k* | *pcnet* | *vmxnet* | igb* | i8255* | *tulip* | usb-net | nic)
		case $a in
		*romfile=*) ;;
		*) die "NIC without romfile= in QEMU arguments: '$a' (OVMF would try PXE for minutes; add romfile=)" ;;
		esac
		;;
	esac
done

cmdline="console=ttyS0,115200 panic=-1${append}"
rm -f "$out/serial.log" "$out/qemu.log" "$out/result" "$out/OVMF_VARS.fd"

set -- -kernel "$kernel" -initrd "$initrd" "$@"
if [ "$interactive" = 1 ]; then
	note "interactive: Ctrl-A X quits QEMU"
	exec "$launch" --out "$out" --firmware "$firmware" --memory "$mem" --serial stdio \
		-- "$@" -append "$cmdline aspmctl.shell=1 aspmctl.loglevel=7"
fi

# launch.sh writes the exact command, runnable again with sh, to qemu.cmd
t0=$(date +%s%N)
rc=0
"$launch" --out "$out" --firmware "$firmware" --memory "$mem" --serial file \
	--timeout "$timeout_s" -- "$@" -append "$cmdline" >"$out/qemu.log" 2>&1 </dev/null || rc=$?
t1=$(date +%s%N)
ms=$(((t1 - t0) / 1000000))
secs=$(printf '%d.%01d' $((ms / 1000)) $((ms % 1000 / 100)))

log=$out/serial.log
[ -f "$log" ] || : >"$log"
tr -d '\r' <"$log" >"$log.tmp" && mv "$log.tmp" "$log"
MARK="=== aspmctl-init:"
problems=""
problem() {
	problems="$problems
  - $*"
}

if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
	problem "timed out after ${timeout_s}s"
elif [ "$rc" != 0 ]; then
	problem "QEMU exited with status $rc (see $out/qemu.log)"
fi
grep -q "^$MARK begin init ===" "$log" || problem "/init never reported (no '$MARK begin init' line)"
grep -q "^$MARK done ===" "$log" || problem "/init did not finish (no '$MARK done' line)"
grep -q "reboot: Power down" "$log" || problem "the guest did not power off"
grep -q "Kernel panic" "$log" && problem "kernel panic: $(grep -m1 'Kernel panic' "$log")"
# Every report section but the user's own commands must succeed.
bad=$(sed -n "s/^$MARK end \([a-z]*\) rc=\([1-9][0-9]*\) ===$/\1 (rc=\2)/p" "$log" | tr '\n' ' ' | sed 's/ $//')
[ -z "$bad" ] || problem "report sections failed: $bad"
if [ "$check_runs" = 1 ]; then
	badruns=$(sed -n "s/^$MARK end \(run\.[0-9]*\) rc=\([1-9][0-9]*\) ===$/\1 (rc=\2)/p" "$log" | tr '\n' ' ' | sed 's/ $//')
	[ -z "$badruns" ] || problem "commands failed: $badruns"
fi
runs=$(sed -n "s/^$MARK end \(run\.[0-9]*\) rc=\([0-9]*\) ===$/\1=\2/p" "$log" | tr '\n' ' ' | sed 's/ $//')

release=$(sed -n "/^$MARK begin version ===/{n;n;p;}" "$log" | head -n 1)
at_init=$(sed -n "/^$MARK begin init ===/{n;s/^uptime //p;}" "$log" | head -n 1)

if [ -n "$problems" ]; then
	{
		echo "FAIL"
		echo "kernel $kernel"
		echo "elapsed $secs"
		printf 'problems:%s\n' "$problems"
	} >"$out/result"
	echo "--- last lines of $log:" >&2
	tail -n 25 "$log" >&2
	if [ -s "$out/qemu.log" ]; then
		echo "--- $out/qemu.log:" >&2
		tail -n 10 "$out/qemu.log" >&2
	fi
	die "boot of $kernel failed after ${secs}s:$problems"
fi
{
	echo "PASS"
	echo "kernel $kernel"
	echo "release $release"
	echo "elapsed $secs"
	echo "init_uptime $at_init"
	[ -z "$runs" ] || echo "runs $runs"
} >"$out/result"
printf 'boot-test: PASS %s: powered off after %ss (wall clock, %s included); /init started at kernel uptime %ss%s\n' \
	"${release:-$kernel}" "$secs" "$([ "$firmware" = ovmf ] && echo OVMF || echo SeaBIOS)" \
	"${at_init:-?}" "${runs:+; commands: $runs}"
printf 'boot-test: serial log %s\n' "$log"
