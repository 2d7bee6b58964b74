// SPDX-License-Identifier: GPL-2.0-only
/* ECAM MMIO: volatile accesses of the exact width. */
#include "mmio.h"

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
