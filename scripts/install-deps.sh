#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Install the Debian 12 packages a target needs, only those missing.
#   scripts/install-deps.sh build|run|sign|unit|test|kernel|fuzz|deb|acpica|system ...
set -eu
# Nothing on stdout: callers may capture theirs (fetch-tree.sh prints a path).
exec 1>&2
pkgs=""
for what in "$@"; do
	case "$what" in
	build)	pkgs="$pkgs gcc make binutils gnu-efi" ;;
	run)	pkgs="$pkgs gcc make binutils gnu-efi ovmf qemu-system-x86 python3" ;;
	# sbsign and sbverify; openssl opens the test key; ovmf ships it
	sign)	pkgs="$pkgs sbsigntool openssl ovmf" ;;
	unit)	pkgs="$pkgs gcc make libcmocka-dev pkg-config acpica-tools" ;;
	test)	pkgs="$pkgs gcc make binutils gnu-efi ovmf qemu-system-x86 python3 libcmocka-dev pkg-config pciutils clang libclang-rt-14-dev mtools dosfstools python3-pyflakes pyflakes3 sbsigntool openssl fdisk shim-signed dpkg-dev lintian man-db acpica-tools linux-source-6.1 xz-utils" ;;
	# ACPICA's sources come from the kernel tarball (acpi/aml/fetch-acpica.sh)
	acpica)	pkgs="$pkgs linux-source-6.1 xz-utils patch" ;;
	kernel)	pkgs="$pkgs linux-source-6.1 gcc make flex bison bc libelf-dev libssl-dev cpio xz-utils busybox-static ccache python3 python3-ply python3-git perl" ;;
	fuzz)	pkgs="$pkgs clang libclang-rt-14-dev" ;;
	deb)	pkgs="$pkgs gcc make binutils gnu-efi dpkg-dev lintian man-db" ;;
	# tests/system: a Debian 12 disk image without loop devices, booted in QEMU
	system)	pkgs="$pkgs debootstrap mtools dosfstools e2fsprogs fdisk ovmf qemu-system-x86 python3 sbsigntool openssl" ;;
	*)	echo "install-deps: unknown set '$what'" >&2; exit 2 ;;
	esac
done
missing=""
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "install-deps: installing:$missing"
if [ "$(id -u)" -ne 0 ]; then
	echo "install-deps: need root to install:$missing" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
# A fresh Debian often runs unattended-upgrades (or another apt) just after boot.
# apt-get then fails at once on its dpkg or lists lock; wait for the other one to
# finish instead, up to APT_LOCK_WAIT seconds (default 900), and say so.
lock_wait=${APT_LOCK_WAIT:-900}
deadline=$(( $(date +%s) + lock_wait ))
apt_get() {	# apt_get ARGS...: apt-get ARGS, again while another process holds apt's lock
	said=
	while :; do
		if out=$(apt-get "$@" 2>&1); then
			return 0
		fi
		case "$out" in
		*"Could not get lock"* | *"Unable to lock"* | *"Unable to acquire"*) ;;
		*)	printf '%s\n' "$out"
			echo "install-deps: apt-get $1 failed"
			return 1 ;;
		esac
		if [ "$(date +%s)" -ge "$deadline" ]; then
			printf '%s\n' "$out"
			echo "install-deps: gave up after ${lock_wait}s: another process still holds apt's lock (APT_LOCK_WAIT sets the wait)"
			return 1
		fi
		[ -n "$said" ] || echo "install-deps: another process holds apt's lock; waiting up to ${lock_wait}s"
		said=1
		sleep "${APT_LOCK_POLL:-5}"
	done
}
apt_get update -qq
# shellcheck disable=SC2086
apt_get install -y -qq --no-install-recommends $missing
