/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Boot counting for boot mode, as systemd-boot's boot assessment does it:
 * a boot that applies a writing policy is counted in a non-volatile
 * variable before anything is written; Linux confirms a boot that came
 * up (`aspmctl bless`, from aspmctl-bless.service after
 * boot-complete.target) by deleting the variable. Once `tries` boots in a
 * row were not confirmed, the next one applies nothing: ASPM is left as
 * the BIOS set it, so that a machine a policy hangs recovers by itself.
 */
#ifndef ASPMCTL_APP_TRIES_H
#define ASPMCTL_APP_TRIES_H

#include <stdbool.h>
#include <stdint.h>

#define TRIES_DEFAULT	3	/* for every policy but notouch */
#define TRIES_MAX	100

enum boot_fallback {
	FALLBACK_NONE,
	FALLBACK_UNCONFIRMED,	/* `limit` boots in a row not confirmed */
	FALLBACK_COUNTER,	/* the counter cannot be read or written */
};

struct boot_tries {
	unsigned limit;		/* 0: not counted */
	long long unconfirmed;	/* boots not confirmed, this one included; -1 not known */
	enum boot_fallback fallback;
};

/*
 * What this boot does, from the counter's state: get_rc is what reading
 * it gave (0 with *count, -AE_NOENT when there is none, else the error).
 * Returns the new counter value to store in *store (false: store
 * nothing) and fills *t. Pure: the caller reads and writes the variable.
 */
bool tries_decide(unsigned limit, int get_rc, uint32_t count,
		  struct boot_tries *t, uint32_t *store);
/* "none", "unconfirmed-boots", "counter-unusable" */
const char *tries_fallback_name(enum boot_fallback f);

#endif
