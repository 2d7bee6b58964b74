// SPDX-License-Identifier: GPL-2.0-only
/*
 * The human-readable report: sections that fit an 80-column serial
 * console. The machine-readable records are records/records.c.
 */
#include "report.h"
#include "exclude.h"
#include "enum.h"
#include "link.h"
#include "pci_regs.h"
#include "../lib/util.h"

void format_ns(uint64_t ns, char *buf, size_t size)
{
	if (ns == ASPM_NO_LIMIT)
		fmt_snprintf(buf, size, "no limit");
	else if (ns < 1000)
		fmt_snprintf(buf, size, "%lluns", (unsigned long long)ns);
	else if (ns < 1000000)
		fmt_snprintf(buf, size, "%llu.%03lluus", (unsigned long long)(ns / 1000),
			     (unsigned long long)(ns % 1000));
	else
		fmt_snprintf(buf, size, "%llu.%03llums", (unsigned long long)(ns / 1000000),
			     (unsigned long long)(ns / 1000 % 1000));
}

static void print_subtree(const struct out *o, const struct pcie_topo *t, int parent,
			  unsigned indent)
{
	char b[16];

	for (unsigned i = 0; i < t->nfn; i++) {
		const struct pcie_fn *f = &t->fn[i];

		if (f->parent != parent || (parent < 0 && f->depth != 0))
			continue;
		out_printf(o, "%*s%s %04x:%04x %06x %s", (int)indent, "",
			   pci_addr_str(f->addr, b), f->vendor, f->device,
			   f->class, pcie_type_name(f));
		if (f->flags & FN_BRIDGE)
			out_printf(o, " [%02x-%02x]", f->secondary, f->subordinate);
		out_puts(o, "\n");
		if (f->flags & FN_BRIDGE)
			print_subtree(o, t, (int)i, indent + 2);
	}
}

void report_tree(const struct out *o, const struct pcie_topo *t)
{
	out_printf(o, "PCI: %u function(s), %u link(s), %u root bus(es)%s\n",
		   t->nfn, t->nlink, t->nroots, t->truncated ? ", TRUNCATED" : "");
	print_subtree(o, t, -1, 2);
}


static void lnkctl_str(uint16_t lc, char *buf, size_t size)
{
	static const char *const a[] = { "off", "L0s", "L1", "L0s+L1" };

	fmt_snprintf(buf, size, "%s%s%s", a[lc & 3],
		     (lc & PCI_EXP_LNKCTL_CCC) ? " ccc" : "",
		     (lc & PCI_EXP_LNKCTL_CLKREQ_EN) ? " clkreq" : "");
}

void report_links(const struct out *o, const struct pcie_topo *t)
{
	char b1[16], b2[16], s1[48], s2[24], s3[24], n1[16], n2[16], n3[16], n4[16];

	for (unsigned li = 0; li < t->nlink; li++) {
		const struct pcie_link *l = &t->link[li];
		const struct pcie_fn *up = &t->fn[l->up], *dn = &t->fn[l->down];
		uint32_t lc = up->lnkcap & dn->lnkcap;
		bool clk_cap = true, clk_on = true;
		bool ext_unknown = (up->flags & FN_EXT_UNKNOWN) != 0;

		for (int j = l->down_first; j < (int)t->nfn; j++) {
			const struct pcie_fn *f = &t->fn[j];

			if (f->parent != l->up)
				continue;
			if (f->flags & FN_EXT_UNKNOWN)
				ext_unknown = true;
			if (!(f->lnkcap & PCI_EXP_LNKCAP_CLKPM))
				clk_cap = clk_on = false;
			if (!(f->lnkctl & PCI_EXP_LNKCTL_CLKREQ_EN))
				clk_on = false;
		}
		out_printf(o, "link %s -> %s (%d fn, %d switch%s above)\n",
			   pci_addr_str(up->addr, b1), pci_addr_str(dn->addr, b2),
			   l->ndown, l->hops, l->hops == 1 ? "" : "es");
		fmt_snprintf(s1, sizeof(s1), "%s%s%s%s",
			     (lc & PCI_EXP_LNKCAP_ASPM_L0S) ? "L0s" : "",
			     ((lc & PCI_EXP_LNKCAP_ASPMS) == PCI_EXP_LNKCAP_ASPMS) ? "," : "",
			     (lc & PCI_EXP_LNKCAP_ASPM_L1) ? "L1" : "",
			     (lc & PCI_EXP_LNKCAP_ASPMS) ? "" : "none");
		lnkctl_str(up->lnkctl, s2, sizeof(s2));
		lnkctl_str(dn->lnkctl, s3, sizeof(s3));
		out_printf(o, "  ASPM support: %s; enabled up: %s, down: %s\n", s1, s2, s3);
		format_ns(aspm_l0s_exit_ns(up->lnkcap), n1, sizeof(n1));
		format_ns(aspm_l0s_exit_ns(dn->lnkcap), n2, sizeof(n2));
		format_ns(aspm_l1_exit_ns(up->lnkcap), n3, sizeof(n3));
		format_ns(aspm_l1_exit_ns(dn->lnkcap), n4, sizeof(n4));
		out_printf(o, "  exit latency L0s %s/%s, L1 %s/%s (up/down)\n", n1, n2, n3, n4);
		if (dn->flags & FN_PCIE) {
			format_ns(aspm_l0s_acceptable_ns(dn->devcap), n1, sizeof(n1));
			format_ns(aspm_l1_acceptable_ns(dn->devcap), n2, sizeof(n2));
			out_printf(o, "  acceptable (down) L0s %s, L1 %s; RBER %s\n", n1, n2,
				   (dn->devcap & PCI_EXP_DEVCAP_RBER) ? "yes" : "no");
		}
		out_printf(o, "  clock PM capable %s enabled %s; L1SS %s; LTR %s\n",
			   clk_cap ? "yes" : "no", clk_on ? "yes" : "no",
			   ext_unknown ? "unknown" : (up->l1ss && dn->l1ss) ? "yes" : "no",
			   (dn->flags & FN_EXT_UNKNOWN) ? "unknown" : dn->ltr ? "yes" : "no");
		if (ext_unknown)
			out_puts(o, "  extended config space not known (not in the dump): L1 PM Substates are neither read nor changed\n");
		/* LNKCAP Port Number (PCIe r5.0 sec 7.5.3.6), LNKSTA Slot
		 * Clock Configuration (sec 7.5.3.8) */
		out_printf(o, "  port number up %u down %u; slot clock up %s down %s\n",
			   (unsigned)((up->lnkcap & PCI_EXP_LNKCAP_PN) >> PCI_EXP_LNKCAP_PN_SHIFT),
			   (unsigned)((dn->lnkcap & PCI_EXP_LNKCAP_PN) >> PCI_EXP_LNKCAP_PN_SHIFT),
			   (up->lnksta & PCI_EXP_LNKSTA_SLC) ? "yes" : "no",
			   (dn->lnksta & PCI_EXP_LNKSTA_SLC) ? "yes" : "no");
	}
}
