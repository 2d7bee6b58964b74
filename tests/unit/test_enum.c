// SPDX-License-Identifier: GPL-2.0-only
/* Enumeration, capability walks, link pairing, ECAM addressing. */
#include "fixture.h"
#include "../../pcie/ecam.h"
#include "../../pcie/report.h"
#include "../../lib/util.h"

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
	f->win[0].bus_end = 0x3f;
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
	struct ecam_window r[2] = {
		{ .base = 0xe0000000, .segment = 0, .bus_start = 0, .bus_end = 0x7f },
		{ .base = 0xf0000000, .segment = 1, .bus_start = 0x10, .bus_end = 0x1f },
	};
	struct ecam e = { .win = r, .nwin = 2 };
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
	e.nwin = 1;	/* a bus outside every window is never addressed */
	assert_int_equal(ecam_address(&e, (struct pci_addr){ 1, 0x10, 0 }, 0, &phys), -AE_RANGE);
}

static void test_enumerate_through_ecam(void **state)
{
	struct fx *f = fx_new();
	struct ecam e = { .win = f->win, .nwin = 1, .mmio = &sim_mmio_ops };
	struct pci_cfg cfg;

	(void)state;
	fx_reference(f, LC_BOTH, 0, SIM_DEVCAP(3, 3, 1));
	f->sim->ecam_base = f->win[0].base;
	f->sim->ecam_start = 0;
	f->sim->ecam_end = 0x0f;	/* the "hardware" decodes 16 buses */
	f->win[0].bus_end = 0x0f;
	e.mmio_ctx = f->sim;
	pci_cfg_init(&cfg, &ecam_cfg_ops, &e);
	assert_int_equal(pcie_enumerate(&cfg, f->win, 1, NULL, &f->topo), 0);
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

/* ------------------------------------------------ helpers for the tests below */

/* a function anywhere (any segment), or NULL */
static const struct pcie_fn *fx_fn_seg(struct fx *f, uint16_t seg, uint8_t bus,
				       uint8_t dev, uint8_t fn)
{
	int i = pcie_find_fn(&f->topo, (struct pci_addr){ seg, bus, PCI_DEVFN(dev, fn) });

	return i < 0 ? NULL : &f->topo.fn[i];
}

/* a PCIe function of any port type on any segment; bridges get bus numbers */
static struct sim_fn *te_pcie_fn(struct sim *s, uint16_t seg, uint8_t bus, uint8_t dev,
				 uint8_t fn, uint8_t type, uint8_t sec, uint8_t sub)
{
	bool bridge = type == PCI_EXP_TYPE_ROOT_PORT || type == PCI_EXP_TYPE_UPSTREAM ||
		      type == PCI_EXP_TYPE_DOWNSTREAM || type == PCI_EXP_TYPE_PCI_BRIDGE ||
		      type == PCI_EXP_TYPE_PCIE_BRIDGE;
	struct sim_fn *f = sim_add_fn(s, seg, bus, dev, fn, 0x1234, (uint16_t)(0x100 + type),
				      bridge ? 0x060400 : 0x020000,
				      bridge ? PCI_HEADER_TYPE_BRIDGE : PCI_HEADER_TYPE_NORMAL);

	if (bridge)
		sim_set_bus(f, bus, sec, sub);
	sim_add_pcie(f, type, SIM_DEVCAP(0, 0, 1), LC_BOTH, 0, PCI_EXP_LNKSTA_SLC | 0x11);
	return f;
}

/* ARI extended capability with Next Function Number next (PCIe r5.0 7.8.7) */
static struct sim_fn *te_ari_port(struct sim *s)
{
	struct sim_fn *rp = sim_root_port(s, 0, 1, 0, 1, 1, LC_BOTH, 0);

	sim_poke(rp, rp->pcie + PCI_EXP_DEVCTL2, 2, PCI_EXP_DEVCTL2_ARI);
	return rp;
}

/*
 * Several ECAM windows in one physical address space: each MCFG region
 * has its own base (bus 0 of its segment) and decodes [start, end]; an
 * access outside every window is counted, as hardware would master-abort.
 */
struct te_window {
	uint64_t base;
	uint16_t seg;
	uint8_t start, end;
};

struct te_mmio {
	struct sim *sim;
	const struct te_window *win;
	unsigned nwin;
	unsigned bad;
};

static int te_decode(struct te_mmio *m, uint64_t phys, unsigned width,
		     struct pci_addr *a, uint16_t *off)
{
	for (unsigned i = 0; i < m->nwin; i++) {
		const struct te_window *w = &m->win[i];
		uint64_t lo = w->base + ((uint64_t)w->start << 20);
		uint64_t hi = w->base + (((uint64_t)w->end + 1) << 20);

		if (phys < lo || phys + width > hi)
			continue;
		phys -= w->base;
		*a = (struct pci_addr){ w->seg, (uint8_t)(phys >> 20), (uint8_t)(phys >> 12) };
		*off = phys & 0xfff;
		return 0;
	}
	m->bad++;
	return -1;
}

static uint32_t te_mmio_read(void *ctx, uint64_t phys, unsigned width)
{
	struct te_mmio *m = ctx;
	struct pci_addr a;
	uint16_t off;
	uint32_t v = 0xffffffff;

	if (te_decode(m, phys, width, &a, &off) == 0)
		sim_cfg_ops.read(m->sim, a, off, width, &v);
	return v;
}

static void te_mmio_write(void *ctx, uint64_t phys, unsigned width, uint32_t val)
{
	struct te_mmio *m = ctx;
	struct pci_addr a;
	uint16_t off;

	if (te_decode(m, phys, width, &a, &off) == 0)
		sim_cfg_ops.write(m->sim, a, off, width, val);
}

static const struct mmio_ops te_mmio_ops = {
	.read = te_mmio_read,
	.write = te_mmio_write,
};

/* ------------------------------------------------ root buses */

static void test_extra_roots_beyond_cap(void **state)
{
	static struct pcie_scan_opts o;
	struct fx *f = fx_new();
	unsigned n = PCIE_MAX_EXTRA_ROOTS;

	(void)state;
	mem_set(&o, 0, sizeof(o));
	assert_true(n >= 64);
	sim_host_bridge(f->sim, 0);
	for (unsigned i = 0; i < n; i++) {
		sim_host_bridge(f->sim, (uint8_t)(0x10 + i));
		o.extra_root[i] = (struct pci_addr){ 0, (uint8_t)(0x10 + i), 0 };
	}
	o.nextra_roots = n + 6;
	assert_int_equal(pcie_enumerate(&f->cfg, f->win, 1, &o, &f->topo), 0);
	assert_int_equal(f->topo.nroots, n + 1);
	assert_int_equal(f->topo.nfn, n + 1);
	assert_non_null(fx_fn(f, (uint8_t)(0x10 + n - 1), 0, 0));
	assert_int_equal(f->topo.problems, 1);
	assert_log_contains("70 extra root buses given, at most 64 are scanned: 6 ignored");
	fx_free(f);
}

static void test_extra_root_outside_mcfg_and_duplicates(void **state)
{
	struct pcie_scan_opts o = { 0 };
	struct fx *f = fx_new();

	(void)state;
	f->win[0].bus_end = 0x3f;
	sim_host_bridge(f->sim, 0);
	sim_host_bridge(f->sim, 0x20);
	o.nextra_roots = 4;
	o.extra_root[0] = (struct pci_addr){ 0, 0x20, 0 };
	o.extra_root[1] = (struct pci_addr){ 0, 0x00, 0 };	/* = the region's */
	o.extra_root[2] = (struct pci_addr){ 0, 0x20, 0 };	/* twice */
	o.extra_root[3] = (struct pci_addr){ 0, 0x40, 0 };	/* not decoded */
	assert_int_equal(pcie_enumerate(&f->cfg, f->win, 1, &o, &f->topo), 0);
	assert_int_equal(f->topo.nroots, 2);
	assert_int_equal(f->topo.nfn, 2);
	/* ascending: bus 0 first */
	assert_int_equal(f->topo.fn[0].addr.bus, 0);
	assert_int_equal(f->topo.fn[1].addr.bus, 0x20);
	assert_int_equal(f->topo.problems, 1);
	assert_log_contains("root bus 0000:40 is outside every MCFG region; skipped");
	fx_free(f);
}

/* A root port on bus 0 whose buses run from one MCFG region into the next
 * (same segment): fully decoded, so followed; bookkeeping per segment. */
static void test_bridge_spans_adjacent_regions(void **state)
{
	struct fx *f = fx_new();

	(void)state;
	f->win[0].bus_end = 0x7f;
	f->win[1] = (struct ecam_window){ .base = 0xb0000000, .segment = 0,
					  .bus_start = 0x80, .bus_end = 0xff };
	f->nwin = 2;
	sim_root_port(f->sim, 0, 1, 0, 0x7f, 0x81, LC_BOTH, 0);
	sim_switch_up(f->sim, 0x7f, 0x80, 0x81, LC_BOTH, 0);
	sim_switch_down(f->sim, 0x80, 0, 0x81, 0x81, LC_BOTH, 0);
	sim_endpoint(f->sim, 0x81, 0, 0, SIM_DEVCAP(0, 0, 1), LC_BOTH, 0);
	/* a second root port pointing at a bus of the other region */
	sim_root_port(f->sim, 0, 2, 0, 0x80, 0x80, LC_BOTH, 0);
	assert_int_equal(fx_enum(f), 0);
	assert_false(fx_fn(f, 0, 1, 0)->flags & FN_BUS_RANGE);
	assert_non_null(fx_fn(f, 0x81, 0, 0));
	assert_int_equal(fx_fn(f, 0x81, 0, 0)->depth, 3);
	assert_int_equal(f->topo.nroots, 1);	/* 80 is behind 00:01.0 */
	assert_int_equal(f->topo.nlink, 2);
	assert_true(fx_fn(f, 0, 2, 0)->flags & FN_BUS_DUP);
	assert_int_equal(f->topo.problems, 1);
	assert_log_contains("0000:00:02.0: secondary bus 80 already claimed by another bridge (0000:7f:00.0); not followed");
	assert_log_lacks("outside the MCFG range");
	fx_free(f);
}

/* MCFG lists the upper region first: bus 0x80 is still reached through the
 * root port on bus 0, not taken as a root bus. */
static void test_reversed_region_order(void **state)
{
	struct fx *f = fx_new();
	const struct pcie_fn *ep;

	(void)state;
	f->win[0] = (struct ecam_window){ .base = 0xb0000000, .segment = 0,
					  .bus_start = 0x80, .bus_end = 0xff };
	f->win[1] = (struct ecam_window){ .base = 0xb0000000, .segment = 0,
					  .bus_start = 0x00, .bus_end = 0x7f };
	f->nwin = 2;
	sim_host_bridge(f->sim, 0);
	sim_root_port(f->sim, 0, 1, 0, 0x80, 0x80, LC_BOTH, 0);
	sim_endpoint(f->sim, 0x80, 0, 0, SIM_DEVCAP(0, 0, 1), LC_BOTH, 0);
	assert_int_equal(fx_enum(f), 0);
	assert_int_equal(f->topo.nfn, 3);
	assert_int_equal(f->topo.nroots, 1);
	assert_int_equal(f->topo.problems, 0);
	assert_false(fx_fn(f, 0, 1, 0)->flags & FN_BUS_DUP);
	ep = fx_fn(f, 0x80, 0, 0);
	assert_non_null(ep);
	assert_int_equal(ep->depth, 1);
	assert_ptr_equal(&f->topo.fn[ep->parent], fx_fn(f, 0, 1, 0));
	assert_int_equal(f->topo.nlink, 1);
	assert_non_null(fx_link(f, 0, 1, 0));
	assert_log_lacks("already");
	fx_free(f);
}

/* A bridge found only by the full scan leads to a bus already scanned as
 * a root bus: the message says so. */
static void test_bus_dup_with_root_bus(void **state)
{
	struct pcie_scan_opts o = { .full_scan = true, .nextra_roots = 1 };
	struct fx *f = fx_new();

	(void)state;
	o.extra_root[0] = (struct pci_addr){ 0, 0x20, 0 };
	sim_host_bridge(f->sim, 0);
	sim_host_bridge(f->sim, 0x20);
	sim_add_fn(f->sim, 0, 0x10, 0, 0, 0x8086, 0x244e, 0x060400, PCI_HEADER_TYPE_BRIDGE);
	sim_set_bus(sim_find(f->sim, A(0x10, 0, 0)), 0x10, 0x20, 0x20);
	assert_int_equal(pcie_enumerate(&f->cfg, f->win, 1, &o, &f->topo), 0);
	assert_true(fx_fn(f, 0x10, 0, 0)->flags & FN_BUS_DUP);
	assert_log_contains("0000:10:00.0: secondary bus 20 already scanned as a root bus; not followed");
	fx_free(f);
}

/* ------------------------------------------------ ARI, type 8 */

static void test_ari_needs_next_function(void **state)
{
	struct fx *f = fx_new();

	(void)state;
	te_ari_port(f->sim);
	/* function 0 without an ARI capability: the walk ends there */
	sim_endpoint(f->sim, 1, 0, 0, SIM_DEVCAP(0, 0, 1), LC_BOTH, 0);
	sim_endpoint(f->sim, 1, 2, 0, SIM_DEVCAP(0, 0, 1), LC_BOTH, 0);
	assert_int_equal(fx_enum(f), 0);
	assert_true(fx_fn(f, 0, 1, 0)->flags & FN_ARI);
	assert_non_null(fx_fn(f, 1, 0, 0));
	assert_null(fx_fn(f, 1, 2, 0));
	assert_int_equal(f->topo.nfn, 2);
	fx_free(f);
}

static void test_ari_sparse_functions(void **state)
{
	struct fx *f = fx_new();
	struct sim_fn *e;

	(void)state;
	te_ari_port(f->sim);
	e = sim_endpoint(f->sim, 1, 0, 0, SIM_DEVCAP(0, 0, 1), LC_BOTH, 0);
	sim_add_ari(e, 9);
	/* ARI function 9 is devfn 9 (01.1); there is no function 8 */
	e = sim_endpoint(f->sim, 1, 1, 1, SIM_DEVCAP(0, 0, 1), LC_BOTH, 0);
	sim_add_ari(e, 0);
	/* not on the Next Function chain: never probed */
	sim_endpoint(f->sim, 1, 2, 0, SIM_DEVCAP(0, 0, 1), LC_BOTH, 0);
	assert_int_equal(fx_enum(f), 0);
	assert_int_equal(f->topo.nfn, 3);
	assert_non_null(fx_fn(f, 1, 1, 1));
	assert_null(fx_fn(f, 1, 2, 0));
	assert_int_equal(fx_link(f, 0, 1, 0)->ndown, 2);
	assert_int_equal(f->topo.problems, 0);
	fx_free(f);
}

static void test_ari_next_function_loop(void **state)
{
	struct fx *f = fx_new();
	struct sim_fn *e;

	(void)state;
	te_ari_port(f->sim);
	e = sim_endpoint(f->sim, 1, 0, 0, SIM_DEVCAP(0, 0, 1), LC_BOTH, 0);
	sim_add_ari(e, 9);
	e = sim_endpoint(f->sim, 1, 1, 1, SIM_DEVCAP(0, 0, 1), LC_BOTH, 0);
	sim_add_ari(e, 4);			/* goes back: a loop */
	e = sim_endpoint(f->sim, 1, 0, 4, SIM_DEVCAP(0, 0, 1), LC_BOTH, 0);
	sim_add_ari(e, 9);
	assert_int_equal(fx_enum(f), 0);
	assert_int_equal(f->topo.nfn, 3);
	assert_null(fx_fn(f, 1, 0, 4));
	assert_int_equal(f->topo.problems, 1);
	assert_log_contains("0000:01:01.1: ARI Next Function Number 4 does not follow function 9; walk stopped");
	fx_free(f);
}

static void test_ari_next_function_self(void **state)
{
	struct fx *f = fx_new();
	struct sim_fn *e;

	(void)state;
	te_ari_port(f->sim);
	e = sim_endpoint(f->sim, 1, 0, 0, SIM_DEVCAP(0, 0, 1), LC_BOTH, 0);
	sim_add_ari(e, 0x21);
	e = sim_endpoint(f->sim, 1, 4, 1, SIM_DEVCAP(0, 0, 1), LC_BOTH, 0);
	sim_add_ari(e, 0x21);			/* points at itself */
	assert_int_equal(fx_enum(f), 0);
	assert_int_equal(f->topo.nfn, 3);
	assert_log_contains("0000:01:04.1: ARI Next Function Number 33 does not follow function 33; walk stopped");
	fx_free(f);
}

/* PCI/PCI-X to PCIe bridge (type 8): Linux's pcie_downstream_port(), so
 * only Device 0 below it (only_one_child()). */
static void test_pcie_bridge_type8_only_device0(void **state)
{
	struct fx *f = fx_new();

	(void)state;
	te_pcie_fn(f->sim, 0, 0, 3, 0, PCI_EXP_TYPE_PCIE_BRIDGE, 1, 1);
	sim_endpoint(f->sim, 1, 0, 0, SIM_DEVCAP(0, 0, 1), LC_BOTH, 0);
	sim_endpoint(f->sim, 1, 5, 0, SIM_DEVCAP(0, 0, 1), LC_BOTH, 0);
	assert_int_equal(fx_enum(f), 0);
	assert_string_equal(pcie_type_name(fx_fn(f, 0, 3, 0)), "pci-pcie-bridge");
	assert_non_null(fx_fn(f, 1, 0, 0));
	assert_null(fx_fn(f, 1, 5, 0));
	assert_int_equal(f->topo.nfn, 2);
	fx_free(f);
}

/* ------------------------------------------------ L1SS/LTR, report */

static void test_l1ss_ltr_found_without_aspm_support(void **state)
{
	struct fx *f = fx_new();
	struct sim_fn *rp, *e;

	(void)state;
	rp = sim_root_port(f->sim, 0, 1, 0, 1, 1, SIM_LNKCAP(0, 0, 0, 0), 0);
	sim_add_l1ss(rp, 0x1f, 0);
	e = sim_endpoint(f->sim, 1, 0, 0, SIM_DEVCAP(0, 0, 1), SIM_LNKCAP(0, 0, 0, 0), 0);
	sim_add_ltr(e);
	sim_add_l1ss(e, 0x1f, 0x5);
	assert_int_equal(fx_enum(f), 0);
	assert_int_equal(fx_fn(f, 0, 1, 0)->l1ss, rp->l1ss);
	assert_int_equal(fx_fn(f, 1, 0, 0)->l1ss, e->l1ss);
	assert_int_equal(fx_fn(f, 1, 0, 0)->l1ss_cap, 0x1f);
	assert_int_equal(fx_fn(f, 1, 0, 0)->l1ss_ctl1, 0x5);
	assert_int_equal(fx_fn(f, 1, 0, 0)->ltr, 0x100);
	/* no ASPM support: the link still has none, L1SS included */
	assert_int_equal(fx_link(f, 0, 1, 0)->aspm_support, 0);
	fx_free(f);
}

static void test_report_port_number_slot_clock(void **state)
{
	static char text[8192];
	struct fx *f = fx_new();
	struct out_buf ob;
	struct out o;
	struct sim_fn *rp, *e;
	const char *p;

	(void)state;
	rp = sim_root_port(f->sim, 0, 0x1c, 0, 1, 1, LC_BOTH | (3u << 24), 0);
	e = sim_endpoint(f->sim, 1, 0, 0, SIM_DEVCAP(0, 0, 1), LC_BOTH | (0xabu << 24), 0);
	sim_poke(e, e->pcie + PCI_EXP_LNKSTA, 2, 0x11);		/* SCC clear */
	(void)rp;
	assert_int_equal(fx_enum(f), 0);
	out_buf_init(&o, &ob, text, sizeof(text));
	report_links(&o, &f->topo);
	if (!strstr(text, "\n  port number up 3 down 171; slot clock up yes down no\n"))
		fail_msg("report lacks the port/slot clock line:\n%s", text);
	/* every line fits 80 columns */
	for (p = text; *p; ) {
		const char *nl = strchr(p, '\n');

		assert_non_null(nl);
		assert_true(nl - p <= 80);
		p = nl + 1;
	}
	fx_free(f);
}

/* ------------------------------------------------ config API */

static void test_cfg_write8(void **state)
{
	struct fx *f = fx_new();
	struct sim_fn *d;

	(void)state;
	d = sim_pci_device(f->sim, 0, 1, 0);
	assert_int_equal(pci_cfg_write8(&f->cfg, A(0, 1, 0), PCI_COMMAND + 1, 0x05), 0);
	assert_int_equal(f->cfg.writes, 1);
	assert_int_equal(f->sim->nlog, 1);
	assert_int_equal(f->sim->log[0].off, PCI_COMMAND + 1);
	assert_int_equal(f->sim->log[0].width, 1);
	assert_int_equal(f->sim->log[0].val, 0x05);
	assert_int_equal(sim_peek(d, PCI_COMMAND, 2), 0x0500);	/* rw mask 0x05 */
	assert_int_equal(pci_cfg_write8(&f->cfg, A(0, 1, 0), 4096, 0), -AE_RANGE);
	f->cfg.read_only = true;
	assert_int_equal(pci_cfg_write8(&f->cfg, A(0, 1, 0), PCI_COMMAND, 0x7), -AE_NOTSUP);
	assert_int_equal(f->cfg.refused_writes, 1);
	assert_int_equal(f->cfg.writes, 1);
	assert_int_equal(f->sim->writes, 1);
	fx_free(f);
}

/* ------------------------------------------------ segments, start buses, ECAM */

/*
 * Three MCFG regions, listed in reverse: segment 1 buses 80-9f and 40-7f
 * (separate ECAM windows) and segment 0 buses 00-3f, reached through the
 * ECAM backend over a multi-window MMIO view. Segment 1's root bus is 40;
 * its root port's buses run from one window into the other. Segment 0 has
 * a Legacy PCI Express Endpoint below a root port.
 */
static void test_segments_and_windows_through_ecam(void **state)
{
	static const struct te_window win[] = {
		{ 0xd0000000, 1, 0x80, 0x9f },
		{ 0xc0000000, 1, 0x40, 0x7f },
		{ 0xb0000000, 0, 0x00, 0x3f },
	};
	struct ecam_window r[3];
	struct fx *f = fx_new();
	struct te_mmio m = { .sim = f->sim, .win = win, .nwin = 3 };
	struct ecam e = { .win = r, .nwin = 3, .mmio = &te_mmio_ops, .mmio_ctx = &m };
	struct pci_cfg cfg;
	const struct pcie_fn *ep;
	struct sim *s = f->sim;

	(void)state;
	for (unsigned i = 0; i < 3; i++)
		r[i] = (struct ecam_window){ .base = win[i].base, .segment = win[i].seg,
					     .bus_start = win[i].start, .bus_end = win[i].end };
	sim_host_bridge(s, 0);
	te_pcie_fn(s, 0, 0, 0x1c, 0, PCI_EXP_TYPE_ROOT_PORT, 1, 1);
	te_pcie_fn(s, 0, 1, 0, 0, PCI_EXP_TYPE_LEG_END, 0, 0);
	te_pcie_fn(s, 1, 0x40, 1, 0, PCI_EXP_TYPE_ROOT_PORT, 0x7f, 0x81);
	te_pcie_fn(s, 1, 0x7f, 0, 0, PCI_EXP_TYPE_UPSTREAM, 0x80, 0x81);
	te_pcie_fn(s, 1, 0x80, 0, 0, PCI_EXP_TYPE_DOWNSTREAM, 0x81, 0x81);
	te_pcie_fn(s, 1, 0x81, 0, 0, PCI_EXP_TYPE_ENDPOINT, 0, 0);
	te_pcie_fn(s, 1, 0x40, 2, 0, PCI_EXP_TYPE_ROOT_PORT, 0x41, 0x41);
	te_pcie_fn(s, 1, 0x41, 0, 0, PCI_EXP_TYPE_ENDPOINT, 0, 0);
	/* bus 0x40 of segment 0 is not decoded: never touched */
	sim_host_bridge(s, 0x40);

	pci_cfg_init(&cfg, &ecam_cfg_ops, &e);
	assert_int_equal(pcie_enumerate(&cfg, r, 3, NULL, &f->topo), 0);
	assert_int_equal(m.bad, 0);
	assert_int_equal(cfg.errors, 0);
	assert_int_equal(cfg.reads, s->reads);
	assert_int_equal(f->topo.nroots, 2);
	assert_int_equal(f->topo.problems, 0);
	assert_int_equal(f->topo.nfn, 9);
	/* segment 0 first, then segment 1 */
	assert_int_equal(f->topo.fn[0].addr.seg, 0);
	assert_int_equal(f->topo.fn[3].addr.seg, 1);
	assert_int_equal(f->topo.fn[3].addr.bus, 0x40);
	assert_string_equal(pcie_type_name(fx_fn_seg(f, 0, 1, 0, 0)), "legacy-endpoint");
	assert_non_null(fx_link(f, 0, 0x1c, 0));
	assert_int_equal(fx_link(f, 0, 0x1c, 0)->down, pcie_find_fn(&f->topo, A(1, 0, 0)));
	ep = fx_fn_seg(f, 1, 0x81, 0, 0);
	assert_non_null(ep);
	assert_int_equal(ep->depth, 3);
	assert_ptr_equal(&f->topo.fn[ep->parent], fx_fn_seg(f, 1, 0x80, 0, 0));
	assert_non_null(fx_fn_seg(f, 1, 0x41, 0, 0));
	assert_null(fx_fn_seg(f, 0, 0x40, 0, 0));
	assert_int_equal(f->topo.nlink, 4);
	fx_free(f);
}

/* The ECAM backend alone on a region that starts above bus 0 of a
 * non-zero segment: addresses from bus 0 of the segment, nothing below
 * the start bus touched. */
static void test_ecam_segment_start_bus(void **state)
{
	struct fx *f = fx_new();
	struct ecam_window r = { .base = 0xe0000000, .segment = 2, .bus_start = 0x20,
				 .bus_end = 0x2f };
	struct ecam e = { .win = &r, .nwin = 1, .mmio = &sim_mmio_ops };
	struct pci_cfg cfg;

	(void)state;
	f->sim->ecam_base = r.base;
	f->sim->ecam_seg = 2;
	f->sim->ecam_start = 0x20;
	f->sim->ecam_end = 0x2f;
	e.mmio_ctx = f->sim;
	sim_add_fn(f->sim, 2, 0x20, 0, 0, 0x8086, 0x29c0, 0x060000, PCI_HEADER_TYPE_NORMAL);
	te_pcie_fn(f->sim, 2, 0x20, 2, 0, PCI_EXP_TYPE_ROOT_PORT, 0x21, 0x21);
	te_pcie_fn(f->sim, 2, 0x21, 0, 0, PCI_EXP_TYPE_ENDPOINT, 0, 0);
	pci_cfg_init(&cfg, &ecam_cfg_ops, &e);
	assert_int_equal(pcie_enumerate(&cfg, &r, 1, NULL, &f->topo), 0);
	assert_int_equal(f->sim->bad_accesses, 0);
	assert_int_equal(f->topo.nfn, 3);
	assert_int_equal(f->topo.nroots, 1);
	assert_non_null(fx_fn_seg(f, 2, 0x21, 0, 0));
	assert_int_equal(f->topo.nlink, 1);
	assert_int_equal(cfg.reads, f->sim->reads);
	fx_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reference_topology),
		cmocka_unit_test(test_only_device0_below_downstream_port),
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
		cmocka_unit_test(test_extra_roots_beyond_cap),
		cmocka_unit_test(test_extra_root_outside_mcfg_and_duplicates),
		cmocka_unit_test(test_bridge_spans_adjacent_regions),
		cmocka_unit_test(test_reversed_region_order),
		cmocka_unit_test(test_bus_dup_with_root_bus),
		cmocka_unit_test(test_ari_needs_next_function),
		cmocka_unit_test(test_ari_sparse_functions),
		cmocka_unit_test(test_ari_next_function_loop),
		cmocka_unit_test(test_ari_next_function_self),
		cmocka_unit_test(test_pcie_bridge_type8_only_device0),
		cmocka_unit_test(test_l1ss_ltr_found_without_aspm_support),
		cmocka_unit_test(test_report_port_number_slot_clock),
		cmocka_unit_test(test_cfg_write8),
		cmocka_unit_test(test_segments_and_windows_through_ecam),
		cmocka_unit_test(test_ecam_segment_start_bus),
	};

	return cmocka_run_group_tests_name("enum", tests, NULL, NULL);
}
