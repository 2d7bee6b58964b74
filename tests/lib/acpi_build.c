// SPDX-License-Identifier: GPL-2.0-only
/* ACPI tables as firmware lays them out, for tests (acpi_build.h). */
#include "acpi_build.h"

void *fake_map(void *ctx, uint64_t phys, size_t len)
{
	struct fake_mem *m = ctx;
	uint64_t off;

	m->maps++;
	if (phys < m->base)
		goto refuse;
	off = phys - m->base;
	if (off > m->size || len > m->size - off)
		goto refuse;
	return m->buf + off;
refuse:
	m->refused++;
	return NULL;
}

int fake_mem_init(struct fake_mem *m, uint64_t base, size_t size)
{
	memset(m, 0, sizeof(*m));
	m->base = base;
	m->size = size;
	m->buf = calloc(1, size);
	return m->buf ? 0 : -1;
}

void fake_mem_free(struct fake_mem *m)
{
	free(m->buf);
	m->buf = NULL;
}

struct acpi_mem fake_acpi_mem(struct fake_mem *m)
{
	struct acpi_mem mem = { .map = fake_map, .ctx = m };

	return mem;
}

uint8_t *fake_ptr(struct fake_mem *m, uint64_t phys)
{
	return m->buf + (phys - m->base);
}

uint64_t fake_alloc(struct fake_mem *m, size_t len,
				  unsigned misalign)
{
	size_t off = ((m->used + 15) & ~(size_t)15) + misalign;

	if (off > m->size || len > m->size - off)
		abort();
	m->used = off + len;
	return m->base + off;
}

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

void tbl_header(uint8_t *t, const char *sig, uint32_t len,
			      uint8_t rev)
{
	memset(t, 0, len < ACPI_HDR_LEN ? ACPI_HDR_LEN : len);
	memcpy(t, sig, 4);
	put_le32(t + 4, len);
	t[8] = rev;
	memcpy(t + 10, "ASPMCT", 6);
	memcpy(t + 16, "UNITTEST", 8);
	put_le32(t + 24, 1);
	memcpy(t + 28, "TEST", 4);
	put_le32(t + 32, 0x20240101);
}

void tbl_fix(uint8_t *t)
{
	uint32_t len = (uint32_t)t[4] | (uint32_t)t[5] << 8 |
		       (uint32_t)t[6] << 16 | (uint32_t)t[7] << 24;

	fix_checksum(t, len, 9);
}

size_t rsdp_build(uint8_t *p, uint8_t rev, uint32_t rsdt,
				uint64_t xsdt)
{
	size_t len = rev >= 2 ? ACPI_RSDP_V2_LEN : ACPI_RSDP_V1_LEN;

	memset(p, 0, len);
	memcpy(p, "RSD PTR ", 8);
	memcpy(p + 9, "ASPMCT", 6);
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

void fadt_build(uint8_t *t, uint32_t len, uint8_t rev,
			      uint8_t minor, uint16_t iapc)
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

void mcfg_build(uint8_t *t, const struct test_mcfg_ent *e,
			      unsigned n)
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

void root_build(uint8_t *t, bool xsdt, const uint64_t *addrs,
			      unsigned n)
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

uint64_t add_fadt(struct fake_mem *m, uint32_t len, uint8_t rev,
				uint8_t minor, uint16_t iapc)
{
	uint64_t phys = fake_alloc(m, len, 0);

	fadt_build(fake_ptr(m, phys), len, rev, minor, iapc);
	return phys;
}

uint64_t add_mcfg(struct fake_mem *m,
				const struct test_mcfg_ent *e, unsigned n)
{
	uint64_t phys = fake_alloc(m, mcfg_len(n), 0);

	mcfg_build(fake_ptr(m, phys), e, n);
	return phys;
}

uint64_t add_table(struct fake_mem *m, const char *sig,
				 uint32_t len)
{
	uint64_t phys = fake_alloc(m, len, 0);
	uint8_t *t = fake_ptr(m, phys);

	tbl_header(t, sig, len, 1);
	tbl_fix(t);
	return phys;
}

uint64_t add_root(struct fake_mem *m, bool xsdt,
				const uint64_t *addrs, unsigned n,
				unsigned misalign)
{
	uint64_t phys = fake_alloc(m, root_len(xsdt, n), misalign);

	root_build(fake_ptr(m, phys), xsdt, addrs, n);
	return phys;
}

uint64_t add_rsdp(struct fake_mem *m, uint8_t rev, uint32_t rsdt,
				uint64_t xsdt)
{
	uint64_t phys = fake_alloc(m, ACPI_RSDP_V2_LEN, 0);

	rsdp_build(fake_ptr(m, phys), rev, rsdt, xsdt);
	return phys;
}

