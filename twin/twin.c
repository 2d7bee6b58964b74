// SPDX-License-Identifier: GPL-2.0-only
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "twin.h"
#include "aspmsim.h"
#include "../pcie/pci_regs.h"
#include "../lib/err.h"

static uint32_t key(struct pci_addr a)
{
	return (uint32_t)a.seg << 16 | (uint32_t)a.bus << 8 | a.devfn;
}

static const struct twin *sort_twin;

static int by_addr(const void *x, const void *y)
{
	uint32_t a = key(sort_twin->fn[*(const unsigned *)x].addr);
	uint32_t b = key(sort_twin->fn[*(const unsigned *)y].addr);

	return a < b ? -1 : a > b;
}

int twin_from_dump(struct twin *t, const struct lspci_dump *d)
{
	memset(t, 0, sizeof(*t));
	t->fn = calloc(d->nfn ? d->nfn : 1, sizeof(*t->fn));
	t->sorted = calloc(d->nfn ? d->nfn : 1, sizeof(*t->sorted));
	t->log = calloc(TWIN_LOG_MAX, sizeof(*t->log));
	if (!t->fn || !t->sorted || !t->log) {
		twin_free(t);
		return -AE_NOMEM;
	}
	for (unsigned i = 0; i < d->nfn; i++) {
		struct twin_fn *f = &t->fn[i];

		f->addr = d->fn[i].addr;
		f->known = d->fn[i].known;
		f->line = d->fn[i].line;
		f->caps = d->fn[i].caps;
		memcpy(f->cfg, d->fn[i].cfg, sizeof(f->cfg));
		f->all_ones = d->fn[i].all_ones;
		/* a function that did not answer has no writable bit */
		if (!f->all_ones)
			sem_derive(&(struct sem_fn){ f->cfg, f->rw, f->w1c }, &f->caps);
		t->sorted[i] = i;
	}
	t->nfn = d->nfn;
	sort_twin = t;
	qsort(t->sorted, t->nfn, sizeof(*t->sorted), by_addr);
	return 0;
}

/* The twin of a parsed dump (rc: the parser's result); frees the dump. */
static int built(struct twin *t, struct lspci_dump *d, int rc, struct twin_err *e)
{
	memset(t, 0, sizeof(*t));
	if (!rc && (rc = twin_from_dump(t, d))) {
		e->line = 0;
		e->code = rc;
		snprintf(e->msg, sizeof(e->msg), "out of memory");
	}
	lspci_free(d);
	return rc;
}

int twin_parse(struct twin *t, const char *buf, size_t len, struct twin_err *e)
{
	struct lspci_dump d;
	int rc = lspci_parse(buf, len, &d, e);

	return built(t, &d, rc, e);
}

int twin_load(struct twin *t, const char *path, struct twin_err *e)
{
	struct lspci_dump d;
	int rc = lspci_load(path, &d, e);

	return built(t, &d, rc, e);
}

void twin_free(struct twin *t)
{
	free(t->fn);
	free(t->sorted);
	free(t->log);
	memset(t, 0, sizeof(*t));
}

struct twin_fn *twin_find(const struct twin *t, struct pci_addr a)
{
	unsigned lo = 0, hi = t->nfn;
	uint32_t k = key(a);

	while (lo < hi) {
		unsigned mid = lo + (hi - lo) / 2;
		uint32_t m = key(t->fn[t->sorted[mid]].addr);

		if (m == k)
			return &t->fn[t->sorted[mid]];
		if (m < k)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static uint32_t peek(const struct twin_fn *f, unsigned off, unsigned width)
{
	return sem_peek(f->cfg, off, width);
}

/* Function 0 of a device is not in the dump, but another function of the
 * same device is: a dump that left it out (a bug report pastes the port
 * and its device), not a device without function 0, which hardware cannot
 * have (PCI r3.0 sec 6.2.1: a multi-function device implements function
 * 0). */
bool twin_fn0_not_dumped(const struct twin *t, struct pci_addr a)
{
	if (PCI_FUNC(a.devfn) != 0 || twin_find(t, a))
		return false;
	for (unsigned fn = 1; fn < 8; fn++) {
		struct pci_addr s = { a.seg, a.bus, (uint8_t)(a.devfn | fn) };

		if (twin_find(t, s))
			return true;
	}
	return false;
}

static int twin_read(void *ctx, struct pci_addr a, uint16_t off, unsigned width,
		     uint32_t *val)
{
	struct twin *t = ctx;
	const struct twin_fn *f = twin_find(t, a);

	t->reads++;
	*val = sem_all_ones(width);
	if (!f && twin_fn0_not_dumped(t, a)) {
		/* unknown, not absent: the scan probes the other functions */
		t->unknown_reads++;
		return -AE_NODATA;
	}
	if (!f) {
		t->absent_reads++;
		return 0;
	}
	if ((unsigned)off + width > f->known) {
		t->unknown_reads++;
		return -AE_NODATA;
	}
	*val = peek(f, off, width);
	return 0;
}

/* A write to an absent function goes nowhere (Unsupported Request); one
 * to a register the dump does not hold is refused, -AE_NODATA. */
static int twin_write(void *ctx, struct pci_addr a, uint16_t off, unsigned width,
		      uint32_t val)
{
	struct twin *t = ctx;
	struct twin_fn *f = twin_find(t, a);
	struct sem_write *w = t->nlog < TWIN_LOG_MAX ? &t->log[t->nlog++] : NULL;
	int rc = f && (unsigned)off + width > f->known ? -AE_NODATA : 0;

	t->writes++;
	if (!w)
		t->log_lost++;
	sem_logged_write(w, f ? &(struct sem_fn){ f->cfg, f->rw, f->w1c } : NULL,
			 f ? f->caps.pcie : 0, a, off, width, val, rc);
	return rc;
}

const struct pci_cfg_ops twin_cfg_ops = {
	.read = twin_read,
	.write = twin_write,
};

/* "OFF: xx xx ... xx" as lspci prints it (%02x, three digits from 0x100) */
static void put_row(const struct out *o, unsigned off, const uint8_t *b)
{
	static const char hex[] = "0123456789abcdef";
	char line[8 + 16 * 3 + 2];
	char *p = line + fmt_snprintf(line, 8, "%02x:", off);

	for (unsigned k = 0; k < 16; k++) {
		*p++ = ' ';
		*p++ = hex[b[k] >> 4];
		*p++ = hex[b[k] & 15];
	}
	*p++ = '\n';
	*p = '\0';
	out_puts(o, line);
}

void twin_write_lspci(const struct twin *t, const struct out *o)
{
	for (unsigned i = 0; i < t->nfn; i++) {
		const struct twin_fn *f = &t->fn[i];
		char b[16];

		out_printf(o, "%s Class %04x: Device %04x:%04x\n", pci_addr_str(f->addr, b),
			   (unsigned)peek(f, PCI_CLASS_DEVICE, 2),
			   (unsigned)peek(f, PCI_VENDOR_ID, 2), (unsigned)peek(f, PCI_DEVICE_ID, 2));
		for (unsigned off = 0; off < f->known; off += 16)
			put_row(o, off, f->cfg + off);
		out_puts(o, "\n");
	}
}

static int export_check(const struct twin *t, struct twin_err *e)
{
	char b[16];

	if (t->nfn > ASPMSIM_MAX_FN) {
		e->line = 0;
		e->code = -AE_NOSPC;
		snprintf(e->msg, sizeof(e->msg), "%u functions: a scenario holds at most %u",
			 t->nfn, ASPMSIM_MAX_FN);
		return e->code;
	}
	for (unsigned i = 0; i < t->nfn; i++) {
		const struct twin_fn *f = &t->fn[i];
		const char *why = f->addr.seg ? "is not in segment 0" :
				  f->known < PCI_CFG_SPACE_SIZE ?
				  "has only 64 bytes dumped (lspci -x): its capabilities are unknown" : NULL;

		if (why) {
			e->line = f->line;
			e->code = f->addr.seg ? -AE_RANGE : -AE_NODATA;
			snprintf(e->msg, sizeof(e->msg), "%s %s", pci_addr_str(f->addr, b), why);
			return e->code;
		}
	}
	return 0;
}

int twin_export_sim(const struct twin *t, const char *name, const struct out *o,
		    struct twin_err *e)
{
	struct aspmsim_fn *fn;
	uint8_t (*cfg)[SEM_CFG_SIZE];
	int rc;

	memset(e, 0, sizeof(*e));
	if ((rc = export_check(t, e)))
		return rc;
	fn = calloc(t->nfn ? t->nfn : 1, sizeof(*fn));
	cfg = calloc(t->nfn ? t->nfn : 1, sizeof(*cfg));
	rc = fn && cfg ? 0 : -AE_NOMEM;
	for (unsigned i = 0; !rc && i < t->nfn; i++) {
		const struct twin_fn *f = &t->fn[i];

		/* an extended space not in the dump goes out empty: no capabilities */
		memcpy(cfg[i], f->cfg, f->known);
		fn[i] = (struct aspmsim_fn){ f->addr, cfg[i], f->rw, f->w1c };
	}
	if (!rc)
		rc = aspmsim_write(fn, t->nfn, name, "generated by aspmctl's twin from an lspci dump; see docs/twin.md",
				   NULL, o);
	if (rc && !e->code) {
		e->code = rc;
		snprintf(e->msg, sizeof(e->msg), "cannot export: %s", err_str(rc));
	}
	free(fn);
	free(cfg);
	return rc;
}
