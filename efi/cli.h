/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Command-line parsing for aspmctl.efi. Plain C (no UEFI headers) so the
 * host tests cover it; efi/main.c converts the UCS-2 load options first.
 */
#ifndef ASPMCTL_EFI_CLI_H
#define ASPMCTL_EFI_CLI_H

#include <stdbool.h>
#include "../pcie/run.h"

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
	char error[160];	/* one-line reason on -AE_INVAL */
};

/* Split a command line in place (spaces; "double quotes" group). */
int cli_split(char *line, char **argv, int max);
/* Parse argv (argv[0] is the first argument, not the program). */
int cli_parse(int argc, char **argv, struct cli *c);
void cli_usage(const struct out *o);

/*
 * The configuration file (\EFI\aspmctl\aspmctl.conf): "key = value"
 * lines. "command = X" names the command; every other key is the long
 * option of the same name ("policy = force" is "--policy force"); the
 * flags take yes|no|true|false|1|0 ("verbose = yes" is "--verbose").
 * Comments: a line whose first non-blank character is '#', and the rest
 * of a line from a '#' that follows a blank, except inside "...". A
 * value wholly in "..." or '...' loses the quotes and keeps everything
 * between them, '#' included. A UTF-8 byte order mark is skipped, CRLF
 * line ends are fine; keys and values must be ASCII. Splits text in
 * place into argv; *cmd receives the command or NULL. A malformed line:
 * -AE_INVAL with err "line N: ...".
 */
int cli_conf_split(char *text, char **argv, int max, const char **cmd,
		   char *err, size_t errsize);
/*
 * The file's bytes as cli_conf_split reads them, in place: a UTF-8 byte
 * order mark is dropped; UTF-16 with a byte order mark (LE or BE, as
 * Windows editors save it) becomes 8-bit text, each non-ASCII character
 * one byte >= 0x80 that cli_conf_split refuses outside comments. buf
 * must hold len + 1 bytes; returns the new length (NUL-terminated).
 */
size_t cli_conf_decode(char *buf, size_t len);
/* Merge: conf command < argv command; conf options, then argv options
 * (later wins). out must hold 1 + nconf + nargs entries. */
int cli_merge(const char *conf_cmd, char **conf, int nconf, char **args,
	      int nargs, char **out);


#endif
