#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# A real Debian 12 system on a raw GPT disk image, for tests/system/system.sh,
# built without loop devices or mounts: debootstrap into a folder, the root
# file system made from it with mke2fs -d, the ESP with mkfs.vfat -C and
# mtools, the two put together with sfdisk and dd.
#
#   tests/system/build-image.sh [--force]     prints the image's path
#
# Boot chain: firmware -> \EFI\debian\shimx64.efi (Debian's signed shim) ->
# \EFI\debian\grubx64.efi (Debian's signed GRUB, which reads
# \EFI\debian\grub.cfg: search the root by UUID, configfile
# /boot/grub/grub.cfg) -> /vmlinuz with /initrd.img, the symlinks Debian's
# kernel packages update; once a kernel package is installed, Debian's own
# update-grub writes /boot/grub/grub.cfg (with /etc/default/grub's serial
# console).  Root is logged in on ttyS0 by itself.  A second
# kernel package (the cloud flavour of the same ABI) waits in /srv/kernels/
# for the upgrade test.  The image is cached in
# ${ASPMCTL_CACHE:-$HOME/.cache/aspmctl}/system/, keyed by a hash of this
# script: a cache hit builds nothing.  As root (debootstrap); needs the
# network (ASPMCTL_DEBIAN_MIRROR, default http://deb.debian.org/debian).
set -eu
# stdout carries the image's path and nothing else (mke2fs -d, for one,
# talks on stdout): everything else goes to stderr
exec 3>&1 1>&2
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
force=0
[ "${1:-}" = --force ] && force=1
cache=${ASPMCTL_CACHE:-$HOME/.cache/aspmctl}/system
key=$(sha256sum "$0" | cut -c1-16)
img=$cache/debian12-$key.img
if [ -f "$img" ] && [ $force = 0 ]; then
	echo "build-image: cached $img"
	echo "$img" >&3
	exit 0
fi
[ "$(id -u)" = 0 ] || { echo "build-image: debootstrap needs root" >&2; exit 1; }
"$repo/scripts/install-deps.sh" system
mirror=${ASPMCTL_DEBIAN_MIRROR:-http://deb.debian.org/debian}
t0=$(date +%s)
mkdir -p "$cache"
work=$cache/build-$key
rm -rf "$work"
mkdir -p "$work"
root=$work/root
log=$work/debootstrap.log
echo "build-image: debootstrap bookworm into $root (log: $log)" >&2
pkgs=linux-image-amd64,grub-efi-amd64-signed,shim-signed,systemd,systemd-sysv,udev
pkgs=$pkgs,e2fsprogs,dosfstools,efibootmgr,mokutil,initramfs-tools,kmod
debootstrap --variant=minbase --include="$pkgs" bookworm "$root" "$mirror" >"$log" 2>&1 ||
	{ tail -n 30 "$log" >&2; echo "build-image: debootstrap failed" >&2; exit 1; }

ruuid=$(cat /proc/sys/kernel/random/uuid)
serial=$(od -An -N4 -tx4 /dev/urandom | tr -d ' ' | tr a-f A-F)
euuid=${serial:0:4}-${serial:4:4}
abi=$(basename "$(ls -d "$root"/lib/modules/*-amd64 | head -n 1)")
echo "build-image: kernel $abi, root UUID $ruuid, ESP $euuid" >&2

echo aspmctl-test >"$root/etc/hostname"
printf '127.0.0.1 localhost\n127.0.1.1 aspmctl-test\n' >"$root/etc/hosts"
cat >"$root/etc/fstab" <<FSTAB
# <file system> <mount point> <type> <options> <dump> <pass>
UUID=$ruuid / ext4 errors=remount-ro 0 1
UUID=$euuid /boot/efi vfat umask=0077 0 2
FSTAB
mkdir -p "$root/boot/efi" "$root/boot/grub"
# root on the serial console without a password
d=$root/etc/systemd/system/serial-getty@ttyS0.service.d
mkdir -p "$d"
cat >"$d/autologin.conf" <<'UNIT'
[Service]
ExecStart=
ExecStart=-/sbin/agetty --autologin root --noclear --keep-baud 115200,38400,9600 %I $TERM
UNIT
chroot "$root" passwd -d root >/dev/null
# no network in the guest: nothing waits for it
rm -f "$root/etc/systemd/system/multi-user.target.wants/systemd-networkd.service"
cat >"$root/boot/grub/grub.cfg" <<GRUB
# SPDX-License-Identifier: GPL-2.0-only
set timeout=0
set default=0
echo "grub: /boot/grub/grub.cfg on \$root, booting /vmlinuz"
menuentry "Debian GNU/Linux" {
	linux /vmlinuz root=UUID=$ruuid ro console=ttyS0,115200
	initrd /initrd.img
}
GRUB
# Debian's update-grub (zz-update-grub, on every kernel install) replaces the
# grub.cfg above with its own: the serial console, no menu delay, no "quiet"
cat >>"$root/etc/default/grub" <<'DEFAULT'
# aspmctl system test: serial console, no menu delay
GRUB_TIMEOUT=0
GRUB_CMDLINE_LINUX_DEFAULT=""
GRUB_CMDLINE_LINUX="console=ttyS0,115200"
GRUB_TERMINAL=console
GRUB_DISABLE_OS_PROBER=true
DEFAULT
printf 'search --no-floppy --fs-uuid --set=root %s\nset prefix=($root)/boot/grub\nconfigfile $prefix/grub.cfg\n' \
	"$ruuid" >"$work/grub-esp.cfg"
[ -L "$root/vmlinuz" ] && [ -L "$root/initrd.img" ] ||
	{ echo "build-image: no /vmlinuz or /initrd.img symlink in the image" >&2; exit 1; }
# the second kernel, for the upgrade step (from the image's own sources)
cloud=linux-image-${abi%-amd64}-cloud-amd64
mkdir -p "$root/srv/kernels"
chroot "$root" apt-get update -qq >>"$log" 2>&1
chroot "$root" sh -c "cd /srv/kernels && apt-get download -qq $cloud" >>"$log" 2>&1 ||
	{ tail -n 10 "$log" >&2; echo "build-image: apt-get download $cloud failed" >&2; exit 1; }
chroot "$root" apt-get clean
rm -rf "$root"/var/lib/apt/lists/*_Packages "$root"/var/lib/apt/lists/*_InRelease
ls "$root/srv/kernels/"*.deb >/dev/null

# partitions: ESP 64 MiB at 1 MiB, root 2 GiB after it
esp_mib=64 root_mib=2048
esp=$work/esp.img rootfs=$work/root.img disk=$work/disk.img
rm -f "$esp"
mkfs.vfat -C -F 32 -i "$serial" -n ESP "$esp" $((esp_mib * 1024)) >/dev/null
mmd -i "$esp" ::/EFI ::/EFI/debian ::/EFI/BOOT
mcopy -i "$esp" "$root/usr/lib/shim/shimx64.efi.signed" ::/EFI/debian/shimx64.efi
mcopy -i "$esp" "$root/usr/lib/shim/mmx64.efi.signed" ::/EFI/debian/mmx64.efi
mcopy -i "$esp" "$root/usr/lib/grub/x86_64-efi-signed/grubx64.efi.signed" ::/EFI/debian/grubx64.efi
mcopy -i "$esp" "$work/grub-esp.cfg" ::/EFI/debian/grub.cfg
echo "build-image: mke2fs -d (root file system, ${root_mib} MiB)" >&2
mke2fs -q -t ext4 -U "$ruuid" -L debian-root -d "$root" "$rootfs" "${root_mib}M"
rm -f "$disk"
truncate -s $((1 + esp_mib + root_mib + 1))M "$disk"
sfdisk -q "$disk" <<SFDISK
label: gpt
start=2048, size=$((esp_mib * 2048)), type=C12A7328-F81F-11D2-BA4B-00A0C93EC93B, name="EFI system partition"
start=$(( (1 + esp_mib) * 2048 )), size=$((root_mib * 2048)), type=0FC63DAF-8483-4772-8E79-3D69D8477DE4, name="root"
SFDISK
dd if="$esp" of="$disk" bs=1M seek=1 conv=notrunc,sparse status=none
dd if="$rootfs" of="$disk" bs=1M seek=$((1 + esp_mib)) conv=notrunc,sparse status=none
printf 'kernel=%s\nsecond=%s\nroot_uuid=%s\nesp_uuid=%s\n' "$abi" \
	"$(basename "$root"/srv/kernels/*.deb)" "$ruuid" "$euuid" >"$img.info"
mv "$disk" "$img"
rm -rf "$work"
echo "build-image: $img in $(( $(date +%s) - t0 )) s"
echo "$img" >&3
