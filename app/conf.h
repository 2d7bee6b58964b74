/* SPDX-License-Identifier: GPL-2.0-only */
/* The configuration file \EFI\aspmctl\aspmctl.conf (app/conf.c). */
#ifndef ASPMCTL_APP_CONF_H
#define ASPMCTL_APP_CONF_H

#include <stddef.h>
#include "cli.h"

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
/*
 * Fail open on a bad configuration file: its ASPM settings are dropped
 * (the policy is skipped), but what it takes to boot -- the command and
 * the next/next-options/results keys of its well-formed lines -- still
 * counts, so that the next loader starts. Splits text in place into
 * argv (at most max words); *cmd receives the command or NULL.
 */
int cli_conf_salvage(char *text, char **argv, int max, const char **cmd);

#endif
