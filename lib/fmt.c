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

/* One conversion specification: %[-0][width][.prec][l|ll|z|h]conv. */
struct fmt_spec {
	bool left, zero;
	int width, prec, lng;
};

static int parse_int(const char **f, va_list *ap)
{
	int v = 0;

	if (**f == '*') {
		(*f)++;
		return va_arg(*ap, int);
	}
	while (**f >= '0' && **f <= '9')
		v = v * 10 + (*(*f)++ - '0');
	return v;
}

/* Parse the flags, width, precision and length of the specification at
 * *f (just after '%'); leaves *f at the conversion character. */
static void parse_spec(const char **f, va_list *ap, struct fmt_spec *sp)
{
	*sp = (struct fmt_spec){ .prec = -1 };
	for (;; (*f)++) {
		if (**f == '-')
			sp->left = true;
		else if (**f == '0')
			sp->zero = true;
		else
			break;
	}
	sp->width = parse_int(f, ap);
	if (**f == '.') {
		(*f)++;
		sp->prec = parse_int(f, ap);
	}
	for (;; (*f)++) {
		if (**f == 'l')
			sp->lng++;
		else if (**f == 'z')
			sp->lng = 3;
		else if (**f == 'h')
			sp->lng = sp->lng > 0 ? sp->lng : -1;
		else
			break;
	}
}

static void put_signed(struct fmt_dst *d, const struct fmt_spec *sp, va_list *ap)
{
	long long s;
	unsigned long long u;

	if (sp->lng >= 2)
		s = va_arg(*ap, long long);
	else if (sp->lng == 1 || sp->lng == 3)
		s = va_arg(*ap, long);
	else
		s = va_arg(*ap, int);
	u = s < 0 ? (unsigned long long)(-(s + 1)) + 1 : (unsigned long long)s;
	put_num(d, u, s < 0, 10, false, sp->width, sp->zero, sp->left);
}

static void put_unsigned(struct fmt_dst *d, const struct fmt_spec *sp, char conv,
			 va_list *ap)
{
	unsigned long long u;

	if (sp->lng >= 2)
		u = va_arg(*ap, unsigned long long);
	else if (sp->lng == 1 || sp->lng == 3)
		u = va_arg(*ap, unsigned long);
	else
		u = va_arg(*ap, unsigned int);
	put_num(d, u, false, conv == 'u' ? 10 : 16, conv == 'X', sp->width,
		sp->zero, sp->left);
}

static void put_str(struct fmt_dst *d, const struct fmt_spec *sp, const char *str)
{
	int len = 0;

	if (!str)
		str = "(null)";
	while (str[len] && (sp->prec < 0 || len < sp->prec))
		len++;
	if (!sp->left)
		put_pad(d, ' ', sp->width - len);
	for (int i = 0; i < len; i++)
		put_char(d, str[i]);
	if (sp->left)
		put_pad(d, ' ', sp->width - len);
}

/* Convert one specification whose conversion character is conv. */
static void put_conv(struct fmt_dst *d, const struct fmt_spec *sp, char conv,
		     va_list *ap)
{
	switch (conv) {
	case 'd':
	case 'i':
		put_signed(d, sp, ap);
		break;
	case 'u':
	case 'x':
	case 'X':
		put_unsigned(d, sp, conv, ap);
		break;
	case 'p':
		put_char(d, '0');
		put_char(d, 'x');
		put_num(d, (uintptr_t)va_arg(*ap, void *), false, 16, false, 0, false,
			false);
		break;
	case 'c':
		put_char(d, (char)va_arg(*ap, int));
		break;
	case 's':
		put_str(d, sp, va_arg(*ap, const char *));
		break;
	case '%':
		put_char(d, '%');
		break;
	default:
		put_char(d, '%');
		put_char(d, conv);
		break;
	}
}

static void fmt_core(struct fmt_dst *d, const char *f, va_list ap)
{
	va_list aq;

	va_copy(aq, ap);
	for (; *f; f++) {
		struct fmt_spec sp;

		if (*f != '%') {
			put_char(d, *f);
			continue;
		}
		f++;
		parse_spec(&f, &aq, &sp);
		if (!*f)
			break;
		put_conv(d, &sp, *f, &aq);
	}
	va_end(aq);
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
