# SPDX-License-Identifier: GPL-2.0
# binder-alloc-split: the interface is these targets. See README.md.
#
# Knobs: KSRC=<Linux 7.3 tree> CACHE=<dir> ACCEL=tcg|kvm SMP=<n> JOBS=<n> OUT=<dir>
#        ARCH=x86_64 (default) | arm64 (make kunit, kunit-plain, kunit-debug, selftest, stress,
#        deps; make check-arm64 runs them)

SHELL := /bin/bash
S := scripts

# ARCH reaches every kernel build through the environment: refuse what the scripts do not
# build for, before anything runs.
ARCH_GOALS := kunit kunit-plain kunit-debug selftest stress check-arm64 deps help
ifneq ($(filter-out x86_64 x86 arm64,$(ARCH)),)
$(error ARCH=$(ARCH): unsupported (supported: x86_64, arm64))
endif
ifeq ($(ARCH),arm64)
ifneq ($(filter-out $(ARCH_GOALS),$(or $(MAKECMDGOALS),help)),)
$(error ARCH=arm64: only make $(ARCH_GOALS) run on arm64 so far, not $(filter-out $(ARCH_GOALS),$(or $(MAKECMDGOALS),help)))
endif
endif

.PHONY: help check check-arm64 fetch trees kunit kunit-plain kunit-debug kunit-exhaustive kunit-mutants series series-check send-dry-run apply \
	fixes fixes-import fixes-check aosp-check \
	qemu-smoke selftest selftest-accept module module-check dkms-check stress bench bench-record bench-lockstat bench-accept device-table \
	fuzz coverage rt deps host-tests clean cache-clean

## help          this list
help:
	@sed -n 's/^## //p' $(MAKEFILE_LIST)

## check         the test command: host tests, series and fixes checks, KUnit (plain, plain
##               on arm64, a shard of the exhaustive case; debug as a module on make stress's
##               kernel, kunit/kunit-module.sh), QEMU smoke, make bench's
##               modules (built, not run), modules, fixes-check, the binder_throughput
##               selftest, AOSP's binder tests, 180 s of stress on each of debug and kcsan,
##               and 300 fixed programs of the fuzzer on each driver (debug kernel)
check:
	@$(S)/check.sh

## check-arm64   the arm64 stages (scripts/check.sh with ARCH=arm64): KUnit plain and debug,
##               the selftest on both drivers, 180 s of stress on debug and kcsan, on QEMU's
##               arm64 virt machine, cross-built (make deps ARCH=arm64)
check-arm64:
	@ARCH=arm64 $(S)/check.sh

## fetch         fetch Linux 7.3.4 into the cache (or import KSRC=)
fetch:
	@$(S)/fetch-kernel.sh

## trees         prepare the stock and split worktrees in the cache
trees:
	@$(S)/prepare-tree.sh stock && $(S)/prepare-tree.sh split

## kunit         binder_alloc KUnit in QEMU via kunit.py: plain and debug flavours
##               (ARCH=arm64: on QEMU's arm64 virt machine, cross-built; make deps ARCH=arm64)
kunit: kunit-plain kunit-debug

## kunit-plain   the plain flavour alone (every case, the exhaustive one included)
kunit-plain:
	@kunit/kunit.sh plain split

## kunit-debug   the debug flavour alone (PROVE_LOCKING, KASAN, ...; every case but the
##               exhaustive one)
kunit-debug:
	@kunit/kunit.sh debug split

## kunit-exhaustive  upstream's slow exhaustive case on the debug KUnit kernel, split into
##               one guest per CPU through gdb (SHARDS=; hours under TCG; needs gdb)
kunit-exhaustive:
	@kunit/kunit-exhaustive.sh split $(SHARDS)

## kunit-mutants  each change of kunit/mutants/ (forced failures mid-race, broken shrinkers) on
##               the debug KUnit kernel, judged by its "# expect:" line: which cases fail, log
##               clean or not (kunit/kunit-mutants.sh; not part of make check)
kunit-mutants:
	@kunit/kunit-mutants.sh

## series        regenerate patches/ from the dev branch of the cache tree (SERIES_BRANCH=),
##               from and signed off by you (git config user.name/user.email or AUTHOR=;
##               PLACEHOLDER_IDENTITY=1 keeps the commits' identity, as committed here);
##               the cover letter's table is series/bench/cover-table.txt (BENCH_TABLE=)
series:
	@send/series.sh export

## series-check  the series and each fix of fixes/ apply; each patch builds (=y, =m, W=1);
##               checkpatch --strict
series-check:
	@send/series.sh check

## send-dry-run  write the series as mails to out/send/ and the fixes as a series of their own
##               to out/send/fixes/ (cover letter: fixes/cover-letter.txt), To/Cc from
##               get_maintainer.pl, from and signed off by you (git config or AUTHOR=),
##               changelog and Links to v1, v2 and the fixes (V1_LINK=, V2_LINK=,
##               FIXES_LINK=); prints how to add base-commit:; never sends (needs make trees)
send-dry-run:
	@send/send-dry-run.sh

## fixes         regenerate fixes/ (one mail per upstream bug fix) from the fix/NAME branches
##               of the cache tree (identity as for make series)
fixes:
	@send/series.sh fixes-export

## fixes-import  make the fix/NAME branches of the cache tree from fixes/
fixes-import:
	@send/series.sh fixes-import

## fixes-check   each fix of fixes/ against its reproducer on the debug kernel in QEMU: fails
##               on the stock driver, passes with the fix (fixes/fixes-check.sh)
fixes-check:
	@fixes/fixes-check.sh

## apply         apply fixes/ (those KSRC lacks) and patches/ to KSRC=<your git tree> with git am
apply:
	@send/series.sh apply

## qemu-smoke    boot the perf kernel in QEMU and mount binderfs
qemu-smoke:
	@qemu/qemu-smoke.sh

## selftest      binder_throughput in QEMU: a short run of each mode, pressure, exit paths,
##               on the series: the binder_alloc_split module on the binder=m perf kernel
##               (MODULE=binder_linux: the stock module; MODULE=builtin: the stock driver
##               built into the perf kernel; KERNEL=bzImage, KOS="a.ko b.ko" to insmod first;
##               ARCH=arm64: on QEMU's arm64 virt machine, cross-built)
selftest:
	@selftest/selftest.sh check

## selftest-accept  binder_throughput -w 2 -i 10000 in QEMU (the acceptance run)
selftest-accept:
	@selftest/selftest.sh accept

## module        build binder_alloc_split.ko out of tree (KDIR=<kernel build dir> KSRC=<tree or
##               tarball>; KDIR default: the running kernel's /lib/modules/$(uname -r)/build
##               when it is a 7.3 kernel, else the test bed's binder=m perf kernel)
module:
	@BAS_KDIR_AUTO=1 $(S)/build-module.sh

## aosp-check    AOSP's binderDriverInterfaceTest and binderLibTest (Android 10, from Debian's
##               source packages) on both drivers in QEMU, a KTAP line per case and driver
aosp-check:
	@aosp/aosp-check.sh

## module-check  binder_linux and binder_alloc_split in QEMU: binderfs selftest, smoke test, unload
module-check:
	@binder_alloc_split/module-check.sh

## dkms-check    README's DKMS commands in a Debian trixie root (as root: mmdebstrap, chroot),
##               then the module on Debian's own 7.3.4 kernel in QEMU (binder_alloc_split/dkms-check.sh)
dkms-check:
	@binder_alloc_split/dkms-check.sh

## stress        binder_alloc_split (MODULE=binder_linux: the stock driver) on the debug (KASAN)
##               and kcsan binder=m kernels: reclaim, SCHED_FIFO, fault injection, teardown
##               races, leak checks
##               (STRESS_SECONDS=600, FAULTS=1; see stress/stress.sh; ARCH=arm64: on QEMU's
##               arm64 virt machine, cross-built)
stress:
	@stress/stress.sh

## fuzz          selftests/binder_fuzz, a seeded, KCOV-guided fuzzer of binder's UAPI, on the
##               debug (KASAN, lockdep, fault injection) binder=m kernel, 600 s on each of
##               binder_linux and binder_alloc_split (FUZZ_SECONDS=, FUZZ_SEED=, FUZZ_PROGRAMS=,
##               FUZZ_MODULES=, FAULTS=; FLAVOURS="debug kcsan": on the kcsan kernel too;
##               fuzz/fuzz.sh): programs run, corpus, binder PCs reached, splats, reproducers
fuzz:
	@fuzz/fuzz.sh $(FLAVOURS)

## coverage      gcov line and branch coverage of binder_alloc.c by every suite (KUnit,
##               selftest, fixes' reproducers, stress, fuzz) on both drivers, merged with lcov:
##               out/coverage/DRIVER/report.txt and html/ (coverage/coverage.sh)
coverage:
	@coverage/coverage.sh

## rt            every suite (KUnit, selftest, fixes' reproducers, stress, fuzz) on both drivers
##               on the PREEMPT_RT debug kernel (rt/rt.sh)
rt:
	@rt/rt.sh

## bench         stock binder_linux against binder_alloc_split (and the design variants) in
##               QEMU, one boot of the perf kernel: its report, the designs table and the
##               cover letter's table in out/bench; prints its time estimate first (BENCH_QUICK=1,
##               BENCH_FULL=1, BENCH_BOOTS=, BENCH_REPLICAS=, BENCH_VARIANTS=; bench/bench.sh)
bench:
	@bench/bench.sh

## bench-record  make bench as the cover letter's record is made: the perf kernel and the
##               proxy-execution kernel (with and without it), two boots each; then make
##               bench-accept
bench-record:
	@BENCH_BOOTS="perf proxy noproxy" BENCH_REPLICAS=2 bench/bench.sh

## bench-lockstat  make bench on the lock_stat kernel (CONFIG_LOCK_STAT): contentions, wait
##               and hold times of binder's locks per item (default items 0 1 7, quick profile)
bench-lockstat:
	@BENCH_LOCKSTAT=1 bench/bench.sh

## bench-accept  keep the last complete make bench-record run (OUT=) in series/bench: make
##               series renders the cover letter's "Results" from it
bench-accept:
	@bench/bench.sh accept

## device-table  binder_prio_reclaim's runs on a device, DIR=D with D/stock/bootN/*.ktap and
##               D/patched/bootN/*.ktap, as the per-boot and pooled table on stdout
##               (selftests/binder_prio_reclaim/README.md; bench/device-table.py)
device-table:
	@bench/device-table.py "$(DIR)"

## deps          install what the targets need with apt (as root, or through sudo;
##               scripts/deps.sh --list prints the packages)
deps:
	@$(S)/deps.sh

## host-tests    host-side unit tests of the harness
host-tests:
	@tests/run-host-tests.sh

## clean         remove out/ (results and logs)
clean:
	rm -rf out

## cache-clean   remove the whole cache (kernel trees, builds, downloads)
cache-clean:
	rm -rf "$${CACHE:-$${XDG_CACHE_HOME:-$$HOME/.cache}/binder-alloc-split}"
