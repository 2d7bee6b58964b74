// SPDX-License-Identifier: GPL-2.0-only
/* The services of a platform fixed in memory (platform.h). */
#include <stdlib.h>
#include <string.h>
#include "platform.h"
#include "../lib/err.h"

static int fp_find_rsdp(void *ctx, uint64_t *phys)
{
	const struct fixed_platform *p = ctx;

	*phys = p->rsdp;
	return p->rsdp ? 0 : -AE_NOENT;
}

static void fp_mem_open(void *ctx, struct acpi_mem *mem)
{
	const struct fixed_platform *p = ctx;

	*mem = p->mem;
}

static void fp_mem_close(void *ctx)
{
	(void)ctx;
}

static unsigned fp_root_buses(void *ctx, struct pci_addr *roots, unsigned max)
{
	const struct fixed_platform *p = ctx;
	unsigned n = p->nroots < max ? p->nroots : max;

	memcpy(roots, p->roots, n * sizeof(*roots));
	return n;
}

/* the AML interpreter's memory: the C library's */
static void *fp_alloc(void *ctx, size_t n)
{
	(void)ctx;
	return malloc(n);
}

static void fp_free(void *ctx, void *p)
{
	(void)ctx;
	free(p);
}

void fixed_platform_ops(struct boot_ops *ops)
{
	ops->alloc = fp_alloc;
	ops->free = fp_free;
	ops->find_rsdp = fp_find_rsdp;
	ops->mem_open = fp_mem_open;
	ops->mem_close = fp_mem_close;
	ops->root_buses = fp_root_buses;
}
