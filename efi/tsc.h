/* SPDX-License-Identifier: GPL-2.0-only */
/* Time from the TSC, calibrated against Stall (efi/tsc.c). */
#ifndef ASPMCTL_EFI_TSC_H
#define ASPMCTL_EFI_TSC_H

#include <efi.h>
#include <efilib.h>

void efi_time_init(void);
uint64_t efi_time_ns(void);
uint64_t efi_time_since_entry_ns(void);
void efi_delay_us(void *ctx, unsigned us);

#endif
