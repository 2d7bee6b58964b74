/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ECAM (PCIe r5.0 sec 7.2.2): config space of seg:bus:dev.fn at
 * base(seg) + (bus << 20 | dev << 15 | fn << 12 | offset), where base is
 * the address of bus 0 of the segment. The decoded buses are a set of
 * ECAM windows that the caller builds (the app from the usable MCFG
 * allocations, PCI Firmware spec 3.3 sec 4.1.2); a bus outside every
 * window is never touched. The MMIO itself is done by an mmio_ops that
 * efi/ provides (volatile, exact width) or a test provides.
 */
#ifndef ASPMCTL_PCIE_ECAM_H
#define ASPMCTL_PCIE_ECAM_H

#include "cfg.h"

#define ECAM_MAX_WINDOWS	64

/* Buses bus_start..bus_end of a segment, decoded at base (bus 0's address). */
struct ecam_window {
	uint64_t base;
	uint16_t segment;
	uint8_t bus_start;
	uint8_t bus_end;
};

struct mmio_ops {
	uint32_t (*read)(void *ctx, uint64_t phys, unsigned width);
	void (*write)(void *ctx, uint64_t phys, unsigned width, uint32_t val);
};

struct ecam {
	const struct ecam_window *win;
	unsigned nwin;
	const struct mmio_ops *mmio;
	void *mmio_ctx;
};

/* The window decoding seg:bus, or NULL (the first one wins). */
const struct ecam_window *ecam_window_find(const struct ecam_window *win,
					   unsigned nwin, uint16_t seg,
					   uint8_t bus);
/* Physical address of a config register, or -AE_RANGE when the bus is
 * outside every window. */
int ecam_address(const struct ecam *e, struct pci_addr a, uint16_t off,
		 uint64_t *phys);

extern const struct pci_cfg_ops ecam_cfg_ops;	/* ctx = struct ecam * */

#endif
