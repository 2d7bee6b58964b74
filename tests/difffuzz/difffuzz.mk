# SPDX-License-Identifier: GPL-2.0-only
#
# Differential fuzzing of the app's engine against Linux's aspm.c
# (tests/difffuzz/README.md, docs/difffuzz.md), included by the top Makefile.
#
#   make difffuzz N=1000 SEED=7   machines 0..N-1 of campaign SEED, every
#                                 group, through the app and both kernels
#   DIFFFUZZ_ARGS='--no-build ...' more options for tests/xcheck/xcheck.sh,
#   DIFFFUZZ_PY='--per-boot 80 --no-reduce' for tests/difffuzz/difffuzz.py

N ?= 100
SEED ?= 1
DIFFFUZZ_ARGS ?=
DIFFFUZZ_PY ?=

.PHONY: difffuzz

difffuzz: $(BUILD)/xcheck/xcheck
	@tests/xcheck/xcheck.sh --tool $(BUILD)/xcheck/xcheck --suite difffuzz \
		--difffuzz '--n $(N) --seed $(SEED) --found tests/xcheck/found $(DIFFFUZZ_PY)' \
		--out $(BUILD)/difffuzz --results $(BUILD)/results $(DIFFFUZZ_ARGS)
