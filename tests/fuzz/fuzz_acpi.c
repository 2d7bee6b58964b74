// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: ACPI discovery over an arbitrary physical-memory
 * image, walked exactly as the app walks real memory (acpi_discover,
 * then acpi_patch_fadts on the same image).
 *
 * Input: 4 bytes little-endian RSDP offset, then the image, mapped at
 * physical address FUZZ_BASE. Invariants (abort on violation, so the
 * fuzzer reports them): every table the parser accepted lies inside the
 * image (the mapper refuses the rest), counts stay within their arrays,
 * usable MCFG regions are well-formed and disjoint, a patched FADT still
 * checksums to zero.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "../../acpi/acpi.h"
#include "../../lib/log.h"

#define FUZZ_BASE	0x100000ull
#define FUZZ_MAX	(256u << 10)

struct img {
	uint8_t *p;
	size_t n;
};

static void *img_map(void *ctx, uint64_t phys, size_t len)
{
	struct img *m = ctx;

	if (phys < FUZZ_BASE || len > m->n || phys - FUZZ_BASE > m->n - len)
		return NULL;
	return m->p + (phys - FUZZ_BASE);
}

#define CHECK(c) do { if (!(c)) abort(); } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct acpi_info info;
	struct fadt_patch res[8];
	struct img m;
	struct acpi_mem mem = { .map = img_map, .ctx = &m };
	uint32_t off;
	unsigned n;

	if (size < 4 || size - 4 > FUZZ_MAX)
		return 0;
	off = (uint32_t)data[0] | (uint32_t)data[1] << 8 | (uint32_t)data[2] << 16 |
	      (uint32_t)data[3] << 24;
	m.n = size - 4;
	m.p = malloc(m.n ? m.n : 1);	/* exact size: ASan sees overreads */
	memcpy(m.p, data + 4, m.n);
	log_set_sink(NULL, LOG_ERR);

	acpi_discover(&mem, FUZZ_BASE + off, &info);	/* any result: invariants hold */
	{
		CHECK(info.nfadt <= ACPI_MAX_FADTS);
		CHECK(info.nregions <= MCFG_MAX_REGIONS);
		CHECK(info.root_entries <= ACPI_ROOT_MAX_ENTRIES);
		for (unsigned i = 0; i < info.nregions; i++) {
			const struct mcfg_region *a = &info.region[i];

			if (a->flags & MCFG_F_UNUSABLE)
				continue;
			CHECK(a->start_bus <= a->end_bus && a->base);
			for (unsigned k = 0; k < i; k++) {
				const struct mcfg_region *b = &info.region[k];

				if ((b->flags & MCFG_F_UNUSABLE) || b->segment != a->segment)
					continue;
				CHECK(a->end_bus < b->start_bus || a->start_bus > b->end_bus);
			}
		}
		for (unsigned i = 0; i < info.nfadt; i++)
			CHECK(info.fadt[i].boot_arch_valid ==
			      (info.fadt[i].length >= FADT_BOOT_ARCH_MIN_LEN));
	}
	if (acpi_patch_fadts(&mem, FUZZ_BASE + off, FADT_IAPC_NO_ASPM, 0, res, 8, &n) == 0) {
		for (unsigned i = 0; i < n; i++) {
			uint8_t *t = img_map(&m, res[i].phys, res[i].length);

			CHECK(t && acpi_checksum(t, res[i].length) == 0);
			CHECK(res[i].after & FADT_IAPC_NO_ASPM);
		}
	}
	free(m.p);
	return 0;
}
