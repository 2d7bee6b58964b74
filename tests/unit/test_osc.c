// SPDX-License-Identifier: GPL-2.0-only
/*
 * osc_query() (acpi/aml: ACPICA with aspmctl's OS services layer and
 * guarded regions) over the ASL tables of tests/aml, compiled by iasl at
 * test time into $ASPMCTL_AML_TABLES (tests/aml/aml.mk; `make unit` sets
 * it). Each test states what Linux 6.1's negotiate_os_control() would
 * conclude on that table (the table's own comment says why) and checks
 * the report field by field: outcome, reason, control mask, number of
 * queries, bus range, and every region access AML made.
 *
 * The platform is in memory: a counting heap (every byte the interpreter
 * takes must be given back when osc_query() returns), a SystemMemory
 * whose one register the test sets, and a config space with one host
 * bridge whose Vendor ID the test sets.
 */
#define _GNU_SOURCE	/* memmem */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common.h"
#include "../../lib/err.h"
#include "../../acpi/aml/aml.h"
#include "../../pcie/cfg.h"
#define COUNT_HEAP_CHECK(cond) assert_true(cond)
#include "../lib/count_heap.h"

/* ------------------------------------------------------------ platform */

static struct count_heap heap;

/* SystemMemory: the register osc-mem-read.asl reads; elsewhere absent */
static uint32_t mem_fed00000;
static unsigned mem_reads;

static int m_read(void *ctx, uint64_t phys, unsigned width, uint64_t *val)
{
	(void)ctx;
	mem_reads++;
	if (phys != 0xfed00000ull || width > 32)
		return -1;
	*val = width == 32 ? mem_fed00000 : mem_fed00000 & ((1u << width) - 1);
	return 0;
}

/* config space: 00:00.0 has vendor cfg_vendor, device 0x29c0; the rest
 * reads all-ones (no device) */
static uint16_t cfg_vendor;
static unsigned cfg_writes;

static int c_read(void *ctx, struct pci_addr a, uint16_t off, unsigned width, uint32_t *val)
{
	uint32_t v = 0xffffffffu;

	(void)ctx;
	if (a.seg == 0 && a.bus == 0 && a.devfn == 0)
		v = off < 4 ? (0x29c0u << 16 | cfg_vendor) : 0;
	if (width < 4)
		v = (v >> (8 * (off & 3))) & ((1u << (8 * width)) - 1);
	*val = v;
	return 0;
}

static int c_write(void *ctx, struct pci_addr a, uint16_t off, unsigned width, uint32_t val)
{
	(void)ctx;
	(void)a;
	(void)off;
	(void)width;
	(void)val;
	cfg_writes++;
	return 0;
}

static const struct pci_cfg_ops c_ops = { c_read, c_write };
static struct pci_cfg cfg;

static char acpica_log[8192];

static void p_log(void *ctx, const char *line)
{
	size_t n = strlen(acpica_log);

	(void)ctx;
	snprintf(acpica_log + n, sizeof(acpica_log) - n, "%s\n", line);
}

/* the default platform: memory and config reads possible */
static struct aml_platform plat_full(void)
{
	struct aml_platform p = { 0 };

	p.alloc = count_heap_alloc;
	p.free = count_heap_free;
	p.mem_read = m_read;
	p.cfg = &cfg;
	p.log = p_log;
	p.ctx = &heap;
	return p;
}

static int setup(void **state)
{
	(void)state;
	memset(&heap, 0, sizeof(heap));
	heap.fail_after = -1;
	mem_fed00000 = 1;
	mem_reads = 0;
	cfg_vendor = 0x8086;
	cfg_writes = 0;
	acpica_log[0] = 0;
	pci_cfg_init(&cfg, &c_ops, NULL);
	return 0;
}

/* ------------------------------------------------------------ tables */

struct blob {
	unsigned char *data;
	size_t len;
};

static struct blob blob_load(const char *name)
{
	const char *dir = getenv("ASPMCTL_AML_TABLES");
	char path[512];
	struct blob b = { 0 };
	FILE *f;
	long n;

	if (!dir || !*dir)
		fail_msg("ASPMCTL_AML_TABLES is not set: run `make unit` (tests/aml/aml.mk "
			 "compiles tests/aml/*.asl there)");
	snprintf(path, sizeof(path), "%s/%s.aml", dir, name);
	f = fopen(path, "rb");
	if (!f)
		fail_msg("cannot open %s (built by tests/aml/aml.mk)", path);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	assert_true(n >= 36);
	rewind(f);
	b.len = (size_t)n;
	b.data = malloc(b.len);
	assert_non_null(b.data);
	assert_int_equal(fread(b.data, 1, b.len, f), b.len);
	fclose(f);
	return b;
}

/* table header fields after an edit: length and checksum (ACPI 6.5 sec 5.2.6) */
static void blob_fix(struct blob *b)
{
	unsigned char sum = 0;
	size_t i;

	b->data[4] = (unsigned char)b->len;
	b->data[5] = (unsigned char)(b->len >> 8);
	b->data[6] = (unsigned char)(b->len >> 16);
	b->data[7] = (unsigned char)(b->len >> 24);
	b->data[9] = 0;
	for (i = 0; i < b->len; i++)
		sum = (unsigned char)(sum + b->data[i]);
	b->data[9] = (unsigned char)(0x100 - sum);
}

static struct osc_report report;

static void dump(const struct osc_report *r)
{
	char c[96];
	unsigned i;

	fprintf(stderr, "load_err=%d load_reason=%s ntables=%u machine=%s (%s) naccess=%u/%u\n",
		r->load_err, r->load_reason, r->ntables, osc_outcome_name(r->machine),
		r->machine_reason, r->naccess, r->naccess_total);
	for (i = 0; i < r->nbridges; i++) {
		const struct osc_bridge *b = &r->bridge[i];

		fprintf(stderr, "  %s hid=%s seg=%u bus=%02x-%02x crs=%d osc=%d %s reason=%s "
			"status=%s dword=%#x queries=%u control=%s\n", b->path, b->hid, b->seg,
			b->bus_start, b->bus_end, b->bus_from_crs, b->has_osc,
			osc_outcome_name(b->outcome), b->reason, b->status ? b->status : "-",
			b->status_dword, b->queries, osc_control_str(b->control, c, sizeof(c)));
	}
	for (i = 0; i < r->naccess; i++)
		fprintf(stderr, "  access %s %s w=%u addr=%#llx val=%#llx refused=%d in %s\n",
			aml_space_name(r->access[i].space), r->access[i].write ? "write" : "read",
			r->access[i].width, (unsigned long long)r->access[i].addr,
			(unsigned long long)r->access[i].value, r->access[i].refused,
			r->access[i].method);
	fprintf(stderr, "%s", acpica_log);
}

/* osc_query() over the named tables (the first is the DSDT); the heap
 * must be empty again afterwards */
static int query_with(const char *const *names, unsigned n, const struct aml_platform *p,
		      const struct osc_request *req)
{
	struct aml_table t[4];
	struct blob b[4];
	unsigned i;
	int rc;

	assert_true(n <= 4);
	for (i = 0; i < n; i++) {
		b[i] = blob_load(names[i]);
		t[i].data = b[i].data;
		t[i].len = b[i].len;
	}
	acpica_log[0] = 0;
	rc = osc_query(t, n, p, req, &report);
	for (i = 0; i < n; i++)
		free(b[i].data);
	if (heap.live)
		dump(&report);
	assert_int_equal(heap.live, 0);
	assert_int_equal(cfg_writes, 0);
	return rc;
}

static void query1(const char *name)
{
	struct aml_platform p = plat_full();
	int rc = query_with(&name, 1, &p, NULL);

	if (rc)
		dump(&report);
	assert_int_equal(rc, 0);
}

static const struct osc_bridge *bridge(const char *path)
{
	unsigned i;

	for (i = 0; i < report.nbridges; i++)
		if (!strcmp(report.bridge[i].path, path))
			return &report.bridge[i];
	dump(&report);
	fail_msg("no bridge %s in the report", path);
	return NULL;
}

#define expect(cond) do {						\
	if (!(cond)) {							\
		dump(&report);						\
		fail_msg("expected %s", #cond);				\
	}								\
} while (0)

#define ALL	OSC_DEBIAN_CONTROL

/* one bridge with that outcome and reason; returns it */
static const struct osc_bridge *only(enum osc_outcome o, const char *reason)
{
	const struct osc_bridge *b;

	expect(report.nbridges == 1);
	b = &report.bridge[0];
	expect(b->outcome == o);
	expect(!strcmp(b->reason, reason));
	expect(report.machine == o);
	return b;
}

/* ------------------------------------------------------------ tests */

static void test_names(void **state)
{
	char buf[96];

	(void)state;
	assert_string_equal(osc_control_str(ALL, buf, sizeof(buf)),
			    "[PCIeHotplug SHPCHotplug PME AER PCIeCapability LTR DPC]");
	assert_string_equal(osc_control_str(0x14, buf, sizeof(buf)), "[PME PCIeCapability]");
	assert_string_equal(osc_control_str(0, buf, sizeof(buf)), "[]");
	assert_string_equal(osc_support_str(OSC_DEBIAN_SUPPORT, buf, sizeof(buf)),
			    "[ExtendedConfig ASPM ClockPM Segments MSI EDR HPX-Type3]");
	/* a short buffer is cut, never overrun, always terminated */
	memset(buf, 'x', sizeof(buf));
	osc_control_str(ALL, buf, 12);
	assert_true(memchr(buf, 0, 12) != NULL);
	assert_int_equal(buf[12], 'x');
	assert_string_equal(osc_outcome_name(OSC_OUT_SKIPPED), "skipped");
	assert_string_equal(aml_space_name(1), "SystemIO");
	assert_string_equal(aml_space_name(2), "PCI_Config");
	assert_string_equal(aml_space_name(3), "EmbeddedControl");
}

static void test_grant_all(void **state)
{
	const struct osc_bridge *b;

	(void)state;
	query1("grant-all");
	expect(report.ntables == 1 && report.load_err == 0 && !report.load_reason[0]);
	b = only(OSC_OUT_GRANTED, "");
	expect(!strcmp(b->path, "\\_SB_.PCI0"));
	expect(!strcmp(b->hid, "PNP0A08") && b->pcie);
	expect(b->has_osc && b->queries == 1);
	expect(b->support == OSC_DEBIAN_SUPPORT && b->requested == ALL && b->control == ALL);
	expect(b->seg == 0 && b->bus_start == 0 && b->bus_end == 0xff && b->bus_from_crs);
	expect(!strcmp(b->status, "AE_OK"));
	expect(report.naccess_total == 0 && b->accesses == 0);
	expect(report.mem_peak > 0 && report.mem_peak <= (32u << 20));
	assert_true(heap.allocs > 0);
}

static void test_request_masks(void **state)
{
	/* the test kernels' masks (docs/osc.md): what is offered is what
	 * grant-all hands back */
	static const struct osc_request kernels = { 0x11f, 0x35 };
	/* Support without ASPM: os_control_query_checks() fails, Linux asks
	 * no control; the query answers nothing, AE_OK, ASPM kept */
	static const struct osc_request no_aspm = { 0x11d, ALL };
	static const char *const name = "grant-all";
	struct aml_platform p = plat_full();
	const struct osc_bridge *b;

	(void)state;
	assert_int_equal(query_with(&name, 1, &p, &kernels), 0);
	b = only(OSC_OUT_GRANTED, "");
	expect(b->support == 0x11f && b->requested == 0x35 && b->control == 0x35);
	assert_int_equal(query_with(&name, 1, &p, &no_aspm), 0);
	b = only(OSC_OUT_GRANTED, "");
	expect(b->requested == 0 && b->control == 0 && b->queries == 1);
}

static void test_deny_pciecap(void **state)
{
	const struct osc_bridge *b;

	(void)state;
	query1("deny-pciecap");
	b = only(OSC_OUT_DENIED, "pcie-capability-not-granted");
	expect(!strcmp(b->status, "AE_SUPPORT"));
	expect(b->control == (ALL & ~OSC_PCI_EXPRESS_CAPABILITY_CONTROL));
	/* the first answer masked PCIe Capability control out (with the mask
	 * error, no error on a query); the second, asked for what was left,
	 * confirms it without the error bit */
	expect(b->queries == 2 && b->status_dword == OSC_QUERY_ENABLE);
	expect(!strcmp(report.machine_reason, "\\_SB_.PCI0:pcie-capability-not-granted"));
}

static void test_narrow(void **state)
{
	const struct osc_bridge *b;

	(void)state;
	query1("narrow");
	b = only(OSC_OUT_GRANTED, "");
	expect(b->queries == 2);
	expect(b->control == (ALL & ~(OSC_PCI_EXPRESS_LTR_CONTROL | OSC_PCI_EXPRESS_DPC_CONTROL)));
}

static void test_grant_nothing(void **state)
{
	const struct osc_bridge *b;

	(void)state;
	query1("grant-nothing");
	b = only(OSC_OUT_GRANTED, "");
	expect(b->control == 0 && b->queries == 1 && b->has_osc);
}

static void test_no_osc(void **state)
{
	const struct osc_bridge *b;

	(void)state;
	query1("no-osc-pcie");
	b = only(OSC_OUT_DENIED, "no-osc");
	expect(b->pcie && !b->has_osc && !strcmp(b->status, "AE_NOT_FOUND"));
	query1("no-osc-pci");
	b = only(OSC_OUT_DENIED, "no-osc");
	expect(!b->pcie && !b->has_osc && !strcmp(b->hid, "PNP0A03"));
}

static void test_bad_returns(void **state)
{
	const struct osc_bridge *b;

	(void)state;
	query1("osc-bad-length");
	b = only(OSC_OUT_DENIED, "osc-bad-return");
	expect(!strcmp(b->status, "AE_TYPE"));
	query1("osc-bad-type");
	b = only(OSC_OUT_DENIED, "osc-bad-return");
	expect(!strcmp(b->status, "AE_TYPE"));
	/* not repairable: never granted, always said why */
	query1("osc-bad-package");
	expect(report.nbridges == 1);
	b = &report.bridge[0];
	expect(b->outcome != OSC_OUT_GRANTED && b->reason[0]);
	/* a Package of three Integers is repaired into the 12-byte Buffer */
	query1("osc-repaired-package");
	b = only(OSC_OUT_GRANTED, "");
	expect(b->status_dword == 1 && b->control == ALL);
}

static void test_error_bits(void **state)
{
	const struct osc_bridge *b;

	(void)state;
	query1("osc-error-request");
	b = only(OSC_OUT_DENIED, "osc-error-bits");
	expect(b->status_dword == 3 && !strcmp(b->status, "AE_ERROR"));
	query1("osc-error-uuid");
	b = only(OSC_OUT_DENIED, "osc-error-bits");
	expect(b->status_dword == 5);
}

/* the one access of the report, in the evaluation named */
static const struct aml_access *the_access(const char *method)
{
	expect(report.naccess == 1 && report.naccess_total == 1);
	expect(!strcmp(report.access[0].method, method));
	return &report.access[0];
}

static void test_smi_write_refused(void **state)
{
	const struct aml_access *a;

	(void)state;
	query1("osc-smi");
	only(OSC_OUT_UNKNOWN, "write-SystemIO-0xb2");
	a = the_access("\\_SB_.PCI0._OSC");
	expect(a->space == 1 && a->write && a->refused && a->width == 8);
	expect(a->addr == 0xb2 && a->value == 0xa5);
	expect(osc_refused(&report) == 1);
	expect(!strcmp(report.machine_reason, "\\_SB_.PCI0:write-SystemIO-0xb2"));
}

static void test_mem_write_refused(void **state)
{
	const struct aml_access *a;

	(void)state;
	query1("osc-mem-write");
	only(OSC_OUT_UNKNOWN, "write-SystemMemory-0xfed40000");
	a = the_access("\\_SB_.PCI0._OSC");
	expect(a->space == 0 && a->write && a->refused && a->width == 32);
	expect(a->addr == 0xfed40000ull && a->value == 0x1234);
	/* a refused write never reads the platform's memory either */
	expect(mem_reads == 0);
}

static void test_ec_refused(void **state)
{
	const struct aml_access *a;

	(void)state;
	query1("osc-ec");
	only(OSC_OUT_UNKNOWN, "read-EmbeddedControl-0x30");
	a = the_access("\\_SB_.PCI0._OSC");
	expect(a->space == 3 && !a->write && a->refused && a->width == 8 && a->addr == 0x30);
}

static void test_module_level_write(void **state)
{
	const struct osc_bridge *b;
	const struct aml_access *a;

	(void)state;
	query1("mlc-write");
	a = the_access("load");
	expect(a->space == 1 && a->write && a->refused && a->addr == 0xb2);
	/* the bridge is still asked, and grants */
	b = only(OSC_OUT_GRANTED, "");
	expect(b->control == ALL && b->accesses == 0);
}

static void test_mem_read(void **state)
{
	static const char *const name = "osc-mem-read";
	struct aml_platform p = plat_full();
	const struct osc_bridge *b;
	const struct aml_access *a;

	(void)state;
	mem_fed00000 = 0x80000001u;
	query1(name);
	b = only(OSC_OUT_GRANTED, "");
	expect(b->control == ALL && b->accesses >= 1);
	a = &report.access[0];
	expect(a->space == 0 && !a->write && !a->refused && a->width == 32);
	expect(a->addr == 0xfed00000ull && a->value == 0x80000001u);
	expect(mem_reads >= 1);

	mem_fed00000 = 0x80000000u;
	query1(name);
	b = only(OSC_OUT_DENIED, "pcie-capability-not-granted");

	/* a platform that cannot read memory: the read is refused */
	p.mem_read = NULL;
	assert_int_equal(query_with(&name, 1, &p, NULL), 0);
	b = only(OSC_OUT_UNKNOWN, "read-SystemMemory-0xfed00000");
	expect(report.access[0].refused && !report.access[0].write);

	/* an address the platform does not back (it returns an error): the
	 * read is refused, never made up */
	p = plat_full();
	p.mem_read = m_read;
	mem_reads = 0;
	{
		struct blob bl = blob_load(name);
		struct aml_table t;
		unsigned char *at = memmem(bl.data, bl.len, "\x0c\x00\x00\xd0\xfe", 5);

		/* the region's offset: DWordConst 0xFED00000 -> 0xFED01000 */
		assert_non_null(at);
		at[2] = 0x10;
		blob_fix(&bl);
		t.data = bl.data;
		t.len = bl.len;
		assert_int_equal(osc_query(&t, 1, &p, NULL, &report), 0);
		free(bl.data);
		assert_int_equal(heap.live, 0);
	}
	b = only(OSC_OUT_UNKNOWN, "read-SystemMemory-0xfed01000");
	expect(mem_reads == 1);
}

static void test_pci_config_read(void **state)
{
	static const char *const name = "osc-pci-config";
	struct aml_platform p = plat_full();
	const struct osc_bridge *b;
	const struct aml_access *a;

	(void)state;
	query1(name);
	b = only(OSC_OUT_GRANTED, "");
	expect(b->control == ALL);
	a = the_access("\\_SB_.PCI0._OSC");
	expect(a->space == 2 && !a->write && !a->refused && a->width == 16 && a->value == 0x8086);
	expect(cfg.reads >= 1 && cfg.writes == 0);

	cfg_vendor = 0x1022;
	query1(name);
	only(OSC_OUT_DENIED, "pcie-capability-not-granted");
	expect(report.access[0].value == 0x1022);

	p.cfg = NULL;
	assert_int_equal(query_with(&name, 1, &p, NULL), 0);
	expect(report.nbridges == 1 && report.bridge[0].outcome == OSC_OUT_UNKNOWN);
	expect(!strncmp(report.bridge[0].reason, "read-PCI_Config-", 16));
	expect(report.access[0].refused);
}

static void test_loop_bounded(void **state)
{
	static const char *const name = "osc-loop";
	struct aml_platform p = plat_full();
	const struct osc_bridge *b;

	(void)state;
	p.loop_budget = 500;
	assert_int_equal(query_with(&name, 1, &p, NULL), 0);
	expect(report.nbridges == 1);
	b = &report.bridge[0];
	expect(b->outcome == OSC_OUT_UNKNOWN);
	expect(!strcmp(b->reason, "loop-timeout") || !strcmp(b->reason, "evaluation-budget"));
	expect(report.machine == OSC_OUT_UNKNOWN);
	/* the default budget ends it too */
	query1(name);
	expect(report.bridge[0].outcome == OSC_OUT_UNKNOWN);
}

/* the one bridge of table name, whose _OSC evaluation failed: unknown, with a reason */
static const struct osc_bridge *one_failed(const char *name)
{
	const struct osc_bridge *b;

	query1(name);
	expect(report.nbridges == 1);
	b = &report.bridge[0];
	expect(b->outcome == OSC_OUT_UNKNOWN && b->reason[0]);
	return b;
}

static void test_recursion_bounded(void **state)
{
	(void)state;
	one_failed("osc-recursion");
}

/* grant-all's bridge next to AML that once faulted: loads clean, granted as grant-all */
static void granted_as_grant_all(const char *name)
{
	const struct osc_bridge *b;

	query1(name);
	expect(report.load_err == 0 && !report.load_reason[0]);
	b = only(OSC_OUT_GRANTED, "");
	expect(b->control == ALL && b->queries == 1);
}

/* packages naming themselves or each other: no cycle stored, no fault at teardown */
static void test_package_cycle(void **state)
{
	(void)state;
	granted_as_grant_all("pkg-cycle");
}

/* a Method ending while the table load is inside a Device below it (MTH.X) */
static void test_method_child(void **state)
{
	(void)state;
	granted_as_grant_all("method-child");
}

/* package elements resolved after an enclosing package took its references */
static void test_package_late(void **state)
{
	(void)state;
	granted_as_grant_all("pkg-late");
}

/* a package element naming an Alias whose creation failed */
static void test_package_alias(void **state)
{
	(void)state;
	granted_as_grant_all("pkg-alias");
}

/* a reference chain running into a cycle ends the evaluation, not the machine */
static void test_reference_cycle(void **state)
{
	(void)state;
	expect(one_failed("osc-ref-cycle")->has_osc);
	expect(report.machine == OSC_OUT_UNKNOWN);
}

static void test_seg(void **state)
{
	const struct osc_bridge *b;

	(void)state;
	query1("seg");
	expect(report.nbridges == 3);
	b = bridge("\\_SB_.PCI0");
	expect(b->seg == 0 && b->outcome == OSC_OUT_GRANTED);
	b = bridge("\\_SB_.PCI1");
	expect(b->seg == 1 && b->outcome == OSC_OUT_GRANTED);
	expect(b->bus_start == 0 && b->bus_end == 0xff);
	b = bridge("\\_SB_.PCI2");
	expect(b->outcome == OSC_OUT_SKIPPED && !strcmp(b->reason, "seg-failed"));
	expect(b->queries == 0);
	expect(report.machine == OSC_OUT_GRANTED);
}

static void test_bus_range(void **state)
{
	const struct osc_bridge *b;

	(void)state;
	query1("bus-range");
	expect(report.nbridges == 3);
	b = bridge("\\_SB_.PCI0");
	expect(b->bus_from_crs && b->bus_start == 0x10 && b->bus_end == 0x3f);
	b = bridge("\\_SB_.PCI1");
	expect(!b->bus_from_crs && b->bus_start == 0x40 && b->bus_end == 0xff);
	b = bridge("\\_SB_.PCI2");
	expect(!b->bus_from_crs && b->bus_start == 0 && b->bus_end == 0xff);
	expect(report.machine == OSC_OUT_GRANTED);
}

static void test_sta_zero(void **state)
{
	const struct osc_bridge *b;

	(void)state;
	query1("sta-zero");
	expect(report.nbridges == 2);
	b = bridge("\\_SB_.PCI1");
	expect(b->outcome == OSC_OUT_SKIPPED && !strcmp(b->reason, "sta-not-present"));
	expect(b->sta == 0 && b->queries == 0);
	b = bridge("\\_SB_.PCI0");
	expect(b->outcome == OSC_OUT_GRANTED && b->control == ALL);
	expect(report.machine == OSC_OUT_GRANTED);
}

static void test_two_bridges(void **state)
{
	const struct osc_bridge *b;

	(void)state;
	query1("two-bridges");
	expect(report.nbridges == 2);
	b = bridge("\\_SB_.PCI0");
	expect(b->outcome == OSC_OUT_GRANTED && b->bus_start == 0 && b->bus_end == 0x7f);
	b = bridge("\\_SB_.PCI1");
	expect(b->outcome == OSC_OUT_DENIED && b->bus_start == 0x80 && b->bus_end == 0xff);
	expect(!strcmp(b->reason, "pcie-capability-not-granted"));
	expect(report.machine == OSC_OUT_DENIED);
	expect(!strcmp(report.machine_reason, "\\_SB_.PCI1:pcie-capability-not-granted"));
}

static void test_dsdt_and_ssdt(void **state)
{
	static const char *const both[] = { "dsdt-base", "ssdt-bridge" };
	static const char *const dsdt = "dsdt-base";
	struct aml_platform p = plat_full();

	(void)state;
	assert_int_equal(query_with(both, 2, &p, NULL), 0);
	expect(report.ntables == 2 && report.nbridges == 2);
	expect(bridge("\\_SB_.PCI0")->outcome == OSC_OUT_GRANTED);
	expect(bridge("\\_SB_.PCI1")->outcome == OSC_OUT_DENIED);
	expect(bridge("\\_SB_.PCI1")->bus_start == 0x80);
	expect(report.machine == OSC_OUT_DENIED);
	/* the DSDT alone: one bridge, granted */
	assert_int_equal(query_with(&dsdt, 1, &p, NULL), 0);
	expect(report.ntables == 1 && report.nbridges == 1);
	expect(report.machine == OSC_OUT_GRANTED);
}

/* ACPICA's globals are set up and torn down by every call: a query after
 * a failed or refused one answers as the first did */
static void test_reinit(void **state)
{
	struct osc_report first;
	unsigned i;

	(void)state;
	query1("two-bridges");
	first = report;
	for (i = 0; i < 3; i++) {
		query1("osc-smi");
		query1("osc-loop");
		query1("two-bridges");
		expect(report.nbridges == first.nbridges && report.machine == first.machine);
		expect(report.bridge[0].control == first.bridge[0].control);
		expect(report.bridge[1].control == first.bridge[1].control);
		expect(report.bridge[0].queries == first.bridge[0].queries);
		expect(report.naccess_total == 0);
	}
}

static void test_load_errors(void **state)
{
	struct aml_platform p = plat_full();
	struct blob b = blob_load("grant-all");
	struct aml_table t = { b.data, b.len };
	unsigned char junk[64];

	(void)state;
	/* no table at all */
	assert_int_equal(osc_query(NULL, 0, &p, NULL, &report), -AE_NOENT);
	expect(report.machine == OSC_OUT_UNKNOWN && !strcmp(report.load_reason, "no-dsdt"));
	expect(report.load_err == -AE_NOENT && !strcmp(report.machine_reason, "load:no-dsdt"));
	assert_int_equal(heap.live, 0);

	/* a header and no AML: loads, no bridge, machine unknown */
	b.len = 36;
	blob_fix(&b);
	t.len = b.len;
	assert_int_equal(osc_query(&t, 1, &p, NULL, &report), 0);
	expect(report.nbridges == 0 && report.machine == OSC_OUT_UNKNOWN);
	expect(!strcmp(report.machine_reason, "no-host-bridge"));
	assert_int_equal(heap.live, 0);
	free(b.data);

	/* grant-all cut at every length from the header on: never a crash,
	 * never a leak, never a grant without _OSC's answer */
	b = blob_load("grant-all");
	{
		size_t full = b.len, n;
		unsigned grants = 0;

		for (n = 36; n < full; n += 3) {
			unsigned char *cut = malloc(n);

			assert_non_null(cut);
			memcpy(cut, b.data, n);
			{
				struct blob c = { cut, n };

				blob_fix(&c);
			}
			t.data = cut;
			t.len = n;
			osc_query(&t, 1, &p, NULL, &report);
			assert_int_equal(heap.live, 0);
			for (unsigned i = 0; i < report.nbridges; i++)
				if (report.bridge[i].outcome == OSC_OUT_GRANTED) {
					expect(report.bridge[i].queries >= 1);
					grants++;
				}
			free(cut);
		}
		/* the whole table grants; some cut before its end does not */
		t.data = b.data;
		t.len = full;
		assert_int_equal(osc_query(&t, 1, &p, NULL, &report), 0);
		expect(report.machine == OSC_OUT_GRANTED);
		assert_true(grants < (full - 36) / 3 + 1);
	}
	free(b.data);

	/* a DSDT of junk after its header */
	memset(junk, 0, sizeof(junk));
	memcpy(junk, "DSDT", 4);
	for (unsigned i = 36; i < sizeof(junk); i++)
		junk[i] = (unsigned char)(i * 37 + 11);
	{
		struct blob j = { junk, sizeof(junk) };

		blob_fix(&j);
	}
	t.data = junk;
	t.len = sizeof(junk);
	osc_query(&t, 1, &p, NULL, &report);
	assert_int_equal(heap.live, 0);
	expect(report.machine != OSC_OUT_GRANTED);
}

/* a small memory budget: the interpreter stops short and says so; the
 * heap never holds more than the budget */
static void test_mem_budget(void **state)
{
	static const char *const name = "two-bridges";
	struct aml_platform p = plat_full();
	size_t budget;

	(void)state;
	query1(name);
	assert_true(report.mem_peak > 4096);
	for (budget = 1024; budget < report.mem_peak; budget *= 2) {
		size_t full_peak = report.mem_peak;

		p.mem_budget = budget;
		heap.peak = 0;
		(void)query_with(&name, 1, &p, NULL);
		expect(report.mem_peak <= budget);
		expect(report.machine != OSC_OUT_GRANTED);
		expect(report.machine == OSC_OUT_UNKNOWN || report.load_reason[0] ||
		       report.machine == OSC_OUT_DENIED);
		report.mem_peak = full_peak;
	}
}

/* an allocator that fails at its Nth call, for every N up to the number a
 * whole query takes, on tables that load, negotiate, narrow, read config
 * space, call Serialized methods and refuse a write: ACPICA unwinds,
 * nothing leaks, and nothing is granted (a failed allocation may have
 * lost a bridge or an answer: unknown "incomplete:", or denied where a
 * bridge answered so) */
static void alloc_sweep(const char *const *names, unsigned ntables)
{
	struct aml_platform p = plat_full();
	unsigned long total, n, step;
	unsigned outcomes[4] = { 0 };

	heap.allocs = 0;
	heap.fail_after = -1;
	assert_int_equal(query_with(names, ntables, &p, NULL), 0);
	total = heap.allocs;
	assert_true(total > 10);
	step = total > 2000 ? total / 2000 : 1;
	for (n = 0; n < total; n += step) {
		heap.allocs = 0;
		heap.failed = 0;
		heap.fail_after = (long)n;
		(void)query_with(names, ntables, &p, NULL);
		expect(heap.failed > 0);
		expect(report.machine != OSC_OUT_GRANTED);
		expect(report.machine_reason[0]);
		for (unsigned i = 0; i < report.nbridges; i++)
			if (report.bridge[i].outcome == OSC_OUT_GRANTED)
				expect(report.bridge[i].queries >= 1 && report.bridge[i].has_osc);
		outcomes[report.machine]++;
	}
	heap.fail_after = -1;
	assert_true(outcomes[OSC_OUT_UNKNOWN] > 0);
	print_message("alloc-failure %s%s: %lu allocations, %lu runs: unknown %u denied %u\n",
		      names[0], ntables > 1 ? "+" : "", total, (total + step - 1) / step,
		      outcomes[OSC_OUT_UNKNOWN], outcomes[OSC_OUT_DENIED]);
}

static void test_alloc_failure(void **state)
{
	static const char *const one[] = {
		"two-bridges", "narrow", "osc-pci-config", "osc-smi", "mlc-write", "seg",
		"osc-repaired-package", "bus-range", "osc-recursion",
	};
	static const char *const both[] = { "dsdt-base", "ssdt-bridge" };
	unsigned i;

	(void)state;
	for (i = 0; i < sizeof(one) / sizeof(one[0]); i++)
		alloc_sweep(&one[i], 1);
	alloc_sweep(both, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test_setup(test_grant_all, setup),
		cmocka_unit_test_setup(test_request_masks, setup),
		cmocka_unit_test_setup(test_deny_pciecap, setup),
		cmocka_unit_test_setup(test_narrow, setup),
		cmocka_unit_test_setup(test_grant_nothing, setup),
		cmocka_unit_test_setup(test_no_osc, setup),
		cmocka_unit_test_setup(test_bad_returns, setup),
		cmocka_unit_test_setup(test_error_bits, setup),
		cmocka_unit_test_setup(test_smi_write_refused, setup),
		cmocka_unit_test_setup(test_mem_write_refused, setup),
		cmocka_unit_test_setup(test_ec_refused, setup),
		cmocka_unit_test_setup(test_module_level_write, setup),
		cmocka_unit_test_setup(test_mem_read, setup),
		cmocka_unit_test_setup(test_pci_config_read, setup),
		cmocka_unit_test_setup(test_loop_bounded, setup),
		cmocka_unit_test_setup(test_recursion_bounded, setup),
		cmocka_unit_test_setup(test_package_cycle, setup),
		cmocka_unit_test_setup(test_method_child, setup),
		cmocka_unit_test_setup(test_package_late, setup),
		cmocka_unit_test_setup(test_package_alias, setup),
		cmocka_unit_test_setup(test_reference_cycle, setup),
		cmocka_unit_test_setup(test_seg, setup),
		cmocka_unit_test_setup(test_bus_range, setup),
		cmocka_unit_test_setup(test_sta_zero, setup),
		cmocka_unit_test_setup(test_two_bridges, setup),
		cmocka_unit_test_setup(test_dsdt_and_ssdt, setup),
		cmocka_unit_test_setup(test_reinit, setup),
		cmocka_unit_test_setup(test_load_errors, setup),
		cmocka_unit_test_setup(test_mem_budget, setup),
		cmocka_unit_test_setup(test_alloc_failure, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
