# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh disable=SC2034
# (SC2034: the variables set here are used by the scripts that source it.)
#
# Shared helpers of the linux/ scripts. Sourced, not run: the caller sets
# LINUX_DIR (the absolute path of linux/) first.
#
# Settings, all from the environment:
#   ASPMCTL_CACHE          cache root; default ${XDG_CACHE_HOME:-$HOME/.cache}/aspmctl
#   ASPMCTL_LINUX_PKG      Debian source package (default linux-source-6.1)
#   ASPMCTL_LINUX_TARBALL  its tarball (default /usr/src/$ASPMCTL_LINUX_PKG.tar.xz)
#   ASPMCTL_LINUX_VERSION  version naming the tree; default: what dpkg reports
#   ASPMCTL_JOBS           make -j for kernel builds (default: nproc)
#   ASPMCTL_CCACHE         1 (default when ccache is installed) or 0
#   CCACHE_DIR             default <cache root>/ccache
#   ASPMCTL_KEEP_TREES     series directories kept in the cache (default 3, 0 = all)
#
# Layout of the cache (KCACHE = <cache root>/linux):
#   KCACHE/<ver>/baseline.git     the tarball as one commit (bare repo, tag
#                                 debian/<ver>), shared by every tree set
#   KCACHE/<ver>/trees/<id>/      a tree set (<id>: the series it was made for)
#       unpatched/                git worktree at the baseline
#       unpatched/out/            its make O= build directory
#       patched/                  worktree with the series applied by git am
#       patched/out/
#       initramfs.cpio.gz  logs/  boot/  .lock
#   KCACHE/<ver>-<hash>           symlink to the tree set holding that series;
#                                 <hash> covers linux/patches/*.patch and
#                                 linux/aspmctl.config. All paths handed out
#                                 go through it.
# When the series changes, the newest symlink of the same Debian version is
# renamed to the new hash and its trees are updated in place (git checkout +
# git am rewrite only the files that differ). The physical paths never change,
# so Kbuild and objtool rebuild only what depends on the changed files.
#   ASPMCTL_KERNEL_REUSE   1 (default) as above; 0: a new series gets a new
#                          tree set (unpack, full build with ccache)

set -eu
unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE GIT_OBJECT_DIRECTORY GIT_COMMON_DIR
LC_ALL=C
export LC_ALL

: "${LINUX_DIR:?lib.sh: LINUX_DIR is not set}"
REPO_ROOT=$(cd "$LINUX_DIR/.." && pwd)
PROG=${PROG:-$(basename "$0")}

die() {
	printf '%s: error: %s\n' "$PROG" "$*" >&2
	exit 1
}

# The comment block at the top of the running script.
usage() {
	sed -n '4,/^[^#]/{/^#/s/^# \{0,1\}//p;}' "$0"
}

note() {
	printf '%s: %s\n' "$PROG" "$*" >&2
}

LINUX_PKG=${ASPMCTL_LINUX_PKG:-linux-source-6.1}
LINUX_TARBALL=${ASPMCTL_LINUX_TARBALL:-/usr/src/$LINUX_PKG.tar.xz}
FRAGMENT=$LINUX_DIR/aspmctl.config
FRAGMENT_PATCHED=$LINUX_DIR/aspmctl-patched.config
PATCH_DIR=$LINUX_DIR/patches
KARCH=x86_64
# Bump when the way trees are prepared changes, so old trees are not reused.
TREE_FORMAT=3

cache_root() {
	if [ -n "${ASPMCTL_CACHE:-}" ]; then
		printf '%s\n' "$ASPMCTL_CACHE"
	elif [ -n "${XDG_CACHE_HOME:-}" ]; then
		printf '%s\n' "$XDG_CACHE_HOME/aspmctl"
	elif [ -n "${HOME:-}" ]; then
		printf '%s\n' "$HOME/.cache/aspmctl"
	else
		die "neither ASPMCTL_CACHE, XDG_CACHE_HOME nor HOME is set: set ASPMCTL_CACHE"
	fi
}

# Debian version of the installed source package ("" when not installed).
installed_version() {
	dpkg-query -W -f='${Status} ${Version}\n' "$LINUX_PKG" 2>/dev/null |
		awk '$1 == "install" && $3 == "installed" { print $4 }'
}

# The patches of the series, in application order (one path per line).
series_patches() {
	for p in "$PATCH_DIR"/*.patch; do
		[ -f "$p" ] && printf '%s\n' "$p"
	done
	return 0
}

series_hash() {
	{
		echo "aspmctl tree format $TREE_FORMAT arch $KARCH"
		series_patches | while IFS= read -r p; do
			echo "patch ${p##*/}"
			cat "$p"
		done
		echo "config fragment"
		cat "$FRAGMENT"
		echo "patched config fragment"
		cat "$FRAGMENT_PATCHED"
	} | sha256sum | cut -c1-12
}

# Set every path variable. Fails when the version cannot be known.
linux_paths() {
	[ -f "$FRAGMENT" ] || die "config fragment $FRAGMENT is missing"
	CACHE_ROOT=$(cache_root)
	case $CACHE_ROOT in
	/*) ;;
	*) CACHE_ROOT=$(pwd)/$CACHE_ROOT ;;
	esac
	KCACHE=$CACHE_ROOT/linux
	DEBVER=${ASPMCTL_LINUX_VERSION:-$(installed_version)}
	[ -n "$DEBVER" ] ||
		die "$LINUX_PKG is not installed (run scripts/install-deps.sh kernel, or linux/fetch-tree.sh)"
	# A directory and git ref name: no epoch colon, no '~' or other oddities.
	VER_ID=$(printf '%s' "$DEBVER" | tr -c 'A-Za-z0-9._+-' '_')
	SERIES_HASH=$(series_hash)
	KDIR=$KCACHE/$VER_ID-$SERIES_HASH
	BASELINE_DIR=$KCACHE/$VER_ID
	BASELINE_GIT=$BASELINE_DIR/baseline.git
	TREES_DIR=$BASELINE_DIR/trees
	BASE_TAG=debian/$VER_ID
	LOG_DIR=$KDIR/logs
	INITRAMFS=$KDIR/initramfs.cpio.gz
	KERNEL_UNPATCHED=$KDIR/unpatched/out/arch/x86/boot/bzImage
	KERNEL_PATCHED=$KDIR/patched/out/arch/x86/boot/bzImage
}

src_dir() { printf '%s\n' "$KDIR/$1"; }
build_dir() { printf '%s\n' "$KDIR/$1/out"; }

# git isolated from the user's and the system's configuration (signing,
# hooks, aliases), with a fixed identity for the commits it makes here.
# The compiler for kernel builds: ccache when there is one (unless
# ASPMCTL_CCACHE=0), in KCC and KHOSTCC. Paths below the cache are hashed
# relative to the build directory, so both variants, the per-patch steps and
# every series directory share the cached objects.
setup_ccache() {
	if [ "${ASPMCTL_CCACHE:-1}" = 1 ] && command -v ccache >/dev/null; then
		KCC="ccache gcc"
		KHOSTCC="ccache gcc"
		CCACHE_DIR=${CCACHE_DIR:-$CACHE_ROOT/ccache}
		CCACHE_BASEDIR=$KCACHE
		CCACHE_NOHASHDIR=1
		export CCACHE_DIR CCACHE_BASEDIR CCACHE_NOHASHDIR
	else
		[ "${ASPMCTL_CCACHE:-1}" = 0 ] || note "ccache not found: building without it"
		KCC=gcc
		KHOSTCC=gcc
	fi
}

kgit() {
	GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null \
		git -c user.name=aspmctl -c user.email=aspmctl@localhost \
		-c commit.gpgsign=false -c tag.gpgsign=false -c gc.auto=0 \
		-c core.hooksPath=/dev/null -c advice.detachedHead=false "$@"
}

# Seconds as "1m23s".
fmt_secs() {
	if [ "$1" -ge 60 ]; then
		printf '%dm%02ds' $(($1 / 60)) $(($1 % 60))
	else
		printf '%ds' "$1"
	fi
}

# Take an exclusive lock on FILE for the rest of the script (fd 9).
take_lock() {
	mkdir -p "$(dirname "$1")"
	exec 9>"$1"
	if ! flock -n 9; then
		note "waiting for $1 (another build is using this tree)"
		flock 9
	fi
}
