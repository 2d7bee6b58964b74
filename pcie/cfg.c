// SPDX-License-Identifier: GPL-2.0-only
/*
 * The one door to configuration space. Checks that every access is
 * naturally aligned and inside the 4 KiB function space, counts reads
 * and writes for the report, and enforces read-only runs: in `report`
 * and `plan` the backend never sees a write.
 */
#include "cfg.h"
#include "pci_regs.h"
#include "../lib/err.h"
#include "../lib/fmt.h"
#include "../lib/util.h"

void pci_cfg_init(struct pci_cfg *c, const struct pci_cfg_ops *ops, void *ctx)
{
	mem_set(c, 0, sizeof(*c));
	c->ops = ops;
	c->ctx = ctx;
}

static int cfg_check(struct pci_addr a, uint16_t off, unsigned width)
{
	(void)a;
	if (off & (width - 1))
		return -AE_INVAL;
	if ((unsigned)off + width > PCI_CFG_SPACE_EXP_SIZE)
		return -AE_RANGE;
	return 0;
}

static int cfg_read(struct pci_cfg *c, struct pci_addr a, uint16_t off,
		    unsigned width, uint32_t *v)
{
	int rc = cfg_check(a, off, width);

	if (rc)
		return rc;
	c->reads++;
	rc = c->ops->read(c->ctx, a, off, width, v);
	if (rc)
		c->errors++;
	return rc;
}

static int cfg_write(struct pci_cfg *c, struct pci_addr a, uint16_t off,
		     unsigned width, uint32_t v)
{
	int rc = cfg_check(a, off, width);

	if (rc)
		return rc;
	if (c->read_only) {
		c->refused_writes++;
		return -AE_NOTSUP;
	}
	c->writes++;
	rc = c->ops->write(c->ctx, a, off, width, v);
	if (rc)
		c->errors++;
	return rc;
}

int pci_cfg_read8(struct pci_cfg *c, struct pci_addr a, uint16_t off, uint8_t *v)
{
	uint32_t x = 0xff;
	int rc = cfg_read(c, a, off, 1, &x);

	*v = rc ? 0xff : (uint8_t)x;
	return rc;
}

int pci_cfg_read16(struct pci_cfg *c, struct pci_addr a, uint16_t off, uint16_t *v)
{
	uint32_t x = 0xffff;
	int rc = cfg_read(c, a, off, 2, &x);

	*v = rc ? 0xffff : (uint16_t)x;
	return rc;
}

int pci_cfg_read32(struct pci_cfg *c, struct pci_addr a, uint16_t off, uint32_t *v)
{
	uint32_t x = 0xffffffff;
	int rc = cfg_read(c, a, off, 4, &x);

	*v = rc ? 0xffffffff : x;
	return rc;
}

int pci_cfg_write8(struct pci_cfg *c, struct pci_addr a, uint16_t off, uint8_t v)
{
	return cfg_write(c, a, off, 1, v);
}

int pci_cfg_write16(struct pci_cfg *c, struct pci_addr a, uint16_t off, uint16_t v)
{
	return cfg_write(c, a, off, 2, v);
}

int pci_cfg_write32(struct pci_cfg *c, struct pci_addr a, uint16_t off, uint32_t v)
{
	return cfg_write(c, a, off, 4, v);
}

char *pci_addr_str(struct pci_addr a, char *buf)
{
	fmt_snprintf(buf, 13, "%04x:%02x:%02x.%x", a.seg, a.bus,
		     PCI_SLOT(a.devfn), PCI_FUNC(a.devfn));
	return buf;
}

/* Parse exactly `digits` max hex digits ending at `end` char. */
static const char *parse_hex_field(const char *s, unsigned maxdig, char end,
				   uint32_t max, uint32_t *out)
{
	uint32_t v = 0;
	unsigned n = 0;

	for (; *s && *s != end; s++, n++) {
		char ch = *s;
		int d;

		if (ch >= '0' && ch <= '9')
			d = ch - '0';
		else if (ch >= 'a' && ch <= 'f')
			d = ch - 'a' + 10;
		else if (ch >= 'A' && ch <= 'F')
			d = ch - 'A' + 10;
		else
			return NULL;
		if (n >= maxdig)
			return NULL;
		v = v * 16 + (uint32_t)d;
	}
	if (!n || *s != end || v > max)
		return NULL;
	*out = v;
	return end ? s + 1 : s;
}

int pci_addr_parse(const char *s, struct pci_addr *a)
{
	uint32_t seg = 0, bus, dev, fn;
	unsigned colons = 0;
	const char *p;

	if (!s)
		return -AE_INVAL;
	for (p = s; *p; p++)
		colons += *p == ':';
	if (colons == 2) {
		s = parse_hex_field(s, 4, ':', 0xffff, &seg);
		if (!s)
			return -AE_INVAL;
	} else if (colons != 1) {
		return -AE_INVAL;
	}
	s = parse_hex_field(s, 2, ':', 0xff, &bus);
	if (!s)
		return -AE_INVAL;
	s = parse_hex_field(s, 2, '.', 0x1f, &dev);
	if (!s)
		return -AE_INVAL;
	s = parse_hex_field(s, 1, '\0', 7, &fn);
	if (!s)
		return -AE_INVAL;
	a->seg = (uint16_t)seg;
	a->bus = (uint8_t)bus;
	a->devfn = PCI_DEVFN(dev, fn);
	return 0;
}
