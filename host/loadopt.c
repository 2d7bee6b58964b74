// SPDX-License-Identifier: GPL-2.0-only
/* EFI_LOAD_OPTION parsing and building (loadopt.h). */
#include <string.h>
#include "loadopt.h"
#include "../lib/err.h"
#include "../lib/util.h"

/* UCS-2 from p (n bytes at most) up to its NUL as ASCII into out;
 * returns the bytes used including the NUL, or 0 without a NUL. */
static size_t ucs2_ascii(const uint8_t *p, size_t n, char *out, size_t size)
{
	size_t k = 0;

	for (size_t i = 0; i + 1 < n; i += 2) {
		uint16_t c = get_le16(p + i);

		if (!c) {
			out[k < size ? k : size - 1] = '\0';
			return i + 2;
		}
		if (k + 1 < size)
			out[k++] = c < 0x80 ? (char)c : '?';
	}
	return 0;
}

static void walk_path(const uint8_t *p, size_t n, struct loadopt *o)
{
	for (size_t i = 0; i + 4 <= n;) {
		uint16_t len = get_le16(p + i + 2);

		if (len < 4 || len > n - i || p[i] == DP_END)
			return;
		if (p[i] == DP_MEDIA && p[i + 1] == DP_MEDIA_HD && !o->hd) {
			o->hd = p + i;
			o->hd_len = len;
		}
		if (p[i] == DP_MEDIA && p[i + 1] == DP_MEDIA_FILEPATH && !o->path[0])
			ucs2_ascii(p + i + 4, len - 4u, o->path, sizeof(o->path));
		i += len;
	}
}

int loadopt_parse(const uint8_t *d, size_t n, struct loadopt *o)
{
	size_t dl, fl;

	memset(o, 0, sizeof(*o));
	if (n < 6)
		return -AE_MSGSIZE;
	o->attrs = get_le32(d);
	fl = get_le16(d + 4);
	dl = ucs2_ascii(d + 6, n - 6, o->desc, sizeof(o->desc));
	if (!dl || fl > n - 6 - dl)
		return -AE_INVAL;
	walk_path(d + 6 + dl, fl, o);
	o->opt = d + 6 + dl + fl;
	o->opt_len = n - 6 - dl - fl;
	return 0;
}

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

size_t loadopt_build(uint8_t *buf, size_t size, uint32_t attrs, const char *desc,
		     const uint8_t *hd, size_t hd_len, const char *path)
{
	size_t dl = 2 * (strlen(desc) + 1), pl = 2 * (strlen(path) + 1);
	size_t fl = hd_len + 4 + pl + 4, n = 6 + dl + fl, k = 0;

	if (n > size || fl > 0xffff || 4 + pl > 0xffff)
		return 0;
	memset(buf, 0, n);
	buf[k++] = (uint8_t)attrs;
	buf[k++] = (uint8_t)(attrs >> 8);
	buf[k++] = (uint8_t)(attrs >> 16);
	buf[k++] = (uint8_t)(attrs >> 24);
	put16(buf + k, (uint16_t)fl);
	k += 2;
	for (const char *c = desc; *c; c++, k += 2)
		put16(buf + k, (uint8_t)*c);
	k += 2;
	memcpy(buf + k, hd, hd_len);
	k += hd_len;
	buf[k] = DP_MEDIA;
	buf[k + 1] = DP_MEDIA_FILEPATH;
	put16(buf + k + 2, (uint16_t)(4 + pl));
	k += 4;
	for (const char *c = path; *c; c++, k += 2)
		put16(buf + k, (uint8_t)(*c == '/' ? '\\' : *c));
	k += 2;
	buf[k] = DP_END;
	buf[k + 1] = DP_END_ENTIRE;
	put16(buf + k + 2, 4);
	return n;
}
