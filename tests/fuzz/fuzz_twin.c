// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: the digital twin's lspci dump parser (twin/lspci.c)
 * and the twin built from what it accepts.
 *
 * Input: the dump text itself.
 *
 * Invariants (abort on violation, so the fuzzer reports them): a refusal
 * carries a code, a message and a line within the input; a success
 * yields at most LSPCI_MAX_FN functions of 64, 256 or 4096 bytes with
 * distinct addresses, which the writer prints and the parser reads back
 * to the same addresses, sizes and bytes; through the twin's config
 * ops, a read beyond a function's known bytes fails with -AE_NODATA, a
 * write of all-ones to Link Control changes only writable bits (and a
 * Retrain Link bit a dump shows set) and leaves Retrain Link reading 0.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../../twin/twin.h"
#include "../../pcie/pci_regs.h"
#include "../../lib/err.h"
#include "fuzz_check.h"

static char text[8 << 20];

static unsigned count_lines(const uint8_t *p, size_t n)
{
	unsigned lines = 0;

	for (size_t i = 0; i < n; i++)
		lines += p[i] == '\n';
	return lines + (n && p[n - 1] != '\n');
}

static void check_round_trip(const struct twin *t)
{
	struct out_buf ob;
	struct out o;
	struct twin t2;
	struct twin_err e;

	out_buf_init(&o, &ob, text, sizeof(text));
	twin_write_lspci(t, &o);
	CHECK(ob.lost == 0);
	CHECK(twin_parse(&t2, text, ob.len, &e) == 0);
	CHECK(t2.nfn == t->nfn);
	for (unsigned i = 0; i < t->nfn; i++) {
		CHECK(pci_addr_eq(t2.fn[i].addr, t->fn[i].addr));
		CHECK(t2.fn[i].known == t->fn[i].known);
		CHECK(!memcmp(t2.fn[i].cfg, t->fn[i].cfg, t->fn[i].known));
	}
	twin_free(&t2);
}

static void check_access(struct twin *t)
{
	struct pci_cfg c;

	pci_cfg_init(&c, &twin_cfg_ops, t);
	for (unsigned i = 0; i < t->nfn && i < 16; i++) {
		struct twin_fn *f = &t->fn[i];
		unsigned lc = f->caps.pcie + PCI_EXP_LNKCTL;
		uint16_t before, after;
		uint32_t v;

		CHECK(f->known == 64 || f->known == 256 || f->known == 4096);
		if (f->known < 4096)
			CHECK(pci_cfg_read32(&c, f->addr, (uint16_t)f->known, &v) == -AE_NODATA);
		if (!f->caps.pcie)
			continue;
		CHECK(f->caps.pcie >= 0x40 && f->caps.pcie + 0x14 <= f->known);
		before = (uint16_t)(f->cfg[lc] | f->cfg[lc + 1] << 8);
		CHECK(pci_cfg_write16(&c, f->addr, (uint16_t)lc, 0xffff) == 0);
		CHECK(pci_cfg_read16(&c, f->addr, (uint16_t)lc, &after) == 0);
		CHECK(!(after & PCI_EXP_LNKCTL_RL));
		/* Retrain Link reads 0 even where a dump shows it set */
		CHECK(!((before ^ after) & ~(f->rw[lc] | f->rw[lc + 1] << 8 | PCI_EXP_LNKCTL_RL)));
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct twin t;
	struct twin_err e;
	int rc = twin_parse(&t, (const char *)data, size, &e);

	if (rc) {
		unsigned lines = count_lines(data, size);

		CHECK(rc < 0 && e.code == rc && e.msg[0]);
		CHECK(e.line >= 1 && e.line <= (lines ? lines : 1));
		return 0;
	}
	CHECK(t.nfn >= 1 && t.nfn <= LSPCI_MAX_FN);
	for (unsigned i = 0; i < t.nfn; i++)
		CHECK(twin_find(&t, t.fn[i].addr) == &t.fn[i]);
	check_round_trip(&t);
	check_access(&t);
	twin_free(&t);
	return 0;
}
