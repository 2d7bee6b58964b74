// SPDX-License-Identifier: GPL-2.0-only
/*
 * Register-level cross-check, host side: every scenario is built once with
 * the config-space simulator's builders (tests/sim), then
 *   - exported as NAME.sim (format "aspmsim 1", linux/simmod/README.md):
 *     config bytes, read-write and write-1-to-clear masks of every
 *     function, which linux/simmod/aspmsim.ko loads into a PCI domain of
 *     its own inside the guest kernel, and
 *   - run through the app's engine (enumerate, aspm_run() apply, and for
 *     removal scenarios aspm_plan_remove() + aspm_apply(), exactly what
 *     "aspmctl remove BDF --apply" does), writing NAME.app: the initial
 *     (BIOS) and final Link Control / L1 PM Substates Control registers
 *     and every config write in order.
 * index.tsv lists the scenarios, the kernel group (command line) each
 * runs under and the expected outcome per kernel.
 *
 * Usage: xcheck OUTDIR     (writes OUTDIR/NAME.sim, NAME.app, index.tsv)
 *        xcheck --list
 *        xcheck --twin OUTDIR DUMP...   real machines' dumps instead (below)
 *        xcheck --gen OUTDIR SPECS      generated machines (tests/sim/gen.h) instead,
 *                                       for make difffuzz (tests/difffuzz/README.md)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../sim/platforms.h"
#include "../sim/gen.h"
#include "../../pcie/run.h"
#include "../../pcie/enum.h"
#include "../../lib/err.h"
#include "../../lib/log.h"
#include "../../lib/util.h"
#include "../../twin/aspmsim.h"
#include "../../twin/twin.h"

#define LK_L0S		PCI_EXP_LNKCTL_ASPM_L0S
#define LK_L1		PCI_EXP_LNKCTL_ASPM_L1
#define LK_CCC		PCI_EXP_LNKCTL_CCC
#define LK_CLKREQ	PCI_EXP_LNKCTL_CLKREQ_EN
#define DC_ANY		SIM_DC_ANY
#define L1SS_CAP_ALL	SIM_L1SS_CAP_ALL
#define L1SS_ON		SIM_L1SS_ON
#define L1SS_TIMING	SIM_L1SS_TIMING
#define LC_P		SIM_LC_P
#define LC_NOCLK	SIM_LNKCAP(3, 1, 1, 0)

#define MAX_FN		512	/* a whole dump: 222 functions in the corpus */
#define MAX_LINK	256
#define MAX_W		4096

/* ---------------------------------------------------------- platforms */

/* LTR as both Linux (pci_configure_ltr()) and the app see it: LTR
 * Mechanism Supported in Device Capabilities 2 on every function from the
 * Root Port down; endpoints also get the LTR capability itself. */
static void ltr_port(struct sim_fn *f)
{
	sim_set_ltr_mech(f);
}

static void add_ltr(struct sim_fn *f)
{
	sim_add_ltr(f);
}

/* The "FADT says no ASPM" platform of tests/unit/test_policy.c: BIOS L1 +
 * CLKREQ# + all four L1 PM Substates on 00:1c.0-01:00.0, L1 on the
 * switch's link, L0s + L1 + CLKREQ# on a multi-function endpoint. */
static void build_fadt(struct sim *s)
{
	sim_platform_fadt(s, LK_CCC);
}

/* A multi-function endpoint whose two functions both carry the L1 PM
 * Substates capability, everything enabled by the BIOS. */
static void build_l1ss_mf(struct sim *s)
{
	sim_platform_l1ss_mf(s);
}

/* ASPM L1.1 + L1.2 enabled by the BIOS at both ends of a link without LTR
 * (tests/unit/test_policy.c test_l1_2_needs_ltr): L1.2 needs LTR on the
 * path, so keep (bios & capable) drops it. */
static void build_l1_2_no_ltr(struct sim *s)
{
	const uint32_t both = PCI_L1SS_CTL1_ASPM_L1_1 | PCI_L1SS_CTL1_ASPM_L1_2;
	struct sim_fn *x;

	x = sim_root_port(s, 0, 1, 0, 1, 1, LC_NOCLK, LK_CCC | LK_L1);
	sim_add_l1ss(x, L1SS_CAP_ALL, L1SS_TIMING | both);
	x = sim_endpoint(s, 1, 0, 0, DC_ANY, LC_NOCLK, LK_CCC | LK_L1);
	sim_add_l1ss(x, L1SS_CAP_ALL, L1SS_TIMING | both);
}

/* The same BIOS state below a switch, the endpoint with LTR and the switch
 * ports advertising it, but not the Root Port: LTR is not on the whole path
 * (pci_configure_ltr(): ltr_path), so L1.2 goes, L1.1 stays. */
static void build_l1_2_ltr_path(struct sim *s)
{
	const uint32_t both = PCI_L1SS_CTL1_ASPM_L1_1 | PCI_L1SS_CTL1_ASPM_L1_2;
	struct sim_fn *x;

	sim_root_port(s, 0, 1, 0, 1, 3, LC_NOCLK, LK_CCC);	/* no LTR */
	x = sim_switch_up(s, 1, 2, 3, LC_NOCLK, LK_CCC);
	ltr_port(x);
	x = sim_switch_down(s, 2, 0, 3, 3, LC_NOCLK, LK_CCC | LK_L1);
	ltr_port(x);
	sim_add_l1ss(x, L1SS_CAP_ALL, L1SS_TIMING | both);
	x = sim_endpoint(s, 3, 0, 0, DC_ANY, LC_NOCLK, LK_CCC | LK_L1);
	add_ltr(x);
	sim_add_l1ss(x, L1SS_CAP_ALL, L1SS_TIMING | both);
}

/* What the BIOS left inconsistent between the functions of a device: L1
 * on function 0 (and the Root Port), not on function 1; CLKREQ# on
 * function 0 only. Linux's keep leaves it: the link's state is read from
 * function 0 and the port, and Clock PM counts as enabled only when every
 * function has it. */
static void build_mf_inconsistent(struct sim *s)
{
	sim_root_port(s, 0, 1, 0, 1, 1, LC_P, LK_CCC | LK_L1);
	sim_set_multi(sim_endpoint(s, 1, 0, 0, DC_ANY, LC_P, LK_CCC | LK_L1 | LK_CLKREQ));
	sim_endpoint(s, 1, 0, 1, DC_ANY, LC_P, LK_CCC);
}

/* Two switches in a row (tests/unit/test_policy.c scenario 4), the
 * endpoint's acceptable L1 latency 2 us: L1 fits the two deeper links,
 * not the Root Port's (1 us + 2 switches). */
static void build_chain_top(struct sim *s)
{
	sim_root_port(s, 0, 1, 0, 1, 5, SIM_LNKCAP(3, 1, 0, 0), LK_CCC);
	sim_switch_up(s, 1, 2, 5, SIM_LNKCAP(3, 1, 0, 0), LK_CCC);
	sim_switch_down(s, 2, 0, 3, 5, SIM_LNKCAP(3, 2, 0, 0), LK_CCC);
	sim_switch_up(s, 3, 4, 5, SIM_LNKCAP(3, 3, 0, 0), LK_CCC);
	sim_switch_down(s, 4, 0, 5, 5, SIM_LNKCAP(3, 3, 1, 0), LK_CCC);
	sim_endpoint(s, 5, 0, 0, SIM_DEVCAP(2, 1, 1), SIM_LNKCAP(3, 2, 1, 0), LK_CCC);
}

/* The same chain with a slow last link (L1 exit 8 us at both ends of
 * 04:00.0-05:00.0) and an acceptable L1 latency of 4 us: L1 is allowed on
 * the upper links (1 us + 1 us, 1 us + 2 us) and not on the deepest one;
 * Common Clock clear at first (Slot Clock everywhere): set and retrained. */
static void build_chain_deep(struct sim *s)
{
	sim_root_port(s, 0, 1, 0, 1, 5, SIM_LNKCAP(3, 1, 0, 0), 0);
	sim_switch_up(s, 1, 2, 5, SIM_LNKCAP(3, 1, 0, 0), 0);
	sim_switch_down(s, 2, 0, 3, 5, SIM_LNKCAP(3, 1, 0, 0), LK_CCC);
	sim_switch_up(s, 3, 4, 5, SIM_LNKCAP(3, 1, 0, 0), LK_CCC);
	sim_switch_down(s, 4, 0, 5, 5, SIM_LNKCAP(3, 1, 3, 0), LK_CCC | LK_L1);
	sim_endpoint(s, 5, 0, 0, SIM_DEVCAP(7, 2, 1), SIM_LNKCAP(3, 1, 3, 0),
		     LK_CCC | LK_L1);
}

/* A non-PCIe function next to a PCIe endpoint; a pre-1.1 endpoint (no
 * Role-Based Error Reporting). BIOS L1 on both links. */
static void build_sanity(struct sim *s)
{
	sim_platform_sanity(s);
}

/* Multi-function endpoints, mixed Clock PM capability: 01:00.1 has no
 * Clock PM, both functions of 02:00 have it. bios: CLKREQ# as the BIOS
 * left it on the Clock PM capable functions. */
static void build_clkpm(struct sim *s, uint16_t bios)
{
	sim_root_port(s, 0, 1, 0, 1, 1, LC_P, LK_CCC);
	sim_set_multi(sim_endpoint(s, 1, 0, 0, DC_ANY, LC_P, LK_CCC | bios));
	sim_endpoint(s, 1, 0, 1, DC_ANY, LC_NOCLK, LK_CCC);
	sim_root_port(s, 0, 2, 0, 2, 2, LC_P, LK_CCC);
	sim_set_multi(sim_endpoint(s, 2, 0, 0, DC_ANY, LC_P, LK_CCC | bios));
	sim_endpoint(s, 2, 0, 1, DC_ANY, LC_P, LK_CCC | bios);
}

static void build_clkpm_off(struct sim *s)
{
	build_clkpm(s, 0);
}

static void build_clkpm_on(struct sim *s)
{
	build_clkpm(s, LK_CLKREQ);
}

/* Teardown (tests/unit/test_policy.c scenario 7): EP_A 03:00.0 accepts
 * 1 us of L1 exit latency, so the root link gets no L1 while it is
 * there; removing it lets the root link take L1. bios_a: BIOS state of
 * EP_A's link. */
static void build_teardown(struct sim *s, uint16_t bios_a)
{
	sim_platform_teardown(s, bios_a);
}

static void build_teardown_off(struct sim *s)
{
	build_teardown(s, 0);
}

static void build_teardown_bios_l1(struct sim *s)
{
	build_teardown(s, LK_L1);
}

/* Common Clock Configuration (tests/unit/test_policy.c scenario 9). */
static void build_ccc(struct sim *s)
{
	sim_platform_ccc(s);
}

/* Order across links under keep (tests/unit/test_policy.c test_keep_order_*). */
static void build_pre11_ccc(struct sim *s)
{
	sim_platform_pre11_ccc(s);
}

static void build_chain_keep(struct sim *s)
{
	sim_platform_chain_keep(s);
}

/* A switch directly on the root bus, no Root Port: its Downstream Port's
 * link is a root link (alloc_pcie_link_state()). BIOS L1 on it. */
static void build_rootless_switch(struct sim *s)
{
	sim_platform_rootless_switch(s);
}

static void build_laptop(struct sim *s)
{
	sim_platform_laptop(s);
}

/* Found by make difffuzz (tests/xcheck/found/5f9f43e4d35cabca-keep.txt,
 * reduced): a pre-1.1 endpoint (no Role-Based Error Reporting) with BIOS
 * ASPM L1.1 enabled in its L1 PM Substates, below a Root Port without the
 * capability. Linux blacklists the link (pcie_aspm_sanity_check()) and
 * never reaches aspm_l1ss_init(); the app clears the substates with the
 * link's ASPM. */
static void build_blacklist_l1ss(struct sim *s)
{
	struct sim_fn *x;

	sim_root_port(s, 0, 3, 0, 1, 1, SIM_LNKCAP(3, 0, 0, 0), LK_CCC);
	x = sim_endpoint(s, 1, 0, 0, SIM_DEVCAP(7, 7, 0), SIM_LNKCAP(3, 0, 0, 0), LK_CCC);
	sim_add_l1ss(x, L1SS_CAP_ALL, L1SS_TIMING | PCI_L1SS_CTL1_ASPM_L1_1);
}

/* Found by make difffuzz (class F, docs/difffuzz.md): PCI-PM L1 Substates
 * on with L1 off. At link init Linux keeps them (no function is known to
 * be in D0 yet, pcie_config_aspm_link()). */
static void build_pcipm(struct sim *s)
{
	sim_platform_pcipm(s);
}

/* Found by make difffuzz (class G, docs/difffuzz.md): L1 PM Substates
 * enabled differently at the two ends, ASPM as force wants it. */
static void build_l1ss_split(struct sim *s)
{
	sim_platform_l1ss_split(s, PCI_L1SS_CTL1_ASPM_L1_1, PCI_L1SS_CTL1_PCIPM_L1_1);
}

/* Found by make difffuzz (supersave-aggregate): L1 only, exiting in 2-4 us,
 * an endpoint that accepts 1 us: L1 is not capable. The BIOS set L1 on the
 * endpoint's end only. */
static void build_l1_one_end(struct sim *s)
{
	sim_platform_l1_one_end(s);
}

/* ---------------------------------------------------------- scenarios */

/*
 * group: the kernel command line the scenario runs under (index.tsv;
 * tests/xcheck/xcheck.py maps it to kernel parameters):
 *   fadt   FADT "no ASPM" bit + pcie_aspm.fadt=clear   app: FADT bit, fadt-mode clear
 *   force  pcie_aspm=force pcie_aspm.policy=powersave  app: --policy force
 *   clear  pcie_aspm=clear                              app: --policy clear
 *   keep   (nothing)                                    app: auto, FADT clear, _OSC granted
 *   supersave pcie_aspm.policy=powersupersave           app: --policy powersupersave
 *   notouch FADT "no ASPM" bit (pcie_aspm.fadt=notouch is the default)
 *                                                      app: FADT bit, fadt-mode notouch
 * expected outcome per kernel (checked by tests/xcheck/xcheck.py):
 *   app      final registers and the order of effective writes equal the app's
 *   patched  equal to what the patched kernel did (unpatched kernel)
 *   bios     every ASPM, CLKREQ# and L1 PM Substates enable as the BIOS left it
 *   final    the final registers equal the app's (write order not compared)
 *   div:ID   a documented divergence (docs/xcheck.md), checked as described there
 */
struct scenario {
	const char *name;
	const char *group;
	void (*build)(struct sim *s);
	const char *remove;	/* "BB:DD.F" or NULL */
	const char *patched;
	const char *unpatched;
	const char *what;
};

static const struct scenario scenarios[] = {
	{ "fadt-clear", "fadt", build_fadt, NULL, "app", "bios",
	  "BIOS L1, Clock PM, L1 PM Substates; FADT no-ASPM, fadt=clear (2.6.37)" },
	{ "l1ss-mf-clear", "fadt", build_l1ss_mf, NULL, "app", "bios",
	  "L1SS on both functions of a multi-function endpoint, cleared" },
	{ "override-clear", "clear", build_fadt, NULL, "app", "bios",
	  "the same platform under pcie_aspm=clear (unknown to the unpatched kernel)" },
	{ "chain-top-force", "force", build_chain_top, NULL, "app", "patched",
	  "force on two switches: L1 on the deeper links, not the root link" },
	{ "chain-deep-force", "force", build_chain_deep, NULL, "app", "patched",
	  "force on two switches: L1 on the upper links, not the deepest one" },
	{ "sanity-force", "force", build_sanity, NULL, "app", "patched",
	  "non-PCIe function on a link; pre-1.1 endpoint, forced" },
	{ "clkpm-force", "force", build_clkpm_off, NULL, "app", "patched",
	  "multi-function endpoints with mixed Clock PM, forced" },
	{ "l1ss-mf-force", "force", build_l1ss_mf, NULL, "div:l1ss-order-timing", "patched",
	  "BIOS L1SS on both functions, force turns it off on function 0" },
	/* found by make difffuzz (class G): Linux's link state has only the
	 * substates both ends enable (aspm_l1ss_init()), none here, which is
	 * force's target: nothing written, each end keeps the BIOS's */
	{ "l1ss-split-force", "force", build_l1ss_split, NULL, "div:force-aggregate", "patched",
	  "L1SS enabled differently at the two ends, ASPM already forced" },
	{ "teardown-force", "force", build_teardown_off, "03:00.0", "app", "patched",
	  "sysfs remove; latency recheck gives the root link L1" },
	{ "teardown-switch-force", "force", build_teardown_off, "01:00.0", "app", "patched",
	  "sysfs remove of a switch: children first, depth first, the switch last" },
	{ "teardown-l1ss-force", "force", build_fadt, "01:00.0", "div:l1ss-order-timing", "patched",
	  "sysfs remove of an endpoint whose link had BIOS L1 PM Substates" },
	{ "sanity-keep", "keep", build_sanity, NULL, "app", "patched",
	  "non-PCIe function on a link; pre-1.1 endpoint, not forced" },
	/* found by make difffuzz (tests/xcheck/found/7529c3292b0de112-clear.txt):
	 * under clear no link is singled out, in the records either; the
	 * unpatched kernel (clear unknown: the default policy) blacklists
	 * both links and so ends where clear does */
	{ "sanity-clear", "clear", build_sanity, NULL, "app", "final",
	  "non-PCIe function on a link; pre-1.1 endpoint, under clear" },
	/* found by make difffuzz (class F): at link init the BIOS's PCI-PM
	 * substates stay, the ASPM ones go with L1; force (powersave, which
	 * configures the link again once the device is enabled) clears them */
	{ "pcipm-keep", "keep", build_pcipm, NULL, "div:l1ss-program", "patched",
	  "BIOS PCI-PM L1 Substates with L1 off: kept at link init" },
	{ "pcipm-force", "force", build_pcipm, NULL, "div:l1ss-timing", "patched",
	  "BIOS PCI-PM L1 Substates with L1 off, forced: cleared" },
	{ "clkpm-keep", "keep", build_clkpm_on, NULL, "app", "patched",
	  "BIOS CLKREQ# on a link with a function without Clock PM" },
	{ "mf-inconsistent-keep", "keep", build_mf_inconsistent, NULL, "app", "patched",
	  "BIOS L1 and CLKREQ# on function 0 only: kept as they are" },
	{ "l1ss-keep", "keep", build_fadt, NULL, "div:l1ss-timing", "patched",
	  "the FADT platform without the FADT bit: BIOS L1SS kept" },
	{ "l1-2-no-ltr-keep", "keep", build_l1_2_no_ltr, NULL, "div:l1ss-order-timing", "patched",
	  "BIOS ASPM L1.2 without LTR: dropped, L1.1 kept" },
	{ "l1-2-ltr-path-keep", "keep", build_l1_2_ltr_path, NULL, "div:l1ss-order-timing", "patched",
	  "BIOS ASPM L1.2 below a switch, LTR everywhere but the Root Port: dropped" },
	{ "teardown-l1ss-keep", "keep", build_fadt, "01:00.0", "div:teardown-l1ss", "patched",
	  "sysfs remove of an endpoint with BIOS L1 PM Substates on its link" },
	{ "ccc-keep", "keep", build_ccc, NULL, "app", "patched",
	  "Common Clock Configuration set/cleared and retrained" },
	{ "teardown-keep", "keep", build_teardown_bios_l1, "03:00.0", "app", "patched",
	  "sysfs remove of an endpoint whose link had BIOS L1" },
	{ "keep-order-pre11-ccc", "keep", build_pre11_ccc, NULL, "app", "patched",
	  "pre-1.1 root link turned off before the Common Clock of the link below" },
	{ "keep-order-path-upward", "keep", build_chain_keep, NULL, "app", "patched",
	  "deep latency limit: middle link disabled before the root link" },
	{ "rootless-switch-force", "force", build_rootless_switch, NULL, "app", "patched",
	  "switch on the root bus, no Root Port: its link is a root link" },
	/* found by make difffuzz: L1 needs both ends, so Linux's link state
	 * has none, which is the target: nothing written, the endpoint keeps
	 * its stray L1 bit; the app clears it */
	{ "l1-one-end-supersave", "supersave", build_l1_one_end, NULL,
	  "div:supersave-aggregate", "patched",
	  "BIOS L1 on one end of a link that cannot use it" },
	{ "laptop-supersave", "supersave", build_laptop, NULL, "final", "patched",
	  "laptop-like: L1SS with per-device timing, mixed LTR and Clock PM, a switch" },
	{ "laptop-excl-supersave", "supersave", build_laptop, NULL, "final", "patched",
	  "the same, L1.2 excluded on the NVMe drive (--disable L1.2@1b36:0010)" },
	{ "laptop-excl-nic-supersave", "supersave", build_laptop, NULL, "final", "patched",
	  "the same, L1 excluded on the NIC below the switch, L0s on the Wi-Fi card" },
	{ "fadt-supersave", "supersave", build_fadt, NULL, "final", "patched",
	  "BIOS L1SS (other timing) kept on, switch, multi-function Clock PM" },
	{ "l1ss-mf-supersave", "supersave", build_l1ss_mf, NULL, "final", "patched",
	  "L1SS on both functions of a multi-function endpoint" },
	{ "clkpm-supersave", "supersave", build_clkpm_off, NULL, "final", "patched",
	  "mixed Clock PM on multi-function endpoints" },
	{ "excl-keep", "keep", build_chain_keep, NULL, "final", "patched",
	  "BIOS L1 on three links in a row, L1 excluded on the endpoint" },
	{ "excl-force", "force", build_chain_top, NULL, "final", "patched",
	  "force, L1 excluded on the switches' Downstream Ports (the links below)" },
	{ "blacklist-l1ss-keep", "keep", build_blacklist_l1ss, NULL, "div:blacklist-l1ss", "patched",
	  "pre-1.1 endpoint with BIOS ASPM L1.1: the app clears it, Linux leaves it" },
};

/* --disable rules of a scenario (pci_disable_link_state() in the guest) */
static const struct {
	const char *scenario;
	const char *rules[3];
} scenario_rules[] = {
	{ "laptop-excl-supersave", { "L1.2@1b36:0010" } },
	{ "laptop-excl-nic-supersave", { "L1@10ec:8168", "L0s@class:0280" } },
	{ "excl-keep", { "L1@05:00.0" } },
	{ "excl-force", { "L1@10b5:8748" } },
};

/* The scenario's rules parsed into e[]; how many. */
static unsigned scenario_excl(const char *name, struct aspm_excl *e)
{
	unsigned n = 0;

	for (unsigned i = 0; i < ARRAY_SIZE(scenario_rules); i++) {
		if (strcmp(scenario_rules[i].scenario, name))
			continue;
		for (unsigned k = 0; k < ARRAY_SIZE(scenario_rules[i].rules) &&
		     scenario_rules[i].rules[k]; k++)
			if (!aspm_excl_parse(scenario_rules[i].rules[k], &e[n]))
				n++;
	}
	return n;
}

/* PCIE_LINK_STATE_* (include/linux/pci.h) of a rule */
static unsigned linux_link_states(const struct aspm_excl *e)
{
	unsigned m = 0;

	if (e->states & ASPM_STATE_L0S)
		m |= 1u << 0;
	if (e->states & ASPM_STATE_L1)
		m |= 1u << 1;
	if (e->clkpm)
		m |= 1u << 2;
	if (e->states & ASPM_STATE_L1_1)
		m |= 1u << 3;
	if (e->states & ASPM_STATE_L1_2)
		m |= 1u << 4;
	if (e->states & ASPM_STATE_L1_1_PCIPM)
		m |= 1u << 5;
	if (e->states & ASPM_STATE_L1_2_PCIPM)
		m |= 1u << 6;
	return m;
}

/*
 * "disable BB:DD.F MASK" lines: the pci_disable_link_state() calls that
 * give Linux the app's exclusion set. pcie_aspm_get_link() takes the link
 * above the function it is given, so a rule matching a port is called on
 * function 0 below it.
 */
static void print_disables(const struct pcie_topo *t, const struct aspm_excl *e,
			   unsigned n, FILE *o)
{
	for (unsigned i = 0; i < n; i++) {
		for (unsigned j = 0; j < t->nfn; j++) {
			const struct pcie_fn *f = &t->fn[j];
			char b[16];
			int target = -1;

			if (!aspm_excl_match(&e[i], f))
				continue;
			if ((f->flags & FN_PCIE) && f->up_link >= 0)
				target = (int)j;
			if (target >= 0)
				fprintf(o, "disable %s 0x%x\n",
					pci_addr_str(t->fn[target].addr, b) + 5,
					linux_link_states(&e[i]));
			if (f->down_link >= 0)
				fprintf(o, "disable %s 0x%x\n",
					pci_addr_str(t->fn[t->link[f->down_link].down].addr, b) + 5,
					linux_link_states(&e[i]));
		}
	}
}

static struct aspm_inputs group_inputs(const char *group)
{
	struct aspm_inputs in = { .fadt_no_aspm = false, .osc_granted = true,
				  .override = OVR_NONE,
				  .fadt_mode = FADT_MODE_NOTOUCH };

	if (!strcmp(group, "fadt")) {
		in.fadt_no_aspm = true;
		in.fadt_mode = FADT_MODE_CLEAR;
	} else if (!strcmp(group, "force")) {
		in.override = OVR_FORCE;
	} else if (!strcmp(group, "clear")) {
		in.override = OVR_CLEAR;
	} else if (!strcmp(group, "supersave")) {
		in.override = OVR_SUPERSAVE;
	} else if (!strcmp(group, "notouch")) {
		/* the FADT bit, fadt-mode notouch (Linux 6.1's reading, the
		 * patched kernel's default) */
		in.fadt_no_aspm = true;
	}
	return in;
}

/*
 * Firmware leaves the I/O and memory windows of a bridge with nothing to
 * forward disabled (base above limit, PCI-to-PCI Bridge r1.2 sec 3.2.5);
 * the builders leave them zero, which Linux reads as a 4 KiB I/O window
 * and a 1 MiB memory window it cannot claim, so pci_enable_device() of
 * the bridge would fail. The app never reads these registers.
 */
static void close_windows(struct sim *s)
{
	for (unsigned i = 0; i < s->nfn; i++) {
		struct sim_fn *f = s->fn[i];

		if ((f->cfg[PCI_HEADER_TYPE] & 0x7f) != PCI_HEADER_TYPE_BRIDGE)
			continue;
		sim_poke(f, 0x1c, 2, 0x00f0);		/* I/O base > limit */
		sim_poke(f, 0x20, 4, 0x0000fff0);	/* memory */
		sim_poke(f, 0x24, 4, 0x0000fff0);	/* prefetchable memory */
	}
}

/* ---------------------------------------------------------- export */

static void file_write(void *ctx, const char *s, size_t n)
{
	fwrite(s, 1, n, ctx);
}

/* Through the writer the twin shares (twin/aspmsim.c). */
static int export_sim(const struct sim *s, const char *name, const char *remove,
		      FILE *o)
{
	static struct aspmsim_fn fn[SIM_MAX_FN];
	const struct out out = { file_write, o };
	int rc;

	for (unsigned i = 0; i < s->nfn; i++) {
		const struct sim_fn *f = s->fn[i];

		if (f->addr.seg != 0 || f->alias_all || f->crs_reads || f->vanish_after ||
		    f->retrain_reads) {
			fprintf(stderr, "xcheck: %s: behaviours beyond masks cannot be exported\n",
				name);
			return -1;
		}
		fn[i] = (struct aspmsim_fn){ f->addr, f->cfg, f->rw, f->w1c };
	}
	rc = aspmsim_write(fn, s->nfn, name,
			   "generated by tests/xcheck/xcheck from tests/sim; see linux/simmod/README.md",
			   remove, &out);
	if (rc)
		fprintf(stderr, "xcheck: %s: cannot export: %s\n", name, err_str(rc));
	return rc ? -1 : 0;
}

/* ext: also L1SS Control 2 and Device Control 2 (powersupersave programs
 * the L1.2 timing and LTR enable) */
static void print_regs(const struct sim *s, const char *kw, bool ext, FILE *o)
{
	for (unsigned i = 0; i < s->nfn; i++) {
		struct sim_fn *f = s->fn[i];
		char b[16];

		if (!f->pcie)
			continue;
		fprintf(o, "%s %s lnkctl@0x%x=0x%04x", kw, pci_addr_str(f->addr, b),
			f->pcie + PCI_EXP_LNKCTL, sim_peek(f, f->pcie + PCI_EXP_LNKCTL, 2));
		if (f->l1ss)
			fprintf(o, " l1ss@0x%x=0x%08x", f->l1ss + PCI_L1SS_CTL1,
				sim_peek(f, f->l1ss + PCI_L1SS_CTL1, 4));
		if (ext && f->l1ss)
			fprintf(o, " l1ss2@0x%x=0x%08x", f->l1ss + PCI_L1SS_CTL2,
				sim_peek(f, f->l1ss + PCI_L1SS_CTL2, 4));
		if (ext)
			fprintf(o, " devctl2@0x%x=0x%04x", f->pcie + PCI_EXP_DEVCTL2,
				sim_peek(f, f->pcie + PCI_EXP_DEVCTL2, 2));
		fputc('\n', o);
	}
}

static void print_log(const struct sim *s, unsigned from, unsigned to, FILE *o)
{
	for (unsigned i = from; i < to; i++) {
		const struct sem_write *w = &s->log[i];
		char b[16];

		fprintf(o, "w %s off=0x%03x width=%u val=0x%08x before=0x%08x after=0x%08x\n",
			pci_addr_str(w->a, b), w->off, w->width, w->val, w->before, w->after);
	}
}

/* ---------------------------------------------------------- the app */

/*
 * What the app's engine runs on: the simulator (built-in scenarios) or a
 * twin (a real machine's dump, --twin): its config ops, the ECAM windows
 * and extra root buses to enumerate from, and how to print its write log
 * and registers.
 */
struct backend {
	const struct pci_cfg_ops *ops;
	void *ctx;
	const struct ecam_window *win;
	unsigned nwin;
	const struct pcie_scan_opts *opts;
	bool problems_ok;	/* a twin may hold what the app reports as a problem */
	unsigned (*nlog)(const void *ctx);
	void (*print_log)(const void *ctx, unsigned from, unsigned to, FILE *o);
};

static unsigned sim_nlog(const void *ctx)
{
	return ((const struct sim *)ctx)->nlog;
}

static void sim_print_log(const void *ctx, unsigned from, unsigned to, FILE *o)
{
	print_log(ctx, from, to, o);
}

struct machine {
	struct pci_cfg cfg;
	struct pcie_fn fn[MAX_FN];
	struct pcie_link link[MAX_LINK];
	struct pcie_topo topo;
	struct aspm_write w[MAX_W];
	struct aspm_link_plan lp[MAX_LINK];
	char text[256 * 1024];
	struct aspm_excl excl[ASPM_MAX_EXCL];
};

static int enumerate(const char *name, struct machine *m, const struct backend *b)
{
	int rc;

	pci_cfg_init(&m->cfg, b->ops, b->ctx);
	m->topo.fn = m->fn;
	m->topo.cap_fn = MAX_FN;
	m->topo.link = m->link;
	m->topo.cap_link = MAX_LINK;
	rc = pcie_enumerate(&m->cfg, b->win, b->nwin, b->opts, &m->topo);
	if (rc || m->topo.truncated || (m->topo.problems && !b->problems_ok)) {
		fprintf(stderr, "xcheck: %s: enumeration failed (%d, %u problems)\n", name, rc,
			m->topo.problems);
		return -1;
	}
	return 0;
}

/* The app's run (apply, then the removal if any), its writes in order.
 * r: the run, filled in. */
static int app_apply(const char *name, const char *group, const char *remove,
		     struct machine *m, const struct backend *b, struct aspm_run *r, FILE *o)
{
	struct out out;
	struct out_buf ob;
	unsigned boot_writes;
	int rc;

	out_buf_init(&out, &ob, m->text, sizeof(m->text));
	memset(r, 0, sizeof(*r));
	r->cmd = CMD_APPLY;
	r->in = group_inputs(group);
	r->fadt_valid = true;
	r->topo = &m->topo;
	r->plan.w = m->w;
	r->plan.cap = MAX_W;
	r->lp = m->lp;
	r->nexcl = scenario_excl(name, m->excl);
	r->excl = m->excl;
	rc = aspm_run(&m->cfg, r, &out);
	boot_writes = b->nlog(b->ctx);
	if (o)
		b->print_log(b->ctx, 0, boot_writes, o);
	if (!rc && remove) {
		struct pci_addr a;
		unsigned start = r->plan.n;
		int fn;

		if (pci_addr_parse(remove, &a) || (fn = pcie_find_fn(&m->topo, a)) < 0) {
			fprintf(stderr, "xcheck: %s: no function %s\n", name, remove);
			return -1;
		}
		/* what aspm_run(CMD_REMOVE, --apply) does after the plan phase */
		rc = aspm_plan_remove(&m->topo, r->action, fn, &r->plan, &out);
		if (!rc)
			rc = aspm_apply(&m->cfg, &m->topo, &r->plan, start, NULL, &r->st);
		if (o) {
			fprintf(o, "mark remove %s\n", remove);
			b->print_log(b->ctx, boot_writes, b->nlog(b->ctx), o);
		}
	}
	if (rc || r->plan.overflow || r->st.errors) {
		fprintf(stderr, "xcheck: %s: the app's run failed (%d)\n%s", name, rc, m->text);
		return -1;
	}
	return 0;
}

/* The link tree and the app's own records, for xcheck.py and the reader. */
static void print_links_records(const struct machine *m, FILE *o)
{
	for (unsigned i = 0; i < m->topo.nlink; i++) {
		const struct pcie_link *l = &m->topo.link[i];
		char b1[16], b2[16], b3[16];

		fprintf(o, "link up=%s down=%s parent=%s\n",
			pci_addr_str(m->topo.fn[l->up].addr, b1),
			pci_addr_str(m->topo.fn[l->down].addr, b2),
			l->parent >= 0 ?
			pci_addr_str(m->topo.fn[m->topo.link[l->parent].up].addr, b3) : "-");
	}
	for (const char *l = m->text; *l;) {
		const char *e = strchr(l, '\n');
		int n = e ? (int)(e - l) : (int)strlen(l);

		if (!strncmp(l, "aspm ", 5))
			fprintf(o, "record %.*s\n", n, l);
		if (!e)
			break;
		l = e + 1;
	}
}

static int run_app(const struct scenario *sc, struct machine *m, struct sim *s, FILE *o)
{
	static const struct ecam_window win = { .base = 0xb0000000, .segment = 0,
						.bus_start = 0, .bus_end = 0xff };
	const struct backend b = { .ops = &sim_cfg_ops, .ctx = s, .win = &win, .nwin = 1,
				   .nlog = sim_nlog, .print_log = sim_print_log };
	struct aspm_run r;

	if (enumerate(sc->name, m, &b) || app_apply(sc->name, sc->group, sc->remove, m, &b, &r, o))
		return -1;
	print_regs(s, "final", !strcmp(sc->group, "supersave"), o);
	print_disables(&m->topo, m->excl, r.nexcl, o);
	print_links_records(m, o);
	return 0;
}

static int write_scenario(const struct scenario *sc, const char *dir)
{
	static struct machine m;
	struct sim *sim;
	char path[4096];
	FILE *o;
	int rc;

	memset(&m, 0, sizeof(m));
	sim = sim_new();
	if (!sim)
		return -1;
	sc->build(sim);
	close_windows(sim);

	snprintf(path, sizeof(path), "%s/%s.sim", dir, sc->name);
	o = fopen(path, "w");
	if (!o) {
		fprintf(stderr, "xcheck: %s: %s\n", path, strerror(errno));
		sim_free(sim);
		return -1;
	}
	rc = export_sim(sim, sc->name, sc->remove, o);
	rc = fclose(o) ? -1 : rc;

	snprintf(path, sizeof(path), "%s/%s.app", dir, sc->name);
	o = fopen(path, "w");
	if (!o) {
		fprintf(stderr, "xcheck: %s: %s\n", path, strerror(errno));
		sim_free(sim);
		return -1;
	}
	fprintf(o, "app 1\nname %s\ngroup %s\n", sc->name, sc->group);
	print_regs(sim, "bios", !strcmp(sc->group, "supersave"), o);
	rc = rc ? rc : run_app(sc, &m, sim, o);
	rc = fclose(o) ? -1 : rc;
	sim_free(sim);
	return rc;
}

/* ---------------------------------------------------------- twins (--twin) */

/*
 * A real machine's dump (tests/twin/dumps, docs/twin.md) instead of a
 * built-in machine. The dump's functions are split into parts, one per
 * root bus of each PCI domain: a root bus is a bus with functions that no
 * bridge in the dump decodes (a partial dump has several; so have servers
 * with many host bridges). aspmsim.ko scans a scenario from bus 0 of a
 * domain of its own, so each part becomes a scenario of its own: segment
 * 0, its buses renumbered so that its root bus is bus 0 (the bridges' bus
 * number registers with them). Links never cross root buses, so the app's
 * decisions on a part are those on the whole machine. Each part runs
 * under every group (scenario NAME.GROUP).
 *
 * The app also runs once per group on the whole twin, every domain an
 * ECAM window and every root bus an extra root (struct pcie_scan_opts):
 * table.tsv counts, per machine and group, the links and what the policy
 * changes (tests/twin/table.py prints it).
 *
 * notes.tsv says what did not become a scenario, and why: "refused"
 * (twin_load(): FILE:LINE: message), "noexport" (twin_export_sim()),
 * "orphans" (functions under a bridge but on no bus a bridge leads to).
 */

static const char *const twin_groups[] = {
	"keep", "force", "fadt", "clear", "notouch", "supersave",
};

static unsigned twin_nlog(const void *ctx)
{
	return ((const struct twin *)ctx)->nlog;
}

static void twin_print_log(const void *ctx, unsigned from, unsigned to, FILE *o)
{
	const struct twin *t = ctx;

	for (unsigned i = from; i < to; i++) {
		const struct sem_write *w = &t->log[i];
		char b[16];

		fprintf(o, "w %s off=0x%03x width=%u val=0x%08x before=0x%08x after=0x%08x\n",
			pci_addr_str(w->a, b), w->off, w->width, w->val, w->before, w->after);
	}
}

static uint32_t twin_peek(const struct twin_fn *f, unsigned off, unsigned width)
{
	uint32_t v = 0;

	for (unsigned i = 0; i < width; i++)
		v |= (uint32_t)f->cfg[off + i] << (8 * i);
	return v;
}

/* ext: also L1SS Control 2 and Device Control 2, as print_regs() */
static void twin_print_regs(const struct twin *t, const char *kw, bool ext, FILE *o)
{
	for (unsigned i = 0; i < t->nfn; i++) {
		const struct twin_fn *f = &t->fn[t->sorted[i]];
		char b[16];

		if (!f->caps.pcie)
			continue;
		fprintf(o, "%s %s lnkctl@0x%x=0x%04x", kw, pci_addr_str(f->addr, b),
			f->caps.pcie + PCI_EXP_LNKCTL, twin_peek(f, f->caps.pcie + PCI_EXP_LNKCTL, 2));
		if (f->caps.l1ss)
			fprintf(o, " l1ss@0x%x=0x%08x", f->caps.l1ss + PCI_L1SS_CTL1,
				twin_peek(f, f->caps.l1ss + PCI_L1SS_CTL1, 4));
		if (ext && f->caps.l1ss)
			fprintf(o, " l1ss2@0x%x=0x%08x", f->caps.l1ss + PCI_L1SS_CTL2,
				twin_peek(f, f->caps.l1ss + PCI_L1SS_CTL2, 4));
		/* Device Control 2: version 2 of the capability only (Linux's
		 * pcie_capability_reg_implemented() reads 0 before it), and only
		 * where the dump holds it (a capability at 0xe0 of a 256-byte
		 * dump puts it at 0x108) */
		if (ext && (twin_peek(f, f->caps.pcie + PCI_EXP_FLAGS, 2) & PCI_EXP_FLAGS_VERS) >= 2 &&
		    f->caps.pcie + PCI_EXP_DEVCTL2 + 2u <= f->known)
			fprintf(o, " devctl2@0x%x=0x%04x", f->caps.pcie + PCI_EXP_DEVCTL2,
				twin_peek(f, f->caps.pcie + PCI_EXP_DEVCTL2, 2));
		fputc('\n', o);
	}
}

static bool is_bridge(const struct lspci_fn *f)
{
	uint8_t h = f->cfg[PCI_HEADER_TYPE] & 0x7f;

	return h == PCI_HEADER_TYPE_BRIDGE || h == PCI_HEADER_TYPE_CARDBUS;
}

/* The bridge of the dump (same segment, on a lower bus) whose bus range
 * holds bus, or -1. */
static int bridge_above(const struct lspci_dump *d, uint16_t seg, unsigned bus)
{
	for (unsigned i = 0; i < d->nfn; i++) {
		const struct lspci_fn *f = &d->fn[i];

		if (f->addr.seg == seg && is_bridge(f) && f->addr.bus < f->cfg[PCI_SECONDARY_BUS] &&
		    f->cfg[PCI_SECONDARY_BUS] <= bus && bus <= f->cfg[PCI_SUBORDINATE_BUS])
			return (int)i;
	}
	return -1;
}

/* The root bus above bus (lspci_parse() refused loops and overlaps). */
static unsigned root_bus(const struct lspci_dump *d, uint16_t seg, unsigned bus)
{
	int i;

	for (unsigned n = 0; n < 256 && (i = bridge_above(d, seg, bus)) >= 0; n++)
		bus = d->fn[i].addr.bus;
	return bus;
}

/* Is bus reached from its root bus by following the dump's bridges? */
static bool reachable(const struct lspci_dump *d, uint16_t seg, unsigned bus)
{
	for (unsigned n = 0; n < 256; n++) {
		int i = bridge_above(d, seg, bus);
		bool direct = false;

		if (i < 0)
			return true;
		/* the nearest bridge: one whose secondary bus is bus, or whose
		 * range holds it through another bridge of the dump */
		for (unsigned k = 0; k < d->nfn; k++) {
			const struct lspci_fn *f = &d->fn[k];

			if (f->addr.seg == seg && is_bridge(f) && f->cfg[PCI_SECONDARY_BUS] == bus)
				direct = true;
		}
		if (!direct)
			return false;
		bus = d->fn[i].addr.bus;
	}
	return false;
}

struct part {
	uint16_t seg;
	uint8_t root;
};

static int part_of(const struct lspci_dump *d, unsigned i, const struct part *p, unsigned np)
{
	uint16_t seg = d->fn[i].addr.seg;
	unsigned root = root_bus(d, seg, d->fn[i].addr.bus);

	for (unsigned k = 0; k < np; k++)
		if (p[k].seg == seg && p[k].root == root)
			return (int)k;
	return -1;
}

static unsigned find_parts(const struct lspci_dump *d, struct part *p, unsigned cap)
{
	unsigned np = 0;

	for (unsigned i = 0; i < d->nfn && np < cap; i++) {
		if (part_of(d, i, p, np) >= 0)
			continue;
		p[np++] = (struct part){ d->fn[i].addr.seg,
					 (uint8_t)root_bus(d, d->fn[i].addr.seg, d->fn[i].addr.bus) };
	}
	/* by segment, then root bus */
	for (unsigned a = 1; a < np; a++)
		for (unsigned b = a; b > 0 && (p[b - 1].seg > p[b].seg ||
		     (p[b - 1].seg == p[b].seg && p[b - 1].root > p[b].root)); b--) {
			struct part x = p[b];

			p[b] = p[b - 1];
			p[b - 1] = x;
		}
	return np;
}

/* The part's functions, in segment 0 with the root bus as bus 0. */
static int part_dump(const struct lspci_dump *d, const struct part *p, struct lspci_dump *out)
{
	unsigned n = 0;

	out->fn = calloc(d->nfn ? d->nfn : 1, sizeof(*out->fn));
	if (!out->fn)
		return -1;
	for (unsigned i = 0; i < d->nfn; i++) {
		struct lspci_fn *f;

		if (d->fn[i].addr.seg != p->seg ||
		    root_bus(d, p->seg, d->fn[i].addr.bus) != p->root)
			continue;
		f = &out->fn[n++];
		*f = d->fn[i];
		f->addr.seg = 0;
		f->addr.bus = (uint8_t)(f->addr.bus - p->root);
		if (is_bridge(f))
			for (unsigned r = PCI_PRIMARY_BUS; r <= PCI_SUBORDINATE_BUS; r++)
				f->cfg[r] = (uint8_t)(f->cfg[r] - p->root);
	}
	out->nfn = out->cap = n;
	return 0;
}

/* A device whose function 0 is not in the dump (a bug report's port at
 * 00:1c.4): Linux's pci_scan_slot() stops at a missing function 0, so
 * the device's lowest function becomes function 0 in the scenario, on
 * both sides (nothing of ASPM depends on a port's function number).
 * Returns how many were moved. */
static unsigned part_fn0(struct lspci_dump *pd)
{
	unsigned moved = 0;

	for (unsigned i = 0; i < pd->nfn; i++) {
		struct lspci_fn *f = &pd->fn[i];
		bool lower = false;

		for (unsigned j = 0; j < pd->nfn; j++)
			if (pd->fn[j].addr.bus == f->addr.bus &&
			    pd->fn[j].addr.devfn >> 3 == f->addr.devfn >> 3 &&
			    PCI_FUNC(pd->fn[j].addr.devfn) < PCI_FUNC(f->addr.devfn))
				lower = true;
		if (!lower && PCI_FUNC(f->addr.devfn)) {
			f->addr.devfn &= (uint8_t)~7u;
			moved++;
		}
	}
	return moved;
}

static void part_name(const char *stem, const struct part *p, bool alone, char *buf, size_t n)
{
	if (alone && !p->seg && !p->root)
		snprintf(buf, n, "%s", stem);
	else if (!p->seg)
		snprintf(buf, n, "%s@%02x", stem, p->root);
	else
		snprintf(buf, n, "%s@%x-%02x", stem, p->seg, p->root);
}

static FILE *open_out(const char *dir, const char *name, const char *ext)
{
	char path[4096];
	FILE *o;

	snprintf(path, sizeof(path), "%s/%s%s", dir, name, ext);
	o = fopen(path, "w");
	if (!o)
		fprintf(stderr, "xcheck: %s: %s\n", path, strerror(errno));
	return o;
}

/*
 * A Downstream Port on the part's root bus (its Upstream Port is not in
 * the dump, as in a partial dump): Linux 6.1's alloc_pcie_link_state()
 * takes pdev->bus->parent->self to find the link's root, and a root bus
 * has no parent: the guest oopses. Real hardware has a switch's Upstream
 * Port above every Downstream Port, so this is not a scenario.
 */
static const char *not_a_scenario(const struct lspci_dump *pd)
{
	for (unsigned i = 0; i < pd->nfn; i++) {
		const struct lspci_fn *f = &pd->fn[i];

		if (f->addr.bus == 0 && f->caps.pcie &&
		    (f->cfg[f->caps.pcie + PCI_EXP_FLAGS] & 0xf0) >> 4 == PCI_EXP_TYPE_DOWNSTREAM)
			return "a Downstream Port on a root bus (its Upstream Port is not in the dump): "
			       "Linux 6.1's alloc_pcie_link_state() dereferences "
			       "pdev->bus->parent->self, NULL there";
	}
	return NULL;
}

/* What the unpatched kernel is held to under a group (docs/twin.md): the
 * patched kernel where it knows the command line; where it does not
 * (pcie_aspm=clear, pcie_aspm.fadt=) its own default policy, which still
 * builds link state and applies it (pcie_aspm_init_link_state() ->
 * pcie_config_aspm_path(): BIOS states masked by aspm_capable, so L1 goes
 * where latency, support or the pre-1.1 test forbid it): its own keep
 * result under clear, and under the FADT bit its result with
 * pcie_aspm=force alone (aspm_disabled skips the pre-1.1 test as
 * aspm_force does; tests/difffuzz/difffuzz.py, EXPECT). */
static const char *unpatched_expect(const char *group)
{
	if (!strcmp(group, "clear"))
		return "unpatched:keep";
	if (!strcmp(group, "fadt") || !strcmp(group, "notouch"))
		return "unpatched:force-default";
	return "patched";
}

/* One part under one group: NAME.GROUP.sim and NAME.GROUP.app. */
static int twin_scenario(const struct lspci_dump *pd, const char *pname, const char *group,
			 const char *what, const char *dir, FILE *idx, FILE *notes)
{
	static struct machine m;
	static const struct ecam_window win = { .base = 0xb0000000, .segment = 0,
						.bus_start = 0, .bus_end = 0xff };
	struct backend b = { .ops = &twin_cfg_ops, .win = &win, .nwin = 1, .problems_ok = true,
			     .nlog = twin_nlog, .print_log = twin_print_log };
	const struct out fo = { file_write, NULL };
	struct twin t;
	struct twin_err e;
	struct aspm_run r;
	char name[512];
	FILE *o;
	int rc;

	snprintf(name, sizeof(name), "%s.%s", pname, group);
	if (not_a_scenario(pd)) {
		if (!strcmp(group, twin_groups[0]))
			fprintf(notes, "noexport\t%s\t%s\n", pname, not_a_scenario(pd));
		return 0;
	}
	if (twin_from_dump(&t, pd))
		return -1;
	b.ctx = &t;
	memset(&m, 0, sizeof(m));
	o = open_out(dir, name, ".sim");
	if (!o) {
		twin_free(&t);
		return -1;
	}
	rc = twin_export_sim(&t, name, &(struct out){ fo.write, o }, &e);
	fclose(o);
	if (rc) {
		/* once per part, not per group */
		if (!strcmp(group, twin_groups[0]))
			fprintf(notes, "noexport\t%s\t%s\n", pname, e.msg);
		{
			char path[4096];

			snprintf(path, sizeof(path), "%s/%s.sim", dir, name);
			remove(path);
		}
		twin_free(&t);
		return 0;
	}
	o = open_out(dir, name, ".app");
	if (!o) {
		twin_free(&t);
		return -1;
	}
	fprintf(o, "app 1\nname %s\ngroup %s\n# %s\n", name, group, what);
	twin_print_regs(&t, "bios", !strcmp(group, "supersave"), o);
	rc = enumerate(name, &m, &b) || app_apply(name, group, NULL, &m, &b, &r, o) ? -1 : 0;
	if (!rc) {
		twin_print_regs(&t, "final", !strcmp(group, "supersave"), o);
		for (unsigned i = 0; i < m.topo.nfn; i++) {
			char bdf[16];

			fprintf(o, "enum %s\n", pci_addr_str(m.topo.fn[i].addr, bdf));
		}
		print_links_records(&m, o);
		if (m.topo.problems)
			fprintf(o, "# the app's enumeration reported %u problems\n", m.topo.problems);
	}
	rc = fclose(o) ? -1 : rc;
	if (!rc && t.log_lost) {
		fprintf(stderr, "xcheck: %s: %llu writes beyond the twin's log\n", name,
			(unsigned long long)t.log_lost);
		rc = -1;
	}
	if (!rc)
		fprintf(idx, "%s\t%s\t-\t%s\t%s\t%s\n", name, group,
			!strcmp(group, "supersave") ? "final" : "app", unpatched_expect(group), what);
	twin_free(&t);
	return rc;
}

/* Per link of the whole machine: did the policy change its ASPM Control,
 * CLKREQ# or L1SS enable bits (any function of the link)? */
static void twin_table(const char *stem, const char *group, const struct twin *t,
		       const struct twin *bios, const struct machine *m, unsigned dumped, FILE *tab)
{
	unsigned aspm = 0, clk = 0, l1ss = 0, pcie = 0;

	for (unsigned i = 0; i < m->topo.nfn; i++)
		pcie += !!m->topo.fn[i].pcie_cap;
	for (unsigned i = 0; i < m->topo.nlink; i++) {
		const struct pcie_link *l = &m->topo.link[i];
		bool a = false, c = false, s = false;

		for (int k = -1; k < l->ndown; k++) {
			const struct pcie_fn *f = &m->topo.fn[k < 0 ? l->up : l->down_first + k];
			const struct twin_fn *tf = twin_find(t, f->addr), *bf = twin_find(bios, f->addr);
			uint32_t d;

			if (!tf || !bf || !f->pcie_cap)
				continue;
			d = twin_peek(tf, f->pcie_cap + PCI_EXP_LNKCTL, 2) ^
			    twin_peek(bf, f->pcie_cap + PCI_EXP_LNKCTL, 2);
			a |= (d & PCI_EXP_LNKCTL_ASPMC) != 0;
			c |= (d & PCI_EXP_LNKCTL_CLKREQ_EN) != 0;
			if (f->l1ss)
				s |= ((twin_peek(tf, f->l1ss + PCI_L1SS_CTL1, 4) ^
				       twin_peek(bf, f->l1ss + PCI_L1SS_CTL1, 4)) & 0xf) != 0;
		}
		aspm += a;
		clk += c;
		l1ss += s;
	}
	fprintf(tab, "%s\t%s\t%u\t%u\t%u\t%u\t%u\t%u\t%u\t%u\t%u\n", stem, group, m->topo.nfn,
		pcie, m->topo.nlink, aspm, clk, l1ss, t->nlog, m->topo.problems, dumped);
}

/* The whole machine under group, for table.tsv. */
static int twin_whole(const struct lspci_dump *d, const char *stem, const char *group,
		      const struct part *p, unsigned np, FILE *tab)
{
	static struct machine m;
	static struct pcie_scan_opts opts;
	struct ecam_window win[ECAM_MAX_WINDOWS];
	struct backend b = { .ops = &twin_cfg_ops, .win = win, .opts = &opts,
			     .problems_ok = true, .nlog = twin_nlog, .print_log = twin_print_log };
	struct twin t, bios;
	struct aspm_run r;
	int rc;

	memset(&opts, 0, sizeof(opts));
	for (unsigned k = 0; k < np && opts.nextra_roots < PCIE_MAX_EXTRA_ROOTS; k++) {
		opts.extra_root[opts.nextra_roots++] = (struct pci_addr){ p[k].seg, p[k].root, 0 };
		if (b.nwin < ECAM_MAX_WINDOWS && (!b.nwin || win[b.nwin - 1].segment != p[k].seg))
			/* 256 MiB each, apart: the app refuses overlapping windows */
			win[b.nwin++] = (struct ecam_window){ .base = 0x100000000ull +
								      ((uint64_t)b.nwin << 28),
							      .segment = p[k].seg,
							      .bus_start = 0, .bus_end = 0xff };
	}
	if (twin_from_dump(&t, d))
		return -1;
	if (twin_from_dump(&bios, d)) {
		twin_free(&t);
		return -1;
	}
	b.ctx = &t;
	memset(&m, 0, sizeof(m));
	rc = enumerate(stem, &m, &b) || app_apply(stem, group, NULL, &m, &b, &r, NULL) ? -1 : 0;
	if (!rc)
		twin_table(stem, group, &t, &bios, &m, d->nfn, tab);
	twin_free(&t);
	twin_free(&bios);
	return rc;
}

static void orphans(const struct lspci_dump *d, const char *stem, FILE *notes)
{
	char b[16], list[1024] = "";
	size_t n = 0;

	for (unsigned i = 0; i < d->nfn; i++)
		if (!reachable(d, d->fn[i].addr.seg, d->fn[i].addr.bus) && n < sizeof(list) - 20)
			n += (size_t)snprintf(list + n, sizeof(list) - n, "%s%s", n ? " " : "",
					      pci_addr_str(d->fn[i].addr, b));
	if (n)
		fprintf(notes, "orphans\t%s\ton a bus no bridge of the dump leads to: %s\n", stem, list);
}

/* The dump file's content key (FNV-1a, 64 bits, of its bytes): expected
 * notes (tests/twin/expect.tsv) name a dump by what it holds, so a copy
 * under another name gets the same verdict. 0 when unreadable. */
static uint64_t content_key(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint64_t h = 0xcbf29ce484222325ull;
	int c;

	if (!f)
		return 0;
	while ((c = getc(f)) != EOF)
		h = (h ^ (uint8_t)c) * 0x100000001b3ull;
	fclose(f);
	return h;
}

static int twin_dump(const char *path, const char *dir, FILE *idx, FILE *notes, FILE *tab)
{
	static struct part p[256];
	struct lspci_dump d, pd;
	struct twin_err e;
	char stem[256], pname[300], what[400];
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	unsigned np, moved;
	int rc = 0;

	snprintf(stem, sizeof(stem), "%s", base);
	if (strlen(stem) > 4 && !strcmp(stem + strlen(stem) - 4, ".txt"))
		stem[strlen(stem) - 4] = '\0';
	fprintf(notes, "dump\t%s\tcontent:%016llx %s\n", stem,
		(unsigned long long)content_key(path), path);
	if (lspci_load(path, &d, &e)) {
		fprintf(notes, "refused\t%s\t%s:%u: %s\n", stem, path, e.line, e.msg);
		return 0;
	}
	orphans(&d, stem, notes);
	np = find_parts(&d, p, ARRAY_SIZE(p));
	fprintf(notes, "loaded\t%s\t%u functions, %u parts\n", stem, d.nfn, np);
	for (unsigned g = 0; g < ARRAY_SIZE(twin_groups); g++)
		if (twin_whole(&d, stem, twin_groups[g], p, np, tab))
			rc = -1;
	for (unsigned k = 0; k < np; k++) {
		part_name(stem, &p[k], np == 1, pname, sizeof(pname));
		if (part_dump(&d, &p[k], &pd)) {
			rc = -1;
			break;
		}
		moved = part_fn0(&pd);
		snprintf(what, sizeof(what), "%s: domain %04x, root bus %02x%s (%u functions)%s",
			 base, p[k].seg, p[k].root,
			 p[k].root ? " renumbered as bus 00" : "", pd.nfn,
			 moved ? "; a device without function 0 in the dump: its lowest function is function 0 here" : "");
		for (unsigned g = 0; g < ARRAY_SIZE(twin_groups); g++)
			if (twin_scenario(&pd, pname, twin_groups[g], what, dir, idx, notes))
				rc = -1;
		free(pd.fn);
	}
	lspci_free(&d);
	return rc;
}

/* xcheck --twin OUTDIR DUMP...: index.tsv, NAME.GROUP.{sim,app},
 * notes.tsv, table.tsv */
static int twin_main(int argc, char **argv)
{
	FILE *idx, *notes, *tab;
	int rc = 0;

	idx = open_out(argv[0], "index", ".tsv");
	notes = open_out(argv[0], "notes", ".tsv");
	tab = open_out(argv[0], "table", ".tsv");
	if (!idx || !notes || !tab)
		return 1;
	fprintf(idx, "# name\tgroup\tremove\tpatched\tunpatched\twhat\n");
	fprintf(notes, "# kind\tname\tmessage\n");
	fprintf(tab, "# machine\tgroup\tfunctions\tpcie\tlinks\taspm-changed\tclkreq-changed\t"
		"l1ss-changed\twrites\tproblems\tdumped\n");
	for (int i = 1; i < argc; i++)
		if (twin_dump(argv[i], argv[0], idx, notes, tab))
			rc = 1;
	if (fclose(idx) | fclose(notes) | fclose(tab))
		rc = 1;
	return rc;
}

/* ---------------------------------------------------------- generated (--gen) */

/*
 * make difffuzz (tests/difffuzz/): SPECS has one line per scenario,
 * "NAME GROUP SEED MUTATIONS" (SEED in hex, MUTATIONS as gen_mutate()
 * takes them, comma-separated, or "-"); each becomes NAME.sim and
 * NAME.app like a built-in scenario, with the expected outcome "auto"
 * (tests/difffuzz/difffuzz.py classifies).
 */
static struct gen_machine gen_cur;

static void build_gen(struct sim *s)
{
	gen_build(&gen_cur, s);
}

static int gen_load(const char *seed, const char *muts)
{
	char buf[4096], *save = NULL;

	gen_machine(&gen_cur, strtoull(seed, NULL, 16));
	if (!strcmp(muts, "-"))
		return 0;
	snprintf(buf, sizeof(buf), "%s", muts);
	for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save))
		if (gen_mutate(&gen_cur, t))
			return -1;
	return 0;
}

static int gen_main(const char *dir, const char *specs)
{
	char line[8192], name[64], group[16], seed[32], muts[4096], path[4096], rm[16];
	FILE *in = fopen(specs, "r"), *idx;
	int rc = 0;

	snprintf(path, sizeof(path), "%s/index.tsv", dir);
	idx = fopen(path, "w");
	if (!in || !idx) {
		fprintf(stderr, "xcheck: %s: %s\n", in ? path : specs, strerror(errno));
		return 1;
	}
	fprintf(idx, "# name\tgroup\tremove\tpatched\tunpatched\twhat\n");
	while (fgets(line, sizeof(line), in)) {
		struct scenario sc = { name, group, build_gen, NULL, "auto", "auto", "" };

		if (sscanf(line, "%63s %15s %31s %4095s", name, group, seed, muts) != 4)
			continue;
		if (gen_load(seed, muts)) {
			fprintf(stderr, "xcheck: %s: a mutation does not apply: %s\n", name, muts);
			rc = 1;
			continue;
		}
		sc.remove = gen_remove(&gen_cur, rm, sizeof(rm));
		if (write_scenario(&sc, dir))
			rc = 1;
		fprintf(idx, "%s\t%s\t%s\tauto\tauto\tseed %s mutations %s\n", name, group,
			sc.remove ? sc.remove : "-", seed, muts);
	}
	if (fclose(idx) | fclose(in))
		rc = 1;
	return rc;
}

/* xcheck --gen-info SEED MUTATIONS: the machine, and the mutations that
 * would still change it (for the reducer) */
static int gen_info(const char *seed, const char *muts)
{
	static const char *const kind[] = { "host", "rp", "usp", "dsp", "ep", "pcibr", "pci" };
	static char buf[65536];

	if (gen_load(seed, muts))
		return 1;
	printf("functions %u\n", gen_count(&gen_cur, -1));
	for (unsigned i = 0; i < gen_cur.nn; i++) {
		const struct gen_node *x = &gen_cur.n[i];

		if (x->dropped)
			continue;
		printf("node %u %02x:%02x.%x %s parent=%d ver=%u devcap=%08x lnkcap=%08x "
		       "lnkctl=%04x lnksta=%04x ltr=%d/%d ari=%d/%d multi=%d", i, x->bus, x->dev,
		       x->fn, kind[x->kind], x->parent, x->ver, x->devcap, x->lnkcap, x->lnkctl,
		       x->lnksta, x->ltr_mech, x->ltr_cap, x->ari_fwd, x->ari, x->multi);
		if (x->l1ss)
			printf(" l1ss=%08x/%08x/%08x", x->l1ss_cap, x->l1ss_ctl1, x->l1ss_ctl2);
		printf("\n");
	}
	if (gen_cur.remove >= 0)
		printf("remove %s\n", gen_remove(&gen_cur, buf, sizeof(buf)));
	gen_mutations(&gen_cur, buf, sizeof(buf));
	printf("mutations %s\n", buf[0] ? buf : "-");
	return 0;
}

int main(int argc, char **argv)
{
	char path[4096];
	FILE *idx;
	int rc = 0;

	if (argc == 2 && !strcmp(argv[1], "--list")) {
		for (unsigned i = 0; i < ARRAY_SIZE(scenarios); i++)
			printf("%s\t%s\t%s\n", scenarios[i].name, scenarios[i].group,
			       scenarios[i].what);
		return 0;
	}
	if (argc == 4 && !strcmp(argv[1], "--gen")) {
		log_set_sink(&out_null, LOG_ERR);
		return gen_main(argv[2], argv[3]);
	}
	if (argc == 4 && !strcmp(argv[1], "--gen-info"))
		return gen_info(argv[2], argv[3]);
	if (argc >= 4 && !strcmp(argv[1], "--twin")) {
		log_set_sink(&out_null, LOG_ERR);
		return twin_main(argc - 2, argv + 2);
	}
	if (argc != 2 || argv[1][0] == '-') {
		fprintf(stderr, "usage: xcheck OUTDIR | --list | --twin OUTDIR DUMP...\n");
		return 2;
	}
	log_set_sink(&out_null, LOG_ERR);
	snprintf(path, sizeof(path), "%s/index.tsv", argv[1]);
	idx = fopen(path, "w");
	if (!idx) {
		fprintf(stderr, "xcheck: %s: %s\n", path, strerror(errno));
		return 1;
	}
	fprintf(idx, "# name\tgroup\tremove\tpatched\tunpatched\twhat\n");
	for (unsigned i = 0; i < ARRAY_SIZE(scenarios); i++) {
		const struct scenario *sc = &scenarios[i];

		if (write_scenario(sc, argv[1]))
			rc = 1;
		fprintf(idx, "%s\t%s\t%s\t%s\t%s\t%s\n", sc->name, sc->group,
			sc->remove ? sc->remove : "-", sc->patched, sc->unpatched, sc->what);
	}
	if (fclose(idx))
		rc = 1;
	return rc;
}
