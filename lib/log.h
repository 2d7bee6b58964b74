/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Logging helpers that return the status they log (systemd-boot style):
 *	return log_error(-AE_BADMSG, "RSDP: checksum mismatch");
 * Messages go to one sink, set by efi/ (console + ESP log) or by a test.
 */
#ifndef ASPMCTL_LIB_LOG_H
#define ASPMCTL_LIB_LOG_H

#include "fmt.h"

enum log_level { LOG_ERR, LOG_WARN, LOG_INFO, LOG_DEBUG };

void log_set_sink(const struct out *o, enum log_level max_level);
int log_msg(enum log_level level, int status, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Messages at LOG_ERR and LOG_WARN seen since log_set_sink(). */
unsigned log_count(enum log_level level);

#define log_error(status, ...)	log_msg(LOG_ERR, (status), __VA_ARGS__)
#define log_warn(status, ...)	log_msg(LOG_WARN, (status), __VA_ARGS__)
#define log_info(...)		log_msg(LOG_INFO, 0, __VA_ARGS__)
#define log_debug(...)		log_msg(LOG_DEBUG, 0, __VA_ARGS__)

#endif
