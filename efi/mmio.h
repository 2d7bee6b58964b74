/* SPDX-License-Identifier: GPL-2.0-only */
/* ECAM MMIO for pcie/ecam.c (efi/mmio.c). */
#ifndef ASPMCTL_EFI_MMIO_H
#define ASPMCTL_EFI_MMIO_H

#include <efi.h>
#include "../pcie/ecam.h"

/* ECAM MMIO: volatile accesses of the exact width. */
extern const struct mmio_ops efi_mmio_ops;

#endif
