#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# stress.sh [FLAVOUR...]: make stress. Boots the binder=m kernel of each FLAVOUR (default: debug
# then kcsan; debug has lockdep, KASAN, kmemleak, DEBUG_ATOMIC_SLEEP and fault injection; kcsan
# the same with KCSAN in place of KASAN; perf, with no debugging and no fault injection, needs
# FAULTS=0) with MODULE
# built against it, and runs stress/stress-run: reclaim storms, SCHED_FIFO clients, fault
# injection, SIGKILL and munmap/close teardown races for STRESS_SECONDS; then checks that
# nothing failed, leaked (kmemleak, binder's debugfs stats, free memory) or splatted.
# Prints the guest's KTAP lines and counts, then qemu-run.sh's verdict.
# Knobs:
#   STRESS_SECONDS  length of the load (default 600; make check: 180)
#   MODULE          binder_alloc_split (default) or binder_linux (the stock driver)
#   VARIANT         NAME: binder_alloc_split with make bench's hooks and bench/variant-NAME.patch,
#                   one of the bench's designs (bench only), in place of the series alone
#   FIXES           1 (default): MODULE carries the upstream fixes of fixes/, and nothing may be
#                   left over; 0: the unfixed driver, whose leaked dead nodes (an upstream bug,
#                   fixes/dead-node-local-refs.patch) are counted, not failed
#   FAULTS          1 (default): failslab and fail_page_alloc on, for call stacks through
#                   binder_alloc.c; all: through any of the module (meets an upstream bug in
#                   binder.c, see stress/README.md); 0: off
#   STRESS_LOADS    which loads of stress/stress-run run (default: all of
#                   "load mixed fifo kill teardown hog"; aosp, AOSP's binderThroughputTest
#                   with servicemanager (aosp/aosp-build.sh), only when named; x86_64 only)
#   STRESS_KARGS    more kernel command line (kcsan.skip_watch=400 to watch 10 times as many
#                   accesses as KCSAN's default, say)
#   MEM_SLACK_KB    free memory (free_kb, qemu/guest-lib.sh) may end this much below its start
#                   (default 16384 + KASAN's quarantine, 1/32 of the guest's memory, on a
#                   KASAN kernel)
#   and those of qemu-run.sh (TIMEOUT: default STRESS_SECONDS + 600).
# ARCH=arm64: the same on QEMU's arm64 virt machine, kernels, module and binary cross-built.
BAS_ARCH_OK=1 # builds and boots for BAS_ARCH (lib.sh); ARCH reaches the scripts it calls
. "$(dirname "$0")/../scripts/lib.sh"

flavours=("$@")
[ ${#flavours[@]} -gt 0 ] || flavours=(debug kcsan)
for f in "${flavours[@]}"; do
	case $f in debug | kcsan | perf) ;; *) die "unknown stress flavour '$f' (expected debug, kcsan or perf)" ;; esac
done
secs=${STRESS_SECONDS:-600}
[[ $secs =~ ^[0-9]+$ ]] && [ "$secs" -ge 30 ] || die "STRESS_SECONDS='$secs': expected a number of seconds, at least 30"
module=${MODULE:-binder_alloc_split}
case $module in binder_alloc_split | binder_linux) ;; *) die "unknown MODULE '$module' (expected binder_alloc_split or binder_linux)" ;; esac
variant=${VARIANT:-}
if [ -n "$variant" ]; then
	[ -f "$BAS_TOP/bench/variant-$variant.patch" ] || die "VARIANT='$variant': no bench/variant-$variant.patch"
	[ "$module" = binder_alloc_split ] || die "VARIANT=$variant is a variant of the series: not with MODULE=$module"
fi
faults=${FAULTS:-1}
case $faults in 0 | 1 | all) ;; *) die "FAULTS='$faults': expected 0, 1 or all" ;; esac
fixes=${FIXES:-1}
case $fixes in 0 | 1) ;; *) die "FIXES='$fixes': expected 0 or 1" ;; esac
all_loads="load mixed fifo kill teardown hog"
loads=${STRESS_LOADS:-$all_loads}
for l in $loads; do
	[[ " $all_loads aosp " == *" $l "* ]] || die "STRESS_LOADS: unknown load '$l' (have: $all_loads aosp)"
	[ "$l" != aosp ] || [ "$BAS_ARCH" = x86_64 ] || die "STRESS_LOADS: aosp runs on x86_64 only (aosp/README.md)"
done
[ -z "${MEM_SLACK_KB:-}" ] || [[ $MEM_SLACK_KB =~ ^[0-9]+$ ]] || die "MEM_SLACK_KB='$MEM_SLACK_KB': expected a number of kB"

out=${OUT:-$BAS_TOP/out}/stress$BAS_SFX
mkdir -p "$out"
make -s -C "$BAS_TOP/selftests/binder_throughput" OUTPUT="$out" ${BAS_CROSS:+CC="${BAS_CROSS}gcc"} static >"$out/build.log" 2>&1 ||
	die "building binder_throughput failed: $(head -n1 "$out/build.log")"

aosp=()
if [[ " $loads " == *" aosp "* ]]; then
	abin=$("$BAS_TOP/aosp/aosp-build.sh" | tail -n1) || exit 1 # its error said why
	aosp=("$abin/binderThroughputTest:/tests/binderThroughputTest" "$abin/servicemanager:/tests/servicemanager")
fi

rc=0
for flavour in "${flavours[@]}"; do
	bdir=$TREE/build-stock-$flavour-m$BAS_SFX
	"$BAS_TOP/scripts/build-kernel.sh" stock "$flavour" m >/dev/null
	vopts=()
	[ -z "$variant" ] || vopts=(BAS_BENCH=1 BAS_VARIANT="$variant")
	ko=$(env "${vopts[@]}" KDIR=$bdir MODULE=$module FIXES=$fixes "$BAS_TOP/scripts/build-module.sh" | tail -n1)
	alloc_text "$ko" "$out"
	slack=${MEM_SLACK_KB:-16384}
	if [ -z "${MEM_SLACK_KB:-}" ] && grep -q '^CONFIG_KASAN=y' "$bdir/.config"; then
		# KASAN's budget: its quarantine (up to 1/32 of memory, 2G guests), which free_kb's
		# slab shrink now empties, and what a KASAN kernel still holds after a load
		# (stress/README.md has the figures).
		slack=$((slack + 2 * 1024 * 1024 / 32))
	fi
	run=$out/$flavour-$module${variant:+-$variant}
	rm -rf "$run"
	mkdir -p "$run"
	printf 'MODULE=%s\nFIXES=%s\nSECONDS_RUN=%s\nFAULTS=%s\nMEM_SLACK_KB=%s\nLOADS="%s"\n' "$module" \
		"$fixes" "$secs" "$faults" "$slack" "$(echo $loads)" >"$run/stress.conf"
	initrd=$("$BAS_TOP/qemu/mkinitramfs.sh" "$run/stress.cpio" "$BAS_TOP/stress/stress-run:/tests/run" \
		"$BAS_TOP/qemu/guest-lib.sh:/tests/lib.sh" "$run/stress.conf:/tests/stress.conf" "$ko" \
		"$out/binder_throughput-static:/tests/binder_throughput" "$out/alloc-text:/tests/alloc-text" \
		"$out/alloc-skip:/tests/alloc-skip" "${aosp[@]}")
	note "stress: $flavour kernel, $module${variant:+ (variant $variant)}, FIXES=$fixes, $secs s, FAULTS=$faults"
	# KCSAN reports are warnings: under panic_on_warn the first one would end the run. Go on,
	# and let the log scan judge them all: a report with a binder function in its stacks fails
	# the run; one without (the scheduler's, say) is named and not counted.
	args=()
	scope=
	[ "$flavour" != kcsan ] || { args=(-- panic_on_warn=0); scope='binder_[A-Za-z0-9_]*\+0x'; }
	# shellcheck disable=SC2206 # words of a command line
	[ -z "${STRESS_KARGS:-}" ] || args=(-- "${args[@]:1}" ${STRESS_KARGS})
	r=0
	# The kernel reports each allocation that fault injection fails: not a splat here.
	CHECK_LOG_INJECTED_FAULTS=$([ "$faults" = 0 ] && echo 0 || echo 1) CHECK_LOG_KCSAN_SCOPE=$scope \
		TIMEOUT=${TIMEOUT:-$((secs + 600))} "$BAS_TOP/qemu/qemu-run.sh" --kernel "$bdir/$BAS_IMAGE" \
		--initrd "$initrd" --out "$run/guest" "${args[@]}" || r=$?
	guest_results "$run/guest"
	[ "$r" = 0 ] || rc=1
	[ "$flavour" != kcsan ] || kcsan_counted "$run/guest/console.log" stress || rc=1
done
exit "$rc"
