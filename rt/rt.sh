#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# rt.sh: make rt. The debug kernel as a PREEMPT_RT one (build-kernel.sh's rt flavour: lockdep,
# KASAN, kmemleak, fault injection; spinlock_t a sleeping rt_mutex, mutexes with priority
# inheritance), and on it, for each driver of RT_MODULES, every suite in one boot
# (suites/suites.sh): the binder_alloc KUnit suite, the selftest's check plan, the fixes'
# reproducers, stress-run's loads (reclaim storms, SCHED_FIFO clients, fault injection, kills and
# teardown races) and the fuzzer. Prints the guests' results and a line per driver; fails when
# a suite failed or the kernel log has a splat.
# Knobs: RT_MODULES (default "binder_linux binder_alloc_split"), and suites.sh's
# SUITES_STRESS_SECONDS (default here 180), SUITES_FUZZ_SECONDS (default here 120), FUZZ_SEED.
. "$(dirname "$0")/../scripts/lib.sh"

[ $# = 0 ] || die "rt.sh takes no arguments (knobs: RT_MODULES, SUITES_STRESS_SECONDS, SUITES_FUZZ_SECONDS, FUZZ_SEED)"
modules=${RT_MODULES:-binder_linux binder_alloc_split}
[ -n "${modules// /}" ] || die "RT_MODULES is empty (expected binder_linux and/or binder_alloc_split)"
for m in $modules; do
	case $m in binder_alloc_split | binder_linux) ;; *) die "RT_MODULES: unknown module '$m' (expected binder_alloc_split or binder_linux)" ;; esac
done
export SUITES_STRESS_SECONDS=${SUITES_STRESS_SECONDS:-180} SUITES_FUZZ_SECONDS=${SUITES_FUZZ_SECONDS:-120}
out=${OUT:-$BAS_TOP/out}/rt
mkdir -p "$out"
"$BAS_TOP/scripts/build-kernel.sh" stock rt m >/dev/null
grep -q '^CONFIG_PREEMPT_RT=y' "$TREE/build-stock-rt-m/.config" || die "the rt kernel has no CONFIG_PREEMPT_RT"
rc=0
summary=()
for module in $modules; do
	r=0
	"$BAS_TOP/suites/suites.sh" rt "$module" "$out/$module" || r=$?
	[ "$r" = 0 ] || rc=1
	summary+=("$module: $([ "$r" = 0 ] && echo pass || echo FAIL); $(grep -c '^ok ' "$out/$module/guest/ktap" 2>/dev/null) checks ok, $(grep -c '^not ok ' "$out/$module/guest/ktap" 2>/dev/null) not ok; $(sed -n 's/^# kunit: \([0-9]* cases ok.*\)/KUnit \1/p' "$out/$module/guest/ktap" 2>/dev/null)")
done
printf '# rt: %s\n' "${summary[@]}"
exit "$rc"
