/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * app/: aspmctl.efi without firmware. The command line and configuration
 * file, which command runs with which settings (app.c), the commands over
 * ACPI and ECAM (cmd.c), the chainloader (boot.c) and the transcript
 * (capture.c). Plain C, no UEFI headers (systemd-boot style: the same
 * source builds into aspmctl.efi and into the host tests). Firmware is
 * reached only through struct boot_ops; efi/main.c provides the UEFI
 * one, tests/lib/fake_boot.c a fake machine.
 */
#ifndef ASPMCTL_APP_APP_H
#define ASPMCTL_APP_APP_H

#include "tries.h"
#include "../records/records.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "capture.h"
#include "cli.h"
#include "../acpi/acpi.h"
#include "../acpi/aml/aml.h"
#include "../pcie/ecam.h"
#include "../pcie/enum.h"
#include "../pcie/run.h"

#ifndef ASPMCTL_VERSION
#define ASPMCTL_VERSION "unknown"
#endif

#define BOOT_CONF_PATH	"\\EFI\\aspmctl\\aspmctl.conf"
#define BOOT_CONF_MAX	8192	/* bytes read of aspmctl.conf, NUL included */

/*
 * Secure Boot state from the firmware's global variables (UEFI 2.10 sec
 * 3.3, SecureBoot and SetupMode; chapter 32, the modes): 0, 1, or -1 when it
 * cannot be known (no such variable, or no firmware: the host build).
 * shim: shim's SHIM_LOCK protocol is installed (1), i.e. shim started the
 * chain and verifies against its MokList too.
 */
struct boot_ops {
	void *ctx;
	/* physical address of the ACPI RSDP, or a negative AE_* */
	int (*find_rsdp)(void *ctx, uint64_t *phys);
	/* physical memory for acpi/ between open and close */
	void (*mem_open)(void *ctx, struct acpi_mem *mem);
	void (*mem_close)(void *ctx);
	/* ECAM accesses */
	const struct mmio_ops *mmio;
	void *mmio_ctx;
	/* optional: config space through this backend instead of ECAM MMIO
	 * (the host's digital twin, whose reads can say "not in the dump");
	 * the MCFG still decides which buses are decoded */
	const struct pci_cfg_ops *cfg_ops;
	void *cfg_ctx;
	/* root buses firmware knows besides the MCFG start buses (optional) */
	unsigned (*root_buses)(void *ctx, struct pci_addr *roots, unsigned max);
	/* a file on the app's volume, replaced */
	int (*write_file)(void *ctx, const char *path, const void *data,
			  size_t len);
	/* the one-line summary as the AspmctlSummary variable */
	int (*publish)(void *ctx, const char *summary);
	/* LoadImage/StartImage; returns only if it failed or the image
	 * returned (0: it returned EFI_SUCCESS) */
	int (*chainload)(void *ctx, const char *path, const char *options,
			 const struct out *o);
	uint64_t (*time_ns)(void *ctx);
	void (*delay_us)(void *ctx, unsigned us);	/* optional */
	/* optional: the Secure Boot state; absent, every field is unknown */
	void (*secure_boot)(void *ctx, struct sb_state *s);
	/* the boot counter (app/tries.h), a non-volatile variable: get gives
	 * 0, -AE_NOENT when there is none, or an error; absent: no counter */
	int (*counter_get)(void *ctx, uint32_t *count);
	int (*counter_set)(void *ctx, uint32_t count);
	/* optional: memory for the AML interpreter (acpi/aml); absent, the
	 * firmware's _OSC is not asked and --osc auto falls back */
	void *(*alloc)(void *ctx, size_t n);
	void (*free)(void *ctx, void *p);
};

/* One start of the app: where its arguments and configuration came from. */
struct app_args {
	bool in_shell;		/* EFI_SHELL_PARAMETERS_PROTOCOL on the image */
	int argc;		/* < 0: arguments unusable, arg_error says why */
	char **argv;		/* without the program's own name */
	const char *arg_error;
	const char *conf;	/* aspmctl.conf text, NULL when conf_rc */
	int conf_rc;		/* 0, -AE_NOENT (no file), or a read error */
};

struct app {
	const struct boot_ops *ops;
	const struct out *console;
	/* storage the caller provides (UEFI stacks are small) */
	struct pcie_fn *fn;
	unsigned cap_fn;
	struct pcie_link *link;
	unsigned cap_link;
	struct aspm_write *w;
	unsigned cap_w;
	struct aspm_link_plan *lp;	/* cap_link entries */
	char *file;			/* result-file text */
	size_t file_max;
	char *dump;			/* config dumps (boot mode) */
	size_t dump_max;
	/* state of the run */
	struct cli cli;
	struct acpi_info info;
	struct ecam_window win[ECAM_MAX_WINDOWS];	/* the usable MCFG regions */
	struct ecam ecam;
	struct pci_cfg cfg;
	struct pcie_topo topo;
	struct pcie_scan_opts sopts;
	struct aspm_run r;
	struct aspm_env env;
	struct capture cap;	/* the transcript (boot.txt) */
	bool policy_ran;
	struct boot_tries tries;	/* boot mode's counting */
	struct osc_report osc;		/* the firmware's _OSC (app/osc.c) */
	bool osc_asked;
	bool chainloaded;	/* the next loader was started */
	char summary[384];
	char conf_text[BOOT_CONF_MAX];
	char conf_copy[BOOT_CONF_MAX];	/* for cli_conf_salvage() */
};

/* Everything after argument collection: returns 0 or a negative AE_*
 * (efi/main.c turns it into the EFI_STATUS). */
int app_main(struct app *a, const struct app_args *in);

#endif
