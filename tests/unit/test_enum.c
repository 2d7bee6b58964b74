// SPDX-License-Identifier: GPL-2.0-only
/* Enumeration, capability walks, link pairing, ECAM addressing. */
#include "fixture.h"
#include "../../pcie/ecam.h"

#define LC_BOTH SIM_LNKCAP(3, 1, 1, 0)

static void test_reference_topology(void **state)
{
	struct fx *f = fx_new();
	const struct pcie_fn *fn;
	struct pcie_link *l;

	(void)state;
	fx_reference(f, LC_BOTH, 0, SIM_DEVCAP(3, 3, 1));
	assert_int_equal(fx_enum(f), 0);
	assert_int_equal(f->topo.nfn, 14);
	assert_int_equal(f->topo.nroots, 1);
	assert_int_equal(f->topo.problems, 0);
	assert_int_equal(f->cfg.writes, 0);

	fn = fx_fn(f, 0, 0x1c, 1);
	assert_non_null(fn);
	assert_string_equal(pcie_type_name(fn), "root-port");
	assert_int_equal(fn->secondary, 2);
	assert_int_equal(fn->subordinate, 5);
	assert_string_equal(pcie_type_name(fx_fn(f, 2, 0, 0)), "upstream-port");
	assert_string_equal(pcie_type_name(fx_fn(f, 3, 1, 0)), "downstream-port");
	assert_string_equal(pcie_type_name(fx_fn(f, 6, 0, 0)), "pcie-pci-bridge");
	assert_string_equal(pcie_type_name(fx_fn(f, 7, 2, 0)), "pci");
	assert_string_equal(pcie_type_name(fx_fn(f, 0, 0, 0)), "pci");
	assert_true(fx_fn(f, 4, 0, 0)->flags & FN_MULTI);
	assert_non_null(fx_fn(f, 4, 0, 1));
	/* parents follow the bridges */
	assert_int_equal(f->topo.fn[fx_fn(f, 4, 0, 1)->parent].addr.bus, 3);
	assert_int_equal(fx_fn(f, 4, 0, 1)->depth, 3);

	/* links: 1c.0, 1c.1, 03:00.0, 1c.2; the empty DSP and the
	 * PCIe-to-PCI bridge own none */
	assert_int_equal(f->topo.nlink, 4);
	l = fx_link(f, 0, 0x1c, 0);
	assert_non_null(l);
	assert_int_equal(l->ndown, 1);
	assert_int_equal(l->hops, 0);
	l = fx_link(f, 3, 0, 0);
	assert_non_null(l);
	assert_int_equal(l->ndown, 2);
	assert_int_equal(l->hops, 1);
	assert_ptr_equal(&f->topo.link[l->parent], fx_link(f, 0, 0x1c, 1));
	assert_ptr_equal(&f->topo.link[l->root], fx_link(f, 0, 0x1c, 1));
	assert_null(fx_link(f, 3, 1, 0));
	assert_null(fx_link(f, 6, 0, 0));
	assert_non_null(fx_link(f, 0, 0x1c, 2));
	/* pre-order: the link of 1c.1 comes before the switch's link */
	assert_true(fx_link(f, 0, 0x1c, 1) < fx_link(f, 3, 0, 0));
	fx_free(f);
}

static void test_only_device0_below_downstream_port(void **state)
{
	struct fx *f = fx_new();

	(void)state;
	sim_root_port(f->sim, 0, 1, 0, 1, 1, LC_BOTH, 0);
	sim_endpoint(f->sim, 1, 0, 0, SIM_DEVCAP(0, 0, 1), LC_BOTH, 0);
	/* real hardware never answers here; if we probed, we'd find it */
	sim_endpoint(f->sim, 1, 5, 0, SIM_DEVCAP(0, 0, 1), LC_BOTH, 0);
	assert_int_equal(fx_enum(f), 0);
	assert_int_equal(f->topo.nfn, 2);
	assert_null(fx_fn(f, 1, 5, 0));
	fx_free(f);
}

static void test_ari_scans_all_devices(void **state)
{
	struct fx *f = fx_new();
	struct sim_fn *rp;

	(void)state;
	rp = sim_root_port(f->sim, 0, 1, 0, 1, 1, LC_BOTH, 0);
	sim_poke(rp, rp->pcie + PCI_EXP_DEVCTL2, 2, PCI_EXP_DEVCTL2_ARI);
	sim_endpoint(f->sim, 1, 0, 0, SIM_DEVCAP(0, 0, 1), LC_BOTH, 0);
	sim_endpoint(f->sim, 1, 2, 0, SIM_DEVCAP(0, 0, 1), LC_BOTH, 0);
	assert_int_equal(fx_enum(f), 0);
	assert_non_null(fx_fn(f, 1, 2, 0));
	assert_true(fx_fn(f, 0, 1, 0)->flags & FN_ARI);
	fx_free(f);
}

static void test_functions_without_multifunction_bit_ignored(void **state)
{
	struct fx *f = fx_new();
	struct sim_fn *d;

	(void)state;
	sim_pci_device(f->sim, 0, 3, 0);
	sim_pci_device(f->sim, 0, 3, 2);	/* no MF bit on fn 0 */
	d = sim_pci_device(f->sim, 0, 4, 0);
	d->alias_all = true;		/* answers at every function */
	assert_int_equal(fx_enum(f), 0);
	assert_int_equal(f->topo.nfn, 2);
	assert_null(fx_fn(f, 0, 3, 2));
	assert_null(fx_fn(f, 0, 4, 1));
	fx_free(f);
}

static void test_crs_not_ready(void **state)
{
	struct fx *f = fx_new();

	(void)state;
	sim_pci_device(f->sim, 0, 2, 0)->crs_reads = ~0u;
	sim_pci_device(f->sim, 0, 3, 0)->crs_reads = 2;	/* ready on 3rd read */
	assert_int_equal(fx_enum(f), 0);
	assert_null(fx_fn(f, 0, 2, 0));
	assert_non_null(fx_fn(f, 0, 3, 0));
	assert_log_contains("0000:00:02.0: function answers Configuration Retry forever, skipped");
	assert_int_equal(f->topo.problems, 1);
	fx_free(f);
}

static void test_capability_loop(void **state)
{
	struct fx *f = fx_new();
	struct sim_fn *d;

	(void)state;
	d = sim_pci_device(f->sim, 0, 2, 0);
	sim_add_cap(d, PCI_CAP_ID_PM, 8);		/* 0x40 */
	sim_add_cap(d, PCI_CAP_ID_MSI, 8);		/* 0x48 */
	d->cfg[0x48 + 1] = 0x40;			/* 0x48 -> 0x40: loop */
	d = sim_pci_device(f->sim, 0, 3, 0);
	sim_add_cap(d, PCI_CAP_ID_PM, 8);
	d->cfg[0x41] = 0x10;				/* into the header */
	assert_int_equal(fx_enum(f), 0);
	assert_true(fx_fn(f, 0, 2, 0)->flags & FN_CAP_LOOP);
	assert_true(fx_fn(f, 0, 3, 0)->flags & FN_CAP_LOOP);
	assert_false(fx_fn(f, 0, 2, 0)->flags & FN_PCIE);
	assert_log_contains("0000:00:02.0: capability list loops or points into the header");
	assert_int_equal(f->topo.problems, 2);
	fx_free(f);
}

static void test_ext_capability_loop(void **state)
{
	struct fx *f = fx_new();
	struct sim_fn *e;
	uint16_t a, b;

	(void)state;
	sim_root_port(f->sim, 0, 1, 0, 1, 1, LC_BOTH, 0);
	e = sim_endpoint(f->sim, 1, 0, 0, SIM_DEVCAP(0, 0, 1), LC_BOTH, 0);
	a = sim_add_ext_cap(e, 0x0001, 0x40);
	b = sim_add_ext_cap(e, 0x0002, 0x10);
	sim_poke(e, b, 4, 0x0002 | (1u << 16) | ((uint32_t)a << 20));
	assert_int_equal(fx_enum(f), 0);
	assert_true(fx_fn(f, 1, 0, 0)->flags & FN_EXTCAP_LOOP);
	assert_int_equal(fx_fn(f, 1, 0, 0)->l1ss, 0);
	assert_log_contains("0000:01:00.0: extended capability list loops");
	fx_free(f);
}

static void test_find_ext_caps(void **state)
{
	struct fx *f = fx_new();
	struct sim_fn *e;
	uint16_t pos;

	(void)state;
	e = sim_endpoint(f->sim, 0, 1, 0, SIM_DEVCAP(0, 0, 1), LC_BOTH, 0);
	sim_add_ext_cap(e, 0x0001, 0x40);
	sim_add_ltr(e);
	sim_add_l1ss(e, 0x1f, 0x0);
	assert_int_equal(pci_find_ext_cap(&f->cfg, A(0, 1, 0), PCI_EXT_CAP_ID_L1SS, &pos), 0);
	assert_int_equal(pos, e->l1ss);
	assert_int_equal(pci_find_ext_cap(&f->cfg, A(0, 1, 0), 0x0b, &pos), -AE_NOENT);
	/* a function without extended config space reads all-ones there */
	assert_int_equal(pci_find_ext_cap(&f->cfg, A(0, 9, 0), PCI_EXT_CAP_ID_L1SS, &pos), -AE_NOENT);
	fx_free(f);
}

static void test_bridge_bus_numbers_invalid(void **state)
{
	struct fx *f = fx_new();

	(void)state;
	sim_root_port(f->sim, 0, 1, 0, 5, 3, LC_BOTH, 0);	/* sub < sec */
	sim_endpoint(f->sim, 5, 0, 0, SIM_DEVCAP(0, 0, 1), LC_BOTH, 0);
	sim_root_port(f->sim, 0, 2, 0, 0, 4, LC_BOTH, 0);	/* sec <= own bus */
	assert_int_equal(fx_enum(f), 0);
	assert_true(fx_fn(f, 0, 1, 0)->flags & FN_BUS_BAD);
	assert_true(fx_fn(f, 0, 2, 0)->flags & FN_BUS_BAD);
	assert_null(fx_fn(f, 5, 0, 0));
	assert_int_equal(f->topo.nlink, 0);
	assert_log_contains("0000:00:01.0: bridge bus numbers invalid (primary 00 secondary 05 subordinate 03");
	fx_free(f);
}

static void test_two_bridges_same_bus(void **state)
{
	struct fx *f = fx_new();

	(void)state;
	sim_root_port(f->sim, 0, 1, 0, 1, 1, LC_BOTH, 0);
	sim_root_port(f->sim, 0, 2, 0, 1, 1, LC_BOTH, 0);
	sim_endpoint(f->sim, 1, 0, 0, SIM_DEVCAP(0, 0, 1), LC_BOTH, 0);
	assert_int_equal(fx_enum(f), 0);
	assert_int_equal(f->topo.nfn, 3);
	assert_true(fx_fn(f, 0, 2, 0)->flags & FN_BUS_DUP);
	assert_int_equal(f->topo.nlink, 1);
	assert_log_contains("0000:00:02.0: secondary bus 01 already claimed by another bridge");
	fx_free(f);
}

static void test_bridge_outside_mcfg(void **state)
{
	struct fx *f = fx_new();

	(void)state;
	f->region[0].end_bus = 0x3f;
	sim_root_port(f->sim, 0, 1, 0, 0x40, 0x40, LC_BOTH, 0);
	sim_endpoint(f->sim, 0x40, 0, 0, SIM_DEVCAP(0, 0, 1), LC_BOTH, 0);
	assert_int_equal(fx_enum(f), 0);
	assert_true(fx_fn(f, 0, 1, 0)->flags & FN_BUS_RANGE);
	assert_null(fx_fn(f, 0x40, 0, 0));
	assert_log_contains("bridge leads to buses 40-40 outside the MCFG range");
	fx_free(f);
}

static void test_child_escaping_parent_window(void **state)
{
	struct fx *f = fx_new();

	(void)state;
	sim_root_port(f->sim, 0, 1, 0, 1, 2, LC_BOTH, 0);
	sim_switch_up(f->sim, 1, 2, 9, LC_BOTH, 0);	/* 9 > parent's 2 */
	assert_int_equal(fx_enum(f), 0);
	assert_true(fx_fn(f, 1, 0, 0)->flags & FN_BUS_BAD);
	fx_free(f);
}

static void test_function_vanishes(void **state)
{
	struct fx *f = fx_new();

	(void)state;
	sim_pci_device(f->sim, 0, 2, 0)->vanish_after = 2;	/* ID, header ok */
	sim_pci_device(f->sim, 0, 3, 0);
	assert_int_equal(fx_enum(f), 0);
	assert_null(fx_fn(f, 0, 2, 0));
	assert_non_null(fx_fn(f, 0, 3, 0));
	assert_log_contains("0000:00:02.0: vanished during the scan (reads all-ones)");
	fx_free(f);
}

static void test_unknown_port_type(void **state)
{
	struct fx *f = fx_new();
	struct sim_fn *rp;

	(void)state;
	rp = sim_root_port(f->sim, 0, 1, 0, 1, 1, LC_BOTH, 0);
	sim_poke(rp, rp->pcie + PCI_EXP_FLAGS, 2, 0x00d2);	/* type 0xd */
	sim_endpoint(f->sim, 1, 0, 0, SIM_DEVCAP(0, 0, 1), LC_BOTH, 0);
	assert_int_equal(fx_enum(f), 0);
	assert_true(fx_fn(f, 0, 1, 0)->flags & FN_BAD_TYPE);
	assert_string_equal(pcie_type_name(fx_fn(f, 0, 1, 0)), "unknown-13");
	assert_int_equal(f->topo.nlink, 0);
	assert_log_contains("0000:00:01.0: PCIe capability with unknown port type 13");
	fx_free(f);
}

static void test_capacity_exhausted(void **state)
{
	struct fx *f = fx_new();

	(void)state;
	for (uint8_t d = 0; d < 8; d++)
		sim_pci_device(f->sim, 0, d, 0);
	f->topo.cap_fn = 5;
	assert_int_equal(fx_enum(f), -AE_NOSPC);
	assert_int_equal(f->topo.nfn, 5);
	assert_true(f->topo.truncated);
	assert_log_contains("more than 5 functions; the rest are ignored");
	fx_free(f);
}

static void test_ecam_addressing(void **state)
{
	struct mcfg_region r[2] = {
		{ .base = 0xe0000000, .segment = 0, .start_bus = 0, .end_bus = 0x7f },
		{ .base = 0xf0000000, .segment = 1, .start_bus = 0x10, .end_bus = 0x1f,
		  .flags = 0 },
	};
	struct ecam e = { .region = r, .nregion = 2 };
	uint64_t phys;

	(void)state;
	assert_int_equal(ecam_address(&e, (struct pci_addr){ 0, 3, PCI_DEVFN(2, 1) }, 0x50, &phys), 0);
	assert_int_equal(phys, 0xe0000000ull + (3u << 20) + (2u << 15) + (1u << 12) + 0x50);
	/* base is bus 0 of the segment, even when the range starts later */
	assert_int_equal(ecam_address(&e, (struct pci_addr){ 1, 0x10, 0 }, 0, &phys), 0);
	assert_int_equal(phys, 0xf0000000ull + (0x10u << 20));
	assert_int_equal(ecam_address(&e, (struct pci_addr){ 0, 0x80, 0 }, 0, &phys), -AE_RANGE);
	assert_int_equal(ecam_address(&e, (struct pci_addr){ 1, 0x0f, 0 }, 0, &phys), -AE_RANGE);
	assert_int_equal(ecam_address(&e, (struct pci_addr){ 2, 0, 0 }, 0, &phys), -AE_RANGE);
	r[0].flags = MCFG_F_OVERLAP;	/* flagged regions are never used */
	assert_int_equal(ecam_address(&e, (struct pci_addr){ 0, 3, 0 }, 0, &phys), -AE_RANGE);
}

static void test_enumerate_through_ecam(void **state)
{
	struct fx *f = fx_new();
	struct ecam e = { .region = f->region, .nregion = 1, .mmio = &sim_mmio_ops };
	struct pci_cfg cfg;

	(void)state;
	fx_reference(f, LC_BOTH, 0, SIM_DEVCAP(3, 3, 1));
	f->sim->ecam_base = f->region[0].base;
	f->sim->ecam_start = 0;
	f->sim->ecam_end = 0x0f;	/* the "hardware" decodes 16 buses */
	f->region[0].end_bus = 0x0f;
	e.mmio_ctx = f->sim;
	pci_cfg_init(&cfg, &ecam_cfg_ops, &e);
	assert_int_equal(pcie_enumerate(&cfg, f->region, 1, NULL, &f->topo), 0);
	assert_int_equal(f->topo.nfn, 14);
	assert_int_equal(f->sim->bad_accesses, 0);
	assert_int_equal(cfg.writes, 0);
	assert_int_equal(cfg.reads, f->sim->reads);
	fx_free(f);
}

static void test_read_only_cfg_refuses_writes(void **state)
{
	struct fx *f = fx_new();

	(void)state;
	sim_pci_device(f->sim, 0, 1, 0);
	f->cfg.read_only = true;
	assert_int_equal(pci_cfg_write16(&f->cfg, A(0, 1, 0), 4, 0x7), -AE_NOTSUP);
	assert_int_equal(f->sim->writes, 0);
	assert_int_equal(f->cfg.refused_writes, 1);
	assert_int_equal(pci_cfg_write16(&f->cfg, A(0, 1, 0), 3, 0), -AE_INVAL);
	assert_int_equal(pci_cfg_read32(&f->cfg, A(0, 1, 0), 4094, &(uint32_t){0}), -AE_INVAL);
	fx_free(f);
}

static void test_addr_parse(void **state)
{
	struct pci_addr a;
	char b[16];

	(void)state;
	assert_int_equal(pci_addr_parse("0000:01:00.0", &a), 0);
	assert_string_equal(pci_addr_str(a, b), "0000:01:00.0");
	assert_int_equal(pci_addr_parse("1:1f:1F.7", &a), 0);
	assert_string_equal(pci_addr_str(a, b), "0001:1f:1f.7");
	assert_int_equal(pci_addr_parse("02:03.4", &a), 0);
	assert_string_equal(pci_addr_str(a, b), "0000:02:03.4");
	assert_int_equal(pci_addr_parse("00:20.0", &a), -AE_INVAL);	/* dev > 31 */
	assert_int_equal(pci_addr_parse("00:01.8", &a), -AE_INVAL);
	assert_int_equal(pci_addr_parse("100:01.0", &a), -AE_INVAL);
	assert_int_equal(pci_addr_parse("10000:00:01.0", &a), -AE_INVAL);
	assert_int_equal(pci_addr_parse("00:01", &a), -AE_INVAL);
	assert_int_equal(pci_addr_parse("", &a), -AE_INVAL);
	assert_int_equal(pci_addr_parse("0g:01.0", &a), -AE_INVAL);
	assert_int_equal(pci_addr_parse("00:01.0x", &a), -AE_INVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reference_topology),
		cmocka_unit_test(test_only_device0_below_downstream_port),
		cmocka_unit_test(test_ari_scans_all_devices),
		cmocka_unit_test(test_functions_without_multifunction_bit_ignored),
		cmocka_unit_test(test_crs_not_ready),
		cmocka_unit_test(test_capability_loop),
		cmocka_unit_test(test_ext_capability_loop),
		cmocka_unit_test(test_find_ext_caps),
		cmocka_unit_test(test_bridge_bus_numbers_invalid),
		cmocka_unit_test(test_two_bridges_same_bus),
		cmocka_unit_test(test_bridge_outside_mcfg),
		cmocka_unit_test(test_child_escaping_parent_window),
		cmocka_unit_test(test_function_vanishes),
		cmocka_unit_test(test_unknown_port_type),
		cmocka_unit_test(test_capacity_exhausted),
		cmocka_unit_test(test_ecam_addressing),
		cmocka_unit_test(test_enumerate_through_ecam),
		cmocka_unit_test(test_read_only_cfg_refuses_writes),
		cmocka_unit_test(test_addr_parse),
	};

	return cmocka_run_group_tests_name("enum", tests, NULL, NULL);
}
