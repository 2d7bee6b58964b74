/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Seeded generator of random machines for the host simulator, for the
 * differential fuzzing of the app's engine against Linux's aspm.c
 * (make difffuzz, tests/difffuzz/README.md).
 *
 * A machine is first drawn as a plain description (struct gen_machine:
 * one node per function with every link-relevant register value), then
 * built with the tests/sim builders. The description is what the
 * reducer shrinks: gen_mutate() drops a node (and what is below it) or
 * sets one field group of a node to a plain value, so that a divergence
 * can be reduced to the smallest machine that still shows it.
 *
 * The PRNG is splitmix64 (no rand()): the same seed gives the same
 * machine on every run and every host.
 */
#ifndef ASPMCTL_TESTS_SIM_GEN_H
#define ASPMCTL_TESTS_SIM_GEN_H

#include <stdbool.h>
#include <stdint.h>
#include "sim.h"

#define GEN_MAX_FN	40	/* aspmsim.ko takes 64 functions per scenario */
#define GEN_MAX_DEPTH	5	/* links in a row from the root bus down */

enum gen_kind {
	GEN_HOST,	/* host bridge on the root bus (not PCIe) */
	GEN_RP,		/* Root Port */
	GEN_USP,	/* switch Upstream Port */
	GEN_DSP,	/* switch Downstream Port */
	GEN_EP,		/* PCIe endpoint function */
	GEN_PCIBR,	/* PCIe-to-PCI bridge */
	GEN_PCI,	/* conventional PCI function */
};

/* the field groups gen_mutate() can make plain (GEN_F_*) */
enum gen_field {
	GEN_F_ASPM,	/* BIOS ASPM Control -> 0 */
	GEN_F_CLKPM,	/* Clock PM capability and CLKREQ# -> 0 */
	GEN_F_LAT,	/* exit latencies -> 0, acceptable latencies -> no limit */
	GEN_F_L1SS,	/* no L1 PM Substates capability */
	GEN_F_LTR,	/* no LTR (mechanism, capability) */
	GEN_F_PRE11,	/* capability version 2 and RBER */
	GEN_F_CCC,	/* Common Clock Configuration set, Slot Clock set */
	GEN_F_SUPPORT,	/* ASPM Support L0s and L1 */
	GEN_NFIELDS,
};

struct gen_node {
	uint8_t kind;			/* enum gen_kind */
	uint8_t bus, dev, fn;
	uint8_t sec, sub;		/* bridges */
	int8_t parent;			/* node of the bridge above, -1: the root bus */
	uint8_t depth;			/* its link counted from the root bus (0: none) */
	bool dropped;
	bool multi;			/* Multi-Function Device bit (function 0) */
	bool ari_fwd;			/* Downstream/Root Port: ARI Forwarding */
	bool ari;			/* ARI capability; next_fn */
	uint8_t next_fn;
	uint8_t ver;			/* PCIe capability version (1: pre-1.1) */
	uint32_t devcap, lnkcap;
	uint16_t lnkctl, lnksta;
	bool l1ss, ltr_cap, ltr_mech;
	uint32_t l1ss_cap, l1ss_ctl1, l1ss_ctl2;
};

struct gen_machine {
	uint64_t seed;
	unsigned nn;
	struct gen_node n[GEN_MAX_FN];
	int remove;			/* node removed through sysfs, -1: none */
};

/* splitmix64 (Steele, Lea, Flood 2014) */
uint64_t gen_next(uint64_t *state);
/* the seed of machine i of a campaign started with seed */
uint64_t gen_seed(uint64_t campaign, uint64_t i);

void gen_machine(struct gen_machine *m, uint64_t seed);
/* Apply one mutation: "dN" (drop node N and everything below it), "r" (no
 * removal) or "fN.F"
 * (make field group F of node N plain, enum gen_field).
 * Returns 0, or -1 when it does not apply (nothing would change). */
int gen_mutate(struct gen_machine *m, const char *mut);
/* Every mutation that would change m, as a comma-separated list in buf. */
unsigned gen_mutations(const struct gen_machine *m, char *buf, size_t n);
/* Build the machine (nodes not dropped) into s. */
int gen_build(const struct gen_machine *m, struct sim *s);
/* The removed function as "BB:DD.F" in buf, or NULL. */
const char *gen_remove(const struct gen_machine *m, char *buf, size_t n);
/* Counts of the machine, for the campaign's figures. */
unsigned gen_count(const struct gen_machine *m, int kind);

#endif
