// SPDX-License-Identifier: GPL-2.0-only
/*
 * Which bits of which registers software can write, from the spec (PCIe
 * r5.0 sec 7.5, 7.8; PCI Local Bus r3.0 sec 6.2), derived from capability
 * registers only. The table is docs/twin.md.
 */
#include <stdio.h>
#include "semantics.h"
#include "../pcie/pci_regs.h"
#include "../lib/err.h"

uint32_t sem_peek(const uint8_t *cfg, unsigned off, unsigned width)
{
	uint32_t v = 0;

	for (unsigned i = 0; i < width; i++)
		v |= (uint32_t)cfg[off + i] << (8 * i);
	return v;
}

uint32_t sem_all_ones(unsigned width)
{
	return width == 4 ? 0xffffffff : (1u << (8 * width)) - 1;
}

static void set_mask(uint8_t *m, unsigned off, unsigned width, uint32_t v)
{
	for (unsigned i = 0; i < width; i++)
		m[off + i] = (uint8_t)(v >> (8 * i));
}

/*
 * Command (PCIe r5.0 7.5.1.1.3): I/O and Memory Space Enable, Bus Master
 * Enable, Parity Error Response, SERR# Enable, Interrupt Disable are RW.
 * Status (7.5.1.1.4): Master Data Parity Error, Signaled/Received Target
 * Abort, Received Master Abort, Signaled System Error, Detected Parity
 * Error are RW1C. Type 1 (7.5.1.3.2-4): Primary, Secondary and
 * Subordinate Bus Number are RW.
 */
void sem_header(const struct sem_fn *s)
{
	set_mask(s->rw, PCI_COMMAND, 2, 0x0547);
	set_mask(s->w1c, PCI_STATUS, 2, 0xf900);
	if ((s->cfg[PCI_HEADER_TYPE] & PCI_HEADER_TYPE_MASK) == PCI_HEADER_TYPE_BRIDGE)
		set_mask(s->rw, PCI_PRIMARY_BUS, 3, 0xffffff);
}

/* Retrain Link exists on Downstream Ports only (PCIe r5.0 7.5.3.7 bit 5:
 * "not applicable and Reserved for Endpoints, PCI Express to PCI/PCI-X
 * bridges, and Upstream Ports"); Linux's pcie_downstream_port(). */
static bool downstream_port(unsigned type)
{
	return type == PCI_EXP_TYPE_ROOT_PORT || type == PCI_EXP_TYPE_DOWNSTREAM ||
	       type == PCI_EXP_TYPE_PCIE_BRIDGE;
}

/*
 * Link Control (PCIe r5.0 7.5.3.7), from Link Capabilities (7.5.3.6):
 * ASPM Control bit 0 (L0s) RW only where ASPM Support bit 10 is set, bit 1
 * (L1) only where bit 11 is set. Each bit on its own, as Linux's
 * pcie_get_aspm_reg() reads ASPM Support: the encoding 10b, reserved
 * before r3.0 (r2.1 7.8.6), means L1 only. Enable Clock Power Management
 * RW only with Clock Power Management (LNKCAP bit 18). Common Clock
 * Configuration, Extended Synch RW. Read Completion Boundary RW: the
 * spec makes it so on Endpoints and bridges and hardwires it on Root
 * Ports (reserved on Switch Ports), but neither the app nor Linux's
 * pci_configure_rcb() writes it on a port, and keeping it RW everywhere
 * keeps the masks the kernel cross-check (make xcheck) was verified with.
 * Retrain Link on Downstream Ports (reads 0: sem_write()).
 */
static uint16_t lnkctl_rw(uint32_t lnkcap, unsigned type)
{
	uint16_t rw = PCI_EXP_LNKCTL_CCC | PCI_EXP_LNKCTL_ES | PCI_EXP_LNKCTL_RCB;

	if (lnkcap & PCI_EXP_LNKCAP_ASPM_L0S)
		rw |= PCI_EXP_LNKCTL_ASPM_L0S;
	if (lnkcap & PCI_EXP_LNKCAP_ASPM_L1)
		rw |= PCI_EXP_LNKCTL_ASPM_L1;
	if (lnkcap & PCI_EXP_LNKCAP_CLKPM)
		rw |= PCI_EXP_LNKCTL_CLKREQ_EN;
	if (downstream_port(type))
		rw |= PCI_EXP_LNKCTL_RL;
	return rw;
}

/*
 * The PCI Express capability at pos: Device Control (7.5.3.4) RW, Link
 * Control as lnkctl_rw(), Link Status (7.5.3.8) Link Bandwidth Management
 * Status and Link Autonomous Bandwidth Status (bits 14, 15) RW1C.
 */
void sem_pcie(const struct sem_fn *s, unsigned pos)
{
	unsigned type;

	if (pos + 0x3c > SEM_CFG_SIZE)
		return;
	type = (sem_peek(s->cfg, pos + PCI_EXP_FLAGS, 2) & PCI_EXP_FLAGS_TYPE) >> 4;
	set_mask(s->rw, pos + PCI_EXP_LNKCTL, 2,
		 lnkctl_rw(sem_peek(s->cfg, pos + PCI_EXP_LNKCAP, 4), type));
	set_mask(s->w1c, pos + PCI_EXP_LNKSTA, 2, 0xc000);
	set_mask(s->rw, pos + PCI_EXP_DEVCTL, 2, 0xffff);
	sem_devctl2(s, pos);
}

/*
 * Device Control 2 (PCIe r5.0 7.5.3.16) from Device Capabilities 2
 * (7.5.3.15): ARI Forwarding Enable (bit 5) RW only with ARI Forwarding
 * Supported (bit 5), LTR Mechanism Enable (bit 10) RW only with LTR
 * Mechanism Supported (bit 11). The other fields stay read-only here:
 * nothing the engine or Linux's ASPM code writes.
 */
void sem_devctl2(const struct sem_fn *s, unsigned pcie)
{
	uint32_t cap2;
	uint16_t rw = 0;

	/* version 1 of the capability ends before Device Capabilities 2 */
	if (pcie + 0x3c > SEM_CFG_SIZE ||
	    (sem_peek(s->cfg, pcie + PCI_EXP_FLAGS, 2) & PCI_EXP_FLAGS_VERS) < 2)
		return;
	cap2 = sem_peek(s->cfg, pcie + PCI_EXP_DEVCAP2, 4);
	if (cap2 & PCI_EXP_DEVCAP2_ARI)
		rw |= PCI_EXP_DEVCTL2_ARI;
	if (cap2 & PCI_EXP_DEVCAP2_LTR)
		rw |= PCI_EXP_DEVCTL2_LTR_EN;
	set_mask(s->rw, pcie + PCI_EXP_DEVCTL2, 2, rw);
}

/*
 * L1 PM Substates Control 1 (PCIe r5.0 7.8.3.3): each of the four enables
 * (bits 3:0) RW only where the matching Supported bit of L1 PM Substates
 * Capabilities (7.8.3.2, bits 3:0 in the same order) is set;
 * Common_Mode_Restore_Time (15:8), LTR_L1.2_THRESHOLD_Value (25:16) and
 * _Scale (31:29) RW. Control 2 (7.8.3.4): T_POWER_ON Scale (1:0) and
 * Value (7:3) RW.
 */
void sem_l1ss(const struct sem_fn *s, unsigned pos)
{
	uint32_t cap;

	if (pos + 0x10 > SEM_CFG_SIZE)
		return;
	cap = sem_peek(s->cfg, pos + PCI_L1SS_CAP, 4);
	set_mask(s->rw, pos + PCI_L1SS_CTL1, 4,
		 (cap & PCI_L1SS_CTL1_L1SS_MASK) | 0xe3ffff00);
	set_mask(s->rw, pos + PCI_L1SS_CTL2, 4, 0xfb);
}

/*
 * LTR extended capability (PCIe r5.0 7.8.2): Max Snoop Latency (+4) and
 * Max No-Snoop Latency (+6), each Value (9:0) and Scale (12:10) RW.
 */
void sem_ltr(const struct sem_fn *s, unsigned pos)
{
	if (pos + 8 > SEM_CFG_SIZE)
		return;
	set_mask(s->rw, pos + PCI_LTR_MAX_SNOOP_LAT, 2, PCI_LTR_LAT_MASK);
	set_mask(s->rw, pos + PCI_LTR_MAX_NOSNOOP_LAT, 2, PCI_LTR_LAT_MASK);
}

void sem_derive(const struct sem_fn *s, const struct sem_caps *c)
{
	sem_header(s);
	if (c->pcie)
		sem_pcie(s, c->pcie);
	if (c->l1ss)
		sem_l1ss(s, c->l1ss);
	if (c->ltr)
		sem_ltr(s, c->ltr);
}

bool sem_write(const struct sem_fn *s, unsigned pcie, unsigned off,
	       unsigned width, uint32_t val)
{
	unsigned lc = pcie + PCI_EXP_LNKCTL;

	for (unsigned i = 0; i < width; i++) {
		uint8_t b = (uint8_t)(val >> (8 * i));
		uint8_t *c = &s->cfg[off + i];

		*c = (uint8_t)((*c & ~s->rw[off + i]) | (b & s->rw[off + i]));
		*c &= (uint8_t)~(b & s->w1c[off + i]);
	}
	/* Retrain Link reads as 0 and starts link training (PCIe r5.0 7.5.3.7) */
	if (pcie && off <= lc && off + width > lc && (s->cfg[lc] & PCI_EXP_LNKCTL_RL)) {
		s->cfg[lc] &= (uint8_t)~PCI_EXP_LNKCTL_RL;
		return true;
	}
	return false;
}

bool sem_logged_write(struct sem_write *w, const struct sem_fn *s,
		      unsigned pcie, struct pci_addr a, unsigned off,
		      unsigned width, uint32_t val, int rc)
{
	bool retrain;

	if (w)
		*w = (struct sem_write){ .a = a, .off = (uint16_t)off, .width = (uint8_t)width,
					 .rc = rc, .val = val, .before = ~0u, .after = ~0u };
	if (!s || rc)
		return false;
	if (w)
		w->before = sem_peek(s->cfg, off, width);
	retrain = sem_write(s, pcie, off, width, val);
	if (w)
		w->after = sem_peek(s->cfg, off, width);
	return retrain;
}

/* Bytes of each capability that the engine and the masks use. */
#define PCIE_CAP_LEN_V1	0x14	/* through Link Status: an Endpoint's (PCIe 1.1 7.8) */
/* through Link Status 2 (PCIe r5.0 7.5.3): the Slot 2 registers after it
 * are reserved without a slot, and a real BCM57780 puts its version 2
 * capability at 0xcc */
#define PCIE_CAP_LEN_V2	0x34
#define L1SS_CAP_LEN	0x10
#define LTR_CAP_LEN	0x08

static int fault(struct sem_fault *f, int rc, unsigned off, const char *what,
		 unsigned a, unsigned b)
{
	f->off = (uint16_t)off;
	snprintf(f->msg, sizeof(f->msg), what, a, b);
	return rc;
}

/*
 * The standard list (PCI Local Bus r3.0 sec 6.7; PCIe r5.0 7.5.1.1.11):
 * from the Capabilities Pointer, dword aligned pointers at or above 0x40.
 * At most 48 entries fit, so a visited bitmap bounds the walk. An ID of
 * 0xff ends the list, as in Linux's __pci_find_next_cap_ttl() and lspci
 * ("<chain broken>"): what a function whose upper bytes read all-ones
 * shows.
 */
static int walk_std(const uint8_t *cfg, struct sem_caps *c, struct sem_fault *f)
{
	uint8_t seen[PCI_CFG_SPACE_SIZE / 4] = { 0 };
	unsigned at = (cfg[PCI_HEADER_TYPE] & PCI_HEADER_TYPE_MASK) ==
		      PCI_HEADER_TYPE_CARDBUS ? PCI_CB_CAPABILITY_LIST :
						PCI_CAPABILITY_LIST;
	unsigned pos = cfg[at];

	if (!(sem_peek(cfg, PCI_STATUS, 2) & PCI_STATUS_CAP_LIST))
		return 0;
	while (pos) {
		if (pos & 3)
			return fault(f, -AE_INVAL, at, "capability pointer 0x%02x at 0x%02x is not dword aligned",
				     pos, at);
		if (pos < 0x40)
			return fault(f, -AE_INVAL, at, "capability pointer 0x%02x at 0x%02x points into the header",
				     pos, at);
		if (seen[pos / 4]++)
			return fault(f, -AE_LOOP, at, "capability list loops back to 0x%02x (pointer at 0x%02x)",
				     pos, at);
		if (cfg[pos] == 0xff)
			break;
		if (cfg[pos] == PCI_CAP_ID_EXP && !c->pcie) {
			unsigned len = (cfg[pos + PCI_EXP_FLAGS] & PCI_EXP_FLAGS_VERS) >= 2 ?
				       PCIE_CAP_LEN_V2 : PCIE_CAP_LEN_V1;

			if (pos + len > PCI_CFG_SPACE_SIZE)
				return fault(f, -AE_INVAL, at, "PCI Express capability at 0x%02x runs past 0x%x",
					     pos, PCI_CFG_SPACE_SIZE);
			c->pcie = (uint8_t)pos;
		}
		at = pos + PCI_CAP_LIST_NEXT;
		pos = cfg[at];
	}
	return 0;
}

static int ext_found(uint16_t *slot, unsigned pos, unsigned len, const char *name,
		     struct sem_fault *f)
{
	if (*slot)
		return 0;
	if (pos + len > SEM_CFG_SIZE)
		return fault(f, -AE_INVAL, pos, name, pos, SEM_CFG_SIZE);
	*slot = (uint16_t)pos;
	return 0;
}

/*
 * The extended list (PCIe r5.0 sec 7.6.3): from 0x100, Next Capability
 * Offset in bits 31:20, dword aligned and at or above 0x100; 0 ends it. A
 * header of 0 or all-ones at 0x100 means no extended capabilities. At
 * most 960 dwords: a visited bitmap bounds the walk.
 */
static int walk_ext(const uint8_t *cfg, struct sem_caps *c, struct sem_fault *f)
{
	static const char l1ss[] = "L1 PM Substates capability at 0x%03x runs past 0x%x";
	static const char ltr[] = "LTR capability at 0x%03x runs past 0x%x";
	uint8_t seen[SEM_CFG_SIZE / 4] = { 0 };
	unsigned pos = PCI_CFG_SPACE_SIZE, at = pos;
	uint32_t h = sem_peek(cfg, pos, 4);
	int rc = 0;

	if (h == 0 || h == 0xffffffff)
		return 0;
	while (pos && !rc) {
		if (pos & 3)
			return fault(f, -AE_INVAL, at, "extended capability pointer 0x%03x in 0x%03x is not dword aligned",
				     pos, at);
		if (pos < PCI_CFG_SPACE_SIZE)
			return fault(f, -AE_INVAL, at, "extended capability pointer 0x%03x in 0x%03x points below 0x100",
				     pos, at);
		if (seen[pos / 4]++)
			return fault(f, -AE_LOOP, at, "extended capability list loops back to 0x%03x (header at 0x%03x)",
				     pos, at);
		h = sem_peek(cfg, pos, 4);
		if (PCI_EXT_CAP_ID(h) == PCI_EXT_CAP_ID_L1SS)
			rc = ext_found(&c->l1ss, pos, L1SS_CAP_LEN, l1ss, f);
		else if (PCI_EXT_CAP_ID(h) == PCI_EXT_CAP_ID_LTR)
			rc = ext_found(&c->ltr, pos, LTR_CAP_LEN, ltr, f);
		at = pos;
		pos = h >> 20;
	}
	return rc;
}

int sem_find_caps(const uint8_t *cfg, unsigned known, struct sem_caps *c,
		  struct sem_fault *f)
{
	int rc = 0;

	*c = (struct sem_caps){ 0 };
	if (known >= PCI_CFG_SPACE_SIZE)
		rc = walk_std(cfg, c, f);
	if (!rc && known >= SEM_CFG_SIZE)
		rc = walk_ext(cfg, c, f);
	return rc;
}
