// SPDX-License-Identifier: GPL-2.0-only
/*
 * The AML tables of a machine, read for the twin (host/aml.h). Only DSDT,
 * SSDT and PSDT are taken; each must carry its signature and a Length
 * that fits the bytes read. Folders are read in name order, numbers
 * compared as numbers (SSDT2 before SSDT10), as the tables were loaded.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "aml.h"
#include "sysfs.h"
#include "../lib/err.h"
#include "../lib/util.h"

#define AML_FILE_MAX	(16u << 20)

static bool aml_sig(const uint8_t *p, size_t len)
{
	return len >= 36 && (!memcmp(p, "DSDT", 4) || !memcmp(p, "SSDT", 4) ||
			     !memcmp(p, "PSDT", 4)) && get_le32(p + 4) >= 36 &&
	       get_le32(p + 4) <= len;
}

static int take(struct host_aml *a, const char *where, uint8_t *p, size_t len)
{
	if (!aml_sig(p, len)) {
		fprintf(stderr, "aspmctl: %s: not a DSDT, SSDT or PSDT (or its Length exceeds its %zu bytes); skipped\n",
			where, len);
		free(p);
		return 0;
	}
	if (a->n >= HOST_AML_MAX) {
		fprintf(stderr, "aspmctl: %s: more than %u AML tables; skipped\n", where, HOST_AML_MAX);
		free(p);
		return 0;
	}
	a->data[a->n] = p;
	a->len[a->n++] = get_le32(p + 4);
	return 0;
}

/* acpidump's text: "DSDT @ 0x..." then lines "  0000: 44 53 44 54 ...". */
static int from_acpidump(struct host_aml *a, const char *path, const char *text, size_t n)
{
	const char *p = text, *end = text + n;
	uint8_t *buf = NULL;
	size_t used = 0, cap = 0;
	char sig[5] = "";
	int rc = 0;

	while (p < end && !rc) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		const char *q = p, *e = eol ? eol : end;
		char where[300];

		while (q < e && (*q == ' ' || *q == '\t'))
			q++;
		if (e - q > 6 && !memcmp(q + 4, " @ ", 3)) {	/* a new table */
			if (buf && used) {
				snprintf(where, sizeof(where), "%s (%s)", path, sig);
				rc = take(a, where, buf, used);
				buf = NULL;
			}
			free(buf);
			buf = NULL;
			used = cap = 0;
			memcpy(sig, q, 4);
		} else if (sig[0] && (q = memchr(q, ':', (size_t)(e - q))) != NULL) {
			for (q++; q + 2 < e + 1 && used < AML_FILE_MAX;) {
				while (q < e && *q == ' ')
					q++;
				if (q + 1 >= e || hex_digit(q[0]) < 0 || hex_digit(q[1]) < 0 ||
				    (q + 2 < e && q[2] != ' '))
					break;	/* the ASCII column */
				if (used == cap) {
					uint8_t *nb = realloc(buf, cap ? cap * 2 : 4096);

					if (!nb) {
						free(buf);
						return -AE_NOMEM;
					}
					buf = nb;
					cap = cap ? cap * 2 : 4096;
				}
				buf[used++] = (uint8_t)(hex_digit(q[0]) << 4 | hex_digit(q[1]));
				q += 2;
			}
		}
		p = e + 1;
	}
	if (!rc && buf && used) {
		char where[300];

		snprintf(where, sizeof(where), "%s (%s)", path, sig);
		return take(a, where, buf, used);
	}
	free(buf);
	return rc;
}

static int from_file(struct host_aml *a, const char *path)
{
	uint8_t *p = NULL;
	size_t len = 0;
	unsigned n;
	int rc = host_read_file(path, AML_FILE_MAX, &p, &len);

	if (rc) {
		fprintf(stderr, "aspmctl: %s: cannot read (%s)\n", path, err_str(rc));
		return rc;
	}
	/* acpidump's text starts "DSDT @ 0x...": a table's signature too */
	if (len >= 4 && (!memcmp(p, "DSDT", 4) || !memcmp(p, "SSDT", 4) || !memcmp(p, "PSDT", 4)) &&
	    !(len >= 7 && !memcmp(p + 4, " @ ", 3)))
		return take(a, path, p, len);
	n = a->n;
	rc = from_acpidump(a, path, (const char *)p, len);
	free(p);
	if (!rc && a->n == n)
		fprintf(stderr, "aspmctl: %s: not a DSDT, SSDT or PSDT, nor acpidump's text of one; skipped\n",
			path);
	return rc;
}

static int by_name(const void *x, const void *y)
{
	return strverscmp(*(char *const *)x, *(char *const *)y);
}

static bool aml_name(const char *n)
{
	return !strncasecmp(n, "DSDT", 4) || !strncasecmp(n, "SSDT", 4) ||
	       !strncasecmp(n, "PSDT", 4);
}

static int from_dir(struct host_aml *a, const char *dir)
{
	char *names[256], path[4096];
	unsigned n = 0, i;
	struct dirent *d;
	DIR *D = opendir(dir);
	int rc = 0;

	if (!D)
		return -AE_NOENT;
	while ((d = readdir(D)) != NULL && n < 256)
		if (aml_name(d->d_name) && (names[n] = strdup(d->d_name)) != NULL)
			n++;
	closedir(D);
	qsort(names, n, sizeof(names[0]), by_name);
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		if (!rc)
			rc = from_file(a, path);
		free(names[i]);
	}
	return rc;
}

int host_aml_load(const char *path, bool must, struct host_aml *out)
{
	struct stat st;
	int rc;

	memset(out, 0, sizeof(*out));
	if (stat(path, &st)) {
		if (!must)
			return 0;
		fprintf(stderr, "aspmctl: %s: no such file or folder\n", path);
		return -AE_NOENT;
	}
	rc = S_ISDIR(st.st_mode) ? from_dir(out, path) : from_file(out, path);
	if (!rc && must && !out->n) {
		fprintf(stderr, "aspmctl: %s: no DSDT, SSDT or PSDT in it\n", path);
		rc = -AE_NOENT;
	}
	return rc;
}

void host_aml_free(struct host_aml *a)
{
	for (unsigned i = 0; i < a->n; i++)
		free(a->data[i]);
	a->n = 0;
}
