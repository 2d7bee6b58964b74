// SPDX-License-Identifier: GPL-2.0-only
/*
 * lib/fmt.c, the formatter of every record line and message in the app,
 * against the host C library's snprintf on the conversions the project
 * uses (ISO C 7.21.6.1): flags, width and precision (literal and '*'),
 * length modifiers, truncation and the returned length; and its two
 * departures, named: "%p" prints 0x and lower-case hex digits, an unknown
 * conversion is printed as it stands.
 */
#include "common.h"
#include <stdio.h>
#include "../../lib/fmt.h"

/* Format with both and compare the text and the returned length. */
#define SAME(...)                                                       \
	do {                                                            \
		char want[160], got[160];                               \
		int nw = snprintf(want, sizeof(want), __VA_ARGS__);     \
		int ng = fmt_snprintf(got, sizeof(got), __VA_ARGS__);   \
		assert_string_equal(got, want);                         \
		assert_int_equal(ng, nw);                               \
	} while (0)

static void test_integers(void **state)
{
	(void)state;
	SAME("%d %i %d", 0, -1, 2147483647);
	SAME("%d", (int)-2147483647 - 1);
	SAME("%u %x %X", 4294967295u, 0xdeadbeefu, 0xdeadbeefu);
	SAME("%ld %lu %lx", -5L, 7UL, 0xabcUL);
	SAME("%lld %llu %llx", (long long)INT64_MIN, (unsigned long long)UINT64_MAX,
	     0x123456789abcdefULL);
	SAME("%zu %zx", (size_t)12345, (size_t)0xfff);
	SAME("%hx %hu", 0x12, 7);
	SAME("[%5d] [%-5d] [%05d] [%05x] [%-8x]", 42, 42, 42, 0xab, 0xab);
	SAME("[%04x] [%08x] [%2d] [%02d]", 0x8086, 0x1, 123, 7);
	SAME("[%*d] [%-*d] [%0*x]", 6, -3, 6, -3, 6, 0x1f);
	SAME("[%03d] [%-5d]", -7, -7);
}

static void test_strings(void **state)
{
	(void)state;
	SAME("%s|%c|%%", "abc", 'z');
	SAME("[%8s] [%-8s] [%.2s] [%8.2s] [%-8.2s]", "abc", "abc", "abc", "abc", "abc");
	SAME("[%.*s] [%*s] [%.0s]", 3, "abcdef", 5, "ab", "abc");
	SAME("%s=%u %s=0x%04x", "bus", 2u, "lnkctl", 0x42u);
	SAME("no conversion at all");
	SAME("%s", "");
}

static void test_truncation(void **state)
{
	char buf[8];
	int n;

	(void)state;
	memset(buf, 'X', sizeof(buf));
	n = fmt_snprintf(buf, sizeof(buf), "0123456789%d", 42);
	assert_int_equal(n, 12);
	assert_string_equal(buf, "0123456");
	n = fmt_snprintf(buf, 1, "abc");
	assert_int_equal(n, 3);
	assert_string_equal(buf, "");
	/* size 0 writes nothing, still counts */
	buf[0] = 'Q';
	n = fmt_snprintf(buf, 0, "%s", "abcdef");
	assert_int_equal(n, 6);
	assert_int_equal(buf[0], 'Q');
}

static void test_departures(void **state)
{
	/* formats the compiler's format check would refuse, kept out of its view */
	static const char *const odd[][2] = {
		{ "a%qb", "a%qb" },	/* unknown conversion: printed as it stands */
		{ "50%", "50" },	/* a lone '%' at the end ends the text */
		{ "x%-08", "x" },
	};
	char buf[64];

	(void)state;
	fmt_snprintf(buf, sizeof(buf), "%p", (void *)(uintptr_t)0xabc0);
	assert_string_equal(buf, "0xabc0");
	{
		const char *volatile none = NULL;

		fmt_snprintf(buf, sizeof(buf), "%s", none);
		assert_string_equal(buf, "(null)");
	}
	for (unsigned i = 0; i < sizeof(odd) / sizeof(odd[0]); i++) {
		const char *volatile f = odd[i][0];

		fmt_snprintf(buf, sizeof(buf), f, 0);
		assert_string_equal(buf, odd[i][1]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_integers),
		cmocka_unit_test(test_strings),
		cmocka_unit_test(test_truncation),
		cmocka_unit_test(test_departures),
	};

	return cmocka_run_group_tests_name("fmt", tests, NULL, NULL);
}
