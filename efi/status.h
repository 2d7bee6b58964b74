/* SPDX-License-Identifier: GPL-2.0-only */
/* AE_* error codes as EFI_STATUS (efi/status.c). */
#ifndef ASPMCTL_EFI_STATUS_H
#define ASPMCTL_EFI_STATUS_H

#include <efi.h>

/* negative AE_* -> EFI_STATUS */
EFI_STATUS efi_status_from_err(int err);

#endif
