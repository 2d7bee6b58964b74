/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ACPI tables for the unit tests and the fuzzers (tests/lib/acpi_build.c):
 * a fake physical memory (one malloc'd byte array
 * at a chosen physical base, so that ASan sees any read past its end) and
 * builders that lay ACPI tables out in it as raw little-endian bytes,
 * exactly as firmware would, with valid checksums unless a test breaks
 * them on purpose.
 */
#ifndef ASPMCTL_TESTS_LIB_ACPI_BUILD_H
#define ASPMCTL_TESTS_LIB_ACPI_BUILD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../acpi/acpi.h"

/* ------------------------------------------------------------ memory */

struct fake_mem {
	uint64_t base;		/* physical address of buf[0] */
	size_t size;
	size_t used;		/* bump allocator */
	uint8_t *buf;
	unsigned maps;		/* map() calls */
	unsigned refused;	/* map() calls answered NULL */
};

/* The injectable table finder: NULL unless [phys, phys+len) is inside. */
void *fake_map(void *ctx, uint64_t phys, size_t len);

int fake_mem_init(struct fake_mem *m, uint64_t base, size_t size);

void fake_mem_free(struct fake_mem *m);

struct acpi_mem fake_acpi_mem(struct fake_mem *m);

uint8_t *fake_ptr(struct fake_mem *m, uint64_t phys);

/* Reserve len bytes at a 16-byte boundary plus misalign; returns the
 * physical address, or 0 (and aborts the test) when out of room. */
uint64_t fake_alloc(struct fake_mem *m, size_t len,
				  unsigned misalign);

#include "../../acpi/build.h"

/* ------------------------------------- the same, placed in fake memory */

uint64_t add_fadt(struct fake_mem *m, uint32_t len, uint8_t rev,
				uint8_t minor, uint16_t iapc);

uint64_t add_mcfg(struct fake_mem *m,
				const struct acpi_mcfg_ent *e, unsigned n);

/* A table with any signature and zeroed payload (an "SSDT", say). */
uint64_t add_table(struct fake_mem *m, const char *sig,
				 uint32_t len);

uint64_t add_root(struct fake_mem *m, bool xsdt,
				const uint64_t *addrs, unsigned n,
				unsigned misalign);

uint64_t add_rsdp(struct fake_mem *m, uint8_t rev, uint32_t rsdt,
				uint64_t xsdt);

#endif
