/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The command line of aspmctl.efi (app/cli.c): commands, the options
 * table, usage, merging with the configuration file's options, and a
 * boot entry's load options as a command line. Plain C, no UEFI headers.
 */
#ifndef ASPMCTL_APP_CLI_H
#define ASPMCTL_APP_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include "../pcie/run.h"
#include "../acpi/aml/aml.h"

#define CLI_MAX_ARGS	32
#define CLI_MAX_LINE	1024

enum cli_cmd {
	CLI_REPORT, CLI_PLAN, CLI_APPLY, CLI_REMOVE, CLI_HELP, CLI_VERSION,
	CLI_FADT, CLI_DUMP, CLI_BOOT,
};

struct cli {
	enum cli_cmd cmd;
	struct aspm_inputs in;
	struct pci_addr remove;
	bool remove_apply;
	int fadt_set;		/* CLI_FADT: 1 set, 0 clear the no-ASPM bit */
	bool verbose;
	bool full_scan;
	unsigned nroots;
	struct pci_addr roots[8];
	/* dump: folder on the ESP; boot: next loader and its options */
	const char *dump_dir;
	const char *next;
	const char *next_options;
	const char *results;	/* folder for result files (boot) */
	int emulate_fadt;	/* boot: -1 leave, 1 set, 0 clear no-ASPM */
	bool no_dumps;		/* boot: no config-before/after.txt */
	int tries;		/* boot: unconfirmed boots allowed, -1 default */
	bool osc_auto;		/* --osc auto: the firmware's _OSC decides */
	bool osc_req_set;	/* --osc-request given */
	struct osc_request osc_req;
	struct aspm_excl excl[ASPM_MAX_EXCL];	/* --disable, in order */
	unsigned nexcl;
	char error[160];	/* one-line reason on -AE_INVAL */
};

/* "report", "plan", ... as the command line names the command. */
const char *cli_cmd_name(enum cli_cmd cmd);
/* Split a command line in place (spaces; "double quotes" group). */
int cli_split(char *line, char **argv, int max);
/* Parse argv (argv[0] is the first argument, not the program). */
int cli_parse(int argc, char **argv, struct cli *c);
void cli_usage(const struct out *o);

/* Merge: conf command < argv command; conf options, then argv options
 * (later wins). out must hold 1 + nconf + nargs entries. */
int cli_merge(const char *conf_cmd, char **conf, int nconf, char **args,
	      int nargs, char **out);

/*
 * A boot entry's LoadOptions as an ASCII command line. efibootmgr writes
 * UCS-2 with -u and the string's own bytes (8-bit) without it; OVMF's
 * auto-created entries carry binary OptionalData. Returns the length of
 * line, 0 for no or binary options, -AE_2BIG when the text does not fit
 * in max bytes (never truncated).
 */
int boot_decode_options(const void *data, size_t size, char *line,
			size_t max);
/* Split a decoded command line; drops a first word naming the program
 * ("aspmctl.efi", any case). -AE_2BIG for more than max words. */
int boot_split_options(char *line, char **argv, int max);

#endif
