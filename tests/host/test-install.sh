#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# `aspmctl install` and `uninstall` (host/install.c) on a directory laid out
# as efivarfs (tests/host/efivarfs.py) and a directory as the ESP: the
# dry run changes nothing; install copies the app, writes aspmctl.conf with
# the loader this boot came through as next, creates a boot entry on the
# same partition first in BootOrder, the old entries after it; a second
# install is refused; uninstall leaves BootOrder and the ESP as it found
# them; under Secure Boot the entry starts the system's shim with the signed
# app as its second stage (an unsigned app is refused); BIOS boots, a
# read-only or missing ESP and a current entry that is no file are refused
# with nothing changed.
#   tests/host/test-install.sh TOOL APP [--results DIR]
set -u
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=tests/lib/suite.sh
. tests/lib/suite.sh
tool=${1:?usage: $0 TOOL APP [--results DIR]}
app=${2:?usage: $0 TOOL APP [--results DIR]}
suite_start host-install "$([ "${3:-}" = --results ] && echo "$4")"
work=$(mktemp -d "${TMPDIR:-/tmp}/aspmctl-install.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
v=$work/efivars esp=$work/esp
fx() { python3 tests/host/efivarfs.py "$@"; }
run() { "$tool" "$1" --efivars "$v" --esp "$esp" --app "$app" ${2:+"$2"}; }
fresh() { rm -rf "$v" "$esp"; mkdir -p "$esp"; fx make "$v" "$@"; }

fresh
before=$(fx show "$v")
out=$(run install --dry-run); rc=$?
[ "$rc" = 0 ] && [ "$(echo "$out" | grep -c '^would: ')" = 6 ] &&
	[ "$(fx show "$v")" = "$before" ] && [ -z "$(ls -A "$esp")" ]
suite_check $? "install --dry-run prints its 6 steps and changes nothing"

out=$(run install); rc=$?
shown=$(fx show "$v")
hd=$(echo "$before" | sed -n 's/^Boot0001 .* hd=\([0-9a-f]*\) .*/\1/p')
[ "$rc" = 0 ] && printf '%s\n' "$shown" | grep -qxF "Boot0002 attrs=1 desc=aspmctl hd=$hd path=\EFI\aspmctl\aspmctl.efi"
suite_check $? "install creates Boot0002 -> \\EFI\\aspmctl\\aspmctl.efi on the partition this boot came from"
printf '%s\n' "$shown" | grep -qx "BootOrder 0002,0001,0000"
suite_check $? "BootOrder: the app first, the old entries after it ($(printf '%s\n' "$shown" | grep BootOrder))"
cmp -s "$app" "$esp/EFI/aspmctl/aspmctl.efi" &&
	grep -qx 'command = boot' "$esp/EFI/aspmctl/aspmctl.conf" &&
	grep -qx 'next = \\EFI\\debian\\shimx64.efi' "$esp/EFI/aspmctl/aspmctl.conf" &&
	grep -qx 'tries = 3' "$esp/EFI/aspmctl/aspmctl.conf"
suite_check $? "the app is on the ESP; aspmctl.conf: next = the loader of BootCurrent, tries = 3"
printf '%s\n' "$before" | grep '^Boot000[01]' >"$work/old"
printf '%s\n' "$shown" | grep '^Boot000[01]' | cmp -s - "$work/old"
suite_check $? "the old entries are unchanged"

snap=$(fx show "$v")
err=$(run install 2>&1); rc=$?
[ "$rc" = 1 ] && echo "$err" | grep -q 'already installed as boot entry Boot0002' && [ "$(fx show "$v")" = "$snap" ]
suite_check $? "a second install is refused and changes nothing"

printf '\007\000\000\000\003\000\000\000' >"$v/AspmctlBootCount-5b3c4e1a-9f2d-4c7e-8a61-2d0e6f4b9c13"
out=$(run uninstall); rc=$?
[ "$rc" = 0 ] && [ "$(fx show "$v")" = "$before" ] && [ ! -e "$esp/EFI/aspmctl" ] &&
	[ ! -e "$v/AspmctlBootCount-5b3c4e1a-9f2d-4c7e-8a61-2d0e6f4b9c13" ]
suite_check $? "uninstall leaves the variables as install found them, the ESP without the app, no counter"
err=$(run uninstall 2>&1); rc=$?
[ "$rc" = 1 ] && echo "$err" | grep -q 'not installed by aspmctl install'
suite_check $? "uninstall when not installed is refused"

fresh
err=$("$tool" install --efivars "$work/none" --esp "$esp" --app "$app" 2>&1); rc=$?
[ "$rc" = 1 ] && echo "$err" | grep -q 'did not boot through UEFI' && [ -z "$(ls -A "$esp")" ]
suite_check $? "a BIOS boot (no efivarfs) is refused"

# Secure Boot: behind the system's shim, the app as shim's second stage
fresh --secure-boot
before=$(fx show "$v")
err=$(run install 2>&1); rc=$?
[ "$rc" = 1 ] && echo "$err" | grep -q 'Secure Boot is on and the app is not signed' &&
	[ "$(fx show "$v")" = "$before" ] && [ -z "$(ls -A "$esp")" ]
suite_check $? "Secure Boot on, unsigned app: refused, nothing changed"
signed=$work/aspmctl.signed.efi
scripts/sign.sh "$app" "$signed" >"$work/sign.log" 2>&1
suite_check $? "the app signed with the test key (scripts/sign.sh)"
out=$("$tool" install --efivars "$v" --esp "$esp" --app "$signed"); rc=$?
shown=$(fx show "$v")
[ "$rc" = 0 ] && printf '%s\n' "$shown" |
	grep -qxF "Boot0002 attrs=1 desc=aspmctl hd=$hd path=\EFI\debian\shimx64.efi opt=\EFI\aspmctl\aspmctl.efi" &&
	printf '%s\n' "$shown" | grep -qx "BootOrder 0002,0001,0000"
suite_check $? "Secure Boot on: Boot0002 -> the system's shim with the app as its load option, first in BootOrder"
cmp -s "$signed" "$esp/EFI/aspmctl/aspmctl.efi" &&
	grep -qx 'next = \\EFI\\debian\\grubx64.efi' "$esp/EFI/aspmctl/aspmctl.conf"
suite_check $? "Secure Boot on: the signed app on the ESP; next = shim's second stage (grubx64.efi beside it)"
out=$(run uninstall); rc=$?
[ "$rc" = 0 ] && [ "$(fx show "$v")" = "$before" ] && [ ! -e "$esp/EFI/aspmctl" ]
suite_check $? "Secure Boot on: uninstall leaves the variables as install found them"

fresh
printf '/dev/vda1 /boot/efi vfat ro,relatime 0 0\n' >"$work/mounts"
err=$("$tool" install --efivars "$v" --mounts "$work/mounts" --app "$app" 2>&1); rc=$?
[ "$rc" = 1 ] && echo "$err" | grep -q 'read-only or not writable'
suite_check $? "an ESP mounted read-only is refused"
printf '/dev/vda2 / ext4 rw 0 0\n' >"$work/mounts"
err=$("$tool" install --efivars "$v" --mounts "$work/mounts" --app "$app" 2>&1); rc=$?
[ "$rc" = 1 ] && echo "$err" | grep -q 'no EFI System Partition mounted'
suite_check $? "no ESP mounted is refused"

printf '\006\000\000\000\000\000' >"$v/BootCurrent-8be4df61-93ca-11d2-aa0d-00e098032b8c"
before=$(fx show "$v")
err=$(run install 2>&1); rc=$?
[ "$rc" = 1 ] && echo "$err" | grep -q 'not a file on a disk partition: Boot0000' &&
	[ "$(fx show "$v")" = "$before" ] && [ -z "$(ls -A "$esp")" ]
suite_check $? "a current entry that is no file (PXE) is refused"
suite_end
