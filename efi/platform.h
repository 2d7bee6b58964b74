/* SPDX-License-Identifier: GPL-2.0-only */
/* The UEFI side of aspmctl: console, memory, MMIO, time. */
#ifndef ASPMCTL_EFI_PLATFORM_H
#define ASPMCTL_EFI_PLATFORM_H

#include <efi.h>
#include <efilib.h>
#include "../acpi/acpi.h"
#include "../pcie/ecam.h"
#include "../lib/fmt.h"

/* Console sink: UTF-8/ASCII to UCS-2, "\n" to "\r\n". */
extern const struct out efi_console;

/* Physical memory for acpi/: ranges must lie in the UEFI memory map. */
void efi_mem_init(struct acpi_mem *mem);
void efi_mem_fini(void);

/* ECAM MMIO: volatile accesses of the exact width. */
extern const struct mmio_ops efi_mmio_ops;

/* Calibrated TSC. */
void efi_time_init(void);
uint64_t efi_time_ns(void);
void efi_delay_us(void *ctx, unsigned us);

/* Root buses of every PCI Root Bridge I/O instance; returns the count. */
unsigned efi_root_buses(struct pci_addr *roots, unsigned max);

/* negative AE_* -> EFI_STATUS */
EFI_STATUS efi_status_from_err(int err);

#endif
