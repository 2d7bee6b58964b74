#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Sign an EFI image for Secure Boot with sbsign (Debian's sbsigntool).
#   scripts/sign.sh IN.efi OUT.efi [KEY CERT]
# KEY and CERT: a PEM private key and its X.509 certificate, the one whose
# certificate is in the machine's db (or in MOK, when shim starts the
# image). Without them: the snakeoil test key of Debian's ovmf package,
# whose certificate is enrolled in PK, KEK and db of its
# OVMF_VARS_4M.snakeoil.fd: for tests in QEMU only.
set -eu
[ $# -ge 2 ] && [ $# -le 4 ] || { sed -n '3,9p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
in=$1 out=$2 key=${3:-} cert=${4:-}
command -v sbsign >/dev/null ||
	{ echo "sign: sbsign missing: apt-get install sbsigntool (scripts/install-deps.sh sign)" >&2; exit 1; }
tmp=''
trap 'rm -f "$tmp"' EXIT
if [ -z "$key" ] && [ -z "$cert" ]; then
	key=/usr/share/ovmf/PkKek-1-snakeoil.key cert=/usr/share/ovmf/PkKek-1-snakeoil.pem
	[ -f "$key" ] || { echo "sign: no test key at $key (apt-get install ovmf)" >&2; exit 1; }
	echo "sign: no KEY/CERT given: using Debian's snakeoil TEST key ($cert)." >&2
	echo "sign: it is public; only OVMF_VARS_4M.snakeoil.fd trusts it. For tests in QEMU only, never for a real machine." >&2
	# the package's key is encrypted with the password 'snakeoil'
	# (README.Debian of ovmf); sbsign cannot be given a password
	tmp=$(mktemp)
	openssl pkey -in "$key" -passin pass:snakeoil -out "$tmp"
	key=$tmp
elif [ -z "$key" ] || [ -z "$cert" ]; then
	echo "sign: give both KEY and CERT, or neither (the test key)" >&2
	exit 2
fi
for f in "$in" "$key" "$cert"; do
	[ -f "$f" ] || { echo "sign: no such file: $f" >&2; exit 1; }
done
# sbsign (and sbverify) warn "data remaining[...]: gaps between PE/COFF
# sections?" about the COFF symbol table objcopy leaves after the last
# section of aspmctl.efi: it is hashed like the rest (Authenticode hashes
# what follows the sections), and OVMF and shim accept the image
sbsign --key "$key" --cert "$cert" --output "$out.tmp" "$in" 2>&1 | grep -v '^Signing Unsigned original image$' >&2 || true
sbverify --cert "$cert" "$out.tmp" >/dev/null ||
	{ echo "sign: $out.tmp does not verify against $cert" >&2; rm -f "$out.tmp"; exit 1; }
mv "$out.tmp" "$out"
echo "sign: $out signed with $(openssl x509 -in "$cert" -noout -subject)" >&2
