#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The kernel series' tests (make test): the series applies and both kernels
# build (make kernel), every patch passes the tree's scripts/checkpatch.pl
# without errors and with every warning explained below its --- line
# (linux/checkpatch.sh), a broken patch is reported by name with the Debian
# version (tests/kernel/test-fetch-fail.sh), the KUnit table in the series equals
# linux/gen-kunit-vectors.sh's output for tests/vectors/decision.tsv, and
# both kernels boot in QEMU (TCG) on tests/qemu/topologies/default.topo
# under each policy cell, with decision records, KUnit results and QEMU's
# pci_cfg_write trace checked by tests/kernel/test-kernel.py.
#
# Usage: tests/kernel/test-kernel.sh [--out DIR] [--results DIR] [--no-build]
#   --out DIR      boot logs and traces (default build/kernel-test)
#   --results DIR  where kernel.count goes (default build/results)
#   --no-build     skip `make kernel` (use the kernels already built)
# Writes "kernel P F" to RESULTS/kernel.count, prints "P passed, F failed".

set -u
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
LINUX_DIR=$REPO/linux
out=$REPO/build/kernel-test
results=$REPO/build/results
build=1
while [ $# -gt 0 ]; do
	case $1 in
	--out) out=$2; shift ;;
	--results) results=$2; shift ;;
	--no-build) build=0 ;;
	-h | --help) sed -n '4,/^[^#]/{/^#/s/^# \{0,1\}//p;}' "$0"; exit 0 ;;
	*) echo "test-kernel.sh: unknown argument '$1'" >&2; exit 2 ;;
	esac
	shift
done
mkdir -p "$out" "$results"
# shellcheck source=tests/lib/suite.sh
. "$REPO/tests/lib/suite.sh"
suite_name=kernel
check() {	# check NAME COMMAND...: counted, log in OUT/NAME.log
	suite_run "$@" || true
}

if [ "$build" = 1 ]; then
	t0=$(date +%s)
	check make-kernel make -C "$REPO" --no-print-directory kernel
	echo "     make kernel: $(($(date +%s) - t0))s"
fi
eval "$("$LINUX_DIR/kernel-env.sh")" || exit 1

# Each patch passes checkpatch: no error, every warning explained below the
# patch's --- line (linux/checkpatch.sh; the whole output is in the log).
for p in "$LINUX_DIR"/patches/*.patch; do
	n=$(basename "$p" .patch)
	check "checkpatch-${n%%-*}" "$LINUX_DIR/checkpatch.sh" "$KERNEL_SRC_PATCHED" "$p"
	# as a maintainer runs it in Debian's unpacked tree (no git history)
	check "checkpatch-plain-${n%%-*}" "$LINUX_DIR/checkpatch.sh" --plain "$KERNEL_SRC_PATCHED" "$p"
done
# ... and the plain run catches what the git tree cannot: a commit named
# without the word "commit" before its id is an ERROR there.
check checkpatch-plain-refuses-bare-id sh -c '
	sed "s/ommit 2f671e2dbff6/ommit-id 2f671e2dbff6/" "$1"/patches/0001-*.patch >"$2/0001-bare-id.patch"
	! "$1/checkpatch.sh" --plain "$3" "$2/0001-bare-id.patch" >"$2/0001-bare-id.out" &&
	grep -q "ERROR (never allowed): Please use git commit description style" "$2/0001-bare-id.out"' \
	sh "$LINUX_DIR" "$out" "$KERNEL_SRC_PATCHED"
# ... and the check can fail: 0004 without its note must be refused.
check checkpatch-refuses-unexplained sh -c '
	sed "s/\"Possible unwrapped commit description\"/unwrapped/" "$1"/patches/0004-*.patch >"$2/0004-no-note.patch"
	! "$1/checkpatch.sh" "$3" "$2/0004-no-note.patch" &&
	"$1/checkpatch.sh" "$3" "$2/0004-no-note.patch" | grep -q "WARNING not explained below the patch"' \
	sh "$LINUX_DIR" "$out" "$KERNEL_SRC_PATCHED"

# fetch-tree.sh's stdout is the tree's path alone, even when it installs.
check fetch-tree-stdout "$HERE/test-fetch-stdout.sh"

# A broken patch stops fetch-tree.sh with its name and the Debian version.
check fetch-fail-message "$HERE/test-fetch-fail.sh"

# One source of truth: the KUnit table the series carries is generated.
check kunit-vectors sh -c '
	awk "/^diff --git a\/drivers\/pci\/pcie\/aspm_test_vectors.h/ { on = 1; next }
	     on && /^diff --git/ { on = 0 }
	     on && /^@@/ { body = 1; next }
	     on && body && /^\+/ { print substr(\$0, 2) }" "$1"/patches/*.patch >"$2/vectors.patch.h"
	"$1/gen-kunit-vectors.sh" >"$2/vectors.gen.h"
	test -s "$2/vectors.gen.h" && diff -u "$2/vectors.gen.h" "$2/vectors.patch.h" &&
	diff -u "$2/vectors.gen.h" "$3/drivers/pci/pcie/aspm_test_vectors.h"' \
	sh "$LINUX_DIR" "$out" "$KERNEL_SRC_PATCHED"

# Boots: python does the cells and prints one "ok/FAIL name" line per check.
python3 "$HERE/test-kernel.py" --out "$out" >"$out/cells.txt" 2>"$out/cells.err"
rc=$?
suite_count_file "$out/cells.txt" "$rc" test-kernel.py
[ "$rc" = 0 ] || tail -n 20 "$out/cells.err"
suite_end
