#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Boot one QEMU q35 + OVMF machine headless and stop it at a marker.
#
#   tests/qemu/run.sh --topology FILE [--app EFI] --out DIR [--timeout S]
#       [--trace] [--quiet] [--kernel BZ [--initrd IMG] [--append STR]]
#       [--esp-extra DIR] [--nsh FILE] [--until REGEX] [--qemu-arg ARG]
#       [--qmp-on REGEX JSON] [-- APP ARGS...]
#
# See tests/qemu/README.md.  Exit status: 0 done, 124 TIMEOUT, 3 QEMU exited
# before the stop marker, 125 QEMU did not start, 2 usage.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
usage() {
	sed -n '3,11p' "$0" | sed 's/^# \{0,1\}//' >&2
	exit 2
}

topo='' app='' out='' timeout=${ASPMCTL_TIMEOUT:-180} trace=0 quiet=()
kernel='' initrd='' append='' esp_extra='' nsh='' have_args=0
until_re=()
qmp_on=()
qemu_extra=()
app_args=()
while [ $# -gt 0 ]; do
	case "$1" in
	--topology)	topo=$2; shift 2 ;;
	--app)		app=$2; shift 2 ;;
	--out)		out=$2; shift 2 ;;
	--timeout)	timeout=$2; shift 2 ;;
	--trace)	trace=1; shift ;;
	--quiet)	quiet=(--quiet); shift ;;
	--kernel)	kernel=$2; shift 2 ;;
	--initrd)	initrd=$2; shift 2 ;;
	--append)	append=$2; shift 2 ;;
	--esp-extra)	esp_extra=$2; shift 2 ;;
	--nsh)		nsh=$2; shift 2 ;;
	--until)	until_re+=("$2"); shift 2 ;;
	--qemu-arg)	qemu_extra+=("$2"); shift 2 ;;
	--qmp-on)	qmp_on+=(--qmp-on "$2" "$3"); shift 3 ;;
	--)		shift; app_args=("$@"); break ;;
	-h|--help)	usage ;;
	*)		echo "run.sh: unknown option '$1'" >&2; usage ;;
	esac
done
[ ${#app_args[@]} -gt 0 ] && have_args=1
if [ -z "$topo" ] || [ -z "$out" ]; then usage; fi
[ -n "$app" ] || [ -n "$nsh" ] || [ -n "$kernel" ] ||
	{ echo "run.sh: need --app, --nsh or --kernel" >&2; usage; }
for f in "$topo" ${app:+"$app"} ${kernel:+"$kernel"} ${initrd:+"$initrd"} ${nsh:+"$nsh"}; do
	[ -f "$f" ] || { echo "run.sh: no such file: $f" >&2; exit 2; }
done

# QEMU and the firmware (ASPMCTL_OVMF_CODE / ASPMCTL_OVMF_VARS): launch.sh
"$here/launch.sh" --check || exit 2

mkdir -p "$out"
out=$(cd "$out" && pwd)
rm -rf "$out/esp"
rm -f "$out"/serial.raw "$out"/serial.log "$out"/trace.log "$out"/qemu.log \
	"$out"/status "$out"/qemu.cmd
esp=$out/esp
mkdir -p "$esp"

# ---------------------------------------------------------------- topology
machine=''
devices=()
lineno=0
while IFS= read -r line || [ -n "$line" ]; do
	lineno=$((lineno + 1))
	line=${line%%#*}
	line=$(printf '%s' "$line" | sed 's/^[[:space:]]*//; s/[[:space:]]*$//')
	[ -n "$line" ] || continue
	kw=${line%%[[:space:]]*}
	val=$(printf '%s' "${line#"$kw"}" | sed 's/^[[:space:]]*//')
	case "$kw" in
	device)		[ -n "$val" ] || { echo "$topo:$lineno: empty device" >&2; exit 2; }
			devices+=(-device "$val") ;;
	machine)	machine="${machine:+$machine,}$val" ;;
	# acpitable FILE.asl [key=value...]: an SSDT of the topology's folder,
	# compiled with iasl, given to the guest (-acpitable); the words after
	# the file are for the checkers (tests/matrix/matrix.py: osc=denied)
	acpitable)	asl=$(dirname "$topo")/${val%%[[:space:]]*}
			aml=$out/$(basename "${asl%.asl}").aml
			iasl -p "${aml%.aml}" "$asl" >"$out/iasl.log" 2>&1 ||
				{ echo "$topo:$lineno: iasl failed on $asl (see $out/iasl.log)" >&2; exit 2; }
			devices+=(-acpitable "file=$aml") ;;
	*)		echo "$topo:$lineno: unknown keyword '$kw'" >&2; exit 2 ;;
	esac
done <"$topo"

# ---------------------------------------------------------------- ESP
shell_end='aspmctl-run: end'
mode=''
if [ -n "$kernel" ] && [ -z "$app" ] && [ -z "$nsh" ]; then
	mode='kernel-direct'		# OVMF's own -kernel loader
elif [ -n "$nsh" ] || [ $have_args -eq 1 ]; then
	mode=shell			# internal UEFI Shell runs startup.nsh
else
	mode=bootx64			# \EFI\BOOT\BOOTX64.EFI, removable-media boot
fi

# Quote one argument for the UEFI Shell: ^ escapes, "..." groups words.
nsh_quote() {
	local a=$1
	a=${a//^/^^}
	a=${a//%/^%}
	a=${a//\"/^\"}
	case "$a" in
	''|*[[:space:]#\>\|]*)	printf '"%s"' "$a" ;;
	*)			printf '%s' "$a" ;;
	esac
}

if [ -n "$esp_extra" ]; then
	cp -R "$esp_extra"/. "$esp"/
fi
if [ -n "$kernel" ] && [ "$mode" != kernel-direct ]; then
	cp "$kernel" "$esp/vmlinuz.efi"
	[ -z "$initrd" ] || cp "$initrd" "$esp/initrd.img"
	[ -z "$append" ] || printf '%s\n' "$append" >"$esp/cmdline.txt"
fi
case "$mode" in
bootx64)
	mkdir -p "$esp/EFI/BOOT"
	cp "$app" "$esp/EFI/BOOT/BOOTX64.EFI"
	;;
shell)
	{
		printf '@echo -off\r\n'
		if [ -n "$nsh" ]; then
			[ -z "$app" ] || cp "$app" "$esp/aspmctl.efi"
			sed 's/\r$//; s/$/\r/' "$nsh"
		else
			cp "$app" "$esp/aspmctl.efi"
			cmd='fs0:\aspmctl.efi'
			for a in "${app_args[@]}"; do
				cmd="$cmd $(nsh_quote "$a")"
			done
			printf '%s\r\n' "$cmd"
		fi
		printf 'echo "%s lasterror=%%lasterror%%"\r\n' "$shell_end"
	} >"$esp/startup.nsh"
	;;
esac

# ---------------------------------------------------------------- QEMU
# launch.sh adds the machine, firmware, serial console and QMP sockets
qemu=(-drive "format=raw,file=fat:rw:$esp" "${devices[@]}")
[ $trace -eq 0 ] || qemu+=(-trace 'pci_cfg_*' -trace serial_write -D "$out/trace.log")
if [ "$mode" = kernel-direct ]; then
	qemu+=(-kernel "$kernel")
	[ -z "$initrd" ] || qemu+=(-initrd "$initrd")
	[ -z "$append" ] || qemu+=(-append "$append")
fi
qemu+=(${qemu_extra[@]+"${qemu_extra[@]}"})

sup=(${quiet[@]+"${quiet[@]}"})
if [ ${#until_re[@]} -gt 0 ]; then
	for u in "${until_re[@]}"; do sup+=(--until "$u"); done
elif [ -n "$kernel" ]; then
	# a kernel ends the run by powering off (QEMU then exits by itself)
	sup+=(--until '^(\[ *[0-9.]*\] )?reboot: Power down')
elif [ "$mode" = shell ]; then
	sup+=(--until "^$shell_end")
else
	sup+=(--until '^aspmctl: done')
fi
[ -z "$kernel" ] || sup+=(--exit-ok)
[ "$mode" != shell ] || sup+=(--skip-countdown)
sup+=(${qmp_on[@]+"${qmp_on[@]}"})
launch=(--out "$out" --machine "$machine" --timeout "$timeout")
for a in ${sup[@]+"${sup[@]}"}; do launch+=(--supervise "$a"); done

[ ${#quiet[@]} -gt 0 ] || echo "run: mode=$mode topology=$topo out=$out timeout=${timeout}s"
set +e
"$here/launch.sh" "${launch[@]}" -- "${qemu[@]}"
rc=$?
set -e
exit $rc
