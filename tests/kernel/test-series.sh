#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Each patch of the series builds and boots on its own: for k = 1..N, the
# tree with patches 1..k applied is built and booted once in QEMU (TCG,
# -kernel, tests/qemu/topologies/default.topo, dynamic debug on for
# aspm.c). Checked per step: the build succeeds, /init reports and the
# guest powers off (linux/boot-test.sh), no oops or WARNING in the console
# log, and, where the step has CONFIG_PCIEASPM_KUNIT_TEST, that every
# pcie_aspm_decide case passes.
#
# All steps are built in ONE worktree of the series, <series dir>/steps
# (make O=steps/out, ccache), checked out at patch k in turn: going from
# k to k+1 rewrites only the files patch k+1 touches, so each step is a
# small incremental build. Its .config is the patched kernel's, run
# through olddefconfig at every step (steps before the KUnit patch lose
# that symbol, the KUnit step gets it back). Run `make kernel` first (or
# let this script run it without --no-build).
#
# Usage: tests/kernel/test-series.sh [--out DIR] [--results DIR] [--no-build]
#   --out DIR      logs and boot output (default build/kernel-series)
#   --results DIR  where kernel-series.count goes (default build/results)
#   --no-build     do not run `make kernel` first
# Writes "kernel-series P F" to RESULTS/kernel-series.count, prints
# per-step build and boot times and "P passed, F failed".

set -u
REPO=$(cd "$(dirname "$0")/../.." && pwd)
LINUX_DIR=$REPO/linux
out=$REPO/build/kernel-series
results=$REPO/build/results
build=1
while [ $# -gt 0 ]; do
	case $1 in
	--out) [ $# -ge 2 ] || { echo "test-series.sh: --out needs a directory" >&2; exit 2; }
		out=$2; shift ;;
	--results) [ $# -ge 2 ] || { echo "test-series.sh: --results needs a directory" >&2; exit 2; }
		results=$2; shift ;;
	--no-build) build=0 ;;
	-h | --help) sed -n '4,/^[^#]/{/^#/s/^# \{0,1\}//p;}' "$0"; exit 0 ;;
	*) echo "test-series.sh: unknown argument '$1'" >&2; exit 2 ;;
	esac
	shift
done
mkdir -p "$out" "$results"
out=$(cd "$out" && pwd)
results=$(cd "$results" && pwd)
# shellcheck source=tests/lib/suite.sh
. "$REPO/tests/lib/suite.sh"
suite_name=kernel-series

if [ "$build" = 1 ]; then
	suite_run make-kernel make -C "$REPO" --no-print-directory kernel || {
		suite_end
		exit 1
	}
fi

# lib.sh: die/note/kgit/linux_paths/take_lock; it sets -eu, undone below.
. "$LINUX_DIR/lib.sh"
set +e
linux_paths
if [ ! -f "$KDIR/.state-patched" ] || [ ! -f "$KERNEL_PATCHED" ] || [ ! -f "$INITRAMFS" ]; then
	die "the patched kernel of series $SERIES_HASH is not built: run make kernel"
fi
take_lock "$KDIR/.lock"

src=$KDIR/steps
bld=$src/out
branch=aspmctl/$SERIES_HASH
commits=$(kgit --git-dir="$BASELINE_GIT" rev-list --reverse "$BASE_TAG..$branch") ||
	die "no branch $branch in $BASELINE_GIT (run make kernel)"
n=$(printf '%s\n' "$commits" | grep -c .)
npatches=$(series_patches | grep -c .)
suite_check "$([ "$n" = "$npatches" ] && echo 0 || echo 1)" \
	"series-commits: $n commits on $branch for $npatches patches"

if [ ! -f "$src/.git" ]; then
	kgit --git-dir="$BASELINE_GIT" worktree prune
	kgit --git-dir="$BASELINE_GIT" worktree add -q -f --detach \
		"$(cd "$KDIR/" && pwd -P)/steps" "$BASE_TAG" ||
		die "could not add the worktree $src"
fi

setup_ccache
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES GNUMAKEFLAGS
JOBS=${ASPMCTL_JOBS:-$(nproc)}
kmake() {
	make -C "$src" O="$bld" ARCH="$KARCH" CC="$KCC" HOSTCC="$KHOSTCC" \
		LOCALVERSION=-aspmctl-step KBUILD_BUILD_USER=aspmctl \
		KBUILD_BUILD_HOST=aspmctl -j"$JOBS" "$@"
}

topo=""
while IFS= read -r line; do
	line=${line%%#*}
	case $line in
	device\ *) topo="$topo -device ${line#device }" ;;
	esac
done <"$REPO/tests/qemu/topologies/default.topo"

times=""
k=0
for c in $commits; do
	k=$((k + 1))
	subj=$(kgit --git-dir="$BASELINE_GIT" log -1 --format=%s "$c")
	d=$out/step-$k
	rm -rf "$d"
	mkdir -p "$d"
	echo "  step $k/$n: $subj"
	t0=$(date +%s)
	if ! {
		kgit -C "$src" checkout -q -f --detach "$c" &&
			mkdir -p "$bld" &&
			cp "$KDIR/patched/out/.config" "$bld/.config" &&
			kmake olddefconfig &&
			kmake all
	} >"$d/build.log" 2>&1; then
		tb=$(($(date +%s) - t0))
		suite_check 1 "step-$k-build (${tb}s; log: $d/build.log)"
		grep -E 'error|Error' "$d/build.log" | tail -n 10 | sed 's/^/     /'
		times="$times step $k: build FAIL ${tb}s
"
		continue
	fi
	tb=$(($(date +%s) - t0))
	suite_check 0 "step-$k-build (${tb}s)"
	cp "$bld/.config" "$d/config"
	cp "$bld/arch/x86/boot/bzImage" "$d/bzImage"

	t0=$(date +%s)
	# shellcheck disable=SC2086
	"$LINUX_DIR/boot-test.sh" --kernel "$d/bzImage" --initrd "$INITRAMFS" \
		--out "$d/boot" --timeout 150 --append 'dyndbg="file aspm.c +p"' \
		-- $topo >"$d/boot-test.log" 2>&1
	rc=$?
	tboot=$(($(date +%s) - t0))
	suite_check "$rc" "step-$k-boot (${tboot}s; log: $d/boot/serial.log)"
	times="$times step $k: build ${tb}s, boot ${tboot}s
"
	[ "$rc" = 0 ] || { tail -n 5 "$d/boot-test.log" | sed 's/^/     /'; continue; }
	serial=$d/boot/serial.log
	oops=$(grep -E 'BUG:|WARNING:|Oops|Call Trace|general protection' "$serial" | head -n 3)
	suite_check "$([ -z "$oops" ] && echo 0 || echo 1)" "step-$k-no-oops${oops:+: $oops}"
	if grep -q '^CONFIG_PCIEASPM_KUNIT_TEST=y' "$d/config"; then
		summ=$(sed -n 's/.*# pcie_aspm_decide: pass:\([0-9]*\) fail:\([0-9]*\).*/\1 \2/p' "$serial" | head -n 1)
		notok=$(grep -c '^\[[^]]*\] *not ok ' "$serial")
		pass=${summ% *}
		fail=${summ#* }
		st=1
		[ -n "$summ" ] && [ "$pass" -gt 0 ] && [ "$fail" = 0 ] && [ "$notok" = 0 ] && st=0
		suite_check "$st" "step-$k-kunit: pcie_aspm_decide pass:${pass:-?} fail:${fail:-?}, not ok lines: $notok"
	fi
done
# The last step is the whole series: its KUnit must have run.
grep -q '^CONFIG_PCIEASPM_KUNIT_TEST=y' "$out/step-$n/config" 2>/dev/null
suite_check $? "step-$n-has-kunit: the full series enables CONFIG_PCIEASPM_KUNIT_TEST"
printf '%s' "$times"
suite_end
