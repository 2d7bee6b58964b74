// SPDX-License-Identifier: GPL-2.0-only
/*
 * Capability list walks, bounded against hostile hardware:
 *  - standard list (PCI Local Bus 3.0 sec 6.7): pointers live in
 *    [0x40, 0xff], are dword aligned, and each slot is visited once;
 *  - extended list (PCIe r5.0 sec 7.6.1): entries at [0x100, 0xfff],
 *    dword aligned, each visited once.
 * A pointer into the header or back to a visited entry is a loop: the
 * walk stops with -AE_LOOP instead of spinning.
 */
#include <stddef.h>
#include "caps.h"
#include "pci_regs.h"
#include "../lib/err.h"

/*
 * Each entry is read as one dword: its ID and next pointer, and the
 * capability's own first register (for the PCI Express capability, the
 * PCI Express Capabilities register) come with it, so that the caller
 * does not read that again (*hdr, when not NULL).
 */
int pci_find_cap_hdr(struct pci_cfg *c, struct pci_addr a, uint8_t id, uint8_t *pos,
		     uint32_t *hdr)
{
	uint8_t seen[256 / 32] = { 0 };
	uint16_t status;
	uint32_t ent;
	uint8_t p;
	int rc;

	rc = pci_cfg_read16(c, a, PCI_STATUS, &status);
	if (rc)
		return rc;
	if (status == 0xffff)
		return -AE_IO;
	if (!(status & PCI_STATUS_CAP_LIST))
		return -AE_NOENT;
	rc = pci_cfg_read8(c, a, PCI_CAPABILITY_LIST, &p);
	if (rc)
		return rc;
	p &= 0xfc;
	while (p) {
		if (p < 0x40)
			return -AE_LOOP;	/* points into the header */
		if (seen[p / 32] & (1u << ((p / 4) % 8)))
			return -AE_LOOP;
		seen[p / 32] |= (uint8_t)(1u << ((p / 4) % 8));
		rc = pci_cfg_read32(c, a, p, &ent);
		if (rc)
			return rc;
		if ((ent & 0xffff) == 0xffff)
			return -AE_IO;
		if ((ent & 0xff) == id) {
			*pos = p;
			if (hdr)
				*hdr = ent;
			return 0;
		}
		p = (uint8_t)(ent >> 8) & 0xfc;
	}
	return -AE_NOENT;
}

int pci_find_ext_caps(struct pci_cfg *c, struct pci_addr a, const uint16_t *ids,
		      uint16_t *pos, unsigned n)
{
	uint8_t seen[(4096 - 256) / 4 / 8] = { 0 };
	uint16_t p = PCI_CFG_SPACE_SIZE;
	unsigned found = 0;
	uint32_t hdr;
	int rc;

	for (unsigned i = 0; i < n; i++)
		pos[i] = 0;
	for (;;) {
		unsigned slot = (unsigned)(p - PCI_CFG_SPACE_SIZE) / 4;

		if (seen[slot / 8] & (1u << (slot % 8)))
			return -AE_LOOP;
		seen[slot / 8] |= (uint8_t)(1u << (slot % 8));
		rc = pci_cfg_read32(c, a, p, &hdr);
		if (rc)
			return rc;
		/* no extended capabilities, or config space not extended */
		if (hdr == 0 || hdr == 0xffffffff)
			return found ? 0 : -AE_NOENT;
		for (unsigned i = 0; i < n; i++) {
			if (PCI_EXT_CAP_ID(hdr) == ids[i] && !pos[i]) {
				pos[i] = p;
				if (++found == n)
					return 0;
			}
		}
		p = (uint16_t)PCI_EXT_CAP_NEXT(hdr);
		if (!p)
			return found ? 0 : -AE_NOENT;
		if (p < PCI_CFG_SPACE_SIZE)
			return -AE_LOOP;
	}
}

int pci_find_ext_cap(struct pci_cfg *c, struct pci_addr a, uint16_t id,
		     uint16_t *pos)
{
	return pci_find_ext_caps(c, a, &id, pos, 1);
}
