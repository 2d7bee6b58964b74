#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Print where the test kernels of the current series are (or will be), as
# NAME=value lines that a shell can eval (values quoted when needed).
# Installs nothing, builds nothing;
# fails when linux-source-6.1 is not installed (its version names the tree).
#
# Usage: linux/kernel-env.sh            all variables
#        linux/kernel-env.sh --get NAME one value
# Variables: KERNEL_DIR KERNEL_DEBVER KERNEL_SERIES KERNEL_PATCHED
#   KERNEL_UNPATCHED INITRAMFS KERNEL_SRC_PATCHED KERNEL_SRC_UNPATCHED
#   KERNEL_BUILD_PATCHED KERNEL_BUILD_UNPATCHED KERNEL_LOGS ASPMCTL_CACHE

set -eu
LINUX_DIR=$(cd "$(dirname "$0")" && pwd)
. "$LINUX_DIR/lib.sh"

linux_paths
vars() {
	cat <<EOF
ASPMCTL_CACHE=$CACHE_ROOT
KERNEL_DIR=$KDIR
KERNEL_DEBVER=$DEBVER
KERNEL_SERIES=$VER_ID-$SERIES_HASH
KERNEL_PATCHED=$KERNEL_PATCHED
KERNEL_UNPATCHED=$KERNEL_UNPATCHED
INITRAMFS=$INITRAMFS
KERNEL_SRC_PATCHED=$(src_dir patched)
KERNEL_SRC_UNPATCHED=$(src_dir unpatched)
KERNEL_BUILD_PATCHED=$(build_dir patched)
KERNEL_BUILD_UNPATCHED=$(build_dir unpatched)
KERNEL_LOGS=$LOG_DIR
EOF
}

case ${1:-} in
'')
	vars | while IFS= read -r line; do
		name=${line%%=*}
		val=${line#*=}
		case $val in
		*[!A-Za-z0-9_./:+-]*)
			printf "%s='%s'\n" "$name" "$(printf '%s' "$val" | sed "s/'/'\\\\''/g")"
			;;
		*) printf '%s=%s\n' "$name" "$val" ;;
		esac
	done
	;;
--get)
	[ $# -eq 2 ] || die "--get needs one variable name"
	val=$(vars | sed -n "s/^$2=//p")
	[ -n "$val" ] || die "unknown variable '$2'"
	printf '%s\n' "$val"
	;;
-h | --help) usage ;;
*) die "unknown argument '$1' (see --help)" ;;
esac
