#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# aosp-check.sh (make aosp-check, a stage of make check): AOSP's own binder tests,
# binderDriverInterfaceTest and binderLibTest (aosp-build.sh), against both drivers in one boot
# of the binder=m perf kernel: binder_linux.ko (stock 7.3.4 with the fixes of fixes/) and
# binder_alloc_split.ko (the series), each loaded in turn with servicemanager as context manager
# (aosp/aosp-run). One KTAP line per googletest case and driver (scripts/ktap.py gtest):
#   ok N stock: BinderLibTest.PassFile
# A case of aosp/known-failures (it fails in this guest whatever the driver) is "# SKIP" when it
# fails on both drivers, and a failure when it fails on one only or passes on both. The kernel
# log is scanned for splats (qemu-run.sh). Knobs: OUT (default out/), and those of qemu-run.sh
# (TIMEOUT: default 900 s).
. "$(dirname "$0")/../scripts/lib.sh"

TESTS=binderDriverInterfaceTest,binderLibTest
[ $# = 0 ] || die "usage: aosp-check.sh (no arguments)"
known=$BAS_TOP/aosp/known-failures
[ -f "$known" ] || die "no $known"
bad=$(grep -vE '^[[:space:]]*(#|$)|^[A-Za-z_][A-Za-z0-9_/]*\.[A-Za-z_][A-Za-z0-9_/]*[[:space:]]+[^[:space:]]' "$known" | head -n1 || true)
[ -z "$bad" ] || die "aosp/known-failures: expected 'SUITE.CASE REASON', got '$bad'"
bin=$("$BAS_TOP/aosp/aosp-build.sh" | tail -n1) || exit 1
out=${OUT:-$BAS_TOP/out}/aosp-check
rm -rf "$out"
mkdir -p "$out"
kernel=$("$BAS_TOP/scripts/build-kernel.sh" stock perf m | tail -n1) || die "building the perf binder=m kernel failed"
stock=$(MODULE=binder_linux "$BAS_TOP/scripts/build-module.sh" | tail -n1) || die "building binder_linux.ko failed"
split=$("$BAS_TOP/scripts/build-module.sh" | tail -n1) || die "building binder_alloc_split.ko failed"
echo "$TESTS" | tr , '\n' >"$out/aosp-tests"
files=("$BAS_TOP/aosp/aosp-run:/tests/run" "$BAS_TOP/qemu/guest-lib.sh:/tests/lib.sh"
	"$stock:/tests/ko/00-binder_linux.ko" "$split:/tests/ko/01-binder_alloc_split.ko"
	"$out/aosp-tests:/tests/aosp-tests" "$bin/servicemanager:/tests/servicemanager")
for t in ${TESTS//,/ }; do
	files+=("$bin/$t:/tests/$t")
done
initrd=$("$BAS_TOP/qemu/mkinitramfs.sh" "$out/aosp.cpio" "${files[@]}")
rc=0
# The guest's limits (aosp-run): 2 drivers x 2 tests x (30 + 150 + 10) s, and the boot.
TIMEOUT=${TIMEOUT:-900} "$BAS_TOP/qemu/qemu-run.sh" --kernel "$kernel" --initrd "$initrd" --out "$out/guest" >"$out/verdict" 2>&1 || rc=1
cat "$out/verdict"
# What the plan wrote, as comments of this stage; then a result per case and driver.
sed 's/^/# /' "$out/guest/ktap" 2>/dev/null || true
[ -f "$out/guest/ktap" ] || : >"$out/guest/ktap"
python3 "$BAS_TOP/scripts/ktap.py" gtest "$known" "$out/guest/ktap" stock,split "$TESTS" || rc=1
exit "$rc"
