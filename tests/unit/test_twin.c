// SPDX-License-Identifier: GPL-2.0-only
/*
 * The digital twin (twin/): the lspci dump parser and its refusals (each
 * with its line), the register semantics shared with tests/sim, the
 * config-space backend, the lspci writer and the aspmsim export.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "common.h"
#include "../../twin/twin.h"
#include "../../pcie/pci_regs.h"
#include "../../pcie/topo.h"
#include "../../pcie/enum.h"
#include "../../lib/err.h"

/* ---------------------------------------------------------- dump text */

static char text[4 << 20];
static size_t tlen;

static void put(const char *s)
{
	size_t n = strlen(s);

	assert_true(tlen + n < sizeof(text));
	memcpy(text + tlen, s, n + 1);
	tlen += n;
}

/* One function in lspci's format: header line, known / 16 rows. */
static void emit(const char *hdr, const uint8_t *cfg, unsigned known)
{
	char row[80];

	if (hdr[0]) {	/* "": rows only, the header was put before */
		put(hdr);
		put("\n");
	}
	for (unsigned off = 0; off < known; off += 16) {
		int n = snprintf(row, sizeof(row), "%02x:", off);

		for (unsigned k = 0; k < 16; k++)
			n += snprintf(row + n, sizeof(row) - (size_t)n, " %02x", cfg[off + k]);
		put(row);
		put("\n");
	}
	put("\n");
}

static void reset(void)
{
	tlen = 0;
	text[0] = '\0';
}

static void poke(uint8_t *cfg, unsigned off, unsigned width, uint32_t v)
{
	for (unsigned i = 0; i < width; i++)
		cfg[off + i] = (uint8_t)(v >> (8 * i));
}

/* A function with a header, and optionally a PCIe v2 capability at 0x40
 * (type, LNKCAP, DEVCAP2) and L1SS / LTR extended capabilities. */
struct spec {
	uint8_t hdr_type;
	int pcie_type;		/* -1: no PCIe capability */
	uint32_t lnkcap, devcap2, l1ss_cap;
	bool ltr;
};

static void make_fn(uint8_t *cfg, const struct spec *s)
{
	memset(cfg, 0, 4096);
	poke(cfg, PCI_VENDOR_ID, 2, 0x8086);
	poke(cfg, PCI_DEVICE_ID, 2, 0x1234);
	poke(cfg, PCI_CLASS_REVISION, 4, s->hdr_type ? 0x06040000 : 0x02000000);
	cfg[PCI_HEADER_TYPE] = s->hdr_type;
	if (s->pcie_type < 0)
		return;
	cfg[PCI_STATUS] |= PCI_STATUS_CAP_LIST;
	cfg[PCI_CAPABILITY_LIST] = 0x40;
	cfg[0x40] = PCI_CAP_ID_EXP;
	poke(cfg, 0x40 + PCI_EXP_FLAGS, 2, (uint32_t)s->pcie_type << 4 | 2);
	poke(cfg, 0x40 + PCI_EXP_LNKCAP, 4, s->lnkcap);
	poke(cfg, 0x40 + PCI_EXP_DEVCAP2, 4, s->devcap2);
	if (s->l1ss_cap) {
		poke(cfg, 0x100, 4, PCI_EXT_CAP_ID_L1SS | 1u << 16 | (s->ltr ? 0x200u << 20 : 0));
		poke(cfg, 0x100 + PCI_L1SS_CAP, 4, s->l1ss_cap);
	}
	if (s->ltr)
		poke(cfg, s->l1ss_cap ? 0x200 : 0x100, 4, PCI_EXT_CAP_ID_LTR | 1u << 16);
}

static uint8_t cfg_a[4096], cfg_b[4096];

static const struct spec EP = { 0, PCI_EXP_TYPE_ENDPOINT, 0x0c11, 0, 0, false };
static const struct spec RP = { 1, PCI_EXP_TYPE_ROOT_PORT, 0x0c11, 0, 0, false };

static int parse(struct lspci_dump *d, struct twin_err *e)
{
	return lspci_parse(text, tlen, d, e);
}

/* ---------------------------------------------------------- parser */

static void test_header_variants(void **state)
{
	struct lspci_dump d;
	struct twin_err e;

	(void)state;
	reset();
	make_fn(cfg_a, &EP);
	put("# an annotated paste\r\n");
	emit("00:1c.0 PCI bridge: Intel Corporation Device a110 (rev f1)", cfg_a, 64);
	emit("0000:00:1d.0 Ethernet controller: Intel Corporation I211", cfg_a, 64);
	emit("0000:00:1e.0 Class 0604: Device 8086:a110", cfg_a, 64);
	/* lspci -vv: decoded text between the header and the rows */
	put("03:00.1 Audio device: X\n\tSubsystem: Y\n\tControl: I/O+\n");
	emit("", cfg_a, 64);
	assert_int_equal(parse(&d, &e), 0);
	assert_int_equal(d.nfn, 4);
	assert_int_equal(d.fn[0].addr.devfn, PCI_DEVFN(0x1c, 0));
	assert_int_equal(d.fn[0].line, 2);
	assert_int_equal(d.fn[1].addr.devfn, PCI_DEVFN(0x1d, 0));
	assert_int_equal(d.fn[2].addr.devfn, PCI_DEVFN(0x1e, 0));
	assert_int_equal(d.fn[3].addr.bus, 3);
	assert_int_equal(d.fn[3].addr.devfn, PCI_DEVFN(0, 1));
	for (unsigned i = 0; i < 4; i++) {
		assert_int_equal(d.fn[i].addr.seg, 0);
		assert_int_equal(d.fn[i].known, 64);
		assert_memory_equal(d.fn[i].cfg, cfg_a, 64);
	}
	lspci_free(&d);
}

/* CRLF line ends (a dump saved on Windows) read as LF ones. */
static void test_crlf(void **state)
{
	struct lspci_dump d;
	struct twin_err e;
	char *p, *q;

	(void)state;
	reset();
	make_fn(cfg_a, &RP);
	emit("00:01.0 x", cfg_a, 256);
	p = malloc(2 * tlen + 1);
	assert_non_null(p);
	q = p;
	for (size_t i = 0; i < tlen; i++) {
		if (text[i] == '\n')
			*q++ = '\r';
		*q++ = text[i];
	}
	assert_int_equal(lspci_parse(p, (size_t)(q - p), &d, &e), 0);
	assert_int_equal(d.fn[0].known, 256);
	assert_memory_equal(d.fn[0].cfg, cfg_a, 256);
	assert_int_equal(d.fn[0].caps.pcie, 0x40);
	free(p);
	lspci_free(&d);
}

static void test_sizes_and_domains(void **state)
{
	struct lspci_dump d;
	struct twin_err e;

	(void)state;
	reset();
	make_fn(cfg_a, &(struct spec){ 0, PCI_EXP_TYPE_ENDPOINT, 0x0c11, 0, 0x1f, true });
	emit("0000:00:00.0 x", cfg_a, 64);
	emit("0000:00:01.0 x", cfg_a, 256);
	emit("0000:00:02.0 x", cfg_a, 4096);
	emit("0001:00:02.0 x", cfg_a, 4096);
	emit("10:00.0 x", cfg_a, 256);	/* no domain: segment 0 */
	assert_int_equal(parse(&d, &e), 0);
	assert_int_equal(d.nfn, 5);
	assert_int_equal(d.fn[0].known, 64);
	assert_int_equal(d.fn[0].caps.pcie, 0);	/* the list lies beyond 64 bytes */
	assert_int_equal(d.fn[1].known, 256);
	assert_int_equal(d.fn[1].caps.pcie, 0x40);
	assert_int_equal(d.fn[1].caps.l1ss, 0);	/* extended space unknown */
	assert_int_equal(d.fn[2].known, 4096);
	assert_int_equal(d.fn[2].caps.l1ss, 0x100);
	assert_int_equal(d.fn[2].caps.ltr, 0x200);
	assert_int_equal(d.fn[3].addr.seg, 1);
	assert_int_equal(d.fn[4].addr.seg, 0);
	assert_int_equal(d.fn[4].addr.bus, 0x10);
	assert_memory_equal(d.fn[3].cfg, cfg_a, 4096);
	lspci_free(&d);
}

/* ---------------------------------------------------------- refusals */

struct bad {
	const char *what;
	void (*build)(void);
	unsigned line;
	int code;
	const char *msg;
};

static void b_truncated_row(void)
{
	put("00:00.0 x\n00: 86 80 34 12 00 00 00 00 00 00 00 02 00 00 00\n");
}

static void b_non_hex(void)
{
	put("00:00.0 x\n00: 86 80 34 12 00 00 00 00 00 00 00 02 00 00 zz 00\n");
}

static void b_duplicate(void)
{
	emit("00:00.0 x", cfg_a, 64);
	emit("0000:00:00.0 y", cfg_a, 64);
}

static void b_out_of_order(void)
{
	put("00:00.0 x\n00: 86 80 34 12 00 00 00 00 00 00 00 02 00 00 00 00\n"
	    "20: 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00\n");
}

static void b_not_16(void)
{
	put("00:00.0 x\n00: 86 80 34 12 00 00 00 00 00 00 00 02 00 00 00 00\n"
	    "18: 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00\n");
}

static void b_before_header(void)
{
	put("\n00: 86 80 34 12 00 00 00 00 00 00 00 02 00 00 00 00\n");
}

static void b_after_blank(void)
{
	emit("00:00.0 x", cfg_a, 64);
	put("40: 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00\n");
}

static void b_odd_size(void)
{
	emit("00:00.0 x", cfg_a, 112);
}

static void b_no_bytes(void)
{
	put("00:00.0 Host bridge: Intel\n00:01.0 PCI bridge: Intel\n");
}

static void b_garbage(void)
{
	emit("00:00.0 x", cfg_a, 64);
	put("$ sudo lspci -xxx\n");
}

static void b_all_ones(void)
{
	memset(cfg_b, 0xff, sizeof(cfg_b));
	emit("00:00.0 x", cfg_b, 64);
}

static void b_domain(void)
{
	put("10000:00:00.0 VMD domain\n");
}

static void b_device(void)
{
	put("00:20.0 x\n");
}

static void b_nul(void)
{
	put("00:00.0 x\n");
	tlen++;		/* the NUL put() wrote */
}

static void b_long_line(void)
{
	put("00:00.0 ");
	for (unsigned i = 0; i < LSPCI_MAX_LINE; i++)
		put("x");
	put("\n");
}

/* bridges: 00:01.0 with secondary/subordinate as given */
static void bridge(const char *hdr, uint8_t bus, uint8_t sec, uint8_t sub)
{
	make_fn(cfg_b, &RP);
	cfg_b[PCI_PRIMARY_BUS] = bus;
	cfg_b[PCI_SECONDARY_BUS] = sec;
	cfg_b[PCI_SUBORDINATE_BUS] = sub;
	emit(hdr, cfg_b, 64);
}

static void b_bus_overlap(void)
{
	bridge("00:01.0 x", 0, 1, 4);
	bridge("00:02.0 x", 0, 3, 5);
}

static void b_bus_same(void)
{
	bridge("00:01.0 x", 0, 1, 1);
	bridge("00:02.0 x", 0, 1, 1);
}

static void b_bus_loop(void)
{
	bridge("00:01.0 x", 0, 1, 2);
	bridge("01:00.0 x", 1, 1, 2);
}

static void b_bus_sub(void)
{
	bridge("00:01.0 x", 0, 5, 3);
}

static void cap_fn(uint8_t ptr34, uint8_t next40)
{
	make_fn(cfg_b, &EP);
	cfg_b[PCI_CAPABILITY_LIST] = ptr34;
	cfg_b[0x41] = next40;
	emit("00:00.0 x", cfg_b, 256);
}

static void b_cap_misaligned(void)
{
	cap_fn(0x41, 0);
}

static void b_cap_header(void)
{
	cap_fn(0x40, 0x10);
}

static void b_cap_loop(void)
{
	cap_fn(0x40, 0x40);
}

static void b_cap_past(void)
{
	make_fn(cfg_b, &EP);
	cfg_b[PCI_CAPABILITY_LIST] = 0xf0;
	memcpy(cfg_b + 0xf0, cfg_b + 0x40, 16);
	emit("00:00.0 x", cfg_b, 256);
}

static void ext_fn(uint32_t hdr100, uint32_t hdr200)
{
	make_fn(cfg_b, &EP);
	poke(cfg_b, 0x100, 4, hdr100);
	poke(cfg_b, 0x200, 4, hdr200);
	emit("00:00.0 x", cfg_b, 4096);
}

static void b_ext_loop(void)
{
	ext_fn(0x18 | 1u << 16 | 0x200u << 20, 0x1e | 1u << 16 | 0x100u << 20);
}

static void b_ext_low(void)
{
	ext_fn(0x18 | 1u << 16 | 0x0c0u << 20, 0);
}

static void b_ext_misaligned(void)
{
	ext_fn(0x18 | 1u << 16 | 0x202u << 20, 0);
}

static void b_too_many(void)
{
	char h[32];

	for (unsigned i = 0; i <= LSPCI_MAX_FN; i++) {
		snprintf(h, sizeof(h), "%02x:%02x.%u x", i >> 8, (i >> 3) & 0x1f, i & 7);
		emit(h, cfg_a, 64);
	}
}

/* rows of a function: header line 1, rows on 2..5, blank on 6 */
static const struct bad bads[] = {
	{ "truncated row", b_truncated_row, 2, -AE_INVAL, "15 bytes in the row, not 16" },
	{ "non-hex byte", b_non_hex, 2, -AE_INVAL, "byte 14 ('zz ') is not two hex digits" },
	{ "BDF twice", b_duplicate, 7, -AE_EXIST, "0000:00:00.0 is already at line 1" },
	{ "rows out of order", b_out_of_order, 3, -AE_INVAL, "offset 0x20 where 0x10 was expected" },
	{ "offset not a multiple of 16", b_not_16, 3, -AE_INVAL, "offset 0x18 is not a multiple of 16" },
	{ "data before any header", b_before_header, 2, -AE_INVAL, "data row before any function header" },
	{ "data after a blank line", b_after_blank, 7, -AE_INVAL, "the blank line 6 ended the last one" },
	{ "function of 0x70 bytes", b_odd_size, 8, -AE_MSGSIZE, "ends after 0x70 bytes" },
	{ "header without rows", b_no_bytes, 1, -AE_NODATA, "has no config bytes" },
	{ "garbage line", b_garbage, 7, -AE_INVAL, "neither a function header" },
	{ "domain over 16 bits", b_domain, 1, -AE_RANGE, "domain 10000" },
	{ "device 0x20", b_device, 1, -AE_RANGE, "device 20 function 0 out of range" },
	{ "NUL byte", b_nul, 2, -AE_INVAL, "NUL byte" },
	{ "long line", b_long_line, 1, -AE_2BIG, "line longer than 1023" },
	{ "overlapping bus ranges", b_bus_overlap, 9, -AE_EXIST, "bus range 03-05 of bridge 0000:00:02.0 overlaps 01-04" },
	{ "two bridges, one bus", b_bus_same, 9, -AE_EXIST, "overlaps" },
	{ "bus-number loop", b_bus_loop, 9, -AE_LOOP, "bridge 0000:01:00.0 on bus 01 has secondary bus 01" },
	{ "subordinate below secondary", b_bus_sub, 3, -AE_RANGE, "subordinate bus 03 below its secondary bus 05" },
	{ "capability pointer misaligned", b_cap_misaligned, 5, -AE_INVAL, "capability pointer 0x41 at 0x34 is not dword aligned" },
	{ "capability pointer into the header", b_cap_header, 6, -AE_INVAL, "capability pointer 0x10 at 0x41 points into the header" },
	{ "capability loop", b_cap_loop, 6, -AE_INVAL, "capability list loops back to 0x40" },
	{ "capability past the known bytes", b_cap_past, 5, -AE_INVAL, "PCI Express capability at 0xf0 runs past 0x100" },
	{ "extended capability loop", b_ext_loop, 34, -AE_INVAL, "extended capability list loops back to 0x100" },
	{ "extended pointer below 0x100", b_ext_low, 18, -AE_INVAL, "points below 0x100" },
	{ "extended pointer misaligned", b_ext_misaligned, 18, -AE_INVAL, "0x202 in 0x100 is not dword aligned" },
	{ "too many functions", b_too_many, LSPCI_MAX_FN * 6 + 1, -AE_NOSPC, "more than 4096 functions" },
};

static void test_bad_input(void **state)
{
	(void)state;
	make_fn(cfg_a, &EP);
	for (unsigned i = 0; i < sizeof(bads) / sizeof(bads[0]); i++) {
		struct lspci_dump d;
		struct twin_err e;
		int rc;

		reset();
		bads[i].build();
		rc = parse(&d, &e);
		if (rc != bads[i].code && !(bads[i].code == -AE_INVAL && rc == -AE_LOOP))
			fail_msg("%s: rc %d, want %d (%u: %s)", bads[i].what, rc, bads[i].code,
				 e.line, e.msg);
		if (e.line != bads[i].line || !strstr(e.msg, bads[i].msg))
			fail_msg("%s: got line %u \"%s\", want line %u \"%s\"", bads[i].what,
				 e.line, e.msg, bads[i].line, bads[i].msg);
		assert_int_equal(d.nfn, 0);	/* nothing half-built is handed out */
		assert_null(d.fn);
	}
}

/* Above LSPCI_MAX_BYTES: refused before a byte is read (the buffer here
 * is not even initialised), and a 100 MB file before it is read. */
static void test_size_limit(void **state)
{
	char path[] = "/tmp/test_twin_XXXXXX";
	struct lspci_dump d;
	struct twin_err e;
	char *big = malloc(LSPCI_MAX_BYTES + 1);
	int fd;

	(void)state;
	assert_non_null(big);
	assert_int_equal(lspci_parse(big, LSPCI_MAX_BYTES + 1, &d, &e), -AE_2BIG);
	assert_int_equal(e.line, 0);
	assert_non_null(strstr(e.msg, "more than the 64 MiB"));
	free(big);
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, 100 << 20), 0);
	close(fd);
	assert_int_equal(lspci_load(path, &d, &e), -AE_2BIG);
	assert_non_null(strstr(e.msg, "104857600 bytes"));
	unlink(path);
	assert_int_equal(lspci_load("/nonexistent/dump", &d, &e), -AE_NOENT);
}

/* ---------------------------------------------------------- the twin */

static struct twin tw;
static struct pci_cfg cfg;

static void build(void)
{
	struct twin_err e;

	if (twin_parse(&tw, text, tlen, &e))
		fail_msg("%u: %s", e.line, e.msg);
	pci_cfg_init(&cfg, &twin_cfg_ops, &tw);
}

#define AT(bus, dev, fn)	((struct pci_addr){ 0, bus, PCI_DEVFN(dev, fn) })

static uint16_t wr16(struct pci_addr a, unsigned off, uint16_t v)
{
	uint16_t r;

	assert_int_equal(pci_cfg_write16(&cfg, a, (uint16_t)off, v), 0);
	assert_int_equal(pci_cfg_read16(&cfg, a, (uint16_t)off, &r), 0);
	return r;
}

static uint32_t wr32(struct pci_addr a, unsigned off, uint32_t v)
{
	uint32_t r;

	assert_int_equal(pci_cfg_write32(&cfg, a, (uint16_t)off, v), 0);
	assert_int_equal(pci_cfg_read32(&cfg, a, (uint16_t)off, &r), 0);
	return r;
}

#define LNKCTL	(0x40 + PCI_EXP_LNKCTL)
#define LNKSTA	(0x40 + PCI_EXP_LNKSTA)
#define DEVCTL2	(0x40 + PCI_EXP_DEVCTL2)

/* ASPM Control follows ASPM Support bit by bit (10b = L1 only, as Linux
 * reads it); CLKREQ# only with Clock PM; CCC, ES, RCB writable. */
static void test_masks_lnkctl(void **state)
{
	static const struct { uint32_t lnkcap; uint16_t want; } c[] = {
		{ 0x0011, 0x00c8 },		/* no ASPM support */
		{ 0x0411, 0x00c9 },		/* L0s */
		{ 0x0811, 0x00ca },		/* 10b: L1 only */
		{ 0x0c11, 0x00cb },		/* L0s and L1 */
		{ 0x40c11, 0x01cb },		/* and Clock PM: CLKREQ# enable */
	};

	(void)state;
	for (unsigned i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		reset();
		make_fn(cfg_a, &(struct spec){ 0, PCI_EXP_TYPE_ENDPOINT, c[i].lnkcap, 0, 0, false });
		emit("01:00.0 x", cfg_a, 256);
		build();
		/* Retrain Link is not an Endpoint's: stays 0 */
		assert_int_equal(wr16(AT(1, 0, 0), LNKCTL, 0xffff), c[i].want);
		assert_int_equal(wr16(AT(1, 0, 0), LNKCTL, 0), 0);
		twin_free(&tw);
	}
}

/* Retrain Link on a Root Port: accepted (logged with the bit), reads 0;
 * Link Status bits 14-15 write-1-to-clear, the rest read-only. */
static void test_retrain_and_lnksta(void **state)
{
	(void)state;
	reset();
	make_fn(cfg_a, &RP);
	cfg_a[PCI_SECONDARY_BUS] = 1;
	cfg_a[PCI_SUBORDINATE_BUS] = 1;
	poke(cfg_a, LNKSTA, 2, 0xd011);	/* LABS, LBMS, SLC, x1 */
	emit("00:1c.0 x", cfg_a, 256);
	build();
	assert_int_equal(wr16(AT(0, 0x1c, 0), LNKCTL, PCI_EXP_LNKCTL_RL | PCI_EXP_LNKCTL_CCC),
			 PCI_EXP_LNKCTL_CCC);
	assert_int_equal(tw.nlog, 1);
	assert_int_equal(tw.log[0].val, PCI_EXP_LNKCTL_RL | PCI_EXP_LNKCTL_CCC);
	assert_int_equal(tw.log[0].before, 0);
	assert_int_equal(tw.log[0].after, PCI_EXP_LNKCTL_CCC);
	assert_int_equal(wr16(AT(0, 0x1c, 0), LNKSTA, 0x4000), 0x9011);	/* LBMS cleared */
	assert_int_equal(wr16(AT(0, 0x1c, 0), LNKSTA, 0xffff), 0x1011);	/* LABS cleared */
	/* bus numbers and Command writable, Vendor ID not */
	assert_int_equal(wr32(AT(0, 0x1c, 0), PCI_PRIMARY_BUS, 0x00050400), 0x00050400);
	assert_int_equal(wr16(AT(0, 0x1c, 0), PCI_COMMAND, 0xffff), 0x0547);
	assert_int_equal(wr16(AT(0, 0x1c, 0), PCI_VENDOR_ID, 0), 0x8086);
	assert_int_equal(tw.nlog, 6);
	twin_free(&tw);
}

/* LTR Mechanism Enable only with LTR Mechanism Supported; L1SS enables
 * only where supported, timing fields always; LTR latencies. */
static void test_masks_ltr_l1ss(void **state)
{
	(void)state;
	reset();
	make_fn(cfg_a, &(struct spec){ 0, PCI_EXP_TYPE_ENDPOINT, 0x0c11, PCI_EXP_DEVCAP2_LTR,
				       PCI_L1SS_CAP_L1_PM_SS | PCI_L1SS_CAP_ASPM_L1_1 |
				       PCI_L1SS_CAP_PCIPM_L1_1, true });
	emit("01:00.0 with", cfg_a, 4096);
	make_fn(cfg_a, &(struct spec){ 0, PCI_EXP_TYPE_ENDPOINT, 0x0c11, 0, PCI_L1SS_CAP_L1_PM_SS,
				       false });
	emit("02:00.0 without", cfg_a, 4096);
	build();
	assert_int_equal(wr16(AT(1, 0, 0), DEVCTL2, 0xffff), PCI_EXP_DEVCTL2_LTR_EN);
	assert_int_equal(wr16(AT(2, 0, 0), DEVCTL2, 0xffff), 0);
	assert_int_equal(wr32(AT(1, 0, 0), 0x100 + PCI_L1SS_CTL1, 0xffffffff),
			 0xe3ffff00 | PCI_L1SS_CTL1_ASPM_L1_1 | PCI_L1SS_CTL1_PCIPM_L1_1);
	assert_int_equal(wr32(AT(1, 0, 0), 0x100 + PCI_L1SS_CTL2, 0xffffffff), 0xfb);
	assert_int_equal(wr32(AT(2, 0, 0), 0x100 + PCI_L1SS_CTL1, 0xffffffff), 0xe3ffff00);
	assert_int_equal(wr32(AT(1, 0, 0), 0x200 + PCI_LTR_MAX_SNOOP_LAT, 0xffffffff),
			 0x1fff1fff);
	twin_free(&tw);
}

/* Inside the dump: the bytes; beyond it: -AE_NODATA (unknown), never a
 * value; an absent function: all-ones, no error. */
static void test_reads(void **state)
{
	uint32_t v;

	(void)state;
	reset();
	make_fn(cfg_a, &EP);
	emit("01:00.0 x", cfg_a, 64);
	emit("02:00.0 x", cfg_a, 256);
	emit("03:00.0 x", cfg_a, 4096);
	build();
	assert_int_equal(pci_cfg_read32(&cfg, AT(1, 0, 0), 0, &v), 0);
	assert_int_equal(v, 0x12348086);
	assert_int_equal(pci_cfg_read32(&cfg, AT(1, 0, 0), 0x40, &v), -AE_NODATA);
	assert_int_equal(v, 0xffffffff);
	assert_int_equal(pci_cfg_read32(&cfg, AT(2, 0, 0), 0xfc, &v), 0);
	assert_int_equal(pci_cfg_read32(&cfg, AT(2, 0, 0), 0x100, &v), -AE_NODATA);
	assert_int_equal(pci_cfg_read32(&cfg, AT(3, 0, 0), 0xffc, &v), 0);
	assert_int_equal(pci_cfg_read32(&cfg, AT(4, 0, 0), 0, &v), 0);
	assert_int_equal(v, 0xffffffff);
	assert_int_equal(pci_cfg_write16(&cfg, AT(2, 0, 0), 0x108, 1), -AE_NODATA);
	assert_int_equal(tw.absent_reads, 1);
	assert_int_equal(tw.unknown_reads, 2);
	assert_string_equal(err_str(-AE_NODATA), "not in the dump");
	twin_free(&tw);
}

static struct out_buf ob;
static struct out oo;
static char wtext[1 << 20];

/* parse -> write -> parse: the same functions, bytes and sizes; after a
 * write, the writer shows the new state. */
static void test_round_trip(void **state)
{
	struct twin t2;
	struct twin_err e;

	(void)state;
	reset();
	make_fn(cfg_a, &(struct spec){ 0, PCI_EXP_TYPE_ENDPOINT, 0x0c11, 0, 0x1f, true });
	emit("00:00.0 x", cfg_a, 64);
	emit("0000:00:01.0 x", cfg_a, 256);
	emit("0002:05:00.3 x", cfg_a, 4096);
	build();
	wr16(AT(0, 1, 0), LNKCTL, PCI_EXP_LNKCTL_ASPM_L1);
	out_buf_init(&oo, &ob, wtext, sizeof(wtext));
	twin_write_lspci(&tw, &oo);
	assert_int_equal(ob.lost, 0);
	assert_true(!strncmp(wtext, "0000:00:00.0 Class 0200: Device 8086:1234\n00: 86 80 34 12", 56));
	assert_int_equal(twin_parse(&t2, wtext, ob.len, &e), 0);
	assert_int_equal(t2.nfn, tw.nfn);
	for (unsigned i = 0; i < tw.nfn; i++) {
		assert_true(pci_addr_eq(t2.fn[i].addr, tw.fn[i].addr));
		assert_int_equal(t2.fn[i].known, tw.fn[i].known);
		assert_memory_equal(t2.fn[i].cfg, tw.fn[i].cfg, tw.fn[i].known);
		assert_memory_equal(t2.fn[i].rw, tw.fn[i].rw, 4096);
	}
	assert_int_equal(t2.fn[1].cfg[LNKCTL], PCI_EXP_LNKCTL_ASPM_L1);
	twin_free(&t2);
	twin_free(&tw);
}

/* The aspmsim scenario: segment 0 only, not from 64-byte dumps. */
static void test_export_sim(void **state)
{
	struct twin_err e;

	(void)state;
	reset();
	make_fn(cfg_a, &RP);
	cfg_a[PCI_SECONDARY_BUS] = 1;
	cfg_a[PCI_SUBORDINATE_BUS] = 1;
	emit("00:1c.0 x", cfg_a, 256);
	make_fn(cfg_a, &EP);
	emit("01:00.0 x", cfg_a, 4096);
	build();
	out_buf_init(&oo, &ob, wtext, sizeof(wtext));
	assert_int_equal(twin_export_sim(&tw, "twin-test", &oo, &e), 0);
	assert_true(!strncmp(wtext, "aspmsim 1\n# ", 12));
	assert_non_null(strstr(wtext, "\nname twin-test\nfn 00:1c.0\nr 000 86803412000010000000040600000100"));
	/* LNKCTL of the Root Port: ASPM L0s+L1, RCB, RL, CCC, ES writable */
	assert_non_null(strstr(wtext, "\nr 050 00000000000000000000000000000000 "
			       "eb000000000000000000000000000000 000000c0000000000000000000000000\n"));
	assert_non_null(strstr(wtext, "\nfn 01:00.0\n"));
	assert_true(!strcmp(wtext + ob.len - 4, "end\n"));
	twin_free(&tw);

	reset();
	make_fn(cfg_a, &EP);
	emit("0001:00:00.0 x", cfg_a, 256);
	build();
	assert_int_equal(twin_export_sim(&tw, "x", &oo, &e), -AE_RANGE);
	assert_int_equal(e.line, 1);
	twin_free(&tw);
	reset();
	emit("00:00.0 x", cfg_a, 64);
	build();
	assert_int_equal(twin_export_sim(&tw, "x", &oo, &e), -AE_NODATA);
	assert_non_null(strstr(e.msg, "only 64 bytes"));
	twin_free(&tw);
}

/* A function lspci printed as all-ones (it did not answer) is kept, so
 * that it is named, and reads as absent: Vendor ID ffff, no writable bit. */
static void test_all_ones_function(void **state)
{
	struct twin_err e;
	struct pci_addr a = { 0, 0, 0 };
	uint32_t v = 0;

	(void)state;
	reset();
	b_all_ones();
	assert_int_equal(twin_parse(&tw, text, tlen, &e), 0);
	assert_int_equal(tw.nfn, 1);
	assert_true(tw.fn[0].all_ones);
	pci_cfg_init(&cfg, &twin_cfg_ops, &tw);
	assert_int_equal(pci_cfg_read32(&cfg, a, 0, &v), 0);
	assert_int_equal(v, 0xffffffff);
	assert_int_equal(pci_cfg_write16(&cfg, a, PCI_COMMAND, 0x0006), 0);
	assert_int_equal(pci_cfg_read32(&cfg, a, 0x04, &v), 0);
	assert_int_equal(v, 0xffffffff);
	twin_free(&tw);
}

/* One real machine (tests/twin/dumps/, collected from public bug
 * reports; skipped when absent): parsed, written and parsed again to the
 * same bytes, and enumerated by the app's engine without a write. */
#define REAL_DUMP "tests/twin/dumps/asus-laptop-whiskeylake-mx150.txt"

static struct pcie_fn efn[512];
static struct pcie_link elink[256];

static void test_real_dump(void **state)
{
	struct ecam_window r = { .base = 0xe0000000, .segment = 0, .bus_start = 0,
				 .bus_end = 0xff };
	struct pcie_topo t = { .fn = efn, .cap_fn = 512, .link = elink, .cap_link = 256 };
	struct twin t2;
	struct twin_err e;

	(void)state;
	if (access(REAL_DUMP, R_OK))
		skip();
	if (twin_load(&tw, REAL_DUMP, &e))
		fail_msg("%s:%u: %s", REAL_DUMP, e.line, e.msg);
	assert_true(tw.nfn > 10);
	out_buf_init(&oo, &ob, wtext, sizeof(wtext));
	twin_write_lspci(&tw, &oo);
	assert_int_equal(twin_parse(&t2, wtext, ob.len, &e), 0);
	assert_int_equal(t2.nfn, tw.nfn);
	for (unsigned i = 0; i < tw.nfn; i++)
		assert_memory_equal(t2.fn[i].cfg, tw.fn[i].cfg, tw.fn[i].known);
	twin_free(&t2);
	pci_cfg_init(&cfg, &twin_cfg_ops, &tw);
	assert_int_equal(pcie_enumerate(&cfg, &r, 1, NULL, &t), 0);
	assert_int_equal(t.nfn, tw.nfn);
	assert_true(t.nlink > 0);
	assert_int_equal(cfg.writes, 0);
	twin_free(&tw);
}

/* A bug report's paste: a Root Port at 00:1c.4 and the device below it.
 * Function 0 of 00:1c is not in the dump: its reads are unknown
 * (-AE_NODATA), not absent, and the engine scans the other functions, so
 * the link is found; a device with no function in the dump stays absent. */
static void test_fn0_not_dumped(void **state)
{
	struct ecam_window r = { .base = 0xe0000000, .segment = 0, .bus_start = 0,
				 .bus_end = 0xff };
	struct pcie_topo t = { .fn = efn, .cap_fn = 512, .link = elink, .cap_link = 256 };
	uint32_t v;

	(void)state;
	reset();
	make_fn(cfg_a, &RP);
	cfg_a[PCI_HEADER_TYPE] = 0x81;	/* a multi-function device's port */
	cfg_a[PCI_PRIMARY_BUS] = 0;
	cfg_a[PCI_SECONDARY_BUS] = 2;
	cfg_a[PCI_SUBORDINATE_BUS] = 2;
	emit("00:1c.4 x", cfg_a, 4096);
	make_fn(cfg_b, &EP);
	emit("02:00.0 x", cfg_b, 4096);
	build();
	assert_true(twin_fn0_not_dumped(&tw, AT(0, 0x1c, 0)));
	assert_false(twin_fn0_not_dumped(&tw, AT(0, 0x1d, 0)));
	assert_false(twin_fn0_not_dumped(&tw, AT(0, 0x1c, 4)));
	assert_false(twin_fn0_not_dumped(&tw, AT(2, 0, 0)));
	assert_int_equal(pci_cfg_read32(&cfg, AT(0, 0x1c, 0), 0, &v), -AE_NODATA);
	assert_int_equal(v, 0xffffffff);
	assert_int_equal(pci_cfg_read32(&cfg, AT(0, 0x1d, 0), 0, &v), 0);
	assert_int_equal(v, 0xffffffff);
	assert_int_equal(pcie_enumerate(&cfg, &r, 1, NULL, &t), 0);
	assert_int_equal(t.nfn, 2);
	assert_int_equal(t.nlink, 1);
	assert_true(pci_addr_eq(t.fn[0].addr, AT(0, 0x1c, 4)));
	assert_true(pci_addr_eq(t.fn[1].addr, AT(2, 0, 0)));
	assert_int_equal(cfg.writes, 0);
	twin_free(&tw);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_header_variants),
		cmocka_unit_test(test_crlf),
		cmocka_unit_test(test_sizes_and_domains),
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_all_ones_function),
		cmocka_unit_test(test_size_limit),
		cmocka_unit_test(test_masks_lnkctl),
		cmocka_unit_test(test_retrain_and_lnksta),
		cmocka_unit_test(test_masks_ltr_l1ss),
		cmocka_unit_test(test_reads),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_export_sim),
		cmocka_unit_test(test_real_dump),
		cmocka_unit_test(test_fn0_not_dumped),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
