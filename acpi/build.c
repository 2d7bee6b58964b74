// SPDX-License-Identifier: GPL-2.0-only
/*
 * ACPI tables laid out as firmware lays them out (little-endian bytes,
 * valid checksums): the host's digital twin synthesizes an RSDP, XSDT,
 * FADT and MCFG with them, and the unit tests and fuzzers build their
 * machines (and break them on purpose) with the same code.
 */
#include "build.h"
#include "../lib/util.h"

void put_le16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

void put_le32(uint8_t *p, uint32_t v)
{
	put_le16(p, (uint16_t)v);
	put_le16(p + 2, (uint16_t)(v >> 16));
}

void put_le64(uint8_t *p, uint64_t v)
{
	put_le32(p, (uint32_t)v);
	put_le32(p + 4, (uint32_t)(v >> 32));
}

uint8_t byte_sum(const uint8_t *p, size_t n)
{
	uint8_t s = 0;

	while (n--)
		s = (uint8_t)(s + *p++);
	return s;
}

void fix_checksum(uint8_t *t, size_t n, size_t csum_off)
{
	t[csum_off] = 0;
	t[csum_off] = (uint8_t)(0 - byte_sum(t, n));
}

void tbl_header(uint8_t *t, const char *sig, uint32_t len, uint8_t rev)
{
	mem_set(t, 0, len < ACPI_HDR_LEN ? ACPI_HDR_LEN : len);
	mem_copy(t, sig, 4);
	put_le32(t + 4, len);
	t[8] = rev;
	mem_copy(t + 10, "ASPMCT", 6);
	mem_copy(t + 16, "UNITTEST", 8);
	put_le32(t + 24, 1);
	mem_copy(t + 28, "TEST", 4);
	put_le32(t + 32, 0x20240101);
}

void tbl_fix(uint8_t *t)
{
	uint32_t len = (uint32_t)t[4] | (uint32_t)t[5] << 8 |
		       (uint32_t)t[6] << 16 | (uint32_t)t[7] << 24;

	fix_checksum(t, len, 9);
}

size_t rsdp_build(uint8_t *p, uint8_t rev, uint32_t rsdt, uint64_t xsdt)
{
	size_t len = rev >= 2 ? ACPI_RSDP_V2_LEN : ACPI_RSDP_V1_LEN;

	mem_set(p, 0, len);
	mem_copy(p, "RSD PTR ", 8);
	mem_copy(p + 9, "ASPMCT", 6);
	p[15] = rev;
	put_le32(p + 16, rsdt);
	if (rev >= 2) {
		put_le32(p + 20, (uint32_t)len);
		put_le64(p + 24, xsdt);
	}
	fix_checksum(p, 20, 8);
	if (rev >= 2)
		fix_checksum(p, len, 32);
	return len;
}

void fadt_build(uint8_t *t, uint32_t len, uint8_t rev, uint8_t minor, uint16_t iapc)
{
	tbl_header(t, "FACP", len, rev);
	if (len >= FADT_IAPC_BOOT_ARCH_OFF + 2)
		put_le16(t + FADT_IAPC_BOOT_ARCH_OFF, iapc);
	if (len > FADT_MINOR_REV_OFF)
		t[FADT_MINOR_REV_OFF] = minor;
	tbl_fix(t);
}

uint32_t mcfg_len(unsigned n)
{
	return MCFG_ENTRIES_OFF + n * MCFG_ENTRY_LEN;
}

void mcfg_build(uint8_t *t, const struct acpi_mcfg_ent *e, unsigned n)
{
	tbl_header(t, "MCFG", mcfg_len(n), 1);
	for (unsigned i = 0; i < n; i++) {
		uint8_t *p = t + MCFG_ENTRIES_OFF + i * MCFG_ENTRY_LEN;

		put_le64(p, e[i].base);
		put_le16(p + 8, e[i].segment);
		p[10] = e[i].start_bus;
		p[11] = e[i].end_bus;
		p[12] = p[13] = p[14] = p[15] = 0xa5;	/* reserved */
	}
	tbl_fix(t);
}

uint32_t root_len(bool xsdt, unsigned n)
{
	return ACPI_HDR_LEN + n * (xsdt ? 8 : 4);
}

void root_build(uint8_t *t, bool xsdt, const uint64_t *addrs, unsigned n)
{
	tbl_header(t, xsdt ? "XSDT" : "RSDT", root_len(xsdt, n), 1);
	for (unsigned i = 0; i < n; i++) {
		if (xsdt)
			put_le64(t + ACPI_HDR_LEN + 8 * i, addrs[i]);
		else
			put_le32(t + ACPI_HDR_LEN + 4 * i, (uint32_t)addrs[i]);
	}
	tbl_fix(t);
}

