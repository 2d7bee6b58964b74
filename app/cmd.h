/* SPDX-License-Identifier: GPL-2.0-only */
/* The commands over the machine and their result files (app/cmd.c). */
#ifndef ASPMCTL_APP_CMD_H
#define ASPMCTL_APP_CMD_H

#include "app.h"

/* report, plan, apply, remove (cmd); with dumps (a folder on the ESP)
 * also config-before.txt and config-after.txt there. */
int app_run(struct app *a, enum cli_cmd cmd, const char *dumps,
	    const struct out *o);
/* dump [DIR]: config.txt of every function, and its link records */
int app_dump(struct app *a, const struct out *o);
/* fadt --set-no-aspm|--clear-no-aspm, with its stats line */
int app_fadt(struct app *a, const struct out *o);
/* Set (set) or clear the FADT's no-ASPM bit in every FADT, one record each. */
int app_patch_fadt(struct app *a, int set, const struct out *o);
/*
 * Write b to dir\name on the ESP. What does not fit the buffer is an
 * error, not a warning: the part that fits is written (an older file of
 * the same name must not pass for this run's) and the status says so.
 */
int app_write_result(struct app *a, const struct out_buf *b, const char *dir,
		     const char *name, const struct out *o);
/* "verified" of the secureboot record: who checked this image's
 * signature before it ran ("firmware", "shim", "no", "-": unknown). */
/* The aspm secureboot record (docs/records.md). */
void app_secure_boot_record(struct app *a, const struct out *o);

#endif
