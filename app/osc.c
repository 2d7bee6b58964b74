// SPDX-License-Identifier: GPL-2.0-only
/*
 * --osc auto: the firmware's own _OSC answer, asked before any policy
 * (acpi/aml). The AML tables discovery found (DSDT, SSDTs) are mapped
 * for the query; AML may read SystemMemory through the same mapping and
 * PCI_Config through the app's read-only config access, and nothing
 * else. The machine's answer sets the decision table's os_control input;
 * an answer not knowable before the OS falls back to granted (the table's
 * default before this existed), and the records say so.
 */
#include "app.h"
#include "osc.h"
#include "../lib/err.h"
#include "../lib/log.h"
#include "../lib/util.h"

struct osc_ctx {
	struct app *a;
	const struct acpi_mem *mem;
};

static void *osc_alloc(void *ctx, size_t n)
{
	struct osc_ctx *c = ctx;

	return c->a->ops->alloc(c->a->ops->ctx, n);
}

static void osc_free(void *ctx, void *p)
{
	struct osc_ctx *c = ctx;

	c->a->ops->free(c->a->ops->ctx, p);
}

/* A SystemMemory operation-region read: the firmware's memory as mapped
 * for ACPI (identity under boot services). */
static int osc_mem_read(void *ctx, uint64_t phys, unsigned width, uint64_t *val)
{
	struct osc_ctx *c = ctx;
	const volatile uint8_t *p;

	if (width != 8 && width != 16 && width != 32 && width != 64)
		return -AE_INVAL;
	p = c->mem->map(c->mem->ctx, phys, width / 8);
	if (!p)
		return -AE_FAULT;
	if (width == 8)
		*val = *p;
	else if (width == 16)
		*val = *(const volatile uint16_t *)p;
	else if (width == 32)
		*val = *(const volatile uint32_t *)p;
	else
		*val = *(const volatile uint64_t *)p;
	return 0;
}

static void osc_log(void *ctx, const char *line)
{
	(void)ctx;
	log_debug("acpica: %s", line);
}

static int query(struct app *a, const struct acpi_mem *mem)
{
	struct aml_table t[ACPI_MAX_AML];
	struct osc_ctx c = { a, mem };
	struct aml_platform p = {
		.alloc = osc_alloc, .free = osc_free, .mem_read = osc_mem_read,
		.cfg = &a->cfg, .log = osc_log, .ctx = &c,
	};
	bool ro = a->cfg.read_only;
	unsigned i;
	int rc;

	for (i = 0; i < a->info.naml; i++) {
		t[i].data = mem->map(mem->ctx, a->info.aml[i].phys, a->info.aml[i].len);
		t[i].len = t[i].data ? a->info.aml[i].len : 0;
	}
	a->cfg.read_only = true;
	rc = osc_query(t, a->info.naml, &p, a->cli.osc_req_set ? &a->cli.osc_req : NULL, &a->osc);
	a->cfg.read_only = ro;
	return rc;
}

static void fallback(struct app *a, const char *why)
{
	a->osc.machine = OSC_OUT_UNKNOWN;
	if (why)
		str_copy(a->osc.machine_reason, why, sizeof(a->osc.machine_reason));
}

void app_osc_probe(struct app *a)
{
	struct acpi_mem mem;

	a->osc_asked = false;
	if (!a->cli.osc_auto)
		return;
	a->osc_asked = true;
	mem_set(&a->osc, 0, sizeof(a->osc));
	if (!a->ops->alloc || !a->ops->free)
		return fallback(a, "no-interpreter-memory");
	if (!a->info.dsdt_valid)
		return fallback(a, "no-dsdt");
	a->ops->mem_open(a->ops->ctx, &mem);
	if (query(a, &mem) && !a->osc.machine_reason[0])
		fallback(a, a->osc.load_reason[0] ? a->osc.load_reason : "load-failed");
	a->ops->mem_close(a->ops->ctx);
	if (a->osc.machine == OSC_OUT_UNKNOWN)
		log_info("_OSC: answer not known before the OS, taken as granted (see aspm osc-result)");
	else
		log_info("_OSC: the firmware %s PCIe control",
			 a->osc.machine == OSC_OUT_GRANTED ? "grants the OS" : "keeps");
}

/* The decision's input from the probe (or the option). */
void app_osc_input(const struct app *a, struct aspm_inputs *in)
{
	if (!a->osc_asked)
		return;
	in->osc_granted = a->osc.machine != OSC_OUT_DENIED;
	in->osc_source = a->osc.machine == OSC_OUT_UNKNOWN ? OSC_SRC_FALLBACK : OSC_SRC_FIRMWARE;
}
