// SPDX-License-Identifier: GPL-2.0-only
/*
 * Physical memory for acpi/: a range is mapped (identity, as UEFI runs)
 * only when memory-map entries of a RAM-like type cover it.
 */
#include "memmap.h"
#include <efilib.h>

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
