# SPDX-License-Identifier: GPL-2.0-only
#
# The ASL test tables (tests/aml/*.asl), compiled with iasl (Debian's
# acpica-tools, scripts/install-deps.sh unit) into $(BUILD)/aml-tables/*.aml
# at test time, never committed as binaries. tests/unit/test_osc.c loads
# them from $ASPMCTL_AML_TABLES (set here for `make unit`); tests/fuzz/run.sh
# seeds fuzz_aml with them. iasl's messages: $(BUILD)/aml-tables/NAME.log.

AML_ASL		:= $(wildcard tests/aml/*.asl)
AML_TABLES	:= $(patsubst tests/aml/%.asl,$(BUILD)/aml-tables/%.aml,$(AML_ASL))

# a stamp of its own: a $(BUILD)/.deps-unit made before iasl was in the
# unit set must not stand for it
$(BUILD)/.deps-iasl:
	@scripts/install-deps.sh unit
	@mkdir -p $(@D) && touch $@

$(BUILD)/aml-tables/%.aml: tests/aml/%.asl $(BUILD)/.deps-iasl
	@mkdir -p $(@D)
	@echo "  IASL      $<"
	@iasl -vs -p $(basename $@) $< >$(basename $@).log 2>&1 || \
		{ cat $(basename $@).log; rm -f $@; exit 1; }

.PHONY: aml-tables
aml-tables: $(AML_TABLES)

unit: $(AML_TABLES)
unit: export ASPMCTL_AML_TABLES := $(BUILD)/aml-tables
