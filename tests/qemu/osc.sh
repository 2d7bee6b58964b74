#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The firmware's _OSC before the OS (acpi/aml) against Linux on the same
# QEMU machine: aspmctl.efi's per-bridge answer (aspm osc) with the test
# kernels' own Support/Control DWORDs (--osc-request 0x11f:0x35: their
# calculate_support()/calculate_control(), no AER, SHPC, DPC or EDR) must
# be what the stock and the patched kernel log ("_OSC: OS now controls
# [...]", "platform willing to grant [...]" and "platform retains control
# of PCIe features (AE_...)"). Topologies: default (QEMU's own DSDT, one
# host bridge that grants), osc-deny (an SSDT adds a second host bridge
# that refuses PCIe Capability control) and pxb (QEMU's DSDT with a
# pxb-pcie root bridge, whose _OSC grants hotplug control too, unlike
# pcie.0's). On osc-deny the app's auto policy
# must come to notouch and write nothing. One line "ok|FAIL" per check.
#
#   tests/qemu/osc.sh APP [--out DIR] [--results DIR]
set -u
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
app=${1:?usage: osc.sh APP [--out DIR] [--results DIR]}
shift
# shellcheck source=tests/lib/suite.sh
. "$here/../lib/suite.sh"
suite_init osc build/qemu-osc "$@"
eval "$("$repo/linux/kernel-env.sh")"
request=0x11f:0x35

# "PME,PCIeCapability" -> "[PME PCIeCapability]"; none -> "[]"
linux_words() { [ "$1" = none ] && echo "[]" || echo "[$(echo "$1" | tr ',' ' ')]"; }
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p"; }

for topo in default osc-deny pxb; do
	t=$here/topologies/$topo.topo
	d=$out/$topo
	"$here/run.sh" --topology "$t" --app "$app" --out "$d/app" -- \
		report --osc-request "$request" >"$d.app.log" 2>&1
	suite_check $? "$topo: the app's report ran"
	"$here/run.sh" --topology "$t" --app "$app" --out "$d/apply" -- apply >"$d.apply.log" 2>&1
	suite_check $? "$topo: the app's apply (--osc auto, policy auto) ran"
	for k in unpatched patched; do
		kern=$KERNEL_UNPATCHED
		[ $k = patched ] && kern=$KERNEL_PATCHED
		"$here/run.sh" --topology "$t" --kernel "$kern" --initrd "$INITRAMFS" \
			--append 'console=ttyS0 panic=-1' --out "$d/$k" >"$d.$k.log" 2>&1
		suite_check $? "$topo: the $k kernel booted"
	done
	grep '^aspm osc ' "$d/app/serial.log" >"$d/bridges.txt"
	n=0
	while IFS= read -r rec; do
		name=$(printf 'PNP0A08:%02x' "$n")
		n=$((n + 1))
		st=$(echo "$rec" | field status)
		ctl=$(linux_words "$(echo "$rec" | field control)")
		br=$(echo "$rec" | field bridge)
		for k in unpatched patched; do
			log=$d/$k/serial.log
			if [ "$st" = AE_OK ]; then
				grep -qF "$name: _OSC: OS now controls $ctl" "$log"
				suite_check $? "$topo: $br ($name) app control=$ctl, $k Linux: OS now controls $ctl"
			else
				grep -qF "$name: _OSC: platform willing to grant $ctl" "$log" &&
					grep -qF "$name: _OSC: platform retains control of PCIe features ($st)" "$log"
				suite_check $? "$topo: $br ($name) app $st control=$ctl, $k Linux: willing to grant $ctl, retains control ($st)"
			fi
		done
	done <"$d/bridges.txt"
	# as many host bridges as Linux negotiated with
	for k in unpatched patched; do
		nl=$(grep -o 'PNP0A08:[0-9a-f]*: _OSC: OS supports' "$d/$k/serial.log" | sort -u | wc -l)
		[ "$n" -gt 0 ] && [ "$n" = "$nl" ]
		suite_check $? "$topo: the app found $n host bridges, $k Linux negotiated with $nl"
	done
	res=$(grep '^aspm osc-result ' "$d/apply/serial.log" | field result)
	act=$(grep '^aspm decision ' "$d/apply/serial.log" | field action)
	wr=$(grep '^aspm stats ' "$d/apply/serial.log" | field writes)
	want=granted wact=keep
	[ "$topo" = osc-deny ] && want=denied wact=notouch
	[ "$res" = "$want" ] && [ "$act" = "$wact" ]
	suite_check $? "$topo: --osc auto: osc-result $res (want $want), action $act (want $wact)"
	if [ "$topo" = osc-deny ]; then
		[ "$wr" = 0 ]
		suite_check $? "$topo: notouch: the app wrote $wr config registers (want 0)"
	fi
done
suite_end
