/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The transcript of a run (app/capture.c): while it is on, everything
 * written to `both` goes to the console and into a text buffer, which
 * boot mode writes to the ESP as boot.txt, the same lines as on the
 * console. The same buffer holds the dump command's config.txt.
 */
#ifndef ASPMCTL_APP_CAPTURE_H
#define ASPMCTL_APP_CAPTURE_H

#include <stdbool.h>
#include "../lib/fmt.h"

struct capture {
	const struct out *console;
	struct out_buf buf;	/* the collected text */
	struct out file;	/* writes into buf */
	bool on;		/* both also writes into buf */
	struct out both;	/* the console, and buf while on */
};

/* Buffer text of size bytes; -AE_NOMEM (logged) when there is none. */
int capture_file_begin(struct capture *c, char *text, size_t size);
/* Start collecting what both receives; false when there is no buffer. */
bool capture_begin(struct capture *c, const struct out *console, char *text,
		   size_t size);
void capture_end(struct capture *c);

#endif
