/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The firmware's own _OSC answer, before the OS: ACPICA (the reference AML
 * interpreter, taken from the Linux 6.1 tree at build time) loads the DSDT
 * and the SSDTs, finds every PCI host bridge and evaluates _OSC with the
 * Query Support Flag set, as Linux 6.1's negotiate_os_control() does
 * (drivers/acpi/pci_root.c), and predicts what Linux would conclude.
 *
 * Plain C, no UEFI headers, no ACPICA types in this header: the firmware
 * build and the host build (twin, tests, fuzzer) call the same code.
 * Memory, SystemMemory reads and PCI_Config reads come through struct
 * aml_platform. AML may change nothing: every operation-region access is
 * recorded; SystemMemory and PCI_Config reads are allowed (when the
 * platform gives a way to do them), any write and any other address space
 * (SystemIO, EC, SMBus, CMOS, ...) aborts the evaluation that made it.
 * Loops are bounded by a virtual clock (acpi/aml/osl.c), memory by a
 * budget: a hostile table yields a named outcome, never a hang.
 */
#ifndef ASPMCTL_ACPI_AML_H
#define ASPMCTL_ACPI_AML_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pci_cfg;

/* _OSC Support and Control fields (PCI Firmware Spec r3.3 sec 4.5.1,
 * tables 4-4 and 4-5; Linux's include/linux/acpi.h names) */
#define OSC_QUERY_ENABLE			0x00000001u
#define OSC_REQUEST_ERROR			0x00000002u
#define OSC_INVALID_UUID_ERROR			0x00000004u
#define OSC_INVALID_REVISION_ERROR		0x00000008u
#define OSC_CAPABILITIES_MASK_ERROR		0x00000010u

#define OSC_PCI_EXT_CONFIG_SUPPORT		0x00000001u
#define OSC_PCI_ASPM_SUPPORT			0x00000002u
#define OSC_PCI_CLOCK_PM_SUPPORT		0x00000004u
#define OSC_PCI_SEGMENT_GROUPS_SUPPORT		0x00000008u
#define OSC_PCI_MSI_SUPPORT			0x00000010u
#define OSC_PCI_EDR_SUPPORT			0x00000080u
#define OSC_PCI_HPX_TYPE_3_SUPPORT		0x00000100u

#define OSC_PCI_EXPRESS_NATIVE_HP_CONTROL	0x00000001u
#define OSC_PCI_SHPC_NATIVE_HP_CONTROL		0x00000002u
#define OSC_PCI_EXPRESS_PME_CONTROL		0x00000004u
#define OSC_PCI_EXPRESS_AER_CONTROL		0x00000008u
#define OSC_PCI_EXPRESS_CAPABILITY_CONTROL	0x00000010u
#define OSC_PCI_EXPRESS_LTR_CONTROL		0x00000020u
#define OSC_PCI_EXPRESS_DPC_CONTROL		0x00000080u

/* pci_root.c's ACPI_PCIE_REQ_SUPPORT: without these, Linux requests nothing */
#define OSC_PCIE_REQ_SUPPORT	(OSC_PCI_EXT_CONFIG_SUPPORT | OSC_PCI_ASPM_SUPPORT | \
				 OSC_PCI_CLOCK_PM_SUPPORT | OSC_PCI_MSI_SUPPORT)

/* What the OS asks for: calculate_support() and calculate_control() of
 * Linux 6.1 as Debian 12 builds it (linux-image-amd64: ASPM, MSI, MMCONFIG,
 * PCIe and SHPC hotplug, AER, DPC with EDR). */
#define OSC_DEBIAN_SUPPORT	(OSC_PCI_SEGMENT_GROUPS_SUPPORT | OSC_PCI_HPX_TYPE_3_SUPPORT | \
				 OSC_PCI_EXT_CONFIG_SUPPORT | OSC_PCI_ASPM_SUPPORT | \
				 OSC_PCI_CLOCK_PM_SUPPORT | OSC_PCI_MSI_SUPPORT | \
				 OSC_PCI_EDR_SUPPORT)
#define OSC_DEBIAN_CONTROL	(OSC_PCI_EXPRESS_CAPABILITY_CONTROL | OSC_PCI_EXPRESS_PME_CONTROL | \
				 OSC_PCI_EXPRESS_LTR_CONTROL | OSC_PCI_EXPRESS_NATIVE_HP_CONTROL | \
				 OSC_PCI_SHPC_NATIVE_HP_CONTROL | OSC_PCI_EXPRESS_AER_CONTROL | \
				 OSC_PCI_EXPRESS_DPC_CONTROL)

struct aml_platform {
	/* memory for the interpreter; free takes what alloc returned */
	void *(*alloc)(void *ctx, size_t n);
	void (*free)(void *ctx, void *p);
	/* a SystemMemory read of width 8/16/32/64 bits; NULL: refused */
	int (*mem_read)(void *ctx, uint64_t phys, unsigned width, uint64_t *val);
	/* PCI_Config reads; NULL: refused */
	struct pci_cfg *cfg;
	/* ACPICA's own messages, one line each (NULL: dropped) */
	void (*log)(void *ctx, const char *line);
	void *ctx;
	size_t mem_budget;	/* bytes the interpreter may hold; 0: 32 MiB */
	uint32_t loop_budget;	/* AML While iterations per evaluation; 0: 100000 */
};

/* One table as bytes: the DSDT first, then the SSDTs, in any order. */
struct aml_table {
	const void *data;
	size_t len;
};

/* One operation-region access AML made (or tried). */
struct aml_access {
	uint8_t space;		/* ACPI 6.5 table 19.36 Region Space IDs */
	bool write;
	bool refused;
	uint8_t width;		/* bits */
	uint64_t addr;		/* SystemMemory/IO address, PCI: seg<<32|bus<<16|devfn<<8... */
	uint64_t value;
	char method[24];	/* the evaluation it belongs to, "\\_SB.PCI0._OSC" */
};

/* The outcome for one host bridge, in the words of Linux's log. */
enum osc_outcome {
	OSC_OUT_GRANTED,	/* Linux keeps managing ASPM (no pcie_no_aspm) */
	OSC_OUT_DENIED,		/* Linux would call pcie_no_aspm(): hands off */
	OSC_OUT_UNKNOWN,	/* not known before the OS (reason says why) */
	OSC_OUT_SKIPPED,	/* not a bridge Linux adds (_STA, _SEG) */
};

#define OSC_PATH_MAX	48
#define OSC_REASON_MAX	64
struct osc_bridge {
	char path[OSC_PATH_MAX];	/* "\\_SB_.PCI0" */
	char hid[9];
	bool pcie;			/* _HID PNP0A08 */
	uint32_t sta;
	uint16_t seg;
	uint8_t bus_start, bus_end;
	bool bus_from_crs;		/* else _BBN (or 0) to 0xff */
	bool has_osc;
	uint32_t support;		/* what was offered */
	uint32_t requested;		/* control asked for */
	uint32_t control;		/* the query's last answer */
	uint32_t status_dword;		/* the last answer's first DWORD */
	unsigned queries;		/* _OSC evaluations made */
	unsigned accesses;		/* region accesses during them */
	const char *status;		/* ACPICA exception name, "AE_OK" ... */
	enum osc_outcome outcome;
	char reason[OSC_REASON_MAX];	/* "" when granted */
};

#define OSC_MAX_BRIDGES	32
#define AML_MAX_ACCESSES	64
struct osc_report {
	int load_err;			/* 0, or negative AE_* of lib/err.h */
	char load_reason[OSC_REASON_MAX];
	unsigned ntables;		/* tables loaded */
	unsigned nbridges;
	struct osc_bridge bridge[OSC_MAX_BRIDGES];
	unsigned naccess;		/* accesses recorded (at most AML_MAX_ACCESSES) */
	unsigned naccess_total;
	struct aml_access access[AML_MAX_ACCESSES];
	size_t mem_peak;
	/* the machine: what Linux 6.1's pcie_no_aspm() would end at */
	enum osc_outcome machine;
	char machine_reason[OSC_REASON_MAX];
};

struct osc_request {
	uint32_t support;
	uint32_t control;
};

/*
 * Load the tables, find every host bridge, negotiate as Linux 6.1 does
 * with query-only _OSC evaluations (the request itself is never made:
 * it would commit the firmware before the OS). Returns 0 when the tables
 * loaded (the outcome is in *out, possibly unknown), a negative error
 * otherwise (out->load_reason says why; out->machine is then UNKNOWN).
 * req NULL: OSC_DEBIAN_SUPPORT / OSC_DEBIAN_CONTROL.
 */
int osc_query(const struct aml_table *tables, unsigned ntables,
	      const struct aml_platform *plat, const struct osc_request *req,
	      struct osc_report *out);

/* "[PCIeHotplug SHPCHotplug PME AER PCIeCapability LTR DPC]" as Linux's
 * decode_osc_control() prints it; into buf (>= 80 bytes). */
char *osc_control_str(uint32_t control, char *buf, size_t size);
char *osc_support_str(uint32_t support, char *buf, size_t size);
const char *osc_outcome_name(enum osc_outcome o);
/* accesses AML made that were refused (of those recorded) */
unsigned osc_refused(const struct osc_report *r);
/* "SystemMemory", "SystemIO", "PCI_Config", ... */
const char *aml_space_name(uint8_t space);

#endif /* ASPMCTL_ACPI_AML_H */
