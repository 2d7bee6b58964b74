#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# make deb: the package builds with Debian's tools, lintian finds no error
# or warning in it, it holds the app, the host tool, the unit, the man page
# and its copyright, and what it holds works (the tool runs, the app is the
# one make built, the man page renders, Depends is dpkg-shlibdeps').
#   tests/deb/test-deb.sh [--results DIR]
set -u
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=tests/lib/suite.sh
. tests/lib/suite.sh
suite_start deb "$([ "${1:-}" = --results ] && echo "$2")"
build=${BUILD:-build}
deb=$(make --no-print-directory deb 2>"$build/deb.log" | tail -1)
[ -f "$deb" ]
suite_check $? "make deb builds $(basename "$deb")"
lintian --fail-on error,warning "$deb" >"$build/lintian.log" 2>&1
suite_check $? "lintian: no error, no warning ($(grep -c '^[EW]:' "$build/lintian.log") E/W lines)"
list=$(dpkg-deb -c "$deb" | awk '{print $6}')
for f in ./usr/sbin/aspmctl ./usr/lib/aspmctl/aspmctl.efi ./lib/systemd/system/aspmctl-bless.service \
	 ./usr/share/man/man8/aspmctl.8.gz ./usr/share/doc/aspmctl/copyright; do
	echo "$list" | grep -qx "$f"
	suite_check $? "the package holds $f"
done
x=$(mktemp -d "${TMPDIR:-/tmp}/aspmctl-deb.XXXXXX")
trap 'rm -rf "$x"' EXIT INT TERM
dpkg-deb -x "$deb" "$x"
"$x/usr/sbin/aspmctl" --help | grep -q '^usage: aspmctl'
suite_check $? "the packaged tool runs (--help)"
cmp -s "$x/usr/lib/aspmctl/aspmctl.efi" "$build/aspmctl.efi"
suite_check $? "the packaged app is the one make built"
man -l "$x/usr/share/man/man8/aspmctl.8.gz" 2>&1 | grep -q 'aspmctl install'
suite_check $? "the man page renders"
dpkg-deb -f "$deb" Depends | grep -q '^libc6 (>= '
suite_check $? "Depends from dpkg-shlibdeps: $(dpkg-deb -f "$deb" Depends)"
suite_end
