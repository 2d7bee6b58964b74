#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Prepare the two kernel source trees of the current series in the cache:
#   <cache>/linux/<debian-version>-<series-hash>/unpatched   Debian's tree as shipped
#   <cache>/linux/<debian-version>-<series-hash>/patched     the same plus linux/patches/*.patch
# Installs linux-source-6.1 first if missing (scripts/install-deps.sh kernel).
# <debian-version>-<series-hash> is a symlink (the key) to a tree set under
# <cache>/linux/<debian-version>/trees/. The hash covers the patches and the
# config fragment: a key that exists is used as it is; a new key takes over
# the newest key of the same Debian version, whose trees are then updated in
# place (ASPMCTL_KERNEL_REUSE=0: a new tree set instead). See linux/lib.sh.
#
# Usage: linux/fetch-tree.sh [--no-install] [--patched-only] [--prune]
#   --no-install  do not call scripts/install-deps.sh
#   --patched-only  prepare the patched tree only (tests/kernel/test-fetch-fail.sh)
#   --prune       only delete the other keys and the tree sets left unused
# Prints the key (the series directory) on stdout.

set -eu
LINUX_DIR=$(cd "$(dirname "$0")" && pwd)
. "$LINUX_DIR/lib.sh"

install=1
prune_all=0
patched_only=0
for arg in "$@"; do
	case $arg in
	--no-install) install=0 ;;
	--patched-only) patched_only=1 ;;
	--prune) prune_all=1; install=0 ;;
	-h | --help) usage; exit 0 ;;
	*) die "unknown argument '$arg' (see --help)" ;;
	esac
done

# stdout carries the result alone (callers capture it): everything else,
# including what install-deps.sh and git print, goes to stderr.
exec 3>&1 1>&2

if [ "$install" = 1 ] && [ -z "${ASPMCTL_LINUX_TARBALL:-}" ]; then
	"$REPO_ROOT/scripts/install-deps.sh" kernel ||
		die "could not install the kernel build dependencies (scripts/install-deps.sh kernel)"
fi
command -v git >/dev/null || die "git is needed to prepare the kernel trees"
command -v flock >/dev/null || die "flock (util-linux) is needed"

linux_paths
[ -r "$LINUX_TARBALL" ] ||
	die "$LINUX_TARBALL not found (Debian $LINUX_PKG $DEBVER is installed?); reinstall $LINUX_PKG"

case $KCACHE/ in
"$REPO_ROOT"/*) note "warning: the cache $KCACHE is inside the repository $REPO_ROOT" ;;
esac
case $KCACHE in
*[[:space:]:]*) die "the cache path '$KCACHE' holds white space or ':', which Kbuild rejects: set ASPMCTL_CACHE" ;;
esac

# One lock for the whole cache: tree creation touches the shared baseline repo.
take_lock "$KCACHE/.lock"

# The tarball as one commit in a bare repository, once per Debian version.
ensure_baseline() {
	[ -f "$BASELINE_DIR/.ready" ] && return 0
	tmp=$BASELINE_DIR/unpack.tmp
	rm -rf "$tmp" "$BASELINE_GIT"
	mkdir -p "$tmp"
	note "unpacking $LINUX_TARBALL (Debian $LINUX_PKG $DEBVER), once per version"
	tar -xJf "$LINUX_TARBALL" -C "$tmp" --strip-components=1 ||
		die "could not unpack $LINUX_TARBALL into $tmp"
	if [ ! -f "$tmp/Makefile" ] || [ ! -d "$tmp/drivers/pci" ]; then
		die "$LINUX_TARBALL does not look like a Linux source tarball"
	fi
	upstream=$(awk -F' *= *' '
		$1 == "VERSION" { v = $2 } $1 == "PATCHLEVEL" { p = $2 }
		$1 == "SUBLEVEL" { s = $2 } END { print v "." p "." s }' "$tmp/Makefile")
	want=${DEBVER#*:}
	want=${want%%-*}
	want=${want%%+*}
	want=${want%%~*}
	if [ -z "${ASPMCTL_LINUX_VERSION:-}" ] && [ "$upstream" != "$want" ]; then
		die "$LINUX_TARBALL holds Linux $upstream but dpkg reports $LINUX_PKG $DEBVER; reinstall the package"
	fi
	note "recording the tree as commit $BASE_TAG (Linux $upstream)"
	kgit init -q --bare "$BASELINE_GIT"
	kgit --git-dir="$BASELINE_GIT" config core.looseCompression 1
	kgit --git-dir="$BASELINE_GIT" config gc.auto 0
	# -f: record the tarball exactly, even files its .gitignore names.
	kgit --git-dir="$BASELINE_GIT" --work-tree="$tmp" add -A -f
	kgit --git-dir="$BASELINE_GIT" --work-tree="$tmp" commit -q \
		-m "Linux $upstream as shipped in Debian $LINUX_PKG $DEBVER" \
		-m "Unpacked from $(basename "$LINUX_TARBALL") by aspmctl linux/fetch-tree.sh."
	kgit --git-dir="$BASELINE_GIT" tag "$BASE_TAG"
	rm -rf "$tmp"
	printf '%s\n' "$DEBVER" >"$BASELINE_DIR/.ready"
}

# Apply one patch file to the worktree $1.
apply_patch() {
	name=${2##*/}
	if head -n 1 "$2" | grep -q '^From '; then
		if ! out=$(kgit -C "$1" am -q --committer-date-is-author-date "$2" 2>&1); then
			kgit -C "$1" am --abort >/dev/null 2>&1 || true
			printf '%s\n' "$out" >&2
			die "patch linux/patches/$name does not apply to Debian $LINUX_PKG $DEBVER (tree $1)"
		fi
	else
		# A plain diff (no mail header): apply it and commit under its name.
		if ! out=$(kgit -C "$1" apply --index "$2" 2>&1); then
			printf '%s\n' "$out" >&2
			die "patch linux/patches/$name does not apply to Debian $LINUX_PKG $DEBVER (tree $1)"
		fi
		kgit -C "$1" commit -q -m "$name"
	fi
}

# Is $1 the top of a usable worktree of the baseline repository?
is_worktree() {
	[ -f "$1/.git" ] || return 1
	top=$(kgit -C "$1" rev-parse --show-toplevel 2>/dev/null) || return 1
	[ "$(cd "$top" && pwd -P)" = "$(cd "$1" && pwd -P)" ]
}

# Variant $1 (unpatched | patched) at the state the current series wants:
# the baseline, or the baseline plus linux/patches. An existing worktree is
# updated in place (git only rewrites the files that differ, so the build
# stays incremental); a missing or broken one is checked out afresh.
ensure_tree() {
	v=$1
	src=$(src_dir "$v")
	state=$KDIR/.state-$v
	if [ "$v" = unpatched ]; then
		want="baseline $BASE_TAG"
	else
		want="baseline $BASE_TAG series $SERIES_HASH"
	fi
	[ -f "$state" ] && [ "$(cat "$state")" = "$want" ] && return 0
	rm -f "$state"
	if [ -f "$src/.git" ] && ! is_worktree "$src"; then
		# The cache was moved: let git fix its links.
		kgit --git-dir="$BASELINE_GIT" worktree repair "$(cd "$src" && pwd -P)" \
			>/dev/null 2>&1 || true
	fi
	if is_worktree "$src"; then
		note "updating the $v tree in place: $src"
		kgit -C "$src" am --abort >/dev/null 2>&1 || true
		if [ "$v" = unpatched ]; then
			kgit -C "$src" checkout -q -f --detach "$BASE_TAG"
		else
			kgit -C "$src" checkout -q -f -B "aspmctl/$SERIES_HASH" "$BASE_TAG"
		fi || die "could not reset $src to $BASE_TAG"
	else
		rm -rf "$src"
		kgit --git-dir="$BASELINE_GIT" worktree prune
		note "checking out the $v tree: $src"
		# The physical path, so that git records where the tree really is.
		src=$(cd "$KDIR/" && pwd -P)/$v
		if [ "$v" = unpatched ]; then
			kgit --git-dir="$BASELINE_GIT" worktree add -q -f --detach "$src" "$BASE_TAG"
		else
			kgit --git-dir="$BASELINE_GIT" worktree add -q -f \
				-B "aspmctl/$SERIES_HASH" "$src" "$BASE_TAG"
		fi || die "could not check out $BASE_TAG into $src"
	fi
	if [ "$v" = patched ]; then
		n=0
		old_ifs=$IFS
		IFS='
'
		for p in $(series_patches); do
			IFS=$old_ifs
			apply_patch "$src" "$p"
			n=$((n + 1))
		done
		IFS=$old_ifs
		note "applied $n patch(es) from linux/patches to Debian $LINUX_PKG $DEBVER"
	fi
	printf '%s\n' "$want" >"$state"
}

# Is $1 free: no build holds its tree set's lock?
unused() {
	flock -n "$1/.lock" true 2>/dev/null
}

# Point the key $KDIR at a tree set. With reuse, take over the most recently
# used key of the same Debian version and tree format (rename the symlink);
# otherwise make a new, empty tree set.
select_trees() {
	if [ -L "$KDIR" ] && [ -d "$KDIR/" ] &&
		[ "$(cat "$KDIR/.format" 2>/dev/null)" = "$TREE_FORMAT" ]; then
		touch -h "$KDIR"
		return 0
	fi
	# A dangling link or a leftover of another layout.
	rm -rf "$KDIR"
	if [ "${ASPMCTL_KERNEL_REUSE:-1}" = 1 ]; then
		# Newest first; the names are ours, without blanks.
		# shellcheck disable=SC2045
		for old in $(ls -1dt "$KCACHE/$VER_ID"-???????????? 2>/dev/null); do
			if [ ! -L "$old" ] || [ ! -d "$old/" ]; then
				continue
			fi
			[ "$(cat "$old/.format" 2>/dev/null)" = "$TREE_FORMAT" ] || continue
			if ! unused "$old"; then
				note "not reusing $old: a build is using it"
				continue
			fi
			mv "$old" "$KDIR"
			touch -h "$KDIR"
			note "reusing the trees of ${old##*/} for series $SERIES_HASH (updated in place)"
			return 0
		done
	fi
	phys=$TREES_DIR/$SERIES_HASH
	n=0
	while [ -e "$phys" ]; do
		n=$((n + 1))
		phys=$TREES_DIR/$SERIES_HASH.$n
	done
	mkdir -p "$phys"
	printf '%s\n' "$TREE_FORMAT" >"$phys/.format"
	ln -s "$VER_ID/trees/${phys##*/}" "$KDIR"
}

# Delete the older keys and the tree sets no key points to; $1 = how many
# keys besides the current one to keep.
prune() {
	keep=$1
	# Newest first; the names are ours, without blanks.
	# shellcheck disable=SC2045
	for k in $(ls -1dt "$KCACHE"/*-???????????? 2>/dev/null); do
		[ "$k" = "$KDIR" ] && continue
		if [ -L "$k" ] && [ -d "$k/" ] && [ "$keep" -gt 0 ]; then
			keep=$((keep - 1))
			continue
		fi
		if [ -d "$k/" ] && ! unused "$k"; then
			note "keeping ${k##*/}: in use"
			continue
		fi
		note "pruning ${k##*/}"
		rm -rf "$k"
	done
	for v in "$KCACHE"/*/; do
		v=${v%/}
		[ -d "$v/trees" ] || [ -d "$v/baseline.git" ] || continue
		for t in "$v"/trees/*/; do
			[ -d "$t" ] || continue
			t=${t%/}
			used=0
			for k in "$KCACHE/${v##*/}"-????????????; do
				[ -L "$k" ] || continue
				[ "$(cd "$k/" 2>/dev/null && pwd -P)" = "$(cd "$t" && pwd -P)" ] && used=1
			done
			[ "$used" = 1 ] && continue
			unused "$t" || continue
			note "pruning unused trees $t"
			rm -rf "$t"
		done
		g=$v/baseline.git
		if [ -d "$g" ]; then
			kgit --git-dir="$g" worktree prune
			kgit --git-dir="$g" for-each-ref --format='%(refname:short)' refs/heads/aspmctl/ |
				while IFS= read -r b; do
					[ -d "$KCACHE/${v##*/}-${b#aspmctl/}/" ] ||
						kgit --git-dir="$g" branch -q -D "$b" >/dev/null 2>&1 || true
				done
		fi
		if [ "$v" != "$BASELINE_DIR" ] &&
			! ls -d "$v"/trees/*/ >/dev/null 2>&1; then
			note "pruning the baseline of another Debian version: $v"
			rm -rf "$v"
		fi
	done
}

if [ "$prune_all" = 1 ]; then
	prune 0
	exit 0
fi

ensure_baseline
select_trees
[ "$patched_only" = 1 ] || ensure_tree unpatched
ensure_tree patched
mkdir -p "$LOG_DIR"

keep=${ASPMCTL_KEEP_TREES:-3}
case $keep in
'' | *[!0-9]*) die "ASPMCTL_KEEP_TREES must be a number, not '$keep'" ;;
esac
[ "$keep" -eq 0 ] || prune $((keep - 1))

printf '%s\n' "$KDIR" >&3
