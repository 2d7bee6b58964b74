// SPDX-License-Identifier: GPL-2.0-only
/*
 * The configuration file \EFI\aspmctl\aspmctl.conf (app/conf.h): its
 * bytes decoded to text, its "key = value" lines turned into options,
 * and what a malformed file still gives to boot with.
 */
#include "conf.h"
#include "../lib/err.h"
#include "../lib/util.h"

static char *trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + str_len(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		*--e = '\0';
	return s;
}

size_t cli_conf_decode(char *buf, size_t len)
{
	const unsigned char *u = (const unsigned char *)buf;
	size_t n = 0;
	int hi;

	if (len >= 3 && u[0] == 0xef && u[1] == 0xbb && u[2] == 0xbf) {
		/* UTF-8 byte order mark */
		for (size_t i = 3; i < len; i++)
			buf[i - 3] = buf[i];
		buf[len - 3] = '\0';
		return len - 3;
	}
	if (len >= 2 && u[0] == 0xff && u[1] == 0xfe)
		hi = 1;		/* UTF-16LE: FF FE, then low byte first */
	else if (len >= 2 && u[0] == 0xfe && u[1] == 0xff)
		hi = 0;		/* UTF-16BE */
	else
		return len;
	/* one byte out for two in, so in place; a lone last byte is dropped */
	for (size_t i = 2; i + 1 < len; i += 2) {
		unsigned ch = (unsigned)u[i + !hi] | (unsigned)u[i + hi] << 8;

		if (!ch)
			break;
		/* non-ASCII (and each half of a surrogate pair) becomes one
		 * byte >= 0x80 that cli_conf_split refuses outside comments */
		buf[n++] = ch < 0x80 ? (char)ch : (char)0x80;
	}
	buf[n] = '\0';
	return n;
}

static int conf_error(char *err, size_t errsize, unsigned lineno, const char *what,
		      const char *arg)
{
	char m[96];

	fmt_snprintf(m, sizeof(m), what, arg ? arg : "");
	fmt_snprintf(err, errsize, "line %u: %s", lineno, m);
	return -AE_INVAL;
}

/* Keys whose value is yes/no: the options that take no value. */
static const struct {
	const char *key, *option;
} conf_flags[] = {
	{ "verbose", "--verbose" }, { "apply", "--apply" },
};

static int conf_bool(const char *v)
{
	static const char *const yes[] = { "yes", "true", "1" };
	static const char *const no[] = { "no", "false", "0" };

	for (unsigned i = 0; i < ARRAY_SIZE(yes); i++) {
		if (!str_cmp(v, yes[i]))
			return 1;
		if (!str_cmp(v, no[i]))
			return 0;
	}
	return -1;
}

/*
 * One "key = value" line, comments already known not to start it. Sets
 * *key and *val (pointing into line) or returns -AE_INVAL with err set.
 * A value wholly in "..." or '...' loses the quotes and keeps every
 * character between them; elsewhere a '#' after a blank starts a comment,
 * except inside "double quotes" (kernel-style param="a b").
 */
static int conf_line(char *line, unsigned lineno, char **key, char **val,
		     char *err, size_t errsize)
{
	char *eq = line, *v, *p;
	bool dq = false;

	while (*eq && *eq != '=')
		eq++;
	if (!*eq)
		return conf_error(err, errsize, lineno, "expected 'key = value'%s", NULL);
	*eq = '\0';
	*key = trim(line);
	for (p = *key; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '-' || *p == '_'))
			break;
	if (!**key || *p || str_len(*key) > 30)
		return conf_error(err, errsize, lineno, "expected 'key = value'%s", NULL);
	v = eq + 1;
	while (*v == ' ' || *v == '\t')
		v++;
	if (*v == '"' || *v == '\'') {
		char q = *v++;

		for (p = v; *p && *p != q; p++)
			;
		if (!*p)
			return conf_error(err, errsize, lineno, "%s: missing closing quote", *key);
		*p++ = '\0';
		while (*p == ' ' || *p == '\t' || *p == '\r')
			p++;
		if (*p && *p != '#')
			return conf_error(err, errsize, lineno, "%s: text after the closing quote", *key);
		*val = v;
	} else {
		for (p = v; *p; p++) {
			if (*p == '"')
				dq = !dq;
			else if (*p == '#' && !dq && (p[-1] == ' ' || p[-1] == '\t'))
				break;
		}
		if (dq)
			return conf_error(err, errsize, lineno, "%s: missing closing quote", *key);
		*p = '\0';
		*val = trim(v);
		if (!**val)
			return conf_error(err, errsize, lineno, "expected 'key = value'%s", NULL);
	}
	for (p = *val; *p; p++)
		if ((unsigned char)*p >= 0x80)
			return conf_error(err, errsize, lineno,
					  "%s: non-ASCII character (values must be ASCII)", *key);
	return 0;
}

int cli_conf_split(char *text, char **argv, int max, const char **cmd,
		   char *err, size_t errsize)
{
	static char keys[CLI_MAX_ARGS][40];
	signed char flag[ARRAY_SIZE(conf_flags)];
	unsigned lineno = 0, nkeys = 0;
	char *line = text;
	int argc = 0;

	*cmd = NULL;
	mem_set(flag, -1, sizeof(flag));
	if ((unsigned char)line[0] == 0xef && (unsigned char)line[1] == 0xbb &&
	    (unsigned char)line[2] == 0xbf)
		line += 3;	/* UTF-8 byte order mark */
	while (line && *line) {
		char *nl = line, *key, *val, *s;
		unsigned k;
		int rc;

		while (*nl && *nl != '\n')
			nl++;
		if (*nl)
			*nl++ = '\0';
		else
			nl = NULL;
		lineno++;
		s = trim(line);
		line = nl;
		if (!*s || *s == '#')
			continue;
		rc = conf_line(s, lineno, &key, &val, err, errsize);
		if (rc)
			return rc;
		for (k = 0; k < ARRAY_SIZE(conf_flags); k++)
			if (!str_cmp(key, conf_flags[k].key))
				break;
		if (k < ARRAY_SIZE(conf_flags)) {
			flag[k] = (signed char)conf_bool(val);
			if (flag[k] < 0)
				return conf_error(err, errsize, lineno,
						  "%s: expected yes, no, true, false, 1 or 0", key);
		} else if (!str_cmp(key, "command")) {
			*cmd = val;
		} else {
			if (argc + 2 > max || nkeys >= CLI_MAX_ARGS) {
				fmt_snprintf(err, errsize, "line %u: too many settings", lineno);
				return -AE_2BIG;
			}
			fmt_snprintf(keys[nkeys], sizeof(keys[nkeys]), "--%s", key);
			argv[argc++] = keys[nkeys++];
			argv[argc++] = val;
		}
	}
	/* flags last: "verbose = no" after "verbose = yes" wins */
	for (unsigned k = 0; k < ARRAY_SIZE(conf_flags); k++) {
		if (flag[k] != 1)
			continue;
		if (argc + 1 > max) {
			fmt_snprintf(err, errsize, "line %u: too many settings", lineno);
			return -AE_2BIG;
		}
		argv[argc++] = (char *)conf_flags[k].option;
	}
	return argc;
}

int cli_conf_salvage(char *text, char **argv, int max, const char **cmd)
{
	static const char *const keep[] = { "--next", "--next-options", "--results" };
	char *line = text, *kv[2], err[8];
	int n = 0;

	*cmd = NULL;
	while (line) {
		char *nl = line;
		const char *c = NULL;

		while (*nl && *nl != '\n')
			nl++;
		if (*nl)
			*nl++ = '\0';
		else
			nl = NULL;
		if (cli_conf_split(line, kv, 2, &c, err, sizeof(err)) == 2) {
			for (unsigned k = 0; k < ARRAY_SIZE(keep); k++)
				if (!str_cmp(kv[0], keep[k]) && n + 2 <= max) {
					argv[n++] = (char *)keep[k];
					argv[n++] = kv[1];
				}
		} else if (c) {
			*cmd = c;
		}
		line = nl;
	}
	return n;
}
