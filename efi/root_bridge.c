// SPDX-License-Identifier: GPL-2.0-only
#include "root_bridge.h"
#include <efilib.h>
#include "../lib/err.h"
#include "../lib/log.h"

/*
 * Root buses as firmware knows them: one EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL
 * per host bridge, whose Configuration() lists its bus-number range as
 * an ACPI QWORD Address Space Descriptor (ACPI 6.5 sec 6.4.3.5.1, resource
 * type 2). This finds extra root buses (QEMU's pxb-pcie, multi-socket
 * machines) that no bridge on bus 0 leads to, without an AML interpreter.
 */
unsigned efi_root_buses(struct pci_addr *roots, unsigned max)
{
	EFI_HANDLE *handles = NULL;
	UINTN nh = 0;
	unsigned n = 0, dropped = 0;

	if (EFI_ERROR(LibLocateHandle(ByProtocol, &gEfiPciRootBridgeIoProtocolGuid,
				      NULL, &nh, &handles)) || !handles)
		return 0;
	for (UINTN i = 0; i < nh; i++) {
		EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL *rb = NULL;
		UINT8 *d = NULL;

		if (EFI_ERROR(uefi_call_wrapper(BS->HandleProtocol, 3, handles[i],
						&gEfiPciRootBridgeIoProtocolGuid,
						(void **)&rb)) || !rb)
			continue;
		if (EFI_ERROR(uefi_call_wrapper(rb->Configuration, 2, rb, (void **)&d)) || !d)
			continue;
		/* bounded walk of the descriptor list, up to its end tag */
		for (unsigned k = 0; k < 64 && d[0] == 0x8a; k++) {
			UINT16 len = (UINT16)(d[1] | (d[2] << 8));

			if (len < 0x2b)
				break;
			if (d[3] == 2 && n >= max) {
				dropped++;	/* counted, never dropped silently */
			} else if (d[3] == 2) {
				roots[n].seg = (uint16_t)rb->SegmentNumber;
				roots[n].bus = d[14];
				roots[n].devfn = 0;
				n++;
			}
			d += 3 + len;
		}
	}
	FreePool(handles);
	if (dropped)
		log_warn(-AE_NOSPC, "PciRootBridgeIo: %u root bus(es) beyond the %u that fit were ignored",
			 dropped, max);
	return n;
}
