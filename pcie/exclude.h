/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Per-device exclusions (--disable STATES@MATCH): which link states a
 * function's link may never enter, as a driver's pci_disable_link_state()
 * call does in Linux 6.1 (drivers/pci/pcie/aspm.c,
 * __pci_disable_link_state()). Pure functions over struct pcie_topo: the
 * rules only narrow the targets the policy computes (policy.c).
 */
#ifndef ASPMCTL_PCIE_EXCLUDE_H
#define ASPMCTL_PCIE_EXCLUDE_H

#include "topo.h"

#define ASPM_MAX_EXCL	16	/* rules per run (at most 32: a link's bitmask) */

enum aspm_excl_kind { EXCL_ID, EXCL_BDF, EXCL_CLASS };

struct aspm_excl {
	uint8_t kind;		/* enum aspm_excl_kind */
	uint8_t states;		/* ASPM_STATE_* removed, L1 implying L1SS */
	bool clkpm;		/* Clock PM (CLKREQ#) removed */
	uint8_t class_digits;	/* EXCL_CLASS: hex digits given (prefix) */
	uint16_t vendor, device;	/* EXCL_ID */
	struct pci_addr addr;		/* EXCL_BDF */
	uint32_t class_code;		/* EXCL_CLASS, left-aligned in 24 bits */
	char text[48];		/* the rule as written, for the records */
};

/*
 * Parse "STATES@MATCH": STATES a comma list of L0s, L1, L1.1, L1.2,
 * clkpm, all (any case); MATCH one of VVVV:DDDD, SSSS:BB:DD.F, BB:DD.F
 * (segment 0000, as lspci prints it) or class:C..C (1 to 6 hex digits, a
 * prefix of base class, subclass, programming interface). L1 implies
 * L1.1 and L1.2, as __pci_disable_link_state() does; L1.1 and L1.2 name
 * both the ASPM and the PCI-PM substate. -AE_INVAL when malformed.
 */
int aspm_excl_parse(const char *s, struct aspm_excl *e);
bool aspm_excl_match(const struct aspm_excl *e, const struct pcie_fn *f);
/*
 * Set each link's excl_disable / excl_clkpm / excl_rules from the rules:
 * a matching function's link as its downstream end (pcie_aspm_get_link())
 * and the link below it when it is an upstream port. matched[i] (may be
 * NULL) receives how many links rule i reached. Returns the number of
 * rules that matched no function.
 */
unsigned aspm_excl_apply(struct pcie_topo *t, const struct aspm_excl *e,
			 unsigned n, unsigned *matched);

#endif
