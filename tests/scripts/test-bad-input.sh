#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Bad input to the harness scripts: a one-line error naming the problem, a
# non-zero exit, and nothing marked good in the cache.
. "$(dirname "$0")/../lib.sh"

export CACHE=$tmp/cache
expect_fail "KSRC that does not exist" "KSRC=$tmp/nope does not exist" \
	env KSRC="$tmp/nope" "$top/scripts/fetch-kernel.sh"
mkdir -p "$tmp/notlinux"
expect_fail "KSRC that is not a Linux tree" "is not a Linux source tree" \
	env KSRC="$tmp/notlinux" "$top/scripts/fetch-kernel.sh"
mkdir -p "$tmp/linux62/drivers/android"
printf 'VERSION = 6\nPATCHLEVEL = 2\n' >"$tmp/linux62/Makefile"
: >"$tmp/linux62/drivers/android/binder_alloc.c"
expect_fail "KSRC that is not Linux 7.3" "is Linux 6.2, not 7.3" \
	env KSRC="$tmp/linux62" "$top/scripts/fetch-kernel.sh"
n=$((n + 1))
if [ -z "$(find "$CACHE" -name '*.ok' 2>/dev/null)" ]; then
	echo "ok $n no stamp left in the cache after bad KSRC"
else
	echo "not ok $n stamps left in the cache: $(find "$CACHE" -name '*.ok')"
	fails=$((fails + 1))
fi

# A corrupt download is refused by its checksum and never imported.
mkdir -p "$CACHE/dl"
ver=$(cat "$top/scripts/linux-source.version")
echo garbage >"$CACHE/dl/linux-source-7.3_${ver}_all.deb"
# A stand-in apt-get whose "download" yields a corrupt package.
mkdir -p "$tmp/fakebin"
cat >"$tmp/fakebin/apt-get" <<FAKE
#!/bin/sh
for a; do case \$a in download) echo corrupt >"linux-source-7.3_${ver}_all.deb" ;; esac; done
exit 0
FAKE
chmod +x "$tmp/fakebin/apt-get"
expect_fail "corrupt download (checksum)" "checksum mismatch" \
	env PATH="$tmp/fakebin:$PATH" "$top/scripts/fetch-kernel.sh"

expect_fail "unknown KUnit flavour" "unknown KUnit flavour 'fast'" "$top/kunit/kunit.sh" fast
expect_fail "kunit-repeat: unknown flavour" "FLAVOUR='fast': expected plain or debug" "$top/kunit/kunit-repeat.sh" fast 2
expect_fail "kunit-repeat: RUNS=0" "RUNS='0' is not a positive number of runs" "$top/kunit/kunit-repeat.sh" plain 0
expect_fail "kunit-repeat: LOAD not a number" "LOAD='two' is not a number of busy loops" "$top/kunit/kunit-repeat.sh" plain 20 two
expect_fail "unknown tree" "unknown tree 'mine'" "$top/scripts/prepare-tree.sh" mine
expect_fail "unknown stress flavour" "unknown stress flavour 'tsan' (expected debug, kcsan or perf)" "$top/stress/stress.sh" tsan
expect_fail "STRESS_SECONDS not a number" "STRESS_SECONDS='10m'" env STRESS_SECONDS=10m "$top/stress/stress.sh"
expect_fail "STRESS_SECONDS too short" "STRESS_SECONDS='5': expected a number of seconds, at least 30" \
	env STRESS_SECONDS=5 "$top/stress/stress.sh"
expect_fail "stress: unknown MODULE" "unknown MODULE 'binder'" env MODULE=binder "$top/stress/stress.sh"
expect_fail "selftest: unknown MODULE" "unknown MODULE 'stock' (expected binder_alloc_split, binder_linux or builtin)" \
	env MODULE=stock "$top/selftest/selftest.sh"
expect_fail "stress: FAULTS=2" "FAULTS='2': expected 0, 1 or all" env FAULTS=2 "$top/stress/stress.sh"
expect_fail "stress: FIXES=2" "FIXES='2': expected 0 or 1" env FIXES=2 "$top/stress/stress.sh"
expect_fail "stress: unknown load" "STRESS_LOADS: unknown load 'spin'" \
	env STRESS_LOADS="kill spin" "$top/stress/stress.sh"
expect_fail "stress: MEM_SLACK_KB not a number" "MEM_SLACK_KB='lots'" env MEM_SLACK_KB=lots "$top/stress/stress.sh"
expect_fail "stress: a VARIANT with no patch" "VARIANT='rust': no bench/variant-rust.patch" \
	env VARIANT=rust "$top/stress/stress.sh"
expect_fail "stress: a VARIANT of the stock driver" "VARIANT=rt is a variant of the series: not with MODULE=binder_linux" \
	env VARIANT=rt MODULE=binder_linux "$top/stress/stress.sh"
expect_fail "a variant tree with no patch" "unknown tree 'variant-rust': no bench/variant-rust.patch" \
	"$top/scripts/prepare-tree.sh" variant-rust
expect_fail "kunit.sh: a variant tree with no patch" "no bench/variant-rust.patch" \
	"$top/kunit/kunit.sh" plain variant-rust
expect_fail "build-kernel.sh: unknown flavour" "unknown flavour 'fast' (usage: build-kernel.sh stock|split perf|debug|kcsan|lockstat|proxy" \
	"$top/scripts/build-kernel.sh" stock fast m
expect_fail "build-kernel.sh: the proxy flavour on arm64" "the proxy flavour is make bench's, for x86_64 only" \
	env ARCH=arm64 "$top/scripts/build-kernel.sh" stock proxy m
expect_fail "build-kernel.sh: the rt flavour on arm64" "the rt flavour is for x86_64 only" \
	env ARCH=arm64 "$top/scripts/build-kernel.sh" stock rt m
expect_fail "build-module.sh: BAS_KCOV=yes" "BAS_KCOV='yes': expected 0 or 1" env BAS_KCOV=yes "$top/scripts/build-module.sh"
expect_fail "build-module.sh: BAS_GCOV=2" "BAS_GCOV='2': expected 0 or 1" env BAS_GCOV=2 "$top/scripts/build-module.sh"
expect_fail "fuzz: unknown flavour" "unknown fuzz flavour 'perf' (expected debug or kcsan)" "$top/fuzz/fuzz.sh" perf
expect_fail "fuzz: FUZZ_SECONDS not a number" "FUZZ_SECONDS='10m'" env FUZZ_SECONDS=10m "$top/fuzz/fuzz.sh"
expect_fail "fuzz: FUZZ_SECONDS too short" "FUZZ_SECONDS='5': expected a number of seconds, at least 10" \
	env FUZZ_SECONDS=5 "$top/fuzz/fuzz.sh"
expect_fail "fuzz: FUZZ_PROGRAMS=0" "FUZZ_PROGRAMS='0'" env FUZZ_PROGRAMS=0 "$top/fuzz/fuzz.sh"
expect_fail "fuzz: FUZZ_SEED not a number" "FUZZ_SEED='abc'" env FUZZ_SEED=abc "$top/fuzz/fuzz.sh"
expect_fail "fuzz: unknown module" "FUZZ_MODULES: unknown module 'binder'" env FUZZ_MODULES="binder_linux binder" "$top/fuzz/fuzz.sh"
expect_fail "fuzz: no module" "FUZZ_MODULES is empty" env FUZZ_MODULES=" " "$top/fuzz/fuzz.sh"
expect_fail "fuzz: FAULTS=all" "FAULTS='all': expected 0 or 1" env FAULTS=all "$top/fuzz/fuzz.sh"
expect_fail "coverage: an argument" "coverage.sh takes no arguments" "$top/coverage/coverage.sh" debug
expect_fail "coverage: unknown module" "COV_MODULES: unknown module 'binder'" env COV_MODULES=binder "$top/coverage/coverage.sh"
expect_fail "rt: unknown module" "RT_MODULES: unknown module 'x'" env RT_MODULES=x "$top/rt/rt.sh"
expect_fail "rt: an argument" "rt.sh takes no arguments" "$top/rt/rt.sh" now
expect_fail "suites: unknown flavour" "unknown flavour 'perf'" "$top/suites/suites.sh" perf binder_linux "$tmp/s"
expect_fail "suites: unknown module" "unknown module 'binder'" "$top/suites/suites.sh" debug binder "$tmp/s"
expect_fail "suites: SUITES_STRESS_SECONDS too short" "SUITES_STRESS_SECONDS='20'" \
	env SUITES_STRESS_SECONDS=20 "$top/suites/suites.sh" debug binder_linux "$tmp/s"
expect_fail "suites: SUITES_FUZZ_SECONDS not a number" "SUITES_FUZZ_SECONDS='x'" \
	env SUITES_FUZZ_SECONDS=x "$top/suites/suites.sh" debug binder_linux "$tmp/s"
expect_fail "KUnit on a tree that does not exist" "unknown tree '$tmp/nope'" \
	"$top/kunit/kunit.sh" plain "$tmp/nope"
expect_fail "KUnit on a directory that is not Linux" "not a Linux tree with binder" \
	"$top/kunit/kunit.sh" plain "$tmp/notlinux"
# A tree from Debian's linux-source: tests/ linked into binder_linux cannot build built in.
mkdir -p "$tmp/debtree/drivers/android" "$tmp/debtree/tools/testing/kunit"
: >"$tmp/debtree/drivers/android/binder_alloc.c"
install -m 755 /dev/null "$tmp/debtree/tools/testing/kunit/kunit.py"
printf 'binder_linux-$(CONFIG_ANDROID_BINDER_ALLOC_KUNIT_TEST)\t+= tests/\n' >"$tmp/debtree/drivers/android/Makefile"
expect_fail "KUnit on a Debian tree without the tests/ fixup" "links tests/ into binder_linux (Debian's linux-source)" \
	"$top/kunit/kunit.sh" plain "$tmp/debtree"
expect_fail "KUNIT_SLOW that is not 0 or 1" "KUNIT_SLOW='yes': expected 0 or 1" \
	env KUNIT_SLOW=yes "$top/kunit/kunit.sh" plain "$tmp/notlinux"
expect_fail "kunit-exhaustive: unknown tree" "unknown tree 'mine' (expected split or stock)" \
	"$top/kunit/kunit-exhaustive.sh" mine
expect_fail "kunit-exhaustive: SHARDS=0" "SHARDS='0': expected 1..3125" "$top/kunit/kunit-exhaustive.sh" split 0
expect_fail "kunit-exhaustive: shard index out of range" "shard index '4': expected 0..3" \
	"$top/kunit/kunit-exhaustive.sh" split 4 1 4
expect_fail "kunit-exhaustive: timeout not a number" "KUNIT_EXHAUSTIVE_TIMEOUT='2h'" \
	env KUNIT_EXHAUSTIVE_TIMEOUT=2h "$top/kunit/kunit-exhaustive.sh"
expect_fail "kunit-exhaustive: unknown flavour" "KUNIT_EXHAUSTIVE_FLAVOUR='kasan': expected plain or debug" \
	env KUNIT_EXHAUSTIVE_FLAVOUR=kasan "$top/kunit/kunit-exhaustive.sh"
expect_fail "kunit-module: unknown tree" "unknown tree 'mine' (usage: kunit-module.sh" \
	"$top/kunit/kunit-module.sh" mine
expect_fail "kunit-module: two trees" "error: usage: kunit-module.sh" "$top/kunit/kunit-module.sh" split stock
expect_fail "kunit-module: a variant tree with no patch" "unknown tree 'variant-rust': no bench/variant-rust.patch" \
	"$top/kunit/kunit-module.sh" variant-rust
expect_fail "build-module.sh: BAS_TEST_DIFF that does not exist" "BAS_TEST_DIFF=$tmp/nope.diff: no such file" \
	env BAS_TEST_DIFF="$tmp/nope.diff" "$top/scripts/build-module.sh"
expect_fail "make apply without KSRC" "needs KSRC=" env -u KSRC "$top/send/series.sh" apply
expect_fail "make apply on a non-git KSRC" "is not a git checkout" \
	env KSRC="$tmp/notlinux" "$top/send/series.sh" apply
# A git worktree (.git is a file there) is a git checkout: the series is tried, and fails on
# this toy tree for the right reason (git am's log, kept for the user, goes to $tmp). A subdirectory of a checkout is not one.
git init -q "$tmp/wtmain" && git -C "$tmp/wtmain" -c user.name=t -c user.email=t@t commit -q --allow-empty -m init &&
	git -C "$tmp/wtmain" worktree add -q "$tmp/wt" 2>/dev/null && mkdir -p "$tmp/wtmain/sub"
expect_fail "make apply on a git worktree tries the series" "the fixes and the series do not apply to KSRC=$tmp/wt" \
	env KSRC="$tmp/wt" TMPDIR="$tmp" GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@t GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@t \
	"$top/send/series.sh" apply
expect_fail "make apply on a subdirectory of a checkout" "is not a git checkout" \
	env KSRC="$tmp/wtmain/sub" "$top/send/series.sh" apply
expect_fail "BAS_BENCH that is not 0 or 1" "BAS_BENCH='yes': expected 0 or 1" \
	env BAS_BENCH=yes "$top/scripts/build-module.sh"
expect_fail "BAS_VARIANT that does not exist" "BAS_VARIANT='rust': expected one of: " \
	env BAS_BENCH=1 BAS_VARIANT=rust "$top/scripts/build-module.sh"
expect_fail "BAS_VARIANT without BAS_BENCH" "BAS_VARIANT=trylock is a make bench module: it needs BAS_BENCH=1" \
	env BAS_VARIANT=trylock "$top/scripts/build-module.sh"
printf 'binder: a subject\n\n@BENCH_TABLE@\n' >"$tmp/cover-table.txt"
expect_fail "make series without the benchmark table" "BENCH_TABLE=$tmp/none: no benchmark table" \
	env COVER_LETTER="$tmp/cover-table.txt" BENCH_TABLE="$tmp/none" "$top/send/series.sh" export
printf 'binder: a subject\n\nIt was @fig 7.inv.p999.b1.ratio@ of stock.\n' >"$tmp/cover-fig.txt"
expect_fail "make series: @fig figures without a record" "BENCH_SUMMARY=$tmp/none: no summary.csv for the cover letter's @fig figures" \
	env COVER_LETTER="$tmp/cover-fig.txt" BENCH_SUMMARY="$tmp/none" "$top/send/series.sh" export
expect_fail "make series: a cover letter that is not there" "missing $tmp/nocover.txt" \
	env COVER_LETTER="$tmp/nocover.txt" "$top/send/series.sh" export
# make dkms-check needs root (mmdebstrap, chroot, dkms): a stand-in id says otherwise.
printf '#!/bin/sh\necho 1000\n' >"$tmp/fakebin/id"
chmod +x "$tmp/fakebin/id"
expect_fail "dkms-check as a user" "must run as root" env PATH="$tmp/fakebin:$PATH" "$top/binder_alloc_split/dkms-check.sh"
[ "$fails" = 0 ]
