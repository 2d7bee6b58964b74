#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Build check for the EFI image: the ELF intermediate must have no
# undefined symbols (a -shared link would accept them and the firmware
# would jump into nothing), the PE image must be an "EFI application"
# and must carry a base-relocation directory, and the ELF must have
# no relocation types that crt0's _relocate() cannot apply.
set -eu
so=$1
efi=$2
fail=0
undef=$(nm -u "$so" || true)
if [ -n "$undef" ]; then
	echo "check-image: undefined symbols in $so:" >&2
	echo "$undef" >&2
	fail=1
fi
bad=$(readelf -rW "$so" | awk '/R_X86_64_/ && $3 != "R_X86_64_RELATIVE" {print $3}' | sort -u)
if [ -n "$bad" ]; then
	echo "check-image: relocation types crt0 cannot apply: $bad" >&2
	fail=1
fi
hdr=$(objdump -p "$efi")
echo "$hdr" | grep -q 'Subsystem[[:space:]]*0000000a[[:space:]]*(EFI application)' || {
	echo "check-image: $efi is not a PE 'EFI application'" >&2; fail=1; }
reloc=$(echo "$hdr" | awk '/Base Relocation Directory/ {print $(NF-4)}')
case "$reloc" in
	""|00000000) echo "check-image: $efi has no base relocation directory" >&2; fail=1 ;;
esac
echo "$hdr" | grep -q 'Magic[[:space:]]*020b' || {
	echo "check-image: $efi is not PE32+" >&2; fail=1; }
[ $fail -eq 0 ] && echo "check-image: $efi ok (EFI application, PE32+, base relocations, no undefined symbols)"
exit $fail
