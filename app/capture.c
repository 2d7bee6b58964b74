// SPDX-License-Identifier: GPL-2.0-only
/* The transcript of a run: console and text buffer at once (capture.h). */
#include "capture.h"
#include "../lib/err.h"
#include "../lib/log.h"

static void tee_write(void *ctx, const char *s, size_t n)
{
	struct capture *c = ctx;

	c->console->write(c->console->ctx, s, n);
	if (c->on)
		c->file.write(c->file.ctx, s, n);
}

int capture_file_begin(struct capture *c, char *text, size_t size)
{
	if (!text || size < 2)
		return log_error(-AE_NOMEM, "out of memory for result files");
	out_buf_init(&c->file, &c->buf, text, size);
	return 0;
}

bool capture_begin(struct capture *c, const struct out *console, char *text,
		   size_t size)
{
	c->console = console;
	c->both = (struct out){ .write = tee_write, .ctx = c };
	c->on = !capture_file_begin(c, text, size);
	return c->on;
}

void capture_end(struct capture *c)
{
	c->on = false;
}
