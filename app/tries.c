// SPDX-License-Identifier: GPL-2.0-only
/* Boot counting (tries.h). */
#include "tries.h"
#include "../lib/err.h"

bool tries_decide(unsigned limit, int get_rc, uint32_t count,
		  struct boot_tries *t, uint32_t *store)
{
	*t = (struct boot_tries){ .limit = limit, .unconfirmed = -1 };
	if (!limit)
		return false;
	if (get_rc == -AE_NOENT)
		count = 0;
	else if (get_rc) {
		/* a boot that cannot be counted could hang forever */
		t->fallback = FALLBACK_COUNTER;
		return false;
	}
	if (count >= limit) {
		t->unconfirmed = count;
		t->fallback = FALLBACK_UNCONFIRMED;
		return false;
	}
	t->unconfirmed = count + 1;
	*store = count + 1;
	return true;
}

const char *tries_fallback_name(enum boot_fallback f)
{
	static const char *const names[] = {
		[FALLBACK_NONE] = "none",
		[FALLBACK_UNCONFIRMED] = "unconfirmed-boots",
		[FALLBACK_COUNTER] = "counter-unusable",
	};

	return (unsigned)f < sizeof(names) / sizeof(names[0]) ? names[f] : "?";
}
