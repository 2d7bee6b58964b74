/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ECAM (PCIe r5.0 sec 7.2.2): config space of seg:bus:dev.fn at
 * base(seg) + (bus << 20 | dev << 15 | fn << 12 | offset), where base is
 * the MCFG entry's address for bus 0. Only buses inside a usable MCFG
 * region are ever touched; the MMIO itself is done by an mmio_ops that
 * efi/ provides (volatile, exact width) or a test provides.
 */
#ifndef ASPMCTL_PCIE_ECAM_H
#define ASPMCTL_PCIE_ECAM_H

#include "../acpi/acpi.h"
#include "cfg.h"

struct mmio_ops {
	uint32_t (*read)(void *ctx, uint64_t phys, unsigned width);
	void (*write)(void *ctx, uint64_t phys, unsigned width, uint32_t val);
};

struct ecam {
	const struct mcfg_region *region;
	unsigned nregion;
	const struct mmio_ops *mmio;
	void *mmio_ctx;
};

/* Physical address of a config register, or -AE_RANGE when the bus is
 * outside every usable region (flagged regions are never used). */
int ecam_address(const struct ecam *e, struct pci_addr a, uint16_t off,
		 uint64_t *phys);
/* The region decoding seg:bus, or NULL. */
const struct mcfg_region *ecam_region(const struct ecam *e, uint16_t seg,
				      uint8_t bus);

extern const struct pci_cfg_ops ecam_cfg_ops;	/* ctx = struct ecam * */

#endif
