#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# mkinitramfs.sh [-m MODDIR] OUT.cpio FILE[:GUESTPATH]...
# Build the test initramfs (an uncompressed newc cpio, passed to QEMU with -initrd) with the
# kernel tree's usr/gen_init_cpio:
#   /init           qemu/init.c, built static with the host gcc (cached in $CACHE/tools); with
#                   ARCH=arm64 with aarch64-linux-gnu-gcc (libc6-dev-arm64-cross; $CACHE/tools-arm64)
#   /bin/busybox    the host's static busybox (Debian: busybox-static), plus applet symlinks; with
#                   ARCH=arm64 the arm64 build of the same Debian version, fetched with a private
#                   apt configuration into $CACHE/dl (the host's busybox --list names the applets)
#   /dev/console    device node; /dev, /proc, /sys, /tmp, /run mount points
#   FILE            each FILE at GUESTPATH, default /tests/<basename>; /tests/run is the
#                   test plan that /init runs (or bas.run=PATH on the kernel command line)
#   -m MODDIR       a modules staging dir (INSTALL_MOD_PATH of build-kernel.sh: <build>/modules),
#                   copied to /lib/modules/<release>/...
# GEN_INIT_CPIO_C: gen_init_cpio.c to build (default: the cache tree's, fetched if missing).
BAS_ARCH_OK=1 # BAS_ARCH (lib.sh): the guest's architecture
. "$(dirname "$0")/../scripts/lib.sh"

usage="usage: mkinitramfs.sh [-m MODDIR] OUT.cpio FILE[:GUESTPATH]..."
moddir=
while getopts m: opt; do
	case $opt in
	m) moddir=$OPTARG ;;
	*) die "$usage" ;;
	esac
done
shift $((OPTIND - 1))
out=${1:?$usage}
shift

[ -z "$moddir" ] || [ -d "$moddir/lib/modules" ] || die "-m $moddir: no lib/modules in it"

# arm64_busybox: the arm64 busybox-static of the host's busybox-static version, from Debian's
# archive (the suite of this machine's release), unpacked once into $CACHE/dl; prints its path.
arm64_busybox() {
	local apt=$CACHE/apt-arm64 dl=$CACHE/dl ver suite bb opts deb
	ver=$(dpkg-query -W -f '${Version}' busybox-static 2>/dev/null) ||
		die "ARCH=arm64 needs the host's busybox-static package (make deps) to pick the arm64 one"
	bb=$dl/busybox-static-arm64-${ver//[:~]/_}/bin/busybox
	if [ ! -x "$bb" ]; then
		suite=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
		[ -n "$suite" ] || die "no VERSION_CODENAME in /etc/os-release: cannot pick the suite of busybox-static:arm64"
		private_apt opts "$apt"
		opts+=(-o APT::Architecture=arm64 -o APT::Architectures::=arm64)
		mkdir -p "$dl"
		debian_sources "$suite" "$suite-updates" >"$apt/sources.list"
		apt-get "${opts[@]}" update >"$apt/update.log" 2>&1 ||
			die "apt-get update of $suite (arm64) failed (see $apt/update.log)"
		rm -rf "$apt/deb" && mkdir -p "$apt/deb"
		(cd "$apt/deb" && apt-get "${opts[@]}" download "busybox-static:arm64=$ver" >"$apt/download.log" 2>&1) ||
			die "apt-get download busybox-static:arm64=$ver failed (see $apt/download.log)"
		deb=$(ls "$apt"/deb/busybox-static_*_arm64.deb)
		rm -rf "${bb%/bin/busybox}" "${bb%/bin/busybox}.tmp"
		dpkg-deb -x "$deb" "${bb%/bin/busybox}.tmp" || die "cannot unpack $deb"
		mv "${bb%/bin/busybox}.tmp" "${bb%/bin/busybox}"
		[ -x "$bb" ] || die "$deb has no bin/busybox"
	fi
	echo "$bb"
}

# elf_machine FILE: FILE's ELF e_machine, as 4 hex digits (003e: x86_64, 00b7: aarch64).
elf_machine() {
	od -An -tx2 -j18 -N2 "$1" 2>/dev/null | tr -d ' '
}

case $BAS_ARCH in
x86_64)
	# The guest's busybox runs here too: it names its own applets.
	busybox=${BUSYBOX:-$(command -v busybox || true)}
	[ -n "$busybox" ] && [ -x "$busybox" ] || die "busybox not found (apt-get install busybox-static)"
	ldd "$busybox" >/dev/null 2>&1 && die "$busybox is dynamically linked (apt-get install busybox-static)"
	applets=$busybox
	;;
arm64)
	# The guest's busybox cannot run here: the host's names the applets (BUSYBOX must then
	# offer the same ones; the default is the arm64 build of the host's version).
	applets=$(command -v busybox || true)
	[ -n "$applets" ] || die "busybox not found: ARCH=arm64 lists the guest's applets with the host's (apt-get install busybox-static)"
	busybox=${BUSYBOX:-$(with_lock busybox-arm64 arm64_busybox)} || exit 1
	[ -x "$busybox" ] || die "BUSYBOX=$busybox: not an executable"
	[ "$(elf_machine "$busybox")" = 00b7 ] || die "BUSYBOX=$busybox: not an aarch64 ELF binary"
	"${BAS_CROSS}readelf" -l "$busybox" | grep -q 'Requesting program interpreter' &&
		die "$busybox is dynamically linked (a static aarch64 busybox is needed)"
	;;
esac
tools=$CACHE/tools$BAS_SFX cc=${BAS_CROSS}gcc
command -v "$cc" >/dev/null || die "$cc not found (make deps${ARCH:+ ARCH=$ARCH})"
cpio_src=${GEN_INIT_CPIO_C:-$TREE/base/usr/gen_init_cpio.c}
init_src=$BAS_TOP/qemu/init.c
init=$tools/init-$({ cat "$init_src"; echo "$cc $("$cc" -dumpfullversion)"; } | sha256sum | cut -c1-16)

# build_tools: gen_init_cpio, rebuilt when its source is newer, and the static /init, one
# binary per content of init.c and compiler ($tools/init-<hash>: the cache is shared by every
# worktree, whose init.c may be older or newer, and each packs its own).
build_tools() {
	mkdir -p "$tools"
	[ -f "$cpio_src" ] || [ -n "${GEN_INIT_CPIO_C:-}" ] || "$BAS_TOP/scripts/fetch-kernel.sh"
	[ -f "$cpio_src" ] || die "GEN_INIT_CPIO_C=$cpio_src: no such file"
	if [ ! -x "$tools/gen_init_cpio" ] || [ "$cpio_src" -nt "$tools/gen_init_cpio" ]; then
		gcc -O2 -o "$tools/gen_init_cpio.tmp" "$cpio_src" || die "cannot build gen_init_cpio"
		mv "$tools/gen_init_cpio.tmp" "$tools/gen_init_cpio"
	fi
	if [ ! -x "$init" ]; then
		$cc -static -O2 -Wall -Werror -s -o "$init.tmp" "$init_src" ||
			die "cannot build $init_src with $cc (static glibc: make deps${ARCH:+ ARCH=$ARCH})"
		mv "$init.tmp" "$init"
	fi
}
with_lock "tools$BAS_SFX" build_tools

spec=$(mktemp)
trap 'rm -f "$spec"' EXIT
declare -A dirs=()
# add_dir PATH: a dir line for PATH and each of its parents, once.
add_dir() {
	local d=$1
	[ "$d" = / ] || [ -n "${dirs[$d]:-}" ] && return
	add_dir "$(dirname "$d")"
	dirs[$d]=1
	echo "dir $d 755 0 0" >>"$spec"
}
add_file() { # HOST GUEST
	local mode
	mode=$(stat -L -c %a "$1") || die "cannot read $1"
	add_dir "$(dirname "$2")"
	echo "file $2 $(realpath "$1") $mode 0 0" >>"$spec"
}

for d in /dev /proc /sys /tmp /run /bin /sbin /tests; do add_dir $d; done
echo "nod /dev/console 600 0 0 c 5 1" >>"$spec"
add_file "$init" /init
add_file "$busybox" /bin/busybox
for a in $("$applets" --list); do
	[ "$a" = busybox ] || echo "slink /bin/$a busybox 777 0 0" >>"$spec"
done

for f in "$@"; do
	host=${f%%:*}
	guest=/tests/$(basename "$host")
	[ "$host" = "$f" ] || guest=${f#*:}
	case $guest in /*) ;; *) die "guest path '$guest' is not absolute" ;; esac
	[ -f "$host" ] || die "$host: no such file"
	add_file "$host" "$guest"
done

if [ -n "$moddir" ]; then
	while IFS= read -r p; do
		if [ -d "$moddir/$p" ]; then
			add_dir "/$p"
		elif [ -f "$moddir/$p" ]; then
			add_file "$moddir/$p" "/$p"
		fi
	done < <(cd "$moddir" && find lib/modules ! -type l | sort)
fi

mkdir -p "$(dirname "$out")"
"$tools/gen_init_cpio" "$spec" >"$out.tmp" || die "gen_init_cpio failed"
mv "$out.tmp" "$out"
echo "$out"
