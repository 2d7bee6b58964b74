# SPDX-License-Identifier: GPL-2.0-only
#
# Register-level cross-check of the app's engine against Linux's aspm.c
# (docs/xcheck.md), included by the top Makefile: `include tests/xcheck/xcheck.mk`.
#
#   make xcheck        build the host tool, the scenarios, aspmsim.ko for both
#                      kernels and the initramfs variant; boot every group;
#                      compare app / patched / unpatched (tests/xcheck/xcheck.sh)
#   make xcheck-host   only the host side: $(BUILD)/xcheck/scenarios/*.{sim,app}
#
# XCHECK_ARGS='--only NAME ...' passes options to tests/xcheck/xcheck.sh.

XCHECK_ARGS ?=

.PHONY: xcheck xcheck-host

$(BUILD)/xcheck/xcheck: tests/xcheck/xcheck.c $(HOST_OBJS) $(BUILD)/aml/host-san/libaml.a
	@mkdir -p $(@D)
	@echo "  LD [host] $@"
	@$(HOST_CC) $(HOST_CFLAGS) $< $(HOST_OBJS) $(BUILD)/aml/host-san/libaml.a -o $@

xcheck-host: $(BUILD)/xcheck/xcheck
	@rm -rf $(BUILD)/xcheck/scenarios && mkdir -p $(BUILD)/xcheck/scenarios
	$(BUILD)/xcheck/xcheck $(BUILD)/xcheck/scenarios

xcheck: $(BUILD)/xcheck/xcheck
	@tests/xcheck/xcheck.sh --tool $(BUILD)/xcheck/xcheck \
		--out $(BUILD)/xcheck --results $(BUILD)/results $(XCHECK_ARGS)

# make twin: the same cross-check over real machines' dumps (docs/twin.md,
# "Cross-checking real machines"): every root bus of every dump a scenario,
# under every group; the damaged dumps must be refused as expected.
# TWIN_DUMPS: the dumps; TWIN_ARGS: more options
# (e.g. --no-build, --groups force).
TWIN_DUMPS ?= $(wildcard tests/twin/dumps/*.txt tests/twin/shapes/*.txt tests/twin/damaged/*.txt)
TWIN_ARGS ?=

.PHONY: twin

twin: $(BUILD)/xcheck/xcheck
	@tests/xcheck/xcheck.sh --tool $(BUILD)/xcheck/xcheck --suite twin \
		--twin '$(TWIN_DUMPS)' --expect tests/twin/expect.tsv \
		--out $(BUILD)/twin --results $(BUILD)/results $(TWIN_ARGS)
