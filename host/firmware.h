/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The firmware a host run of aspmctl stands on (host/firmware.c): ACPI
 * tables in memory (an RSDP, an XSDT, the FADT and the MCFG, real ones
 * from files or sysfs where given, synthesized otherwise) and the struct
 * boot_ops services over the twin: config space through twin_cfg_ops,
 * the root buses a dump implies, files under a directory, no chainload.
 */
#ifndef ASPMCTL_HOST_FIRMWARE_H
#define ASPMCTL_HOST_FIRMWARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "../app/app.h"
#include "platform.h"
#include "../twin/twin.h"

#define HOST_ACPI_BASE	0x000e0000ull	/* where the tables "are" */
#define HOST_ACPI_SIZE	(16u << 20)	/* room for a real DSDT and SSDTs */

struct host_fw {
	struct fixed_platform plat;	/* the tables below, the buses no bridge of the dump decodes */
	struct boot_ops ops;		/* ctx = this */
	struct twin *twin;
	uint8_t *acpi;			/* HOST_ACPI_SIZE bytes at HOST_ACPI_BASE */
	size_t acpi_used;
	const char *esp;		/* directory for the app's files, or NULL */
	unsigned roots_lost;
};
FIXED_PLATFORM_FIRST(struct host_fw, plat);

/* Which FADT: a table's bytes (a file, sysfs), or none (synthesized);
 * no_aspm: -1 keep the table's flag, 0/1 set IAPC_BOOT_ARCH bit 4. */
struct host_aml;
struct host_fadt {
	const uint8_t *table;
	size_t len;
	int no_aspm;
	/* the AML tables (or NULL): the FADT's DSDT points at the first DSDT,
	 * the others join the XSDT */
	const struct host_aml *aml;
};

/* Lay out the tables and the ops. mcfg: a real MCFG's bytes or NULL (one
 * region per segment of the twin, buses 00-ff). 0 or -AE_*, with a
 * message on stderr. */
int host_fw_init(struct host_fw *fw, struct twin *t, const struct host_fadt *fadt,
		 const uint8_t *mcfg, size_t mcfg_len);
void host_fw_free(struct host_fw *fw);

#endif
