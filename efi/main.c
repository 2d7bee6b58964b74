// SPDX-License-Identifier: GPL-2.0-only
/*
 * aspmctl.efi entry point: arguments, ACPI discovery, enumeration over
 * ECAM, the policy run, and the exit status. Errors inside are negative
 * AE_* codes; they become EFI_STATUS only here.
 */
#include "platform.h"
#include "cli.h"
#include "../lib/err.h"
#include "../lib/log.h"
#include "../lib/util.h"
#include "../pcie/run.h"
#include "../pcie/dump.h"

#ifndef ASPMCTL_VERSION
#define ASPMCTL_VERSION "unknown"
#endif

#define MAX_FN		4096
#define MAX_LINK	2048
#define MAX_WRITES	8192

static EFI_GUID acpi20_guid = ACPI_20_TABLE_GUID;
static EFI_GUID acpi10_guid = ACPI_TABLE_GUID;

static char cmdline[CLI_MAX_LINE];

/* Load options as ASCII; the program's own path is dropped when the
 * shell passed it (first word ending in ".efi"). */
static int get_args(EFI_HANDLE image, char **argv, int max)
{
	EFI_LOADED_IMAGE *li = NULL;
	EFI_STATUS st;
	const CHAR16 *opt;
	UINTN n, k = 0;
	int argc;

	st = uefi_call_wrapper(BS->HandleProtocol, 3, image, &LoadedImageProtocol,
			       (void **)&li);
	if (EFI_ERROR(st) || !li || !li->LoadOptions || li->LoadOptionsSize < 2)
		return 0;
	opt = li->LoadOptions;
	n = li->LoadOptionsSize / 2;
	for (UINTN i = 0; i < n && opt[i] && k + 1 < sizeof(cmdline); i++) {
		CHAR16 ch = opt[i];

		/* binary OptionalData from a boot entry: not a command line */
		if (ch < 0x20 && ch != '\t')
			return 0;
		cmdline[k++] = ch < 0x80 ? (char)ch : '?';
	}
	cmdline[k] = '\0';
	argc = cli_split(cmdline, argv, max);
	if (argc > 0) {
		size_t len = str_len(argv[0]);

		if (len >= 4 && (!str_cmp(argv[0] + len - 4, ".efi") ||
				 !str_cmp(argv[0] + len - 4, ".EFI"))) {
			for (int i = 1; i < argc; i++)
				argv[i - 1] = argv[i];
			argc--;
		}
	}
	return argc;
}

static int find_rsdp(uint64_t *phys)
{
	void *p = NULL;

	if (LibGetSystemConfigurationTable(&acpi20_guid, &p) == EFI_SUCCESS && p) {
		*phys = (uint64_t)(UINTN)p;
		return 0;
	}
	if (LibGetSystemConfigurationTable(&acpi10_guid, &p) == EFI_SUCCESS && p) {
		*phys = (uint64_t)(UINTN)p;
		return 0;
	}
	return log_error(-AE_NOENT, "no ACPI RSDP in the EFI configuration table");
}

static int run_fadt(struct cli *cli, const struct out *o)
{
	struct fadt_patch res[8];
	struct acpi_mem mem;
	uint64_t rsdp = 0;
	unsigned n = 0;
	int rc;

	efi_mem_init(&mem);
	rc = find_rsdp(&rsdp);
	if (!rc)
		rc = acpi_patch_fadts(&mem, rsdp, cli->fadt_set ? FADT_IAPC_NO_ASPM : 0,
				      cli->fadt_set ? 0 : FADT_IAPC_NO_ASPM, res, 8, &n);
	for (unsigned i = 0; i < n; i++) {
		if (res[i].rc && !res[i].length)
			out_printf(o, "aspm fadt at=0x%llx root=%s result=invalid\n",
				   (unsigned long long)res[i].phys, res[i].root);
		else
			out_printf(o, "aspm fadt at=0x%llx root=%s length=%u before=0x%04x after=0x%04x result=%s\n",
				   (unsigned long long)res[i].phys, res[i].root,
				   res[i].length, res[i].before, res[i].after,
				   res[i].rc ? "refused" : "ok");
	}
	efi_mem_fini();
	return rc;
}

/* Everything a run needs, kept static: UEFI stacks are small. */
static struct acpi_info info;
static struct ecam ecam;
static struct pci_cfg cfg;
static struct pcie_topo topo;
static struct pcie_scan_opts sopts;
static struct aspm_run r;
static const struct aspm_env env = { .delay_us = efi_delay_us };
static EFI_HANDLE self;

/* ACPI discovery and enumeration; nothing is written. */
static int prepare(struct cli *cli, const struct out *o)
{
	struct acpi_mem mem;
	uint64_t rsdp = 0;
	int rc;

	efi_mem_init(&mem);
	rc = find_rsdp(&rsdp);
	if (rc)
		return rc;
	rc = acpi_discover(&mem, rsdp, &info);
	efi_mem_fini();
	if (rc && rc != -AE_NOENT)
		return log_error(rc, "ACPI discovery failed; nothing was written");
	report_acpi(o, &info);
	if (!info.nregions)
		return log_error(-AE_NOENT, "no usable MCFG region: cannot reach PCIe config space; nothing was written");
	if (!topo.fn) {
		topo.fn = AllocateZeroPool(MAX_FN * sizeof(struct pcie_fn));
		topo.link = AllocateZeroPool(MAX_LINK * sizeof(struct pcie_link));
		r.plan.w = AllocateZeroPool(MAX_WRITES * sizeof(struct aspm_write));
		r.lp = AllocateZeroPool(MAX_LINK * sizeof(struct aspm_link_plan));
	}
	if (!topo.fn || !topo.link || !r.plan.w || !r.lp)
		return log_error(-AE_NOMEM, "out of memory");
	topo.cap_fn = MAX_FN;
	topo.cap_link = MAX_LINK;
	r.plan.cap = MAX_WRITES;

	ecam.region = info.region;
	ecam.nregion = info.nregions;
	ecam.mmio = &efi_mmio_ops;
	pci_cfg_init(&cfg, &ecam_cfg_ops, &ecam);
	cfg.read_only = true;

	sopts.full_scan = cli->full_scan;
	sopts.nextra_roots = cli->nroots;
	for (unsigned i = 0; i < cli->nroots; i++)
		sopts.extra_root[i] = cli->roots[i];
	/* plus the root bridges firmware declares (pxb-pcie, multi-socket) */
	sopts.nextra_roots += efi_root_buses(sopts.extra_root + sopts.nextra_roots,
					     ARRAY_SIZE(sopts.extra_root) - sopts.nextra_roots);
	return pcie_enumerate(&cfg, info.region, info.nregions, &sopts, &topo);
}

static void print_stats(const struct out *o, uint64_t t0, uint64_t t_enum)
{
	char d1[24], d2[24];

	format_ns(t_enum - t0, d1, sizeof(d1));
	format_ns(efi_time_ns() - t0, d2, sizeof(d2));
	out_printf(o, "aspm stats reads=%llu writes=%llu refused-writes=%llu errors=%llu written=%u ignored=%u time=%s enum-time=%s\n",
		   (unsigned long long)cfg.reads, (unsigned long long)cfg.writes,
		   (unsigned long long)cfg.refused_writes,
		   (unsigned long long)cfg.errors, r.st.written, r.st.ignored, d2, d1);
	if (r.st.ignored)
		out_printf(o, "aspmctl: %u write(s) not reflected by the hardware (see 'ignored' above)\n",
			   r.st.ignored);
}

static int run(struct cli *cli, enum cli_cmd cmd, const struct out *o)
{
	uint64_t t0 = efi_time_ns(), t_enum;
	int rc;

	rc = prepare(cli, o);
	if (rc && rc != -AE_NOSPC)
		return rc;
	t_enum = efi_time_ns();
	report_tree(o, &topo);
	if (cli->verbose || cmd == CLI_REPORT)
		report_links(o, &topo);
	report_fn_records(o, &topo);

	/* report and plan never write; remove writes only with --apply */
	cfg.read_only = cmd == CLI_REPORT || cmd == CLI_PLAN ||
			(cmd == CLI_REMOVE && !cli->remove_apply);
	r.cmd = cmd == CLI_PLAN ? CMD_PLAN : cmd == CLI_APPLY ? CMD_APPLY :
		cmd == CLI_REMOVE ? CMD_REMOVE : CMD_REPORT;
	r.in = cli->in;
	r.fadt_valid = info.nfadt && info.fadt[0].boot_arch_valid;
	r.in.fadt_no_aspm = info.nfadt && fadt_no_aspm(&info.fadt[0]);
	r.remove = cli->remove;
	r.remove_apply = cli->remove_apply;
	r.topo = &topo;
	r.env = &env;
	rc = aspm_run(&cfg, &r, o) ?: rc;
	print_stats(o, t0, t_enum);
	cfg.read_only = true;
	return rc;
}

/* ------------------------------------------------------------ files */

/* Text collected for a file on the ESP. */
static struct out_buf file_buf;
static struct out file_out;
static char *file_text;
#define FILE_MAX	(4u << 20)

static int file_begin(void)
{
	if (!file_text)
		file_text = AllocatePool(FILE_MAX);
	if (!file_text)
		return log_error(-AE_NOMEM, "out of memory for result files");
	out_buf_init(&file_out, &file_buf, file_text, FILE_MAX);
	return 0;
}

static int file_end(const char *dir, const char *name, const struct out *o)
{
	char path[160];
	int rc;

	fmt_snprintf(path, sizeof(path), "%s\\%s", dir, name);
	if (file_buf.lost)
		log_warn(-AE_NOSPC, "%s: %llu bytes did not fit and are missing", path,
			 (unsigned long long)file_buf.lost);
	rc = esp_write_file(self, path, file_text, file_buf.len);
	if (!rc)
		out_printf(o, "aspmctl: wrote %s (%llu bytes)\n", path,
			   (unsigned long long)file_buf.len);
	return rc;
}

static int run_dump(struct cli *cli, const struct out *o)
{
	int rc = prepare(cli, o);

	if (rc && rc != -AE_NOSPC)
		return rc;
	rc = file_begin();
	if (rc)
		return rc;
	pcie_dump_all(&cfg, &topo, &file_out);
	rc = file_end(cli->dump_dir, "config.txt", o);
	out_printf(o, "aspm dump functions=%u reads=%llu file=%s\\config.txt\n", topo.nfn,
		   (unsigned long long)cfg.reads, cli->dump_dir);
	return rc;
}

/* ------------------------------------------------------------ tee */

struct tee {
	const struct out *a, *b;
};

static void tee_write(void *ctx, const char *s, size_t n)
{
	struct tee *t = ctx;

	t->a->write(t->a->ctx, s, n);
	if (t->b)
		t->b->write(t->b->ctx, s, n);
}

/* ------------------------------------------------------------ boot */

/*
 * Chainloader mode. Fails open: an ACPI or policy error is reported and
 * recorded, and the next loader still starts. Only when the next loader
 * cannot be started does it return an error, so that the boot manager
 * moves on to the next boot entry. It never waits for a key.
 */
static int run_boot(struct cli *cli, const struct out *console, int conf_rc)
{
	static struct tee tee;
	static struct out both = { .write = tee_write, .ctx = &tee };
	static char summary[256];
	const struct out *o = console;
	int rc = conf_rc, rc_policy = 0, rc_files = 0;

	if (!cli->next)
		log_error(-AE_NOENT, "boot: no next loader configured (next = ... in \\EFI\\aspmctl\\aspmctl.conf or --next)");
	if (!conf_rc && !file_begin()) {
		tee.a = console;
		tee.b = &file_out;
		o = &both;
		log_set_sink(o, cli->verbose ? LOG_INFO : LOG_WARN);
	}
	if (conf_rc) {
		out_puts(o, "aspmctl: configuration unusable: ASPM left as it is\n");
	} else {
		if (cli->emulate_fadt >= 0) {
			struct cli f = *cli;

			f.fadt_set = cli->emulate_fadt;
			rc_policy = run_fadt(&f, o);
		}
		rc_policy = run(cli, CLI_APPLY, o) ?: rc_policy;
	}
	fmt_snprintf(summary, sizeof(summary),
		     "aspmctl %s action=%s links=%u written=%u ignored=%u errors=%llu status=%s next=%s",
		     ASPMCTL_VERSION, conf_rc ? "none" : aspm_action_name(r.action),
		     topo.nlink, r.st.written, r.st.ignored,
		     (unsigned long long)cfg.errors,
		     (rc || rc_policy) ? err_str(rc ? rc : rc_policy) : "ok",
		     cli->next ? cli->next : "-");
	out_printf(o, "aspm summary %s\n", summary);
	log_set_sink(console, cli->verbose ? LOG_INFO : LOG_WARN);
	if (o != console)
		rc_files = file_end(cli->results, "boot.txt", console);
	if (rc_files)
		out_puts(console, "aspmctl: results not written to the ESP; continuing\n");
	efi_publish_summary(summary);
	if (!cli->next)
		return -AE_NOENT;
	rc = efi_chainload(self, cli->next, cli->next_options, console);
	if (rc)
		out_puts(console, "aspmctl: returning to the boot manager\n");
	return rc;
}

/* ------------------------------------------------------------ main */

#define CONF_PATH	"\\EFI\\aspmctl\\aspmctl.conf"
#define CONF_MAX	8192

/*
 * Fail open on a bad configuration file: its ASPM settings are dropped
 * (the policy is skipped), but what it takes to boot -- the command and
 * the next/next-options/results keys of its well-formed lines -- still
 * counts, so that the next loader starts. Splits text in place.
 */
static int conf_salvage(char *text, char **argv, int max, const char **cmd)
{
	static const char *const keep[] = { "--next", "--next-options", "--results" };
	char *line = text, *kv[2], err[8];
	int n = 0;

	*cmd = NULL;
	while (line) {
		char *nl = line;
		const char *c = NULL;

		while (*nl && *nl != '\n')
			nl++;
		if (*nl)
			*nl++ = '\0';
		else
			nl = NULL;
		if (cli_conf_split(line, kv, 2, &c, err, sizeof(err)) == 2) {
			for (unsigned k = 0; k < ARRAY_SIZE(keep); k++)
				if (!str_cmp(kv[0], keep[k]) && n + 2 <= max) {
					argv[n++] = (char *)keep[k];
					argv[n++] = kv[1];
				}
		} else if (c) {
			*cmd = c;
		}
		line = nl;
	}
	return n;
}

EFI_STATUS EFIAPI efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab);
EFI_STATUS EFIAPI efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab)
{
	static char *argv[CLI_MAX_ARGS], *confv[CLI_MAX_ARGS], *all[2 * CLI_MAX_ARGS + 1];
	static char conf[CONF_MAX], conf_copy[CONF_MAX], conf_err[96];
	static struct cli cli, probe;
	const struct out *o = &efi_console;
	const char *conf_cmd = NULL;
	size_t conf_len = 0;
	int argc, nconf = 0, rc, conf_rc = 0;
	EFI_STATUS st;

	InitializeLib(image, systab);
	self = image;
	efi_time_init();
	log_set_sink(o, LOG_WARN);
	out_printf(o, "aspmctl %s\n", ASPMCTL_VERSION);
	argc = get_args(image, argv, CLI_MAX_ARGS);
	/* precedence: built-in defaults < aspmctl.conf < load options */
	rc = esp_read_file(image, CONF_PATH, conf, sizeof(conf), &conf_len);
	if (rc == -AE_NOENT) {
		rc = 0;
	} else if (rc) {
		conf_rc = log_error(rc, "%s: cannot read%s", CONF_PATH,
				    rc == -AE_INVAL ? ": a folder, not a file" :
				    rc == -AE_2BIG ? ": longer than 8191 bytes" : "");
		rc = 0;
	} else {
		mem_copy(conf_copy, conf, conf_len + 1);
		nconf = cli_conf_split(conf, confv, CLI_MAX_ARGS, &conf_cmd, conf_err,
				       sizeof(conf_err));
		if (nconf < 0) {
			conf_rc = log_error(-AE_INVAL, "%s: %s", CONF_PATH, conf_err);
			nconf = 0;
			conf_cmd = NULL;
		}
	}
	if (argc < 0) {
		rc = -AE_INVAL;
		out_puts(o, "aspmctl: error: too many arguments\n");
	} else {
		int n = cli_merge(conf_cmd, confv, nconf, argv, argc, all);

		rc = cli_parse(n, all, &cli);
		if (rc && nconf) {
			/* is it the file's fault, or the load options'? */
			n = cli_merge(conf_cmd, confv, nconf, NULL, 0, all);
			if (cli_parse(n, all, &probe))
				conf_rc = log_error(-AE_INVAL, "%s: %s", CONF_PATH, probe.error);
		}
		if (conf_rc) {
			/* a bad configuration file must not stop the boot: keep
			 * its boot keys and the load options, else the load
			 * options alone */
			nconf = conf_len ? conf_salvage(conf_copy, confv, CLI_MAX_ARGS, &conf_cmd) : 0;
			n = cli_merge(conf_cmd, confv, nconf, argv, argc, all);
			rc = cli_parse(n, all, &cli);
			if (rc && (nconf || conf_cmd))
				rc = cli_parse(argc, argv, &cli);
		}
		if (rc)
			out_printf(o, "aspmctl: error: %s\n", cli.error);
		else if (cli.verbose)
			log_set_sink(o, LOG_INFO);
	}
	if (!rc) {
		switch (cli.cmd) {
		case CLI_HELP:
			cli_usage(o);
			break;
		case CLI_VERSION:
			break;
		case CLI_FADT:
			rc = run_fadt(&cli, o);
			break;
		case CLI_DUMP:
			rc = run_dump(&cli, o);
			break;
		case CLI_BOOT:
			rc = run_boot(&cli, o, conf_rc);
			break;
		default:
			rc = run(&cli, cli.cmd, o);
			break;
		}
	}
	st = efi_status_from_err(rc);
	out_printf(o, "aspmctl: done status=0x%llx\n", (unsigned long long)st);
	return st;
}
