// SPDX-License-Identifier: GPL-2.0-only
/* Simulated machines shared by the unit tests and the cross-check. */
#include "platforms.h"

#define LK_L0S		PCI_EXP_LNKCTL_ASPM_L0S
#define LK_L1		PCI_EXP_LNKCTL_ASPM_L1
#define LK_CCC		PCI_EXP_LNKCTL_CCC
#define LK_CLKREQ	PCI_EXP_LNKCTL_CLKREQ_EN

void sim_platform_fadt(struct sim *s, uint16_t ccc_1c1)
{
	const uint32_t l1ss = SIM_L1SS_TIMING | SIM_L1SS_ON;
	struct sim_fn *x;

	sim_host_bridge(s, 0);
	x = sim_root_port(s, 0, 0x1c, 0, 1, 1, SIM_LC_P, LK_CCC | LK_L1);
	sim_set_multi(x);
	sim_set_ltr_mech(x);
	sim_add_l1ss(x, SIM_L1SS_CAP_ALL, l1ss);
	x = sim_endpoint(s, 1, 0, 0, SIM_DC_ANY, SIM_LC_P, LK_CCC | LK_L1 | LK_CLKREQ);
	sim_add_ltr(x);
	sim_add_l1ss(x, SIM_L1SS_CAP_ALL, l1ss);

	sim_root_port(s, 0, 0x1c, 1, 2, 4, SIM_LC_P, ccc_1c1 | LK_L1);
	sim_switch_up(s, 2, 3, 4, SIM_LC_P, ccc_1c1 | LK_L1);
	sim_switch_down(s, 3, 0, 4, 4, SIM_LC_P, LK_CCC | LK_L0S | LK_L1);
	x = sim_endpoint(s, 4, 0, 0, SIM_DC_ANY, SIM_LC_P,
			 LK_CCC | LK_L0S | LK_L1 | LK_CLKREQ);
	sim_set_multi(x);
	sim_endpoint(s, 4, 0, 1, SIM_DC_ANY, SIM_LC_P, LK_CCC | LK_L0S | LK_L1 | LK_CLKREQ);

	sim_root_port(s, 0, 0x1c, 2, 5, 5, SIM_LC_P, LK_CCC);
	sim_endpoint(s, 5, 0, 0, SIM_DC_ANY, SIM_LC_P, LK_CCC);
}

void sim_platform_ccc(struct sim *s)
{
	struct sim_fn *x;

	sim_root_port(s, 0, 1, 0, 1, 1, SIM_LC_P, LK_L1);
	sim_endpoint(s, 1, 0, 0, SIM_DC_ANY, SIM_LC_P, LK_L1 | LK_CLKREQ);
	sim_root_port(s, 0, 2, 0, 2, 2, SIM_LC_P, LK_CCC | LK_L0S);
	sim_endpoint(s, 2, 0, 0, SIM_DC_ANY, SIM_LC_P, LK_CCC | LK_L0S);
	sim_root_port(s, 0, 3, 0, 3, 3, SIM_LC_P, 0);
	x = sim_endpoint(s, 3, 0, 0, SIM_DC_ANY, SIM_LC_P, 0);
	sim_poke(x, x->pcie + PCI_EXP_LNKSTA, 2, 0x0011);	/* no Slot Clock */
	x = sim_root_port(s, 0, 4, 0, 4, 4, SIM_LC_P, LK_CCC);
	sim_poke(x, x->pcie + PCI_EXP_LNKSTA, 2, 0x0011);
	sim_endpoint(s, 4, 0, 0, SIM_DC_ANY, SIM_LC_P, LK_CCC);
}

void sim_platform_sanity(struct sim *s)
{
	const uint32_t lc = SIM_LNKCAP(3, 1, 1, 0);
	struct sim_fn *x;

	sim_root_port(s, 0, 1, 0, 1, 1, lc, LK_L1);
	x = sim_endpoint(s, 1, 0, 0, SIM_DC_ANY, lc, LK_L1);
	sim_set_multi(x);
	sim_pci_device(s, 1, 0, 1);
	sim_root_port(s, 0, 2, 0, 2, 2, lc, LK_L1);
	sim_endpoint(s, 2, 0, 0, SIM_DEVCAP(7, 7, 0), lc, LK_L1);
}

void sim_platform_pcipm(struct sim *s)
{
	const uint32_t lc = SIM_LNKCAP(3, 1, 1, 0);

	sim_add_l1ss(sim_root_port(s, 0, 1, 0, 1, 1, lc, LK_CCC),
		     SIM_L1SS_CAP_ALL, SIM_L1SS_TIMING | SIM_L1SS_ON);
	sim_add_l1ss(sim_endpoint(s, 1, 0, 0, SIM_DC_ANY, lc, LK_CCC),
		     SIM_L1SS_CAP_ALL, SIM_L1SS_TIMING | SIM_L1SS_ON);
}

void sim_platform_l1ss_split(struct sim *s, uint32_t up_en, uint32_t dn_en)
{
	const uint32_t lc = SIM_LNKCAP(3, 1, 1, 0);
	const uint32_t cap = PCI_L1SS_CAP_L1_PM_SS | PCI_L1SS_CAP_ASPM_L1_1 |
			     PCI_L1SS_CAP_PCIPM_L1_1;
	const uint16_t on = LK_CCC | LK_L0S | LK_L1;

	sim_add_l1ss(sim_root_port(s, 0, 1, 0, 1, 1, lc, on), cap,
		     SIM_L1SS_TIMING | up_en);
	sim_add_l1ss(sim_endpoint(s, 1, 0, 0, SIM_DC_ANY, lc, on), cap,
		     SIM_L1SS_TIMING | dn_en);
}

void sim_platform_l1_one_end(struct sim *s)
{
	const uint32_t lc = SIM_LNKCAP(2, 0, 2, 0);

	sim_root_port(s, 0, 1, 0, 1, 1, lc, LK_CCC);
	sim_endpoint(s, 1, 0, 0, SIM_DEVCAP(7, 0, 1), lc, LK_CCC | LK_L1);
}

void sim_platform_teardown(struct sim *s, uint16_t bios_a)
{
	const uint32_t lc = SIM_LNKCAP(2, 0, 0, 0);	/* L1 only, 1 us */

	sim_root_port(s, 0, 1, 0, 1, 4, lc, LK_CCC);
	sim_switch_up(s, 1, 2, 4, lc, LK_CCC);
	sim_switch_down(s, 2, 0, 3, 3, lc, LK_CCC | bios_a);
	sim_switch_down(s, 2, 1, 4, 4, lc, LK_CCC);
	sim_endpoint(s, 3, 0, 0, SIM_DEVCAP(7, 0, 1), lc, LK_CCC | bios_a);
	sim_endpoint(s, 4, 0, 0, SIM_DC_ANY, lc, LK_CCC);
}

void sim_platform_l1ss_mf(struct sim *s)
{
	const uint32_t l1ss = SIM_L1SS_TIMING | SIM_L1SS_ON;
	struct sim_fn *x;

	x = sim_root_port(s, 0, 1, 0, 1, 1, SIM_LC_P, LK_CCC | LK_L1);
	sim_set_ltr_mech(x);
	sim_add_l1ss(x, SIM_L1SS_CAP_ALL, l1ss);
	x = sim_endpoint(s, 1, 0, 0, SIM_DC_ANY, SIM_LC_P, LK_CCC | LK_L1 | LK_CLKREQ);
	sim_set_multi(x);
	sim_add_ltr(x);
	sim_add_l1ss(x, SIM_L1SS_CAP_ALL, l1ss);
	x = sim_endpoint(s, 1, 0, 1, SIM_DC_ANY, SIM_LC_P, LK_CCC | LK_L1 | LK_CLKREQ);
	sim_add_l1ss(x, SIM_L1SS_CAP_ALL, l1ss);
}

void sim_platform_pre11_ccc(struct sim *s)
{
	const uint32_t lc = SIM_LNKCAP(3, 1, 0, 0);
	const uint16_t on = PCI_EXP_LNKCTL_CCC | PCI_EXP_LNKCTL_ASPM_L1;
	struct sim_fn *usp;

	sim_root_port(s, 0, 1, 0, 1, 3, lc, on);
	usp = sim_switch_up(s, 1, 2, 3, lc, on);
	sim_poke(usp, usp->pcie + PCI_EXP_DEVCAP, 4,
		 sim_peek(usp, usp->pcie + PCI_EXP_DEVCAP, 4) & ~PCI_EXP_DEVCAP_RBER);
	sim_switch_down(s, 2, 0, 3, 3, lc, 0);
	sim_endpoint(s, 3, 0, 0, SIM_DC_ANY, lc, 0);
}

void sim_platform_chain_keep(struct sim *s)
{
	const uint32_t lc = SIM_LNKCAP(2, 0, 0, 0);
	const uint16_t on = PCI_EXP_LNKCTL_CCC | PCI_EXP_LNKCTL_ASPM_L1;

	sim_root_port(s, 0, 1, 0, 1, 5, lc, on);
	sim_switch_up(s, 1, 2, 5, lc, on);
	sim_switch_down(s, 2, 0, 3, 5, lc, on);
	sim_switch_up(s, 3, 4, 5, lc, on);
	sim_switch_down(s, 4, 0, 5, 5, lc, on);
	sim_endpoint(s, 5, 0, 0, SIM_DEVCAP(7, 0, 1), lc, on);
}

void sim_platform_rootless_switch(struct sim *s)
{
	const uint32_t lc = SIM_LNKCAP(3, 1, 0, 0);
	const uint16_t ccc = PCI_EXP_LNKCTL_CCC;

	sim_switch_up(s, 0, 1, 2, lc, ccc);
	sim_switch_down(s, 1, 0, 2, 2, lc, ccc | PCI_EXP_LNKCTL_ASPM_L1);
	sim_endpoint(s, 2, 0, 0, SIM_DC_ANY, lc, ccc | PCI_EXP_LNKCTL_ASPM_L1);
}

/* L1 PM Substates Capabilities (PCIe r5.0 sec 7.8.3.2): Common_Mode_
 * Restore_Time (15:8), T_POWER_ON Scale (17:16) and Value (23:19) */
#define L1SS_CAP_T(cmrt, scale, val) \
	(SIM_L1SS_CAP_ALL | (uint32_t)(cmrt) << 8 | (uint32_t)(scale) << 16 | \
	 (uint32_t)(val) << 19)
#define LNKSTA_SLC	(PCI_EXP_LNKSTA_SLC | 0x11)

static struct sim_fn *laptop_device(struct sim *s, uint8_t bus, uint16_t vendor,
				    uint16_t device, uint32_t class, uint32_t lnkcap)
{
	struct sim_fn *x = sim_add_fn(s, 0, bus, 0, 0, vendor, device, class,
				      PCI_HEADER_TYPE_NORMAL);

	sim_add_pcie(x, PCI_EXP_TYPE_ENDPOINT, SIM_DC_ANY, lnkcap, LK_CCC | LK_L1,
		     LNKSTA_SLC);
	return x;
}

void sim_platform_laptop(struct sim *s)
{
	const uint32_t nic_lc = SIM_LNKCAP(3, 1, 1, 0);
	struct sim_fn *x;

	sim_host_bridge(s, 0);
	x = sim_root_port(s, 0, 0x1c, 0, 1, 1, SIM_LC_P, LK_CCC | LK_L1);
	sim_set_multi(x);
	sim_set_ltr_mech(x);
	sim_add_l1ss(x, L1SS_CAP_T(10, 1, 5), 0);	/* 10 us, 50 us */
	x = laptop_device(s, 1, 0x1b36, 0x0010, 0x010802, SIM_LC_P);
	sim_add_ltr(x);
	sim_add_l1ss(x, L1SS_CAP_T(40, 0, 20), 0);	/* 40 us, 40 us */

	x = sim_root_port(s, 0, 0x1c, 1, 2, 2, SIM_LC_P, LK_CCC | LK_L1);
	sim_set_ltr_mech(x);
	sim_add_l1ss(x, L1SS_CAP_T(10, 1, 5), 0);
	x = laptop_device(s, 2, 0x8086, 0x2723, 0x028000, SIM_LC_P);
	sim_add_ltr(x);
	sim_add_l1ss(x, L1SS_CAP_T(255, 2, 31), 0);	/* 255 us, 3.1 ms */

	x = sim_root_port(s, 0, 0x1c, 2, 3, 5, SIM_LC_P, LK_CCC | LK_L1);
	sim_set_ltr_mech(x);
	sim_add_l1ss(x, L1SS_CAP_T(10, 1, 5), 0);
	x = sim_switch_up(s, 3, 4, 5, SIM_LC_P, LK_CCC | LK_L1);
	sim_set_ltr_mech(x);
	x = sim_switch_down(s, 4, 0, 5, 5, SIM_LC_P, LK_CCC | LK_L1);
	sim_set_ltr_mech(x);
	sim_add_l1ss(x, L1SS_CAP_T(10, 1, 5), 0);
	x = laptop_device(s, 5, 0x10ec, 0x8168, 0x020000, nic_lc);
	sim_add_l1ss(x, L1SS_CAP_T(30, 1, 6), 0);
}
