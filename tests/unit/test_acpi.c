// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for acpi/: RSDP, XSDT/RSDT, FADT, MCFG parsing and FADT
 * patching, against tables laid out byte by byte in a fake physical
 * memory (tests/lib/acpi_build.h). Each test checks the exact return
 * code and the message that was logged, captured through log_set_sink().
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "acpi/acpi.h"
#include "lib/err.h"
#include "lib/fmt.h"
#include "lib/log.h"
#include "lib/util.h"
#include "tests/lib/acpi_build.h"

#define LOW_BASE	0x7fe00000ull		/* below 4 GiB: RSDT-reachable */
#define HIGH_BASE	0x123400000ull		/* above 4 GiB: XSDT only */
#define MEM_SIZE	(256u << 10)
#define UNMAPPED	0xfed00000ull		/* outside the fake memory */

static struct fake_mem M;
static struct acpi_mem MEM;
static struct acpi_info info;

static char logbuf[1 << 17];
static struct out_buf log_ob;
static struct out log_out;

static void log_reset(void)
{
	out_buf_init(&log_out, &log_ob, logbuf, sizeof(logbuf));
	log_set_sink(&log_out, LOG_DEBUG);
}

static void mem_reset(uint64_t base, size_t size)
{
	fake_mem_free(&M);
	assert_int_equal(fake_mem_init(&M, base, size), 0);
	MEM = fake_acpi_mem(&M);
}

static int setup(void **state)
{
	(void)state;
	if (fake_mem_init(&M, LOW_BASE, MEM_SIZE))
		return -1;
	MEM = fake_acpi_mem(&M);
	memset(&info, 0xcc, sizeof(info));	/* discover must clear it */
	log_reset();
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	fake_mem_free(&M);
	log_set_sink(NULL, LOG_INFO);
	return 0;
}

/* printf into one of a few rotating buffers, for expected messages. */
static const char *S(const char *f, ...) __attribute__((format(printf, 1, 2)));
static const char *S(const char *f, ...)
{
	static char bufs[8][512];
	static unsigned next;
	char *b = bufs[next++ % 8];
	va_list ap;

	va_start(ap, f);
	vsnprintf(b, sizeof(bufs[0]), f, ap);
	va_end(ap);
	return b;
}

#define assert_logged(s) do {						\
	const char *s_ = (s);						\
	assert_int_equal(log_ob.lost, 0);				\
	if (!strstr(logbuf, s_)) {					\
		print_message("log:\n%s", logbuf);			\
		fail_msg("not logged: \"%s\"", s_);			\
	}								\
} while (0)

#define assert_not_logged(s) do {					\
	const char *s_ = (s);						\
	if (strstr(logbuf, s_)) {					\
		print_message("log:\n%s", logbuf);			\
		fail_msg("logged but should not be: \"%s\"", s_);	\
	}								\
} while (0)

#define assert_counts(errors, warnings) do {				\
	if (log_count(LOG_ERR) != (errors) ||				\
	    log_count(LOG_WARN) != (warnings))				\
		print_message("log:\n%s", logbuf);			\
	assert_int_equal(log_count(LOG_ERR), (errors));			\
	assert_int_equal(log_count(LOG_WARN), (warnings));		\
} while (0)

static unsigned long long U(uint64_t v)
{
	return v;
}

static const struct acpi_mcfg_ent mcfg_q35 = { 0xb0000000, 0, 0, 0xff };

/* ------------------------------------------------------------ basics */

static void test_checksum(void **state)
{
	static const uint8_t a[] = { 1, 2, 3, 0xfa };
	static const uint8_t b[] = { 0xff, 0x02 };

	(void)state;
	assert_int_equal(acpi_checksum(a, sizeof(a)), 0);
	assert_int_equal(acpi_checksum(a, 3), 6);
	assert_int_equal(acpi_checksum(b, sizeof(b)), 1);
	assert_int_equal(acpi_checksum(a, 0), 0);
}

/* ------------------------------------------------------------- RSDP */

static void test_rsdp_v1_rsdt(void **state)
{
	uint64_t fadt, mcfg, ssdt, rsdt, rsdp;
	int rc;

	(void)state;
	fadt = add_fadt(&M, 244, 3, 0, FADT_IAPC_8042);
	mcfg = add_mcfg(&M, &mcfg_q35, 1);
	ssdt = add_table(&M, "SSDT", 64);
	rsdt = add_root(&M, false, (uint64_t[]){ fadt, ssdt, mcfg }, 3, 0);
	rsdp = add_rsdp(&M, 0, (uint32_t)rsdt, 0);

	rc = acpi_discover(&MEM, rsdp, &info);
	assert_int_equal(rc, 0);
	assert_int_equal(info.rsdp.phys, rsdp);
	assert_int_equal(info.rsdp.revision, 0);
	assert_int_equal(info.rsdp.length, 20);
	assert_string_equal(info.rsdp.oem_id, "ASPMCT");
	assert_int_equal(info.rsdp.rsdt, rsdt);
	assert_int_equal(info.rsdp.xsdt, 0);
	assert_false(info.use_xsdt);
	assert_int_equal(info.root_phys, rsdt);
	assert_int_equal(info.root_entries, 3);
	assert_int_equal(info.bad_entries, 0);
	assert_int_equal(info.nfadt, 1);
	assert_int_equal(info.fadt[0].phys, fadt);
	assert_int_equal(info.fadt[0].length, 244);
	assert_int_equal(info.fadt[0].revision, 3);
	assert_true(info.fadt[0].boot_arch_valid);
	assert_int_equal(info.fadt[0].iapc_boot_arch, FADT_IAPC_8042);
	assert_false(fadt_no_aspm(&info.fadt[0]));
	assert_int_equal(info.nmcfg_tables, 1);
	assert_int_equal(info.nregions, 1);
	assert_int_equal(info.region[0].base, 0xb0000000);
	assert_int_equal(info.region[0].segment, 0);
	assert_int_equal(info.region[0].start_bus, 0);
	assert_int_equal(info.region[0].end_bus, 0xff);
	assert_int_equal(info.region[0].flags, 0);
	assert_counts(0, 0);
	assert_logged(S("RSDP 0x%llx rev 0 OEM 'ASPMCT': RSDT 0x%llx, 3 entries",
			U(rsdp), U(rsdt)));
	assert_logged(S("FADT at 0x%llx: 244 bytes, revision 3.0, IAPC_BOOT_ARCH 0x0002",
			U(fadt)));
	assert_logged(S("MCFG 0x%llx entry 0: segment 0 buses 00-ff, ECAM 0xb0000000",
			U(mcfg)));
	assert_not_logged("ASPM unsupported");
}

static void test_rsdp_v2_xsdt_unaligned(void **state)
{
	struct acpi_mcfg_ent e = { 0x4000000000ull, 0, 0, 0x3f };
	uint64_t fadt, mcfg, xsdt, rsdp;
	int rc;

	(void)state;
	mem_reset(HIGH_BASE, MEM_SIZE);
	fadt = add_fadt(&M, 276, 6, 5, FADT_IAPC_NO_ASPM | FADT_IAPC_8042);
	mcfg = add_mcfg(&M, &e, 1);
	/* misaligned by 3: the 64-bit entries sit at odd addresses */
	xsdt = add_root(&M, true, (uint64_t[]){ mcfg, fadt }, 2, 3);
	assert_int_not_equal((xsdt + ACPI_HDR_LEN) % 8, 0);
	assert_true(fadt > UINT32_MAX);
	/* the RSDT address leads nowhere: only the XSDT may be used */
	rsdp = add_rsdp(&M, 2, (uint32_t)UNMAPPED, xsdt);

	rc = acpi_discover(&MEM, rsdp, &info);
	assert_int_equal(rc, 0);
	assert_int_equal(info.rsdp.revision, 2);
	assert_int_equal(info.rsdp.length, 36);
	assert_int_equal(info.rsdp.xsdt, xsdt);
	assert_true(info.use_xsdt);
	assert_int_equal(info.root_phys, xsdt);
	assert_int_equal(info.root_entries, 2);
	assert_int_equal(info.bad_entries, 0);
	assert_int_equal(info.nfadt, 1);
	assert_int_equal(info.fadt[0].phys, fadt);
	assert_int_equal(info.fadt[0].revision, 6);
	assert_int_equal(info.fadt[0].minor_revision, 5);
	assert_int_equal(info.fadt[0].iapc_boot_arch, 0x12);
	assert_true(fadt_no_aspm(&info.fadt[0]));
	assert_int_equal(info.nregions, 1);
	assert_int_equal(info.region[0].base, 0x4000000000ull);
	assert_int_equal(info.region[0].end_bus, 0x3f);
	assert_counts(0, 0);
	assert_logged(S("XSDT 0x%llx, 2 entries", U(xsdt)));
	assert_logged(S("FADT at 0x%llx: 276 bytes, revision 6.5, IAPC_BOOT_ARCH 0x0012 (PCIe ASPM unsupported)",
			U(fadt)));
}

/* A 2.0 RSDP longer than 36 bytes: the extended checksum covers Length. */
static void test_rsdp_v2_long(void **state)
{
	uint64_t fadt, xsdt, rsdp;
	uint8_t *p;

	(void)state;
	fadt = add_fadt(&M, 244, 3, 0, 0);
	xsdt = add_root(&M, true, &fadt, 1, 0);
	rsdp = fake_alloc(&M, 48, 0);
	p = fake_ptr(&M, rsdp);
	rsdp_build(p, 2, 0, xsdt);
	put_le32(p + 20, 48);
	memset(p + 36, 0x77, 12);
	fix_checksum(p, 20, 8);
	fix_checksum(p, 48, 32);
	assert_int_equal(acpi_discover(&MEM, rsdp, &info), 0);
	assert_int_equal(info.rsdp.length, 48);
	assert_true(info.use_xsdt);

	/* the bytes past 36 count: break one, keep the 20-byte sum */
	p[40] ^= 1;
	log_reset();
	assert_int_equal(acpi_discover(&MEM, rsdp, &info), -AE_BADMSG);
	assert_logged(S("RSDP at 0x%llx: extended checksum mismatch (48 bytes sum to 0x",
			U(rsdp)));
}

static void test_rsdp_bad_checksum(void **state)
{
	uint64_t fadt, rsdt, rsdp;

	(void)state;
	fadt = add_fadt(&M, 244, 3, 0, 0);
	rsdt = add_root(&M, false, &fadt, 1, 0);
	rsdp = add_rsdp(&M, 0, (uint32_t)rsdt, 0);
	fake_ptr(&M, rsdp)[8] += 1;

	assert_int_equal(acpi_discover(&MEM, rsdp, &info), -AE_BADMSG);
	assert_logged(S("error: RSDP at 0x%llx: checksum mismatch (first 20 bytes sum to 0x01) (bad checksum)",
			U(rsdp)));
	assert_counts(1, 0);
	assert_int_equal(info.nfadt, 0);
	assert_int_equal(info.root_phys, 0);
}

static void test_rsdp_bad_ext_checksum(void **state)
{
	uint64_t fadt, xsdt, rsdp;

	(void)state;
	fadt = add_fadt(&M, 244, 3, 0, 0);
	xsdt = add_root(&M, true, &fadt, 1, 0);
	rsdp = add_rsdp(&M, 2, 0, xsdt);
	fake_ptr(&M, rsdp)[32] += 3;	/* extended checksum only */

	assert_int_equal(acpi_discover(&MEM, rsdp, &info), -AE_BADMSG);
	assert_logged(S("RSDP at 0x%llx: extended checksum mismatch (36 bytes sum to 0x03)",
			U(rsdp)));
	assert_counts(1, 0);
	assert_int_equal(info.nfadt, 0);
}

static void test_rsdp_bad_signature(void **state)
{
	uint64_t rsdp;
	uint8_t *p;

	(void)state;
	rsdp = add_rsdp(&M, 0, (uint32_t)LOW_BASE, 0);
	p = fake_ptr(&M, rsdp);
	p[7] = '!';
	fix_checksum(p, 20, 8);
	assert_int_equal(acpi_discover(&MEM, rsdp, &info), -AE_INVAL);
	assert_logged(S("RSDP at 0x%llx: signature is not \"RSD PTR \"", U(rsdp)));
	assert_counts(1, 0);
}

static void test_rsdp_bad_length(void **state)
{
	uint64_t rsdp, end;
	uint8_t *p;

	(void)state;
	/* Length below 36 */
	rsdp = add_rsdp(&M, 2, 0, 0x1000);
	p = fake_ptr(&M, rsdp);
	put_le32(p + 20, 20);
	fix_checksum(p, 36, 32);
	assert_int_equal(acpi_discover(&MEM, rsdp, &info), -AE_MSGSIZE);
	assert_logged(S("RSDP at 0x%llx: revision 2 with Length 20, below the 36-byte minimum",
			U(rsdp)));

	/* Length past the end of memory: only 36 bytes can be mapped */
	end = M.base + M.size - 36;
	p = fake_ptr(&M, end);
	rsdp_build(p, 2, 0, 0x1000);
	put_le32(p + 20, 100);
	fix_checksum(p, 36, 32);
	log_reset();
	assert_int_equal(acpi_discover(&MEM, end, &info), -AE_MSGSIZE);
	assert_logged(S("RSDP at 0x%llx: Length 100 exceeds the 36 readable bytes",
			U(end)));

	/* revision 2 but only the 20-byte 1.0 part is mapped */
	end = M.base + M.size - 20;
	p = fake_ptr(&M, end);
	memset(p, 0, 20);
	memcpy(p, "RSD PTR ", 8);
	p[15] = 2;
	fix_checksum(p, 20, 8);
	log_reset();
	assert_int_equal(acpi_discover(&MEM, end, &info), -AE_MSGSIZE);
	assert_logged(S("RSDP at 0x%llx: revision 2 but only 20 bytes readable, 36 needed",
			U(end)));
	assert_counts(1, 0);
}

static void test_rsdp_unmapped(void **state)
{
	uint64_t straddle = M.base + M.size - 10;

	(void)state;
	assert_int_equal(acpi_discover(&MEM, UNMAPPED, &info), -AE_FAULT);
	assert_logged(S("RSDP at 0x%llx: not in mapped memory (address outside memory)",
			U(UNMAPPED)));
	log_reset();
	assert_int_equal(acpi_discover(&MEM, straddle, &info), -AE_FAULT);
	assert_logged(S("RSDP at 0x%llx: not in mapped memory", U(straddle)));
	log_reset();
	assert_int_equal(acpi_discover(&MEM, UINT64_MAX - 5, &info), -AE_FAULT);
	assert_logged("RSDP at 0xfffffffffffffffa: not in mapped memory");
	assert_counts(1, 0);
}

static void test_rsdp_parse_direct(void **state)
{
	struct acpi_rsdp_info r;
	uint8_t p[36];

	(void)state;
	rsdp_build(p, 0, 0x1234, 0);
	assert_int_equal(acpi_rsdp_parse(p, 19, 0x40, &r), -AE_MSGSIZE);
	assert_logged("RSDP at 0x40: only 19 bytes readable, 20 needed");

	p[9] = 0x01;		/* unprintable OEM ID byte */
	fix_checksum(p, 20, 8);
	assert_int_equal(acpi_rsdp_parse(p, 20, 0x40, &r), 0);
	assert_string_equal(r.oem_id, "?SPMCT");
	assert_int_equal(r.rsdt, 0x1234);
	assert_int_equal(r.length, 20);

	rsdp_build(p, 2, 0x1234, 0x123456789abcull);
	assert_int_equal(acpi_rsdp_parse(p, 20, 0x40, &r), -AE_MSGSIZE);
	assert_logged("RSDP at 0x40: revision 2 but only 20 bytes readable, 36 needed");
	assert_int_equal(acpi_rsdp_parse(p, 36, 0x40, &r), 0);
	assert_int_equal(r.xsdt, 0x123456789abcull);
	assert_int_equal(r.revision, 2);
	assert_int_equal(r.length, 36);
}

static void test_rsdp_v2_zero_xsdt_uses_rsdt(void **state)
{
	uint64_t fadt, rsdt, rsdp;

	(void)state;
	fadt = add_fadt(&M, 244, 3, 0, FADT_IAPC_NO_ASPM);
	rsdt = add_root(&M, false, &fadt, 1, 0);
	rsdp = add_rsdp(&M, 2, (uint32_t)rsdt, 0);

	assert_int_equal(acpi_discover(&MEM, rsdp, &info), 0);
	assert_false(info.use_xsdt);
	assert_int_equal(info.root_phys, rsdt);
	assert_int_equal(info.nfadt, 1);
	assert_true(fadt_no_aspm(&info.fadt[0]));
	assert_logged(S("warning: RSDP at 0x%llx: revision 2 but XsdtAddress is 0; using the RSDT at 0x%08llx",
			U(rsdp), U(rsdt)));
	assert_counts(0, 1);
}

static void test_no_root_table(void **state)
{
	uint64_t rsdp;

	(void)state;
	rsdp = add_rsdp(&M, 0, 0, 0);
	assert_int_equal(acpi_discover(&MEM, rsdp, &info), -AE_INVAL);
	assert_logged(S("RSDP at 0x%llx: RsdtAddress is 0 and there is no XSDT: no root table",
			U(rsdp)));
	assert_counts(1, 0);

	rsdp = add_rsdp(&M, 2, 0, 0);
	log_reset();
	assert_int_equal(acpi_discover(&MEM, rsdp, &info), -AE_INVAL);
	assert_logged("revision 2 but XsdtAddress is 0");
	assert_logged("RsdtAddress is 0 and there is no XSDT");
	assert_counts(1, 1);
}

/* ------------------------------------------------------- root tables */

static void test_xsdt_bad_entries(void **state)
{
	uint64_t fadt, garbage, badsum, pastend, shortlen, xsdt, rsdp;
	uint8_t *t;

	(void)state;
	fadt = add_fadt(&M, 244, 3, 0, 0);
	garbage = fake_alloc(&M, 64, 0);
	memset(fake_ptr(&M, garbage), 'Z', 64);
	badsum = add_table(&M, "SSDT", 80);
	fake_ptr(&M, badsum)[50] ^= 0x40;
	shortlen = fake_alloc(&M, 36, 0);
	t = fake_ptr(&M, shortlen);
	tbl_header(t, "OEMX", 20, 1);
	fix_checksum(t, 36, 9);
	/* a header at the very end of memory whose body would run past it */
	pastend = M.base + M.size - ACPI_HDR_LEN;
	t = fake_ptr(&M, pastend);
	tbl_header(t, "SSDT", ACPI_HDR_LEN, 1);
	put_le32(t + 4, 4096);
	xsdt = add_root(&M, true, (uint64_t[]){ 0, UNMAPPED, garbage, badsum,
						 fadt, pastend, shortlen }, 7, 0);
	rsdp = add_rsdp(&M, 2, 0, xsdt);

	assert_int_equal(acpi_discover(&MEM, rsdp, &info), 0);
	assert_int_equal(info.root_entries, 7);
	assert_int_equal(info.bad_entries, 6);
	assert_int_equal(info.nfadt, 1);
	assert_int_equal(info.fadt[0].phys, fadt);
	assert_logged("warning: XSDT entry 0 is 0; skipped");
	assert_logged(S("warning: XSDT entry 1 at 0x%llx: header not in mapped memory; skipped (address outside memory)",
			U(UNMAPPED)));
	assert_logged(S("XSDT entry 2 at 0x%llx: 'ZZZZ' Length 1515870810 exceeds the 16777216-byte limit; skipped (length too large)",
			U(garbage)));
	assert_logged(S("XSDT entry 3 at 0x%llx: 'SSDT' checksum mismatch (80 bytes sum to 0x40); skipped (bad checksum)",
			U(badsum)));
	assert_logged(S("XSDT entry 5 at 0x%llx: 'SSDT' Length 4096 runs past mapped memory; skipped",
			U(pastend)));
	assert_logged(S("XSDT entry 6 at 0x%llx: 'OEMX' Length 20 is shorter than the 36-byte header; skipped (bad length)",
			U(shortlen)));
	assert_logged(S("XSDT at 0x%llx: 6 of 7 entries skipped", U(xsdt)));
	assert_counts(0, 7);
}

static void test_table_map(void **state)
{
	uint64_t fadt, phys;
	uint32_t len = 0;
	void *t = NULL;
	uint8_t *p;

	(void)state;
	fadt = add_fadt(&M, 244, 3, 0, 0);
	assert_int_equal(acpi_table_map(&MEM, fadt, "FACP", &t, &len), 0);
	assert_ptr_equal(t, fake_ptr(&M, fadt));
	assert_int_equal(len, 244);
	assert_int_equal(acpi_table_map(&MEM, fadt, NULL, &t, &len), 0);
	assert_counts(0, 0);

	assert_int_equal(acpi_table_map(&MEM, fadt, "MCFG", &t, &len), -AE_INVAL);
	assert_logged(S("error: ACPI table at 0x%llx: signature 'FACP', expected 'MCFG'",
			U(fadt)));

	assert_int_equal(acpi_table_map(&MEM, 0, NULL, &t, &len), -AE_FAULT);
	assert_logged("ACPI table at 0x0: address is 0");
	assert_int_equal(acpi_table_map(&MEM, UINT64_MAX - 8, NULL, &t, &len),
			 -AE_FAULT);
	assert_logged("ACPI table at 0xfffffffffffffff7: header not in mapped memory");

	/* shorter than its own header */
	phys = fake_alloc(&M, 64, 0);
	p = fake_ptr(&M, phys);
	tbl_header(p, "FACP", 35, 1);
	fix_checksum(p, 36, 9);
	log_reset();
	assert_int_equal(acpi_table_map(&MEM, phys, "FACP", &t, &len), -AE_MSGSIZE);
	assert_logged(S("ACPI table at 0x%llx: 'FACP' Length 35 is shorter than the 36-byte header (bad length)",
			U(phys)));

	/* absurdly large, and just past the limit */
	put_le32(p + 4, 0xffffffff);
	log_reset();
	assert_int_equal(acpi_table_map(&MEM, phys, "FACP", &t, &len), -AE_2BIG);
	assert_logged(S("ACPI table at 0x%llx: 'FACP' Length 4294967295 exceeds the 16777216-byte limit (length too large)",
			U(phys)));
	put_le32(p + 4, ACPI_TABLE_MAX_LEN + 1);
	assert_int_equal(acpi_table_map(&MEM, phys, "FACP", &t, &len), -AE_2BIG);
	/* at the limit it is accepted, but runs past the fake memory */
	put_le32(p + 4, ACPI_TABLE_MAX_LEN);
	log_reset();
	assert_int_equal(acpi_table_map(&MEM, phys, "FACP", &t, &len), -AE_FAULT);
	assert_logged(S("ACPI table at 0x%llx: 'FACP' Length 16777216 runs past mapped memory",
			U(phys)));

	/* bad checksum */
	fake_ptr(&M, fadt)[100] ^= 1;
	log_reset();
	assert_int_equal(acpi_table_map(&MEM, fadt, "FACP", &t, &len), -AE_BADMSG);
	assert_logged(S("ACPI table at 0x%llx: 'FACP' checksum mismatch (244 bytes sum to 0x01) (bad checksum)",
			U(fadt)));
	assert_counts(1, 0);
}

static void test_root_table_invalid(void **state)
{
	uint64_t fadt, xsdt, rsdt, rsdp;
	uint8_t *t;

	(void)state;
	fadt = add_fadt(&M, 244, 3, 0, 0);

	/* XSDT shorter than a header: fatal, the error propagates */
	xsdt = fake_alloc(&M, 36, 0);
	t = fake_ptr(&M, xsdt);
	tbl_header(t, "XSDT", 20, 1);
	fix_checksum(t, 36, 9);
	rsdp = add_rsdp(&M, 2, 0, xsdt);
	assert_int_equal(acpi_discover(&MEM, rsdp, &info), -AE_MSGSIZE);
	assert_logged(S("error: XSDT at 0x%llx (from the RSDP at 0x%llx): 'XSDT' Length 20 is shorter than the 36-byte header",
			U(xsdt), U(rsdp)));
	assert_counts(1, 0);

	/* RsdtAddress pointing at the FADT */
	rsdp = add_rsdp(&M, 0, (uint32_t)fadt, 0);
	log_reset();
	assert_int_equal(acpi_discover(&MEM, rsdp, &info), -AE_INVAL);
	assert_logged(S("RSDT at 0x%llx (from the RSDP at 0x%llx): signature 'FACP', expected 'RSDT'",
			U(fadt), U(rsdp)));

	/* RSDT with a bad checksum */
	rsdt = add_root(&M, false, &fadt, 1, 0);
	fake_ptr(&M, rsdt)[36] ^= 0x10;
	rsdp = add_rsdp(&M, 0, (uint32_t)rsdt, 0);
	log_reset();
	assert_int_equal(acpi_discover(&MEM, rsdp, &info), -AE_BADMSG);
	assert_logged(S("RSDT at 0x%llx (from the RSDP at 0x%llx): 'RSDT' checksum mismatch (40 bytes sum to 0x10)",
			U(rsdt), U(rsdp)));

	/* XSDT address outside memory */
	rsdp = add_rsdp(&M, 2, 0, UNMAPPED);
	log_reset();
	assert_int_equal(acpi_discover(&MEM, rsdp, &info), -AE_FAULT);
	assert_logged(S("XSDT at 0x%llx (from the RSDP at 0x%llx): header not in mapped memory",
			U(UNMAPPED), U(rsdp)));
}

static void test_root_trailing_bytes(void **state)
{
	uint64_t fadt, xsdt, rsdt, rsdp;
	uint8_t *t;

	(void)state;
	fadt = add_fadt(&M, 244, 3, 0, 0);
	xsdt = fake_alloc(&M, 49, 0);
	t = fake_ptr(&M, xsdt);
	tbl_header(t, "XSDT", 49, 1);
	put_le64(t + 36, fadt);
	memset(t + 44, 0xee, 5);	/* half an entry */
	tbl_fix(t);
	rsdp = add_rsdp(&M, 2, 0, xsdt);

	assert_int_equal(acpi_discover(&MEM, rsdp, &info), 0);
	assert_int_equal(info.root_entries, 1);
	assert_int_equal(info.bad_entries, 0);
	assert_int_equal(info.nfadt, 1);
	assert_logged(S("warning: XSDT at 0x%llx: Length 49 is not 36 + n * 8; ignoring 5 trailing bytes",
			U(xsdt)));
	assert_counts(0, 1);

	rsdt = fake_alloc(&M, 42, 0);
	t = fake_ptr(&M, rsdt);
	tbl_header(t, "RSDT", 42, 1);
	put_le32(t + 36, (uint32_t)fadt);
	t[40] = t[41] = 0xee;
	tbl_fix(t);
	rsdp = add_rsdp(&M, 0, (uint32_t)rsdt, 0);
	log_reset();
	assert_int_equal(acpi_discover(&MEM, rsdp, &info), 0);
	assert_int_equal(info.root_entries, 1);
	assert_logged(S("RSDT at 0x%llx: Length 42 is not 36 + n * 4; ignoring 2 trailing bytes",
			U(rsdt)));
}

static void test_root_too_many_entries(void **state)
{
	enum { N = 300 };
	uint64_t addrs[N], rsdt, rsdp;

	(void)state;
	addrs[0] = add_fadt(&M, 244, 3, 0, 0);
	for (unsigned i = 1; i < N - 1; i++)
		addrs[i] = add_table(&M, "SSDT", 36);
	/* a second FADT beyond the cap is never seen */
	addrs[N - 1] = add_fadt(&M, 244, 3, 0, FADT_IAPC_NO_ASPM);
	rsdt = add_root(&M, false, addrs, N, 0);
	rsdp = add_rsdp(&M, 0, (uint32_t)rsdt, 0);

	assert_int_equal(acpi_discover(&MEM, rsdp, &info), 0);
	assert_int_equal(info.root_entries, ACPI_ROOT_MAX_ENTRIES);
	assert_int_equal(info.bad_entries, 0);
	assert_int_equal(info.nfadt, 1);
	assert_false(fadt_no_aspm(&info.fadt[0]));
	assert_logged(S("warning: RSDT at 0x%llx: 300 entries, only the first 256 are read",
			U(rsdt)));
	assert_counts(0, 1);
}

static void test_same_table_twice(void **state)
{
	uint64_t fadt, xsdt, rsdp;

	(void)state;
	fadt = add_fadt(&M, 244, 3, 0, 0);
	xsdt = add_root(&M, true, (uint64_t[]){ fadt, fadt }, 2, 0);
	rsdp = add_rsdp(&M, 2, 0, xsdt);

	assert_int_equal(acpi_discover(&MEM, rsdp, &info), 0);
	assert_int_equal(info.nfadt, 1);
	assert_int_equal(info.bad_entries, 1);
	assert_logged(S("XSDT entry 1 at 0x%llx: same address as entry 0; skipped",
			U(fadt)));
	assert_not_logged("FADTs");
	assert_counts(0, 2);	/* the duplicate, and "1 of 2 skipped" */
}

/* OVMF's layout: RSDT and XSDT list the same FADT; it is walked once. */
static void test_rsdt_and_xsdt_share_fadt(void **state)
{
	uint64_t fadt, mcfg, xsdt, rsdt, rsdp;

	(void)state;
	fadt = add_fadt(&M, 244, 3, 0, 0x0002);
	mcfg = add_mcfg(&M, &mcfg_q35, 1);
	rsdt = add_root(&M, false, (uint64_t[]){ fadt, mcfg }, 2, 0);
	xsdt = add_root(&M, true, (uint64_t[]){ fadt, mcfg }, 2, 0);
	/* if the RSDT were walked too, its bad checksum would be reported */
	fake_ptr(&M, rsdt)[9] ^= 0xff;
	rsdp = add_rsdp(&M, 2, (uint32_t)rsdt, xsdt);

	assert_int_equal(acpi_discover(&MEM, rsdp, &info), 0);
	assert_true(info.use_xsdt);
	assert_int_equal(info.nfadt, 1);
	assert_int_equal(info.nmcfg_tables, 1);
	assert_int_equal(info.nregions, 1);
	assert_int_equal(info.region[0].flags, 0);
	assert_counts(0, 0);
	assert_not_logged("RSDT");
}

static void test_patch_all_fadts(void **state)
{
	struct fadt_patch res[4];
	uint64_t fadt, fadt2, mcfg, xsdt, rsdt, rsdp;
	unsigned n;

	(void)state;
	fadt = add_fadt(&M, 244, 3, 0, 0x0002);
	fadt2 = add_fadt(&M, 268, 5, 0, 0x0000);	/* only the RSDT has it */
	mcfg = add_mcfg(&M, &mcfg_q35, 1);
	rsdt = add_root(&M, false, (uint64_t[]){ fadt, fadt2, mcfg }, 3, 0);
	xsdt = add_root(&M, true, (uint64_t[]){ fadt, mcfg }, 2, 0);
	rsdp = add_rsdp(&M, 2, (uint32_t)rsdt, xsdt);

	assert_int_equal(acpi_patch_fadts(&MEM, rsdp, FADT_IAPC_NO_ASPM, 0, res, 4, &n), 0);
	assert_int_equal(n, 2);		/* the shared FADT once */
	assert_int_equal(res[0].phys, fadt);
	assert_string_equal(res[0].root, "XSDT");
	assert_int_equal(res[0].before, 0x0002);
	assert_int_equal(res[0].after, 0x0012);
	assert_int_equal(res[1].phys, fadt2);
	assert_string_equal(res[1].root, "RSDT");
	assert_int_equal(res[1].after, 0x0010);
	assert_int_equal(acpi_checksum(fake_ptr(&M, fadt), 244), 0);
	assert_int_equal(acpi_checksum(fake_ptr(&M, fadt2), 268), 0);
	/* what an OS then sees */
	assert_int_equal(acpi_discover(&MEM, rsdp, &info), 0);
	assert_true(fadt_no_aspm(&info.fadt[0]));
	/* and back */
	assert_int_equal(acpi_patch_fadts(&MEM, rsdp, 0, FADT_IAPC_NO_ASPM, res, 4, &n), 0);
	assert_int_equal(res[0].after, 0x0002);
	assert_int_equal(acpi_discover(&MEM, rsdp, &info), 0);
	assert_false(fadt_no_aspm(&info.fadt[0]));
}

static void test_patch_all_fadts_short(void **state)
{
	struct fadt_patch res[4];
	uint64_t fadt, rsdt, rsdp;
	unsigned n;

	(void)state;
	fadt = add_fadt(&M, 132, 2, 0, 0x0000);
	rsdt = add_root(&M, false, (uint64_t[]){ fadt }, 1, 0);
	rsdp = add_rsdp(&M, 0, (uint32_t)rsdt, 0);
	assert_int_equal(acpi_patch_fadts(&MEM, rsdp, FADT_IAPC_NO_ASPM, 0, res, 4, &n), -AE_NOTSUP);
	assert_int_equal(n, 1);
	assert_logged("FADT is 132 bytes: too short to carry IAPC_BOOT_ARCH (needs 133); not patched");
	assert_int_equal(acpi_checksum(fake_ptr(&M, fadt), 132), 0);
}

/* ------------------------------------------------------------- FADT */

static void test_fadt_lengths(void **state)
{
	static const struct { uint32_t len; uint8_t rev; } cases[] = {
		{ 116, 1 }, { 131, 2 }, { 132, 3 }, { 133, 3 }, { 244, 3 },
		{ 268, 5 }, { 276, 6 },
	};
	const uint16_t iapc = FADT_IAPC_NO_ASPM | FADT_IAPC_8042;

	(void)state;
	for (unsigned c = 0; c < ARRAY_SIZE(cases); c++) {
		uint32_t len = cases[c].len;
		bool valid = len >= FADT_BOOT_ARCH_MIN_LEN;
		struct acpi_fadt_info f;
		uint64_t fadt, rsdt, rsdp;
		uint8_t *exact;

		print_message("FADT of %u bytes\n", len);
		mem_reset(LOW_BASE, MEM_SIZE);
		log_reset();
		fadt = add_fadt(&M, len, cases[c].rev, 1, iapc);
		rsdt = add_root(&M, false, &fadt, 1, 0);
		rsdp = add_rsdp(&M, 0, (uint32_t)rsdt, 0);

		assert_int_equal(acpi_discover(&MEM, rsdp, &info), 0);
		assert_int_equal(info.nfadt, 1);
		assert_int_equal(info.fadt[0].length, len);
		assert_int_equal(info.fadt[0].revision, cases[c].rev);
		assert_int_equal(info.fadt[0].minor_revision, len > 131 ? 1 : 0);
		assert_int_equal(info.fadt[0].boot_arch_valid, valid);
		assert_int_equal(info.fadt[0].iapc_boot_arch, valid ? iapc : 0);
		assert_int_equal(fadt_no_aspm(&info.fadt[0]), valid);
		if (valid)
			assert_logged(S("FADT at 0x%llx: %u bytes, revision %u.1, IAPC_BOOT_ARCH 0x0012 (PCIe ASPM unsupported)",
					U(fadt), len, cases[c].rev));
		else
			assert_logged(S("FADT at 0x%llx: %u bytes, revision %u: too short to carry IAPC_BOOT_ARCH, flags ignored",
					U(fadt), len, cases[c].rev));
		assert_counts(0, 0);

		/* an exact-size heap copy: ASan sees any read past len */
		exact = malloc(len);
		assert_non_null(exact);
		memcpy(exact, fake_ptr(&M, fadt), len);
		assert_int_equal(acpi_fadt_parse(exact, len, fadt, &f), 0);
		free(exact);
		assert_int_equal(f.boot_arch_valid, valid);
		assert_int_equal(f.iapc_boot_arch, valid ? iapc : 0);
		assert_int_equal(f.minor_revision, len > 131 ? 1 : 0);
		assert_int_equal(f.phys, fadt);
	}
}

static void test_fadt_parse_errors(void **state)
{
	struct acpi_fadt_info f;
	uint8_t t[244];

	(void)state;
	mcfg_build(t, &mcfg_q35, 1);
	assert_int_equal(acpi_fadt_parse(t, mcfg_len(1), 0, &f), -AE_INVAL);
	assert_logged("table 'MCFG' is not a FACP");
	fadt_build(t, 244, 3, 0, 0);
	assert_int_equal(acpi_fadt_parse(t, 200, 0, &f), -AE_MSGSIZE);
	assert_logged("FACP: header Length 244 but 200 bytes given");
	assert_int_equal(acpi_fadt_parse(t, 20, 0, &f), -AE_MSGSIZE);
	assert_logged("FACP is 20 bytes: shorter than the 36-byte header");
	assert_int_equal(acpi_fadt_parse(NULL, 244, 0, &f), -AE_INVAL);
	assert_false(f.boot_arch_valid);
	assert_counts(4, 0);

	/* a FADT shorter than ACPI 1.0's is used, with a warning */
	{
		uint64_t fadt, rsdt, rsdp;

		log_reset();
		fadt = add_fadt(&M, 100, 1, 0, 0);
		rsdt = add_root(&M, false, &fadt, 1, 0);
		rsdp = add_rsdp(&M, 0, (uint32_t)rsdt, 0);
		assert_int_equal(acpi_discover(&MEM, rsdp, &info), 0);
		assert_int_equal(info.nfadt, 1);
		assert_false(info.fadt[0].boot_arch_valid);
		assert_logged(S("FADT at 0x%llx: 100 bytes, shorter than the 116-byte ACPI 1.0 FADT",
				U(fadt)));
		assert_counts(0, 1);
	}
}

static void test_no_fadt(void **state)
{
	uint64_t mcfg, ssdt, rsdt, rsdp;

	(void)state;
	mcfg = add_mcfg(&M, &mcfg_q35, 1);
	ssdt = add_table(&M, "SSDT", 40);
	rsdt = add_root(&M, false, (uint64_t[]){ ssdt, mcfg }, 2, 0);
	rsdp = add_rsdp(&M, 0, (uint32_t)rsdt, 0);

	assert_int_equal(acpi_discover(&MEM, rsdp, &info), -AE_NOENT);
	assert_int_equal(info.nfadt, 0);
	/* the regions are still there for the caller */
	assert_int_equal(info.nmcfg_tables, 1);
	assert_int_equal(info.nregions, 1);
	assert_int_equal(info.region[0].base, 0xb0000000);
	assert_logged(S("error: no FADT (FACP) among the 2 entries of the RSDT at 0x%llx (not found)",
			U(rsdt)));
	assert_counts(1, 0);
}

static void test_two_fadts(void **state)
{
	uint64_t f1, f2, f3, xsdt, rsdp;

	(void)state;
	/* same IAPC_BOOT_ARCH */
	f1 = add_fadt(&M, 244, 3, 0, 0x0002);
	f2 = add_fadt(&M, 268, 5, 0, 0x0002);
	xsdt = add_root(&M, true, (uint64_t[]){ f1, f2 }, 2, 0);
	rsdp = add_rsdp(&M, 2, 0, xsdt);
	assert_int_equal(acpi_discover(&MEM, rsdp, &info), 0);
	assert_int_equal(info.nfadt, 2);
	assert_int_equal(info.fadt[0].phys, f1);
	assert_int_equal(info.fadt[1].phys, f2);
	assert_logged(S("warning: 2 FADTs in the XSDT; their IAPC_BOOT_ARCH agree (0x0002); the first, at 0x%llx, is used (duplicate)",
			U(f1)));
	assert_counts(0, 1);

	/* they disagree on "no ASPM" */
	f3 = add_fadt(&M, 244, 3, 0, 0x0012);
	xsdt = add_root(&M, true, (uint64_t[]){ f1, f3 }, 2, 0);
	rsdp = add_rsdp(&M, 2, 0, xsdt);
	log_reset();
	assert_int_equal(acpi_discover(&MEM, rsdp, &info), 0);
	assert_int_equal(info.nfadt, 2);
	assert_false(fadt_no_aspm(&info.fadt[0]));
	assert_true(fadt_no_aspm(&info.fadt[1]));
	assert_logged(S("2 FADTs in the XSDT; their IAPC_BOOT_ARCH disagree: 0x0002 at 0x%llx vs 0x0012 at 0x%llx; the first is used",
			U(f1), U(f3)));
	assert_counts(0, 1);

	/* one has no IAPC_BOOT_ARCH at all */
	f2 = add_fadt(&M, 132, 3, 0, 0x0012);
	xsdt = add_root(&M, true, (uint64_t[]){ f2, f1 }, 2, 0);
	rsdp = add_rsdp(&M, 2, 0, xsdt);
	log_reset();
	assert_int_equal(acpi_discover(&MEM, rsdp, &info), 0);
	assert_logged(S("disagree: 0x0000 (absent) at 0x%llx vs 0x0002 at 0x%llx",
			U(f2), U(f1)));
}

static void test_too_many_fadts(void **state)
{
	uint64_t f[ACPI_MAX_FADTS + 1], xsdt, rsdp;

	(void)state;
	for (unsigned i = 0; i < ARRAY_SIZE(f); i++)
		f[i] = add_fadt(&M, 244, 3, 0, 0x0002);
	xsdt = add_root(&M, true, f, ARRAY_SIZE(f), 0);
	rsdp = add_rsdp(&M, 2, 0, xsdt);
	assert_int_equal(acpi_discover(&MEM, rsdp, &info), 0);
	assert_int_equal(info.nfadt, ACPI_MAX_FADTS);
	assert_int_equal(info.bad_entries, 0);
	assert_logged(S("XSDT entry 4 at 0x%llx: FADT ignored, already 4 FADTs",
			U(f[4])));
	assert_logged("5 FADTs in the XSDT; their IAPC_BOOT_ARCH agree");
	assert_counts(0, 2);
}

static void test_fadt_no_aspm(void **state)
{
	struct acpi_fadt_info f;

	(void)state;
	assert_false(fadt_no_aspm(NULL));
	memset(&f, 0, sizeof(f));
	f.iapc_boot_arch = FADT_IAPC_NO_ASPM;	/* present but not valid */
	assert_false(fadt_no_aspm(&f));
	f.boot_arch_valid = true;
	assert_true(fadt_no_aspm(&f));
	f.iapc_boot_arch = 0xffff & ~FADT_IAPC_NO_ASPM;
	assert_false(fadt_no_aspm(&f));
}

static void test_flag_names(void **state)
{
	(void)state;
	assert_string_equal(fadt_iapc_flag_name(0), "legacy-devices");
	assert_string_equal(fadt_iapc_flag_name(1), "8042");
	assert_string_equal(fadt_iapc_flag_name(2), "no-vga");
	assert_string_equal(fadt_iapc_flag_name(3), "no-msi");
	assert_string_equal(fadt_iapc_flag_name(4), "no-aspm");
	assert_string_equal(fadt_iapc_flag_name(5), "no-cmos-rtc");
	assert_null(fadt_iapc_flag_name(6));
	assert_null(fadt_iapc_flag_name(15));
	assert_null(fadt_iapc_flag_name(16));
	assert_null(fadt_iapc_flag_name(~0u));
	assert_int_equal(FADT_IAPC_NO_ASPM, 1u << 4);
}

/* ------------------------------------------------------------ patching */

static void test_patch_set_clear(void **state)
{
	uint8_t t[244], orig[244];
	uint16_t before = 0, after = 0;
	struct acpi_fadt_info f;
	uint64_t phys;
	uint32_t len;
	void *mapped;

	(void)state;
	phys = add_fadt(&M, 244, 3, 0, FADT_IAPC_8042);
	memcpy(t, fake_ptr(&M, phys), sizeof(t));
	memcpy(orig, t, sizeof(t));

	assert_int_equal(fadt_patch_boot_arch(t, 244, FADT_IAPC_NO_ASPM, 0,
					      &before, &after), 0);
	assert_int_equal(before, 0x0002);
	assert_int_equal(after, 0x0012);
	assert_int_equal(acpi_checksum(t, sizeof(t)), 0);
	assert_int_equal(t[109], 0x12);
	assert_int_equal(t[110], 0x00);
	for (unsigned i = 0; i < sizeof(t); i++)
		if (i != 9 && i != 109)
			assert_int_equal(t[i], orig[i]);
	assert_logged(S("FADT IAPC_BOOT_ARCH 0x0002 -> 0x0012, checksum 0x%02x -> 0x%02x",
			orig[9], t[9]));
	assert_int_equal(acpi_fadt_parse(t, 244, 0, &f), 0);
	assert_true(fadt_no_aspm(&f));

	/* a patched table still validates in place */
	memcpy(fake_ptr(&M, phys), t, sizeof(t));
	assert_int_equal(acpi_table_map(&MEM, phys, "FACP", &mapped, &len), 0);

	/* clear it again: byte-identical to the original */
	assert_int_equal(fadt_patch_boot_arch(t, 244, 0, FADT_IAPC_NO_ASPM,
					      &before, &after), 0);
	assert_int_equal(before, 0x0012);
	assert_int_equal(after, 0x0002);
	assert_memory_equal(t, orig, sizeof(t));

	/* the high byte, set and clear together */
	assert_int_equal(fadt_patch_boot_arch(t, 244, 0x0100, FADT_IAPC_8042,
					      &before, &after), 0);
	assert_int_equal(after, 0x0100);
	assert_int_equal(t[109], 0x00);
	assert_int_equal(t[110], 0x01);
	assert_int_equal(acpi_checksum(t, sizeof(t)), 0);

	/* already as asked: nothing written */
	memcpy(orig, t, sizeof(t));
	log_reset();
	assert_int_equal(fadt_patch_boot_arch(t, 244, 0x0100, 0, &before,
					      &after), 0);
	assert_int_equal(before, 0x0100);
	assert_int_equal(after, 0x0100);
	assert_memory_equal(t, orig, sizeof(t));
	assert_logged("FADT IAPC_BOOT_ARCH 0x0100: already as asked, not written");

	/* the same bit both set and cleared */
	assert_int_equal(fadt_patch_boot_arch(t, 244, 0x0010, 0x0010, NULL,
					      NULL), -AE_INVAL);
	assert_logged("bits 0x0010 both set and cleared; not patched");
	assert_memory_equal(t, orig, sizeof(t));
	assert_counts(1, 0);
}

static void test_patch_refuses_short(void **state)
{
	static const uint32_t lens[] = { 116, 132 };

	(void)state;
	for (unsigned c = 0; c < ARRAY_SIZE(lens); c++) {
		uint8_t t[132], orig[132];
		uint16_t before = 0xbeef, after = 0xbeef;

		log_reset();
		fadt_build(t, lens[c], 3, 0, 0x0002);
		memcpy(orig, t, sizeof(t));
		assert_int_equal(fadt_patch_boot_arch(t, lens[c],
						      FADT_IAPC_NO_ASPM, 0,
						      &before, &after),
				 -AE_NOTSUP);
		assert_logged(S("error: FADT is %u bytes: too short to carry IAPC_BOOT_ARCH (needs 133); not patched (not supported)",
				lens[c]));
		assert_memory_equal(t, orig, lens[c]);
		assert_int_equal(before, 0xbeef);
		assert_int_equal(after, 0xbeef);
		assert_counts(1, 0);
	}
}

static void test_patch_refuses_invalid(void **state)
{
	uint8_t t[244], orig[244];

	(void)state;
	fadt_build(t, 244, 3, 0, 0x0002);
	t[200] ^= 0x20;
	memcpy(orig, t, sizeof(t));
	assert_int_equal(fadt_patch_boot_arch(t, 244, FADT_IAPC_NO_ASPM, 0,
					      NULL, NULL), -AE_BADMSG);
	assert_logged("FADT checksum mismatch (244 bytes sum to 0x20); not patched");
	assert_memory_equal(t, orig, sizeof(t));

	fadt_build(t, 244, 3, 0, 0x0002);
	assert_int_equal(fadt_patch_boot_arch(t, 240, FADT_IAPC_NO_ASPM, 0,
					      NULL, NULL), -AE_MSGSIZE);
	assert_logged("FACP: header Length 244 but 240 bytes given");
	mcfg_build(t, &mcfg_q35, 1);
	assert_int_equal(fadt_patch_boot_arch(t, mcfg_len(1), 1, 0, NULL, NULL),
			 -AE_INVAL);
	assert_logged("table 'MCFG' is not a FACP");
	assert_counts(3, 0);
}

/* ------------------------------------------------------------- MCFG */

static void test_mcfg_flags(void **state)
{
	static const struct acpi_mcfg_ent e[] = {
		{ 0xb0000000, 0, 0x00, 0x3f },	/* 0 ok */
		{ 0xb1000000, 0, 0x20, 0x10 },	/* 1 reversed */
		{ 0,          0, 0x40, 0x7f },	/* 2 zero base */
		{ 0xb2000000, 0, 0x30, 0x50 },	/* 3 overlaps 0 */
		{ 0xc0000000, 1, 0x00, 0x3f },	/* 4 ok: other segment */
		{ 0xb0000000, 0, 0x40, 0x7f },	/* 5 ok: adjacent to 0 */
		{ 0xb3000000, 0, 0x7f, 0x7f },	/* 6 overlaps 5 */
		{ 0,          0, 0x90, 0x80 },	/* 7 reversed, zero base */
	};
	static const uint32_t want[] = {
		0, MCFG_F_REVERSED, MCFG_F_ZERO_BASE, MCFG_F_OVERLAP, 0, 0,
		MCFG_F_OVERLAP, MCFG_F_REVERSED | MCFG_F_ZERO_BASE,
	};
	struct mcfg_region r[16];
	uint64_t fadt, mcfg, xsdt, rsdp;
	unsigned n = 0;

	(void)state;
	fadt = add_fadt(&M, 244, 3, 0, 0);
	mcfg = add_mcfg(&M, e, ARRAY_SIZE(e));

	assert_int_equal(acpi_mcfg_parse(fake_ptr(&M, mcfg),
					 mcfg_len(ARRAY_SIZE(e)), r,
					 ARRAY_SIZE(r), &n), 0);
	assert_int_equal(n, ARRAY_SIZE(e));
	for (unsigned i = 0; i < n; i++) {
		print_message("entry %u\n", i);
		assert_int_equal(r[i].base, e[i].base);
		assert_int_equal(r[i].segment, e[i].segment);
		assert_int_equal(r[i].start_bus, e[i].start_bus);
		assert_int_equal(r[i].end_bus, e[i].end_bus);
		assert_int_equal(r[i].flags, want[i]);
	}
	assert_counts(0, 0);

	xsdt = add_root(&M, true, (uint64_t[]){ fadt, mcfg }, 2, 0);
	rsdp = add_rsdp(&M, 2, 0, xsdt);
	assert_int_equal(acpi_discover(&MEM, rsdp, &info), 0);
	assert_int_equal(info.nregions, ARRAY_SIZE(e));
	for (unsigned i = 0; i < n; i++)
		assert_int_equal(info.region[i].flags, want[i]);
	assert_logged(S("warning: MCFG at 0x%llx entry 1: segment 0 buses 0x20-0x10, ECAM base 0xb1000000: end bus below start bus; region not used",
			U(mcfg)));
	assert_logged(S("MCFG at 0x%llx entry 2: segment 0 buses 0x40-0x7f, ECAM base 0x0: base address is 0; region not used",
			U(mcfg)));
	assert_logged(S("MCFG at 0x%llx entry 3: segment 0 buses 0x30-0x50, ECAM base 0xb2000000: overlaps region 0 (segment 0 buses 0x00-0x3f); region not used",
			U(mcfg)));
	assert_logged(S("MCFG at 0x%llx entry 6: segment 0 buses 0x7f-0x7f, ECAM base 0xb3000000: overlaps region 5 (segment 0 buses 0x40-0x7f)",
			U(mcfg)));
	assert_logged(S("MCFG at 0x%llx entry 7: segment 0 buses 0x90-0x80, ECAM base 0x0: end bus below start bus, base address is 0; region not used",
			U(mcfg)));
	assert_logged(S("MCFG 0x%llx entry 4: segment 1 buses 00-3f, ECAM 0xc0000000",
			U(mcfg)));
	assert_counts(0, 5);
}

static void test_mcfg_odd_length(void **state)
{
	struct mcfg_region r[4];
	uint64_t fadt, mcfg, xsdt, rsdp;
	unsigned n = 99;
	uint8_t *t;

	(void)state;
	fadt = add_fadt(&M, 244, 3, 0, 0);
	mcfg = fake_alloc(&M, 59, 0);
	t = fake_ptr(&M, mcfg);
	tbl_header(t, "MCFG", 59, 1);
	put_le64(t + 44, 0xb0000000);
	t[55] = 0xff;
	tbl_fix(t);

	assert_int_equal(acpi_mcfg_parse(t, 59, r, ARRAY_SIZE(r), &n),
			 -AE_MSGSIZE);
	assert_int_equal(n, 0);
	assert_logged("error: MCFG is 59 bytes: not 44 + n * 16 (bad length)");

	xsdt = add_root(&M, true, (uint64_t[]){ fadt, mcfg }, 2, 0);
	rsdp = add_rsdp(&M, 2, 0, xsdt);
	log_reset();
	assert_int_equal(acpi_discover(&MEM, rsdp, &info), 0);
	assert_int_equal(info.nmcfg_tables, 0);
	assert_int_equal(info.nregions, 0);
	assert_int_equal(info.bad_entries, 1);
	assert_logged(S("warning: XSDT entry 1 at 0x%llx: MCFG is 59 bytes: not 44 + n * 16; skipped (bad length)",
			U(mcfg)));
	assert_counts(0, 2);

	/* shorter than the 44 bytes before the first entry */
	t = fake_ptr(&M, fake_alloc(&M, 40, 0));
	tbl_header(t, "MCFG", 40, 1);
	tbl_fix(t);
	log_reset();
	assert_int_equal(acpi_mcfg_parse(t, 40, r, ARRAY_SIZE(r), &n),
			 -AE_MSGSIZE);
	assert_logged("MCFG is 40 bytes: not 44 + n * 16");

	/* 44 bytes: valid, no allocations */
	t = fake_ptr(&M, fake_alloc(&M, 44, 0));
	mcfg_build(t, NULL, 0);
	assert_int_equal(acpi_mcfg_parse(t, 44, r, ARRAY_SIZE(r), &n), 0);
	assert_int_equal(n, 0);
}

static void test_two_mcfgs(void **state)
{
	static const struct acpi_mcfg_ent a[] = {
		{ 0xb0000000, 0, 0x00, 0x7f },
	};
	static const struct acpi_mcfg_ent b[] = {
		{ 0xc0000000, 1, 0x00, 0xff },
		{ 0xb0000000, 0, 0x80, 0xff },
		{ 0xd0000000, 0, 0x40, 0x9f },	/* overlaps a[0] and b[1] */
	};
	uint64_t fadt, m1, m2, xsdt, rsdp;

	(void)state;
	fadt = add_fadt(&M, 244, 3, 0, 0);
	m1 = add_mcfg(&M, a, ARRAY_SIZE(a));
	m2 = add_mcfg(&M, b, ARRAY_SIZE(b));
	xsdt = add_root(&M, true, (uint64_t[]){ m1, fadt, m2 }, 3, 0);
	rsdp = add_rsdp(&M, 2, 0, xsdt);

	assert_int_equal(acpi_discover(&MEM, rsdp, &info), 0);
	assert_int_equal(info.nmcfg_tables, 2);
	assert_int_equal(info.nregions, 4);
	assert_int_equal(info.region[0].flags, 0);
	assert_int_equal(info.region[1].flags, 0);
	assert_int_equal(info.region[1].segment, 1);
	assert_int_equal(info.region[2].flags, 0);
	assert_int_equal(info.region[2].start_bus, 0x80);
	assert_int_equal(info.region[3].flags, MCFG_F_OVERLAP);
	assert_logged(S("MCFG at 0x%llx entry 2: segment 0 buses 0x40-0x9f, ECAM base 0xd0000000: overlaps region 0 (segment 0 buses 0x00-0x7f); region not used",
			U(m2)));
	assert_logged("warning: 2 MCFG tables in the XSDT: the regions of all of them are used (4 in all)");
	assert_counts(0, 2);
}

static void test_mcfg_too_many_regions(void **state)
{
	enum { N = 70 };
	struct acpi_mcfg_ent e[N];
	struct mcfg_region r[8];
	uint64_t fadt, m1, m2, xsdt, rsdp;
	unsigned n = 0;

	(void)state;
	for (unsigned i = 0; i < N; i++) {
		e[i].base = 0x100000000ull * (i + 1);
		e[i].segment = (uint16_t)i;
		e[i].start_bus = 0;
		e[i].end_bus = 0xff;
	}
	fadt = add_fadt(&M, 244, 3, 0, 0);
	m1 = add_mcfg(&M, e, 60);
	m2 = add_mcfg(&M, e + 60, 10);

	assert_int_equal(acpi_mcfg_parse(fake_ptr(&M, m1), mcfg_len(60), r,
					 ARRAY_SIZE(r), &n), 0);
	assert_int_equal(n, 8);
	assert_int_equal(r[7].segment, 7);
	assert_logged("warning: MCFG has 60 allocations, room for 8: the last 52 are ignored");

	xsdt = add_root(&M, true, (uint64_t[]){ fadt, m1, m2 }, 3, 0);
	rsdp = add_rsdp(&M, 2, 0, xsdt);
	log_reset();
	assert_int_equal(acpi_discover(&MEM, rsdp, &info), 0);
	assert_int_equal(info.nmcfg_tables, 2);
	assert_int_equal(info.nregions, MCFG_MAX_REGIONS);
	assert_int_equal(info.region[63].segment, 63);
	assert_int_equal(info.region[63].flags, 0);
	assert_logged(S("warning: MCFG at 0x%llx: 10 allocations, room for 4 more (limit 64): the last 6 are ignored",
			U(m2)));
	assert_counts(0, 2);	/* and "2 MCFG tables" */
}

/* ------------------------------------------------------- robustness */

static uint32_t rng_state;

static uint32_t rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 17;
	rng_state ^= rng_state << 5;
	return rng_state;
}

/* Re-checksum a table (header at phys) if its Length fits in memory. */
static void refix(uint64_t phys)
{
	uint8_t *t = fake_ptr(&M, phys);
	uint32_t len = (uint32_t)t[4] | (uint32_t)t[5] << 8 |
		       (uint32_t)t[6] << 16 | (uint32_t)t[7] << 24;

	if (len >= ACPI_HDR_LEN && len <= M.size - (phys - M.base))
		tbl_fix(t);
}

/*
 * Random byte mutations of a whole ACPI image, half of them with the
 * checksums fixed up again so that the damage gets past the checksums.
 * Discovery must never fault (ASan/UBSan watch), must return one of the
 * expected codes, and its output must keep its invariants.
 */
static void test_hostile_mutations(void **state)
{
	static const struct acpi_mcfg_ent e[] = {
		{ 0xb0000000, 0, 0x00, 0x7f }, { 0xc0000000, 1, 0x00, 0xff },
	};
	uint64_t tables[5], rsdp;
	uint8_t *pristine;
	size_t used;
	struct out quiet = out_null;

	(void)state;
	tables[0] = add_fadt(&M, 244, 3, 0, 0x0012);
	tables[1] = add_mcfg(&M, e, ARRAY_SIZE(e));
	tables[2] = add_table(&M, "SSDT", 64);
	tables[3] = add_root(&M, true, tables, 3, 5);
	tables[4] = add_root(&M, false, tables, 3, 0);
	rsdp = add_rsdp(&M, 2, (uint32_t)tables[4], tables[3]);
	used = M.used;
	pristine = malloc(used);
	assert_non_null(pristine);
	memcpy(pristine, M.buf, used);
	log_set_sink(&quiet, LOG_DEBUG);
	rng_state = 0x2f671e2d;

	for (unsigned iter = 0; iter < 20000; iter++) {
		unsigned flips = 1 + rng() % 4;
		int rc;

		memcpy(M.buf, pristine, used);
		for (unsigned k = 0; k < flips; k++)
			M.buf[rng() % used] ^= (uint8_t)(1u << (rng() % 8));
		if (rng() & 1) {
			uint8_t *p = fake_ptr(&M, rsdp);
			uint32_t plen = (uint32_t)p[20] | (uint32_t)p[21] << 8 |
					(uint32_t)p[22] << 16 |
					(uint32_t)p[23] << 24;

			for (unsigned k = 0; k < ARRAY_SIZE(tables); k++)
				refix(tables[k]);
			fix_checksum(p, 20, 8);
			if (plen >= 36 && plen <= M.size - (rsdp - M.base))
				fix_checksum(p, plen, 32);
		}
		rc = acpi_discover(&MEM, rsdp, &info);
		if (rc && rc != -AE_NOENT && rc != -AE_BADMSG &&
		    rc != -AE_INVAL && rc != -AE_MSGSIZE && rc != -AE_FAULT &&
		    rc != -AE_2BIG)
			fail_msg("iteration %u: unexpected %d", iter, rc);
		assert_true(info.nfadt <= ACPI_MAX_FADTS);
		assert_true(info.nregions <= MCFG_MAX_REGIONS);
		assert_true(info.root_entries <= ACPI_ROOT_MAX_ENTRIES);
		assert_true(info.bad_entries <= info.root_entries);
		assert_true(rc != 0 || info.nfadt >= 1);
		for (unsigned k = 0; k < info.nfadt; k++)
			assert_int_equal(info.fadt[k].boot_arch_valid,
					 info.fadt[k].length >=
					 FADT_BOOT_ARCH_MIN_LEN);
		/* usable regions never overlap one another */
		for (unsigned i = 0; i < info.nregions; i++) {
			const struct mcfg_region *a = &info.region[i];

			if (a->flags & MCFG_F_UNUSABLE)
				continue;
			assert_true(a->base != 0 && a->start_bus <= a->end_bus);
			for (unsigned j = 0; j < i; j++) {
				const struct mcfg_region *b = &info.region[j];

				if (b->flags & MCFG_F_UNUSABLE)
					continue;
				assert_false(a->segment == b->segment &&
					     a->start_bus <= b->end_bus &&
					     b->start_bus <= a->end_bus);
			}
		}
	}
	free(pristine);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
		T(test_checksum),
		T(test_rsdp_v1_rsdt),
		T(test_rsdp_v2_xsdt_unaligned),
		T(test_rsdp_v2_long),
		T(test_rsdp_bad_checksum),
		T(test_rsdp_bad_ext_checksum),
		T(test_rsdp_bad_signature),
		T(test_rsdp_bad_length),
		T(test_rsdp_unmapped),
		T(test_rsdp_parse_direct),
		T(test_rsdp_v2_zero_xsdt_uses_rsdt),
		T(test_no_root_table),
		T(test_xsdt_bad_entries),
		T(test_table_map),
		T(test_root_table_invalid),
		T(test_root_trailing_bytes),
		T(test_root_too_many_entries),
		T(test_same_table_twice),
		T(test_rsdt_and_xsdt_share_fadt),
		T(test_patch_all_fadts),
		T(test_patch_all_fadts_short),
		T(test_fadt_lengths),
		T(test_fadt_parse_errors),
		T(test_no_fadt),
		T(test_two_fadts),
		T(test_too_many_fadts),
		T(test_fadt_no_aspm),
		T(test_flag_names),
		T(test_patch_set_clear),
		T(test_patch_refuses_short),
		T(test_patch_refuses_invalid),
		T(test_mcfg_flags),
		T(test_mcfg_odd_length),
		T(test_two_mcfgs),
		T(test_mcfg_too_many_regions),
		T(test_hostile_mutations),
#undef T
	};

	return cmocka_run_group_tests_name("acpi", tests, NULL, NULL);
}
