/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Capability walks (pcie/caps.c): bounded; -AE_LOOP when a list loops or
 * points into the header, -AE_NOENT when absent.
 */
#ifndef ASPMCTL_PCIE_CAPS_H
#define ASPMCTL_PCIE_CAPS_H

#include "cfg.h"

int pci_find_cap_hdr(struct pci_cfg *c, struct pci_addr a, uint8_t id, uint8_t *pos,
		     uint32_t *hdr);
int pci_find_ext_cap(struct pci_cfg *c, struct pci_addr a, uint16_t id,
		     uint16_t *pos);
/* One walk for several IDs: pos[i] = offset or 0; -AE_NOENT if none. */
int pci_find_ext_caps(struct pci_cfg *c, struct pci_addr a, const uint16_t *ids,
		      uint16_t *pos, unsigned n);

#endif
