/* SPDX-License-Identifier: GPL-2.0-only */
/* Root buses of the PCI Root Bridge I/O protocols (efi/root_bridge.c). */
#ifndef ASPMCTL_EFI_ROOT_BRIDGE_H
#define ASPMCTL_EFI_ROOT_BRIDGE_H

#include <efi.h>
#include "../pcie/cfg.h"

/* Root buses of every PCI Root Bridge I/O instance; returns the count. */
unsigned efi_root_buses(struct pci_addr *roots, unsigned max);

#endif
