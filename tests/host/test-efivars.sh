#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The host tool's `bless` and `status` (host/variables.c) on a directory laid
# out as efivarfs is (each file: 4 bytes of attributes, then the data):
# bless deletes the boot counter and says how many boots it confirmed,
# bless without a counter is not an error, a malformed counter is deleted
# too, status shows the summary and the counter, and a missing efivarfs is
# an error with a reason; status compares each function's Link Control as
# the app left it (boot.txt's aspm target records) with sysfs now.
#   tests/host/test-efivars.sh TOOL [--results DIR]
set -u
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=tests/lib/suite.sh
. tests/lib/suite.sh
tool=${1:?usage: $0 TOOL [--results DIR]}
suite_start host-efivars "$([ "${2:-}" = --results ] && echo "$3")"
work=$(mktemp -d "${TMPDIR:-/tmp}/aspmctl-efivars.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
guid=5b3c4e1a-9f2d-4c7e-8a61-2d0e6f4b9c13
count="$work/AspmctlBootCount-$guid"
summary="$work/AspmctlSummary-$guid"

# NV+BS+RT attributes, then the count, little-endian
printf '\007\000\000\000\002\000\000\000' >"$count"
printf '\006\000\000\000aspmctl v1 action=force links=2 written=4 ignored=0 errors=0 status=ok next=\\EFI\\debian\\grubx64.efi unconfirmed=2 tries=3 fallback=none' >"$summary"

out=$("$tool" status --efivars "$work"); rc=$?
echo "$out" | grep -qx 'summary: aspmctl v1 action=force links=2 written=4 ignored=0 errors=0 status=ok next=\\EFI\\debian\\grubx64.efi unconfirmed=2 tries=3 fallback=none' &&
	echo "$out" | grep -q '^boot counter: 2 unconfirmed boot(s)'
suite_check $(( $? + rc )) "status shows the summary and 2 unconfirmed boots"

out=$("$tool" bless --efivars "$work"); rc=$?
[ "$rc" = 0 ] && [ ! -e "$count" ] && [ -e "$summary" ] &&
	[ "$out" = "aspmctl: boot confirmed: AspmctlBootCount (2 unconfirmed boot(s)) deleted" ]
suite_check $? "bless deletes the counter, and only it: $out"

out=$("$tool" bless --efivars "$work"); rc=$?
[ "$rc" = 0 ] && echo "$out" | grep -q 'already confirmed'
suite_check $? "bless without a counter succeeds and says so"

out=$("$tool" status --efivars "$work")
echo "$out" | grep -q '^boot counter: none'
suite_check $? "status after bless: no counter"

printf '\007\000\000\000\001\000\000' >"$count"
out=$("$tool" status --efivars "$work")
echo "$out" | grep -q '^boot counter: unreadable or malformed'
suite_check $? "status names a counter of 3 bytes malformed"
out=$("$tool" bless --efivars "$work"); rc=$?
[ "$rc" = 0 ] && [ ! -e "$count" ] && echo "$out" | grep -q malformed
suite_check $? "bless deletes a malformed counter"

err=$("$tool" status --efivars "$work/none" 2>&1 >/dev/null); rc=$?
[ "$rc" = 1 ] && echo "$err" | grep -q 'efivarfs not mounted'
suite_check $? "status without efivarfs fails with a reason ($err)"

# status against sysfs: what the app left (boot.txt) and Link Control now
root=$work/root esp=$work/esp
mkdir -p "$esp/EFI/aspmctl/results"
printf '%s\r\n' 'aspm tries unconfirmed=1 tries=3 fallback=none' \
	'aspm target fn=0000:00:1c.0 up=0000:00:1c.0 end=up lnkctl=0x0042 l1ss=-' \
	'aspm target fn=0000:01:00.0 up=0000:00:1c.0 end=down lnkctl=0x0142 l1ss=-' \
	'aspm target fn=0000:02:00.0 up=0000:00:1c.1 end=down lnkctl=0x0002 l1ss=-' \
	'aspm target fn=0000:03:00.0 up=0000:00:1c.2 end=down lnkctl=0x0002 l1ss=-' \
	>"$esp/EFI/aspmctl/results/boot.txt"
d=$root/sys/bus/pci/devices
python3 tests/host/efivarfs.py config "$d/0000:00:1c.0/config" 0042
python3 tests/host/efivarfs.py config "$d/0000:01:00.0/config" 0040
python3 tests/host/efivarfs.py config "$d/0000:02:00.0/config" 0002 64
out=$("$tool" status --efivars "$work" --esp "$esp" --root "$root"); rc=$?
[ "$rc" = 0 ] &&
	echo "$out" | grep -qx 'aspm tries unconfirmed=1 tries=3 fallback=none' &&
	echo "$out" | grep -qx 'aspm status fn=0000:00:1c.0 app=0x0042 now=0x0042 changed=none' &&
	echo "$out" | grep -qx 'aspm status fn=0000:01:00.0 app=0x0142 now=0x0040 changed=aspm,clkpm' &&
	echo "$out" | grep -qx 'aspm status fn=0000:02:00.0 app=0x0002 now=- changed=- note=needs-root' &&
	echo "$out" | grep -qx 'aspm status fn=0000:03:00.0 app=0x0002 now=- changed=- note=gone'
suite_check $? "status: per function, Link Control as the app left it and as Linux has it now"

err=$("$tool" bless --efivars 2>&1); rc=$?
[ "$rc" = 2 ] && echo "$err" | grep -q 'takes only --efivars DIR'
suite_check $? "bless with a bad argument is a usage error"
suite_end
