// SPDX-License-Identifier: GPL-2.0-only
/*
 * The app's run sequence (app/app.c) on a fake machine: ACPI tables as
 * bytes in a fake physical memory (tests/lib/acpi_build.h), config space on the
 * simulator reached over ECAM, and fake firmware services that record
 * the files written, the published summary and the chainload. Every
 * hostile case (hostile_machines.h) runs in boot mode, the way a boot entry runs
 * aspmctl.efi; for each: the exact lines the user sees, the config
 * writes (none, or only the healthy link's and never a broken
 * function's), that the run returned, that the next loader was started
 * with the configured path and options, and that the summary was
 * published and recorded in boot.txt.
 */
#include "policy_fixture.h"
#include "../lib/acpi_build.h"
#include "hostile_machines.h"
#include "../lib/fake_boot.h"

#define MEM_BASE	0x7f000000ull
#define MEM_SIZE	(64 * 1024)
#define ECAM_BASE	0xb0000000ull
#define NEXT		"\\EFI\\next\\loader.efi"
#define NEXT_OPTS	"initrd=\\initrd.img root=/dev/sda1 quiet"
#define RESULTS		"\\EFI\\aspmctl\\results"
#define CONSOLE_SIZE	(256 * 1024)

/* the configuration of the boot entry: clear ASPM when the FADT says so */
static const char conf_boot[] =
	"# boot entry\n"
	"command = boot\n"
	"fadt-mode = clear\n"
	"next = " NEXT "\n"
	"next-options = " NEXT_OPTS "\n";

struct bfx {
	struct fake_mem mem;
	struct sim *sim;
	struct fake_fw fw;	/* firmware services and what the app did */
	/* console */
	char *text;
	struct out_buf ob;
	struct out console;
	struct app app;
	char *argv_store;
};

static struct bfx *bfx_new(void)
{
	struct bfx *b = calloc(1, sizeof(*b));
	struct app *a = &b->app;

	assert_int_equal(fake_mem_init(&b->mem, MEM_BASE, MEM_SIZE), 0);
	b->sim = sim_new();
	b->sim->ecam_base = ECAM_BASE;
	b->sim->ecam_start = 0;
	b->sim->ecam_end = 0x3f;	/* the "hardware" decodes 64 buses */
	b->text = calloc(1, CONSOLE_SIZE);
	out_buf_init(&b->console, &b->ob, b->text, CONSOLE_SIZE);
	log_set_sink(&b->console, LOG_WARN);
	fake_fw_init(&b->fw, &sim_mmio_ops, b->sim);
	b->fw.plat.mem = fake_acpi_mem(&b->mem);
	a->ops = &b->fw.ops;
	a->console = &b->console;
	a->cap_fn = 256;
	a->cap_link = 128;
	a->cap_w = 512;
	a->fn = calloc(a->cap_fn, sizeof(*a->fn));
	a->link = calloc(a->cap_link, sizeof(*a->link));
	a->w = calloc(a->cap_w, sizeof(*a->w));
	a->lp = calloc(a->cap_link, sizeof(*a->lp));
	a->file_max = 1 << 20;
	a->file = malloc(a->file_max);
	a->dump_max = 1 << 20;
	a->dump = malloc(a->dump_max);
	return b;
}

static void bfx_free(struct bfx *b)
{
	fake_mem_free(&b->mem);
	sim_free(b->sim);
	assert_int_equal(b->fw.files_lost, 0);
	fake_fw_free(&b->fw);
	free(b->app.fn);
	free(b->app.link);
	free(b->app.w);
	free(b->app.lp);
	free(b->app.file);
	free(b->app.dump);
	free(b->text);
	free(b->argv_store);
	free(b);
	log_set_sink(NULL, LOG_WARN);
}

/* Run the app as a boot entry (or from the Shell) with this command line
 * and configuration text (NULL: no file). */
static int bfx_run(struct bfx *b, bool shell, const char *cmdline,
		   const char *conf, int conf_rc)
{
	static char *argv[CLI_MAX_ARGS];
	struct app_args in = { .in_shell = shell, .argv = argv,
			       .conf = conf, .conf_rc = conf ? 0 : conf_rc };

	free(b->argv_store);
	b->argv_store = strdup(cmdline ? cmdline : "");
	in.argc = boot_split_options(b->argv_store, argv, CLI_MAX_ARGS);
	if (in.argc < 0)
		in.arg_error = "too many arguments";
	return app_main(&b->app, &in);
}

static const char *bfx_file(struct bfx *b, const char *path)
{
	const struct fake_file *f = fake_fw_file(&b->fw, path);

	return f ? f->data : NULL;
}

static bool line_matches(const char *got, const char *exp);

/* The console's "aspmctl: " lines (what the user reads besides the
 * report and the records) must be exactly exp; in exp, %x matches any
 * hex number and %u any decimal one (table addresses, byte counts). */
static void check_console(struct bfx *b, const char *const *exp, unsigned n,
			  const char *file, int line)
{
	static char store[CONSOLE_SIZE];
	static const char *got[256];
	unsigned k = pfx_lines(b->text, "aspmctl: ", got, 256, store, sizeof(store));

	if (k != n)
		fail_msg("%s:%d: %u \"aspmctl: \" lines, expected %u; console:\n%s",
			 file, line, k, n, b->text);
	for (unsigned i = 0; i < n; i++)
		if (!line_matches(got[i], exp[i]))
			fail_msg("%s:%d: line %u:\n  got      %s\n  expected %s\nconsole:\n%s",
				 file, line, i, got[i], exp[i], b->text);
}

#define assert_console(b, ...) do {					\
	const char *const c_[] = { __VA_ARGS__ };			\
	check_console((b), c_, ARRAY_SIZE(c_), __FILE__, __LINE__);	\
} while (0)

static bool has_line(const char *text, const char *l)
{
	size_t n = strlen(l);

	for (const char *h = text; h && (h = strstr(h, l)) != NULL; h++)
		if ((h == text || h[-1] == '\n') && (h[n] == '\n' || !h[n]))
			return true;
	return false;
}

/* A line matching l, where %u matches any decimal, %x any hex number and
 * %s any word (see match_class()). */
static bool has_line_fmt(const char *text, const char *l)
{
	static char line[1024];

	for (const char *p = text; *p;) {
		const char *e = strchr(p, '\n');
		size_t n = e ? (size_t)(e - p) : strlen(p);

		if (n < sizeof(line)) {
			memcpy(line, p, n);
			line[n] = '\0';
			if (line_matches(line, l))
				return true;
		}
		p += n + (e ? 1 : 0);
	}
	return false;
}

#define assert_has_line(text, l) do {					\
	if (!has_line((text), (l)))					\
		fail_msg("no line\n  %s\nin:\n%s", (l), (text));	\
} while (0)

/* The boot-mode outcome every case shares: the run returned, the next
 * loader started with the configured options, the summary was published
 * and boot.txt (and, when the policy ran, the dumps) were written. */
static void check_booted(struct bfx *b, int rc, const char *summary, bool dumps)
{
	char line[300];
	const char *bt = bfx_file(b, RESULTS "\\boot.txt");

	assert_int_equal(rc, 0);
	assert_int_equal(b->fw.nchain, 1);
	assert_string_equal(b->fw.next, NEXT);
	assert_string_equal(b->fw.next_opts, NEXT_OPTS);
	assert_int_equal(b->fw.npublish, 1);
	assert_string_equal(b->fw.published, summary);
	assert_true(b->app.chainloaded);
	snprintf(line, sizeof(line), "aspm summary %s", summary);
	assert_has_line(b->text, line);
	assert_non_null(bt);
	assert_has_line(bt, line);
	/* boot.txt is the console's transcript up to the summary */
	{
		const char *end = strstr(b->text, line);
		size_t n = (size_t)(end - b->text) + strlen(line) + 1;
		const char *banner = "aspmctl unknown\n";

		assert_int_equal(strncmp(bt, banner, strlen(banner)), 0);
		assert_int_equal(strlen(bt), strlen(banner) + n);
		assert_memory_equal(bt + strlen(banner), b->text, n);
	}
	if (dumps) {
		const char *before = bfx_file(b, RESULTS "\\config-before.txt");
		const char *after = bfx_file(b, RESULTS "\\config-after.txt");
		char l1[200], l2[200];

		assert_non_null(before);
		assert_non_null(after);
		assert_int_equal(b->fw.nfile, 3);
		/* the dumps show what changed, and only that */
		assert_int_equal(strlen(before), strlen(after));
		assert_int_equal(!strcmp(before, after), b->sim->nlog == 0);
		snprintf(l1, sizeof(l1), "aspm dump functions=%u reads=%%u writes=0 time=%%s file="
			 RESULTS "\\config-before.txt", b->app.topo.nfn);
		snprintf(l2, sizeof(l2), "aspm dump functions=%u reads=%%u writes=0 time=%%s file="
			 RESULTS "\\config-after.txt", b->app.topo.nfn);
		assert_true(has_line_fmt(b->text, l1));
		assert_true(has_line_fmt(b->text, l2));
	} else {
		assert_null(bfx_file(b, RESULTS "\\config-before.txt"));
		assert_int_equal(b->fw.nfile, 1);
	}
}

/* ------------------------------------------------------------ ACPI */

static const struct acpi_mcfg_ent good_mcfg = { ECAM_BASE, 0, 0, 0x3f };

/* RSDP 2 -> XSDT -> entries; returns the RSDP. */
static uint64_t tables(struct fake_mem *m, const uint64_t *e, unsigned n)
{
	uint64_t xsdt = add_root(m, true, e, n, 0);

	return add_rsdp(m, 2, 0, xsdt);
}

static uint64_t std_tables(struct fake_mem *m, uint32_t fadt_len)
{
	uint64_t fadt = add_fadt(m, fadt_len, fadt_len >= 244 ? 5 : 1, 0, FADT_IAPC_NO_ASPM);
	uint64_t mcfg = add_mcfg(m, &good_mcfg, 1);

	return tables(m, (uint64_t[]){ fadt, mcfg }, 2);
}

static uint64_t acpi_good(struct fake_mem *m)
{
	return std_tables(m, 244);
}

static uint64_t acpi_bad_rsdp_checksum(struct fake_mem *m)
{
	uint64_t r = std_tables(m, 244);

	fake_ptr(m, r)[8] ^= 0x01;
	return r;
}

static uint64_t acpi_bad_ext_checksum(struct fake_mem *m)
{
	uint64_t r = std_tables(m, 244);

	fake_ptr(m, r)[32] ^= 0x01;
	return r;
}

static uint64_t acpi_rev2_zero_xsdt(struct fake_mem *m)
{
	uint64_t fadt = add_fadt(m, 244, 5, 0, FADT_IAPC_NO_ASPM);
	uint64_t mcfg = add_mcfg(m, &good_mcfg, 1);
	uint64_t rsdt = add_root(m, false, (uint64_t[]){ fadt, mcfg }, 2, 0);

	return add_rsdp(m, 2, (uint32_t)rsdt, 0);
}

static uint64_t acpi_xsdt_garbage(struct fake_mem *m)
{
	uint64_t fadt = add_fadt(m, 244, 5, 0, FADT_IAPC_NO_ASPM);
	uint64_t mcfg = add_mcfg(m, &good_mcfg, 1);
	uint64_t junk = fake_alloc(m, 64, 0);

	memset(fake_ptr(m, junk), 'Z', 64);
	return tables(m, (uint64_t[]){ junk, 0x123456789000ull, fadt, mcfg }, 4);
}

static uint64_t acpi_short_and_absurd(struct fake_mem *m)
{
	uint64_t fadt = add_fadt(m, 244, 5, 0, FADT_IAPC_NO_ASPM);
	uint64_t mcfg = add_mcfg(m, &good_mcfg, 1);
	uint64_t shrt = add_table(m, "SSDT", ACPI_HDR_LEN);
	uint64_t huge = add_table(m, "SSDT", ACPI_HDR_LEN);

	put_le32(fake_ptr(m, shrt) + 4, 20);
	fix_checksum(fake_ptr(m, shrt), ACPI_HDR_LEN, 9);
	put_le32(fake_ptr(m, huge) + 4, 0x40000000);
	fix_checksum(fake_ptr(m, huge), ACPI_HDR_LEN, 9);
	return tables(m, (uint64_t[]){ shrt, fadt, huge, mcfg }, 4);
}

static uint64_t acpi_root_absurd(struct fake_mem *m)
{
	uint64_t r = std_tables(m, 244);
	uint64_t xsdt = get_le64(fake_ptr(m, r) + 24);

	put_le32(fake_ptr(m, xsdt) + 4, 0x40000000);
	return r;
}

static uint64_t acpi_fadt116(struct fake_mem *m) { return std_tables(m, 116); }
static uint64_t acpi_fadt132(struct fake_mem *m) { return std_tables(m, 132); }
static uint64_t acpi_fadt244(struct fake_mem *m) { return std_tables(m, 244); }
static uint64_t acpi_fadt268(struct fake_mem *m) { return std_tables(m, 268); }
static uint64_t acpi_fadt276(struct fake_mem *m) { return std_tables(m, 276); }

static uint64_t acpi_two_fadts(struct fake_mem *m)
{
	uint64_t f1 = add_fadt(m, 244, 5, 0, FADT_IAPC_NO_ASPM);
	uint64_t f2 = add_fadt(m, 268, 6, 0, 0);
	uint64_t mcfg = add_mcfg(m, &good_mcfg, 1);

	return tables(m, (uint64_t[]){ f1, f2, mcfg }, 3);
}

static uint64_t acpi_two_mcfgs(struct fake_mem *m)
{
	static const struct acpi_mcfg_ent second = { 0xc0000000, 0, 0, 0xff };
	uint64_t fadt = add_fadt(m, 244, 5, 0, FADT_IAPC_NO_ASPM);
	uint64_t m1 = add_mcfg(m, &good_mcfg, 1);
	uint64_t m2 = add_mcfg(m, &second, 1);

	return tables(m, (uint64_t[]){ fadt, m1, m2 }, 3);
}

static uint64_t acpi_mcfg_odd(struct fake_mem *m)
{
	uint64_t fadt = add_fadt(m, 244, 5, 0, FADT_IAPC_NO_ASPM);
	uint64_t mcfg = fake_alloc(m, 59, 0);
	uint8_t *t = fake_ptr(m, mcfg);

	tbl_header(t, "MCFG", 59, 1);
	put_le64(t + 44, ECAM_BASE);
	t[55] = 0x3f;
	tbl_fix(t);
	return tables(m, (uint64_t[]){ fadt, mcfg }, 2);
}

static uint64_t mcfg_with(struct fake_mem *m, struct acpi_mcfg_ent bad)
{
	const struct acpi_mcfg_ent e[2] = { good_mcfg, bad };
	uint64_t fadt = add_fadt(m, 244, 5, 0, FADT_IAPC_NO_ASPM);
	uint64_t mcfg = add_mcfg(m, e, 2);

	return tables(m, (uint64_t[]){ fadt, mcfg }, 2);
}

static uint64_t acpi_reversed(struct fake_mem *m)
{
	return mcfg_with(m, (struct acpi_mcfg_ent){ 0xd0000000, 1, 0x40, 0x10 });
}

static uint64_t acpi_zero_base(struct fake_mem *m)
{
	return mcfg_with(m, (struct acpi_mcfg_ent){ 0, 1, 0, 0x3f });
}

static uint64_t acpi_overlap(struct fake_mem *m)
{
	return mcfg_with(m, (struct acpi_mcfg_ent){ 0xc0000000, 0, 0x20, 0x7f });
}

static uint64_t acpi_only_reversed(struct fake_mem *m)
{
	static const struct acpi_mcfg_ent e = { ECAM_BASE, 0, 0x3f, 0x00 };
	uint64_t fadt = add_fadt(m, 244, 5, 0, FADT_IAPC_NO_ASPM);
	uint64_t mcfg = add_mcfg(m, &e, 1);

	return tables(m, (uint64_t[]){ fadt, mcfg }, 2);
}

/* this boot counted: the first unconfirmed one of the default 3 */
#define COUNTED	" unconfirmed=1 tries=3 fallback=none"
/* not counted: an unusable configuration, or a policy that writes nothing */
#define UNCOUNTED	" unconfirmed=- tries=0 fallback=none"
#define S_OK(action, written) \
	"aspmctl unknown action=" action " links=1 written=" written \
	" ignored=0 errors=0 status=ok next=" NEXT COUNTED
#define S_CLEAR		S_OK("clear", "2")
#define S_NONE(status) \
	"aspmctl unknown action=none links=0 written=0 ignored=0 errors=0 status=" \
	status " next=" NEXT COUNTED
#define WROTE(f)	"aspmctl: wrote " RESULTS "\\" f " (%u bytes)"
#define WROTE_ALL	WROTE("config-before.txt"), WROTE("config-after.txt"), WROTE("boot.txt")

struct acpi_case {
	const char *name;
	uint64_t (*build)(struct fake_mem *m);
	/* every "aspmctl: " console line; %x: any hex number, %u: any
	 * decimal (table addresses, byte counts) */
	const char *lines[8];
	unsigned writes;	/* config writes: 2 = the healthy link cleared */
	const char *summary;
};

static const struct acpi_case acpi_cases[] = {
	{ "good tables", acpi_good, { WROTE_ALL }, 2, S_CLEAR },
	{ "bad RSDP checksum", acpi_bad_rsdp_checksum,
	  { "aspmctl: error: RSDP at 0x%x: checksum mismatch (first 20 bytes sum to 0xff) (bad checksum)",
	    "aspmctl: error: ACPI discovery failed; nothing was written (bad checksum)",
	    WROTE("boot.txt") }, 0, S_NONE("bad-checksum") },
	{ "bad extended checksum", acpi_bad_ext_checksum,
	  { "aspmctl: error: RSDP at 0x%x: extended checksum mismatch (36 bytes sum to 0x01) (bad checksum)",
	    "aspmctl: error: ACPI discovery failed; nothing was written (bad checksum)",
	    WROTE("boot.txt") }, 0, S_NONE("bad-checksum") },
	{ "revision 2 with a zero XSDT", acpi_rev2_zero_xsdt,
	  { "aspmctl: warning: RSDP at 0x%x: revision 2 but XsdtAddress is 0; using the RSDT at 0x%x",
	    WROTE_ALL }, 2, S_CLEAR },
	{ "XSDT entries to garbage and out of memory", acpi_xsdt_garbage,
	  { "aspmctl: warning: XSDT entry 0 at 0x%x: 'ZZZZ' Length 1515870810 exceeds the 16777216-byte limit; skipped (length too large)",
	    "aspmctl: warning: XSDT entry 1 at 0x123456789000: header not in mapped memory; skipped (address outside memory)",
	    "aspmctl: warning: XSDT at 0x%x: 2 of 4 entries skipped",
	    WROTE_ALL }, 2, S_CLEAR },
	{ "table lengths shorter than a header and absurd", acpi_short_and_absurd,
	  { "aspmctl: warning: XSDT entry 0 at 0x%x: 'SSDT' Length 20 is shorter than the 36-byte header; skipped (bad length)",
	    "aspmctl: warning: XSDT entry 2 at 0x%x: 'SSDT' Length 1073741824 exceeds the 16777216-byte limit; skipped (length too large)",
	    "aspmctl: warning: XSDT at 0x%x: 2 of 4 entries skipped",
	    WROTE_ALL }, 2, S_CLEAR },
	{ "root table of absurd length", acpi_root_absurd,
	  { "aspmctl: error: XSDT at 0x%x (from the RSDP at 0x%x): 'XSDT' Length 1073741824 exceeds the 16777216-byte limit (length too large)",
	    "aspmctl: error: ACPI discovery failed; nothing was written (length too large)",
	    WROTE("boot.txt") }, 0, S_NONE("length-too-large") },
	/* too short to carry IAPC_BOOT_ARCH: the no-ASPM bit is not honoured
	 * (ACPICA), the policy is Linux's default: BIOS state kept, Common
	 * Clock configured (one write) and the link re-programmed */
	{ "FADT of 116 bytes", acpi_fadt116, { WROTE_ALL }, 3, S_OK("keep", "3") },
	{ "FADT of 132 bytes", acpi_fadt132, { WROTE_ALL }, 3, S_OK("keep", "3") },
	{ "FADT of 244 bytes", acpi_fadt244, { WROTE_ALL }, 2, S_CLEAR },
	{ "FADT of 268 bytes", acpi_fadt268, { WROTE_ALL }, 2, S_CLEAR },
	{ "FADT of 276 bytes", acpi_fadt276, { WROTE_ALL }, 2, S_CLEAR },
	{ "two FADTs", acpi_two_fadts,
	  { "aspmctl: warning: 2 FADTs in the XSDT; their IAPC_BOOT_ARCH disagree: 0x0010 at 0x%x vs 0x0000 at 0x%x; the first is used (duplicate)",
	    WROTE_ALL }, 2, S_CLEAR },
	{ "two MCFGs", acpi_two_mcfgs,
	  { "aspmctl: warning: MCFG at 0x%x entry 0: segment 0 buses 0x00-0xff, ECAM base 0xc0000000: overlaps region 0 (segment 0 buses 0x00-0x3f); region not used",
	    "aspmctl: warning: 2 MCFG tables in the XSDT: the regions of all of them are used (2 in all)",
	    WROTE_ALL }, 2, S_CLEAR },
	{ "MCFG of odd length", acpi_mcfg_odd,
	  { "aspmctl: warning: XSDT entry 1 at 0x%x: MCFG is 59 bytes: not 44 + n * 16; skipped (bad length)",
	    "aspmctl: warning: XSDT at 0x%x: 1 of 2 entries skipped",
	    "aspmctl: error: no usable MCFG region: cannot reach PCIe config space; nothing was written (not found)",
	    WROTE("boot.txt") }, 0, S_NONE("not-found") },
	{ "end bus below start bus", acpi_reversed,
	  { "aspmctl: warning: MCFG at 0x%x entry 1: segment 1 buses 0x40-0x10, ECAM base 0xd0000000: end bus below start bus; region not used",
	    WROTE_ALL }, 2, S_CLEAR },
	{ "the only region reversed", acpi_only_reversed,
	  { "aspmctl: warning: MCFG at 0x%x entry 0: segment 0 buses 0x3f-0x00, ECAM base 0xb0000000: end bus below start bus; region not used",
	    "aspmctl: error: no usable MCFG region: cannot reach PCIe config space; nothing was written (not found)",
	    WROTE("boot.txt") }, 0, S_NONE("not-found") },
	{ "zero base", acpi_zero_base,
	  { "aspmctl: warning: MCFG at 0x%x entry 1: segment 1 buses 0x00-0x3f, ECAM base 0x0: base address is 0; region not used",
	    WROTE_ALL }, 2, S_CLEAR },
	{ "overlapping segments", acpi_overlap,
	  { "aspmctl: warning: MCFG at 0x%x entry 1: segment 0 buses 0x20-0x7f, ECAM base 0xc0000000: overlaps region 0 (segment 0 buses 0x00-0x3f); region not used",
	    WROTE_ALL }, 2, S_CLEAR },
};

/* exp with "%u"/"%x" matching any decimal/hex number */
/* %u: a decimal digit, %x: a hex digit, %s: any character but a space
 * (a record's value, e.g. a duration "1.000us"). */
static bool match_class(char conv, char c)
{
	bool dec = c >= '0' && c <= '9';

	if (conv == 'u')
		return dec;
	if (conv == 'x')
		return dec || (c >= 'a' && c <= 'f');
	return c != ' ';
}

static bool line_matches(const char *got, const char *exp)
{
	while (*exp) {
		if (exp[0] == '%' && (exp[1] == 'u' || exp[1] == 'x' || exp[1] == 's')) {
			const char *g = got;

			while (*g && match_class(exp[1], *g))
				g++;
			if (g == got)
				return false;
			got = g;
			exp += 2;
			continue;
		}
		if (*got++ != *exp++)
			return false;
	}
	return !*got;
}

static void check_console_fmt(struct bfx *b, const char *const *exp,
			      const char *file, int line)
{
	unsigned n = 0;

	while (n < 8 && exp[n])
		n++;
	check_console(b, exp, n, file, line);
}

/* Writes only to Link Control (and the count expected). */
static void check_writes(struct bfx *b, unsigned writes)
{
	struct sim *s = b->sim;

	assert_int_equal(s->nlog, writes);
	assert_int_equal(b->app.cfg.writes, writes);
	assert_int_equal(s->bad_accesses, 0);
	for (unsigned i = 0; i < s->nlog; i++) {
		struct sim_fn *f = sim_find(s, s->log[i].a);

		assert_non_null(f);
		assert_int_equal(s->log[i].off, f->pcie + PCI_EXP_LNKCTL);
	}
}

static void test_acpi_case(void **state)
{
	const struct acpi_case *c = *state;
	struct bfx *b = bfx_new();
	int rc;

	healthy(b->sim);
	b->fw.plat.rsdp = c->build(&b->mem);
	rc = bfx_run(b, false, "", conf_boot, 0);
	check_console_fmt(b, c->lines, __FILE__, __LINE__);
	check_writes(b, c->writes);
	if (!c->writes && !strstr(c->summary, "status=ok"))
		assert_int_equal(b->sim->reads, 0);	/* no config access at all */
	check_booted(b, rc, c->summary, !!strstr(c->summary, "status=ok"));
	bfx_free(b);
}

/* ------------------------------------------------------------ config space */

/* the line each hostile machine (hostile_machines.h, same order) shows */
static const char *const config_lines[][2] = {
	{ "capability loop",
	  "aspmctl: warning: 0000:00:02.0: capability list loops or points into the header; treated as conventional PCI (loop detected)" },
	{ "capability into the header",
	  "aspmctl: warning: 0000:00:02.0: capability list loops or points into the header; treated as conventional PCI (loop detected)" },
	{ "extended capability loop",
	  "aspmctl: warning: 0000:02:00.0: extended capability list loops; stopped walking it (loop detected)" },
	{ "subordinate below secondary",
	  "aspmctl: warning: 0000:00:02.0: bridge bus numbers invalid (primary 00 secondary 05 subordinate 03 on bus 00, window 00-ff); not followed (invalid)" },
	{ "bus claimed twice",
	  "aspmctl: warning: 0000:00:02.0: secondary bus 01 already claimed by another bridge (0000:00:01.0); not followed (duplicate)" },
	{ "bridge outside the MCFG range",
	  "aspmctl: warning: 0000:00:02.0: bridge leads to buses 40-40 outside the MCFG range; not followed (out of range)" },
	{ "function vanishes mid-scan",
	  "aspmctl: warning: 0000:02:00.0: vanished during the scan (reads all-ones) (I/O error)" },
	{ "function never ready",
	  "aspmctl: warning: 0000:02:00.0: function answers Configuration Retry forever, skipped (not ready)" },
	/* no message: the aliases are simply not seen (one function) */
	{ "aliases on every function", NULL },
	{ "unknown port type",
	  "aspmctl: warning: 0000:00:02.0: PCIe capability with unknown port type 15; no ASPM on its link (invalid)" },
};

static void test_config_case(void **state)
{
	unsigned idx = (unsigned)(uintptr_t)*state;
	const struct hostile *h = &hostile_cases[idx];
	struct bfx *b = bfx_new();
	struct sim *s = b->sim;
	const char *exp[8] = { 0 };
	unsigned n = 0;
	char summary[256];
	int rc;

	assert_string_equal(config_lines[idx][0], h->name);
	healthy(s);
	h->build(s);
	b->fw.plat.rsdp = acpi_good(&b->mem);
	rc = bfx_run(b, false, "", conf_boot, 0);
	if (config_lines[idx][1])
		exp[n++] = config_lines[idx][1];
	exp[n++] = WROTE("config-before.txt");
	exp[n++] = WROTE("config-after.txt");
	exp[n++] = WROTE("boot.txt");
	check_console_fmt(b, exp, __FILE__, __LINE__);
	check_writes(b, h->writes);
	hostile_assert_no_bad_writes(h, s);
	/* the healthy link was cleared */
	assert_int_equal(sim_lnkctl(s, A(1, 0, 0)) & PCI_EXP_LNKCTL_ASPMC, 0);
	assert_int_equal(sim_lnkctl(s, A(0, 1, 0)) & PCI_EXP_LNKCTL_ASPMC, 0);
	snprintf(summary, sizeof(summary),
		 "aspmctl unknown action=clear links=%u written=%u ignored=0 errors=0 status=ok next=" NEXT COUNTED,
		 b->app.topo.nlink, h->writes);
	check_booted(b, rc, summary, true);
	/* the broken functions are in no link but the run's */
	assert_int_equal(b->app.topo.nlink, h->writes / 2);
	bfx_free(b);
}

/* ------------------------------------------------------------ precedence */

#define CONF_PATH_S	"\\EFI\\aspmctl\\aspmctl.conf"
#define NO_NEXT \
	"aspmctl: error: boot: no next loader configured (next = ... in " CONF_PATH_S \
	" or --next) (not found)"

/* A boot entry with no aspmctl.conf and no load options: an error the
 * boot manager sees (not EFI_SUCCESS, which would stop at its menu),
 * after a read-only report and a boot.txt that says so. */
static void test_boot_entry_without_conf(void **state)
{
	struct bfx *b = bfx_new();
	const char *bt;
	int rc;

	(void)state;
	healthy(b->sim);
	b->fw.plat.rsdp = acpi_good(&b->mem);
	rc = bfx_run(b, false, "", NULL, -AE_NOENT);
	assert_int_equal(rc, -AE_NOENT);
	assert_console(b,
		"aspmctl: error: " CONF_PATH_S ": not found and no command in the load options: nothing to do as a boot entry (not found)",
		NO_NEXT,
		"aspmctl: configuration unusable: ASPM left as it is",
		"aspmctl: wrote " RESULTS "\\boot.txt (%u bytes)");
	check_writes(b, 0);
	assert_int_equal(b->fw.nchain, 0);
	assert_false(b->app.chainloaded);
	assert_string_equal(b->fw.published,
			    "aspmctl unknown action=none links=1 written=0 ignored=0 errors=0 status=not-found next=-" UNCOUNTED);
	bt = bfx_file(b, RESULTS "\\boot.txt");
	assert_non_null(bt);
	assert_has_line(bt, "aspmctl: error: " CONF_PATH_S ": not found and no command in the load options: nothing to do as a boot entry (not found)");
	assert_has_line(bt, "aspm summary aspmctl unknown action=none links=1 written=0 ignored=0 errors=0 status=not-found next=-" UNCOUNTED);
	/* the read-only report is there, no dumps */
	assert_has_line(b->text, "PCI: 2 function(s), 1 link(s), 1 root bus(es)");
	assert_int_equal(b->fw.nfile, 1);
	bfx_free(b);
}

/* The Shell ignores the file's command: a read-only report. */
static void test_shell_ignores_conf_command(void **state)
{
	struct bfx *b = bfx_new();

	(void)state;
	healthy(b->sim);
	b->fw.plat.rsdp = acpi_good(&b->mem);
	assert_int_equal(bfx_run(b, true, "", conf_boot, 0), 0);
	check_console(b, NULL, 0, __FILE__, __LINE__);
	/* the file's settings still count (fadt-mode = clear) */
	assert_has_line(b->text, "aspm decision fadt-no-aspm=1 fadt-valid=1 osc=granted override=none fadt-mode=clear action=clear osc-source=fallback");
	assert_has_line(b->text, "PCI: 2 function(s), 1 link(s), 1 root bus(es)");
	check_writes(b, 0);
	assert_int_equal(b->fw.nchain, 0);
	assert_int_equal(b->fw.npublish, 0);
	assert_int_equal(b->fw.nfile, 0);
	assert_null(strstr(b->text, "aspm summary"));
	bfx_free(b);
}

/* the same from the Shell with an explicit command: the file's settings
 * (fadt-mode = clear) count */
static void test_shell_command_uses_conf_settings(void **state)
{
	struct bfx *b = bfx_new();

	(void)state;
	healthy(b->sim);
	b->fw.plat.rsdp = acpi_good(&b->mem);
	assert_int_equal(bfx_run(b, true, "plan", conf_boot, 0), 0);
	assert_has_line(b->text, "aspm decision fadt-no-aspm=1 fadt-valid=1 osc=granted override=none fadt-mode=clear action=clear osc-source=fallback");
	check_writes(b, 0);
	assert_int_equal(b->fw.nchain, 0);
	assert_int_equal(b->fw.npublish, 0);
	bfx_free(b);
}

static const char conf_bad_value[] =
	"command = boot\npolicy = sometimes\nnext = " NEXT "\nnext-options = " NEXT_OPTS "\n";

/* The Shell, no command, a bad file: a usage error, nothing run. */
static void test_shell_bad_conf(void **state)
{
	struct bfx *b = bfx_new();

	(void)state;
	healthy(b->sim);
	b->fw.plat.rsdp = acpi_good(&b->mem);
	assert_int_equal(bfx_run(b, true, "", conf_bad_value, 0), -AE_INVAL);
	assert_console(b,
		"aspmctl: error: " CONF_PATH_S ": --policy: expected auto, keep, clear, force, notouch, default, performance, powersave or powersupersave, got 'sometimes' (invalid)",
		"aspmctl: report: nothing done: fix " CONF_PATH_S " or give boot");
	assert_int_equal(b->sim->reads, 0);
	assert_int_equal(b->fw.nchain, 0);
	bfx_free(b);
}

/* A boot entry whose file is bad: fail open with the file's next loader. */
static void test_boot_entry_bad_conf(void **state)
{
	struct bfx *b = bfx_new();
	int rc;

	(void)state;
	healthy(b->sim);
	b->fw.plat.rsdp = acpi_good(&b->mem);
	rc = bfx_run(b, false, "", conf_bad_value, 0);
	assert_console(b,
		"aspmctl: error: " CONF_PATH_S ": --policy: expected auto, keep, clear, force, notouch, default, performance, powersave or powersupersave, got 'sometimes' (invalid)",
		"aspmctl: configuration unusable: ASPM left as it is",
		"aspmctl: wrote " RESULTS "\\boot.txt (%u bytes)");
	check_writes(b, 0);
	check_booted(b, rc, "aspmctl unknown action=none links=1 written=0 ignored=0 errors=0 status=invalid next=" NEXT UNCOUNTED, false);
	bfx_free(b);
}

/* An explicit non-boot command from a boot entry: runs, then hands back
 * to the boot manager with an error (EFI_SUCCESS would stop at its menu). */
static void test_boot_entry_report(void **state)
{
	struct bfx *b = bfx_new();

	(void)state;
	healthy(b->sim);
	b->fw.plat.rsdp = acpi_good(&b->mem);
	assert_int_equal(bfx_run(b, false, "aspmctl.EFI report", NULL, -AE_NOENT), -AE_NOENT);
	assert_console(b, "aspmctl: 'report' from a boot entry starts no next loader: returning to the boot manager");
	check_writes(b, 0);
	assert_int_equal(b->fw.nchain, 0);
	bfx_free(b);
}

/* A boot entry whose load options hold only options: boot is the
 * default command there (no file needed). */
static void test_boot_entry_options_only(void **state)
{
	struct bfx *b = bfx_new();
	int rc;

	(void)state;
	healthy(b->sim);
	b->fw.plat.rsdp = acpi_good(&b->mem);
	rc = bfx_run(b, false, "--fadt-mode clear --next " NEXT " --next-options \"" NEXT_OPTS "\"",
		     NULL, -AE_NOENT);
	assert_console(b, WROTE_ALL);
	check_writes(b, 2);
	check_booted(b, rc, S_CLEAR, true);
	bfx_free(b);
}

/* ------------------------------------------------------------ boot counting */

#define BOOT_CLEAR	"--fadt-mode clear --dumps no --next " NEXT " --next-options \"" NEXT_OPTS "\""

static struct bfx *tries_boot(const char *opts, bool exists, uint32_t count,
			      int set_rc, int *rc)
{
	struct bfx *b = bfx_new();

	healthy(b->sim);
	b->fw.plat.rsdp = acpi_good(&b->mem);
	b->fw.counter_exists = exists;
	b->fw.counter = count;
	b->fw.counter_set_rc = set_rc;
	*rc = bfx_run(b, false, opts, NULL, -AE_NOENT);
	return b;
}

/* Each boot under a writing policy is counted before anything is written. */
static void test_tries_counted(void **state)
{
	int rc;
	struct bfx *b = tries_boot(BOOT_CLEAR, false, 0, 0, &rc);

	(void)state;
	check_writes(b, 2);
	assert_true(b->fw.counter_exists);
	assert_int_equal(b->fw.counter, 1);
	assert_has_line(b->text, "aspm tries unconfirmed=1 tries=3 fallback=none");
	check_booted(b, rc, S_CLEAR, false);
	bfx_free(b);
	/* the third unconfirmed boot still applies */
	b = tries_boot(BOOT_CLEAR, true, 2, 0, &rc);
	check_writes(b, 2);
	assert_int_equal(b->fw.counter, 3);
	assert_string_equal(b->fw.published,
			    "aspmctl unknown action=clear links=1 written=2 ignored=0 errors=0 status=ok next=" NEXT
			    " unconfirmed=3 tries=3 fallback=none");
	bfx_free(b);
}

/* After `tries` unconfirmed boots, nothing is applied and the boot goes on. */
static void test_tries_exhausted(void **state)
{
	static const char *const sum =
		"aspmctl unknown action=none links=1 written=0 ignored=0 errors=0 status=ok next=" NEXT
		" unconfirmed=3 tries=3 fallback=unconfirmed-boots";
	int rc;
	struct bfx *b = tries_boot(BOOT_CLEAR, true, 3, 0, &rc);

	(void)state;
	check_writes(b, 0);
	assert_int_equal(b->fw.ncounter_set, 0);
	assert_int_equal(b->fw.counter, 3);
	assert_has_line(b->text, "aspm tries unconfirmed=3 tries=3 fallback=unconfirmed-boots");
	assert_has_line(b->text, "aspmctl: warning: 3 boots in a row were not confirmed ('aspmctl bless' on Linux): nothing applied, ASPM left as the BIOS set it");
	assert_null(strstr(b->text, "aspm write "));
	check_booted(b, rc, sum, false);
	bfx_free(b);
	/* tries = 1 in the configuration: one unconfirmed boot is enough */
	b = bfx_new();
	healthy(b->sim);
	b->fw.plat.rsdp = acpi_good(&b->mem);
	b->fw.counter_exists = true;
	b->fw.counter = 1;
	rc = bfx_run(b, false, NULL, "next = " NEXT "\nnext-options = " NEXT_OPTS "\nfadt-mode = clear\ndumps = no\ntries = 1\n", 0);
	check_writes(b, 0);
	assert_has_line(b->text, "aspm tries unconfirmed=1 tries=1 fallback=unconfirmed-boots");
	assert_int_equal(b->fw.nchain, 1);
	bfx_free(b);
}

/* A variable store that refuses the counter does not stop the boot; a
 * boot that cannot be counted applies nothing. */
static void test_tries_store_refuses(void **state)
{
	int rc;
	struct bfx *b = tries_boot(BOOT_CLEAR, false, 0, -AE_IO, &rc);

	(void)state;
	check_writes(b, 0);
	assert_int_equal(b->fw.ncounter_set, 1);
	assert_has_line(b->text, "aspm tries unconfirmed=1 tries=3 fallback=counter-unusable");
	assert_has_line(b->text, "aspmctl: warning: this boot cannot be counted: nothing applied, ASPM left as the BIOS set it (--tries 0 applies without counting)");
	check_booted(b, rc, "aspmctl unknown action=none links=1 written=0 ignored=0 errors=0 status=ok next=" NEXT
		     " unconfirmed=1 tries=3 fallback=counter-unusable", false);
	bfx_free(b);
	/* nor one that cannot be read */
	b = bfx_new();
	healthy(b->sim);
	b->fw.plat.rsdp = acpi_good(&b->mem);
	b->fw.counter_get_rc = -AE_INVAL;
	rc = bfx_run(b, false, BOOT_CLEAR, NULL, -AE_NOENT);
	check_writes(b, 0);
	assert_int_equal(b->fw.ncounter_set, 0);
	assert_has_line(b->text, "aspm tries unconfirmed=- tries=3 fallback=counter-unusable");
	assert_int_equal(b->fw.nchain, 1);
	bfx_free(b);
}

/* notouch writes nothing and is not counted; --tries 0 turns counting off. */
static void test_tries_not_counted(void **state)
{
	int rc;
	struct bfx *b = tries_boot("--policy notouch --dumps no --next " NEXT " --next-options \"" NEXT_OPTS "\"", true, 7, 0, &rc);

	(void)state;
	check_writes(b, 0);
	assert_int_equal(b->fw.ncounter_set, 0);
	assert_has_line(b->text, "aspm tries unconfirmed=- tries=0 fallback=none");
	bfx_free(b);
	b = tries_boot("--tries 0 " BOOT_CLEAR, true, 7, 0, &rc);
	check_writes(b, 2);
	assert_int_equal(b->fw.ncounter_set, 0);
	assert_int_equal(b->fw.counter, 7);
	check_booted(b, rc, "aspmctl unknown action=clear links=1 written=2 ignored=0 errors=0 status=ok next=" NEXT
		     UNCOUNTED, false);
	bfx_free(b);
}

/* The decision alone, over every counter state. */
static void test_tries_decide(void **state)
{
	static const struct {
		unsigned limit; int get_rc; uint32_t count;
		bool store; uint32_t stored; long long unconfirmed; enum boot_fallback fb;
	} c[] = {
		{ 3, -AE_NOENT, 99, true, 1, 1, FALLBACK_NONE },
		{ 3, 0, 0, true, 1, 1, FALLBACK_NONE },
		{ 3, 0, 2, true, 3, 3, FALLBACK_NONE },
		{ 3, 0, 3, false, 0, 3, FALLBACK_UNCONFIRMED },
		{ 3, 0, 0xffffffff, false, 0, 0xffffffff, FALLBACK_UNCONFIRMED },
		{ 3, -AE_IO, 0, false, 0, -1, FALLBACK_COUNTER },
		{ 0, -AE_IO, 5, false, 0, -1, FALLBACK_NONE },
		{ 1, 0, 0, true, 1, 1, FALLBACK_NONE },
		{ 1, 0, 1, false, 0, 1, FALLBACK_UNCONFIRMED },
	};

	(void)state;
	for (unsigned i = 0; i < ARRAY_SIZE(c); i++) {
		struct boot_tries t;
		uint32_t st = 0;

		assert_int_equal(tries_decide(c[i].limit, c[i].get_rc, c[i].count, &t, &st), c[i].store);
		assert_int_equal(st, c[i].stored);
		assert_int_equal(t.unconfirmed, c[i].unconfirmed);
		assert_int_equal(t.fallback, c[i].fb);
		assert_int_equal(t.limit, c[i].limit);
	}
}

/* --dumps no: the policy runs and the boot goes on, without the two
 * config dumps (they cost most of the chainloader's time on big machines). */
static void test_boot_without_dumps(void **state)
{
	struct bfx *b = bfx_new();
	int rc;

	(void)state;
	healthy(b->sim);
	b->fw.plat.rsdp = acpi_good(&b->mem);
	rc = bfx_run(b, false, "--fadt-mode clear --dumps no --next " NEXT
		     " --next-options \"" NEXT_OPTS "\"", NULL, -AE_NOENT);
	assert_console(b, WROTE("boot.txt"));
	check_writes(b, 2);
	check_booted(b, rc, S_CLEAR, false);
	assert_null(strstr(b->text, "aspm dump "));
	bfx_free(b);
}

/* Load options the parser refuses, the file says boot: fail open. */
static void test_bad_load_options_fail_open(void **state)
{
	struct bfx *b = bfx_new();
	int rc;

	(void)state;
	healthy(b->sim);
	b->fw.plat.rsdp = acpi_good(&b->mem);
	rc = bfx_run(b, false, "--bogus", conf_boot, 0);
	assert_console(b,
		"aspmctl: error: unknown option '--bogus' (try -h)",
		"aspmctl: load options ignored: booting with aspmctl.conf's next loader",
		"aspmctl: load options unusable: ASPM left as it is",
		"aspmctl: wrote " RESULTS "\\boot.txt (%u bytes)");
	check_writes(b, 0);
	check_booted(b, rc, "aspmctl unknown action=none links=1 written=0 ignored=0 errors=0 status=invalid next=" NEXT UNCOUNTED, false);
	bfx_free(b);
}

/* Load options too long (get_args refused them): the same. */
static void test_long_load_options_fail_open(void **state)
{
	static char *argv[1];
	struct app_args in = { .argc = -AE_2BIG, .argv = argv,
			       .arg_error = "load options longer than 1023 characters",
			       .conf = conf_boot };
	struct bfx *b = bfx_new();
	int rc;

	(void)state;
	healthy(b->sim);
	b->fw.plat.rsdp = acpi_good(&b->mem);
	rc = app_main(&b->app, &in);
	assert_console(b,
		"aspmctl: error: load options longer than 1023 characters",
		"aspmctl: load options ignored: booting with aspmctl.conf's next loader",
		"aspmctl: load options unusable: ASPM left as it is",
		"aspmctl: wrote " RESULTS "\\boot.txt (%u bytes)");
	check_writes(b, 0);
	check_booted(b, rc, "aspmctl unknown action=none links=1 written=0 ignored=0 errors=0 status=invalid next=" NEXT UNCOUNTED, false);
	bfx_free(b);
}

/* Without "command = boot" in the file, bad load options are a usage
 * error, in a boot entry as in the Shell. */
static void test_bad_load_options_usage_error(void **state)
{
	struct bfx *b = bfx_new();

	(void)state;
	healthy(b->sim);
	b->fw.plat.rsdp = acpi_good(&b->mem);
	assert_int_equal(bfx_run(b, false, "plan --policy sometimes", "fadt-mode = clear\n", 0),
			 -AE_INVAL);
	assert_console(b, "aspmctl: error: --policy: expected auto, keep, clear, force, notouch, default, performance, powersave or powersupersave, got 'sometimes'");
	assert_int_equal(b->sim->reads, 0);
	assert_int_equal(b->fw.nchain, 0);
	assert_int_equal(b->fw.npublish, 0);
	bfx_free(b);
}

/* The next loader cannot be started: say so, return an error so that
 * the boot manager tries the next boot option, and record why in a
 * second summary line, on the console, in boot.txt and the variable. */
static void test_chainload_fails(void **state)
{
	struct bfx *b = bfx_new();
	const char *bt;

	(void)state;
	healthy(b->sim);
	b->fw.plat.rsdp = acpi_good(&b->mem);
	b->fw.chain_rc = -AE_NOENT;
	assert_int_equal(bfx_run(b, false, "", conf_boot, 0), -AE_NOENT);
	assert_console(b, WROTE_ALL, "aspmctl: returning to the boot manager",
		       WROTE("boot.txt"));
	assert_int_equal(b->fw.nchain, 1);
	assert_false(b->app.chainloaded);
	assert_string_equal(b->fw.published, S_CLEAR " chainload=not-found");
	assert_int_equal(b->fw.npublish, 2);
	bt = bfx_file(b, RESULTS "\\boot.txt");
	assert_non_null(bt);
	assert_non_null(strstr(bt, "aspm summary " S_CLEAR "\n"));
	assert_non_null(strstr(bt, "fake: started " NEXT "\naspmctl: returning to the boot manager\n"
			       "aspm summary " S_CLEAR " chainload=not-found\n"));
	bfx_free(b);
}

/* Secure Boot refuses the next loader (LoadImage: EFI_ACCESS_DENIED or
 * EFI_SECURITY_VIOLATION, efi/chainload.c): the refusal is the app's
 * status, so the boot manager says "Access Denied" and goes on. */
static void test_chainload_refused(void **state)
{
	struct bfx *b = bfx_new();
	const char *bt;

	(void)state;
	healthy(b->sim);
	b->fw.plat.rsdp = acpi_good(&b->mem);
	b->fw.chain_rc = -AE_ACCES;
	assert_int_equal(bfx_run(b, false, "", conf_boot, 0), -AE_ACCES);
	assert_false(b->app.chainloaded);
	assert_string_equal(b->fw.published, S_CLEAR " chainload=refused");
	bt = bfx_file(b, RESULTS "\\boot.txt");
	assert_non_null(bt);
	assert_non_null(strstr(bt, "aspm summary " S_CLEAR " chainload=refused\n"));
	bfx_free(b);
}

/* A loader that starts and returns success: one summary, published once,
 * boot.txt as it was before the chainload. */
static void test_chainload_returns(void **state)
{
	struct bfx *b = bfx_new();
	const char *bt;

	(void)state;
	healthy(b->sim);
	b->fw.plat.rsdp = acpi_good(&b->mem);
	assert_int_equal(bfx_run(b, false, "", conf_boot, 0), 0);
	assert_int_equal(b->fw.npublish, 1);
	assert_string_equal(b->fw.published, S_CLEAR);
	bt = bfx_file(b, RESULTS "\\boot.txt");
	assert_non_null(bt);
	assert_null(strstr(bt, "chainload="));
	assert_null(strstr(bt, "fake: started"));
	bfx_free(b);
}

/* ------------------------------------------------------------ Secure Boot */

/* report and boot print the Secure Boot state as one record; who
 * verified the image follows from SecureBoot and shim's presence. */
static void test_secure_boot_record(void **state)
{
	static const struct {
		struct sb_state sb;
		const char *rec;
	} c[] = {
		{ { 1, 0, 0 }, "aspm secureboot secureboot=1 setupmode=0 verified=firmware" },
		{ { 1, 0, 1 }, "aspm secureboot secureboot=1 setupmode=0 verified=shim" },
		{ { 0, 1, 0 }, "aspm secureboot secureboot=0 setupmode=1 verified=no" },
		{ { 0, 0, 1 }, "aspm secureboot secureboot=0 setupmode=0 verified=no" },
		{ { -1, -1, 0 }, "aspm secureboot secureboot=- setupmode=- verified=-" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct bfx *b = bfx_new();

		healthy(b->sim);
		b->fw.plat.rsdp = acpi_good(&b->mem);
		b->fw.sb = c[i].sb;
		assert_int_equal(bfx_run(b, true, "report", NULL, -AE_NOENT), 0);
		assert_has_line(b->text, c[i].rec);
		bfx_free(b);
		/* boot mode: the same record, in boot.txt too */
		b = bfx_new();
		healthy(b->sim);
		b->fw.plat.rsdp = acpi_good(&b->mem);
		b->fw.sb = c[i].sb;
		assert_int_equal(bfx_run(b, false, "", conf_boot, 0), 0);
		assert_has_line(b->text, c[i].rec);
		assert_has_line(bfx_file(b, RESULTS "\\boot.txt"), c[i].rec);
		bfx_free(b);
	}
}

/* No firmware service (the host build): the state is unknown, never
 * guessed; plan and apply print no such record. */
static void test_secure_boot_unknown(void **state)
{
	struct bfx *b = bfx_new();

	(void)state;
	healthy(b->sim);
	b->fw.plat.rsdp = acpi_good(&b->mem);
	b->fw.ops.secure_boot = NULL;
	assert_int_equal(bfx_run(b, true, "report", NULL, -AE_NOENT), 0);
	assert_has_line(b->text, "aspm secureboot secureboot=- setupmode=- verified=-");
	bfx_free(b);
	b = bfx_new();
	healthy(b->sim);
	b->fw.plat.rsdp = acpi_good(&b->mem);
	b->fw.sb = (struct sb_state){ 1, 0, 0 };
	assert_int_equal(bfx_run(b, true, "plan", NULL, -AE_NOENT), 0);
	assert_null(strstr(b->text, "aspm secureboot"));
	bfx_free(b);
}

/* ------------------------------------------------------------ files */

/* Result files that do not fit: a recorded error, the boot goes on. */
static void test_boot_files_do_not_fit(void **state)
{
	struct bfx *b = bfx_new();
	int rc;

	(void)state;
	healthy(b->sim);
	b->fw.plat.rsdp = acpi_good(&b->mem);
	b->app.dump_max = 4096;
	b->app.file_max = 512;
	rc = bfx_run(b, false, "", conf_boot, 0);
	assert_console(b,
		"aspmctl: error: " RESULTS "\\config-before.txt: incomplete: 23095 bytes did not fit the 4096-byte buffer (no space)",
		"aspmctl: error: " RESULTS "\\config-after.txt: incomplete: 23095 bytes did not fit the 4096-byte buffer (no space)",
		"aspmctl: error: " RESULTS "\\boot.txt: incomplete: %u bytes did not fit the 512-byte buffer (no space)",
		"aspmctl: results not (completely) written to the ESP; continuing");
	check_writes(b, 2);
	assert_int_equal(rc, 0);
	assert_int_equal(b->fw.nchain, 1);
	assert_string_equal(b->fw.published,
			    "aspmctl unknown action=clear links=1 written=2 ignored=0 errors=0 status=no-space next=" NEXT COUNTED);
	/* what fit was written: no older file passes for this run's */
	assert_int_equal(strlen(bfx_file(b, RESULTS "\\boot.txt")), 511);
	assert_int_equal(strlen(bfx_file(b, RESULTS "\\config-before.txt")), 4095);
	bfx_free(b);
}

/* dump: its figures, and a dump that does not fit is an error. */
static void test_dump_command(void **state)
{
	struct bfx *b = bfx_new();

	(void)state;
	healthy(b->sim);
	b->fw.plat.rsdp = acpi_good(&b->mem);
	assert_int_equal(bfx_run(b, true, "dump", NULL, -AE_NOENT), 0);
	assert_console(b, "aspmctl: wrote \\EFI\\aspmctl\\dump\\config.txt (27190 bytes)");
	assert_has_line(b->text, "aspm dump functions=2 reads=2101 writes=0 time=1.000us file=\\EFI\\aspmctl\\dump\\config.txt");
	assert_true(has_line_fmt(b->text, "aspm fn-link 0000:00:01.0 lnkcap=0x%x support=L0s,L1 l0s-exit=128ns l1-exit=2.000us clkpm=no lnkctl=0x0002 aspm=L1 ccc=no clkreq=no"));
	check_writes(b, 0);
	bfx_free(b);

	b = bfx_new();
	healthy(b->sim);
	b->fw.plat.rsdp = acpi_good(&b->mem);
	b->app.file_max = 1000;
	assert_int_equal(bfx_run(b, true, "dump", NULL, -AE_NOENT), -AE_NOSPC);
	assert_console(b, "aspmctl: error: \\EFI\\aspmctl\\dump\\config.txt: incomplete: 26191 bytes did not fit the 1000-byte buffer (no space)");
	bfx_free(b);
}

static void test_fadt_command(void **state)
{
	struct bfx *b = bfx_new();
	uint64_t fadt;

	(void)state;
	b->fw.plat.rsdp = acpi_good(&b->mem);
	fadt = get_le64(fake_ptr(&b->mem, get_le64(fake_ptr(&b->mem, b->fw.plat.rsdp) + 24)) + ACPI_HDR_LEN);
	assert_int_equal(bfx_run(b, true, "fadt --clear-no-aspm", NULL, -AE_NOENT), 0);
	assert_true(has_line_fmt(b->text, "aspm fadt at=0x%x root=XSDT length=%u before=0x0010 after=0x0000 result=ok"));
	assert_has_line(b->text, "aspm stats reads=0 writes=0 refused-writes=0 errors=0 written=0 ignored=0 time=1.000us enum-time=-");
	assert_int_equal(get_le16(fake_ptr(&b->mem, fadt) + FADT_IAPC_BOOT_ARCH_OFF), 0);
	assert_int_equal(b->sim->reads, 0);
	bfx_free(b);
}

/* ------------------------------------------------------------ load options */

static void test_decode_options(void **state)
{
	static const uint8_t ucs2[] = { 'b', 0, 'o', 0, 'o', 0, 't', 0, ' ', 0, '-', 0, 'v', 0, 0, 0 };
	static const char ascii_odd[] = "report -v";	/* 9 bytes, no NUL */
	static const char ascii_even[] = "plan";	/* 4 bytes + NUL = 5 */
	/* OVMF's auto-created boot options carry a GUID as OptionalData */
	static const uint8_t guid[16] = { 0xe8, 0x3e, 0x5c, 0x1f, 0x02, 0x2a, 0x2d, 0x4f,
					  0x8b, 0x61, 0x5d, 0x2f, 0x94, 0xd7, 0xb2, 0x11 };
	char line[32], *argv[8];

	(void)state;
	assert_int_equal(boot_decode_options(ucs2, sizeof(ucs2), line, sizeof(line)), 7);
	assert_string_equal(line, "boot -v");
	assert_int_equal(boot_decode_options(ascii_odd, 9, line, sizeof(line)), 9);
	assert_string_equal(line, "report -v");
	assert_int_equal(boot_decode_options(ascii_even, 4, line, sizeof(line)), 4);
	assert_string_equal(line, "plan");
	assert_int_equal(boot_decode_options(ascii_even, 5, line, sizeof(line)), 4);
	assert_string_equal(line, "plan");
	/* "re" as one UCS-2 unit would be U+6572: two ASCII bytes, not CJK */
	assert_int_equal(boot_decode_options("re", 2, line, sizeof(line)), 2);
	assert_string_equal(line, "re");
	assert_int_equal(boot_decode_options(guid, sizeof(guid), line, sizeof(line)), 0);
	assert_string_equal(line, "");
	assert_int_equal(boot_decode_options(NULL, 0, line, sizeof(line)), 0);
	/* never cut: 31 characters fit 32 bytes, 32 do not */
	assert_int_equal(boot_decode_options("0123456789012345678901234567890", 31, line,
					     sizeof(line)), 31);
	assert_int_equal(boot_decode_options("01234567890123456789012345678901", 32, line,
					     sizeof(line)), -AE_2BIG);
	/* the program's own name goes, in any case */
	strcpy(line, "ASPMCTL.Efi report -v");
	assert_int_equal(boot_split_options(line, argv, 8), 2);
	assert_string_equal(argv[0], "report");
	strcpy(line, "a b c d e f g h i");
	assert_int_equal(boot_split_options(line, argv, 8), -AE_2BIG);
}

int main(void)
{
	static struct CMUnitTest tests[64];
	unsigned n = 0;

	for (unsigned i = 0; i < ARRAY_SIZE(acpi_cases); i++)
		tests[n++] = (struct CMUnitTest){ .name = acpi_cases[i].name,
						  .test_func = test_acpi_case,
						  .initial_state = (void *)&acpi_cases[i] };
	for (uintptr_t i = 0; i < HOSTILE_NCASES; i++)
		tests[n++] = (struct CMUnitTest){ .name = hostile_cases[i].name,
						  .test_func = test_config_case,
						  .initial_state = (void *)i };
#define T(f)	tests[n++] = (struct CMUnitTest){ .name = #f, .test_func = f }
	T(test_boot_entry_without_conf);
	T(test_shell_ignores_conf_command);
	T(test_shell_command_uses_conf_settings);
	T(test_shell_bad_conf);
	T(test_boot_entry_bad_conf);
	T(test_boot_entry_report);
	T(test_boot_entry_options_only);
	T(test_boot_without_dumps);
	T(test_bad_load_options_fail_open);
	T(test_long_load_options_fail_open);
	T(test_bad_load_options_usage_error);
	T(test_chainload_fails);
	T(test_chainload_refused);
	T(test_chainload_returns);
	T(test_secure_boot_record);
	T(test_secure_boot_unknown);
	T(test_boot_files_do_not_fit);
	T(test_tries_counted);
	T(test_tries_exhausted);
	T(test_tries_store_refuses);
	T(test_tries_not_counted);
	T(test_tries_decide);
	T(test_dump_command);
	T(test_fadt_command);
	T(test_decode_options);
#undef T
	return _cmocka_run_group_tests("boot", tests, n, NULL, NULL);
}
