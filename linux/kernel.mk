# SPDX-License-Identifier: GPL-2.0-only
#
# Kernel targets, included by the top Makefile: `include linux/kernel.mk`.
#
#   make kernel                 both kernels (unpatched, patched) + initramfs;
#                               prints the paths
#   make kernel-unpatched       one kernel (+ initramfs)
#   make kernel-patched
#   make kernel-initramfs       only the initramfs (needs a kernel build)
#   make kernel-tree            only unpack/patch the trees
#   make kernel-boot            boot the patched kernel in QEMU and check it
#   make kernel-boot-unpatched  the same with the unpatched one
#                               (KBOOT_APPEND="..." adds to the command line,
#                                KBOOT_TIMEOUT=seconds, KBOOT_ARGS=script options)
#   make kernel-series          each patch builds and boots on its own
#                               (tests/kernel/test-series.sh, incremental)
#   make kernel-env             print the variables below as NAME=value
#   make kernel-prune           delete the cache's other series directories
#   make kernel-clean           delete this series' trees and builds
#
# Variables for other rules and scripts (resolved on first use, not at parse
# time; empty while linux-source-6.1 is not installed):
#   KERNEL_PATCHED KERNEL_UNPATCHED  bzImage paths
#   INITRAMFS                        initramfs.cpio.gz path
#   KERNEL_DIR                       the series directory in the cache
#   KERNEL_BUILD_PATCHED KERNEL_BUILD_UNPATCHED   make O= dirs (for M= modules)
#   KERNEL_SRC_PATCHED KERNEL_SRC_UNPATCHED       source trees (git worktrees)
# Settings (environment or make command line): ASPMCTL_CACHE, ASPMCTL_JOBS,
# ASPMCTL_CCACHE, ASPMCTL_KEEP_TREES, ASPMCTL_KERNEL_REUSE (linux/lib.sh),
# ASPMCTL_ACCEL, ASPMCTL_OVMF_CODE, ASPMCTL_OVMF_VARS (linux/boot-test.sh,
# through tests/qemu/launch.sh).

KLINUX := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))
KBOOT_TIMEOUT ?= 180
KBOOT_APPEND ?=
KBOOT_ARGS ?=

export ASPMCTL_CACHE ASPMCTL_JOBS ASPMCTL_CCACHE ASPMCTL_KEEP_TREES \
	ASPMCTL_KERNEL_REUSE ASPMCTL_ACCEL ASPMCTL_OVMF_CODE ASPMCTL_OVMF_VARS

# Lazy, once: $(shell) runs the first time the variable is expanded.
kernel_env = $(shell $(KLINUX)/kernel-env.sh --get $(1) 2>/dev/null)
define kernel_lazy_var
$(1) = $$(eval $(1) := $$$$(call kernel_env,$(1)))$$($(1))
endef
$(foreach v,KERNEL_PATCHED KERNEL_UNPATCHED INITRAMFS KERNEL_DIR \
	KERNEL_BUILD_PATCHED KERNEL_BUILD_UNPATCHED \
	KERNEL_SRC_PATCHED KERNEL_SRC_UNPATCHED,$(eval $(call kernel_lazy_var,$(v))))

.PHONY: kernel kernel-unpatched kernel-patched kernel-initramfs kernel-tree \
	kernel-boot kernel-boot-unpatched kernel-series kernel-env kernel-prune \
	kernel-clean

kernel:
	@$(KLINUX)/build-kernel.sh all

kernel-unpatched kernel-patched:
	@$(KLINUX)/build-kernel.sh $(@:kernel-%=%) initramfs

kernel-initramfs:
	@$(KLINUX)/build-kernel.sh initramfs

kernel-tree:
	@$(KLINUX)/fetch-tree.sh >/dev/null

kernel-boot kernel-boot-unpatched:
	@$(KLINUX)/boot-test.sh \
		--variant $(if $(filter kernel-boot,$@),patched,unpatched) \
		--timeout $(KBOOT_TIMEOUT) \
		$(if $(strip $(KBOOT_APPEND)),--append '$(KBOOT_APPEND)') $(KBOOT_ARGS)

kernel-series:
	@$(KLINUX)/../tests/kernel/test-series.sh

kernel-env:
	@$(KLINUX)/kernel-env.sh

kernel-prune:
	@$(KLINUX)/fetch-tree.sh --no-install --prune >/dev/null

kernel-clean:
	@d=$$($(KLINUX)/kernel-env.sh --get KERNEL_DIR) && \
	if [ -d "$$d/" ]; then p=$$(cd "$$d/" && pwd -P); \
		echo "removing $$d -> $$p"; rm -rf "$$p" "$$d"; fi
