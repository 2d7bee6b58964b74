// SPDX-License-Identifier: GPL-2.0-only
#include "variable.h"
#include <efilib.h>
#include "../lib/efistatus.h"
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
