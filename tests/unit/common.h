/* SPDX-License-Identifier: GPL-2.0-only */
/* Shared helpers for the cmocka unit tests. */
#ifndef ASPMCTL_TESTS_UNIT_COMMON_H
#define ASPMCTL_TESTS_UNIT_COMMON_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>
#include "../../lib/fmt.h"
#include "../../lib/log.h"

/* Capture log messages into a buffer for assertions. */
static char test_log_text[65536];
static struct out_buf test_log_buf;
static struct out test_log_out;

static inline void test_log_capture(void)
{
	out_buf_init(&test_log_out, &test_log_buf, test_log_text,
		     sizeof(test_log_text));
	log_set_sink(&test_log_out, LOG_DEBUG);
}

#define assert_log_contains(s) do {					\
	if (!strstr(test_log_text, (s)))				\
		fail_msg("log lacks \"%s\"; log was:\n%s", (s), test_log_text); \
} while (0)

#define assert_log_lacks(s) do {					\
	if (strstr(test_log_text, (s)))					\
		fail_msg("log has \"%s\"; log was:\n%s", (s), test_log_text); \
} while (0)

#endif
