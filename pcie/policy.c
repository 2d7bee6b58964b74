// SPDX-License-Identifier: GPL-2.0-only
/*
 * ASPM policy engine.
 *
 * Reference semantics: Linux 6.1 drivers/pci/pcie/aspm.c for keep
 * (POLICY_DEFAULT) and force (pcie_aspm=force pcie_aspm.policy=powersave),
 * Linux commit 2f671e2dbff6 for clear and notouch. Differences, on
 * purpose: nothing is written where the register already holds the
 * target (Linux rewrites Common Clock Configuration and retrains even
 * when nothing changes), L1 PM Substates enables change only while
 * ASPM L1 is disabled at both ends (PCIe r5.0 sec 5.5.4), they are
 * cleared on blacklisted links too, and outside keep every downstream
 * function gets the link's value (docs/policy.md).
 *
 * The planner keeps a model of each register (the values cached in
 * struct pcie_fn), updates it as it plans, and emits a write only when
 * the model differs from the target.
 */
#include "policy.h"
#include "link.h"
#include "l1ss.h"
#include "pci_regs.h"
#include "../records/records.h"
#include "../lib/err.h"
#include "../lib/log.h"
#include "../lib/util.h"

/* ---------------------------------------------------------- decision */

enum aspm_action aspm_decide(const struct aspm_inputs *in)
{
	switch (in->override) {
	case OVR_FORCE:
		return ASPM_FORCE;
	case OVR_CLEAR:
		return ASPM_CLEAR;
	case OVR_NOTOUCH:
		return ASPM_NOTOUCH;
	case OVR_KEEP:
	case OVR_DEFAULT:
		return ASPM_KEEP;
	case OVR_PERFORMANCE:
		return ASPM_PERFORMANCE;
	case OVR_POWERSAVE:
		return ASPM_POWERSAVE;
	case OVR_SUPERSAVE:
		return ASPM_SUPERSAVE;
	case OVR_NONE:
		break;
	}
	if (in->fadt_no_aspm)
		return in->fadt_mode == FADT_MODE_CLEAR ? ASPM_CLEAR : ASPM_NOTOUCH;
	if (!in->osc_granted)
		return ASPM_NOTOUCH;
	return ASPM_KEEP;
}

static const char *const action_names[] = {
	[ASPM_KEEP] = "keep", [ASPM_CLEAR] = "clear",
	[ASPM_FORCE] = "force", [ASPM_NOTOUCH] = "notouch",
	[ASPM_PERFORMANCE] = "performance", [ASPM_POWERSAVE] = "powersave",
	[ASPM_SUPERSAVE] = "powersupersave",
};
static const char *const override_names[] = {
	[OVR_NONE] = "none", [OVR_CLEAR] = "clear",
	[OVR_FORCE] = "force", [OVR_NOTOUCH] = "notouch", [OVR_KEEP] = "keep",
	[OVR_DEFAULT] = "default", [OVR_PERFORMANCE] = "performance",
	[OVR_POWERSAVE] = "powersave", [OVR_SUPERSAVE] = "powersupersave",
};
static const char *const fadt_mode_names[] = {
	[FADT_MODE_CLEAR] = "clear", [FADT_MODE_NOTOUCH] = "notouch",
};

const char *aspm_action_name(enum aspm_action a)
{
	return (unsigned)a < ARRAY_SIZE(action_names) ? action_names[a] : "?";
}

const char *aspm_override_name(enum aspm_override o)
{
	return (unsigned)o < ARRAY_SIZE(override_names) ? override_names[o] : "?";
}

const char *aspm_osc_source_name(enum aspm_osc_source s)
{
	switch (s) {
	case OSC_SRC_OPTION:
		return "option";
	case OSC_SRC_FIRMWARE:
		return "firmware";
	case OSC_SRC_FALLBACK:
		return "fallback";
	default:
		return "default";
	}
}

const char *aspm_fadt_mode_name(enum aspm_fadt_mode m)
{
	return (unsigned)m < ARRAY_SIZE(fadt_mode_names) ? fadt_mode_names[m] : "?";
}

static int parse_name(const char *s, const char *const *names, unsigned n)
{
	if (!s)
		return -AE_INVAL;
	for (unsigned i = 0; i < n; i++)
		if (!str_cmp(s, names[i]))
			return (int)i;
	return -AE_INVAL;
}

int aspm_parse_override(const char *s, enum aspm_override *o)
{
	int i = parse_name(s, override_names, ARRAY_SIZE(override_names));

	if (i < 0)
		return i;
	*o = (enum aspm_override)i;
	return 0;
}

int aspm_parse_fadt_mode(const char *s, enum aspm_fadt_mode *m)
{
	int i = parse_name(s, fadt_mode_names, ARRAY_SIZE(fadt_mode_names));

	if (i < 0)
		return i;
	*m = (enum aspm_fadt_mode)i;
	return 0;
}

int aspm_parse_action(const char *s, enum aspm_action *a)
{
	int i = parse_name(s, action_names, ARRAY_SIZE(action_names));

	if (i < 0)
		return i;
	*a = (enum aspm_action)i;
	return 0;
}

/* ---------------------------------------------------------- link state */

/* Linux 6.1's pcie_aspm.policy= without pcie_aspm=force: default (keep),
 * performance, powersave, powersupersave */
static bool linux_policy(enum aspm_action act)
{
	return act == ASPM_KEEP || act == ASPM_PERFORMANCE ||
	       act == ASPM_POWERSAVE || act == ASPM_SUPERSAVE;
}

/*
 * Linux's pcie_aspm_sanity_check(), run (as the kernel series runs it)
 * only while the OS controls ASPM: under clear every link is cleared
 * anyway and under notouch nothing is written, so no link is singled
 * out and each link's record shows what its ends support.
 */
static bool blacklisted(const struct pcie_topo *t, const struct pcie_link *l,
			enum aspm_action act)
{
	uint32_t s = link_sanity(t, l);

	if (act == ASPM_CLEAR || act == ASPM_NOTOUCH)
		return false;
	if (s & LINK_NON_PCIE)
		return true;
	/* pre-1.1 devices are left alone unless forced (pcie_aspm=force),
	 * as Linux's pcie_aspm_sanity_check() does */
	return (s & LINK_PRE_1_1) && linux_policy(act);
}

void aspm_init_links(struct pcie_topo *t, enum aspm_action act)
{
	for (unsigned i = 0; i < t->nlink; i++)
		link_read_state(t, &t->link[i], blacklisted(t, &t->link[i], act));
	link_check_all_latencies(t, -1, true);
}

/* ---------------------------------------------------------- plan helpers */

static int plan_add(struct aspm_plan *p, int fn, int link, uint16_t off,
		    unsigned width, enum aspm_step step, uint32_t mask,
		    uint32_t bits, uint32_t *model)
{
	uint32_t val = (*model & ~mask) | (bits & mask);
	struct aspm_write *w;

	if (p->n >= p->cap) {
		if (!p->overflow)
			log_error(-AE_NOSPC, "plan has more than %u writes; nothing beyond is planned",
				  p->cap);
		p->overflow = true;
		return -AE_NOSPC;
	}
	w = &p->w[p->n++];
	mem_set(w, 0, sizeof(*w));
	w->fn = fn;
	w->link = link;
	w->off = off;
	w->width = (uint8_t)width;
	w->step = (uint8_t)step;
	w->mask = mask;
	w->old = *model;
	w->val = val;
	*model = val;
	return 0;
}

/* Write Link Control bits of one function if the model differs. */
static int set_lnkctl(struct aspm_plan *p, struct pcie_topo *t, int fn, int link,
		      enum aspm_step step, uint16_t mask, uint16_t bits)
{
	struct pcie_fn *f = &t->fn[fn];
	uint32_t model = f->lnkctl;
	int rc;

	if (!(f->flags & FN_PCIE) || (f->flags & FN_REMOVED))
		return 0;
	if ((f->lnkctl & mask) == (bits & mask))
		return 0;
	rc = plan_add(p, fn, link, f->pcie_cap + PCI_EXP_LNKCTL, 2, step, mask,
		      bits, &model);
	f->lnkctl = (uint16_t)model;
	return rc;
}

static int set_l1ss(struct aspm_plan *p, struct pcie_topo *t, int fn, int link,
		    enum aspm_step step, uint32_t bits)
{
	struct pcie_fn *f = &t->fn[fn];
	uint32_t model = f->l1ss_ctl1;
	int rc;

	if (!f->l1ss || (f->flags & FN_REMOVED))
		return 0;
	if ((f->l1ss_ctl1 & PCI_L1SS_CTL1_L1SS_MASK) == bits)
		return 0;
	rc = plan_add(p, fn, link, f->l1ss + PCI_L1SS_CTL1, 4, step,
		      PCI_L1SS_CTL1_L1SS_MASK, bits, &model);
	f->l1ss_ctl1 = model;
	return rc;
}

#define for_each_down(t, l, j) \
	for (int j = (l)->down_first; j < (int)(t)->nfn; j++) \
		if ((t)->fn[j].parent == (l)->up && !((t)->fn[j].flags & FN_REMOVED))

/* the functions of a link whose L1SS Control config_link() writes */
#define L1SS_FN(l, j, all)	((all) || (j) == (l)->down)

/* How config_link() looks at a link */
#define CFG_CLEAR	(1u << 0)	/* "clear": every register, every L1SS function */
#define CFG_EVERY_FN	(1u << 1)	/* no link-level "already there" shortcut */
#define CFG_L1SS_TIMING	(1u << 2)	/* program L1.2 timing (powersupersave) */

static uint32_t state_to_l1ss(uint8_t s)
{
	uint32_t v = 0;

	if (s & ASPM_STATE_L1_1)
		v |= PCI_L1SS_CTL1_ASPM_L1_1;
	if (s & ASPM_STATE_L1_2)
		v |= PCI_L1SS_CTL1_ASPM_L1_2;
	if (s & ASPM_STATE_L1_1_PCIPM)
		v |= PCI_L1SS_CTL1_PCIPM_L1_1;
	if (s & ASPM_STATE_L1_2_PCIPM)
		v |= PCI_L1SS_CTL1_PCIPM_L1_2;
	return v;
}

/* One link being brought to a state: what config_link()'s steps share. */
struct link_cfg {
	struct aspm_plan *p;
	struct pcie_topo *t;
	const struct pcie_link *l;
	int li, up;
	enum aspm_step up_step, down_step;
	uint16_t up_bits, dn_bits;	/* ASPM Control of each end */
	uint32_t l1ss_target;		/* L1SS Control 1 enables */
	bool l1ss_all;			/* every function's L1SS, not only fn 0 */
	int rc;				/* the first error; later steps skip */
};

/* ASPM Control bits per end for state (PCIe r5.0 sec 7.5.3.7): L0s of
 * the upstream direction is the downstream component's, and so on. */
static void link_cfg_bits(struct link_cfg *c, uint8_t state)
{
	c->up_bits = c->dn_bits = 0;
	if (state & ASPM_STATE_L0S_UP)
		c->dn_bits |= PCI_EXP_LNKCTL_ASPM_L0S;
	if (state & ASPM_STATE_L0S_DW)
		c->up_bits |= PCI_EXP_LNKCTL_ASPM_L0S;
	if (state & ASPM_STATE_L1) {
		c->up_bits |= PCI_EXP_LNKCTL_ASPM_L1;
		c->dn_bits |= PCI_EXP_LNKCTL_ASPM_L1;
	}
}

/* Must any L1SS Control 1 change? Linux touches L1SS only where the link
 * is L1SS capable, and then only on function 0 (pcie_config_aspm_l1ss());
 * "clear" clears the enables of every function that has the capability. */
static bool link_cfg_l1ss_change(const struct link_cfg *c)
{
	const struct pcie_topo *t = c->t;
	const struct pcie_link *l = c->l;
	bool change = false;

	if (t->fn[c->up].l1ss &&
	    (t->fn[c->up].l1ss_ctl1 & PCI_L1SS_CTL1_L1SS_MASK) != c->l1ss_target)
		change = true;
	for_each_down(t, l, j)
		if (L1SS_FN(l, j, c->l1ss_all) && t->fn[j].l1ss &&
		    (t->fn[j].l1ss_ctl1 & PCI_L1SS_CTL1_L1SS_MASK) != c->l1ss_target)
			change = true;
	if (!c->l1ss_all && !(l->aspm_capable & ASPM_STATE_L1SS))
		change = false;
	return change;
}

/* Is ASPM L1 enabled at either end now? */
static bool link_l1_on(const struct pcie_topo *t, const struct pcie_link *l)
{
	bool on = t->fn[l->up].lnkctl & PCI_EXP_LNKCTL_ASPM_L1;

	for_each_down(t, l, j)
		if (t->fn[j].lnkctl & PCI_EXP_LNKCTL_ASPM_L1)
			on = true;
	return on;
}

/* Link Control bits of mask going down: downstream functions first, then
 * the upstream port. */
static void link_cfg_lnkctl_off(struct link_cfg *c, uint16_t mask,
				uint16_t up_bits, uint16_t dn_bits)
{
	for_each_down(c->t, c->l, j)
		c->rc = c->rc ?: set_lnkctl(c->p, c->t, j, c->li, c->down_step,
					    mask, dn_bits);
	c->rc = c->rc ?: set_lnkctl(c->p, c->t, c->up, c->li, c->up_step, mask,
				    up_bits);
}

/* Enabling L1: upstream port first; parent-path writes during a teardown
 * are labelled "teardown" whichever way they go. */
static void link_cfg_lnkctl_on(struct link_cfg *c)
{
	enum aspm_step down = c->down_step == STEP_TEARDOWN ? STEP_TEARDOWN :
			      STEP_ASPM_DOWN;

	c->rc = c->rc ?: set_lnkctl(c->p, c->t, c->up, c->li, c->up_step,
				    PCI_EXP_LNKCTL_ASPMC, c->up_bits);
	for_each_down(c->t, c->l, j)
		c->rc = c->rc ?: set_lnkctl(c->p, c->t, j, c->li, down,
					    PCI_EXP_LNKCTL_ASPMC, c->dn_bits);
}

/* L1SS Control 1 of the downstream functions it covers, then the
 * upstream port's, each keeping only the enables in keep. */
static void link_cfg_l1ss_down_up(struct link_cfg *c, uint32_t keep)
{
	const struct pcie_topo *t = c->t;

	for_each_down(t, c->l, j)
		if (L1SS_FN(c->l, j, c->l1ss_all))
			c->rc = c->rc ?: set_l1ss(c->p, c->t, j, c->li, STEP_L1SS,
						  t->fn[j].l1ss_ctl1 & keep);
	c->rc = c->rc ?: set_l1ss(c->p, c->t, c->up, c->li, STEP_L1SS,
				  t->fn[c->up].l1ss_ctl1 & keep);
}

/* L1SS going to its target while L1 is off at both ends: a bit going off
 * goes downstream first; a bit coming on goes upstream first. */
static void link_cfg_l1ss_on(struct link_cfg *c)
{
	link_cfg_l1ss_down_up(c, c->l1ss_target & 0xf);
	c->rc = c->rc ?: set_l1ss(c->p, c->t, c->up, c->li, STEP_L1SS,
				  c->l1ss_target);
	for_each_down(c->t, c->l, j)
		if (L1SS_FN(c->l, j, c->l1ss_all))
			c->rc = c->rc ?: set_l1ss(c->p, c->t, j, c->li, STEP_L1SS,
						  c->l1ss_target);
}

/* L1SS enables off: downstream first, then the upstream port. */
static void link_cfg_l1ss_off(struct link_cfg *c)
{
	for_each_down(c->t, c->l, j)
		if (L1SS_FN(c->l, j, c->l1ss_all))
			c->rc = c->rc ?: set_l1ss(c->p, c->t, j, c->li, STEP_L1SS,
						  c->l1ss_target);
	c->rc = c->rc ?: set_l1ss(c->p, c->t, c->up, c->li, STEP_L1SS,
				  c->l1ss_target);
}

/* One L1SS register (Control 1 or 2) of a function, bits of mask. */
static int set_l1ss_reg(struct link_cfg *c, int fn, uint16_t reg, uint32_t mask,
			uint32_t bits)
{
	struct pcie_fn *f = &c->t->fn[fn];
	uint32_t *cache = reg == PCI_L1SS_CTL2 ? &f->l1ss_ctl2 : &f->l1ss_ctl1;
	uint32_t model = *cache;
	int rc;

	if (c->rc || !f->l1ss || (f->flags & FN_REMOVED) ||
	    (model & mask) == (bits & mask))
		return c->rc;
	rc = plan_add(c->p, fn, c->li, (uint16_t)(f->l1ss + reg), 4,
		      STEP_L1SS_TIMING, mask, bits, &model);
	*cache = model;
	return c->rc = rc;
}

#define L1SS_TH	(PCI_L1SS_CTL1_LTR_L12_TH_VALUE | PCI_L1SS_CTL1_LTR_L12_TH_SCALE)
#define L1SS_T2	(PCI_L1SS_CTL2_T_PWR_ON_SCALE | PCI_L1SS_CTL2_T_PWR_ON_VALUE)

/* aspm_calc_l1ss_info(): the L1.2 timing of a link that supports ASPM or
 * PCI-PM L1.2, when a register differs from it. */
static bool link_l1ss_timing(const struct pcie_topo *t, const struct pcie_link *l,
			     struct l1ss_timing *tm)
{
	const struct pcie_fn *up = &t->fn[l->up], *dn = &t->fn[l->down];

	if (!(l->aspm_support & (ASPM_STATE_L1_2 | ASPM_STATE_L1_2_PCIPM)) ||
	    !up->l1ss || !dn->l1ss)
		return false;
	l1ss_calc_timing(up->l1ss_cap, dn->l1ss_cap, tm);
	return (up->l1ss_ctl2 & L1SS_T2) != tm->ctl2 ||
	       (dn->l1ss_ctl2 & L1SS_T2) != tm->ctl2 ||
	       (up->l1ss_ctl1 & (PCI_L1SS_CTL1_CM_RESTORE_TIME | L1SS_TH)) !=
			(tm->ctl1 & (PCI_L1SS_CTL1_CM_RESTORE_TIME | L1SS_TH)) ||
	       (dn->l1ss_ctl1 & L1SS_TH) != (tm->ctl1 & L1SS_TH) ||
	       (tm->ctl1 & PCI_L1SS_CTL1_CM_RESTORE_TIME & ~dn->l1ss_ctl1);
}

/*
 * Program the L1.2 timing with L1.2 off at both ends (PCIe r5.0 sec
 * 5.5.4, 7.8.3.3; L1 is already off here): the L1.2 enables go, the
 * downstream function first; then T_POWER_ON in Control 2 of both ends,
 * then Control 1: Common_Mode_Restore_Time in the upstream port,
 * LTR_L1.2_THRESHOLD in both, upstream first, as aspm_calc_l1ss_info().
 * Linux sets the threshold of the downstream end with
 * pci_clear_and_set_dword(child, THRESHOLD, ctl1), which ORs all of ctl1
 * in: the link's Common_Mode_Restore_Time bits are set there too. Mirrored
 * so that the registers end as Linux leaves them (docs/policy.md).
 * The enables come back with the link's target (link_cfg_l1ss_on()).
 */
static void link_cfg_l1ss_timing(struct link_cfg *c, const struct l1ss_timing *tm)
{
	const struct pcie_topo *t = c->t;
	int dn = c->l->down;

	c->rc = c->rc ?: set_l1ss(c->p, c->t, dn, c->li, STEP_L1SS,
				  t->fn[dn].l1ss_ctl1 & PCI_L1SS_CTL1_L1SS_MASK &
				  ~PCI_L1SS_CTL1_L1_2_MASK);
	c->rc = c->rc ?: set_l1ss(c->p, c->t, c->up, c->li, STEP_L1SS,
				  t->fn[c->up].l1ss_ctl1 & PCI_L1SS_CTL1_L1SS_MASK &
				  ~PCI_L1SS_CTL1_L1_2_MASK);
	set_l1ss_reg(c, c->up, PCI_L1SS_CTL2, L1SS_T2, tm->ctl2);
	set_l1ss_reg(c, dn, PCI_L1SS_CTL2, L1SS_T2, tm->ctl2);
	set_l1ss_reg(c, c->up, PCI_L1SS_CTL1,
		     PCI_L1SS_CTL1_CM_RESTORE_TIME | L1SS_TH, tm->ctl1);
	set_l1ss_reg(c, dn, PCI_L1SS_CTL1,
		     L1SS_TH | (tm->ctl1 & PCI_L1SS_CTL1_CM_RESTORE_TIME), tm->ctl1);
}

/*
 * Bring one link to ASPM state `state` (pcie_config_aspm_link()).
 * Order (PCIe r5.0 sec 5.5.4, 7.5.3.7; Linux aspm.c):
 *  - L1 PM Substates enables change only while L1 is off at both ends:
 *    if they must change and L1 is on, L1 goes off first (downstream
 *    functions, then the upstream port);
 *  - disabling: downstream functions first, then the upstream port,
 *    then the L1SS control registers (downstream, then upstream);
 *  - enabling L1: L1SS first, then the upstream port, then downstream.
 *
 * A blacklisted link (non-PCIe function, pre-1.1 unless forced) has its
 * ASPM cleared; its L1 PM Substates go too (cleared wherever ASPM is
 * cleared), on every function that has them, once L1 is off at both ends
 * (PCIe r5.0 sec 5.5.4). Linux 6.1 leaves them: aspm_capable is 0 there,
 * so pcie_config_aspm_l1ss() is skipped (docs/policy.md).
 */
static int config_link(struct aspm_plan *p, struct pcie_topo *t, int li,
		       uint8_t state, enum aspm_step down_step, unsigned how)
{
	const struct pcie_link *l = &t->link[li];
	struct link_cfg c = {
		.p = p, .t = t, .l = l, .li = li, .up = l->up,
		.down_step = down_step,
		.up_step = down_step == STEP_TEARDOWN ? STEP_TEARDOWN : STEP_ASPM_UP,
		.l1ss_all = (how & CFG_CLEAR) || l->aspm_disable == ASPM_STATE_ALL,
	};
	struct l1ss_timing tm;
	bool l1ss_change, timing;

	/* state comes from link_target() (or is 0): no substate without L1
	 * but the PCI-PM substates Linux keeps at link init */
	link_cfg_bits(&c, state);
	/*
	 * Nothing to do when the link is already in the requested state
	 * (pcie_config_aspm_link(): link->aspm_enabled, from function 0 and
	 * the upstream port); under keep the BIOS's bits on other functions
	 * stay. Every other action makes every downstream function equal
	 * (docs/policy.md).
	 */
	if (!(how & (CFG_CLEAR | CFG_EVERY_FN)) && l->aspm_enabled == state)
		return 0;
	c.l1ss_target = state_to_l1ss(state);
	l1ss_change = link_cfg_l1ss_change(&c);
	/* powersupersave: L1.2 timing as Linux programs it at link init */
	timing = (how & CFG_L1SS_TIMING) && down_step != STEP_TEARDOWN &&
		 link_l1ss_timing(t, l, &tm);
	if (!(state & ASPM_STATE_L1)) {
		/* disabling L1 (or it stays off): downstream first */
		link_cfg_lnkctl_off(&c, PCI_EXP_LNKCTL_ASPMC, c.up_bits, c.dn_bits);
		if (l1ss_change)
			link_cfg_l1ss_off(&c);
		if (timing)
			link_cfg_l1ss_timing(&c, &tm);
		return c.rc;
	}
	if ((l1ss_change || timing) && link_l1_on(t, l))
		link_cfg_lnkctl_off(&c, PCI_EXP_LNKCTL_ASPM_L1, 0, 0);
	if (timing)
		link_cfg_l1ss_timing(&c, &tm);
	if (l1ss_change || timing)
		link_cfg_l1ss_on(&c);
	link_cfg_lnkctl_on(&c);
	return c.rc;
}

static int config_clkpm(struct aspm_plan *p, struct pcie_topo *t, int li, bool on)
{
	struct pcie_link *l = &t->link[li];
	int rc = 0;

	for_each_down(t, l, j)
		rc = rc ? rc : set_lnkctl(p, t, j, li, STEP_CLKPM,
					   PCI_EXP_LNKCTL_CLKREQ_EN,
					   on ? PCI_EXP_LNKCTL_CLKREQ_EN : 0);
	return rc;
}

/* The state the action asks for (policy_to_aspm_state() & the masks of
 * pcie_config_aspm_link()); excl: with the exclusions' aspm_disable bits
 * (__pci_disable_link_state()). */
static uint8_t link_target_excl(const struct pcie_topo *t, const struct pcie_link *l,
				enum aspm_action act, bool excl)
{
	uint8_t s;

	switch (act) {
	case ASPM_NOTOUCH:
		/* a blacklisted link's "enabled" is the ALL sentinel, not
		 * what the hardware holds: nothing changes, so report BIOS */
		return l->aspm_disable == ASPM_STATE_ALL ? l->aspm_bios :
							    l->aspm_enabled;
	case ASPM_CLEAR:
		return 0;
	case ASPM_PERFORMANCE:
		s = 0;
		break;
	case ASPM_FORCE:
	case ASPM_POWERSAVE:
		s = ASPM_STATE_L0S | ASPM_STATE_L1;
		break;
	case ASPM_SUPERSAVE:
		s = ASPM_STATE_ALL;
		break;
	case ASPM_KEEP:
	default:
		s = l->aspm_default;
		break;
	}
	s &= l->aspm_capable & (uint8_t)~l->aspm_disable;
	if (excl)
		s &= (uint8_t)~l->excl_disable;
	if (!(s & ASPM_STATE_L1))
		s &= (uint8_t)~ASPM_STATE_L1SS;
	/*
	 * Both ends must be in D0 before PCI-PM substates are enabled
	 * (pcie_config_aspm_link() keeps them as they are otherwise). At
	 * link init every function's power state is still PCI_UNKNOWN
	 * (pci_setup_device()), so under the policies applied at link init
	 * the BIOS's PCI-PM substates stay. A blacklisted link's substates
	 * are cleared (docs/policy.md, blacklist-l1ss).
	 */
	if ((act == ASPM_KEEP || act == ASPM_PERFORMANCE) && !t->power_known &&
	    l->aspm_disable != ASPM_STATE_ALL) {
		s &= (uint8_t)~ASPM_STATE_L1SS_PCIPM;
		s |= l->aspm_enabled & ASPM_STATE_L1SS_PCIPM;
	}
	return s;
}

/* The target, exclusions included (they bind every enabling action;
 * under clear and notouch they change nothing). */
static uint8_t link_target(const struct pcie_topo *t, const struct pcie_link *l,
			   enum aspm_action act)
{
	return link_target_excl(t, l, act, true);
}

static bool clkpm_target(const struct pcie_link *l, enum aspm_action act)
{
	switch (act) {
	case ASPM_NOTOUCH:
		return l->clkpm_enabled;
	case ASPM_CLEAR:
	case ASPM_PERFORMANCE:
		return false;
	case ASPM_FORCE:
	case ASPM_POWERSAVE:
	case ASPM_SUPERSAVE:
		return l->clkpm_capable && !l->clkpm_disable && !l->excl_clkpm;
	case ASPM_KEEP:
	default:
		return l->clkpm_default && l->clkpm_capable && !l->clkpm_disable &&
		       !l->excl_clkpm;
	}
}

/* ---------------------------------------------------------- common clock */

/*
 * pcie_aspm_configure_common_clock() for one link: when both ends take
 * their reference clock from the slot (Link Status Slot Clock
 * Configuration, PCIe r5.0 sec 7.5.3.8), set Common Clock Configuration
 * on every function of the link, downstream first, then retrain the link
 * so that the new exit latencies take effect (sec 7.5.3.7).
 */
static int plan_ccc_link(struct pcie_topo *t, int li, struct aspm_plan *p)
{
	struct pcie_link *l = &t->link[li];
	struct pcie_fn *up = &t->fn[l->up];
	bool same = true;
	uint16_t ccc;
	unsigned before = p->n;
	int rc = 0;

	if (l->removed || l->aspm_disable == ASPM_STATE_ALL)
		return 0;	/* blacklisted: pcie_aspm_cap_init() bails */
	if (!(up->lnkcap & t->fn[l->down].lnkcap & PCI_EXP_LNKCAP_ASPMS))
		return 0;
	if (!(t->fn[l->down_first].lnksta & PCI_EXP_LNKSTA_SLC) ||
	    !(up->lnksta & PCI_EXP_LNKSTA_SLC))
		same = false;
	ccc = same ? PCI_EXP_LNKCTL_CCC : 0;
	for_each_down(t, l, j)
		rc = rc ? rc : set_lnkctl(p, t, j, li, STEP_CCC,
					   PCI_EXP_LNKCTL_CCC, ccc);
	rc = rc ? rc : set_lnkctl(p, t, l->up, li, STEP_CCC,
				   PCI_EXP_LNKCTL_CCC, ccc);
	if (!rc && p->n != before) {
		uint32_t model = up->lnkctl;

		/* Retrain Link: written as 1, reads back 0 */
		rc = plan_add(p, l->up, li, up->pcie_cap + PCI_EXP_LNKCTL, 2,
			      STEP_RETRAIN, PCI_EXP_LNKCTL_RL,
			      PCI_EXP_LNKCTL_RL, &model);
	}
	return rc;
}

int aspm_plan_common_clock_link(struct pcie_topo *t, enum aspm_action act,
				int li, struct aspm_plan *p)
{
	/* every policy of Linux's builds link state (clear and notouch are
	 * the 2.6.37 commit's: no Common Clock change) */
	if (act == ASPM_CLEAR || act == ASPM_NOTOUCH)
		return 0;
	return plan_ccc_link(t, li, p);
}

int aspm_plan_common_clock(struct pcie_topo *t, enum aspm_action act,
			   struct aspm_plan *p)
{
	int rc = 0;

	for (unsigned li = 0; li < t->nlink && !rc; li++)
		rc = aspm_plan_common_clock_link(t, act, (int)li, p);
	return rc;
}

/* ---------------------------------------------------------- the plan */

/* ASPM L1.2 offered by both ends, taken away for want of LTR on the path
 * (aspm_l1ss_init(): !child->ltr_path) */
static bool l1_2_no_ltr(const struct pcie_topo *t, const struct pcie_link *l)
{
	const struct pcie_fn *up = &t->fn[l->up], *dn = &t->fn[l->down];

	return up->l1ss && dn->l1ss &&
	       (up->l1ss_cap & dn->l1ss_cap & PCI_L1SS_CAP_L1_PM_SS) &&
	       (up->l1ss_cap & dn->l1ss_cap & PCI_L1SS_CAP_ASPM_L1_2) &&
	       !(dn->flags & FN_LTR_PATH);
}

static uint32_t link_reasons(const struct pcie_topo *t, const struct pcie_link *l,
			     const struct aspm_inputs *in, enum aspm_action act,
			     uint8_t target)
{
	uint32_t r = 0, s = link_sanity(t, l);
	const struct pcie_fn *up = &t->fn[l->up], *dn = &t->fn[l->down];
	uint32_t lc = up->lnkcap & dn->lnkcap;

	if (act == ASPM_CLEAR || act == ASPM_NOTOUCH || act == ASPM_PERFORMANCE) {
		if (in && in->override != OVR_NONE)
			r |= REASON_OVERRIDE;
		else if (in && in->fadt_no_aspm)
			r |= REASON_FADT;
		else if (in && !in->osc_granted)
			r |= REASON_OSC;
		return r;
	}
	if (s & LINK_NON_PCIE)
		r |= REASON_NON_PCIE;
	if ((s & LINK_PRE_1_1) && linux_policy(act))
		r |= REASON_PRE_1_1;
	if (r)
		return r;
	if ((lc & PCI_EXP_LNKCAP_ASPMS) != PCI_EXP_LNKCAP_ASPMS)
		r |= REASON_NOT_SUPPORTED;
	if ((l->aspm_support & ASPM_STATE_L0S_UP) && !(l->aspm_capable & ASPM_STATE_L0S_UP))
		r |= REASON_L0S_UP_LAT;
	if ((l->aspm_support & ASPM_STATE_L0S_DW) && !(l->aspm_capable & ASPM_STATE_L0S_DW))
		r |= REASON_L0S_DW_LAT;
	if ((l->aspm_support & ASPM_STATE_L1) && !(l->aspm_capable & ASPM_STATE_L1))
		r |= REASON_L1_LAT;
	if (act == ASPM_KEEP && (l->aspm_capable & ~target & (ASPM_STATE_L0S | ASPM_STATE_L1)))
		r |= REASON_BIOS_OFF;
	/* substates the BIOS left off on a link that keeps L1 (where L1
	 * goes, they go with it, for L1's reason) */
	if (act == ASPM_KEEP && (target & ASPM_STATE_L1) &&
	    (l->aspm_support & ASPM_STATE_L1SS & ~target))
		r |= REASON_L1SS_BIOS_OFF;
	if ((act == ASPM_FORCE || act == ASPM_POWERSAVE) &&
	    (l->aspm_support & ASPM_STATE_L1SS))
		r |= REASON_L1SS_NOT_FORCED;
	/* powersupersave: ASPM L1.2 both ends offer, without LTR on the path */
	if (act == ASPM_SUPERSAVE && (target & ASPM_STATE_L1) &&
	    l1_2_no_ltr(t, l))
		r |= REASON_L1_2_NO_LTR;
	return r;
}

static unsigned cfg_how(enum aspm_action act)
{
	if (act == ASPM_CLEAR)
		return CFG_CLEAR;
	if (act == ASPM_SUPERSAVE)
		return CFG_EVERY_FN | CFG_L1SS_TIMING;
	return act == ASPM_KEEP || act == ASPM_PERFORMANCE ? 0 : CFG_EVERY_FN;
}

/* pcie_config_aspm_path(): link li, then every link above it */
static int config_path(struct pcie_topo *t, enum aspm_action act, int li,
		       struct aspm_plan *p)
{
	int rc = 0;
	unsigned guard = 0;

	for (int pl = li; pl >= 0 && !rc && guard++ < t->nlink; pl = t->link[pl].parent) {
		struct pcie_link *l = &t->link[pl];
		uint8_t target = link_target(t, l, act);

		if (l->removed)
			break;
		rc = config_link(p, t, pl, target, STEP_ASPM_DOWN, cfg_how(act));
		/* software's view from now on, as Linux's link->aspm_enabled */
		l->aspm_enabled = target;
	}
	return rc;
}

static int config_link_clkpm(struct pcie_topo *t, enum aspm_action act, int li,
			     struct aspm_plan *p)
{
	struct pcie_link *l = &t->link[li];
	bool clk = clkpm_target(l, act);
	int rc = 0;

	/* pcie_set_clkpm(): nothing when the link's Clock PM state (every
	 * function capable and enabled) is already the target; "clear"
	 * clears CLKREQ# wherever it is set */
	if (act == ASPM_CLEAR || clk != l->clkpm_enabled)
		rc = config_clkpm(p, t, li, clk);
	l->clkpm_enabled = clk;
	return rc;
}

int aspm_plan_link_init(struct pcie_topo *t, enum aspm_action act, int li,
			struct aspm_plan *p)
{
	struct pcie_link *l = &t->link[li];
	int rc;

	if (l->removed)
		return 0;
	/* pcie_aspm_cap_init(): the state as it is now (after Common Clock
	 * Configuration), capable = support, this link's endpoints checked
	 * along their path to the root */
	link_read_state(t, l, blacklisted(t, l, act));
	link_check_link_latency(t, li);
	if (act == ASPM_NOTOUCH)
		return 0;
	p->action = act;
	rc = config_path(t, act, li, p);
	return rc ? rc : config_link_clkpm(t, act, li, p);
}

void aspm_plan_records(const struct pcie_topo *t, const struct aspm_inputs *in,
		       enum aspm_action act, struct aspm_link_plan *lp)
{
	for (unsigned li = 0; li < t->nlink && lp; li++) {
		const struct pcie_link *l = &t->link[li];

		if (l->removed)
			continue;
		lp[li].target = link_target(t, l, act);
		lp[li].clkpm_target = clkpm_target(l, act);
		lp[li].reasons = link_reasons(t, l, in, act, lp[li].target);
		/* what the exclusions took away from this link's target */
		lp[li].excl_removed = (uint8_t)(link_target_excl(t, l, act, false) &
						~lp[li].target);
		lp[li].excl_clkpm = l->excl_clkpm && !lp[li].clkpm_target &&
				    act != ASPM_CLEAR && act != ASPM_NOTOUCH &&
				    l->clkpm_capable && !l->clkpm_disable &&
				    (act == ASPM_FORCE || l->clkpm_default);
		if (lp[li].excl_removed || lp[li].excl_clkpm)
			lp[li].reasons |= REASON_EXCLUDED;
	}
}

int aspm_plan_links(struct pcie_topo *t, const struct aspm_inputs *in,
		    enum aspm_action act, struct aspm_plan *p,
		    struct aspm_link_plan *lp)
{
	int rc = 0;

	p->action = act;
	/* the targets do not depend on the order below: link_target() of
	 * a link reads only its own state */
	aspm_plan_records(t, in, act, lp);
	if (act == ASPM_NOTOUCH)
		return 0;	/* not one config write */
	for (unsigned li = 0; li < t->nlink && !rc; li++) {
		struct pcie_link *l = &t->link[li];
		uint8_t target;

		if (l->removed)
			continue;
		target = link_target(t, l, act);
		rc = config_link(p, t, (int)li, target, STEP_ASPM_DOWN, cfg_how(act));
		rc = rc ? rc : config_link_clkpm(t, act, (int)li, p);
		l->aspm_enabled = target;
	}
	return rc;
}

/*
 * pci_configure_ltr(), which Linux runs for every function at enumeration:
 * LTR Mechanism Enable (Device Control 2) where LTR is supported from the
 * Root Port down to the function, parents first. Software must not enable
 * LTR in a function unless every port above it has it (PCIe r5.0 sec
 * 6.18); ASPM L1.2 relies on it (sec 5.5.4). powersupersave only.
 */
int aspm_plan_ltr(struct pcie_topo *t, enum aspm_action act, struct aspm_plan *p)
{
	int rc = 0;

	if (act != ASPM_SUPERSAVE)
		return 0;
	for (unsigned i = 0; i < t->nfn && !rc; i++) {
		struct pcie_fn *f = &t->fn[i];
		const struct pcie_fn *up = f->parent >= 0 ? &t->fn[f->parent] : NULL;
		uint32_t model = f->devctl2;
		bool path;

		if (!(f->flags & FN_LTR_MECH) || (f->flags & FN_REMOVED))
			continue;
		path = f->pcie_type == PCI_EXP_TYPE_ROOT_PORT ||
		       (up && (up->flags & FN_LTR_MECH) &&
			(up->devctl2 & PCI_EXP_DEVCTL2_LTR_EN));
		if (!path || (f->devctl2 & PCI_EXP_DEVCTL2_LTR_EN))
			continue;
		rc = plan_add(p, (int)i, f->up_link, (uint16_t)(f->pcie_cap + PCI_EXP_DEVCTL2),
			      2, STEP_LTR, PCI_EXP_DEVCTL2_LTR_EN,
			      PCI_EXP_DEVCTL2_LTR_EN, &model);
		f->devctl2 = (uint16_t)model;
	}
	return rc;
}

/* ---------------------------------------------------------- teardown */

static int exit_link_state(struct pcie_topo *t, enum aspm_action act, int fn,
			   struct aspm_plan *p, struct out *records)
{
	struct pcie_fn *f = &t->fn[fn];
	int li = f->up_link, parent, root;
	struct pcie_link *l;
	unsigned before = p->n;
	int rc;

	/* a removal comes after the boot enabled every function */
	t->power_known = true;
	f->flags |= FN_REMOVED;
	if (li < 0 || t->link[li].removed)
		return 0;
	l = &t->link[li];
	/* the link goes with function 0 (link->downstream), not earlier:
	 * say so, with nothing written and nothing dropped */
	if (l->down != fn) {
		if (records)
			rec_teardown(records, t, fn, act, false, 0, -1);
		return 0;
	}
	/*
	 * pci_destroy_dev() takes the function off its bus before it calls
	 * pcie_aspm_exit_link_state(): the function itself gets no write,
	 * only what is left on the link does.
	 */
	if (act == ASPM_NOTOUCH) {
		l->removed = true;
		if (records)
			rec_teardown(records, t, fn, act, true, 0, -1);
		return 0;
	}
	rc = config_link(p, t, li, 0, STEP_TEARDOWN, cfg_how(act));
	l->aspm_enabled = 0;
	l->removed = true;
	parent = l->parent;
	root = l->root;
	if (!rc && parent >= 0) {
		/* pcie_update_aspm_capable() + pcie_config_aspm_path() */
		link_check_all_latencies(t, root, false);
		/* the parent path is configured like any link (steps
		 * aspm-up, aspm-down, l1ss); only the writes of the link
		 * that goes are labelled "teardown" */
		rc = config_path(t, act, parent, p);
	}
	if (records)
		rec_teardown(records, t, fn, act, true, p->n - before, parent);
	return rc;
}

int aspm_plan_remove(struct pcie_topo *t, enum aspm_action act, int fn,
		     struct aspm_plan *p, struct out *records)
{
	struct pcie_fn *f;
	int rc = 0;

	if (fn < 0 || fn >= (int)t->nfn)
		return -AE_NOENT;
	f = &t->fn[fn];
	if (f->flags & FN_REMOVED)
		return 0;
	/*
	 * pci_remove_bus_device(): the children first, depth first, in bus
	 * list order; each is destroyed (and its link torn down) before the
	 * next, and the bridge itself last.
	 */
	if (f->flags & FN_BRIDGE) {
		for (int j = fn + 1; j < (int)t->nfn; j++)
			if (t->fn[j].parent == fn && !(t->fn[j].flags & FN_REMOVED))
				rc = rc ? rc : aspm_plan_remove(t, act, j, p, records);
	}
	return rc ? rc : exit_link_state(t, act, fn, p, records);
}
