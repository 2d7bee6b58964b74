/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A platform fixed in memory: ACPI tables the caller laid out, the RSDP's
 * address and the root buses firmware declares besides the MCFG's start
 * buses. The host run over the twin (host/firmware.c) and the tests' fake
 * firmware (tests/lib/fake_boot.c) both stand on it; fixed_platform_ops()
 * gives struct boot_ops its ACPI and root-bus services over it.
 */
#ifndef ASPMCTL_HOST_PLATFORM_H
#define ASPMCTL_HOST_PLATFORM_H

#include <stddef.h>
#include <stdint.h>
#include "../app/app.h"

#define PLATFORM_MAX_ROOTS	64

struct fixed_platform {
	struct acpi_mem mem;	/* what mem_open hands out */
	uint64_t rsdp;		/* 0: no RSDP in the configuration table */
	struct pci_addr roots[PLATFORM_MAX_ROOTS];
	unsigned nroots;
};

/*
 * Set ops' find_rsdp, mem_open, mem_close and root_buses. ops->ctx must
 * point at a struct whose first member is the struct fixed_platform
 * (FIXED_PLATFORM_FIRST() checks it at compile time).
 */
void fixed_platform_ops(struct boot_ops *ops);

#define FIXED_PLATFORM_FIRST(type, member)					\
	_Static_assert(offsetof(type, member) == 0,				\
		       #type "." #member " must be its first member")

#endif
