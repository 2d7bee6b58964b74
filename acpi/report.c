// SPDX-License-Identifier: GPL-2.0-only
/*
 * The ACPI part of the report: the RSDP and root table, every FADT with
 * its IAPC_BOOT_ARCH flags, every MCFG allocation and why one is unused.
 * Lines for people, 80 columns (README "Output").
 */
#include "report.h"

void report_acpi(const struct out *o, const struct acpi_info *info)
{
	out_printf(o, "ACPI: RSDP at 0x%llx revision %u OEM \"%s\", %s at 0x%llx (%u entries",
		   (unsigned long long)info->rsdp.phys, info->rsdp.revision,
		   info->rsdp.oem_id, info->use_xsdt ? "XSDT" : "RSDT",
		   (unsigned long long)info->root_phys, info->root_entries);
	if (info->bad_entries)
		out_printf(o, ", %u invalid", info->bad_entries);
	out_puts(o, ")\n");
	if (!info->nfadt)
		out_puts(o, "FADT: not found\n");
	for (unsigned i = 0; i < info->nfadt; i++) {
		const struct acpi_fadt_info *f = &info->fadt[i];

		out_printf(o, "FADT: at 0x%llx revision %u.%u length %u",
			   (unsigned long long)f->phys, f->revision,
			   f->minor_revision, f->length);
		if (!f->boot_arch_valid) {
			out_puts(o, ": IAPC_BOOT_ARCH absent (FADT of 132 bytes or less); ASPM flag ignored\n");
			continue;
		}
		out_printf(o, " IAPC_BOOT_ARCH 0x%04x\n", f->iapc_boot_arch);
		for (unsigned bit = 0; bit < 6; bit++) {
			const char *name = fadt_iapc_flag_name(bit);

			out_printf(o, "  %-15s %s\n", name,
				   (f->iapc_boot_arch & (1u << bit)) ? "yes" : "no");
		}
		out_printf(o, "  => PCIe ASPM Controls: %s\n",
			   fadt_no_aspm(f) ? "ASPM NOT supported (bit 4 set)" :
					     "ASPM allowed (bit 4 clear)");
	}
	out_printf(o, "MCFG: %u table(s), %u region(s)\n", info->nmcfg_tables,
		   info->nregions);
	for (unsigned i = 0; i < info->nregions; i++) {
		const struct mcfg_region *r = &info->region[i];

		out_printf(o, "  segment %04x buses %02x-%02x at 0x%llx%s%s%s\n",
			   r->segment, r->start_bus, r->end_bus,
			   (unsigned long long)r->base,
			   (r->flags & MCFG_F_REVERSED) ? " REVERSED(unused)" : "",
			   (r->flags & MCFG_F_ZERO_BASE) ? " ZERO-BASE(unused)" : "",
			   (r->flags & MCFG_F_OVERLAP) ? " OVERLAPS(unused)" : "");
	}
}
