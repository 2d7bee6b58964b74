// SPDX-License-Identifier: GPL-2.0-only
/*
 * The run sequence of aspmctl.efi, firmware-independent (see boot.h):
 * which command runs with which settings, ACPI discovery, enumeration
 * over ECAM, the policy run, result files, and the chainloader mode.
 * Errors are negative AE_* codes; efi/main.c turns them into EFI_STATUS.
 */
#include "boot.h"
#include "../lib/err.h"
#include "../lib/log.h"
#include "../lib/util.h"
#include "../pcie/dump.h"
#include "../pcie/report.h"
#include "../acpi/report.h"

#ifndef ASPMCTL_VERSION
#define ASPMCTL_VERSION "unknown"
#endif

/* ------------------------------------------------------------ arguments */

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

/* ------------------------------------------------------------ ACPI */

static int find_rsdp(struct app *a, uint64_t *phys)
{
	int rc = a->ops->find_rsdp(a->ops->ctx, phys);

	if (rc)
		return log_error(rc, "no ACPI RSDP in the EFI configuration table");
	return 0;
}

static int run_fadt(struct app *a, int set, const struct out *o)
{
	struct fadt_patch res[8];
	struct acpi_mem mem;
	uint64_t rsdp = 0;
	unsigned n = 0;
	int rc;

	rc = find_rsdp(a, &rsdp);
	if (rc)
		return rc;
	a->ops->mem_open(a->ops->ctx, &mem);
	rc = acpi_patch_fadts(&mem, rsdp, set ? FADT_IAPC_NO_ASPM : 0,
			      set ? 0 : FADT_IAPC_NO_ASPM, res, ARRAY_SIZE(res), &n);
	a->ops->mem_close(a->ops->ctx);
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
	return rc;
}

/*
 * The edge between acpi/ and pcie/: every MCFG allocation that passed
 * validation (not reversed, not at address 0, not overlapping an earlier
 * one) becomes an ECAM window, in MCFG order. Returns how many.
 */
static unsigned mcfg_windows(const struct acpi_info *info,
			     struct ecam_window *win, unsigned max)
{
	unsigned n = 0;

	for (unsigned i = 0; i < info->nregions && n < max; i++) {
		const struct mcfg_region *r = &info->region[i];

		if (r->flags & MCFG_F_UNUSABLE)
			continue;
		win[n++] = (struct ecam_window){ .base = r->base,
			.segment = r->segment, .bus_start = r->start_bus,
			.bus_end = r->end_bus };
	}
	return n;
}

/* ACPI discovery and enumeration; nothing is written. */
static int prepare(struct app *a, const struct out *o)
{
	struct cli *cli = &a->cli;
	struct acpi_mem mem;
	uint64_t rsdp = 0;
	int rc;

	mem_set(&a->info, 0, sizeof(a->info));
	rc = find_rsdp(a, &rsdp);
	if (rc)
		return rc;
	a->ops->mem_open(a->ops->ctx, &mem);
	rc = acpi_discover(&mem, rsdp, &a->info);
	a->ops->mem_close(a->ops->ctx);
	if (rc && rc != -AE_NOENT)
		return log_error(rc, "ACPI discovery failed; nothing was written");
	report_acpi(o, &a->info);
	a->ecam.win = a->win;
	a->ecam.nwin = mcfg_windows(&a->info, a->win, ARRAY_SIZE(a->win));
	if (!a->ecam.nwin)
		return log_error(-AE_NOENT, "no usable MCFG region: cannot reach PCIe config space; nothing was written");
	if (!a->fn || !a->link || !a->w || !a->lp)
		return log_error(-AE_NOMEM, "out of memory");
	mem_set(&a->topo, 0, sizeof(a->topo));
	a->topo.fn = a->fn;
	a->topo.cap_fn = a->cap_fn;
	a->topo.link = a->link;
	a->topo.cap_link = a->cap_link;

	a->ecam.mmio = a->ops->mmio;
	a->ecam.mmio_ctx = a->ops->mmio_ctx;
	pci_cfg_init(&a->cfg, &ecam_cfg_ops, &a->ecam);
	a->cfg.read_only = true;

	mem_set(&a->sopts, 0, sizeof(a->sopts));
	a->sopts.full_scan = cli->full_scan;
	a->sopts.nextra_roots = cli->nroots;
	for (unsigned i = 0; i < cli->nroots; i++)
		a->sopts.extra_root[i] = cli->roots[i];
	/* plus the root bridges firmware declares (pxb-pcie, multi-socket) */
	if (a->ops->root_buses)
		a->sopts.nextra_roots +=
			a->ops->root_buses(a->ops->ctx,
					   a->sopts.extra_root + a->sopts.nextra_roots,
					   ARRAY_SIZE(a->sopts.extra_root) - a->sopts.nextra_roots);
	return pcie_enumerate(&a->cfg, a->ecam.win, a->ecam.nwin, &a->sopts,
			      &a->topo);
}

static uint64_t now(struct app *a)
{
	return a->ops->time_ns(a->ops->ctx);
}

static void print_stats(struct app *a, const struct out *o, uint64_t t0,
			uint64_t t_enum)
{
	char d1[24], d2[24];

	format_ns(t_enum - t0, d1, sizeof(d1));
	format_ns(now(a) - t0, d2, sizeof(d2));
	out_printf(o, "aspm stats reads=%llu writes=%llu refused-writes=%llu errors=%llu written=%u ignored=%u time=%s enum-time=%s\n",
		   (unsigned long long)a->cfg.reads, (unsigned long long)a->cfg.writes,
		   (unsigned long long)a->cfg.refused_writes,
		   (unsigned long long)a->cfg.errors, a->r.st.written, a->r.st.ignored,
		   d2, d1);
	if (a->r.st.ignored)
		out_printf(o, "aspmctl: %u write(s) not reflected by the hardware (see 'ignored' above)\n",
			   a->r.st.ignored);
}

/* ------------------------------------------------------------ files */

static struct out_buf file_buf;
static struct out file_out;

static int file_begin(struct app *a)
{
	if (!a->file || a->file_max < 2)
		return log_error(-AE_NOMEM, "out of memory for result files");
	out_buf_init(&file_out, &file_buf, a->file, a->file_max);
	return 0;
}

/*
 * Write buf to dir\name. What does not fit the buffer is an error, not a
 * warning: the part that fits is written (an older file of the same name
 * must not pass for this run's) and the caller's status says it is cut.
 */
static int write_result(struct app *a, const struct out_buf *b, const char *dir,
			const char *name, const struct out *o)
{
	char path[160];
	int rc;

	fmt_snprintf(path, sizeof(path), "%s\\%s", dir, name);
	rc = a->ops->write_file(a->ops->ctx, path, b->buf, b->len);
	if (b->lost)
		return log_error(-AE_NOSPC, "%s: incomplete: %llu bytes did not fit the %llu-byte buffer",
				 path, (unsigned long long)b->lost,
				 (unsigned long long)b->size);
	if (!rc)
		out_printf(o, "aspmctl: wrote %s (%llu bytes)\n", path,
			   (unsigned long long)b->len);
	return rc;
}

/* A config dump of every function into dir\name (lspci -F format). Its
 * reads are counted apart, so that the run's own figures stay the run's. */
static int dump_to(struct app *a, const char *dir, const char *name,
		   const struct out *o)
{
	struct out_buf b;
	struct out d;
	uint64_t reads = a->cfg.reads, errors = a->cfg.errors, writes = a->cfg.writes, dr;
	bool ro = a->cfg.read_only;
	char path[160];
	int rc;

	if (!a->dump || a->dump_max < 2)
		return log_error(-AE_NOMEM, "out of memory for config dumps");
	out_buf_init(&d, &b, a->dump, a->dump_max);
	a->cfg.read_only = true;
	pcie_dump_all(&a->cfg, &a->topo, &d);
	a->cfg.read_only = ro;
	dr = a->cfg.reads - reads;
	a->cfg.reads = reads;
	a->cfg.errors = errors;
	rc = write_result(a, &b, dir, name, o);
	fmt_snprintf(path, sizeof(path), "%s\\%s", dir, name);
	out_printf(o, "aspm dump functions=%u reads=%llu writes=%llu file=%s\n",
		   a->topo.nfn, (unsigned long long)dr,
		   (unsigned long long)(a->cfg.writes - writes), path);
	return rc;
}

/*
 * Everything the user sees is also collected (from the start, so that
 * the configuration's messages are in it too): in boot mode it becomes
 * boot.txt, the same lines as on the console.
 */
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

static struct tee capture;
static const struct out both = { .write = tee_write, .ctx = &capture };

static void capture_begin(struct app *a)
{
	capture.a = a->console;
	capture.b = file_begin(a) ? NULL : &file_out;
	if (capture.b)
		out_printf(&file_out, "aspmctl %s\n", ASPMCTL_VERSION);
}

static void capture_end(void)
{
	capture.b = NULL;
}

/* ------------------------------------------------------------ commands */

/* report, plan, apply, remove; in boot mode (dumps) also the before and
 * after config dumps. */
static int run(struct app *a, enum cli_cmd cmd, const char *dumps,
	       const struct out *o)
{
	struct cli *cli = &a->cli;
	uint64_t t0 = now(a), t_enum;
	int rc, rc_dump = 0;

	rc = prepare(a, o);
	if (rc && rc != -AE_NOSPC)
		return rc;
	t_enum = now(a);
	report_tree(o, &a->topo);
	if (cli->verbose || cmd == CLI_REPORT)
		report_links(o, &a->topo);
	report_fn_records(o, &a->topo);
	if (dumps)
		rc_dump = dump_to(a, dumps, "config-before.txt", o);

	/* report and plan never write; remove writes only with --apply */
	a->cfg.read_only = cmd == CLI_REPORT || cmd == CLI_PLAN ||
			   (cmd == CLI_REMOVE && !cli->remove_apply);
	mem_set(&a->r, 0, sizeof(a->r));
	a->r.cmd = cmd == CLI_PLAN ? CMD_PLAN : cmd == CLI_APPLY ? CMD_APPLY :
		   cmd == CLI_REMOVE ? CMD_REMOVE : CMD_REPORT;
	a->r.in = cli->in;
	a->r.fadt_valid = a->info.nfadt && a->info.fadt[0].boot_arch_valid;
	a->r.in.fadt_no_aspm = a->info.nfadt && fadt_no_aspm(&a->info.fadt[0]);
	a->r.remove = cli->remove;
	a->r.remove_apply = cli->remove_apply;
	a->r.topo = &a->topo;
	a->r.plan.w = a->w;
	a->r.plan.cap = a->cap_w;
	a->r.lp = a->lp;
	a->env.delay_us = a->ops->delay_us;
	a->env.ctx = a->ops->ctx;
	a->r.env = &a->env;
	a->policy_ran = true;
	rc = aspm_run(&a->cfg, &a->r, o) ?: rc;
	a->cfg.read_only = true;
	print_stats(a, o, t0, t_enum);
	if (dumps)
		rc_dump = dump_to(a, dumps, "config-after.txt", o) ?: rc_dump;
	return rc ?: rc_dump;
}

static int run_dump(struct app *a, const struct out *o)
{
	struct cli *cli = &a->cli;
	uint64_t t0 = now(a);
	char d[24];
	int rc = prepare(a, o);

	if (rc && rc != -AE_NOSPC)
		return rc;
	rc = file_begin(a);
	if (rc)
		return rc;
	pcie_dump_all(&a->cfg, &a->topo, &file_out);
	rc = write_result(a, &file_buf, cli->dump_dir, "config.txt", o);
	/* the app's own LNKCAP/LNKCTL decoding, to set against lspci -F's */
	pcie_dump_link_records(&a->topo, o);
	format_ns(now(a) - t0, d, sizeof(d));
	out_printf(o, "aspm dump functions=%u reads=%llu writes=%llu time=%s file=%s\\config.txt\n",
		   a->topo.nfn, (unsigned long long)a->cfg.reads,
		   (unsigned long long)a->cfg.writes, d, cli->dump_dir);
	return rc;
}

static int cmd_fadt(struct app *a, const struct out *o)
{
	uint64_t t0 = now(a);
	char d[24];
	int rc = run_fadt(a, a->cli.fadt_set, o);

	/* the FADT lives in memory: no config-space access at all */
	format_ns(now(a) - t0, d, sizeof(d));
	out_printf(o, "aspm stats reads=0 writes=0 time=%s\n", d);
	return rc;
}

/* ------------------------------------------------------------ boot */

/*
 * Chainloader mode. Fails open: an ACPI, policy or configuration error is
 * reported and recorded, and the next loader still starts. Only when
 * there is no next loader or it cannot be started does it return an
 * error, so that the boot manager moves on to the next boot entry. It
 * never waits for a key. err: the configuration or the load options were
 * unusable (already reported): ASPM is left as it is, the run is
 * read-only, and boot.txt records it.
 */
static int run_boot(struct app *a, int err, const char *what)
{
	struct cli *cli = &a->cli;
	const struct out *console = a->console, *o = capture.b ? &both : console;
	enum log_level lvl = cli->verbose ? LOG_INFO : LOG_WARN;
	int rc_policy = 0, rc_files = capture.b ? 0 : -AE_NOMEM;

	log_set_sink(o, lvl);
	if (!cli->next)
		log_error(-AE_NOENT, "boot: no next loader configured (next = ... in %s or --next)",
			  BOOT_CONF_PATH);
	if (err) {
		out_printf(o, "aspmctl: %s unusable: ASPM left as it is\n", what);
		/* read-only: what the machine looks like, nothing written */
		rc_policy = run(a, CLI_REPORT, NULL, o);
		a->policy_ran = false;
	} else {
		if (cli->emulate_fadt >= 0)
			rc_policy = run_fadt(a, cli->emulate_fadt, o);
		rc_policy = run(a, CLI_APPLY, cli->no_dumps ? NULL : cli->results, o) ?:
			    rc_policy;
	}
	if (file_buf.lost)
		rc_files = -AE_NOSPC;
	fmt_snprintf(a->summary, sizeof(a->summary),
		     "aspmctl %s action=%s links=%u written=%u ignored=%u errors=%llu status=%s next=%s",
		     ASPMCTL_VERSION, a->policy_ran ? aspm_action_name(a->r.action) : "none",
		     a->topo.nlink, a->r.st.written, a->r.st.ignored,
		     (unsigned long long)a->cfg.errors,
		     (err || rc_policy || rc_files) ?
		     err_str(err ? err : rc_policy ? rc_policy : rc_files) : "ok",
		     cli->next ? cli->next : "-");
	out_printf(o, "aspm summary %s\n", a->summary);
	log_set_sink(console, lvl);
	capture_end();
	if (o != console)
		rc_files = write_result(a, &file_buf, cli->results, "boot.txt", console) ?:
			   rc_files;
	if (rc_files)
		out_puts(console, "aspmctl: results not (completely) written to the ESP; continuing\n");
	a->ops->publish(a->ops->ctx, a->summary);
	if (!cli->next)
		return -AE_NOENT;
	a->chainloaded = true;
	if (a->ops->chainload(a->ops->ctx, cli->next, cli->next_options, console)) {
		a->chainloaded = false;
		out_puts(console, "aspmctl: returning to the boot manager\n");
		return -AE_NOENT;
	}
	return 0;
}

/* ------------------------------------------------------------ precedence */

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

static const char *cmd_name(enum cli_cmd c)
{
	static const char *const names[] = {
		[CLI_REPORT] = "report", [CLI_PLAN] = "plan", [CLI_APPLY] = "apply",
		[CLI_REMOVE] = "remove", [CLI_HELP] = "help", [CLI_VERSION] = "version",
		[CLI_FADT] = "fadt", [CLI_DUMP] = "dump", [CLI_BOOT] = "boot",
	};

	return (unsigned)c < ARRAY_SIZE(names) ? names[c] : "?";
}

/*
 * Precedence (README "Configuration"):
 *   built-in defaults < aspmctl.conf < arguments (Shell) / load options.
 * The command: the arguments' if any; else, in a boot entry, the file's
 * "command" (default boot); in the UEFI Shell the file's "command" is
 * ignored and the default is a read-only report. In a boot entry nothing
 * returns EFI_SUCCESS without having started the next loader: EDK2's boot
 * manager would stop at its menu and wait for a key (UEFI 2.10 sec 3.1.1).
 */
int app_main(struct app *a, const struct app_args *in)
{
	static char *confv[CLI_MAX_ARGS], *all[2 * CLI_MAX_ARGS + 1];
	static char conf_copy[BOOT_CONF_MAX], conf_err[96];
	static struct cli probe;
	struct cli *cli = &a->cli;
	const struct out *o = &both;
	const char *conf_cmd = NULL, *what = "configuration";
	char **argv = in->argv;
	int argc = in->argc, nconf = 0, rc = 0, conf_rc = 0, opt_rc = 0, n;
	size_t conf_len = 0;

	a->policy_ran = a->chainloaded = false;
	a->summary[0] = '\0';
	capture_begin(a);
	log_set_sink(o, LOG_WARN);
	mem_set(&a->topo, 0, sizeof(a->topo));
	mem_set(&a->r, 0, sizeof(a->r));
	mem_set(&a->cfg, 0, sizeof(a->cfg));
	if (in->conf_rc && in->conf_rc != -AE_NOENT) {
		conf_rc = log_error(in->conf_rc, "%s: cannot read%s", BOOT_CONF_PATH,
				    in->conf_rc == -AE_INVAL ? ": a folder, not a file" :
				    in->conf_rc == -AE_2BIG ? ": longer than 8191 bytes" : "");
	} else if (!in->conf_rc && in->conf) {
		conf_len = str_len(in->conf);
		if (conf_len >= BOOT_CONF_MAX) {
			conf_rc = log_error(-AE_2BIG, "%s: cannot read: longer than 8191 bytes",
					    BOOT_CONF_PATH);
			conf_len = 0;
		} else {
			mem_copy(a->conf_text, in->conf, conf_len + 1);
			mem_copy(conf_copy, in->conf, conf_len + 1);
			nconf = cli_conf_split(a->conf_text, confv, CLI_MAX_ARGS, &conf_cmd,
					       conf_err, sizeof(conf_err));
			if (nconf < 0) {
				conf_rc = log_error(-AE_INVAL, "%s: %s", BOOT_CONF_PATH, conf_err);
				nconf = 0;
				conf_cmd = NULL;
			}
		}
	}
	/* a boot entry without a command and without a file: nothing to do */
	if (!in->in_shell && argc == 0 && in->conf_rc == -AE_NOENT)
		conf_rc = log_error(-AE_NOENT, "%s: not found and no command in the load options: nothing to do as a boot entry",
				    BOOT_CONF_PATH);
	if (in->in_shell)
		conf_cmd = NULL;	/* the Shell: the command line decides */
	if (argc < 0) {
		/* the load options themselves are unusable */
		out_printf(o, "aspmctl: error: %s\n", in->arg_error ? in->arg_error :
			   "unusable arguments");
		opt_rc = -AE_INVAL;
		argc = 0;
	} else {
		n = cli_merge(conf_cmd, confv, nconf, argv, argc, all);
		rc = cli_parse(n, all, cli);
		if (rc && nconf) {
			/* is it the file's fault, or the load options'? */
			n = cli_merge(conf_cmd, confv, nconf, NULL, 0, all);
			if (cli_parse(n, all, &probe))
				conf_rc = log_error(-AE_INVAL, "%s: %s", BOOT_CONF_PATH,
						    probe.error);
		}
		if (rc && !conf_rc) {
			out_printf(o, "aspmctl: error: %s\n", cli->error);
			opt_rc = -AE_INVAL;
			argc = 0;
		}
	}
	if (opt_rc) {
		/* a boot entry whose file says boot: start its next loader
		 * anyway; otherwise a usage error */
		if (in->in_shell || conf_rc || !conf_cmd || str_cmp(conf_cmd, "boot")) {
			capture_end();
			return opt_rc;
		}
		out_puts(o, "aspmctl: load options ignored: booting with aspmctl.conf's next loader\n");
		what = "load options";
		nconf = conf_salvage(conf_copy, confv, CLI_MAX_ARGS, &conf_cmd);
		n = cli_merge(conf_cmd, confv, nconf, NULL, 0, all);
		if (cli_parse(n, all, cli))
			cli_parse(0, NULL, cli);
		return run_boot(a, opt_rc, what);
	}
	if (conf_rc) {
		/* a bad configuration file must not stop the boot: keep its
		 * boot keys and the arguments, else the arguments alone */
		nconf = conf_len ? conf_salvage(conf_copy, confv, CLI_MAX_ARGS, &conf_cmd) : 0;
		if (in->in_shell)
			conf_cmd = NULL;
		n = cli_merge(conf_cmd, confv, nconf, argv, argc, all);
		rc = cli_parse(n, all, cli);
		if (rc && (nconf || conf_cmd))
			rc = cli_parse(argc, argv, cli);
		if (rc) {
			out_printf(o, "aspmctl: error: %s\n", cli->error);
			capture_end();
			return rc;
		}
	}
	/* a boot entry runs the chainloader unless told otherwise */
	if (!in->in_shell && !conf_cmd && (!argc || argv[0][0] == '-') &&
	    cli->cmd == CLI_REPORT)
		cli->cmd = CLI_BOOT;
	if (cli->verbose)
		log_set_sink(o, LOG_INFO);
	if (cli->cmd != CLI_BOOT) {
		/* only boot mode keeps a transcript */
		capture_end();
		log_set_sink(a->console, cli->verbose ? LOG_INFO : LOG_WARN);
		o = a->console;
	}
	if (conf_rc && cli->cmd != CLI_BOOT && cli->cmd != CLI_HELP &&
	    cli->cmd != CLI_VERSION) {
		out_printf(o, "aspmctl: %s: nothing done: fix %s or give boot\n",
			   cmd_name(cli->cmd), BOOT_CONF_PATH);
		return conf_rc;
	}
	switch (cli->cmd) {
	case CLI_HELP:
		cli_usage(o);
		break;
	case CLI_VERSION:
		break;
	case CLI_FADT:
		rc = cmd_fadt(a, o);
		break;
	case CLI_DUMP:
		rc = run_dump(a, o);
		break;
	case CLI_BOOT:
		return run_boot(a, conf_rc, what);
	default:
		rc = run(a, cli->cmd, NULL, o);
		break;
	}
	if (!rc && !in->in_shell) {
		out_printf(o, "aspmctl: '%s' from a boot entry starts no next loader: returning to the boot manager\n",
			   cmd_name(cli->cmd));
		rc = -AE_NOENT;
	}
	return rc;
}
