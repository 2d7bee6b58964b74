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
# One guard is applied to the extracted tree (GUARDS below, part of the
# stamp): acpi_ps_next_parse_state() (psparse.c) rewinds the parser to
# walk_state->aml_last_while on AE_CTRL_BREAK, AE_CTRL_CONTINUE and
# AE_CTRL_PENDING, which is NULL when no While ran in that method: a
# malformed operand (a method call where CreateDWordField wants a name,
# found by tests/fuzz/fuzz_aml.c; in Linux 6.1
# as in ACPICA master) then makes the parser read address 0. Guarded, the
# method stops with AE_AML_NO_WHILE (osc_query: unknown aml-error).
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
GUARDS="guards=1"
stamp="$(basename "$tarball") $(stat -c '%s %Y' "$tarball") $GUARDS"
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
# the guard: "if (!walk_state->aml_last_while) { status = AE_AML_NO_WHILE; break; }"
# before each of the three rewinds (and nothing else: counted)
ps=$tmp/drivers/acpi/acpica/psparse.c
rewind='parser_state->aml = walk_state->aml_last_while;'
[ "$(grep -c "^[[:space:]]*$rewind\$" "$ps")" = 3 ] ||
	die "psparse.c: not the three rewinds to aml_last_while the guard expects"
sed -i "s/^\([[:space:]]*\)\($rewind\)\$/\1if (!walk_state->aml_last_while) { status = AE_AML_NO_WHILE; break; } \/* aspmctl *\/\n\1\2/" "$ps"
[ "$(grep -c 'AE_AML_NO_WHILE; break; } /\* aspmctl' "$ps")" = 3 ] ||
	die "psparse.c: the aml_last_while guard did not apply"
echo "$stamp" >"$tmp/.stamp"
rm -rf "$dest"
mv "$tmp" "$dest"
