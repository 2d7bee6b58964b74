/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A counting heap for acpi/aml's platform (struct aml_platform's alloc and
 * free): every block carries its size, so the test knows how many blocks
 * and bytes the interpreter holds now and at most; and an allocation can
 * be made to fail from the Nth call on.
 *
 * Header-only: the unit tests and the fuzz target include it after
 * defining COUNT_HEAP_CHECK(cond), their own way of failing (cmocka's
 * assert_true, the fuzzer's abort).
 */
#ifndef ASPMCTL_TESTS_COUNT_HEAP_H
#define ASPMCTL_TESTS_COUNT_HEAP_H

#include <stddef.h>
#include <stdlib.h>

#ifndef COUNT_HEAP_CHECK
#error "define COUNT_HEAP_CHECK(cond) before including count_heap.h"
#endif

struct count_heap {
	size_t live;		/* blocks not yet freed */
	size_t bytes, peak;	/* bytes held now, and at most */
	unsigned long allocs, frees;
	long fail_after;	/* the allocation that fails first; < 0: none */
	unsigned long failed;	/* allocations refused by fail_after */
};

#define COUNT_HEAP_HDR	16	/* keeps the block 16-byte aligned */

static inline void *count_heap_alloc(void *ctx, size_t n)
{
	struct count_heap *h = ctx;
	size_t *p;

	if (h->fail_after >= 0 && h->allocs >= (unsigned long)h->fail_after) {
		h->failed++;
		return NULL;
	}
	p = malloc(n + COUNT_HEAP_HDR);
	if (!p)
		return NULL;
	p[0] = n;
	h->live++;
	h->allocs++;
	h->bytes += n;
	if (h->bytes > h->peak)
		h->peak = h->bytes;
	return (unsigned char *)p + COUNT_HEAP_HDR;
}

static inline void count_heap_free(void *ctx, void *p)
{
	struct count_heap *h = ctx;
	size_t *b;

	if (!p)
		return;
	b = (size_t *)((unsigned char *)p - COUNT_HEAP_HDR);
	COUNT_HEAP_CHECK(h->live > 0 && h->bytes >= b[0]);
	h->live--;
	h->frees++;
	h->bytes -= b[0];
	free(b);
}

#endif
