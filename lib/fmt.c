// SPDX-License-Identifier: GPL-2.0-only
#include <stdint.h>
#include "fmt.h"
#include "util.h"

struct fmt_dst {
	char *buf;
	size_t size;
	size_t pos;
	const struct out *o;
	char tmp[128];
	size_t tlen;
};

static void put_char(struct fmt_dst *d, char c)
{
	if (d->o) {
		d->tmp[d->tlen++] = c;
		if (d->tlen == sizeof(d->tmp)) {
			d->o->write(d->o->ctx, d->tmp, d->tlen);
			d->tlen = 0;
		}
	} else if (d->pos + 1 < d->size) {
		d->buf[d->pos] = c;
	}
	d->pos++;
}

static void put_pad(struct fmt_dst *d, char c, int n)
{
	while (n-- > 0)
		put_char(d, c);
}

static void put_num(struct fmt_dst *d, unsigned long long v, bool neg,
		    unsigned base, bool upper, int width, bool zero, bool left)
{
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char tmp[24];
	int n = 0, len;

	do {
		tmp[n++] = digits[v % base];
		v /= base;
	} while (v);
	len = n + (neg ? 1 : 0);
	if (!left && !zero)
		put_pad(d, ' ', width - len);
	if (neg)
		put_char(d, '-');
	if (!left && zero)
		put_pad(d, '0', width - len);
	while (n)
		put_char(d, tmp[--n]);
	if (left)
		put_pad(d, ' ', width - len);
}

static void fmt_core(struct fmt_dst *d, const char *f, va_list ap)
{
	for (; *f; f++) {
		bool left = false, zero = false, upper = false;
		int width = 0, prec = -1, lng = 0;
		unsigned long long u;
		long long s;

		if (*f != '%') {
			put_char(d, *f);
			continue;
		}
		f++;
		for (;; f++) {
			if (*f == '-')
				left = true;
			else if (*f == '0')
				zero = true;
			else
				break;
		}
		if (*f == '*') {
			width = va_arg(ap, int);
			f++;
		} else {
			while (*f >= '0' && *f <= '9')
				width = width * 10 + (*f++ - '0');
		}
		if (*f == '.') {
			f++;
			prec = 0;
			if (*f == '*') {
				prec = va_arg(ap, int);
				f++;
			} else {
				while (*f >= '0' && *f <= '9')
					prec = prec * 10 + (*f++ - '0');
			}
		}
		for (;; f++) {
			if (*f == 'l')
				lng++;
			else if (*f == 'z')
				lng = 3;
			else if (*f == 'h')
				lng = lng > 0 ? lng : -1;
			else
				break;
		}
		switch (*f) {
		case 'd':
		case 'i':
			if (lng >= 2)
				s = va_arg(ap, long long);
			else if (lng == 1 || lng == 3)
				s = va_arg(ap, long);
			else
				s = va_arg(ap, int);
			u = s < 0 ? (unsigned long long)(-(s + 1)) + 1 : (unsigned long long)s;
			put_num(d, u, s < 0, 10, false, width, zero, left);
			break;
		case 'u':
		case 'x':
		case 'X':
			if (lng >= 2)
				u = va_arg(ap, unsigned long long);
			else if (lng == 1 || lng == 3)
				u = va_arg(ap, unsigned long);
			else
				u = va_arg(ap, unsigned int);
			upper = *f == 'X';
			put_num(d, u, false, *f == 'u' ? 10 : 16, upper, width,
				zero, left);
			break;
		case 'p':
			u = (uintptr_t)va_arg(ap, void *);
			put_char(d, '0');
			put_char(d, 'x');
			put_num(d, u, false, 16, false, 0, false, false);
			break;
		case 'c':
			put_char(d, (char)va_arg(ap, int));
			break;
		case 's': {
			const char *str = va_arg(ap, const char *);
			int len = 0;

			if (!str)
				str = "(null)";
			while (str[len] && (prec < 0 || len < prec))
				len++;
			if (!left)
				put_pad(d, ' ', width - len);
			for (int i = 0; i < len; i++)
				put_char(d, str[i]);
			if (left)
				put_pad(d, ' ', width - len);
			break;
		}
		case '%':
			put_char(d, '%');
			break;
		case '\0':
			return;
		default:
			put_char(d, '%');
			put_char(d, *f);
			break;
		}
	}
}

int fmt_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct fmt_dst d = { .buf = buf, .size = size };

	fmt_core(&d, fmt, ap);
	if (size)
		buf[d.pos < size ? d.pos : size - 1] = '\0';
	return (int)d.pos;
}

int fmt_snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = fmt_vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

void out_vprintf(const struct out *o, const char *fmt, va_list ap)
{
	struct fmt_dst d = { .o = o };

	if (!o || !o->write)
		return;
	fmt_core(&d, fmt, ap);
	if (d.tlen)
		o->write(o->ctx, d.tmp, d.tlen);
}

void out_printf(const struct out *o, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	out_vprintf(o, fmt, ap);
	va_end(ap);
}

void out_puts(const struct out *o, const char *s)
{
	if (o && o->write)
		o->write(o->ctx, s, str_len(s));
}

static void out_buf_write(void *ctx, const char *s, size_t n)
{
	struct out_buf *b = ctx;
	size_t room = b->size ? b->size - 1 - b->len : 0;
	size_t take = n < room ? n : room;

	mem_copy(b->buf + b->len, s, take);
	b->len += take;
	b->lost += n - take;
	if (b->size)
		b->buf[b->len] = '\0';
}

void out_buf_init(struct out *o, struct out_buf *b, char *buf, size_t size)
{
	b->buf = buf;
	b->size = size;
	b->len = 0;
	b->lost = 0;
	if (size)
		buf[0] = '\0';
	o->write = out_buf_write;
	o->ctx = b;
}

static void out_null_write(void *ctx, const char *s, size_t n)
{
	(void)ctx;
	(void)s;
	(void)n;
}

const struct out out_null = { .write = out_null_write };
