// SPDX-License-Identifier: GPL-2.0-only
/*
 * The command line of aspmctl.efi: splitting, the command and its
 * operands, the options table, usage, and a boot entry's load options.
 * Plain C, no UEFI headers: efi/main.c hands over ASCII words.
 */
#include "cli.h"
#include "tries.h"
#include "../lib/err.h"
#include "../lib/util.h"

int cli_split(char *line, char **argv, int max)
{
	int argc = 0;
	char *p = line;

	while (*p) {
		char *dst;

		while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
			p++;
		if (!*p)
			break;
		if (argc >= max)
			return -AE_2BIG;
		argv[argc++] = dst = p;
		while (*p && *p != ' ' && *p != '\t' && *p != '\r' && *p != '\n') {
			if (*p == '"') {
				p++;
				while (*p && *p != '"')
					*dst++ = *p++;
				if (*p == '"')
					p++;
				continue;
			}
			*dst++ = *p++;
		}
		if (*p)
			p++;
		*dst = '\0';
	}
	return argc;
}

/* UEFI paths use '\\'; a '/' (as efibootmgr users and Unix habits write
 * it) is taken as '\\', in place. */
static void path_slashes(char *p)
{
	for (; *p; p++)
		if (*p == '/')
			*p = '\\';
}

static int usage_error(struct cli *c, const char *fmt, const char *arg)
{
	fmt_snprintf(c->error, sizeof(c->error), fmt, arg ? arg : "");
	return -AE_INVAL;
}

/* A keyword value and what it stands for. */
struct choice {
	const char *word;
	int val;
};

/* *val for the word v among ch[0..n); -AE_INVAL for none (or no v). */
static int pick(const struct choice *ch, unsigned n, const char *v, int *val)
{
	for (unsigned i = 0; v && i < n; i++) {
		if (!str_cmp(v, ch[i].word)) {
			*val = ch[i].val;
			return 0;
		}
	}
	return -AE_INVAL;
}

/* ------------------------------------------------------------ options */

static int opt_help(struct cli *c, const char *opt, char *v)
{
	(void)opt;
	(void)v;
	c->cmd = CLI_HELP;
	return 0;
}

static int opt_policy(struct cli *c, const char *opt, char *v)
{
	(void)opt;
	if (v && !str_cmp(v, "auto")) {
		c->in.override = OVR_NONE;
		return 0;
	}
	if (aspm_parse_override(v, &c->in.override) || c->in.override == OVR_NONE)
		return usage_error(c, "--policy: expected auto, keep, clear, force, notouch, default, performance, powersave or powersupersave, got '%s'", v);
	return 0;
}

static int opt_fadt_mode(struct cli *c, const char *opt, char *v)
{
	(void)opt;
	if (aspm_parse_fadt_mode(v, &c->in.fadt_mode))
		return usage_error(c, "--fadt-mode: expected clear or notouch, got '%s'", v);
	return 0;
}

static int opt_osc(struct cli *c, const char *opt, char *v)
{
	static const struct choice ch[] = { { "granted", 1 }, { "denied", 0 }, { "auto", 2 } };
	int val;

	(void)opt;
	if (pick(ch, ARRAY_SIZE(ch), v, &val))
		return usage_error(c, "--osc: expected auto, granted or denied, got '%s'", v);
	c->osc_auto = val == 2;
	c->in.osc_granted = val != 0;
	c->in.osc_source = val == 2 ? OSC_SRC_DEFAULT : OSC_SRC_OPTION;
	return 0;
}

/* "SUPPORT:CONTROL", two hex numbers of at most 8 digits */
static int hex32(const char **s, uint32_t *v)
{
	unsigned n = 0;

	*v = 0;
	if ((*s)[0] == '0' && ((*s)[1] == 'x' || (*s)[1] == 'X'))
		*s += 2;
	for (; hex_digit(**s) >= 0 && n < 9; (*s)++, n++)
		*v = *v << 4 | (uint32_t)hex_digit(**s);
	return n && n <= 8 ? 0 : -1;
}

static int opt_osc_request(struct cli *c, const char *opt, char *v)
{
	const char *s = v;

	(void)opt;
	if (hex32(&s, &c->osc_req.support) || *s++ != ':' ||
	    hex32(&s, &c->osc_req.control) || *s)
		return usage_error(c, "--osc-request: expected SUPPORT:CONTROL in hex (e.g. 0x19f:0xbf), got '%s'", v);
	c->osc_req_set = true;
	return 0;
}

static int opt_apply(struct cli *c, const char *opt, char *v)
{
	(void)opt;
	(void)v;
	if (c->cmd != CLI_REMOVE)
		return usage_error(c, "--apply is only for 'remove'%s", NULL);
	c->remove_apply = true;
	return 0;
}

static int opt_verbose(struct cli *c, const char *opt, char *v)
{
	(void)opt;
	(void)v;
	c->verbose = true;
	return 0;
}

static int opt_dumps(struct cli *c, const char *opt, char *v)
{
	static const struct choice ch[] = { { "yes", 0 }, { "no", 1 } };
	int val;

	(void)opt;
	if (pick(ch, ARRAY_SIZE(ch), v, &val))
		return usage_error(c, "--dumps: expected yes or no, got '%s'", v);
	c->no_dumps = val;
	return 0;
}

static int opt_tries(struct cli *c, const char *opt, char *v)
{
	unsigned n = 0;
	const char *p = v;

	(void)opt;
	for (; p && *p >= '0' && *p <= '9' && n <= TRIES_MAX; p++)
		n = n * 10 + (unsigned)(*p - '0');
	if (!v || !*v || *p || n > TRIES_MAX)
		return usage_error(c, "--tries: expected a number of boots from 0 to 100, got '%s'", v);
	c->tries = (int)n;
	return 0;
}

static int opt_scan(struct cli *c, const char *opt, char *v)
{
	static const struct choice ch[] = { { "full", 1 }, { "bridges", 0 } };
	int val;

	(void)opt;
	if (pick(ch, ARRAY_SIZE(ch), v, &val))
		return usage_error(c, "--scan: expected bridges or full, got '%s'", v);
	c->full_scan = val;
	return 0;
}

/* --next and --results: an absolute path on the ESP */
static int opt_path(struct cli *c, const char *opt, char *v)
{
	if (v)
		path_slashes(v);
	if (!v || v[0] != '\\')
		return usage_error(c, "%s: expected an absolute ESP path like \\EFI\\x.efi", opt);
	if (str_chr(v, ' '))
		return usage_error(c, "'%s': paths with spaces are not supported (records are space-separated)", v);
	if (!str_cmp(opt, "--next"))
		c->next = v;
	else
		c->results = v;
	return 0;
}

static int opt_next_options(struct cli *c, const char *opt, char *v)
{
	(void)opt;
	if (!v)
		return usage_error(c, "--next-options: missing value%s", NULL);
	c->next_options = v;
	return 0;
}

static int opt_emulate_fadt(struct cli *c, const char *opt, char *v)
{
	static const struct choice ch[] = {
		{ "set-no-aspm", 1 }, { "clear-no-aspm", 0 }, { "leave", -1 },
	};

	(void)opt;
	if (pick(ch, ARRAY_SIZE(ch), v, &c->emulate_fadt))
		return usage_error(c, "--emulate-fadt: expected set-no-aspm, clear-no-aspm or leave, got '%s'", v);
	return 0;
}

static int opt_root_bus(struct cli *c, const char *opt, char *v)
{
	struct pci_addr r;
	char tmp[24];

	(void)opt;
	if (!v || str_len(v) > 7)
		return usage_error(c, "--root-bus: expected SSSS:BB, got '%s'", v);
	fmt_snprintf(tmp, sizeof(tmp), "%s:00.0", v);
	if (pci_addr_parse(tmp, &r))
		return usage_error(c, "--root-bus: expected SSSS:BB, got '%s'", v);
	if (c->nroots >= ARRAY_SIZE(c->roots))
		return usage_error(c, "--root-bus: at most 8%s", NULL);
	c->roots[c->nroots++] = r;
	return 0;
}

/* --disable STATES@MATCH, repeatable: every rule counts */
static int opt_disable(struct cli *c, const char *opt, char *v)
{
	(void)opt;
	if (c->nexcl >= ASPM_MAX_EXCL)
		return usage_error(c, "--disable: at most 16 rules%s", NULL);
	if (aspm_excl_parse(v, &c->excl[c->nexcl]))
		return usage_error(c, "--disable: bad rule '%s' (expected STATES@MATCH, see -h)", v);
	c->nexcl++;
	return 0;
}

/* Every option: its names, whether the next word is its value, and the
 * step that takes it. cli_usage() describes each one. */
static const struct cli_option {
	const char *name, *alias;
	bool value;
	int (*set)(struct cli *c, const char *opt, char *v);
} options[] = {
	{ "--help", "-h", false, opt_help },
	{ "--policy", NULL, true, opt_policy },
	{ "--fadt-mode", NULL, true, opt_fadt_mode },
	{ "--osc", NULL, true, opt_osc },
	{ "--osc-request", NULL, true, opt_osc_request },
	{ "--apply", NULL, false, opt_apply },
	{ "--verbose", "-v", false, opt_verbose },
	{ "--dumps", NULL, true, opt_dumps },
	{ "--tries", NULL, true, opt_tries },
	{ "--scan", NULL, true, opt_scan },
	{ "--next", NULL, true, opt_path },
	{ "--results", NULL, true, opt_path },
	{ "--next-options", NULL, true, opt_next_options },
	{ "--emulate-fadt", NULL, true, opt_emulate_fadt },
	{ "--root-bus", NULL, true, opt_root_bus },
	{ "--disable", NULL, true, opt_disable },
};

static const struct cli_option *find_option(const char *a)
{
	for (unsigned k = 0; k < ARRAY_SIZE(options); k++)
		if (!str_cmp(a, options[k].name) ||
		    (options[k].alias && !str_cmp(a, options[k].alias)))
			return &options[k];
	return NULL;
}

/* ------------------------------------------------------------ commands */

static const struct {
	const char *name;
	enum cli_cmd cmd;
} commands[] = {
	{ "report", CLI_REPORT }, { "plan", CLI_PLAN }, { "apply", CLI_APPLY },
	{ "remove", CLI_REMOVE }, { "fadt", CLI_FADT }, { "help", CLI_HELP },
	{ "version", CLI_VERSION }, { "dump", CLI_DUMP }, { "boot", CLI_BOOT },
};

const char *cli_cmd_name(enum cli_cmd cmd)
{
	for (unsigned k = 0; k < ARRAY_SIZE(commands); k++)
		if (commands[k].cmd == cmd)
			return commands[k].name;
	return "?";
}

/* The operands after a command: remove BDF, dump [DIR], fadt --set|clear. */
static int command_operands(struct cli *c, int argc, char **argv, int *i)
{
	static const struct choice fadt[] = {
		{ "--set-no-aspm", 1 }, { "--clear-no-aspm", 0 },
	};

	if (c->cmd == CLI_REMOVE) {
		if (*i >= argc)
			return usage_error(c, "remove: missing BDF (SSSS:BB:DD.F)%s", NULL);
		if (pci_addr_parse(argv[*i], &c->remove))
			return usage_error(c, "remove: bad BDF '%s' (expected SSSS:BB:DD.F)", argv[*i]);
		(*i)++;
	}
	if (c->cmd == CLI_DUMP && *i < argc && argv[*i][0] != '-') {
		path_slashes(argv[*i]);
		if (argv[*i][0] != '\\')
			return usage_error(c, "dump: folder must be an absolute ESP path like \\dump, got '%s'", argv[*i]);
		if (str_chr(argv[*i], ' '))
			return usage_error(c, "dump: '%s': paths with spaces are not supported (records are space-separated)", argv[*i]);
		c->dump_dir = argv[(*i)++];
	}
	if (c->cmd == CLI_FADT) {
		if (pick(fadt, ARRAY_SIZE(fadt), *i < argc ? argv[*i] : NULL,
			 &c->fadt_set))
			return usage_error(c, "fadt: expected --set-no-aspm or --clear-no-aspm%s", NULL);
		(*i)++;
	}
	return 0;
}

/* The first word, when it is not an option, names the command. */
static int parse_command(struct cli *c, int argc, char **argv, int *i)
{
	const char *cmd;
	unsigned k;

	if (*i >= argc || argv[*i][0] == '-')
		return 0;
	cmd = argv[(*i)++];
	for (k = 0; k < ARRAY_SIZE(commands); k++)
		if (!str_cmp(cmd, commands[k].name))
			break;
	if (k == ARRAY_SIZE(commands))
		return usage_error(c, "unknown command '%s' (try -h)", cmd);
	c->cmd = commands[k].cmd;
	return command_operands(c, argc, argv, i);
}

static void cli_defaults(struct cli *c)
{
	mem_set(c, 0, sizeof(*c));
	c->cmd = CLI_REPORT;
	c->in.osc_granted = true;
	c->osc_auto = true;
	c->in.override = OVR_NONE;
	c->in.fadt_mode = FADT_MODE_NOTOUCH;
	c->emulate_fadt = -1;
	c->tries = -1;
	c->dump_dir = "\\EFI\\aspmctl\\dump";
	c->results = "\\EFI\\aspmctl\\results";
}

int cli_parse(int argc, char **argv, struct cli *c)
{
	int i = 0, rc;

	cli_defaults(c);
	rc = parse_command(c, argc, argv, &i);
	if (rc)
		return rc;
	for (; i < argc; i++) {
		const struct cli_option *opt = find_option(argv[i]);
		char *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!opt)
			return usage_error(c, "unknown option '%s' (try -h)", argv[i]);
		rc = opt->set(c, argv[i], opt->value ? v : NULL);
		if (rc)
			return rc;
		if (opt->value)
			i++;
	}
	return 0;
}

void cli_usage(const struct out *o)
{
	out_puts(o,
"usage: aspmctl.efi [COMMAND] [OPTIONS]\n"
"commands:\n"
"  report             FADT flags, MCFG regions, PCIe tree, links (default;\n"
"                     never writes config space)\n"
"  plan               decision records and the writes apply would make\n"
"  apply              apply the policy, read every write back\n"
"  remove BDF         emulate hot removal of BDF (teardown as Linux does)\n"
"  fadt --set-no-aspm | --clear-no-aspm\n"
"                     test platforms: patch IAPC_BOOT_ARCH bit 4 in every\n"
"                     FADT (RSDT and XSDT), fix checksums, show before/after\n"
"  dump [DIR]         config space of every function in lspci -F format\n"
"                     (4096 bytes PCIe, 256 conventional PCI) to DIR on\n"
"                     the ESP (default \\EFI\\aspmctl\\dump)\n"
"  boot               chainloader: apply, write results to the ESP, set\n"
"                     the AspmctlSummary variable, start --next; fails open\n"
"  help, version\n"
"options:\n"
"  --policy auto|keep|clear|force|notouch   override the decision table\n"
"                     (auto: FADT and _OSC decide; default auto)\n"
"  --policy default|performance|powersave|powersupersave   as Linux 6.1's\n"
"                     pcie_aspm.policy=; powersupersave adds L1 PM Substates\n"
"  --fadt-mode clear|notouch   what FADT \"ASPM unsupported\" means\n"
"                     (clear: 2.6.37 behaviour; notouch: Linux 6.1; default)\n"
"  --osc auto|granted|denied  _OSC: ask the firmware's own _OSC on every host\n"
"                         bridge, as Linux 6.1 does (auto, the default; an\n"
"                         answer not knowable before the OS falls back to\n"
"                         granted), or assume one\n"
"  --osc-request S:C      _OSC Support and Control DWORDs to offer (hex;\n"
"                         default 0x19f:0xbf, Debian 12's Linux 6.1)\n"
"  --apply            with remove: write the teardown (default: predict)\n"
"  --scan bridges|full   follow firmware's bridges (default) or probe\n"
"                     every bus of the MCFG range\n"
"  --root-bus SSSS:BB   also scan this root bus (e.g. a pxb-pcie bus)\n"
"  --disable STATES@MATCH   never enable STATES on the link of MATCH\n"
"                     (repeatable): STATES a comma list of L0s, L1, L1.1,\n"
"                     L1.2, clkpm, all; MATCH VVVV:DDDD, [SSSS:]BB:DD.F or\n"
"                     class:CCCCCC (prefix); binds keep, force and the\n"
"                     power* policies, not clear or notouch\n"
"  -v, --verbose      human-readable link table too\n"
"boot options (also keys of \\EFI\\aspmctl\\aspmctl.conf):\n"
"  --next PATH        next loader on this volume (\\EFI\\debian\\grubx64.efi)\n"
"  --next-options STR   its load options (\"initrd=\\initrd.img ...\")\n"
"  --emulate-fadt set-no-aspm|clear-no-aspm|leave   patch the FADT first\n"
"  --results DIR      result files (default \\EFI\\aspmctl\\results)\n"
"  --dumps yes|no     config space before/after in the results (default yes)\n"
"  --tries N          boot: after N boots in a row not confirmed by\n"
"                     'aspmctl bless', apply nothing (default 3; 0: off;\n"
"                     notouch is never counted)\n"
"  -h, --help\n"
"Errors: a usage error prints one line and returns EFI_INVALID_PARAMETER.\n");
}

int cli_merge(const char *conf_cmd, char **conf, int nconf, char **args,
	      int nargs, char **out)
{
	int n = 0, a = 0;

	if (nargs && args[0][0] != '-') {
		/* the command and its operands (remove BDF, dump DIR, ...) */
		while (a < nargs && args[a][0] != '-')
			out[n++] = args[a++];
	} else if (conf_cmd) {
		out[n++] = (char *)conf_cmd;
	}
	for (int i = 0; i < nconf; i++)
		out[n++] = conf[i];
	for (; a < nargs; a++)
		out[n++] = args[a];
	return n;
}

/* ------------------------------------------------------------ load options */

static bool printable(unsigned c)
{
	return (c >= 0x20 && c < 0x7f) || c == '\t';
}

int boot_decode_options(const void *data, size_t size, char *line, size_t max)
{
	const uint8_t *b = data;
	size_t n = 0, i;
	bool ucs2 = size >= 2 && !(size & 1);

	line[0] = '\0';
	if (!data || !size)
		return 0;
	/* UCS-2 text of ASCII characters: high bytes zero up to the NUL */
	for (i = 0; ucs2 && i + 1 < size; i += 2) {
		unsigned c = b[i] | (unsigned)b[i + 1] << 8;

		if (!c)
			break;
		if (!printable(c))
			ucs2 = false;
	}
	if (ucs2) {
		for (i = 0; i + 1 < size && (b[i] | b[i + 1]); i += 2) {
			if (n + 1 >= max)
				return -AE_2BIG;
			line[n++] = (char)b[i];
		}
		line[n] = '\0';
		return (int)n;
	}
	/* 8-bit text (efibootmgr without -u): printable bytes up to a NUL */
	for (i = 0; i < size && b[i]; i++)
		if (!printable(b[i]))
			return 0;	/* binary OptionalData: no command line */
	for (i = 0; i < size && b[i]; i++) {
		if (n + 1 >= max)
			return -AE_2BIG;
		line[n++] = (char)b[i];
	}
	line[n] = '\0';
	return (int)n;
}

static bool names_program(const char *w)
{
	size_t len = str_len(w);
	const char *e = w + len - 4;

	return len >= 4 && e[0] == '.' && (e[1] | 0x20) == 'e' &&
	       (e[2] | 0x20) == 'f' && (e[3] | 0x20) == 'i';
}

int boot_split_options(char *line, char **argv, int max)
{
	int argc = cli_split(line, argv, max);

	if (argc > 0 && names_program(argv[0])) {
		for (int i = 1; i < argc; i++)
			argv[i - 1] = argv[i];
		argc--;
	}
	return argc;
}
