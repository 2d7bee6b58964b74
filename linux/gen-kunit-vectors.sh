#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Generate the KUnit table of the kernel series (patch "PCI/ASPM: Add a
# KUnit suite for the ASPM decision") from the shared decision-table
# vectors, so that the app's unit tests and the kernel's KUnit suite run
# the same rows. The patch carries the output as
# drivers/pci/pcie/aspm_test_vectors.h; tests/kernel/test-kernel.sh checks that
# the header in linux/patches/ is exactly what this script prints.
#
# Usage: linux/gen-kunit-vectors.sh [TSV]   (default tests/vectors/decision.tsv)
# Writes the header to stdout; fails on a malformed row.

set -eu
LINUX_DIR=$(cd "$(dirname "$0")" && pwd)
tsv=${1:-$LINUX_DIR/../tests/vectors/decision.tsv}
[ -r "$tsv" ] || { echo "gen-kunit-vectors.sh: cannot read $tsv" >&2; exit 1; }

cat <<'HDR'
/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every row of the ASPM decision table: override, _OSC granted, FADT
 * "PCIe ASPM Controls" bit, FADT mode, expected action, and the row's
 * line in the table it was generated from (aspmctl
 * tests/vectors/decision.tsv, by linux/gen-kunit-vectors.sh).
 * Do not edit: regenerate.
 */
HDR
awk -F '\t' '
function up(s) { return toupper(s) }
/^#/ || /^[ \t]*$/ { next }
{
	if (NF != 5) { printf "%s:%d: %d fields, want 5\n", FILENAME, NR, NF > "/dev/stderr"; bad = 1; exit 1 }
	if ($1 !~ /^(none|clear|force|notouch)$/ || $2 !~ /^(granted|denied)$/ ||
	    $3 !~ /^[01]$/ || $4 !~ /^(clear|notouch)$/ || $5 !~ /^(keep|clear|force|notouch)$/) {
		printf "%s:%d: bad row: %s\n", FILENAME, NR, $0 > "/dev/stderr"; bad = 1; exit 1
	}
	printf "{ %d, PCIE_ASPM_OVR_%s, %s, %s, PCIE_ASPM_FADT_%s, PCIE_ASPM_%s },\n",
		NR, up($1), ($2 == "granted") ? "true" : "false",
		($3 == "1") ? "true" : "false", up($4), up($5)
	n++
}
END { if (!bad && n == 0) { print "no rows" > "/dev/stderr"; exit 1 } }
' "$tsv"
