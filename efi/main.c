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

static int run(struct cli *cli, const struct out *o)
{
	static struct acpi_info info;
	static struct ecam ecam;
	static struct pci_cfg cfg;
	static struct pcie_topo topo;
	static struct pcie_scan_opts sopts;
	static struct aspm_run r;
	static const struct aspm_env env = { .delay_us = efi_delay_us };
	struct acpi_mem mem;
	uint64_t rsdp = 0, t0, t_enum;
	int rc, rc_acpi;
	char d1[24], d2[24];

	t0 = efi_time_ns();
	efi_mem_init(&mem);
	rc = find_rsdp(&rsdp);
	if (rc)
		return rc;
	rc_acpi = acpi_discover(&mem, rsdp, &info);
	if (rc_acpi && rc_acpi != -AE_NOENT)
		return log_error(rc_acpi, "ACPI discovery failed; nothing was written");
	report_acpi(o, &info);
	if (!info.nregions)
		return log_error(-AE_NOENT, "no usable MCFG region: cannot reach PCIe config space; nothing was written");

	topo.fn = AllocateZeroPool(MAX_FN * sizeof(struct pcie_fn));
	topo.link = AllocateZeroPool(MAX_LINK * sizeof(struct pcie_link));
	r.plan.w = AllocateZeroPool(MAX_WRITES * sizeof(struct aspm_write));
	r.lp = AllocateZeroPool(MAX_LINK * sizeof(struct aspm_link_plan));
	if (!topo.fn || !topo.link || !r.plan.w || !r.lp)
		return log_error(-AE_NOMEM, "out of memory");
	topo.cap_fn = MAX_FN;
	topo.cap_link = MAX_LINK;
	r.plan.cap = MAX_WRITES;

	ecam.region = info.region;
	ecam.nregion = info.nregions;
	ecam.mmio = &efi_mmio_ops;
	pci_cfg_init(&cfg, &ecam_cfg_ops, &ecam);
	/* report and plan never write; remove writes only with --apply */
	cfg.read_only = cli->cmd == CLI_REPORT || cli->cmd == CLI_PLAN ||
			(cli->cmd == CLI_REMOVE && !cli->remove_apply);

	sopts.full_scan = cli->full_scan;
	sopts.nextra_roots = cli->nroots;
	for (unsigned i = 0; i < cli->nroots; i++)
		sopts.extra_root[i] = cli->roots[i];
	/* plus the root bridges firmware declares (pxb-pcie, multi-socket) */
	sopts.nextra_roots += efi_root_buses(sopts.extra_root + sopts.nextra_roots,
					     ARRAY_SIZE(sopts.extra_root) - sopts.nextra_roots);
	rc = pcie_enumerate(&cfg, info.region, info.nregions, &sopts, &topo);
	t_enum = efi_time_ns();
	report_tree(o, &topo);
	if (cli->verbose || cli->cmd == CLI_REPORT)
		report_links(o, &topo);
	report_fn_records(o, &topo);

	r.cmd = cli->cmd == CLI_PLAN ? CMD_PLAN : cli->cmd == CLI_APPLY ? CMD_APPLY :
		cli->cmd == CLI_REMOVE ? CMD_REMOVE : CMD_REPORT;
	r.in = cli->in;
	r.fadt_valid = info.nfadt && info.fadt[0].boot_arch_valid;
	r.in.fadt_no_aspm = info.nfadt && fadt_no_aspm(&info.fadt[0]);
	r.remove = cli->remove;
	r.remove_apply = cli->remove_apply;
	r.topo = &topo;
	r.env = &env;
	rc = aspm_run(&cfg, &r, o) ?: rc;

	format_ns(t_enum - t0, d1, sizeof(d1));
	format_ns(efi_time_ns() - t0, d2, sizeof(d2));
	out_printf(o, "aspm stats reads=%llu writes=%llu refused-writes=%llu errors=%llu written=%u ignored=%u time=%s enum-time=%s\n",
		   (unsigned long long)cfg.reads, (unsigned long long)cfg.writes,
		   (unsigned long long)cfg.refused_writes,
		   (unsigned long long)cfg.errors, r.st.written, r.st.ignored, d2, d1);
	if (r.st.ignored)
		out_printf(o, "aspmctl: %u write(s) not reflected by the hardware (see 'ignored' above)\n",
			   r.st.ignored);
	efi_mem_fini();
	return rc;
}

EFI_STATUS EFIAPI efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab);
EFI_STATUS EFIAPI efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab)
{
	static char *argv[CLI_MAX_ARGS];
	static struct cli cli;
	const struct out *o = &efi_console;
	EFI_STATUS st;
	int argc, rc;

	InitializeLib(image, systab);
	efi_time_init();
	log_set_sink(o, LOG_WARN);
	out_printf(o, "aspmctl %s\n", ASPMCTL_VERSION);
	argc = get_args(image, argv, CLI_MAX_ARGS);
	if (argc < 0) {
		rc = -AE_INVAL;
		out_puts(o, "aspmctl: error: too many arguments\n");
	} else {
		rc = cli_parse(argc, argv, &cli);
		if (rc)
			out_printf(o, "aspmctl: error: %s\n", cli.error);
		else if (cli.verbose)
			log_set_sink(o, LOG_INFO);
	}
	if (!rc) {
		if (cli.cmd == CLI_HELP)
			cli_usage(o);
		else if (cli.cmd == CLI_FADT)
			rc = run_fadt(&cli, o);
		else if (cli.cmd != CLI_VERSION)
			rc = run(&cli, o);
	}
	st = efi_status_from_err(rc);
	out_printf(o, "aspmctl: done status=0x%llx\n", (unsigned long long)st);
	return st;
}
