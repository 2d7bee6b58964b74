// SPDX-License-Identifier: GPL-2.0-only
/*
 * AML may change nothing before the OS. aspmctl's own operation-region
 * handlers replace ACPICA's defaults on every address space, installed at
 * the namespace root before any table is loaded (acpi_load_tables() keeps
 * handlers an OSPM installed first, tbxfload.c): every access is
 * recorded; SystemMemory and PCI_Config reads are done through the
 * platform; any write, and any access to another space (SystemIO, the SMI
 * port among them, EmbeddedControl, SMBus, CMOS, IPMI, GPIO, GSBus, PCC,
 * FFixedHW, user-defined), is refused and stops the evaluation that made
 * it (ACPI 6.5 sec 5.5.2.4, Operation Regions; table 19.36, Region Space
 * Keywords).
 */
#include <acpi/acpi.h>
#include "accommon.h"
#include "acevents.h"

#include "acpi/aml/internal.h"
#include "lib/fmt.h"
#include "lib/util.h"
#include "pcie/cfg.h"

const char *aml_space_name(uint8_t space)
{
	static const char *const names[] = {
		"SystemMemory", "SystemIO", "PCI_Config", "EmbeddedControl", "SMBus",
		"SystemCMOS", "PciBarTarget", "IPMI", "GeneralPurposeIo",
		"GenericSerialBus", "PCC", "PlatformRtMechanism",
	};

	if (space < sizeof(names) / sizeof(names[0]))
		return names[space];
	if (space == ACPI_ADR_SPACE_FIXED_HARDWARE)
		return "FFixedHW";
	if (space == ACPI_ADR_SPACE_DATA_TABLE)
		return "DataTable";
	return space >= 0x80 ? "OEMDefined" : "Reserved";
}

uint64_t aml_pci_record_addr(unsigned seg, unsigned bus, unsigned dev, unsigned fn,
			     uint64_t off)
{
	return (uint64_t)(seg & 0xffff) << 48 | (uint64_t)(bus & 0xff) << 40 |
	       (uint64_t)(dev & 0x1f) << 35 | (uint64_t)(fn & 7) << 32 | off;
}

void aml_abort(struct aml_session *s, const char *reason)
{
	if (s->aborted)
		return;
	s->aborted = true;
	str_copy(s->abort_reason, reason, sizeof(s->abort_reason));
}

void aml_session_begin_eval(struct aml_session *s, const char *method)
{
	str_copy(s->method, method, sizeof(s->method));
	s->aborted = false;
	s->abort_reason[0] = 0;
	s->accesses = 0;
	s->eval_ticks = 0;
	s->eval_work = 0;
}

void aml_record(struct aml_session *s, uint8_t space, bool write, bool refused,
		unsigned width, uint64_t addr, uint64_t value)
{
	struct osc_report *out = s->out;
	struct aml_access *a;

	s->accesses++;
	out->naccess_total++;
	if (out->naccess >= AML_MAX_ACCESSES)
		return;
	a = &out->access[out->naccess++];
	a->space = space;
	a->write = write;
	a->refused = refused;
	a->width = (uint8_t)width;
	a->addr = addr;
	a->value = value;
	str_copy(a->method, s->method, sizeof(a->method));
}

/* "write-SystemIO-0xb2" */
static void refuse(struct aml_session *s, uint8_t space, bool write, uint64_t addr)
{
	char why[OSC_REASON_MAX];

	fmt_snprintf(why, sizeof(why), "%s-%s-0x%llx", write ? "write" : "read",
		     aml_space_name(space), (unsigned long long)addr);
	aml_abort(s, why);
}

static int mem_read(struct aml_session *s, uint64_t addr, unsigned width, uint64_t *v)
{
	if (!s->plat->mem_read)
		return -1;
	return s->plat->mem_read(s->plat->ctx, addr, width, v);
}

static int cfg_read(struct aml_session *s, const struct acpi_pci_id *id, uint64_t off,
		    unsigned width, uint64_t *v)
{
	uint64_t lo, hi;

	if (!s->plat->cfg || !id)
		return -1;
	if (width == 64) {
		if (acpi_os_read_pci_configuration((struct acpi_pci_id *)id, (u32)off, &lo, 32) ||
		    acpi_os_read_pci_configuration((struct acpi_pci_id *)id, (u32)off + 4, &hi, 32))
			return -1;
		*v = lo | hi << 32;
		return 0;
	}
	return acpi_os_read_pci_configuration((struct acpi_pci_id *)id, (u32)off, v, width) ? -1 : 0;
}

static acpi_status guard_handler(u32 function, acpi_physical_address address, u32 bit_width,
				 u64 *value, void *handler_context, void *region_context)
{
	struct aml_session *s = aml_cur;
	uint8_t space = *(const uint8_t *)handler_context;
	bool write = (function & ACPI_IO_MASK) == ACPI_WRITE;
	const struct acpi_pci_id *id = NULL;
	uint64_t addr = address, v = 0;
	int err = -1;

	if (!s)
		return AE_ACCESS;
	if (space == ACPI_ADR_SPACE_PCI_CONFIG && region_context) {
		id = region_context;
		/* seg:bus:dev.fn and the offset in one number for the record */
		addr = aml_pci_record_addr(id->segment, id->bus, id->device, id->function,
					   address);
	}
	if (!write && space == ACPI_ADR_SPACE_SYSTEM_MEMORY)
		err = mem_read(s, address, bit_width, &v);
	else if (!write && space == ACPI_ADR_SPACE_PCI_CONFIG) {
		s->in_region = true;
		err = cfg_read(s, id, address, bit_width, &v);
		s->in_region = false;
	}
	aml_record(s, space, write, err != 0, bit_width, addr, write ? *value : v);
	if (err) {
		refuse(s, space, write, addr);
		return AE_ACCESS;
	}
	*value = v;
	return AE_OK;
}

/* Every space a region can name: the spec's, DataTable (ACPICA's own, of
 * DataTableRegion), FFixedHW, and the OEM ones. */
static uint8_t spaces[ACPI_ADR_SPACE_PLATFORM_RT + 1 + 2 + 0x80];
static unsigned nspaces;

int aml_install_region_guards(void)
{
	unsigned i;

	if (!nspaces) {
		for (i = 0; i <= ACPI_ADR_SPACE_PLATFORM_RT; i++)
			spaces[nspaces++] = (uint8_t)i;
		spaces[nspaces++] = ACPI_ADR_SPACE_DATA_TABLE;
		spaces[nspaces++] = ACPI_ADR_SPACE_FIXED_HARDWARE;
		for (i = 0x80; i <= 0xff; i++)
			spaces[nspaces++] = (uint8_t)i;
	}
	for (i = 0; i < nspaces; i++) {
		acpi_adr_space_setup setup = acpi_ev_default_region_setup;
		acpi_status st;

		if (spaces[i] == ACPI_ADR_SPACE_PCI_CONFIG)
			setup = acpi_ev_pci_config_region_setup;	/* _ADR, _SEG, _BBN */
		st = acpi_install_address_space_handler(ACPI_ROOT_OBJECT, spaces[i],
							guard_handler, setup, &spaces[i]);
		if (ACPI_FAILURE(st))
			return -1;
	}
	return 0;
}
