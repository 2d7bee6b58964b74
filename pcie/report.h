/* SPDX-License-Identifier: GPL-2.0-only */
/* Human-readable report and machine-readable records (docs/records.md). */
#ifndef ASPMCTL_PCIE_REPORT_H
#define ASPMCTL_PCIE_REPORT_H

#include "policy.h"

void report_tree(const struct out *o, const struct pcie_topo *t);
void report_links(const struct out *o, const struct pcie_topo *t);
/* `fn` records, one per function */
void report_fn_records(const struct out *o, const struct pcie_topo *t);
/* `aspm link` records for every link, `aspm write` for every write */
void report_link_records(const struct out *o, const struct pcie_topo *t,
			 enum aspm_action act, const struct aspm_link_plan *lp);
void report_write_records(const struct out *o, const struct pcie_topo *t,
			  const struct aspm_plan *p, unsigned from, bool applied);
struct aspm_excl;
/* `aspm exclude` records: each rule, the links it reached, what it took */
void report_excl_records(const struct out *o, const struct pcie_topo *t,
			 const struct aspm_excl *e, unsigned n,
			 enum aspm_action act, const struct aspm_link_plan *lp);
/* One record each (docs/records.md) */
void aspm_state_str(uint8_t state, char *buf, size_t size);
void aspm_print_decision(const struct out *o, const struct aspm_inputs *in,
			 bool fadt_valid, enum aspm_action act);
void aspm_print_link(const struct out *o, const struct pcie_topo *t, int li,
		     enum aspm_action act, const struct aspm_link_plan *lp);
/* "aspm ccc" (when lp->ccc says so) and "aspm target" records */
void aspm_print_ccc(const struct out *o, const struct pcie_topo *t, int li,
		    const struct aspm_link_plan *lp);
void aspm_print_targets(const struct out *o, const struct pcie_topo *t, int li);
void aspm_print_write(const struct out *o, const struct pcie_topo *t,
		      const struct aspm_write *w, bool applied);
const char *aspm_step_name(enum aspm_step s);

/* "1.234 ms" style durations */
void format_ns(uint64_t ns, char *buf, size_t size);

#endif
