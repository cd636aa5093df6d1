#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Provide the pristine kernel tree as a git repo in the cache:
#   $TREE/base, one baseline commit tagged v7.3.4-base, and the stamp $TREE/base.ok.
# Source: KSRC= (a user's Linux 7.3 tree, copied, never modified), or Debian's
# linux-source-7.3 binary package, fetched with a private apt configuration whose
# archive URI is read from this machine's apt sources, and checked against a pinned sha256.
BAS_ARCH_OK=1 # the source tree is the same for every ARCH
. "$(dirname "$0")/lib.sh"

# Debian's linux-source-7.3 from trixie-backports (Linux 7.3.4).
DEB_PKG=linux-source-7.3
DEB_VER=${DEB_VER:-$(cat "$BAS_TOP/scripts/linux-source.version")}
DEB_SHA256=${DEB_SHA256:-$(cat "$BAS_TOP/scripts/linux-source.sha256")}
DEB_SUITE=trixie-backports

download_deb() {
	local apt=$CACHE/apt dl=$CACHE/dl deb
	deb=$dl/${DEB_PKG}_${DEB_VER}_all.deb
	if [ -f "$deb" ] && echo "$DEB_SHA256  $deb" | sha256sum -c --status; then
		echo "$deb"
		return
	fi
	command -v apt-get >/dev/null || die "apt-get not found: cannot fetch $DEB_PKG (pass KSRC=)"
	local opts
	private_apt opts "$apt"
	mkdir -p "$dl"
	debian_sources "$DEB_SUITE" >"$apt/sources.list"
	note "fetching $DEB_PKG=$DEB_VER from $DEB_SUITE"
	apt-get "${opts[@]}" update >"$apt/update.log" 2>&1 ||
		die "apt-get update of $DEB_SUITE failed (see $apt/update.log)"
	rm -f "$dl"/*.partial
	(cd "$dl" && apt-get "${opts[@]}" download "$DEB_PKG=$DEB_VER" >"$apt/download.log" 2>&1) ||
		die "apt-get download $DEB_PKG=$DEB_VER failed (see $apt/download.log)"
	[ -f "$deb" ] || die "apt-get download did not produce $deb"
	if ! echo "$DEB_SHA256  $deb" | sha256sum -c --status; then
		mv "$deb" "$deb.bad"
		die "checksum mismatch for $deb (expected sha256 $DEB_SHA256; kept as $deb.bad)"
	fi
	echo "$deb"
}

# check_linux DIR: DIR must be a Linux 7.3 source tree with binder_alloc.
check_linux() {
	local mk=$1/Makefile
	[ -d "$1" ] || die "KSRC=$1 does not exist"
	[ -f "$mk" ] && [ -f "$1/drivers/android/binder_alloc.c" ] ||
		die "KSRC=$1 is not a Linux source tree (no Makefile or drivers/android/binder_alloc.c)"
	local v p
	v=$(sed -n 's/^VERSION = //p' "$mk")
	p=$(sed -n 's/^PATCHLEVEL = //p' "$mk")
	[ "$v.$p" = 7.3 ] || die "KSRC=$1 is Linux $v.$p, not 7.3"
}

# make_base EXTRACT...: run EXTRACT DIR to fill DIR with the tree, then make it
# a git repo whose baseline commit is reproducible (fixed author, date, message).
make_base() {
	local tmp=$TREE/base.tmp
	rm -rf "$tmp" "$TREE/base" "$TREE/base.ok"
	mkdir -p "$tmp"
	"$@" "$tmp"
	# Debian's tree ignores everything at its top level (the "Debian packaging"
	# block at the end of .gitignore): drop that block so that git sees the tree.
	if grep -q '^# Debian packaging' "$tmp/.gitignore" 2>/dev/null; then
		sed -i '/^# Debian packaging/,$d' "$tmp/.gitignore"
	fi
	(
		cd "$tmp"
		export GIT_AUTHOR_NAME=binder-alloc-split GIT_AUTHOR_EMAIL=base@binder-alloc-split.invalid
		export GIT_COMMITTER_NAME=$GIT_AUTHOR_NAME GIT_COMMITTER_EMAIL=$GIT_AUTHOR_EMAIL
		export GIT_AUTHOR_DATE='2026-01-01T00:00:00Z' GIT_COMMITTER_DATE='2026-01-01T00:00:00Z'
		git init -q -b base
		git config core.autocrlf false
		git config gc.auto 0
		git add -A -f
		git commit -q --no-verify -m "Linux $KVER baseline" -m "Imported by binder-alloc-split."
		git tag "$BASE_TAG"
	)
	mv "$tmp" "$TREE/base"
	git -C "$TREE/base" rev-parse HEAD >"$TREE/base.ok"
}

extract_ksrc() {
	tar -C "$KSRC" --exclude=.git -cf - . | tar -x -C "$1"
}

extract_deb() {
	dpkg-deb --fsys-tarfile "$DEB" | tar -xO "./usr/src/$DEB_PKG.tar.xz" |
		xz -dc -T0 | tar -x -C "$1" --no-same-owner --strip-components=1
}

fetch() {
	[ -f "$TREE/base.ok" ] && [ -d "$TREE/base/.git" ] && return
	mkdir -p "$TREE"
	if [ -n "${KSRC:-}" ]; then
		check_linux "$KSRC"
		note "importing KSRC=$KSRC into $TREE/base"
		make_base extract_ksrc
	else
		DEB=$(download_deb)
		note "extracting $DEB into $TREE/base"
		make_base extract_deb
	fi
	note "kernel tree ready: $TREE/base ($(cat "$TREE/base.ok"))"
}

with_lock "$(tree_id)" fetch
