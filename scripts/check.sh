#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# check.sh [STAGE...]: the project's test command (make check).
# Runs each stage, keeps its output in $OUT/check/STAGE.log, counts its KTAP
# result lines ("ok N ..." / "not ok N ..."; a stage that prints none counts as
# one result by its exit code), prints per-stage timings, and ends with one line
# "N passed, N failed". Exits non-zero when anything failed.
# On x86_64 (make check) one stage is cross-built: KUnit's plain flavour on QEMU's arm64
# virt machine (kunit-plain-arm64), under TCG whatever ACCEL says for the x86 guests: there
# is no arm64 KVM on an x86_64 host. qemu/README.md ("arm64") has what it costs.
# ARCH=arm64 (make check-arm64): the arm64 stages instead, on QEMU's arm64 virt machine:
# KUnit in both flavours, the selftest on both drivers, 180 s of stress on debug and kcsan.
BAS_ARCH_OK=1 # BAS_ARCH (lib.sh) picks the list of stages
. "$(dirname "$0")/lib.sh"
set +e

OUT=${OUT:-$BAS_TOP/out}
export OUT
S=$BAS_TOP/scripts
mkdir -p "$OUT/check"

# name: command (run from the repo top)
STAGES=(
	"host:make -s host-tests"
	"fetch:$S/fetch-kernel.sh"
	"series:$BAS_TOP/send/series.sh check"
	"kunit-plain:env KUNIT_SLOW=0 $BAS_TOP/kunit/kunit.sh plain split"
	"kunit-debug:$BAS_TOP/kunit/kunit-module.sh split"
	"kunit-plain-arm64:env ARCH=arm64 ACCEL=tcg KUNIT_SLOW=0 $BAS_TOP/kunit/kunit.sh plain split"
	"kunit-exhaustive:env KUNIT_EXHAUSTIVE_FLAVOUR=plain $BAS_TOP/kunit/kunit-exhaustive.sh split 625 0"
	"qemu-smoke:$BAS_TOP/qemu/qemu-smoke.sh stock perf m"
	"bench-build:env BENCH_BUILD_ONLY=1 BENCH_BOOTS=perf BENCH_VARIANTS=all $BAS_TOP/bench/bench.sh"
	"module:$S/build-module.sh"
	"fixes-check:$BAS_TOP/fixes/fixes-check.sh"
	"module-check:$BAS_TOP/binder_alloc_split/module-check.sh"
	"selftest-stock:env MODULE=binder_linux $BAS_TOP/selftest/selftest.sh check"
	"selftest-split:env MODULE=binder_alloc_split $BAS_TOP/selftest/selftest.sh check"
	"aosp:$BAS_TOP/aosp/aosp-check.sh"
	"stress:env STRESS_SECONDS=180 $BAS_TOP/stress/stress.sh debug"
	"fuzz:env FUZZ_PROGRAMS=300 FUZZ_SEED=1 FAULTS=0 $BAS_TOP/fuzz/fuzz.sh debug"
	"stress-kcsan:env STRESS_SECONDS=180 $BAS_TOP/stress/stress.sh kcsan"
)
[ "$BAS_ARCH" = x86_64 ] || STAGES=(
	"fetch:$S/fetch-kernel.sh"
	"kunit-plain$BAS_SFX:env KUNIT_SLOW=0 $BAS_TOP/kunit/kunit.sh plain split"
	"kunit-debug$BAS_SFX:env KUNIT_SLOW=0 $BAS_TOP/kunit/kunit.sh debug split"
	"selftest-stock$BAS_SFX:env MODULE=binder_linux $BAS_TOP/selftest/selftest.sh check"
	"selftest-split$BAS_SFX:env MODULE=binder_alloc_split $BAS_TOP/selftest/selftest.sh check"
	"stress$BAS_SFX:env STRESS_SECONDS=180 $BAS_TOP/stress/stress.sh debug"
	"stress-kcsan$BAS_SFX:env STRESS_SECONDS=180 $BAS_TOP/stress/stress.sh kcsan"
)

want=" $* "
passed=0
failed=0
skipped=0
timings=()
t_all=$(date +%s)
for entry in "${STAGES[@]}"; do
	name=${entry%%:*}
	cmd=${entry#*:}
	[ $# -eq 0 ] || [[ $want == *" $name "* ]] || continue
	log=$OUT/check/$name.log
	echo "=== $name: $cmd"
	t0=$(date +%s)
	(cd "$BAS_TOP" && $cmd) 2>&1 | tee "$log"
	rc=${PIPESTATUS[0]}
	dt=$(($(date +%s) - t0))
	# "ok N ... # SKIP" is neither passed nor failed: counted and shown apart.
	read -r p f sk < <(python3 "$BAS_TOP/scripts/ktap.py" count "$log")
	if [ "$rc" != 0 ] && [ "$f" = 0 ]; then
		f=1
	elif [ "$rc" = 0 ] && [ "$p" = 0 ] && [ "$f" = 0 ] && [ "$sk" = 0 ]; then
		p=1
	fi
	passed=$((passed + p))
	failed=$((failed + f))
	verdict=pass
	[ "$rc" = 0 ] && [ "$f" = 0 ] || verdict=FAIL
	skipped=$((skipped + sk))
	timings+=("$(printf '%-20s %5ds  %s (%d passed, %d failed, %d skipped)' "$name" "$dt" "$verdict" "$p" "$f" "$sk")")
	echo "=== $name: $verdict in ${dt}s"
done
echo
echo "Stage timings:"
printf '  %s\n' "${timings[@]}"
echo "  total        $(($(date +%s) - t_all))s ($skipped skipped)"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
