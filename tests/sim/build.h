/* SPDX-License-Identifier: GPL-2.0-only */
/* Short-hand builders for simulated PCIe hierarchies. */
#ifndef ASPMCTL_TESTS_SIM_BUILD_H
#define ASPMCTL_TESTS_SIM_BUILD_H

#include "sim.h"
#include "../../pcie/pci_regs.h"

/* LNKCAP with ASPM support (1 = L0s, 2 = L1, 3 = both), exit latency
 * encodings (PCIe r5.0 7.5.3.6) and Clock PM. */
#define SIM_LNKCAP(aspm, l0s_enc, l1_enc, clkpm) \
	(((uint32_t)(aspm) << 10) | ((uint32_t)(l0s_enc) << 12) | \
	 ((uint32_t)(l1_enc) << 15) | ((clkpm) ? PCI_EXP_LNKCAP_CLKPM : 0) | 0x11)
/* DEVCAP with acceptable latency encodings (7.5.3.3) and RBER. */
#define SIM_DEVCAP(l0s_acc, l1_acc, rber) \
	(((uint32_t)(l0s_acc) << 6) | ((uint32_t)(l1_acc) << 9) | \
	 ((rber) ? PCI_EXP_DEVCAP_RBER : 0))

#define SIM_PORT_DEVCAP	SIM_DEVCAP(0, 0, 1)
#define SIM_LNKCAP_QEMU	0x411	/* what QEMU's devices report: L0s, x1, 2.5GT/s */

struct sim_fn *sim_root_port(struct sim *s, uint8_t bus, uint8_t dev, uint8_t fn,
			     uint8_t sec, uint8_t sub, uint32_t lnkcap,
			     uint16_t lnkctl);
struct sim_fn *sim_switch_up(struct sim *s, uint8_t bus, uint8_t sec, uint8_t sub,
			     uint32_t lnkcap, uint16_t lnkctl);
struct sim_fn *sim_switch_down(struct sim *s, uint8_t bus, uint8_t dev, uint8_t sec,
			       uint8_t sub, uint32_t lnkcap, uint16_t lnkctl);
struct sim_fn *sim_endpoint(struct sim *s, uint8_t bus, uint8_t dev, uint8_t fn,
			    uint32_t devcap, uint32_t lnkcap, uint16_t lnkctl);
struct sim_fn *sim_pcie_pci_bridge(struct sim *s, uint8_t bus, uint8_t dev,
				   uint8_t sec, uint8_t sub, uint32_t lnkcap);
struct sim_fn *sim_pci_device(struct sim *s, uint8_t bus, uint8_t dev, uint8_t fn);
struct sim_fn *sim_host_bridge(struct sim *s, uint8_t bus);

#endif
