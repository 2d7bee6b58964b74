/* SPDX-License-Identifier: GPL-2.0-only */
/* Chainloader mode, the boot command (app/boot.c). */
#ifndef ASPMCTL_APP_BOOT_H
#define ASPMCTL_APP_BOOT_H

#include "app.h"

/*
 * Apply the policy, write the results to the ESP, publish the summary,
 * start the next loader. err: the configuration or the load options
 * (what) were unusable (already reported): ASPM is left as it is.
 * Returns 0 only when the next loader started and returned success.
 */
int app_boot(struct app *a, int err, const char *what);

#endif
