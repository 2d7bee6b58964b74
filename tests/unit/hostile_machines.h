/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The hostile config-space machines (README "What aspmctl guarantees
 * when firmware is broken"), shared by
 * tests/unit/test_hostile.c (the pipeline on the simulator) and
 * tests/unit/test_boot.c (the app's boot mode over ECAM). Each case has
 * one healthy link (BIOS enabled L1 on 00:01.0 <-> 01:00.0) plus one
 * broken thing, the message the user must see, the functions that must
 * never be written and the number of writes expected in all (the
 * healthy link's) when the policy clears ASPM.
 */
#ifndef ASPMCTL_TESTS_UNIT_HOSTILE_MACHINES_H
#define ASPMCTL_TESTS_UNIT_HOSTILE_MACHINES_H

#include "../sim/build.h"

#define LC	SIM_LNKCAP(3, 1, 1, 0)
#define DC	SIM_DEVCAP(3, 3, 1)

static void healthy(struct sim *s)
{
	sim_root_port(s, 0, 1, 0, 1, 1, LC, PCI_EXP_LNKCTL_ASPM_L1);
	sim_endpoint(s, 1, 0, 0, DC, LC, PCI_EXP_LNKCTL_ASPM_L1);
}

static void cap_loop(struct sim *s)
{
	struct sim_fn *d = sim_endpoint(s, 0, 2, 0, DC, LC, PCI_EXP_LNKCTL_ASPM_L1);

	/* a Power Management capability in front of the PCIe one that
	 * points back at itself: the walk never reaches PCIe */
	d->cfg[0xc0] = PCI_CAP_ID_PM;
	d->cfg[0xc1] = 0xc0;
	d->cfg[PCI_CAPABILITY_LIST] = 0xc0;
}

static void cap_into_header(struct sim *s)
{
	struct sim_fn *d = sim_endpoint(s, 0, 2, 0, DC, LC, PCI_EXP_LNKCTL_ASPM_L1);

	d->cfg[PCI_CAPABILITY_LIST] = 0x08;
}

static void extcap_loop(struct sim *s)
{
	struct sim_fn *rp = sim_root_port(s, 0, 2, 0, 2, 2, LC, PCI_EXP_LNKCTL_ASPM_L1);
	struct sim_fn *e = sim_endpoint(s, 2, 0, 0, DC, LC, PCI_EXP_LNKCTL_ASPM_L1);
	uint16_t a = sim_add_ext_cap(e, 0x0001, 0x40);

	(void)rp;
	sim_poke(e, a, 4, 0x0001 | (1u << 16) | ((uint32_t)a << 20));
}

static void sub_below_sec(struct sim *s)
{
	sim_root_port(s, 0, 2, 0, 5, 3, LC, PCI_EXP_LNKCTL_ASPM_L1);
	sim_endpoint(s, 5, 0, 0, DC, LC, PCI_EXP_LNKCTL_ASPM_L1);
}

static void bus_claimed_twice(struct sim *s)
{
	sim_root_port(s, 0, 2, 0, 1, 1, LC, PCI_EXP_LNKCTL_ASPM_L1);
}

static void outside_mcfg(struct sim *s)
{
	sim_root_port(s, 0, 2, 0, 0x40, 0x40, LC, PCI_EXP_LNKCTL_ASPM_L1);
	sim_endpoint(s, 0x40, 0, 0, DC, LC, PCI_EXP_LNKCTL_ASPM_L1);
}

static void vanishes(struct sim *s)
{
	sim_root_port(s, 0, 2, 0, 2, 2, LC, PCI_EXP_LNKCTL_ASPM_L1);
	sim_endpoint(s, 2, 0, 0, DC, LC, PCI_EXP_LNKCTL_ASPM_L1)->vanish_after = 3;
}

static void not_ready(struct sim *s)
{
	sim_root_port(s, 0, 2, 0, 2, 2, LC, PCI_EXP_LNKCTL_ASPM_L1);
	sim_endpoint(s, 2, 0, 0, DC, LC, PCI_EXP_LNKCTL_ASPM_L1)->crs_reads = ~0u;
}

static void aliases(struct sim *s)
{
	sim_endpoint(s, 0, 2, 0, DC, LC, PCI_EXP_LNKCTL_ASPM_L1)->alias_all = true;
}

static void unknown_type(struct sim *s)
{
	struct sim_fn *rp = sim_root_port(s, 0, 2, 0, 2, 2, LC, PCI_EXP_LNKCTL_ASPM_L1);

	sim_poke(rp, rp->pcie + PCI_EXP_FLAGS, 2, 0x00f2);
	sim_endpoint(s, 2, 0, 0, DC, LC, PCI_EXP_LNKCTL_ASPM_L1);
}

struct hostile {
	const char *name;
	void (*build)(struct sim *s);
	const char *msg;
	/* functions that must never be written (bus, dev) */
	uint8_t bad[2][2];
	unsigned nbad;
	unsigned writes;	/* writes expected in all (the healthy link's) */
};

static const struct hostile hostile_cases[] = {
	{ "capability loop", cap_loop,
	  "0000:00:02.0: capability list loops or points into the header", {{0, 2}}, 1, 2 },
	{ "capability into the header", cap_into_header,
	  "0000:00:02.0: capability list loops or points into the header", {{0, 2}}, 1, 2 },
	/* the extended loop only hides L1SS: the link itself is cleared */
	{ "extended capability loop", extcap_loop,
	  "0000:02:00.0: extended capability list loops", {{0, 0}}, 0, 4 },
	{ "subordinate below secondary", sub_below_sec,
	  "0000:00:02.0: bridge bus numbers invalid", {{0, 2}, {5, 0}}, 2, 2 },
	{ "bus claimed twice", bus_claimed_twice,
	  "0000:00:02.0: secondary bus 01 already claimed by another bridge", {{0, 2}}, 1, 2 },
	{ "bridge outside the MCFG range", outside_mcfg,
	  "bridge leads to buses 40-40 outside the MCFG range", {{0, 2}, {0x40, 0}}, 2, 2 },
	{ "function vanishes mid-scan", vanishes,
	  "0000:02:00.0: vanished during the scan (reads all-ones)", {{0, 2}, {2, 0}}, 2, 2 },
	{ "function never ready", not_ready,
	  "0000:02:00.0: function answers Configuration Retry forever, skipped", {{0, 2}, {2, 0}}, 2, 2 },
	{ "aliases on every function", aliases, NULL, {{0, 0}}, 0, 2 },
	{ "unknown port type", unknown_type,
	  "0000:00:02.0: PCIe capability with unknown port type 15", {{0, 2}, {2, 0}}, 2, 2 },
};

#define HOSTILE_NCASES	(sizeof(hostile_cases) / sizeof(hostile_cases[0]))

/* No write reached a function the case marks as broken (cmocka). */
static inline void hostile_assert_no_bad_writes(const struct hostile *h,
						const struct sim *s)
{
	for (unsigned i = 0; i < s->nlog; i++)
		for (unsigned k = 0; k < h->nbad; k++)
			if (s->log[i].a.bus == h->bad[k][0] &&
			    PCI_SLOT(s->log[i].a.devfn) == h->bad[k][1])
				fail_msg("%s: write to %02x:%02x", h->name, h->bad[k][0],
					 h->bad[k][1]);
}

#endif
