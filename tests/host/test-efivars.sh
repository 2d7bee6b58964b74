#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The host tool's `bless` and `status` (host/variables.c) on a directory laid
# out as efivarfs is (each file: 4 bytes of attributes, then the data):
# bless deletes the boot counter and says how many boots it confirmed,
# bless without a counter is not an error, a malformed counter is deleted
# too, status shows the summary and the counter, and a missing efivarfs is
# an error with a reason.
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

err=$("$tool" bless --efivars 2>&1); rc=$?
[ "$rc" = 2 ] && echo "$err" | grep -q 'take only --efivars DIR'
suite_check $? "bless with a bad argument is a usage error"
suite_end
