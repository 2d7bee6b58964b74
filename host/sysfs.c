// SPDX-License-Identifier: GPL-2.0-only
/* The running machine through sysfs, read-only (see sysfs.h). */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sysfs.h"
#include "../lib/err.h"

#define SYSFS_MAX_FN	4096

int host_read_file(const char *path, size_t max, uint8_t **data, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf;
	size_t n;

	if (!f)
		return errno == ENOENT ? -AE_NOENT : -AE_IO;
	buf = malloc(max + 1);
	if (!buf) {
		fclose(f);
		return -AE_NOMEM;
	}
	n = fread(buf, 1, max + 1, f);
	if (ferror(f) || n > max) {
		fclose(f);
		free(buf);
		return n > max ? -AE_2BIG : -AE_IO;
	}
	fclose(f);
	*data = buf;
	*len = n;
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The function directories' names, sorted (lspci's order). */
static int list_functions(const char *dir, char ***names, unsigned *n)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **v;

	if (!d) {
		fprintf(stderr, "aspmctl: %s: %s\n", dir, strerror(errno));
		return -AE_NOENT;
	}
	v = calloc(SYSFS_MAX_FN, sizeof(*v));
	*n = 0;
	while (v && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		if (*n == SYSFS_MAX_FN) {
			fprintf(stderr, "aspmctl: %s: more than %u functions\n", dir, SYSFS_MAX_FN);
			break;
		}
		v[(*n)++] = strdup(e->d_name);
	}
	closedir(d);
	if (!v)
		return -AE_NOMEM;
	qsort(v, *n, sizeof(*v), by_name);
	*names = v;
	return 0;
}

/* One function as lspci prints it: its header, then 16 bytes a line. The
 * bytes Linux gave (64 without root, 256 or 4096) round down to whole
 * lines; fewer than 64 is an error. */
static int append_fn(FILE *out, const char *dir, const char *name)
{
	char path[4096];
	uint8_t *cfg;
	size_t len;
	int rc, n;

	n = snprintf(path, sizeof(path), "%s/%s/config", dir, name);
	if (n < 0 || (size_t)n >= sizeof(path)) {
		fprintf(stderr, "aspmctl: %s/%s: path too long\n", dir, name);
		return -AE_2BIG;
	}
	rc = host_read_file(path, 4096, &cfg, &len);
	if (rc) {
		fprintf(stderr, "aspmctl: %s: cannot read (%s)\n", path, err_str(rc));
		return rc;
	}
	len = len >= 4096 ? 4096 : len >= 256 ? 256 : len >= 64 ? 64 : 0;
	if (!len) {
		fprintf(stderr, "aspmctl: %s: fewer than 64 bytes\n", path);
		free(cfg);
		return -AE_IO;
	}
	fprintf(out, "%s sysfs config (%zu bytes)\n", name, len);
	for (size_t off = 0; off < len; off += 16) {
		fprintf(out, "%02zx:", off);
		for (size_t k = 0; k < 16; k++)
			fprintf(out, " %02x", cfg[off + k]);
		fputc('\n', out);
	}
	fputc('\n', out);
	free(cfg);
	return 0;
}

int sysfs_dump_text(const char *root, char **text, size_t *len)
{
	char dir[4096];
	char **names = NULL;
	unsigned n = 0;
	FILE *out;
	int rc;

	snprintf(dir, sizeof(dir), "%s/sys/bus/pci/devices", root);
	rc = list_functions(dir, &names, &n);
	if (rc)
		return rc;
	out = open_memstream(text, len);
	if (!out)
		rc = -AE_NOMEM;
	for (unsigned i = 0; i < n; i++) {
		if (!rc)
			rc = append_fn(out, dir, names[i]);
		free(names[i]);
	}
	free(names);
	if (out && fclose(out))
		rc = rc ? rc : -AE_NOMEM;
	if (!rc && !n) {
		fprintf(stderr, "aspmctl: %s: no PCI function\n", dir);
		rc = -AE_NOENT;
	}
	return rc;
}
