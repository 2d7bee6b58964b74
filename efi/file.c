// SPDX-License-Identifier: GPL-2.0-only
/*
 * Files on the app's own volume (the ESP it was loaded from): the
 * configuration file, results, dumps. Paths use backslashes, as in UEFI.
 */
#include "platform.h"
#include "../lib/err.h"
#include "../lib/log.h"
#include "../lib/util.h"
#include "../pcie/report.h"

static EFI_FILE_HANDLE esp_root(EFI_HANDLE image)
{
	EFI_LOADED_IMAGE *li = NULL;

	if (EFI_ERROR(uefi_call_wrapper(BS->HandleProtocol, 3, image,
					&LoadedImageProtocol, (void **)&li)) || !li)
		return NULL;
	return LibOpenRoot(li->DeviceHandle);
}

static void to_ucs2(const char *s, CHAR16 *d, size_t max)
{
	size_t i;

	for (i = 0; s[i] && i + 1 < max; i++)
		d[i] = (unsigned char)s[i] < 0x80 ? (CHAR16)s[i] : L'_';
	d[i] = 0;
}

int esp_read_file(EFI_HANDLE image, const char *path, char *buf, size_t max,
		  size_t *len)
{
	EFI_FILE_HANDLE root = esp_root(image), f = NULL;
	EFI_FILE_INFO *info;
	CHAR16 p[256];
	UINTN n = max - 1;
	EFI_STATUS st;
	int rc = 0;

	*len = 0;
	if (!root)
		return -AE_NODEV;
	to_ucs2(path, p, ARRAY_SIZE(p));
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
	*len = n;
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
	CHAR16 p[256];
	UINTN n = len;
	EFI_STATUS st;

	if (!root)
		return log_error(-AE_NODEV, "%s: no file system on the app's volume", path);
	to_ucs2(path, p, ARRAY_SIZE(p));
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
		return log_error(-AE_IO, "%s: cannot create (EFI status 0x%llx)", path,
				 (unsigned long long)st);
	}
	st = uefi_call_wrapper(f->Write, 3, f, &n, (void *)data);
	uefi_call_wrapper(f->Close, 1, f);
	uefi_call_wrapper(root->Close, 1, root);
	if (EFI_ERROR(st) || n != len)
		return log_error(-AE_IO, "%s: write failed (EFI status 0x%llx)", path,
				 (unsigned long long)st);
	return 0;
}

/* LoadImage + StartImage of a file on the app's own volume. Returns only
 * if the image could not be started or returned. */
int efi_chainload(EFI_HANDLE image, const char *path, const char *options,
		  const struct out *o)
{
	static CHAR16 p[256], opts[1024];
	EFI_LOADED_IMAGE *li = NULL, *child = NULL;
	EFI_DEVICE_PATH *dp;
	EFI_HANDLE h = NULL;
	EFI_STATUS st;
	char d[24];

	if (EFI_ERROR(uefi_call_wrapper(BS->HandleProtocol, 3, image,
					&LoadedImageProtocol, (void **)&li)) || !li)
		return log_error(-AE_NODEV, "chainload: no loaded-image protocol");
	to_ucs2(path, p, ARRAY_SIZE(p));
	dp = FileDevicePath(li->DeviceHandle, p);
	if (!dp)
		return log_error(-AE_NOMEM, "chainload: no device path for %s", path);
	st = uefi_call_wrapper(BS->LoadImage, 6, FALSE, image, dp, NULL, 0, &h);
	FreePool(dp);
	if (EFI_ERROR(st))
		return log_error(st == EFI_NOT_FOUND ? -AE_NOENT : -AE_IO,
				 "chainload: cannot load %s (EFI status 0x%llx)", path,
				 (unsigned long long)st);
	if (options && *options &&
	    !EFI_ERROR(uefi_call_wrapper(BS->HandleProtocol, 3, h,
					 &LoadedImageProtocol, (void **)&child)) && child) {
		to_ucs2(options, opts, ARRAY_SIZE(opts));
		child->LoadOptions = opts;
		child->LoadOptionsSize = (UINT32)((StrLen(opts) + 1) * sizeof(CHAR16));
	}
	/* the chainloader's own cost to the boot, LoadImage included
	 * (tests/bench reads this line) */
	format_ns(efi_time_since_entry_ns(), d, sizeof(d));
	out_printf(o, "aspmctl: time from entry to StartImage %s\n", d);
	out_printf(o, "aspmctl: starting %s %s\n", path, options ? options : "");
	st = uefi_call_wrapper(BS->StartImage, 3, h, NULL, NULL);
	out_printf(o, "aspmctl: %s returned (EFI status 0x%llx)\n", path,
		   (unsigned long long)st);
	return EFI_ERROR(st) ? -AE_IO : 0;
}

/* The one-line summary as a volatile variable Linux reads in efivarfs:
 * /sys/firmware/efi/efivars/AspmctlSummary-<ASPMCTL_VENDOR_GUID>. */
EFI_GUID aspmctl_vendor_guid = ASPMCTL_VENDOR_GUID;

int efi_publish_summary(const char *line)
{
	EFI_STATUS st;

	st = uefi_call_wrapper(RT->SetVariable, 5, L"AspmctlSummary",
			       &aspmctl_vendor_guid,
			       EFI_VARIABLE_BOOTSERVICE_ACCESS |
			       EFI_VARIABLE_RUNTIME_ACCESS,
			       str_len(line), (void *)line);
	if (EFI_ERROR(st))
		return log_error(-AE_IO, "cannot set the AspmctlSummary variable (EFI status 0x%llx)",
				 (unsigned long long)st);
	return 0;
}
