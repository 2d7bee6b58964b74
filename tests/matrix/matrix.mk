# SPDX-License-Identifier: GPL-2.0-only
# The QEMU matrix (tests/matrix/README.md); included by the top Makefile.
#   make matrix                         every cell of tests/matrix/cells.tsv, then
#                                       make xcheck (the series' kernels only)
#   make matrix MATRIX_SET=test         the make-test subset
#   make matrix MATRIX_ONLY=REGEX       cells whose name matches
#   make matrix KERNEL=path/to/bzImage  your own kernel (INITRD=... optional)
#   make matrix MATRIX_JOBS=N           cells at a time (default: nproc)
# ASPMCTL_KVM=1 boots with KVM instead of TCG; ASPMCTL_TIMEOUT=S per cell.
MATRIX_SET	?= all
MATRIX_JOBS	?= $(shell nproc)
MATRIX_ONLY	?=
MATRIX_ARGS	?=

# the series' kernels (or, with KERNEL=, the initramfs only) are built first
MATRIX_PREP	= $(if $(KERNEL),$(if $(INITRD),,kernel-initramfs),kernel)

matrix: $(BUILD)/aspmctl.efi $(BUILD)/efi-stub.efi
	@scripts/install-deps.sh test
	$(if $(MATRIX_PREP),@$(MAKE) --no-print-directory $(MATRIX_PREP) >$(BUILD)/matrix-kernel.log 2>&1 || \
		{ tail -n 20 $(BUILD)/matrix-kernel.log; exit 1; })
	@python3 tests/matrix/matrix.py --set $(MATRIX_SET) -j $(MATRIX_JOBS) \
		--out $(BUILD)/matrix$(if $(filter-out all,$(MATRIX_SET)),-$(MATRIX_SET)) \
		--results $(BUILD)/results \
		$(if $(MATRIX_ONLY),--only '$(MATRIX_ONLY)') \
		$(if $(KERNEL),--kernel $(abspath $(KERNEL))) $(if $(INITRD),--initrd $(abspath $(INITRD))) \
		$(MATRIX_ARGS) || st=1; \
	$(if $(or $(KERNEL),$(MATRIX_ONLY),$(filter-out all,$(MATRIX_SET))),exit $${st:-0},\
	echo "=== the register-level cross-check (make xcheck; docs/xcheck.md)"; \
	$(MAKE) --no-print-directory xcheck XCHECK_ARGS=--no-build || st=1; \
	echo "=== matrix and xcheck together:"; \
	awk '{ p += $$2; f += $$3 } END { print p " passed, " f " failed" }' \
		$(BUILD)/results/matrix.count $(BUILD)/results/xcheck.count; \
	exit $${st:-0})
