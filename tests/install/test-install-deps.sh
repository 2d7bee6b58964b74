#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# scripts/install-deps.sh against stand-ins for dpkg-query, apt-get and id on
# PATH (nothing is installed): it waits while another process holds apt's
# lock, as unattended-upgrades does on a freshly booted Debian, gives up with
# a clear message when the lock stays held, does not retry other apt errors,
# and runs no apt-get when nothing is missing.
#   tests/install/test-install-deps.sh [--results DIR]
set -u
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=tests/lib/suite.sh
. tests/lib/suite.sh
suite_start install "$([ "${1:-}" = --results ] && echo "$2")"
work=$(mktemp -d "${TMPDIR:-/tmp}/aspmctl-install-deps.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
mkdir "$work/bin"
# dpkg-query: every package missing unless INSTALLED=1
cat >"$work/bin/dpkg-query" <<'EOT'
#!/bin/sh
[ "${INSTALLED:-0}" = 1 ] && { printf 'install ok installed'; exit 0; }
echo "dpkg-query: no packages found matching $*" >&2
exit 1
EOT
# apt-get: logs each call; the first LOCKED calls (or all, LOCKED=all) find the
# lock held, as the real one words it; BROKEN=1 fails as a bad package would
cat >"$work/bin/apt-get" <<'EOT'
#!/bin/sh
echo "$*" >>"$CALLS"
n=$(wc -l <"$CALLS")
if [ "${LOCKED:-0}" = all ] || [ "$n" -le "${LOCKED:-0}" ]; then
	echo "E: Could not get lock /var/lib/apt/lists/lock. It is held by process 4242 (apt-get)" >&2
	echo "E: Unable to lock directory /var/lib/apt/lists/" >&2
	exit 100
fi
if [ "${BROKEN:-0}" = 1 ] && [ "$1" = install ]; then
	echo "E: Unable to locate package gnu-efi" >&2
	exit 100
fi
echo "Reading package lists... (stand-in apt-get $*)"
EOT
printf '#!/bin/sh\necho 0\n' >"$work/bin/id"
chmod +x "$work/bin/dpkg-query" "$work/bin/apt-get" "$work/bin/id"

ok() { suite_check 0 "$1"; }
bad() { suite_check 1 "$1"; sed 's/^/     /' "$work/err" | head -12; }
# run VAR=VALUE...: install-deps.sh build with the stand-ins; sets rc and calls
run() {
	: >"$work/calls"
	rc=0
	env PATH="$work/bin:$PATH" CALLS="$work/calls" APT_LOCK_POLL=0 "$@" \
		scripts/install-deps.sh build >"$work/out" 2>"$work/err" || rc=$?
	calls=$(wc -l <"$work/calls")
}

run LOCKED=2 APT_LOCK_WAIT=60
if [ "$rc" = 0 ] && [ "$calls" = 4 ] && grep -q "holds apt's lock; waiting" "$work/err" &&
	[ "$(grep -c '^install ' "$work/calls")" = 1 ] && [ ! -s "$work/out" ]; then
	ok "waits while the lock is held, then installs (4 apt-get calls, nothing on stdout)"
else
	bad "waits while the lock is held (rc=$rc, calls=$calls)"
fi

run LOCKED=all APT_LOCK_WAIT=1 APT_LOCK_POLL=0.2
if [ "$rc" != 0 ] && grep -q 'gave up after 1s' "$work/err" &&
	grep -q 'Could not get lock' "$work/err" && ! grep -q '^install ' "$work/calls"; then
	ok "gives up when the lock stays held (rc=$rc, apt's message shown, no install)"
else
	bad "gives up when the lock stays held (rc=$rc, calls=$calls)"
fi

run BROKEN=1 APT_LOCK_WAIT=60
if [ "$rc" != 0 ] && [ "$calls" = 2 ] && grep -q 'Unable to locate package' "$work/err" &&
	grep -q 'apt-get install failed' "$work/err"; then
	ok "does not retry other apt errors and shows them (rc=$rc)"
else
	bad "other apt errors (rc=$rc, calls=$calls)"
fi

run INSTALLED=1
if [ "$rc" = 0 ] && [ "$calls" = 0 ] && [ ! -s "$work/err" ]; then
	ok "runs no apt-get when nothing is missing"
else
	bad "nothing missing (rc=$rc, calls=$calls)"
fi

suite_end
