// SPDX-License-Identifier: GPL-2.0-only
/*
 * Per-device exclusions (--disable STATES@MATCH) on the simulator: the
 * rule forms, which link a rule reaches, precedence between rules, and
 * that they bind keep and force but not clear or notouch. Reference:
 * Linux 6.1 __pci_disable_link_state() (drivers/pci/pcie/aspm.c).
 */
#include "policy_fixture.h"
#include "../../pcie/exclude.h"

static struct aspm_excl rules[ASPM_MAX_EXCL];

/* run cmd under override o with the rules given as text */
static int run_rules(struct pfx *p, enum aspm_cmd cmd, enum aspm_override o,
		     const char *const *text, unsigned n)
{
	struct aspm_run *r = pfx_prepare(p, cmd, pfx_policy(o));

	for (unsigned i = 0; i < n; i++)
		assert_int_equal(aspm_excl_parse(text[i], &rules[i]), 0);
	r->excl = rules;
	r->nexcl = n;
	return aspm_run(&p->fx->cfg, r, &p->out);
}

#define RUN(p, cmd, o, ...) do {					\
	static const char *const t_[] = { __VA_ARGS__ };		\
	assert_int_equal(run_rules((p), (cmd), (o), t_, ARRAY_SIZE(t_)), 0); \
} while (0)

/* Every rule form, and the malformed ones a usage error names. */
static void test_parse_forms(void **state)
{
	struct aspm_excl e;

	(void)state;
	assert_int_equal(aspm_excl_parse("L1.2@1b36:0010", &e), 0);
	assert_int_equal(e.kind, EXCL_ID);
	assert_int_equal(e.vendor, 0x1b36);
	assert_int_equal(e.device, 0x0010);
	assert_int_equal(e.states, ASPM_STATE_L1_2 | ASPM_STATE_L1_2_PCIPM);
	assert_false(e.clkpm);
	assert_string_equal(e.text, "L1.2@1b36:0010");

	/* L1 takes the substates with it (__pci_disable_link_state()) */
	assert_int_equal(aspm_excl_parse("l1@0001:02:03.4", &e), 0);
	assert_int_equal(e.kind, EXCL_BDF);
	assert_int_equal(e.addr.seg, 1);
	assert_int_equal(e.addr.bus, 2);
	assert_int_equal(e.addr.devfn, PCI_DEVFN(3, 4));
	assert_int_equal(e.states, ASPM_STATE_L1 | ASPM_STATE_L1SS);

	assert_int_equal(aspm_excl_parse("L0s,clkpm@02:00.0", &e), 0);
	assert_int_equal(e.addr.seg, 0);
	assert_int_equal(e.states, ASPM_STATE_L0S);
	assert_true(e.clkpm);

	assert_int_equal(aspm_excl_parse("L1.1@class:0108", &e), 0);
	assert_int_equal(e.kind, EXCL_CLASS);
	assert_int_equal(e.class_code, 0x010800);
	assert_int_equal(e.class_digits, 4);
	assert_int_equal(e.states, ASPM_STATE_L1_1 | ASPM_STATE_L1_1_PCIPM);

	assert_int_equal(aspm_excl_parse("all@class:010802", &e), 0);
	assert_int_equal(e.states, ASPM_STATE_ALL);
	assert_true(e.clkpm);

	static const char *const bad[] = {
		"", "L1", "@1b36:0010", "L1@", "L3@1b36:0010", "L1,@1b36:0010",
		",L1@1b36:0010", "L1@1b36:010", "L1@1b36:00100", "L1@xb36:0010",
		"L1@class:", "L1@class:0108022", "L1@class:01g8", "L1@00:20.0",
		"L1@00:1f.8", "L1@1:2:3:4", "L1@1b36-0010",
		"L1@0000:00:1c.0:0000:00:1c.0:0000:00:1c.0:000",
	};
	for (unsigned i = 0; i < ARRAY_SIZE(bad); i++)
		if (aspm_excl_parse(bad[i], &e) != -AE_INVAL)
			fail_msg("rule \"%s\" accepted", bad[i]);
	assert_int_equal(aspm_excl_parse(NULL, &e), -AE_INVAL);
}

/* A class rule is a prefix of base class, subclass, programming interface. */
static void test_class_prefix(void **state)
{
	struct pcie_fn f = { .class = 0x010802 };
	struct aspm_excl e;
	static const struct { const char *rule; bool match; } cases[] = {
		{ "L1@class:0", true }, { "L1@class:01", true }, { "L1@class:010", true },
		{ "L1@class:0108", true }, { "L1@class:01080", true },
		{ "L1@class:010802", true }, { "L1@class:02", false },
		{ "L1@class:0109", false }, { "L1@class:010801", false },
		{ "L1@class:1", false },
	};

	(void)state;
	for (unsigned i = 0; i < ARRAY_SIZE(cases); i++) {
		assert_int_equal(aspm_excl_parse(cases[i].rule, &e), 0);
		if (aspm_excl_match(&e, &f) != cases[i].match)
			fail_msg("%s on class 010802: expected %d", cases[i].rule,
				 cases[i].match);
	}
}

/*
 * Which link a rule reaches: an endpoint's own link (pcie_aspm_get_link());
 * a port's link below it; a Switch Upstream Port's link above it. A rule
 * that matches nothing is reported, not an error.
 */
static void test_links_reached(void **state)
{
	struct pfx *p = pfx_laptop();

	(void)state;
	RUN(p, CMD_PLAN, OVR_FORCE, "L0s@0000:00:1c.2", "L0s@03:00.0", "L0s@04:00.0",
	    "L0s@10ec:8168", "L1@00:1f.0", "L1@1234:5678");
	assert_lines(p, "aspm exclude ",
		     "aspm exclude rule=L0s@0000:00:1c.2 up=0000:00:1c.2 down=0000:03:00.0 action=force states=L0s removed=L0s",
		     "aspm exclude rule=L0s@03:00.0 up=0000:00:1c.2 down=0000:03:00.0 action=force states=L0s removed=L0s",
		     "aspm exclude rule=L0s@04:00.0 up=0000:04:00.0 down=0000:05:00.0 action=force states=L0s removed=L0s",
		     "aspm exclude rule=L0s@10ec:8168 up=0000:04:00.0 down=0000:05:00.0 action=force states=L0s removed=L0s",
		     "aspm exclude rule=L1@00:1f.0 up=- down=- action=force states=L1,L1.1,L1.2,L1.1-pcipm,L1.2-pcipm removed=none note=matches-nothing",
		     "aspm exclude rule=L1@1234:5678 up=- down=- action=force states=L1,L1.1,L1.2,L1.1-pcipm,L1.2-pcipm removed=none note=matches-nothing");
	/* the untouched links get L0s and L1 as force gives them */
	assert_record(p, "aspm link up=0000:00:1c.0 down=0000:01:00.0 nfn=1 hops=0 support=L0s,L1,L1.1,L1.2,L1.1-pcipm,L1.2-pcipm bios=L1 capable=L0s,L1,L1.1,L1.2,L1.1-pcipm,L1.2-pcipm action=force target=L0s,L1 clkpm=off>on l1ss=none reason=l1ss-not-forced");
	assert_record(p, "aspm link up=0000:00:1c.2 down=0000:03:00.0 nfn=1 hops=0 support=L0s,L1 bios=L1 capable=L0s,L1 action=force target=L1 clkpm=off>on l1ss=none reason=excluded");
	pfx_free(p);
}

/*
 * keep: a BIOS-enabled state a rule forbids is turned off, as Linux's
 * pcie_config_aspm_link() does after pci_disable_link_state(): the
 * endpoint first, then the Root Port. Every other link keeps its BIOS L1.
 */
static void test_keep_turns_excluded_off(void **state)
{
	struct pfx *p = pfx_laptop();

	(void)state;
	RUN(p, CMD_APPLY, OVR_KEEP, "L1@1b36:0010");
	assert_log_writes(p, 0,
			  XLC(1, 0, 0, LK_CCC),
			  XLC(0, 0x1c, 0, LK_CCC));
	assert_int_equal(pfx_lnkctl(p, 2, 0, 0), LK_CCC | LK_L1);
	assert_int_equal(pfx_lnkctl(p, 5, 0, 0), LK_CCC | LK_L1);
	assert_record(p, "aspm link up=0000:00:1c.0 down=0000:01:00.0 nfn=1 hops=0 support=L0s,L1,L1.1,L1.2,L1.1-pcipm,L1.2-pcipm bios=L1 capable=L0s,L1,L1.1,L1.2,L1.1-pcipm,L1.2-pcipm action=keep target=none clkpm=off l1ss=none reason=bios-off,excluded");
	assert_lines(p, "aspm exclude ",
		     "aspm exclude rule=L1@1b36:0010 up=0000:00:1c.0 down=0000:01:00.0 action=keep states=L1,L1.1,L1.2,L1.1-pcipm,L1.2-pcipm removed=L1");
	pfx_free(p);
}

/*
 * Precedence: rules add up (no rule enables anything), and each rule
 * that forbids a state the link would have had is named with it.
 */
static void test_rules_add_up(void **state)
{
	struct pfx *p = pfx_laptop();

	(void)state;
	RUN(p, CMD_APPLY, OVR_FORCE, "L0s@1b36:0010", "all@01:00.0", "L1@class:01");
	assert_int_equal(pfx_lnkctl(p, 1, 0, 0), LK_CCC);
	assert_int_equal(pfx_lnkctl(p, 0, 0x1c, 0), LK_CCC);
	assert_lines(p, "aspm exclude ",
		     "aspm exclude rule=L0s@1b36:0010 up=0000:00:1c.0 down=0000:01:00.0 action=force states=L0s removed=L0s",
		     "aspm exclude rule=all@01:00.0 up=0000:00:1c.0 down=0000:01:00.0 action=force states=L0s,L1,L1.1,L1.2,L1.1-pcipm,L1.2-pcipm,clkpm removed=L0s,L1,clkpm",
		     "aspm exclude rule=L1@class:01 up=0000:00:1c.0 down=0000:01:00.0 action=force states=L1,L1.1,L1.2,L1.1-pcipm,L1.2-pcipm removed=L1");
	assert_record(p, "aspm link up=0000:00:1c.0 down=0000:01:00.0 nfn=1 hops=0 support=L0s,L1,L1.1,L1.2,L1.1-pcipm,L1.2-pcipm bios=L1 capable=L0s,L1,L1.1,L1.2,L1.1-pcipm,L1.2-pcipm action=force target=none clkpm=off l1ss=none reason=l1ss-not-forced,excluded");
	pfx_free(p);
}

/* Clock PM alone: CLKREQ# stays off on the Wi-Fi link under force. */
static void test_clkpm_rule(void **state)
{
	struct pfx *p = pfx_laptop();

	(void)state;
	RUN(p, CMD_APPLY, OVR_FORCE, "clkpm@8086:2723");
	assert_int_equal(pfx_lnkctl(p, 2, 0, 0), LK_CCC | LK_L1 | LK_L0S);
	assert_int_equal(pfx_lnkctl(p, 1, 0, 0), LK_CCC | LK_L1 | LK_L0S | LK_CLKREQ);
	assert_lines(p, "aspm exclude ",
		     "aspm exclude rule=clkpm@8086:2723 up=0000:00:1c.1 down=0000:02:00.0 action=force states=clkpm removed=clkpm");
	pfx_free(p);
}

/* clear and notouch: the rules change nothing, not one write. */
static void test_clear_notouch_unchanged(void **state)
{
	static const enum aspm_override ovr[] = { OVR_CLEAR, OVR_NOTOUCH };

	(void)state;
	for (unsigned i = 0; i < ARRAY_SIZE(ovr); i++) {
		struct pfx *a = pfx_laptop(), *b = pfx_laptop();
		static char la[16384], lb[16384];

		assert_int_equal(pfx_run(a, CMD_APPLY, pfx_policy(ovr[i])), 0);
		RUN(b, CMD_APPLY, ovr[i], "all@1b36:0010", "L1@class:02");
		pfx_dump_log(a->sim, la, sizeof(la));
		pfx_dump_log(b->sim, lb, sizeof(lb));
		assert_string_equal(la, lb);
		assert_int_equal(a->sim->nlog, ovr[i] == OVR_CLEAR ? 8 : 0);
		snprintf(la, sizeof(la), "aspm exclude rule=all@1b36:0010 up=0000:00:1c.0 down=0000:01:00.0 action=%s states=L0s,L1,L1.1,L1.2,L1.1-pcipm,L1.2-pcipm,clkpm removed=none",
			 ovr[i] == OVR_CLEAR ? "clear" : "notouch");
		assert_record(b, la);
		assert_null(strstr(b->text, "excluded"));
		pfx_free(a);
		pfx_free(b);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_forms),
		cmocka_unit_test(test_class_prefix),
		cmocka_unit_test(test_links_reached),
		cmocka_unit_test(test_keep_turns_excluded_off),
		cmocka_unit_test(test_rules_add_up),
		cmocka_unit_test(test_clkpm_rule),
		cmocka_unit_test(test_clear_notouch_unchanged),
	};

	return cmocka_run_group_tests_name("exclude", tests, NULL, NULL);
}
