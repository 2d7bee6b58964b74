#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The one QEMU launcher: every script that boots a machine (tests/qemu/run.sh,
# linux/boot-test.sh) starts QEMU here, so the firmware files, the machine
# type, the accelerator and the serial console / time limit are set once.
#
#   tests/qemu/launch.sh --out DIR [--machine OPTS] [--memory SIZE]
#       [--firmware ovmf|bios] [--serial supervised|file|stdio] [--timeout S]
#       [--supervise ARG]... -- QEMU-ARGS...
#   tests/qemu/launch.sh --check [--firmware ovmf|bios]
#
#   --out DIR       DIR/OVMF_VARS.fd (a private, writable copy of the variable
#                   store) and DIR/qemu.cmd (the command, runnable with sh)
#   --machine OPTS  appended to "-machine q35," (a topology's machine options)
#   --memory SIZE   -m SIZE (default ASPMCTL_MEM, else 512M)
#   --firmware F    ovmf (default): ASPMCTL_OVMF_CODE read-only and a copy of
#                   ASPMCTL_OVMF_VARS as pflash; bios: QEMU's SeaBIOS
#   --serial MODE   supervised (default): QEMU runs in DIR under
#                     tests/qemu/supervise.py (serial.raw -> serial.log, status,
#                     QMP on DIR/qmp.sock and DIR/qmp-ctl.sock), which gets
#                     --out DIR --timeout S and every --supervise ARG;
#                   file: serial console to DIR/serial.log, QEMU under
#                     timeout(1) (exit 124, or 137 when killed);
#                   stdio: serial console and monitor on this terminal, no limit
#   --timeout S     the time limit (default ASPMCTL_TIMEOUT, else 180)
#   --check         exit 0 when QEMU and the firmware files are present, else
#                   say what is missing and exit 2
# Always: -nodefaults -display none -no-reboot -no-user-config -smp 1,
# -accel ASPMCTL_ACCEL (default tcg; ASPMCTL_KVM=1 means kvm: OVMF fails
# under KVM on some hosts). QEMU (default qemu-system-x86_64) is the binary.
# QEMU-ARGS come last (drives, devices, -kernel ...). Exit status: QEMU's,
# supervise.py's or timeout's; 2 for a usage error or missing firmware.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
usage() {
	sed -n '6,10p' "$0" | sed 's/^# \{0,1\}//' >&2
	exit 2
}

out='' machine='' mem=${ASPMCTL_MEM:-512M} firmware=ovmf serial=supervised
timeout=${ASPMCTL_TIMEOUT:-180} check=0
sup=()
while [ $# -gt 0 ]; do
	case "$1" in
	--out)		out=$2; shift 2 ;;
	--machine)	machine=$2; shift 2 ;;
	--memory)	mem=$2; shift 2 ;;
	--firmware)	firmware=$2; shift 2 ;;
	--serial)	serial=$2; shift 2 ;;
	--timeout)	timeout=$2; shift 2 ;;
	--supervise)	sup+=("$2"); shift 2 ;;
	--check)	check=1; shift ;;
	--)		shift; break ;;
	-h|--help)	usage ;;
	*)		echo "launch.sh: unknown option '$1'" >&2; usage ;;
	esac
done
case $firmware in
ovmf|bios) ;;
*) echo "launch.sh: --firmware must be ovmf or bios, not '$firmware'" >&2; exit 2 ;;
esac
case $serial in
supervised|file|stdio) ;;
*) echo "launch.sh: --serial must be supervised, file or stdio, not '$serial'" >&2; exit 2 ;;
esac

qemu_bin=${QEMU:-qemu-system-x86_64}
ovmf_code=${ASPMCTL_OVMF_CODE:-/usr/share/OVMF/OVMF_CODE_4M.fd}
ovmf_vars=${ASPMCTL_OVMF_VARS:-/usr/share/OVMF/OVMF_VARS_4M.fd}
missing=0
command -v "$qemu_bin" >/dev/null ||
	{ echo "launch.sh: $qemu_bin not found (apt-get install qemu-system-x86)" >&2; missing=1; }
if [ "$firmware" = ovmf ]; then
	for f in "$ovmf_code" "$ovmf_vars"; do
		[ -f "$f" ] || { echo "launch.sh: missing $f (apt-get install ovmf)" >&2; missing=1; }
	done
fi
[ $missing -eq 0 ] || exit 2
[ $check -eq 0 ] || exit 0
[ -n "$out" ] || { echo "launch.sh: --out is required" >&2; usage; }

mkdir -p "$out"
out=$(cd "$out" && pwd)
case $out$ovmf_code in
*,*) echo "launch.sh: QEMU option values cannot hold commas: $out / $ovmf_code" >&2; exit 2 ;;
esac

accel=${ASPMCTL_ACCEL:-tcg}
[ "${ASPMCTL_KVM:-0}" = 1 ] && accel=kvm
qemu=("$qemu_bin" -machine "q35${machine:+,$machine}" -accel "$accel" -m "$mem" -smp 1
	-nodefaults -display none -no-reboot -no-user-config)
rm -f "$out/OVMF_VARS.fd"
if [ "$firmware" = ovmf ]; then
	cp "$ovmf_vars" "$out/OVMF_VARS.fd"
	chmod u+w "$out/OVMF_VARS.fd"
	# shellcheck disable=SC2054 # commas belong to QEMU's option syntax
	qemu+=(-drive "if=pflash,format=raw,unit=0,readonly=on,file=$ovmf_code"
		-drive "if=pflash,format=raw,unit=1,file=$out/OVMF_VARS.fd")
fi
case $serial in
supervised)
	# a file chardev: QEMU's 16550 drops bytes when a socket chardev pushes back
	# shellcheck disable=SC2054
	qemu+=(-chardev file,id=ser0,path=serial.raw -serial chardev:ser0 -monitor none
		-qmp unix:qmp.sock,server=on,wait=off
		-qmp unix:qmp-ctl.sock,server=on,wait=off) ;;
file)	qemu+=(-serial "file:$out/serial.log" -monitor none) ;;
stdio)	qemu+=(-serial mon:stdio) ;;
esac
qemu+=("$@")

for a in "${qemu[@]}"; do
	printf "'%s' " "$(printf '%s' "$a" | sed "s/'/'\\\\''/g")"
done >"$out/qemu.cmd"
echo >>"$out/qemu.cmd"

case $serial in
supervised)	exec python3 "$here/supervise.py" --out "$out" --timeout "$timeout" \
			${sup[@]+"${sup[@]}"} -- "${qemu[@]}" ;;
file)		exec timeout -k 5 "$timeout" "${qemu[@]}" ;;
stdio)		exec "${qemu[@]}" ;;
esac
