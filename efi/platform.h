/* SPDX-License-Identifier: GPL-2.0-only */
/* The UEFI side of aspmctl: console, memory, MMIO, time. */
#ifndef ASPMCTL_EFI_PLATFORM_H
#define ASPMCTL_EFI_PLATFORM_H

#include <efi.h>
#include <efilib.h>
#include "../acpi/acpi.h"
#include "../pcie/ecam.h"
#include "../lib/fmt.h"

/* Console sink: UTF-8/ASCII to UCS-2, "\n" to "\r\n". */
extern const struct out efi_console;

/* Physical memory for acpi/: ranges must lie in the UEFI memory map. */
void efi_mem_init(struct acpi_mem *mem);
void efi_mem_fini(void);

/* ECAM MMIO: volatile accesses of the exact width. */
extern const struct mmio_ops efi_mmio_ops;

/* Calibrated TSC. */
void efi_time_init(void);
uint64_t efi_time_ns(void);
uint64_t efi_time_since_entry_ns(void);
void efi_delay_us(void *ctx, unsigned us);

/* Root buses of every PCI Root Bridge I/O instance; returns the count. */
unsigned efi_root_buses(struct pci_addr *roots, unsigned max);

/* Files on the app's own volume; paths like "\\EFI\\aspmctl\\x.txt", at
 * most 255 characters (-AE_2BIG beyond). esp_read_file reads text: a
 * UTF-8 BOM is dropped and UTF-16 with a BOM becomes 8-bit text
 * (cli_conf_decode); *len is the length after that. */
int esp_read_file(EFI_HANDLE image, const char *path, char *buf, size_t max,
		  size_t *len);
int esp_write_file(EFI_HANDLE image, const char *path, const void *data,
		   size_t len);
/* LoadImage/StartImage a file of the app's volume with load options
 * (whole, up to 8192 characters; refused, not cut, beyond). An image
 * LoadImage loaded but refused to start (Secure Boot) is unloaded. */
int efi_chainload(EFI_HANDLE image, const char *path, const char *options,
		  const struct out *o);

/* The project's vendor GUID: 5b3c4e1a-9f2d-4c7e-8a61-2d0e6f4b9c13 */
#define ASPMCTL_VENDOR_GUID_STR "5b3c4e1a-9f2d-4c7e-8a61-2d0e6f4b9c13"
#define ASPMCTL_VENDOR_GUID \
	{ 0x5b3c4e1a, 0x9f2d, 0x4c7e, \
	  { 0x8a, 0x61, 0x2d, 0x0e, 0x6f, 0x4b, 0x9c, 0x13 } }
extern EFI_GUID aspmctl_vendor_guid;
/* Volatile AspmctlSummary variable (boot + runtime access). */
int efi_publish_summary(const char *line);

/* negative AE_* -> EFI_STATUS */
EFI_STATUS efi_status_from_err(int err);

#endif
