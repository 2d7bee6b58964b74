// SPDX-License-Identifier: GPL-2.0-only
/* aspmctl install / uninstall (install.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>
#include "install.h"
#include "loadopt.h"
#include "sysfs.h"
#include "variables.h"
#include "../lib/err.h"
#include "../lib/util.h"

#define APP_DIR		"EFI/aspmctl"
#define APP_PATH	"\\EFI\\aspmctl\\aspmctl.efi"
#define DESC		"aspmctl"
#define APP_MAX		(8u << 20)
#define MAX_ORDER	256

static int refuse(const char *why, const char *arg)
{
	fprintf(stderr, "aspmctl: %s%s; nothing was changed\n", why, arg ? arg : "");
	return -AE_NOTSUP;
}

/* A PE32+ image with an Authenticode signature (a non-empty Certificate
 * Table, data directory 4; PE/COFF spec "Optional Header Data Directories"). */
static bool pe_signed(const uint8_t *d, size_t n)
{
	size_t pe, opt;

	if (n < 0x40 || d[0] != 'M' || d[1] != 'Z')
		return false;
	pe = get_le32(d + 0x3c);
	opt = pe + 24;
	if (pe > n || n - pe < 24 + 152 || memcmp(d + pe, "PE\0\0", 4) ||
	    get_le16(d + opt) != 0x20b)
		return false;
	return get_le32(d + opt + 144) && get_le32(d + opt + 148);
}

/* OptionalData of a boot entry as a UCS-2 path (shim's second stage, as
 * efibootmgr -u writes it); "" when it holds none. */
static void opt_path(const struct loadopt *lo, char *buf, size_t size)
{
	size_t k = 0;

	for (size_t i = 0; i + 1 < lo->opt_len && k + 1 < size; i += 2) {
		uint16_t c = get_le16(lo->opt + i);

		if (!c)
			break;
		if (c > 0x7e || c < 0x20) {
			k = 0;
			break;
		}
		buf[k++] = (char)c;
	}
	buf[k] = '\0';
	if (buf[0] != '\\')
		buf[0] = '\0';
}

/* shimx64.efi, shim.efi, ... (the file name, any case) */
static bool is_shim(const char *path)
{
	const char *b = strrchr(path, '\\');

	return !strncasecmp(b ? b + 1 : path, "shim", 4);
}

static void step(const struct install_opts *o, const char *fmt, const char *a,
		 const char *b)
{
	printf("%s", o->dry_run ? "would: " : "");
	printf(fmt, a ? a : "", b ? b : "");
	printf("\n");
}

int install_parse(int argc, char **argv, struct install_opts *o)
{
	static char app[4096];
	ssize_t n;

	memset(o, 0, sizeof(*o));
	o->efivars = EFIVARS_DIR;
	o->mounts = "/proc/self/mounts";
	o->app = "/usr/lib/aspmctl/aspmctl.efi";
	o->root = "";
	/* build/host/aspmctl next to build/aspmctl.efi, when not installed */
	n = readlink("/proc/self/exe", app, sizeof(app) - 32);
	if (n > 0 && access(o->app, R_OK)) {
		char *s;

		app[n] = '\0';
		s = strrchr(app, '/');
		if (s) {
			strcpy(s, "/../aspmctl.efi");
			o->app = app;
		}
	}
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		const char **to = !strcmp(a, "--esp") ? &o->esp :
				  !strcmp(a, "--efivars") ? &o->efivars :
				  !strcmp(a, "--mounts") ? &o->mounts :
				  !strcmp(a, "--app") ? &o->app :
				  !strcmp(a, "--policy") ? &o->policy :
				  !strcmp(a, "--root") ? &o->root : NULL;

		if (!strcmp(a, "--dry-run")) {
			o->dry_run = true;
		} else if (to && v) {
			*to = v;
			i++;
		} else {
			fprintf(stderr, "aspmctl: %s: %s (see --help)\n", a,
				to ? "missing value" : "unknown option");
			return 2;
		}
	}
	return 0;
}

/* The ESP: --esp, else the vfat mounted at /boot/efi, /efi or /boot. */
int install_find_esp(const struct install_opts *o, char *esp, size_t size,
		     bool writable)
{
	static const char *const where[] = { "/boot/efi", "/efi", "/boot" };
	char dev[256], dir[1024], type[64], opts[1024];
	bool ro = false;
	FILE *f;

	if (o->esp) {
		snprintf(esp, size, "%s", o->esp);
	} else {
		esp[0] = '\0';
		f = fopen(o->mounts, "r");
		if (!f)
			return writable ? refuse("cannot read the mount table ", o->mounts) : -AE_NOENT;
		for (unsigned w = 0; w < ARRAY_SIZE(where) && !esp[0]; w++) {
			rewind(f);
			while (fscanf(f, "%255s %1023s %63s %1023s %*d %*d", dev, dir, type, opts) == 4)
				if (!strcmp(dir, where[w]) && !strcmp(type, "vfat")) {
					snprintf(esp, size, "%s", dir);
					ro = !strncmp(opts, "ro", 2) && (opts[2] == ',' || !opts[2]);
					break;
				}
		}
		fclose(f);
		if (!esp[0] && !writable)
			return -AE_NOENT;
		if (!esp[0])
			return refuse("no EFI System Partition mounted (a vfat file system at /boot/efi, /efi or /boot); give --esp DIR", NULL);
	}
	if (writable && (ro || access(esp, W_OK)))
		return refuse("the EFI System Partition is read-only or not writable: ", esp);
	return 0;
}

/* The loader this boot came through: BootCurrent's Boot#### option. */
static int current_loader(const struct install_opts *o, struct loadopt *lo,
			  uint8_t **raw, unsigned *num)
{
	uint8_t *d = NULL;
	uint32_t attrs;
	size_t n;
	char name[16];
	int rc = var_read(o->efivars, "BootCurrent", EFI_GLOBAL_GUID_STR, &attrs, &d, &n);

	if (rc || n != 2) {
		free(d);
		return refuse("no BootCurrent variable (the firmware did not say which entry booted)", NULL);
	}
	*num = get_le16(d);
	free(d);
	snprintf(name, sizeof(name), "Boot%04X", *num);
	rc = var_read(o->efivars, name, EFI_GLOBAL_GUID_STR, &attrs, raw, &n);
	if (rc)
		return refuse("cannot read the current boot entry ", name);
	if (loadopt_parse(*raw, n, lo) || !lo->hd || !lo->path[0])
		return refuse("the current boot entry is not a file on a disk partition: ", name);
	char second[256];

	opt_path(lo, second, sizeof(second));
	if (!strcasecmp(lo->path, APP_PATH) || !strcasecmp(second, APP_PATH))
		return refuse("this boot already came through aspmctl.efi (uninstall first): ", name);
	return 0;
}

static int read_order(const struct install_opts *o, uint16_t *order, unsigned *n)
{
	uint8_t *d = NULL;
	uint32_t attrs;
	size_t len;
	int rc = var_read(o->efivars, "BootOrder", EFI_GLOBAL_GUID_STR, &attrs, &d, &len);

	*n = 0;
	if (rc == -AE_NOENT)
		return 0;
	if (rc || len % 2 || len / 2 > MAX_ORDER) {
		free(d);
		return rc ? rc : -AE_INVAL;
	}
	for (size_t i = 0; i < len / 2; i++)
		order[(*n)++] = get_le16(d + 2 * i);
	free(d);
	return 0;
}

static int write_order(const struct install_opts *o, const uint16_t *order, unsigned n)
{
	uint8_t d[2 * MAX_ORDER];

	for (unsigned i = 0; i < n; i++) {
		d[2 * i] = (uint8_t)order[i];
		d[2 * i + 1] = (uint8_t)(order[i] >> 8);
	}
	return var_write(o->efivars, "BootOrder", EFI_GLOBAL_GUID_STR, EFI_VAR_NV_BS_RT, d, 2 * n);
}

static void order_str(const uint16_t *order, unsigned n, char *buf, size_t size)
{
	size_t k = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < n && k + 6 < size; i++)
		k += (size_t)snprintf(buf + k, size - k, "%s%04X", i ? "," : "", order[i]);
}

/* The first Boot#### number that does not exist. */
static int free_number(const struct install_opts *o, unsigned *num)
{
	char path[4096];

	for (unsigned k = 0; k < 0x10000; k++) {
		snprintf(path, sizeof(path), "%s/Boot%04X-%s", o->efivars, k, EFI_GLOBAL_GUID_STR);
		if (access(path, F_OK)) {
			*num = k;
			return 0;
		}
	}
	return -AE_NOSPC;
}

static int write_file(const char *path, const void *data, size_t len)
{
	FILE *f = fopen(path, "wb");
	int ok = f && fwrite(data, 1, len, f) == len;

	if (f && fclose(f))
		ok = 0;
	if (!ok)
		fprintf(stderr, "aspmctl install: %s: %s\n", path, strerror(errno));
	return ok ? 0 : -AE_IO;
}

static int read_state(const char *esp, unsigned *num);

/* Refusals before anything is written: BIOS boot, Secure Boot, the ESP. */
static int preflight(const struct install_opts *o, char *esp, size_t size, bool *secure)
{
	uint8_t *d = NULL;
	uint32_t attrs;
	size_t n;
	bool sb;

	if (access(o->efivars, R_OK | X_OK)) {
		fprintf(stderr, "aspmctl install: this system did not boot through UEFI (a BIOS boot, or efivarfs not mounted at %s); nothing was changed\n",
			o->efivars);
		return -AE_NOTSUP;
	}
	sb = !var_read(o->efivars, "SecureBoot", EFI_GLOBAL_GUID_STR, &attrs, &d, &n) &&
	     n == 1 && d[0] == 1;
	free(d);
	if (secure)
		*secure = sb;
	return install_find_esp(o, esp, size, true);
}

static int enough_space(const char *esp, size_t need)
{
	struct statvfs s;

	if (statvfs(esp, &s))
		return refuse("cannot stat the EFI System Partition ", esp);
	if ((unsigned long long)s.f_bavail * s.f_frsize < need + (64u << 10))
		return refuse("too little space on the EFI System Partition ", esp);
	return 0;
}

/* The files and variables, in the order uninstall can undo any prefix of. */
/* Behind shim (Secure Boot): the entry starts the system's shim (lo->path)
 * with the app's path as its UCS-2 load option, as efibootmgr -u writes it;
 * shim verifies the app against db and MokList. */
static int install_write(const struct install_opts *o, const char *esp,
			 const struct loadopt *lo, const char *next, bool via_shim,
			 const uint8_t *app, size_t app_len,
			 unsigned num, uint16_t *order, unsigned n)
{
	char path[1200], text[2048], was[MAX_ORDER * 5 + 1];
	uint8_t opt[2048];
	size_t ol = loadopt_build(opt, sizeof(opt), LOAD_OPTION_ACTIVE, DESC,
				  lo->hd, lo->hd_len, via_shim ? lo->path : APP_PATH);
	int rc;

	if (ol && via_shim) {
		const char *a = APP_PATH;

		if (ol + 2 * (strlen(a) + 1) > sizeof(opt))
			return -AE_2BIG;
		for (size_t i = 0; i <= strlen(a); i++) {
			opt[ol++] = (uint8_t)a[i];
			opt[ol++] = 0;
		}
	}
	if (!ol)
		return -AE_2BIG;
	snprintf(path, sizeof(path), "%s/EFI", esp);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/" APP_DIR, esp);
	if (mkdir(path, 0755) && errno != EEXIST)
		return refuse("cannot create ", path);
	order_str(order, n, was, sizeof(was));
	snprintf(path, sizeof(path), "%s/" APP_DIR "/install.state", esp);
	snprintf(text, sizeof(text), "# aspmctl install: what aspmctl uninstall undoes\nboot = %04X\nbootorder = %s\n",
		 num, was);
	rc = write_file(path, text, strlen(text));
	snprintf(path, sizeof(path), "%s/" APP_DIR "/aspmctl.efi", esp);
	rc = rc ?: write_file(path, app, app_len);
	snprintf(path, sizeof(path), "%s/" APP_DIR "/aspmctl.conf", esp);
	snprintf(text, sizeof(text), "# written by aspmctl install (aspmctl uninstall removes it)\n"
		 "command = boot\nnext = %s\npolicy = %s\n"
		 "# boots in a row not confirmed by aspmctl-bless.service before the app\n"
		 "# applies nothing (0: no counting)\ntries = 3\n", next, o->policy ? o->policy : "auto");
	rc = rc ?: write_file(path, text, strlen(text));
	snprintf(text, sizeof(text), "Boot%04X", num);
	rc = rc ?: var_write(o->efivars, text, EFI_GLOBAL_GUID_STR, EFI_VAR_NV_BS_RT, opt, ol);
	memmove(order + 1, order, n * sizeof(*order));
	order[0] = (uint16_t)num;
	rc = rc ?: write_order(o, order, n + 1);
	if (rc)
		fprintf(stderr, "aspmctl install: failed part way (%s): 'aspmctl uninstall' undoes what was done\n",
			err_str(rc));
	return rc;
}

int host_install(const struct install_opts *o)
{
	char esp[1024], num_s[8], cur_s[8], ord[MAX_ORDER * 5 + 1];
	uint16_t order[MAX_ORDER + 1];
	struct loadopt lo;
	uint8_t *raw = NULL, *app = NULL;
	size_t app_len = 0;
	unsigned cur, num, n;
	bool sb = false;
	char next[512];
	int rc = preflight(o, esp, sizeof(esp), &sb);

	if (!rc && !read_state(esp, &num)) {
		snprintf(num_s, sizeof(num_s), "%04X", num);
		rc = refuse("already installed as boot entry Boot", num_s);
		fprintf(stderr, "aspmctl install: run 'aspmctl uninstall' first\n");
	}
	rc = rc ?: current_loader(o, &lo, &raw, &cur);
	if (!rc && host_read_file(o->app, APP_MAX, &app, &app_len))
		rc = refuse("cannot read the app to install: ", o->app);
	if (!rc)
		snprintf(next, sizeof(next), "%s", lo.path);
	if (!rc && sb && !is_shim(lo.path))
		rc = refuse("Secure Boot is on and this boot did not come through shim: ", lo.path);
	else if (!rc && sb && !pe_signed(app, app_len)) {
		rc = refuse("Secure Boot is on and the app is not signed: ", o->app);
		fprintf(stderr, "aspmctl install: sign it with a key in MokList or db (sbsign --key K --cert C --output FILE %s) and give --app FILE\n",
			o->app);
	} else if (!rc && sb) {
		/* the app starts shim's second stage itself, through shim */
		char *s;

		opt_path(&lo, next, sizeof(next));
		if (!next[0]) {
			snprintf(next, sizeof(next) - 16, "%s", lo.path);
			s = strrchr(next, '\\');
			strcpy(s ? s + 1 : next, "grubx64.efi");
		}
	}
	rc = rc ?: enough_space(esp, app_len);
	if (!rc && (read_order(o, order, &n) || free_number(o, &num)))
		rc = refuse("BootOrder is unreadable or every Boot#### number is taken", NULL);
	if (!rc) {
		snprintf(num_s, sizeof(num_s), "%04X", num);
		snprintf(cur_s, sizeof(cur_s), "%04X", cur);
		order_str(order, n, ord, sizeof(ord));
		step(o, "ESP: %s%s", esp, NULL);
		step(o, "this boot came through Boot%s: %s", cur_s, lo.path);
		step(o, "copy %s to %s/" APP_DIR "/aspmctl.efi", o->app, esp);
		if (sb)
			step(o, "Secure Boot: the app behind the system's shim %s (it verifies the app against db and MokList)%s",
			     lo.path, NULL);
		step(o, "write %s/" APP_DIR "/aspmctl.conf: command = boot, next = %s", esp, next);
		if (sb)
			step(o, "create Boot%s \"" DESC "\" -> %s " APP_PATH " on the same partition", num_s, lo.path);
		else
			step(o, "create Boot%s \"" DESC "\" -> " APP_PATH " on the same partition%s", num_s, NULL);
		step(o, "BootOrder %s -> %s first, the others kept after it", ord, num_s);
		if (!o->dry_run)
			rc = install_write(o, esp, &lo, next, sb, app, app_len, num, order, n);
	}
	free(raw);
	free(app);
	return rc;
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *f)
{
	(void)st;
	(void)flag;
	(void)f;
	return remove(path) ? -1 : 0;
}

/* rm -r of dir (the app's own folder on the ESP); gone already is fine */
static int remove_tree(const char *dir)
{
	if (access(dir, F_OK))
		return 0;
	return nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS) ? -AE_IO : 0;
}

static int read_state(const char *esp, unsigned *num)
{
	char path[1200], line[256];
	FILE *f;
	int found = 0;

	snprintf(path, sizeof(path), "%s/" APP_DIR "/install.state", esp);
	f = fopen(path, "r");
	if (!f)
		return -AE_NOENT;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "boot = %x", num) == 1)
			found = 1;
	fclose(f);
	return found ? 0 : -AE_INVAL;
}

/* The entry starts the app: directly, or as shim's second stage. */
static bool boots_app(const struct loadopt *lo)
{
	char second[256];

	opt_path(lo, second, sizeof(second));
	return !strcasecmp(lo->path, APP_PATH) || (is_shim(lo->path) && !strcasecmp(second, APP_PATH));
}

/* Boot#### num, only when it still boots the app. */
static void remove_entry(const struct install_opts *o, unsigned num)
{
	char name[16];
	uint8_t *d = NULL;
	uint32_t attrs;
	size_t n;
	struct loadopt lo;

	snprintf(name, sizeof(name), "Boot%04X", num);
	if (var_read(o->efivars, name, EFI_GLOBAL_GUID_STR, &attrs, &d, &n)) {
		step(o, "%s is gone already%s", name, NULL);
	} else if (loadopt_parse(d, n, &lo) || !boots_app(&lo)) {
		step(o, "%s no longer boots the app: kept%s", name, NULL);
	} else {
		step(o, "delete %s%s", name, NULL);
		if (!o->dry_run && var_delete(o->efivars, name, EFI_GLOBAL_GUID_STR))
			fprintf(stderr, "aspmctl uninstall: cannot delete %s\n", name);
	}
	free(d);
}

int host_uninstall(const struct install_opts *o)
{
	char esp[1024], path[1200], a[MAX_ORDER * 5 + 1], b[MAX_ORDER * 5 + 1];
	uint16_t order[MAX_ORDER + 1];
	unsigned num = 0, n = 0, k = 0;
	int rc = preflight(o, esp, sizeof(esp), NULL);

	if (!rc && read_state(esp, &num)) {
		fprintf(stderr, "aspmctl uninstall: %s/" APP_DIR "/install.state missing or unreadable: not installed by aspmctl install; nothing was changed\n",
			esp);
		return -AE_NOENT;
	}
	if (rc)
		return rc;
	remove_entry(o, num);
	if (!read_order(o, order, &n)) {
		order_str(order, n, a, sizeof(a));
		for (unsigned i = 0; i < n; i++)
			if (order[i] != num)
				order[k++] = order[i];
		order_str(order, k, b, sizeof(b));
		if (k != n) {
			step(o, "BootOrder %s -> %s", a, b);
			if (!o->dry_run && write_order(o, order, k))
				rc = -AE_IO;
		}
	}
	step(o, "delete AspmctlBootCount%s", NULL, NULL);
	if (!o->dry_run)
		var_delete(o->efivars, "AspmctlBootCount", ASPMCTL_GUID_STR);
	snprintf(path, sizeof(path), "%s/" APP_DIR, esp);
	step(o, "remove %s (the app, its configuration and its results)%s", path, NULL);
	if (!o->dry_run && remove_tree(path))
		rc = -AE_IO;
	if (rc)
		fprintf(stderr, "aspmctl uninstall: not every step could be undone (%s)\n", err_str(rc));
	return rc;
}
