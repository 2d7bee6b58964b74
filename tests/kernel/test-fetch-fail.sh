#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# A patch that does not apply stops linux/fetch-tree.sh with a message that
# names the patch and the Debian version. Runs fetch-tree.sh from a copy of
# linux/ whose patch 0003 has one hunk's context corrupted, against a
# temporary cache whose baseline is a shared clone (git alternates) of the
# real one, so nothing is unpacked again. Needs `make kernel` to have made
# the baseline.
#
# Usage: tests/kernel/test-fetch-fail.sh
# Exit status 0 when fetch-tree.sh failed with the expected message and
# patches 0001 and 0002 were applied before it.

set -eu
LINUX_DIR=$(cd "$(dirname "$0")/../../linux" && pwd)
. "$LINUX_DIR/lib.sh"
linux_paths
[ -f "$BASELINE_DIR/.ready" ] || die "no baseline in $BASELINE_DIR: run make kernel first"

work=$(mktemp -d "${TMPDIR:-/tmp}/aspmctl-fetch-fail.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
mkdir -p "$work/repo/scripts" "$work/cache/linux/$VER_ID"
cp -R "$LINUX_DIR" "$work/repo/linux"
broken=$(ls "$work/repo/linux/patches/"0003-*.patch)
# The first context line of the first aspm.c hunk no longer matches the tree.
awk 'BEGIN { done = 0 }
	!done && /^diff --git a\/drivers\/pci\/pcie\/aspm.c/ { inside = 1 }
	inside && !done && /^ / { print " this line is not in aspm.c"; done = 1; next }
	{ print }' "$broken" >"$broken.new"
mv "$broken.new" "$broken"
cmp -s "$broken" "$LINUX_DIR/patches/${broken##*/}" && die "could not corrupt ${broken##*/}"

kgit clone -q --bare --shared "$BASELINE_GIT" "$work/cache/linux/$VER_ID/baseline.git"
kgit --git-dir="$work/cache/linux/$VER_ID/baseline.git" tag -f "$BASE_TAG" "$BASE_TAG" >/dev/null
cp "$BASELINE_DIR/.ready" "$work/cache/linux/$VER_ID/.ready"

rc=0
ASPMCTL_CACHE=$work/cache ASPMCTL_LINUX_VERSION=$DEBVER \
	"$work/repo/linux/fetch-tree.sh" --no-install --patched-only >"$work/out" 2>"$work/err" || rc=$?
cat "$work/err"
want="patch linux/patches/${broken##*/} does not apply to Debian $LINUX_PKG $DEBVER"
[ "$rc" != 0 ] || die "fetch-tree.sh succeeded with a broken patch"
grep -qF "$want" "$work/err" || die "no message '$want'"
patched=$(ls -d "$work/cache/linux/$VER_ID"-*/patched)
n=$(kgit -C "$patched" rev-list --count "$BASE_TAG..HEAD")
[ "$n" = 2 ] || die "$n patches applied before the broken one, want 2"
echo "ok: fetch-tree.sh exited $rc with: $want (after 2 patches)"
