/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The digital twin: a real machine's config space (an lspci dump) behind
 * a struct pci_cfg_ops, with registers that behave as the spec says
 * (twin/semantics.c), so that the app's engine runs on the host against
 * it. docs/twin.md.
 *
 * Reads inside the bytes a dump holds return them; a function the dump
 * does not hold reads all-ones (absent); a read beyond the dumped bytes
 * of a present function (0x40.. of `lspci -x`, 0x100.. of `lspci -xxx`)
 * fails with -AE_NODATA, so that "unknown" is never taken for "absent" or
 * for a value. Writes go through the masks and are logged in order.
 */
#ifndef ASPMCTL_TWIN_TWIN_H
#define ASPMCTL_TWIN_TWIN_H

#include "lspci.h"
#include "../lib/fmt.h"

#define TWIN_LOG_MAX	4096

struct twin_fn {
	struct pci_addr addr;
	unsigned known;		/* 64, 256 or 4096 */
	unsigned line;		/* header line in the dump */
	bool all_ones;		/* dumped as all-ones (did not answer) */
	struct sem_caps caps;
	uint8_t cfg[SEM_CFG_SIZE];	/* 0xff beyond known */
	uint8_t rw[SEM_CFG_SIZE];
	uint8_t w1c[SEM_CFG_SIZE];
};

struct twin {
	struct twin_fn *fn;	/* in dump order */
	unsigned nfn;
	unsigned *sorted;	/* indexes of fn by address, for lookups */
	struct sem_write *log;	/* TWIN_LOG_MAX entries; rc -AE_NODATA: a register not dumped */
	unsigned nlog;
	uint64_t log_lost;	/* writes beyond the log */
	uint64_t reads, writes, absent_reads, unknown_reads;
};

/* Build from a parsed dump: bytes, known sizes, masks from the
 * capability registers. 0 or -AE_NOMEM. */
int twin_from_dump(struct twin *t, const struct lspci_dump *d);
/* lspci_parse() / lspci_load() and twin_from_dump() in one. */
int twin_parse(struct twin *t, const char *buf, size_t len, struct twin_err *e);
int twin_load(struct twin *t, const char *path, struct twin_err *e);
void twin_free(struct twin *t);
struct twin_fn *twin_find(const struct twin *t, struct pci_addr a);
/* a is function 0 of a device, not in the dump, while another function
 * of that device is: reads of it give -AE_NODATA (docs/twin.md) */
bool twin_fn0_not_dumped(const struct twin *t, struct pci_addr a);

extern const struct pci_cfg_ops twin_cfg_ops;	/* ctx = struct twin * */

/* The twin's current state as an lspci dump ("SSSS:BB:DD.F Class CCCC:
 * Device VVVV:DDDD", rows of 16 bytes, a blank line), each function with
 * its known size: `lspci -F FILE -vv` decodes it. */
void twin_write_lspci(const struct twin *t, const struct out *o);
/* The twin as an "aspmsim 1" scenario (linux/simmod/README.md) named
 * name. Segment 0 only, at most ASPMSIM_MAX_FN functions, each dumped
 * with at least 256 bytes (the capability lists must be whole); an
 * extended space not in the dump is exported empty. 0 or -AE_*, *e
 * says why (line: the function's header line). */
int twin_export_sim(const struct twin *t, const char *name, const struct out *o,
		    struct twin_err *e);

#endif
