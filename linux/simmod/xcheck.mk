# SPDX-License-Identifier: GPL-2.0-only
#
# Register-level cross-check (issue 9), included by the top Makefile:
# `include linux/simmod/xcheck.mk`.
#
#   make xcheck        build the host tool, the scenarios, aspmsim.ko for both
#                      kernels and the initramfs variant; boot every group;
#                      compare app / patched / unpatched (linux/simmod/xcheck.sh)
#   make xcheck-host   only the host side: $(BUILD)/xcheck/scenarios/*.{sim,app}
#
# XCHECK_ARGS='--only NAME ...' passes options to linux/simmod/xcheck.sh.

XCHECK_ARGS ?=

.PHONY: xcheck xcheck-host

$(BUILD)/xcheck/xcheck: tests/xcheck/xcheck.c $(HOST_OBJS)
	@mkdir -p $(@D)
	@echo "  LD [host] $@"
	@$(HOST_CC) $(HOST_CFLAGS) $< $(HOST_OBJS) -o $@

xcheck-host: $(BUILD)/xcheck/xcheck
	@rm -rf $(BUILD)/xcheck/scenarios && mkdir -p $(BUILD)/xcheck/scenarios
	$(BUILD)/xcheck/xcheck $(BUILD)/xcheck/scenarios

xcheck: $(BUILD)/xcheck/xcheck
	@linux/simmod/xcheck.sh --tool $(BUILD)/xcheck/xcheck \
		--out $(BUILD)/xcheck --results $(BUILD)/results $(XCHECK_ARGS)
