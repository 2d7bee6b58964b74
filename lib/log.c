// SPDX-License-Identifier: GPL-2.0-only
#include "log.h"
#include "err.h"

static const struct out *log_sink;
static enum log_level log_max = LOG_INFO;
static unsigned log_counts[LOG_DEBUG + 1];

void log_set_sink(const struct out *o, enum log_level max_level)
{
	log_sink = o;
	log_max = max_level;
	for (unsigned i = 0; i <= LOG_DEBUG; i++)
		log_counts[i] = 0;
}

unsigned log_count(enum log_level level)
{
	return level <= LOG_DEBUG ? log_counts[level] : 0;
}

int log_msg(enum log_level level, int status, const char *fmt, ...)
{
	static const char *const prefix[] = {
		[LOG_ERR] = "error: ", [LOG_WARN] = "warning: ",
		[LOG_INFO] = "", [LOG_DEBUG] = "debug: ",
	};
	va_list ap;

	if (level <= LOG_DEBUG)
		log_counts[level]++;
	if (!log_sink || level > log_max)
		return status;
	out_printf(log_sink, "aspmctl: %s", prefix[level]);
	va_start(ap, fmt);
	out_vprintf(log_sink, fmt, ap);
	va_end(ap);
	if (status < 0)
		out_printf(log_sink, " (%s)", err_str(status));
	out_puts(log_sink, "\n");
	return status;
}
