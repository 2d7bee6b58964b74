// SPDX-License-Identifier: GPL-2.0-only
/*
 * aspmctl on the host: the app's own command code (app/) over a digital
 * twin (twin/) of a machine's config space, taken from an lspci dump or
 * from the running Linux machine's sysfs, read-only. Only the backend
 * differs from aspmctl.efi: the same report, plan, apply, remove and dump
 * commands and records, on registers that behave as the spec says. What
 * apply and remove --apply change stays in memory; --after-dump writes
 * the predicted config space for `lspci -F FILE -vv`.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "install.h"
#include "variables.h"
#include "firmware.h"
#include "aml.h"
#include "sysfs.h"
#include "../lib/err.h"
#include "../lib/log.h"

#define MAX_FN		4096
#define MAX_LINK	2048
#define MAX_WRITES	8192
#define FILE_MAX	(4u << 20)
#define DUMP_MAX	(16u << 20)
#define TABLE_MAX	(64u << 10)

struct host_opts {
	const char *dump;	/* --from-dump */
	const char *sysfs;	/* --from-sysfs ROOT */
	const char *fadt;	/* --fadt FILE */
	int no_aspm;		/* --fadt-no-aspm: -1 unset, 0, 1 */
	const char *after;	/* --after-dump FILE */
	const char *esp;	/* --esp DIR */
	const char *acpi;	/* --acpi DIR|FILE */
	bool help;
	int argc;		/* what is left: the app's command line */
	char **argv;
};

static void usage(FILE *f)
{
	fputs("usage: aspmctl (--from-dump FILE | --from-sysfs [ROOT]) [host options]\n"
	      "               [COMMAND [options]]\n"
	      "       aspmctl bless [--efivars DIR]\n"
	      "       aspmctl status [--efivars DIR] [--esp DIR] [--root DIR]\n"
	      "       aspmctl install|uninstall [--dry-run] [--esp DIR] [--policy P]\n"
	      "               [--app FILE] [--efivars DIR] [--mounts FILE]\n"
	      "aspmctl.efi's commands and options over a twin of a machine's config\n"
	      "space; nothing is ever written to a real register.\n"
	      "  --from-dump FILE      lspci -x, -xxx, -xxxx or -D -xxxx text, or the\n"
	      "                        file of aspmctl's dump command ('-': stdin)\n"
	      "  --from-sysfs [ROOT]   this Linux machine: ROOT/sys/bus/pci/devices/*/config\n"
	      "                        (4 KiB each as root, 64 bytes otherwise) and the\n"
	      "                        FACP and MCFG of ROOT/sys/firmware/acpi/tables\n"
	      "  --fadt FILE           a binary FADT (FACP), as sysfs or acpidump -b give it\n"
	      "  --fadt-no-aspm yes|no set or clear its PCIe ASPM Controls bit (default:\n"
	      "                        the FADT's, or no when there is none)\n"
	      "  --acpi DIR|FILE       the DSDT and SSDTs for the firmware's _OSC (--osc\n"
	      "                        auto): a folder (sysfs tables, acpidump -b's\n"
	      "                        *.dat), one binary table, or acpidump's text;\n"
	      "                        --from-sysfs reads ROOT/sys/firmware/acpi/tables\n"
	      "  --after-dump FILE     the config space after the command, lspci text\n"
	      "  --esp DIR             where the app's files go (dump, results)\n"
	      "  bless                 confirm this boot: delete aspmctl.efi's boot\n"
	      "                        counter (as root; aspmctl-bless.service runs it)\n"
	      "  status                the summary and the counter aspmctl.efi left this\n"
	      "                        boot, and each function's Link Control as the app\n"
	      "                        left it (boot.txt) and as it is now (sysfs)\n"
	      "  install               put aspmctl.efi in front of this boot: the app on\n"
	      "                        the ESP, aspmctl.conf whose next loader is the one\n"
	      "                        this boot came through (BootCurrent), a boot entry\n"
	      "                        first in BootOrder; --dry-run prints the steps\n"
	      "  uninstall             undo each step of install\n"
	      "  --efivars DIR         efivarfs (default " EFIVARS_DIR ")\n"
	      "Run 'aspmctl --from-dump FILE help' for the commands and their options.\n", f);
}

static int bad(const char *what, const char *arg)
{
	fprintf(stderr, "aspmctl: %s%s%s (see --help)\n", what, arg ? ": " : "",
		arg ? arg : "");
	return -AE_INVAL;
}

/* install, uninstall, status and bless: the app on the running system.
 * Returns the exit status, or -1 when argv is none of them. */
static int efivars_cmd(int argc, char **argv)
{
	const char *dir = EFIVARS_DIR;
	int rc;

	if (argc >= 2 && (!strcmp(argv[1], "install") || !strcmp(argv[1], "uninstall") ||
			  !strcmp(argv[1], "status"))) {
		struct install_opts io;

		rc = install_parse(argc - 2, argv + 2, &io);
		if (rc)
			return rc;
		rc = !strcmp(argv[1], "install") ? host_install(&io) :
		     !strcmp(argv[1], "uninstall") ? host_uninstall(&io) : host_status(&io);
		return rc ? 1 : 0;
	}
	if (argc < 2 || strcmp(argv[1], "bless"))
		return -1;
	if (argc == 4 && !strcmp(argv[2], "--efivars"))
		dir = argv[3];
	else if (argc != 2) {
		bad("bless takes only --efivars DIR", NULL);
		return 2;
	}
	rc = efivars_bless(dir);
	return rc ? 1 : 0;
}

/* One host option at argv[i]; returns how many words it took, 0 when
 * argv[i] is not a host option, or -AE_INVAL. */
static int host_opt(struct host_opts *h, int argc, char **argv, int i)
{
	const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

	if (!strcmp(a, "--from-sysfs")) {
		bool path = v && (v[0] == '/' || v[0] == '.');

		h->sysfs = path ? v : "/";
		return path ? 2 : 1;
	}
	if (!strncmp(a, "--from-sysfs=", 13)) {
		h->sysfs = a + 13;
		return 1;
	}
	if (strcmp(a, "--from-dump") && strcmp(a, "--fadt") && strcmp(a, "--fadt-no-aspm") &&
	    strcmp(a, "--after-dump") && strcmp(a, "--esp") && strcmp(a, "--acpi"))
		return 0;
	if (!v)
		return bad("missing value after", a);
	if (!strcmp(a, "--from-dump"))
		h->dump = v;
	else if (!strcmp(a, "--fadt"))
		h->fadt = v;
	else if (!strcmp(a, "--after-dump"))
		h->after = v;
	else if (!strcmp(a, "--esp"))
		h->esp = v;
	else if (!strcmp(a, "--acpi"))
		h->acpi = v;
	else if (!strcmp(v, "yes") || !strcmp(v, "no"))
		h->no_aspm = !strcmp(v, "yes");
	else
		return bad("--fadt-no-aspm takes yes or no, not", v);
	return 2;
}

static int parse_opts(struct host_opts *h, int argc, char **argv)
{
	memset(h, 0, sizeof(*h));
	h->no_aspm = -1;
	h->argv = calloc((size_t)argc + 1, sizeof(char *));
	if (!h->argv)
		return -AE_NOMEM;
	for (int i = 1; i < argc;) {
		int n = host_opt(h, argc, argv, i);

		if (n < 0)
			return n;
		if (n == 0) {
			if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help") ||
			    !strcmp(argv[i], "help"))
				h->help = true;
			h->argv[h->argc++] = argv[i++];
		}
		i += n;
	}
	if (h->dump && h->sysfs)
		return bad("--from-dump and --from-sysfs exclude each other", NULL);
	if (!h->dump && !h->sysfs && !h->help)
		return bad("no machine: give --from-dump FILE or --from-sysfs", NULL);
	return 0;
}

static void stdout_write(void *ctx, const char *s, size_t n)
{
	fwrite(s, 1, n, ctx);
}

static int load_twin(const struct host_opts *h, struct twin *t)
{
	struct twin_err e;
	char *text = NULL;
	size_t len = 0;
	int rc;

	if (h->dump) {
		rc = twin_load(t, h->dump, &e);
		if (rc)
			fprintf(stderr, "%s:%u: %s\n", h->dump, e.line, e.msg);
		return rc;
	}
	rc = sysfs_dump_text(h->sysfs, &text, &len);
	if (!rc) {
		rc = twin_parse(t, text, len, &e);
		if (rc)
			fprintf(stderr, "%s/sys/bus/pci/devices (read as a dump):%u: %s\n",
				h->sysfs, e.line, e.msg);
	}
	free(text);
	return rc;
}

/* A table from a file the user named (must exist), or from sysfs (may
 * be missing: then synthesized). */
static int load_table(const char *path, bool must, uint8_t **data, size_t *len)
{
	int rc = host_read_file(path, TABLE_MAX, data, len);

	if (rc == -AE_NOENT && !must)
		return 0;
	if (rc)
		fprintf(stderr, "aspmctl: %s: cannot read (%s)\n", path, err_str(rc));
	return rc;
}

static int load_tables(const struct host_opts *h, struct host_fadt *fadt,
		       uint8_t **mcfg, size_t *mcfg_len, struct host_aml *aml)
{
	char path[4096];
	uint8_t *f = NULL;
	int rc = 0;

	fadt->no_aspm = h->no_aspm;
	if (h->fadt) {
		rc = load_table(h->fadt, true, &f, &fadt->len);
	} else if (h->sysfs) {
		snprintf(path, sizeof(path), "%s/sys/firmware/acpi/tables/FACP", h->sysfs);
		rc = load_table(path, false, &f, &fadt->len);
	}
	fadt->table = f;
	if (!rc && h->sysfs) {
		snprintf(path, sizeof(path), "%s/sys/firmware/acpi/tables/MCFG", h->sysfs);
		rc = load_table(path, false, mcfg, mcfg_len);
	}
	if (!rc && h->acpi) {
		rc = host_aml_load(h->acpi, true, aml);
	} else if (!rc && h->sysfs) {
		/* unreadable (not root) or absent: the query says no-dsdt */
		snprintf(path, sizeof(path), "%s/sys/firmware/acpi/tables", h->sysfs);
		if (host_aml_load(path, false, aml))
			host_aml_free(aml);
	}
	fadt->aml = aml;
	return rc;
}

static int alloc_app(struct app *a, struct host_fw *fw, const struct out *console)
{
	memset(a, 0, sizeof(*a));
	a->ops = &fw->ops;
	a->console = console;
	a->fn = calloc(MAX_FN, sizeof(*a->fn));
	a->link = calloc(MAX_LINK, sizeof(*a->link));
	a->w = calloc(MAX_WRITES, sizeof(*a->w));
	a->lp = calloc(MAX_LINK, sizeof(*a->lp));
	a->file = calloc(1, FILE_MAX);
	a->dump = calloc(1, DUMP_MAX);
	a->cap_fn = MAX_FN;
	a->cap_link = MAX_LINK;
	a->cap_w = MAX_WRITES;
	a->file_max = FILE_MAX;
	a->dump_max = DUMP_MAX;
	return a->fn && a->link && a->w && a->lp && a->file && a->dump ? 0 : -AE_NOMEM;
}

static void free_app(struct app *a)
{
	free(a->fn);
	free(a->link);
	free(a->w);
	free(a->lp);
	free(a->file);
	free(a->dump);
}

/* Every function of the dump that the enumeration did not reach, named,
 * with why: lspci names it, so the report must too. */
static void report_unreached(const struct twin *t, const struct pcie_topo *topo)
{
	char b[16];

	if (!topo->nfn)
		return;
	for (unsigned i = 0; i < t->nfn; i++) {
		const struct twin_fn *f = &t->fn[i];

		if (pcie_find_fn(topo, f->addr) >= 0)
			continue;
		printf("dump %s %02x%02x:%02x%02x (line %u) not in the tree: %s\n",
		       pci_addr_str(f->addr, b), f->cfg[1], f->cfg[0], f->cfg[3], f->cfg[2],
		       f->line, f->all_ones ? "dumped as all-ones (the function did not answer)" :
		       "not reached from a root bus through the bridges of the dump");
	}
}

static int write_after(const char *path, const struct twin *t)
{
	FILE *f = fopen(path, "w");
	struct out o = { stdout_write, f };

	if (!f) {
		perror(path);
		return -AE_IO;
	}
	twin_write_lspci(t, &o);
	if (fclose(f)) {
		perror(path);
		return -AE_IO;
	}
	fprintf(stderr, "aspmctl: predicted config space in %s (lspci -F %s -vv)\n", path, path);
	return 0;
}

static int run(const struct host_opts *h, struct twin *t, const struct host_fadt *fadt,
	       const uint8_t *mcfg, size_t mcfg_len)
{
	static struct app a;
	struct out console = { stdout_write, stdout };
	struct app_args in = { .in_shell = true, .argc = h->argc, .argv = h->argv,
			       .conf = NULL, .conf_rc = -AE_NOENT };
	struct host_fw fw;
	int rc = host_fw_init(&fw, t, fadt, mcfg, mcfg_len);

	fw.esp = h->esp;
	if (!rc)
		rc = alloc_app(&a, &fw, &console);
	if (!rc) {
		log_set_sink(&console, LOG_WARN);
		rc = app_main(&a, &in);
		report_unreached(t, &a.topo);
		fflush(stdout);
	}
	if (!rc && h->after)
		rc = write_after(h->after, t);
	free_app(&a);
	host_fw_free(&fw);
	return rc;
}

int main(int argc, char **argv)
{
	struct host_opts h;
	struct host_fadt fadt = { 0 };
	static struct host_aml aml;
	struct twin t = { 0 };
	uint8_t *mcfg = NULL;
	size_t mcfg_len = 0;
	int rc = efivars_cmd(argc, argv);

	if (rc >= 0)
		return rc;
	rc = parse_opts(&h, argc, argv);
	if (rc || (h.help && !h.dump && !h.sysfs)) {
		usage(rc ? stderr : stdout);
		free(h.argv);
		return rc ? 2 : 0;
	}
	rc = load_twin(&h, &t);
	if (!rc)
		rc = load_tables(&h, &fadt, &mcfg, &mcfg_len, &aml);
	if (!rc)
		rc = run(&h, &t, &fadt, mcfg, mcfg_len);
	twin_free(&t);
	free((void *)fadt.table);
	host_aml_free(&aml);
	free(mcfg);
	free(h.argv);
	return rc ? 1 : 0;
}
