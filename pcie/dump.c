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

/*
 * The app's own decoding of Link Capabilities and Link Control (PCIe r5.0
 * sec 7.5.3.6, 7.5.3.7) as cached by enumeration, one record per PCIe
 * function, for a check against `lspci -F` reading the dump. RCiEPs and
 * Root Complex Event Collectors need not implement the link registers
 * (sec 7.5.3; hardwired to 0) and lspci prints none: "link=none".
 */
void pcie_dump_link_records(const struct pcie_topo *t, const struct out *o)
{
	static const char *const ctl[] = { "off", "L0s", "L1", "L0s+L1" };

	for (unsigned i = 0; i < t->nfn; i++) {
		const struct pcie_fn *f = &t->fn[i];
		uint32_t cap = f->lnkcap;
		char b[16], l0s[16], l1[16];

		if (!(f->flags & FN_PCIE))
			continue;
		if (f->pcie_type == PCI_EXP_TYPE_RC_END ||
		    f->pcie_type == PCI_EXP_TYPE_RC_EC) {
			out_printf(o, "aspm fn-link %s link=none\n", pci_addr_str(f->addr, b));
			continue;
		}
		format_ns(aspm_l0s_exit_ns(cap), l0s, sizeof(l0s));
		format_ns(aspm_l1_exit_ns(cap), l1, sizeof(l1));
		out_printf(o, "aspm fn-link %s lnkcap=0x%08x support=%s l0s-exit=%s l1-exit=%s clkpm=%s lnkctl=0x%04x aspm=%s ccc=%s clkreq=%s\n",
			   pci_addr_str(f->addr, b), cap,
			   (cap & PCI_EXP_LNKCAP_ASPMS) == PCI_EXP_LNKCAP_ASPMS ? "L0s,L1" :
			   (cap & PCI_EXP_LNKCAP_ASPM_L0S) ? "L0s" :
			   (cap & PCI_EXP_LNKCAP_ASPM_L1) ? "L1" : "none",
			   l0s, l1, (cap & PCI_EXP_LNKCAP_CLKPM) ? "yes" : "no",
			   f->lnkctl, ctl[f->lnkctl & PCI_EXP_LNKCTL_ASPMC],
			   (f->lnkctl & PCI_EXP_LNKCTL_CCC) ? "yes" : "no",
			   (f->lnkctl & PCI_EXP_LNKCTL_CLKREQ_EN) ? "yes" : "no");
	}
}
