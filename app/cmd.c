// SPDX-License-Identifier: GPL-2.0-only
/*
 * The commands over the machine (app/cmd.h): ACPI discovery, the MCFG
 * allocations as ECAM windows, enumeration, the report, the policy run
 * (report, plan, apply, remove), config dumps, FADT patching, and the
 * result files they write on the ESP.
 */
#include "cmd.h"
#include "osc.h"
#include "../acpi/report.h"
#include "../lib/err.h"
#include "../lib/log.h"
#include "../lib/util.h"
#include "../pcie/dump.h"
#include "../pcie/report.h"

/* ------------------------------------------------------------ ACPI */

static int find_rsdp(struct app *a, uint64_t *phys)
{
	int rc = a->ops->find_rsdp(a->ops->ctx, phys);

	if (rc)
		return log_error(rc, "no ACPI RSDP in the EFI configuration table");
	return 0;
}

int app_patch_fadt(struct app *a, int set, const struct out *o)
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
		rec_fadt(o, &res[i]);
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
	if (a->ops->cfg_ops)
		pci_cfg_init(&a->cfg, a->ops->cfg_ops, a->ops->cfg_ctx);
	else
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

/* The `aspm stats` record of a run that started at t0 and ended its
 * enumeration at t_enum (0: it enumerates nothing). */
static void stats_record(struct app *a, const struct out *o, uint64_t t0,
			 uint64_t t_enum)
{
	struct rec_stats s = {
		.reads = a->cfg.reads, .writes = a->cfg.writes,
		.refused_writes = a->cfg.refused_writes, .errors = a->cfg.errors,
		.written = a->r.st.written, .ignored = a->r.st.ignored,
		.time_ns = now(a) - t0,
		.enum_ns = t_enum ? t_enum - t0 : REC_NO_TIME,
	};

	rec_stats(o, &s);
}

static void print_stats(struct app *a, const struct out *o, uint64_t t0,
			uint64_t t_enum)
{
	stats_record(a, o, t0, t_enum);
	if (a->r.st.ignored)
		out_printf(o, "aspmctl: %u write(s) not reflected by the hardware (see 'ignored' above)\n",
			   a->r.st.ignored);
}

/* ------------------------------------------------------------ files */

/*
 * Write buf to dir\name. What does not fit the buffer is an error, not a
 * warning: the part that fits is written (an older file of the same name
 * must not pass for this run's) and the caller's status says it is cut.
 */
int app_write_result(struct app *a, const struct out_buf *b, const char *dir,
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
	uint64_t t0 = now(a);
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
	rc = app_write_result(a, &b, dir, name, o);
	fmt_snprintf(path, sizeof(path), "%s\\%s", dir, name);
	rec_dump(o, a->topo.nfn, dr, a->cfg.writes - writes, now(a) - t0, path);
	return rc;
}

/* ------------------------------------------------------------ Secure Boot */

void app_secure_boot_record(struct app *a, const struct out *o)
{
	struct sb_state s = { -1, -1, -1 };

	if (a->ops->secure_boot)
		a->ops->secure_boot(a->ops->ctx, &s);
	rec_secureboot(o, &s);
}

/* ------------------------------------------------------------ commands */

/* report, plan, apply, remove; in boot mode (dumps) also the before and
 * after config dumps. */
int app_run(struct app *a, enum cli_cmd cmd, const char *dumps,
	    const struct out *o)
{
	struct cli *cli = &a->cli;
	uint64_t t0 = now(a), t_enum;
	int rc, rc_dump = 0;

	rc = prepare(a, o);
	if (rc && rc != -AE_NOSPC)
		return rc;
	t_enum = now(a);
	app_osc_probe(a);
	report_tree(o, &a->topo);
	if (cli->verbose || cmd == CLI_REPORT)
		report_links(o, &a->topo);
	rec_fn(o, &a->topo);
	if (dumps)
		rc_dump = dump_to(a, dumps, "config-before.txt", o);

	/* report and plan never write; remove writes only with --apply */
	a->cfg.read_only = cmd == CLI_REPORT || cmd == CLI_PLAN ||
			   (cmd == CLI_REMOVE && !cli->remove_apply);
	mem_set(&a->r, 0, sizeof(a->r));
	a->r.cmd = cmd == CLI_PLAN ? CMD_PLAN : cmd == CLI_APPLY ? CMD_APPLY :
		   cmd == CLI_REMOVE ? CMD_REMOVE : CMD_REPORT;
	a->r.in = cli->in;
	app_osc_input(a, &a->r.in);
	if (a->osc_asked)
		rec_osc(o, &a->osc);
	a->r.excl = cli->excl;
	a->r.nexcl = cli->nexcl;
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

int app_dump(struct app *a, const struct out *o)
{
	struct cli *cli = &a->cli;
	uint64_t t0 = now(a);
	char path[160];
	int rc = prepare(a, o);

	if (rc && rc != -AE_NOSPC)
		return rc;
	rc = capture_file_begin(&a->cap, a->file, a->file_max);
	if (rc)
		return rc;
	pcie_dump_all(&a->cfg, &a->topo, &a->cap.file);
	rc = app_write_result(a, &a->cap.buf, cli->dump_dir, "config.txt", o);
	/* the app's own LNKCAP/LNKCTL decoding, to set against lspci -F's */
	rec_fn_links(o, &a->topo);
	fmt_snprintf(path, sizeof(path), "%s\\config.txt", cli->dump_dir);
	rec_dump(o, a->topo.nfn, a->cfg.reads, a->cfg.writes, now(a) - t0, path);
	return rc;
}

int app_fadt(struct app *a, const struct out *o)
{
	uint64_t t0 = now(a);
	int rc = app_patch_fadt(a, a->cli.fadt_set, o);

	/* the FADT lives in memory: no config-space access at all */
	stats_record(a, o, t0, 0);
	return rc;
}
