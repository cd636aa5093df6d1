#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# suites.sh FLAVOUR MODULE DIR: every suite in one boot (suites/suites-run), for make coverage
# (coverage/coverage.sh) and make rt (rt/rt.sh). Builds MODULE (binder_alloc_split or
# binder_linux) against the binder=m kernel of FLAVOUR (debug or rt) with the binder_alloc KUnit
# suite and KCOV (BAS_KUNIT=1 BAS_KCOV=1; BAS_GCOV=1 passes through, for make coverage), boots it,
# and runs KUnit (at load; all but the slow-marked exhaustive case), the selftest's check plan, the fixes' reproducers, stress-run's loads
# with fault injection and the fuzzer. Writes DIR/guest (qemu-run.sh's --out) and DIR/moddir
# (the module's build dir); prints the guest's results; exits non-zero when the run failed.
# Knobs: SUITES_STRESS_SECONDS (default 120), SUITES_FUZZ_SECONDS (default 300), FUZZ_SEED
# (default 1), and those of qemu-run.sh (TIMEOUT: default both lengths + 1200 s).
. "$(dirname "$0")/../scripts/lib.sh"

usage="usage: suites.sh debug|rt binder_alloc_split|binder_linux DIR"
[ $# = 3 ] || die "$usage"
flavour=$1 module=$2 run=$3
case $flavour in debug | rt) ;; *) die "unknown flavour '$flavour' ($usage)" ;; esac
case $module in binder_alloc_split | binder_linux) ;; *) die "unknown module '$module' ($usage)" ;; esac
ssecs=${SUITES_STRESS_SECONDS:-120}
[[ $ssecs =~ ^[0-9]+$ ]] && [ "$ssecs" -ge 30 ] || die "SUITES_STRESS_SECONDS='$ssecs': expected a number of seconds, at least 30"
fsecs=${SUITES_FUZZ_SECONDS:-300}
[[ $fsecs =~ ^[0-9]+$ ]] && [ "$fsecs" -ge 10 ] || die "SUITES_FUZZ_SECONDS='$fsecs': expected a number of seconds, at least 10"
seed=${FUZZ_SEED:-1}
[[ $seed =~ ^([0-9]+|0x[0-9a-fA-F]+)$ ]] || die "FUZZ_SEED='$seed': expected a decimal or 0x-hex number"

rm -rf "$run"
mkdir -p "$run"
bdir=$TREE/build-stock-$flavour-m
"$BAS_TOP/scripts/build-kernel.sh" stock "$flavour" m >/dev/null
hdr=$(uapi_headers)
make -s -C "$BAS_TOP/selftests/binder_throughput" OUTPUT="$run" static >"$run/build-bt.log" 2>&1 ||
	die "building binder_throughput failed: $(head -n1 "$run/build-bt.log")"
make -s -C "$BAS_TOP/selftests/binder_fixes" OUTPUT="$run" KSFT="$TREE/wt-stock/tools/testing/selftests" \
	KHDR_INCLUDES="-isystem $hdr/usr/include" static >"$run/build-fixes.log" 2>&1 ||
	die "building selftests/binder_fixes failed: $(head -n1 "$run/build-fixes.log")"
make -s -C "$BAS_TOP/selftests/binder_fuzz" OUTPUT="$run" static >"$run/build-fuzz.log" 2>&1 ||
	die "building binder_fuzz failed: $(head -n1 "$run/build-fuzz.log")"
grep -v -e '^#' -e '^$' "$BAS_TOP/selftests/binder_throughput/plans/check" >"$run/cases"

ko=$(KDIR=$bdir MODULE=$module BAS_KUNIT=1 BAS_KCOV=1 "$BAS_TOP/scripts/build-module.sh" | tail -n1)
dirname "$ko" >"$run/moddir"
alloc_text "$ko" "$run"
slack=$((16384 + 2 * 1024 * 1024 / 32)) # KASAN's quarantine: see stress/stress.sh
printf 'MODULE=%s\nFIXES=1\nSECONDS_RUN=%s\nFAULTS=1\nMEM_SLACK_KB=%s\nLOADS="%s"\n' "$module" "$ssecs" \
	"$slack" "load mixed fifo kill teardown hog" >"$run/stress.conf"
printf 'MODULE=%s\nFUZZ_ARGS="-s %s -t %s -k"\n' "$module" "$seed" "$fsecs" >"$run/suites.conf"
initrd=$("$BAS_TOP/qemu/mkinitramfs.sh" "$run/suites.cpio" "$BAS_TOP/suites/suites-run:/tests/run" \
	"$BAS_TOP/qemu/guest-lib.sh:/tests/lib.sh" "$run/suites.conf:/tests/suites.conf" "$ko" \
	"$BAS_TOP/stress/stress-run:/tests/stress-run" "$run/stress.conf:/tests/stress.conf" \
	"$run/binder_throughput-static:/tests/binder_throughput" "$run/cases:/tests/cases" \
	"$BAS_TOP/selftests/binder_throughput/run_cases.sh:/tests/run_cases.sh" \
	"$run/binder_fixes-static:/tests/binder_fixes" "$run/binder_fuzz-static:/tests/binder_fuzz" \
	"$run/alloc-text:/tests/alloc-text" "$run/alloc-skip:/tests/alloc-skip")
note "suites: $flavour kernel, $module$([ "${BAS_GCOV:-0}" = 0 ] || echo " with gcov"): KUnit, selftest, fixes, $ssecs s of stress, $fsecs s of fuzz"
rc=0
# Fault injection (stress-run) makes the kernel report failed allocations: not splats here.
CHECK_LOG_INJECTED_FAULTS=1 TIMEOUT=${TIMEOUT:-$((ssecs + fsecs + 1200))} "$BAS_TOP/qemu/qemu-run.sh" \
	--kernel "$bdir/$BAS_IMAGE" --initrd "$initrd" --out "$run/guest" \
	-- kunit.enable=1 kunit.autorun=1 'kunit.filter=speed>slow' || rc=$?
guest_results "$run/guest"
exit "$rc"
