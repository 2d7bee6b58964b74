/* SPDX-License-Identifier: GPL-2.0-only */
/* The thin step that writes a plan to hardware, with read-back. */
#ifndef ASPMCTL_PCIE_APPLY_H
#define ASPMCTL_PCIE_APPLY_H

#include "policy.h"

struct aspm_env {
	/* busy-wait; NULL means "do not wait" (host tests) */
	void (*delay_us)(void *ctx, unsigned us);
	void *ctx;
};

struct aspm_apply_stats {
	unsigned written;
	unsigned ignored;	/* read-back of the owned bits differed */
	unsigned errors;	/* the access itself failed */
	unsigned retrain_timeouts;
};

/* Retrain: poll Link Training for at most this long (Linux: 1 s). */
#define ASPM_RETRAIN_POLLS	1000
#define ASPM_RETRAIN_POLL_US	1000

/* Perform p->w[from..n): each write is read-modify-write of the owned
 * bits against the register's current value, then read back. Returns 0,
 * or the first access error (the rest is still attempted). A retrain that
 * times out (before or after Retrain Link) gets result -3 and the Common
 * Clock restore writes are inserted into the plan after it (p->n grows). */
int aspm_apply(struct pci_cfg *c, struct pcie_topo *t, struct aspm_plan *p,
	       unsigned from, const struct aspm_env *env,
	       struct aspm_apply_stats *st);

/* After Common Clock Configuration: re-read LNKCAP of the functions at both
 * ends of link li (exit latencies may change, PCIe r5.0 sec 7.5.3.6).
 * Returns how many LNKCAP values changed. */
unsigned aspm_reread_link_lnkcap(struct pci_cfg *c, struct pcie_topo *t, int li);

/* powersupersave: read L1 PM Substates Control 2, and Device
 * Capabilities 2 / Device Control 2 (LTR) of every PCIe function: what
 * L1.2 timing and LTR enable need; once per function. */
void aspm_read_l1ss_regs(struct pci_cfg *c, struct pcie_topo *t);

#endif
