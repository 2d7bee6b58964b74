// SPDX-License-Identifier: GPL-2.0-only
/*
 * Hostile hardware, end to end: each case builds a machine with one
 * healthy link (BIOS enabled L1 on 00:01.0 <-> 01:00.0) plus one broken
 * thing, then runs the whole pipeline (enumerate, decide "clear" because
 * the FADT says no ASPM, apply). For every case: the user sees the
 * expected message, the run finishes, the broken functions get no write
 * at all, and the healthy link is still cleared.
 */
#include "policy_fixture.h"

#include "hostile_machines.h"

static void test_hostile(void **state)
{
	const struct hostile *h = *state;
	struct pfx *p = pfx_new();
	struct sim *s = p->sim;

	p->fx->win[0].bus_end = 0x3f;
	healthy(s);
	h->build(s);
	fx_enum(p->fx);
	pfx_run(p, CMD_APPLY, pfx_in(true, true, OVR_NONE, FADT_MODE_CLEAR));
	if (h->msg)
		assert_log_contains(h->msg);
	/* the healthy link was cleared, downstream first */
	assert_int_equal(pfx_lnkctl(p, 1, 0, 0) & PCI_EXP_LNKCTL_ASPMC, 0);
	assert_int_equal(pfx_lnkctl(p, 0, 1, 0) & PCI_EXP_LNKCTL_ASPMC, 0);
	assert_int_equal(s->nlog, h->writes);
	hostile_assert_no_bad_writes(h, s);
	/* and every write went to a Link Control register */
	for (unsigned i = 0; i < s->nlog; i++) {
		struct sim_fn *f = sim_find(s, s->log[i].a);

		assert_non_null(f);
		assert_int_equal(s->log[i].off, f->pcie + PCI_EXP_LNKCTL);
	}
	pfx_free(p);
}

int main(void)
{
	struct CMUnitTest tests[HOSTILE_NCASES];

	for (unsigned i = 0; i < HOSTILE_NCASES; i++) {
		tests[i] = (struct CMUnitTest){ .name = hostile_cases[i].name,
						.test_func = test_hostile,
						.initial_state = (void *)&hostile_cases[i] };
	}
	return _cmocka_run_group_tests("hostile", tests, HOSTILE_NCASES, NULL, NULL);
}
