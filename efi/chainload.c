// SPDX-License-Identifier: GPL-2.0-only
/* The next loader: LoadImage and StartImage with its load options. */
#include "chainload.h"
#include <efilib.h>
#include "file.h"
#include "tsc.h"
#include "../lib/status_name.h"
#include "../lib/err.h"
#include "../lib/log.h"
#include "../lib/util.h"
#include "../pcie/report.h"

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
	if (efi_path_ucs2(path, p))
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
		efi_to_ucs2(options, opts, olen + 1);
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
		/* EDK2's boot manager gets EFI_ACCESS_DENIED from LoadImage
		 * for an image db does not allow (DxeImageVerificationLib),
		 * the spec names EFI_SECURITY_VIOLATION: both are a refusal */
		if (st == EFI_SECURITY_VIOLATION || st == EFI_ACCESS_DENIED) {
			log_msg(LOG_ERR, 0, "chainload: %s refused by the security policy (Secure Boot), EFI status 0x%llx %s",
				path, (unsigned long long)st, efi_status_name(st));
			return -AE_ACCES;
		}
		return log_error(st == EFI_NOT_FOUND ? -AE_NOENT : -AE_IO,
				 "chainload: cannot load %s (EFI status 0x%llx %s)", path,
				 (unsigned long long)st, efi_status_name(st));
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
	out_printf(o, "aspmctl: %s returned (EFI status 0x%llx %s)\n", path,
		   (unsigned long long)st, efi_status_name(st));
	return EFI_ERROR(st) ? -AE_IO : 0;
}
