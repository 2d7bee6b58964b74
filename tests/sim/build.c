// SPDX-License-Identifier: GPL-2.0-only
#include "build.h"

/* Slot Clock Configuration set: both ends share the reference clock */
#define LNKSTA_DEFAULT	(PCI_EXP_LNKSTA_SLC | 0x11)

struct sim_fn *sim_root_port(struct sim *s, uint8_t bus, uint8_t dev, uint8_t fn,
			     uint8_t sec, uint8_t sub, uint32_t lnkcap,
			     uint16_t lnkctl)
{
	struct sim_fn *f = sim_add_fn(s, 0, bus, dev, fn, 0x8086, 0x7100,
				      0x060400, PCI_HEADER_TYPE_BRIDGE);

	sim_set_bus(f, bus, sec, sub);
	sim_add_pcie(f, PCI_EXP_TYPE_ROOT_PORT, SIM_PORT_DEVCAP, lnkcap, lnkctl,
		     LNKSTA_DEFAULT);
	return f;
}

struct sim_fn *sim_switch_up(struct sim *s, uint8_t bus, uint8_t sec, uint8_t sub,
			     uint32_t lnkcap, uint16_t lnkctl)
{
	struct sim_fn *f = sim_add_fn(s, 0, bus, 0, 0, 0x10b5, 0x8747,
				      0x060400, PCI_HEADER_TYPE_BRIDGE);

	sim_set_bus(f, bus, sec, sub);
	sim_add_pcie(f, PCI_EXP_TYPE_UPSTREAM, SIM_PORT_DEVCAP, lnkcap, lnkctl,
		     LNKSTA_DEFAULT);
	return f;
}

struct sim_fn *sim_switch_down(struct sim *s, uint8_t bus, uint8_t dev, uint8_t sec,
			       uint8_t sub, uint32_t lnkcap, uint16_t lnkctl)
{
	struct sim_fn *f = sim_add_fn(s, 0, bus, dev, 0, 0x10b5, 0x8748,
				      0x060400, PCI_HEADER_TYPE_BRIDGE);

	sim_set_bus(f, bus, sec, sub);
	sim_add_pcie(f, PCI_EXP_TYPE_DOWNSTREAM, SIM_PORT_DEVCAP, lnkcap, lnkctl,
		     LNKSTA_DEFAULT);
	return f;
}

struct sim_fn *sim_endpoint(struct sim *s, uint8_t bus, uint8_t dev, uint8_t fn,
			    uint32_t devcap, uint32_t lnkcap, uint16_t lnkctl)
{
	struct sim_fn *f = sim_add_fn(s, 0, bus, dev, fn, 0x1af4, 0x1041,
				      0x020000, PCI_HEADER_TYPE_NORMAL);

	sim_add_pcie(f, PCI_EXP_TYPE_ENDPOINT, devcap, lnkcap, lnkctl,
		     LNKSTA_DEFAULT);
	return f;
}

struct sim_fn *sim_pcie_pci_bridge(struct sim *s, uint8_t bus, uint8_t dev,
				   uint8_t sec, uint8_t sub, uint32_t lnkcap)
{
	struct sim_fn *f = sim_add_fn(s, 0, bus, dev, 0, 0x1b36, 0x000e,
				      0x060400, PCI_HEADER_TYPE_BRIDGE);

	sim_set_bus(f, bus, sec, sub);
	sim_add_pcie(f, PCI_EXP_TYPE_PCI_BRIDGE, SIM_PORT_DEVCAP, lnkcap, 0,
		     LNKSTA_DEFAULT);
	return f;
}

struct sim_fn *sim_pci_device(struct sim *s, uint8_t bus, uint8_t dev, uint8_t fn)
{
	return sim_add_fn(s, 0, bus, dev, fn, 0x8086, 0x100e, 0x020000,
			  PCI_HEADER_TYPE_NORMAL);
}

struct sim_fn *sim_host_bridge(struct sim *s, uint8_t bus)
{
	return sim_add_fn(s, 0, bus, 0, 0, 0x8086, 0x29c0, 0x060000,
			  PCI_HEADER_TYPE_NORMAL);
}
