/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Configuration-space access behind a narrow interface (iPXE's
 * pci_api, Linux's pci_ops): one backend reads ECAM through MMIO in
 * efi/, the host tests plug in a simulator. Every access goes through
 * pci_cfg_read*() / pci_cfg_write*(), which check alignment and offset
 * and count reads and writes.
 */
#ifndef ASPMCTL_PCIE_CFG_H
#define ASPMCTL_PCIE_CFG_H

#include <stdbool.h>
#include <stdint.h>

struct pci_addr {
	uint16_t seg;
	uint8_t bus;
	uint8_t devfn;
};

/* Backend: width is 1, 2 or 4; off is aligned to width and < 4096.
 * read returns 0 and *val, or a negative error (e.g. -AE_RANGE when the
 * address is outside every decoded ECAM region). */
struct pci_cfg_ops {
	int (*read)(void *ctx, struct pci_addr a, uint16_t off, unsigned width,
		    uint32_t *val);
	int (*write)(void *ctx, struct pci_addr a, uint16_t off, unsigned width,
		     uint32_t val);
};

struct pci_cfg {
	const struct pci_cfg_ops *ops;
	void *ctx;
	uint64_t reads;
	uint64_t writes;
	uint64_t errors;	/* accesses refused by the backend */
	bool read_only;		/* refuse every write (report, plan) */
	uint64_t refused_writes;
};

void pci_cfg_init(struct pci_cfg *c, const struct pci_cfg_ops *ops, void *ctx);

int pci_cfg_read8(struct pci_cfg *c, struct pci_addr a, uint16_t off, uint8_t *v);
int pci_cfg_read16(struct pci_cfg *c, struct pci_addr a, uint16_t off, uint16_t *v);
int pci_cfg_read32(struct pci_cfg *c, struct pci_addr a, uint16_t off, uint32_t *v);
int pci_cfg_write8(struct pci_cfg *c, struct pci_addr a, uint16_t off, uint8_t v);
int pci_cfg_write16(struct pci_cfg *c, struct pci_addr a, uint16_t off, uint16_t v);
int pci_cfg_write32(struct pci_cfg *c, struct pci_addr a, uint16_t off, uint32_t v);

/* "SSSS:BB:DD.F" into buf (>= 13 bytes); returns buf. */
char *pci_addr_str(struct pci_addr a, char *buf);
/* Parse "SSSS:BB:DD.F" or "BB:DD.F" (segment 0). Hex fields, checked. */
int pci_addr_parse(const char *s, struct pci_addr *a);

static inline bool pci_addr_eq(struct pci_addr a, struct pci_addr b)
{
	return a.seg == b.seg && a.bus == b.bus && a.devfn == b.devfn;
}

#endif
