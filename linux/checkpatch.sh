#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Run the kernel tree's scripts/checkpatch.pl on one patch of the series and
# fail on any ERROR, and on any WARNING or CHECK that the patch does not
# explain below its `---` line: the notes there (between `---` and the
# diffstat) must quote, in double quotes, a part of the warning's message
# of at least 12 characters, e.g. "does MAINTAINERS need updating?".
# checkpatch's stdout and stderr both go to stdout (the test log), so a
# failing helper (scripts/spdxcheck.py needs python3-ply and python3-git)
# shows up there; /usr/bin comes first in PATH so that Debian's python3,
# which has those modules, runs it.
#
# --plain runs it as in a plain unpacked tree (Debian's linux-source tarball,
# no .git): checkpatch.pl takes its git root from $GIT_DIR (default .git)
# and, where that does not exist, skips every git look-up, so commit
# references are checked for their form only ('commit <sha> ("title")').
# The cache's trees are git worktrees, so without --plain those checks run
# against a history that lacks upstream's commits, and report differently.
#
# Usage: linux/checkpatch.sh [--plain] KERNEL_TREE PATCH

set -eu
plain=0
[ "${1:-}" = --plain ] && { plain=1; shift; }
[ $# -eq 2 ] || { echo "usage: $0 [--plain] KERNEL_TREE PATCH" >&2; exit 2; }
tree=$1
patch=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
if [ "$plain" = 1 ]; then
	GIT_DIR=$tree/.aspmctl-no-git-here
	[ ! -e "$GIT_DIR" ] || { echo "checkpatch.sh: $GIT_DIR exists" >&2; exit 2; }
	export GIT_DIR
fi
out=$(cd "$tree" && PATH=/usr/bin:/bin:$PATH perl scripts/checkpatch.pl --terse --no-summary \
	--show-types "$patch" 2>&1) || true
printf '%s\n' "$out"
# The notes: from the first line that is exactly "---" to the diffstat
# (first line starting with a space and holding " | ") or the first diff.
notes=$(awk '/^---$/ { on = 1; next }
	on && (/^ .* \| / || /^diff --git/) { exit }
	on { print }' "$patch")
quotes=$(printf '%s\n' "$notes" | grep -o '"[^"]\{12,\}"' | tr -d '"' || true)
bad=0
printf '%s\n' "$out" | grep -E '^[^ ]+:[0-9]+: (ERROR|WARNING|CHECK):' >"${TMPDIR:-/tmp}/checkpatch.$$" || true
while IFS= read -r line; do
	level=$(printf '%s\n' "$line" | sed -n 's/^[^ ]*:[0-9]*: \([A-Z]*\):.*/\1/p')
	msg=${line#*: "$level":}
	msg=${msg#*:}		# the --show-types TYPE
	if [ "$level" = ERROR ]; then
		echo "checkpatch: ERROR (never allowed):$msg"
		bad=1
		continue
	fi
	explained=0
	if [ -n "$quotes" ]; then
		while IFS= read -r q; do
			case $msg in
			*"$q"*) explained=1 ;;
			esac
		done <<EOF
$quotes
EOF
	fi
	if [ "$explained" = 1 ]; then
		echo "checkpatch: $level explained below ---:$msg"
	else
		echo "checkpatch: $level not explained below the patch's --- line:$msg"
		bad=1
	fi
done <"${TMPDIR:-/tmp}/checkpatch.$$"
rm -f "${TMPDIR:-/tmp}/checkpatch.$$"
if printf '%s\n' "$out" | grep -q 'Traceback\|ModuleNotFoundError'; then
	echo "checkpatch: note: a helper of checkpatch failed (see above); its check did not run"
fi
exit "$bad"
