// SPDX-License-Identifier: GPL-2.0-only
#include "variable.h"
#include <efilib.h>
#include "../lib/status_name.h"
#include "../lib/err.h"
#include "../lib/log.h"
#include "../lib/util.h"

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
		return log_error(-AE_IO, "cannot set the AspmctlSummary variable (EFI status 0x%llx %s)",
				 (unsigned long long)st, efi_status_name(st));
	return 0;
}

#define COUNTER_ATTRS	(EFI_VARIABLE_NON_VOLATILE | EFI_VARIABLE_BOOTSERVICE_ACCESS | \
			 EFI_VARIABLE_RUNTIME_ACCESS)

int efi_counter_get(uint32_t *count)
{
	UINT8 v[8];
	UINTN n = sizeof(v);
	EFI_STATUS st;

	st = uefi_call_wrapper(RT->GetVariable, 5, L"AspmctlBootCount",
			       &aspmctl_vendor_guid, NULL, &n, v);
	if (st == EFI_NOT_FOUND)
		return -AE_NOENT;
	if (st == EFI_BUFFER_TOO_SMALL || (!EFI_ERROR(st) && n != 4))
		return log_error(-AE_INVAL, "AspmctlBootCount is not 4 bytes");
	if (EFI_ERROR(st))
		return log_error(-AE_IO, "cannot read AspmctlBootCount (EFI status 0x%llx %s)",
				 (unsigned long long)st, efi_status_name(st));
	*count = get_le32(v);
	return 0;
}

int efi_counter_set(uint32_t count)
{
	UINT8 v[4] = { (UINT8)count, (UINT8)(count >> 8), (UINT8)(count >> 16),
		       (UINT8)(count >> 24) };
	EFI_STATUS st;

	st = uefi_call_wrapper(RT->SetVariable, 5, L"AspmctlBootCount",
			       &aspmctl_vendor_guid, COUNTER_ATTRS, sizeof(v), v);
	if (EFI_ERROR(st))
		return log_error(-AE_IO, "cannot set AspmctlBootCount (EFI status 0x%llx %s)",
				 (unsigned long long)st, efi_status_name(st));
	return 0;
}

/* A one-byte global variable (UEFI 2.10 sec 3.3): 0, 1, or -1 when it
 * does not exist or is not one byte of 0 or 1. */
static int global_flag(CHAR16 *name)
{
	EFI_GUID global = EFI_GLOBAL_VARIABLE;
	UINT8 v = 0xff;
	UINTN n = sizeof(v);
	EFI_STATUS st;

	st = uefi_call_wrapper(RT->GetVariable, 5, name, &global, NULL, &n, &v);
	if (EFI_ERROR(st) || n != 1 || v > 1)
		return -1;
	return v;
}

/* SHIM_LOCK_GUID of shim (shim.h): shim installs it while it runs a chain. */
static EFI_GUID shim_lock_guid = {
	0x605dab50, 0xe046, 0x4300, { 0xab, 0xb6, 0x3d, 0xd8, 0x10, 0xdd, 0x8b, 0x23 }
};

void efi_secure_boot(struct sb_state *s)
{
	void *p = NULL;

	s->secure_boot = global_flag(L"SecureBoot");
	s->setup_mode = global_flag(L"SetupMode");
	s->shim = !EFI_ERROR(LibLocateProtocol(&shim_lock_guid, &p)) && p;
}
