#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# fetch-tree.sh prints the tree's path on stdout and nothing else, even when
# it installs packages on the way, as on a bare machine where callers
# (build-kernel.sh) capture that stdout. Stand-ins on PATH make every
# package look missing to scripts/install-deps.sh and make apt-get print on
# stdout as the real one does; the real dpkg-query still answers lib.sh's
# version look-up. Needs `make kernel` to have prepared the trees.
#
# Usage: tests/kernel/test-fetch-stdout.sh
# Exit status 0 when stdout was exactly the tree's path and install-deps.sh
# did announce an install (on stderr).

set -eu
LINUX_DIR=$(cd "$(dirname "$0")/../../linux" && pwd)
. "$LINUX_DIR/lib.sh"
linux_paths
real=$(command -v dpkg-query) || die "dpkg-query not found"

work=$(mktemp -d "${TMPDIR:-/tmp}/aspmctl-fetch-stdout.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
mkdir "$work/bin"
cat >"$work/bin/dpkg-query" <<EOT
#!/bin/sh
case "\$*" in
*Version*) exec "$real" "\$@" ;;
esac
echo "dpkg-query: no packages found matching \$*" >&2
exit 1
EOT
cat >"$work/bin/apt-get" <<'EOT'
#!/bin/sh
echo "Reading package lists... (stand-in apt-get $*)"
EOT
chmod +x "$work/bin/dpkg-query" "$work/bin/apt-get"

rc=0
PATH="$work/bin:$PATH" "$LINUX_DIR/fetch-tree.sh" >"$work/out" 2>"$work/err" || rc=$?
cat "$work/err"
[ "$rc" = 0 ] || die "fetch-tree.sh failed (exit $rc)"
grep -q 'install-deps: installing:' "$work/err" ||
	die "the stand-ins did not make install-deps.sh install anything"
got=$(cat "$work/out")
[ "$got" = "$KDIR" ] || die "stdout was '$got', want only '$KDIR'"
echo "ok: stdout is '$KDIR' alone; install-deps.sh and apt-get spoke on stderr"
