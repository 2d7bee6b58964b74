/* SPDX-License-Identifier: GPL-2.0-only */
/* Starting the next loader (efi/chainload.c). */
#ifndef ASPMCTL_EFI_CHAINLOAD_H
#define ASPMCTL_EFI_CHAINLOAD_H

#include <efi.h>
#include "../lib/fmt.h"

/* LoadImage/StartImage a file of the app's volume with load options
 * (whole, up to 8192 characters; refused, not cut, beyond). An image
 * LoadImage loaded but refused to start (Secure Boot) is unloaded. */
int efi_chainload(EFI_HANDLE image, const char *path, const char *options,
		  const struct out *o);

#endif
