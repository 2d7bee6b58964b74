#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The real Debian 12 system in QEMU+OVMF (tests/system/README.md): the
# cached disk image of build-image.sh, the package of `make deb`, then
# system.py's boots: first boot, dpkg -i + aspmctl install, a kernel
# upgrade, three hangs and the fallback, bless, uninstall; once with
# Secure Boot off, once on (Microsoft-key store, the app in MokList).  One line
# "ok|FAIL <what>" per check; RESULTS/system.count; last line
# "P passed, F failed".
#
#   tests/system/system.sh [--deb FILE] [--out DIR] [--results DIR]
#   (--deb: that package instead of a fresh `make deb`)
set -u
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
# shellcheck source=tests/lib/suite.sh
. "$here/../lib/suite.sh"
deb='' args=()
while [ $# -gt 0 ]; do
	case "$1" in
	--deb)	deb=$(cd "$(dirname "$2")" && pwd)/$(basename "$2"); shift 2 ;;
	*)	args+=("$1"); shift ;;
	esac
done
suite_init system build/system ${args[@]+"${args[@]}"}
t0=$(date +%s)
"$repo/scripts/install-deps.sh" system deb >"$out/deps.log" 2>&1
suite_check $? "packages the suite needs (scripts/install-deps.sh system deb)"
img=$("$here/build-image.sh" 2>"$out/build-image.log")
suite_check $? "the Debian 12 image ($(tail -n 1 "$out/build-image.log"))"
t1=$(date +%s)
if [ -z "$deb" ]; then
	rm -f "$repo"/build/deb/aspmctl_*_amd64.deb
	make -C "$repo" --no-print-directory deb >"$out/deb.log" 2>&1
	suite_check $? "make deb"
	deb=$(ls "$repo"/build/deb/aspmctl_*_amd64.deb 2>/dev/null | head -n 1)
fi
[ -f "$deb" ]
suite_check $? "the package: $(basename "${deb:-none}")"
if [ -z "$img" ] || [ -z "$deb" ]; then
	suite_end
	exit 1
fi
# boots NAME SYSTEM.PY-ARGS...: one run of the boots, counted
boots() {
	local n=$1 rc
	shift
	echo "system: $n boots, consoles in $out/$n" >&2
	python3 "$here/system.py" --image "$img" --deb "$deb" --out "$out/$n" "$@" >"$out/$n.txt" 2>&1
	rc=$?
	grep -v '^[0-9]* passed, [0-9]* failed$' "$out/$n.txt" | grep -v '^ok \|^FAIL ' >&2
	grep '^ok \|^FAIL ' "$out/$n.txt" | sed "s/^\(ok  \|FAIL\) /\1 $n: /" >"$out/$n.checks"
	suite_count_file "$out/$n.checks" $rc "system.py ($n)"
}
boots uefi
# Secure Boot: the Microsoft-key store, the test key's certificate in
# MokList (as mokutil --import and MokManager would put it), the app from
# the package signed with that key (scripts/sign.sh)
sb=$out/secureboot-inputs
rm -rf "$sb"
mkdir -p "$sb"
dpkg-deb -x "$deb" "$sb/deb" &&
	"$repo/scripts/sign.sh" "$sb/deb/usr/lib/aspmctl/aspmctl.efi" "$sb/aspmctl.signed.efi" >"$sb/sign.log" 2>&1 &&
	openssl x509 -in /usr/share/ovmf/PkKek-1-snakeoil.pem -outform DER -out "$sb/test-key.der"
suite_check $? "Secure Boot inputs: the package's app signed with the test key, its certificate for MokList"
boots secureboot --secureboot --mok-cert "$sb/test-key.der" --signed-app "$sb/aspmctl.signed.efi"
echo "system: image $((t1 - t0)) s, whole suite $(( $(date +%s) - t0 )) s" >&2
suite_end
