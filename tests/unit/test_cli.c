// SPDX-License-Identifier: GPL-2.0-only
/* aspmctl.efi command line and configuration file (app/cli.c, app/conf.c, built for the host). */
#include <stdio.h>
#include "common.h"
#include "../../app/cli.h"
#include "../../app/conf.h"
#include "../../pcie/pci_regs.h"
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
		{ "plan --policy maybe", "--policy: expected auto, keep, clear, force, notouch, default, performance, powersave or powersupersave, got 'maybe'" },
		{ "plan --policy none", "--policy: expected" },
		{ "plan --policy", "--policy: expected" },
		{ "plan --fadt-mode off", "--fadt-mode: expected clear or notouch, got 'off'" },
		{ "plan --osc yes", "--osc: expected auto, granted or denied, got 'yes'" },
		{ "remove", "remove: missing BDF" },
		{ "fadt", "fadt: expected --set-no-aspm or --clear-no-aspm" },
		{ "fadt --set", "fadt: expected --set-no-aspm or --clear-no-aspm" },
		{ "remove 0000:03:20.0", "remove: bad BDF '0000:03:20.0'" },
		{ "remove zz", "remove: bad BDF 'zz'" },
		{ "apply --apply", "--apply is only for 'remove'" },
		{ "report --bogus", "unknown option '--bogus'" },
		{ "report --scan half", "--scan: expected bridges or full, got 'half'" },
		{ "report --root-bus 0000:100", "--root-bus: expected SSSS:BB" },
		{ "boot --next \"\\EFI\\my loader.efi\"", "'\\EFI\\my loader.efi': paths with spaces are not supported" },
		{ "dump \"\\my dump\"", "dump: '\\my dump': paths with spaces are not supported" },
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

static void test_conf_file(void **state)
{
	char text[] =
		"# aspmctl.conf\n"
		"command = boot\n"
		"policy = force   # trailing comment\n"
		"\n"
		"  next = \\EFI\\debian\\grubx64.efi\r\n"
		"next-options = initrd=\\initrd.img console=ttyS0\n";
	char *confv[CLI_MAX_ARGS], *args[4], *all[2 * CLI_MAX_ARGS + 1];
	const char *cmd;
	char err[96];
	struct cli c;
	int n, m;

	(void)state;
	n = cli_conf_split(text, confv, CLI_MAX_ARGS, &cmd, err, sizeof(err));
	assert_int_equal(n, 6);
	assert_string_equal(cmd, "boot");
	assert_string_equal(confv[0], "--policy");
	assert_string_equal(confv[1], "force");
	assert_string_equal(confv[5], "initrd=\\initrd.img console=ttyS0");
	/* no command in the load options: the file's command; options merge,
	 * the load options win */
	args[0] = "--policy";
	args[1] = "clear";
	m = cli_merge(cmd, confv, n, args, 2, all);
	assert_int_equal(cli_parse(m, all, &c), 0);
	assert_int_equal(c.cmd, CLI_BOOT);
	assert_int_equal(c.in.override, OVR_CLEAR);
	assert_string_equal(c.next, "\\EFI\\debian\\grubx64.efi");
	assert_string_equal(c.next_options, "initrd=\\initrd.img console=ttyS0");
	/* a command with an operand in the load options wins over the file */
	args[0] = "remove";
	args[1] = "00:1c.0";
	m = cli_merge(cmd, confv, n, args, 2, all);
	assert_int_equal(cli_parse(m, all, &c), 0);
	assert_int_equal(c.cmd, CLI_REMOVE);
	assert_int_equal(c.remove.devfn, PCI_DEVFN(0x1c, 0));
	assert_int_equal(c.in.override, OVR_FORCE);
}

static void test_conf_errors(void **state)
{
	char t1[] = "policy force\n", t2[] = "command = boot\n = x\n",
	     t3[] = "policy = \n", t4[] = "frob = 1\n";
	char *confv[CLI_MAX_ARGS], *all[CLI_MAX_ARGS];
	const char *cmd;
	char err[96];
	struct cli c;
	int n;

	(void)state;
	assert_int_equal(cli_conf_split(t1, confv, CLI_MAX_ARGS, &cmd, err, sizeof(err)), -AE_INVAL);
	assert_string_equal(err, "line 1: expected 'key = value'");
	assert_int_equal(cli_conf_split(t2, confv, CLI_MAX_ARGS, &cmd, err, sizeof(err)), -AE_INVAL);
	assert_string_equal(err, "line 2: expected 'key = value'");
	assert_int_equal(cli_conf_split(t3, confv, CLI_MAX_ARGS, &cmd, err, sizeof(err)), -AE_INVAL);
	/* unknown keys are caught by the option parser */
	n = cli_conf_split(t4, confv, CLI_MAX_ARGS, &cmd, err, sizeof(err));
	assert_int_equal(n, 2);
	n = cli_merge(cmd, confv, n, NULL, 0, all);
	assert_int_equal(cli_parse(n, all, &c), -AE_INVAL);
	assert_non_null(strstr(c.error, "unknown option '--frob'"));
}

/* conf split of a writable copy; returns argc, err in e */
static int conf(const char *textin, char **confv, const char **cmd, char *e,
		size_t esize)
{
	static char t[1024];

	strncpy(t, textin, sizeof(t) - 1);
	return cli_conf_split(t, confv, CLI_MAX_ARGS, cmd, e, esize);
}

static void test_conf_bom_and_utf16(void **state)
{
	static const char u8[] = "\xef\xbb\xbf" "command = plan\r\npolicy = clear\r\n";
	char buf[256], *confv[CLI_MAX_ARGS], err[96];
	const char *ascii = "# c\r\ncommand = boot\r\nnext = \\a.efi\r\n", *cmd;
	size_t n = 0, len;
	int argc;

	(void)state;
	/* a UTF-8 BOM, as Notepad writes it, read directly ... */
	argc = conf(u8, confv, &cmd, err, sizeof(err));
	assert_int_equal(argc, 2);
	assert_string_equal(cmd, "plan");
	assert_string_equal(confv[1], "clear");
	/* ... and through cli_conf_decode */
	memcpy(buf, u8, sizeof(u8));
	assert_int_equal(cli_conf_decode(buf, sizeof(u8) - 1), sizeof(u8) - 4);
	assert_string_equal(buf, "command = plan\r\npolicy = clear\r\n");
	/* UTF-16LE with BOM: FF FE, then each character low byte first */
	buf[n++] = (char)0xff;
	buf[n++] = (char)0xfe;
	for (const char *p = ascii; *p; p++) {
		buf[n++] = *p;
		buf[n++] = 0;
	}
	buf[n] = 0;
	len = cli_conf_decode(buf, n);
	assert_int_equal(len, strlen(ascii));
	assert_string_equal(buf, ascii);
	argc = cli_conf_split(buf, confv, CLI_MAX_ARGS, &cmd, err, sizeof(err));
	assert_int_equal(argc, 2);
	assert_string_equal(cmd, "boot");
	assert_string_equal(confv[1], "\\a.efi");
	/* UTF-16BE with BOM too; a lone last byte is dropped */
	n = 0;
	buf[n++] = (char)0xfe;
	buf[n++] = (char)0xff;
	for (const char *p = "policy = keep"; *p; p++) {
		buf[n++] = 0;
		buf[n++] = *p;
	}
	buf[n++] = 'x';
	buf[n] = 0;
	assert_int_equal(cli_conf_decode(buf, n), 13);
	assert_string_equal(buf, "policy = keep");
	/* UTF-16LE: U+00E9 in a comment is fine, in a value it is refused
	 * with the line number */
	n = 0;
	buf[n++] = (char)0xff;
	buf[n++] = (char)0xfe;
	for (const char *p = "# caf\x01\npolicy = caf\x01\n"; *p; p++) {
		buf[n++] = *p == 1 ? (char)0xe9 : *p;
		buf[n++] = 0;
	}
	buf[n] = 0;
	len = cli_conf_decode(buf, n);
	assert_int_equal(len, 21);
	assert_int_equal(cli_conf_split(buf, confv, CLI_MAX_ARGS, &cmd, err, sizeof(err)), -AE_INVAL);
	assert_string_equal(err, "line 2: policy: non-ASCII character (values must be ASCII)");
	/* the same in UTF-8 */
	assert_int_equal(conf("next-options = x\n# \xc3\xa9 ok\nnext = \\caf\xc3\xa9.efi\n",
			      confv, &cmd, err, sizeof(err)), -AE_INVAL);
	assert_string_equal(err, "line 3: next: non-ASCII character (values must be ASCII)");
	/* plain text is left alone */
	strcpy(buf, "policy = keep\n");
	assert_int_equal(cli_conf_decode(buf, 14), 14);
	assert_string_equal(buf, "policy = keep\n");
}

static void test_conf_quotes_comments_paths(void **state)
{
	char *confv[CLI_MAX_ARGS], *all[2 * CLI_MAX_ARGS + 1], err[96];
	const char *cmd;
	struct cli c;
	int n;

	(void)state;
	n = conf("command = \"boot\"\n"
		 "next = '/EFI/Linux/vmlinuz.efi'   # the kernel\n"
		 "next-options = \"initrd=\\initrd.img root=/dev/sda1 # not a comment\"\n"
		 "results = /EFI/aspmctl/out#1 # a comment\r\n"
		 "   # indented comment = with an equals sign\n",
		 confv, &cmd, err, sizeof(err));
	assert_int_equal(n, 6);
	assert_string_equal(cmd, "boot");
	assert_string_equal(confv[1], "/EFI/Linux/vmlinuz.efi");
	assert_string_equal(confv[3], "initrd=\\initrd.img root=/dev/sda1 # not a comment");
	assert_string_equal(confv[5], "/EFI/aspmctl/out#1");
	n = cli_merge(cmd, confv, n, NULL, 0, all);
	assert_int_equal(cli_parse(n, all, &c), 0);
	/* path values: '/' becomes '\'; next-options keeps its '/' */
	assert_string_equal(c.next, "\\EFI\\Linux\\vmlinuz.efi");
	assert_string_equal(c.results, "\\EFI\\aspmctl\\out#1");
	assert_string_equal(c.next_options, "initrd=\\initrd.img root=/dev/sda1 # not a comment");
	/* double quotes inside a value are kept (kernel param="a b") and
	 * hide a '#' */
	n = conf("next-options = a \"b #c\" d # comment\n", confv, &cmd, err, sizeof(err));
	assert_int_equal(n, 2);
	assert_string_equal(confv[1], "a \"b #c\" d");
	/* an empty quoted value is a value */
	n = conf("next-options = \"\"\n", confv, &cmd, err, sizeof(err));
	assert_int_equal(n, 2);
	assert_string_equal(confv[1], "");
	/* dump DIR with '/' */
	{
		char line[] = "/x/dump", *argv[] = { "dump", line };

		assert_int_equal(cli_parse(2, argv, &c), 0);
		assert_string_equal(c.dump_dir, "\\x\\dump");
	}
}

static void test_conf_flags(void **state)
{
	static const char *const yes[] = { "yes", "true", "1" }, *const no[] = { "no", "false", "0" };
	char *confv[CLI_MAX_ARGS], *all[2 * CLI_MAX_ARGS + 1], text[96], err[96];
	const char *cmd;
	struct cli c;
	int n;

	(void)state;
	for (unsigned i = 0; i < 3; i++) {
		snprintf(text, sizeof(text), "command = report\nverbose = %s\n", yes[i]);
		n = conf(text, confv, &cmd, err, sizeof(err));
		assert_int_equal(n, 1);
		assert_string_equal(confv[0], "--verbose");
		n = cli_merge(cmd, confv, n, NULL, 0, all);
		assert_int_equal(cli_parse(n, all, &c), 0);
		assert_true(c.verbose);
		snprintf(text, sizeof(text), "verbose = yes\nverbose = %s\n", no[i]);
		n = conf(text, confv, &cmd, err, sizeof(err));
		assert_int_equal(n, 0);	/* the later line wins */
	}
	n = conf("command = remove 0000:04:00.0\napply = yes\npolicy = keep\n", confv, &cmd, err, sizeof(err));
	assert_int_equal(n, 3);
	assert_string_equal(confv[2], "--apply");
	n = conf("policy = keep\n\nverbose = maybe\n", confv, &cmd, err, sizeof(err));
	assert_int_equal(n, -AE_INVAL);
	assert_string_equal(err, "line 3: verbose: expected yes, no, true, false, 1 or 0");
}

static void test_conf_syntax_errors(void **state)
{
	static const struct { const char *text, *err; } bad[] = {
		{ "policy = keep\nnext = \"\\a.efi\n", "line 2: next: missing closing quote" },
		{ "next-options = 'x y' z\n", "line 1: next-options: text after the closing quote" },
		{ "next-options = a=\"b c\n", "line 1: next-options: missing closing quote" },
		{ "\n\npolicy force # = x\n", "line 3: expected 'key = value'" },
		{ "policy = # only a comment\n", "line 1: expected 'key = value'" },
		{ "\xef\xbb\xbfpolicy\r\n", "line 1: expected 'key = value'" },
	};
	char *confv[CLI_MAX_ARGS], err[96];
	const char *cmd;

	(void)state;
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(conf(bad[i].text, confv, &cmd, err, sizeof(err)), -AE_INVAL);
		assert_string_equal(err, bad[i].err);
	}
}

static void test_boot_and_dump_options(void **state)
{
	struct cli c;

	(void)state;
	assert_int_equal(parse_line("boot --next \\a.efi --next-options \"x y\" --emulate-fadt set-no-aspm --results \\r", &c), 0);
	assert_int_equal(c.cmd, CLI_BOOT);
	assert_string_equal(c.next, "\\a.efi");
	assert_string_equal(c.next_options, "x y");
	assert_int_equal(c.emulate_fadt, 1);
	assert_string_equal(c.results, "\\r");
	assert_int_equal(parse_line("dump \\mydump", &c), 0);
	assert_int_equal(c.cmd, CLI_DUMP);
	assert_string_equal(c.dump_dir, "\\mydump");
	assert_int_equal(parse_line("dump", &c), 0);
	assert_string_equal(c.dump_dir, "\\EFI\\aspmctl\\dump");
	assert_int_equal(parse_line("dump relative", &c), -AE_INVAL);
	assert_int_equal(parse_line("boot --next a.efi", &c), -AE_INVAL);
	assert_int_equal(parse_line("boot --emulate-fadt maybe", &c), -AE_INVAL);
	assert_non_null(strstr(c.error, "--emulate-fadt: expected set-no-aspm"));
	assert_int_equal(parse_line("boot", &c), 0);
	assert_false(c.no_dumps);
	assert_int_equal(parse_line("boot --dumps no", &c), 0);
	assert_true(c.no_dumps);
	assert_int_equal(parse_line("boot --dumps no --dumps yes", &c), 0);
	assert_false(c.no_dumps);
	assert_int_equal(parse_line("boot --dumps maybe", &c), -AE_INVAL);
	assert_string_equal(c.error, "--dumps: expected yes or no, got 'maybe'");
}

/* --disable is repeatable on the command line and in the file: every
 * rule counts, in order; a malformed rule is a usage error naming it. */
static void test_disable_rules(void **state)
{
	char text[] =
		"command = apply\n"
		"disable = L1.2@1b36:0010\n"
		"disable = L0s,clkpm@class:02   # the NICs\n";
	char *confv[CLI_MAX_ARGS], *args[2] = { "--disable", "L1@00:1c.0" };
	char *all[2 * CLI_MAX_ARGS + 1];
	const char *cmd;
	char err[96];
	struct cli c;
	int n, m;

	(void)state;
	n = cli_conf_split(text, confv, CLI_MAX_ARGS, &cmd, err, sizeof(err));
	assert_int_equal(n, 4);
	m = cli_merge(cmd, confv, n, args, 2, all);
	assert_int_equal(cli_parse(m, all, &c), 0);
	assert_int_equal(c.nexcl, 3);
	assert_string_equal(c.excl[0].text, "L1.2@1b36:0010");
	assert_string_equal(c.excl[1].text, "L0s,clkpm@class:02");
	assert_true(c.excl[1].clkpm);
	assert_string_equal(c.excl[2].text, "L1@00:1c.0");

	assert_int_equal(parse_line("plan --disable L1@1b36:0010 --disable L5@1b36:0010", &c),
			 -AE_INVAL);
	assert_string_equal(c.error, "--disable: bad rule 'L5@1b36:0010' (expected STATES@MATCH, see -h)");
	assert_int_equal(parse_line("plan --disable", &c), -AE_INVAL);
	assert_int_equal(parse_line("plan --disable L1@1:2:3:4:5", &c), -AE_INVAL);
	assert_non_null(strstr(c.error, "L1@1:2:3:4:5"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_commands_and_options),
		cmocka_unit_test(test_usage_errors),
		cmocka_unit_test(test_split_limits),
		cmocka_unit_test(test_usage_text),
		cmocka_unit_test(test_conf_file),
		cmocka_unit_test(test_conf_errors),
		cmocka_unit_test(test_conf_bom_and_utf16),
		cmocka_unit_test(test_conf_quotes_comments_paths),
		cmocka_unit_test(test_conf_flags),
		cmocka_unit_test(test_conf_syntax_errors),
		cmocka_unit_test(test_boot_and_dump_options),
		cmocka_unit_test(test_disable_rules),
	};

	return cmocka_run_group_tests_name("cli", tests, NULL, NULL);
}
