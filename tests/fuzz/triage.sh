#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Group a fuzzer's findings by what went wrong and where.
#   tests/fuzz/triage.sh [--logs DIR] BINARY FILE...
# Replays each FILE alone with BINARY (a libFuzzer target) and prints one
# line per group, largest first: count, the sanitizer's bug kind, the first
# stack frame outside the sanitizer, libFuzzer and the allocator, and one
# input of the group. Inputs that no longer fail are counted as "fixed".
# With --logs DIR each input's report is kept as DIR/NAME.log.
set -u
logs=
if [ "${1:-}" = --logs ]; then logs=${2:?}; mkdir -p "$logs"; shift 2; fi
bin=${1:?usage: triage.sh [--logs DIR] BINARY FILE...}; shift
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
: >"$tmp/groups"
for f in "$@"; do
	log=$tmp/log
	ASAN_OPTIONS=symbolize=1:detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
		timeout 60 "$bin" -runs=1 -timeout=30 "$f" >"$log" 2>&1
	rc=$?
	[ -n "$logs" ] && cp "$log" "$logs/$(basename "$f").log"
	if [ $rc -eq 0 ]; then
		kind=fixed where=-
	elif [ $rc -eq 124 ]; then
		kind=hang where=-
	else
		kind=$(sed -n 's/.*ERROR: AddressSanitizer: \([a-z-]*\).*/\1/p; s/.*ERROR: LeakSanitizer: \([a-z-]*\).*/leak/p; s/.*runtime error: \([a-z]* [a-z]*\).*/ubsan:\1/p; s/.*ERROR: libFuzzer: \([a-z-]*\).*/\1/p' "$log" | head -1 | tr ' ' _)
		[ -n "$kind" ] || kind=rc-$rc
		# the first frame of the first stack that is ours or ACPICA's
		where=$(sed -n 's/^ *#[0-9]* 0x[0-9a-f]* in \([A-Za-z_][A-Za-z0-9_]*\) .*/\1/p' "$log" |
			grep -v -E '^(__|_?asan|malloc|calloc|realloc|free|fuzzer|LLVMFuzzer|heap_|aml_heap_|h_alloc|h_free|count_heap_alloc|count_heap_free|block_free|block_alloc|acpi_os_allocate|acpi_os_free|acpi_os_allocate_zeroed|acpi_ut_allocate|acpi_ut_allocate_zeroed|acpi_os_release_object|acpi_os_acquire_object|main|std)' |
			head -1)
		[ -n "$where" ] || where=?
	fi
	printf '%s %s %s\n' "$kind" "$where" "$f" >>"$tmp/groups"
done
awk '{ n[$1" "$2]++; if (!(($1" "$2) in ex)) ex[$1" "$2] = $3 }
     END { for (k in n) printf "%6d %s %s\n", n[k], k, ex[k] }' "$tmp/groups" | sort -rn
