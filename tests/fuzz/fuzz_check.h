/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What both fuzz targets do when an invariant fails: show what the app
 * printed so far (with FUZZ_PRINT=1) and abort, so libFuzzer keeps the input.
 */
#ifndef ASPMCTL_TESTS_FUZZ_CHECK_H
#define ASPMCTL_TESTS_FUZZ_CHECK_H

#include <stdio.h>
#include <stdlib.h>
#include "../../lib/fmt.h"

/* what the app printed so far, shown when an invariant fails */
static const struct out_buf *console;

static void fail(const char *what, const char *file, int line)
{
	if (console && getenv("FUZZ_PRINT"))
		fprintf(stderr, "%s", console->buf);
	fprintf(stderr, "%s:%d: invariant failed: %s\n", file, line, what);
	abort();
}

#define CHECK(c) do { if (!(c)) fail(#c, __FILE__, __LINE__); } while (0)

#endif
