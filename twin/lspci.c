// SPDX-License-Identifier: GPL-2.0-only
/*
 * lspci's dump text into functions, strictly: where pciutils' reader
 * (lib/dump.c) skips a line it does not understand or keeps whatever
 * prefix of a function it got, this one stops with the line at fault,
 * because a twin built from half a function would answer for registers
 * nobody dumped. Grammar and decisions: docs/twin.md.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "lspci.h"
#include "../lib/util.h"
#include "../pcie/pci_regs.h"
#include "../lib/err.h"

struct parser {
	const char *s;		/* current line, not terminated */
	size_t n;		/* its length */
	unsigned line;
	unsigned blank_line;	/* the last blank line, 0 if none yet */
	struct lspci_dump *d;
	int cur;		/* index of the open function, -1 if none */
	unsigned next_off;	/* the offset its next row must have */
	unsigned row_line[SEM_CFG_SIZE / 16];
	struct twin_err *e;
};

__attribute__((format(printf, 4, 5)))
static int fail(struct twin_err *e, unsigned line, int code, const char *fmt, ...)
{
	va_list ap;

	e->line = line;
	e->code = code;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	return code;
}

/* Number of hex digits at s (at most max + 1 are looked at). */
static unsigned hex_run(const char *s, size_t n, unsigned max)
{
	unsigned k = 0;

	while (k < n && k <= max && hex_digit(s[k]) >= 0)
		k++;
	return k;
}

static unsigned hex_num(const char *s, unsigned k)
{
	unsigned v = 0;

	for (unsigned i = 0; i < k; i++)
		v = v << 4 | (unsigned)hex_digit(s[i]);
	return v;
}

/*
 * "BB:DD.F" or "DDDD:BB:DD.F" (4 or 5 domain digits, as lib/dump.c
 * takes), then the end of the line or a blank: returns 1 and *a, 0 when
 * the line has another shape, or an error (fields out of range).
 */
static int parse_header(struct parser *p, struct pci_addr *a)
{
	const char *s = p->s;
	size_t n = p->n;
	unsigned k = hex_run(s, n, 5), dom = 0, dev, fn;

	if ((k == 4 || k == 5) && k < n && s[k] == ':') {
		dom = hex_num(s, k);
		s += k + 1;
		n -= k + 1;
	}
	if (n < 7 || hex_run(s, n, 2) != 2 || s[2] != ':' || hex_run(s + 3, n - 3, 2) != 2 ||
	    s[5] != '.' || s[6] < '0' || s[6] > '9' || (n > 7 && s[7] != ' ' && s[7] != '\t'))
		return 0;
	dev = hex_num(s + 3, 2);
	fn = (unsigned)(s[6] - '0');
	if (dom > 0xffff)
		return fail(p->e, p->line, -AE_RANGE, "domain %x does not fit a 16-bit PCI segment",
			    dom);
	if (dev > 0x1f || fn > 7)
		return fail(p->e, p->line, -AE_RANGE, "device %02x function %u out of range (00-1f, 0-7)",
			    dev, fn);
	a->seg = (uint16_t)dom;
	a->bus = (uint8_t)hex_num(s, 2);
	a->devfn = PCI_DEVFN(dev, fn);
	return 1;
}

static bool is_row(const struct parser *p)
{
	unsigned k = hex_run(p->s, p->n, 8);

	return k >= 1 && k <= 8 && k < p->n && p->s[k] == ':' &&
	       (k + 1 == p->n || p->s[k + 1] == ' ');
}

/* The 16 bytes of a row: " xx" sixteen times, nothing after. */
static int row_bytes(struct parser *p, const char *q, const char *end, uint8_t *b)
{
	unsigned nb = 0;

	while (q < end) {
		if (nb == 16)
			return fail(p->e, p->line, -AE_INVAL, "more than 16 bytes in a row");
		if (*q != ' ')
			return fail(p->e, p->line, -AE_INVAL, "byte %u is not preceded by one space",
				    nb);
		q++;
		if (end - q < 2 || hex_digit(q[0]) < 0 || hex_digit(q[1]) < 0 ||
		    (end - q > 2 && q[2] != ' '))
			return fail(p->e, p->line, -AE_INVAL, "byte %u ('%.*s') is not two hex digits",
				    nb, (int)(end - q < 3 ? end - q : 3), q);
		b[nb++] = (uint8_t)hex_num(q, 2);
		q += 2;
	}
	if (nb < 16)
		return fail(p->e, p->line, -AE_INVAL, "%u bytes in the row, not 16 (truncated line?)",
			    nb);
	return 0;
}

static int parse_row(struct parser *p)
{
	unsigned k = hex_run(p->s, p->n, 8), off = hex_num(p->s, k);
	struct lspci_fn *f;
	uint8_t b[16];
	int rc;

	if (p->cur < 0 && !p->d->nfn)
		return fail(p->e, p->line, -AE_INVAL, "data row before any function header");
	if (p->cur < 0)
		return fail(p->e, p->line, -AE_INVAL,
			    "data row outside a function (the blank line %u ended the last one)",
			    p->blank_line);
	if (k > 4 || off >= SEM_CFG_SIZE)
		return fail(p->e, p->line, -AE_RANGE, "offset %.*s is beyond 4 KiB of config space",
			    (int)k, p->s);
	if (off % 16)
		return fail(p->e, p->line, -AE_INVAL, "offset 0x%x is not a multiple of 16", off);
	if (off != p->next_off)
		return fail(p->e, p->line, -AE_INVAL,
			    "offset 0x%x where 0x%x was expected (rows out of order, missing or repeated)",
			    off, p->next_off);
	rc = row_bytes(p, p->s + k + 1, p->s + p->n, b);
	if (rc)
		return rc;
	f = &p->d->fn[p->cur];
	memcpy(f->cfg + off, b, 16);
	p->row_line[off / 16] = p->line;
	p->next_off = off + 16;
	return 0;
}

static int open_fn(struct parser *p, struct pci_addr a)
{
	struct lspci_dump *d = p->d;
	char b[16];

	for (unsigned i = 0; i < d->nfn; i++)
		if (pci_addr_eq(d->fn[i].addr, a))
			return fail(p->e, p->line, -AE_EXIST, "%s is already at line %u",
				    pci_addr_str(a, b), d->fn[i].line);
	if (d->nfn == LSPCI_MAX_FN)
		return fail(p->e, p->line, -AE_NOSPC, "more than %u functions", LSPCI_MAX_FN);
	if (d->nfn == d->cap) {
		unsigned cap = d->cap ? 2 * d->cap : 16;
		struct lspci_fn *fn = realloc(d->fn, cap * sizeof(*fn));

		if (!fn)
			return fail(p->e, p->line, -AE_NOMEM, "out of memory");
		d->fn = fn;
		d->cap = cap;
	}
	p->cur = (int)d->nfn++;
	memset(&d->fn[p->cur], 0, sizeof(d->fn[p->cur]));
	memset(d->fn[p->cur].cfg, 0xff, sizeof(d->fn[p->cur].cfg));
	d->fn[p->cur].addr = a;
	d->fn[p->cur].line = p->line;
	p->next_off = 0;
	return 0;
}

/* The end of a function's rows: a size lspci prints, a present function,
 * capability lists that can be walked. */
static int close_fn(struct parser *p)
{
	struct lspci_fn *f;
	struct sem_fault flt;
	unsigned last;
	char b[16];

	if (p->cur < 0)
		return 0;
	f = &p->d->fn[p->cur];
	p->cur = -1;
	pci_addr_str(f->addr, b);
	if (!p->next_off)
		return fail(p->e, f->line, -AE_NODATA,
			    "%s has no config bytes (a listing without -x?)", b);
	last = p->row_line[p->next_off / 16 - 1];
	if (p->next_off != 64 && p->next_off != 256 && p->next_off != SEM_CFG_SIZE)
		return fail(p->e, last, -AE_MSGSIZE,
			    "%s ends after 0x%x bytes; a dump holds 64, 256 or 4096 (lspci -x, -xxx, -xxxx): truncated?",
			    b, p->next_off);
	f->known = p->next_off;
	f->bus_line = p->row_line[PCI_PRIMARY_BUS / 16];
	/* lspci prints a function that did not answer (a GPU's audio function
	 * in D3cold, say) as all-ones: it is named, and reads as absent */
	f->all_ones = f->cfg[0] == 0xff && f->cfg[1] == 0xff;
	if (f->all_ones)
		return 0;
	if (sem_find_caps(f->cfg, f->known, &f->caps, &flt))
		return fail(p->e, p->row_line[flt.off / 16], -AE_INVAL, "%s: %s", b, flt.msg);
	return 0;
}

/*
 * Bus numbers (PCI-to-PCI Bridge r1.2 sec 3.2.5.3-5) of the type 1
 * functions of one segment: a secondary bus above the bridge's own, a
 * subordinate bus not below it, and two ranges disjoint unless one
 * bridge sits inside the other's range (then its range is nested). A
 * bridge with 0 for both is not configured and claims nothing.
 */
static bool bridge_range(const struct lspci_fn *f, unsigned *sec, unsigned *sub)
{
	if ((f->cfg[PCI_HEADER_TYPE] & PCI_HEADER_TYPE_MASK) != PCI_HEADER_TYPE_BRIDGE)
		return false;
	*sec = f->cfg[PCI_SECONDARY_BUS];
	*sub = f->cfg[PCI_SUBORDINATE_BUS];
	return *sec || *sub;
}

static bool inside(const struct lspci_fn *f, unsigned sec, unsigned sub)
{
	return f->addr.bus >= sec && f->addr.bus <= sub;
}

static int check_pair(struct twin_err *e, const struct lspci_fn *a,
		      const struct lspci_fn *b)
{
	unsigned as, au, bs, bu;
	char x[16], y[16];

	if (a->addr.seg != b->addr.seg || !bridge_range(a, &as, &au) ||
	    !bridge_range(b, &bs, &bu) || au < bs || bu < as)
		return 0;
	if ((bs >= as && bu <= au && inside(b, as, au) && !inside(a, bs, bu)) ||
	    (as >= bs && au <= bu && inside(a, bs, bu) && !inside(b, as, au)))
		return 0;
	return fail(e, b->bus_line, -AE_EXIST,
		    "bus range %02x-%02x of bridge %s overlaps %02x-%02x of bridge %s (line %u)",
		    bs, bu, pci_addr_str(b->addr, x), as, au, pci_addr_str(a->addr, y), a->line);
}

static int check_bridges(const struct lspci_dump *d, struct twin_err *e)
{
	for (unsigned i = 0; i < d->nfn; i++) {
		const struct lspci_fn *f = &d->fn[i];
		unsigned sec, sub;
		char b[16];

		if (!bridge_range(f, &sec, &sub))
			continue;
		if (sec <= f->addr.bus)
			return fail(e, f->bus_line, -AE_LOOP,
				    "bridge %s on bus %02x has secondary bus %02x: a bus-number loop",
				    pci_addr_str(f->addr, b), f->addr.bus, sec);
		if (sub < sec)
			return fail(e, f->bus_line, -AE_RANGE,
				    "bridge %s has subordinate bus %02x below its secondary bus %02x",
				    pci_addr_str(f->addr, b), sub, sec);
		for (unsigned k = 0; k < i; k++)
			if (check_pair(e, &d->fn[k], f))
				return e->code;
	}
	return 0;
}

/* One line, without its end of line ("\n" or "\r\n") and trailing blanks. */
static int parse_line(struct parser *p)
{
	struct pci_addr a = { 0, 0, 0 };
	int rc;

	while (p->n && (p->s[p->n - 1] == ' ' || p->s[p->n - 1] == '\t'))
		p->n--;
	if (!p->n) {
		p->blank_line = p->line;
		return close_fn(p);
	}
	if (p->s[0] == ' ' || p->s[0] == '\t') {
		/* lspci -v's decoded text, between a header and its rows */
		if (p->cur >= 0)
			return 0;
		return fail(p->e, p->line, -AE_INVAL, "indented text outside a function");
	}
	rc = parse_header(p, &a);
	if (rc < 0)
		return rc;
	if (rc)
		return close_fn(p) ? p->e->code : open_fn(p, a);
	if (is_row(p))
		return parse_row(p);
	if (p->s[0] == '#')
		return 0;	/* a comment, as an annotated dump has */
	return fail(p->e, p->line, -AE_INVAL,
		    "neither a function header ([DDDD:]BB:DD.F ...) nor a row (OFF: 16 hex bytes): \"%.*s%s\"",
		    (int)(p->n > 24 ? 24 : p->n), p->s, p->n > 24 ? "..." : "");
}

static int parse_lines(struct parser *p, const char *buf, size_t len)
{
	size_t at = 0;
	int rc = 0;

	while (at < len && !rc) {
		const char *nl = memchr(buf + at, '\n', len - at);
		size_t n = nl ? (size_t)(nl - (buf + at)) : len - at;

		p->line++;
		p->s = buf + at;
		p->n = n;
		at += n + (nl ? 1 : 0);
		if (n && p->s[n - 1] == '\r')
			p->n--;
		if (memchr(p->s, '\0', p->n))
			return fail(p->e, p->line, -AE_INVAL, "NUL byte: not a text dump");
		if (p->n > LSPCI_MAX_LINE)
			return fail(p->e, p->line, -AE_2BIG, "line longer than %u characters",
				    LSPCI_MAX_LINE);
		rc = parse_line(p);
	}
	return rc ? rc : close_fn(p);
}

int lspci_parse(const char *buf, size_t len, struct lspci_dump *d,
		struct twin_err *e)
{
	struct parser *p;
	int rc;

	memset(d, 0, sizeof(*d));
	memset(e, 0, sizeof(*e));
	if (len > LSPCI_MAX_BYTES)
		return fail(e, 0, -AE_2BIG, "%zu bytes: more than the %u MiB a dump may have",
			    len, LSPCI_MAX_BYTES >> 20);
	p = calloc(1, sizeof(*p));
	if (!p)
		return fail(e, 0, -AE_NOMEM, "out of memory");
	p->d = d;
	p->e = e;
	p->cur = -1;
	rc = parse_lines(p, buf, len);
	if (!rc && !d->nfn)
		rc = fail(e, p->line ? p->line : 1, -AE_NOENT, "no function in the dump");
	if (!rc)
		rc = check_bridges(d, e);
	free(p);
	if (rc)
		lspci_free(d);
	return rc;
}

void lspci_free(struct lspci_dump *d)
{
	free(d->fn);
	memset(d, 0, sizeof(*d));
}

/* At most LSPCI_MAX_BYTES + 1 bytes of f into *buf (the +1 tells "too
 * large" for a pipe, whose size is not known before). */
static int read_all(FILE *f, char **buf, size_t *len, struct twin_err *e)
{
	size_t cap = 1 << 16, n = 0;
	char *b = malloc(cap);

	while (b) {
		size_t got;

		if (n == cap) {
			char *nb = cap > LSPCI_MAX_BYTES ? NULL : realloc(b, cap * 2);

			if (!nb)
				break;
			b = nb;
			cap *= 2;
		}
		got = fread(b + n, 1, cap - n < LSPCI_MAX_BYTES + 1 - n ? cap - n : LSPCI_MAX_BYTES + 1 - n, f);
		n += got;
		if (!got || n > LSPCI_MAX_BYTES) {
			if (ferror(f)) {
				free(b);
				return fail(e, 0, -AE_IO, "read error");
			}
			*buf = b;
			*len = n;
			return 0;
		}
	}
	free(b);
	return fail(e, 0, -AE_NOMEM, "out of memory");
}

int lspci_load(const char *path, struct lspci_dump *d, struct twin_err *e)
{
	bool std = !strcmp(path, "-");
	FILE *f = std ? stdin : fopen(path, "rb");
	struct stat st;
	char *buf = NULL;
	size_t len = 0;
	int rc;

	memset(d, 0, sizeof(*d));
	memset(e, 0, sizeof(*e));
	if (!f)
		return fail(e, 0, -AE_NOENT, "cannot open: %s", strerror(errno));
	if (!fstat(fileno(f), &st) && S_ISREG(st.st_mode) &&
	    (uint64_t)st.st_size > LSPCI_MAX_BYTES)
		rc = fail(e, 0, -AE_2BIG, "%llu bytes: more than the %u MiB a dump may have",
			  (unsigned long long)st.st_size, LSPCI_MAX_BYTES >> 20);
	else
		rc = read_all(f, &buf, &len, e);
	if (!std)
		fclose(f);
	if (!rc)
		rc = lspci_parse(buf, len, d, e);
	free(buf);
	return rc;
}
