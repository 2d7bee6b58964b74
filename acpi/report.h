/* SPDX-License-Identifier: GPL-2.0-only */
/* The ACPI part of the human report (acpi/report.c). */
#ifndef ASPMCTL_ACPI_REPORT_H
#define ASPMCTL_ACPI_REPORT_H

#include "acpi.h"
#include "../lib/fmt.h"

void report_acpi(const struct out *o, const struct acpi_info *info);

#endif
