// SPDX-License-Identifier: GPL-2.0-only
/*
 * Reports. Human sections fit an 80-column serial console; records are
 * one fact per line in the stable format of docs/records.md.
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

struct bit_name {
	uint32_t bit;
	const char *name;
};

/* Append the names of the bits set in `bits`, comma-separated, after the
 * n bytes already in buf; `empty` when nothing at all was written. */
static void append_bits(uint32_t bits, const struct bit_name *names,
			unsigned count, char *buf, size_t size, size_t n,
			const char *empty)
{
	for (unsigned i = 0; i < count && n < size; i++)
		if (bits & names[i].bit)
			n += (size_t)fmt_snprintf(buf + n, size - n, "%s%s",
						  n ? "," : "", names[i].name);
	if (!n)
		fmt_snprintf(buf, size, "%s", empty);
}

void aspm_state_str(uint8_t s, char *buf, size_t size)
{
	static const struct bit_name names[] = {
		{ ASPM_STATE_L1, "L1" }, { ASPM_STATE_L1_1, "L1.1" },
		{ ASPM_STATE_L1_2, "L1.2" }, { ASPM_STATE_L1_1_PCIPM, "L1.1-pcipm" },
		{ ASPM_STATE_L1_2_PCIPM, "L1.2-pcipm" },
	};
	size_t n = 0;

	buf[0] = '\0';
	if ((s & ASPM_STATE_L0S) == ASPM_STATE_L0S)
		n += (size_t)fmt_snprintf(buf + n, size - n, "L0s");
	else if (s & ASPM_STATE_L0S_UP)
		n += (size_t)fmt_snprintf(buf + n, size - n, "L0s-up");
	else if (s & ASPM_STATE_L0S_DW)
		n += (size_t)fmt_snprintf(buf + n, size - n, "L0s-dw");
	append_bits(s, names, ARRAY_SIZE(names), buf, size, n, "none");
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

static const char *fn_flag_names(uint32_t fl, char *buf, size_t size)
{
	static const struct bit_name names[] = {
		{ FN_PCIE, "pcie" }, { FN_BRIDGE, "bridge" }, { FN_MULTI, "multi" },
		{ FN_ARI, "ari" }, { FN_HOTPLUG, "hotplug" },
		{ FN_CAP_LOOP, "cap-loop" }, { FN_EXTCAP_LOOP, "extcap-loop" },
		{ FN_BAD_TYPE, "bad-type" }, { FN_BUS_BAD, "bus-bad" },
		{ FN_BUS_RANGE, "bus-range" }, { FN_BUS_DUP, "bus-dup" },
		{ FN_GONE, "gone" }, { FN_ALIAS, "alias" }, { FN_REMOVED, "removed" },
	};

	buf[0] = '\0';
	append_bits(fl, names, ARRAY_SIZE(names), buf, size, 0, "none");
	return buf;
}

void report_fn_records(const struct out *o, const struct pcie_topo *t)
{
	char b1[16], b2[16], fl[128];

	for (unsigned i = 0; i < t->nfn; i++) {
		const struct pcie_fn *f = &t->fn[i];

		out_printf(o, "fn %s id=%04x:%04x class=%06x type=%s parent=%s depth=%d flags=%s",
			   pci_addr_str(f->addr, b1), f->vendor, f->device, f->class,
			   pcie_type_name(f),
			   f->parent >= 0 ? pci_addr_str(t->fn[f->parent].addr, b2) : "-",
			   f->depth, fn_flag_names(f->flags, fl, sizeof(fl)));
		if (f->flags & FN_BRIDGE)
			out_printf(o, " bus=%02x:%02x-%02x", f->primary, f->secondary,
				   f->subordinate);
		out_puts(o, "\n");
	}
}

static void reasons_str(uint32_t r, char *buf, size_t size)
{
	static const struct bit_name names[] = {
		{ REASON_FADT, "fadt-no-aspm" }, { REASON_OVERRIDE, "override" },
		{ REASON_OSC, "osc-denied" }, { REASON_NOT_SUPPORTED, "not-supported" },
		{ REASON_NON_PCIE, "non-pcie-fn" }, { REASON_PRE_1_1, "pre-1.1" },
		{ REASON_L0S_UP_LAT, "l0s-up-latency" },
		{ REASON_L0S_DW_LAT, "l0s-dw-latency" },
		{ REASON_L1_LAT, "l1-latency" }, { REASON_BIOS_OFF, "bios-off" },
		{ REASON_L1SS_NOT_FORCED, "l1ss-not-forced" },
		{ REASON_L1SS_BIOS_OFF, "l1ss-bios-off" },
		{ REASON_L1_2_NO_LTR, "l1.2-no-ltr" },
		{ REASON_EXCLUDED, "excluded" },
	};

	buf[0] = '\0';
	append_bits(r, names, ARRAY_SIZE(names), buf, size, 0, "-");
}

static void before_after(char *buf, size_t size, const char *a, const char *b)
{
	if (!str_cmp(a, b))
		fmt_snprintf(buf, size, "%s", a);
	else
		fmt_snprintf(buf, size, "%s>%s", a, b);
}

void aspm_print_link(const struct out *o, const struct pcie_topo *t, int li,
		     enum aspm_action act, const struct aspm_link_plan *lp)
{
	const struct pcie_link *l = &t->link[li];
	char up[16], dn[16], sup[64], bios[64], cap[64], tgt[64], rs[160];
	char l1a[48], l1b[48], l1s[100], clk[16];
	/* what the BIOS enabled, as read from the registers: a blacklisted
	 * link has no aspm_default (Linux leaves it 0), so its registers */
	uint8_t b = l->aspm_disable == ASPM_STATE_ALL ? l->aspm_bios : l->aspm_default;

	aspm_state_str(l->aspm_support, sup, sizeof(sup));
	aspm_state_str(b, bios, sizeof(bios));
	aspm_state_str(l->aspm_capable, cap, sizeof(cap));
	aspm_state_str(lp->target, tgt, sizeof(tgt));
	aspm_state_str(b & ASPM_STATE_L1SS, l1a, sizeof(l1a));
	aspm_state_str(lp->target & ASPM_STATE_L1SS, l1b, sizeof(l1b));
	before_after(l1s, sizeof(l1s), l1a, l1b);
	if ((t->fn[l->up].flags | t->fn[l->down].flags) & FN_EXT_UNKNOWN)
		fmt_snprintf(l1s, sizeof(l1s), "unknown");
	if (!l->clkpm_capable && !l->clkpm_default && !lp->clkpm_target)
		fmt_snprintf(clk, sizeof(clk), "-");
	else
		before_after(clk, sizeof(clk), l->clkpm_default ? "on" : "off",
			     lp->clkpm_target ? "on" : "off");
	reasons_str(lp->reasons, rs, sizeof(rs));
	out_printf(o, "aspm link up=%s down=%s nfn=%d hops=%d support=%s bios=%s capable=%s action=%s target=%s clkpm=%s l1ss=%s reason=%s\n",
		   pci_addr_str(t->fn[l->up].addr, up), pci_addr_str(t->fn[l->down].addr, dn),
		   l->ndown, l->hops, sup, bios, cap, aspm_action_name(act),
		   tgt, clk, l1s, rs);
}

void aspm_print_ccc(const struct out *o, const struct pcie_topo *t, int li,
		    const struct aspm_link_plan *lp)
{
	static const char *const res[] = {
		[ASPM_CCC_PENDING] = "pending", [ASPM_CCC_DONE] = "done",
		[ASPM_CCC_TIMEOUT] = "timeout",
	};
	const struct pcie_link *l = &t->link[li];
	char up[16], dn[16];

	if (lp->ccc == ASPM_CCC_NONE || lp->ccc >= ARRAY_SIZE(res))
		return;
	out_printf(o, "aspm ccc up=%s down=%s result=%s lnkcap=%s\n",
		   pci_addr_str(t->fn[l->up].addr, up),
		   pci_addr_str(t->fn[l->down].addr, dn), res[lp->ccc],
		   lp->ccc == ASPM_CCC_PENDING ? "pre-ccc" :
		   lp->lnkcap_changed ? "changed" : "same");
}

static void print_target(const struct out *o, const struct pcie_topo *t,
			 const struct pcie_link *l, int fn, const char *end)
{
	const struct pcie_fn *f = &t->fn[fn];
	char a[16], up[16], ss[16];

	if (f->flags & FN_REMOVED)
		return;
	if (f->l1ss)
		fmt_snprintf(ss, sizeof(ss), "0x%08x", f->l1ss_ctl1);
	else if (f->flags & FN_EXT_UNKNOWN)
		fmt_snprintf(ss, sizeof(ss), "unknown");
	else
		fmt_snprintf(ss, sizeof(ss), "-");
	if (f->flags & FN_PCIE)
		out_printf(o, "aspm target fn=%s up=%s end=%s lnkctl=0x%04x l1ss=%s\n",
			   pci_addr_str(f->addr, a), pci_addr_str(t->fn[l->up].addr, up),
			   end, f->lnkctl, ss);
	else
		out_printf(o, "aspm target fn=%s up=%s end=%s lnkctl=- l1ss=-\n",
			   pci_addr_str(f->addr, a), pci_addr_str(t->fn[l->up].addr, up),
			   end);
}

void aspm_print_targets(const struct out *o, const struct pcie_topo *t, int li)
{
	const struct pcie_link *l = &t->link[li];

	print_target(o, t, l, l->up, "up");
	for (int j = l->down_first; j < (int)t->nfn; j++)
		if (t->fn[j].parent == l->up)
			print_target(o, t, l, j, "down");
}

void report_link_records(const struct out *o, const struct pcie_topo *t,
			 enum aspm_action act, const struct aspm_link_plan *lp)
{
	for (unsigned li = 0; li < t->nlink; li++)
		if (!t->link[li].removed)
			aspm_print_link(o, t, (int)li, act, &lp[li]);
	for (unsigned li = 0; li < t->nlink; li++)
		if (!t->link[li].removed)
			aspm_print_ccc(o, t, (int)li, &lp[li]);
	for (unsigned li = 0; li < t->nlink; li++)
		if (!t->link[li].removed)
			aspm_print_targets(o, t, (int)li);
}

const char *aspm_step_name(enum aspm_step s)
{
	static const char *const names[] = {
		[STEP_CCC] = "ccc", [STEP_RETRAIN] = "retrain",
		[STEP_ASPM_UP] = "aspm-up", [STEP_ASPM_DOWN] = "aspm-down",
		[STEP_L1SS] = "l1ss", [STEP_CLKPM] = "clkpm",
		[STEP_TEARDOWN] = "teardown", [STEP_CCC_RESTORE] = "ccc-restore",
		[STEP_L1SS_TIMING] = "l1ss-timing", [STEP_LTR] = "ltr",
	};

	return (unsigned)s < ARRAY_SIZE(names) ? names[s] : "?";
}

void aspm_print_write(const struct out *o, const struct pcie_topo *t,
		      const struct aspm_write *w, bool applied)
{
	char b[16];
	int digits = w->width * 2;

	out_printf(o, "aspm write %s off=0x%x width=%u old=0x%0*x new=0x%0*x step=%s",
		   pci_addr_str(t->fn[w->fn].addr, b), w->off, w->width,
		   digits, w->old, digits, w->val, aspm_step_name(w->step));
	if (!applied)
		out_puts(o, " planned\n");
	else if (w->result == ASPM_WRITE_OK)
		out_printf(o, " readback=0x%0*x ok\n", digits, w->readback);
	else if (w->result == ASPM_WRITE_IGNORED)
		out_printf(o, " readback=0x%0*x ignored\n", digits, w->readback);
	else if (w->result == ASPM_WRITE_TIMEOUT)
		out_printf(o, " readback=0x%0*x timeout\n", digits, w->readback);
	else if (w->result == ASPM_WRITE_NOT_DONE)
		out_puts(o, " readback=- not-done\n");
	else
		out_puts(o, " readback=- error\n");
}

void report_write_records(const struct out *o, const struct pcie_topo *t,
			  const struct aspm_plan *p, unsigned from, bool applied)
{
	for (unsigned i = from; i < p->n; i++)
		aspm_print_write(o, t, &p->w[i], applied);
}

void aspm_print_decision(const struct out *o, const struct aspm_inputs *in,
			 bool fadt_valid, enum aspm_action act)
{
	out_printf(o, "aspm decision fadt-no-aspm=%d fadt-valid=%d osc=%s override=%s fadt-mode=%s action=%s\n",
		   in->fadt_no_aspm, fadt_valid, in->osc_granted ? "granted" : "denied",
		   aspm_override_name(in->override), aspm_fadt_mode_name(in->fadt_mode),
		   aspm_action_name(act));
}

/*
 * "aspm exclude": one per rule and link it reached, with the states the
 * rule forbids there and those it took from the link's target (several
 * rules forbidding one state each take it); a rule that reached no link
 * gets one line with links=0.
 */
void report_excl_records(const struct out *o, const struct pcie_topo *t,
			 const struct aspm_excl *e, unsigned n,
			 enum aspm_action act, const struct aspm_link_plan *lp)
{
	char b1[16], b2[16], st[64], rm[64];

	for (unsigned i = 0; i < n && i < 32; i++) {
		unsigned links = 0;

		for (unsigned li = 0; li < t->nlink; li++) {
			const struct pcie_link *l = &t->link[li];

			if (l->removed || !(l->excl_rules & (1u << i)))
				continue;
			links++;
			aspm_state_str(e[i].states, st, sizeof(st));
			aspm_state_str(e[i].states & lp[li].excl_removed, rm, sizeof(rm));
			out_printf(o, "aspm exclude rule=%s up=%s down=%s action=%s states=%s%s removed=%s%s\n",
				   e[i].text, pci_addr_str(t->fn[l->up].addr, b1),
				   pci_addr_str(t->fn[l->down].addr, b2),
				   aspm_action_name(act), e[i].states ? st : "",
				   e[i].clkpm ? (e[i].states ? ",clkpm" : "clkpm") : "",
				   e[i].states & lp[li].excl_removed ? rm : "",
				   e[i].clkpm && lp[li].excl_clkpm ?
					((e[i].states & lp[li].excl_removed) ? ",clkpm" : "clkpm") :
					((e[i].states & lp[li].excl_removed) ? "" : "none"));
		}
		if (!links)
			out_printf(o, "aspm exclude rule=%s links=0 note=matches-nothing\n",
				   e[i].text);
	}
}
