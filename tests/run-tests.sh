#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# `make test`: every suite CI runs, then one line "N passed, N failed".
# Each suite writes "NAME PASSED FAILED" to build/results/NAME.count.
set -u
if [ $# -gt 0 ]; then
	echo "usage: tests/run-tests.sh (no arguments; make test runs it)" >&2
	echo "  runs every suite, prints each suite's time, ends with 'N passed, N failed'" >&2
	[ "$1" = -h ] || [ "$1" = --help ] && exit 0
	exit 2
fi
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
results=$BUILD/results
rm -rf "$results"
mkdir -p "$results"
status=0
t_all=$(date +%s)

suite() {
	name=$1
	shift
	echo "=== $name"
	start=$(date +%s)
	if ! "$@"; then
		status=1
		# a suite that died before counting counts as one failure
		[ -f "$results/$name.count" ] || echo "$name 0 1" >"$results/$name.count"
	fi
	secs=$(( $(date +%s) - start ))
	echo "$secs" >"$results/$name.time"
	echo "=== $name done in ${secs}s"
}

suite build make --no-print-directory all
[ -f "$BUILD/aspmctl.efi" ] && echo "build 1 0" >"$results/build.count" || echo "build 0 1" >"$results/build.count"
suite unit make --no-print-directory unit
# the one parser of docs/records.md (tests/lib/records.py) and its unit tests
suite records python3 tests/lib/run-unittests.py --name records --results "$results"
# every tracked .py compiles and passes pyflakes; no Python in shell heredocs
suite lint python3 tests/lint/lint.py --results "$results"
suite house tests/lint/house.sh --results "$results"
# scripts/install-deps.sh waits for another apt's lock (stand-ins, nothing installed)
suite install tests/install/test-install-deps.sh --results "$results"
# the host tool over the corpus of real machines (tests/twin/dumps) and broken dumps
suite twin-host sh -c 'make --no-print-directory host host-san && python3 tests/twin/test_host.py --tool "$1/host-san/aspmctl" --results "$2"' sh "$BUILD" "$results"
suite host-efivars sh -c 'make --no-print-directory host-san && tests/host/test-efivars.sh "$1/host-san/aspmctl" --results "$2"' sh "$BUILD" "$results"
suite host-install sh -c 'make --no-print-directory host-san && tests/host/test-install.sh "$1/host-san/aspmctl" "$1/aspmctl.efi" --results "$2"' sh "$BUILD" "$results"
suite deb tests/deb/test-deb.sh --results "$results"
suite kernel tests/kernel/test-kernel.sh --results "$results"
# each patch of the series builds and boots on its own (incremental, one worktree)
suite kernel-series tests/kernel/test-series.sh --no-build --out "$BUILD/kernel-series" --results "$results"
# the app's engine vs Linux's aspm.c on the same simulated hardware (docs/xcheck.md)
suite xcheck make --no-print-directory xcheck XCHECK_ARGS=--no-build
# the same over real machines' dumps (docs/twin.md): a fast subset, one boot per
# kernel under force (an L1SS laptop, a switch, a partial dump, three domains,
# a refused dump); `make twin` runs the whole corpus under every group
# generated machines through the app and both kernels (tests/difffuzz/README.md):
# a fixed-seed batch of 100 scenarios; its open findings are in tests/difffuzz/open.tsv
suite difffuzz make --no-print-directory difffuzz N=20 SEED=1 DIFFFUZZ_ARGS=--no-build \
	DIFFFUZZ_PY="--no-reduce --open tests/difffuzz/open.tsv --found $BUILD/difffuzz/found"
suite twin make --no-print-directory twin TWIN_ARGS="--no-build --groups force" \
	TWIN_DUMPS="$(printf 'tests/twin/dumps/%s.txt ' asus-laptop-whiskeylake-mx150 asus-p6t6 \
		lenovo-laptop-17aa-225a-partial freescale-p2020-board) tests/twin/shapes/rootport-fn4-gpu.txt \
		tests/twin/damaged/samsung-np350v5c.txt"
suite product tests/qemu/product.sh "$BUILD/aspmctl.efi" --out "$BUILD/qemu-product" --results "$results"
suite hostile tests/qemu/hostile.sh "$BUILD/aspmctl.efi" --out "$BUILD/qemu-hostile" --results "$results"
# the firmware's _OSC (acpi/aml) vs the stock and patched kernels' logs
suite osc tests/qemu/osc.sh "$BUILD/aspmctl.efi" --out "$BUILD/qemu-osc" --results "$results"
suite tries tests/qemu/tries.sh "$BUILD/aspmctl.efi" --out "$BUILD/qemu-tries" --results "$results"
suite secureboot tests/qemu/secureboot.sh "$BUILD/aspmctl.efi" --out "$BUILD/qemu-secureboot" --results "$results"
# a real Debian 12 system (debootstrap image, cached): install, kernel upgrade,
# hangs and fallback, uninstall, with and without Secure Boot (tests/system/README.md)
suite system tests/system/system.sh --out "$BUILD/system" --results "$results"
suite matrix python3 tests/matrix/matrix.py --set test -j 2 --out "$BUILD/matrix-test" --results "$results"
# fuzz_aml replays its seeds (the ASL tables and the regression inputs of
# the ACPICA faults fixed in acpi/aml/patches) but is not fuzzed here:
# fuzzing Linux 6.1's ACPICA still finds new faults within minutes
# (docs/osc.md, "Fuzzing")
suite fuzz tests/fuzz/run.sh --only "acpi pcie twin aml" --replay-only aml \
	--time "${FUZZ_TEST_TIME:-30}" --out "$BUILD/fuzz" --results "$results"
suite qemu-selftest tests/qemu/selftest.sh --out "$BUILD/qemu-selftest" --results "$results"
# the app on every topology, each checked against expect.py
for topo in tests/qemu/topologies/*.topo; do
	name=smoke-$(basename "$topo" .topo)
	suite "$name" sh -c 'tests/qemu/smoke.sh "$1" --topology "$2" --out "$3" --results "$3" &&
		mv "$3/qemu-smoke.count" "$4/$5.count" ||
		{ [ -f "$3/qemu-smoke.count" ] && mv "$3/qemu-smoke.count" "$4/$5.count"; exit 1; }' \
		sh "$BUILD/aspmctl.efi" "$topo" "$BUILD/$name" "$results" "$name"
done

# the total through the suites' own counter
# shellcheck source=tests/lib/suite.sh
. tests/lib/suite.sh
for f in "$results"/*.count; do
	read -r _ p fl <"$f"
	name=$(basename "$f" .count)
	secs=-
	[ -f "$results/$name.time" ] && read -r secs <"$results/$name.time"
	printf '  %-20s %4s passed, %4s failed %6ss\n' "$name" "$p" "$fl" "$secs"
	suite_add "$p" "$fl"
done
total=$(( $(date +%s) - t_all ))
echo "total time: ${total}s ($((total / 60)) min $((total % 60)) s)"
suite_start total	# no count file of its own
suite_end || status=1
exit $status
