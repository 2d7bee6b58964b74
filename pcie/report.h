/* SPDX-License-Identifier: GPL-2.0-only */
/* The human-readable report; records are records/records.h. */
#ifndef ASPMCTL_PCIE_REPORT_H
#define ASPMCTL_PCIE_REPORT_H

#include "policy.h"
#include "../records/records.h"

void report_tree(const struct out *o, const struct pcie_topo *t);
void report_links(const struct out *o, const struct pcie_topo *t);
/* State sets as words: aspm_state_str() in records/records.h. */

/* "1.234 ms" style durations */
void format_ns(uint64_t ns, char *buf, size_t size);

#endif
