/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ACPI discovery: RSDP -> XSDT/RSDT -> FADT and MCFG (ACPI 6.5 sec 5.2).
 *
 * Plain C, no UEFI headers. Physical memory is reached only through
 * struct acpi_mem, so that efi/ maps real memory and tests/fuzzers feed a
 * byte array. Nothing in a table is used before its length and checksum
 * have been verified; every count is derived from the table's own length
 * and bounded.
 */
#ifndef ASPMCTL_ACPI_H
#define ASPMCTL_ACPI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ACPI_HDR_LEN		36	/* System Description Table Header */
#define ACPI_RSDP_V1_LEN	20	/* bytes covered by the 1.0 checksum */
#define ACPI_RSDP_V2_LEN	36	/* minimum Length of a 2.0+ RSDP */
#define ACPI_TABLE_MAX_LEN	(16u << 20)	/* refuse "absurdly large" */
#define ACPI_ROOT_MAX_ENTRIES	256

/* FADT field offsets (ACPI 6.5 table 5.9) */
#define FADT_IAPC_BOOT_ARCH_OFF	109	/* 2 bytes */
#define FADT_FLAGS_OFF		112	/* 4 bytes */
#define FADT_MINOR_REV_OFF	131
/*
 * ACPICA (actbl.h, ACPI_FADT_V2_SIZE... and acpi_tb_create_local_fadt)
 * treats IAPC_BOOT_ARCH as absent in FADTs of 132 bytes or shorter:
 * such tables predate the "PCIe ASPM Controls" bit.
 */
#define FADT_BOOT_ARCH_MIN_LEN	133

/* IAPC_BOOT_ARCH flags (ACPI 6.5 table 5.10) */
#define FADT_IAPC_LEGACY_DEVICES	(1u << 0)
#define FADT_IAPC_8042			(1u << 1)
#define FADT_IAPC_NO_VGA		(1u << 2)
#define FADT_IAPC_NO_MSI		(1u << 3)
#define FADT_IAPC_NO_ASPM		(1u << 4)	/* PCIe ASPM Controls */
#define FADT_IAPC_NO_CMOS_RTC		(1u << 5)

/* MCFG (PCI Firmware spec 3.3 table 4-3): header + 8 reserved + n * 16 */
#define MCFG_ENTRIES_OFF	44
#define MCFG_ENTRY_LEN		16
#define MCFG_MAX_REGIONS	64

/* Ways to reach physical memory. map() returns NULL when [phys, phys+len)
 * is not backed (outside RAM, the fuzz image, or wraps around). */
struct acpi_mem {
	void *(*map)(void *ctx, uint64_t phys, size_t len);
	void *ctx;
};

struct acpi_rsdp_info {
	uint64_t phys;
	uint8_t revision;
	char oem_id[7];
	uint32_t rsdt;		/* 0 if none */
	uint64_t xsdt;		/* 0 if revision < 2 or field zero */
	uint32_t length;	/* 20 for revision 0 */
};

struct acpi_fadt_info {
	uint64_t phys;
	uint32_t length;
	uint8_t revision;
	uint8_t minor_revision;	/* 0 when the table is too short */
	bool boot_arch_valid;	/* length >= FADT_BOOT_ARCH_MIN_LEN */
	uint16_t iapc_boot_arch;	/* 0 when !boot_arch_valid */
};

/* One MCFG allocation; base is the address of bus 0 of the segment (PCI
 * Firmware spec 3.3 sec 4.1.2; Linux's pci_mmcfg_arch_map does the same).
 */
#define MCFG_F_REVERSED		(1u << 0)	/* end bus < start bus */
#define MCFG_F_ZERO_BASE	(1u << 1)
#define MCFG_F_OVERLAP		(1u << 2)	/* overlaps an earlier entry */
#define MCFG_F_UNUSABLE		(MCFG_F_REVERSED | MCFG_F_ZERO_BASE | \
				 MCFG_F_OVERLAP)
struct mcfg_region {
	uint64_t base;
	uint16_t segment;
	uint8_t start_bus;
	uint8_t end_bus;
	uint32_t flags;
};

/* The AML tables (DSDT, SSDTs, PSDTs) for acpi/aml's _OSC query: where
 * they are; validated like every other table (header, length, checksum). */
#define ACPI_MAX_AML	32
struct acpi_aml_table {
	uint64_t phys;
	uint32_t len;
	char sig[5];
};

/* Everything discovery found, for the report and for the policy. */
#define ACPI_MAX_FADTS	4
struct acpi_info {
	struct acpi_rsdp_info rsdp;
	bool use_xsdt;		/* root table walked: XSDT, else RSDT */
	uint64_t root_phys;
	uint32_t root_entries;
	/* every FADT the root table reaches (normally one) */
	unsigned nfadt;
	struct acpi_fadt_info fadt[ACPI_MAX_FADTS];
	/* every usable MCFG region from every MCFG (normally one table) */
	unsigned nmcfg_tables;
	unsigned nregions;
	struct mcfg_region region[MCFG_MAX_REGIONS];
	unsigned bad_entries;	/* root entries that did not validate */
	/* the first FADT's DSDT (X_DSDT, else DSDT) first, when valid; then
	 * every SSDT and PSDT of the root table */
	bool dsdt_valid;
	unsigned naml;
	unsigned aml_dropped;	/* SSDTs beyond ACPI_MAX_AML */
	struct acpi_aml_table aml[ACPI_MAX_AML];
};

/* Sum of bytes mod 256; a valid table sums to zero. */
uint8_t acpi_checksum(const void *buf, size_t len);

/* Validate an RSDP at buf (which must hold at least 20 bytes; len is how
 * many bytes are readable). Checks signature, 1.0 checksum, and for
 * revision >= 2 the Length field and extended checksum. */
int acpi_rsdp_parse(const void *buf, size_t len, uint64_t phys,
		    struct acpi_rsdp_info *out);

/* Map and validate a whole table at phys: header readable, Length >= 36
 * and <= ACPI_TABLE_MAX_LEN, whole table mapped, checksum zero, and when
 * sig is non-NULL the signature matches. *table points at the mapped
 * table, *len is its Length. */
int acpi_table_map(const struct acpi_mem *mem, uint64_t phys, const char *sig,
		   void **table, uint32_t *len);

/* Decode a validated FADT. */
int acpi_fadt_parse(const void *table, uint32_t len, uint64_t phys,
		    struct acpi_fadt_info *out);
/* The FADT's "PCIe ASPM Controls" bit, honoured only when the field exists. */
bool fadt_no_aspm(const struct acpi_fadt_info *f);

/* Decode a validated MCFG into out[0..max). Length must be 44 + n * 16.
 * Entries are flagged (not dropped) here; *n is the number of entries. */
int acpi_mcfg_parse(const void *table, uint32_t len, struct mcfg_region *out,
		    unsigned max, unsigned *n);

/* Walk RSDP -> XSDT (revision >= 2 and non-zero) else RSDT, collecting
 * FADTs and MCFG regions. Entries that fail validation are counted and
 * logged, not fatal. Returns -AE_NOENT when no FADT is found, or a
 * negative error when the RSDP or the root table is invalid. */
int acpi_discover(const struct acpi_mem *mem, uint64_t rsdp_phys,
		  struct acpi_info *info);

/* Set or clear IAPC_BOOT_ARCH bits in a writable, validated FADT and fix
 * its checksum. Refuses (-AE_NOTSUP) when the FADT is too short to carry
 * the field. *before / *after receive the field's old and new values. */
int fadt_patch_boot_arch(void *table, uint32_t len, uint16_t set,
			 uint16_t clear, uint16_t *before, uint16_t *after);

/* Patch every FADT reachable from the RSDT and the XSDT (each address
 * once). Returns the first failure (e.g. -AE_NOTSUP for a FADT too short
 * to carry the flag), -AE_NOENT when no FADT is reachable. */
struct fadt_patch {
	uint64_t phys;
	const char *root;	/* "XSDT" or "RSDT": where it was first seen */
	uint32_t length;
	uint16_t before, after;
	int rc;
};
int acpi_patch_fadts(const struct acpi_mem *mem, uint64_t rsdp_phys,
		     uint16_t set, uint16_t clear, struct fadt_patch *res,
		     unsigned max, unsigned *n);

/* Names of the IAPC_BOOT_ARCH bits, for reports. */
const char *fadt_iapc_flag_name(unsigned bit);

#endif
