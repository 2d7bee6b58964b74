// SPDX-License-Identifier: GPL-2.0-only
/*
 * aspmctl.efi entry point: the UEFI glue only. It collects the arguments
 * (the UEFI Shell's argv, or a boot entry's load options), reads
 * aspmctl.conf, and hands the run to app_main() (app/app.c, which the
 * host tests build too) through a struct boot_ops of firmware services.
 * Errors are negative AE_* codes; they become EFI_STATUS only here.
 */
#include "chainload.h"
#include "console.h"
#include "file.h"
#include "memmap.h"
#include "mmio.h"
#include "root_bridge.h"
#include "status.h"
#include "tsc.h"
#include "variable.h"
#include "../app/app.h"
#include "../lib/status_name.h"
#include "../lib/err.h"
#include "../lib/log.h"
#include "../lib/util.h"

#define MAX_FN		4096
#define MAX_LINK	2048
#define MAX_WRITES	8192
#define FILE_MAX	(4u << 20)
#define DUMP_MAX	(8u << 20)

/*
 * EFI_SHELL_PARAMETERS_PROTOCOL (UEFI Shell 2.2 sec 2.3): the Shell
 * installs it on the image handle of every program it starts, so it both
 * tells "started from the Shell" from "started as a boot entry" and gives
 * the argv the Shell parsed (Argv[0] is the program). Defined here, as
 * not every gnu-efi has it.
 */
struct shell_params {
	CHAR16 **argv;
	UINTN argc;
	void *std_in, *std_out, *std_err;
};
static EFI_GUID shell_params_guid = {
	0x752f3136, 0x4e16, 0x4fdc, { 0xa2, 0x2a, 0xe5, 0xf4, 0x68, 0x12, 0xf4, 0xca }
};

static EFI_GUID acpi20_guid = ACPI_20_TABLE_GUID;
static EFI_GUID acpi10_guid = ACPI_TABLE_GUID;
static EFI_HANDLE self;

static char cmdline[CLI_MAX_LINE];
static char arg_error[96];

/* The Shell's argv, each argument as ASCII; -AE_2BIG when they do not fit. */
static int shell_args(struct shell_params *sp, char **argv, int max)
{
	size_t k = 0;
	int argc = 0;

	for (UINTN i = 1; i < sp->argc; i++) {
		const CHAR16 *s = sp->argv[i];

		if (argc >= max) {
			fmt_snprintf(arg_error, sizeof(arg_error),
				     "too many arguments (at most %d)", max);
			return -AE_2BIG;
		}
		argv[argc++] = cmdline + k;
		for (; s && *s; s++) {
			if (k + 2 >= sizeof(cmdline)) {
				fmt_snprintf(arg_error, sizeof(arg_error),
					     "command line longer than %u characters",
					     (unsigned)sizeof(cmdline) - 1);
				return -AE_2BIG;
			}
			cmdline[k++] = *s < 0x80 ? (char)*s : '?';
		}
		cmdline[k++] = '\0';
	}
	return argc;
}

/* Arguments: the Shell's argv, else the load options of the boot entry. */
static int get_args(EFI_HANDLE image, char **argv, int max, bool *in_shell)
{
	struct shell_params *sp = NULL;
	EFI_LOADED_IMAGE *li = NULL;
	int n;

	*in_shell = false;
	if (!EFI_ERROR(uefi_call_wrapper(BS->HandleProtocol, 3, image, &shell_params_guid,
					 (void **)&sp)) && sp) {
		*in_shell = true;
		return shell_args(sp, argv, max);
	}
	if (EFI_ERROR(uefi_call_wrapper(BS->HandleProtocol, 3, image, &LoadedImageProtocol,
					(void **)&li)) || !li)
		return 0;
	n = boot_decode_options(li->LoadOptions, li->LoadOptionsSize, cmdline,
				sizeof(cmdline));
	if (n == -AE_2BIG) {
		fmt_snprintf(arg_error, sizeof(arg_error),
			     "load options longer than %u characters",
			     (unsigned)sizeof(cmdline) - 1);
		return n;
	}
	n = boot_split_options(cmdline, argv, max);
	if (n < 0)
		fmt_snprintf(arg_error, sizeof(arg_error),
			     "too many arguments in the load options (at most %d)", max);
	return n;
}

/* ------------------------------------------------------------ boot_ops */

static int ops_find_rsdp(void *ctx, uint64_t *phys)
{
	void *p = NULL;

	(void)ctx;
	if (LibGetSystemConfigurationTable(&acpi20_guid, &p) == EFI_SUCCESS && p) {
		*phys = (uint64_t)(UINTN)p;
		return 0;
	}
	if (LibGetSystemConfigurationTable(&acpi10_guid, &p) == EFI_SUCCESS && p) {
		*phys = (uint64_t)(UINTN)p;
		return 0;
	}
	return -AE_NOENT;
}

static void ops_mem_open(void *ctx, struct acpi_mem *mem)
{
	(void)ctx;
	efi_mem_init(mem);
}

static void ops_mem_close(void *ctx)
{
	(void)ctx;
	efi_mem_fini();
}

static unsigned ops_root_buses(void *ctx, struct pci_addr *roots, unsigned max)
{
	(void)ctx;
	return efi_root_buses(roots, max);
}

static int ops_write_file(void *ctx, const char *path, const void *data, size_t len)
{
	(void)ctx;
	return esp_write_file(self, path, data, len);
}

static int ops_publish(void *ctx, const char *summary)
{
	(void)ctx;
	return efi_publish_summary(summary);
}

static int ops_chainload(void *ctx, const char *path, const char *options,
			 const struct out *o)
{
	(void)ctx;
	return efi_chainload(self, path, options, o);
}

static void ops_secure_boot(void *ctx, struct sb_state *s)
{
	(void)ctx;
	efi_secure_boot(s);
}

static int ops_counter_get(void *ctx, uint32_t *count)
{
	(void)ctx;
	return efi_counter_get(count);
}

static int ops_counter_set(void *ctx, uint32_t count)
{
	(void)ctx;
	return efi_counter_set(count);
}

/* the AML interpreter's memory (acpi/aml): boot-services pool */
static void *ops_alloc(void *ctx, size_t n)
{
	(void)ctx;
	return AllocatePool(n);
}

static void ops_free(void *ctx, void *p)
{
	(void)ctx;
	FreePool(p);
}

static uint64_t ops_time_ns(void *ctx)
{
	(void)ctx;
	return efi_time_ns();
}

static const struct boot_ops efi_ops = {
	.find_rsdp = ops_find_rsdp,
	.mem_open = ops_mem_open,
	.mem_close = ops_mem_close,
	.mmio = &efi_mmio_ops,
	.root_buses = ops_root_buses,
	.write_file = ops_write_file,
	.publish = ops_publish,
	.chainload = ops_chainload,
	.time_ns = ops_time_ns,
	.delay_us = efi_delay_us,
	.secure_boot = ops_secure_boot,
	.counter_get = ops_counter_get,
	.counter_set = ops_counter_set,
	.alloc = ops_alloc,
	.free = ops_free,
};

/* ------------------------------------------------------------ main */

EFI_STATUS EFIAPI efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab);
EFI_STATUS EFIAPI efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab)
{
	static char *argv[CLI_MAX_ARGS];
	static char conf[BOOT_CONF_MAX];
	static struct app app;
	struct app_args in = { .argv = argv, .arg_error = arg_error };
	size_t conf_len = 0;
	EFI_STATUS st;
	int rc;

	InitializeLib(image, systab);
	self = image;
	efi_time_init();
	log_set_sink(&efi_console, LOG_WARN);
	out_printf(&efi_console, "aspmctl %s\n", ASPMCTL_VERSION);
	in.argc = get_args(image, argv, CLI_MAX_ARGS, &in.in_shell);
	in.conf_rc = esp_read_file(image, BOOT_CONF_PATH, conf, sizeof(conf), &conf_len);
	in.conf = in.conf_rc ? NULL : conf;

	app.ops = &efi_ops;
	app.console = &efi_console;
	if (!app.fn) {
		app.fn = AllocateZeroPool(MAX_FN * sizeof(struct pcie_fn));
		app.link = AllocateZeroPool(MAX_LINK * sizeof(struct pcie_link));
		app.w = AllocateZeroPool(MAX_WRITES * sizeof(struct aspm_write));
		app.lp = AllocateZeroPool(MAX_LINK * sizeof(struct aspm_link_plan));
		app.file = AllocatePool(FILE_MAX);
		app.dump = AllocatePool(DUMP_MAX);
	}
	app.cap_fn = MAX_FN;
	app.cap_link = MAX_LINK;
	app.cap_w = MAX_WRITES;
	app.file_max = app.file ? FILE_MAX : 0;
	app.dump_max = app.dump ? DUMP_MAX : 0;
	rc = app_main(&app, &in);
	st = efi_status_from_err(rc);
	out_printf(&efi_console, "aspmctl: done status=0x%llx %s\n", (unsigned long long)st,
		   efi_status_name(st));
	return st;
}
