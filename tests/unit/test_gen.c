// SPDX-License-Identifier: GPL-2.0-only
/*
 * The machine generator of make difffuzz (tests/sim/gen.c): the same seed
 * gives the same machine (and the same one on every host: fixed PRNG
 * values), machines are well formed, every mutation of the reducer
 * applies and shrinks or simplifies, and the generator reaches what the
 * issue asks for (deep chains, pre-1.1 functions, L1SS, ARI, ...).
 */
#include <stdio.h>
#include <stdlib.h>
#include "common.h"
#include "../sim/gen.h"
#include "../sim/build.h"

static struct gen_machine ma, mb;

/* splitmix64's published first output for state 0, and the seeds
 * tests/difffuzz/difffuzz.py gen_seed() derives (the Python twin) */
static void test_prng_values(void **state)
{
	uint64_t st = 0;

	(void)state;
	assert_int_equal(gen_next(&st), 0xe220a8397b1dcdafull);
	assert_int_equal(gen_seed(1, 0), 0xbeeb8da1658eec67ull);
	assert_int_equal(gen_seed(17, 1999), 0x4f3b3b7e68b82b86ull);
}

static void build_eq(const struct gen_machine *a, const struct gen_machine *b)
{
	struct sim *sa = sim_new(), *sb = sim_new();

	assert_non_null(sa);
	assert_non_null(sb);
	assert_int_equal(gen_build(a, sa), 0);
	assert_int_equal(gen_build(b, sb), 0);
	assert_int_equal(sa->nfn, sb->nfn);
	for (unsigned i = 0; i < sa->nfn; i++) {
		assert_memory_equal(sa->fn[i]->cfg, sb->fn[i]->cfg, 4096);
		assert_memory_equal(sa->fn[i]->rw, sb->fn[i]->rw, 4096);
	}
	sim_free(sa);
	sim_free(sb);
}

static void test_same_seed_same_machine(void **state)
{
	(void)state;
	for (uint64_t i = 0; i < 200; i++) {
		gen_machine(&ma, gen_seed(5, i));
		gen_machine(&mb, gen_seed(5, i));
		assert_memory_equal(&ma, &mb, sizeof(ma));
		build_eq(&ma, &mb);
	}
	gen_machine(&ma, 1);
	gen_machine(&mb, 2);
	assert_memory_not_equal(&ma, &mb, sizeof(ma));
}

/* every function below a bridge sits on a bus the bridge decodes; no
 * two functions share an address */
static void test_well_formed(void **state)
{
	(void)state;
	for (uint64_t i = 0; i < 2000; i++) {
		gen_machine(&ma, gen_seed(9, i));
		assert_true(ma.nn >= 1 && ma.nn <= GEN_MAX_FN);
		for (unsigned k = 0; k < ma.nn; k++) {
			const struct gen_node *x = &ma.n[k];

			assert_true(x->depth <= GEN_MAX_DEPTH);
			if (x->parent >= 0) {
				const struct gen_node *p = &ma.n[x->parent];

				assert_true(x->parent < (int)k);
				assert_true(p->sec <= x->bus && x->bus <= p->sub);
			} else {
				assert_int_equal(x->bus, 0);
			}
			for (unsigned j = 0; j < k; j++)
				assert_false(ma.n[j].bus == x->bus && ma.n[j].dev == x->dev &&
					     ma.n[j].fn == x->fn);
		}
	}
}

static void test_mutations(void **state)
{
	static char buf[65536];

	(void)state;
	for (uint64_t i = 0; i < 100; i++) {
		char *save = NULL;
		unsigned n;

		gen_machine(&ma, gen_seed(3, i));
		n = gen_mutations(&ma, buf, sizeof(buf));
		assert_true(n > 0 || gen_count(&ma, -1) == 1);
		for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
			mb = ma;
			assert_int_equal(gen_mutate(&mb, t), 0);
			assert_memory_not_equal(&ma, &mb, sizeof(ma));
			assert_true(gen_count(&mb, -1) >= 1);
			if (t[0] == 'd')
				assert_true(gen_count(&mb, -1) < gen_count(&ma, -1));
			/* applied twice: nothing left to change */
			assert_int_equal(gen_mutate(&mb, t), -1);
		}
	}
	gen_machine(&ma, 1);
	assert_int_equal(gen_mutate(&ma, "x1"), -1);
	assert_int_equal(gen_mutate(&ma, "d999"), -1);
	assert_int_equal(gen_mutate(&ma, "f0.99"), -1);
}

/* what the generator must reach within a few thousand machines */
static void test_coverage(void **state)
{
	unsigned kinds[GEN_PCI + 1] = { 0 }, pre11 = 0, norber = 0, l1ss = 0, ari = 0, rm = 0;
	unsigned deep = 0, rootless = 0, mf8 = 0, bad_bios = 0, reserved = 0;

	(void)state;
	for (uint64_t i = 0; i < 3000; i++) {
		gen_machine(&ma, gen_seed(11, i));
		rm += ma.remove >= 0;
		for (unsigned k = 0; k < ma.nn; k++) {
			const struct gen_node *x = &ma.n[k];
			unsigned sup = (x->lnkcap >> 10) & 3;

			kinds[x->kind]++;
			pre11 += x->kind != GEN_PCI && x->kind != GEN_HOST && x->ver == 1;
			norber += x->kind == GEN_EP && !(x->devcap & PCI_EXP_DEVCAP_RBER);
			l1ss += x->l1ss;
			ari += x->ari;
			deep += x->depth == GEN_MAX_DEPTH;
			rootless += x->kind == GEN_USP && x->bus == 0;
			mf8 += x->kind == GEN_EP && x->fn == 7;
			bad_bios += (x->lnkctl & PCI_EXP_LNKCTL_ASPMC & ~sup) != 0;
			reserved += x->kind == GEN_EP && sup == 2;
		}
	}
	for (unsigned k = 0; k <= GEN_PCI; k++)
		assert_true(kinds[k] > 0);
	assert_true(pre11 && norber && l1ss && ari && rm && deep && rootless && mf8 && bad_bios &&
		    reserved);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_prng_values),
		cmocka_unit_test(test_same_seed_same_machine),
		cmocka_unit_test(test_well_formed),
		cmocka_unit_test(test_mutations),
		cmocka_unit_test(test_coverage),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
