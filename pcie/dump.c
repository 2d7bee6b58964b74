// SPDX-License-Identifier: GPL-2.0-only
/*
 * lspci's dump format (pciutils lib/dump.c reads it): a header line that
 * starts with the address, then lines "OFF: xx xx ... xx" of 16 bytes.
 * Offsets past 0xff make lspci treat the function as having extended
 * config space.
 */
#include "dump.h"
#include "link.h"
#include "pci_regs.h"
#include "report.h"

unsigned pcie_dump_fn(struct pci_cfg *c, const struct pcie_fn *f,
		      const struct out *o)
{
	unsigned size = (f->flags & FN_PCIE) ? PCI_CFG_SPACE_EXP_SIZE :
					       PCI_CFG_SPACE_SIZE;
	char b[16];

	out_printf(o, "%s Class %04x: Device %04x:%04x\n", pci_addr_str(f->addr, b),
		   (unsigned)(f->class >> 8), f->vendor, f->device);
	for (unsigned off = 0; off < size; off += 16) {
		uint32_t v[4];

		for (unsigned k = 0; k < 4; k++)
			if (pci_cfg_read32(c, f->addr, (uint16_t)(off + 4 * k), &v[k]))
				v[k] = 0xffffffff;
		out_printf(o, "%02x:", off);
		for (unsigned k = 0; k < 16; k++)
			out_printf(o, " %02x", (v[k / 4] >> (8 * (k % 4))) & 0xff);
		out_puts(o, "\n");
	}
	out_puts(o, "\n");
	return size;
}

void pcie_dump_all(struct pci_cfg *c, const struct pcie_topo *t,
		   const struct out *o)
{
	for (unsigned i = 0; i < t->nfn; i++)
		pcie_dump_fn(c, &t->fn[i], o);
}
