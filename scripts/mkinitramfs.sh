#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# mkinitramfs.sh [-m MODDIR] OUT.cpio FILE[:GUESTPATH]...
# Build the test initramfs (an uncompressed newc cpio, passed to QEMU with -initrd) with the
# kernel tree's usr/gen_init_cpio:
#   /init           qemu/init.c, built static with the host gcc (cached in $CACHE/tools)
#   /bin/busybox    the host's static busybox (Debian: busybox-static), plus applet symlinks
#   /dev/console    device node; /dev, /proc, /sys, /tmp, /run mount points
#   FILE            each FILE at GUESTPATH, default /tests/<basename>; /tests/run is the
#                   test plan that /init runs (or bas.run=PATH on the kernel command line)
#   -m MODDIR       a modules staging dir (INSTALL_MOD_PATH of build-kernel.sh: <build>/modules),
#                   copied to /lib/modules/<release>/...
# GEN_INIT_CPIO_C: gen_init_cpio.c to build (default: the cache tree's, fetched if missing).
. "$(dirname "$0")/lib.sh"

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

busybox=${BUSYBOX:-$(command -v busybox || true)}
[ -n "$busybox" ] && [ -x "$busybox" ] || die "busybox not found (apt-get install busybox-static)"
ldd "$busybox" >/dev/null 2>&1 && die "$busybox is dynamically linked (apt-get install busybox-static)"
[ -z "$moddir" ] || [ -d "$moddir/lib/modules" ] || die "-m $moddir: no lib/modules in it"

tools=$CACHE/tools
cpio_src=${GEN_INIT_CPIO_C:-$TREE/base/usr/gen_init_cpio.c}
init_src=$BAS_TOP/qemu/init.c

# build_tools: gen_init_cpio and the static /init, rebuilt when their source is newer.
build_tools() {
	mkdir -p "$tools"
	[ -f "$cpio_src" ] || [ -n "${GEN_INIT_CPIO_C:-}" ] || "$BAS_TOP/scripts/fetch-kernel.sh"
	[ -f "$cpio_src" ] || die "GEN_INIT_CPIO_C=$cpio_src: no such file"
	if [ ! -x "$tools/gen_init_cpio" ] || [ "$cpio_src" -nt "$tools/gen_init_cpio" ]; then
		gcc -O2 -o "$tools/gen_init_cpio.tmp" "$cpio_src" || die "cannot build gen_init_cpio"
		mv "$tools/gen_init_cpio.tmp" "$tools/gen_init_cpio"
	fi
	if [ ! -x "$tools/init" ] || [ "$init_src" -nt "$tools/init" ]; then
		gcc -static -O2 -Wall -Werror -s -o "$tools/init.tmp" "$init_src" ||
			die "cannot build $init_src (static glibc: apt-get install libc6-dev)"
		mv "$tools/init.tmp" "$tools/init"
	fi
}
with_lock tools build_tools

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
add_file "$tools/init" /init
add_file "$busybox" /bin/busybox
for a in $("$busybox" --list); do
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
