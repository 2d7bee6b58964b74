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
	{ "version", CLI_VERSION },
};

int cli_parse(int argc, char **argv, struct cli *c)
{
	int i = 0;

	mem_set(c, 0, sizeof(*c));
	c->cmd = CLI_REPORT;
	c->in.osc_granted = true;
	c->in.override = OVR_NONE;
	c->in.fadt_mode = FADT_MODE_NOTOUCH;
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
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;

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
		} else if (!str_cmp(a, "--scan")) {
			if (v && !str_cmp(v, "full"))
				c->full_scan = true;
			else if (v && !str_cmp(v, "bridges"))
				c->full_scan = false;
			else
				return usage_error(c, "--scan: expected bridges or full, got '%s'", v);
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
"  -h, --help\n"
"Errors: a usage error prints one line and returns EFI_INVALID_PARAMETER.\n");
}
