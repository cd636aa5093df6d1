#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# qemu-smoke.sh [TREE [FLAVOUR [BINDER]]]: build the kernel (stock perf y by default), an
# initramfs with qemu/smoke-run as the test plan (and binder_linux.ko for BINDER=m), and boot it.
. "$(dirname "$0")/../scripts/lib.sh"

tree=${1:-stock} flavour=${2:-perf} binder=${3:-y}
kernel=$("$BAS_TOP/scripts/build-kernel.sh" "$tree" "$flavour" "$binder" | tail -n1)
bdir=${kernel%/arch/x86/boot/bzImage}
mods=()
[ "$binder" = m ] && mods=(-m "$bdir/modules")
initrd=$("$BAS_TOP/qemu/mkinitramfs.sh" "${mods[@]}" "$bdir/smoke.cpio" "$BAS_TOP/qemu/smoke-run:/tests/run" \
	"$BAS_TOP/qemu/guest-lib.sh:/tests/lib.sh")
rc=0
"$BAS_TOP/qemu/qemu-run.sh" --kernel "$kernel" --initrd "$initrd" --out "$bdir/smoke" || rc=$?
guest_results "$bdir/smoke"
exit "$rc"
