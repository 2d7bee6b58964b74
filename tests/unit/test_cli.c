// SPDX-License-Identifier: GPL-2.0-only
/* aspmctl.efi command-line parsing (efi/cli.c, built for the host). */
#include "common.h"
#include "../../efi/cli.h"
#include "../../lib/err.h"

static int parse_line(const char *line, struct cli *c)
{
	static char buf[CLI_MAX_LINE];
	char *argv[CLI_MAX_ARGS];
	int argc;

	strncpy(buf, line, sizeof(buf) - 1);
	argc = cli_split(buf, argv, CLI_MAX_ARGS);
	if (argc < 0)
		return argc;
	return cli_parse(argc, argv, c);
}

static void test_defaults(void **state)
{
	struct cli c;

	(void)state;
	assert_int_equal(parse_line("", &c), 0);
	assert_int_equal(c.cmd, CLI_REPORT);
	assert_int_equal(c.in.override, OVR_NONE);
	assert_int_equal(c.in.fadt_mode, FADT_MODE_NOTOUCH);
	assert_true(c.in.osc_granted);
	assert_false(c.full_scan);
}

static void test_commands_and_options(void **state)
{
	struct cli c;

	(void)state;
	assert_int_equal(parse_line("plan --policy force --fadt-mode clear --osc denied", &c), 0);
	assert_int_equal(c.cmd, CLI_PLAN);
	assert_int_equal(c.in.override, OVR_FORCE);
	assert_int_equal(c.in.fadt_mode, FADT_MODE_CLEAR);
	assert_false(c.in.osc_granted);
	assert_int_equal(parse_line("apply --policy keep", &c), 0);
	assert_int_equal(c.cmd, CLI_APPLY);
	assert_int_equal(c.in.override, OVR_KEEP);
	assert_int_equal(parse_line("apply --policy auto", &c), 0);
	assert_int_equal(c.in.override, OVR_NONE);
	assert_int_equal(parse_line("remove 0000:03:00.0 --apply --policy notouch", &c), 0);
	assert_int_equal(c.cmd, CLI_REMOVE);
	assert_int_equal(c.remove.bus, 3);
	assert_true(c.remove_apply);
	assert_int_equal(parse_line("report --scan full --root-bus 0000:80 -v", &c), 0);
	assert_true(c.full_scan);
	assert_true(c.verbose);
	assert_int_equal(c.nroots, 1);
	assert_int_equal(c.roots[0].bus, 0x80);
	assert_int_equal(parse_line("fadt --set-no-aspm", &c), 0);
	assert_int_equal(c.cmd, CLI_FADT);
	assert_int_equal(c.fadt_set, 1);
	assert_int_equal(parse_line("fadt --clear-no-aspm", &c), 0);
	assert_int_equal(c.fadt_set, 0);
	assert_int_equal(parse_line("-h", &c), 0);
	assert_int_equal(c.cmd, CLI_HELP);
	assert_int_equal(parse_line("\"plan\"  --policy   \"clear\" ", &c), 0);
	assert_int_equal(c.in.override, OVR_CLEAR);
}

static void test_usage_errors(void **state)
{
	static const struct { const char *line, *msg; } bad[] = {
		{ "frobnicate", "unknown command 'frobnicate'" },
		{ "plan --policy maybe", "--policy: expected auto, keep, clear, force or notouch, got 'maybe'" },
		{ "plan --policy none", "--policy: expected" },
		{ "plan --policy", "--policy: expected" },
		{ "plan --fadt-mode off", "--fadt-mode: expected clear or notouch, got 'off'" },
		{ "plan --osc yes", "--osc: expected granted or denied, got 'yes'" },
		{ "remove", "remove: missing BDF" },
		{ "fadt", "fadt: expected --set-no-aspm or --clear-no-aspm" },
		{ "fadt --set", "fadt: expected --set-no-aspm or --clear-no-aspm" },
		{ "remove 0000:03:20.0", "remove: bad BDF '0000:03:20.0'" },
		{ "remove zz", "remove: bad BDF 'zz'" },
		{ "apply --apply", "--apply is only for 'remove'" },
		{ "report --bogus", "unknown option '--bogus'" },
		{ "report --scan half", "--scan: expected bridges or full, got 'half'" },
		{ "report --root-bus 0000:100", "--root-bus: expected SSSS:BB" },
	};
	struct cli c;

	(void)state;
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(parse_line(bad[i].line, &c), -AE_INVAL);
		if (!strstr(c.error, bad[i].msg))
			fail_msg("'%s': error '%s' lacks '%s'", bad[i].line, c.error, bad[i].msg);
	}
}

static void test_split_limits(void **state)
{
	char line[256], *argv[4];

	(void)state;
	strcpy(line, "a b c d e");
	assert_int_equal(cli_split(line, argv, 4), -AE_2BIG);
	strcpy(line, "  x \"y z\"\tw ");
	assert_int_equal(cli_split(line, argv, 4), 3);
	assert_string_equal(argv[1], "y z");
	assert_string_equal(argv[2], "w");
}

static void test_usage_text(void **state)
{
	char text[4096];
	struct out_buf b;
	struct out o;

	(void)state;
	out_buf_init(&o, &b, text, sizeof(text));
	cli_usage(&o);
	assert_int_equal(b.lost, 0);
	for (const char *p = text, *nl; *p; p = nl + 1) {
		nl = strchr(p, '\n');
		assert_non_null(nl);
		assert_true(nl - p <= 79);	/* fits an 80-column console */
	}
	assert_non_null(strstr(text, "remove BDF"));
	assert_non_null(strstr(text, "--fadt-mode clear|notouch"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_commands_and_options),
		cmocka_unit_test(test_usage_errors),
		cmocka_unit_test(test_split_limits),
		cmocka_unit_test(test_usage_text),
	};

	return cmocka_run_group_tests_name("cli", tests, NULL, NULL);
}
