// SPDX-License-Identifier: GPL-2.0-only
/*
 * Every machine-readable record aspmctl prints, one function per kind, in
 * the one shape docs/records.md gives it: a keyword, then key=value fields
 * separated by single spaces; no value contains a space; a missing value
 * is "-" and an empty state set "none". Output only: the callers decide,
 * these print what was decided.
 */
#include "records.h"
#include "../acpi/acpi.h"
#include "../acpi/aml/aml.h"
#include "../pcie/enum.h"
#include "../pcie/exclude.h"
#include "../pcie/link.h"
#include "../pcie/pci_regs.h"
#include "../pcie/report.h"
#include "../lib/err.h"
#include "../lib/util.h"

/* ------------------------------------------------------------ words */

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

/* ------------------------------------------------------------ PCIe */

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

void rec_fn(const struct out *o, const struct pcie_topo *t)
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

static void rec_link(const struct out *o, const struct pcie_topo *t, int li,
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

static void rec_ccc(const struct out *o, const struct pcie_topo *t, int li,
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

static void rec_target(const struct out *o, const struct pcie_topo *t,
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

static void rec_targets(const struct out *o, const struct pcie_topo *t, int li)
{
	const struct pcie_link *l = &t->link[li];

	rec_target(o, t, l, l->up, "up");
	for (int j = l->down_first; j < (int)t->nfn; j++)
		if (t->fn[j].parent == l->up)
			rec_target(o, t, l, j, "down");
}

void rec_links(const struct out *o, const struct pcie_topo *t,
	       enum aspm_action act, const struct aspm_link_plan *lp)
{
	for (unsigned li = 0; li < t->nlink; li++)
		if (!t->link[li].removed)
			rec_link(o, t, (int)li, act, &lp[li]);
	for (unsigned li = 0; li < t->nlink; li++)
		if (!t->link[li].removed)
			rec_ccc(o, t, (int)li, &lp[li]);
	for (unsigned li = 0; li < t->nlink; li++)
		if (!t->link[li].removed)
			rec_targets(o, t, (int)li);
}

static const char *step_name(enum aspm_step s)
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

static void rec_write(const struct out *o, const struct pcie_topo *t,
		      const struct aspm_write *w, bool applied)
{
	char b[16];
	int digits = w->width * 2;

	out_printf(o, "aspm write %s off=0x%x width=%u old=0x%0*x new=0x%0*x step=%s",
		   pci_addr_str(t->fn[w->fn].addr, b), w->off, w->width,
		   digits, w->old, digits, w->val, step_name(w->step));
	if (!applied)
		out_puts(o, " readback=- planned\n");
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

void rec_writes(const struct out *o, const struct pcie_topo *t,
		const struct aspm_plan *p, unsigned from, bool applied)
{
	for (unsigned i = from; i < p->n; i++)
		rec_write(o, t, &p->w[i], applied);
}

void rec_decision(const struct out *o, const struct aspm_inputs *in,
		  bool fadt_valid, enum aspm_action act)
{
	out_printf(o, "aspm decision fadt-no-aspm=%d fadt-valid=%d osc=%s override=%s fadt-mode=%s action=%s osc-source=%s\n",
		   in->fadt_no_aspm, fadt_valid, in->osc_granted ? "granted" : "denied",
		   aspm_override_name(in->override), aspm_fadt_mode_name(in->fadt_mode),
		   aspm_action_name(act), aspm_osc_source_name(in->osc_source));
}

/*
 * "aspm exclude": one per rule and link it reached, with the states the
 * rule forbids there and those it took from the link's target (several
 * rules forbidding one state each take it); a rule that reached no link
 * gets one line with up=- down=- removed=none note=matches-nothing.
 */
/* A state set with Clock PM last ("L1,L1.1,clkpm", "clkpm"); none_word
 * for an empty set without Clock PM. */
static void states_clkpm(uint8_t states, bool clkpm, char *buf, size_t size,
			 const char *none_word)
{
	size_t n = 0;

	buf[0] = '\0';
	if (states) {
		aspm_state_str(states, buf, size);
		n = str_len(buf);
	}
	if (clkpm)
		fmt_snprintf(buf + n, size - n, "%sclkpm", n ? "," : "");
	else if (!n)
		fmt_snprintf(buf, size, "%s", none_word);
}

void rec_exclude(const struct out *o, const struct pcie_topo *t,
		 const struct aspm_excl *e, unsigned n,
		 enum aspm_action act, const struct aspm_link_plan *lp)
{
	char b1[16], b2[16], st[80], rm[80];

	for (unsigned i = 0; i < n && i < 32; i++) {
		unsigned links = 0;

		states_clkpm(e[i].states, e[i].clkpm, st, sizeof(st), "");
		for (unsigned li = 0; li < t->nlink; li++) {
			const struct pcie_link *l = &t->link[li];

			if (l->removed || !(l->excl_rules & (1u << i)))
				continue;
			links++;
			states_clkpm(e[i].states & lp[li].excl_removed,
				     e[i].clkpm && lp[li].excl_clkpm, rm, sizeof(rm), "none");
			out_printf(o, "aspm exclude rule=%s up=%s down=%s action=%s states=%s removed=%s\n",
				   e[i].text, pci_addr_str(t->fn[l->up].addr, b1),
				   pci_addr_str(t->fn[l->down].addr, b2),
				   aspm_action_name(act), st, rm);
		}
		if (!links)
			out_printf(o, "aspm exclude rule=%s up=- down=- action=%s states=%s removed=none note=matches-nothing\n",
				   e[i].text, aspm_action_name(act), st);
	}
}

/*
 * "aspm teardown": one per function removed that sat on a link; written
 * and reconfigured (-1: none) as pcie_aspm_exit_link_state() left them.
 * The line of a function that is not its link's function 0 appends
 * note=not-function-0 (the patched kernel prints only the other shape).
 */
void rec_teardown(const struct out *o, const struct pcie_topo *t, int fn,
		  enum aspm_action act, bool dropped, unsigned written,
		  int reconfigured)
{
	const struct pcie_link *l = &t->link[t->fn[fn].up_link];
	char b1[16], b2[16], b3[16];

	out_printf(o, "aspm teardown dev=%s link-up=%s action=%s dropped=%d written=%u reconfigured=%s%s\n",
		   pci_addr_str(t->fn[fn].addr, b1), pci_addr_str(t->fn[l->up].addr, b2),
		   aspm_action_name(act), dropped, written,
		   reconfigured >= 0 ? pci_addr_str(t->fn[t->link[reconfigured].up].addr, b3) : "-",
		   dropped ? "" : " note=not-function-0");
}

/* "aspm fn-link": Link Capabilities and Link Control of every PCIe
 * function, decoded (PCIe r5.0 sec 7.5.3.6, 7.5.3.7); every field "-" and
 * note=no-link for Root Complex integrated endpoints and event
 * collectors, which have no link. */
void rec_fn_links(const struct out *o, const struct pcie_topo *t)
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
			out_printf(o, "aspm fn-link %s lnkcap=- support=- l0s-exit=- l1-exit=- clkpm=- lnkctl=- aspm=- ccc=- clkreq=- note=no-link\n",
				   pci_addr_str(f->addr, b));
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

/* ------------------------------------------------------------ the run */

void rec_stats(const struct out *o, const struct rec_stats *s)
{
	char d1[24] = "-", d2[24];

	if (s->enum_ns != REC_NO_TIME)
		format_ns(s->enum_ns, d1, sizeof(d1));
	format_ns(s->time_ns, d2, sizeof(d2));
	out_printf(o, "aspm stats reads=%llu writes=%llu refused-writes=%llu errors=%llu written=%u ignored=%u time=%s enum-time=%s\n",
		   (unsigned long long)s->reads, (unsigned long long)s->writes,
		   (unsigned long long)s->refused_writes, (unsigned long long)s->errors,
		   s->written, s->ignored, d2, d1);
}

void rec_dump(const struct out *o, unsigned nfn, uint64_t reads, uint64_t writes,
	      uint64_t ns, const char *path)
{
	char d[24];

	format_ns(ns, d, sizeof(d));
	out_printf(o, "aspm dump functions=%u reads=%llu writes=%llu time=%s file=%s\n",
		   nfn, (unsigned long long)reads, (unsigned long long)writes, d, path);
}

void rec_fadt(const struct out *o, const struct fadt_patch *p)
{
	char len[12] = "-", before[8] = "-", after[8] = "-";
	bool invalid = p->rc && !p->length;

	if (!invalid)
		fmt_snprintf(len, sizeof(len), "%u", p->length);
	if (!p->rc) {
		fmt_snprintf(before, sizeof(before), "0x%04x", p->before);
		fmt_snprintf(after, sizeof(after), "0x%04x", p->after);
	}
	out_printf(o, "aspm fadt at=0x%llx root=%s length=%s before=%s after=%s result=%s\n",
		   (unsigned long long)p->phys, p->root, len, before, after,
		   invalid ? "invalid" : p->rc ? "refused" : "ok");
}

static const char *sb_flag(int v)
{
	return v == 1 ? "1" : v == 0 ? "0" : "-";
}

/*
 * Who verified this image. With SecureBoot = 1 the firmware's LoadImage
 * verifies every image it loads against db/dbx before it can start (UEFI
 * 2.10 chapter 32, "UEFI Image Validation"; the boot manager loads boot
 * entries through it), so a running image was verified; when shim started
 * the chain, shim verified it (against db or its MokList). SecureBoot = 0
 * (setup mode, audit mode, or off): nothing was verified.
 */
static const char *sb_verified(const struct sb_state *s)
{
	if (s->secure_boot == 1)
		return s->shim == 1 ? "shim" : "firmware";
	return s->secure_boot == 0 ? "no" : "-";
}

void rec_secureboot(const struct out *o, const struct sb_state *s)
{
	out_printf(o, "aspm secureboot secureboot=%s setupmode=%s verified=%s\n",
		   sb_flag(s->secure_boot), sb_flag(s->setup_mode), sb_verified(s));
}

/* An error as one word of a record value: its phrase, spaces as hyphens. */
static void err_word(int err, char *buf, size_t size)
{
	str_copy(buf, err ? err_str(err) : "ok", size);
	for (; *buf; buf++)
		if (*buf == ' ')
			*buf = '-';
}

/* "-" for a count not known (negative), else the count */
static const char *count_word(long long n, char *buf, size_t size)
{
	if (n < 0)
		return "-";
	fmt_snprintf(buf, size, "%llu", (unsigned long long)n);
	return buf;
}

/* "[PME AER]" -> "PME,AER"; "[]" -> "none" */
static char *mask_word(uint32_t mask, bool control, char *buf, size_t size)
{
	char t[96];
	size_t n = 0;

	if (control)
		osc_control_str(mask, t, sizeof(t));
	else
		osc_support_str(mask, t, sizeof(t));
	for (const char *p = t + 1; *p && *p != ']' && n + 1 < size; p++)
		buf[n++] = *p == ' ' ? ',' : *p;
	buf[n] = 0;
	if (!n)
		str_copy(buf, "none", size);
	return buf;
}

void rec_osc(const struct out *o, const struct osc_report *r)
{
	char req[96], ctl[96];

	for (unsigned i = 0; i < r->nbridges; i++) {
		const struct osc_bridge *b = &r->bridge[i];

		out_printf(o, "aspm osc bridge=%s hid=%s pcie=%d sta=0x%02x seg=%04x bus=%02x-%02x bus-from=%s osc=%s queries=%u requested=%s control=%s status=%s accesses=%u result=%s reason=%s\n",
			   b->path, b->hid[0] ? b->hid : "-", b->pcie, b->sta, b->seg,
			   b->bus_start, b->bus_end, b->bus_from_crs ? "_CRS" : "_BBN",
			   b->has_osc ? "yes" : "no", b->queries,
			   mask_word(b->requested, true, req, sizeof(req)),
			   mask_word(b->control, true, ctl, sizeof(ctl)),
			   b->status ? b->status : "-", b->accesses,
			   osc_outcome_name(b->outcome), b->reason[0] ? b->reason : "-");
	}
	for (unsigned i = 0; i < r->naccess; i++) {
		const struct aml_access *a = &r->access[i];
		char at[40];

		/* PCI_Config: segment:bus:device.function+offset */
		if (a->space == 2)
			fmt_snprintf(at, sizeof(at), "%04x:%02x:%02x.%x+0x%x",
				     (unsigned)(a->addr >> 48), (unsigned)(a->addr >> 40) & 0xff,
				     (unsigned)(a->addr >> 35) & 0x1f, (unsigned)(a->addr >> 32) & 7,
				     (unsigned)a->addr & 0xfff);
		else
			fmt_snprintf(at, sizeof(at), "0x%llx", (unsigned long long)a->addr);
		out_printf(o, "aspm osc-access method=%s space=%s op=%s width=%u addr=%s value=0x%llx done=%s\n",
			   a->method[0] ? a->method : "-", aml_space_name(a->space),
			   a->write ? "write" : "read", a->width, at,
			   (unsigned long long)a->value, a->refused ? "refused" : "read");
	}
	out_printf(o, "aspm osc-result result=%s bridges=%u tables=%u accesses=%u refused=%u memory=%zu reason=%s\n",
		   osc_outcome_name(r->machine), r->nbridges, r->ntables, r->naccess_total,
		   osc_refused(r), r->mem_peak, r->machine_reason[0] ? r->machine_reason : "-");
}

void rec_tries(const struct out *o, long long unconfirmed, unsigned limit,
	       const char *fallback)
{
	char n[24];

	out_printf(o, "aspm tries unconfirmed=%s tries=%u fallback=%s\n",
		   count_word(unconfirmed, n, sizeof(n)), limit, fallback);
}

void rec_summary_text(char *buf, size_t size, const struct rec_summary *s)
{
	char st[40], n[24];

	err_word(s->status, st, sizeof(st));
	fmt_snprintf(buf, size,
		     "aspmctl %s action=%s links=%u written=%u ignored=%u errors=%llu status=%s next=%s unconfirmed=%s tries=%u fallback=%s",
		     s->version, s->action, s->links, s->written, s->ignored,
		     (unsigned long long)s->errors, st, s->next ? s->next : "-",
		     count_word(s->unconfirmed, n, sizeof(n)), s->tries,
		     s->fallback ? s->fallback : "none");
}

void rec_summary(const struct out *o, const char *text)
{
	out_printf(o, "aspm summary %s\n", text);
}
