// SPDX-License-Identifier: GPL-2.0-only
/*
 * ACPI discovery: RSDP -> XSDT/RSDT -> FADT and MCFG (ACPI 6.5 sec 5.2),
 * and FADT IAPC_BOOT_ARCH patching with checksum fix-up.
 *
 * Firmware tables are hostile input. Every length is checked against what
 * is mapped before a byte past the header is read, every checksum is
 * verified before a field is used, and every count is derived from the
 * table's own Length and bounded. Multi-byte fields are read with the
 * unaligned little-endian helpers: XSDT entries are 64-bit values at
 * offset 36 + 8 * i, which is not 8-byte aligned when the table is not.
 *
 * The internal checks do not log; they describe the problem in a short
 * string so that the caller logs it once, with its own context and level
 * (a bad root table is an error, a bad root entry only a warning).
 */
#include "acpi.h"
#include "../lib/err.h"
#include "../lib/log.h"
#include "../lib/util.h"

#define ACPI_SIG_RSDP		"RSD PTR "
#define ACPI_SIG_RSDT		"RSDT"
#define ACPI_SIG_XSDT		"XSDT"
#define ACPI_SIG_FADT		"FACP"
#define ACPI_SIG_MCFG		"MCFG"

/* System Description Table Header fields (ACPI 6.5 table 5.4) */
#define ACPI_HDR_LENGTH_OFF	4
#define ACPI_HDR_REVISION_OFF	8
#define ACPI_HDR_CHECKSUM_OFF	9

/* RSDP fields (ACPI 6.5 table 5.3) */
#define RSDP_OEM_ID_OFF		9
#define RSDP_REVISION_OFF	15
#define RSDP_RSDT_OFF		16
#define RSDP_LENGTH_OFF		20
#define RSDP_XSDT_OFF		24

/* Size of the ACPI 1.0 FADT: anything shorter is suspicious. */
#define FADT_V1_LEN		116

#define WHY_LEN			128

uint8_t acpi_checksum(const void *buf, size_t len)
{
	const uint8_t *p = buf;
	uint8_t sum = 0;

	while (len--)
		sum = (uint8_t)(sum + *p++);
	return sum;
}

/* A signature fit for a log line: non-printable bytes become '?'. */
static void sig_str(char out[5], const uint8_t *sig)
{
	for (unsigned i = 0; i < 4; i++)
		out[i] = (sig[i] >= 0x20 && sig[i] < 0x7f) ? (char)sig[i] : '?';
	out[4] = '\0';
}

/* mem->map() with the wrap-around check done here as well. */
static const uint8_t *map_range(const struct acpi_mem *mem, uint64_t phys,
				size_t len)
{
	if (!len || phys > UINT64_MAX - (len - 1))
		return NULL;
	return mem->map(mem->ctx, phys, len);
}

/*
 * Map and validate the table at phys without logging: on failure, why
 * says what is wrong (e.g. "'FACP' checksum mismatch ...").
 */
static int table_check(const struct acpi_mem *mem, uint64_t phys,
		       const char *sig, const uint8_t **table, uint32_t *len,
		       char *why, size_t whylen)
{
	const uint8_t *h, *t;
	char name[5];
	uint32_t length;
	uint8_t sum;

	if (!phys) {
		fmt_snprintf(why, whylen, "address is 0");
		return -AE_FAULT;
	}
	h = map_range(mem, phys, ACPI_HDR_LEN);
	if (!h) {
		fmt_snprintf(why, whylen, "header not in mapped memory");
		return -AE_FAULT;
	}
	sig_str(name, h);
	if (sig && mem_cmp(h, sig, 4)) {
		fmt_snprintf(why, whylen, "signature '%s', expected '%.4s'",
			     name, sig);
		return -AE_INVAL;
	}
	length = get_le32(h + ACPI_HDR_LENGTH_OFF);
	if (length < ACPI_HDR_LEN) {
		fmt_snprintf(why, whylen,
			     "'%s' Length %u is shorter than the %u-byte header",
			     name, length, ACPI_HDR_LEN);
		return -AE_MSGSIZE;
	}
	if (length > ACPI_TABLE_MAX_LEN) {
		fmt_snprintf(why, whylen,
			     "'%s' Length %u exceeds the %u-byte limit",
			     name, length, ACPI_TABLE_MAX_LEN);
		return -AE_2BIG;
	}
	t = map_range(mem, phys, length);
	if (!t) {
		fmt_snprintf(why, whylen,
			     "'%s' Length %u runs past mapped memory",
			     name, length);
		return -AE_FAULT;
	}
	/* A mapper may copy: make sure both views agree on the length. */
	if (get_le32(t + ACPI_HDR_LENGTH_OFF) != length) {
		fmt_snprintf(why, whylen, "'%s' Length changed while mapping",
			     name);
		return -AE_MSGSIZE;
	}
	sum = acpi_checksum(t, length);
	if (sum) {
		fmt_snprintf(why, whylen,
			     "'%s' checksum mismatch (%u bytes sum to 0x%02x)",
			     name, length, sum);
		return -AE_BADMSG;
	}
	*table = t;
	*len = length;
	return 0;
}

int acpi_table_map(const struct acpi_mem *mem, uint64_t phys, const char *sig,
		   void **table, uint32_t *len)
{
	const uint8_t *t = NULL;
	char why[WHY_LEN];
	uint32_t length = 0;
	int rc;

	if (!mem || !mem->map || !table || !len)
		return log_error(-AE_INVAL, "ACPI table at 0x%llx: no mapper",
				 (unsigned long long)phys);
	rc = table_check(mem, phys, sig, &t, &length, why, sizeof(why));
	if (rc)
		return log_error(rc, "ACPI table at 0x%llx: %s",
				 (unsigned long long)phys, why);
	*table = (void *)t;
	*len = length;
	return 0;
}

int acpi_rsdp_parse(const void *buf, size_t len, uint64_t phys,
		    struct acpi_rsdp_info *out)
{
	const uint8_t *p = buf;
	unsigned long long at = phys;
	uint32_t length = ACPI_RSDP_V1_LEN;
	uint64_t xsdt = 0;
	uint8_t revision, sum;

	if (!p || !out)
		return log_error(-AE_INVAL, "RSDP at 0x%llx: nothing to parse",
				 at);
	mem_set(out, 0, sizeof(*out));
	if (len < ACPI_RSDP_V1_LEN)
		return log_error(-AE_MSGSIZE,
				 "RSDP at 0x%llx: only %zu bytes readable, %u needed",
				 at, len, ACPI_RSDP_V1_LEN);
	if (mem_cmp(p, ACPI_SIG_RSDP, 8))
		return log_error(-AE_INVAL,
				 "RSDP at 0x%llx: signature is not \"RSD PTR \"",
				 at);
	sum = acpi_checksum(p, ACPI_RSDP_V1_LEN);
	if (sum)
		return log_error(-AE_BADMSG,
				 "RSDP at 0x%llx: checksum mismatch (first %u bytes sum to 0x%02x)",
				 at, ACPI_RSDP_V1_LEN, sum);
	revision = p[RSDP_REVISION_OFF];
	if (revision >= 2) {
		if (len < ACPI_RSDP_V2_LEN)
			return log_error(-AE_MSGSIZE,
					 "RSDP at 0x%llx: revision %u but only %zu bytes readable, %u needed",
					 at, revision, len, ACPI_RSDP_V2_LEN);
		length = get_le32(p + RSDP_LENGTH_OFF);
		if (length < ACPI_RSDP_V2_LEN)
			return log_error(-AE_MSGSIZE,
					 "RSDP at 0x%llx: revision %u with Length %u, below the %u-byte minimum",
					 at, revision, length,
					 ACPI_RSDP_V2_LEN);
		if (length > len)
			return log_error(-AE_MSGSIZE,
					 "RSDP at 0x%llx: Length %u exceeds the %zu readable bytes",
					 at, length, len);
		sum = acpi_checksum(p, length);
		if (sum)
			return log_error(-AE_BADMSG,
					 "RSDP at 0x%llx: extended checksum mismatch (%u bytes sum to 0x%02x)",
					 at, length, sum);
		xsdt = get_le64(p + RSDP_XSDT_OFF);
	}
	out->phys = phys;
	out->revision = revision;
	for (unsigned i = 0; i < 6; i++) {
		uint8_t c = p[RSDP_OEM_ID_OFF + i];

		out->oem_id[i] = (c >= 0x20 && c < 0x7f) ? (char)c : '?';
	}
	out->oem_id[6] = '\0';
	out->rsdt = get_le32(p + RSDP_RSDT_OFF);
	out->xsdt = xsdt;
	out->length = length;
	return 0;
}

/*
 * Map as much of the RSDP as its revision and Length ask for (20 bytes,
 * 36, or Length), so that acpi_rsdp_parse() sees what is readable and
 * explains what is missing.
 */
static int rsdp_map(const struct acpi_mem *mem, uint64_t phys,
		    const uint8_t **buf, size_t *len)
{
	const uint8_t *p;
	uint32_t length;

	p = map_range(mem, phys, ACPI_RSDP_V1_LEN);
	if (!p)
		return log_error(-AE_FAULT,
				 "RSDP at 0x%llx: not in mapped memory",
				 (unsigned long long)phys);
	*buf = p;
	*len = ACPI_RSDP_V1_LEN;
	if (p[RSDP_REVISION_OFF] < 2)
		return 0;
	p = map_range(mem, phys, ACPI_RSDP_V2_LEN);
	if (!p)
		return 0;
	*buf = p;
	*len = ACPI_RSDP_V2_LEN;
	length = get_le32(p + RSDP_LENGTH_OFF);
	if (length <= ACPI_RSDP_V2_LEN || length > ACPI_TABLE_MAX_LEN)
		return 0;
	p = map_range(mem, phys, length);
	if (p) {
		*buf = p;
		*len = length;
	}
	return 0;
}

static void fadt_decode(const uint8_t *t, uint32_t len, uint64_t phys,
			struct acpi_fadt_info *out)
{
	mem_set(out, 0, sizeof(*out));
	out->phys = phys;
	out->length = len;
	out->revision = t[ACPI_HDR_REVISION_OFF];
	if (len > FADT_MINOR_REV_OFF)
		out->minor_revision = t[FADT_MINOR_REV_OFF];
	if (len >= FADT_BOOT_ARCH_MIN_LEN) {
		out->boot_arch_valid = true;
		out->iapc_boot_arch = get_le16(t + FADT_IAPC_BOOT_ARCH_OFF);
	}
}

/* Common checks of the public decoders: a header whose Length is len. */
static int table_args(const void *table, uint32_t len, const char *sig)
{
	const uint8_t *t = table;
	char name[5];

	if (!t)
		return log_error(-AE_INVAL, "%.4s: no table", sig);
	if (len < ACPI_HDR_LEN)
		return log_error(-AE_MSGSIZE,
				 "%.4s is %u bytes: shorter than the %u-byte header",
				 sig, len, ACPI_HDR_LEN);
	if (mem_cmp(t, sig, 4)) {
		sig_str(name, t);
		return log_error(-AE_INVAL, "table '%s' is not a %.4s",
				 name, sig);
	}
	if (get_le32(t + ACPI_HDR_LENGTH_OFF) != len)
		return log_error(-AE_MSGSIZE,
				 "%.4s: header Length %u but %u bytes given",
				 sig, get_le32(t + ACPI_HDR_LENGTH_OFF), len);
	return 0;
}

int acpi_fadt_parse(const void *table, uint32_t len, uint64_t phys,
		    struct acpi_fadt_info *out)
{
	int rc;

	if (!out)
		return log_error(-AE_INVAL, "FADT: no output");
	mem_set(out, 0, sizeof(*out));
	rc = table_args(table, len, ACPI_SIG_FADT);
	if (rc)
		return rc;
	fadt_decode(table, len, phys, out);
	return 0;
}

bool fadt_no_aspm(const struct acpi_fadt_info *f)
{
	return f && f->boot_arch_valid &&
	       (f->iapc_boot_arch & FADT_IAPC_NO_ASPM);
}

/*
 * Decode up to max MCFG allocations, flag the ones that are reversed or
 * at address 0 (overlaps are flagged by mcfg_overlap(), which needs the
 * regions of earlier tables too). *total is how many the table holds.
 */
static int mcfg_decode(const uint8_t *t, uint32_t len,
		       struct mcfg_region *out, unsigned max, unsigned *n,
		       unsigned *total, char *why, size_t whylen)
{
	unsigned count, keep;

	if (len < MCFG_ENTRIES_OFF ||
	    (len - MCFG_ENTRIES_OFF) % MCFG_ENTRY_LEN) {
		fmt_snprintf(why, whylen,
			     "MCFG is %u bytes: not %u + n * %u", len,
			     MCFG_ENTRIES_OFF, MCFG_ENTRY_LEN);
		return -AE_MSGSIZE;
	}
	count = (len - MCFG_ENTRIES_OFF) / MCFG_ENTRY_LEN;
	keep = MIN(count, max);
	for (unsigned i = 0; i < keep; i++) {
		const uint8_t *e = t + MCFG_ENTRIES_OFF + i * MCFG_ENTRY_LEN;
		struct mcfg_region *r = &out[i];

		r->base = get_le64(e);
		r->segment = get_le16(e + 8);
		r->start_bus = e[10];
		r->end_bus = e[11];
		r->flags = 0;
		if (r->end_bus < r->start_bus)
			r->flags |= MCFG_F_REVERSED;
		if (!r->base)
			r->flags |= MCFG_F_ZERO_BASE;
	}
	*n = keep;
	*total = count;
	return 0;
}

/*
 * Does region k overlap a usable region before it? Returns that region's
 * index, or -1. Only regions still usable count: the first usable claim
 * on a bus wins, and the usable regions never overlap one another.
 */
static int mcfg_overlap(const struct mcfg_region *r, unsigned k)
{
	const struct mcfg_region *a = &r[k];

	if (a->flags & MCFG_F_REVERSED)
		return -1;	/* no bus range to speak of */
	for (unsigned j = 0; j < k; j++) {
		const struct mcfg_region *b = &r[j];

		if (b->flags & MCFG_F_UNUSABLE)
			continue;
		if (b->segment == a->segment &&
		    a->start_bus <= b->end_bus && b->start_bus <= a->end_bus)
			return (int)j;
	}
	return -1;
}

int acpi_mcfg_parse(const void *table, uint32_t len, struct mcfg_region *out,
		    unsigned max, unsigned *n)
{
	char why[WHY_LEN];
	unsigned total = 0;
	int rc;

	if (!n || (!out && max))
		return log_error(-AE_INVAL, "MCFG: no output");
	*n = 0;
	rc = table_args(table, len, ACPI_SIG_MCFG);
	if (rc)
		return rc;
	rc = mcfg_decode(table, len, out, max, n, &total, why, sizeof(why));
	if (rc)
		return log_error(rc, "%s", why);
	for (unsigned k = 0; k < *n; k++)
		if (mcfg_overlap(out, k) >= 0)
			out[k].flags |= MCFG_F_OVERLAP;
	if (total > *n)
		log_warn(0, "MCFG has %u allocations, room for %u: the last %u are ignored",
			 total, *n, total - *n);
	return 0;
}

/*
 * The root table (RSDT: 32-bit entries, XSDT: 64-bit entries, ACPI 6.5
 * sec 5.2.7, 5.2.8), mapped and validated, for discovery and patching
 * alike. count is bounded by ACPI_ROOT_MAX_ENTRIES; total and rem say
 * what the Length held, for the caller to report.
 */
struct acpi_root {
	const char *sig;	/* ACPI_SIG_XSDT or ACPI_SIG_RSDT */
	uint64_t phys;
	uint32_t len;
	const uint8_t *entries;
	unsigned esize;		/* 8 or 4 */
	uint32_t count;		/* entries read */
	uint32_t total;		/* entries the Length holds */
	uint32_t rem;		/* trailing bytes after the last entry */
};

static int root_open(const struct acpi_mem *mem, uint64_t phys, bool xsdt,
		     struct acpi_root *r, char *why, size_t whylen)
{
	const uint8_t *t = NULL;
	int rc;

	mem_set(r, 0, sizeof(*r));
	r->sig = xsdt ? ACPI_SIG_XSDT : ACPI_SIG_RSDT;
	r->esize = xsdt ? 8 : 4;
	r->phys = phys;
	rc = table_check(mem, phys, r->sig, &t, &r->len, why, whylen);
	if (rc)
		return rc;
	r->entries = t + ACPI_HDR_LEN;
	r->total = (r->len - ACPI_HDR_LEN) / r->esize;
	r->rem = (r->len - ACPI_HDR_LEN) % r->esize;
	r->count = MIN(r->total, ACPI_ROOT_MAX_ENTRIES);
	return 0;
}

static uint64_t root_entry(const struct acpi_root *r, unsigned i)
{
	const uint8_t *e = r->entries + (size_t)i * r->esize;

	return r->esize == 8 ? get_le64(e) : get_le32(e);
}

/* State of one walk of the root table. */
struct walk {
	const struct acpi_mem *mem;
	struct acpi_info *info;
	struct acpi_root r;
	const char *root;	/* "XSDT" or "RSDT" */
	unsigned fadts_seen;	/* including those beyond ACPI_MAX_FADTS */
	bool mcfg_full;		/* warned once that regions are full */
};

static uint64_t walk_entry(const struct walk *w, unsigned i)
{
	return root_entry(&w->r, i);
}

static void walk_fadt(struct walk *w, unsigned i, uint64_t phys,
		      const uint8_t *t, uint32_t len)
{
	struct acpi_info *info = w->info;
	struct acpi_fadt_info *f;
	unsigned long long at = phys;

	w->fadts_seen++;
	if (info->nfadt >= ACPI_MAX_FADTS) {
		log_warn(0, "%s entry %u at 0x%llx: FADT ignored, already %u FADTs",
			 w->root, i, at, info->nfadt);
		return;
	}
	f = &info->fadt[info->nfadt++];
	fadt_decode(t, len, phys, f);
	if (len < FADT_V1_LEN)
		log_warn(0, "FADT at 0x%llx: %u bytes, shorter than the %u-byte ACPI 1.0 FADT",
			 at, len, FADT_V1_LEN);
	if (!f->boot_arch_valid)
		log_info("FADT at 0x%llx: %u bytes, revision %u: too short to carry IAPC_BOOT_ARCH, flags ignored",
			 at, len, f->revision);
	else
		log_info("FADT at 0x%llx: %u bytes, revision %u.%u, IAPC_BOOT_ARCH 0x%04x%s",
			 at, len, f->revision, f->minor_revision,
			 f->iapc_boot_arch,
			 fadt_no_aspm(f) ? " (PCIe ASPM unsupported)" : "");
}

static void log_region(unsigned long long table, unsigned entry,
		       const struct mcfg_region *regions, unsigned k,
		       int overlap)
{
	const struct mcfg_region *r = &regions[k];
	char why[WHY_LEN];
	size_t n = 0;

	if (!(r->flags & MCFG_F_UNUSABLE)) {
		log_info("MCFG 0x%llx entry %u: segment %u buses %02x-%02x, ECAM 0x%llx",
			 table, entry, r->segment, r->start_bus, r->end_bus,
			 (unsigned long long)r->base);
		return;
	}
	why[0] = '\0';
	if (r->flags & MCFG_F_REVERSED)
		n += (size_t)fmt_snprintf(why + n, sizeof(why) - n,
					  "%send bus below start bus",
					  n ? ", " : "");
	if (n < sizeof(why) && (r->flags & MCFG_F_ZERO_BASE))
		n += (size_t)fmt_snprintf(why + n, sizeof(why) - n,
					  "%sbase address is 0",
					  n ? ", " : "");
	if (n < sizeof(why) && (r->flags & MCFG_F_OVERLAP) && overlap >= 0)
		fmt_snprintf(why + n, sizeof(why) - n,
			     "%soverlaps region %d (segment %u buses 0x%02x-0x%02x)",
			     n ? ", " : "", overlap,
			     regions[overlap].segment,
			     regions[overlap].start_bus,
			     regions[overlap].end_bus);
	log_warn(0, "MCFG at 0x%llx entry %u: segment %u buses 0x%02x-0x%02x, ECAM base 0x%llx: %s; region not used",
		 table, entry, r->segment, r->start_bus, r->end_bus,
		 (unsigned long long)r->base, why);
}

static void walk_mcfg(struct walk *w, unsigned i, uint64_t phys,
		      const uint8_t *t, uint32_t len)
{
	struct acpi_info *info = w->info;
	unsigned first = info->nregions, n = 0, total = 0;
	char why[WHY_LEN];
	int rc;

	rc = mcfg_decode(t, len, info->region + first,
			 MCFG_MAX_REGIONS - first, &n, &total,
			 why, sizeof(why));
	if (rc) {
		info->bad_entries++;
		log_warn(rc, "%s entry %u at 0x%llx: %s; skipped",
			 w->root, i, (unsigned long long)phys, why);
		return;
	}
	info->nmcfg_tables++;
	if (!total)
		log_warn(0, "MCFG at 0x%llx: no allocations",
			 (unsigned long long)phys);
	for (unsigned k = first; k < first + n; k++) {
		int o = mcfg_overlap(info->region, k);

		if (o >= 0)
			info->region[k].flags |= MCFG_F_OVERLAP;
		log_region(phys, k - first, info->region, k, o);
	}
	info->nregions += n;
	if (total > n)
		log_warn(0, "MCFG at 0x%llx: %u allocations, room for %u more (limit %u): the last %u are ignored",
			 (unsigned long long)phys, total, n, MCFG_MAX_REGIONS,
			 total - n);
}

static void aml_add(struct acpi_info *info, uint64_t phys, uint32_t len, const char *sig)
{
	struct acpi_aml_table *a;

	if (info->naml >= ACPI_MAX_AML) {
		/* said once, in find_dsdt(); the _OSC query runs without it */
		info->aml_dropped++;
		return;
	}
	a = &info->aml[info->naml++];
	a->phys = phys;
	a->len = len;
	str_copy(a->sig, sig, sizeof(a->sig));
}

/* The first FADT's DSDT: X_DSDT when the FADT has it and it is not zero,
 * else DSDT (ACPI 6.5 table 5.9; ACPICA's acpi_tb_select_address()). It
 * goes first in info->aml. */
#define FADT_DSDT_OFF	40
#define FADT_X_DSDT_OFF	140
static void find_dsdt(const struct acpi_mem *mem, struct acpi_info *info)
{
	const uint8_t *f = NULL, *t = NULL;
	uint32_t flen = 0, len = 0;
	uint64_t phys = 0;
	char why[WHY_LEN];

	if (info->aml_dropped)
		log_info("%u AML tables beyond the first %u are not loaded for the _OSC query",
			 info->aml_dropped, ACPI_MAX_AML - 1);
	if (!info->nfadt || table_check(mem, info->fadt[0].phys, ACPI_SIG_FADT, &f, &flen,
					 why, sizeof(why)))
		return;
	if (flen >= FADT_X_DSDT_OFF + 8)
		phys = get_le64(f + FADT_X_DSDT_OFF);
	if (!phys && flen >= FADT_DSDT_OFF + 4)
		phys = get_le32(f + FADT_DSDT_OFF);
	if (!phys)
		return;
	if (table_check(mem, phys, "DSDT", &t, &len, why, sizeof(why))) {
		log_warn(0, "DSDT at 0x%llx: %s; no AML", (unsigned long long)phys, why);
		return;
	}
	if (info->naml >= ACPI_MAX_AML)
		info->naml = ACPI_MAX_AML - 1;
	for (unsigned k = info->naml; k > 0; k--)
		info->aml[k] = info->aml[k - 1];
	info->naml++;
	info->aml[0] = (struct acpi_aml_table){ .phys = phys, .len = len, .sig = "DSDT" };
	info->dsdt_valid = true;
}

static void walk_one(struct walk *w, unsigned i)
{
	uint64_t phys = walk_entry(w, i);
	unsigned long long at = phys;
	const uint8_t *t = NULL;
	char why[WHY_LEN], name[5];
	uint32_t len = 0;
	int rc;

	if (!phys) {
		w->info->bad_entries++;
		log_warn(0, "%s entry %u is 0; skipped", w->root, i);
		return;
	}
	for (unsigned j = 0; j < i; j++) {
		if (walk_entry(w, j) == phys) {
			w->info->bad_entries++;
			log_warn(0, "%s entry %u at 0x%llx: same address as entry %u; skipped",
				 w->root, i, at, j);
			return;
		}
	}
	rc = table_check(w->mem, phys, NULL, &t, &len, why, sizeof(why));
	if (rc) {
		w->info->bad_entries++;
		log_warn(rc, "%s entry %u at 0x%llx: %s; skipped",
			 w->root, i, at, why);
		return;
	}
	sig_str(name, t);
	log_debug("%s entry %u at 0x%llx: '%s', %u bytes", w->root, i, at,
		  name, len);
	if (!mem_cmp(t, ACPI_SIG_FADT, 4))
		walk_fadt(w, i, phys, t, len);
	else if (!mem_cmp(t, ACPI_SIG_MCFG, 4))
		walk_mcfg(w, i, phys, t, len);
	else if (!mem_cmp(t, "SSDT", 4) || !mem_cmp(t, "PSDT", 4))
		aml_add(w->info, phys, len, name);
}

static void check_fadts(const struct walk *w)
{
	const struct acpi_info *info = w->info;
	const struct acpi_fadt_info *a = &info->fadt[0];
	const struct acpi_fadt_info *b = NULL;

	if (w->fadts_seen < 2)
		return;
	for (unsigned k = 1; k < info->nfadt && !b; k++)
		if (info->fadt[k].boot_arch_valid != a->boot_arch_valid ||
		    info->fadt[k].iapc_boot_arch != a->iapc_boot_arch)
			b = &info->fadt[k];
	if (!b)
		log_warn(-AE_EXIST, "%u FADTs in the %s; their IAPC_BOOT_ARCH agree (0x%04x%s); the first, at 0x%llx, is used",
			 w->fadts_seen, w->root, a->iapc_boot_arch,
			 a->boot_arch_valid ? "" : ", absent",
			 (unsigned long long)a->phys);
	else
		log_warn(-AE_EXIST, "%u FADTs in the %s; their IAPC_BOOT_ARCH disagree: 0x%04x%s at 0x%llx vs 0x%04x%s at 0x%llx; the first is used",
			 w->fadts_seen, w->root,
			 a->iapc_boot_arch, a->boot_arch_valid ? "" : " (absent)",
			 (unsigned long long)a->phys,
			 b->iapc_boot_arch, b->boot_arch_valid ? "" : " (absent)",
			 (unsigned long long)b->phys);
}

/* The RSDP, validated: as much of it as its revision asks for. */
static int rsdp_read(const struct acpi_mem *mem, uint64_t phys,
		     struct acpi_rsdp_info *out)
{
	const uint8_t *p = NULL;
	size_t plen = 0;
	int rc;

	rc = rsdp_map(mem, phys, &p, &plen);
	if (rc)
		return rc;
	return acpi_rsdp_parse(p, plen, phys, out);
}

/* Open the XSDT when the RSDP gives one, else the RSDT, and say so. */
static int walk_open(struct walk *w, uint64_t rsdp_phys)
{
	struct acpi_info *info = w->info;
	unsigned long long at = rsdp_phys;
	char why[WHY_LEN];
	uint64_t root;
	int rc;

	info->use_xsdt = info->rsdp.xsdt != 0;
	if (info->use_xsdt) {
		root = info->rsdp.xsdt;
	} else {
		if (info->rsdp.revision >= 2)
			log_warn(0, "RSDP at 0x%llx: revision %u but XsdtAddress is 0; using the RSDT at 0x%08x",
				 at, info->rsdp.revision, info->rsdp.rsdt);
		if (!info->rsdp.rsdt)
			return log_error(-AE_INVAL,
					 "RSDP at 0x%llx: RsdtAddress is 0 and there is no XSDT: no root table",
					 at);
		root = info->rsdp.rsdt;
	}
	info->root_phys = root;
	w->root = info->use_xsdt ? ACPI_SIG_XSDT : ACPI_SIG_RSDT;
	rc = root_open(w->mem, root, info->use_xsdt, &w->r, why, sizeof(why));
	if (rc)
		return log_error(rc, "%s at 0x%llx (from the RSDP at 0x%llx): %s",
				 w->root, (unsigned long long)root, at, why);
	if (w->r.rem)
		log_warn(0, "%s at 0x%llx: Length %u is not %u + n * %u; ignoring %u trailing bytes",
			 w->root, (unsigned long long)root, w->r.len, ACPI_HDR_LEN,
			 w->r.esize, w->r.rem);
	if (w->r.total > w->r.count)
		log_warn(0, "%s at 0x%llx: %u entries, only the first %u are read",
			 w->root, (unsigned long long)root, w->r.total,
			 ACPI_ROOT_MAX_ENTRIES);
	info->root_entries = w->r.count;
	log_info("RSDP 0x%llx rev %u OEM '%s': %s 0x%llx, %u entries",
		 at, info->rsdp.revision, info->rsdp.oem_id, w->root,
		 (unsigned long long)root, w->r.count);
	return 0;
}

/* After the walk: what the whole root table came to. */
static int walk_close(const struct walk *w)
{
	const struct acpi_info *info = w->info;
	unsigned long long root = info->root_phys;

	check_fadts(w);
	if (info->nmcfg_tables > 1)
		log_warn(0, "%u MCFG tables in the %s: the regions of all of them are used (%u in all)",
			 info->nmcfg_tables, w->root, info->nregions);
	if (info->bad_entries)
		log_warn(0, "%s at 0x%llx: %u of %u entries skipped",
			 w->root, root, info->bad_entries, w->r.count);
	if (!info->nfadt)
		return log_error(-AE_NOENT, "no FADT (FACP) among the %u entries of the %s at 0x%llx",
				 w->r.count, w->root, root);
	return 0;
}

int acpi_discover(const struct acpi_mem *mem, uint64_t rsdp_phys,
		  struct acpi_info *info)
{
	struct walk w;
	int rc;

	if (!info)
		return log_error(-AE_INVAL, "ACPI discovery: no output");
	mem_set(info, 0, sizeof(*info));
	if (!mem || !mem->map)
		return log_error(-AE_INVAL, "ACPI discovery: no memory mapper");
	rc = rsdp_read(mem, rsdp_phys, &info->rsdp);
	if (rc)
		return rc;
	mem_set(&w, 0, sizeof(w));
	w.mem = mem;
	w.info = info;
	rc = walk_open(&w, rsdp_phys);
	if (rc)
		return rc;
	for (unsigned i = 0; i < w.r.count; i++)
		walk_one(&w, i);
	find_dsdt(mem, info);
	return walk_close(&w);
}

int fadt_patch_boot_arch(void *table, uint32_t len, uint16_t set,
			 uint16_t clear, uint16_t *before, uint16_t *after)
{
	uint8_t *t = table;
	uint16_t old, val;
	uint8_t sum, old_sum;
	int rc;

	rc = table_args(table, len, ACPI_SIG_FADT);
	if (rc)
		return rc;
	if (len < FADT_BOOT_ARCH_MIN_LEN)
		return log_error(-AE_NOTSUP,
				 "FADT is %u bytes: too short to carry IAPC_BOOT_ARCH (needs %u); not patched",
				 len, FADT_BOOT_ARCH_MIN_LEN);
	sum = acpi_checksum(t, len);
	if (sum)
		return log_error(-AE_BADMSG,
				 "FADT checksum mismatch (%u bytes sum to 0x%02x); not patched",
				 len, sum);
	if (set & clear)
		return log_error(-AE_INVAL,
				 "FADT IAPC_BOOT_ARCH: bits 0x%04x both set and cleared; not patched",
				 set & clear);
	old = get_le16(t + FADT_IAPC_BOOT_ARCH_OFF);
	val = (uint16_t)((old & ~clear) | set);
	if (before)
		*before = old;
	if (after)
		*after = val;
	if (val == old) {
		log_info("FADT IAPC_BOOT_ARCH 0x%04x: already as asked, not written",
			 old);
		return 0;
	}
	old_sum = t[ACPI_HDR_CHECKSUM_OFF];
	t[FADT_IAPC_BOOT_ARCH_OFF] = (uint8_t)val;
	t[FADT_IAPC_BOOT_ARCH_OFF + 1] = (uint8_t)(val >> 8);
	t[ACPI_HDR_CHECKSUM_OFF] = 0;
	t[ACPI_HDR_CHECKSUM_OFF] = (uint8_t)(0 - acpi_checksum(t, len));
	log_info("FADT IAPC_BOOT_ARCH 0x%04x -> 0x%04x, checksum 0x%02x -> 0x%02x",
		 old, val, old_sum, t[ACPI_HDR_CHECKSUM_OFF]);
	return 0;
}

const char *fadt_iapc_flag_name(unsigned bit)
{
	switch (bit) {
	case 0:	return "legacy-devices";
	case 1:	return "8042";
	case 2:	return "no-vga";
	case 3:	return "no-msi";
	case 4:	return "no-aspm";
	case 5:	return "no-cmos-rtc";
	}
	return NULL;
}

/* Patch the FADT at phys, entry i of root r, unless res[] has it. */
static void patch_entry(const struct acpi_mem *mem, const struct acpi_root *r,
			unsigned i, uint64_t phys, uint16_t set, uint16_t clear,
			struct fadt_patch *res, unsigned max, unsigned *n)
{
	const uint8_t *h = map_range(mem, phys, ACPI_HDR_LEN);
	struct fadt_patch *p;
	void *ft;
	uint32_t flen;

	if (!h || mem_cmp(h, ACPI_SIG_FADT, 4))
		return;
	for (unsigned k = 0; k < *n; k++)
		if (res[k].phys == phys)
			return;
	if (*n >= max)
		return;
	p = &res[(*n)++];
	mem_set(p, 0, sizeof(*p));
	p->phys = phys;
	p->root = r->sig;
	p->rc = acpi_table_map(mem, phys, ACPI_SIG_FADT, &ft, &flen);
	if (p->rc) {
		log_error(p->rc, "FADT at 0x%llx (%s entry %u): invalid, not patched",
			  (unsigned long long)phys, r->sig, i);
		return;
	}
	p->length = flen;
	p->rc = fadt_patch_boot_arch(ft, flen, set, clear, &p->before, &p->after);
}

/* Every FADT entry of one root table, deduplicated against res[]. */
static void patch_root(const struct acpi_mem *mem, uint64_t root, bool xsdt,
		       uint16_t set, uint16_t clear, struct fadt_patch *res,
		       unsigned max, unsigned *n)
{
	struct acpi_root r;
	char why[WHY_LEN];
	int rc;

	if (!root)
		return;
	rc = root_open(mem, root, xsdt, &r, why, sizeof(why));
	if (rc) {
		log_error(rc, "ACPI table at 0x%llx: %s",
			  (unsigned long long)root, why);
		log_warn(rc, "%s at 0x%llx: not usable, its FADTs are not patched",
			 r.sig, (unsigned long long)root);
		return;
	}
	for (unsigned i = 0; i < r.count; i++)
		patch_entry(mem, &r, i, root_entry(&r, i), set, clear, res,
			    max, n);
}

int acpi_patch_fadts(const struct acpi_mem *mem, uint64_t rsdp_phys,
		     uint16_t set, uint16_t clear, struct fadt_patch *res,
		     unsigned max, unsigned *n)
{
	struct acpi_rsdp_info r;
	int rc;

	*n = 0;
	rc = rsdp_read(mem, rsdp_phys, &r);
	if (rc)
		return rc;
	/* both roots: an OS may follow either (Linux prefers the XSDT) */
	patch_root(mem, r.xsdt, true, set, clear, res, max, n);
	patch_root(mem, r.rsdt, false, set, clear, res, max, n);
	if (!*n)
		return log_error(-AE_NOENT, "no FADT reachable from the RSDT or XSDT");
	for (unsigned i = 0; i < *n; i++)
		if (res[i].rc)
			return res[i].rc;
	return 0;
}
