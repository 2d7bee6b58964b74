/* SPDX-License-Identifier: GPL-2.0-only */
/* The UEFI console as an output sink (efi/console.c). */
#ifndef ASPMCTL_EFI_CONSOLE_H
#define ASPMCTL_EFI_CONSOLE_H

#include <efi.h>
#include "../lib/fmt.h"

/* Console sink: UTF-8/ASCII to UCS-2, "\n" to "\r\n". */
extern const struct out efi_console;

#endif
