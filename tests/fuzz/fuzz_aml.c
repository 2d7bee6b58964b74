// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: the AML path (acpi/aml: ACPICA from the Linux 6.1
 * tree, aspmctl's OS services layer, the guarded operation regions and
 * osc_query()) over arbitrary tables.
 *
 * Input: a DSDT; if the bytes FUZZ_SEP occur in it, what comes before
 * them is the DSDT and what follows them an SSDT. Each table gets its
 * signature, its header Length set to its size (padded with zeros to the
 * 36 bytes of a header) and its checksum fixed, so the bytes reach the
 * interpreter instead of the table checks. Each lies in a buffer of its
 * exact size: ASan sees any read past it.
 *
 * The platform reads SystemMemory and PCI_Config as a pure function of
 * the address (a fake memory and a fake config space), so both read paths
 * run; writes and every other space are refused by acpi/aml itself.
 *
 * Invariants (abort on violation, so the fuzzer reports them): every
 * allocation of the interpreter is freed when osc_query() returns, and
 * never more than the budget is held; counts stay within their arrays and
 * strings are terminated; every write and every access to a space other
 * than SystemMemory and PCI_Config was refused; a refused access stopped
 * its evaluation (no bridge is granted by an evaluation that made one);
 * the machine's outcome is the one its bridges give (any denied: denied;
 * else any unknown, or no bridge counted: unknown; else granted, or
 * unknown "incomplete:" when memory or work ran out); a load
 * failure leaves the machine unknown with a reason.
 */
#define _GNU_SOURCE	/* memmem */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../../acpi/aml/aml.h"
#include "../../pcie/cfg.h"
#include "fuzz_check.h"
#define COUNT_HEAP_CHECK(cond) CHECK(cond)
#include "../lib/count_heap.h"

#define FUZZ_SEP	"--SSDT--"
#define FUZZ_MAX	(64u << 10)
#define FUZZ_MEM_BUDGET	(8u << 20)
#define FUZZ_LOOPS	2000u

/* a fake memory: the value is a function of the address; a few pages
 * read as absent */
static int f_mem_read(void *ctx, uint64_t phys, unsigned width, uint64_t *val)
{
	uint64_t v = phys * 0x9e3779b97f4a7c15ull;

	(void)ctx;
	if ((phys >> 12) % 7 == 3)
		return -1;
	if (width < 64)
		v &= (1ull << width) - 1;
	*val = v;
	return 0;
}

/* a fake config space: device 0 of every bus is an Intel host bridge,
 * the rest read all-ones; writes never reach it (CHECKed) */
static int f_cfg_read(void *ctx, struct pci_addr a, uint16_t off, unsigned width,
		      uint32_t *val)
{
	uint32_t v = 0xffffffffu;

	(void)ctx;
	if (a.devfn == 0)
		v = off < 4 ? 0x12378086u : (uint32_t)(off * 0x01010101u);
	if (width < 4)
		v = (v >> (8 * (off & 3))) & ((1u << (8 * width)) - 1);
	*val = v;
	return 0;
}

static int f_cfg_write(void *ctx, struct pci_addr a, uint16_t off, unsigned width,
		       uint32_t val)
{
	(void)ctx;
	(void)a;
	(void)off;
	(void)width;
	(void)val;
	CHECK(!"config write reached the platform");
	return -1;
}

/* FUZZ_PRINT=1: ACPICA's messages on stderr */
static void f_log(void *ctx, const char *line)
{
	(void)ctx;
	if (getenv("FUZZ_PRINT"))
		fprintf(stderr, "acpica: %s\n", line);
}

static const struct pci_cfg_ops f_cfg_ops = { f_cfg_read, f_cfg_write };

static void put_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

/* one table from the bytes: exact-size buffer, header fixed up */
static uint8_t *table(const uint8_t *d, size_t n, const char *sig, size_t *len)
{
	size_t size = n < 36 ? 36 : n;
	uint8_t *t = calloc(1, size), sum = 0;

	CHECK(t);
	memcpy(t, d, n);
	memcpy(t, sig, 4);
	put_le32(t + 4, (uint32_t)size);
	t[9] = 0;
	for (size_t i = 0; i < size; i++)
		sum = (uint8_t)(sum + t[i]);
	t[9] = (uint8_t)(0x100 - sum);
	*len = size;
	return t;
}

static void check_str(const char *s, size_t size)
{
	CHECK(memchr(s, 0, size) != NULL);
}

static bool is_read_space(uint8_t space)
{
	return space == 0 || space == 2;	/* SystemMemory, PCI_Config */
}

static void check_report(const struct osc_report *r, int rc)
{
	const struct osc_bridge *denied = NULL, *unknown = NULL;
	unsigned counted = 0;

	check_str(r->load_reason, sizeof(r->load_reason));
	check_str(r->machine_reason, sizeof(r->machine_reason));
	CHECK(r->nbridges <= OSC_MAX_BRIDGES);
	CHECK(r->naccess <= AML_MAX_ACCESSES && r->naccess <= r->naccess_total);
	CHECK(r->ntables <= 2);
	CHECK(r->mem_peak <= FUZZ_MEM_BUDGET);
	for (unsigned i = 0; i < r->naccess; i++) {
		const struct aml_access *a = &r->access[i];

		check_str(a->method, sizeof(a->method));
		if (a->write || !is_read_space(a->space))
			CHECK(a->refused);
	}
	if (rc) {
		CHECK(r->machine == OSC_OUT_UNKNOWN);
		CHECK(r->load_reason[0]);
		return;
	}
	for (unsigned i = 0; i < r->nbridges; i++) {
		const struct osc_bridge *b = &r->bridge[i];

		check_str(b->path, sizeof(b->path));
		check_str(b->hid, sizeof(b->hid));
		check_str(b->reason, sizeof(b->reason));
		CHECK(b->outcome <= OSC_OUT_SKIPPED);
		CHECK(b->queries <= 33);	/* one per bit dropped, and the first */
		if (b->outcome == OSC_OUT_GRANTED) {
			CHECK(b->has_osc && b->queries >= 1);
			/* granted: PCIe Capability control, or nothing at all */
			CHECK(!b->control || (b->control & OSC_PCI_EXPRESS_CAPABILITY_CONTROL));
		} else {
			CHECK(b->reason[0]);
		}
		if (b->outcome == OSC_OUT_SKIPPED)
			continue;
		counted++;
		if (b->outcome == OSC_OUT_DENIED && !denied)
			denied = b;
		if (b->outcome == OSC_OUT_UNKNOWN && !unknown)
			unknown = b;
	}
	if (denied)
		CHECK(r->machine == OSC_OUT_DENIED);
	else if (unknown || !counted)
		CHECK(r->machine == OSC_OUT_UNKNOWN && r->machine_reason[0]);
	else	/* granted, unless memory or work ran out somewhere */
		CHECK(r->machine == OSC_OUT_GRANTED ||
		      (r->machine == OSC_OUT_UNKNOWN &&
		       !strncmp(r->machine_reason, "incomplete:", 11)));
}

/* a granted bridge's _OSC evaluations made no refused access: the
 * evaluation that made one was stopped */
static void check_refusals(const struct osc_report *r)
{
	if (r->naccess != r->naccess_total)
		return;	/* not all recorded */
	for (unsigned i = 0; i < r->nbridges; i++) {
		const struct osc_bridge *b = &r->bridge[i];
		size_t n = strlen(b->path);
		char m[sizeof(r->access[0].method) + 8];

		if (b->outcome != OSC_OUT_GRANTED)
			continue;
		/* osc.c names the evaluation by the path's last 16 characters */
		snprintf(m, sizeof(m), "%s._OSC", n > 16 ? b->path + n - 16 : b->path);
		for (unsigned k = 0; k < r->naccess; k++)
			if (r->access[k].refused && !strcmp(r->access[k].method, m))
				CHECK(!"a granted bridge's _OSC made a refused access");
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct osc_report rep;
	struct count_heap h = { .fail_after = -1 };
	struct pci_cfg cfg;
	struct aml_platform p = {
		.alloc = count_heap_alloc, .free = count_heap_free, .mem_read = f_mem_read, .cfg = &cfg,
		.log = f_log, .ctx = &h, .mem_budget = FUZZ_MEM_BUDGET, .loop_budget = FUZZ_LOOPS,
	};
	struct aml_table t[2];
	uint8_t *dsdt, *ssdt = NULL;
	const uint8_t *sep;
	size_t dlen = size;
	unsigned n = 1;
	int rc;

	if (size > FUZZ_MAX)
		return 0;
	pci_cfg_init(&cfg, &f_cfg_ops, NULL);
	cfg.read_only = true;
	sep = size >= sizeof(FUZZ_SEP) - 1 ?
		memmem(data, size, FUZZ_SEP, sizeof(FUZZ_SEP) - 1) : NULL;
	if (sep)
		dlen = (size_t)(sep - data);
	dsdt = table(data, dlen, "DSDT", &t[0].len);
	t[0].data = dsdt;
	if (sep) {
		size_t off = dlen + sizeof(FUZZ_SEP) - 1;

		ssdt = table(data + off, size - off, "SSDT", &t[1].len);
		t[1].data = ssdt;
		n = 2;
	}
	rc = osc_query(t, n, &p, NULL, &rep);
	if (getenv("FUZZ_PRINT"))
		fprintf(stderr, "live=%zu bytes=%zu allocs=%lu frees=%lu\n", h.live, h.bytes, h.allocs, h.frees);
	CHECK(h.live == 0 && h.bytes == 0);	/* everything given back */
	CHECK(h.peak <= FUZZ_MEM_BUDGET);
	CHECK(cfg.writes == 0);
	check_report(&rep, rc);
	if (!rc)
		check_refusals(&rep);
	if (getenv("FUZZ_PRINT")) {
		char ctl[96];

		fprintf(stderr, "rc=%d tables=%u bridges=%u accesses=%u machine=%s reason=%s load=%s peak=%zu allocs=%lu\n",
			rc, rep.ntables, rep.nbridges, rep.naccess_total,
			osc_outcome_name(rep.machine), rep.machine_reason, rep.load_reason,
			h.peak, h.allocs);
		for (unsigned i = 0; i < rep.nbridges; i++)
			fprintf(stderr, "  %s %s %s reason=%s control=%s queries=%u\n",
				rep.bridge[i].path, rep.bridge[i].hid,
				osc_outcome_name(rep.bridge[i].outcome), rep.bridge[i].reason,
				osc_control_str(rep.bridge[i].control, ctl, sizeof(ctl)),
				rep.bridge[i].queries);
	}
	free(ssdt);
	free(dsdt);
	return 0;
}
