// SPDX-License-Identifier: GPL-2.0-only
/* Config-space dumps in lspci's text format. */
#include <stdio.h>
#include "fixture.h"
#include "../../pcie/dump.h"
#include "../../records/records.h"

static char text[1 << 20];

static void test_dump_format(void **state)
{
	struct fx *f = fx_new();
	struct out_buf b;
	struct out o;
	const char *p;
	unsigned lines = 0;

	(void)state;
	sim_root_port(f->sim, 0, 1, 0, 1, 1, SIM_LNKCAP(3, 1, 1, 0), 0x0042);
	sim_pci_device(f->sim, 0, 2, 0);
	assert_int_equal(fx_enum(f), 0);
	out_buf_init(&o, &b, text, sizeof(text));
	assert_int_equal(pcie_dump_fn(&f->cfg, fx_fn(f, 0, 1, 0), &o), 4096);
	assert_int_equal(pcie_dump_fn(&f->cfg, fx_fn(f, 0, 2, 0), &o), 256);
	assert_int_equal(f->cfg.writes, 0);
	assert_true(!strncmp(text, "0000:00:01.0 Class 0604: Device 8086:7100\n"
			     "00: 86 80 00 71 ", 58));
	/* 4096 / 16 rows for the PCIe port, 256 / 16 for the PCI device */
	for (p = text; (p = strchr(p, '\n')); p++)
		lines++;
	assert_int_equal(lines, 1 + 256 + 1 + 1 + 16 + 1);
	assert_non_null(strstr(text, "\nff0: 00 00"));
	assert_non_null(strstr(text, "\n0000:00:02.0 Class 0200: Device 8086:100e\n"));
	/* Link Control as the simulator holds it, at the capability offset */
	{
		char want[64];
		struct sim_fn *rp = sim_find(f->sim, A(0, 1, 0));
		unsigned row = (rp->pcie + PCI_EXP_LNKCTL) & ~15u;

		snprintf(want, sizeof(want), "\n%02x:", row);
		p = strstr(text, want);
		assert_non_null(p);
		p += strlen(want) + 3 * ((rp->pcie + PCI_EXP_LNKCTL) % 16);
		assert_true(!strncmp(p, " 42 00", 6));
	}
	fx_free(f);
}

/* The app's LNKCAP/LNKCTL decoding per PCIe function (product.sh holds
 * it against lspci -F): every field, RCiEP without link registers, no
 * record for a conventional PCI function, no config access. */
static void test_link_records(void **state)
{
	struct fx *f = fx_new();
	struct sim_fn *rc;
	struct out_buf b;
	struct out o;
	uint64_t reads;

	(void)state;
	/* L0s+L1, L0s exit <128ns (1), L1 exit <4us (2), Clock PM; L1 + CCC
	 * + CLKREQ enabled */
	sim_root_port(f->sim, 0, 1, 0, 1, 1, SIM_LNKCAP(3, 1, 2, 1), 0x0142);
	/* L0s only, both exit latencies "more than" (7); L0s enabled */
	sim_endpoint(f->sim, 1, 0, 0, SIM_DEVCAP(7, 7, 1), SIM_LNKCAP(1, 7, 7, 0), 0x0001);
	sim_pci_device(f->sim, 0, 2, 0);
	rc = sim_add_fn(f->sim, 0, 0, 3, 0, 0x8086, 0x10d3, 0x020000, 0);
	sim_add_pcie(rc, PCI_EXP_TYPE_RC_END, 0, 0, 0, 0);
	assert_int_equal(fx_enum(f), 0);
	reads = f->cfg.reads;
	out_buf_init(&o, &b, text, sizeof(text));
	rec_fn_links(&o, &f->topo);
	assert_int_equal(f->cfg.reads, reads);
	assert_string_equal(text,
		"aspm fn-link 0000:00:01.0 lnkcap=0x00051c11 support=L0s,L1 l0s-exit=128ns "
		"l1-exit=4.000us clkpm=yes lnkctl=0x0142 aspm=L1 ccc=yes clkreq=yes\n"
		"aspm fn-link 0000:00:03.0 lnkcap=- support=- l0s-exit=- l1-exit=- clkpm=- lnkctl=- aspm=- ccc=- clkreq=- note=no-link\n"
		"aspm fn-link 0000:01:00.0 lnkcap=0x0003f411 support=L0s l0s-exit=5.000us "
		"l1-exit=65.000us clkpm=no lnkctl=0x0001 aspm=L0s ccc=no clkreq=no\n");
	fx_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dump_format),
		cmocka_unit_test(test_link_records),
	};

	return cmocka_run_group_tests_name("dump", tests, NULL, NULL);
}
