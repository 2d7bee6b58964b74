/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Reader of the text dumps `lspci -x`, `-xxx`, `-xxxx` (with or without
 * -D, -v) print and aspmctl's own `dump` command prints, from a memory
 * buffer. The grammar, what is accepted and what is refused: docs/twin.md.
 * Reference: pciutils lib/dump.c, the reader of `lspci -F`.
 */
#ifndef ASPMCTL_TWIN_LSPCI_H
#define ASPMCTL_TWIN_LSPCI_H

#include <stddef.h>
#include <stdint.h>
#include "semantics.h"
#include "../pcie/cfg.h"

#define LSPCI_MAX_BYTES	(64u << 20)	/* refused above this, before reading */
#define LSPCI_MAX_FN	4096		/* functions in one dump (the app's limit) */
#define LSPCI_MAX_LINE	1023		/* characters in one line */

/* A bad input: the 1-based line at fault (0: the input as a whole, e.g.
 * too large), the negative AE_* code, a message. Callers print
 * "FILE:LINE: message". */
struct twin_err {
	unsigned line;
	int code;
	char msg[160];
};

struct lspci_fn {
	struct pci_addr addr;
	unsigned known;		/* bytes the dump holds: 64, 256 or 4096 */
	unsigned line;		/* its header line */
	unsigned bus_line;	/* the line of row 0x10 (bus numbers) */
	struct sem_caps caps;	/* found by the bounded walk */
	bool all_ones;		/* dumped as all-ones: the function did not
				 * answer (powered off, gone); kept so that it
				 * is named, and read as absent */
	uint8_t cfg[SEM_CFG_SIZE];	/* 0xff beyond known */
};

struct lspci_dump {
	struct lspci_fn *fn;
	unsigned nfn;
	unsigned cap;
};

/*
 * Parse len bytes of text. On success returns 0 and *d holds every
 * function (free with lspci_free()); on error returns a negative AE_*,
 * fills *e and leaves *d empty: no partial result.
 */
int lspci_parse(const char *buf, size_t len, struct lspci_dump *d,
		struct twin_err *e);
/* Read a file (at most LSPCI_MAX_BYTES, checked before reading it all;
 * "-" is standard input) and parse it. */
int lspci_load(const char *path, struct lspci_dump *d, struct twin_err *e);
void lspci_free(struct lspci_dump *d);

#endif
