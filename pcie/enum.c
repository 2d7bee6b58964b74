// SPDX-License-Identifier: GPL-2.0-only
/*
 * Enumeration that follows what firmware programmed.
 *
 * Root buses are the start bus of every ECAM window plus extra
 * roots (firmware's root bridges, configuration). They are scanned per
 * segment in ascending bus order; below each, only the buses that
 * bridges' Secondary/Subordinate Bus Number registers lead to are
 * visited (PCI-to-PCI Bridge Architecture 1.2 sec 3.2.5.3). A bridge
 * always leads to a higher bus than its own, so in ascending order every
 * bridge that could claim a bus is seen before that bus is taken as a
 * root; a root candidate that a followed bridge already reached or whose
 * number lies behind a followed bridge is not a root bus. We never
 * program bus numbers. Hostile cases are detected, logged, and skipped:
 *  - a bridge whose secondary bus is not above its own bus, whose
 *    subordinate is below its secondary, or whose range escapes its
 *    parent's window: bus numbers cannot be trusted (FN_BUS_BAD);
 *  - a bus range not fully decoded by the ECAM windows of the segment
 *    (FN_BUS_RANGE; adjacent windows together are fine);
 *  - a secondary bus already scanned, through another bridge or as a
 *    root bus (FN_BUS_DUP);
 * and since every followed secondary bus is strictly above its parent's
 * bus, the recursion ends after at most 256 levels. The bookkeeping is
 * per segment, not per ECAM window.
 *
 * Below a PCIe Downstream Port (Root Port, Switch Downstream Port, PCI/
 * PCI-X to PCIe bridge: Linux's pcie_downstream_port()) only Device 0
 * exists (PCIe r5.0 sec 7.3.1; Linux only_one_child()). With ARI
 * Forwarding enabled on the port, functions 0-255 of Device 0 are found
 * by following the ARI Capability's Next Function Number from function 0
 * (PCIe r5.0 sec 6.13, 7.8.7; Linux pci_scan_slot()/next_ari_fn()).
 * Vendor ID 0xffff means no function; 0x0001 is a Configuration Request
 * Retry Status completion seen through CRS Software Visibility (sec
 * 2.3.2): the function is not ready and is skipped after a few tries.
 */
#include "enum.h"
#include "caps.h"
#include "link.h"
#include "pci_regs.h"
#include "../lib/err.h"
#include "../lib/log.h"
#include "../lib/util.h"

#define CRS_RETRIES	4
#define MAX_ROOTS	(ECAM_MAX_WINDOWS + PCIE_MAX_EXTRA_ROOTS)

/* ARI Capability register (PCIe r5.0 sec 7.8.7.2) */
#define PCI_ARI_CAP		0x04
#define  PCI_ARI_CAP_NFN(x)	(((x) >> 8) & 0xff)	/* Next Function Number */

/* owner[][] of a bus scanned as a root bus */
#define OWNER_ROOT	(-1)

struct scan {
	struct pci_cfg *c;
	const struct ecam_window *win;
	unsigned nwin;
	struct pcie_topo *t;
	/* per segment: seg_id[k] is the segment number of slot k */
	uint16_t seg_id[ECAM_MAX_WINDOWS];
	unsigned nseg;
	uint8_t visited[ECAM_MAX_WINDOWS][256 / 8];	/* scanned */
	uint8_t claimed[ECAM_MAX_WINDOWS][256 / 8];	/* behind a followed bridge */
	int owner[ECAM_MAX_WINDOWS][256];	/* fn index of the bridge, or OWNER_ROOT */
	struct pci_addr root[MAX_ROOTS];
	unsigned nroot;
	/* ARI walk: the function being added is on an ARI bus; its Next
	 * Function Number, or -1 without an ARI capability */
	bool want_ari;
	int ari_next;		/* the Next Function Number read, -1 none, */
#define ARI_NEXT_UNKNOWN (-2)	/* or: not in the dump */
};

/* Does an ECAM window decode seg:bus? */
static bool decoded(const struct scan *s, uint16_t seg, uint8_t bus)
{
	return ecam_window_find(s->win, s->nwin, seg, bus) != NULL;
}

/* the segment's slot in the per-segment bookkeeping, or -1 */
static int seg_slot(const struct scan *s, uint16_t seg)
{
	for (unsigned k = 0; k < s->nseg; k++)
		if (s->seg_id[k] == seg)
			return (int)k;
	return -1;
}

static bool bus_bit(const uint8_t *map, uint8_t bus)
{
	return map[bus / 8] & (1u << (bus % 8));
}

static void set_bus_bit(uint8_t *map, uint8_t bus)
{
	map[bus / 8] |= (uint8_t)(1u << (bus % 8));
}

/* Linux's pcie_downstream_port() (drivers/pci/pci.h, 6.1): the ports
 * below which only Device 0 is scanned (only_one_child()) */
static bool pcie_is_downstream_port(const struct pcie_fn *f)
{
	return (f->flags & FN_PCIE) &&
	       (f->pcie_type == PCI_EXP_TYPE_ROOT_PORT ||
		f->pcie_type == PCI_EXP_TYPE_DOWNSTREAM ||
		f->pcie_type == PCI_EXP_TYPE_PCIE_BRIDGE);
}

const char *pcie_type_name(const struct pcie_fn *f)
{
	static const char *const names[] = {
		[PCI_EXP_TYPE_ENDPOINT] = "endpoint",
		[PCI_EXP_TYPE_LEG_END] = "legacy-endpoint",
		[PCI_EXP_TYPE_ROOT_PORT] = "root-port",
		[PCI_EXP_TYPE_UPSTREAM] = "upstream-port",
		[PCI_EXP_TYPE_DOWNSTREAM] = "downstream-port",
		[PCI_EXP_TYPE_PCI_BRIDGE] = "pcie-pci-bridge",
		[PCI_EXP_TYPE_PCIE_BRIDGE] = "pci-pcie-bridge",
		[PCI_EXP_TYPE_RC_END] = "rc-endpoint",
		[PCI_EXP_TYPE_RC_EC] = "rc-event-collector",
	};
	static const char *const unknown[16] = {
		"unknown-0", "unknown-1", "unknown-2", "unknown-3", "unknown-4",
		"unknown-5", "unknown-6", "unknown-7", "unknown-8", "unknown-9",
		"unknown-10", "unknown-11", "unknown-12", "unknown-13",
		"unknown-14", "unknown-15",
	};

	if (!(f->flags & FN_PCIE))
		return f->hdr_type == PCI_HEADER_TYPE_CARDBUS ? "cardbus-bridge" :
		       (f->flags & FN_BRIDGE) ? "pci-bridge" : "pci";
	if (f->pcie_type < ARRAY_SIZE(names) && names[f->pcie_type])
		return names[f->pcie_type];
	return unknown[f->pcie_type & 15];
}

int pcie_find_fn(const struct pcie_topo *t, struct pci_addr a)
{
	for (unsigned i = 0; i < t->nfn; i++)
		if (pci_addr_eq(t->fn[i].addr, a))
			return (int)i;
	return -1;
}

/* Read the ID dword; 0 = present, -AE_NODEV absent, -AE_BUSY not ready. */
static int probe_id(struct scan *s, struct pci_addr a, uint32_t *id)
{
	char b[16];

	for (unsigned i = 0; i < CRS_RETRIES; i++) {
		int rc = pci_cfg_read32(s->c, a, PCI_VENDOR_ID, id);

		if (rc)
			return rc;
		if ((*id & 0xffff) == PCI_VENDOR_ID_NONE || *id == 0)
			return -AE_NODEV;
		if ((*id & 0xffff) != PCI_VENDOR_ID_CRS)
			return 0;
	}
	log_warn(-AE_BUSY, "%s: function answers Configuration Retry forever, skipped",
		 pci_addr_str(a, b));
	s->t->problems++;
	return -AE_BUSY;
}

static void read_pcie_cap(struct scan *s, struct pcie_fn *f)
{
	char b[16];
	uint16_t flags;
	uint32_t v, hdr = 0xffffffff;
	uint8_t pos;
	int rc;

	/* the entry's dword holds the PCI Express Capabilities register */
	rc = pci_find_cap_hdr(s->c, f->addr, PCI_CAP_ID_EXP, &pos, &hdr);
	if (rc == -AE_LOOP) {
		f->flags |= FN_CAP_LOOP;
		s->t->problems++;
		log_warn(rc, "%s: capability list loops or points into the header; treated as conventional PCI",
			 pci_addr_str(f->addr, b));
		return;
	}
	if (rc == -AE_IO) {
		f->flags |= FN_GONE;	/* all-ones: the function went away */
		return;
	}
	if (rc)
		return;
	flags = (uint16_t)(hdr >> 16);
	if (flags == 0xffff) {
		f->flags |= FN_GONE;
		return;
	}
	f->pcie_cap = pos;
	f->flags |= FN_PCIE;
	f->pcie_vers = flags & PCI_EXP_FLAGS_VERS;
	f->pcie_type = (uint8_t)((flags & PCI_EXP_FLAGS_TYPE) >> 4);
	switch (f->pcie_type) {
	case PCI_EXP_TYPE_ENDPOINT: case PCI_EXP_TYPE_LEG_END:
	case PCI_EXP_TYPE_ROOT_PORT: case PCI_EXP_TYPE_UPSTREAM:
	case PCI_EXP_TYPE_DOWNSTREAM: case PCI_EXP_TYPE_PCI_BRIDGE:
	case PCI_EXP_TYPE_PCIE_BRIDGE: case PCI_EXP_TYPE_RC_END:
	case PCI_EXP_TYPE_RC_EC:
		break;
	default:
		f->flags |= FN_BAD_TYPE;
		s->t->problems++;
		log_warn(-AE_INVAL, "%s: PCIe capability with unknown port type %u; no ASPM on its link",
			 pci_addr_str(f->addr, b), f->pcie_type);
		return;
	}
	pci_cfg_read32(s->c, f->addr, pos + PCI_EXP_DEVCAP, &f->devcap);
	/* Root Complex integrated functions have no link */
	if (f->pcie_type == PCI_EXP_TYPE_RC_END || f->pcie_type == PCI_EXP_TYPE_RC_EC)
		return;
	pci_cfg_read32(s->c, f->addr, pos + PCI_EXP_LNKCAP, &f->lnkcap);
	pci_cfg_read32(s->c, f->addr, pos + PCI_EXP_LNKCTL, &v);
	if (f->devcap == 0xffffffff || v == 0xffffffff) {
		f->flags |= FN_GONE;
		return;
	}
	f->lnkctl = (uint16_t)v;
	f->lnksta = (uint16_t)(v >> 16);
	if (pcie_is_downstream_port(f)) {
		if (flags & PCI_EXP_FLAGS_SLOT) {
			pci_cfg_read32(s->c, f->addr, pos + PCI_EXP_SLTCAP, &v);
			if (v != 0xffffffff && (v & PCI_EXP_SLTCAP_HPC))
				f->flags |= FN_HOTPLUG;
		}
		if (f->pcie_vers >= 2) {
			uint16_t ctl2;

			pci_cfg_read16(s->c, f->addr, pos + PCI_EXP_DEVCTL2, &ctl2);
			if (ctl2 != 0xffff && (ctl2 & PCI_EXP_DEVCTL2_ARI))
				f->flags |= FN_ARI;
		}
	}
}

/*
 * The L1 PM Substates and LTR extended capabilities of every PCI Express
 * function, wherever present (as Linux's pci_configure_ltr() finds
 * dev->l1ss for every PCIe function), and on an ARI bus the ARI
 * capability, all in one walk of the extended list.
 */
static void read_ext_caps(struct scan *s, struct pcie_fn *f)
{
	static const uint16_t ids[] = { PCI_EXT_CAP_ID_L1SS, PCI_EXT_CAP_ID_LTR,
					PCI_EXT_CAP_ID_ARI };
	uint16_t pos[3] = { 0, 0, 0 };
	char b[16];
	int rc;

	if (!(f->flags & FN_PCIE) || (f->flags & (FN_BAD_TYPE | FN_GONE)))
		return;
	rc = pci_find_ext_caps(s->c, f->addr, ids, pos, s->want_ari ? 3 : 2);
	if (rc == -AE_NODATA) {
		/* the backend does not know this space (a twin of a 256-byte
		 * dump): neither present nor absent, and never written; an ARI
		 * walk cannot follow Next Function Numbers it cannot read */
		f->flags |= FN_EXT_UNKNOWN;
		if (s->want_ari)
			s->ari_next = ARI_NEXT_UNKNOWN;
		return;
	}
	if (rc == -AE_LOOP) {
		f->flags |= FN_EXTCAP_LOOP;
		s->t->problems++;
		log_warn(rc, "%s: extended capability list loops; stopped walking it",
			 pci_addr_str(f->addr, b));
	}
	if (s->want_ari && pos[2]) {
		uint16_t cap;

		if (pci_cfg_read16(s->c, f->addr, pos[2] + PCI_ARI_CAP, &cap) == 0 &&
		    cap != 0xffff)
			s->ari_next = (int)PCI_ARI_CAP_NFN(cap);
	}
	f->ltr = pos[1];
	if (pos[0]) {
		f->l1ss = pos[0];
		pci_cfg_read32(s->c, f->addr, f->l1ss + PCI_L1SS_CAP, &f->l1ss_cap);
		pci_cfg_read32(s->c, f->addr, f->l1ss + PCI_L1SS_CTL1, &f->l1ss_ctl1);
		if (f->l1ss_cap == 0xffffffff || f->l1ss_ctl1 == 0xffffffff) {
			f->l1ss = 0;
			f->l1ss_cap = f->l1ss_ctl1 = 0;
		}
	}
}

static int add_fn(struct scan *s, struct pci_addr a, uint32_t id, int parent,
		  int depth, uint8_t hdr)
{
	struct pcie_topo *t = s->t;
	struct pcie_fn *f;
	char b[16];
	uint32_t v;

	if (t->nfn >= t->cap_fn) {
		if (!t->truncated)
			log_error(-AE_NOSPC, "more than %u functions; the rest are ignored",
				  t->cap_fn);
		t->truncated = true;
		return -AE_NOSPC;
	}
	f = &t->fn[t->nfn];
	mem_set(f, 0, sizeof(*f));
	f->addr = a;
	f->vendor = (uint16_t)id;
	f->device = (uint16_t)(id >> 16);
	f->parent = parent;
	f->depth = depth;
	f->up_link = f->down_link = -1;
	f->hdr_type = hdr & PCI_HEADER_TYPE_MASK;
	if (hdr & PCI_HEADER_TYPE_MFD)
		f->flags |= FN_MULTI;
	pci_cfg_read32(s->c, a, PCI_CLASS_REVISION, &v);
	if (v == 0xffffffff) {
		log_warn(-AE_IO, "%s: vanished during the scan (reads all-ones)",
			 pci_addr_str(a, b));
		t->problems++;
		return -AE_IO;
	}
	f->revision = (uint8_t)v;
	f->class = v >> 8;
	/* a CardBus bridge's bus numbers sit where a PCI bridge's do (PC Card
	 * Standard; Linux's pci_scan_bridge_extend() follows both) */
	if (f->hdr_type == PCI_HEADER_TYPE_BRIDGE ||
	    f->hdr_type == PCI_HEADER_TYPE_CARDBUS) {
		f->flags |= FN_BRIDGE;
		pci_cfg_read32(s->c, a, PCI_PRIMARY_BUS, &v);
		if (v == 0xffffffff) {
			log_warn(-AE_IO, "%s: vanished during the scan (reads all-ones)",
				 pci_addr_str(a, b));
			t->problems++;
			return -AE_IO;
		}
		f->primary = (uint8_t)v;
		f->secondary = (uint8_t)(v >> 8);
		f->subordinate = (uint8_t)(v >> 16);
	}
	read_pcie_cap(s, f);
	if (f->flags & FN_GONE) {
		log_warn(-AE_IO, "%s: vanished during the scan (reads all-ones)",
			 pci_addr_str(a, b));
		t->problems++;
		return -AE_IO;
	}
	read_ext_caps(s, f);
	t->nfn++;
	return 0;
}

static void scan_bus(struct scan *s, uint16_t seg, uint8_t bus, int parent,
		     int depth, uint8_t win_lo, uint8_t win_hi);

static bool bridge_window_ok(struct scan *s, struct pcie_fn *f, uint8_t bus,
			     uint8_t win_lo, uint8_t win_hi)
{
	char b[16], b2[16];
	int k;

	if (f->secondary == 0 && f->subordinate == 0) {
		log_info("%s: bridge not configured by firmware (bus numbers 0); not followed",
			 pci_addr_str(f->addr, b));
		return false;
	}
	if (f->secondary <= bus || f->subordinate < f->secondary ||
	    f->secondary < win_lo || f->subordinate > win_hi) {
		f->flags |= FN_BUS_BAD;
		s->t->problems++;
		log_warn(-AE_INVAL, "%s: bridge bus numbers invalid (primary %02x secondary %02x subordinate %02x on bus %02x, window %02x-%02x); not followed",
			 pci_addr_str(f->addr, b), f->primary, f->secondary,
			 f->subordinate, bus, win_lo, win_hi);
		return false;
	}
	/* every bus of the range decoded by some window of the segment
	 * (adjacent windows together are fine) */
	for (unsigned n = f->secondary; n <= f->subordinate; n++) {
		if (decoded(s, f->addr.seg, (uint8_t)n))
			continue;
		f->flags |= FN_BUS_RANGE;
		s->t->problems++;
		log_warn(-AE_RANGE, "%s: bridge leads to buses %02x-%02x outside the MCFG range; not followed",
			 pci_addr_str(f->addr, b), f->secondary, f->subordinate);
		return false;
	}
	k = seg_slot(s, f->addr.seg);
	if (k < 0)
		return false;	/* not reached: the bridge's own bus is decoded */
	if (bus_bit(s->visited[k], f->secondary)) {
		int o = s->owner[k][f->secondary];

		f->flags |= FN_BUS_DUP;
		s->t->problems++;
		if (o >= 0 && (unsigned)o < s->t->nfn)
			log_warn(-AE_EXIST, "%s: secondary bus %02x already claimed by another bridge (%s); not followed",
				 pci_addr_str(f->addr, b), f->secondary,
				 pci_addr_str(s->t->fn[o].addr, b2));
		else
			log_warn(-AE_EXIST, "%s: secondary bus %02x already scanned as a root bus; not followed",
				 pci_addr_str(f->addr, b), f->secondary);
		return false;
	}
	return true;
}

/*
 * Below a port with ARI Forwarding enabled: function 0, then the chain of
 * ARI Next Function Numbers (PCIe r5.0 sec 7.8.7.2; Linux next_ari_fn()).
 * The walk stops at an absent function, a function without an ARI
 * capability, a Next Function Number of 0, or one that does not go up
 * (a malformed or looping list); going strictly up bounds it to 256
 * functions.
 */
static int scan_ari(struct scan *s, uint16_t seg, uint8_t bus, int parent,
		    int depth)
{
	unsigned fn = 0;
	bool probe_all = false;	/* the ARI chain is unknown: try every number */
	char b[16];

	for (;; fn++) {
		struct pci_addr a = { seg, bus, (uint8_t)fn };
		uint32_t id, v;
		uint8_t hdr;
		int rc;

		if (fn > 255)
			return 0;
		rc = probe_id(s, a, &id);
		if (rc == -AE_NODATA && fn == 0)
			probe_all = true;	/* function 0 not known: see scan_bus() */
		if (rc) {
			if (probe_all)
				continue;
			return 0;
		}
		if (fn == 0) {
			pci_cfg_read32(s->c, a, 0x0c, &v);
			hdr = (uint8_t)(v >> 16);
		} else {
			pci_cfg_read8(s->c, a, PCI_HEADER_TYPE, &hdr);
		}
		s->want_ari = true;
		s->ari_next = -1;
		rc = add_fn(s, a, id, parent, depth, hdr);
		s->want_ari = false;
		if (rc)
			return rc == -AE_NOSPC ? rc : 0;
		if (s->ari_next == ARI_NEXT_UNKNOWN)
			probe_all = true;
		if (probe_all)
			continue;
		if (s->ari_next <= 0)
			return 0;
		if ((unsigned)s->ari_next <= fn) {
			s->t->problems++;
			log_warn(-AE_LOOP, "%s: ARI Next Function Number %u does not follow function %u; walk stopped",
				 pci_addr_str(a, b), (unsigned)s->ari_next, fn);
			return 0;
		}
		fn = (unsigned)s->ari_next - 1;	/* the loop's fn++ */
	}
}

static void scan_bus(struct scan *s, uint16_t seg, uint8_t bus, int parent,
		     int depth, uint8_t win_lo, uint8_t win_hi)
{
	struct pcie_topo *t = s->t;
	const struct pcie_fn *pf = parent >= 0 ? &t->fn[parent] : NULL;
	bool only_dev0 = pf && pcie_is_downstream_port(pf);
	int k = seg_slot(s, seg);
	unsigned first, last;

	if (k < 0 || !decoded(s, seg, bus))
		return;
	set_bus_bit(s->visited[k], bus);
	s->owner[k][bus] = parent >= 0 ? parent : OWNER_ROOT;
	first = t->nfn;
	if (only_dev0 && (pf->flags & FN_ARI)) {
		if (scan_ari(s, seg, bus, parent, depth) == -AE_NOSPC)
			return;
	} else {
		for (unsigned dev = 0; dev < (only_dev0 ? 1u : 32u); dev++) {
			struct pci_addr a = { seg, bus, PCI_DEVFN(dev, 0) };
			unsigned nfunc = 1;
			uint32_t id, v;
			uint8_t hdr;
			int rc = probe_id(s, a, &id);

			if (rc == -AE_NODATA) {
				/* function 0 not known (a dump that left it out,
				 * the backend says so): its ID cannot tell whether
				 * the device is multi-function, so probe them all */
				nfunc = 8;
			} else if (rc) {
				continue;
			} else {
				pci_cfg_read32(s->c, a, 0x0c, &v);
				hdr = (uint8_t)(v >> 16);
				if (hdr & PCI_HEADER_TYPE_MFD)
					nfunc = 8;
				if (add_fn(s, a, id, parent, depth, hdr) == -AE_NOSPC)
					return;
			}
			for (unsigned fn = 1; fn < nfunc; fn++) {
				a.devfn = PCI_DEVFN(dev, fn);
				if (probe_id(s, a, &id))
					continue;
				pci_cfg_read8(s->c, a, PCI_HEADER_TYPE, &hdr);
				if (add_fn(s, a, id, parent, depth, hdr) == -AE_NOSPC)
					return;
			}
		}
	}
	last = t->nfn;
	/* then follow the bridges on this bus, in order (pre-order DFS) */
	for (unsigned i = first; i < last; i++) {
		struct pcie_fn *f = &t->fn[i];

		if (!(f->flags & FN_BRIDGE))
			continue;
		if (!bridge_window_ok(s, f, bus, win_lo, win_hi))
			continue;
		for (unsigned n = f->secondary; n <= f->subordinate; n++)
			set_bus_bit(s->claimed[k], (uint8_t)n);
		scan_bus(s, seg, f->secondary, (int)i, depth + 1, f->secondary,
			 f->subordinate);
	}
}

/* A root bus: skipped when already scanned; with !any_bus also when it
 * lies behind a bridge that was followed (then it is not a root bus). */
static void scan_root(struct scan *s, uint16_t seg, uint8_t bus, bool any_bus)
{
	int k = seg_slot(s, seg);

	if (k < 0 || !decoded(s, seg, bus)) {
		log_warn(-AE_RANGE, "root bus %04x:%02x is outside every MCFG region; skipped",
			 seg, bus);
		s->t->problems++;
		return;
	}
	if (bus_bit(s->visited[k], bus))
		return;
	if (!any_bus && bus_bit(s->claimed[k], bus)) {
		log_info("root bus %04x:%02x lies behind a bridge that was followed; not scanned as a root",
			 seg, bus);
		return;
	}
	s->t->nroots++;
	scan_bus(s, seg, bus, -1, 0, bus, 0xff);
}

static void add_root(struct scan *s, uint16_t seg, uint8_t bus)
{
	unsigned i;

	for (i = 0; i < s->nroot; i++)
		if (s->root[i].seg == seg && s->root[i].bus == bus)
			return;
	if (s->nroot >= ARRAY_SIZE(s->root))
		return;	/* cannot happen: room for every window and extra root */
	/* insertion sort by (segment, bus) */
	for (i = s->nroot; i > 0; i--) {
		const struct pci_addr *p = &s->root[i - 1];

		if (p->seg < seg || (p->seg == seg && p->bus < bus))
			break;
		s->root[i] = *p;
	}
	s->root[i] = (struct pci_addr){ seg, bus, 0 };
	s->nroot++;
}

/*
 * ASPM L1.2 relies on LTR_L1.2_THRESHOLD, so it needs LTR on the whole path
 * from the Root Port down to the device (PCIe r5.0 sec 5.5.4, 6.18): Linux's
 * pci_configure_ltr() sets ltr_path when the function and every bridge above
 * it up to a Root Port advertise LTR Mechanism Supported in Device
 * Capabilities 2 (it enables LTR on the way; aspmctl only reads). Read only
 * where it matters, for functions whose L1 PM Substates offer ASPM L1.2, and
 * each Device Capabilities 2 at most once.
 */
static bool fn_ltr_supported(struct scan *s, struct pcie_fn *f)
{
	uint32_t cap2 = 0;

	if (!(f->flags & FN_LTR_READ)) {
		f->flags |= FN_LTR_READ;
		if ((f->flags & FN_PCIE) && !(f->flags & (FN_BAD_TYPE | FN_GONE)) &&
		    f->pcie_vers >= 2 &&
		    pci_cfg_read32(s->c, f->addr, f->pcie_cap + PCI_EXP_DEVCAP2, &cap2) == 0 &&
		    cap2 != 0xffffffff && (cap2 & PCI_EXP_DEVCAP2_LTR))
			f->flags |= FN_LTR_MECH;
	}
	return f->flags & FN_LTR_MECH;
}

static void read_ltr_paths(struct scan *s)
{
	struct pcie_topo *t = s->t;

	for (unsigned i = 0; i < t->nfn; i++) {
		struct pcie_fn *f = &t->fn[i];
		unsigned steps = 0;

		if (!f->l1ss || !(f->l1ss_cap & PCI_L1SS_CAP_ASPM_L1_2))
			continue;
		/* parents come before children in fn[]; steps bounds a bad chain */
		for (int j = (int)i; j >= 0 && steps++ <= t->nfn; j = t->fn[j].parent) {
			if (!fn_ltr_supported(s, &t->fn[j]))
				break;
			if ((t->fn[j].flags & FN_PCIE) &&
			    t->fn[j].pcie_type == PCI_EXP_TYPE_ROOT_PORT) {
				f->flags |= FN_LTR_PATH;
				break;
			}
		}
	}
}

int pcie_enumerate(struct pci_cfg *c, const struct ecam_window *win,
		   unsigned nwin, const struct pcie_scan_opts *opts,
		   struct pcie_topo *t)
{
	static struct scan s;	/* large (bitmaps); keep it off the stack */
	unsigned nextra = 0;

	mem_set(&s, 0, sizeof(s));
	s.c = c;
	s.win = win;
	s.nwin = MIN(nwin, ECAM_MAX_WINDOWS);
	s.t = t;
	t->nfn = t->nlink = t->nroots = t->problems = 0;
	t->truncated = false;
	for (unsigned i = 0; i < s.nwin; i++) {
		if (seg_slot(&s, win[i].segment) < 0)
			s.seg_id[s.nseg++] = win[i].segment;
		add_root(&s, win[i].segment, win[i].bus_start);
	}
	if (opts) {
		nextra = opts->nextra_roots;
		if (nextra > ARRAY_SIZE(opts->extra_root)) {
			t->problems++;
			log_warn(-AE_NOSPC, "%u extra root buses given, at most %u are scanned: %u ignored",
				 nextra, (unsigned)ARRAY_SIZE(opts->extra_root),
				 nextra - (unsigned)ARRAY_SIZE(opts->extra_root));
			nextra = ARRAY_SIZE(opts->extra_root);
		}
		for (unsigned i = 0; i < nextra; i++)
			add_root(&s, opts->extra_root[i].seg, opts->extra_root[i].bus);
	}
	/* per segment, ascending: bridges claim their buses before a
	 * higher window start bus or extra root is taken as a root */
	for (unsigned i = 0; i < s.nroot; i++)
		scan_root(&s, s.root[i].seg, s.root[i].bus, false);
	if (opts && opts->full_scan) {
		/* every bus not reached through a bridge is a root */
		for (unsigned i = 0; i < s.nwin; i++)
			for (unsigned bus = win[i].bus_start; bus <= win[i].bus_end; bus++)
				scan_root(&s, win[i].segment, (uint8_t)bus, true);
	}
	read_ltr_paths(&s);
	pcie_build_links(t);
	return t->truncated ? -AE_NOSPC : 0;
}
