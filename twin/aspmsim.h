/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The "aspmsim 1" scenario format (linux/simmod/README.md), which
 * linux/simmod/aspmsim.ko loads into a PCI domain of its own: one writer
 * for the simulator's scenarios (tests/xcheck) and the twin's.
 */
#ifndef ASPMCTL_TWIN_ASPMSIM_H
#define ASPMCTL_TWIN_ASPMSIM_H

#include <stdint.h>
#include "../pcie/cfg.h"
#include "../lib/fmt.h"

#define ASPMSIM_MAX_FN		64	/* functions the module takes per scenario */
#define ASPMSIM_MAX_NAME	47

struct aspmsim_fn {
	struct pci_addr addr;	/* segment 0 */
	const uint8_t *cfg;	/* 4096 bytes each */
	const uint8_t *rw;
	const uint8_t *w1c;
};

/* "aspmsim 1", "# " origin, "name", per function "fn" and every row that
 * is not all zero, "remove" (if not NULL), "end". Returns 0, or -AE_RANGE
 * (a segment other than 0), -AE_NOSPC (too many functions), -AE_INVAL
 * (name too long or empty) before writing anything. */
int aspmsim_write(const struct aspmsim_fn *fn, unsigned n, const char *name,
		  const char *origin, const char *remove, const struct out *o);

#endif
