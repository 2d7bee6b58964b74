#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Register-level cross-check of the app's ASPM engine against Linux's own
# drivers/pci/pcie/aspm.c (make xcheck; docs/xcheck.md, linux/simmod/README.md):
#   1. tests/xcheck/xcheck writes every scenario (NAME.sim) and the app's
#      result on the host simulator (NAME.app),
#   2. aspmsim.ko is built against the patched and the unpatched kernel
#      (external module, in OUT, never in the source tree),
#   3. an initramfs per kernel: the test initramfs plus the module and the
#      scenarios,
#   4. tests/xcheck/xcheck.py boots each kernel once per group of scenarios
#      and compares (ok/FAIL lines).
# The kernels must be built (make kernel); unless --no-build, `make kernel`
# runs first (a no-op when they are up to date).
#
# Usage: tests/xcheck/xcheck.sh --tool PROG [--out DIR] [--results DIR]
#                               [--only NAME,...] [--groups G,...]
#                               [--kernels patched,unpatched] [--no-build]
#                               [--twin 'DUMP...' --expect FILE --suite NAME]
#   --tool PROG    the host tool (make builds build/xcheck/xcheck)
#   --out DIR      default build/xcheck
#   --results DIR  where xcheck.count goes (default build/results)
#   --twin 'DUMP...'  real machines' dumps (lspci -xxx/-xxxx, docs/twin.md)
#                  instead of the built-in scenarios: every root bus of every
#                  domain a scenario, under every group (make twin)
#   --expect FILE  expected outcomes overriding the tool's defaults
#                  (tests/twin/expect.tsv)
#   --suite NAME   the count file's name (default xcheck; make twin: twin)
#   --difffuzz 'ARGS'  generated machines instead (make difffuzz,
#                  tests/difffuzz/README.md): the module and an initramfs
#                  without scenarios, then tests/difffuzz/difffuzz.py ARGS
# Writes "NAME P F" to RESULTS/NAME.count, prints "P passed, F failed".

set -u
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
LINUX_DIR=$REPO/linux
SIMMOD=$LINUX_DIR/simmod
tool=""
out=$REPO/build/xcheck
results=$REPO/build/results
only=""
groups=""
kernels=patched,unpatched
build=1
twin=""
expect=""
suite_name=xcheck
difffuzz=""
while [ $# -gt 0 ]; do
	case $1 in
	--tool) tool=$2; shift ;;
	--out) out=$2; shift ;;
	--results) results=$2; shift ;;
	--only) only=$2; shift ;;
	--groups) groups=$2; shift ;;
	--kernels) kernels=$2; shift ;;
	--no-build) build=0 ;;
	--twin) twin=$2; shift ;;
	--expect) expect=$2; shift ;;
	--suite) suite_name=$2; shift ;;
	--difffuzz) difffuzz=$2; shift ;;
	-h | --help) sed -n '4,/^[^#]/{/^#/s/^# \{0,1\}//p;}' "$0"; exit 0 ;;
	*) echo "xcheck.sh: unknown argument '$1'" >&2; exit 2 ;;
	esac
	shift
done
[ -n "$tool" ] || { echo "xcheck.sh: --tool PROG is required" >&2; exit 2; }
mkdir -p "$out" "$results"
out=$(cd "$out" && pwd)
results=$(cd "$results" && pwd)
t0=$(date +%s)
# shellcheck source=tests/lib/suite.sh
. "$REPO/tests/lib/suite.sh"
step() {	# step NAME COMMAND...: a build step, counted, log in OUT/NAME.log
	suite_run "$@"
}
finish() {
	echo "# $suite_name: $(($(date +%s) - t0))s"
	suite_end
	exit $?
}

if [ "$build" = 1 ]; then
	step make-kernel make -C "$REPO" --no-print-directory kernel || finish
fi
eval "$("$LINUX_DIR/kernel-env.sh")" || { suite_add 0 1; finish; }

sdir=$out/scenarios
rm -rf "$sdir"
mkdir -p "$sdir"
if [ -n "$difffuzz" ]; then
	# the batches' scenarios go in front of the initramfs (difffuzz.py)
	step scenarios "$tool" --gen "$sdir" /dev/null || finish
elif [ -n "$twin" ]; then
	# shellcheck disable=SC2086 # a list of dump files
	step scenarios "$tool" --twin "$sdir" $twin || finish
else
	step scenarios "$tool" "$sdir" || finish
fi

for v in patched unpatched; do
	case $v in
	patched) kb=$KERNEL_BUILD_PATCHED ;;
	*) kb=$KERNEL_BUILD_UNPATCHED ;;
	esac
	m=$out/module-$v
	stage=$out/stage-$v
	rm -rf "$m" "$stage"
	mkdir -p "$m" "$stage/lib/modules" "$stage/xcheck"
	cp "$SIMMOD/Kbuild" "$SIMMOD/aspmsim.c" "$m/"
	step "module-$v" make -C "$kb" M="$m" -j2 modules || finish
	cp "$m/aspmsim.ko" "$stage/lib/modules/"
	[ -n "$difffuzz" ] || cp "$sdir"/*.sim "$stage/xcheck/"
	step "initramfs-$v" "$LINUX_DIR/build-initramfs.sh" --out "$out/initramfs-$v.cpio.gz" \
		--gen-init-cpio "$kb/usr/gen_init_cpio" --add "$stage" || finish
done

if [ -n "$difffuzz" ]; then
	# shellcheck disable=SC2086 # options for difffuzz.py
	python3 "$REPO/tests/difffuzz/difffuzz.py" --tool "$tool" --out "$out" \
		--initrd-patched "$out/initramfs-patched.cpio.gz" \
		--initrd-unpatched "$out/initramfs-unpatched.cpio.gz" \
		--kernels "$kernels" $difffuzz >"$out/checks.txt" 2>"$out/checks.err"
	rc=$?
	suite_count_file "$out/checks.txt" "$rc" difffuzz.py
	[ "$rc" = 0 ] || tail -n 20 "$out/checks.err"
	finish
fi
python3 "$HERE/xcheck.py" --scenarios "$sdir" --out "$out/boots" \
	--initrd-patched "$out/initramfs-patched.cpio.gz" \
	--initrd-unpatched "$out/initramfs-unpatched.cpio.gz" \
	--kernels "$kernels" ${only:+--only "$only"} ${groups:+--groups "$groups"} \
	${expect:+--expect "$expect"} \
	>"$out/checks.txt" 2>"$out/checks.err"
rc=$?
suite_count_file "$out/checks.txt" "$rc" xcheck.py
[ "$rc" = 0 ] || tail -n 20 "$out/checks.err"
finish
