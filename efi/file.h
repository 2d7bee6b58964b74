/* SPDX-License-Identifier: GPL-2.0-only */
/* Files on the app's own volume, the ESP (efi/file.c). */
#ifndef ASPMCTL_EFI_FILE_H
#define ASPMCTL_EFI_FILE_H

#include <efi.h>
#include <stddef.h>

/* Paths like "\\EFI\\aspmctl\\x.txt", at most PATH_MAX_CHARS characters
 * (-AE_2BIG beyond). */
#define PATH_MAX_CHARS	255

/* ASCII to UCS-2, at most max - 1 characters; non-ASCII becomes '_'. */
void efi_to_ucs2(const char *s, CHAR16 *d, size_t max);
/* A path for the file protocol; refused (logged) rather than cut when
 * too long. */
int efi_path_ucs2(const char *path, CHAR16 d[PATH_MAX_CHARS + 1]);
/* esp_read_file reads text: a UTF-8 BOM is dropped and UTF-16 with a BOM
 * becomes 8-bit text (cli_conf_decode); *len is the length after that. */
int esp_read_file(EFI_HANDLE image, const char *path, char *buf, size_t max,
		  size_t *len);
int esp_write_file(EFI_HANDLE image, const char *path, const void *data,
		   size_t len);

#endif
