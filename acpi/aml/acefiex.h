/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ACPICA's second platform header (include/acpi/platform/acenvex.h includes
 * "acefiex.h" after actypes.h for the environment acefi.h chose). aspmctl
 * needs nothing here: every definition is in acefi.h.
 */
#ifndef ASPMCTL_ACEFIEX_H
#define ASPMCTL_ACEFIEX_H
#endif
