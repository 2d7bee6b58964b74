// SPDX-License-Identifier: GPL-2.0-only
/*
 * Every PCI host bridge's _OSC, asked before the OS the way Linux 6.1 asks
 * it (drivers/acpi/pci_root.c: acpi_pci_root_add(), negotiate_os_control(),
 * acpi_pci_osc_control_set(), acpi_pci_query_osc(); drivers/acpi/bus.c:
 * acpi_run_osc()), with the Query Support Flag set on every evaluation
 * (PCI Firmware Spec r3.3 sec 4.5.1): the final request Linux makes after
 * its queries commits the firmware, so it is predicted, not made.
 *
 * ACPICA gets a root of our own (an RSDP, an XSDT and a hardware-reduced
 * FADT whose X_DSDT is the DSDT given): the same path for the firmware's
 * tables, a Linux machine's /sys/firmware/acpi/tables and a fuzzer's
 * bytes. Only tables are loaded and module-level code run; no _INI, no
 * _REG, no hardware mode change (acpi_enable_subsystem() is never called).
 */
#include <acpi/acpi.h>

#include "acpi/aml/internal.h"
/* lib/err.h's AE_OK is ACPICA's (0); its other names do not clash */
#undef AE_OK
#include "lib/err.h"
#include "lib/fmt.h"
#include "lib/util.h"

/* ------------------------------------------------------------ the root we hand over */

#define XSDT_MAX	(AML_MAX_BLOBS - 4)
#define FADT_LEN	276	/* ACPI 6.x FADT */
#define FADT_X_DSDT	140
#define FADT_FLAGS	112
#define FADT_HW_REDUCED	(1u << 20)

static struct {
	uint8_t rsdp[36];
	uint8_t fadt[FADT_LEN];
	uint8_t xsdt[36 + 8 * (XSDT_MAX + 1)];
} root __attribute__((aligned(16)));

static void put_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static void put_le64(uint8_t *p, uint64_t v)
{
	put_le32(p, (uint32_t)v);
	put_le32(p + 4, (uint32_t)(v >> 32));
}

static uint8_t sum8(const uint8_t *p, size_t n)
{
	uint8_t s = 0;

	while (n--)
		s = (uint8_t)(s + *p++);
	return s;
}

static void header(uint8_t *t, const char *sig, uint32_t len, uint8_t rev)
{
	mem_copy(t, sig, 4);
	put_le32(t + 4, len);
	t[8] = rev;
	mem_copy(t + 10, "ASPMCT", 6);
	mem_copy(t + 16, "OSCQUERY", 8);
	t[9] = (uint8_t)(0x100 - sum8(t, len));
}

static void blob_add(struct aml_session *s, const void *p, size_t len)
{
	s->blob[s->nblobs].p = p;
	s->blob[s->nblobs].len = len;
	s->nblobs++;
}

/* Take the DSDT and the SSDTs (and PSDTs) that look like tables; anything
 * else is counted out. Checksums are ACPICA's to judge, as in Linux. */
static int build_root(struct aml_session *s, const struct aml_table *t, unsigned n,
		      struct osc_report *out)
{
	const uint8_t *dsdt = NULL;
	unsigned i, nx = 0;

	mem_set(&root, 0, sizeof(root));
	s->nblobs = 0;
	for (i = 0; i < n; i++) {
		const uint8_t *p = t[i].data;

		if (!p || t[i].len < 36 || get_le32(p + 4) < 36 ||
		    get_le32(p + 4) > t[i].len)
			continue;
		if (!mem_cmp(p, "DSDT", 4) && !dsdt) {
			dsdt = p;
		} else if ((!mem_cmp(p, "SSDT", 4) || !mem_cmp(p, "PSDT", 4)) && nx < XSDT_MAX) {
			put_le64(root.xsdt + 36 + 8 * (1 + nx++), (uintptr_t)p);
		} else {
			continue;
		}
		blob_add(s, p, get_le32(p + 4));
	}
	if (!dsdt) {
		str_copy(out->load_reason, "no-dsdt", sizeof(out->load_reason));
		return -AE_NOENT;
	}
	put_le32(root.fadt + FADT_FLAGS, FADT_HW_REDUCED);
	put_le64(root.fadt + FADT_X_DSDT, (uintptr_t)dsdt);
	root.fadt[131] = 5;	/* FADT Minor Version: 6.5 */
	header(root.fadt, "FACP", FADT_LEN, 6);
	put_le64(root.xsdt + 36, (uintptr_t)root.fadt);
	header(root.xsdt, "XSDT", 36 + 8 * (1 + nx), 1);
	mem_copy(root.rsdp, "RSD PTR ", 8);
	mem_copy(root.rsdp + 9, "ASPMCT", 6);
	root.rsdp[15] = 2;
	put_le32(root.rsdp + 20, 36);
	put_le64(root.rsdp + 24, (uintptr_t)root.xsdt);
	root.rsdp[8] = (uint8_t)(0x100 - sum8(root.rsdp, 20));
	root.rsdp[32] = (uint8_t)(0x100 - sum8(root.rsdp, 36));
	blob_add(s, root.rsdp, sizeof(root.rsdp));
	blob_add(s, root.fadt, sizeof(root.fadt));
	blob_add(s, root.xsdt, 36 + 8 * (1 + nx));
	s->rsdp = (uintptr_t)root.rsdp;
	out->ntables = 1 + nx;
	return 0;
}

/* ------------------------------------------------------------ evaluation helpers */

static void node_path(acpi_handle h, char *buf, size_t size)
{
	struct acpi_buffer b = { size, buf };

	buf[0] = 0;
	if (ACPI_FAILURE(acpi_get_name(h, ACPI_FULL_PATHNAME, &b)))
		str_copy(buf, "?", size);
}

static void begin(struct aml_session *s, const char *path, const char *method)
{
	char m[sizeof(s->method)];
	size_t n = str_len(path);

	/* the tail of the path keeps what tells bridges apart */
	fmt_snprintf(m, sizeof(m), "%s.%s", n > 16 ? path + n - 16 : path, method);
	aml_session_begin_eval(s, m);
}

static acpi_status eval_int(struct aml_session *s, acpi_handle h, const char *path,
			    const char *method, uint64_t *v)
{
	union acpi_object obj;
	struct acpi_buffer b = { sizeof(obj), &obj };
	acpi_status st;

	begin(s, path, method);
	st = acpi_evaluate_object_typed(h, (acpi_string)method, NULL, &b, ACPI_TYPE_INTEGER);
	if (ACPI_SUCCESS(st))
		*v = obj.integer.value;
	return st;
}

/* ------------------------------------------------------------ bus range: _CRS, else _BBN */

struct busnr {
	bool found;
	uint8_t start, end;
};

/*
 * The first bus number range of a _CRS resource template (ACPI 6.5 sec
 * 6.4): what Linux's get_root_bridge_busnr_callback() takes from
 * acpi_walk_resources(), decoded here from the bytes, every length checked
 * against the buffer: the first Word (0x88), DWord (0x87) or QWord (0x8A)
 * Address Space Descriptor with Resource Type 2 (bus number range) and a
 * non-zero Range Length gives Minimum .. Minimum + Length - 1. As with
 * acpi_walk_resources(), a template with a descriptor cut short, shorter
 * than its type's fixed part, or no End Tag gives no range at all (the
 * caller then reads _BBN). ACPICA's own resource conversion is not used:
 * Linux 6.1's reads past a malformed descriptor (tests/fuzz/fuzz_aml.c).
 */
static void crs_busnr(const uint8_t *p, size_t n, struct busnr *out)
{
	struct busnr first = { 0 };
	size_t off = 0;

	while (off < n) {
		uint8_t tag = p[off];
		size_t hdr, len;

		if (!(tag & 0x80)) {			/* small descriptor (sec 6.4.2) */
			hdr = 1;
			len = tag & 7u;
			if (off + hdr + len > n)
				return;
			if (((tag >> 3) & 0xfu) == 0xf) {	/* End Tag */
				if (len < 1)
					return;
				*out = first;
				return;
			}
			off += hdr + len;
			continue;
		}
		hdr = 3;				/* large descriptor (sec 6.4.3) */
		if (off + hdr > n)
			return;
		len = (size_t)p[off + 1] | (size_t)p[off + 2] << 8;
		if (off + hdr + len > n)
			return;
		if (!first.found && (tag == 0x88 || tag == 0x87 || tag == 0x8a)) {
			/* width of each of Granularity, Minimum, Maximum,
			 * Translation Offset, Range Length (sec 6.4.3.5.1-3) */
			unsigned w = tag == 0x88 ? 2 : tag == 0x87 ? 4 : 8;
			const uint8_t *d = p + off + hdr;
			uint64_t min = 0, length = 0;

			if (len < 3 + 5 * w)
				return;		/* shorter than its fixed part */
			for (unsigned i = 0; i < w; i++) {
				min |= (uint64_t)d[3 + w + i] << (8 * i);
				length |= (uint64_t)d[3 + 4 * w + i] << (8 * i);
			}
			if (d[0] == 2 && length) {
				first.found = true;
				first.start = (uint8_t)min;
				first.end = (uint8_t)(min + length - 1);
			}
		}
		off += hdr + len;
	}
}

/* _CRS as a Buffer, then its bus number range */
static void root_busnr(struct aml_session *s, acpi_handle h, const char *path,
		       struct busnr *b)
{
	struct acpi_buffer buf = { ACPI_ALLOCATE_BUFFER, NULL };
	const union acpi_object *o;

	begin(s, path, "_CRS");
	if (ACPI_FAILURE(acpi_evaluate_object_typed(h, "_CRS", NULL, &buf, ACPI_TYPE_BUFFER)))
		return;
	o = buf.pointer;
	if (o && o->type == ACPI_TYPE_BUFFER && o->buffer.pointer)
		crs_busnr(o->buffer.pointer, o->buffer.length, b);
	ACPI_FREE(buf.pointer);
}

/* ------------------------------------------------------------ _OSC */

/* "33DB4D5B-1FF7-401C-9657-7441C03DD766" as guid_parse() lays it out */
static const uint8_t pci_osc_uuid[16] = {
	0x5b, 0x4d, 0xdb, 0x33, 0xf7, 0x1f, 0x1c, 0x40,
	0x96, 0x57, 0x74, 0x41, 0xc0, 0x3d, 0xd7, 0x66,
};

/* acpi_run_osc() with capbuf {QUERY_ENABLE, support, control}: the answer's
 * Control DWORD in *control, or the status acpi_run_osc() would return. */
static acpi_status run_osc(struct aml_session *s, acpi_handle h, struct osc_bridge *br,
			   uint32_t support, uint32_t *control)
{
	uint8_t cap[12], uuid[16];
	union acpi_object in[4], *res;
	struct acpi_object_list args = { 4, in };
	struct acpi_buffer b = { ACPI_ALLOCATE_BUFFER, NULL };
	acpi_status st;
	uint32_t errors;

	mem_copy(uuid, pci_osc_uuid, sizeof(uuid));
	put_le32(cap, OSC_QUERY_ENABLE);
	put_le32(cap + 4, support);
	put_le32(cap + 8, *control);
	in[0].type = ACPI_TYPE_BUFFER;
	in[0].buffer.length = 16;
	in[0].buffer.pointer = uuid;
	in[1].type = ACPI_TYPE_INTEGER;
	in[1].integer.value = 1;
	in[2].type = ACPI_TYPE_INTEGER;
	in[2].integer.value = 3;
	in[3].type = ACPI_TYPE_BUFFER;
	in[3].buffer.length = 12;
	in[3].buffer.pointer = cap;
	begin(s, br->path, "_OSC");
	br->queries++;
	st = acpi_evaluate_object(h, "_OSC", &args, &b);
	br->accesses += s->accesses;
	if (ACPI_FAILURE(st))
		return st;
	if (!b.length) {
		st = AE_NULL_OBJECT;
		goto out;
	}
	res = b.pointer;
	if (res->type != ACPI_TYPE_BUFFER || res->buffer.length != 12) {
		st = AE_TYPE;
		goto out;
	}
	br->status_dword = get_le32(res->buffer.pointer);
	errors = br->status_dword & ~OSC_QUERY_ENABLE;
	if (errors && !(errors & OSC_CAPABILITIES_MASK_ERROR)) {
		st = AE_ERROR;
		goto out;
	}
	/* a capabilities-mask error is no error on a query (acpi_run_osc) */
	*control = get_le32(res->buffer.pointer + 8);
out:
	ACPI_FREE(b.pointer);
	return st;
}

/* acpi_pci_osc_control_set() up to the request: query, narrow, query
 * again until the platform's answer stops changing. */
static acpi_status control_set(struct aml_session *s, acpi_handle h, struct osc_bridge *br,
			       uint32_t *mask, uint32_t support)
{
	uint32_t ctrl = *mask;
	acpi_status st;
	unsigned rounds = 0;

	do {
		st = run_osc(s, h, br, support, mask);
		if (ACPI_FAILURE(st))
			return st;
		if (ctrl == *mask)
			break;
		ctrl = *mask;
	} while (*mask && ++rounds < 32);	/* each round drops a bit: 32 at most */
	/* nothing asked (or nothing left): Linux returns success, requests nothing */
	if (!ctrl)
		return AE_OK;
	if ((ctrl & OSC_PCI_EXPRESS_CAPABILITY_CONTROL) != OSC_PCI_EXPRESS_CAPABILITY_CONTROL)
		return AE_SUPPORT;
	/* Linux now requests ctrl without the query flag; a platform that
	 * answers its own query is taken to grant it */
	*mask = ctrl;
	return AE_OK;
}

static void set_reason(struct osc_bridge *br, const char *r)
{
	str_copy(br->reason, r, sizeof(br->reason));
}

/* Linux's answer from the status; unknown where this run cannot stand
 * for the OS's (stopped by a guard, an interpreter failure that depends on
 * what ran before, out of memory). */
static void conclude(struct aml_session *s, struct osc_bridge *br, acpi_status st)
{
	br->status = acpi_format_exception(st);
	if (s->aborted) {
		br->outcome = OSC_OUT_UNKNOWN;
		set_reason(br, s->abort_reason);
	} else if (ACPI_SUCCESS(st)) {
		br->outcome = OSC_OUT_GRANTED;
	} else if ((st & AE_CODE_MASK) == AE_CODE_AML || st == AE_NO_MEMORY ||
		   st == AE_NOT_EXIST || st == AE_NO_HANDLER || st == AE_ACCESS) {
		br->outcome = OSC_OUT_UNKNOWN;
		set_reason(br, st == AE_AML_LOOP_TIMEOUT ? "loop-timeout" : "aml-error");
	} else {
		/* AE_NOT_FOUND (no _OSC), AE_SUPPORT, AE_ERROR (error bits),
		 * AE_TYPE: Linux calls pcie_no_aspm() */
		br->outcome = OSC_OUT_DENIED;
		set_reason(br, st == AE_NOT_FOUND ? "no-osc" : st == AE_SUPPORT ?
			   "pcie-capability-not-granted" : st == AE_ERROR ? "osc-error-bits" :
			   "osc-bad-return");
	}
}

static void negotiate(struct aml_session *s, acpi_handle h, struct osc_bridge *br,
		      const struct osc_request *req)
{
	uint32_t control = 0;
	acpi_status st;

	br->support = req->support;
	if ((req->support & OSC_PCIE_REQ_SUPPORT) == OSC_PCIE_REQ_SUPPORT)
		control = req->control;		/* os_control_query_checks() */
	br->requested = control;
	st = control_set(s, h, br, &control, req->support);
	br->control = control;
	br->has_osc = st != AE_NOT_FOUND;
	conclude(s, br, st);
}

/* acpi_pci_root_add() up to negotiate_os_control(): _SEG, then the bus
 * range from _CRS, else _BBN. A failing _SEG or _BBN: Linux adds no root. */
static bool root_place(struct aml_session *s, acpi_handle h, struct osc_bridge *br)
{
	struct busnr b = { 0 };
	uint64_t v = 0;
	acpi_status st;

	st = eval_int(s, h, br->path, "_SEG", &v);
	if (ACPI_FAILURE(st) && st != AE_NOT_FOUND) {
		conclude(s, br, st);
		br->outcome = s->aborted ? OSC_OUT_UNKNOWN : OSC_OUT_SKIPPED;
		set_reason(br, s->aborted ? s->abort_reason : "seg-failed");
		return false;
	}
	br->seg = ACPI_SUCCESS(st) ? (uint16_t)v : 0;
	root_busnr(s, h, br->path, &b);
	if (b.found) {
		br->bus_from_crs = true;
		br->bus_start = b.start;
		br->bus_end = b.end;
		return true;
	}
	br->bus_end = 0xff;
	v = 0;
	st = eval_int(s, h, br->path, "_BBN", &v);
	if (ACPI_FAILURE(st) && st != AE_NOT_FOUND) {
		conclude(s, br, st);
		br->outcome = s->aborted ? OSC_OUT_UNKNOWN : OSC_OUT_SKIPPED;
		set_reason(br, s->aborted ? s->abort_reason : "bbn-failed");
		return false;
	}
	br->bus_start = (uint8_t)v;
	return true;
}

/* ------------------------------------------------------------ the walk */

struct walk {
	struct aml_session *s;
	const struct osc_request *req;
	struct osc_report *out;
};

static bool is_pci_root(const struct acpi_device_info *info)
{
	unsigned i;

	if ((info->valid & ACPI_VALID_HID) && !strcmp(info->hardware_id.string, "PNP0A03"))
		return true;
	if (!(info->valid & ACPI_VALID_CID))
		return false;
	for (i = 0; i < info->compatible_id_list.count; i++)
		if (!strcmp(info->compatible_id_list.ids[i].string, "PNP0A03"))
			return true;
	return false;
}

static acpi_status device_cb(acpi_handle h, u32 level, void *ctx, void **ret)
{
	struct walk *w = ctx;
	struct acpi_device_info *info = NULL;
	struct osc_bridge *br;
	char path[OSC_PATH_MAX];
	uint64_t sta = 0x0f;	/* no _STA: present, enabled, shown, functioning */
	acpi_status st;

	(void)level;
	(void)ret;
	node_path(h, path, sizeof(path));
	st = eval_int(w->s, h, path, "_STA", &sta);
	if (ACPI_FAILURE(st) && st != AE_NOT_FOUND)
		sta = 0;	/* Linux: the device is not added */
	if (ACPI_FAILURE(acpi_get_object_info(h, &info)))
		return AE_OK;
	if (is_pci_root(info) && w->out->nbridges < OSC_MAX_BRIDGES) {
		br = &w->out->bridge[w->out->nbridges++];
		str_copy(br->path, path, sizeof(br->path));
		if (info->valid & ACPI_VALID_HID)
			str_copy(br->hid, info->hardware_id.string, sizeof(br->hid));
		br->pcie = !strcmp(br->hid, "PNP0A08") || !strcmp(br->hid, "ACPI0016");
		br->sta = (uint32_t)sta;
		br->status = "AE_OK";
		if (!(sta & ACPI_STA_DEVICE_PRESENT)) {
			br->outcome = OSC_OUT_SKIPPED;
			set_reason(br, "sta-not-present");
		} else if (root_place(w->s, h, br)) {
			negotiate(w->s, h, br, w->req);
		}
	}
	ACPI_FREE(info);
	/* Linux scans below a device that is present or functional only */
	if (!(sta & (ACPI_STA_DEVICE_PRESENT | ACPI_STA_DEVICE_FUNCTIONING)))
		return AE_CTRL_DEPTH;
	return AE_OK;
}

/* pcie_no_aspm() is global: one denying root is enough. A query that ran
 * out of memory or work somewhere may have lost a bridge (a table's rest
 * not loaded, a device's info not read): unknown, unless one denies. */
static void machine_outcome(struct osc_report *out, const char *starved)
{
	const struct osc_bridge *unknown = NULL;
	unsigned i, counted = 0;

	for (i = 0; i < out->nbridges; i++) {
		const struct osc_bridge *br = &out->bridge[i];

		if (br->outcome == OSC_OUT_SKIPPED)
			continue;
		counted++;
		if (br->outcome == OSC_OUT_DENIED) {
			out->machine = OSC_OUT_DENIED;
			fmt_snprintf(out->machine_reason, sizeof(out->machine_reason), "%s:%s",
				     br->path, br->reason);
			return;
		}
		if (br->outcome == OSC_OUT_UNKNOWN && !unknown)
			unknown = br;
	}
	if (starved[0]) {
		out->machine = OSC_OUT_UNKNOWN;
		fmt_snprintf(out->machine_reason, sizeof(out->machine_reason), "incomplete:%s",
			     starved);
	} else if (unknown) {
		out->machine = OSC_OUT_UNKNOWN;
		fmt_snprintf(out->machine_reason, sizeof(out->machine_reason), "%s:%s",
			     unknown->path, unknown->reason);
	} else if (!counted) {
		out->machine = OSC_OUT_UNKNOWN;
		str_copy(out->machine_reason, "no-host-bridge", sizeof(out->machine_reason));
	} else {
		out->machine = OSC_OUT_GRANTED;
	}
}

/* ------------------------------------------------------------ the query */

static struct aml_session session;

/* Linux's _OSI strings beyond ACPICA's own (drivers/acpi/osi.c) */
static void linux_interfaces(void)
{
	acpi_install_interface("Module Device");
	acpi_install_interface("Processor Device");
	acpi_install_interface("Processor Aggregator Device");
}

static int load(struct aml_session *s, struct osc_report *out)
{
	acpi_status st;

	acpi_gbl_enable_interpreter_slack = TRUE;	/* as Linux without acpi=strict */
	acpi_gbl_max_loop_iterations = 1;		/* one virtual second: osl.c */
	st = acpi_initialize_subsystem();
	if (ACPI_SUCCESS(st))
		st = acpi_initialize_tables(NULL, AML_MAX_BLOBS, FALSE);
	if (ACPI_FAILURE(st)) {
		fmt_snprintf(out->load_reason, sizeof(out->load_reason), "init-%s",
			     acpi_format_exception(st));
		return -AE_INVAL;
	}
	if (aml_install_region_guards()) {
		str_copy(out->load_reason, "region-guards", sizeof(out->load_reason));
		return -AE_INVAL;
	}
	linux_interfaces();
	aml_session_begin_eval(s, "load");
	st = acpi_load_tables();
	if (ACPI_FAILURE(st))	/* what did load stays loaded, as in Linux */
		fmt_snprintf(out->load_reason, sizeof(out->load_reason), "load-%s",
			     acpi_format_exception(st));
	else if (s->aborted)	/* a budget ran out: the rest did not load */
		fmt_snprintf(out->load_reason, sizeof(out->load_reason), "load-%s",
			     s->abort_reason);
	return 0;
}

/* the tables could not be loaded: the machine unknown, with the reason */
static int load_failed(struct osc_report *out, int err)
{
	out->load_err = err;
	out->machine = OSC_OUT_UNKNOWN;
	fmt_snprintf(out->machine_reason, sizeof(out->machine_reason), "load:%s",
		     out->load_reason);
	return err;
}

int osc_query(const struct aml_table *tables, unsigned ntables,
	      const struct aml_platform *plat, const struct osc_request *req,
	      struct osc_report *out)
{
	static const struct osc_request debian = { OSC_DEBIAN_SUPPORT, OSC_DEBIAN_CONTROL };
	struct aml_session *s = &session;
	struct walk w = { s, req ? req : &debian, out };
	uint32_t loops;
	int err;

	mem_set(out, 0, sizeof(*out));
	mem_set(s, 0, sizeof(*s));
	out->machine = OSC_OUT_UNKNOWN;
	s->plat = plat;
	s->out = out;
	s->mem_budget = plat->mem_budget ? plat->mem_budget : 32u << 20;
	loops = plat->loop_budget ? plat->loop_budget : 100000;
	s->clock_step = ACPI_100NSEC_PER_SEC / loops ? ACPI_100NSEC_PER_SEC / loops : 1;
	s->eval_budget = 20ull * loops;
	s->work_budget = 20ull * loops;
	err = build_root(s, tables, ntables, out);
	if (err)
		return load_failed(out, err);
	aml_cur = s;
	err = load(s, out);
	if (!err)
		acpi_walk_namespace(ACPI_TYPE_DEVICE, ACPI_ROOT_OBJECT, ACPI_UINT32_MAX,
				    device_cb, NULL, &w, NULL);
	acpi_terminate();
	/* what ACPICA's error paths lost: given back here (osl.c) */
	s->leaked = aml_free_all(s);
	out->mem_peak = s->mem_peak;
	aml_cur = NULL;
	if (err)
		return load_failed(out, err);
	machine_outcome(out, s->starved);
	return 0;
}

/* ------------------------------------------------------------ names */

static char *decode(uint32_t word, const char *const *names, const uint32_t *bits,
		    unsigned n, char *buf, size_t size)
{
	size_t len = 1;
	unsigned i;

	if (size < 3)
		return buf;
	buf[0] = '[';
	buf[1] = 0;
	for (i = 0; i < n; i++) {
		if (!(word & bits[i]))
			continue;
		len += (size_t)fmt_snprintf(buf + len, size > len ? size - len : 0, "%s%s",
					    len > 1 ? " " : "", names[i]);
		if (len >= size - 1)
			break;
	}
	if (len < size - 1) {
		buf[len] = ']';
		buf[len + 1] = 0;
	}
	return buf;
}

/* pci_osc_control_bit[] and pci_osc_support_bit[] of pci_root.c */
char *osc_control_str(uint32_t control, char *buf, size_t size)
{
	static const char *const names[] = {
		"PCIeHotplug", "SHPCHotplug", "PME", "AER", "PCIeCapability", "LTR", "DPC",
	};
	static const uint32_t bits[] = {
		OSC_PCI_EXPRESS_NATIVE_HP_CONTROL, OSC_PCI_SHPC_NATIVE_HP_CONTROL,
		OSC_PCI_EXPRESS_PME_CONTROL, OSC_PCI_EXPRESS_AER_CONTROL,
		OSC_PCI_EXPRESS_CAPABILITY_CONTROL, OSC_PCI_EXPRESS_LTR_CONTROL,
		OSC_PCI_EXPRESS_DPC_CONTROL,
	};

	return decode(control, names, bits, 7, buf, size);
}

char *osc_support_str(uint32_t support, char *buf, size_t size)
{
	static const char *const names[] = {
		"ExtendedConfig", "ASPM", "ClockPM", "Segments", "MSI", "EDR", "HPX-Type3",
	};
	static const uint32_t bits[] = {
		OSC_PCI_EXT_CONFIG_SUPPORT, OSC_PCI_ASPM_SUPPORT, OSC_PCI_CLOCK_PM_SUPPORT,
		OSC_PCI_SEGMENT_GROUPS_SUPPORT, OSC_PCI_MSI_SUPPORT, OSC_PCI_EDR_SUPPORT,
		OSC_PCI_HPX_TYPE_3_SUPPORT,
	};

	return decode(support, names, bits, 7, buf, size);
}

unsigned osc_refused(const struct osc_report *r)
{
	unsigned i, n = 0;

	for (i = 0; i < r->naccess; i++)
		n += r->access[i].refused;
	return n;
}

const char *osc_outcome_name(enum osc_outcome o)
{
	switch (o) {
	case OSC_OUT_GRANTED:
		return "granted";
	case OSC_OUT_DENIED:
		return "denied";
	case OSC_OUT_SKIPPED:
		return "skipped";
	default:
		return "unknown";
	}
}
