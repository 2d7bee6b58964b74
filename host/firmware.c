// SPDX-License-Identifier: GPL-2.0-only
/*
 * Firmware for a host run over the digital twin (see firmware.h). The
 * app reads these tables with the same acpi/ code and checks as it does
 * on a machine: a FADT or MCFG taken from a file is used as it is, and a
 * broken one is reported by the app, not repaired here (only the "PCIe
 * ASPM Controls" bit is set or cleared on request, checksum fixed).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include "firmware.h"
#include "aml.h"
#include "../acpi/build.h"
#include "../lib/err.h"
#include "../lib/log.h"
#include "../lib/util.h"
#include "../pcie/pci_regs.h"

/* ------------------------------------------------------------ memory */

static uint64_t fw_alloc(struct host_fw *fw, size_t len)
{
	size_t at = (fw->acpi_used + 15) & ~(size_t)15;

	if (len > HOST_ACPI_SIZE || at > HOST_ACPI_SIZE - len)
		return 0;
	fw->acpi_used = at + len;
	return HOST_ACPI_BASE + at;
}

static uint8_t *fw_ptr(struct host_fw *fw, uint64_t phys)
{
	return fw->acpi + (phys - HOST_ACPI_BASE);
}

static void *fw_map(void *ctx, uint64_t phys, size_t len)
{
	struct host_fw *fw = ctx;

	if (phys < HOST_ACPI_BASE || len > HOST_ACPI_SIZE ||
	    phys - HOST_ACPI_BASE > HOST_ACPI_SIZE - len)
		return NULL;
	return fw_ptr(fw, phys);
}

/* ------------------------------------------------------------ tables */

/* The FADT: the given table with its flag as asked, or a synthesized
 * ACPI 6.5 FADT (276 bytes) whose IAPC_BOOT_ARCH has only bit 4 as asked. */
/* The FADT's DSDT (offset 40) and X_DSDT (140, when the table has it). */
static void fadt_set_dsdt(uint8_t *t, uint32_t len, uint64_t dsdt)
{
	if (!dsdt)
		return;
	if (len >= 44)
		put_le32(t + 40, dsdt <= 0xffffffffu ? (uint32_t)dsdt : 0);
	if (len >= 148)
		put_le64(t + 140, dsdt);
	tbl_fix(t);
}

static uint64_t fw_fadt(struct host_fw *fw, const struct host_fadt *f, uint64_t dsdt)
{
	uint64_t phys;
	uint8_t *t;

	if (!f->table) {
		phys = fw_alloc(fw, 276);
		if (phys) {
			fadt_build(fw_ptr(fw, phys), 276, 6, 5,
				   f->no_aspm > 0 ? FADT_IAPC_NO_ASPM : 0);
			fadt_set_dsdt(fw_ptr(fw, phys), 276, dsdt);
		}
		return phys;
	}
	phys = fw_alloc(fw, f->len);
	if (!phys)
		return 0;
	t = fw_ptr(fw, phys);
	memcpy(t, f->table, f->len);
	if (f->no_aspm >= 0 && f->len >= FADT_IAPC_BOOT_ARCH_OFF + 2 &&
	    get_le32(t + 4) == f->len) {
		uint16_t iapc = get_le16(t + FADT_IAPC_BOOT_ARCH_OFF);

		iapc = (uint16_t)(f->no_aspm ? iapc | FADT_IAPC_NO_ASPM :
				  iapc & ~FADT_IAPC_NO_ASPM);
		put_le16(t + FADT_IAPC_BOOT_ARCH_OFF, iapc);
		tbl_fix(t);
	}
	if (get_le32(t + 4) == f->len)
		fadt_set_dsdt(t, (uint32_t)f->len, dsdt);
	return phys;
}

/* The AML tables into the firmware's memory: the DSDT's address, and the
 * others' into tables[] from *n on. 0, or -AE_2BIG. */
static int fw_aml(struct host_fw *fw, const struct host_aml *a, uint64_t *dsdt,
		  uint64_t *tables, unsigned *n, unsigned max)
{
	*dsdt = 0;
	for (unsigned i = 0; a && i < a->n; i++) {
		uint64_t phys = fw_alloc(fw, a->len[i]);

		if (!phys)
			return -AE_2BIG;
		memcpy(fw_ptr(fw, phys), a->data[i], a->len[i]);
		if (!memcmp(a->data[i], "DSDT", 4) && !*dsdt)
			*dsdt = phys;
		else if (*n < max)
			tables[(*n)++] = phys;
	}
	return 0;
}

/* One MCFG region per segment the twin holds, buses 00-ff, each at its
 * own made-up base (config space goes through the twin, not MMIO). */
static uint64_t fw_mcfg_synth(struct host_fw *fw)
{
	struct acpi_mcfg_ent e[ECAM_MAX_WINDOWS];
	unsigned n = 0;
	uint64_t phys;

	for (unsigned i = 0; i < fw->twin->nfn; i++) {
		uint16_t seg = fw->twin->fn[i].addr.seg;
		unsigned k = 0;

		while (k < n && e[k].segment != seg)
			k++;
		if (k < n)
			continue;
		if (n == ECAM_MAX_WINDOWS)
			break;
		e[n].segment = seg;
		e[n].base = 0x8000000000ull + (uint64_t)seg * 0x10000000ull;
		e[n].start_bus = 0;
		e[n].end_bus = 0xff;
		n++;
	}
	phys = fw_alloc(fw, mcfg_len(n));
	if (phys)
		mcfg_build(fw_ptr(fw, phys), e, n);
	return phys;
}

static uint64_t fw_mcfg(struct host_fw *fw, const uint8_t *mcfg, size_t len)
{
	uint64_t phys;

	if (!mcfg)
		return fw_mcfg_synth(fw);
	phys = fw_alloc(fw, len);
	if (phys)
		memcpy(fw_ptr(fw, phys), mcfg, len);
	return phys;
}

/* ------------------------------------------------------------ root buses */

static bool decoded_by_bridge(const struct twin *t, uint16_t seg, uint8_t bus)
{
	for (unsigned i = 0; i < t->nfn; i++) {
		const struct twin_fn *f = &t->fn[i];

		if (f->addr.seg != seg || (f->cfg[PCI_HEADER_TYPE] & 0x7f) != 1)
			continue;
		if (bus >= f->cfg[PCI_SECONDARY_BUS] && bus <= f->cfg[PCI_SUBORDINATE_BUS] &&
		    f->cfg[PCI_SECONDARY_BUS] > f->addr.bus)
			return true;
	}
	return false;
}

/* A function that needs a port above it on another bus: Endpoint, Legacy
 * Endpoint, Upstream Port, or a Downstream Port (whose switch's Upstream
 * Port is above it) (PCIe r5.0 sec 7.5.3.2). */
static bool needs_port_above(const struct twin_fn *f)
{
	unsigned type;

	if (!f->caps.pcie || f->caps.pcie + 4u > f->known)
		return false;
	type = (f->cfg[f->caps.pcie + PCI_EXP_FLAGS] >> 4) & 0xf;
	return type == PCI_EXP_TYPE_ENDPOINT || type == PCI_EXP_TYPE_LEG_END ||
	       type == PCI_EXP_TYPE_UPSTREAM || type == PCI_EXP_TYPE_DOWNSTREAM;
}

static void note_root(struct host_fw *fw, const struct twin_fn *f)
{
	for (unsigned k = 0; k < fw->plat.nroots; k++)
		if (fw->plat.roots[k].seg == f->addr.seg && fw->plat.roots[k].bus == f->addr.bus)
			return;
	if (fw->plat.nroots == PLATFORM_MAX_ROOTS) {
		fw->roots_lost++;
		return;
	}
	fw->plat.roots[fw->plat.nroots].seg = f->addr.seg;
	fw->plat.roots[fw->plat.nroots].bus = f->addr.bus;
	fw->plat.roots[fw->plat.nroots].devfn = 0;
	fw->plat.nroots++;
}

static bool bus_has_fn(const struct twin *t, uint16_t seg, uint8_t bus)
{
	for (unsigned i = 0; i < t->nfn; i++)
		if (t->fn[i].addr.seg == seg && t->fn[i].addr.bus == bus)
			return true;
	return false;
}

/* The PCI Express Device/Port Type of a port (Root Port, Switch Upstream
 * or Downstream Port; PCIe r5.0 sec 7.5.3.2), or -1 for anything else. */
static int port_type(const struct twin_fn *f)
{
	unsigned type;

	if (!f->caps.pcie || f->caps.pcie + 4u > f->known ||
	    (f->cfg[PCI_HEADER_TYPE] & 0x7f) != 1)
		return -1;
	type = (f->cfg[f->caps.pcie + PCI_EXP_FLAGS] >> 4) & 0xf;
	return type == PCI_EXP_TYPE_ROOT_PORT || type == PCI_EXP_TYPE_DOWNSTREAM ||
	       type == PCI_EXP_TYPE_UPSTREAM ? (int)type : -1;
}

static unsigned cfg16(const struct twin_fn *f, unsigned off)
{
	return off + 2 <= f->known ? (unsigned)(f->cfg[off] | f->cfg[off + 1] << 8) : 0;
}

/* A Root or Downstream Port says a device is below it: the link is up
 * (Data Link Layer Link Active, PCIe r5.0 sec 7.5.3.8) or its slot sees
 * a card (Presence Detect State, sec 7.5.3.11). An empty slot says
 * neither. */
static bool device_below(const struct twin_fn *f)
{
	unsigned p = f->caps.pcie;

	return (cfg16(f, p + PCI_EXP_LNKSTA) & PCI_EXP_LNKSTA_DLLLA) ||
	       ((cfg16(f, p + PCI_EXP_FLAGS) & PCI_EXP_FLAGS_SLOT) &&
		(cfg16(f, p + PCI_EXP_SLTSTA) & PCI_EXP_SLTSTA_PDS));
}

/* f is the lowest function of its device in the dump */
static bool first_of_device(const struct twin *t, const struct twin_fn *f)
{
	for (unsigned fn = 0; fn < PCI_FUNC(f->addr.devfn); fn++) {
		struct pci_addr a = { f->addr.seg, f->addr.bus, (uint8_t)((f->addr.devfn & ~7u) | fn) };

		if (twin_find(t, a))
			return false;
	}
	return true;
}

/* What a partial dump leaves out, said once each on stderr: function 0 of
 * a device whose other functions are there (the scan then probes them
 * without it), and the device below a port (no link to plan there: an
 * empty slot, or a function nobody dumped). */
static void fw_note_gaps(const struct twin *t)
{
	for (unsigned i = 0; i < t->nfn; i++) {
		const struct twin_fn *f = &t->fn[i];
		struct pci_addr a0 = { f->addr.seg, f->addr.bus, (uint8_t)(f->addr.devfn & ~7u) };
		char b[16], c[16];

		if (twin_fn0_not_dumped(t, a0) && first_of_device(t, f))
			fprintf(stderr, "aspmctl: %s is not in the dump: the other functions of "
				"its device (%s first) are scanned without it\n",
				pci_addr_str(a0, b), pci_addr_str(f->addr, c));
		if (port_type(f) < 0 || bus_has_fn(t, f->addr.seg, f->cfg[PCI_SECONDARY_BUS]))
			continue;
		if (port_type(f) == PCI_EXP_TYPE_UPSTREAM)
			fprintf(stderr, "aspmctl: %s: no function of its secondary bus %02x is in "
				"the dump: the switch's Downstream Ports were not dumped, so no "
				"link below it can be planned\n",
				pci_addr_str(f->addr, b), f->cfg[PCI_SECONDARY_BUS]);
		else if (device_below(f))
			fprintf(stderr, "aspmctl: %s: its link is up or its slot holds a card, "
				"but no function of its secondary bus %02x is in the dump: "
				"the link below it cannot be planned\n",
				pci_addr_str(f->addr, b), f->cfg[PCI_SECONDARY_BUS]);
	}
}

/* Every bus that holds functions and that no bridge of the dump leads
 * to is scanned as a root bus; where it holds a function that needs a
 * port above it, that port is not in the dump (a partial dump), and the
 * link cannot be planned: said here, once per bus. */
static void fw_find_roots(struct host_fw *fw)
{
	const struct twin *t = fw->twin;

	for (unsigned i = 0; i < t->nfn; i++) {
		const struct twin_fn *f = &t->fn[i];
		char b[16];

		if (decoded_by_bridge(t, f->addr.seg, f->addr.bus))
			continue;
		note_root(fw, f);
		if (!needs_port_above(f))
			continue;
		fprintf(stderr, "aspmctl: %s: no bridge in the dump leads to bus %02x: "
			"the port above it is not in the dump, so the link above it "
			"cannot be planned (scanned as a root bus)\n",
			pci_addr_str(f->addr, b), f->addr.bus);
	}
	if (fw->roots_lost)
		fprintf(stderr, "aspmctl: %u more root buses than the %u scanned\n",
			fw->roots_lost, PLATFORM_MAX_ROOTS);
}

/* ------------------------------------------------------------ services */

/* mkdir -p of path's parent directories */
static int make_parents(char *path)
{
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0755) && errno != EEXIST) {
			*p = '/';
			return -AE_IO;
		}
		*p = '/';
	}
	return 0;
}

/* The app's ESP path (\EFI\aspmctl\...) under --esp DIR. */
static int fw_write_file(void *ctx, const char *path, const void *data, size_t len)
{
	struct host_fw *fw = ctx;
	char full[4096];
	FILE *f;
	int n;

	if (!fw->esp)
		return log_error(-AE_NOTSUP, "%s: no --esp DIR given for the app's files", path);
	n = snprintf(full, sizeof(full), "%s/%s", fw->esp, path);
	if (n < 0 || (size_t)n >= sizeof(full))
		return log_error(-AE_2BIG, "%s: path too long", path);
	for (char *p = full; *p; p++)
		if (*p == '\\')
			*p = '/';
	if (make_parents(full))
		return log_error(-AE_IO, "%s: cannot create its directory: %s", full, strerror(errno));
	f = fopen(full, "wb");
	if (!f || fwrite(data, 1, len, f) != len || fclose(f)) {
		if (f)
			fclose(f);
		return log_error(-AE_IO, "%s: cannot write: %s", full, strerror(errno));
	}
	return 0;
}

static int fw_publish(void *ctx, const char *summary)
{
	(void)ctx;
	(void)summary;
	return 0;
}

static int fw_chainload(void *ctx, const char *path, const char *options,
			const struct out *o)
{
	(void)ctx;
	(void)options;
	out_printf(o, "aspmctl: on the host there is no next loader to start (%s)\n", path);
	return -AE_NOTSUP;
}

static uint64_t fw_time_ns(void *ctx)
{
	struct timespec ts;

	(void)ctx;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static uint32_t no_mmio_read(void *ctx, uint64_t phys, unsigned width)
{
	(void)ctx;
	(void)phys;
	(void)width;
	return 0xffffffff;
}

static void no_mmio_write(void *ctx, uint64_t phys, unsigned width, uint32_t val)
{
	(void)ctx;
	(void)phys;
	(void)width;
	(void)val;
}

static const struct mmio_ops no_mmio = { no_mmio_read, no_mmio_write };

static void fw_ops(struct host_fw *fw)
{
	struct boot_ops *o = &fw->ops;

	memset(o, 0, sizeof(*o));
	o->ctx = fw;
	o->mmio = &no_mmio;
	o->cfg_ops = &twin_cfg_ops;
	o->cfg_ctx = fw->twin;
	o->write_file = fw_write_file;
	o->publish = fw_publish;
	o->chainload = fw_chainload;
	o->time_ns = fw_time_ns;
	fixed_platform_ops(o);
}

int host_fw_init(struct host_fw *fw, struct twin *t, const struct host_fadt *fadt,
		 const uint8_t *mcfg, size_t mcfg_len)
{
	uint64_t tables[2 + HOST_AML_MAX], xsdt, dsdt = 0;
	unsigned n = 2;
	int rc;

	memset(fw, 0, sizeof(*fw));
	fw->twin = t;
	fw->plat.mem = (struct acpi_mem){ .map = fw_map, .ctx = fw };
	fw->acpi = calloc(1, HOST_ACPI_SIZE);
	if (!fw->acpi)
		return -AE_NOMEM;
	rc = fw_aml(fw, fadt->aml, &dsdt, tables, &n, 2 + HOST_AML_MAX);
	tables[0] = fw_fadt(fw, fadt, dsdt);
	tables[1] = fw_mcfg(fw, mcfg, mcfg_len);
	xsdt = fw_alloc(fw, root_len(true, n));
	fw->plat.rsdp = fw_alloc(fw, ACPI_RSDP_V2_LEN);
	if (rc || !tables[0] || !tables[1] || !xsdt || !fw->plat.rsdp) {
		fprintf(stderr, "aspmctl: the ACPI tables do not fit in %u KiB\n",
			HOST_ACPI_SIZE >> 10);
		return -AE_2BIG;
	}
	root_build(fw_ptr(fw, xsdt), true, tables, n);
	rsdp_build(fw_ptr(fw, fw->plat.rsdp), 2, 0, xsdt);
	fw_note_gaps(fw->twin);
	fw_find_roots(fw);
	fw_ops(fw);
	return 0;
}

void host_fw_free(struct host_fw *fw)
{
	free(fw->acpi);
	fw->acpi = NULL;
}
