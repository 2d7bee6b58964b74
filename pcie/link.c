// SPDX-License-Identifier: GPL-2.0-only
/*
 * The link model: pair each upstream port with the functions on its
 * secondary bus, as Linux's alloc_pcie_link_state() does, and record
 * what the hardware says about the link (support, BIOS state, Clock PM,
 * sanity), as pcie_aspm_cap_init() and pcie_clkpm_cap_init() do.
 */
#include "link.h"
#include "pci_regs.h"
#include "../lib/err.h"
#include "../lib/log.h"
#include "../lib/util.h"

/* Linux's pcie_downstream_port(): ports that own a link below them. */
static bool owns_link(const struct pcie_fn *f)
{
	if (!(f->flags & FN_PCIE) || !(f->flags & FN_BRIDGE) ||
	    (f->flags & (FN_BAD_TYPE | FN_BUS_BAD | FN_BUS_RANGE | FN_BUS_DUP)))
		return false;
	return f->pcie_type == PCI_EXP_TYPE_ROOT_PORT ||
	       f->pcie_type == PCI_EXP_TYPE_DOWNSTREAM ||
	       f->pcie_type == PCI_EXP_TYPE_PCIE_BRIDGE;
}

/* The functions on port i's secondary bus: how many, the first, and
 * function 0 (or -1). */
static int secondary_fns(const struct pcie_topo *t, unsigned i, int *first,
			 int *f0)
{
	int n = 0;

	*first = *f0 = -1;
	for (unsigned j = i + 1; j < t->nfn; j++) {
		if (t->fn[j].parent != (int)i)
			continue;
		if (*first < 0)
			*first = (int)j;
		n++;
		if (*f0 < 0 && PCI_FUNC(t->fn[j].addr.devfn) == 0)
			*f0 = (int)j;
	}
	return n;
}

/* parent, root and hops of link l (to be link[t->nlink]) below port p;
 * false when Linux would give it no link state. */
static bool link_chain(const struct pcie_topo *t, const struct pcie_fn *p,
		       struct pcie_link *l)
{
	int usp, above;

	l->parent = -1;
	if (p->pcie_type == PCI_EXP_TYPE_ROOT_PORT ||
	    p->pcie_type == PCI_EXP_TYPE_PCIE_BRIDGE || p->parent < 0) {
		l->root = (int)t->nlink;
		return true;
	}
	/* the switch's upstream port, then the port above it */
	usp = p->parent;
	above = usp >= 0 ? t->fn[usp].parent : -1;
	if (above < 0) {
		/*
		 * The switch sits directly on a root bus (no Root Port: some
		 * hosts omit them). Linux makes this link a root of its own
		 * (alloc_pcie_link_state(): no pdev->bus->parent->self).
		 */
		l->root = (int)t->nlink;
		return true;
	}
	if (t->fn[above].down_link < 0)
		return false;	/* Linux: no parent link state, no link */
	l->parent = t->fn[above].down_link;
	l->root = t->link[l->parent].root;
	l->hops = t->link[l->parent].hops + 1;
	return true;
}

/* Does fn[c] start a bus whose upstream port gets a link? */
static bool link_candidate(const struct pcie_topo *t, unsigned c)
{
	int pi = t->fn[c].parent;
	const struct pcie_fn *p;

	if (pi < 0 || (c > 0 && t->fn[c - 1].parent == pi))
		return false;	/* not the first function of a bus */
	p = &t->fn[pi];
	if (!owns_link(p) || p->down_link >= 0)
		return false;
	/* VIA quirk in Linux: a Root Port below a bridge is skipped */
	return !(p->pcie_type == PCI_EXP_TYPE_ROOT_PORT && p->parent >= 0);
}

int pcie_build_links(struct pcie_topo *t)
{
	t->nlink = 0;
	for (unsigned i = 0; i < t->nfn; i++)
		t->fn[i].up_link = t->fn[i].down_link = -1;

	/*
	 * Linux initialises a port's link when it scans the port's
	 * secondary bus (pci_scan_slot()), so links come in the order those
	 * buses were scanned: the order in which each bus's first function
	 * appears in fn[] (a bus is contiguous there, buses in scan order),
	 * not the order of the ports. A parent link is still built first.
	 */
	for (unsigned c = 0; c < t->nfn; c++) {
		unsigned i = (unsigned)t->fn[c].parent;
		struct pcie_link *l;
		int first, n, f0;

		if (!link_candidate(t, c))
			continue;
		n = secondary_fns(t, i, &first, &f0);
		if (!n)
			continue;	/* empty slot: no link */
		if (t->nlink >= t->cap_link) {
			if (!t->truncated)
				log_error(-AE_NOSPC, "more than %u links; the rest are ignored",
					  t->cap_link);
			t->truncated = true;
			return -AE_NOSPC;
		}
		l = &t->link[t->nlink];
		mem_set(l, 0, sizeof(*l));
		l->up = (int)i;
		l->down = f0 >= 0 ? f0 : first;
		l->down_first = first;
		l->ndown = n;
		if (!link_chain(t, &t->fn[i], l))
			continue;
		t->fn[i].down_link = (int)t->nlink;
		for (int j = first; j < (int)t->nfn; j++)
			if (t->fn[j].parent == (int)i)
				t->fn[j].up_link = (int)t->nlink;
		t->nlink++;
	}
	return 0;
}

/* -------- spec encodings (PCIe r5.0 sec 7.5.3.3 and 7.5.3.6) -------- */

uint32_t aspm_l0s_exit_ns(uint32_t lnkcap)
{
	uint32_t enc = (lnkcap & PCI_EXP_LNKCAP_L0SEL) >> PCI_EXP_LNKCAP_L0SEL_SHIFT;

	return enc == 7 ? 5 * 1000 : 64u << enc;	/* 7: "more than 4 us" */
}

uint32_t aspm_l1_exit_ns(uint32_t lnkcap)
{
	uint32_t enc = (lnkcap & PCI_EXP_LNKCAP_L1EL) >> PCI_EXP_LNKCAP_L1EL_SHIFT;

	return enc == 7 ? 65 * 1000 : 1000u << enc;	/* 7: "more than 64 us" */
}

uint32_t aspm_l0s_acceptable_ns(uint32_t devcap)
{
	uint32_t enc = (devcap & PCI_EXP_DEVCAP_L0S) >> PCI_EXP_DEVCAP_L0S_SHIFT;

	return enc == 7 ? ASPM_NO_LIMIT : 64u << enc;	/* 7: no limit */
}

uint32_t aspm_l1_acceptable_ns(uint32_t devcap)
{
	uint32_t enc = (devcap & PCI_EXP_DEVCAP_L1) >> PCI_EXP_DEVCAP_L1_SHIFT;

	return enc == 7 ? ASPM_NO_LIMIT : 1000u << enc;	/* 7: no limit */
}

/* -------- link state from the hardware's registers -------- */

/*
 * What Linux's latency checks take for an endpoint: pci_pcie_type() of a
 * function without the PCI Express capability reads 0, which is
 * PCI_EXP_TYPE_ENDPOINT, and its cached Device Capabilities is 0, so it
 * accepts 64 ns of L0s and 1 us of L1 exit latency. It counts where its
 * link is not blacklisted (under clear and notouch too; the case is
 * tests/xcheck/found/5f9f43e4d35cabca-clear.txt) and in the recheck
 * after a removal, on the links above it.
 */
static bool is_endpoint(const struct pcie_fn *f)
{
	if (!(f->flags & FN_PCIE))
		return true;
	return f->pcie_type == PCI_EXP_TYPE_ENDPOINT ||
	       f->pcie_type == PCI_EXP_TYPE_LEG_END;
}

uint32_t link_sanity(const struct pcie_topo *t, const struct pcie_link *l)
{
	uint32_t s = 0;

	for (int j = l->down_first; j < (int)t->nfn; j++) {
		const struct pcie_fn *f = &t->fn[j];

		if (f->parent != l->up || (f->flags & FN_REMOVED))
			continue;
		if (!(f->flags & FN_PCIE) || (f->flags & FN_BAD_TYPE))
			s |= LINK_NON_PCIE;
		else if (!(f->devcap & PCI_EXP_DEVCAP_RBER))
			s |= LINK_PRE_1_1;
	}
	return s;
}

uint8_t link_regs_state(const struct pcie_topo *t, const struct pcie_link *l)
{
	const struct pcie_fn *up = &t->fn[l->up], *dn = &t->fn[l->down];
	uint8_t s = 0;

	if (!(up->flags & FN_PCIE) || !(dn->flags & FN_PCIE))
		return 0;
	if (dn->lnkctl & PCI_EXP_LNKCTL_ASPM_L0S)
		s |= ASPM_STATE_L0S_UP;
	if (up->lnkctl & PCI_EXP_LNKCTL_ASPM_L0S)
		s |= ASPM_STATE_L0S_DW;
	if (up->lnkctl & dn->lnkctl & PCI_EXP_LNKCTL_ASPM_L1)
		s |= ASPM_STATE_L1;
	if (up->l1ss && dn->l1ss) {
		uint32_t e = up->l1ss_ctl1 & dn->l1ss_ctl1;

		if (e & PCI_L1SS_CTL1_ASPM_L1_1)
			s |= ASPM_STATE_L1_1;
		if (e & PCI_L1SS_CTL1_ASPM_L1_2)
			s |= ASPM_STATE_L1_2;
		if (e & PCI_L1SS_CTL1_PCIPM_L1_1)
			s |= ASPM_STATE_L1_1_PCIPM;
		if (e & PCI_L1SS_CTL1_PCIPM_L1_2)
			s |= ASPM_STATE_L1_2_PCIPM;
	}
	return s;
}

void link_read_state(const struct pcie_topo *t, struct pcie_link *l,
		     bool blacklist)
{
	const struct pcie_fn *up = &t->fn[l->up], *dn = &t->fn[l->down];
	uint32_t lc = up->lnkcap & dn->lnkcap;

	l->aspm_support = l->aspm_enabled = l->aspm_default = 0;
	l->aspm_capable = l->aspm_disable = 0;
	l->sanity = link_sanity(t, l);
	l->aspm_bios = link_regs_state(t, l);
	if (blacklist) {
		/* Set enabled/disable so that the policy disables ASPM later */
		l->aspm_enabled = ASPM_STATE_ALL;
		l->aspm_disable = ASPM_STATE_ALL;
	} else if (lc & PCI_EXP_LNKCAP_ASPMS) {
		if (lc & PCI_EXP_LNKCAP_ASPM_L0S)
			l->aspm_support |= ASPM_STATE_L0S;
		if (dn->lnkctl & PCI_EXP_LNKCTL_ASPM_L0S)
			l->aspm_enabled |= ASPM_STATE_L0S_UP;
		if (up->lnkctl & PCI_EXP_LNKCTL_ASPM_L0S)
			l->aspm_enabled |= ASPM_STATE_L0S_DW;
		if (lc & PCI_EXP_LNKCAP_ASPM_L1)
			l->aspm_support |= ASPM_STATE_L1;
		if (up->lnkctl & dn->lnkctl & PCI_EXP_LNKCTL_ASPM_L1)
			l->aspm_enabled |= ASPM_STATE_L1;
		/* L1 PM Substates live in function 0 only (PCIe r5.0 7.8.3) */
		if (up->l1ss && dn->l1ss &&
		    (up->l1ss_cap & dn->l1ss_cap & PCI_L1SS_CAP_L1_PM_SS)) {
			uint32_t c = up->l1ss_cap & dn->l1ss_cap;
			uint32_t e = up->l1ss_ctl1 & dn->l1ss_ctl1;

			/* ASPM L1.2 needs LTR on the path from the Root Port
			 * (PCIe r5.0 5.5.4, 6.18; Linux: child->ltr_path) */
			if (!(dn->flags & FN_LTR_PATH))
				c &= ~PCI_L1SS_CAP_ASPM_L1_2;
			if (c & PCI_L1SS_CAP_ASPM_L1_1)
				l->aspm_support |= ASPM_STATE_L1_1;
			if (c & PCI_L1SS_CAP_ASPM_L1_2)
				l->aspm_support |= ASPM_STATE_L1_2;
			if (c & PCI_L1SS_CAP_PCIPM_L1_1)
				l->aspm_support |= ASPM_STATE_L1_1_PCIPM;
			if (c & PCI_L1SS_CAP_PCIPM_L1_2)
				l->aspm_support |= ASPM_STATE_L1_2_PCIPM;
			if (e & PCI_L1SS_CTL1_ASPM_L1_1)
				l->aspm_enabled |= ASPM_STATE_L1_1;
			if (e & PCI_L1SS_CTL1_ASPM_L1_2)
				l->aspm_enabled |= ASPM_STATE_L1_2;
			if (e & PCI_L1SS_CTL1_PCIPM_L1_1)
				l->aspm_enabled |= ASPM_STATE_L1_1_PCIPM;
			if (e & PCI_L1SS_CTL1_PCIPM_L1_2)
				l->aspm_enabled |= ASPM_STATE_L1_2_PCIPM;
		}
		l->aspm_capable = l->aspm_support;
	}
	/* Linux's pcie_aspm_cap_init() returns before setting aspm_default
	 * on a blacklisted link: it stays 0, not the ALL sentinel */
	l->aspm_default = blacklist ? 0 : l->aspm_enabled;
	l->l0s_up_ns = aspm_l0s_exit_ns(up->lnkcap);
	l->l0s_dw_ns = aspm_l0s_exit_ns(dn->lnkcap);
	l->l1_ns = MAX(aspm_l1_exit_ns(up->lnkcap), aspm_l1_exit_ns(dn->lnkcap));

	/* Clock PM: all functions must be capable; enabled if all enabled */
	l->clkpm_capable = true;
	l->clkpm_enabled = true;
	for (int j = l->down_first; j < (int)t->nfn; j++) {
		const struct pcie_fn *f = &t->fn[j];

		if (f->parent != l->up || (f->flags & FN_REMOVED))
			continue;
		if (!(f->flags & FN_PCIE) || !(f->lnkcap & PCI_EXP_LNKCAP_CLKPM)) {
			l->clkpm_capable = false;
			l->clkpm_enabled = false;
			break;
		}
		if (!(f->lnkctl & PCI_EXP_LNKCTL_CLKREQ_EN))
			l->clkpm_enabled = false;
	}
	l->clkpm_default = l->clkpm_enabled;
	l->clkpm_disable = blacklist;
}

/*
 * pcie_aspm_check_latency(): walk from an endpoint's link to the root,
 * dropping states whose exit latency exceeds what the endpoint accepts.
 * L1 costs an extra 1 us per switch on the way up (PCIe r5.0 sec
 * 5.4.1.3.2 / the Linux implementation); the spec says nothing for L0s.
 */
void link_check_latency(struct pcie_topo *t, int ep)
{
	const struct pcie_fn *e = &t->fn[ep];
	uint32_t acc_l0s = aspm_l0s_acceptable_ns(e->devcap);
	uint32_t acc_l1 = aspm_l1_acceptable_ns(e->devcap);
	uint32_t switch_lat = 0;
	int li = e->up_link;
	unsigned guard = 0;

	while (li >= 0 && guard++ < t->nlink) {
		struct pcie_link *l = &t->link[li];
		const struct pcie_fn *up = &t->fn[l->up], *dn = &t->fn[l->down];
		uint32_t up_l0s = aspm_l0s_exit_ns(up->lnkcap);
		uint32_t dw_l0s = aspm_l0s_exit_ns(dn->lnkcap);
		uint32_t l1 = MAX(aspm_l1_exit_ns(up->lnkcap), aspm_l1_exit_ns(dn->lnkcap));

		if ((l->aspm_capable & ASPM_STATE_L0S_UP) && up_l0s > acc_l0s)
			l->aspm_capable &= (uint8_t)~ASPM_STATE_L0S_UP;
		if ((l->aspm_capable & ASPM_STATE_L0S_DW) && dw_l0s > acc_l0s)
			l->aspm_capable &= (uint8_t)~ASPM_STATE_L0S_DW;
		if ((l->aspm_capable & ASPM_STATE_L1) &&
		    (uint64_t)l1 + switch_lat > acc_l1)
			l->aspm_capable &= (uint8_t)~ASPM_STATE_L1;
		switch_lat += 1000;
		li = l->parent;
	}
}

/*
 * At link initialisation Linux checks endpoint latencies only on links that
 * passed the sanity checks and where both ends support some ASPM
 * (pcie_aspm_cap_init() returns early otherwise); the recheck after a
 * removal (pcie_update_aspm_capable()) checks every link's endpoints.
 */
static bool checked_at_init(const struct pcie_topo *t, const struct pcie_link *l)
{
	return l->aspm_disable != ASPM_STATE_ALL &&
	       (t->fn[l->up].lnkcap & t->fn[l->down].lnkcap & PCI_EXP_LNKCAP_ASPMS);
}

/* the latency check of every endpoint on the link's downstream bus */
static void check_endpoints(struct pcie_topo *t, const struct pcie_link *l)
{
	for (int j = l->down_first; j < (int)t->nfn; j++) {
		const struct pcie_fn *f = &t->fn[j];

		if (f->parent != l->up || (f->flags & FN_REMOVED))
			continue;
		if (is_endpoint(f))
			link_check_latency(t, j);
	}
}

void link_check_link_latency(struct pcie_topo *t, int li)
{
	const struct pcie_link *l = &t->link[li];

	if (checked_at_init(t, l))
		check_endpoints(t, l);
}

void link_check_all_latencies(struct pcie_topo *t, int root, bool init)
{
	for (unsigned i = 0; i < t->nlink; i++) {
		struct pcie_link *l = &t->link[i];

		if (l->removed || (root >= 0 && l->root != root))
			continue;
		l->aspm_capable = l->aspm_support;
	}
	for (unsigned i = 0; i < t->nlink; i++) {
		struct pcie_link *l = &t->link[i];

		if (l->removed || (root >= 0 && l->root != root))
			continue;
		if (!init || checked_at_init(t, l))
			check_endpoints(t, l);
	}
}
