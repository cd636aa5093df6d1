#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host tests of make device-table (bench/device-table.py), TAP: binder_prio_reclaim's output from a
# device, made up here as the selftest prints it (3 boots of each kernel, 5 runs of 4 classes
# with 4 loopers under the shrinker and 1 limit run each, one patched boot failed), turned into
# the per-boot and pooled table: each boot's figures, the failed boot named and left out of every
# statistic, the pooled section, the headline endpoints; a truncated run, a missing result line
# and carriage returns (adb's); and bad input, one error line each.
. "$(dirname "$0")/../lib.sh"
dt=$top/bench/device-table.py

# run_out F R [limit]: one run's stdout as binder_prio_reclaim prints it (its printf formats):
# every class's times F times a base and R (the run) its jitter, SCHED_FIFO 99's max
# F x 5 ms + R x 0.1 ms; the calls and the calls over 10 ms the same whatever F. limit: SCHED_FIFO
# 99 alone (-c fifo99:2).
run_out() {
	local f=$1 r=$2 classes="fifo99 fifo1 nice-20 nice19" i=0 c max
	[ "${3:-}" != limit ] || classes=fifo99
	printf 'TAP version 13\n1..%s\n' $(($(wc -w <<<"$classes") + 1))
	echo "# binder_prio_reclaim: 4 loopers, 1000 calls per thread, sizes 16 to 32768 bytes (seed 1), reclaim by shrinker every 10 ms, calls to a node, $((RANDOM % 2 + 7)) CPUs"
	echo "# reclaimer: /sys/kernel/debug/shrinker/android-binder-5/scan"
	echo "# the calls took 2.345 s"
	for c in $classes; do
		i=$((i + 1))
		max=$((f * 7000000 + r * 100000))
		[ "$c" != fifo99 ] || max=$((f * 5000000 + r * 100000))
		echo "# $c: 2000 calls by 2 threads, average 0.400 ms, P99 1.000 ms, P99.9 2.000 ms, max 3.000 ms, 7 over 1 ms, 1 over 10 ms"
		echo "# result class=$c threads=2 calls=2000 errors=0 avg_ns=$((f * 100000 + r * 1000)) p99_ns=$((f * 1000000 + r * 10000)) p999_ns=$((f * 2000000 + r * 10000)) max_ns=$max over_1ms=$((f * 10 + r)) over_10ms=$((r % 2))"
		echo "ok $i $c"
	done
	echo "# reclaimer: 230 scans, one per 10.2 ms, 0 failed; binder's freelist (all processes) summed over the scans: 900 pages before, 20 after"
	echo "# result class=reclaimer mode=shrinker period_ms=10 scans=$((230 + r)) errors=0 elapsed_ns=2345000000 freelist_before_sum=900 freelist_after_sum=20"
	echo "ok $((i + 1)) reclaimer"
	echo "# Totals: pass:$((i + 1)) fail:0 xfail:0 xpass:0 skip:0 error:0"
}
# device DIR: stock's times 4 times patched's (SCHED_FIFO 99's max 20.1 to 20.5 ms, patched's 5.1
# to 5.5); patched boot 2's 30 times (150 ms), and its run 3 not ok.
device() {
	local k b r f
	for k in stock patched; do
		for b in 1 2 3; do
			mkdir -p "$1/$k/boot$b"
			f=1
			[ $k != stock ] || f=4
			[ $k$b != patched2 ] || f=30
			for r in 1 2 3 4 5; do
				run_out $f $r >"$1/$k/boot$b/shr-few-$r.ktap"
			done
			run_out $f 5 limit >"$1/$k/boot$b/limit.ktap"
		done
	done
	sed -i 's/^ok 3 nice-20$/not ok 3 nice-20 #  1999 of 2000 calls, 1 errors/' "$1/patched/boot2/shr-few-3.ktap"
}
dev=$tmp/dev
device "$dev"
rc=0
"$dt" "$dev" >"$tmp/table.md" 2>"$tmp/err" || rc=$?
md=$tmp/table.md
section() { sed -n "/^## $1/,/^## /p" "$md"; }
result "$([ "$rc" = 0 ] && [ ! -s "$tmp/err" ] && echo 1)" "a device's output: a table, exit 0" "exit $rc: $(cat "$tmp/err")"
result "$([ "$(grep '^## ' "$md" | tr '\n' '|')" = "## Headline endpoints|## Boot 1|## Boot 2|## Boot 3|## Pooled over the boots: the secondary analysis|## Configurations|" ] &&
	grep -qx "From $dev: stock boots 1 2 3, 18 runs; patched boots 1 2 3, 18 runs." "$md" && echo 1)" \
	"the sections: headline, each boot, the pooled one (secondary), the configurations" "$(grep '^## ' "$md" | tr '\n' '|')"
# The failed boot: named once with its reason, no comparison of its own, in no statistic.
result "$([ "$(grep -c 'failed' "$md")" -ge 2 ] &&
	grep -qx -- '- patched boot 2 failed, left out of the statistics: shr-few-3.ktap: not ok 3 nice-20 #  1999 of 2000 calls, 1 errors' "$md" &&
	section 'Boot 2' | grep -qx 'No comparison: stock boot 2 ok; patched boot 2 failed (shr-few-3.ktap: not ok 3 nice-20 #  1999 of 2000 calls, 1 errors).' &&
	! grep -q '| 150–' "$md" && echo 1)" \
	"the failed boot: named with its run and reason, no comparison, none of its values anywhere" \
	"$(grep -n 'failed\|| 150–' "$md" | head -n 5 | tr '\n' '|')"
# Each boot: 29 rows of the 4 classes' 7 figures and the scans, 8 of the limit run; stock
# against patched as the bench has them (min-max (median), the estimate, the verdict).
b1=$(section 'Boot 1')
result "$([ "$(grep -c '^| prio-shr-few | ' <<<"$b1")" = 29 ] && [ "$(grep -c '^| prio-shr-limit | ' <<<"$b1")" = 8 ] &&
	grep -q '^Stock 6 runs, patched 6 runs' <<<"$b1" &&
	grep -q '^| prio-shr-few | SCHED_FIFO 99: max (ms) | 20.1–20.5 (median 20.3) | 5.10–5.50 (median 5.30) | 0.26[0-9] \[0.2[0-9]*–0.2[0-9]*\] | differs (U test p=0.00794, BH q=0.0147; ranges apart) |$' <<<"$b1" &&
	grep -q '^| prio-shr-few | nice 19: calls (calls) | 2000–2000 (median 2000) | 2000–2000 (median 2000) | 1 \[1–1\] | too few distinct values ' <<<"$b1" &&
	grep -q '^| prio-shr-few | nice 19: max (ms) | 28.1–28.5 (median 28.3) | 7.10–7.50 (median 7.30) | 0.25[0-9] \[.*\] | differs ' <<<"$b1" &&
	grep -q '^| prio-shr-few | reclaimer: scans (scans) | ' <<<"$b1" &&
	[ "$(section 'Boot 3' | grep -c '^| prio-shr')" = 37 ] && echo 1)" \
	"each boot: every class's figures and the scans, medians over the runs, estimate and verdict" \
	"$(grep 'SCHED_FIFO 99: max' <<<"$b1")"
# Pooled: stock's three boots, patched's two ok ones.
pooled=$(section 'Pooled')
result "$(grep -q '^Stock 18 runs (boots 1 2 3), patched 12 runs (boots 1 3)' <<<"$pooled" &&
	grep -q 'the secondary analysis' <<<"$pooled" &&
	grep -q '^| prio-shr-few | SCHED_FIFO 99: max (ms) | 20.1–20.5 (median 20.3) | 5.10–5.50 (median 5.30) | 0.26[0-9] \[.*\] | differs (U test p=3.29e-05, ' <<<"$pooled" &&
	[ "$(grep -c '^| prio-shr' <<<"$pooled")" = 37 ] && echo 1)" \
	"pooled: every ok boot's runs, the failed boot's left out, labelled secondary" \
	"$(grep -i 'runs\|SCHED_FIFO 99: max' <<<"$pooled" | tr '\n' '|')"
# The headline endpoints: bench/headline.txt's item 10 lines, per boot, the finding, pooled.
head=$(section 'Headline')
result "$(grep -q '^| prio-shr-few | SCHED_FIFO 99: max (ms) | 0.26[0-9] \[[0-9.–]*\] \* | failed | 0.26[0-9] \[[0-9.–]*\] \* | finding: lower in every boot | 0.26[0-9] \[[0-9.–]*\] \* |$' <<<"$head" &&
	grep -q '^| prio-shr-many | f99_max | not in this run | ' <<<"$head" &&
	[ "$(grep -c '^| prio-' <<<"$head")" = "$(grep -c '^10 ' "$top/bench/headline.txt")" ] && echo 1)" \
	"headline: item 10's endpoints, the failed boot marked, the finding over the boots, pooled" \
	"$(grep '^| prio' <<<"$head" | tr '\n' '|')"

# Failed runs: a truncated one, one without its result line, one that skipped: each fails its boot.
fails_boot() { # DESC WHY SED: stock boot 1's first run edited by SED fails that boot for WHY...
	local d=$tmp/f$n
	cp -r "$dev" "$d"
	sed -i "$3" "$d/stock/boot1/shr-few-1.ktap"
	"$dt" "$d" >"$tmp/f.md" 2>"$tmp/f.err"
	result "$(grep -qF -- "- stock boot 1 failed, left out of the statistics: shr-few-1.ktap: $2" "$tmp/f.md" &&
		grep -q '^No comparison: stock boot 1 failed' "$tmp/f.md" && echo 1)" "$1" \
		"$(cat "$tmp/f.err") $(grep -- '^- ' "$tmp/f.md" | tr '\n' '|')"
}
# shellcheck disable=SC2016 # a sed address
fails_boot "a truncated run fails its boot" "truncated: 2 of 5 results, then no '# Totals:' line" '/^ok 3 /,$d'
fails_boot "a run without its Totals line fails its boot" "truncated: 5 of 5 results, and no '# Totals:' line" '/^# Totals/d'
fails_boot "a run without a class's result line fails its boot" "no '# result class=fifo1 ...' line" '/class=fifo1 /d'
fails_boot "a run that skipped fails its boot" "ok 1 fifo99 # SKIP cannot set every class's scheduling (CAP_SYS_NICE)" \
	"s/^ok 1 fifo99\$/ok 1 fifo99 # SKIP cannot set every class's scheduling (CAP_SYS_NICE)/"
fails_boot "an empty run fails its boot" "empty: the test printed nothing" 'd'
fails_boot "a malformed result line fails its boot" "malformed: # result class=fifo1 threads=2 calls= errors=0 " \
	's/class=fifo1 threads=2 calls=2000/class=fifo1 threads=2 calls=/'
fails_boot "the test's command-line error fails its boot" "the test refused its command line: binder_prio_reclaim: error: -n '0': not a number" \
	"1i binder_prio_reclaim: error: -n '0': not a number from 1 to 10000000"
# adb shell through a pty ends lines with \r\n: the same table.
cp -r "$dev" "$tmp/crlf"
sed -i 's/$/\r/' "$tmp/crlf"/*/*/*.ktap
"$dt" "$tmp/crlf" 2>&1 | sed "s|$tmp/crlf|$dev|" >"$tmp/crlf.md"
result "$(cmp -s "$tmp/crlf.md" "$md" && echo 1)" "carriage returns (adb's pty): the same table" \
	"$(diff "$tmp/crlf.md" "$md" | head -n 3 | tr '\n' '|')"

# Bad input: one error line, exit 1.
expect_fail "no such directory" "device-table.py: error: $tmp/none: no such directory (want $tmp/none/stock/ and $tmp/none/patched/" \
	"$dt" "$tmp/none"
mkdir -p "$tmp/half/stock"
cp -r "$dev/stock/boot1" "$tmp/half/stock/"
expect_fail "no patched/" "error: $tmp/half/patched: no such directory" "$dt" "$tmp/half"
mkdir -p "$tmp/norun/stock/boot1" "$tmp/norun/patched/boot1"
echo x >"$tmp/norun/stock/boot1/notes.txt"
expect_fail "a boot without a run" "error: $tmp/norun/stock/boot1: no run (\*.ktap) in it" "$dt" "$tmp/norun"
cp -r "$dev" "$tmp/other" && mkdir "$tmp/other/stockk"
expect_fail "a folder that is no kernel" "error: $tmp/other/stockk: not a kernel" "$dt" "$tmp/other"
cp -r "$dev" "$tmp/bootx" && mkdir "$tmp/bootx/patched/boot"
expect_fail "a folder that is no boot" "error: $tmp/bootx/patched/boot: not a boot" "$dt" "$tmp/bootx"
cp -r "$dev" "$tmp/junk" && echo 'hello' >"$tmp/junk/stock/boot3/x.ktap"
expect_fail "a file that is not the test's output" "error: $tmp/junk/stock/boot3/x.ktap: no KTAP plan line (1..N): not binder_prio_reclaim's output" \
	"$dt" "$tmp/junk"
cp -r "$dev" "$tmp/allbad" && sed -i 's/^ok 1 fifo99$/not ok 1 fifo99/' "$tmp/allbad"/patched/*/limit.ktap
expect_fail "every boot of a kernel failed" "error: $tmp/allbad/patched: every boot failed, nothing to compare (boot 1: limit.ktap: not ok 1 fifo99)" \
	"$dt" "$tmp/allbad"
expect_fail "no directory given" "error: no directory given (make device-table DIR=DIR)" make -s -C "$top" device-table
rc=0
make -s -C "$top" device-table DIR="$dev" >"$tmp/make.md" 2>&1 || rc=$?
result "$([ "$rc" = 0 ] && cmp -s "$tmp/make.md" "$md" && echo 1)" "make device-table DIR=: the same table" "exit $rc"
echo "# device table: $n tests, $fails failed"
[ "$fails" = 0 ]
