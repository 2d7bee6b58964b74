/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The AML tables (DSDT, SSDTs) of a machine, for the twin's _OSC query
 * (acpi/aml): a folder (ROOT/sys/firmware/acpi/tables, acpidump -b's
 * dsdt.dat, ssdt1.dat ...), one binary table, or acpidump's text output.
 */
#ifndef ASPMCTL_HOST_AML_H
#define ASPMCTL_HOST_AML_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HOST_AML_MAX	32

struct host_aml {
	unsigned n;
	uint8_t *data[HOST_AML_MAX];
	size_t len[HOST_AML_MAX];
};

/* Load path (a folder or a file). must: a missing path is an error (else
 * nothing is loaded). 0 or a negative AE_* with a message on stderr. */
int host_aml_load(const char *path, bool must, struct host_aml *out);
void host_aml_free(struct host_aml *a);

#endif
