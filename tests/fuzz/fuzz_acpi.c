// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: ACPI discovery and FADT patching over an arbitrary
 * physical-memory image, walked exactly as the app walks real memory.
 *
 * Input: 1 byte mode, 4 bytes little-endian RSDP offset, then the image,
 * mapped at physical address FUZZ_BASE. Mode bits 1:0 pick what efi/main.c
 * does:
 *   0  discover, then the ACPI report (every command but fadt and boot)
 *   1  patch the FADTs (the fadt command)
 *   2  patch, then discover and report (boot with emulate-fadt)
 *   3  discover, then patch
 * and bit 2 sets the "PCIe ASPM Controls" bit instead of clearing it.
 *
 * Invariants (abort on violation, so the fuzzer reports them): every
 * table the parser accepted lies inside the image (the mapper refuses the
 * rest, ASan sees the image's exact size), counts stay within their
 * arrays, usable MCFG regions are well-formed and disjoint; patching
 * changes nothing in the image but the IAPC_BOOT_ARCH byte and the
 * checksum of each FADT it reports patched, only that one bit of the
 * field, and leaves each such FADT checksumming to zero; discovery after
 * a patch sees the patched value.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../../acpi/acpi.h"
#include "../../acpi/report.h"
#include "../../lib/log.h"
#include "fuzz_check.h"

#define FUZZ_BASE	0x100000ull
#define FUZZ_MAX	(256u << 10)
#define MAX_PATCH	8

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


static void check_info(const struct acpi_info *info)
{
	CHECK(info->nfadt <= ACPI_MAX_FADTS);
	CHECK(info->nregions <= MCFG_MAX_REGIONS);
	CHECK(info->root_entries <= ACPI_ROOT_MAX_ENTRIES);
	for (unsigned i = 0; i < info->nregions; i++) {
		const struct mcfg_region *a = &info->region[i];

		if (a->flags & MCFG_F_UNUSABLE)
			continue;
		CHECK(a->start_bus <= a->end_bus && a->base);
		for (unsigned k = 0; k < i; k++) {
			const struct mcfg_region *b = &info->region[k];

			if ((b->flags & MCFG_F_UNUSABLE) || b->segment != a->segment)
				continue;
			CHECK(a->end_bus < b->start_bus || a->start_bus > b->end_bus);
		}
	}
	for (unsigned i = 0; i < info->nfadt; i++)
		CHECK(info->fadt[i].boot_arch_valid ==
		      (info->fadt[i].length >= FADT_BOOT_ARCH_MIN_LEN));
}

/* Did patch i write anything? Its bytes are the checksum and the low
 * byte of IAPC_BOOT_ARCH (bit 4 is the only one set or cleared). */
static int patched(const struct fadt_patch *p)
{
	return !p->rc && p->before != p->after;
}

/* Did patch i write a byte inside [phys, phys + len)? */
static int writes_into(const struct fadt_patch *p, uint64_t phys, uint32_t len)
{
	uint64_t a = p->phys + 9, b = p->phys + FADT_IAPC_BOOT_ARCH_OFF;

	return patched(p) && ((a >= phys && a - phys < len) ||
			      (b >= phys && b - phys < len));
}

static int patch_owns(const struct fadt_patch *res, unsigned n, uint64_t phys)
{
	for (unsigned i = 0; i < n; i++)
		if (patched(&res[i]) &&
		    (phys == res[i].phys + 9 || phys == res[i].phys + FADT_IAPC_BOOT_ARCH_OFF))
			return 1;
	return 0;
}

static void check_patch(const struct img *m, const uint8_t *orig, int rc,
			const struct fadt_patch *res, unsigned n, uint16_t set,
			uint16_t clear)
{
	CHECK(n <= MAX_PATCH);
	for (unsigned i = 0; i < n; i++) {
		const struct fadt_patch *p = &res[i];

		CHECK(p->root);
		if (rc == 0)
			CHECK(!p->rc);
		if (p->rc)
			continue;
		CHECK(p->length >= FADT_BOOT_ARCH_MIN_LEN);
		CHECK(p->after == (uint16_t)((p->before & ~clear) | set));
	}
	for (size_t k = 0; k < m->n; k++)
		if (m->p[k] != orig[k])
			CHECK(patch_owns(res, n, FUZZ_BASE + k));
	/* each patched FADT checksums, unless a later patch of another
	 * FADT that overlaps it wrote into it */
	for (unsigned i = 0; i < n; i++) {
		const struct fadt_patch *p = &res[i];
		int touched = 0;
		uint8_t *t;

		if (p->rc)
			continue;
		t = img_map((void *)m, p->phys, p->length);
		CHECK(t);
		for (unsigned k = 0; k < n; k++)
			touched |= k != i && writes_into(&res[k], p->phys, p->length);
		if (!touched)
			CHECK(acpi_checksum(t, p->length) == 0);
	}
}

/* Boot order: what discovery reads after the patch is what was written. */
static void check_after_patch(const struct acpi_info *info,
			      const struct fadt_patch *res, unsigned n)
{
	for (unsigned i = 0; i < info->nfadt; i++) {
		const struct acpi_fadt_info *f = &info->fadt[i];

		for (unsigned k = 0; k < n; k++) {
			int others = 0;

			if (res[k].phys != f->phys || res[k].rc)
				continue;
			for (unsigned j = 0; j < n; j++)
				others |= j != k && writes_into(&res[j], f->phys, f->length);
			if (!others && f->boot_arch_valid)
				CHECK(f->iapc_boot_arch == res[k].after);
		}
	}
}

/* FUZZ_PRINT=1 in the environment: show what the app printed and logged */
static void show(const struct out_buf *ob)
{
	static int on = -1;

	if (on < 0)
		on = getenv("FUZZ_PRINT") != NULL;
	if (on)
		fprintf(stderr, "%s", ob->buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct acpi_info info;
	static char text[1 << 14];
	struct fadt_patch res[MAX_PATCH];
	struct img m;
	struct acpi_mem mem = { .map = img_map, .ctx = &m };
	struct out_buf ob;
	struct out o;
	uint16_t set, clear;
	uint8_t *orig;
	unsigned mode, n = 0;
	uint64_t rsdp;
	int rc;

	if (size < 5 || size - 5 > FUZZ_MAX)
		return 0;
	mode = data[0] & 3;
	set = (data[0] & 4) ? FADT_IAPC_NO_ASPM : 0;
	clear = (data[0] & 4) ? 0 : FADT_IAPC_NO_ASPM;
	rsdp = FUZZ_BASE + ((uint32_t)data[1] | (uint32_t)data[2] << 8 |
			    (uint32_t)data[3] << 16 | (uint32_t)data[4] << 24);
	m.n = size - 5;
	m.p = malloc(m.n ? m.n : 1);	/* exact size: ASan sees overreads */
	orig = malloc(m.n ? m.n : 1);
	memcpy(m.p, data + 5, m.n);
	memcpy(orig, data + 5, m.n);
	out_buf_init(&o, &ob, text, sizeof(text));
	console = &ob;
	log_set_sink(&o, LOG_DEBUG);	/* format every message */

	if (mode == 0 || mode == 3) {
		acpi_discover(&mem, rsdp, &info);	/* any result: invariants hold */
		check_info(&info);
		report_acpi(&o, &info);
		CHECK(!memcmp(m.p, orig, m.n));	/* discovery only reads */
	}
	if (mode != 0) {
		rc = acpi_patch_fadts(&mem, rsdp, set, clear, res, MAX_PATCH, &n);
		check_patch(&m, orig, rc, res, n, set, clear);
	}
	if (mode == 2) {
		acpi_discover(&mem, rsdp, &info);
		check_info(&info);
		report_acpi(&o, &info);
		check_after_patch(&info, res, n);
	}
	show(&ob);
	free(orig);
	free(m.p);
	return 0;
}
