// SPDX-License-Identifier: GPL-2.0-only
/*
 * Files on the app's own volume (the ESP it was loaded from): the
 * configuration file, results, dumps. Paths use backslashes, as in UEFI.
 */
#include "platform.h"
#include "../app/conf.h"
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

#define PATH_MAX_CHARS	255

/* A path for the file protocol; refused rather than cut when too long. */
static int path_ucs2(const char *path, CHAR16 d[PATH_MAX_CHARS + 1])
{
	if (str_len(path) > PATH_MAX_CHARS)
		return log_error(-AE_2BIG, "%s: path longer than %u characters",
				 path, PATH_MAX_CHARS);
	to_ucs2(path, d, PATH_MAX_CHARS + 1);
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
	if (path_ucs2(path, p)) {
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

/* Load options handed on: the longest a configuration file can hold. */
#define LOAD_OPTIONS_MAX	8192

/*
 * LoadImage + StartImage of a file on the app's own volume, with its load
 * options as UCS-2 (UEFI 2.10 sec 9.1 EFI_LOADED_IMAGE_PROTOCOL). Returns
 * only if the image could not be started or returned.
 */
int efi_chainload(EFI_HANDLE image, const char *path, const char *options,
		  const struct out *o)
{
	CHAR16 p[PATH_MAX_CHARS + 1], *opts = NULL;
	EFI_LOADED_IMAGE *li = NULL, *child = NULL;
	EFI_DEVICE_PATH *dp;
	EFI_HANDLE h = NULL;
	EFI_STATUS st;
	size_t olen = options ? str_len(options) : 0;
	char d[24];

	if (EFI_ERROR(uefi_call_wrapper(BS->HandleProtocol, 3, image,
					&LoadedImageProtocol, (void **)&li)) || !li)
		return log_error(-AE_NODEV, "chainload: no loaded-image protocol");
	if (path_ucs2(path, p))
		return -AE_2BIG;
	/* the options go whole or the image does not start: a kernel with
	 * half a command line (initrd= cut off) is worse than no boot */
	if (olen > LOAD_OPTIONS_MAX)
		return log_error(-AE_2BIG, "chainload: %s: load options of %llu characters, more than %u; not started",
				 path, (unsigned long long)olen, LOAD_OPTIONS_MAX);
	if (olen) {
		opts = AllocatePool((olen + 1) * sizeof(CHAR16));
		if (!opts)
			return log_error(-AE_NOMEM, "chainload: no memory for the load options of %s", path);
		to_ucs2(options, opts, olen + 1);
	}
	dp = FileDevicePath(li->DeviceHandle, p);
	if (!dp) {
		if (opts)
			FreePool(opts);
		return log_error(-AE_NOMEM, "chainload: no device path for %s", path);
	}
	st = uefi_call_wrapper(BS->LoadImage, 6, FALSE, image, dp, NULL, 0, &h);
	FreePool(dp);
	if (EFI_ERROR(st)) {
		/*
		 * UEFI 2.10 sec 7.4.1 LoadImage: EFI_SECURITY_VIOLATION can
		 * come with a valid ImageHandle (loaded, but policy forbids
		 * starting it); that image must be unloaded with UnloadImage.
		 */
		if (h)
			uefi_call_wrapper(BS->UnloadImage, 1, h);
		if (opts)
			FreePool(opts);
		if (st == EFI_SECURITY_VIOLATION || st == EFI_ACCESS_DENIED)
			return log_error(-AE_IO, "chainload: %s refused by the security policy (Secure Boot?), EFI status 0x%llx",
					 path, (unsigned long long)st);
		return log_error(st == EFI_NOT_FOUND ? -AE_NOENT : -AE_IO,
				 "chainload: cannot load %s (EFI status 0x%llx)", path,
				 (unsigned long long)st);
	}
	if (opts) {
		if (EFI_ERROR(uefi_call_wrapper(BS->HandleProtocol, 3, h,
						&LoadedImageProtocol, (void **)&child)) || !child) {
			uefi_call_wrapper(BS->UnloadImage, 1, h);
			FreePool(opts);
			return log_error(-AE_IO, "chainload: %s has no loaded-image protocol for its options", path);
		}
		/* the pool stays allocated: the child reads it while it runs */
		child->LoadOptions = opts;
		child->LoadOptionsSize = (UINT32)((olen + 1) * sizeof(CHAR16));
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
