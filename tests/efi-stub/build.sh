#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Build the efi-stub test application with Debian's gnu-efi.
#   tests/efi-stub/build.sh OUT.efi
set -eu
out=${1:?usage: build.sh OUT.efi}
here=$(cd "$(dirname "$0")" && pwd)
arch=x86_64
inc=/usr/include/efi
lib=/usr/lib
cc=${CC:-gcc}
tmp="$out.d"
mkdir -p "$(dirname "$out")" "$tmp"
"$cc" -Wall -Wextra -Werror -std=gnu11 -O2 -fpic -ffreestanding -fshort-wchar \
	-mno-red-zone -fno-stack-protector -maccumulate-outgoing-args \
	-DEFI_FUNCTION_WRAPPER -I"$inc" -I"$inc/$arch" \
	-c "$here/stub.c" -o "$tmp/stub.o"
ld -nostdlib -znocombreloc -shared -Bsymbolic --no-undefined \
	-T "$lib/elf_${arch}_efi.lds" "$lib/crt0-efi-$arch.o" "$tmp/stub.o" \
	-L"$lib" -lefi -lgnuefi "$("$cc" -print-libgcc-file-name)" -o "$tmp/stub.so"
objcopy -j .text -j .sdata -j .data -j .dynamic -j .dynsym -j .rel \
	-j .rela -j '.rel.*' -j '.rela.*' -j .reloc \
	--target efi-app-$arch --subsystem=10 "$tmp/stub.so" "$out"
