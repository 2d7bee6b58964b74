/* SPDX-License-Identifier: GPL-2.0-only */
/* The project's EFI variables: the summary, the boot counter (efi/variable.c). */
#ifndef ASPMCTL_EFI_VARIABLE_H
#define ASPMCTL_EFI_VARIABLE_H

#include <efi.h>
#include "../app/app.h"

/* The project's vendor GUID: 5b3c4e1a-9f2d-4c7e-8a61-2d0e6f4b9c13 */
#define ASPMCTL_VENDOR_GUID \
	{ 0x5b3c4e1a, 0x9f2d, 0x4c7e, \
	  { 0x8a, 0x61, 0x2d, 0x0e, 0x6f, 0x4b, 0x9c, 0x13 } }
extern EFI_GUID aspmctl_vendor_guid;
/* Volatile AspmctlSummary variable (boot + runtime access). */
int efi_publish_summary(const char *line);
/*
 * The boot counter (app/tries.h): AspmctlBootCount, non-volatile, boot and
 * runtime access (Linux deletes it through efivarfs to confirm a boot),
 * 4 bytes little-endian. get: 0, -AE_NOENT (none), -AE_INVAL (not 4
 * bytes) or -AE_IO; set: 0 or -AE_IO (a store that refuses writes).
 */
int efi_counter_get(uint32_t *count);
int efi_counter_set(uint32_t count);
/* SecureBoot, SetupMode and shim's protocol (app/app.h struct sb_state). */
void efi_secure_boot(struct sb_state *s);

#endif
