/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Builders of ACPI tables as raw bytes (acpi/build.c): the digital twin's
 * synthesized firmware tables and the test machines.
 */
#ifndef ASPMCTL_ACPI_BUILD_H
#define ASPMCTL_ACPI_BUILD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "acpi.h"

/* ----------------------------------------------------------- bytes */

void put_le16(uint8_t *p, uint16_t v);

void put_le32(uint8_t *p, uint32_t v);

void put_le64(uint8_t *p, uint64_t v);

uint8_t byte_sum(const uint8_t *p, size_t n);

/* ---------------------------------------------------------- tables */

/* Make the n bytes at t sum to zero through the byte at csum_off. */
void fix_checksum(uint8_t *t, size_t n, size_t csum_off);

/* A System Description Table Header; the table is zeroed first. */
void tbl_header(uint8_t *t, const char *sig, uint32_t len, uint8_t rev);

/* Checksum a table over its own Length. */
void tbl_fix(uint8_t *t);

/* RSDP: 20 bytes for revision < 2, else 36 with Length 36. */
size_t rsdp_build(uint8_t *p, uint8_t rev, uint32_t rsdt, uint64_t xsdt);

/*
 * FADT of len bytes. IAPC_BOOT_ARCH is written at offset 109 whenever the
 * table reaches that far (in a 116-byte ACPI 1.0 FADT those bytes are
 * reserved: writing them shows the parser ignores them), and the minor
 * revision at 131 likewise.
 */
void fadt_build(uint8_t *t, uint32_t len, uint8_t rev, uint8_t minor, uint16_t iapc);

struct acpi_mcfg_ent {
	uint64_t base;
	uint16_t segment;
	uint8_t start_bus;
	uint8_t end_bus;
};

uint32_t mcfg_len(unsigned n);

void mcfg_build(uint8_t *t, const struct acpi_mcfg_ent *e, unsigned n);

uint32_t root_len(bool xsdt, unsigned n);

/* RSDT (32-bit entries) or XSDT (64-bit entries) listing addrs. */
void root_build(uint8_t *t, bool xsdt, const uint64_t *addrs, unsigned n);

#endif
