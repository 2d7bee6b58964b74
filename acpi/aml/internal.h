/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What acpi/aml/osl.c (ACPICA's OS services), region.c (the guarded
 * operation regions) and osc.c (the query) share: one interpreter session
 * at a time, as ACPICA itself is one global interpreter.
 */
#ifndef ASPMCTL_ACPI_AML_INTERNAL_H
#define ASPMCTL_ACPI_AML_INTERNAL_H

#include "acpi/aml/aml.h"

#define AML_MAX_BLOBS	40	/* the synthetic root, FADT, DSDT, SSDTs */

struct aml_blob {
	const uint8_t *p;
	size_t len;
};

struct aml_session {
	const struct aml_platform *plat;
	struct osc_report *out;
	size_t mem_used, mem_peak, mem_budget;
	struct aml_block *live;		/* every block held (osl.c) */
	unsigned long leaked;		/* blocks ACPICA left behind */
	/* virtual clock, 100 ns units: advanced on every look at it */
	uint64_t clock;
	uint64_t clock_step;
	uint64_t eval_ticks, eval_budget;	/* looks at it in this evaluation */
	uint64_t eval_work, work_budget;	/* objects it acquired (osl.c) */
	/* memory ACPICA may map: the tables we handed it */
	unsigned nblobs;
	struct aml_blob blob[AML_MAX_BLOBS];
	uint64_t rsdp;
	/* the evaluation under way and why it was stopped */
	char method[24];
	unsigned accesses;
	bool in_region;			/* region.c's handler is reading */
	/* the first time memory or the work budget ran out, anywhere in the
	 * query: what ACPICA then skipped (a table's rest, a device whose
	 * info it could not get) is not known, so nothing may be granted */
	char starved[OSC_REASON_MAX];
	bool aborted;
	char abort_reason[OSC_REASON_MAX];
};

/* osl.c: the session ACPICA's callbacks see (NULL outside osc_query) */
extern struct aml_session *aml_cur;

void aml_session_begin_eval(struct aml_session *s, const char *method);
/* osl.c: free every block still held; how many there were */
unsigned long aml_free_all(struct aml_session *s);
/* region.c: install the guarded handlers on every address space */
int aml_install_region_guards(void);
/* record one access (region.c, osl.c's port and memory services) */
void aml_record(struct aml_session *s, uint8_t space, bool write, bool refused,
		unsigned width, uint64_t addr, uint64_t value);
void aml_abort(struct aml_session *s, const char *reason);
/* region.c: a PCI_Config access as one number for the record
 * (seg<<48 | bus<<40 | dev<<35 | fn<<32 | offset) */
uint64_t aml_pci_record_addr(unsigned seg, unsigned bus, unsigned dev, unsigned fn,
			     uint64_t off);
/* osl.c: memory or work refused; stops the evaluation and marks the query */
void aml_starve(struct aml_session *s, const char *reason);

#endif
