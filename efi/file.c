// SPDX-License-Identifier: GPL-2.0-only
/*
 * Files on the app's own volume (the ESP it was loaded from): the
 * configuration file, results, dumps. Paths use backslashes, as in UEFI.
 */
#include "file.h"
#include <efilib.h>
#include "../app/conf.h"
#include "../lib/status_name.h"
#include "../lib/err.h"
#include "../lib/log.h"
#include "../lib/util.h"

static EFI_FILE_HANDLE esp_root(EFI_HANDLE image)
{
	EFI_LOADED_IMAGE *li = NULL;

	if (EFI_ERROR(uefi_call_wrapper(BS->HandleProtocol, 3, image,
					&LoadedImageProtocol, (void **)&li)) || !li)
		return NULL;
	return LibOpenRoot(li->DeviceHandle);
}

void efi_to_ucs2(const char *s, CHAR16 *d, size_t max)
{
	size_t i;

	for (i = 0; s[i] && i + 1 < max; i++)
		d[i] = (unsigned char)s[i] < 0x80 ? (CHAR16)s[i] : L'_';
	d[i] = 0;
}

int efi_path_ucs2(const char *path, CHAR16 d[PATH_MAX_CHARS + 1])
{
	if (str_len(path) > PATH_MAX_CHARS)
		return log_error(-AE_2BIG, "%s: path longer than %u characters",
				 path, PATH_MAX_CHARS);
	efi_to_ucs2(path, d, PATH_MAX_CHARS + 1);
	return 0;
}

int esp_read_file(EFI_HANDLE image, const char *path, char *buf, size_t max,
		  size_t *len)
{
	EFI_FILE_HANDLE root = esp_root(image), f = NULL;
	EFI_FILE_INFO *info;
	CHAR16 p[PATH_MAX_CHARS + 1];
	UINTN n = max - 1;
	EFI_STATUS st;
	int rc = 0;

	*len = 0;
	if (!root)
		return -AE_NODEV;
	if (str_len(path) > PATH_MAX_CHARS) {
		uefi_call_wrapper(root->Close, 1, root);
		return -AE_2BIG;
	}
	efi_to_ucs2(path, p, ARRAY_SIZE(p));
	st = uefi_call_wrapper(root->Open, 5, root, &f, p, EFI_FILE_MODE_READ, 0);
	if (EFI_ERROR(st)) {
		uefi_call_wrapper(root->Close, 1, root);
		return st == EFI_NOT_FOUND ? -AE_NOENT : -AE_IO;
	}
	/* a folder reads as directory entries, a long file would be cut */
	info = LibFileInfo(f);
	if (info && (info->Attribute & EFI_FILE_DIRECTORY))
		rc = -AE_INVAL;
	else if (info && info->FileSize > max - 1)
		rc = -AE_2BIG;
	if (info)
		FreePool(info);
	if (rc) {
		uefi_call_wrapper(f->Close, 1, f);
		uefi_call_wrapper(root->Close, 1, root);
		return rc;
	}
	st = uefi_call_wrapper(f->Read, 3, f, &n, buf);
	uefi_call_wrapper(f->Close, 1, f);
	uefi_call_wrapper(root->Close, 1, root);
	if (EFI_ERROR(st))
		return -AE_IO;
	buf[n] = '\0';
	/* a text file: UTF-8 BOM dropped, UTF-16 to 8 bits (app/conf.h) */
	*len = cli_conf_decode(buf, n);
	return 0;
}

/* Create every directory on the way to the file. */
static void make_dirs(EFI_FILE_HANDLE root, const CHAR16 *p)
{
	CHAR16 d[256];

	for (unsigned i = 1; p[i] && i < ARRAY_SIZE(d) - 1; i++) {
		EFI_FILE_HANDLE h;

		if (p[i] != L'\\')
			continue;
		for (unsigned k = 0; k < i; k++)
			d[k] = p[k];
		d[i] = 0;
		if (!EFI_ERROR(uefi_call_wrapper(root->Open, 5, root, &h, d,
						 EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE |
						 EFI_FILE_MODE_CREATE, EFI_FILE_DIRECTORY)))
			uefi_call_wrapper(h->Close, 1, h);
	}
}

int esp_write_file(EFI_HANDLE image, const char *path, const void *data,
		   size_t len)
{
	EFI_FILE_HANDLE root = esp_root(image), f = NULL;
	CHAR16 p[PATH_MAX_CHARS + 1];
	UINTN n = len;
	EFI_STATUS st;

	if (!root)
		return log_error(-AE_NODEV, "%s: no file system on the app's volume", path);
	if (efi_path_ucs2(path, p)) {
		uefi_call_wrapper(root->Close, 1, root);
		return -AE_2BIG;
	}
	make_dirs(root, p);
	st = uefi_call_wrapper(root->Open, 5, root, &f, p,
			       EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE |
			       EFI_FILE_MODE_CREATE, 0);
	if (!EFI_ERROR(st)) {
		/* truncate: delete and create again */
		uefi_call_wrapper(f->Delete, 1, f);
		st = uefi_call_wrapper(root->Open, 5, root, &f, p,
				       EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE |
				       EFI_FILE_MODE_CREATE, 0);
	}
	if (EFI_ERROR(st)) {
		uefi_call_wrapper(root->Close, 1, root);
		return log_error(-AE_IO, "%s: cannot create (EFI status 0x%llx %s)", path,
				 (unsigned long long)st, efi_status_name(st));
	}
	st = uefi_call_wrapper(f->Write, 3, f, &n, (void *)data);
	uefi_call_wrapper(f->Close, 1, f);
	uefi_call_wrapper(root->Close, 1, root);
	if (EFI_ERROR(st) || n != len)
		return log_error(-AE_IO, "%s: write failed (EFI status 0x%llx %s)", path,
				 (unsigned long long)st, efi_status_name(st));
	return 0;
}
