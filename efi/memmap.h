/* SPDX-License-Identifier: GPL-2.0-only */
/* Physical memory for acpi/, checked against the UEFI memory map (efi/memmap.c). */
#ifndef ASPMCTL_EFI_MEMMAP_H
#define ASPMCTL_EFI_MEMMAP_H

#include <efi.h>
#include "../acpi/acpi.h"

/* Physical memory for acpi/: ranges must lie in the UEFI memory map. */
void efi_mem_init(struct acpi_mem *mem);
void efi_mem_fini(void);

#endif
