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

#define EFIVARS_DIR	"/sys/firmware/efi/efivars"
#define ASPMCTL_GUID_STR	"5b3c4e1a-9f2d-4c7e-8a61-2d0e6f4b9c13"

/* Delete the counter: 0 (deleted, or there was none), else -AE_*, with a
 * line on stdout or stderr. */
int efivars_bless(const char *dir);
/* The summary and the counter, one line each: 0, or -AE_* when the
 * directory cannot be read. */
int efivars_status(const char *dir);

#endif
