// SPDX-License-Identifier: GPL-2.0-only
/*
 * --policy powersupersave and Linux's other policy names on the
 * simulator: the L1 PM Substates timing arithmetic of Linux 6.1's
 * aspm_calc_l1ss_info() (scales, rounding, the largest values), the
 * write order of PCIe r5.0 sec 5.5.4 (L1 off at both ends before any
 * L1SS change, Control 2 before Control 1, enables upstream first), LTR
 * on the path for ASPM L1.2, and the laptop-like machine with an
 * exclusion (--disable L1.2@1b36:0010).
 */
#include "policy_fixture.h"
#include "../../pcie/exclude.h"
#include "../../pcie/l1ss.h"

/* ------------------------------------------------------------ arithmetic */

static void test_pwron_scales(void **state)
{
	(void)state;
	assert_int_equal(l1ss_pwron_us(0, 31), 62);
	assert_int_equal(l1ss_pwron_us(1, 31), 310);
	assert_int_equal(l1ss_pwron_us(2, 31), 3100);
	assert_int_equal(l1ss_pwron_us(3, 31), 0);	/* reserved scale */
	assert_int_equal(l1ss_pwron_us(0, 0), 0);
}

/* encode_l12_threshold(): the smallest scale whose 10-bit value holds the
 * threshold, rounded up; beyond the largest, scale 5 value 0x3ff. */
static void test_threshold_encoding(void **state)
{
	static const struct { uint32_t us, scale, value; } v[] = {
		{ 0, 0, 0 }, { 1, 0, 1000 },
		{ 2, 1, 63 },			/* 2000 ns / 32 = 62.5 */
		{ 32, 1, 1000 },		/* 32000 <= 1023 * 32 */
		{ 33, 2, 33 },			/* 33000 / 1024 = 32.2 */
		{ 1047, 2, 1023 },		/* 1047000 <= 1023 * 1024 */
		{ 1048, 3, 32 },		/* 1048000 / 32768 = 31.98 */
		{ 33521, 3, 1023 },		/* <= 1023 * 32768 ns */
		{ 33522, 4, 32 },
		{ 1072693, 4, 1023 },		/* <= 1023 * 2^20 ns */
		{ 1072694, 5, 32 },
		{ 34326183, 5, 1023 },		/* the largest encodable */
		{ 34326184, 5, 1023 },		/* beyond it: clamped */
		{ 0xffffffffu, 5, 1023 },	/* no overflow in ns */
	};

	(void)state;
	for (unsigned i = 0; i < ARRAY_SIZE(v); i++) {
		uint32_t scale = 99, value = 99;

		l1ss_encode_threshold(v[i].us, &scale, &value);
		if (scale != v[i].scale || value != v[i].value)
			fail_msg("%u us: scale %u value %u, expected %u %u", v[i].us,
				 scale, value, v[i].scale, v[i].value);
	}
}

#define CAP_T(cmrt, scale, val) \
	((uint32_t)(cmrt) << 8 | (uint32_t)(scale) << 16 | (uint32_t)(val) << 19)

static void test_calc_timing(void **state)
{
	struct l1ss_timing tm;

	(void)state;
	/* the laptop's NVMe link: CMRT max(10, 40), T_POWER_ON max(50, 40)
	 * from the Root Port: 2 + 4 + 40 + 50 = 96 us = scale 2, 94 */
	l1ss_calc_timing(CAP_T(10, 1, 5), CAP_T(40, 0, 20), &tm);
	assert_int_equal(tm.t_common_mode_us, 40);
	assert_int_equal(tm.t_power_on_us, 50);
	assert_int_equal(tm.threshold_us, 96);
	assert_int_equal(tm.ctl2, 0x29);
	assert_int_equal(tm.ctl1, 0x405e2800);
	/* a tie takes the downstream end's encoding (60 us both ways) */
	l1ss_calc_timing(CAP_T(0, 1, 6), CAP_T(0, 0, 30), &tm);
	assert_int_equal(tm.ctl2, 0 | 30 << 3);
	assert_int_equal(tm.t_power_on_us, 60);
	/* the largest: CMRT 255, T_POWER_ON 31 x 100 us: 3361 us, scale 3 */
	l1ss_calc_timing(CAP_T(255, 2, 31), CAP_T(255, 2, 31), &tm);
	assert_int_equal(tm.threshold_us, 3361);
	assert_int_equal(tm.ctl2, 0xfa);
	assert_int_equal(tm.ctl1, 0x6067ff00);
	/* a reserved scale counts as 0 us */
	l1ss_calc_timing(CAP_T(0, 3, 31), CAP_T(0, 0, 1), &tm);
	assert_int_equal(tm.ctl2, 1 << 3);
	assert_int_equal(tm.t_power_on_us, 2);
	/* 2 + 4 + 0 + 2 = 8 us = 8000 ns: scale 1, 8000 / 32 = 250 */
	assert_int_equal(tm.ctl1, 1u << 29 | 250 << 16);
}

/* ------------------------------------------------------------ machines */

static struct aspm_excl rules[ASPM_MAX_EXCL];

static int run_excl(struct pfx *p, enum aspm_cmd cmd, enum aspm_override o,
		    const char *rule)
{
	struct aspm_run *r = pfx_prepare(p, cmd, pfx_policy(o));

	if (rule) {
		assert_int_equal(aspm_excl_parse(rule, &rules[0]), 0);
		r->excl = rules;
		r->nexcl = 1;
	}
	return aspm_run(&p->fx->cfg, r, &p->out);
}

static uint32_t reg(struct pfx *p, uint8_t bus, uint8_t dev, uint8_t fn,
		    int which)
{
	struct sim_fn *f = pfx_sfn(p, bus, dev, fn);

	switch (which) {
	case 0:
		return sim_peek(f, f->pcie + PCI_EXP_LNKCTL, 2);
	case 1:
		return f->l1ss ? sim_peek(f, f->l1ss + PCI_L1SS_CTL1, 4) : 0;
	case 2:
		return f->l1ss ? sim_peek(f, f->l1ss + PCI_L1SS_CTL2, 4) : 0;
	default:
		return sim_peek(f, f->pcie + PCI_EXP_DEVCTL2, 2);
	}
}

/*
 * Replay the simulator's write log and check PCIe r5.0 sec 5.5.4 at
 * every write to an L1SS register: ASPM L1 off at both ends of its link;
 * timing fields and Control 2 only with L1.2 off at both ends.
 */
static void assert_l1ss_order(struct pfx *p)
{
	struct sim *s = p->sim;

	for (unsigned i = 0; i < s->nlog; i++) {
		const struct sem_write *w = &s->log[i];
		struct sim_fn *f = sim_find(s, w->a);
		const struct pcie_topo *t = &p->fx->topo;
		int fi = pcie_find_fn(t, w->a), li;

		assert_non_null(f);
		if (!f->l1ss || w->off < f->l1ss + PCI_L1SS_CTL1 ||
		    w->off > f->l1ss + PCI_L1SS_CTL2)
			continue;
		li = t->fn[fi].down_link >= 0 ? t->fn[fi].down_link : t->fn[fi].up_link;
		assert_true(li >= 0);
		/* the state before this write: undo the later ones */
		{
			const struct pcie_link *l = &t->link[li];
			uint32_t ctl;
			for (int e = 0; e < 2; e++) {
				int fn = e ? l->down : l->up;
				struct sim_fn *g = sim_find(s, t->fn[fn].addr);
				uint16_t lc = (uint16_t)sim_peek(g, g->pcie + PCI_EXP_LNKCTL, 2);

				/* walk back from the end of the log to i */
				for (unsigned k = s->nlog; k-- > i;)
					if (pci_addr_eq(s->log[k].a, g->addr) &&
					    s->log[k].off == g->pcie + PCI_EXP_LNKCTL)
						lc = (uint16_t)s->log[k].before;
				if (lc & LK_L1)
					fail_msg("write #%u to L1SS of %02x:%02x.%x with ASPM L1 on at %02x:%02x.%x",
						 i, w->a.bus, PCI_SLOT(w->a.devfn), PCI_FUNC(w->a.devfn),
						 g->addr.bus, PCI_SLOT(g->addr.devfn), PCI_FUNC(g->addr.devfn));
				ctl = sim_peek(g, g->l1ss + PCI_L1SS_CTL1, 4);
				for (unsigned k = s->nlog; k-- > i;)
					if (pci_addr_eq(s->log[k].a, g->addr) &&
					    s->log[k].off == g->l1ss + PCI_L1SS_CTL1)
						ctl = s->log[k].before;
				if (w->val & ~PCI_L1SS_CTL1_L1SS_MASK & (w->before ^ w->after) &&
				    (ctl & PCI_L1SS_CTL1_L1_2_MASK))
					fail_msg("write #%u: L1.2 timing changed with L1.2 on", i);
				if (w->off == f->l1ss + PCI_L1SS_CTL2 &&
				    (ctl & PCI_L1SS_CTL1_L1_2_MASK))
					fail_msg("write #%u: T_POWER_ON changed with L1.2 on", i);
			}
		}
	}
}

/* ------------------------------------------------------------ powersupersave */

/*
 * The case: powersupersave with L1.2 excluded on the NVMe drive.
 * Every link gets L0s, L1 and Clock PM where capable; the Wi-Fi link all
 * four substates; the NVMe link L1.1 only (ASPM and PCI-PM), its L1.2
 * timing still programmed and LTR enabled, as Linux does at enumeration
 * and link init; the NIC below the switch no ASPM L1.2 (no LTR there),
 * PCI-PM L1.2 yes.
 */
static void test_supersave_laptop_excluded(void **state)
{
	struct pfx *p = pfx_laptop();

	(void)state;
	assert_int_equal(run_excl(p, CMD_APPLY, OVR_SUPERSAVE, "L1.2@1b36:0010"), 0);
	/* NVMe link: timing, L1.1, LTR */
	assert_int_equal(reg(p, 0, 0x1c, 0, 0), LK_CCC | LK_L1 | LK_L0S);
	assert_int_equal(reg(p, 1, 0, 0, 0), LK_CCC | LK_L1 | LK_L0S | LK_CLKREQ);
	assert_int_equal(reg(p, 0, 0x1c, 0, 1), 0x405e2800 | PCI_L1SS_CTL1_ASPM_L1_1 |
			 PCI_L1SS_CTL1_PCIPM_L1_1);
	/* the downstream end gets the link's Common_Mode_Restore_Time ORed
	 * in, as Linux's pci_clear_and_set_dword(child, THRESHOLD, ctl1) */
	assert_int_equal(reg(p, 1, 0, 0, 1), 0x405e2800 | PCI_L1SS_CTL1_ASPM_L1_1 |
			 PCI_L1SS_CTL1_PCIPM_L1_1);
	assert_int_equal(reg(p, 0, 0x1c, 0, 2), 0x29);
	assert_int_equal(reg(p, 1, 0, 0, 2), 0x29);
	assert_int_equal(reg(p, 0, 0x1c, 0, 3), PCI_EXP_DEVCTL2_LTR_EN);
	assert_int_equal(reg(p, 1, 0, 0, 3), PCI_EXP_DEVCTL2_LTR_EN);
	/* Wi-Fi link: the largest timing, all four substates */
	assert_int_equal(reg(p, 0, 0x1c, 1, 1), 0x6067ff0f);
	assert_int_equal(reg(p, 2, 0, 0, 1), 0x6067ff0f);
	assert_int_equal(reg(p, 0, 0x1c, 1, 2), 0xfa);
	assert_int_equal(reg(p, 2, 0, 0, 2), 0xfa);
	assert_int_equal(reg(p, 2, 0, 0, 3), PCI_EXP_DEVCTL2_LTR_EN);
	/* NIC link: no LTR on the NIC, so no ASPM L1.2; no Clock PM */
	assert_int_equal(reg(p, 5, 0, 0, 0), LK_CCC | LK_L1 | LK_L0S);
	assert_int_equal(reg(p, 4, 0, 0, 1), 0x405e1e00 | PCI_L1SS_CTL1_ASPM_L1_1 |
			 PCI_L1SS_CTL1_PCIPM_L1_1 | PCI_L1SS_CTL1_PCIPM_L1_2);
	/* LTR wherever it is supported from the Root Port down, as Linux's
	 * pci_configure_ltr(): the switch ports too, not the NIC */
	assert_int_equal(reg(p, 0, 0x1c, 2, 3), PCI_EXP_DEVCTL2_LTR_EN);
	assert_int_equal(reg(p, 3, 0, 0, 3), PCI_EXP_DEVCTL2_LTR_EN);
	assert_int_equal(reg(p, 4, 0, 0, 3), PCI_EXP_DEVCTL2_LTR_EN);
	assert_int_equal(reg(p, 5, 0, 0, 3), 0);
	assert_record(p, "aspm link up=0000:00:1c.0 down=0000:01:00.0 nfn=1 hops=0 support=L0s,L1,L1.1,L1.2,L1.1-pcipm,L1.2-pcipm bios=L1 capable=L0s,L1,L1.1,L1.2,L1.1-pcipm,L1.2-pcipm action=powersupersave target=L0s,L1,L1.1,L1.1-pcipm clkpm=off>on l1ss=none>L1.1,L1.1-pcipm reason=excluded");
	assert_record(p, "aspm link up=0000:04:00.0 down=0000:05:00.0 nfn=1 hops=1 support=L0s,L1,L1.1,L1.1-pcipm,L1.2-pcipm bios=L1 capable=L0s,L1,L1.1,L1.1-pcipm,L1.2-pcipm action=powersupersave target=L0s,L1,L1.1,L1.1-pcipm,L1.2-pcipm clkpm=- l1ss=none>L1.1,L1.1-pcipm,L1.2-pcipm reason=l1.2-no-ltr");
	assert_record(p, "aspm exclude rule=L1.2@1b36:0010 up=0000:00:1c.0 down=0000:01:00.0 action=powersupersave states=L1.2,L1.2-pcipm removed=L1.2,L1.2-pcipm");
	/* LTR first, parents first; then the NVMe link's writes, in order:
	 * L1 off (downstream first); Control 2 up, down; Control 1 timing
	 * up, down; enables up, down; L1 + L0s up, down; CLKREQ# */
	{
		static char store[8192];
		const char *got[32];
		static const char *const exp[] = {
			"aspm write 0000:00:1c.0 off=0x68 width=2 old=0x0000 new=0x0400 step=ltr readback=0x0400 ok",
			"aspm write 0000:00:1c.1 off=0x68 width=2 old=0x0000 new=0x0400 step=ltr readback=0x0400 ok",
			"aspm write 0000:00:1c.2 off=0x68 width=2 old=0x0000 new=0x0400 step=ltr readback=0x0400 ok",
			"aspm write 0000:01:00.0 off=0x68 width=2 old=0x0000 new=0x0400 step=ltr readback=0x0400 ok",
			"aspm write 0000:02:00.0 off=0x68 width=2 old=0x0000 new=0x0400 step=ltr readback=0x0400 ok",
			"aspm write 0000:03:00.0 off=0x68 width=2 old=0x0000 new=0x0400 step=ltr readback=0x0400 ok",
			"aspm write 0000:04:00.0 off=0x68 width=2 old=0x0000 new=0x0400 step=ltr readback=0x0400 ok",
			"aspm write 0000:01:00.0 off=0x50 width=2 old=0x0042 new=0x0040 step=aspm-down readback=0x0040 ok",
			"aspm write 0000:00:1c.0 off=0x50 width=2 old=0x0042 new=0x0040 step=aspm-up readback=0x0040 ok",
			"aspm write 0000:00:1c.0 off=0x10c width=4 old=0x00000000 new=0x00000029 step=l1ss-timing readback=0x00000029 ok",
			"aspm write 0000:01:00.0 off=0x114 width=4 old=0x00000000 new=0x00000029 step=l1ss-timing readback=0x00000029 ok",
			"aspm write 0000:00:1c.0 off=0x108 width=4 old=0x00000000 new=0x405e2800 step=l1ss-timing readback=0x405e2800 ok",
			"aspm write 0000:01:00.0 off=0x110 width=4 old=0x00000000 new=0x405e2800 step=l1ss-timing readback=0x405e2800 ok",
			"aspm write 0000:00:1c.0 off=0x108 width=4 old=0x405e2800 new=0x405e280a step=l1ss readback=0x405e280a ok",
			"aspm write 0000:01:00.0 off=0x110 width=4 old=0x405e2800 new=0x405e280a step=l1ss readback=0x405e280a ok",
			"aspm write 0000:00:1c.0 off=0x50 width=2 old=0x0040 new=0x0043 step=aspm-up readback=0x0043 ok",
			"aspm write 0000:01:00.0 off=0x50 width=2 old=0x0040 new=0x0043 step=aspm-down readback=0x0043 ok",
			"aspm write 0000:01:00.0 off=0x50 width=2 old=0x0043 new=0x0143 step=clkpm readback=0x0143 ok",
		};
		unsigned n = pfx_lines(p->text, "aspm write ", got, 32, store, sizeof(store));

		assert_true(n >= ARRAY_SIZE(exp));
		for (unsigned i = 0; i < ARRAY_SIZE(exp); i++)
			assert_string_equal(got[i], exp[i]);
	}
	assert_l1ss_order(p);
	pfx_free(p);
}

/* Once applied, a second run (OVMF may start the app twice) writes nothing. */
static void test_supersave_idempotent(void **state)
{
	struct pfx *p = pfx_laptop();

	(void)state;
	assert_int_equal(run_excl(p, CMD_APPLY, OVR_SUPERSAVE, NULL), 0);
	assert_true(p->sim->nlog > 0);
	assert_l1ss_order(p);
	p->sim->nlog = 0;
	p->fx->cfg.writes = 0;
	assert_int_equal(fx_enum(p->fx), 0);
	assert_int_equal(run_excl(p, CMD_APPLY, OVR_SUPERSAVE, NULL), 0);
	assert_no_writes(p);
	pfx_free(p);
}

/* plan predicts apply's writes exactly, reads nothing it may not. */
static void test_supersave_plan_matches_apply(void **state)
{
	struct pfx *a = pfx_laptop(), *b = pfx_laptop();
	static char sa[PFX_OUT_SIZE], sb[PFX_OUT_SIZE];
	const char *la[128], *lb[128];
	unsigned na, nb;

	(void)state;
	a->fx->cfg.read_only = true;
	assert_int_equal(run_excl(a, CMD_PLAN, OVR_SUPERSAVE, "L1.2@1b36:0010"), 0);
	assert_no_writes(a);
	assert_int_equal(run_excl(b, CMD_APPLY, OVR_SUPERSAVE, "L1.2@1b36:0010"), 0);
	na = pfx_lines(a->text, "aspm write ", la, 128, sa, sizeof(sa));
	nb = pfx_lines(b->text, "aspm write ", lb, 128, sb, sizeof(sb));
	assert_int_equal(na, nb);
	assert_int_equal(nb, b->sim->nlog);
	for (unsigned i = 0; i < na; i++) {
		const char *pa = strstr(la[i], " readback=- planned"), *pb = strstr(lb[i], " readback=");

		assert_non_null(pa);
		assert_non_null(pb);
		assert_int_equal(pa - la[i], pb - lb[i]);
		assert_memory_equal(la[i], lb[i], (size_t)(pa - la[i]));
	}
	pfx_free(a);
	pfx_free(b);
}

/*
 * The BIOS had every substate on at both ends with other timing values:
 * L1 goes off at both ends, then L1.2 (downstream first), then the
 * timing, then the enables come back.
 */
static void test_supersave_reprograms_with_l1_2_off(void **state)
{
	struct pfx *p = pfx_new();

	(void)state;
	sim_platform_l1ss_mf(p->sim);
	assert_int_equal(fx_enum(p->fx), 0);
	assert_int_equal(run_excl(p, CMD_APPLY, OVR_SUPERSAVE, NULL), 0);
	assert_l1ss_order(p);
	/* SIM_L1SS_CAP_ALL has no timing: CMRT 0, T_POWER_ON 0, 6 us */
	assert_int_equal(reg(p, 0, 1, 0, 1), (6000 / 32 + 1) << 16 | 1u << 29 | 0xf);
	assert_int_equal(reg(p, 1, 0, 0, 1), ((6000 / 32 + 1) << 16 | 1u << 29 | 0xf |
					      (SIM_L1SS_TIMING & 0xff00)));
	assert_int_equal(reg(p, 0, 1, 0, 2), 0);
	pfx_free(p);
}

/* ------------------------------------------------------------ the other names */

static void test_linux_policy_names(void **state)
{
	static const struct { const char *name; enum aspm_action act; } v[] = {
		{ "default", ASPM_KEEP }, { "performance", ASPM_PERFORMANCE },
		{ "powersave", ASPM_POWERSAVE }, { "powersupersave", ASPM_SUPERSAVE },
	};

	(void)state;
	for (unsigned i = 0; i < ARRAY_SIZE(v); i++) {
		struct aspm_inputs in = pfx_policy(OVR_NONE);

		assert_int_equal(aspm_parse_override(v[i].name, &in.override), 0);
		/* whatever the FADT and _OSC say, as the other overrides */
		in.fadt_no_aspm = true;
		in.osc_granted = false;
		assert_int_equal(aspm_decide(&in), v[i].act);
	}
}

/*
 * performance: ASPM and Clock PM off, at link init like keep (Common
 * Clock set and retrained first); powersave: force's states, but a
 * pre-1.1 device is left alone (no pcie_aspm=force).
 */
static void test_performance_and_powersave(void **state)
{
	struct pfx *p = pfx_laptop();

	(void)state;
	assert_int_equal(run_excl(p, CMD_APPLY, OVR_PERFORMANCE, NULL), 0);
	assert_int_equal(reg(p, 0, 0x1c, 0, 0), LK_CCC);
	assert_int_equal(reg(p, 1, 0, 0, 0), LK_CCC);
	assert_int_equal(reg(p, 5, 0, 0, 0), LK_CCC);
	assert_record(p, "aspm link up=0000:00:1c.1 down=0000:02:00.0 nfn=1 hops=0 support=L0s,L1,L1.1,L1.2,L1.1-pcipm,L1.2-pcipm bios=L1 capable=L0s,L1,L1.1,L1.2,L1.1-pcipm,L1.2-pcipm action=performance target=none clkpm=off l1ss=none reason=override");
	pfx_free(p);

	p = pfx_new();
	sim_platform_sanity(p->sim);
	assert_int_equal(fx_enum(p->fx), 0);
	assert_int_equal(run_excl(p, CMD_APPLY, OVR_POWERSAVE, NULL), 0);
	/* both links blacklisted: BIOS L1 cleared, as keep does */
	assert_int_equal(pfx_lnkctl(p, 2, 0, 0) & LK_L1, 0);
	assert_int_equal(pfx_lnkctl(p, 0, 2, 0) & LK_L1, 0);
	assert_non_null(strstr(p->text, "action=powersave target=none clkpm=- l1ss=none reason=pre-1.1"));
	pfx_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		/* arithmetic */
		cmocka_unit_test(test_pwron_scales),
		cmocka_unit_test(test_threshold_encoding),
		cmocka_unit_test(test_calc_timing),
		/* powersupersave */
		cmocka_unit_test(test_supersave_laptop_excluded),
		cmocka_unit_test(test_supersave_idempotent),
		cmocka_unit_test(test_supersave_plan_matches_apply),
		cmocka_unit_test(test_supersave_reprograms_with_l1_2_off),
		/* Linux's policy names */
		cmocka_unit_test(test_linux_policy_names),
		cmocka_unit_test(test_performance_and_powersave),
	};

	return cmocka_run_group_tests_name("supersave", tests, NULL, NULL);
}
