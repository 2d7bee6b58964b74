// SPDX-License-Identifier: GPL-2.0-only
/*
 * ECAM backend (PCIe r5.0 sec 7.2.2, PCI Firmware spec 3.3 sec 4.1.2):
 * the address of seg:bus:dev.fn offset is
 *	base(seg) + (bus << 20) + (dev << 15) + (fn << 12) + offset
 * where base is the address of bus 0 of that segment (the MCFG entry's
 * base address). A bus outside every ECAM window is never touched.
 */
#include <stddef.h>
#include "ecam.h"
#include "../lib/err.h"

const struct ecam_window *ecam_window_find(const struct ecam_window *win,
					   unsigned nwin, uint16_t seg,
					   uint8_t bus)
{
	for (unsigned i = 0; i < nwin; i++)
		if (win[i].segment == seg && bus >= win[i].bus_start &&
		    bus <= win[i].bus_end)
			return &win[i];
	return NULL;
}

int ecam_address(const struct ecam *e, struct pci_addr a, uint16_t off,
		 uint64_t *phys)
{
	const struct ecam_window *w = ecam_window_find(e->win, e->nwin, a.seg,
						   a.bus);
	uint64_t rel;

	if (!w)
		return -AE_RANGE;
	if (off >= 4096)
		return -AE_RANGE;
	rel = ((uint64_t)a.bus << 20) | ((uint64_t)a.devfn << 12) | off;
	if (w->base > UINT64_MAX - rel)
		return -AE_RANGE;
	*phys = w->base + rel;
	return 0;
}

static int ecam_read(void *ctx, struct pci_addr a, uint16_t off, unsigned width,
		     uint32_t *val)
{
	const struct ecam *e = ctx;
	uint64_t phys;
	int rc = ecam_address(e, a, off, &phys);

	if (rc)
		return rc;
	*val = e->mmio->read(e->mmio_ctx, phys, width);
	return 0;
}

static int ecam_write(void *ctx, struct pci_addr a, uint16_t off, unsigned width,
		      uint32_t val)
{
	const struct ecam *e = ctx;
	uint64_t phys;
	int rc = ecam_address(e, a, off, &phys);

	if (rc)
		return rc;
	e->mmio->write(e->mmio_ctx, phys, width, val);
	return 0;
}

const struct pci_cfg_ops ecam_cfg_ops = {
	.read = ecam_read,
	.write = ecam_write,
};
