# SPDX-License-Identifier: GPL-2.0-only
# make bench (tests/bench/README.md); included by the top Makefile.
#   make bench                       everything: topologies, boots, table, plot
#   make bench BENCH_SIZES=8,32      other sizes (functions per topology)
#   make bench BENCH_JOBS=N          boots at a time (default 2)
#   make bench BENCH_ARGS=--no-matrix   more options of tests/bench/bench.py
# Output: $(BUILD)/bench/bench.md, bench.csv, bench.json, bench.svg.
BENCH_SIZES	?= 8,32,64,128,256
BENCH_JOBS	?= 2
BENCH_ARGS	?=

bench: $(BUILD)/aspmctl.efi $(BUILD)/efi-stub.efi
	@scripts/install-deps.sh test
	@$(MAKE) --no-print-directory kernel >$(BUILD)/bench-kernel.log 2>&1 || \
		{ tail -n 20 $(BUILD)/bench-kernel.log; exit 1; }
	@rm -rf $(BUILD)/bench
	python3 tests/bench/bench.py --out $(BUILD)/bench --sizes $(BENCH_SIZES) \
		-j $(BENCH_JOBS) --app $(BUILD)/aspmctl.efi --stub $(BUILD)/efi-stub.efi $(BENCH_ARGS)
	@echo "bench: load average $$(cut -d' ' -f1-3 /proc/loadavg)"

# The digital twin's parser and builder on a generated 1,000-function
# lspci -xxxx dump (tests/bench/twin_bench.c): prints times, no QEMU.
# Optimised, without sanitizers, so that the figures mean something.
.PHONY: bench-twin
$(BUILD)/bench-twin/twin_bench: tests/bench/twin_bench.c $(wildcard twin/*.c twin/*.h) lib/fmt.c lib/util.c lib/err.c pcie/cfg.c
	@mkdir -p $(@D)
	@echo "  LD [host] $@"
	@$(HOST_CC) $(WARN) -std=gnu11 -O2 -I. $< $(wildcard twin/*.c) lib/fmt.c lib/util.c lib/err.c pcie/cfg.c -o $@

bench-twin: $(BUILD)/bench-twin/twin_bench $(BUILD)/host/aspmctl
	$(BUILD)/bench-twin/twin_bench
	python3 tests/bench/twin_host_bench.py --tool $(BUILD)/host/aspmctl \
		--gen $(BUILD)/bench-twin/twin_bench
