/* SPDX-License-Identifier: GPL-2.0-only */
/* Config-space dumps in the text format `lspci -xxxx` prints and
 * `lspci -F FILE` reads back. */
#ifndef ASPMCTL_PCIE_DUMP_H
#define ASPMCTL_PCIE_DUMP_H

#include "topo.h"
#include "../lib/fmt.h"

/* One function: "SSSS:BB:DD.F Class CCCC: Device VVVV:DDDD" then rows of
 * 16 bytes ("00: ..", ..., "ff0: .."), a blank line after. Reads 4 KiB as
 * dwords (PCIe functions) or 256 bytes (conventional ones). Returns the
 * number of bytes dumped. */
unsigned pcie_dump_fn(struct pci_cfg *c, const struct pcie_fn *f,
		      const struct out *o);
void pcie_dump_all(struct pci_cfg *c, const struct pcie_topo *t,
		   const struct out *o);

#endif
