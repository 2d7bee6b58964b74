#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# make deb: aspmctl_VERSION_amd64.deb with Debian's own tools (dpkg-deb,
# dpkg-shlibdeps, dpkg-buildflags): the UEFI app, the host tool built with
# Debian's hardening flags, the systemd unit that blesses a completed boot,
# the man page, copyright and changelog.
#   scripts/make-deb.sh EFI-APP HOST-SOURCES-FILE OUT-DIR
set -eu
app=$1 srcs=$2 out=$3
cd "$(dirname "$0")/.."
stamp=$(git log -1 --format=%cd --date=format:%Y%m%d 2>/dev/null || date +%Y%m%d)
hash=$(git rev-parse --short HEAD 2>/dev/null || echo 0)
version=0~git$stamp.$hash
mkdir -p "$out"
out=$(cd "$out" && pwd)
stage=$out/stage
rm -rf "$stage"
mkdir -p "$stage/DEBIAN" "$stage/usr/sbin" "$stage/usr/lib/aspmctl" \
	"$stage/lib/systemd/system" "$stage/usr/share/man/man8" "$stage/usr/share/doc/aspmctl"

# the host tool with dpkg-buildflags' hardening (PIE, RELRO, fortify)
# shellcheck disable=SC2046 # word splitting of the flags and sources is meant
export DEB_BUILD_MAINT_OPTIONS=hardening=+all
gcc $(dpkg-buildflags --get CPPFLAGS) $(dpkg-buildflags --get CFLAGS) \
	$(dpkg-buildflags --get LDFLAGS) -std=gnu11 -I. -DASPMCTL_HOST \
	-DASPMCTL_VERSION="\"$version\"" $(cat "$srcs") -o "$stage/usr/sbin/aspmctl"
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$stage/usr/sbin/aspmctl"
install -m 644 "$app" "$stage/usr/lib/aspmctl/aspmctl.efi"
install -m 644 host/aspmctl-bless.service "$stage/lib/systemd/system/"
gzip -9n <docs/man/aspmctl.8 >"$stage/usr/share/man/man8/aspmctl.8.gz"
cat >"$stage/usr/share/doc/aspmctl/copyright" <<EOT
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: aspmctl
Source: the aspmctl repository

Files: *
Copyright: 2026 aspmctl developers <dev@aspmctl.invalid>
License: GPL-2.0-only
 This program is free software; you can redistribute it and/or modify it
 under the terms of the GNU General Public License version 2 as published
 by the Free Software Foundation.
 .
 On Debian systems, the full text of the GNU General Public License
 version 2 can be found in the file '/usr/share/common-licenses/GPL-2'.
EOT
{
	echo "aspmctl ($version) unstable; urgency=medium"
	echo
	echo "  * Built from commit $hash of the aspmctl repository."
	echo
	echo " -- aspmctl developers <dev@aspmctl.invalid>  $(date -R -d "@$(git log -1 --format=%ct 2>/dev/null || date +%s)")"
} | gzip -9n >"$stage/usr/share/doc/aspmctl/changelog.gz"

# the library dependencies, as dpkg-shlibdeps computes them
mkdir -p "$out/shlibs/debian"
printf 'Source: aspmctl\n\nPackage: aspmctl\nArchitecture: amd64\n' >"$out/shlibs/debian/control"
deps=$(cd "$out/shlibs" && dpkg-shlibdeps -O "$stage/usr/sbin/aspmctl" |
	sed -n 's/^shlibs:Depends=//p')
[ -n "$deps" ] || { echo "make-deb: dpkg-shlibdeps found no dependency" >&2; exit 1; }
size=$(du -sk --exclude=DEBIAN "$stage" | cut -f1)
cat >"$stage/DEBIAN/control" <<EOT
Package: aspmctl
Version: $version
Architecture: amd64
Maintainer: aspmctl developers <dev@aspmctl.invalid>
Installed-Size: $size
Depends: $deps
Recommends: efibootmgr
Section: admin
Priority: optional
Description: PCIe ASPM policy before the operating system starts
 aspmctl.efi is a UEFI application that applies a PCI Express Active State
 Power Management policy (clear, force, the Linux policies) from the
 firmware's ACPI tables and PCIe configuration space before any operating
 system starts, then starts the next loader. aspmctl installs it in front
 of the loader the system boots today, confirms completed boots to its
 boot counter (so a policy that hangs the machine is dropped after a few
 boots) and shows what the app did and what Linux changed since.
EOT
# enable the unit as debhelper's dh_installsystemd would (its snippets)
cat >"$stage/DEBIAN/postinst" <<'EOT'
#!/bin/sh
set -e
if [ "$1" = configure ] || [ "$1" = abort-upgrade ] || [ "$1" = abort-deconfigure ] || [ "$1" = abort-remove ]; then
	deb-systemd-helper unmask aspmctl-bless.service >/dev/null || true
	if deb-systemd-helper --quiet was-enabled aspmctl-bless.service; then
		deb-systemd-helper enable aspmctl-bless.service >/dev/null || true
	else
		deb-systemd-helper update-state aspmctl-bless.service >/dev/null || true
	fi
fi
EOT
cat >"$stage/DEBIAN/postrm" <<'EOT'
#!/bin/sh
set -e
if [ "$1" = remove ] && command -v deb-systemd-helper >/dev/null; then
	deb-systemd-helper mask aspmctl-bless.service >/dev/null || true
fi
if [ "$1" = purge ] && command -v deb-systemd-helper >/dev/null; then
	deb-systemd-helper purge aspmctl-bless.service >/dev/null || true
	deb-systemd-helper unmask aspmctl-bless.service >/dev/null || true
fi
EOT
chmod 755 "$stage/DEBIAN/postinst" "$stage/DEBIAN/postrm"
find "$stage" -type d -exec chmod 755 {} +
(cd "$stage" && find usr lib -type f -exec md5sum {} + | sort -k2 >DEBIAN/md5sums)
chmod 644 "$stage/DEBIAN/md5sums"
deb=$out/aspmctl_${version}_amd64.deb
dpkg-deb --root-owner-group --build "$stage" "$deb" >/dev/null
echo "$deb"
