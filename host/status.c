// SPDX-License-Identifier: GPL-2.0-only
/*
 * aspmctl status: what aspmctl.efi did this boot (the summary variable,
 * the counter, results\boot.txt on the ESP) and, for every function the
 * app programmed, whether Linux has changed its Link Control since: the
 * app's `aspm target` records against the register read now from sysfs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "install.h"
#include "sysfs.h"
#include "variables.h"
#include "../lib/err.h"
#include "../lib/util.h"
#include "../pcie/pci_regs.h"

#define BOOT_TXT_MAX	(4u << 20)

/* The PCI Express capability in the first 256 bytes (0: none or not
 * readable); bounded walk (PCI r3.0 sec 6.7). */
static unsigned pcie_cap(const uint8_t *cfg, size_t len)
{
	unsigned pos;

	if (len < 256 || !(get_le16(cfg + PCI_STATUS) & PCI_STATUS_CAP_LIST))
		return 0;
	pos = cfg[PCI_CAPABILITY_LIST] & 0xfc;
	for (unsigned n = 0; n < 48 && pos >= 0x40; n++) {
		if (cfg[pos] == PCI_CAP_ID_EXP)
			return pos;
		pos = cfg[pos + 1] & 0xfc;
	}
	return 0;
}

/* The bits the app owns in Link Control, named where they differ. */
static void changed_bits(uint16_t a, uint16_t b, char *buf, size_t size)
{
	static const struct { uint16_t bit; const char *name; } bits[] = {
		{ PCI_EXP_LNKCTL_ASPMC, "aspm" }, { PCI_EXP_LNKCTL_CCC, "ccc" },
		{ PCI_EXP_LNKCTL_CLKREQ_EN, "clkpm" },
	};
	size_t k = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < ARRAY_SIZE(bits); i++)
		if ((a ^ b) & bits[i].bit)
			k += (size_t)snprintf(buf + k, size - k, "%s%s", k ? "," : "", bits[i].name);
	if (!k)
		snprintf(buf, size, "none");
}

/* One `aspm target fn=ADDR ... lnkctl=0xNNNN` line against sysfs. */
static void compare_target(const char *root, const char *line)
{
	char fn[16], path[4200], ch[32];
	const char *l = strstr(line, " lnkctl=0x");
	unsigned app, pos;
	uint8_t *cfg = NULL;
	size_t len = 0;

	if (sscanf(line, "aspm target fn=%15s", fn) != 1 || !l || sscanf(l, " lnkctl=0x%x", &app) != 1)
		return;
	snprintf(path, sizeof(path), "%s/sys/bus/pci/devices/%s/config", root, fn);
	if (host_read_file(path, 4096, &cfg, &len)) {
		printf("aspm status fn=%s app=0x%04x now=- changed=- note=gone\n", fn, app);
		return;
	}
	pos = pcie_cap(cfg, len);
	if (!pos)
		printf("aspm status fn=%s app=0x%04x now=- changed=- note=%s\n", fn, app,
		       len < 256 ? "needs-root" : "no-pcie-cap");
	else {
		uint16_t now = get_le16(cfg + pos + PCI_EXP_LNKCTL);

		changed_bits((uint16_t)app, now, ch, sizeof(ch));
		printf("aspm status fn=%s app=0x%04x now=0x%04x changed=%s\n", fn, app, now, ch);
	}
	free(cfg);
}

int host_status(const struct install_opts *o)
{
	char esp[1024], path[1200];
	uint8_t *bt = NULL;
	size_t len = 0;
	int rc = efivars_status(o->efivars);

	if (rc)
		return rc;
	if (install_find_esp(o, esp, sizeof(esp), false)) {
		printf("boot.txt: not read: no EFI System Partition mounted at /boot/efi, /efi or /boot (--esp DIR)\n");
		return 0;
	}
	snprintf(path, sizeof(path), "%s/EFI/aspmctl/results/boot.txt", esp);
	if (host_read_file(path, BOOT_TXT_MAX, &bt, &len)) {
		printf("boot.txt: none at %s\n", path);
		return 0;
	}
	printf("boot.txt: %s\n", path);
	for (char *l = (char *)bt, *e; l < (char *)bt + len; l = e + 1) {
		e = memchr(l, '\n', (size_t)((char *)bt + len - l));
		if (!e)
			e = (char *)bt + len;
		*e = '\0';
		if (e > l && e[-1] == '\r')
			e[-1] = '\0';
		if (!strncmp(l, "aspm summary ", 13) || !strncmp(l, "aspm tries ", 11))
			printf("%s\n", l);
		else if (!strncmp(l, "aspm target ", 12))
			compare_target(o->root, l);
	}
	free(bt);
	return 0;
}
