# SPDX-License-Identifier: GPL-2.0-only
#
# ACPICA (the reference AML interpreter) as Linux 6.1 carries it, taken at
# build time from Debian's linux-source-6.1 tarball into $(ACPICA_DIR) by
# acpi/aml/fetch-acpica.sh (never committed), and built with aspmctl's OS
# services layer (acpi/aml/*.c) into one archive per build kind:
#   $(BUILD)/aml/efi/libaml.a        the firmware image
#   $(BUILD)/aml/host-san/libaml.a   unit tests, host-san (ASan + UBSan)
#   $(BUILD)/aml/host/libaml.a       the host tool, the package
#   $(BUILD)/aml/fuzz/libaml.a       libFuzzer targets (clang)
# The files are the kernel's own list (drivers/acpi/acpica/Makefile, acpi-y
# with CONFIG_PCI); the object caches are acpi/aml/osl.c's; the firmware
# build adds utprint.c for vsnprintf. ACPICA is built with -Wall -Wextra
# -Werror like the rest, less -Wunused-parameter (its callbacks and stubs
# take parameters they do not use) and the project's stricter extras.

comma		:= ,
ACPICA_DIR	:= $(BUILD)/acpica-src
ACPICA_FILES	:= dsargs dscontrol dsdebug dsfield dsinit dsmethod dsmthdat dsobject \
	dsopcode dspkginit dsutils dswexec dswload dswload2 dswscope dswstate \
	evevent evgpe evgpeblk evgpeinit evgpeutil evglock evhandler evmisc evregion \
	evrgnini evsci evxface evxfevnt evxfgpe evxfregn \
	exconcat exconfig exconvrt excreate exdebug exdump exfield exfldio exmisc \
	exmutex exnames exoparg1 exoparg2 exoparg3 exoparg6 exprep exregion exresnte \
	exresolv exresop exserial exstore exstoren exstorob exsystem extrace exutils \
	hwacpi hwesleep hwgpe hwregs hwsleep hwvalid hwxface hwxfsleep hwpci \
	nsaccess nsalloc nsarguments nsconvert nsdump nseval nsinit nsload nsnames \
	nsobject nsparse nspredef nsprepkg nsrepair nsrepair2 nssearch nsutils nswalk \
	nsxfeval nsxfname nsxfobj \
	psargs psloop psobject psopcode psopinfo psparse psscope pstree psutils \
	pswalk psxface \
	rsaddr rscalc rscreate rsdumpinfo rsinfo rsio rsirq rslist rsmemory rsmisc \
	rsserial rsutils rsxface \
	tbdata tbfadt tbfind tbinstal tbprint tbutils tbxface tbxfload tbxfroot \
	utaddress utalloc utascii utbuffer utcopy utexcep utdebug utdecode utdelete \
	uterror uteval utglobal uthex utids utinit utlock utmath utmisc utmutex \
	utnonansi utobject utosi utownerid utpredef utresdecode utresrc utstate \
	utstring utstrsuppt utstrtoul64 utxface utxfinit utxferror utxfmutex
AML_SRCS	:= $(wildcard acpi/aml/*.c)
AML_HDRS	:= $(wildcard acpi/aml/*.h) lib/util.h lib/fmt.h lib/err.h pcie/cfg.h
ACPICA_STAMP	:= $(ACPICA_DIR)/.stamp
# ACPICA picks its platform header by predefined macros: -U__linux__
# -D_GNU_EFI selects "acefi.h", which acpi/aml provides (acpi/aml/acefi.h).
ACPICA_ENV	:= -U__linux__ -D_GNU_EFI
ACPICA_INC	:= -iquote acpi/aml -isystem acpi/aml/compat -I$(ACPICA_DIR)/include \
		   -I$(ACPICA_DIR)/drivers/acpi/acpica
ACPICA_WARN	:= -Wall -Wextra -Werror -Wno-unused-parameter
# our layer: the project's warnings; ACPICA's headers as system headers,
# ahead of the project's own acpi/ (its acpi/acpi.h is not ACPICA's)
AML_INC		:= -iquote . -isystem acpi/aml -isystem acpi/aml/compat \
		   -isystem $(ACPICA_DIR)/include -isystem $(ACPICA_DIR)/drivers/acpi/acpica

$(ACPICA_STAMP): acpi/aml/fetch-acpica.sh $(wildcard acpi/aml/patches/*.patch)
	@acpi/aml/fetch-acpica.sh $(ACPICA_DIR)
	@touch $@

.PHONY: acpica
acpica: $(ACPICA_STAMP)

# $(call aml_lib,KIND,CC,CFLAGS,EXTRA-ACPICA-FILES,ACPICA-ONLY-WARNINGS):
#   $(BUILD)/aml/KIND/libaml.a
define aml_lib
$(BUILD)/aml/$(1)/acpica/%.o: $(ACPICA_STAMP)
	@mkdir -p $$(@D)
	@echo "  CC [$(1)] acpica/$$*.c"
	@$(2) $(3) $(ACPICA_ENV) -DBUILDING_ACPICA $(ACPICA_INC) $(ACPICA_WARN) $(5) \
		-c $(ACPICA_DIR)/drivers/acpi/acpica/$$*.c -o $$@
$(BUILD)/aml/$(1)/%.o: acpi/aml/%.c $(AML_HDRS) $(ACPICA_STAMP)
	@mkdir -p $$(@D)
	@echo "  CC [$(1)] $$<"
	@$(2) $(3) $(ACPICA_ENV) $(AML_INC) $(WARN) -c $$< -o $$@
$(BUILD)/aml/$(1)/libaml.a: $(patsubst %,$(BUILD)/aml/$(1)/acpica/%.o,$(ACPICA_FILES) $(4)) \
		$(patsubst acpi/aml/%.c,$(BUILD)/aml/$(1)/%.o,$(AML_SRCS))
	@rm -f $$@
	@ar rcs $$@ $$^
endef

AML_EFI_CFLAGS	:= $(filter-out $(WARN) -I.,$(EFI_CFLAGS))
$(eval $(call aml_lib,efi,$(CC),$(AML_EFI_CFLAGS),utprint))
# ACPICA reads names as unaligned u32 by design (x86): not a finding
$(eval $(call aml_lib,host-san,$(HOST_CC),-std=gnu11 -O1 -g $(HOST_SAN) -fno-sanitize=alignment -DASPMCTL_HOST,))
$(eval $(call aml_lib,host,$(HOST_CC),-std=gnu11 -O2 -g -DASPMCTL_HOST,))
# The fuzz kind (the only clang one): UBSan findings stop the run as in the
# targets (-fno-sanitize-recover). In ACPICA only: clang 14 warns where it
# turns a pointer into an integer by subtracting NULL (ACPI_TO_INTEGER,
# actypes.h), and its ACPI_MOVE_* macros load unaligned words on purpose
# on x86 (ACPI_MISALIGNMENT_NOT_SUPPORTED unset, as in Linux), and its
# ACPI_OFFSET is offsetof through a NULL pointer, which UBSan's null check
# (with object-size) takes for a member access; ASan still sees a real
# NULL dereference (SEGV) and every out-of-bounds access.
$(eval $(call aml_lib,fuzz,clang,-std=gnu11 -O1 -g -fsanitize=fuzzer-no-link$(comma)address$(comma)undefined -fno-sanitize-recover=all -DASPMCTL_HOST,,-Wno-null-pointer-subtraction -fno-sanitize=alignment$(comma)null$(comma)object-size))
