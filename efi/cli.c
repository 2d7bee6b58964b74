// SPDX-License-Identifier: GPL-2.0-only
#include "cli.h"
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

/* UEFI paths use '\'; a '/' (as efibootmgr users and Unix habits write
 * it) is taken as '\', in place. */
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

static int parse_policy(struct cli *c, const char *v)
{
	if (v && !str_cmp(v, "auto")) {
		c->in.override = OVR_NONE;
		return 0;
	}
	if (aspm_parse_override(v, &c->in.override) || c->in.override == OVR_NONE)
		return usage_error(c, "--policy: expected auto, keep, clear, force or notouch, got '%s'", v);
	return 0;
}

static const struct {
	const char *name;
	enum cli_cmd cmd;
} commands[] = {
	{ "report", CLI_REPORT }, { "plan", CLI_PLAN }, { "apply", CLI_APPLY },
	{ "remove", CLI_REMOVE }, { "fadt", CLI_FADT }, { "help", CLI_HELP },
	{ "version", CLI_VERSION }, { "dump", CLI_DUMP }, { "boot", CLI_BOOT },
};

int cli_parse(int argc, char **argv, struct cli *c)
{
	int i = 0;

	mem_set(c, 0, sizeof(*c));
	c->cmd = CLI_REPORT;
	c->in.osc_granted = true;
	c->in.override = OVR_NONE;
	c->in.fadt_mode = FADT_MODE_NOTOUCH;
	c->emulate_fadt = -1;
	c->dump_dir = "\\EFI\\aspmctl\\dump";
	c->results = "\\EFI\\aspmctl\\results";
	if (i < argc && argv[i][0] != '-') {
		const char *cmd = argv[i++];

		unsigned k;

		for (k = 0; k < ARRAY_SIZE(commands); k++)
			if (!str_cmp(cmd, commands[k].name))
				break;
		if (k == ARRAY_SIZE(commands))
			return usage_error(c, "unknown command '%s' (try -h)", cmd);
		c->cmd = commands[k].cmd;
		if (c->cmd == CLI_REMOVE) {
			if (i >= argc)
				return usage_error(c, "remove: missing BDF (SSSS:BB:DD.F)%s", NULL);
			if (pci_addr_parse(argv[i], &c->remove))
				return usage_error(c, "remove: bad BDF '%s' (expected SSSS:BB:DD.F)", argv[i]);
			i++;
		}
		if (c->cmd == CLI_DUMP && i < argc && argv[i][0] != '-') {
			path_slashes(argv[i]);
			if (argv[i][0] != '\\')
				return usage_error(c, "dump: folder must be an absolute ESP path like \\dump, got '%s'", argv[i]);
			c->dump_dir = argv[i++];
		}
		if (c->cmd == CLI_FADT) {
			if (i < argc && !str_cmp(argv[i], "--set-no-aspm"))
				c->fadt_set = 1;
			else if (i < argc && !str_cmp(argv[i], "--clear-no-aspm"))
				c->fadt_set = 0;
			else
				return usage_error(c, "fadt: expected --set-no-aspm or --clear-no-aspm%s", NULL);
			i++;
		}
	}
	for (; i < argc; i++) {
		const char *a = argv[i];
		char *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!str_cmp(a, "-h") || !str_cmp(a, "--help")) {
			c->cmd = CLI_HELP;
		} else if (!str_cmp(a, "--policy")) {
			if (parse_policy(c, v))
				return -AE_INVAL;
			i++;
		} else if (!str_cmp(a, "--fadt-mode")) {
			if (aspm_parse_fadt_mode(v, &c->in.fadt_mode))
				return usage_error(c, "--fadt-mode: expected clear or notouch, got '%s'", v);
			i++;
		} else if (!str_cmp(a, "--osc")) {
			if (v && !str_cmp(v, "granted"))
				c->in.osc_granted = true;
			else if (v && !str_cmp(v, "denied"))
				c->in.osc_granted = false;
			else
				return usage_error(c, "--osc: expected granted or denied, got '%s'", v);
			i++;
		} else if (!str_cmp(a, "--apply")) {
			if (c->cmd != CLI_REMOVE)
				return usage_error(c, "--apply is only for 'remove'%s", NULL);
			c->remove_apply = true;
		} else if (!str_cmp(a, "--verbose") || !str_cmp(a, "-v")) {
			c->verbose = true;
		} else if (!str_cmp(a, "--dumps")) {
			if (v && !str_cmp(v, "yes"))
				c->no_dumps = false;
			else if (v && !str_cmp(v, "no"))
				c->no_dumps = true;
			else
				return usage_error(c, "--dumps: expected yes or no, got '%s'", v);
			i++;
		} else if (!str_cmp(a, "--scan")) {
			if (v && !str_cmp(v, "full"))
				c->full_scan = true;
			else if (v && !str_cmp(v, "bridges"))
				c->full_scan = false;
			else
				return usage_error(c, "--scan: expected bridges or full, got '%s'", v);
			i++;
		} else if (!str_cmp(a, "--next") || !str_cmp(a, "--results")) {
			if (v)
				path_slashes(v);
			if (!v || v[0] != '\\')
				return usage_error(c, "%s: expected an absolute ESP path like \\EFI\\x.efi", a);
			if (!str_cmp(a, "--next"))
				c->next = v;
			else
				c->results = v;
			i++;
		} else if (!str_cmp(a, "--next-options")) {
			if (!v)
				return usage_error(c, "--next-options: missing value%s", NULL);
			c->next_options = v;
			i++;
		} else if (!str_cmp(a, "--emulate-fadt")) {
			if (v && !str_cmp(v, "set-no-aspm"))
				c->emulate_fadt = 1;
			else if (v && !str_cmp(v, "clear-no-aspm"))
				c->emulate_fadt = 0;
			else if (v && !str_cmp(v, "leave"))
				c->emulate_fadt = -1;
			else
				return usage_error(c, "--emulate-fadt: expected set-no-aspm, clear-no-aspm or leave, got '%s'", v);
			i++;
		} else if (!str_cmp(a, "--root-bus")) {
			struct pci_addr r;
			char tmp[24];

			if (!v || str_len(v) > 7)
				return usage_error(c, "--root-bus: expected SSSS:BB, got '%s'", v);
			fmt_snprintf(tmp, sizeof(tmp), "%s:00.0", v);
			if (pci_addr_parse(tmp, &r))
				return usage_error(c, "--root-bus: expected SSSS:BB, got '%s'", v);
			if (c->nroots >= 8)
				return usage_error(c, "--root-bus: at most 8%s", NULL);
			c->roots[c->nroots++] = r;
			i++;
		} else {
			return usage_error(c, "unknown option '%s' (try -h)", a);
		}
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
"  --fadt-mode clear|notouch   what FADT \"ASPM unsupported\" means\n"
"                     (clear: 2.6.37 behaviour; notouch: Linux 6.1; default)\n"
"  --osc granted|denied   _OSC result to assume (default granted)\n"
"  --apply            with remove: write the teardown (default: predict)\n"
"  --scan bridges|full   follow firmware's bridges (default) or probe\n"
"                     every bus of the MCFG range\n"
"  --root-bus SSSS:BB   also scan this root bus (e.g. a pxb-pcie bus)\n"
"  -v, --verbose      human-readable link table too\n"
"boot options (also keys of \\EFI\\aspmctl\\aspmctl.conf):\n"
"  --next PATH        next loader on this volume (\\EFI\\debian\\grubx64.efi)\n"
"  --next-options STR   its load options (\"initrd=\\initrd.img ...\")\n"
"  --emulate-fadt set-no-aspm|clear-no-aspm|leave   patch the FADT first\n"
"  --results DIR      result files (default \\EFI\\aspmctl\\results)\n"
"  --dumps yes|no     config space before/after in the results (default yes)\n"
"  -h, --help\n"
"Errors: a usage error prints one line and returns EFI_INVALID_PARAMETER.\n");
}

static char *trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + str_len(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		*--e = '\0';
	return s;
}

size_t cli_conf_decode(char *buf, size_t len)
{
	const unsigned char *u = (const unsigned char *)buf;
	size_t n = 0;
	int hi;

	if (len >= 3 && u[0] == 0xef && u[1] == 0xbb && u[2] == 0xbf) {
		/* UTF-8 byte order mark */
		for (size_t i = 3; i < len; i++)
			buf[i - 3] = buf[i];
		buf[len - 3] = '\0';
		return len - 3;
	}
	if (len >= 2 && u[0] == 0xff && u[1] == 0xfe)
		hi = 1;		/* UTF-16LE: FF FE, then low byte first */
	else if (len >= 2 && u[0] == 0xfe && u[1] == 0xff)
		hi = 0;		/* UTF-16BE */
	else
		return len;
	/* one byte out for two in, so in place; a lone last byte is dropped */
	for (size_t i = 2; i + 1 < len; i += 2) {
		unsigned ch = (unsigned)u[i + !hi] | (unsigned)u[i + hi] << 8;

		if (!ch)
			break;
		/* non-ASCII (and each half of a surrogate pair) becomes one
		 * byte >= 0x80 that cli_conf_split refuses outside comments */
		buf[n++] = ch < 0x80 ? (char)ch : (char)0x80;
	}
	buf[n] = '\0';
	return n;
}

static int conf_error(char *err, size_t errsize, unsigned lineno, const char *what,
		      const char *arg)
{
	char m[96];

	fmt_snprintf(m, sizeof(m), what, arg ? arg : "");
	fmt_snprintf(err, errsize, "line %u: %s", lineno, m);
	return -AE_INVAL;
}

/* Keys whose value is yes/no: the options that take no value. */
static const struct {
	const char *key, *option;
} conf_flags[] = {
	{ "verbose", "--verbose" }, { "apply", "--apply" },
};

static int conf_bool(const char *v)
{
	static const char *const yes[] = { "yes", "true", "1" };
	static const char *const no[] = { "no", "false", "0" };

	for (unsigned i = 0; i < ARRAY_SIZE(yes); i++) {
		if (!str_cmp(v, yes[i]))
			return 1;
		if (!str_cmp(v, no[i]))
			return 0;
	}
	return -1;
}

/*
 * One "key = value" line, comments already known not to start it. Sets
 * *key and *val (pointing into line) or returns -AE_INVAL with err set.
 * A value wholly in "..." or '...' loses the quotes and keeps every
 * character between them; elsewhere a '#' after a blank starts a comment,
 * except inside "double quotes" (kernel-style param="a b").
 */
static int conf_line(char *line, unsigned lineno, char **key, char **val,
		     char *err, size_t errsize)
{
	char *eq = line, *v, *p;
	bool dq = false;

	while (*eq && *eq != '=')
		eq++;
	if (!*eq)
		return conf_error(err, errsize, lineno, "expected 'key = value'%s", NULL);
	*eq = '\0';
	*key = trim(line);
	for (p = *key; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '-' || *p == '_'))
			break;
	if (!**key || *p || str_len(*key) > 30)
		return conf_error(err, errsize, lineno, "expected 'key = value'%s", NULL);
	v = eq + 1;
	while (*v == ' ' || *v == '\t')
		v++;
	if (*v == '"' || *v == '\'') {
		char q = *v++;

		for (p = v; *p && *p != q; p++)
			;
		if (!*p)
			return conf_error(err, errsize, lineno, "%s: missing closing quote", *key);
		*p++ = '\0';
		while (*p == ' ' || *p == '\t' || *p == '\r')
			p++;
		if (*p && *p != '#')
			return conf_error(err, errsize, lineno, "%s: text after the closing quote", *key);
		*val = v;
	} else {
		for (p = v; *p; p++) {
			if (*p == '"')
				dq = !dq;
			else if (*p == '#' && !dq && (p[-1] == ' ' || p[-1] == '\t'))
				break;
		}
		if (dq)
			return conf_error(err, errsize, lineno, "%s: missing closing quote", *key);
		*p = '\0';
		*val = trim(v);
		if (!**val)
			return conf_error(err, errsize, lineno, "expected 'key = value'%s", NULL);
	}
	for (p = *val; *p; p++)
		if ((unsigned char)*p >= 0x80)
			return conf_error(err, errsize, lineno,
					  "%s: non-ASCII character (values must be ASCII)", *key);
	return 0;
}

int cli_conf_split(char *text, char **argv, int max, const char **cmd,
		   char *err, size_t errsize)
{
	static char keys[CLI_MAX_ARGS][40];
	signed char flag[ARRAY_SIZE(conf_flags)];
	unsigned lineno = 0, nkeys = 0;
	char *line = text;
	int argc = 0;

	*cmd = NULL;
	mem_set(flag, -1, sizeof(flag));
	if ((unsigned char)line[0] == 0xef && (unsigned char)line[1] == 0xbb &&
	    (unsigned char)line[2] == 0xbf)
		line += 3;	/* UTF-8 byte order mark */
	while (line && *line) {
		char *nl = line, *key, *val, *s;
		unsigned k;
		int rc;

		while (*nl && *nl != '\n')
			nl++;
		if (*nl)
			*nl++ = '\0';
		else
			nl = NULL;
		lineno++;
		s = trim(line);
		line = nl;
		if (!*s || *s == '#')
			continue;
		rc = conf_line(s, lineno, &key, &val, err, errsize);
		if (rc)
			return rc;
		for (k = 0; k < ARRAY_SIZE(conf_flags); k++)
			if (!str_cmp(key, conf_flags[k].key))
				break;
		if (k < ARRAY_SIZE(conf_flags)) {
			flag[k] = (signed char)conf_bool(val);
			if (flag[k] < 0)
				return conf_error(err, errsize, lineno,
						  "%s: expected yes, no, true, false, 1 or 0", key);
		} else if (!str_cmp(key, "command")) {
			*cmd = val;
		} else {
			if (argc + 2 > max || nkeys >= CLI_MAX_ARGS) {
				fmt_snprintf(err, errsize, "line %u: too many settings", lineno);
				return -AE_2BIG;
			}
			fmt_snprintf(keys[nkeys], sizeof(keys[nkeys]), "--%s", key);
			argv[argc++] = keys[nkeys++];
			argv[argc++] = val;
		}
	}
	/* flags last: "verbose = no" after "verbose = yes" wins */
	for (unsigned k = 0; k < ARRAY_SIZE(conf_flags); k++) {
		if (flag[k] != 1)
			continue;
		if (argc + 1 > max) {
			fmt_snprintf(err, errsize, "line %u: too many settings", lineno);
			return -AE_2BIG;
		}
		argv[argc++] = (char *)conf_flags[k].option;
	}
	return argc;
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
