// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: the whole app on a machine described by the input.
 * app_main() (app/app.c, the run sequence aspmctl.efi runs) is called
 * with arguments built from the input and fake firmware services: ACPI
 * tables (RSDP, XSDT, FADT, one or two MCFGs) in a memory image, config
 * space on the simulator reached over ECAM at the addresses of the MCFG
 * regions discovery kept, firmware root buses, files, the summary
 * variable and the chainload. So MCFG parsing and validation,
 * enumeration with --scan full and extra root buses, the reports, plan,
 * apply, remove, dump, fadt and boot (with --emulate-fadt: patch, then
 * discover) all run exactly as on a machine.
 *
 * Input: a header of HDR bytes, then records of REC bytes, one function
 * each (see build_fn()).
 *
 * Header:
 *   0      bits 2:0 command: report, plan, apply, remove, dump, boot,
 *          fadt, none; bit 3 --osc granted (else denied); bit 4
 *          --fadt-mode notouch (else clear); bits 7:5 --policy auto,
 *          keep, clear, force, notouch, powersupersave, performance,
 *          (none)
 *   1      bit 0 --scan full, bit 1 --apply (remove), bit 2 --verbose,
 *          bit 3 second MCFG table (regions 1.. go there), bits 5:4 FADT
 *          of 244 / 132 / no / 276 bytes, bits 7:6 number of extra root
 *          buses
 *   2      FADT IAPC_BOOT_ARCH (low byte)
 *   3      remove: the record whose address is given (mod records)
 *   4      bits 1:0 number of MCFG allocations, 1 + (n % 3); bit 2
 *          --next given; bit 3 the chainload fails; bit 4 writing a file
 *          fails; bit 5 aspmctl.conf unreadable; bit 6 started as a boot
 *          entry (else from the Shell); bit 7 no RSDP
 *   5..16  3 allocations: base selector (see region_base()), bit 0
 *          segment and bits 3:1 a 1 MiB base offset, start bus, end bus
 *   17..22 3 extra root buses: bit 0 segment, bit 1 declared by firmware
 *          (else --root-bus); bus
 *   23     bits 1:0 --emulate-fadt (none, set-no-aspm, clear-no-aspm,
 *          leave); bit 2 fadt --set-no-aspm (else --clear-no-aspm)
 *
 * Invariants, asserted while the app runs:
 *  - every MMIO access lies in a usable MCFG region (hw_decode());
 *  - every write lands on Link Control of a function's PCI Express
 *    capability or on L1 PM Substates Control 1 of a function on a link,
 *    as enumeration found them (checked against the hardware's own
 *    capability IDs), and changes only owned bits: ASPM Control, Common
 *    Clock Configuration, Enable Clock PM, Retrain Link; the four L1SS
 *    enables. Link Disable and the rest never change;
 *  - report, plan, dump, fadt, remove without --apply, boot with an
 *    unusable configuration and notouch write nothing (nor try to);
 *  - boot mode fails open: the summary is published and the next loader
 *    started, whatever the firmware and the hardware did; a loader that
 *    cannot be started gets the summary published again, with its outcome;
 *  - the run ends within a number of config accesses and delays derived
 *    from the sizes involved (access_bound()); past it, it aborts at once.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../lib/acpi_build.h"
#include "../lib/fake_boot.h"
#include "../sim/build.h"
#include "../../acpi/acpi.h"
#include "../../pcie/dump.h"
#include "../../lib/err.h"
#include "../../lib/log.h"
#include "fuzz_check.h"

#define HDR		24
#define REC		67
#define MAX_REC		24
#define NCORRUPT	6
#define NREGION		3
#define NROOT		3
/* smaller than the app's 4096/2048/8192, so that a machine of 24 records
 * can fill them: enumeration truncated, the plan overflowing */
#define MAX_FN		128
#define MAX_LINK	64
#define MAX_WRITES	256
#define MAX_OWNED	(2 * MAX_FN)
#define FILE_MAX	(512u << 10)
#define DUMP_MAX	(512u << 10)

/* pcie/enum.c: CRS_RETRIES probes of the ID, then the header type */
#define PROBE_READS	(4 + 1)
/* per function found: class, bus numbers, Status, capability pointer,
 * 48 standard capability slots, 5 PCIe registers, 960 extended slots,
 * L1SS registers, the ARI Capability register, Device Capabilities 2 */
#define FN_READS	(2 + 2 + 48 + 5 + 960 + 2 + 1 + 1)


static uint16_t le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

/* ------------------------------------------------------------ hardware */

/* Owned bits of one register, at its physical ECAM address. */
struct owned {
	uint64_t phys;
	unsigned width;
	uint32_t mask;
};

struct hw {
	struct sim *s;
	const struct app *app;		/* its MCFG regions and topology */
	uint64_t accesses, bound;
	uint64_t writes;
	bool owned_known;
	struct owned own[MAX_OWNED];
	unsigned nown;
};

/* The first ECAM window that holds [phys, phys + width): the MCFG regions
 * discovery kept, as the app's ECAM backend has them. An access anywhere
 * else is a finding. */
static void hw_decode(const struct hw *h, uint64_t phys, unsigned width,
		      struct pci_addr *a, uint16_t *off)
{
	const struct ecam *e = &h->app->ecam;

	for (unsigned i = 0; i < e->nwin; i++) {
		const struct ecam_window *r = &e->win[i];
		uint64_t rel;

		if (phys < r->base)
			continue;
		rel = phys - r->base;
		if (rel < (uint64_t)r->bus_start << 20 ||
		    rel + width > ((uint64_t)r->bus_end + 1) << 20)
			continue;
		CHECK(!(rel & (width - 1)));
		a->seg = r->segment;
		a->bus = (uint8_t)(rel >> 20);
		a->devfn = (uint8_t)(rel >> 12);
		*off = rel & 0xfff;
		return;
	}
	abort();
}

/* The hardware function behind a config address, as the app reaches it. */
static struct sim_fn *hw_fn(const struct hw *h, struct pci_addr a, uint16_t off,
			    uint64_t *phys)
{
	struct pci_addr d;
	uint16_t o;

	if (ecam_address(&h->app->ecam, a, off, phys))
		return NULL;
	hw_decode(h, *phys, 1, &d, &o);
	return sim_find(h->s, d);
}

static void own_add(struct hw *h, uint64_t phys, unsigned width, uint32_t mask)
{
	CHECK(h->nown < MAX_OWNED);
	h->own[h->nown++] = (struct owned){ phys, width, mask };
}

/*
 * What the policy may write: Link Control and L1SS Control 1 of the
 * functions on a link, where enumeration found those capabilities (raw
 * corruption may have moved them); under powersupersave also the L1.2
 * timing fields of Control 1, Control 2, and LTR Mechanism Enable in
 * Device Control 2 of any PCIe function. The positions are the app's own,
 * so they are checked against the hardware: the capability ID must be
 * there. Computed at the first write, when enumeration is over.
 */
static void own_compute(struct hw *h)
{
	const uint32_t lnkctl = PCI_EXP_LNKCTL_ASPMC | PCI_EXP_LNKCTL_CCC |
				PCI_EXP_LNKCTL_CLKREQ_EN | PCI_EXP_LNKCTL_RL;
	const struct pcie_topo *t = &h->app->topo;
	const bool ss = h->app->policy_ran && h->app->r.action == ASPM_SUPERSAVE;
	const uint32_t ctl1 = PCI_L1SS_CTL1_L1SS_MASK | (ss ? PCI_L1SS_CTL1_CM_RESTORE_TIME |
			      PCI_L1SS_CTL1_LTR_L12_TH_VALUE | PCI_L1SS_CTL1_LTR_L12_TH_SCALE : 0);

	h->nown = 0;
	for (unsigned i = 0; i < t->nfn; i++) {
		const struct pcie_fn *fn = &t->fn[i];
		struct sim_fn *f;
		uint64_t phys;

		if (!(fn->flags & FN_PCIE) || (fn->flags & FN_BAD_TYPE))
			continue;
		CHECK(fn->pcie_cap >= 0x40 && !(fn->pcie_cap & 3));
		if (ss) {
			f = hw_fn(h, fn->addr, fn->pcie_cap + PCI_EXP_DEVCTL2, &phys);
			CHECK(f && f->cfg[fn->pcie_cap] == PCI_CAP_ID_EXP);
			own_add(h, phys, 2, PCI_EXP_DEVCTL2_LTR_EN);
		}
		if (fn->up_link < 0 && fn->down_link < 0)
			continue;
		f = hw_fn(h, fn->addr, fn->pcie_cap + PCI_EXP_LNKCTL, &phys);
		CHECK(f && f->cfg[fn->pcie_cap] == PCI_CAP_ID_EXP);
		own_add(h, phys, 2, lnkctl);
		if (!fn->l1ss)
			continue;
		CHECK(fn->l1ss >= PCI_CFG_SPACE_SIZE && !(fn->l1ss & 3));
		f = hw_fn(h, fn->addr, fn->l1ss + PCI_L1SS_CTL1, &phys);
		CHECK(f && sim_peek(f, fn->l1ss, 2) == PCI_EXT_CAP_ID_L1SS);
		own_add(h, phys, 4, ctl1);
		if (ss) {
			f = hw_fn(h, fn->addr, fn->l1ss + PCI_L1SS_CTL2, &phys);
			own_add(h, phys, 4, PCI_L1SS_CTL2_T_PWR_ON_SCALE |
				PCI_L1SS_CTL2_T_PWR_ON_VALUE);
		}
	}
	h->owned_known = true;
}

static uint32_t hw_read(void *ctx, uint64_t phys, unsigned width)
{
	struct hw *h = ctx;
	struct pci_addr a;
	uint16_t off;
	uint32_t v;

	CHECK(++h->accesses <= h->bound);
	hw_decode(h, phys, width, &a, &off);
	sim_cfg_ops.read(h->s, a, off, width, &v);
	return v;
}

static void hw_write(void *ctx, uint64_t phys, unsigned width, uint32_t val)
{
	struct hw *h = ctx;
	struct sim_fn *f;
	struct pci_addr a;
	uint32_t before, after, mask = 0;
	uint16_t off;
	bool found = false;

	CHECK(++h->accesses <= h->bound);
	hw_decode(h, phys, width, &a, &off);
	h->writes++;
	if (!h->owned_known)
		own_compute(h);
	for (unsigned i = 0; i < h->nown; i++) {
		if (h->own[i].phys == phys && h->own[i].width == width) {
			mask |= h->own[i].mask;
			found = true;
		}
	}
	CHECK(found);
	f = sim_find(h->s, a);
	before = f ? sim_peek(f, off, width) : 0;
	CHECK(!f || !((val ^ before) & ~mask));
	sim_cfg_ops.write(h->s, a, off, width, val);
	/* and nothing else moved: no write-1-to-clear bit cleared */
	after = f ? sim_peek(f, off, width) : 0;
	CHECK(!((before ^ after) & ~mask));
}

static const struct mmio_ops hw_mmio_ops = {
	.read = hw_read,
	.write = hw_write,
};

/* ------------------------------------------------------------ machine */

/* An empty machine; the struct sim itself (large) is kept across runs. */
static struct sim *sim_reset(void)
{
	static struct sim *s;

	if (!s)
		s = sim_new();
	CHECK(s);
	for (unsigned i = 0; i < s->nfn; i++)
		free(s->fn[i]);
	memset(s, 0, sizeof(*s));
	return s;
}

static void corrupt(struct sim_fn *f, const uint8_t *c)
{
	static const unsigned widths[4] = { 1, 2, 4, 4 };
	unsigned width = widths[(c[1] >> 4) & 3];
	unsigned off = c[0] | (c[1] & 0xf) << 8;

	if (!(c[1] & 0x80))
		return;
	if (off + width > PCI_CFG_SPACE_EXP_SIZE)
		off = PCI_CFG_SPACE_EXP_SIZE - width;
	sim_poke(f, (uint16_t)off, width, le32(c + 2));
}

/*
 * Record:
 *   0 bus, 1 devfn, 2 kind (mod 8: endpoint, Root Port, switch upstream,
 *   switch downstream, conventional PCI, PCIe-to-PCI bridge, bare header,
 *   bare header with a PCIe capability of any port type)
 *   3 bit 0 segment; kinds 6, 7: bits 2:1 header type (normal, bridge,
 *     CardBus, 0x7f), bits 7:4 port type
 *   4-6 primary/secondary/subordinate bus, 7 LNKCAP, 11 LNKCTL, 13 DEVCAP,
 *   17 LNKSTA
 *   19 bit 0 multi-function, 1 L1SS, 2 LTR, 3 ASPM Control read-only,
 *     4 CRS twice, 5 ... forever, 6 vanishes, 7 aliases on every function
 *   20 bit 0 ARI (forwarding on a Root/Downstream Port, else the ARI
 *     capability), 1 LTR Mechanism only, 2 ARI capability before L1SS,
 *     4:3 reads of Link Training after a retrain, 5 training never ends,
 *     6 ARI forwarding whatever the port type, 7 hot-plug capable slot
 *   21 L1SS Capabilities, 25 L1SS Control 1, 29 reads before it vanishes,
 *   30 ARI Next Function Number
 *   31.. NCORRUPT raw writes of 6 bytes: offset 7:0; bits 3:0 offset 11:8,
 *     5:4 width 1/2/4, 7 enable; value
 */
static void build_fn(struct sim *s, const uint8_t *r)
{
	static const uint8_t hdr_types[4] = { 0, 1, 2, 0x7f };
	struct pci_addr a = { r[3] & 1, r[0], r[1] };
	uint8_t dev = PCI_SLOT(a.devfn), fn = PCI_FUNC(a.devfn);
	uint8_t hdr = hdr_types[(r[3] >> 1) & 3], type = r[3] >> 4;
	uint32_t lnkcap = le32(r + 7), devcap = le32(r + 13);
	uint16_t lnkctl = le16(r + 11), lnksta = le16(r + 17);
	uint8_t fl = r[19], fl2 = r[20];
	struct sim_fn *f;

	if (sim_find(s, a))
		return;
	switch (r[2] % 8) {
	case 0: f = sim_endpoint(s, 0, dev, fn, devcap, lnkcap, lnkctl); break;
	case 1: f = sim_root_port(s, 0, dev, fn, r[5], r[6], lnkcap, lnkctl); break;
	case 2: f = sim_switch_up(s, 0, r[5], r[6], lnkcap, lnkctl); break;
	case 3: f = sim_switch_down(s, 0, dev, r[5], r[6], lnkcap, lnkctl); break;
	case 4: f = sim_pci_device(s, 0, dev, fn); break;
	case 5: f = sim_pcie_pci_bridge(s, 0, dev, r[5], r[6], lnkcap); break;
	case 6:
		f = sim_add_fn(s, 0, 0, dev, fn, 0x1234, 0x5678,
			       0xff0000 | type, hdr);
		break;
	default:
		f = sim_add_fn(s, 0, 0, dev, fn, 0x1234, 0x5679, 0x088000, hdr);
		if (f)
			sim_add_pcie(f, type, devcap, lnkcap, lnkctl, lnksta);
		break;
	}
	if (!f)
		return;
	f->addr = a;
	if ((f->cfg[PCI_HEADER_TYPE] & PCI_HEADER_TYPE_MASK) == PCI_HEADER_TYPE_BRIDGE)
		sim_set_bus(f, r[4], r[5], r[6]);
	if (f->pcie) {
		uint8_t pt = (uint8_t)((f->cfg[f->pcie + PCI_EXP_FLAGS] >> 4) & 0xf);
		bool port = pt == PCI_EXP_TYPE_ROOT_PORT || pt == PCI_EXP_TYPE_DOWNSTREAM;
		bool ari_cap = (fl2 & 0x01) && !port;

		sim_poke(f, f->pcie + PCI_EXP_LNKSTA, 2, lnksta);
		if (((fl2 & 0x01) && port) || (fl2 & 0x40))
			sim_set_ari_fwd(f);
		if (ari_cap && (fl2 & 0x04))
			sim_add_ari(f, r[30]);
		if (fl & 0x02)
			sim_add_l1ss(f, le32(r + 21), le32(r + 25));
		if (fl & 0x04)
			sim_add_ltr(f);
		if (ari_cap && !(fl2 & 0x04))
			sim_add_ari(f, r[30]);
		if (fl2 & 0x02)
			sim_set_ltr_mech(f);
		if (fl & 0x08)
			sim_ignore_aspm(f);
		if (fl2 & 0x80) {
			f->cfg[f->pcie + PCI_EXP_FLAGS + 1] |= PCI_EXP_FLAGS_SLOT >> 8;
			sim_poke(f, f->pcie + PCI_EXP_SLTCAP, 4, PCI_EXP_SLTCAP_HPC);
		}
	}
	if (fl & 0x01)
		sim_set_multi(f);
	if (fl & 0x10)
		f->crs_reads = (fl & 0x20) ? ~0u : 2;
	if (fl & 0x40)
		f->vanish_after = r[29];
	if (fl & 0x80)
		f->alias_all = true;
	/* Link Training set for this many LNKSTA reads after a retrain;
	 * beyond ASPM_RETRAIN_POLLS it never ends */
	f->retrain_reads = (fl2 & 0x20) ? ASPM_RETRAIN_POLLS + 1 : (fl2 >> 3) & 3;
	for (unsigned k = 0; k < NCORRUPT; k++)
		corrupt(f, r + 31 + 6 * k);
}

/* ------------------------------------------------------------ firmware */

#define ACPI_BASE	0x80000ull
#define ACPI_SIZE	0x400u
#define RSDP_OFF	0x000
#define XSDT_OFF	0x040
#define FADT_OFF	0x100
#define MCFG_OFF	0x300
#define MCFG2_OFF	0x380

struct img {
	uint8_t p[ACPI_SIZE];
};

static void *img_map(void *ctx, uint64_t phys, size_t len)
{
	struct img *m = ctx;

	if (phys < ACPI_BASE || len > ACPI_SIZE || phys - ACPI_BASE > ACPI_SIZE - len)
		return NULL;
	return m->p + (phys - ACPI_BASE);
}

/*
 * 0: zero base (unusable); 0xf0..0xff: so close to the top of the address
 * space that high buses wrap (ecam_address() refuses them); else 256 MiB
 * apart, so that only equal selectors share addresses, plus up to 7 MiB.
 */
static uint64_t region_base(uint8_t sel, uint8_t shift)
{
	if (!sel)
		return 0;
	if (sel >= 0xf0)
		return 0 - ((uint64_t)(0x100 - sel) << 20);
	return (uint64_t)sel << 28 | (uint64_t)(shift & 7) << 20;
}

static void build_acpi(struct img *m, const uint8_t *h)
{
	static const uint32_t fadt_len[4] = { 244, 132, 0, 276 };
	uint32_t flen = fadt_len[(h[1] >> 4) & 3];
	unsigned nreg = 1 + (h[4] & 3) % NREGION, n1 = (h[1] & 0x08) ? 1 : nreg;
	struct acpi_mcfg_ent e[NREGION];
	uint64_t root[3];
	unsigned nent = 0;

	memset(m->p, 0, sizeof(m->p));
	if (flen) {
		fadt_build(m->p + FADT_OFF, flen, flen >= 244 ? 6 : 2, 0, h[2]);
		root[nent++] = ACPI_BASE + FADT_OFF;
	}
	for (unsigned i = 0; i < nreg; i++) {
		const uint8_t *g = h + 5 + 4 * i;

		e[i] = (struct acpi_mcfg_ent){ .base = region_base(g[0], g[1] >> 1),
			.segment = g[1] & 1, .start_bus = g[2], .end_bus = g[3] };
	}
	mcfg_build(m->p + MCFG_OFF, e, n1);
	if (n1 < nreg) {
		mcfg_build(m->p + MCFG2_OFF, e + n1, nreg - n1);
		root[nent++] = ACPI_BASE + MCFG2_OFF;
	}
	root[nent++] = ACPI_BASE + MCFG_OFF;
	root_build(m->p + XSDT_OFF, true, root, nent);
	rsdp_build(m->p + RSDP_OFF, 2, 0, ACPI_BASE + XSDT_OFF);
}

/* ------------------------------------------------------------ services */

static struct img acpi_img;

/* ------------------------------------------------------------ the run */

/*
 * Config accesses of one run of the app, at most:
 *  - enumeration: every bus of a usable region scanned at most once, each
 *    of its 256 function numbers probed at most PROBE_READS times;
 *    functions found at most 8 times (alias on every function number)
 *    per record per region whose window shows them;
 *  - two dumps (boot mode: before and after), 4 KiB per function;
 *  - the policy: per planned write a read, the write, a read-back and at
 *    most two accesses to restore Common Clock; per link one retrain
 *    waited for twice; LNKCAP read again once per function;
 *    powersupersave reads L1SS Control 2, Device Capabilities 2 and
 *    Device Control 2 once per function.
 */
static uint64_t access_bound(unsigned nrec)
{
	return (uint64_t)NREGION * 256 * 256 * PROBE_READS +
	       (uint64_t)nrec * 8 * NREGION * FN_READS +
	       2ull * MAX_FN * (PCI_CFG_SPACE_EXP_SIZE / 4) +
	       (uint64_t)MAX_WRITES * 5 + (uint64_t)MAX_LINK * 2 * ASPM_RETRAIN_POLLS +
	       MAX_FN + 3ull * MAX_FN;
}

static void check_topo(const struct pcie_topo *t, const struct ecam *e)
{
	CHECK(t->nfn <= t->cap_fn && t->nlink <= t->cap_link);
	for (unsigned i = 0; i < t->nfn; i++) {
		const struct pcie_fn *f = &t->fn[i];

		CHECK(ecam_window_find(e->win, e->nwin, f->addr.seg, f->addr.bus));
		CHECK(f->parent < (int)i);
		CHECK(f->up_link < (int)t->nlink && f->down_link < (int)t->nlink);
	}
	for (unsigned i = 0; i < t->nlink; i++) {
		const struct pcie_link *l = &t->link[i];

		CHECK(l->up >= 0 && l->up < (int)t->nfn);
		CHECK(l->down >= 0 && l->down < (int)t->nfn);
		CHECK(l->down_first >= 0 && l->ndown >= 1 &&
		      l->down_first + l->ndown <= (int)t->nfn);
	}
}

/* The command line of this run, as the Shell would pass it. */
struct args {
	char *argv[CLI_MAX_ARGS];
	int argc;
	char buf[512];
	size_t used;
};

static void arg(struct args *g, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void arg(struct args *g, const char *fmt, ...)
{
	char *p = g->buf + g->used;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(p, sizeof(g->buf) - g->used, fmt, ap);
	va_end(ap);
	CHECK(n > 0 && (size_t)n < sizeof(g->buf) - g->used &&
	      g->argc < CLI_MAX_ARGS);
	g->argv[g->argc++] = p;
	g->used += (size_t)n + 1;
}

static void build_args(struct args *g, struct fake_fw *w, const uint8_t *hd,
		       const uint8_t *recs, unsigned nrec)
{
	static const char *const cmds[8] = {
		"report", "plan", "apply", "remove", "dump", "boot", "fadt", NULL,
	};
	static const char *const policy[8] = {
		"auto", "keep", "clear", "force", "notouch", "powersupersave",
		"performance", NULL,
	};
	static const char *const emulate[4] = {
		NULL, "set-no-aspm", "clear-no-aspm", "leave",
	};
	unsigned cmd = hd[0] & 7;

	g->argc = 0;
	g->used = 0;
	if (cmds[cmd])
		arg(g, "%s", cmds[cmd]);
	if (cmd == 3) {
		/* a function the machine has, mostly */
		const uint8_t *r = recs + REC * (nrec ? hd[3] % nrec : 0);

		if (nrec)
			arg(g, "%04x:%02x:%02x.%x", r[3] & 1, r[0], PCI_SLOT(r[1]),
			    PCI_FUNC(r[1]));
		else
			arg(g, "0000:00:%02x.0", hd[3] & 0x1f);
	}
	if (cmd == 6)
		arg(g, "%s", (hd[23] & 4) ? "--set-no-aspm" : "--clear-no-aspm");
	arg(g, "--osc");
	arg(g, "%s", (hd[0] & 0x08) ? "granted" : "denied");
	arg(g, "--fadt-mode");
	arg(g, "%s", (hd[0] & 0x10) ? "notouch" : "clear");
	if (policy[hd[0] >> 5]) {
		arg(g, "--policy");
		arg(g, "%s", policy[hd[0] >> 5]);
	}
	if (hd[1] & 0x01) {
		arg(g, "--scan");
		arg(g, "full");
	}
	if ((hd[1] & 0x02) && cmd == 3)
		arg(g, "--apply");
	if (hd[1] & 0x04)
		arg(g, "--verbose");
	w->plat.nroots = 0;
	for (unsigned i = 0; i < (unsigned)(hd[1] >> 6); i++) {
		const uint8_t *b = hd + 17 + 2 * i;

		if (b[0] & 2) {
			w->plat.roots[w->plat.nroots++] = (struct pci_addr){ b[0] & 1, b[1], 0 };
		} else {
			arg(g, "--root-bus");
			arg(g, "%04x:%02x", b[0] & 1, b[1]);
		}
	}
	if (hd[4] & 0x04) {
		arg(g, "--next");
		arg(g, "\\EFI\\next\\loader.efi");
	}
	if (emulate[hd[23] & 3]) {
		arg(g, "--emulate-fadt");
		arg(g, "%s", emulate[hd[23] & 3]);
	}
}

/* FUZZ_PRINT=1 in the environment: show what the app printed (to look at
 * one input: FUZZ_PRINT=1 ./fuzz_pcie FILE) */
static void show(const struct out_buf *ob, const struct args *g)
{
	static int on = -1;

	if (on < 0)
		on = getenv("FUZZ_PRINT") != NULL;
	if (!on)
		return;
	fprintf(stderr, "# aspmctl.efi");
	for (int i = 0; i < g->argc; i++)
		fprintf(stderr, " %s", g->argv[i]);
	fprintf(stderr, "\n%s", ob->buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct pcie_fn fns[MAX_FN];
	static struct pcie_link links[MAX_LINK];
	static struct aspm_write writes[MAX_WRITES];
	static struct aspm_link_plan lp[MAX_LINK];
	static char text[1 << 16], file[FILE_MAX], dump[DUMP_MAX];
	static struct app a;
	static struct fake_fw w;
	static struct hw h;
	static struct args g;
	const uint8_t *hd = data, *recs = data + HDR;
	struct app_args in = { 0 };
	struct out_buf ob;
	struct out o;
	unsigned nrec;
	unsigned cmd = hd[0] & 7;
	bool boot, may_write;

	if (size < HDR || (size - HDR) / REC > MAX_REC)
		return 0;
	nrec = (unsigned)((size - HDR) / REC);

	fake_fw_init(&w, &hw_mmio_ops, &h);
	build_acpi(&acpi_img, hd);
	w.plat.mem = (struct acpi_mem){ .map = img_map, .ctx = &acpi_img };
	w.plat.rsdp = (hd[4] & 0x80) ? 0 : ACPI_BASE + RSDP_OFF;
	w.write_rc = (hd[4] & 0x10) ? -AE_IO : 0;
	w.chain_rc = (hd[4] & 0x08) ? -AE_NOENT : 0;
	w.delay_bound = (uint64_t)MAX_LINK * 2 * ASPM_RETRAIN_POLLS;
	memset(&h, 0, sizeof(h));
	h.s = sim_reset();
	h.app = &a;
	h.bound = access_bound(nrec);
	for (unsigned i = 0; i < nrec; i++)
		build_fn(h.s, recs + i * REC);
	build_args(&g, &w, hd, recs, nrec);
	/* boot: also a boot entry without a command; what may write: apply,
	 * remove --apply, boot, and none with an unreadable aspmctl.conf */
	boot = cmd == 5 || (cmd == 7 && (hd[4] & 0x40));
	may_write = !(hd[4] & 0x20) &&
		    (cmd == 2 || (cmd == 3 && (hd[1] & 0x02)) || boot);

	out_buf_init(&o, &ob, text, sizeof(text));
	console = &ob;
	memset(&a, 0, sizeof(a));
	a.ops = &w.ops;
	a.console = &o;
	a.fn = fns;
	a.cap_fn = MAX_FN;
	a.link = links;
	a.cap_link = MAX_LINK;
	a.w = writes;
	a.cap_w = MAX_WRITES;
	a.lp = lp;
	a.file = file;
	a.file_max = sizeof(file);
	a.dump = dump;
	a.dump_max = sizeof(dump);
	in.in_shell = !(hd[4] & 0x40);
	in.argc = g.argc;
	in.argv = g.argv;
	in.conf_rc = (hd[4] & 0x20) ? -AE_IO : -AE_NOENT;
	app_main(&a, &in);
	log_set_sink(NULL, LOG_ERR);

	check_topo(&a.topo, &a.ecam);
	/* the link records the dump command prints, on what was found */
	rec_fn_links(&o, &a.topo);
	CHECK(!a.cfg.refused_writes && h.writes == a.cfg.writes);
	if (!may_write || (a.policy_ran && a.r.action == ASPM_NOTOUCH))
		CHECK(!h.writes);
	CHECK(a.r.plan.n <= MAX_WRITES);
	/* boot mode fails open: whatever happened, the summary is published
	 * and the next loader started; when the loader cannot be started,
	 * the summary is published once more, with the chainload outcome */
	CHECK(w.nchain == (boot && (hd[4] & 0x04)));
	CHECK(w.npublish == (boot ? 1u + (w.nchain && w.chain_rc) : 0u));
	CHECK(w.published_len < sizeof(w.published));
	if (w.npublish == 2 && w.published_len < sizeof(a.summary) - 1)
		CHECK(strstr(w.published, " chainload=not-found"));
	CHECK(!w.nchain || w.next[0] == '\\');
	CHECK(a.chainloaded == (boot && (hd[4] & 0x04) && !w.chain_rc));
	CHECK(!w.files_lost);
	for (unsigned i = 0; i < w.nfile; i++)
		CHECK(w.file[i].path[0] == '\\');
	show(&ob, &g);
	return 0;
}
