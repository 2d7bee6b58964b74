// SPDX-License-Identifier: GPL-2.0-only
#include "aspmsim.h"
#include "../pcie/pci_regs.h"
#include "../lib/err.h"
#include "../lib/util.h"

static void hex16(const struct out *o, const uint8_t *b)
{
	out_puts(o, " ");
	for (unsigned k = 0; k < 16; k++)
		out_printf(o, "%02x", b[k]);
}

int aspmsim_write(const struct aspmsim_fn *fn, unsigned n, const char *name,
		  const char *origin, const char *remove, const struct out *o)
{
	if (n > ASPMSIM_MAX_FN)
		return -AE_NOSPC;
	if (!name[0] || str_len(name) > ASPMSIM_MAX_NAME)
		return -AE_INVAL;
	for (unsigned i = 0; i < n; i++)
		if (fn[i].addr.seg)
			return -AE_RANGE;
	out_printf(o, "aspmsim 1\n# %s\nname %s\n", origin, name);
	for (unsigned i = 0; i < n; i++) {
		const struct aspmsim_fn *f = &fn[i];

		out_printf(o, "fn %02x:%02x.%x\n", f->addr.bus, PCI_SLOT(f->addr.devfn),
			   PCI_FUNC(f->addr.devfn));
		for (unsigned r = 0; r < PCI_CFG_SPACE_EXP_SIZE; r += 16) {
			bool any = false;

			for (unsigned k = 0; k < 16; k++)
				any |= f->cfg[r + k] || f->rw[r + k] || f->w1c[r + k];
			if (!any)
				continue;
			out_printf(o, "r %03x", r);
			hex16(o, f->cfg + r);
			hex16(o, f->rw + r);
			hex16(o, f->w1c + r);
			out_puts(o, "\n");
		}
	}
	if (remove)
		out_printf(o, "remove %s\n", remove);
	out_puts(o, "end\n");
	return 0;
}
