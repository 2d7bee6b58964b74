// SPDX-License-Identifier: GPL-2.0-only
/* The app's EFI variables through efivarfs (variables.h). */
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include "variables.h"
#include "sysfs.h"
#include "../lib/err.h"
#include "../lib/util.h"

#define VAR_MAX	4096

static void var_path(char *buf, size_t size, const char *dir, const char *name)
{
	snprintf(buf, size, "%s/%s-%s", dir, name, ASPMCTL_GUID_STR);
}

/* efivarfs marks variable files immutable (Linux's efivarfs
 * documentation): clear the flag before unlinking. A directory that is
 * not efivarfs (a test's) has no such flag: nothing to clear. */
static int clear_immutable(const char *path)
{
	int fd = open(path, O_RDONLY), flags, rc = 0;

	if (fd < 0)
		return errno == ENOENT ? -AE_NOENT : -AE_IO;
	if (!ioctl(fd, FS_IOC_GETFLAGS, &flags) && (flags & FS_IMMUTABLE_FL)) {
		flags &= ~FS_IMMUTABLE_FL;
		if (ioctl(fd, FS_IOC_SETFLAGS, &flags))
			rc = -AE_IO;
	}
	close(fd);
	return rc;
}

int var_read(const char *dir, const char *name, const char *guid,
	     uint32_t *attrs, uint8_t **data, size_t *len)
{
	char path[4096];
	uint8_t *d = NULL;
	size_t n = 0;
	int rc;

	snprintf(path, sizeof(path), "%s/%s-%s", dir, name, guid);
	rc = host_read_file(path, VAR_MAX, &d, &n);
	if (!rc && n < 4)
		rc = -AE_INVAL;
	if (rc) {
		free(d);
		return rc;
	}
	*attrs = get_le32(d);
	memmove(d, d + 4, n - 4);
	*data = d;
	*len = n - 4;
	return 0;
}

int var_write(const char *dir, const char *name, const char *guid,
	      uint32_t attrs, const void *data, size_t len)
{
	uint8_t buf[4 + VAR_MAX];
	char path[4096];
	ssize_t w;
	int fd;

	if (len > VAR_MAX)
		return -AE_2BIG;
	/* as libefivar does: an existing variable is deleted, then created
	 * again in one write(2), the attributes first */
	if (var_delete(dir, name, guid) == -AE_IO)
		return -AE_IO;
	snprintf(path, sizeof(path), "%s/%s-%s", dir, name, guid);
	buf[0] = (uint8_t)attrs;
	buf[1] = (uint8_t)(attrs >> 8);
	buf[2] = (uint8_t)(attrs >> 16);
	buf[3] = (uint8_t)(attrs >> 24);
	memcpy(buf + 4, data, len);
	fd = open(path, O_WRONLY | O_CREAT, 0644);
	if (fd < 0)
		return -AE_IO;
	w = write(fd, buf, 4 + len);
	return close(fd) || w != (ssize_t)(4 + len) ? -AE_IO : 0;
}

int var_delete(const char *dir, const char *name, const char *guid)
{
	char path[4096];
	int rc;

	snprintf(path, sizeof(path), "%s/%s-%s", dir, name, guid);
	rc = clear_immutable(path);
	if (rc)
		return rc;
	return unlink(path) ? (errno == ENOENT ? -AE_NOENT : -AE_IO) : 0;
}

/* The counter's value: 0, -AE_NOENT (no variable), -AE_INVAL (not 4
 * bytes of data) or -AE_IO. */
static int read_counter(const char *dir, uint32_t *count)
{
	char path[4096];
	uint8_t *d = NULL;
	size_t len = 0;
	int rc;

	var_path(path, sizeof(path), dir, "AspmctlBootCount");
	rc = host_read_file(path, VAR_MAX, &d, &len);
	if (!rc && len != 8)
		rc = -AE_INVAL;
	if (!rc)
		*count = get_le32(d + 4);
	free(d);
	return rc;
}

int efivars_bless(const char *dir)
{
	char path[4096];
	uint32_t count = 0;
	int rc = read_counter(dir, &count);

	if (rc == -AE_NOENT) {
		printf("aspmctl: this boot is already confirmed (no AspmctlBootCount in %s)\n", dir);
		return 0;
	}
	var_path(path, sizeof(path), dir, "AspmctlBootCount");
	if (clear_immutable(path) || unlink(path)) {
		fprintf(stderr, "aspmctl: %s: cannot delete: %s (bless needs root)\n",
			path, strerror(errno));
		return -AE_IO;
	}
	if (rc)
		printf("aspmctl: boot confirmed: a malformed AspmctlBootCount was deleted\n");
	else
		printf("aspmctl: boot confirmed: AspmctlBootCount (%u unconfirmed boot(s)) deleted\n",
		       count);
	return 0;
}

int efivars_status(const char *dir)
{
	char path[4096];
	uint8_t *d = NULL;
	size_t len = 0;
	uint32_t count = 0;
	int rc;

	if (access(dir, R_OK | X_OK)) {
		fprintf(stderr, "aspmctl: %s: %s (not booted with UEFI, or efivarfs not mounted)\n",
			dir, strerror(errno));
		return -AE_NOENT;
	}
	var_path(path, sizeof(path), dir, "AspmctlSummary");
	rc = host_read_file(path, VAR_MAX, &d, &len);
	if (!rc && len > 4)
		printf("summary: %.*s\n", (int)(len - 4), (const char *)d + 4);
	else
		printf("summary: none (aspmctl.efi did not run this boot)\n");
	free(d);
	rc = read_counter(dir, &count);
	if (!rc)
		printf("boot counter: %u unconfirmed boot(s) ('aspmctl bless' confirms this one)\n",
		       count);
	else if (rc == -AE_NOENT)
		printf("boot counter: none (every boot so far confirmed, or not counted)\n");
	else
		printf("boot counter: unreadable or malformed (%s): the app applies nothing until 'aspmctl bless'\n",
		       err_str(rc));
	return 0;
}
