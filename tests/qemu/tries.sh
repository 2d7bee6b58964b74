#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Boot counting in QEMU+OVMF (README, "Boot counting"): one variable store
# kept from boot to boot, aspmctl.efi as \EFI\BOOT\BOOTX64.EFI with
# "policy = force", "tries = 2" and next = \stub.efi, nobody confirming:
#   boots 1 and 2 are counted (AspmctlBootCount 1, 2) and apply the policy;
#   boot 3 applies nothing, says why, records fallback=unconfirmed-boots in
#     aspm tries and the summary (boot.txt is the console's transcript:
#     tests/unit/test_boot.c), and still starts the stub;
#   the variable deleted (what `aspmctl bless` does from Linux; here the
#     UEFI Shell's dmpstore -d) brings the policy back on the next boot.
#   tests/qemu/tries.sh APP [--out DIR] [--results DIR]
set -u
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
app=${1:?usage: tries.sh APP [--out DIR] [--results DIR]}
shift
# shellcheck source=tests/lib/suite.sh
. "$here/../lib/suite.sh"
suite_init tries build/qemu-tries "$@"
app=$(cd "$(dirname "$app")" && pwd)/$(basename "$app")
guid=5b3c4e1a-9f2d-4c7e-8a61-2d0e6f4b9c13

stub=$out/efi-stub.efi
"$repo/tests/efi-stub/build.sh" "$stub" >"$out/stub-build.log" 2>&1
suite_check $? "efi-stub builds"

vars=''	# the previous boot's variable store ('': OVMF's empty one)
# run NAME RUN-ARGS...: one boot on that store; sets $s (serial log), $d
run() {
	local name=$1 rc=0
	shift
	d=$out/$name
	rm -rf "$d"
	mkdir -p "$d"
	ASPMCTL_OVMF_VARS=${vars:-${ASPMCTL_OVMF_VARS:-/usr/share/OVMF/OVMF_VARS_4M.fd}} \
		"$here/run.sh" --topology "$here/topologies/one-rp.topo" --out "$d/run" \
		--quiet --timeout 120 "$@" >"$d/run.out" 2>&1 || rc=$?
	s=$(sed 's/\r$//' "$d/run/serial.log" 2>/dev/null || true)
	suite_check $rc "$name: boot finished (run.sh status $rc)"
	[ -f "$d/run/OVMF_VARS.fd" ] && cp "$d/run/OVMF_VARS.fd" "$out/vars-after-$name.fd" &&
		vars=$out/vars-after-$name.fd
}
# boot NAME: boot mode as a removable-media boot entry
boot() {
	mkdir -p "$out/$1.extra/EFI/aspmctl"
	cp "$stub" "$out/$1.extra/stub.efi"
	printf 'command = boot\npolicy = force\ntries = 2\nnext = \\stub.efi\nnext-options = stub.efi after-%s\n' \
		"$1" >"$out/$1.extra/EFI/aspmctl/aspmctl.conf"
	run "$1" --app "$app" --esp-extra "$out/$1.extra" --until '^efi-stub: load-options'
	echo "$s" | grep -q "^efi-stub: load-options .*after-$1\""
	suite_check $? "$1: the next stage started"
}
has() {	# has NAME REGEX WHAT
	echo "$s" | grep -qE "$2"
	suite_check $? "$1: $3"
}
writes() {	# the app's config writes this boot, from its stats record
	echo "$s" | sed -n 's/^aspm stats .* writes=\([0-9]*\) .*/\1/p' | head -1
}

for n in 1 2; do
	boot boot$n
	has boot$n "^aspm tries unconfirmed=$n tries=2 fallback=none$" "counted: unconfirmed=$n"
	w=$(writes)
	[ "${w:-0}" -gt 0 ]
	suite_check $? "boot$n: the policy applied (${w:-no} config writes)"
	has boot$n "^aspm summary aspmctl .* action=force .* unconfirmed=$n tries=2 fallback=none$" \
		"the summary says so"
done

boot boot3
has boot3 "^aspm tries unconfirmed=2 tries=2 fallback=unconfirmed-boots$" "2 unconfirmed boots: fallback"
has boot3 "^aspmctl: warning: 2 boots in a row were not confirmed \('aspmctl bless' on Linux\): nothing applied, ASPM left as the BIOS set it$" \
	"the console says why"
[ "$(writes)" = 0 ] && ! echo "$s" | grep -q '^aspm write '
suite_check $? "boot3: no config write at all (stats writes=$(writes))"
has boot3 "^aspm summary aspmctl .* action=none .* status=ok .* unconfirmed=2 tries=2 fallback=unconfirmed-boots$" \
	"the summary records fallback=unconfirmed-boots"
# what aspmctl bless does from Linux: the variable deleted
printf 'dmpstore -d AspmctlBootCount -guid %s\r\ndmpstore AspmctlBootCount -guid %s\r\n' \
	"$guid" "$guid" >"$out/bless.nsh"
run bless --nsh "$out/bless.nsh" --until 'aspmctl-run: end'
has bless "^Delete variable '$(echo "$guid" | tr a-f A-F):AspmctlBootCount': Success$" \
	"the Shell deleted AspmctlBootCount (a counter existed)"
has bless "^dmpstore: No matching variables found.*AspmctlBootCount" "it is gone"

boot boot4
has boot4 "^aspm tries unconfirmed=1 tries=2 fallback=none$" "after the confirmation the count starts again"
w=$(writes)
[ "${w:-0}" -gt 0 ]
suite_check $? "boot4: the policy applies again (${w:-no} config writes)"
suite_end
