#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Build the test kernels of the current series and the initramfs:
#   unpatched  Debian's linux-source-6.1 as shipped
#   patched    the same with linux/patches/*.patch applied
# Both from `tinyconfig` + linux/aspmctl.config, out of tree (make O=), with
# ccache; a second run without changes only re-checks (incremental make).
#
# Usage: linux/build-kernel.sh [options] [all | unpatched | patched | initramfs]...
#   -j N, --jobs N   parallel jobs (default $ASPMCTL_JOBS or nproc)
#   --no-install     do not install missing packages
# Logs go to <series dir>/logs/; the last lines print the artefact paths.

set -eu
LINUX_DIR=$(cd "$(dirname "$0")" && pwd)
. "$LINUX_DIR/lib.sh"

JOBS=${ASPMCTL_JOBS:-$(nproc)}
fetch_args=""
want=""
while [ $# -gt 0 ]; do
	case $1 in
	-j) [ $# -ge 2 ] || die "-j needs a number"; JOBS=$2; shift ;;
	-j*) JOBS=${1#-j} ;;
	--jobs) [ $# -ge 2 ] || die "--jobs needs a number"; JOBS=$2; shift ;;
	--jobs=*) JOBS=${1#--jobs=} ;;
	--no-install) fetch_args="--no-install" ;;
	all) want="$want unpatched patched initramfs" ;;
	unpatched | patched | initramfs) want="$want $1" ;;
	-h | --help) usage; exit 0 ;;
	*) die "unknown argument '$1' (see --help)" ;;
	esac
	shift
done
[ -n "$want" ] || want="unpatched patched initramfs"
case $JOBS in
'' | *[!0-9]*) die "bad job count '$JOBS'" ;;
esac

# A make above us (the top Makefile) must not leak its flags, variables
# (CC=clang, BUILD=...) or jobserver into Kbuild.
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES GNUMAKEFLAGS

# shellcheck disable=SC2086
KDIR_FETCHED=$("$LINUX_DIR/fetch-tree.sh" $fetch_args) ||
	die "could not prepare the kernel trees (see the message above)"
linux_paths
[ "$KDIR_FETCHED" = "$KDIR" ] ||
	die "internal: fetch-tree.sh prepared $KDIR_FETCHED, expected $KDIR"
take_lock "$KDIR/.lock"
mkdir -p "$LOG_DIR"

setup_ccache

kmake() {
	v=$1
	shift
	make -C "$(src_dir "$v")" O="$(build_dir "$v")" ARCH="$KARCH" \
		CC="$KCC" HOSTCC="$KHOSTCC" LOCALVERSION="-aspmctl-$v" \
		KBUILD_BUILD_USER=aspmctl KBUILD_BUILD_HOST=aspmctl \
		-j"$JOBS" "$@"
}

# The fragments of variant $1: the shared one, plus the patched-only one.
fragments() {
	if [ "$1" = patched ]; then
		printf '%s\n' "$FRAGMENT" "$FRAGMENT_PATCHED"
	else
		printf '%s\n' "$FRAGMENT"
	fi
}

# Every line of the fragments must have survived olddefconfig.
verify_config() {
	cfg=$1
	v=$2
	bad=$(fragments "$v" | while IFS= read -r frag; do cat "$frag"; done | while IFS= read -r line; do
		case $line in
		CONFIG_*=*)
			sym=${line%%=*}
			if ! grep -qxF "$line" "$cfg"; then
				got=$(grep "^$sym=" "$cfg" || echo "not set")
				echo "  wanted $line, got $got"
			fi
			;;
		"# CONFIG_"*" is not set")
			sym=${line#\# }
			sym=${sym%% *}
			if grep -q "^$sym=" "$cfg"; then
				echo "  wanted $sym off, got $(grep "^$sym=" "$cfg")"
			fi
			;;
		esac
	done)
	[ -z "$bad" ] && return 0
	printf '%s\n' "$bad" >&2
	return 1
}

configure() {
	v=$1
	b=$(build_dir "$v")
	log=$LOG_DIR/config-$v.log
	# shellcheck disable=SC2046
	sum=$(cat $(fragments "$v") | sha256sum | cut -c1-16)
	# reuse the configuration only while it still holds every fragment
	# line (a build of an older state of the tree can drop symbols the
	# series adds, through syncconfig)
	[ -f "$b/.config" ] && [ "$(cat "$b/.aspmctl-config-ok" 2>/dev/null)" = "$sum" ] &&
		verify_config "$b/.config" "$v" 2>/dev/null && return 0
	rm -f "$b/.aspmctl-config-ok"
	mkdir -p "$b"
	note "configuring the $v kernel: tinyconfig + $(fragments "$v" | sed 's|.*/|linux/|' | tr '\n' ' ')"
	if ! {
		kmake "$v" tinyconfig &&
			# shellcheck disable=SC2046
			"$(src_dir "$v")/scripts/kconfig/merge_config.sh" -m -O "$b" \
				"$b/.config" $(fragments "$v") &&
			kmake "$v" olddefconfig
	} >"$log" 2>&1; then
		tail -n 30 "$log" >&2
		die "configuring the $v kernel failed (log: $log)"
	fi
	verify_config "$b/.config" "$v" ||
		die "olddefconfig dropped the option(s) above from linux/aspmctl.config (a dependency is missing?); see $b/.config"
	# shellcheck disable=SC2046
	cat $(fragments "$v") >"$b/aspmctl.config.used"
	printf '%s\n' "$sum" >"$b/.aspmctl-config-ok"
}

summary=""
add_summary() {
	summary="$summary$*
"
}

build() {
	v=$1
	configure "$v"
	log=$LOG_DIR/build-$v.log
	note "building the $v kernel (make -j$JOBS; log: $log)"
	t0=$(date +%s)
	if ! kmake "$v" all >"$log" 2>&1; then
		grep -E 'error|Error' "$log" | tail -n 20 >&2 || true
		tail -n 20 "$log" >&2
		die "building the $v kernel failed (log: $log)"
	fi
	t=$(($(date +%s) - t0))
	img=$(build_dir "$v")/arch/x86/boot/bzImage
	[ -f "$img" ] || die "the $v build finished but $img is missing (log: $log)"
	rel=$(cat "$(build_dir "$v")/include/config/kernel.release")
	size=$(($(stat -c %s "$img") / 1024))
	printf '%s %s %ss\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$v" "$t" >>"$LOG_DIR/times"
	add_summary "$(printf 'kernel %-9s %s  %s (%s KiB, built in %s)' \
		"$v" "$rel" "$img" "$size" "$(fmt_secs "$t")")"
}

initramfs() {
	gen=""
	for v in unpatched patched; do
		if [ -x "$(build_dir "$v")/usr/gen_init_cpio" ]; then
			gen=$(build_dir "$v")/usr/gen_init_cpio
			break
		fi
	done
	[ -n "$gen" ] || die "no kernel build has usr/gen_init_cpio yet: build a kernel first"
	"$LINUX_DIR/build-initramfs.sh" --gen-init-cpio "$gen" --out "$INITRAMFS" \
		>"$LOG_DIR/initramfs.log" 2>&1 || {
		cat "$LOG_DIR/initramfs.log" >&2
		die "building the initramfs failed"
	}
	add_summary "$(printf 'initramfs %s (%s KiB)' "$INITRAMFS" \
		$(($(stat -c %s "$INITRAMFS") / 1024)))"
}

t_all=$(date +%s)
for w in $want; do
	case $w in
	unpatched | patched) build "$w" ;;
	initramfs) initramfs ;;
	esac
done

printf '%s' "$summary" | tee "$LOG_DIR/summary.txt"
note "done in $(fmt_secs $(($(date +%s) - t_all))); series $VER_ID-$SERIES_HASH, logs in $LOG_DIR"
