/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The app's EFI variables as a booted Linux sees them in efivarfs
 * (host/variables.c): the AspmctlSummary the app published and the boot
 * counter AspmctlBootCount (app/tries.h). `aspmctl bless` confirms this
 * boot by deleting the counter, `aspmctl status` shows both. Each efivarfs
 * file is the variable's 4-byte attributes, then its data.
 */
#ifndef ASPMCTL_HOST_VARIABLES_H
#define ASPMCTL_HOST_VARIABLES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define EFIVARS_DIR	"/sys/firmware/efi/efivars"
#define ASPMCTL_GUID_STR	"5b3c4e1a-9f2d-4c7e-8a61-2d0e6f4b9c13"
#define EFI_GLOBAL_GUID_STR	"8be4df61-93ca-11d2-aa0d-00e098032b8c"
#define EFI_VAR_NV_BS_RT	0x00000007u

/* NAME-GUID in dir: its attributes and data (malloc'd). 0, -AE_NOENT,
 * -AE_INVAL (shorter than the attributes) or -AE_IO. */
int var_read(const char *dir, const char *name, const char *guid,
	     uint32_t *attrs, uint8_t **data, size_t *len);
/* Create or replace it, in one write as efivarfs wants. 0 or -AE_IO. */
int var_write(const char *dir, const char *name, const char *guid,
	      uint32_t attrs, const void *data, size_t len);
/* Delete it: 0, -AE_NOENT or -AE_IO. */
int var_delete(const char *dir, const char *name, const char *guid);

/* Delete the counter: 0 (deleted, or there was none), else -AE_*, with a
 * line on stdout or stderr. */
int efivars_bless(const char *dir);
/* The summary and the counter, one line each: 0, or -AE_* when the
 * directory cannot be read. */
int efivars_status(const char *dir);

#endif
