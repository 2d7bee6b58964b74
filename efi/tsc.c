// SPDX-License-Identifier: GPL-2.0-only
/* Time from the TSC, calibrated against the firmware's Stall. */
#include "tsc.h"

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
