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

uint64_t add_fadt(struct fake_mem *m, uint32_t len, uint8_t rev,
				uint8_t minor, uint16_t iapc)
{
	uint64_t phys = fake_alloc(m, len, 0);

	fadt_build(fake_ptr(m, phys), len, rev, minor, iapc);
	return phys;
}

uint64_t add_mcfg(struct fake_mem *m,
				const struct acpi_mcfg_ent *e, unsigned n)
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

