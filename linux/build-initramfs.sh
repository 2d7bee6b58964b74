#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Build the test initramfs: Debian's busybox-static, its applet links and
# linux/initramfs/init as /init, written as a gzip'd newc cpio archive by the
# kernel's own usr/gen_init_cpio (device nodes without root, fixed mtimes).
#
# Usage: linux/build-initramfs.sh --out FILE --gen-init-cpio PROG [--add DIR]...
#   --out FILE            the archive to write (replaced only when it changes)
#   --gen-init-cpio PROG  <kernel build>/usr/gen_init_cpio
#   --add DIR             also copy DIR's contents into the image, at the
#                         same relative paths (test modules, scripts, ...)
#   --busybox FILE        default /bin/busybox (package busybox-static)

set -eu
LINUX_DIR=$(cd "$(dirname "$0")" && pwd)
. "$LINUX_DIR/lib.sh"

out=""
gen=""
busybox=/bin/busybox
adds=""
while [ $# -gt 0 ]; do
	case $1 in
	--out) [ $# -ge 2 ] || die "--out needs a file"; out=$2; shift ;;
	--gen-init-cpio) [ $# -ge 2 ] || die "--gen-init-cpio needs a program"; gen=$2; shift ;;
	--busybox) [ $# -ge 2 ] || die "--busybox needs a file"; busybox=$2; shift ;;
	--add)
		[ $# -ge 2 ] || die "--add needs a directory"
		[ -d "$2" ] || die "--add $2: not a directory"
		case $2 in
		*'
'*) die "--add: directory names with newlines are not supported" ;;
		esac
		adds="$adds
$(cd "$2" && pwd)"
		shift
		;;
	-h | --help) usage; exit 0 ;;
	*) die "unknown argument '$1' (see --help)" ;;
	esac
	shift
done
[ -n "$out" ] || die "--out FILE is required"
[ -n "$gen" ] || die "--gen-init-cpio PROG is required"
[ -x "$gen" ] || die "$gen is not an executable (build a kernel first)"
[ -x "$busybox" ] ||
	die "$busybox not found: install busybox-static (scripts/install-deps.sh kernel)"
if command -v file >/dev/null &&
	! file -L "$busybox" | grep -q 'statically linked'; then
	note "warning: $busybox is not statically linked: the initramfs has no libc"
fi
init=$LINUX_DIR/initramfs/init
[ -f "$init" ] || die "$init is missing"

work=$(mktemp -d "${TMPDIR:-/tmp}/aspmctl-initramfs.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
list=$work/list

# Entries of the --add directories, checked here (not in a pipeline) so that
# a bad entry stops the build.
: >"$work/added"
printf '%s\n' "$adds" >"$work/tops"
while IFS= read -r top; do
	[ -n "$top" ] || continue
	(cd "$top" && find . -mindepth 1 | sort) >"$work/found"
	while IFS= read -r rel; do
		rel=${rel#./}
		p=$top/$rel
		case $p in
		*[[:space:]]*) die "--add: '$p': white space in a path is not supported" ;;
		esac
		mode=$(stat -c %a "$p")
		if [ -L "$p" ]; then
			echo "slink /$rel $(readlink "$p") 0777 0 0"
		elif [ -d "$p" ]; then
			echo "dir /$rel $mode 0 0"
		elif [ -f "$p" ]; then
			echo "file /$rel $p $mode 0 0"
		else
			die "--add: $p is neither a file, a directory nor a symlink"
		fi
	done <"$work/found" >>"$work/added"
done <"$work/tops"

case $init$busybox in
*[[:space:]]*) die "white space in $init or $busybox is not supported" ;;
esac
{
	for d in /dev /proc /sys /tmp /run /mnt /root /etc /bin /sbin /usr \
		/usr/bin /usr/sbin /lib /lib/modules; do
		case $d in
		/tmp) echo "dir $d 1777 0 0" ;;
		/root) echo "dir $d 0700 0 0" ;;
		*) echo "dir $d 0755 0 0" ;;
		esac
	done
	echo "nod /dev/console 0600 0 0 c 5 1"
	echo "nod /dev/null 0666 0 0 c 1 3"
	echo "file /bin/busybox $busybox 0755 0 0"
	"$busybox" --list-full | while IFS= read -r a; do
		case $a in
		bin/busybox) ;;
		*/*) echo "slink /$a /bin/busybox 0777 0 0" ;;
		esac
	done
	echo "file /init $init 0755 0 0"
	cat "$work/added"
} | awk '!seen[$0]++' >"$list"

"$gen" -t 0 "$list" >"$work/initramfs.cpio" || die "gen_init_cpio failed on $list"
gzip -n -9 <"$work/initramfs.cpio" >"$work/initramfs.cpio.gz"
mkdir -p "$(dirname "$out")"
if [ -f "$out" ] && cmp -s "$work/initramfs.cpio.gz" "$out"; then
	echo "initramfs unchanged: $out"
else
	mv "$work/initramfs.cpio.gz" "$out"
	echo "initramfs written: $out"
fi
echo "$(grep -c . "$list") entries, $(($(stat -c %s "$out") / 1024)) KiB"
