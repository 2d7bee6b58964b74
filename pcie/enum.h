/* SPDX-License-Identifier: GPL-2.0-only */
/* Enumeration that follows firmware's bridges (pcie/enum.c). */
#ifndef ASPMCTL_PCIE_ENUM_H
#define ASPMCTL_PCIE_ENUM_H

#include "ecam.h"
#include "topo.h"

/* extra root buses: servers have many root bridges and segments */
#define PCIE_MAX_EXTRA_ROOTS	64

struct pcie_scan_opts {
	bool full_scan;		/* probe every bus of every ECAM window */
	/* extra root buses (e.g. from configuration; pxb-pcie on QEMU);
	 * more than PCIE_MAX_EXTRA_ROOTS are reported and ignored */
	unsigned nextra_roots;
	struct pci_addr extra_root[PCIE_MAX_EXTRA_ROOTS];	/* devfn ignored */
};

/* Enumerate the buses the ECAM windows decode: root buses = the windows'
 * start buses plus extra roots, per segment in ascending order, following
 * firmware-programmed bridges. */
int pcie_enumerate(struct pci_cfg *c, const struct ecam_window *win,
		   unsigned nwin, const struct pcie_scan_opts *opts,
		   struct pcie_topo *t);

/* Find a function by address, or -1. */
int pcie_find_fn(const struct pcie_topo *t, struct pci_addr a);

/* "root-port", "endpoint", ... or "pci" for conventional functions. */
const char *pcie_type_name(const struct pcie_fn *f);

#endif
