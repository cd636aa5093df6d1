#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# selftest.sh [PLAN...]: the binder_throughput selftest in QEMU. Builds the static binaries
# (binder_throughput, binder_prio_reclaim), an initramfs with selftest/selftest-run as
# /tests/run and the cases of each PLAN (selftests/binder_throughput/plans/PLAN; default:
# check, which adds selftests/binder_prio_reclaim/cases), boots the kernel, and prints a
# KTAP line per case from the guest's "selftest: ok|not ok NAME" lines.
# Knobs: MODULE (see below), KERNEL (bzImage; with MODULE=builtin default the stock perf
# kernel with binder built in, built by build-kernel.sh unless its bas.ok stamp is there), KOS
# (.ko files, loaded with insmod in the order given before the plan runs; KERNEL must then be
# their kernel), TIMEOUT (QEMU wall clock, default 600), OUT, and the knobs of qemu-run.sh.
# ARCH=arm64: the same on QEMU's arm64 virt machine, kernel, module and binary cross-built.
BAS_ARCH_OK=1 # builds and boots for BAS_ARCH (lib.sh); ARCH reaches the scripts it calls
. "$(dirname "$0")/../scripts/lib.sh"

plans=("$@")
[ ${#plans[@]} -gt 0 ] || plans=(check)
pdir=$BAS_TOP/selftests/binder_throughput/plans
for p in "${plans[@]}"; do
	[ -f "$pdir/$p" ] || die "unknown plan '$p' (have: $(ls "$pdir" | tr '\n' ' '))"
done

# MODULE: the driver under test. binder_alloc_split (the series; the default unless KERNEL= is
# given) or binder_linux (the stock driver): that module, built out of tree by build-module.sh,
# on the test bed's binder=m perf kernel (KERNEL and KOS are then set here). builtin: the stock
# driver built into the perf kernel (or KERNEL=).
[ -n "${KERNEL:-}" ] || MODULE=${MODULE:-binder_alloc_split}
case ${MODULE:-} in
'' | builtin) ;;
binder_linux | binder_alloc_split)
	KOS=$(MODULE=$MODULE "$BAS_TOP/scripts/build-module.sh" | tail -n1) || die "building $MODULE.ko failed"
	KERNEL=$TREE/build-stock-perf-m$BAS_SFX/$BAS_IMAGE
	;;
*) die "unknown MODULE '$MODULE' (expected binder_alloc_split, binder_linux or builtin)" ;;
esac

kernel=${KERNEL:-}
if [ -z "$kernel" ]; then
	build=$TREE/build-stock-perf-y$BAS_SFX
	if [ -f "$build/bas.ok" ]; then
		kernel=$build/$BAS_IMAGE
	else
		kernel=$("$BAS_TOP/scripts/build-kernel.sh" stock perf y | tail -n1)
	fi
fi
[ -f "$kernel" ] || die "KERNEL=$kernel: no such file"
case ${MODULE:-} in
binder_linux | binder_alloc_split) note "selftest: the $MODULE module on the binder=m perf kernel" ;;
builtin) note "selftest: the stock driver built into ${KERNEL:-the perf kernel}, not the series" ;;
esac

files=("$BAS_TOP/selftest/selftest-run:/tests/run" "$BAS_TOP/qemu/guest-lib.sh:/tests/lib.sh")
i=0
for ko in ${KOS:-}; do
	[ -f "$ko" ] || die "KOS: $ko: no such file"
	files+=("$ko:/tests/ko/$(printf %02d $i)-$(basename "$ko")")
	i=$((i + 1))
done

out=${OUT:-$BAS_TOP/out}/selftest${MODULE:+-$MODULE}$BAS_SFX
rm -rf "$out"
mkdir -p "$out"
for t in binder_throughput binder_prio_reclaim; do
	make -s -C "$BAS_TOP/selftests/$t" OUTPUT="$out" ${BAS_CROSS:+CC="${BAS_CROSS}gcc"} static >"$out/build.log" 2>&1 ||
		die "building $t failed: $(head -n1 "$out/build.log")"
	files+=("$out/$t-static:/tests/$t")
done

# The plan check also runs binder_prio_reclaim's short cases (its file "cases").
for p in "${plans[@]}"; do
	grep -v -e '^#' -e '^$' "$pdir/$p"
	[ "$p" != check ] || grep -v -e '^#' -e '^$' "$BAS_TOP/selftests/binder_prio_reclaim/cases"
done >"$out/cases"
files+=("$out/cases:/tests/cases" "$BAS_TOP/selftests/binder_throughput/run_cases.sh:/tests/run_cases.sh")
initrd=$("$BAS_TOP/qemu/mkinitramfs.sh" "$out/selftest.cpio" "${files[@]}")

rc=0
# The reclaim tracepoint on from boot: see selftest/selftest-run.
"$BAS_TOP/qemu/qemu-run.sh" --kernel "$kernel" --initrd "$initrd" --out "$out/guest" \
	-- trace_event=binder:binder_unmap_kernel_end || rc=1
# run_cases.sh's KTAP, from the result device: one result per case of the plan, in its order.
log=$out/guest/ktap
[ -f "$log" ] || : >"$log" # no boot: every case is then "no result from the guest"
fails=0
# A skipped case tested nothing: in make check it fails, as a case that did not pass.
python3 "$BAS_TOP/scripts/ktap.py" expect --no-skip "$out/cases" "$log" || fails=1
# The figures of each case, prefixed with its name.
awk '
	/^# === / { name = $3 }
	/^# # (iterations per sec|average|50%|reclaimed pages|binder memory|cpu utilisation):/ {
		print "# " name " " substr($0, 5)
	}' "$log"
[ "$fails" = 0 ] && [ "$rc" = 0 ]
