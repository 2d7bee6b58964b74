/* SPDX-License-Identifier: GPL-2.0-only */
/* Link state: what the hardware offers, what the BIOS set, and the
 * latency and sanity checks of Linux's drivers/pci/pcie/aspm.c. */
#ifndef ASPMCTL_PCIE_LINK_H
#define ASPMCTL_PCIE_LINK_H

#include "topo.h"

/* Pair upstream ports with the functions on their secondary bus and build
 * the parent/root chain (alloc_pcie_link_state()). Called by
 * pcie_enumerate(); exposed for tests. */
int pcie_build_links(struct pcie_topo *t);

#define ASPM_NO_LIMIT	0xffffffffu

/* Exit latencies from LNKCAP, acceptable latencies from DEVCAP, in ns. */
uint32_t aspm_l0s_exit_ns(uint32_t lnkcap);
uint32_t aspm_l1_exit_ns(uint32_t lnkcap);
uint32_t aspm_l0s_acceptable_ns(uint32_t devcap);
uint32_t aspm_l1_acceptable_ns(uint32_t devcap);

/* LINK_NON_PCIE / LINK_PRE_1_1 for the functions on the link. */
uint32_t link_sanity(const struct pcie_topo *t, const struct pcie_link *l);
/* Fill support/enabled/default/capable and Clock PM from the cached
 * registers; a blacklisted link gets enabled = disable = ALL so the
 * policy clears it (as Linux's pcie_aspm_cap_init()). */
void link_read_state(const struct pcie_topo *t, struct pcie_link *l,
		     bool blacklist);
/* Latency checks for one endpoint, and for every endpoint of the links
 * under root (root < 0: all links), resetting capable = support first.
 * init: as at link initialisation (skip blacklisted and non-ASPM links). */
void link_check_latency(struct pcie_topo *t, int ep);
/* As pcie_aspm_cap_init() does at one link's initialisation: check the
 * endpoints on link li (nothing on a blacklisted or non-ASPM link). */
void link_check_link_latency(struct pcie_topo *t, int li);
/* ASPM states enabled in the cached registers of the link's ends (L0s per
 * direction, L1 and L1SS only where both ends have them), whatever the
 * sanity checks say: what the records call "bios". */
uint8_t link_regs_state(const struct pcie_topo *t, const struct pcie_link *l);
void link_check_all_latencies(struct pcie_topo *t, int root, bool init);

#endif
