// SPDX-License-Identifier: GPL-2.0-only
/*
 * Seeded generator of random machines (gen.h). Every field is drawn from
 * the values PCIe r5.0 allows for it:
 *   Link Capabilities (sec 7.5.3.6): ASPM Support 00b-11b (10b, "L1
 *     only", was reserved in PCIe 1.1), L0s and L1 Exit Latency 000b-111b,
 *     Clock Power Management;
 *   Device Capabilities (sec 7.5.3.3): Endpoint L0s and L1 Acceptable
 *     Latency 000b-111b, Role-Based Error Reporting (Linux's pre-1.1 test,
 *     pcie_aspm_sanity_check());
 *   PCI Express Capabilities (sec 7.5.3.2): capability version 1 or 2;
 *   Link Control / Status (sec 7.5.3.7-8): ASPM Control (mostly within
 *     what the link supports, sometimes not: BIOS states contradicting
 *     the capabilities), Common Clock Configuration, CLKREQ#, Slot Clock;
 *   L1 PM Substates (sec 7.8.3): every capability bit, Port
 *     Common_Mode_Restore_Time, T_POWER_ON, the Control 1 enables (again
 *     sometimes beyond the capability), LTR_L1.2_THRESHOLD, Control 2;
 *   LTR Mechanism Supported (sec 7.5.3.15) and the LTR capability;
 *   ARI Forwarding and the ARI capability's Next Function Number.
 * Topologies: Root Ports (some multi-function), switches with up to 8
 * Downstream Ports, a switch straight on the root bus (no Root Port),
 * multi-function endpoints with up to 8 functions (some conventional
 * PCI), ARI devices, empty ports, conventional PCI behind a
 * PCIe-to-PCI bridge; up to GEN_MAX_DEPTH links deep.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gen.h"
#include "build.h"

#define LK_ASPM		PCI_EXP_LNKCTL_ASPMC
#define LK_CCC		PCI_EXP_LNKCTL_CCC
#define LK_CLKREQ	PCI_EXP_LNKCTL_CLKREQ_EN

struct g {
	struct gen_machine *m;
	uint64_t st;
	unsigned budget;	/* functions still to place */
	unsigned bus;		/* next free bus number */
	unsigned deep;		/* how much this machine likes switches (0-3) */
};

uint64_t gen_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

uint64_t gen_seed(uint64_t campaign, uint64_t i)
{
	uint64_t st = campaign ^ (i * 0xd1b54a32d192ed03ull);

	gen_next(&st);
	return gen_next(&st);
}

static unsigned rnd(struct g *g, unsigned n)
{
	return (unsigned)(gen_next(&g->st) % n);
}

/* one in n */
static bool chance(struct g *g, unsigned n)
{
	return rnd(g, n) == 0;
}

static int add_node(struct g *g, uint8_t kind, unsigned bus, unsigned dev,
		    unsigned fn, int parent, unsigned depth)
{
	struct gen_machine *m = g->m;
	struct gen_node *x;

	if (m->nn >= GEN_MAX_FN || !g->budget || bus > 0xff)
		return -1;
	g->budget--;
	x = &m->n[m->nn];
	memset(x, 0, sizeof(*x));
	x->kind = kind;
	x->bus = (uint8_t)bus;
	x->dev = (uint8_t)dev;
	x->fn = (uint8_t)fn;
	x->parent = (int8_t)parent;
	x->depth = (uint8_t)depth;
	x->ver = 2;
	return (int)m->nn++;
}

/* ASPM Support: mostly L0s + L1, every encoding possible */
static unsigned draw_support(struct g *g)
{
	static const uint8_t w[8] = { 3, 3, 3, 3, 2, 1, 0, 2 };

	return w[rnd(g, 8)];
}

/* exit latency encodings: mostly short, every value possible */
static unsigned draw_exit(struct g *g)
{
	return chance(g, 3) ? rnd(g, 8) : rnd(g, 3);
}

/* Link and device fields of a PCIe function (sec 7.5.3). */
static void draw_pcie(struct g *g, struct gen_node *x, unsigned support)
{
	bool clkpm = !chance(g, 3);
	unsigned bios;

	x->ver = chance(g, 10) ? 1 : 2;
	x->devcap = SIM_DEVCAP(chance(g, 3) ? 7 : rnd(g, 8), chance(g, 3) ? 7 : rnd(g, 8),
			       !chance(g, 8));
	if (chance(g, 6))
		support = draw_support(g);
	x->lnkcap = SIM_LNKCAP(support, draw_exit(g), draw_exit(g), clkpm);
	x->lnksta = chance(g, 6) ? 0x0011 : (PCI_EXP_LNKSTA_SLC | 0x11);
	bios = chance(g, 12) ? rnd(g, 4) : rnd(g, 4) & support;
	x->lnkctl = (uint16_t)bios;
	if (!chance(g, 4))
		x->lnkctl |= LK_CCC;
	if (clkpm ? !chance(g, 2) : chance(g, 16))
		x->lnkctl |= LK_CLKREQ;
	x->ltr_mech = !chance(g, 3);
}

/* L1 PM Substates (sec 7.8.3): capability, Control 1 and 2. */
static void draw_l1ss(struct g *g, struct gen_node *x)
{
	uint32_t cap = chance(g, 4) ? rnd(g, 32) : 0x1f;
	uint32_t en = chance(g, 6) ? rnd(g, 16) : rnd(g, 16) & cap;

	x->l1ss = true;
	x->l1ss_cap = cap | (uint32_t)rnd(g, 256) << 8 | (uint32_t)rnd(g, 3) << 16 |
		      (uint32_t)rnd(g, 32) << 19;
	x->l1ss_ctl1 = en | (uint32_t)rnd(g, 256) << 8 | (uint32_t)rnd(g, 1024) << 16 |
		       (uint32_t)rnd(g, 6) << 29;
	x->l1ss_ctl2 = (uint32_t)rnd(g, 3) | (uint32_t)rnd(g, 32) << 3;
}

static void gen_below(struct g *g, int port, unsigned depth);

/* the functions of one device on bus (below port), ARI if the port
 * forwards it; some of them conventional PCI */
static void gen_device(struct g *g, unsigned bus, int port, unsigned depth,
		       unsigned support, bool l1ss)
{
	struct gen_machine *m = g->m;
	bool ari = port >= 0 && m->n[port].ari_fwd;
	unsigned nf = chance(g, 3) ? 2 + rnd(g, 7) : 1, fnum = 0;
	int first = -1, prev = -1;

	for (unsigned k = 0; k < nf; k++) {
		bool conv = k && !ari && chance(g, 8);
		int i = add_node(g, conv ? GEN_PCI : GEN_EP, bus, ari ? fnum >> 3 : 0,
				 ari ? fnum & 7 : fnum, port, depth);

		if (i < 0)
			break;
		if (!conv) {
			draw_pcie(g, &m->n[i], support);
			m->n[i].ltr_cap = m->n[i].ltr_mech && !chance(g, 3);
			if (l1ss && (!k || chance(g, 2)) && !chance(g, 8))
				draw_l1ss(g, &m->n[i]);
			m->n[i].ari = ari;
		}
		if (first < 0)
			first = i;
		if (prev >= 0)
			m->n[prev].next_fn = (uint8_t)(ari ? fnum : 0);
		prev = i;
		/* sparse function numbers; ARI may go beyond 7 */
		fnum += 1 + (chance(g, 3) ? rnd(g, 3) : 0);
		if (fnum > (ari ? 23u : 7u))
			break;
	}
	if (first >= 0 && prev != first)
		m->n[first].multi = true;
}

/* a switch below port: its Upstream Port, up to 8 Downstream Ports */
static void gen_switch(struct g *g, unsigned bus, int port, unsigned depth,
		       unsigned support, bool l1ss)
{
	struct gen_machine *m = g->m;
	int up = add_node(g, GEN_USP, bus, 0, 0, port, depth);
	unsigned nd = 1 + (chance(g, 2) ? rnd(g, 8) : rnd(g, 3));

	if (up < 0)
		return;
	draw_pcie(g, &m->n[up], support);
	if (l1ss && !chance(g, 8))
		draw_l1ss(g, &m->n[up]);
	m->n[up].sec = (uint8_t)g->bus++;
	for (unsigned d = 0; d < nd; d++) {
		int dp = add_node(g, GEN_DSP, m->n[up].sec, d, 0, up, depth);

		if (dp < 0)
			break;
		draw_pcie(g, &m->n[dp], draw_support(g));
		m->n[dp].ari_fwd = chance(g, 10);
		gen_below(g, dp, depth + 1);
	}
	m->n[up].sub = (uint8_t)(g->bus - 1);
}

/* what sits below a Root or Downstream Port; depth: the number of the
 * link below the port, counted from the root bus (1: a Root Port's) */
static void gen_below(struct g *g, int port, unsigned depth)
{
	struct gen_machine *m = g->m;
	struct gen_node *p = &m->n[port];
	unsigned r = rnd(g, 16), bus = g->bus++;
	bool l1ss = chance(g, 3);

	p->sec = (uint8_t)bus;
	if (l1ss && !chance(g, 8))
		draw_l1ss(g, p);
	if (r < 2 || !g->budget) {
		/* empty port */
	} else if (depth < GEN_MAX_DEPTH && r < 5 + g->deep * 2) {
		gen_switch(g, bus, port, depth, (p->lnkcap >> 10) & 3, l1ss);
	} else if (r == 15) {
		int br = add_node(g, GEN_PCIBR, bus, 0, 0, port, depth);

		if (br >= 0) {
			unsigned n = 1 + rnd(g, 3), sb = g->bus++;

			draw_pcie(g, &m->n[br], (p->lnkcap >> 10) & 3);
			m->n[br].sec = (uint8_t)sb;
			m->n[br].sub = (uint8_t)sb;
			for (unsigned k = 0; k < n; k++)
				add_node(g, GEN_PCI, sb, k * 8 + rnd(g, 8), 0, br, depth);
		}
	} else {
		gen_device(g, bus, port, depth, (p->lnkcap >> 10) & 3, l1ss);
	}
	m->n[port].sub = (uint8_t)(g->bus - 1);
}

static void gen_root_bus(struct g *g)
{
	struct gen_machine *m = g->m;
	unsigned nrp = 1 + rnd(g, 4), dev = 1;

	if (chance(g, 8))
		/* a switch straight on the root bus (its Upstream Port is
		 * 00:00.0), no Root Port */
		gen_switch(g, 0, -1, 0, draw_support(g), chance(g, 3));
	else if (chance(g, 2))
		add_node(g, GEN_HOST, 0, 0, 0, -1, 0);
	for (unsigned k = 0; k < nrp && g->budget; k++) {
		unsigned nfn = chance(g, 4) ? 2 + rnd(g, 2) : 1, made = 0;
		int first = -1;

		for (unsigned f = 0; f < nfn; f++) {
			int rp = add_node(g, GEN_RP, 0, dev, f, -1, 0);

			if (rp < 0)
				break;
			if (first < 0)
				first = rp;
			made++;
			draw_pcie(g, &m->n[rp], draw_support(g));
			m->n[rp].ari_fwd = chance(g, 10);
			gen_below(g, rp, 1);
		}
		if (first >= 0 && made > 1)
			m->n[first].multi = true;
		dev += 1 + rnd(g, 3);
	}
	if (chance(g, 8))
		add_node(g, GEN_PCI, 0, 0x1f, 0, -1, 0);
}

void gen_machine(struct gen_machine *m, uint64_t seed)
{
	struct g g = { .m = m, .st = seed, .bus = 1 };

	memset(m, 0, sizeof(*m));
	m->seed = seed;
	m->remove = -1;
	g.budget = 4 + rnd(&g, 6) + (chance(&g, 3) ? rnd(&g, 20) : 0);
	g.deep = rnd(&g, 4);
	gen_root_bus(&g);
	if (chance(&g, 4)) {
		unsigned c[GEN_MAX_FN], nc = 0;

		for (unsigned i = 0; i < m->nn; i++)
			if (m->n[i].kind == GEN_EP || m->n[i].kind == GEN_USP)
				c[nc++] = i;
		if (nc)
			m->remove = (int)c[rnd(&g, nc)];
	}
}

/* ---------------------------------------------------------- reduction */

static bool has_pcie(const struct gen_node *x)
{
	return x->kind != GEN_HOST && x->kind != GEN_PCI;
}

/* Drop node i; with function 0 go the other functions of its device
 * (every function of the bus for ARI); then whatever is below. */
static void drop(struct gen_machine *m, unsigned i)
{
	const struct gen_node *x = &m->n[i];

	for (unsigned k = 0; k < m->nn; k++) {
		struct gen_node *y = &m->n[k];

		if (k == i || (x->fn == 0 && x->dev == y->dev && y->bus == x->bus &&
			       y->parent == x->parent && x->bus) ||
		    (x->ari && x->fn == 0 && x->dev == 0 && y->bus == x->bus && y->ari))
			y->dropped = true;
	}
	/* parents come before their children */
	for (unsigned k = 0; k < m->nn; k++)
		if (m->n[k].parent >= 0 && m->n[m->n[k].parent].dropped)
			m->n[k].dropped = true;
	if (m->remove >= 0 && m->n[m->remove].dropped)
		m->remove = -1;
}

static unsigned alive(const struct gen_machine *m)
{
	return gen_count(m, -1);
}

/* Make field group f of x plain; false when it already is. */
static bool plain(struct gen_node *x, unsigned f)
{
	const struct gen_node o = *x;
	const uint32_t lat = PCI_EXP_LNKCAP_L0SEL | PCI_EXP_LNKCAP_L1EL;

	switch (f) {
	case GEN_F_ASPM:
		x->lnkctl &= (uint16_t)~LK_ASPM;
		break;
	case GEN_F_CLKPM:
		x->lnkcap &= ~PCI_EXP_LNKCAP_CLKPM;
		x->lnkctl &= (uint16_t)~LK_CLKREQ;
		break;
	case GEN_F_LAT:
		x->lnkcap &= ~lat;
		x->devcap |= PCI_EXP_DEVCAP_L0S | PCI_EXP_DEVCAP_L1;
		break;
	case GEN_F_L1SS:
		x->l1ss = false;
		break;
	case GEN_F_LTR:
		x->ltr_mech = x->ltr_cap = false;
		break;
	case GEN_F_PRE11:
		x->ver = 2;
		x->devcap |= PCI_EXP_DEVCAP_RBER;
		break;
	case GEN_F_CCC:
		x->lnkctl |= LK_CCC;
		x->lnksta |= PCI_EXP_LNKSTA_SLC;
		break;
	case GEN_F_SUPPORT:
		x->lnkcap |= PCI_EXP_LNKCAP_ASPMS;
		break;
	default:
		return false;
	}
	return memcmp(&o, x, sizeof(o)) != 0;
}

int gen_mutate(struct gen_machine *m, const char *mut)
{
	char *end;
	long n, f;

	if (!strcmp(mut, "r")) {
		if (m->remove < 0)
			return -1;
		m->remove = -1;
		return 0;
	}
	n = strtol(mut + 1, &end, 10);
	if ((mut[0] != 'd' && mut[0] != 'f') || end == mut + 1 || n < 0 ||
	    n >= (long)m->nn || m->n[n].dropped)
		return -1;
	if (mut[0] == 'd') {
		struct gen_machine t = *m;

		drop(&t, (unsigned)n);
		if (!alive(&t))
			return -1;
		*m = t;
		return *end ? -1 : 0;
	}
	if (*end != '.' || !has_pcie(&m->n[n]))
		return -1;
	f = strtol(end + 1, &end, 10);
	if (*end || f < 0 || f >= GEN_NFIELDS)
		return -1;
	return plain(&m->n[n], (unsigned)f) ? 0 : -1;
}

unsigned gen_mutations(const struct gen_machine *m, char *buf, size_t n)
{
	static struct gen_machine t;
	size_t len = 0;
	unsigned cnt = 0;
	char mut[32];

	buf[0] = '\0';
	for (int i = -1; i < (int)m->nn; i++)
		for (int f = -1; f < (i < 0 ? 0 : GEN_NFIELDS); f++) {
			if (i < 0)
				snprintf(mut, sizeof(mut), "r");
			else if (f < 0)
				snprintf(mut, sizeof(mut), "d%d", i);
			else
				snprintf(mut, sizeof(mut), "f%d.%d", i, f);
			t = *m;
			if (gen_mutate(&t, mut) || len + strlen(mut) + 2 > n)
				continue;
			len += (size_t)snprintf(buf + len, n - len, "%s%s", cnt ? "," : "", mut);
			cnt++;
		}
	return cnt;
}

/* ---------------------------------------------------------- building */

static struct sim_fn *build_fn(const struct gen_node *x, struct sim *s)
{
	switch (x->kind) {
	case GEN_HOST:
		return sim_host_bridge(s, x->bus);
	case GEN_RP:
		return sim_root_port(s, x->bus, x->dev, x->fn, x->sec, x->sub, x->lnkcap,
				     x->lnkctl);
	case GEN_USP:
		return sim_switch_up(s, x->bus, x->sec, x->sub, x->lnkcap, x->lnkctl);
	case GEN_DSP:
		return sim_switch_down(s, x->bus, x->dev, x->sec, x->sub, x->lnkcap, x->lnkctl);
	case GEN_EP:
		return sim_endpoint(s, x->bus, x->dev, x->fn, x->devcap, x->lnkcap, x->lnkctl);
	case GEN_PCIBR:
		return sim_pcie_pci_bridge(s, x->bus, x->dev, x->sec, x->sub, x->lnkcap);
	default:
		return sim_pci_device(s, x->bus, x->dev, x->fn);
	}
}

int gen_build(const struct gen_machine *m, struct sim *s)
{
	for (unsigned i = 0; i < m->nn; i++) {
		const struct gen_node *x = &m->n[i];
		struct sim_fn *f;

		if (x->dropped)
			continue;
		f = build_fn(x, s);
		if (!f)
			return -1;
		if (x->multi)
			sim_set_multi(f);
		if (!has_pcie(x))
			continue;
		sim_poke(f, f->pcie + PCI_EXP_FLAGS, 2,
			 (sim_peek(f, f->pcie + PCI_EXP_FLAGS, 2) & ~0xfu) | x->ver);
		sim_poke(f, f->pcie + PCI_EXP_DEVCAP, 4, x->devcap);
		sim_poke(f, f->pcie + PCI_EXP_LNKCTL, 2, x->lnkctl);
		sim_poke(f, f->pcie + PCI_EXP_LNKSTA, 2, x->lnksta);
		if (x->ari_fwd)
			sim_set_ari_fwd(f);
		if (x->ari)
			sim_add_ari(f, x->next_fn);
		if (x->ltr_cap)
			sim_add_ltr(f);
		else if (x->ltr_mech)
			sim_set_ltr_mech(f);
		if (x->l1ss) {
			sim_add_l1ss(f, x->l1ss_cap, x->l1ss_ctl1);
			sim_poke(f, f->l1ss + PCI_L1SS_CTL2, 4, x->l1ss_ctl2);
		}
	}
	return 0;
}

const char *gen_remove(const struct gen_machine *m, char *buf, size_t n)
{
	const struct gen_node *x;

	if (m->remove < 0)
		return NULL;
	x = &m->n[m->remove];
	snprintf(buf, n, "%02x:%02x.%x", x->bus, x->dev, x->fn);
	return buf;
}

unsigned gen_count(const struct gen_machine *m, int kind)
{
	unsigned c = 0;

	for (unsigned i = 0; i < m->nn; i++)
		c += !m->n[i].dropped && (kind < 0 || m->n[i].kind == kind);
	return c;
}
