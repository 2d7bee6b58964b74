// SPDX-License-Identifier: GPL-2.0-only
/*
 * How long the digital twin takes to parse a generated lspci -xxxx dump of
 * about 1,000 functions (Root Ports with a switch each, see generate())
 * and to build the twin from it (copy and derive masks), and to write it
 * back out. A figure to print, not a timed
 * test: `make bench-twin` (tests/bench/bench.mk).
 *
 * Usage: twin_bench [RUNS] [FUNCTIONS] [OUT]  (default 7 runs, 1000
 * functions; OUT: also write the generated dump there, for the host
 * tool's benchmark, tests/bench/twin_host_bench.py)
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "../../twin/twin.h"
#include "../../pcie/pci_regs.h"

static char *text;
static size_t tlen, tcap;

static void put(const char *s, size_t n)
{
	if (tlen + n + 1 > tcap) {
		tcap = 2 * (tlen + n + 1);
		text = realloc(text, tcap);
		if (!text)
			exit(1);
	}
	memcpy(text + tlen, s, n);
	tlen += n;
}

static void emit(unsigned bus, unsigned dev, unsigned fn, const uint8_t *cfg)
{
	static const char hex[] = "0123456789abcdef";
	char line[64];
	int n = snprintf(line, sizeof(line), "%02x:%02x.%u Ethernet controller: X\n", bus, dev, fn);

	put(line, (size_t)n);
	for (unsigned off = 0; off < 4096; off += 16) {
		char *p = line + snprintf(line, sizeof(line), "%02x:", off);

		for (unsigned k = 0; k < 16; k++) {
			*p++ = ' ';
			*p++ = hex[cfg[off + k] >> 4];
			*p++ = hex[cfg[off + k] & 15];
		}
		*p++ = '\n';
		put(line, (size_t)(p - line));
	}
	put("\n", 1);
}

/* One PCIe function: a bridge (Root, Upstream or Downstream Port) with
 * its bus numbers, or a multi-function Endpoint; L0s, L1, Clock PM, an
 * L1 PM Substates and an LTR capability each. */
static void function(uint8_t *cfg, unsigned type, unsigned pri, unsigned sec,
		     unsigned sub)
{
	bool bridge = type != PCI_EXP_TYPE_ENDPOINT && type != PCI_EXP_TYPE_RC_END;

	memset(cfg, 0, 4096);
	cfg[0] = 0x86, cfg[1] = 0x80, cfg[2] = 0x34, cfg[3] = 0x12;
	cfg[PCI_STATUS] = PCI_STATUS_CAP_LIST;
	cfg[PCI_HEADER_TYPE] = bridge ? 1 : type == PCI_EXP_TYPE_ENDPOINT ? 0x80 : 0;
	cfg[PCI_PRIMARY_BUS] = bridge ? (uint8_t)pri : 0;
	cfg[PCI_SECONDARY_BUS] = bridge ? (uint8_t)sec : 0;
	cfg[PCI_SUBORDINATE_BUS] = bridge ? (uint8_t)sub : 0;
	cfg[PCI_CAPABILITY_LIST] = 0x40;
	cfg[0x40] = PCI_CAP_ID_EXP;
	cfg[0x42] = (uint8_t)(type << 4 | 2);
	cfg[0x4c] = 0x11, cfg[0x4d] = 0x0c, cfg[0x4e] = 0x04;	/* L0s L1 Clock PM */
	cfg[0x100] = PCI_EXT_CAP_ID_L1SS, cfg[0x102] = 0x01, cfg[0x103] = 0x20;
	cfg[0x104] = 0x1f;
	cfg[0x200] = PCI_EXT_CAP_ID_LTR, cfg[0x202] = 0x01;
}

/* A machine as Linux would enumerate it: an RCiEP, then Root Ports, each
 * with a switch of 8 Downstream Ports below, each with an 8-function
 * Endpoint (74 functions and 10 buses a Root Port), until want. */
static void generate(unsigned want)
{
	static uint8_t cfg[4096];
	unsigned n = 1, bus = 1;

	function(cfg, PCI_EXP_TYPE_RC_END, 0, 0, 0);
	emit(0, 0, 0, cfg);
	for (unsigned rp = 1; rp < 32 && n < want && bus + 9 < 256; rp++, bus += 10) {
		function(cfg, PCI_EXP_TYPE_ROOT_PORT, 0, bus, bus + 9);
		emit(0, rp, 0, cfg);
		function(cfg, PCI_EXP_TYPE_UPSTREAM, bus, bus + 1, bus + 9);
		emit(bus, 0, 0, cfg);
		n += 2;
		for (unsigned d = 0; d < 8 && n < want; d++) {
			function(cfg, PCI_EXP_TYPE_DOWNSTREAM, bus + 1, bus + 2 + d, bus + 2 + d);
			emit(bus + 1, d, 0, cfg);
			n++;
			for (unsigned f = 0; f < 8 && n < want; f++, n++) {
				function(cfg, PCI_EXP_TYPE_ENDPOINT, 0, 0, 0);
				emit(bus + 2 + d, 0, f, cfg);
			}
		}
	}
	text[tlen] = '\0';
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void discard(void *ctx, const char *s, size_t n)
{
	(void)s;
	*(size_t *)ctx += n;
}

int main(int argc, char **argv)
{
	unsigned runs = argc > 1 ? (unsigned)atoi(argv[1]) : 7;
	unsigned want = argc > 2 ? (unsigned)atoi(argv[2]) : 1000;
	double parse[64], build[64], write[64];
	struct lspci_dump d;
	struct twin_err e;
	struct twin t;
	size_t written = 0;
	struct out o = { discard, &written };

	if (!runs || runs > 64 || !want || want > LSPCI_MAX_FN)
		return 2;
	generate(want);
	if (argc > 3) {
		FILE *f = fopen(argv[3], "w");

		if (!f || fwrite(text, 1, tlen, f) != tlen || fclose(f)) {
			perror(argv[3]);
			return 1;
		}
	}
	for (unsigned r = 0; r < runs; r++) {
		double t0 = now(), t1, t2, t3;

		if (lspci_parse(text, tlen, &d, &e)) {
			fprintf(stderr, "twin_bench:%u: %s\n", e.line, e.msg);
			return 1;
		}
		t1 = now();
		if (twin_from_dump(&t, &d))
			return 1;
		t2 = now();
		twin_write_lspci(&t, &o);
		t3 = now();
		parse[r] = t1 - t0, build[r] = t2 - t1, write[r] = t3 - t2;
		lspci_free(&d);
		twin_free(&t);
	}
	qsort(parse, runs, sizeof(double), cmp);
	qsort(build, runs, sizeof(double), cmp);
	qsort(write, runs, sizeof(double), cmp);
	printf("twin bench: %u functions, 4096 bytes each, %.1f MiB of dump text, %u runs (median, min)\n",
	       want, tlen / 1048576.0, runs);
	printf("  parse          %8.1f ms  %8.1f ms  (%.0f MiB/s, %.1f us/function)\n",
	       parse[runs / 2] * 1e3, parse[0] * 1e3, tlen / 1048576.0 / parse[runs / 2],
	       parse[runs / 2] * 1e6 / want);
	printf("  build twin     %8.1f ms  %8.1f ms\n", build[runs / 2] * 1e3, build[0] * 1e3);
	printf("  parse + build  %8.1f ms\n", (parse[runs / 2] + build[runs / 2]) * 1e3);
	printf("  write lspci    %8.1f ms  %8.1f ms\n", write[runs / 2] * 1e3, write[0] * 1e3);
	free(text);
	return 0;
}
