#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# build-module.sh: bad input gets one error line naming the problem; a kernel that lacks
# binder's exports is named; a pristine linux-source tarball gets the series applied.
# The last three build against the test bed's binder=m kernel, and are skipped without it.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/scripts/lib.sh"
set +e +o pipefail
tmp=$(mktemp -d)
bm=$top/scripts/build-module.sh
n=0
echo "TAP version 13"
trap 'echo "1..$n"; rm -rf "$tmp"' EXIT

result() { # OK DESC
	n=$((n + 1))
	if [ "$1" = 0 ]; then echo "ok $n $2"; else echo "not ok $n $2"; fi
}
# expect_fail DESC PATTERN ENV...: build-module.sh exits non-zero with one error line matching PATTERN.
expect_fail() {
	local desc=$1 pat=$2 err rc
	shift 2
	err=$(env "$@" "$bm" 2>&1 >/dev/null)
	rc=$?
	[ "$rc" != 0 ] && [ "$(printf '%s\n' "$err" | grep -c "error:")" = 1 ] &&
		printf '%s' "$err" | grep -q -- "$pat"
	result $? "$desc"
	[ "$rc" != 0 ] || echo "# exit 0: $err"
}

# A kernel build dir in appearance only: binder=m (x86_64 or arm64), or no binder at all.
mkdir -p "$tmp/kdir/include/config" "$tmp/nobinder/include/config" "$tmp/arm64/include/config" \
	"$tmp/nort/include/config"
for k in kdir nobinder arm64 nort; do
	: >"$tmp/$k/Makefile"
	: >"$tmp/$k/Module.symvers"
done
printf '%s\n' CONFIG_X86_64=y CONFIG_ANDROID_BINDER_IPC=m CONFIG_RT_MUTEXES=y >"$tmp/kdir/include/config/auto.conf"
printf '%s\n' CONFIG_ARM64=y CONFIG_ANDROID_BINDER_IPC=m CONFIG_RT_MUTEXES=y >"$tmp/arm64/include/config/auto.conf"
printf '%s\n' CONFIG_X86_64=y CONFIG_ANDROID_BINDER_IPC=m >"$tmp/nort/include/config/auto.conf"
echo CONFIG_NET=y >"$tmp/nobinder/include/config/auto.conf"
# A tree whose binder_alloc.c is not 7.3's.
mkdir -p "$tmp/old/drivers/android"
echo '/* not binder */' | tee "$tmp/old/drivers/android/binder.c" >"$tmp/old/drivers/android/binder_alloc.c"
mkdir -p "$tmp/foreign"
echo keep >"$tmp/foreign/file"

expect_fail "unknown MODULE" "unknown MODULE 'foo'" MODULE=foo
expect_fail "FIXES that is not 0, 1 or tests" "FIXES='yes': expected 0, 1 or tests" FIXES=yes
expect_fail "BAS_KUNIT that is not 0 or 1" "BAS_KUNIT='2': expected 0 or 1" BAS_KUNIT=2
expect_fail "FIXES=tests without BAS_KUNIT=1" "FIXES=tests adds KUnit cases only: it needs BAS_KUNIT=1" FIXES=tests
expect_fail "KDIR that is not a build dir" "is not a kernel build dir" KDIR="$tmp"
expect_fail "kernel without binder" "CONFIG_ANDROID_BINDER_IPC is off" KDIR="$tmp/nobinder"
expect_fail "kernel without rt_mutex" "no rt_mutex (CONFIG_RT_MUTEXES is off)" KDIR="$tmp/nort"
expect_fail "KDIR of another architecture" "KDIR=$tmp/arm64 is not an x86_64 kernel (no CONFIG_X86_64=y; ARCH=x86_64)" \
	KDIR="$tmp/arm64"
expect_fail "ARCH=arm64 with an x86_64 KDIR" "KDIR=$tmp/kdir is not an arm64 kernel (no CONFIG_ARM64=y; ARCH=arm64)" \
	-u ACCEL ARCH=arm64 KDIR="$tmp/kdir"
expect_fail "KSRC that does not exist" "KSRC=$tmp/nope does not exist" KDIR="$tmp/kdir" KSRC="$tmp/nope"
expect_fail "MODDIR that is not ours" "is not empty and is not a binder_alloc_split build dir" \
	KDIR="$tmp/kdir" KSRC="$tmp/old" MODDIR="$tmp/foreign"
result "$([ -f "$tmp/foreign/file" ]; echo $?)" "a foreign MODDIR is left alone"
# The fixes go first, the series on them: the first fix is the one that fails here.
expect_fail "KSRC whose binder driver does not take the fixes and the series" "fixes/.*\.patch does not apply to the binder driver" \
	KDIR="$tmp/kdir" KSRC="$tmp/old" MODDIR="$tmp/mod-old"

v=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' "$top/dkms.conf")
[ "$v" = "$(cat "$top/binder_alloc_split/VERSION")" ]
result $? "dkms.conf PACKAGE_VERSION ($v) is binder_alloc_split/VERSION"

# kbuild's M= on the repository: one line that says to run make module.
err=$(make -s -C "$tmp" -f "$top/Kbuild" 2>&1 >/dev/null)
[ "$?" != 0 ] && [ "$(printf '%s\n' "$err" | wc -l)" = 1 ] &&
	printf '%s' "$err" | grep -q 'M= on this repository builds nothing.*run "make module"'
result $? "Kbuild: M= on the repository stops with one line naming make module"

kdir=$TREE/build-stock-perf-m
if [ ! -f "$kdir/bas.ok" ] || [ ! -f "$TREE/wt-stock.ok" ]; then
	for d in "M= on the repository with a real kernel" "missing exports named" "pristine tarball: series applied"; do
		n=$((n + 1))
		echo "ok $n $d # SKIP no binder=m perf kernel ($kdir) or wt-stock"
	done
	exit 0
fi
before=$(git -C "$top" status --porcelain --ignored 2>/dev/null)
err=$(make -s -C "$kdir" M="$top" 2>&1 >/dev/null)
[ "$?" != 0 ] && printf '%s\n' "$err" | grep -c 'M= on this repository builds nothing' | grep -qx 1 &&
	[ "$(git -C "$top" status --porcelain --ignored 2>/dev/null)" = "$before" ]
result $? "M= on the repository with a real kernel: the one line, nothing written"
# The same kernel, but its Module.symvers lacks two of binder's imports.
mkdir -p "$tmp/farm"
for e in "$kdir"/* "$kdir"/.config; do
	case ${e##*/} in Makefile | Module.symvers) ;; *) ln -s "$e" "$tmp/farm/${e##*/}" ;; esac
done
printf 'export KBUILD_OUTPUT = %s\ninclude %s\n' "$tmp/farm" "$(sed -n 's/^include //p' "$kdir/Makefile")" >"$tmp/farm/Makefile"
grep -v -w -e can_nice -e zap_vma_range "$kdir/Module.symvers" >"$tmp/farm/Module.symvers"
expect_fail "missing exports named" "does not export symbols that binder needs: can_nice zap_vma_range" \
	KDIR="$tmp/farm" MODDIR="$tmp/mod-farm"

# Debian's linux-source layout: linux-source-7.3/drivers/android/ in a tarball, without the series.
mkdir -p "$tmp/src/linux-source-7.3/drivers/android"
cp "$TREE/wt-stock"/drivers/android/*.[ch] "$tmp/src/linux-source-7.3/drivers/android/"
tar -C "$tmp/src" -cJf "$tmp/linux-source-7.3.tar.xz" linux-source-7.3
ko=$(KDIR=$kdir KSRC=$tmp/linux-source-7.3.tar.xz MODDIR=$tmp/mod-tar nice -n 15 "$bm" 2>"$tmp/err" | tail -n1)
want=$(ls "$top"/patches/0*.patch | grep -vc /0000-)
got=$(modinfo -F patch "$ko" 2>/dev/null | grep -c '^[0-9]')
grep -q "series applied here" "$tmp/err" && [ "$got" = "$want" ] &&
	modinfo -F series_base "$ko" | grep -qx "Linux $KVER"
result $? "pristine tarball: series applied ($got of $want patches in modinfo)"
