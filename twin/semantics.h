/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Register semantics of a function's configuration space, per byte: a
 * read-write mask and a write-1-to-clear mask, every other bit read-only
 * (as hardware does, and as QEMU's wmask/w1cmask do). The masks come from
 * the capability registers (Link Capabilities, Device Capabilities 2, L1
 * PM Substates Capabilities, the header type), never from the values of
 * the registers being written: a dump says what a register holds, not
 * which of its bits are writable. The simulator (tests/sim) and the
 * digital twin (twin/twin.c) both set their masks here; docs/twin.md has
 * the table.
 */
#ifndef ASPMCTL_TWIN_SEMANTICS_H
#define ASPMCTL_TWIN_SEMANTICS_H

#include <stdbool.h>
#include <stdint.h>
#include "../pcie/cfg.h"

#define SEM_CFG_SIZE	4096

/* One function: its 4 KiB of registers and their two masks. */
struct sem_fn {
	uint8_t *cfg;
	uint8_t *rw;
	uint8_t *w1c;
};

/* Where the capabilities the masks depend on are (0: absent). */
struct sem_caps {
	uint8_t pcie;		/* PCI Express capability */
	uint16_t l1ss;		/* L1 PM Substates extended capability */
	uint16_t ltr;		/* LTR extended capability */
};

/* A capability list that cannot be walked: the byte at fault, and why. */
struct sem_fault {
	uint16_t off;
	char msg[112];
};

/* Command, Status and (type 1) the bus numbers (PCIe r5.0 7.5.1). */
void sem_header(const struct sem_fn *s);
/* The PCI Express capability at pos (PCIe r5.0 7.5.3): Device Control,
 * Link Control from Link Capabilities and the port type, Link Status. */
void sem_pcie(const struct sem_fn *s, unsigned pos);
/* Device Control 2 from Device Capabilities 2 (PCIe r5.0 7.5.3.16). */
void sem_devctl2(const struct sem_fn *s, unsigned pcie);
/* L1 PM Substates Control 1 and 2 (PCIe r5.0 7.8.3). */
void sem_l1ss(const struct sem_fn *s, unsigned pos);
/* LTR Max Snoop / No-Snoop Latency (PCIe r5.0 7.8.2). */
void sem_ltr(const struct sem_fn *s, unsigned pos);
/* Every rule above for the capabilities found, on a function whose masks
 * start cleared. */
void sem_derive(const struct sem_fn *s, const struct sem_caps *c);

/*
 * Walk the capability lists within the first known bytes (64: none, the
 * list lies beyond; 256: the standard list; 4096: both), bounded, and
 * find the PCI Express, L1 PM Substates and LTR capabilities. A pointer
 * that is not dword aligned, points back into the header (or, extended,
 * below 0x100), loops, or a capability that runs past the known bytes is
 * a fault: returns -AE_INVAL or -AE_LOOP and fills *f.
 */
int sem_find_caps(const uint8_t *cfg, unsigned known, struct sem_caps *c,
		  struct sem_fault *f);

/*
 * A write of width bytes at off through the masks: read-write bits take
 * the value, write-1-to-clear bits written as 1 clear, the rest stay.
 * pcie: the PCI Express capability (0: none). Retrain Link always reads
 * back 0 (PCIe r5.0 7.5.3.7); returns true when the write set it, i.e. a
 * link retrain starts.
 */
bool sem_write(const struct sem_fn *s, unsigned pcie, unsigned off,
	       unsigned width, uint32_t val);

/* A register of width bytes at off, little-endian (PCIe r5.0 sec 7.2.2). */
uint32_t sem_peek(const uint8_t *cfg, unsigned off, unsigned width);
/* What a read of width bytes returns where no function answers. */
uint32_t sem_all_ones(unsigned width);

/* One config write as a fake config space (tests/sim, the twin) took it. */
struct sem_write {
	struct pci_addr a;
	uint16_t off;
	uint8_t width;
	int rc;			/* 0, or the error the write returned */
	uint32_t val;		/* as written */
	uint32_t before, after;	/* register value before / after (~0: no function) */
};

/*
 * The one write path of both fakes: record the write in *w (NULL: the log
 * is full) and, when s is a function and rc is 0, apply it through the
 * masks (sem_write()), with the register's value before and after.
 * Returns sem_write()'s result: true when a link retrain starts.
 */
bool sem_logged_write(struct sem_write *w, const struct sem_fn *s,
		      unsigned pcie, struct pci_addr a, unsigned off,
		      unsigned width, uint32_t val, int rc);

#endif
