#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The house rules a reviewer would otherwise check by hand, as one suite:
# acpi/, pcie/, records/, app/, twin/ and host/ include no UEFI header; pcie/ knows nothing
# of ACPI; no C function outside tests/ is over 80 lines;
# no comment names a tracker issue instead of saying what a thing is.
#   tests/lint/house.sh [--results DIR]
set -u
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=tests/lib/suite.sh
. tests/lib/suite.sh
suite_start house "$([ "${1:-}" = --results ] && echo "$2")"
check() {	# check NAME COMMAND...: the command succeeds
	name=$1
	shift
	"$@" >/tmp/house.$$ 2>&1
	rc=$?
	suite_check $rc "$name"
	[ $rc -eq 0 ] || sed 's/^/     /' /tmp/house.$$ | head -20
}
none() {	# none PATTERN PATHSPEC...: git grep finds nothing
	pat=$1
	shift
	! git grep -n -E "$pat" -- "$@"
}
check "no UEFI header in acpi/ pcie/ records/ app/ twin/ host/ lib/" \
	none '#include *[<"](efi|efilib|efiapi|Uefi|Library/)' acpi pcie records app twin host lib
check "pcie/ includes nothing of acpi/" none 'include.*acpi' pcie
check "no C function over 80 lines (scripts/func-length.sh)" scripts/func-length.sh
check "no comment refers to a tracker issue" \
	none '[Ii]ssue [0-9]+|issue #[0-9]+' '*.c' '*.h' '*.sh' '*.py' '*.mk' Makefile
rm -f /tmp/house.$$
suite_end
