/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Driving the policy engine the way the app does (enumerate, then
 * aspm_run() with caller-provided storage) and checking what the
 * simulator saw: the exact write log, the final registers and the
 * records the run printed.
 */
#ifndef ASPMCTL_TESTS_UNIT_POLICY_FIXTURE_H
#define ASPMCTL_TESTS_UNIT_POLICY_FIXTURE_H

#include <stdio.h>
#include "fixture.h"
#include "../../pcie/run.h"
#include "../../pcie/link.h"
#include "../../lib/util.h"
#include "../sim/platforms.h"

#define PFX_MAX_WRITES	512
#define PFX_MAX_LINKS	256	/* = fx topo.cap_link */
#define PFX_OUT_SIZE	(64 * 1024)

/* Link Control bits, short */
#define LK_L0S		PCI_EXP_LNKCTL_ASPM_L0S
#define LK_L1		PCI_EXP_LNKCTL_ASPM_L1
#define LK_CCC		PCI_EXP_LNKCTL_CCC
#define LK_RL		PCI_EXP_LNKCTL_RL
#define LK_CLKREQ	PCI_EXP_LNKCTL_CLKREQ_EN

struct pfx {
	struct fx *fx;
	struct sim *sim;
	struct aspm_run run;
	struct aspm_write *w;
	struct aspm_link_plan *lp;
	char *text;		/* records of the last run */
	struct out_buf ob;
	struct out out;
};

static inline struct pfx *pfx_new(void)
{
	struct pfx *p = calloc(1, sizeof(*p));

	p->fx = fx_new();
	p->sim = p->fx->sim;
	p->w = calloc(PFX_MAX_WRITES, sizeof(*p->w));
	p->lp = calloc(PFX_MAX_LINKS, sizeof(*p->lp));
	p->text = calloc(1, PFX_OUT_SIZE);
	return p;
}

static inline void pfx_free(struct pfx *p)
{
	fx_free(p->fx);
	free(p->w);
	free(p->lp);
	free(p->text);
	free(p);
}

/* A machine of tests/sim/platforms.c, enumerated, with nlink links. */
static inline struct pfx *pfx_platform(void (*build)(struct sim *s), unsigned nlink)
{
	struct pfx *p = pfx_new();

	build(p->sim);
	assert_int_equal(fx_enum(p->fx), 0);
	assert_int_equal(p->fx->topo.nlink, nlink);
	return p;
}

/* The laptop-like machine of sim_platform_laptop(), enumerated (4 links). */
static inline struct pfx *pfx_laptop(void)
{
	return pfx_platform(sim_platform_laptop, 4);
}

static inline struct aspm_inputs pfx_in(bool fadt_no_aspm, bool osc_granted,
					enum aspm_override o,
					enum aspm_fadt_mode m)
{
	return (struct aspm_inputs){ .fadt_no_aspm = fadt_no_aspm,
				     .osc_granted = osc_granted,
				     .override = o, .fadt_mode = m };
}

/* --policy X with a FADT that allows ASPM and _OSC granted */
static inline struct aspm_inputs pfx_policy(enum aspm_override o)
{
	return pfx_in(false, true, o, FADT_MODE_NOTOUCH);
}

/* Set up r (fresh storage, fresh output) without running it. */
static inline struct aspm_run *pfx_prepare(struct pfx *p, enum aspm_cmd cmd,
					   struct aspm_inputs in)
{
	struct aspm_run *r = &p->run;

	memset(r, 0, sizeof(*r));
	r->cmd = cmd;
	r->in = in;
	r->fadt_valid = true;
	r->topo = &p->fx->topo;
	r->plan.w = p->w;
	r->plan.cap = PFX_MAX_WRITES;
	r->lp = p->lp;
	r->env = NULL;		/* no delays on the host */
	out_buf_init(&p->out, &p->ob, p->text, PFX_OUT_SIZE);
	return r;
}

static inline int pfx_run(struct pfx *p, enum aspm_cmd cmd, struct aspm_inputs in)
{
	pfx_prepare(p, cmd, in);
	return aspm_run(&p->fx->cfg, &p->run, &p->out);
}

static inline int pfx_remove(struct pfx *p, struct aspm_inputs in,
			     struct pci_addr a, bool apply)
{
	struct aspm_run *r = pfx_prepare(p, CMD_REMOVE, in);

	r->remove = a;
	r->remove_apply = apply;
	return aspm_run(&p->fx->cfg, r, &p->out);
}

static inline struct sim_fn *pfx_sfn(struct pfx *p, uint8_t bus, uint8_t dev,
				     uint8_t fn)
{
	struct sim_fn *f = sim_find(p->sim, A(bus, dev, fn));

	if (!f)
		fail_msg("no simulated function %02x:%02x.%x", bus, dev, fn);
	return f;
}

static inline uint16_t pfx_lnkctl(struct pfx *p, uint8_t bus, uint8_t dev,
				  uint8_t fn)
{
	return sim_lnkctl(p->sim, A(bus, dev, fn));
}

static inline uint32_t pfx_l1ss_ctl1(struct pfx *p, uint8_t bus, uint8_t dev,
				     uint8_t fn)
{
	struct sim_fn *f = pfx_sfn(p, bus, dev, fn);

	assert_true(f->l1ss != 0);
	return sim_peek(f, f->l1ss + PCI_L1SS_CTL1, 4);
}

/* ------------------------------------------------------------ write log */

enum { XW_LNKCTL, XW_L1SS };
struct xw {
	struct pci_addr a;
	uint8_t reg;		/* XW_* */
	uint32_t val;		/* as written */
};
#define XLC(b, d, f, v)	{ { 0, (b), PCI_DEVFN((d), (f)) }, XW_LNKCTL, (v) }
#define XSS(b, d, f, v)	{ { 0, (b), PCI_DEVFN((d), (f)) }, XW_L1SS, (v) }

static inline void pfx_dump_log(const struct sim *s, char *buf, size_t size)
{
	size_t n = 0;
	char b[16];

	buf[0] = '\0';
	for (unsigned i = 0; i < s->nlog && n + 1 < size; i++) {
		const struct sem_write *w = &s->log[i];
		int k = snprintf(buf + n, size - n,
				 "  %2u: %s off=0x%03x w=%u val=0x%08x before=0x%08x after=0x%08x\n",
				 i, pci_addr_str(w->a, b), w->off, w->width, w->val,
				 w->before, w->after);

		if (k < 0)
			break;
		n += (size_t)k;
	}
}

/* The simulator's log from index `from` must be exactly x[0..n). */
static inline void pfx_check_log(struct pfx *p, unsigned from, const struct xw *x,
				 unsigned n, const char *file, int line)
{
	static char dump[16384];
	const struct sim *s = p->sim;
	char b[16];

	if (s->nlog != from + n) {
		pfx_dump_log(s, dump, sizeof(dump));
		fail_msg("%s:%d: %u writes from #%u, expected %u; log:\n%s",
			 file, line, s->nlog - from, from, n, dump);
	}
	for (unsigned i = 0; i < n; i++) {
		const struct sem_write *w = &s->log[from + i];
		struct sim_fn *f = sim_find(p->sim, x[i].a);
		uint16_t off;
		unsigned width;

		if (!f)
			fail_msg("%s:%d: expected write %u names an absent function", file, line, i);
		off = x[i].reg == XW_LNKCTL ? (uint16_t)(f->pcie + PCI_EXP_LNKCTL) :
					      (uint16_t)(f->l1ss + PCI_L1SS_CTL1);
		width = x[i].reg == XW_LNKCTL ? 2 : 4;
		if (!pci_addr_eq(w->a, x[i].a) || w->off != off || w->width != width ||
		    w->val != x[i].val) {
			pfx_dump_log(s, dump, sizeof(dump));
			fail_msg("%s:%d: write #%u: expected %s off=0x%03x w=%u val=0x%08x; log:\n%s",
				 file, line, from + i, pci_addr_str(x[i].a, b), off, width,
				 x[i].val, dump);
		}
	}
}

#define assert_log_writes(p, from, ...) do {				\
	const struct xw xw_[] = { __VA_ARGS__ };					\
	pfx_check_log((p), (from), xw_, ARRAY_SIZE(xw_), __FILE__, __LINE__); \
} while (0)

#define assert_no_writes(p) do {					\
	if ((p)->sim->nlog || (p)->fx->cfg.writes) {			\
		static char d_[16384];					\
		pfx_dump_log((p)->sim, d_, sizeof(d_));			\
		fail_msg("%u simulator writes, %llu cfg writes; log:\n%s", \
			 (p)->sim->nlog,				\
			 (unsigned long long)(p)->fx->cfg.writes, d_);	\
	}								\
} while (0)

/* ------------------------------------------------------------ records */

/* Lines of text starting with prefix, copied (NUL-separated) into out;
 * returns how many. */
static inline unsigned pfx_lines(const char *text, const char *prefix,
				 const char **line, unsigned max, char *store,
				 size_t size)
{
	size_t plen = strlen(prefix), used = 0;
	unsigned n = 0;

	for (const char *s = text; *s;) {
		const char *e = strchr(s, '\n');
		size_t len = e ? (size_t)(e - s) : strlen(s);

		if (len >= plen && !strncmp(s, prefix, plen) && n < max &&
		    used + len + 1 <= size) {
			memcpy(store + used, s, len);
			store[used + len] = '\0';
			line[n++] = store + used;
			used += len + 1;
		}
		s += len + (e ? 1 : 0);
	}
	return n;
}

/* Every line of the last run's records that starts with prefix must be,
 * in order, exactly exp[0..n). */
static inline void pfx_check_lines(struct pfx *p, const char *prefix,
				   const char *const *exp, unsigned n,
				   const char *file, int line)
{
	static char store[PFX_OUT_SIZE];
	static const char *got[1024];
	unsigned k = pfx_lines(p->text, prefix, got, 1024, store, sizeof(store));

	if (k != n)
		fail_msg("%s:%d: %u \"%s\" lines, expected %u; records:\n%s",
			 file, line, k, prefix, n, p->text);
	for (unsigned i = 0; i < n; i++)
		if (strcmp(got[i], exp[i]))
			fail_msg("%s:%d: \"%s\" line %u:\n  got      %s\n  expected %s\nrecords:\n%s",
				 file, line, prefix, i, got[i], exp[i], p->text);
}

#define assert_lines(p, prefix, ...) do {				\
	const char *const l_[] = { __VA_ARGS__ };				\
	pfx_check_lines((p), (prefix), l_, ARRAY_SIZE(l_), __FILE__, __LINE__); \
} while (0)

#define assert_no_lines(p, prefix)					\
	pfx_check_lines((p), (prefix), NULL, 0, __FILE__, __LINE__)

/* One exact line somewhere in the records. */
#define assert_record(p, l) do {					\
	const char *t_ = (p)->text, *h_ = t_;				\
	size_t n_ = strlen(l);						\
	bool ok_ = false;						\
	while ((h_ = strstr(h_, (l))) != NULL) {			\
		if ((h_ == t_ || h_[-1] == '\n') &&			\
		    (h_[n_] == '\n' || h_[n_] == '\0')) {		\
			ok_ = true;					\
			break;						\
		}							\
		h_++;							\
	}								\
	if (!ok_)							\
		fail_msg("records lack the line\n  %s\nrecords:\n%s", (l), t_); \
} while (0)

#endif
