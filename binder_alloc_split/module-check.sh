#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# module-check.sh: the out-of-tree modules in QEMU, on the binder=m perf kernel (make module-check).
# Builds binder_linux.ko (the stock driver with fixups/binder-module-exit.patch),
# binder_alloc_split.ko and a test build of it with a planted leak (planted-leak.diff: the leak
# check must fail on it) against that kernel with build-module.sh, the kernel's binderfs selftest
# (static, with the tree's uapi headers and kselftest harness) and binder_alloc_split/binder-smoke.c, then boots
# binder_alloc_split/module-run. Prints the guest's KTAP lines, then qemu-run.sh's verdict.
# The worktrees are checked against their stamps; the kernel is built only when missing.
# Knobs: those of qemu-run.sh (TIMEOUT, default 600 s).
. "$(dirname "$0")/../scripts/lib.sh"

for t in stock split; do
	"$BAS_TOP/scripts/prepare-tree.sh" "$t" >/dev/null
done
bdir=$TREE/build-stock-perf-m
[ -f "$bdir/bas.ok" ] || "$BAS_TOP/scripts/build-kernel.sh" stock perf m >/dev/null
kernel=$bdir/arch/x86/boot/bzImage
work=$CACHE/module/check
mkdir -p "$work"

hdr=$(uapi_headers)

st=$TREE/wt-stock/tools/testing/selftests
gcc -static -O2 -pthread -isystem "$hdr/usr/include" -I "$st" -o "$work/binderfs_test" \
	"$st/filesystems/binderfs/binderfs_test.c" 2>"$work/selftest.log" ||
	die "cannot build the binderfs selftest (see $work/selftest.log)"
uapi=$BAS_TOP/selftests/binder_uapi
gcc -static -O2 -Wall -Wextra -Werror -isystem "$hdr/usr/include" -I "$uapi" -o "$work/binder-smoke" \
	"$BAS_TOP/binder_alloc_split/binder-smoke.c" "$uapi/binder_uapi.c" ||
	die "cannot build binder_alloc_split/binder-smoke.c"

stock=$(KDIR=$bdir MODULE=binder_linux "$BAS_TOP/scripts/build-module.sh" | tail -n1)
split=$(KDIR=$bdir MODULE=binder_alloc_split "$BAS_TOP/scripts/build-module.sh" | tail -n1)
leaky=$(KDIR=$bdir MODULE=binder_alloc_split BAS_TEST_DIFF="$BAS_TOP/binder_alloc_split/planted-leak.diff" \
	"$BAS_TOP/scripts/build-module.sh" | tail -n1)
initrd=$("$BAS_TOP/qemu/mkinitramfs.sh" "$work/module.cpio" "$BAS_TOP/binder_alloc_split/module-run:/tests/run" \
	"$BAS_TOP/qemu/guest-lib.sh:/tests/lib.sh" \
	"$work/binderfs_test" "$work/binder-smoke" "$stock" "$split" "$leaky:/tests/leaky/binder_alloc_split.ko" \
	"$(find "$bdir/modules" -name binder_linux.ko | head -n1):/tests/intree/binder_linux.ko")

out=${OUT:-$BAS_TOP/out}/module-check
rc=0
"$BAS_TOP/qemu/qemu-run.sh" --kernel "$kernel" --initrd "$initrd" --out "$out" || rc=$?
guest_results "$out"
exit "$rc"
