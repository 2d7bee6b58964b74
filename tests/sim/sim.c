// SPDX-License-Identifier: GPL-2.0-only
#include <stdlib.h>
#include <string.h>
#include "sim.h"
#include "../../pcie/pci_regs.h"
#include "../../lib/err.h"
#include "../../twin/semantics.h"

/* The masks of every register come from twin/semantics.c, the code the
 * digital twin uses too: one set of rules. */
#define SEM(f)	(&(struct sem_fn){ (f)->cfg, (f)->rw, (f)->w1c })

struct sim *sim_new(void)
{
	return calloc(1, sizeof(struct sim));
}

void sim_free(struct sim *s)
{
	if (!s)
		return;
	for (unsigned i = 0; i < s->nfn; i++)
		free(s->fn[i]);
	free(s);
}

struct sim_fn *sim_find(struct sim *s, struct pci_addr a)
{
	for (unsigned i = 0; i < s->nfn; i++) {
		struct sim_fn *f = s->fn[i];

		if (pci_addr_eq(f->addr, a))
			return f;
		if (f->alias_all && f->addr.seg == a.seg && f->addr.bus == a.bus &&
		    PCI_SLOT(f->addr.devfn) == PCI_SLOT(a.devfn))
			return f;
	}
	return NULL;
}

uint32_t sim_peek(struct sim_fn *f, uint16_t off, unsigned width)
{
	return sem_peek(f->cfg, off, width);
}

void sim_poke(struct sim_fn *f, uint16_t off, unsigned width, uint32_t v)
{
	for (unsigned i = 0; i < width; i++)
		f->cfg[off + i] = (uint8_t)(v >> (8 * i));
}

static int sim_read(void *ctx, struct pci_addr a, uint16_t off, unsigned width,
		    uint32_t *val)
{
	struct sim *s = ctx;
	struct sim_fn *f = sim_find(s, a);

	s->reads++;
	if (!f) {
		s->absent_reads++;
		*val = sem_all_ones(width);
		return 0;
	}
	f->reads++;
	if (f->vanish_after && f->reads > f->vanish_after) {
		*val = sem_all_ones(width);
		return 0;
	}
	*val = sim_peek(f, off, width);
	if (off == PCI_VENDOR_ID && f->crs_reads) {
		if (f->crs_reads != ~0u)
			f->crs_reads--;
		*val = (*val & ~0xffffu) | PCI_VENDOR_ID_CRS;
	}
	if (f->pcie && off <= (unsigned)(f->pcie + PCI_EXP_LNKSTA) &&
	    off + width > (unsigned)(f->pcie + PCI_EXP_LNKSTA)) {
		/* Link Training reads as set for a while after a retrain */
		if (f->lt_left) {
			f->lt_left--;
			*val |= (uint32_t)PCI_EXP_LNKSTA_LT << (8 * (f->pcie + PCI_EXP_LNKSTA - off));
		}
	}
	return 0;
}

static int sim_write(void *ctx, struct pci_addr a, uint16_t off, unsigned width,
		     uint32_t val)
{
	struct sim *s = ctx;
	struct sim_fn *f = sim_find(s, a);
	struct sem_write *w = s->nlog < SIM_LOG_MAX ? &s->log[s->nlog++] : NULL;

	s->writes++;
	/* Retrain Link reads as 0 and starts link training (PCIe r5.0 7.5.3.7) */
	if (sem_logged_write(w, f ? SEM(f) : NULL, f ? f->pcie : 0, a, off, width, val, 0))
		f->lt_left = f->retrain_reads;
	return 0;
}

const struct pci_cfg_ops sim_cfg_ops = {
	.read = sim_read,
	.write = sim_write,
};

/* ECAM view: decode a physical address inside [ecam_base, +bus range). */
static int mmio_decode(struct sim *s, uint64_t phys, unsigned width,
		       struct pci_addr *a, uint16_t *off)
{
	uint64_t lo = s->ecam_base + ((uint64_t)s->ecam_start << 20);
	uint64_t hi = s->ecam_base + (((uint64_t)s->ecam_end + 1) << 20);

	if (phys < lo || phys + width > hi || (phys & (width - 1))) {
		s->bad_accesses++;
		return -1;
	}
	phys -= s->ecam_base;
	a->seg = s->ecam_seg;
	a->bus = (uint8_t)(phys >> 20);
	a->devfn = (uint8_t)(phys >> 12);
	*off = phys & 0xfff;
	return 0;
}

static uint32_t sim_mmio_read(void *ctx, uint64_t phys, unsigned width)
{
	struct pci_addr a;
	uint16_t off;
	uint32_t v;

	if (mmio_decode(ctx, phys, width, &a, &off))
		return 0xffffffff;
	sim_read(ctx, a, off, width, &v);
	return v;
}

static void sim_mmio_write(void *ctx, uint64_t phys, unsigned width, uint32_t val)
{
	struct pci_addr a;
	uint16_t off;

	if (mmio_decode(ctx, phys, width, &a, &off))
		return;
	sim_write(ctx, a, off, width, val);
}

const struct mmio_ops sim_mmio_ops = {
	.read = sim_mmio_read,
	.write = sim_mmio_write,
};

struct sim_fn *sim_add_fn(struct sim *s, uint16_t seg, uint8_t bus, uint8_t dev,
			  uint8_t fn, uint16_t vendor, uint16_t device,
			  uint32_t class, uint8_t hdr_type)
{
	struct sim_fn *f;

	if (s->nfn >= SIM_MAX_FN)
		return NULL;
	f = calloc(1, sizeof(*f));
	if (!f)
		return NULL;
	f->addr = (struct pci_addr){ seg, bus, PCI_DEVFN(dev, fn) };
	sim_poke(f, PCI_VENDOR_ID, 2, vendor);
	sim_poke(f, PCI_DEVICE_ID, 2, device);
	sim_poke(f, PCI_CLASS_REVISION, 4, class << 8 | 0x01);
	f->cfg[PCI_HEADER_TYPE] = hdr_type;
	sem_header(SEM(f));
	f->next_cap = 0x40;
	f->next_ext = 0x100;
	s->fn[s->nfn++] = f;
	return f;
}

void sim_set_multi(struct sim_fn *f)
{
	f->cfg[PCI_HEADER_TYPE] |= PCI_HEADER_TYPE_MFD;
}

void sim_set_bus(struct sim_fn *f, uint8_t pri, uint8_t sec, uint8_t sub)
{
	f->cfg[PCI_PRIMARY_BUS] = pri;
	f->cfg[PCI_SECONDARY_BUS] = sec;
	f->cfg[PCI_SUBORDINATE_BUS] = sub;
}

uint8_t sim_add_cap(struct sim_fn *f, uint8_t id, uint8_t len)
{
	uint8_t pos = f->next_cap;

	f->cfg[pos + PCI_CAP_LIST_ID] = id;
	f->cfg[pos + PCI_CAP_LIST_NEXT] = 0;
	if (f->last_cap)
		f->cfg[f->last_cap + PCI_CAP_LIST_NEXT] = pos;
	else
		f->cfg[PCI_CAPABILITY_LIST] = pos;
	f->cfg[PCI_STATUS] |= PCI_STATUS_CAP_LIST;
	f->last_cap = pos;
	f->next_cap = (uint8_t)((pos + len + 3) & ~3);
	return pos;
}

uint16_t sim_add_ext_cap(struct sim_fn *f, uint16_t id, uint16_t len)
{
	uint16_t pos = f->next_ext;

	sim_poke(f, pos, 4, (uint32_t)id | (1u << 16));
	if (f->last_ext) {
		uint32_t h = sim_peek(f, f->last_ext, 4);

		sim_poke(f, f->last_ext, 4, (h & 0xfffff) | ((uint32_t)pos << 20));
	}
	f->last_ext = pos;
	f->next_ext = (uint16_t)((pos + len + 3) & ~3);
	return pos;
}

uint8_t sim_add_pcie(struct sim_fn *f, uint8_t type, uint32_t devcap,
		     uint32_t lnkcap, uint16_t lnkctl, uint16_t lnksta)
{
	uint8_t pos = sim_add_cap(f, PCI_CAP_ID_EXP, 0x3c);

	f->pcie = pos;
	sim_poke(f, pos + PCI_EXP_FLAGS, 2, (uint32_t)(type << 4) | 2);
	sim_poke(f, pos + PCI_EXP_DEVCAP, 4, devcap);
	sim_poke(f, pos + PCI_EXP_LNKCAP, 4, lnkcap);
	sim_poke(f, pos + PCI_EXP_LNKCTL, 2, lnkctl);
	sim_poke(f, pos + PCI_EXP_LNKSTA, 2, lnksta);
	/* masks from what was just written in LNKCAP and the port type */
	sem_pcie(SEM(f), pos);
	return pos;
}

uint16_t sim_add_l1ss(struct sim_fn *f, uint32_t cap, uint32_t ctl1)
{
	uint16_t pos = sim_add_ext_cap(f, PCI_EXT_CAP_ID_L1SS, 0x10);

	f->l1ss = pos;
	sim_poke(f, pos + PCI_L1SS_CAP, 4, cap);
	sim_poke(f, pos + PCI_L1SS_CTL1, 4, ctl1);
	/* enables writable where supported; timing fields writable */
	sem_l1ss(SEM(f), pos);
	return pos;
}

/* LTR Mechanism Supported in Device Capabilities 2 (PCIe r5.0 7.5.3.15) */
void sim_set_ltr_mech(struct sim_fn *f)
{
	if (!f->pcie)
		return;
	sim_poke(f, f->pcie + PCI_EXP_DEVCAP2, 4,
		 sim_peek(f, f->pcie + PCI_EXP_DEVCAP2, 4) | PCI_EXP_DEVCAP2_LTR);
	sem_devctl2(SEM(f), f->pcie);
}

/* the LTR extended capability, and the Device Capabilities 2 bit that
 * a function with it advertises */
uint16_t sim_add_ltr(struct sim_fn *f)
{
	uint16_t pos;

	sim_set_ltr_mech(f);
	pos = sim_add_ext_cap(f, PCI_EXT_CAP_ID_LTR, 8);
	sem_ltr(SEM(f), pos);
	return pos;
}

void sim_ignore_aspm(struct sim_fn *f)
{
	if (f->pcie)
		f->rw[f->pcie + PCI_EXP_LNKCTL] &= (uint8_t)~PCI_EXP_LNKCTL_ASPMC;
}

void sim_set_ari_fwd(struct sim_fn *f)
{
	if (!f->pcie)
		return;
	sim_poke(f, f->pcie + PCI_EXP_DEVCAP2, 4,
		 sim_peek(f, f->pcie + PCI_EXP_DEVCAP2, 4) | PCI_EXP_DEVCAP2_ARI);
	sim_poke(f, f->pcie + PCI_EXP_DEVCTL2, 2,
		 sim_peek(f, f->pcie + PCI_EXP_DEVCTL2, 2) | PCI_EXP_DEVCTL2_ARI);
	sem_devctl2(SEM(f), f->pcie);
}

/* ARI Extended Capability: Next Function Number in bits 15:8
 * of the ARI Capability register at +4 */
uint16_t sim_add_ari(struct sim_fn *f, uint8_t next_fn)
{
	uint16_t pos = sim_add_ext_cap(f, PCI_EXT_CAP_ID_ARI, 8);

	sim_poke(f, pos + 4, 2, (uint32_t)next_fn << 8);
	return pos;
}

uint16_t sim_lnkctl(struct sim *s, struct pci_addr a)
{
	struct sim_fn *f = sim_find(s, a);

	return f && f->pcie ? (uint16_t)sim_peek(f, f->pcie + PCI_EXP_LNKCTL, 2) : 0xffff;
}
