/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * --osc auto: ask the firmware's _OSC (acpi/aml) after discovery, and
 * turn its answer into the decision table's os_control input.
 */
#ifndef ASPMCTL_APP_OSC_H
#define ASPMCTL_APP_OSC_H

#include "app.h"

/* After prepare(): a->osc holds the answer; nothing is written. */
void app_osc_probe(struct app *a);
/* Set in->osc_granted / osc_source when the firmware was asked. */
void app_osc_input(const struct app *a, struct aspm_inputs *in);

#endif
