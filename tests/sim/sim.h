/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Config-space simulator for host tests and fuzzers: functions with a
 * full 4 KiB config space and, per byte, a read-write mask and a
 * write-1-to-clear mask (everything else read-only), like hardware and
 * like QEMU's wmask/w1cmask. Absent functions read all-ones. Every write
 * is logged in order, with the value as written (as QEMU's pci_cfg_write
 * trace shows it) and the value that stuck.
 */
#ifndef ASPMCTL_TESTS_SIM_H
#define ASPMCTL_TESTS_SIM_H

#include <stdbool.h>
#include <stdint.h>
#include "../../pcie/cfg.h"
#include "../../pcie/ecam.h"
#include "../../twin/semantics.h"

#define SIM_MAX_FN	1024
#define SIM_LOG_MAX	4096

struct sim_fn {
	struct pci_addr addr;
	uint8_t cfg[4096];
	uint8_t rw[4096];
	uint8_t w1c[4096];
	uint8_t last_cap;	/* tail of the standard capability list */
	uint16_t last_ext;	/* tail of the extended capability list */
	uint16_t next_ext;	/* where the next extended capability goes */
	uint8_t next_cap;	/* where the next capability goes */
	uint8_t pcie;		/* offset of the PCIe capability */
	uint16_t l1ss;
	/* behaviours */
	unsigned crs_reads;	/* answer Vendor ID 0x0001 this many times (~0u: forever) */
	unsigned vanish_after;	/* all-ones after this many reads (0: never) */
	unsigned reads;
	unsigned retrain_reads;	/* Link Training stays set for this many LNKSTA reads */
	unsigned lt_left;
	bool alias_all;		/* answers at every function number of its device */
};

struct sim {
	struct sim_fn *fn[SIM_MAX_FN];
	unsigned nfn;
	struct sem_write log[SIM_LOG_MAX];	/* twin/semantics.h */
	unsigned nlog;
	uint64_t reads, writes;
	uint64_t absent_reads;
	uint64_t bad_accesses;	/* outside the ECAM window (mmio adapter) */
	/* ECAM view for the mmio adapter */
	uint64_t ecam_base;
	uint16_t ecam_seg;
	uint8_t ecam_start, ecam_end;
};

struct sim *sim_new(void);
void sim_free(struct sim *s);
extern const struct pci_cfg_ops sim_cfg_ops;	/* ctx = struct sim * */
extern const struct mmio_ops sim_mmio_ops;	/* ctx = struct sim *, uses ecam_* */

struct sim_fn *sim_find(struct sim *s, struct pci_addr a);
/* Add a function with its header: type 0 (endpoint) or 1 (bridge). */
struct sim_fn *sim_add_fn(struct sim *s, uint16_t seg, uint8_t bus, uint8_t dev,
			  uint8_t fn, uint16_t vendor, uint16_t device,
			  uint32_t class, uint8_t hdr_type);
void sim_set_multi(struct sim_fn *f);
void sim_set_bus(struct sim_fn *f, uint8_t pri, uint8_t sec, uint8_t sub);
/* Append a standard capability of len bytes; returns its offset. */
uint8_t sim_add_cap(struct sim_fn *f, uint8_t id, uint8_t len);
/* Append an extended capability; returns its offset. */
uint16_t sim_add_ext_cap(struct sim_fn *f, uint16_t id, uint16_t len);
/* PCI Express capability v2 with the given port type and registers.
 * Link Control: ASPM Control bits writable only where LNKCAP supports
 * them, CCC, ES, RL (reads 0), CLKREQ_EN when Clock PM capable. */
uint8_t sim_add_pcie(struct sim_fn *f, uint8_t type, uint32_t devcap,
		     uint32_t lnkcap, uint16_t lnkctl, uint16_t lnksta);
/* L1 PM Substates capability with its Capabilities and Control 1. */
uint16_t sim_add_l1ss(struct sim_fn *f, uint32_t cap, uint32_t ctl1);
uint16_t sim_add_ltr(struct sim_fn *f);
/* LTR Mechanism Supported only (ports on an LTR path have no LTR capability) */
void sim_set_ltr_mech(struct sim_fn *f);
/* Make ASPM Control read-only zero, like QEMU's ports and devices. */
void sim_ignore_aspm(struct sim_fn *f);
/* ARI Forwarding Supported and Enabled (Device Capabilities/Control 2),
 * on a Downstream Port: every device number below it is scanned. */
void sim_set_ari_fwd(struct sim_fn *f);
/* ARI extended capability with its Next Function Number; returns its offset. */
uint16_t sim_add_ari(struct sim_fn *f, uint8_t next_fn);

uint32_t sim_peek(struct sim_fn *f, uint16_t off, unsigned width);
void sim_poke(struct sim_fn *f, uint16_t off, unsigned width, uint32_t v);
uint16_t sim_lnkctl(struct sim *s, struct pci_addr a);

#endif
