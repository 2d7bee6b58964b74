/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * One aspmctl run over an enumerated machine: report, plan, apply or
 * remove. Shared by efi/ (real hardware) and the host tests (simulator),
 * so the records the tests check are the ones the app prints.
 */
#ifndef ASPMCTL_PCIE_RUN_H
#define ASPMCTL_PCIE_RUN_H

#include "apply.h"
#include "report.h"
#include "exclude.h"

enum aspm_cmd { CMD_REPORT, CMD_PLAN, CMD_APPLY, CMD_REMOVE };

struct aspm_run {
	enum aspm_cmd cmd;
	struct aspm_inputs in;
	bool fadt_valid;
	struct pci_addr remove;	/* CMD_REMOVE */
	bool remove_apply;	/* CMD_REMOVE: also write (default: predict) */
	bool verbose;		/* human link table too */
	const struct aspm_excl *excl;	/* --disable rules */
	unsigned nexcl;
	/* storage (caller-provided) */
	struct pcie_topo *topo;
	struct aspm_plan plan;
	struct aspm_link_plan *lp;	/* topo->cap_link entries */
	const struct aspm_env *env;
	/* results */
	enum aspm_action action;
	struct aspm_apply_stats st;
	unsigned lnkcap_changed;
};

/* The topology must already be enumerated. Writes records to o. */
int aspm_run(struct pci_cfg *c, struct aspm_run *r, const struct out *o);

#endif
