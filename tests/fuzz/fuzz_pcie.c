// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: enumeration, planning, apply and teardown on a
 * simulated hierarchy described by the input, reached through the ECAM
 * backend exactly as on hardware.
 *
 * Input: records of REC bytes, one function each (see build_fn()):
 * kind, address, bridge bus numbers, PCIe registers, L1SS, behaviours,
 * and raw bytes poked anywhere in its config space (capability lists that
 * loop, point into the header, bad port types ...). Then the last byte
 * picks the action and the function to remove.
 *
 * Invariants, checked after every run:
 *  - no access outside the decoded ECAM range (the simulator's ECAM view
 *    counts them);
 *  - every write lands on a register the policy owns: Link Control of a
 *    function's PCIe capability, or L1 PM Substates Control 1;
 *  - notouch writes nothing, report and plan write nothing;
 *  - a run ends within a bounded number of accesses.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "../sim/build.h"
#include "../../pcie/run.h"
#include "../../lib/log.h"

#define REC		48
#define MAX_REC		24
#define ACCESS_BOUND	400000u

#define CHECK(c) do { if (!(c)) abort(); } while (0)

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static void build_fn(struct sim *s, const uint8_t *r)
{
	uint8_t bus = r[0] & 7, dev = r[1] & 0x1f, fn = (r[1] >> 5) & 7;
	uint32_t lnkcap = le32(r + 6), devcap = le32(r + 12);
	uint16_t lnkctl = (uint16_t)(r[10] | r[11] << 8);
	uint16_t lnksta = (uint16_t)(r[16] | r[17] << 8);
	uint8_t flags = r[18];
	struct sim_fn *f;

	if (sim_find(s, (struct pci_addr){ 0, bus, PCI_DEVFN(dev, fn) }))
		return;
	switch (r[2] % 7) {
	case 0: f = sim_endpoint(s, bus, dev, fn, devcap, lnkcap, lnkctl); break;
	case 1: f = sim_root_port(s, bus, dev, fn, r[4] & 7, r[5] & 7, lnkcap, lnkctl); break;
	case 2: f = sim_switch_up(s, bus, r[4] & 7, r[5] & 7, lnkcap, lnkctl); break;
	case 3: f = sim_switch_down(s, bus, dev, r[4] & 7, r[5] & 7, lnkcap, lnkctl); break;
	case 4: f = sim_pci_device(s, bus, dev, fn); break;
	case 5: f = sim_pcie_pci_bridge(s, bus, dev, r[4] & 7, r[5] & 7, lnkcap); break;
	default: f = sim_add_fn(s, 0, bus, dev, fn, 0x1234, 0x5678, 0xff0000, r[3] & 0x81); break;
	}
	if (!f)
		return;
	if (f->cfg[PCI_HEADER_TYPE] & 1)
		f->cfg[PCI_PRIMARY_BUS] = r[3] & 7;
	if (f->pcie) {
		sim_poke(f, f->pcie + PCI_EXP_LNKSTA, 2, lnksta);
		if (flags & 0x02)
			sim_add_l1ss(f, le32(r + 19), le32(r + 23));
		if (flags & 0x04)
			sim_add_ltr(f);
		if (flags & 0x08)
			sim_ignore_aspm(f);
	}
	if (flags & 0x01)
		sim_set_multi(f);
	if (flags & 0x10)
		f->crs_reads = (flags & 0x20) ? ~0u : 2;
	if (flags & 0x40)
		f->vanish_after = r[27];
	if (flags & 0x80)
		f->alias_all = true;
	f->retrain_reads = r[27] & 3;
	/* raw corruption: up to 5 dwords anywhere */
	for (unsigned k = 0; k < 5; k++) {
		const uint8_t *c = r + 28 + 4 * k;
		uint16_t off = (uint16_t)((c[0] | (c[1] & 3) << 8) * 4);

		if (!(c[1] & 0x80))
			continue;
		sim_poke(f, off & 0xffc, 2, (uint32_t)(c[2] | c[3] << 8));
	}
}

/* Is this write to a register the policy owns? */
static int owned(struct sim *s, const struct sim_write *w)
{
	struct sim_fn *f = sim_find(s, w->a);

	if (!f)
		return 0;
	if (f->pcie && w->off == f->pcie + PCI_EXP_LNKCTL && w->width == 2)
		return 1;
	if (f->l1ss && w->off == f->l1ss + PCI_L1SS_CTL1 && w->width == 4)
		return 1;
	/* capability positions found by the app, if corruption moved them */
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct pcie_fn fns[256];
	static struct pcie_link links[128];
	static struct aspm_write writes[2048];
	static struct aspm_link_plan lp[128];
	static char text[1 << 16];
	struct mcfg_region region = { .base = 0xe0000000, .segment = 0,
				      .start_bus = 0, .end_bus = 7 };
	struct ecam e = { .region = &region, .nregion = 1, .mmio = &sim_mmio_ops };
	struct pcie_topo t = { .fn = fns, .cap_fn = 256, .link = links, .cap_link = 128 };
	struct aspm_run r;
	struct out_buf b;
	struct out o;
	struct pci_cfg c;
	struct sim *s;
	unsigned nrec = (unsigned)(size / REC), sel;

	if (size < 1 || nrec > MAX_REC)
		return 0;
	s = sim_new();
	for (unsigned i = 0; i < nrec; i++)
		build_fn(s, data + i * REC);
	sel = data[size - 1];
	s->ecam_base = region.base;
	s->ecam_start = 0;
	s->ecam_end = 7;
	e.mmio_ctx = s;
	log_set_sink(NULL, LOG_ERR);
	out_buf_init(&o, &b, text, sizeof(text));

	pci_cfg_init(&c, &ecam_cfg_ops, &e);
	c.read_only = true;
	pcie_enumerate(&c, &region, 1, NULL, &t);
	CHECK(s->writes == 0);

	memset(&r, 0, sizeof(r));
	r.topo = &t;
	r.plan.w = writes;
	r.plan.cap = 2048;
	r.lp = lp;
	r.in.osc_granted = sel & 0x10;
	r.in.fadt_no_aspm = sel & 0x20;
	r.in.fadt_mode = (sel & 0x40) ? FADT_MODE_CLEAR : FADT_MODE_NOTOUCH;
	r.in.override = (enum aspm_override)(sel % 5);
	switch ((sel >> 3) & 3) {
	case 0: r.cmd = CMD_PLAN; break;
	case 1: r.cmd = CMD_APPLY; break;
	default:
		r.cmd = CMD_REMOVE;
		r.remove_apply = sel & 0x80;
		if (t.nfn)
			r.remove = t.fn[sel % t.nfn].addr;
		break;
	}
	c.read_only = !(r.cmd == CMD_APPLY || (r.cmd == CMD_REMOVE && r.remove_apply));
	aspm_run(&c, &r, &o);

	CHECK(s->bad_accesses == 0);
	CHECK(c.reads + c.writes < ACCESS_BOUND);
	if (c.read_only || r.action == ASPM_NOTOUCH)
		CHECK(s->writes == 0);
	for (unsigned i = 0; i < s->nlog; i++)
		CHECK(owned(s, &s->log[i]));
	sim_free(s);
	return 0;
}
