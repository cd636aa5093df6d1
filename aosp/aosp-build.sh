#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# aosp-build.sh: AOSP's binder tests (binderDriverInterfaceTest, binderLibTest,
# binderThroughputTest) and the C servicemanager of Android 10, as static binaries in the
# cache; prints their directory last. Sources: Debian's source packages FN_PKG and PT_PKG
# (versions below), fetched with apt-get source --download-only under a private apt
# configuration (deb-src lines; the archive's URI read from this machine's apt sources),
# unpacked once into $CACHE/aosp/src-<id>: android-platform-tools with dpkg-source (Debian's
# patches applied), frameworks-native from its orig tarball (the archive lacks its Debian
# tarball), then aosp/patches/*.patch (each says why in its first line). aosp/Makefile builds
# them; a stamp in the build directory makes it once per sources, patches, Makefile and clang.
BAS_ARCH_OK=1 # ARCH=arm64 is refused below, with the reason
. "$(dirname "$0")/../scripts/lib.sh"

FN_PKG=android-platform-frameworks-native FN_VER=1:10.0.0+r36-1
PT_PKG=android-platform-tools PT_VER=29.0.6-28
SUITE=bookworm # both packages' suite

AOSP_BINS="binderDriverInterfaceTest binderLibTest binderThroughputTest servicemanager"
[ $# = 0 ] || die "usage: aosp-build.sh (no arguments)"
[ "$BAS_ARCH" = x86_64 ] ||
	die "ARCH=$BAS_ARCH: AOSP's binder tests are built for x86_64 only (an arm64 build needs a cross libstdc++, g++-aarch64-linux-gnu, not among make deps)"
command -v clang++ >/dev/null || die "clang++ not found: run make deps (it installs clang)"
[ -f /usr/src/googletest/googletest/src/gtest-all.cc ] ||
	die "no /usr/src/googletest: run make deps (it installs googletest)"
command -v dpkg-source >/dev/null || die "dpkg-source not found: run make deps (dpkg-dev)"

dl=$CACHE/aosp/dl
fn_orig=${FN_PKG}_${FN_VER#*:}; fn_orig=${fn_orig%-*}.orig.tar.gz
pt_dsc=${PT_PKG}_${PT_VER}.dsc
# What apt-get source gives: frameworks-native's orig tarball (its Debian tarball and .dsc are
# not used), android-platform-tools' .dsc and both its tarballs.
files=("$fn_orig" "$pt_dsc" "${PT_PKG}_${PT_VER%-*}.orig.tar.gz" "${PT_PKG}_${PT_VER}.debian.tar.xz")

# fetch: both source packages into $dl, unless there already.
fetch() {
	local f missing=0
	for f in "${files[@]}"; do
		[ -f "$dl/$f" ] || missing=1
	done
	[ "$missing" = 1 ] || return 0
	command -v apt-get >/dev/null || die "apt-get not found: cannot fetch $FN_PKG and $PT_PKG"
	local apt=$CACHE/aosp/apt opts
	private_apt opts "$apt"
	debian_sources "$SUITE" | sed 's/^deb /deb-src /' >"$apt/sources.list"
	note "fetching the source packages $FN_PKG=$FN_VER and $PT_PKG=$PT_VER"
	apt-get "${opts[@]}" update >"$apt/update.log" 2>&1 ||
		die "apt-get update of $SUITE's sources failed (see $apt/update.log)"
	mkdir -p "$dl"
	# frameworks-native's Debian tarball is missing from the archive (404): apt-get fails
	# for it, and what it fetched is checked here, file by file.
	(cd "$dl" && apt-get "${opts[@]}" source --download-only "$FN_PKG=$FN_VER" "$PT_PKG=$PT_VER") \
		>"$apt/source.log" 2>&1 || true
	for f in "${files[@]}"; do
		[ -f "$dl/$f" ] || die "apt-get source did not fetch $f (see $apt/source.log)"
	done
}

# unpack: $src, the tree aosp/Makefile builds from, with our patches, or nothing.
unpack() {
	[ -f "$src/src.ok" ] && return
	rm -rf "$CACHE"/aosp/src-* # older sources and patches: never trusted again
	mkdir -p "$src.tmp/frameworks/native"
	tar xzf "$dl/$fn_orig" -C "$src.tmp/frameworks/native" libs/binder libs/binderthreadstate cmds/servicemanager ||
		die "cannot unpack $dl/$fn_orig"
	local p
	for p in "$BAS_TOP"/aosp/patches/*.patch; do
		[ -e "$p" ] || continue
		patch -d "$src.tmp/frameworks/native" -p1 -N -s --dry-run <"$p" >/dev/null 2>&1 ||
			die "aosp/patches/${p##*/} does not apply to $FN_PKG $FN_VER"
		patch -d "$src.tmp/frameworks/native" -p1 -N -s <"$p" >/dev/null
	done
	# dpkg-source checks the tarballs against the .dsc: a bad download is removed, for the next
	# run to fetch again.
	if ! dpkg-source --no-copy -x "$dl/$pt_dsc" "$src.tmp/pt" >"$CACHE/aosp/dpkg-source.log" 2>&1; then
		rm -f "${files[@]/#/$dl/}"
		die "dpkg-source -x $dl/$pt_dsc failed, the downloads removed (see $CACHE/aosp/dpkg-source.log)"
	fi
	mv "$src.tmp/pt/system" "$src.tmp/system" && rm -rf "$src.tmp/pt"
	echo "$id" >"$src.tmp/src.ok"
	mv "$src.tmp" "$src"
}

# build: the binaries in $out, or nothing.
build() {
	[ -f "$out/aosp.ok" ] && return
	rm -rf "$CACHE"/aosp/build-*
	mkdir -p "$out"
	note "building AOSP's binder tests into $out"
	make -f "$BAS_TOP/aosp/Makefile" -j"$(nproc)" SRC="$src" O="$out" >"$out/build.log" 2>&1 ||
		die "building AOSP's binder tests failed: $(grep -m1 -E 'error' "$out/build.log" || tail -n1 "$out/build.log") (see $out/build.log)"
	local b
	for b in $AOSP_BINS; do
		[ -x "$out/$b" ] || die "building AOSP's binder tests did not make $b (see $out/build.log)"
	done
	echo "$key" >"$out/aosp.ok"
}

# One lock over the fetch, the unpack and the build: each prunes what an older run left.
aosp_build() {
	fetch
	id=$( (cat "$dl/$fn_orig" "$dl/$pt_dsc" | sha1sum; cat "$BAS_TOP"/aosp/patches/*.patch) | sha1sum | cut -c1-12)
	src=$CACHE/aosp/src-$id
	unpack
	key=$( (echo "$id"; cat "$BAS_TOP/aosp/Makefile" "$BAS_TOP"/aosp/compat/*.c "$BAS_TOP"/aosp/compat/sys/*.h
		clang++ --version | head -n1; dpkg-query -W googletest 2>/dev/null) | sha1sum | cut -c1-12)
	out=$CACHE/aosp/build-$key
	build
	echo "$out"
}
with_lock aosp aosp_build || exit 1
