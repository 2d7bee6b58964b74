// SPDX-License-Identifier: GPL-2.0-only
#include "platform.h"
#include "../lib/err.h"
#include "../lib/log.h"

/* ------------------------------------------------------------ console */

static void con_write(void *ctx, const char *s, size_t n)
{
	CHAR16 buf[130];
	unsigned k = 0;

	(void)ctx;
	for (size_t i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)s[i];

		if (ch == '\n')
			buf[k++] = L'\r';
		buf[k++] = ch < 0x80 ? ch : L'?';
		if (k >= 126) {
			buf[k] = 0;
			uefi_call_wrapper(ST->ConOut->OutputString, 2, ST->ConOut, buf);
			k = 0;
		}
	}
	if (k) {
		buf[k] = 0;
		uefi_call_wrapper(ST->ConOut->OutputString, 2, ST->ConOut, buf);
	}
}

const struct out efi_console = { .write = con_write };

/* ------------------------------------------------------------ memory */

static EFI_MEMORY_DESCRIPTOR *mem_map;
static UINTN mem_entries, mem_desc_size;

static bool type_ok(UINT32 type)
{
	switch (type) {
	case EfiMemoryMappedIO:
	case EfiMemoryMappedIOPortSpace:
	case EfiUnusableMemory:
		return false;
	default:
		return true;
	}
}

/* Is [phys, end) covered by memory-map entries (any RAM-like type)? */
static bool covered(uint64_t phys, uint64_t end)
{
	bool progress = true;

	while (phys < end && progress) {
		progress = false;
		for (UINTN i = 0; i < mem_entries; i++) {
			EFI_MEMORY_DESCRIPTOR *d = (EFI_MEMORY_DESCRIPTOR *)
				((UINT8 *)mem_map + i * mem_desc_size);
			uint64_t lo = d->PhysicalStart;
			uint64_t hi = lo + d->NumberOfPages * 4096ull;

			if (type_ok(d->Type) && phys >= lo && phys < hi) {
				phys = hi;
				progress = true;
				break;
			}
		}
	}
	return phys >= end;
}

static void *efi_map(void *ctx, uint64_t phys, size_t len)
{
	uint64_t end = phys + len;

	(void)ctx;
	if (!phys || end < phys || end > (1ull << 48))
		return NULL;
	if (mem_map && !covered(phys, end))
		return NULL;
	return (void *)(UINTN)phys;
}

void efi_mem_init(struct acpi_mem *mem)
{
	UINTN key;
	UINT32 ver;

	mem_map = LibMemoryMap(&mem_entries, &key, &mem_desc_size, &ver);
	mem->map = efi_map;
	mem->ctx = NULL;
}

void efi_mem_fini(void)
{
	if (mem_map)
		FreePool(mem_map);
	mem_map = NULL;
}

/* ------------------------------------------------------------ MMIO */

static uint32_t mmio_read(void *ctx, uint64_t phys, unsigned width)
{
	volatile void *p = (volatile void *)(UINTN)phys;

	(void)ctx;
	switch (width) {
	case 1:
		return *(volatile uint8_t *)p;
	case 2:
		return *(volatile uint16_t *)p;
	default:
		return *(volatile uint32_t *)p;
	}
}

static void mmio_write(void *ctx, uint64_t phys, unsigned width, uint32_t val)
{
	volatile void *p = (volatile void *)(UINTN)phys;

	(void)ctx;
	switch (width) {
	case 1:
		*(volatile uint8_t *)p = (uint8_t)val;
		break;
	case 2:
		*(volatile uint16_t *)p = (uint16_t)val;
		break;
	default:
		*(volatile uint32_t *)p = val;
		break;
	}
}

const struct mmio_ops efi_mmio_ops = { .read = mmio_read, .write = mmio_write };

/* ------------------------------------------------------------ time */

static uint64_t tsc_per_us, tsc_entry;

static inline uint64_t rdtsc(void)
{
	uint32_t lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return ((uint64_t)hi << 32) | lo;
}

/*
 * Calibrate the TSC against the firmware's Stall: the shortest of three
 * 2 ms stalls, so that one stretched by the host (a virtual CPU that was
 * descheduled, seen under QEMU on a loaded machine) does not make every
 * time the app prints too short.
 */
void efi_time_init(void)
{
	uint64_t best = ~0ull;

	tsc_entry = rdtsc();
	for (unsigned i = 0; i < 3; i++) {
		uint64_t t0 = rdtsc(), d;

		uefi_call_wrapper(BS->Stall, 1, 2000);
		d = rdtsc() - t0;
		if (d < best)
			best = d;
	}
	tsc_per_us = best / 2000;
	if (!tsc_per_us)
		tsc_per_us = 1;
}

uint64_t efi_time_ns(void)
{
	return rdtsc() * 1000 / tsc_per_us;
}

/* Time since efi_time_init() (efi_main calls it right after
 * InitializeLib), calibration included: what the app has cost the boot
 * so far. */
uint64_t efi_time_since_entry_ns(void)
{
	return (rdtsc() - tsc_entry) * 1000 / tsc_per_us;
}

void efi_delay_us(void *ctx, unsigned us)
{
	(void)ctx;
	uefi_call_wrapper(BS->Stall, 1, us);
}

EFI_STATUS efi_status_from_err(int err)
{
	switch (err < 0 ? -err : err) {
	case AE_OK:		return EFI_SUCCESS;
	case AE_INVAL:		return EFI_INVALID_PARAMETER;
	case AE_NOENT:
	case AE_NODEV:		return EFI_NOT_FOUND;
	case AE_NOMEM:		return EFI_OUT_OF_RESOURCES;
	case AE_NOSPC:		return EFI_BUFFER_TOO_SMALL;
	case AE_NOTSUP:		return EFI_UNSUPPORTED;
	case AE_TIMEDOUT:	return EFI_TIMEOUT;
	case AE_BADMSG:
	case AE_MSGSIZE:	return EFI_CRC_ERROR;
	case AE_BUSY:		return EFI_NOT_READY;
	default:		return EFI_DEVICE_ERROR;
	}
}

/* ------------------------------------------------------------ root buses */

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
