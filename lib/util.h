/* SPDX-License-Identifier: GPL-2.0-only */
/* Small freestanding helpers shared by acpi/, pcie/ and efi/. */
#ifndef ASPMCTL_LIB_UTIL_H
#define ASPMCTL_LIB_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))

/* Little-endian loads that make no alignment assumption (ACPI tables). */
static inline uint16_t get_le16(const void *p)
{
	const uint8_t *b = p;

	return (uint16_t)(b[0] | (b[1] << 8));
}

static inline uint32_t get_le32(const void *p)
{
	const uint8_t *b = p;

	return (uint32_t)b[0] | ((uint32_t)b[1] << 8) |
	       ((uint32_t)b[2] << 16) | ((uint32_t)b[3] << 24);
}

static inline uint64_t get_le64(const void *p)
{
	const uint8_t *b = p;

	return (uint64_t)get_le32(b) | ((uint64_t)get_le32(b + 4) << 32);
}

void mem_set(void *dst, int c, size_t n);
void mem_copy(void *dst, const void *src, size_t n);
int mem_cmp(const void *a, const void *b, size_t n);
size_t str_len(const char *s);
int str_cmp(const char *a, const char *b);
const char *str_chr(const char *s, char c);
/* The value of one hex digit (either case), or -1. */
int hex_digit(char c);
int str_ncmp(const char *a, const char *b, size_t n);
/* Copy with truncation; always NUL-terminates when size > 0. */
void str_copy(char *dst, const char *src, size_t size);

#endif
