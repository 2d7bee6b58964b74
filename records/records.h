/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The machine-readable records (docs/records.md): every kind is printed
 * here and only here, each in one shape. The QEMU matrix, the cross-check
 * and the twin's harnesses read them back through tests/lib/records.py.
 */
#ifndef ASPMCTL_RECORDS_RECORDS_H
#define ASPMCTL_RECORDS_RECORDS_H

#include <stdbool.h>
#include <stdint.h>
#include "../lib/fmt.h"
#include "../pcie/policy.h"

struct aspm_excl;
struct fadt_patch;	/* acpi/acpi.h */

/* A state set as its record word: "L0s,L1,L1.1", "none" when empty. */
void aspm_state_str(uint8_t state, char *buf, size_t size);

/* `fn`: one per function found. */
void rec_fn(const struct out *o, const struct pcie_topo *t);
/* `aspm link`, then `aspm ccc` (links whose Common Clock is written), then
 * `aspm target` (each function on both ends), for every link not removed. */
void rec_links(const struct out *o, const struct pcie_topo *t,
	       enum aspm_action act, const struct aspm_link_plan *lp);
/* `aspm write`: p's writes from index `from`, as planned or as made. */
void rec_writes(const struct out *o, const struct pcie_topo *t,
		const struct aspm_plan *p, unsigned from, bool applied);
/* `aspm decision`: the inputs and the action they give. */
void rec_decision(const struct out *o, const struct aspm_inputs *in,
		  bool fadt_valid, enum aspm_action act);
/* `aspm exclude`: each --disable rule, the links it reached, what it took. */
void rec_exclude(const struct out *o, const struct pcie_topo *t,
		 const struct aspm_excl *e, unsigned n, enum aspm_action act,
		 const struct aspm_link_plan *lp);
/* `aspm teardown`: function fn (on a link) removed; reconfigured: the
 * parent link configured again, -1 none. */
void rec_teardown(const struct out *o, const struct pcie_topo *t, int fn,
		  enum aspm_action act, bool dropped, unsigned written,
		  int reconfigured);
/* `aspm fn-link`: every PCIe function's LNKCAP and LNKCTL, decoded. */
void rec_fn_links(const struct out *o, const struct pcie_topo *t);

#define REC_NO_TIME	UINT64_MAX	/* enum_ns of a run that enumerates nothing */

/* `aspm stats`: a run's config-space accounting and times. */
struct rec_stats {
	uint64_t reads, writes, refused_writes, errors;
	unsigned written, ignored;
	uint64_t time_ns, enum_ns;
};
void rec_stats(const struct out *o, const struct rec_stats *s);
/* `aspm dump`: a config dump of nfn functions written to path. */
void rec_dump(const struct out *o, unsigned nfn, uint64_t reads, uint64_t writes,
	      uint64_t ns, const char *path);
/* `aspm fadt`: one FADT patched (or not) by the fadt command. */
void rec_fadt(const struct out *o, const struct fadt_patch *p);

/* The Secure Boot state: 1, 0, or -1 when not known. */
struct sb_state {
	int secure_boot;
	int setup_mode;
	int shim;		/* shim's SHIM_LOCK protocol is installed */
};
/* `aspm secureboot` */
void rec_secureboot(const struct out *o, const struct sb_state *s);

/* `aspm tries`: boot mode's counting; unconfirmed -1: not known (not
 * counted, or the counter could not be read). */
/* "aspm osc": one per host bridge the firmware's _OSC was asked for, then
 * "aspm osc-result" for the machine (acpi/aml/aml.h). */
struct osc_report;
void rec_osc(const struct out *o, const struct osc_report *r);
void rec_tries(const struct out *o, long long unconfirmed, unsigned limit,
	       const char *fallback);

/* The boot summary: the AspmctlSummary variable's text and its record. */
struct rec_summary {
	const char *version, *action, *next;	/* next NULL: "-" */
	unsigned links, written, ignored;
	uint64_t errors;
	int status;		/* 0 or the run's -AE_* */
	long long unconfirmed;	/* as `aspm tries` */
	unsigned tries;
	const char *fallback;
};
void rec_summary_text(char *buf, size_t size, const struct rec_summary *s);
/* `aspm summary TEXT` */
void rec_summary(const struct out *o, const char *text);

#endif
