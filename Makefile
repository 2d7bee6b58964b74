# SPDX-License-Identifier: GPL-2.0-only
#
# aspmctl: every entry point.
#   make            build/aspmctl.efi (gnu-efi, -Wall -Wextra -Werror, checked)
#   make run        boot it in QEMU+OVMF on the default topology, show the report
#   make unit       host unit tests (cmocka) under ASan + UBSan
#   make test       everything CI runs; ends with "N passed, N failed"
#   make sign       build/aspmctl.signed.efi (KEY=db.key CERT=db.crt; none: test key)
#   make matrix / kernel / fuzz / bench: see README.md
#
# Packages are installed on demand by scripts/install-deps.sh.

ARCH		:= x86_64
BUILD		?= build
CC		?= gcc
HOST_CC		?= gcc
EFI_INC		:= /usr/include/efi
EFI_LIB		:= /usr/lib
WARN		:= -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes \
		   -Wmissing-prototypes -Wvla
CORE_SRCS	:= $(wildcard lib/*.c) $(wildcard acpi/*.c) $(wildcard pcie/*.c) \
		   $(wildcard records/*.c)
APP_SRCS	:= $(wildcard app/*.c)
EFI_SRCS	:= $(wildcard efi/*.c)
CORE_HDRS	:= $(wildcard lib/*.h acpi/*.h acpi/aml/aml.h pcie/*.h records/*.h app/*.h)

.SECONDARY:
.PHONY: all run unit test clean host host-san matrix kernel fuzz bench qemu-smoke \
	qemu-selftest validate-expect sign
all: $(BUILD)/aspmctl.efi

# ---------------------------------------------------------------- EFI app
EFI_CFLAGS	:= $(WARN) -std=gnu11 -O2 -g0 -ffreestanding -fpic -fshort-wchar \
		   -fno-stack-protector -fno-stack-check -fno-strict-aliasing \
		   -mno-red-zone -maccumulate-outgoing-args -fno-builtin \
		   -DASPMCTL_EFI -isystem $(EFI_INC) -isystem $(EFI_INC)/$(ARCH) -I.
EFI_LDFLAGS	:= -nostdlib -znocombreloc -shared -Bsymbolic --no-undefined \
		   -T linker/aspmctl-$(ARCH).lds -L$(EFI_LIB) \
		   $(EFI_LIB)/crt0-efi-$(ARCH).o
EFI_OBJS	:= $(patsubst %.c,$(BUILD)/efi-obj/%.o,$(CORE_SRCS) $(APP_SRCS) $(EFI_SRCS))
LIBGCC		= $(shell $(CC) -print-libgcc-file-name)
VERSION		:= $(shell git describe --always --dirty 2>/dev/null || echo unknown)

$(BUILD)/.deps-build:
	@scripts/install-deps.sh build
	@mkdir -p $(@D) && touch $@

$(BUILD)/efi-obj/%.o: %.c $(CORE_HDRS) $(wildcard efi/*.h) $(BUILD)/.deps-build
	@mkdir -p $(@D)
	@echo "  CC [efi]  $<"
	@$(CC) $(EFI_CFLAGS) -DASPMCTL_VERSION='"$(VERSION)"' -c $< -o $@

$(BUILD)/aspmctl.so: $(EFI_OBJS) $(BUILD)/aml/efi/libaml.a linker/aspmctl-$(ARCH).lds
	ld $(EFI_LDFLAGS) $(EFI_OBJS) $(BUILD)/aml/efi/libaml.a -o $@ -lefi -lgnuefi $(LIBGCC)

$(BUILD)/aspmctl.efi: $(BUILD)/aspmctl.so linker/check-image.sh
	objcopy -j .text -j .sdata -j .data -j .dynamic -j .dynsym -j .rel \
		-j .rela -j '.rel.*' -j '.rela.*' -j .reloc -j .sbat \
		--target efi-app-$(ARCH) --subsystem=10 $< $@.tmp
	linker/check-image.sh $< $@.tmp
	mv $@.tmp $@

# Secure Boot: sign the app with sbsign. KEY and CERT: the key whose
# certificate is in db (or MOK); without them, Debian's snakeoil test key
# (scripts/sign.sh says so), which only OVMF_VARS_4M.snakeoil.fd trusts.
sign: $(BUILD)/aspmctl.efi
	@scripts/install-deps.sh sign
	@scripts/sign.sh $(BUILD)/aspmctl.efi $(BUILD)/aspmctl.signed.efi $(KEY) $(CERT)

# ---------------------------------------------------------------- host tests
HOST_SAN	:= -fsanitize=address,undefined -fno-sanitize-recover=all \
		   -fno-omit-frame-pointer
HOST_CFLAGS	:= $(WARN) -std=gnu11 -O1 -g $(HOST_SAN) -I. -DASPMCTL_HOST
# twin/ (the digital twin, docs/twin.md) is host-only: never in the EFI image
TWIN_SRCS	:= $(wildcard twin/*.c)
HOST_OBJS	:= $(patsubst %.c,$(BUILD)/host-obj/%.o,$(CORE_SRCS) $(APP_SRCS) $(TWIN_SRCS) \
		   $(wildcard tests/sim/*.c tests/lib/*.c) host/platform.c)
UNIT_SRCS	:= $(wildcard tests/unit/test_*.c)
# ACPICA and the OS services layer (acpi/aml/acpica.mk): one archive per kind
include acpi/aml/acpica.mk
UNIT_BINS	:= $(patsubst tests/unit/%.c,$(BUILD)/unit/%,$(UNIT_SRCS))

$(BUILD)/.deps-unit:
	@scripts/install-deps.sh unit
	@mkdir -p $(@D) && touch $@

$(BUILD)/host-obj/%.o: %.c $(CORE_HDRS) $(wildcard tests/sim/*.h tests/lib/*.h twin/*.h host/*.h) \
		     $(BUILD)/.deps-unit
	@mkdir -p $(@D)
	@echo "  CC [host] $<"
	@$(HOST_CC) $(HOST_CFLAGS) -c $< -o $@

$(BUILD)/unit/%: tests/unit/%.c $(HOST_OBJS) $(BUILD)/aml/host-san/libaml.a $(wildcard tests/unit/*.h)
	@mkdir -p $(@D)
	@echo "  LD [host] $@"
	@$(HOST_CC) $(HOST_CFLAGS) $< $(HOST_OBJS) $(BUILD)/aml/host-san/libaml.a -o $@ -lcmocka

unit: $(UNIT_BINS)
	@tests/run-unit.sh $(BUILD)/results $(UNIT_BINS)

# the ASL tables test_osc.c loads: compiled at test time
include tests/aml/aml.mk

# ---------------------------------------------------------------- host
# build/host/aspmctl: the app's own commands over a twin of a machine's
# config space (an lspci dump, or this Linux machine's sysfs), read-only.
# Optimised, no sanitizers (the unit tests and `make host-san` have them).
HOST_TOOL_SRCS	:= $(CORE_SRCS) $(APP_SRCS) $(TWIN_SRCS) $(wildcard host/*.c)
HOST_TOOL_CFLAGS := $(WARN) -std=gnu11 -O2 -g -I. -DASPMCTL_HOST \
		   -DASPMCTL_VERSION='"$(VERSION)"'

host: $(BUILD)/host/aspmctl
$(BUILD)/host/aspmctl: $(HOST_TOOL_SRCS) $(CORE_HDRS) $(wildcard twin/*.h host/*.h) \
		      $(BUILD)/aml/host/libaml.a
	@mkdir -p $(@D)
	@echo "  CC [host] $@"
	@$(HOST_CC) $(HOST_TOOL_CFLAGS) $(HOST_TOOL_SRCS) $(BUILD)/aml/host/libaml.a -o $@

# the same under AddressSanitizer and UndefinedBehaviorSanitizer, for the tests
host-san: $(BUILD)/host-san/aspmctl
$(BUILD)/host-san/aspmctl: $(HOST_TOOL_SRCS) $(CORE_HDRS) $(wildcard twin/*.h host/*.h) \
			   $(BUILD)/.deps-unit $(BUILD)/aml/host-san/libaml.a
	@mkdir -p $(@D)
	@echo "  CC [host+san] $@"
	@$(HOST_CC) $(HOST_CFLAGS) $(HOST_TOOL_SRCS) $(BUILD)/aml/host-san/libaml.a -o $@

# ---------------------------------------------------------------- package
# build/deb/aspmctl_VERSION_amd64.deb (scripts/make-deb.sh)
.PHONY: deb
deb: $(BUILD)/aspmctl.efi $(BUILD)/aml/host/libaml.a
	@scripts/install-deps.sh deb
	@mkdir -p $(BUILD)/deb
	@echo $(HOST_TOOL_SRCS) $(BUILD)/aml/host/libaml.a >$(BUILD)/deb/host-sources
	@scripts/make-deb.sh $(BUILD)/aspmctl.efi $(BUILD)/deb/host-sources $(BUILD)/deb

# ---------------------------------------------------------------- QEMU
TOPO		?= tests/qemu/topologies/default.topo

run: $(BUILD)/aspmctl.efi
	@scripts/install-deps.sh run
	tests/qemu/run.sh --topology $(TOPO) --app $(BUILD)/aspmctl.efi \
		--out $(BUILD)/run -- $(or $(ARGS),report)

$(BUILD)/efi-stub.efi: tests/efi-stub/stub.c tests/efi-stub/build.sh $(BUILD)/.deps-build
	tests/efi-stub/build.sh $@

qemu-smoke: $(BUILD)/aspmctl.efi
	@scripts/install-deps.sh run
	tests/qemu/smoke.sh $(BUILD)/aspmctl.efi --topology $(TOPO) \
		--out $(BUILD)/qemu-smoke --results $(BUILD)/results

qemu-selftest:
	tests/qemu/selftest.sh --out $(BUILD)/qemu-selftest --results $(BUILD)/results

# a real Debian 12 system in QEMU+OVMF: install, kernel upgrade, hangs, uninstall
# (tests/system/README.md); the disk image is cached outside the repository
.PHONY: system
system:
	tests/system/system.sh --out $(BUILD)/system --results $(BUILD)/results

# check tests/qemu/expect.py against the UEFI Shell's `pci` on every topology
validate-expect:
	@scripts/install-deps.sh run
	tests/qemu/validate-expect.sh --out $(BUILD)/validate-expect

test:
	@scripts/install-deps.sh test
	@tests/run-tests.sh

# libFuzzer targets: FUZZ_TIME seconds each (default 5 minutes)
FUZZ_TIME	?= 300
fuzz:
	@scripts/install-deps.sh fuzz
	tests/fuzz/run.sh --time $(FUZZ_TIME) --out $(BUILD)/fuzz --results $(BUILD)/results

# the test kernels (Debian tree, patch series, initramfs): see linux/kernel.mk
# and linux/README.md
include linux/kernel.mk
include tests/xcheck/xcheck.mk
include tests/difffuzz/difffuzz.mk
# the QEMU matrix: app vs patched/unpatched kernel, cell by cell
include tests/matrix/matrix.mk
include tests/bench/bench.mk

clean:
	rm -rf $(BUILD)
