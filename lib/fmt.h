/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A small printf for freestanding code: %d %i %u %x %X %c %s %p %% with
 * flags '-', '0', width, precision for %s, and the length modifiers h, hh,
 * l, ll, z. Output goes to a sink so that the same report text reaches the
 * console, a file on the ESP, or a host test's buffer.
 */
#ifndef ASPMCTL_LIB_FMT_H
#define ASPMCTL_LIB_FMT_H

#include <stdarg.h>
#include <stddef.h>

struct out {
	void (*write)(void *ctx, const char *s, size_t n);
	void *ctx;
};

/* Returns the length the full output would have (like C99 vsnprintf). */
int fmt_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int fmt_snprintf(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void out_vprintf(const struct out *o, const char *fmt, va_list ap);
void out_printf(const struct out *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void out_puts(const struct out *o, const char *s);

/* A growing-free sink into a fixed buffer; keeps the tail truncated. */
struct out_buf {
	char *buf;
	size_t size;
	size_t len;		/* bytes stored, always NUL-terminated */
	size_t lost;		/* bytes that did not fit */
};
void out_buf_init(struct out *o, struct out_buf *b, char *buf, size_t size);

/* A sink that discards everything. */
extern const struct out out_null;

#endif
