#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kunit-module.sh [split|stock|variant-NAME]: the binder_alloc KUnit suite linked into the module
# (build-module.sh BAS_KUNIT=1: binder_alloc_split.ko for split, binder_linux.ko with fixes/ for
# stock, binder_alloc_split.ko with make bench's hooks and bench/variant-NAME.patch, and the KUnit
# cases as that patch leaves them, for variant-NAME), run when kunit/kunit-run loads it on make
# stress's debug binder=m kernel (lockdep, KASAN, kmemleak, DEBUG_VM: a superset of
# kunit/debug.kunitconfig's checks). make check's kunit-debug stage: no kernel of its own to build,
# where kunit.sh debug builds kunit.py's. The results are kunit.sh's, under the same names ("ok N
# kunit-debug ..."), from the console log parsed by kunit.py; the run fails on a failed case, a
# splat (qemu-run.sh's log scan, then /init's kmemleak scan) or a guest that came up with fewer than
# SMP CPUs. Before the boot, kunit.py config checks that kunit.sh's debug flavour
# (kunit/debug.kunitconfig) still resolves on the tree: one more result line, and seconds, not a
# build. Knobs: KUNIT_GLOB (default binder_alloc.binder_alloc_test_*: kunit.sh's KUNIT_SLOW=0), OUT,
# and those of qemu-run.sh (SMP: 2, TIMEOUT).
. "$(dirname "$0")/../scripts/lib.sh"

tree=${1:-split}
vopts=()
case $tree in
split) module=binder_alloc_split ;;
stock) module=binder_linux ;;
variant-?*)
	module=binder_alloc_split vopts=(BAS_BENCH=1 BAS_VARIANT="${tree#variant-}")
	[ -f "$BAS_TOP/bench/$tree.patch" ] || die "unknown tree '$tree': no bench/$tree.patch"
	;;
*) die "unknown tree '$tree' (usage: kunit-module.sh [split|stock|variant-NAME])" ;;
esac
[ $# -le 1 ] || die "usage: kunit-module.sh [split|stock|variant-NAME]"
glob=${KUNIT_GLOB:-binder_alloc.binder_alloc_test_*}
smp=${SMP:-2}
out=${OUT:-$BAS_TOP/out}/kunit-module-$tree
rm -rf "$out"
mkdir -p "$out"

# kunit.py config: the debug flavour's config still resolves (kunit.sh's build dir; no build).
config=OK
KUNIT_CONFIG_ONLY=1 "$BAS_TOP/kunit/kunit.sh" debug "$tree" >"$out/config.log" 2>&1 || config=FAIL

bdir=$TREE/build-stock-debug-m
"$BAS_TOP/scripts/build-kernel.sh" stock debug m >/dev/null
ko=$(env "${vopts[@]}" KDIR=$bdir MODULE=$module BAS_KUNIT=1 "$BAS_TOP/scripts/build-module.sh" | tail -n1) ||
	die "building $module.ko with the KUnit suite failed"
initrd=$("$BAS_TOP/qemu/mkinitramfs.sh" "$out/kunit.cpio" "$BAS_TOP/kunit/kunit-run:/tests/run" \
	"$BAS_TOP/qemu/guest-lib.sh:/tests/lib.sh" "$ko:/tests/$module.ko")
note "kunit-module: $module with the binder_alloc KUnit suite on the debug binder=m kernel, $glob"
why=
SMP=$smp "$BAS_TOP/qemu/qemu-run.sh" --kernel "$bdir/$BAS_IMAGE" --initrd "$initrd" --out "$out/guest" \
	-- kunit.enable=1 kunit.autorun=1 "kunit.filter_glob=$glob" >"$out/verdict" 2>&1 ||
	why=$(sed -n 's/^FAIL: //p' "$out/verdict" | head -n1)
sed 's/^/# /' "$out/guest/ktap" 2>/dev/null || true
log=$out/guest/console.log
python3 "$BAS_TOP/scripts/ktap.py" kunit-log "$TREE/wt-$tree/tools/testing/kunit/kunit.py" \
	"$log" "$out/kunit.json" >"$out/kunit-parse.log" 2>&1 || true
# The cases, as kunit.sh prints them; then this script's own checks.
n=0
bad=0
if [ -s "$out/kunit.json" ]; then
	python3 "$BAS_TOP/scripts/ktap.py" kunit-json kunit-debug "$out/kunit.json" >"$out/cases" || bad=1
	cat "$out/cases"
	n=$(grep -c -E '^(not )?ok ' "$out/cases")
fi
result() { # OK|FAIL DESCRIPTION
	n=$((n + 1))
	if [ "$1" = OK ]; then
		echo "ok $n $2"
	else
		echo "not ok $n $2"
		bad=1
	fi
}
[ -s "$out/kunit.json" ] || result FAIL "kunit-debug: no KUnit results in $log"
result "$config" "kunit-debug: kunit.py config resolves kunit/debug.kunitconfig$([ "$config" = OK ] || echo ": $(tail -n1 "$out/config.log")")"
# The race and rollback cases need real parallelism: the guest must have come up with -smp.
cpus=$(sed -n 's/.*smp: Brought up [0-9]* nodes\{0,1\}, \([0-9]*\) CPUs\{0,1\}.*/\1/p' "$log" | head -n 1)
if [ "${cpus:-0}" -ge "$smp" ]; then
	result OK "kunit-debug: the guest ran on $cpus CPUs"
else
	result FAIL "kunit-debug: the guest brought up ${cpus:-no} CPUs, not $smp"
fi
if [ -z "$why" ]; then
	result OK "kunit-debug: $module loaded, unloaded, kernel log clean, no kmemleak report"
else
	result FAIL "kunit-debug: the boot failed: $why"
fi
echo "1..$n"
[ "$bad" = 0 ] || die "the KUnit suite failed on the debug binder=m kernel (kernel log: $log)"
note "kunit-module: pass ($module, $cpus CPUs)"
