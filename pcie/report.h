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
/* "1.234 ms" style durations */
void format_ns(uint64_t ns, char *buf, size_t size);

#endif
