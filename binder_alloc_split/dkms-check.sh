#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# dkms-check.sh: the DKMS steps of binder_alloc_split/README.md ("On Debian or Ubuntu (DKMS)") on a
# clean Debian, then the module on Debian's own kernel in QEMU (make dkms-check).
#   1. $CACHE/dkms/root: a Debian trixie root (mmdebstrap) with Debian's Linux 7.3.4 from
#      trixie-backports (linux-binary and linux-modules: the kernel a user runs, without
#      bootloader or initramfs), then its apt-get install line in it. Stamp root.ok.
#   2. In it, those commands as written, with -k RELEASE since the root does not run
#      that kernel: cp -r of this repository's files, dkms install, modinfo.
#   3. Debian's vmlinuz in QEMU with binder_alloc_split/dkms-run: insmod the DKMS-built module, Debian's
#      binder_linux.ko refused beside it, binder-smoke on /dev/binder, rmmod.
# A root and not this machine: Debian's 7.3 headers need trixie's gcc-14 and a kbuild built
# against glibc 2.38. Knobs: those of qemu-run.sh (ACCEL, TIMEOUT), OUT.
. "$(dirname "$0")/../scripts/lib.sh"

rel=$KVER+deb13-amd64
src_ver=$(cat "$BAS_TOP/scripts/linux-source.version")
work=$CACHE/dkms
root=$work/root
out=${OUT:-$BAS_TOP/out}/dkms-check
[ "$(uname -m)" = x86_64 ] || die "Debian's amd64 kernel needs an x86_64 host, not $(uname -m)"
[ "$(id -u)" = 0 ] || die "must run as root (mmdebstrap, chroot and dkms)"
for c in mmdebstrap unshare chroot xz gcc; do
	command -v "$c" >/dev/null || die "$c not found (apt-get install mmdebstrap util-linux xz-utils gcc)"
done

# in_root CMD: CMD with sh -eu in the root, a clean environment, /proc, /sys and /dev mounted in
# a mount namespace of its own (the mounts go with it).
in_root() {
	unshare -m sh -c 'mount -t proc proc "$1/proc" && mount -t sysfs sys "$1/sys" &&
		mount --rbind /dev "$1/dev" && exec chroot "$1" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
		HOME=/root DEBIAN_FRONTEND=noninteractive sh -euxc "$2"' sh "$root" "$1"
}

make_root() {
	[ -f "$work/root.ok" ] && return
	rm -rf "$work/root.ok" "$root"
	mkdir -p "$work"
	debian_sources trixie trixie-backports >"$work/sources.list"
	note "making a Debian trixie root with Linux $rel in $root (log: $work/root.log)"
	# force-unsafe-io: a scratch root need not survive a crash; dpkg's syncs cost minutes.
	mmdebstrap --variant=apt --dpkgopt=force-unsafe-io \
		--include="linux-binary-$rel,linux-modules-$rel" trixie "$root" "$work/sources.list" \
		>"$work/root.log" 2>&1 || die "mmdebstrap failed (see $work/root.log)"
	# README.md: the packages. linux-headers-$(uname -r) is linux-headers-$rel here.
	in_root "apt-get update -q; apt-get install -y -q dkms git make gcc linux-headers-$rel linux-source-7.3" \
		>>"$work/root.log" 2>&1 || die "apt-get install of binder_alloc_split/README.md's packages failed (see $work/root.log)"
	local v
	v=$(in_root "dpkg-query -W -f '\${Version}' linux-source-7.3" 2>/dev/null)
	[ "$v" = "$src_ver" ] || die "trixie-backports has linux-source-7.3 $v, not $src_ver (scripts/linux-source.version)"
	echo "$rel $v" >"$work/root.ok"
}
with_lock dkms make_root

# README.md: cp -r of a clone (here: this repository's files as a clone would have them), dkms
# install, modinfo. An earlier run's module is removed first.
log=$work/dkms.log
note "dkms install binder_alloc_split/1.0 -k $rel in $root (log: $log)"
rm -rf "$root/root/binder-alloc-split"
mkdir -p "$root/root/binder-alloc-split"
git -C "$BAS_TOP" ls-files -z -c -o --exclude-standard | (cd "$BAS_TOP" && tar --null -T - -cf -) |
	tar -x -C "$root/root/binder-alloc-split"
in_root "cd /root
	if dkms status binder_alloc_split/1.0 | grep -q .; then dkms remove binder_alloc_split/1.0 --all; fi
	rm -rf /usr/src/binder_alloc_split-1.0
	cp -r binder-alloc-split /usr/src/binder_alloc_split-1.0
	dkms install binder_alloc_split/1.0 -k $rel
	modinfo -k $rel binder_alloc_split" >"$log" 2>&1 ||
	die "dkms install failed: $(grep -m1 -E 'error:|Error!' "$log" || tail -n1 "$log") (see $log)"
grep -E '^(filename|version|vermagic|depends|series_base|patch):' "$log"
moddir=$root/usr/lib/modules/$rel

# The guest: gen_init_cpio.c from the root's linux-source (no kernel tree in this cache),
# binder-smoke (static; the binder uapi is old enough for this machine's headers), the modules
# unpacked: Debian's kernels compress modules (xz), DKMS too, and busybox insmod takes no .ko.xz.
cpio_c=$work/gen_init_cpio.c
if [ ! -f "$cpio_c" ]; then
	tar -xOJf "$root/usr/src/linux-source-7.3.tar.xz" --wildcards '*/usr/gen_init_cpio.c' >"$cpio_c.tmp" ||
		die "no usr/gen_init_cpio.c in $root/usr/src/linux-source-7.3.tar.xz"
	mv "$cpio_c.tmp" "$cpio_c"
fi
uapi=$BAS_TOP/selftests/binder_uapi
gcc -static -O2 -Wall -Wextra -Werror -I "$uapi" -o "$work/binder-smoke" \
	"$BAS_TOP/binder_alloc_split/binder-smoke.c" "$uapi/binder_uapi.c" ||
	die "cannot build binder_alloc_split/binder-smoke.c"
xz -dc "$moddir/updates/dkms/binder_alloc_split.ko.xz" >"$work/binder_alloc_split.ko" ||
	die "dkms install left no updates/dkms/binder_alloc_split.ko.xz in $moddir"
xz -dc "$moddir/kernel/drivers/android/binder_linux.ko.xz" >"$work/binder_linux.ko" ||
	die "no binder_linux.ko.xz in $moddir"
initrd=$(GEN_INIT_CPIO_C=$cpio_c "$BAS_TOP/qemu/mkinitramfs.sh" "$work/dkms.cpio" \
	"$BAS_TOP/binder_alloc_split/dkms-run:/tests/run" "$BAS_TOP/qemu/guest-lib.sh:/tests/lib.sh" \
	"$work/binder-smoke" "$work/binder_alloc_split.ko" "$work/binder_linux.ko")

# Debian's kernel takes its command line from -append only: what our kernels have built in.
rc=0
SMP=${SMP:-1} "$BAS_TOP/qemu/qemu-run.sh" --kernel "$moddir/vmlinuz" --initrd "$initrd" --out "$out" \
	-- console=ttyS0 panic_on_warn=1 reboot=t || rc=$?
guest_results "$out"
exit "$rc"
