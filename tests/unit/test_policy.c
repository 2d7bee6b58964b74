// SPDX-License-Identifier: GPL-2.0-only
/*
 * The ASPM policy engine on the simulator, driven as the app drives it
 * (enumerate, then aspm_run()). Every scenario checks the exact write log
 * (function, register, value as written, in order), the final registers
 * and the records the run printed.
 *
 * Reference semantics: Linux 6.1 drivers/pci/pcie/aspm.c (keep = default
 * policy, force = pcie_aspm=force pcie_aspm.policy=powersave) and commit
 * 2f671e2dbff6 (clear, notouch); docs/policy.md lists where aspmctl differs
 * on purpose (no write that changes nothing; L1 off before L1SS changes).
 */
#include "policy_fixture.h"
#include "../sim/platforms.h"

#define DC_ANY		SIM_DC_ANY	/* no latency limit, RBER */
#define L1SS_CAP_ALL	SIM_L1SS_CAP_ALL
#define L1SS_ON		SIM_L1SS_ON	/* all four enables */
#define L1SS_TIMING	SIM_L1SS_TIMING	/* timing fields: not ours to touch */

/* ------------------------------------------------------------ fixtures */

/* Every write in the log changed its register (no write where the
 * register already held the target); retrains are exempt (RL reads 0). */
static void assert_every_write_changes(struct pfx *p)
{
	char b[16];

	for (unsigned i = 0; i < p->sim->nlog; i++) {
		const struct sem_write *w = &p->sim->log[i];

		if (w->width == 2 && (w->val & LK_RL))
			continue;
		if (w->before == w->after)
			fail_msg("write #%u to %s off 0x%x changed nothing (0x%x)", i,
				 pci_addr_str(w->a, b), w->off, w->before);
	}
}

/* ================================================================
 * The "FADT says no ASPM" platform (scenarios 2, 3, 10)
 *
 *   00:1c.0 RP ── 01:00.0 EP             BIOS: L1 both ends, CLKREQ on the
 *                                         EP; L1 PM Substates (all four)
 *                                         on both ends, LTR on the EP
 *   00:1c.1 RP ── 02:00.0 switch USP      BIOS: L1 both ends
 *                  └ 03:00.0 DSP ── 04:00.0 + 04:00.1 (multi-function)
 *                                         BIOS: L0s+L1 everywhere, CLKREQ
 *                                         on both functions
 *   00:1c.2 RP ── 05:00.0 EP             BIOS: nothing (already clear)
 *
 * Every port and function: L0s (128 ns) + L1 (2 us) + Clock PM in LNKCAP,
 * Slot Clock in LNKSTA, Common Clock Configuration set, except that
 * ccc_1c1 = 0 leaves it clear on the 00:1c.1 link.
 * ================================================================ */
#define LC_P	SIM_LC_P
#define LC5	SIM_LNKCAP(3, 1, 1, 0)	/* no Clock PM */

static void build_fadt_platform(struct fx *f, uint16_t ccc_1c1)
{
	sim_platform_fadt(f->sim, ccc_1c1);
}

static struct pfx *fadt_platform(uint16_t ccc_1c1)
{
	struct pfx *p = pfx_new();

	build_fadt_platform(p->fx, ccc_1c1);
	assert_int_equal(fx_enum(p->fx), 0);
	assert_int_equal(p->fx->topo.nlink, 4);
	assert_int_equal(p->fx->cfg.writes, 0);
	return p;
}

static const struct { uint8_t bus, dev, fn; } fadt_fns[] = {
	{ 0, 0x1c, 0 }, { 0, 0x1c, 1 }, { 0, 0x1c, 2 }, { 1, 0, 0 }, { 2, 0, 0 },
	{ 3, 0, 0 }, { 4, 0, 0 }, { 4, 0, 1 }, { 5, 0, 0 },
};

/* Snapshot of every register the engine may touch. */
struct regs {
	uint16_t lnkctl[ARRAY_SIZE(fadt_fns)];
	uint32_t l1ss[2];
};

static void fadt_regs(struct pfx *p, struct regs *r)
{
	memset(r, 0, sizeof(*r));	/* padding too: compared with memcmp */
	for (unsigned i = 0; i < ARRAY_SIZE(fadt_fns); i++)
		r->lnkctl[i] = pfx_lnkctl(p, fadt_fns[i].bus, fadt_fns[i].dev, fadt_fns[i].fn);
	r->l1ss[0] = pfx_l1ss_ctl1(p, 0, 0x1c, 0);
	r->l1ss[1] = pfx_l1ss_ctl1(p, 1, 0, 0);
}

static void check_notouch(struct aspm_inputs in, const char *decision,
			  const char *reason)
{
	struct pfx *p = fadt_platform(LK_CCC);
	struct regs before, after;
	char line[512];

	fadt_regs(p, &before);
	assert_int_equal(pfx_run(p, CMD_APPLY, in), 0);
	assert_int_equal(p->run.action, ASPM_NOTOUCH);
	assert_no_writes(p);
	assert_int_equal(p->fx->cfg.refused_writes, 0);	/* not even tried */
	assert_int_equal(p->run.plan.n, 0);
	fadt_regs(p, &after);
	assert_memory_equal(&before, &after, sizeof(before));
	assert_lines(p, "aspm decision ", decision);
	assert_no_lines(p, "aspm write ");
	/* the BIOS state is reported as the target */
	snprintf(line, sizeof(line),
		 "aspm link up=0000:00:1c.0 down=0000:01:00.0 nfn=1 hops=0 support=L0s,L1,L1.1,L1.2,L1.1-pcipm,L1.2-pcipm bios=L1,L1.1,L1.2,L1.1-pcipm,L1.2-pcipm capable=L0s,L1,L1.1,L1.2,L1.1-pcipm,L1.2-pcipm action=notouch target=L1,L1.1,L1.2,L1.1-pcipm,L1.2-pcipm clkpm=on l1ss=L1.1,L1.2,L1.1-pcipm,L1.2-pcipm reason=%s",
		 reason);
	assert_record(p, line);
	snprintf(line, sizeof(line),
		 "aspm link up=0000:03:00.0 down=0000:04:00.0 nfn=2 hops=1 support=L0s,L1 bios=L0s,L1 capable=L0s,L1 action=notouch target=L0s,L1 clkpm=on l1ss=none reason=%s",
		 reason);
	assert_record(p, line);
	pfx_free(p);
}

/* ================================================================
 * Scenario 4: force on a two-level switch chain
 *
 *   00:01.0 RP ── 01:00.0 USP(A) ─ 02:00.0 DSP(A) ── 03:00.0 USP(B) ─
 *     04:00.0 DSP(B) ── 05:00.0 EP
 *
 * Links: La = 00:01.0-01:00.0 (hops 0), Lb = 02:00.0-03:00.0 (hops 1),
 *        Lc = 04:00.0-05:00.0 (hops 2).
 *
 *   fn       L0s exit      L1 exit
 *   00:01.0  enc 1 128 ns  enc 0 1 us
 *   01:00.0  enc 1 128 ns  enc 0 1 us
 *   02:00.0  enc 2 256 ns  enc 0 1 us
 *   03:00.0  enc 3 512 ns  enc 0 1 us
 *   04:00.0  enc 3 512 ns  enc 1 2 us
 *   05:00.0  enc 2 256 ns  enc 1 2 us   acceptable L0s 256 ns, L1 2 us
 *
 * pcie_aspm_check_latency(05:00.0) walks Lc, Lb, La, adding 1000 ns per
 * link walked upwards, starting at +0 on the endpoint's own link; the L1
 * latency of a link is the max of both ends' exit latencies:
 *   Lc: max(2, 2) us + 0 us = 2 us <= 2 us    L1 kept
 *   Lb: max(1, 1) us + 1 us = 2 us <= 2 us    L1 kept
 *   La: max(1, 1) us + 2 us = 3 us >  2 us    L1 dropped
 * L0s, no switch term; L0S_UP (set in the downstream component) is checked
 * against the upstream port's exit latency, L0S_DW (set in the upstream
 * port) against the downstream component's, as Linux 6.1 does:
 *   Lc: up 04:00.0 512 > 256 -> no L0s-up;  down 05:00.0 256 <= 256 -> L0s-dw
 *   Lb: up 02:00.0 256 <= 256 -> L0s-up;    down 03:00.0 512 > 256 -> no L0s-dw
 *   La: 128 <= 256 both ways -> L0s both directions
 * Common Clock is already set everywhere: no CCC or retrain writes.
 * ================================================================ */
static struct pfx *switch_chain(uint8_t ep_l1_acc)
{
	struct pfx *p = pfx_new();
	struct sim *s = p->sim;

	sim_root_port(s, 0, 1, 0, 1, 5, SIM_LNKCAP(3, 1, 0, 0), LK_CCC);
	sim_switch_up(s, 1, 2, 5, SIM_LNKCAP(3, 1, 0, 0), LK_CCC);
	sim_switch_down(s, 2, 0, 3, 5, SIM_LNKCAP(3, 2, 0, 0), LK_CCC);
	sim_switch_up(s, 3, 4, 5, SIM_LNKCAP(3, 3, 0, 0), LK_CCC);
	sim_switch_down(s, 4, 0, 5, 5, SIM_LNKCAP(3, 3, 1, 0), LK_CCC);
	sim_endpoint(s, 5, 0, 0, SIM_DEVCAP(2, ep_l1_acc, 1), SIM_LNKCAP(3, 2, 1, 0),
		     LK_CCC);
	assert_int_equal(fx_enum(p->fx), 0);
	assert_int_equal(p->fx->topo.nlink, 3);
	assert_int_equal(fx_link(p->fx, 4, 0, 0)->hops, 2);
	return p;
}

/* ================================================================
 * Scenario 5: a link with a non-PCIe function, a link with a pre-1.1
 * function (no Role-Based Error Reporting). BIOS enabled L1 on both;
 * Slot Clock everywhere, Common Clock clear.
 *
 *   00:01.0 RP ── 01:00.0 PCIe EP + 01:00.1 conventional PCI function
 *   00:02.0 RP ── 02:00.0 EP without RBER
 *
 * pcie_aspm_sanity_check(): a non-PCIe function blacklists the link
 * always; a function without RBER blacklists it unless aspm_force.
 * pcie_aspm_cap_init() on a blacklisted link sets enabled = disable = ALL
 * and returns before Common Clock, so the policy writes ASPM off on the
 * PCIe functions (downstream first) and leaves Common Clock alone.
 * ================================================================ */
static struct pfx *sanity_platform(void)
{
	return pfx_platform(sim_platform_sanity, 2);
}

/* ================================================================
 * Scenario 6: multi-function endpoints, mixed Clock PM capability
 *
 *   00:01.0 RP ── 01:00.0 (LNKCAP Clock PM) + 01:00.1 (no Clock PM)
 *   00:02.0 RP ── 02:00.0 + 02:00.1 (both Clock PM)
 * ================================================================ */
#define LC_CLK		SIM_LNKCAP(3, 1, 1, 1)
#define LC_NOCLK	SIM_LNKCAP(3, 1, 1, 0)

static struct pfx *clkpm_platform(uint16_t bios)
{
	struct pfx *p = pfx_new();
	struct sim *s = p->sim;

	sim_root_port(s, 0, 1, 0, 1, 1, LC_CLK, LK_CCC);
	sim_set_multi(sim_endpoint(s, 1, 0, 0, DC_ANY, LC_CLK, LK_CCC));
	sim_endpoint(s, 1, 0, 1, DC_ANY, LC_NOCLK, LK_CCC);
	sim_root_port(s, 0, 2, 0, 2, 2, LC_CLK, LK_CCC);
	sim_set_multi(sim_endpoint(s, 2, 0, 0, DC_ANY, LC_CLK, LK_CCC | bios));
	sim_endpoint(s, 2, 0, 1, DC_ANY, LC_CLK, LK_CCC | bios);
	assert_int_equal(fx_enum(p->fx), 0);
	return p;
}

/* ================================================================
 * Scenario 7: teardown (remove BDF), as pcie_aspm_exit_link_state()
 *
 *   00:01.0 RP ── 01:00.0 USP ─┬ 02:00.0 DSP ── 03:00.0 EP_A  acceptable L1 1 us
 *                              └ 02:01.0 DSP ── 04:00.0 EP_B  no limit
 * L1 only, exit latency 1 us everywhere, Common Clock set.
 * EP_A: its own link 1 us + 0 <= 1 us (L1 ok); the root link
 * 1 us + 1 us > 1 us: no L1 on 00:01.0-01:00.0 while EP_A is there.
 * ================================================================ */
#define LC7	SIM_LNKCAP(2, 0, 0, 0)

static struct pfx *teardown_platform(uint16_t bios_a)
{
	struct pfx *p = pfx_new();

	sim_platform_teardown(p->sim, bios_a);
	assert_int_equal(fx_enum(p->fx), 0);
	assert_int_equal(p->fx->topo.nlink, 3);
	return p;
}

static struct pfx *mf_platform(void)
{
	struct pfx *p = pfx_new();
	struct sim *s = p->sim;

	sim_root_port(s, 0, 1, 0, 1, 1, LC7, LK_CCC);
	sim_set_multi(sim_endpoint(s, 1, 0, 0, DC_ANY, LC7, LK_CCC));
	sim_endpoint(s, 1, 0, 1, DC_ANY, LC7, LK_CCC);
	assert_int_equal(fx_enum(p->fx), 0);
	return p;
}

/* ================================================================
 * Scenario 9: keep, Common Clock Configuration and retrain
 *
 *   00:01.0 RP ── 01:00.0  Slot Clock both, CCC clear; BIOS L1 + CLKREQ
 *   00:02.0 RP ── 02:00.0  Slot Clock both, CCC set (consistent); BIOS L0s
 *   00:03.0 RP ── 03:00.0  no Slot Clock on the EP, CCC clear (consistent)
 *   00:04.0 RP ── 04:00.0  no Slot Clock on the RP, CCC set: cleared
 * ================================================================ */
#define LC9	SIM_LC_P

static struct pfx *ccc_platform(void)
{
	struct pfx *p = pfx_new();

	sim_platform_ccc(p->sim);
	assert_int_equal(fx_enum(p->fx), 0);
	return p;
}

static unsigned long long waited_us;

static void count_delay(void *ctx, unsigned us)
{
	(void)ctx;
	waited_us += us;
}

/* ================================================================
 * Scenario 10: plan prints exactly the writes apply makes
 * ================================================================ */
static unsigned write_lines(struct pfx *p, char lines[][160], unsigned max,
			    const char *suffix_from)
{
	static char store[PFX_OUT_SIZE];
	const char *l[256];
	unsigned n = pfx_lines(p->text, "aspm write ", l, 256, store, sizeof(store));

	assert_true(n <= max);
	for (unsigned i = 0; i < n; i++) {
		const char *cut = strstr(l[i], suffix_from);

		assert_non_null(cut);
		snprintf(lines[i], 160, "%.*s", (int)(cut - l[i]), l[i]);
	}
	return n;
}

static void check_plan_matches_apply(struct aspm_inputs in, unsigned expect_writes)
{
	static char planned[64][160], applied[64][160];
	struct pfx *a = fadt_platform(0), *b = fadt_platform(0);
	unsigned np, na;

	a->fx->cfg.read_only = true;
	assert_int_equal(pfx_run(a, CMD_PLAN, in), 0);
	assert_no_writes(a);
	assert_int_equal(a->fx->cfg.refused_writes, 0);	/* not even tried */
	np = write_lines(a, planned, 64, " readback=- planned");

	assert_int_equal(pfx_run(b, CMD_APPLY, in), 0);
	na = write_lines(b, applied, 64, " readback=");
	assert_int_equal(np, expect_writes);
	assert_int_equal(na, np);
	assert_int_equal(b->sim->nlog, na);
	for (unsigned i = 0; i < np; i++) {
		const struct sem_write *w = &b->sim->log[i];
		char addr[16], want[64];

		assert_string_equal(planned[i], applied[i]);
		/* and the line names the write the simulator saw */
		snprintf(want, sizeof(want), "aspm write %s off=0x%x ",
			 pci_addr_str(w->a, addr), w->off);
		assert_true(!strncmp(planned[i], want, strlen(want)));
	}
	/* same records otherwise */
	{
		static char sa[PFX_OUT_SIZE], sb[PFX_OUT_SIZE];
		const char *la[64], *lb[64];
		unsigned ka = pfx_lines(a->text, "aspm link ", la, 64, sa, sizeof(sa));
		unsigned kb = pfx_lines(b->text, "aspm link ", lb, 64, sb, sizeof(sb));

		assert_int_equal(ka, kb);
		for (unsigned i = 0; i < ka; i++)
			assert_string_equal(la[i], lb[i]);
	}
	pfx_free(a);
	pfx_free(b);
}

/* ================================================================
 * Audit follow-ups
 * ================================================================ */

/*
 * A switch whose upstream port sits directly on a root bus (no Root
 * Port): Linux's alloc_pcie_link_state() makes the Downstream Port's
 * link a root link (!pdev->bus->parent->self). BIOS L1 on that link.
 *   00:00.0 USP ─ 01:00.0 DSP ── 02:00.0 EP
 */
static struct pfx *rootless_switch(void)
{
	struct pfx *p = pfx_new();
	struct sim *s = p->sim;

	sim_platform_rootless_switch(s);
	assert_int_equal(fx_enum(p->fx), 0);
	assert_int_equal(p->fx->topo.nlink, 1);
	assert_int_equal(fx_link(p->fx, 1, 0, 0)->parent, -1);
	assert_int_equal(fx_link(p->fx, 1, 0, 0)->root, 0);
	return p;
}

/*
 * Blacklisted links with BIOS L1 and L1 PM Substates (all four, both
 * ends): keep clears ASPM there, and the substates with it once L1 is
 * off at both ends (docs/policy.md; Linux 6.1 leaves them).
 *   00:01.0 RP ── 01:00.0 PCIe EP + 01:00.1 conventional PCI function
 *   00:02.0 RP ── 02:00.0 EP without RBER
 */
static struct pfx *sanity_l1ss_platform(void)
{
	struct pfx *p = pfx_new();
	struct sim *s = p->sim;
	struct sim_fn *x;

	x = sim_root_port(s, 0, 1, 0, 1, 1, LC5, LK_CCC | LK_L1);
	sim_add_l1ss(x, L1SS_CAP_ALL, L1SS_TIMING | L1SS_ON);
	x = sim_endpoint(s, 1, 0, 0, DC_ANY, LC5, LK_CCC | LK_L1);
	sim_set_multi(x);
	sim_add_l1ss(x, L1SS_CAP_ALL, L1SS_TIMING | L1SS_ON);
	sim_pci_device(s, 1, 0, 1);
	x = sim_root_port(s, 0, 2, 0, 2, 2, LC5, LK_CCC | LK_L1);
	sim_add_l1ss(x, L1SS_CAP_ALL, L1SS_TIMING | L1SS_ON);
	x = sim_endpoint(s, 2, 0, 0, SIM_DEVCAP(7, 7, 0), LC5, LK_CCC | LK_L1);
	sim_add_l1ss(x, L1SS_CAP_ALL, L1SS_TIMING | L1SS_ON);
	assert_int_equal(fx_enum(p->fx), 0);
	assert_int_equal(p->fx->topo.nlink, 2);
	return p;
}

/*
 * Common Clock Configuration changes an exit latency: the endpoint's L1
 * exit grows from 1 us to 8 us when the link is retrained (the simulator
 * answers Link Training once, and the delay hook changes LNKCAP then).
 * BIOS L0s + L1, the endpoint accepts 2 us of L1. plan cannot know: it
 * says so ("aspm ccc ... result=pending lnkcap=pre-ccc"); apply reads
 * LNKCAP again and drops L1.
 */
static struct sim_fn *ccc_ep;

static void ccc_slows_l1(void *ctx, unsigned us)
{
	(void)ctx;
	(void)us;
	sim_poke(ccc_ep, ccc_ep->pcie + PCI_EXP_LNKCAP, 4, SIM_LNKCAP(3, 1, 3, 0));
}

static struct pfx *ccc_latency_platform(void)
{
	struct pfx *p = pfx_new();
	struct sim_fn *rp;

	rp = sim_root_port(p->sim, 0, 1, 0, 1, 1, SIM_LNKCAP(3, 1, 0, 0), LK_L0S | LK_L1);
	ccc_ep = sim_endpoint(p->sim, 1, 0, 0, SIM_DEVCAP(7, 1, 1), SIM_LNKCAP(3, 1, 0, 0),
			      LK_L0S | LK_L1);
	rp->retrain_reads = 1;
	assert_int_equal(fx_enum(p->fx), 0);
	return p;
}

/* ------------------------------------------------------------ keep */
/* the BIOS state stays (Linux's default policy) */

/* keep on the FADT platform: the BIOS state (L1SS included) stays. */
static void test_keep_leaves_bios_state(void **state)
{
	struct pfx *p = fadt_platform(LK_CCC);
	struct regs before, after;

	(void)state;
	fadt_regs(p, &before);
	assert_int_equal(pfx_run(p, CMD_APPLY, pfx_policy(OVR_NONE)), 0);
	assert_no_writes(p);
	fadt_regs(p, &after);
	assert_memory_equal(&before, &after, sizeof(before));
	assert_record(p, "aspm link up=0000:00:1c.0 down=0000:01:00.0 nfn=1 hops=0 support=L0s,L1,L1.1,L1.2,L1.1-pcipm,L1.2-pcipm bios=L1,L1.1,L1.2,L1.1-pcipm,L1.2-pcipm capable=L0s,L1,L1.1,L1.2,L1.1-pcipm,L1.2-pcipm action=keep target=L1,L1.1,L1.2,L1.1-pcipm,L1.2-pcipm clkpm=on l1ss=L1.1,L1.2,L1.1-pcipm,L1.2-pcipm reason=bios-off");
	pfx_free(p);
}

/* ================================================================
 * Found by the register-level cross-check against Linux 6.1's aspm.c
 * (docs/xcheck.md): what pcie_config_aspm_link() and pcie_set_clkpm()
 * leave alone.
 * ================================================================ */

/*
 * The BIOS left function 1 of a device without L1 and without CLKREQ#,
 * function 0 with both. Linux reads the link's state from function 0 and
 * the port (L1 enabled) and counts Clock PM as enabled only when every
 * function has it (off): keep asks for exactly that, so nothing is
 * written and the per-function bits stay as they are.
 */
static void test_keep_leaves_per_function_bits(void **state)
{
	struct pfx *p = pfx_new();
	struct sim *s = p->sim;

	(void)state;
	sim_root_port(s, 0, 1, 0, 1, 1, LC_P, LK_CCC | LK_L1);
	sim_set_multi(sim_endpoint(s, 1, 0, 0, DC_ANY, LC_P, LK_CCC | LK_L1 | LK_CLKREQ));
	sim_endpoint(s, 1, 0, 1, DC_ANY, LC_P, LK_CCC);
	assert_int_equal(fx_enum(p->fx), 0);
	assert_int_equal(pfx_run(p, CMD_APPLY, pfx_policy(OVR_NONE)), 0);
	assert_no_writes(p);
	assert_int_equal(pfx_lnkctl(p, 1, 0, 0), LK_CCC | LK_L1 | LK_CLKREQ);
	assert_int_equal(pfx_lnkctl(p, 1, 0, 1), LK_CCC);
	assert_record(p, "aspm link up=0000:00:01.0 down=0000:01:00.0 nfn=2 hops=0 support=L0s,L1 bios=L1 capable=L0s,L1 action=keep target=L1 clkpm=off l1ss=none reason=bios-off");
	pfx_free(p);

	/* the same with Clock PM on function 0 of a link that is not Clock
	 * PM capable (function 1 lacks it): CLKREQ# stays */
	p = pfx_new();
	s = p->sim;
	sim_root_port(s, 0, 1, 0, 1, 1, LC_P, LK_CCC);
	sim_set_multi(sim_endpoint(s, 1, 0, 0, DC_ANY, LC_P, LK_CCC | LK_CLKREQ));
	sim_endpoint(s, 1, 0, 1, DC_ANY, LC5, LK_CCC);
	assert_int_equal(fx_enum(p->fx), 0);
	assert_int_equal(pfx_run(p, CMD_APPLY, pfx_policy(OVR_NONE)), 0);
	assert_no_writes(p);
	assert_int_equal(pfx_lnkctl(p, 1, 0, 0), LK_CCC | LK_CLKREQ);
	pfx_free(p);
}

/* ------------------------------------------------------------ clear */
/* ASPM, L1SS and Clock PM off, downstream first */

/* Scenario 2: FADT "no ASPM", policy auto, fadt_mode clear. */
static void test_fadt_clear_clears_everything(void **state)
{
	struct pfx *p = fadt_platform(LK_CCC);

	(void)state;
	assert_int_equal(pfx_run(p, CMD_APPLY, pfx_in(true, true, OVR_NONE, FADT_MODE_CLEAR)), 0);
	assert_int_equal(p->run.action, ASPM_CLEAR);

	/*
	 * Per link: ASPM Control off on every downstream function, then on
	 * the upstream port; only then (L1 off at both ends, PCIe r5.0
	 * 5.5.4) the L1SS enables, downstream then upstream; then CLKREQ#
	 * on the downstream functions. No Common Clock or retrain write,
	 * nothing on the 00:1c.2 link (already clear).
	 */
	assert_log_writes(p, 0,
		/* 00:1c.0 link */
		XLC(1, 0, 0, LK_CCC | LK_CLKREQ),	/* ASPM off, EP first */
		XLC(0, 0x1c, 0, LK_CCC),		/* then the root port */
		XSS(1, 0, 0, L1SS_TIMING),		/* L1 now off at both ends */
		XSS(0, 0x1c, 0, L1SS_TIMING),
		XLC(1, 0, 0, LK_CCC),			/* Clock PM */
		/* 00:1c.1 link: the switch's upstream port, then the RP */
		XLC(2, 0, 0, LK_CCC),
		XLC(0, 0x1c, 1, LK_CCC),
		/* 03:00.0 link: both functions, then the DSP */
		XLC(4, 0, 0, LK_CCC | LK_CLKREQ),
		XLC(4, 0, 1, LK_CCC | LK_CLKREQ),
		XLC(3, 0, 0, LK_CCC),
		XLC(4, 0, 0, LK_CCC),
		XLC(4, 0, 1, LK_CCC));
	assert_every_write_changes(p);

	/* every ASPM, CLKREQ and L1SS enable bit ends at zero; CCC kept */
	for (unsigned i = 0; i < ARRAY_SIZE(fadt_fns); i++)
		assert_int_equal(pfx_lnkctl(p, fadt_fns[i].bus, fadt_fns[i].dev,
					    fadt_fns[i].fn), LK_CCC);
	assert_int_equal(pfx_l1ss_ctl1(p, 0, 0x1c, 0), L1SS_TIMING);
	assert_int_equal(pfx_l1ss_ctl1(p, 1, 0, 0), L1SS_TIMING);
	assert_int_equal(p->run.st.written, 12);
	assert_int_equal(p->run.st.ignored, 0);
	assert_int_equal(p->run.st.errors, 0);

	assert_lines(p, "aspm decision ",
		"aspm decision fadt-no-aspm=1 fadt-valid=1 osc=granted override=none fadt-mode=clear action=clear osc-source=default");
	/* links in the order Linux initialises them: by secondary-bus scan */
	assert_lines(p, "aspm link ",
		"aspm link up=0000:00:1c.0 down=0000:01:00.0 nfn=1 hops=0 support=L0s,L1,L1.1,L1.2,L1.1-pcipm,L1.2-pcipm bios=L1,L1.1,L1.2,L1.1-pcipm,L1.2-pcipm capable=L0s,L1,L1.1,L1.2,L1.1-pcipm,L1.2-pcipm action=clear target=none clkpm=on>off l1ss=L1.1,L1.2,L1.1-pcipm,L1.2-pcipm>none reason=fadt-no-aspm",
		"aspm link up=0000:00:1c.1 down=0000:02:00.0 nfn=1 hops=0 support=L0s,L1 bios=L1 capable=L0s,L1 action=clear target=none clkpm=off l1ss=none reason=fadt-no-aspm",
		"aspm link up=0000:03:00.0 down=0000:04:00.0 nfn=2 hops=1 support=L0s,L1 bios=L0s,L1 capable=L0s,L1 action=clear target=none clkpm=on>off l1ss=none reason=fadt-no-aspm",
		"aspm link up=0000:00:1c.2 down=0000:05:00.0 nfn=1 hops=0 support=L0s,L1 bios=none capable=L0s,L1 action=clear target=none clkpm=off l1ss=none reason=fadt-no-aspm");
	assert_lines(p, "aspm write ",
		"aspm write 0000:01:00.0 off=0x50 width=2 old=0x0142 new=0x0140 step=aspm-down readback=0x0140 ok",
		"aspm write 0000:00:1c.0 off=0x50 width=2 old=0x0042 new=0x0040 step=aspm-up readback=0x0040 ok",
		"aspm write 0000:01:00.0 off=0x110 width=4 old=0x00040a0f new=0x00040a00 step=l1ss readback=0x00040a00 ok",
		"aspm write 0000:00:1c.0 off=0x108 width=4 old=0x00040a0f new=0x00040a00 step=l1ss readback=0x00040a00 ok",
		"aspm write 0000:01:00.0 off=0x50 width=2 old=0x0140 new=0x0040 step=clkpm readback=0x0040 ok",
		"aspm write 0000:02:00.0 off=0x50 width=2 old=0x0042 new=0x0040 step=aspm-down readback=0x0040 ok",
		"aspm write 0000:00:1c.1 off=0x50 width=2 old=0x0042 new=0x0040 step=aspm-up readback=0x0040 ok",
		"aspm write 0000:04:00.0 off=0x50 width=2 old=0x0143 new=0x0140 step=aspm-down readback=0x0140 ok",
		"aspm write 0000:04:00.1 off=0x50 width=2 old=0x0143 new=0x0140 step=aspm-down readback=0x0140 ok",
		"aspm write 0000:03:00.0 off=0x50 width=2 old=0x0043 new=0x0040 step=aspm-up readback=0x0040 ok",
		"aspm write 0000:04:00.0 off=0x50 width=2 old=0x0140 new=0x0040 step=clkpm readback=0x0040 ok",
		"aspm write 0000:04:00.1 off=0x50 width=2 old=0x0140 new=0x0040 step=clkpm readback=0x0040 ok");
	pfx_free(p);
}

/* ------------------------------------------------------------ force */
/* every state both ends support and the path latency allows */

static void test_force_switch_chain_latency(void **state)
{
	struct pfx *p = switch_chain(1);	/* acceptable L1: 2 us */

	(void)state;
	assert_int_equal(pfx_run(p, CMD_APPLY, pfx_policy(OVR_FORCE)), 0);
	assert_int_equal(p->run.action, ASPM_FORCE);
	assert_log_writes(p, 0,
		/* La: L0s only, no L1 to enable: downstream first */
		XLC(1, 0, 0, LK_CCC | LK_L0S),
		XLC(0, 1, 0, LK_CCC | LK_L0S),
		/* Lb: enabling L1, upstream port first */
		XLC(2, 0, 0, LK_CCC | LK_L1),
		XLC(3, 0, 0, LK_CCC | LK_L0S | LK_L1),
		/* Lc: enabling L1, upstream port first */
		XLC(4, 0, 0, LK_CCC | LK_L0S | LK_L1),
		XLC(5, 0, 0, LK_CCC | LK_L1));
	assert_int_equal(pfx_lnkctl(p, 0, 1, 0), LK_CCC | LK_L0S);
	assert_int_equal(pfx_lnkctl(p, 1, 0, 0), LK_CCC | LK_L0S);
	assert_int_equal(pfx_lnkctl(p, 2, 0, 0), LK_CCC | LK_L1);
	assert_int_equal(pfx_lnkctl(p, 3, 0, 0), LK_CCC | LK_L0S | LK_L1);
	assert_int_equal(pfx_lnkctl(p, 4, 0, 0), LK_CCC | LK_L0S | LK_L1);
	assert_int_equal(pfx_lnkctl(p, 5, 0, 0), LK_CCC | LK_L1);
	assert_lines(p, "aspm link ",
		"aspm link up=0000:00:01.0 down=0000:01:00.0 nfn=1 hops=0 support=L0s,L1 bios=none capable=L0s action=force target=L0s clkpm=- l1ss=none reason=l1-latency",
		"aspm link up=0000:02:00.0 down=0000:03:00.0 nfn=1 hops=1 support=L0s,L1 bios=none capable=L0s-up,L1 action=force target=L0s-up,L1 clkpm=- l1ss=none reason=l0s-dw-latency",
		"aspm link up=0000:04:00.0 down=0000:05:00.0 nfn=1 hops=2 support=L0s,L1 bios=none capable=L0s-dw,L1 action=force target=L0s-dw,L1 clkpm=- l1ss=none reason=l0s-up-latency");
	assert_lines(p, "aspm write ",
		"aspm write 0000:01:00.0 off=0x50 width=2 old=0x0040 new=0x0041 step=aspm-down readback=0x0041 ok",
		"aspm write 0000:00:01.0 off=0x50 width=2 old=0x0040 new=0x0041 step=aspm-up readback=0x0041 ok",
		"aspm write 0000:02:00.0 off=0x50 width=2 old=0x0040 new=0x0042 step=aspm-up readback=0x0042 ok",
		"aspm write 0000:03:00.0 off=0x50 width=2 old=0x0040 new=0x0043 step=aspm-down readback=0x0043 ok",
		"aspm write 0000:04:00.0 off=0x50 width=2 old=0x0040 new=0x0043 step=aspm-up readback=0x0043 ok",
		"aspm write 0000:05:00.0 off=0x50 width=2 old=0x0040 new=0x0042 step=aspm-down readback=0x0042 ok");
	pfx_free(p);
}

/* Contrast: acceptable L1 of 4 us admits La too (1 us + 2 us = 3 us);
 * L1 goes on everywhere, upstream port first on every link. */
static void test_force_switch_chain_l1_everywhere(void **state)
{
	struct pfx *p = switch_chain(2);	/* acceptable L1: 4 us */

	(void)state;
	assert_int_equal(pfx_run(p, CMD_APPLY, pfx_policy(OVR_FORCE)), 0);
	assert_log_writes(p, 0,
		XLC(0, 1, 0, LK_CCC | LK_L0S | LK_L1),
		XLC(1, 0, 0, LK_CCC | LK_L0S | LK_L1),
		XLC(2, 0, 0, LK_CCC | LK_L1),
		XLC(3, 0, 0, LK_CCC | LK_L0S | LK_L1),
		XLC(4, 0, 0, LK_CCC | LK_L0S | LK_L1),
		XLC(5, 0, 0, LK_CCC | LK_L1));
	assert_record(p, "aspm link up=0000:00:01.0 down=0000:01:00.0 nfn=1 hops=0 support=L0s,L1 bios=none capable=L0s,L1 action=force target=L0s,L1 clkpm=- l1ss=none reason=-");
	pfx_free(p);
}

/* force on a multi-function endpoint whose function 0 already holds the
 * target and function 1 does not: function 1 is written too (our policy:
 * every downstream function the same value; Linux 6.1 compares only the
 * link's aggregated state and leaves it). */
static void test_force_every_function(void **state)
{
	const uint16_t on = LK_CCC | LK_L0S | LK_L1;
	struct pfx *p = pfx_new();
	struct sim *s = p->sim;

	(void)state;
	sim_root_port(s, 0, 1, 0, 1, 1, LC5, on);
	sim_set_multi(sim_endpoint(s, 1, 0, 0, DC_ANY, LC5, on));
	sim_endpoint(s, 1, 0, 1, DC_ANY, LC5, LK_CCC);
	assert_int_equal(fx_enum(p->fx), 0);
	assert_int_equal(pfx_run(p, CMD_APPLY, pfx_policy(OVR_FORCE)), 0);
	assert_log_writes(p, 0, XLC(1, 0, 1, on));
	assert_every_write_changes(p);
	assert_int_equal(pfx_lnkctl(p, 0, 1, 0), on);
	assert_int_equal(pfx_lnkctl(p, 1, 0, 0), on);
	assert_int_equal(pfx_lnkctl(p, 1, 0, 1), on);
	assert_lines(p, "aspm target ",
		"aspm target fn=0000:00:01.0 up=0000:00:01.0 end=up lnkctl=0x0043 l1ss=-",
		"aspm target fn=0000:01:00.0 up=0000:00:01.0 end=down lnkctl=0x0043 l1ss=-",
		"aspm target fn=0000:01:00.1 up=0000:00:01.0 end=down lnkctl=0x0043 l1ss=-");
	pfx_free(p);
}

static void test_rootless_switch_link(void **state)
{
	struct pfx *p = rootless_switch();

	(void)state;
	assert_int_equal(pfx_run(p, CMD_APPLY, pfx_policy(OVR_CLEAR)), 0);
	/* BIOS L1 goes: the endpoint, then the Downstream Port */
	assert_log_writes(p, 0, XLC(2, 0, 0, LK_CCC), XLC(1, 0, 0, LK_CCC));
	assert_int_equal(pfx_lnkctl(p, 0, 0, 0), LK_CCC);
	assert_int_equal(pfx_lnkctl(p, 1, 0, 0), LK_CCC);
	assert_int_equal(pfx_lnkctl(p, 2, 0, 0), LK_CCC);
	assert_lines(p, "aspm link ",
		"aspm link up=0000:01:00.0 down=0000:02:00.0 nfn=1 hops=0 support=L0s,L1 bios=L1 capable=L0s,L1 action=clear target=none clkpm=- l1ss=none reason=override");
	pfx_free(p);

	p = rootless_switch();
	assert_int_equal(pfx_run(p, CMD_APPLY, pfx_policy(OVR_FORCE)), 0);
	/* L0s + L1: the Downstream Port first */
	assert_log_writes(p, 0, XLC(1, 0, 0, LK_CCC | LK_L0S | LK_L1),
			  XLC(2, 0, 0, LK_CCC | LK_L0S | LK_L1));
	assert_int_equal(pfx_lnkctl(p, 0, 0, 0), LK_CCC);
	assert_int_equal(pfx_lnkctl(p, 1, 0, 0), LK_CCC | LK_L0S | LK_L1);
	assert_int_equal(pfx_lnkctl(p, 2, 0, 0), LK_CCC | LK_L0S | LK_L1);
	assert_lines(p, "aspm link ",
		"aspm link up=0000:01:00.0 down=0000:02:00.0 nfn=1 hops=0 support=L0s,L1 bios=L1 capable=L0s,L1 action=force target=L0s,L1 clkpm=- l1ss=none reason=-");
	pfx_free(p);
}

/* ------------------------------------------------------------ notouch */
/* not one config write */

/* Scenario 3: the same platform, FADT "no ASPM" with fadt_mode notouch,
 * and override notouch: not one config write. */
static void test_fadt_notouch_writes_nothing(void **state)
{
	(void)state;
	check_notouch(pfx_in(true, true, OVR_NONE, FADT_MODE_NOTOUCH),
		      "aspm decision fadt-no-aspm=1 fadt-valid=1 osc=granted override=none fadt-mode=notouch action=notouch osc-source=default",
		      "fadt-no-aspm");
}

static void test_override_notouch_writes_nothing(void **state)
{
	(void)state;
	check_notouch(pfx_in(true, true, OVR_NOTOUCH, FADT_MODE_CLEAR),
		      "aspm decision fadt-no-aspm=1 fadt-valid=1 osc=granted override=notouch fadt-mode=clear action=notouch osc-source=default",
		      "override");
	/* _OSC denied and no FADT flag is notouch too */
	check_notouch(pfx_in(false, false, OVR_NONE, FADT_MODE_CLEAR),
		      "aspm decision fadt-no-aspm=0 fadt-valid=1 osc=denied override=none fadt-mode=clear action=notouch osc-source=default",
		      "osc-denied");
}

/*
 * notouch even where the BIOS left an inconsistent state that every
 * other action would tidy up: L1 on the upstream port only, CLKREQ# on
 * one function of two, L1.1 on one end only.
 */
static void test_notouch_inconsistent_bios(void **state)
{
	struct aspm_inputs ins[] = {
		pfx_policy(OVR_NOTOUCH),
		pfx_in(true, true, OVR_NONE, FADT_MODE_NOTOUCH),
		pfx_in(false, false, OVR_NONE, FADT_MODE_CLEAR),
	};

	(void)state;
	for (unsigned i = 0; i < ARRAY_SIZE(ins); i++) {
		struct pfx *p = pfx_new();
		struct sim *s = p->sim;
		struct sim_fn *x;

		x = sim_root_port(s, 0, 1, 0, 1, 1, LC_P, LK_L1);
		sim_add_l1ss(x, L1SS_CAP_ALL, PCI_L1SS_CTL1_ASPM_L1_1);
		x = sim_endpoint(s, 1, 0, 0, DC_ANY, LC_P, LK_CLKREQ);
		sim_set_multi(x);
		sim_add_l1ss(x, L1SS_CAP_ALL, 0);
		sim_endpoint(s, 1, 0, 1, DC_ANY, LC_P, 0);
		assert_int_equal(fx_enum(p->fx), 0);
		assert_int_equal(pfx_run(p, CMD_APPLY, ins[i]), 0);
		assert_int_equal(p->run.action, ASPM_NOTOUCH);
		assert_no_writes(p);
		pfx_free(p);
	}
}

/* ------------------------------------------------------------ sanity */
/* links Linux blacklists (non-PCIe function, pre-1.1) */

static void test_sanity_keep(void **state)
{
	struct pfx *p = sanity_platform();

	(void)state;
	assert_int_equal(pfx_run(p, CMD_APPLY, pfx_policy(OVR_KEEP)), 0);
	assert_int_equal(p->run.action, ASPM_KEEP);
	/* both links blacklisted: ASPM cleared, no Common Clock, no retrain */
	assert_log_writes(p, 0,
		XLC(1, 0, 0, 0),
		XLC(0, 1, 0, 0),
		XLC(2, 0, 0, 0),
		XLC(0, 2, 0, 0));
	assert_int_equal(pfx_lnkctl(p, 0, 1, 0), 0);
	assert_int_equal(pfx_lnkctl(p, 1, 0, 0), 0);
	assert_int_equal(pfx_lnkctl(p, 0, 2, 0), 0);
	assert_int_equal(pfx_lnkctl(p, 2, 0, 0), 0);
	assert_lines(p, "aspm link ",
		"aspm link up=0000:00:01.0 down=0000:01:00.0 nfn=2 hops=0 support=none bios=L1 capable=none action=keep target=none clkpm=- l1ss=none reason=non-pcie-fn",
		"aspm link up=0000:00:02.0 down=0000:02:00.0 nfn=1 hops=0 support=none bios=L1 capable=none action=keep target=none clkpm=- l1ss=none reason=pre-1.1");
	pfx_free(p);
}

static void test_sanity_force(void **state)
{
	struct pfx *p = sanity_platform();

	(void)state;
	assert_int_equal(pfx_run(p, CMD_APPLY, pfx_policy(OVR_FORCE)), 0);
	assert_int_equal(p->run.action, ASPM_FORCE);
	assert_log_writes(p, 0,
		/* Common Clock on the pre-1.1 link only (forced, so not
		 * blacklisted): downstream, upstream, retrain */
		XLC(2, 0, 0, LK_CCC | LK_L1),
		XLC(0, 2, 0, LK_CCC | LK_L1),
		XLC(0, 2, 0, LK_CCC | LK_L1 | LK_RL),
		/* the non-PCIe link: ASPM off even under force */
		XLC(1, 0, 0, 0),
		XLC(0, 1, 0, 0),
		/* the pre-1.1 link is forced: L0s + L1, upstream first */
		XLC(0, 2, 0, LK_CCC | LK_L0S | LK_L1),
		XLC(2, 0, 0, LK_CCC | LK_L0S | LK_L1));
	assert_int_equal(pfx_lnkctl(p, 0, 1, 0), 0);
	assert_int_equal(pfx_lnkctl(p, 1, 0, 0), 0);
	assert_int_equal(pfx_lnkctl(p, 0, 2, 0), LK_CCC | LK_L0S | LK_L1);
	assert_int_equal(pfx_lnkctl(p, 2, 0, 0), LK_CCC | LK_L0S | LK_L1);
	assert_lines(p, "aspm link ",
		"aspm link up=0000:00:01.0 down=0000:01:00.0 nfn=2 hops=0 support=none bios=L1 capable=none action=force target=none clkpm=- l1ss=none reason=non-pcie-fn",
		"aspm link up=0000:00:02.0 down=0000:02:00.0 nfn=1 hops=0 support=L0s,L1 bios=L1 capable=L0s,L1 action=force target=L0s,L1 clkpm=- l1ss=none reason=-");
	assert_lines(p, "aspm write ",
		"aspm write 0000:02:00.0 off=0x50 width=2 old=0x0002 new=0x0042 step=ccc readback=0x0042 ok",
		"aspm write 0000:00:02.0 off=0x50 width=2 old=0x0002 new=0x0042 step=ccc readback=0x0042 ok",
		"aspm write 0000:00:02.0 off=0x50 width=2 old=0x0042 new=0x0062 step=retrain readback=0x0042 ok",
		"aspm write 0000:01:00.0 off=0x50 width=2 old=0x0002 new=0x0000 step=aspm-down readback=0x0000 ok",
		"aspm write 0000:00:01.0 off=0x50 width=2 old=0x0002 new=0x0000 step=aspm-up readback=0x0000 ok",
		"aspm write 0000:00:02.0 off=0x50 width=2 old=0x0042 new=0x0043 step=aspm-up readback=0x0043 ok",
		"aspm write 0000:02:00.0 off=0x50 width=2 old=0x0042 new=0x0043 step=aspm-down readback=0x0043 ok");
	pfx_free(p);
}

static void test_sanity_keep_clears_l1ss(void **state)
{
	struct pfx *p = sanity_l1ss_platform();

	(void)state;
	assert_int_equal(pfx_run(p, CMD_APPLY, pfx_policy(OVR_KEEP)), 0);
	assert_log_writes(p, 0,
		/* Link Control: downstream, then the port; then L1SS */
		XLC(1, 0, 0, LK_CCC), XLC(0, 1, 0, LK_CCC),
		XSS(1, 0, 0, L1SS_TIMING), XSS(0, 1, 0, L1SS_TIMING),
		XLC(2, 0, 0, LK_CCC), XLC(0, 2, 0, LK_CCC),
		XSS(2, 0, 0, L1SS_TIMING), XSS(0, 2, 0, L1SS_TIMING));
	assert_int_equal(pfx_lnkctl(p, 0, 1, 0), LK_CCC);
	assert_int_equal(pfx_lnkctl(p, 1, 0, 0), LK_CCC);
	assert_int_equal(pfx_lnkctl(p, 0, 2, 0), LK_CCC);
	assert_int_equal(pfx_lnkctl(p, 2, 0, 0), LK_CCC);
	assert_int_equal(pfx_l1ss_ctl1(p, 0, 1, 0), L1SS_TIMING);
	assert_int_equal(pfx_l1ss_ctl1(p, 1, 0, 0), L1SS_TIMING);
	assert_int_equal(pfx_l1ss_ctl1(p, 0, 2, 0), L1SS_TIMING);
	assert_int_equal(pfx_l1ss_ctl1(p, 2, 0, 0), L1SS_TIMING);
	assert_lines(p, "aspm link ",
		"aspm link up=0000:00:01.0 down=0000:01:00.0 nfn=2 hops=0 support=none bios=L1,L1.1,L1.2,L1.1-pcipm,L1.2-pcipm capable=none action=keep target=none clkpm=- l1ss=L1.1,L1.2,L1.1-pcipm,L1.2-pcipm>none reason=non-pcie-fn",
		"aspm link up=0000:00:02.0 down=0000:02:00.0 nfn=1 hops=0 support=none bios=L1,L1.1,L1.2,L1.1-pcipm,L1.2-pcipm capable=none action=keep target=none clkpm=- l1ss=L1.1,L1.2,L1.1-pcipm,L1.2-pcipm>none reason=pre-1.1");
	pfx_free(p);
}

/* bios= is what the registers held, target= what the plan leaves, for
 * both kinds of blacklisted link under every action. */
static void test_sanity_records_every_action(void **state)
{
	static const struct {
		enum aspm_override o;
		const char *l1, *l2;
	} rows[] = {
		/* clear and notouch single out no link, non-PCIe function or
		 * pre-1.1: the kernel series runs pcie_aspm_sanity_check()
		 * only when aspm_os_controls() (found by make difffuzz,
		 * tests/xcheck/found/7529c3292b0de112-clear.txt); the
		 * conventional function counts as an endpoint that accepts
		 * 64 ns of L0s and 1 us of L1 (pci_pcie_type() 0, devcap 0
		 * in pcie_aspm_check_latency()), so nothing is capable
		 * (tests/xcheck/found/5f9f43e4d35cabca-clear.txt) */
		{ OVR_NOTOUCH,
		  "aspm link up=0000:00:01.0 down=0000:01:00.0 nfn=2 hops=0 support=L0s,L1 bios=L1 capable=none action=notouch target=L1 clkpm=- l1ss=none reason=override",
		  "aspm link up=0000:00:02.0 down=0000:02:00.0 nfn=1 hops=0 support=L0s,L1 bios=L1 capable=L0s,L1 action=notouch target=L1 clkpm=- l1ss=none reason=override" },
		{ OVR_KEEP,
		  "aspm link up=0000:00:01.0 down=0000:01:00.0 nfn=2 hops=0 support=none bios=L1 capable=none action=keep target=none clkpm=- l1ss=none reason=non-pcie-fn",
		  "aspm link up=0000:00:02.0 down=0000:02:00.0 nfn=1 hops=0 support=none bios=L1 capable=none action=keep target=none clkpm=- l1ss=none reason=pre-1.1" },
		{ OVR_CLEAR,
		  "aspm link up=0000:00:01.0 down=0000:01:00.0 nfn=2 hops=0 support=L0s,L1 bios=L1 capable=none action=clear target=none clkpm=- l1ss=none reason=override",
		  "aspm link up=0000:00:02.0 down=0000:02:00.0 nfn=1 hops=0 support=L0s,L1 bios=L1 capable=L0s,L1 action=clear target=none clkpm=- l1ss=none reason=override" },
		{ OVR_FORCE,
		  "aspm link up=0000:00:01.0 down=0000:01:00.0 nfn=2 hops=0 support=none bios=L1 capable=none action=force target=none clkpm=- l1ss=none reason=non-pcie-fn",
		  "aspm link up=0000:00:02.0 down=0000:02:00.0 nfn=1 hops=0 support=L0s,L1 bios=L1 capable=L0s,L1 action=force target=L0s,L1 clkpm=- l1ss=none reason=-" },
	};

	(void)state;
	for (unsigned i = 0; i < ARRAY_SIZE(rows); i++) {
		struct pfx *p = sanity_platform();

		assert_int_equal(pfx_run(p, CMD_PLAN, pfx_policy(rows[i].o)), 0);
		assert_no_writes(p);
		assert_lines(p, "aspm link ", rows[i].l1, rows[i].l2);
		pfx_free(p);
	}
}

/* ------------------------------------------------------------ common clock */
/* Common Clock Configuration, retrain, LNKCAP read again */

static void test_keep_common_clock(void **state)
{
	struct pfx *p = ccc_platform();

	(void)state;
	assert_int_equal(pfx_run(p, CMD_APPLY, pfx_policy(OVR_NONE)), 0);
	assert_int_equal(p->run.action, ASPM_KEEP);
	/* pcie_aspm_configure_common_clock(): downstream, upstream, then
	 * Retrain Link on the upstream port; the BIOS ASPM/Clock PM state
	 * is kept, so nothing else */
	assert_log_writes(p, 0,
		XLC(1, 0, 0, LK_L1 | LK_CLKREQ | LK_CCC),
		XLC(0, 1, 0, LK_L1 | LK_CCC),
		XLC(0, 1, 0, LK_L1 | LK_CCC | LK_RL),
		XLC(4, 0, 0, 0),
		XLC(0, 4, 0, 0),
		XLC(0, 4, 0, LK_RL));
	assert_every_write_changes(p);
	assert_int_equal(pfx_lnkctl(p, 0, 1, 0), LK_CCC | LK_L1);	/* RL reads 0 */
	assert_int_equal(pfx_lnkctl(p, 1, 0, 0), LK_CCC | LK_L1 | LK_CLKREQ);
	assert_int_equal(pfx_lnkctl(p, 0, 2, 0), LK_CCC | LK_L0S);
	assert_int_equal(pfx_lnkctl(p, 2, 0, 0), LK_CCC | LK_L0S);
	assert_int_equal(pfx_lnkctl(p, 0, 3, 0), 0);
	assert_int_equal(pfx_lnkctl(p, 3, 0, 0), 0);
	assert_int_equal(pfx_lnkctl(p, 0, 4, 0), 0);
	assert_int_equal(pfx_lnkctl(p, 4, 0, 0), 0);
	assert_int_equal(p->run.st.retrain_timeouts, 0);
	assert_lines(p, "aspm link ",
		"aspm link up=0000:00:01.0 down=0000:01:00.0 nfn=1 hops=0 support=L0s,L1 bios=L1 capable=L0s,L1 action=keep target=L1 clkpm=on l1ss=none reason=bios-off",
		"aspm link up=0000:00:02.0 down=0000:02:00.0 nfn=1 hops=0 support=L0s,L1 bios=L0s capable=L0s,L1 action=keep target=L0s clkpm=off l1ss=none reason=bios-off",
		"aspm link up=0000:00:03.0 down=0000:03:00.0 nfn=1 hops=0 support=L0s,L1 bios=none capable=L0s,L1 action=keep target=none clkpm=off l1ss=none reason=bios-off",
		"aspm link up=0000:00:04.0 down=0000:04:00.0 nfn=1 hops=0 support=L0s,L1 bios=none capable=L0s,L1 action=keep target=none clkpm=off l1ss=none reason=bios-off");
	assert_lines(p, "aspm write ",
		"aspm write 0000:01:00.0 off=0x50 width=2 old=0x0102 new=0x0142 step=ccc readback=0x0142 ok",
		"aspm write 0000:00:01.0 off=0x50 width=2 old=0x0002 new=0x0042 step=ccc readback=0x0042 ok",
		"aspm write 0000:00:01.0 off=0x50 width=2 old=0x0042 new=0x0062 step=retrain readback=0x0042 ok",
		"aspm write 0000:04:00.0 off=0x50 width=2 old=0x0040 new=0x0000 step=ccc readback=0x0000 ok",
		"aspm write 0000:00:04.0 off=0x50 width=2 old=0x0040 new=0x0000 step=ccc readback=0x0000 ok",
		"aspm write 0000:00:04.0 off=0x50 width=2 old=0x0000 new=0x0020 step=retrain readback=0x0000 ok");
	pfx_free(p);
}

/* No Common Clock change and no retrain under clear or notouch. */
static void test_no_common_clock_under_clear_or_notouch(void **state)
{
	struct pfx *p = ccc_platform();

	(void)state;
	assert_int_equal(pfx_run(p, CMD_APPLY, pfx_policy(OVR_CLEAR)), 0);
	assert_log_writes(p, 0,
		XLC(1, 0, 0, LK_CLKREQ), XLC(0, 1, 0, 0), XLC(1, 0, 0, 0),
		XLC(2, 0, 0, LK_CCC), XLC(0, 2, 0, LK_CCC));
	for (unsigned i = 0; i < p->sim->nlog; i++) {
		const struct sem_write *w = &p->sim->log[i];

		assert_int_equal((w->before ^ w->after) & LK_CCC, 0);
		assert_int_equal(w->val & LK_RL, 0);
	}
	assert_int_equal(pfx_lnkctl(p, 0, 4, 0), LK_CCC);	/* left as it was */
	pfx_free(p);

	p = ccc_platform();
	assert_int_equal(pfx_run(p, CMD_APPLY, pfx_policy(OVR_NOTOUCH)), 0);
	assert_no_writes(p);
	pfx_free(p);
}

/* A retrain that never finishes: bounded wait, reported, CCC restored. */
static void test_retrain_timeout_restores_ccc(void **state)
{
	static const struct aspm_env env = { .delay_us = count_delay };
	struct pfx *p = pfx_new();
	struct sim_fn *rp;
	struct aspm_run *r;

	(void)state;
	rp = sim_root_port(p->sim, 0, 1, 0, 1, 1, LC9, LK_L1);
	sim_endpoint(p->sim, 1, 0, 0, DC_ANY, LC9, LK_L1);
	rp->retrain_reads = 100000;
	assert_int_equal(fx_enum(p->fx), 0);

	waited_us = 0;
	r = pfx_prepare(p, CMD_APPLY, pfx_policy(OVR_NONE));
	r->env = &env;
	assert_int_equal(aspm_run(&p->fx->cfg, r, &p->out), 0);
	assert_log_writes(p, 0,
		XLC(1, 0, 0, LK_L1 | LK_CCC),
		XLC(0, 1, 0, LK_L1 | LK_CCC),
		XLC(0, 1, 0, LK_L1 | LK_CCC | LK_RL),
		/* restored as pcie_aspm_configure_common_clock() does: the
		 * functions below first, then the upstream port */
		XLC(1, 0, 0, LK_L1),
		XLC(0, 1, 0, LK_L1));
	assert_int_equal(pfx_lnkctl(p, 0, 1, 0), LK_L1);
	assert_int_equal(pfx_lnkctl(p, 1, 0, 0), LK_L1);
	/* bounded: ASPM_RETRAIN_POLLS reads of Link Status, 1 s in all as
	 * Linux's LINK_RETRAIN_TIMEOUT */
	assert_int_equal(rp->lt_left, 100000 - ASPM_RETRAIN_POLLS);
	assert_int_equal(waited_us, (unsigned long long)ASPM_RETRAIN_POLLS * ASPM_RETRAIN_POLL_US);
	assert_int_equal(waited_us, 1000000);
	assert_int_equal(r->st.retrain_timeouts, 1);
	assert_log_contains("0000:00:01.0: link did not finish retraining; restoring Common Clock Configuration");
	/* a timeout is reported as such, and the restore writes are read
	 * back and reported like any other */
	assert_lines(p, "aspm write ",
		"aspm write 0000:01:00.0 off=0x50 width=2 old=0x0002 new=0x0042 step=ccc readback=0x0042 ok",
		"aspm write 0000:00:01.0 off=0x50 width=2 old=0x0002 new=0x0042 step=ccc readback=0x0042 ok",
		"aspm write 0000:00:01.0 off=0x50 width=2 old=0x0042 new=0x0062 step=retrain readback=0x0042 timeout",
		"aspm write 0000:01:00.0 off=0x50 width=2 old=0x0042 new=0x0002 step=ccc-restore readback=0x0002 ok",
		"aspm write 0000:00:01.0 off=0x50 width=2 old=0x0042 new=0x0002 step=ccc-restore readback=0x0002 ok");
	assert_lines(p, "aspm ccc ",
		"aspm ccc up=0000:00:01.0 down=0000:01:00.0 result=timeout lnkcap=same");
	pfx_free(p);
}

/* Link Training still set before the retrain: as pcie_retrain_link(),
 * no Retrain Link write; Common Clock restored, below first. */
static void test_retrain_busy_before(void **state)
{
	struct pfx *p = pfx_new();
	struct sim_fn *rp;

	(void)state;
	rp = sim_root_port(p->sim, 0, 1, 0, 1, 1, LC9, LK_L1);
	sim_endpoint(p->sim, 1, 0, 0, DC_ANY, LC9, LK_L1);
	assert_int_equal(fx_enum(p->fx), 0);
	rp->lt_left = 100000;	/* training in flight */
	assert_int_equal(pfx_run(p, CMD_APPLY, pfx_policy(OVR_NONE)), 0);
	assert_log_writes(p, 0,
		XLC(1, 0, 0, LK_L1 | LK_CCC), XLC(0, 1, 0, LK_L1 | LK_CCC),
		XLC(1, 0, 0, LK_L1), XLC(0, 1, 0, LK_L1));
	assert_int_equal(pfx_lnkctl(p, 0, 1, 0), LK_L1);
	assert_int_equal(pfx_lnkctl(p, 1, 0, 0), LK_L1);
	assert_int_equal(p->run.st.retrain_timeouts, 1);
	assert_int_equal(p->run.st.written, 4);
	assert_log_contains("0000:00:01.0: link still training before retrain; not retrained, restoring Common Clock Configuration");
	assert_lines(p, "aspm write ",
		"aspm write 0000:01:00.0 off=0x50 width=2 old=0x0002 new=0x0042 step=ccc readback=0x0042 ok",
		"aspm write 0000:00:01.0 off=0x50 width=2 old=0x0002 new=0x0042 step=ccc readback=0x0042 ok",
		"aspm write 0000:00:01.0 off=0x50 width=2 old=0x0042 new=0x0062 step=retrain readback=0x0042 timeout",
		"aspm write 0000:01:00.0 off=0x50 width=2 old=0x0042 new=0x0002 step=ccc-restore readback=0x0002 ok",
		"aspm write 0000:00:01.0 off=0x50 width=2 old=0x0042 new=0x0002 step=ccc-restore readback=0x0002 ok");
	pfx_free(p);
}

static void test_ccc_lnkcap_reread(void **state)
{
	static const struct aspm_env env = { .delay_us = ccc_slows_l1 };
	const uint16_t both = LK_L0S | LK_L1;
	struct pfx *p = ccc_latency_platform();
	struct aspm_run *r;

	(void)state;
	p->fx->cfg.read_only = true;
	r = pfx_prepare(p, CMD_PLAN, pfx_policy(OVR_NONE));
	r->env = &env;
	assert_int_equal(aspm_run(&p->fx->cfg, r, &p->out), 0);
	assert_no_writes(p);
	assert_lines(p, "aspm link ",
		"aspm link up=0000:00:01.0 down=0000:01:00.0 nfn=1 hops=0 support=L0s,L1 bios=L0s,L1 capable=L0s,L1 action=keep target=L0s,L1 clkpm=- l1ss=none reason=-");
	assert_lines(p, "aspm ccc ",
		"aspm ccc up=0000:00:01.0 down=0000:01:00.0 result=pending lnkcap=pre-ccc");
	assert_lines(p, "aspm write ",
		"aspm write 0000:01:00.0 off=0x50 width=2 old=0x0003 new=0x0043 step=ccc readback=- planned",
		"aspm write 0000:00:01.0 off=0x50 width=2 old=0x0003 new=0x0043 step=ccc readback=- planned",
		"aspm write 0000:00:01.0 off=0x50 width=2 old=0x0043 new=0x0063 step=retrain readback=- planned");
	pfx_free(p);

	p = ccc_latency_platform();
	r = pfx_prepare(p, CMD_APPLY, pfx_policy(OVR_NONE));
	r->env = &env;
	assert_int_equal(aspm_run(&p->fx->cfg, r, &p->out), 0);
	assert_log_writes(p, 0,
		XLC(1, 0, 0, both | LK_CCC), XLC(0, 1, 0, both | LK_CCC),
		XLC(0, 1, 0, both | LK_CCC | LK_RL),
		/* 8 us > 2 us: L1 off, the endpoint first */
		XLC(1, 0, 0, LK_L0S | LK_CCC), XLC(0, 1, 0, LK_L0S | LK_CCC));
	assert_int_equal(pfx_lnkctl(p, 0, 1, 0), LK_L0S | LK_CCC);
	assert_int_equal(pfx_lnkctl(p, 1, 0, 0), LK_L0S | LK_CCC);
	assert_int_equal(r->lnkcap_changed, 1);
	assert_lines(p, "aspm link ",
		"aspm link up=0000:00:01.0 down=0000:01:00.0 nfn=1 hops=0 support=L0s,L1 bios=L0s,L1 capable=L0s action=keep target=L0s clkpm=- l1ss=none reason=l1-latency");
	assert_lines(p, "aspm ccc ",
		"aspm ccc up=0000:00:01.0 down=0000:01:00.0 result=done lnkcap=changed");
	assert_lines(p, "aspm target ",
		"aspm target fn=0000:00:01.0 up=0000:00:01.0 end=up lnkctl=0x0041 l1ss=-",
		"aspm target fn=0000:01:00.0 up=0000:00:01.0 end=down lnkctl=0x0041 l1ss=-");
	pfx_free(p);
}

/* ------------------------------------------------------------ clock PM */
/* CLKREQ# enable */

static void test_clkpm_mixed_capability_force(void **state)
{
	struct pfx *p = clkpm_platform(0);
	const uint16_t on = LK_CCC | LK_L0S | LK_L1;

	(void)state;
	assert_int_equal(pfx_run(p, CMD_APPLY, pfx_policy(OVR_FORCE)), 0);
	assert_log_writes(p, 0,
		XLC(0, 1, 0, on), XLC(1, 0, 0, on), XLC(1, 0, 1, on),
		/* no CLKREQ#: 01:00.1 is not Clock PM capable */
		XLC(0, 2, 0, on), XLC(2, 0, 0, on), XLC(2, 0, 1, on),
		/* every function capable: CLKREQ# on all of them */
		XLC(2, 0, 0, on | LK_CLKREQ), XLC(2, 0, 1, on | LK_CLKREQ));
	assert_int_equal(pfx_lnkctl(p, 1, 0, 0), on);
	assert_int_equal(pfx_lnkctl(p, 1, 0, 1), on);
	assert_int_equal(pfx_lnkctl(p, 2, 0, 0), on | LK_CLKREQ);
	assert_int_equal(pfx_lnkctl(p, 2, 0, 1), on | LK_CLKREQ);
	assert_int_equal(pfx_lnkctl(p, 0, 2, 0), on);	/* not on the port */
	assert_lines(p, "aspm link ",
		"aspm link up=0000:00:01.0 down=0000:01:00.0 nfn=2 hops=0 support=L0s,L1 bios=none capable=L0s,L1 action=force target=L0s,L1 clkpm=- l1ss=none reason=-",
		"aspm link up=0000:00:02.0 down=0000:02:00.0 nfn=2 hops=0 support=L0s,L1 bios=none capable=L0s,L1 action=force target=L0s,L1 clkpm=off>on l1ss=none reason=-");
	pfx_free(p);
}

/* keep: Clock PM stays as the BIOS left it where the link is capable */
static void test_clkpm_keep_stays(void **state)
{
	struct pfx *p = clkpm_platform(LK_CLKREQ);

	(void)state;
	assert_int_equal(pfx_run(p, CMD_APPLY, pfx_policy(OVR_KEEP)), 0);
	assert_no_writes(p);
	assert_record(p, "aspm link up=0000:00:02.0 down=0000:02:00.0 nfn=2 hops=0 support=L0s,L1 bios=none capable=L0s,L1 action=keep target=none clkpm=on l1ss=none reason=bios-off");
	pfx_free(p);
}

/* ------------------------------------------------------------ L1SS */
/* L1 PM Substates and the LTR path */

/*
 * ASPM L1.2 needs LTR (aspm_l1ss_init(): no LTR on the path, no ASPM
 * L1.2): the BIOS turned L1.1 + L1.2 on at both ends of a link whose
 * endpoint has no LTR capability. keep = bios & capable drops L1.2; the
 * substate changes while L1 is off at both ends.
 */
static void test_l1_2_needs_ltr(void **state)
{
	const uint32_t both = PCI_L1SS_CTL1_ASPM_L1_1 | PCI_L1SS_CTL1_ASPM_L1_2;
	struct pfx *p = pfx_new();
	struct sim *s = p->sim;
	struct sim_fn *x;

	(void)state;
	x = sim_root_port(s, 0, 1, 0, 1, 1, LC5, LK_CCC | LK_L1);
	sim_add_l1ss(x, L1SS_CAP_ALL, L1SS_TIMING | both);
	x = sim_endpoint(s, 1, 0, 0, DC_ANY, LC5, LK_CCC | LK_L1);
	sim_add_l1ss(x, L1SS_CAP_ALL, L1SS_TIMING | both);	/* no LTR */
	assert_int_equal(fx_enum(p->fx), 0);
	assert_int_equal(pfx_run(p, CMD_APPLY, pfx_policy(OVR_NONE)), 0);
	assert_log_writes(p, 0,
		XLC(1, 0, 0, LK_CCC), XLC(0, 1, 0, LK_CCC),	/* L1 off */
		XSS(1, 0, 0, L1SS_TIMING | PCI_L1SS_CTL1_ASPM_L1_1),	/* child first */
		XSS(0, 1, 0, L1SS_TIMING | PCI_L1SS_CTL1_ASPM_L1_1),
		XLC(0, 1, 0, LK_CCC | LK_L1), XLC(1, 0, 0, LK_CCC | LK_L1));
	assert_lines(p, "aspm link ",
		"aspm link up=0000:00:01.0 down=0000:01:00.0 nfn=1 hops=0 support=L0s,L1,L1.1,L1.1-pcipm,L1.2-pcipm bios=L1,L1.1,L1.2 capable=L0s,L1,L1.1,L1.1-pcipm,L1.2-pcipm action=keep target=L1,L1.1 clkpm=- l1ss=L1.1,L1.2>L1.1 reason=bios-off,l1ss-bios-off");
	assert_int_equal(pfx_l1ss_ctl1(p, 0, 1, 0), L1SS_TIMING | PCI_L1SS_CTL1_ASPM_L1_1);
	assert_int_equal(pfx_l1ss_ctl1(p, 1, 0, 0), L1SS_TIMING | PCI_L1SS_CTL1_ASPM_L1_1);
	pfx_free(p);
}

/*
 * The LTR path (pci_configure_ltr(), PCIe r5.0 sec 6.18): ASPM L1.2 only
 * when the downstream function and every bridge above it up to the Root
 * Port advertise LTR Mechanism Supported in Device Capabilities 2. The
 * link 02:00.0-03:00.0 below a switch offers every substate at both ends;
 * which function of RP / USP / DSP / EP lacks LTR decides L1.2.
 */
static void test_l1_2_ltr_path(void **state)
{
	const char *who[] = { "none", "rp", "usp", "dsp", "ep" };

	(void)state;
	for (unsigned miss = 0; miss < ARRAY_SIZE(who); miss++) {
		struct pfx *p = pfx_new();
		struct sim_fn *x[4];
		struct pcie_link *l;

		x[0] = sim_root_port(p->sim, 0, 1, 0, 1, 3, LC5, LK_CCC);
		x[1] = sim_switch_up(p->sim, 1, 2, 3, LC5, LK_CCC);
		x[2] = sim_switch_down(p->sim, 2, 0, 3, 3, LC5, LK_CCC);
		x[3] = sim_endpoint(p->sim, 3, 0, 0, DC_ANY, LC5, LK_CCC);
		sim_add_l1ss(x[2], L1SS_CAP_ALL, 0);
		sim_add_l1ss(x[3], L1SS_CAP_ALL, 0);
		for (unsigned k = 0; k < 4; k++)
			if (k + 1 != miss)
				sim_set_ltr_mech(x[k]);
		assert_int_equal(fx_enum(p->fx), 0);
		assert_int_equal(pfx_run(p, CMD_PLAN, pfx_policy(OVR_NONE)), 0);
		l = fx_link(p->fx, 2, 0, 0);
		assert_non_null(l);
		if (miss == 0)
			assert_true(l->aspm_support & ASPM_STATE_L1_2);
		else if (l->aspm_support & ASPM_STATE_L1_2)
			fail_msg("L1.2 allowed although %s lacks LTR", who[miss]);
		assert_true(l->aspm_support & ASPM_STATE_L1_1);
		/* the record says it too */
		assert_lines(p, "aspm link up=0000:02:00.0",
			     miss ? "aspm link up=0000:02:00.0 down=0000:03:00.0 nfn=1 hops=1 support=L0s,L1,L1.1,L1.1-pcipm,L1.2-pcipm bios=none capable=L0s,L1,L1.1,L1.1-pcipm,L1.2-pcipm action=keep target=none clkpm=- l1ss=none reason=bios-off"
				  : "aspm link up=0000:02:00.0 down=0000:03:00.0 nfn=1 hops=1 support=L0s,L1,L1.1,L1.2,L1.1-pcipm,L1.2-pcipm bios=none capable=L0s,L1,L1.1,L1.2,L1.1-pcipm,L1.2-pcipm action=keep target=none clkpm=- l1ss=none reason=bios-off");
		pfx_free(p);
	}
}

/* Without any L1.2-capable function, Device Capabilities 2 is never read
 * for the LTR path (the bench's minimum counts on it). */
static void test_ltr_path_reads_only_for_l1_2(void **state)
{
	struct fx *f = fx_new();

	(void)state;
	sim_root_port(f->sim, 0, 1, 0, 1, 1, LC5, LK_CCC);
	sim_add_l1ss(sim_endpoint(f->sim, 1, 0, 0, DC_ANY, LC5, LK_CCC),
		     PCI_L1SS_CAP_L1_PM_SS | PCI_L1SS_CAP_ASPM_L1_1, 0);
	assert_int_equal(fx_enum(f), 0);
	for (unsigned i = 0; i < f->topo.nfn; i++)
		assert_false(f->topo.fn[i].flags & FN_LTR_READ);
	fx_free(f);
}

/*
 * force on the FADT platform (Common Clock clear on the 00:1c.1 link):
 * the full write sequence, including L1 PM Substates that the BIOS had on
 * and force turns off (powersave never enables them): L1 off at both
 * ends first, then the substates, then L1 (and L0s) back on, upstream
 * port first.
 */
static void test_force_turns_l1ss_off_with_l1_off(void **state)
{
	struct pfx *p = fadt_platform(0);
	const uint16_t on = LK_CCC | LK_L0S | LK_L1;

	(void)state;
	assert_int_equal(pfx_run(p, CMD_APPLY, pfx_policy(OVR_FORCE)), 0);
	assert_log_writes(p, 0,
		/* Common Clock on the 00:1c.1 link, then retrain */
		XLC(2, 0, 0, LK_CCC | LK_L1),
		XLC(0, 0x1c, 1, LK_CCC | LK_L1),
		XLC(0, 0x1c, 1, LK_CCC | LK_L1 | LK_RL),
		/* 00:1c.0 link */
		XLC(1, 0, 0, LK_CCC | LK_CLKREQ),	/* L1 off, downstream first */
		XLC(0, 0x1c, 0, LK_CCC),
		XSS(1, 0, 0, L1SS_TIMING),		/* substates off */
		XSS(0, 0x1c, 0, L1SS_TIMING),
		XLC(0, 0x1c, 0, on),			/* L0s + L1, upstream first */
		XLC(1, 0, 0, on | LK_CLKREQ),
		/* 00:1c.1 link */
		XLC(0, 0x1c, 1, on),
		XLC(2, 0, 0, on),
		XLC(2, 0, 0, on | LK_CLKREQ),
		/* 03:00.0 link: already L0s + L1 + Clock PM: nothing;
		 * 00:1c.2 link */
		XLC(0, 0x1c, 2, on),
		XLC(5, 0, 0, on),
		XLC(5, 0, 0, on | LK_CLKREQ));
	assert_int_equal(pfx_l1ss_ctl1(p, 0, 0x1c, 0), L1SS_TIMING);
	assert_int_equal(pfx_l1ss_ctl1(p, 1, 0, 0), L1SS_TIMING);
	assert_record(p, "aspm link up=0000:00:1c.0 down=0000:01:00.0 nfn=1 hops=0 support=L0s,L1,L1.1,L1.2,L1.1-pcipm,L1.2-pcipm bios=L1,L1.1,L1.2,L1.1-pcipm,L1.2-pcipm capable=L0s,L1,L1.1,L1.2,L1.1-pcipm,L1.2-pcipm action=force target=L0s,L1 clkpm=on l1ss=L1.1,L1.2,L1.1-pcipm,L1.2-pcipm>none reason=l1ss-not-forced");
	/* the upstream port's write is named for the upstream port, like
	 * every other write to it */
	assert_record(p, "aspm write 0000:00:1c.0 off=0x50 width=2 old=0x0042 new=0x0040 step=aspm-up readback=0x0040 ok");
	pfx_free(p);
}

/*
 * PCI-PM L1 Substates at link init (found by make difffuzz, class F in
 * docs/difffuzz.md; tests/xcheck/found/c291bab539597be9-keep.txt): Linux's
 * pcie_config_aspm_link() keeps them as enabled while either end's power
 * state is not D0, and at link init it is PCI_UNKNOWN. Under keep and
 * performance nothing configures the link again, so the BIOS's PCI-PM
 * substates stay where the ASPM ones go with L1; force (powersave, which
 * configures the link once the device is enabled) clears them.
 * (sim_platform_pcipm(): L1 off, all four substates on at both ends)
 */
static struct pfx *pcipm_platform(void)
{
	return pfx_platform(sim_platform_pcipm, 1);
}

static void test_pcipm_substates_stay_at_link_init(void **state)
{
	static const struct {
		enum aspm_override o;
		uint32_t ctl1;
		const char *rec;
	} rows[] = {
		{ OVR_KEEP, PCI_L1SS_CTL1_PCIPM_L1_1 | PCI_L1SS_CTL1_PCIPM_L1_2,
		  "aspm link up=0000:00:01.0 down=0000:01:00.0 nfn=1 hops=0 support=L0s,L1,L1.1,L1.1-pcipm,L1.2-pcipm bios=L1.1,L1.2,L1.1-pcipm,L1.2-pcipm capable=L0s,L1,L1.1,L1.1-pcipm,L1.2-pcipm action=keep target=L1.1-pcipm,L1.2-pcipm clkpm=- l1ss=L1.1,L1.2,L1.1-pcipm,L1.2-pcipm>L1.1-pcipm,L1.2-pcipm reason=bios-off" },
		{ OVR_PERFORMANCE, PCI_L1SS_CTL1_PCIPM_L1_1 | PCI_L1SS_CTL1_PCIPM_L1_2,
		  "aspm link up=0000:00:01.0 down=0000:01:00.0 nfn=1 hops=0 support=L0s,L1,L1.1,L1.1-pcipm,L1.2-pcipm bios=L1.1,L1.2,L1.1-pcipm,L1.2-pcipm capable=L0s,L1,L1.1,L1.1-pcipm,L1.2-pcipm action=performance target=L1.1-pcipm,L1.2-pcipm clkpm=- l1ss=L1.1,L1.2,L1.1-pcipm,L1.2-pcipm>L1.1-pcipm,L1.2-pcipm reason=override" },
		{ OVR_FORCE, 0,
		  "aspm link up=0000:00:01.0 down=0000:01:00.0 nfn=1 hops=0 support=L0s,L1,L1.1,L1.1-pcipm,L1.2-pcipm bios=L1.1,L1.2,L1.1-pcipm,L1.2-pcipm capable=L0s,L1,L1.1,L1.1-pcipm,L1.2-pcipm action=force target=L0s,L1 clkpm=- l1ss=L1.1,L1.2,L1.1-pcipm,L1.2-pcipm>none reason=l1ss-not-forced" },
	};

	(void)state;
	for (unsigned i = 0; i < ARRAY_SIZE(rows); i++) {
		struct pfx *p = pcipm_platform();

		assert_int_equal(pfx_run(p, CMD_APPLY, pfx_policy(rows[i].o)), 0);
		assert_int_equal(pfx_l1ss_ctl1(p, 0, 1, 0), L1SS_TIMING | rows[i].ctl1);
		assert_int_equal(pfx_l1ss_ctl1(p, 1, 0, 0), L1SS_TIMING | rows[i].ctl1);
		assert_record(p, rows[i].rec);
		pfx_free(p);
	}
}

/*
 * L1 PM Substates enabled differently at the two ends (found by make
 * difffuzz, class G of docs/difffuzz.md; tests/xcheck/found/
 * 1197a18aa891c114-force.txt): force leaves ASPM as it is and turns each
 * end's substates off, function by function, where Linux, whose link
 * state holds only the enables both ends have, writes nothing (the
 * documented divergence force-aggregate, scenario l1ss-split-force).
 */
static void test_force_clears_split_l1ss(void **state)
{
	struct pfx *p = pfx_new();

	(void)state;
	sim_platform_l1ss_split(p->sim, PCI_L1SS_CTL1_ASPM_L1_1,
				PCI_L1SS_CTL1_PCIPM_L1_1);
	assert_int_equal(fx_enum(p->fx), 0);
	assert_int_equal(pfx_run(p, CMD_APPLY, pfx_policy(OVR_FORCE)), 0);
	assert_log_writes(p, 0,
		XLC(1, 0, 0, LK_CCC | LK_L0S),		/* L1 off first */
		XLC(0, 1, 0, LK_CCC | LK_L0S),
		XSS(1, 0, 0, L1SS_TIMING),
		XSS(0, 1, 0, L1SS_TIMING),
		XLC(0, 1, 0, LK_CCC | LK_L0S | LK_L1),
		XLC(1, 0, 0, LK_CCC | LK_L0S | LK_L1));
	assert_int_equal(pfx_lnkctl(p, 0, 1, 0), LK_CCC | LK_L0S | LK_L1);
	assert_int_equal(pfx_lnkctl(p, 1, 0, 0), LK_CCC | LK_L0S | LK_L1);
	assert_record(p, "aspm link up=0000:00:01.0 down=0000:01:00.0 nfn=1 hops=0 support=L0s,L1,L1.1,L1.1-pcipm bios=L0s,L1 capable=L0s,L1,L1.1,L1.1-pcipm action=force target=L0s,L1 clkpm=- l1ss=none reason=l1ss-not-forced");
	pfx_free(p);
}

/*
 * L1 set by the BIOS on one end of a link whose latencies rule it out
 * (found by make difffuzz, rule supersave-aggregate, make xcheck
 * l1-one-end-supersave): every enabling policy clears the stray bit, where
 * Linux, whose link state has L1 only when both ends have it, writes
 * nothing.
 */
static void test_stray_l1_cleared(void **state)
{
	static const enum aspm_override o[] = { OVR_FORCE, OVR_SUPERSAVE };

	(void)state;
	for (unsigned i = 0; i < ARRAY_SIZE(o); i++) {
		struct pfx *p = pfx_new();

		sim_platform_l1_one_end(p->sim);
		assert_int_equal(fx_enum(p->fx), 0);
		assert_int_equal(pfx_run(p, CMD_APPLY, pfx_policy(o[i])), 0);
		assert_log_writes(p, 0, XLC(1, 0, 0, LK_CCC));
		assert_int_equal(pfx_lnkctl(p, 0, 1, 0), LK_CCC);
		pfx_free(p);
	}
}

/*
 * force on a multi-function device whose two functions both carry the L1
 * PM Substates capability (out of spec: PCIe r5.0 7.8.3 allows it in
 * function 0 only), BIOS substates on: as pcie_config_aspm_l1ss(), only
 * function 0 and the port get L1SS writes; "clear" clears them all.
 */
static void test_l1ss_function0_only(void **state)
{
	const uint16_t on = LK_CCC | LK_L0S | LK_L1 | LK_CLKREQ;
	struct pfx *p;

	(void)state;
	for (int clear = 0; clear < 2; clear++) {
		p = pfx_new();
		sim_platform_l1ss_mf(p->sim);
		assert_int_equal(fx_enum(p->fx), 0);
		if (!clear) {
			assert_int_equal(pfx_run(p, CMD_APPLY, pfx_policy(OVR_FORCE)), 0);
			assert_log_writes(p, 0,
				XLC(1, 0, 0, LK_CCC | LK_CLKREQ),	/* L1 off */
				XLC(1, 0, 1, LK_CCC | LK_CLKREQ),
				XLC(0, 1, 0, LK_CCC),
				XSS(1, 0, 0, L1SS_TIMING),		/* function 0 */
				XSS(0, 1, 0, L1SS_TIMING),
				XLC(0, 1, 0, LK_CCC | LK_L0S | LK_L1),
				XLC(1, 0, 0, on), XLC(1, 0, 1, on));
			assert_int_equal(pfx_l1ss_ctl1(p, 1, 0, 1), L1SS_TIMING | L1SS_ON);
		} else {
			assert_int_equal(pfx_run(p, CMD_APPLY, pfx_policy(OVR_CLEAR)), 0);
			assert_log_writes(p, 0,
				XLC(1, 0, 0, LK_CCC | LK_CLKREQ),
				XLC(1, 0, 1, LK_CCC | LK_CLKREQ),
				XLC(0, 1, 0, LK_CCC),
				XSS(1, 0, 0, L1SS_TIMING),
				XSS(1, 0, 1, L1SS_TIMING),		/* every function */
				XSS(0, 1, 0, L1SS_TIMING),
				XLC(1, 0, 0, LK_CCC), XLC(1, 0, 1, LK_CCC));
		}
		pfx_free(p);
	}
}

/* ------------------------------------------------------------ write order */
/* Linux's link-by-link order under keep */

/* Order across links under keep (a): Linux initialises the pre-1.1 root
 * link (ASPM off) before it configures the Common Clock of the link
 * below. */
static void test_keep_order_pre11_then_ccc(void **state)
{
	struct pfx *p = pfx_new();

	(void)state;
	sim_platform_pre11_ccc(p->sim);
	assert_int_equal(fx_enum(p->fx), 0);
	assert_int_equal(pfx_run(p, CMD_APPLY, pfx_policy(OVR_NONE)), 0);
	assert_log_writes(p, 0,
		/* link 00:01.0: blacklisted, ASPM off, downstream first */
		XLC(1, 0, 0, LK_CCC), XLC(0, 1, 0, LK_CCC),
		/* link 02:00.0: Common Clock, downstream first, retrain */
		XLC(3, 0, 0, LK_CCC), XLC(2, 0, 0, LK_CCC), XLC(2, 0, 0, LK_CCC | LK_RL));
	assert_int_equal(pfx_lnkctl(p, 0, 1, 0), LK_CCC);
	assert_int_equal(pfx_lnkctl(p, 1, 0, 0), LK_CCC);
	assert_int_equal(pfx_lnkctl(p, 2, 0, 0), LK_CCC);
	assert_int_equal(pfx_lnkctl(p, 3, 0, 0), LK_CCC);
	pfx_free(p);
}

/* Order across links under keep (b): the deep endpoint's latency limit
 * reaches the middle link and the root link when its own link is
 * initialised; pcie_config_aspm_path() walks upwards: middle first. */
static void test_keep_order_path_upward(void **state)
{
	struct pfx *p = pfx_new();

	(void)state;
	sim_platform_chain_keep(p->sim);
	assert_int_equal(fx_enum(p->fx), 0);
	assert_int_equal(pfx_run(p, CMD_APPLY, pfx_policy(OVR_NONE)), 0);
	assert_log_writes(p, 0,
		XLC(3, 0, 0, LK_CCC), XLC(2, 0, 0, LK_CCC),
		XLC(1, 0, 0, LK_CCC), XLC(0, 1, 0, LK_CCC));
	assert_int_equal(pfx_lnkctl(p, 0, 1, 0), LK_CCC);
	assert_int_equal(pfx_lnkctl(p, 1, 0, 0), LK_CCC);
	assert_int_equal(pfx_lnkctl(p, 2, 0, 0), LK_CCC);
	assert_int_equal(pfx_lnkctl(p, 3, 0, 0), LK_CCC);
	assert_int_equal(pfx_lnkctl(p, 4, 0, 0), LK_CCC | LK_L1);
	assert_int_equal(pfx_lnkctl(p, 5, 0, 0), LK_CCC | LK_L1);
	assert_lines(p, "aspm link ",
		"aspm link up=0000:00:01.0 down=0000:01:00.0 nfn=1 hops=0 support=L1 bios=L1 capable=none action=keep target=none clkpm=- l1ss=none reason=not-supported,l1-latency",
		"aspm link up=0000:02:00.0 down=0000:03:00.0 nfn=1 hops=1 support=L1 bios=L1 capable=none action=keep target=none clkpm=- l1ss=none reason=not-supported,l1-latency",
		"aspm link up=0000:04:00.0 down=0000:05:00.0 nfn=1 hops=2 support=L1 bios=L1 capable=L1 action=keep target=L1 clkpm=- l1ss=none reason=not-supported");
	pfx_free(p);
}

/* ------------------------------------------------------------ teardown */
/* hot removal, as pcie_aspm_exit_link_state() */

static void test_teardown_frees_upstream_l1(void **state)
{
	struct pfx *p = teardown_platform(0);
	const uint16_t on = LK_CCC | LK_L1;

	(void)state;
	assert_int_equal(pfx_remove(p, pfx_policy(OVR_FORCE), A(3, 0, 0), true), 0);
	assert_log_writes(p, 0,
		/* the state force reaches first: no L1 on the root link */
		XLC(2, 0, 0, on), XLC(3, 0, 0, on),
		XLC(2, 1, 0, on), XLC(4, 0, 0, on),
		/* teardown of 03:00.0: it is already off its bus
		 * (pci_destroy_dev()), so only its upstream port is written */
		XLC(2, 0, 0, LK_CCC),
		/* latencies rechecked without EP_A; the parent path gets L1,
		 * upstream port first */
		XLC(0, 1, 0, on), XLC(1, 0, 0, on));
	assert_int_equal(pfx_lnkctl(p, 0, 1, 0), on);
	assert_int_equal(pfx_lnkctl(p, 1, 0, 0), on);
	assert_int_equal(pfx_lnkctl(p, 2, 0, 0), LK_CCC);
	assert_int_equal(pfx_lnkctl(p, 3, 0, 0), on);	/* gone: not written */
	assert_int_equal(pfx_lnkctl(p, 2, 1, 0), on);
	assert_int_equal(pfx_lnkctl(p, 4, 0, 0), on);
	assert_int_equal(p->run.st.written, 7);
	assert_lines(p, "aspm link ",
		"aspm link up=0000:00:01.0 down=0000:01:00.0 nfn=1 hops=0 support=L1 bios=none capable=none action=force target=none clkpm=- l1ss=none reason=not-supported,l1-latency",
		"aspm link up=0000:02:00.0 down=0000:03:00.0 nfn=1 hops=1 support=L1 bios=none capable=L1 action=force target=L1 clkpm=- l1ss=none reason=not-supported",
		"aspm link up=0000:02:01.0 down=0000:04:00.0 nfn=1 hops=1 support=L1 bios=none capable=L1 action=force target=L1 clkpm=- l1ss=none reason=not-supported");
	assert_lines(p, "aspm teardown ",
		"aspm teardown dev=0000:03:00.0 link-up=0000:02:00.0 action=force dropped=1 written=3 reconfigured=0000:00:01.0");
	/* every write made is reported, the state reached first included */
	assert_lines(p, "aspm write ",
		"aspm write 0000:02:00.0 off=0x50 width=2 old=0x0040 new=0x0042 step=aspm-up readback=0x0042 ok",
		"aspm write 0000:03:00.0 off=0x50 width=2 old=0x0040 new=0x0042 step=aspm-down readback=0x0042 ok",
		"aspm write 0000:02:01.0 off=0x50 width=2 old=0x0040 new=0x0042 step=aspm-up readback=0x0042 ok",
		"aspm write 0000:04:00.0 off=0x50 width=2 old=0x0040 new=0x0042 step=aspm-down readback=0x0042 ok",
		"aspm write 0000:02:00.0 off=0x50 width=2 old=0x0042 new=0x0040 step=teardown readback=0x0040 ok",
		"aspm write 0000:00:01.0 off=0x50 width=2 old=0x0040 new=0x0042 step=aspm-up readback=0x0042 ok",
		"aspm write 0000:01:00.0 off=0x50 width=2 old=0x0040 new=0x0042 step=aspm-down readback=0x0042 ok");
	pfx_free(p);
}

/* Removing EP_B instead changes nothing upstream: EP_A still limits the
 * root link. */
static void test_teardown_other_endpoint_keeps_limit(void **state)
{
	struct pfx *p = teardown_platform(0);
	const uint16_t on = LK_CCC | LK_L1;

	(void)state;
	assert_int_equal(pfx_remove(p, pfx_policy(OVR_FORCE), A(4, 0, 0), true), 0);
	assert_log_writes(p, 0,
		XLC(2, 0, 0, on), XLC(3, 0, 0, on),
		XLC(2, 1, 0, on), XLC(4, 0, 0, on),
		XLC(2, 1, 0, LK_CCC));
	assert_int_equal(pfx_lnkctl(p, 0, 1, 0), LK_CCC);
	assert_lines(p, "aspm teardown ",
		"aspm teardown dev=0000:04:00.0 link-up=0000:02:01.0 action=force dropped=1 written=1 reconfigured=0000:00:01.0");
	pfx_free(p);
}

/* Removing the switch: pci_remove_bus_device() destroys the children
 * depth first in bus-list order, the switch last (Linux 6.1 remove.c). */
static void test_teardown_switch_order(void **state)
{
	struct pfx *p = teardown_platform(0);

	const uint16_t on = LK_CCC | LK_L1;

	(void)state;
	assert_int_equal(pfx_remove(p, pfx_policy(OVR_FORCE), A(1, 0, 0), true), 0);
	assert_log_writes(p, 0,
		XLC(2, 0, 0, on), XLC(3, 0, 0, on), XLC(2, 1, 0, on), XLC(4, 0, 0, on),
		/* 03:00.0: its port off, the root link takes L1 */
		XLC(2, 0, 0, LK_CCC), XLC(0, 1, 0, on), XLC(1, 0, 0, on),
		/* 04:00.0: its port off; the root link keeps L1 */
		XLC(2, 1, 0, LK_CCC),
		/* the switch: only the Root Port is left on its link */
		XLC(0, 1, 0, LK_CCC));
	assert_int_equal(pfx_lnkctl(p, 0, 1, 0), LK_CCC);
	assert_int_equal(pfx_lnkctl(p, 1, 0, 0), on);
	assert_int_equal(pfx_lnkctl(p, 2, 0, 0), LK_CCC);
	assert_int_equal(pfx_lnkctl(p, 3, 0, 0), on);
	assert_int_equal(pfx_lnkctl(p, 2, 1, 0), LK_CCC);
	assert_int_equal(pfx_lnkctl(p, 4, 0, 0), on);
	assert_lines(p, "aspm teardown ",
		/* EP_A gone: its port off, and the root link may take L1 */
		"aspm teardown dev=0000:03:00.0 link-up=0000:02:00.0 action=force dropped=1 written=3 reconfigured=0000:00:01.0",
		"aspm teardown dev=0000:04:00.0 link-up=0000:02:01.0 action=force dropped=1 written=1 reconfigured=0000:00:01.0",
		/* the switch last: only the Root Port is left on that link */
		"aspm teardown dev=0000:01:00.0 link-up=0000:00:01.0 action=force dropped=1 written=1 reconfigured=-");
	pfx_free(p);
}

static void test_teardown_function1_first(void **state)
{
	struct pfx *p = mf_platform();
	const uint16_t on = LK_CCC | LK_L1;

	(void)state;
	/* function 1 goes first: the link stays, nothing is written */
	assert_int_equal(pfx_remove(p, pfx_policy(OVR_FORCE), A(1, 0, 1), true), 0);
	assert_log_writes(p, 0, XLC(0, 1, 0, on), XLC(1, 0, 0, on), XLC(1, 0, 1, on));
	assert_int_equal(p->run.plan.n, 3);	/* nothing planned by the removal */
	assert_lines(p, "aspm teardown ",
		"aspm teardown dev=0000:01:00.1 link-up=0000:00:01.0 action=force dropped=0 written=0 reconfigured=- note=not-function-0");
	assert_false(p->fx->topo.link[0].removed);

	/* then function 0: the link goes; nothing is left on the bus but
	 * the upstream port */
	assert_int_equal(pfx_remove(p, pfx_policy(OVR_FORCE), A(1, 0, 0), true), 0);
	assert_log_writes(p, 0, XLC(0, 1, 0, on), XLC(1, 0, 0, on), XLC(1, 0, 1, on),
			  XLC(0, 1, 0, LK_CCC));
	assert_true(p->fx->topo.link[0].removed);
	assert_lines(p, "aspm teardown ",
		"aspm teardown dev=0000:01:00.0 link-up=0000:00:01.0 action=force dropped=1 written=1 reconfigured=-");
	pfx_free(p);
}

static void test_teardown_function0_first(void **state)
{
	struct pfx *p = mf_platform();
	const uint16_t on = LK_CCC | LK_L1;

	(void)state;
	/* function 0 goes while function 1 is still there: function 1,
	 * then the port (pcie_config_aspm_link(link, 0)); function 0 is
	 * already off the bus */
	assert_int_equal(pfx_remove(p, pfx_policy(OVR_FORCE), A(1, 0, 0), true), 0);
	assert_log_writes(p, 0, XLC(0, 1, 0, on), XLC(1, 0, 0, on), XLC(1, 0, 1, on),
			  XLC(1, 0, 1, LK_CCC), XLC(0, 1, 0, LK_CCC));
	/* function 1 afterwards: the link is already gone */
	assert_int_equal(pfx_lnkctl(p, 0, 1, 0), LK_CCC);
	assert_int_equal(pfx_lnkctl(p, 1, 0, 0), on);	/* gone: not written */
	assert_int_equal(pfx_lnkctl(p, 1, 0, 1), LK_CCC);
	assert_int_equal(aspm_plan_remove(&p->fx->topo, ASPM_FORCE,
					  pcie_find_fn(&p->fx->topo, A(1, 0, 1)),
					  &p->run.plan, NULL), 0);
	assert_int_equal(p->run.plan.n, 5);
	assert_int_equal(p->sim->nlog, 5);
	pfx_free(p);
}

static void test_teardown_notouch(void **state)
{
	struct aspm_inputs ins[] = {
		pfx_policy(OVR_NOTOUCH),
		pfx_in(true, true, OVR_NONE, FADT_MODE_NOTOUCH),
	};

	(void)state;
	for (unsigned i = 0; i < ARRAY_SIZE(ins); i++) {
		/* BIOS L1 on the link that goes: Linux 6.1 would disable it */
		struct pfx *p = teardown_platform(LK_L1);

		assert_int_equal(pfx_remove(p, ins[i], A(3, 0, 0), true), 0);
		assert_no_writes(p);
		assert_int_equal(p->run.plan.n, 0);
		assert_int_equal(pfx_lnkctl(p, 3, 0, 0), LK_CCC | LK_L1);
		assert_lines(p, "aspm teardown ",
			"aspm teardown dev=0000:03:00.0 link-up=0000:02:00.0 action=notouch dropped=1 written=0 reconfigured=-");
		assert_no_lines(p, "aspm write ");
		pfx_free(p);
	}
}

/* Removal predicted without --apply: planned, not written. */
static void test_teardown_predict(void **state)
{
	struct pfx *p = teardown_platform(0);

	(void)state;
	p->fx->cfg.read_only = true;
	assert_int_equal(pfx_remove(p, pfx_policy(OVR_FORCE), A(3, 0, 0), false), 0);
	assert_no_writes(p);
	assert_int_equal(p->fx->cfg.refused_writes, 0);
	assert_lines(p, "aspm teardown ",
		"aspm teardown dev=0000:03:00.0 link-up=0000:02:00.0 action=force dropped=1 written=3 reconfigured=0000:00:01.0");
	assert_lines(p, "aspm write ",
		"aspm write 0000:02:00.0 off=0x50 width=2 old=0x0042 new=0x0040 step=teardown readback=- planned",
		"aspm write 0000:00:01.0 off=0x50 width=2 old=0x0040 new=0x0042 step=aspm-up readback=- planned",
		"aspm write 0000:01:00.0 off=0x50 width=2 old=0x0040 new=0x0042 step=aspm-down readback=- planned");
	pfx_free(p);
}

/* ------------------------------------------------------------ apply */
/* read-back, ignored writes, plan = apply */

/* ================================================================
 * Scenario 8: hardware that ignores ASPM Control writes (QEMU)
 *
 *   00:01.0 RP ── 01:00.0 EP   QEMU's LNKCAP 0x411 (L0s only), ASPM
 *                              Control read-only zero on both, no Slot Clock
 *   00:02.0 RP ── 02:00.0 EP   L0s+L1; only the endpoint drops the write
 * ================================================================ */
static void test_ignored_writes_reported(void **state)
{
	struct pfx *p = pfx_new();
	struct sim *s = p->sim;
	struct sim_fn *x[4];
	const struct aspm_write *w;

	(void)state;
	x[0] = sim_root_port(s, 0, 1, 0, 1, 1, SIM_LNKCAP_QEMU, 0);
	x[1] = sim_endpoint(s, 1, 0, 0, SIM_DEVCAP(0, 0, 1), SIM_LNKCAP_QEMU, 0);
	x[2] = sim_root_port(s, 0, 2, 0, 2, 2, SIM_LNKCAP(3, 0, 0, 0), 0);
	x[3] = sim_endpoint(s, 2, 0, 0, DC_ANY, SIM_LNKCAP(3, 0, 0, 0), 0);
	for (unsigned i = 0; i < 4; i++)
		sim_poke(x[i], x[i]->pcie + PCI_EXP_LNKSTA, 2, 0x0011);
	sim_ignore_aspm(x[0]);
	sim_ignore_aspm(x[1]);
	sim_ignore_aspm(x[3]);
	assert_int_equal(fx_enum(p->fx), 0);

	assert_int_equal(pfx_run(p, CMD_APPLY, pfx_policy(OVR_FORCE)), 0);
	/* the writes are made as planned ... */
	assert_log_writes(p, 0,
		XLC(1, 0, 0, LK_L0S), XLC(0, 1, 0, LK_L0S),
		XLC(0, 2, 0, LK_L0S | LK_L1), XLC(2, 0, 0, LK_L0S | LK_L1));
	/* ... the hardware keeps what it wants */
	assert_int_equal(pfx_lnkctl(p, 0, 1, 0), 0);
	assert_int_equal(pfx_lnkctl(p, 1, 0, 0), 0);
	assert_int_equal(pfx_lnkctl(p, 0, 2, 0), LK_L0S | LK_L1);
	assert_int_equal(pfx_lnkctl(p, 2, 0, 0), 0);
	/* ... and it is reported per register, not claimed as done */
	assert_int_equal(p->run.st.written, 4);
	assert_int_equal(p->run.st.ignored, 3);
	assert_int_equal(p->run.st.errors, 0);
	assert_lines(p, "aspm write ",
		"aspm write 0000:01:00.0 off=0x50 width=2 old=0x0000 new=0x0001 step=aspm-down readback=0x0000 ignored",
		"aspm write 0000:00:01.0 off=0x50 width=2 old=0x0000 new=0x0001 step=aspm-up readback=0x0000 ignored",
		"aspm write 0000:00:02.0 off=0x50 width=2 old=0x0000 new=0x0003 step=aspm-up readback=0x0003 ok",
		"aspm write 0000:02:00.0 off=0x50 width=2 old=0x0000 new=0x0003 step=aspm-down readback=0x0000 ignored");
	/* the plan is still what the policy says */
	assert_lines(p, "aspm link ",
		"aspm link up=0000:00:01.0 down=0000:01:00.0 nfn=1 hops=0 support=L0s bios=none capable=L0s action=force target=L0s clkpm=- l1ss=none reason=not-supported",
		"aspm link up=0000:00:02.0 down=0000:02:00.0 nfn=1 hops=0 support=L0s,L1 bios=none capable=L0s,L1 action=force target=L0s,L1 clkpm=- l1ss=none reason=-");
	assert_int_equal(p->run.plan.n, 4);
	w = &p->run.plan.w[0];
	assert_int_equal(w->val & PCI_EXP_LNKCTL_ASPMC, LK_L0S);
	assert_int_equal(w->result, -1);
	assert_int_equal(p->run.plan.w[2].result, 1);
	assert_int_equal(p->lp[0].target, ASPM_STATE_L0S);
	assert_int_equal(p->lp[1].target, ASPM_STATE_L0S | ASPM_STATE_L1);
	pfx_free(p);
}

/*
 * A function that stops answering right after a write: its read-back is
 * all-ones, which happens to hold the bits we own. Not "ok": an error,
 * and the run says so (found by tests/fuzz/fuzz_pcie.c).
 *   00:01.0 RP ── 01:00.0 EP   BIOS L1, policy clear
 */
static void test_readback_all_ones_is_an_error(void **state)
{
	struct pfx *p = pfx_new();
	struct sim *s = p->sim;
	struct sim_fn *ep;

	(void)state;
	sim_root_port(s, 0, 1, 0, 1, 1, SIM_LNKCAP(3, 0, 0, 0), LK_L1);
	ep = sim_endpoint(s, 1, 0, 0, DC_ANY, SIM_LNKCAP(3, 0, 0, 0), LK_L1);
	assert_int_equal(fx_enum(p->fx), 0);
	/* the read before the write still answers, the read-back does not */
	ep->vanish_after = ep->reads + 1;

	assert_int_equal(pfx_run(p, CMD_APPLY, pfx_policy(OVR_CLEAR)), -AE_IO);
	assert_log_writes(p, 0, XLC(1, 0, 0, 0), XLC(0, 1, 0, 0));
	assert_int_equal(p->run.st.written, 2);
	assert_int_equal(p->run.st.ignored, 0);
	assert_int_equal(p->run.st.errors, 1);
	assert_lines(p, "aspm write ",
		"aspm write 0000:01:00.0 off=0x50 width=2 old=0x0002 new=0x0000 step=aspm-down readback=- error",
		"aspm write 0000:00:01.0 off=0x50 width=2 old=0x0002 new=0x0000 step=aspm-up readback=0x0000 ok");
	assert_log_contains("0000:01:00.0: reads all-ones after the write to register 0x50: not done");
	pfx_free(p);
}

static void test_plan_matches_apply(void **state)
{
	(void)state;
	check_plan_matches_apply(pfx_in(true, true, OVR_NONE, FADT_MODE_CLEAR), 12);
	check_plan_matches_apply(pfx_policy(OVR_NONE), 3);	/* keep: CCC + retrain */
	check_plan_matches_apply(pfx_policy(OVR_FORCE), 15);
	check_plan_matches_apply(pfx_policy(OVR_NOTOUCH), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		/* keep */
		cmocka_unit_test(test_keep_leaves_bios_state),
		cmocka_unit_test(test_keep_leaves_per_function_bits),
		/* clear */
		cmocka_unit_test(test_fadt_clear_clears_everything),
		/* force */
		cmocka_unit_test(test_force_switch_chain_latency),
		cmocka_unit_test(test_force_switch_chain_l1_everywhere),
		cmocka_unit_test(test_force_every_function),
		cmocka_unit_test(test_rootless_switch_link),
		/* notouch */
		cmocka_unit_test(test_fadt_notouch_writes_nothing),
		cmocka_unit_test(test_override_notouch_writes_nothing),
		cmocka_unit_test(test_notouch_inconsistent_bios),
		/* sanity */
		cmocka_unit_test(test_sanity_keep),
		cmocka_unit_test(test_sanity_force),
		cmocka_unit_test(test_sanity_keep_clears_l1ss),
		cmocka_unit_test(test_sanity_records_every_action),
		/* common clock */
		cmocka_unit_test(test_keep_common_clock),
		cmocka_unit_test(test_no_common_clock_under_clear_or_notouch),
		cmocka_unit_test(test_retrain_timeout_restores_ccc),
		cmocka_unit_test(test_retrain_busy_before),
		cmocka_unit_test(test_ccc_lnkcap_reread),
		/* clock PM */
		cmocka_unit_test(test_clkpm_mixed_capability_force),
		cmocka_unit_test(test_clkpm_keep_stays),
		/* L1SS */
		cmocka_unit_test(test_l1_2_needs_ltr),
		cmocka_unit_test(test_l1_2_ltr_path),
		cmocka_unit_test(test_ltr_path_reads_only_for_l1_2),
		cmocka_unit_test(test_force_turns_l1ss_off_with_l1_off),
		cmocka_unit_test(test_pcipm_substates_stay_at_link_init),
		cmocka_unit_test(test_force_clears_split_l1ss),
		cmocka_unit_test(test_stray_l1_cleared),
		cmocka_unit_test(test_l1ss_function0_only),
		/* write order */
		cmocka_unit_test(test_keep_order_pre11_then_ccc),
		cmocka_unit_test(test_keep_order_path_upward),
		/* teardown */
		cmocka_unit_test(test_teardown_frees_upstream_l1),
		cmocka_unit_test(test_teardown_other_endpoint_keeps_limit),
		cmocka_unit_test(test_teardown_switch_order),
		cmocka_unit_test(test_teardown_function1_first),
		cmocka_unit_test(test_teardown_function0_first),
		cmocka_unit_test(test_teardown_notouch),
		cmocka_unit_test(test_teardown_predict),
		/* apply */
		cmocka_unit_test(test_ignored_writes_reported),
		cmocka_unit_test(test_readback_all_ones_is_an_error),
		cmocka_unit_test(test_plan_matches_apply),
	};

	return cmocka_run_group_tests_name("policy", tests, NULL, NULL);
}
