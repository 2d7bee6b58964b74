// SPDX-License-Identifier: GPL-2.0-only
/* The UEFI console (ConOut) as a struct out. */
#include "console.h"
#include <efilib.h>

static void con_write(void *ctx, const char *s, size_t n)
{
	CHAR16 buf[130];
	unsigned k = 0;

	(void)ctx;
	for (size_t i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)s[i];

		if (ch == '\n')
			buf[k++] = L'\r';
		buf[k++] = ch < 0x80 ? ch : L'?';
		if (k >= 126) {
			buf[k] = 0;
			uefi_call_wrapper(ST->ConOut->OutputString, 2, ST->ConOut, buf);
			k = 0;
		}
	}
	if (k) {
		buf[k] = 0;
		uefi_call_wrapper(ST->ConOut->OutputString, 2, ST->ConOut, buf);
	}
}

const struct out efi_console = { .write = con_write };
