/* SPDX-License-Identifier: GPL-2.0-only */
/* A simulated machine plus enumeration storage, for the pcie/ tests. */
#ifndef ASPMCTL_TESTS_UNIT_FIXTURE_H
#define ASPMCTL_TESTS_UNIT_FIXTURE_H

#include <stdlib.h>
#include "common.h"
#include "../sim/build.h"
#include "../../pcie/caps.h"
#include "../../pcie/enum.h"
#include "../../pcie/link.h"
#include "../../lib/err.h"

struct fx {
	struct sim *sim;
	struct pci_cfg cfg;
	struct ecam_window win[2];
	unsigned nwin;
	struct pcie_fn fn[512];
	struct pcie_link link[256];
	struct pcie_topo topo;
};

static inline struct fx *fx_new(void)
{
	struct fx *f = calloc(1, sizeof(*f));

	f->sim = sim_new();
	pci_cfg_init(&f->cfg, &sim_cfg_ops, f->sim);
	f->win[0] = (struct ecam_window){ .base = 0xb0000000, .segment = 0,
					  .bus_start = 0, .bus_end = 0xff };
	f->nwin = 1;
	f->topo.fn = f->fn;
	f->topo.cap_fn = 512;
	f->topo.link = f->link;
	f->topo.cap_link = 256;
	test_log_capture();
	return f;
}

static inline void fx_free(struct fx *f)
{
	sim_free(f->sim);
	free(f);
}

static inline int fx_enum(struct fx *f)
{
	return pcie_enumerate(&f->cfg, f->win, f->nwin, NULL, &f->topo);
}

static inline struct pci_addr A(uint8_t bus, uint8_t dev, uint8_t fn)
{
	return (struct pci_addr){ 0, bus, PCI_DEVFN(dev, fn) };
}

static inline const struct pcie_fn *fx_fn(struct fx *f, uint8_t bus, uint8_t dev,
					  uint8_t fn)
{
	int i = pcie_find_fn(&f->topo, A(bus, dev, fn));

	return i < 0 ? NULL : &f->topo.fn[i];
}

/* The link whose upstream port is bus:dev.fn, or NULL. */
static inline struct pcie_link *fx_link(struct fx *f, uint8_t bus, uint8_t dev,
					uint8_t fn)
{
	int i = pcie_find_fn(&f->topo, A(bus, dev, fn));

	if (i < 0 || f->topo.fn[i].down_link < 0)
		return NULL;
	return &f->topo.link[f->topo.fn[i].down_link];
}

/*
 * The reference machine used by several tests:
 *   00:00.0 host bridge
 *   00:1c.0 root port -> 01:00.0 endpoint
 *   00:1c.1 root port -> 02:00.0 switch upstream -> 03:00.0 DSP -> 04:00.{0,1}
 *                                                   03:01.0 DSP (empty, bus 05)
 *   00:1c.2 root port -> 06:00.0 PCIe-to-PCI bridge -> 07:01.0, 07:02.0 (PCI)
 *   00:1f.0 conventional PCI function
 * lnkcap/lnkctl let a test choose ASPM support and the BIOS state.
 */
static inline void fx_reference(struct fx *f, uint32_t lnkcap, uint16_t lnkctl,
				uint32_t devcap)
{
	struct sim *s = f->sim;
	struct sim_fn *mf;

	sim_host_bridge(s, 0);
	sim_root_port(s, 0, 0x1c, 0, 1, 1, lnkcap, lnkctl);
	sim_set_multi(sim_find(s, A(0, 0x1c, 0)));
	sim_endpoint(s, 1, 0, 0, devcap, lnkcap, lnkctl);
	sim_root_port(s, 0, 0x1c, 1, 2, 5, lnkcap, lnkctl);
	sim_switch_up(s, 2, 3, 5, lnkcap, lnkctl);
	sim_switch_down(s, 3, 0, 4, 4, lnkcap, lnkctl);
	sim_switch_down(s, 3, 1, 5, 5, lnkcap, lnkctl);
	mf = sim_endpoint(s, 4, 0, 0, devcap, lnkcap, lnkctl);
	sim_set_multi(mf);
	sim_endpoint(s, 4, 0, 1, devcap, lnkcap, lnkctl);
	sim_root_port(s, 0, 0x1c, 2, 6, 7, lnkcap, lnkctl);
	sim_pcie_pci_bridge(s, 6, 0, 7, 7, lnkcap);
	sim_pci_device(s, 7, 1, 0);
	sim_pci_device(s, 7, 2, 0);
	sim_pci_device(s, 0, 0x1f, 0);
}

#endif
