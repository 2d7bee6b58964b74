#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# ACPICA, the reference AML interpreter, as Linux 6.1 carries it
# (drivers/acpi/acpica/ and include/acpi/, dual BSD-3-Clause/GPL-2.0), taken
# at build time from Debian's linux-source-6.1 tarball, never committed.
#
#   acpi/aml/fetch-acpica.sh DEST
#
# Extracts only those two folders into DEST (drivers/acpi/acpica,
# include/acpi), once per tarball: DEST/.stamp holds the tarball's name,
# size and date, and a DEST whose stamp matches is left as it is.
# Installs linux-source-6.1 first when it is missing (scripts/install-deps.sh
# acpica). ASPMCTL_LINUX_TARBALL names another tarball.
#
# The fixes in acpi/aml/patches/*.patch are applied to the extracted tree,
# in the order of their names (patch -p1 -F0: every context line must match,
# so a hunk is never placed by fuzz; their checksum is part of the stamp; one
# the tarball already holds is skipped): faults of Linux 6.1's
# ACPICA on malformed AML, found by tests/fuzz/fuzz_aml.c, each backported
# from upstream ACPICA where it has a fix there and said so in its header
# (docs/osc.md, Fuzzing).
set -eu
dest=${1:?usage: acpi/aml/fetch-acpica.sh DEST}
root=$(cd "$(dirname "$0")/../.." && pwd)
tarball=${ASPMCTL_LINUX_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
die() { echo "fetch-acpica: $*" >&2; exit 1; }

if [ ! -r "$tarball" ] && [ -z "${ASPMCTL_LINUX_TARBALL:-}" ]; then
	"$root/scripts/install-deps.sh" acpica ||
		die "could not install linux-source-6.1 (scripts/install-deps.sh acpica)"
fi
[ -r "$tarball" ] || die "$tarball not found: install linux-source-6.1 or set ASPMCTL_LINUX_TARBALL"
patches=$(ls "$root"/acpi/aml/patches/*.patch 2>/dev/null | LC_ALL=C sort)
sums=$( [ -z "$patches" ] || cat $patches | cksum | cut -d" " -f1)
stamp="$(basename "$tarball") $(stat -c '%s %Y' "$tarball") patches=${sums:-none}"
if [ -f "$dest/.stamp" ] && [ "$(cat "$dest/.stamp")" = "$stamp" ]; then
	exit 0
fi
echo "  ACPICA    from $tarball (drivers/acpi/acpica, include/acpi)" >&2
tmp=$dest.tmp
rm -rf "$tmp"
mkdir -p "$tmp"
# the tarball's top folder is linux-source-6.1/; take whatever it is called
tar -xJf "$tarball" -C "$tmp" --strip-components=1 --wildcards \
	'*/drivers/acpi/acpica/*' '*/include/acpi/*' ||
	die "could not extract ACPICA from $tarball"
[ -f "$tmp/drivers/acpi/acpica/psparse.c" ] && [ -f "$tmp/include/acpi/acpi.h" ] ||
	die "$tarball holds no drivers/acpi/acpica or include/acpi"
command -v patch >/dev/null || "$root/scripts/install-deps.sh" acpica ||
	die "could not install patch (scripts/install-deps.sh acpica)"
# A patch that the tarball already carries (0000: Linux 6.1's stable fixes,
# in Debian's newer linux-source-6.1) is skipped; one that neither applies
# nor is carried stops the build.
for p in $patches; do
	if patch -p1 -s -f -F0 --dry-run -d "$tmp" <"$p" >/dev/null 2>&1; then
		patch -p1 -s -f -F0 --no-backup-if-mismatch -d "$tmp" <"$p" ||
			die "$(basename "$p") does not apply to $tarball's ACPICA"
	elif patch -p1 -R -s -f -F0 --dry-run -d "$tmp" <"$p" >/dev/null 2>&1; then
		echo "  ACPICA    $(basename "$p"): already in $(basename "$tarball")" >&2
	else
		die "$(basename "$p") does not apply to $tarball's ACPICA (nor is it in it)"
	fi
done
echo "$stamp" >"$tmp/.stamp"
rm -rf "$dest"
mv "$tmp" "$dest"
