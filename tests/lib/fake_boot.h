/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Fake firmware services behind struct boot_ops (tests/lib/fake_boot.c),
 * for test_boot.c and fuzz_pcie.c: ACPI from a memory the test builds,
 * config space through the MMIO the test gives, and a record of what the
 * app asked for: files written, the summary published, the loader
 * chainloaded, the delays. Switches make a service fail.
 */
#ifndef ASPMCTL_TESTS_LIB_FAKE_BOOT_H
#define ASPMCTL_TESTS_LIB_FAKE_BOOT_H

#include "../../app/app.h"
#include "../../host/platform.h"

#define FAKE_MAX_FILES	8

struct fake_file {
	char path[160];
	char *data;		/* malloc'd copy, NUL-terminated */
	size_t len;
};

struct fake_fw {
	struct fixed_platform plat;	/* the machine: ACPI memory, RSDP, roots */
	struct boot_ops ops;	/* ctx = this */
	/* switches */
	int write_rc;		/* write_file fails with it (logged) */
	int chain_rc;		/* what chainload returns */
	uint64_t delay_bound;	/* abort() past this many delays; 0: none */
	struct sb_state sb;	/* what secure_boot reports */
	int counter_get_rc;	/* counter_get fails with it (0: works) */
	int counter_set_rc;	/* counter_set fails with it */
	/* the boot counter variable */
	bool counter_exists;
	uint32_t counter;
	unsigned ncounter_set;
	/* what the app did */
	struct fake_file file[FAKE_MAX_FILES];
	unsigned nfile;		/* distinct paths kept */
	unsigned nwrite;	/* write_file calls */
	unsigned files_lost;	/* paths beyond FAKE_MAX_FILES */
	char published[512];
	size_t published_len;	/* of the whole summary, even if longer */
	unsigned npublish;
	char next[160], next_opts[1024];
	unsigned nchain;
	uint64_t t, delays;
};
FIXED_PLATFORM_FIRST(struct fake_fw, plat);

/* Zero f (freeing its files) and point its ops at it, with this MMIO. */
void fake_fw_init(struct fake_fw *f, const struct mmio_ops *mmio,
		  void *mmio_ctx);
/* Free the file copies. */
void fake_fw_free(struct fake_fw *f);
/* The recorded file of that path, or NULL. */
const struct fake_file *fake_fw_file(const struct fake_fw *f,
				     const char *path);

#endif
