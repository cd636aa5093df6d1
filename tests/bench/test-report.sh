#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host-side unit tests of make bench's report generator (bench/bench.py) and of bench.sh's
# input checks, KTAP-style. The rank test is checked on inputs with known answers (the exact
# and asymptotic p of SciPy's mannwhitneyu example, the smallest p of 5 against 5, ties);
# the report on a small console log made up here.
. "$(dirname "$0")/../lib.sh"
bench=$top/bench/bench.py

expect_out() { # DESC WANT CMD...: CMD prints exactly WANT
	local desc=$1 want=$2 got
	shift 2
	got=$("$@" 2>&1)
	if [ "$got" = "$want" ]; then result 1 "$desc"; else result 0 "$desc" "got '$got', want '$want'"; fi
}

# SciPy's documentation example: males against females, U = 17, exact p = 1/9,
# asymptotic (continuity correction) p = 0.11134688653314041.
expect_out "U test: exact p of SciPy's example" "U=17 p=0.111111 method=exact" \
	python3 "$bench" mwu "19 22 16 29 24" "20 11 17 12"
expect_out "U test: asymptotic p of SciPy's example" "U=17 p=0.111347 method=normal" \
	python3 "$bench" mwu "19 22 16 29 24" "20 11 17 12" --asymptotic
expect_out "U test: the other sample's U is n1*n2 - U, same p" "U=3 p=0.111111 method=exact" \
	python3 "$bench" mwu "20 11 17 12" "19 22 16 29 24"
# 5 against 5 fully apart: 2 of C(10,5) = 252 assignments are as extreme.
expect_out "U test: 5 against 5 apart, p = 2/252" "U=0 p=0.00793651 method=exact" \
	python3 "$bench" mwu "1 2 3 4 5" "6 7 8 9 10"
# 3 against 3 apart: p = 2/20, never below 0.05.
expect_out "U test: 3 against 3 apart, p = 0.1" "U=9 p=0.1 method=exact" \
	python3 "$bench" mwu "4 5 6" "1 2 3"
expect_out "U test: all tied, p = 1" "U=4.5 p=1 method=exact" \
	python3 "$bench" mwu "7 7 7" "7 7 7"
# Ties: x = {1, 2}, y = {2, 3}: midranks 1, 2.5, 2.5, 4; x's rank sum 3.5, U = 0.5; of the
# 6 ways to pick x's ranks, those with |U - 2| >= 1.5: {1, 2.5} twice and {2.5, 4} twice.
expect_out "U test: exact with midranks for ties" "U=0.5 p=0.666667 method=exact" \
	python3 "$bench" mwu "1 2" "2 3"
# 12 against 12 is past the exact limit (C(24,12) = 2704156): the normal approximation,
# mean 72, variance 300, z = (72 - 0.5) / sqrt(300), p = erfc(z / sqrt(2)).
expect_out "U test: large samples use the normal approximation" "U=0 p=3.65846e-05 method=normal" \
	python3 "$bench" mwu "1 2 3 4 5 6 7 8 9 10 11 12" "13 14 15 16 17 18 19 20 21 22 23 24"
expect_fail "U test: a sample that is not numbers" "could not convert" \
	python3 "$bench" mwu "1 x" "2 3"

# row_is CSV ITEM,CONFIG,FIGURE,BASE,OTHER FIELD=VALUE...: summary.csv has that row with those
# values (numbers to a relative 1e-6; prints what differs).
row_is() {
	python3 - "$@" <<'PY'
import csv, math, sys
f, key, *want = sys.argv[1:]
for r in csv.DictReader(open(f)):
    if ",".join((r["item"], r["config"], r["figure"], r["base"], r["other"])) != key:
        continue
    for w in want:
        k, v = w.split("=", 1)
        try:
            ok = math.isclose(float(r[k]), float(v), rel_tol=1e-6, abs_tol=1e-12)
        except ValueError:
            ok = r[k] == v
        if not ok:
            sys.exit(print(f"{key}: {k}={r[k]}, want {v}") or 1)
    sys.exit(0)
sys.exit(print(f"no row {key}") or 1)
PY
}

# The interval (Hodges-Lehmann, with the rank test's distribution-free interval): 2, 4, .. 10
# against 1 .. 5 has the ratios 0.4 .. 10; their median is 2, and with c = 2 for 5 against 5
# the interval runs from the 3rd smallest (2/3) to the 3rd largest (6). A value of 0 makes it
# a shift: 10 .. 14 against 0 .. 4, differences 6 .. 14, median 10, interval 7 to 13.
expect_out "interval: the ratio and its 95% interval on a known input" \
	"ratio=2 ci95=0.666667,6 p=0.142857 verdict=no difference detected" \
	python3 "$bench" compare "1 2 3 4 5" "2 4 6 8 10"
expect_out "interval: a shift where a value is 0" "shift=10 ci95=7,13 p=0.00793651 verdict=differs" \
	python3 "$bench" compare "0 1 2 3 4" "10 11 12 13 14"
# Benjamini-Hochberg: sorted 0.005 0.01 0.03 0.04, times 4/rank, then the running minimum
# from the largest down: 0.02 0.02 0.04 0.04.
expect_out "correction: Benjamini-Hochberg's q on a known set" "0.02 0.04 0.04 0.02" \
	python3 "$bench" bh "0.01 0.04 0.03 0.005"
# Edge cases: ties that make p < 0.05 impossible although the sizes allow it; 1 run against 40
# can reach p = 2/41 < 0.05, 1 against 38 cannot (2/39).
expect_out "verdict: too few distinct values" "ratio=1 ci95=0.833333,1.2 p=1 verdict=too few distinct values" \
	python3 "$bench" compare "5 5 5 5 6" "5 5 5 5 6"
expect_out "verdict: 1 run against 40 can differ" "ratio=21.4942 ci95=2,41 p=0.0487805 verdict=differs" \
	python3 "$bench" compare "1" "$(seq -s ' ' 2 41)"
expect_out "verdict: 1 run against 38 has too few runs" \
	"ratio=20.4939 ci95=none p=0.0512821 verdict=too few runs (p >= 0.05 always)" \
	python3 "$bench" compare "1" "$(seq -s ' ' 2 39)"

report_of() { # PLAN LOG SETUP OUT: bench.py report, its output dropped; sets rc
	rc=0
	python3 "$bench" report --plan "$1" --log "$2" --setup "$3" --out "$4" >/dev/null 2>&1 || rc=$?
}

# The report from a made-up console log: a plan of item 1 with 5 runs each, the split
# twice as fast in every run (run N: 1000 + N calls/s for stock, 2000 + N for split); one line
# with a bad md5sum is refused, and the run counts as missing. N is the run's place in an
# A B B A order (after a warm-up run per module), whatever the plan's shuffled order: stock's
# runs of rounds 1 to 5 are N = 3, 6, 7, 10 and 11, split's 4, 5, 8, 9, 12.
python3 "$bench" plan --profile quick --items 1 --runs 5 --plan "$tmp/bench.plan" \
	--json "$tmp/plan.json" >/dev/null
emit() { # TAG ID [CLASS] PAYLOAD
	local tag=$1 id=$2 cls=
	shift 2
	[ "$tag" != bench-rec ] || { cls="$1 "; shift; }
	echo "$tag: $id $cls$(printf '%s' "$1" | md5sum | cut -d' ' -f1) $1"
}
reps=$(python3 -c 'import json, sys
for r in json.load(open(sys.argv[1]))["runs"]: print(r["id"], r["rep"])' "$tmp/plan.json")
while read -r id mod _; do
	v=1000
	[ "$mod" = binder_linux ] || v=2000
	rep=$(awk -v i="$id" '$1 == i { print $2 }' <<<"$reps")
	# round rep: stock first in odd rounds, split first in even ones
	r=$((2 * rep + 1 + ((rep % 2 == 1) == (v == 2000))))
	emit bench-rec "$id" all "{\"iterations_per_sec\": $((v + r)), \"avg_ms\": $((4000 / v)).$r, \"p99_ms\": $((8000 / v)).$r, \"rounds\": [{\"seconds\": 1.0}]}"
	emit bench-cdf "$id" "$(seq -s ' ' 1000 1000 103000)"
	emit bench-extra "$id" "reclaimed=0 secs=1"
	echo "bench: end $id ok"
done <"$tmp/bench.plan" >"$tmp/console.log"
echo "bench: clocksource tsc" >>"$tmp/console.log"
printf 'accel=tcg\nsmp=2\nkernel=Linux 7.3.4\n' >"$tmp/setup.txt"
rc=0
python3 "$bench" report --plan "$tmp/plan.json" --log "$tmp/console.log" --setup "$tmp/setup.txt" \
	--out "$tmp/out" >"$tmp/report.out" 2>&1 || rc=$?
result "$([ "$rc" = 0 ] && echo 1)" "report: exit 0 when every run has its results" "exit $rc"
for f in report.md runs.csv summary.csv cover-table.txt; do
	result "$([ -s "$tmp/out/$f" ] && echo 1)" "report: writes $f"
done
# The Hodges-Lehmann ratio is the median of the 25 ratios split/stock, 2012/1010 = 1.99208;
# its 95% interval (c = 2 for 5 against 5) runs from the 3rd smallest, 2004/1010 = 1.98416,
# to the 3rd largest, 2008/1003 = 2.00199 (2009/1003 and 2012/1003 are larger).
# 7 figures, each p = 2/252: Benjamini-Hochberg's q is p too.
result "$(grep -q '^1,seed,tput,iter/s,stock,5,1007.0,1003.0,1011.0,split,5,2008.0,2004.0,2012.0,1.994[0-9]*,ratio,1.99207[0-9]*,1.98415[0-9]*,2.00199[0-9]*,1.00[0-9]*,25.0,0.00793650793650793[0-9]*,exact,0.00793650793650793[0-9]*,apart,differs$' "$tmp/out/summary.csv" && echo 1)" \
	"report: throughput ratio 2 with its interval, 'differs' (p = q = 2/252) in summary.csv" \
	"$(grep '^1,seed,tput' "$tmp/out/summary.csv")"
result "$(grep -q '^  iter/s  *1007  *2008  1.99 \[1.98-2.00\] \*$' "$tmp/out/cover-table.txt" && echo 1)" \
	"report: the cover table has the seed's rows" \
	"$(grep 'iter/s' "$tmp/out/cover-table.txt" | head -n1)"
result "$(awk 'length > 75 { bad = 1 } END { print bad ? 0 : 1 }' "$tmp/out/cover-table.txt")" \
	"report: cover table within 75 columns"
result "$(grep -q '^| item 1: calls per client (-i; 2 clients) | [0-9]* | 10000 | scaled |$' "$tmp/out/report.md" && echo 1)" \
	"report: states the counts that were scaled"
# Without gnuplot: the report says the plots were skipped, and still exits 0.
py=$(python3 -c 'import sys; print(sys.executable)')
mkdir -p "$tmp/nobin"
rc=0
env PATH="$tmp/nobin" "$py" "$bench" report --plan "$tmp/plan.json" --log "$tmp/console.log" \
	--setup "$tmp/setup.txt" --out "$tmp/out3" >/dev/null 2>&1 || rc=$?
result "$([ "$rc" = 0 ] && grep -q 'gnuplot is not installed: the plots were skipped' "$tmp/out3/report.md" &&
		[ ! -e "$tmp/out3/throughput.svg" ] && echo 1)" \
	"report: without gnuplot the plots are skipped, exit 0" "exit $rc"
sed -i '0,/^bench-rec: [0-9]*-seed-stock /s/"iterations_per_sec": 10/"iterations_per_sec": 90/' "$tmp/console.log"
report_of "$tmp/plan.json" "$tmp/console.log" "$tmp/setup.txt" "$tmp/out2"
result "$([ "$rc" = 1 ] && grep -q 'fails its md5sum' "$tmp/out2/report.md" && echo 1)" \
	"report: a line that fails its md5sum is refused, exit 1" "exit $rc"
result "$(grep -q '^1,seed,tput,iter/s,stock,4,' "$tmp/out2/summary.csv" && echo 1)" \
	"report: the refused run is left out (4 stock runs)"

# Item 1's binderThroughputTest runs (KIND aosp): their bench-aosp lines, as the tool prints
# them, become the same figures, split twice as fast; the cover letter leads with them. A line
# the parser does not know is a problem of that run.
while read -r id mod kind _; do
	v=1000
	[ "$mod" = binder_linux ] || v=2000
	r=${id%%-*}
	r=$((10#$r))
	if [ "$kind" = aosp ]; then
		emit bench-aosp "$id" "iterations per sec: $((v + r)).5|average:$((4000 / v)).$r""ms worst:9.1ms best:0.07ms|50%: 0.195312 90%: 0.195312 95%: 0.585938 99%: $((8000 / v)).5 "
	else
		emit bench-rec "$id" all "{\"iterations_per_sec\": $((v + r)), \"avg_ms\": 1.0, \"p99_ms\": 2.0}"
	fi
	echo "bench: end $id ok"
done <"$tmp/bench.plan" >"$tmp/aosp.log"
echo "bench: clocksource tsc" >>"$tmp/aosp.log"
report_of "$tmp/plan.json" "$tmp/aosp.log" "$tmp/setup.txt" "$tmp/aosp"
row=$(grep '^1,aosp-p4-dc,p99,ms,stock,5,8.5,8.5,8.5,split,5,4.5,4.5,4.5,' "$tmp/aosp/summary.csv")
result "$([ "$rc" = 0 ] && [ -n "$row" ] && [ "$(grep -c '^1,aosp' "$tmp/aosp/summary.csv")" = 12 ] && echo 1)" \
	"report: item 1's binderThroughputTest figures (4 configurations x 3) from its own lines" \
	"exit $rc: $(grep '^1,aosp' "$tmp/aosp/summary.csv" | cut -d, -f1-4 | tr '\n' ' ')"
result "$(sed -n '/binderThroughputTest/,/binder_throughput/p' "$tmp/aosp/cover-table.txt" |
	grep -q '^  P99 ms -p dc  *8.5  *4.5  0.53 \[0.53-0.53\] \*$' && echo 1)" \
	"report: the cover letter's end-to-end block names binderThroughputTest first" \
	"$(grep -n 'binderThroughputTest\|-p dc' "$tmp/aosp/cover-table.txt" | tr '\n' '|')"
id=$(awk '$3 == "aosp" { print $1; exit }' "$tmp/bench.plan")
sed "/^bench-aosp: $id /d" "$tmp/aosp.log" >"$tmp/aosp2.log"
printf 'bench-aosp: %s %s\n' "$id" "$(printf '%s' 'iterations per sec: 9|Max latency: 3ms' | md5sum | cut -d' ' -f1) iterations per sec: 9|Max latency: 3ms" >>"$tmp/aosp2.log"
report_of "$tmp/plan.json" "$tmp/aosp2.log" "$tmp/setup.txt" "$tmp/aosp2"
result "$([ "$rc" = 1 ] && grep -q "$id: bench-aosp: unknown binderThroughputTest line 'Max latency: 3ms'" "$tmp/aosp2/report.md" && echo 1)" \
	"report: a binderThroughputTest line the parser does not know fails the report" "exit $rc"

# The guest's clocksource at the end of the boot: anything but tsc is a problem, exit 1.
sed 's/^bench: clocksource tsc$/bench: clocksource hpet/' "$tmp/console.log" >"$tmp/cs.log"
report_of "$tmp/plan.json" "$tmp/cs.log" "$tmp/setup.txt" "$tmp/cs"
result "$([ "$rc" = 1 ] && grep -q "^- the guest's clocksource was hpet at the end of the boot, not tsc" "$tmp/cs/report.md" && echo 1)" \
	"report: a clocksource other than tsc at the end fails the report" "exit $rc"
# A busy host: a load average of 1.4 at the start (1 CPU) plus -smp 2 on 2 host CPUs warns;
# 0.4 does not; busy loops beside QEMU (BENCH_HOST_LOAD) are named.
for l in 0.4 1.4; do
	printf 'accel=tcg\nsmp=2\nhost_cpus=2\nload_start=%s 1.0 1.0\n' "$l" >"$tmp/busy-$l.txt"
done
echo 'host_load=2 busy loops beside QEMU (BENCH_HOST_LOAD), pinned to the host CPUs in turn' >>"$tmp/busy-1.4.txt"
report_of "$tmp/plan.json" "$tmp/console.log" "$tmp/busy-0.4.txt" "$tmp/b04"
report_of "$tmp/plan.json" "$tmp/console.log" "$tmp/busy-1.4.txt" "$tmp/b14"
result "$(! grep -q '^- The host was busy' "$tmp/b04/report.md" &&
	grep -q '^- The host was busy: load average 1.4 at the start, plus the guest.s 2 vCPUs, on 2 host CPUs\.' "$tmp/b14/report.md" &&
	grep -q '^- The host ran 2 busy loops beside QEMU' "$tmp/b14/report.md" && echo 1)" \
	"report: warns of a busy host (load + -smp over the host's CPUs, BENCH_HOST_LOAD)"
# The host's other tasks during the run: 0.4 CPUs on average warns, 0.1 does not; the setup
# section shows the figure.
for o in 0.1 0.4; do
	printf 'accel=tcg\nsmp=2\nhost_cpus=2\nload_start=0.2 1.0 1.0\nhost_other_cpus=%s\n' "$o" >"$tmp/other-$o.txt"
	report_of "$tmp/plan.json" "$tmp/console.log" "$tmp/other-$o.txt" "$tmp/o$o"
done
result "$(! grep -q '^- The host was busy' "$tmp/o0.1/report.md" &&
	grep -q '^- host CPUs used beside QEMU during the run (average): 0.1$' "$tmp/o0.1/report.md" &&
	grep -q '^- The host was busy during the run: its other tasks used 0.4 CPUs on average beside QEMU' "$tmp/o0.4/report.md" &&
	echo 1)" "report: warns when the host's other tasks used a quarter of a CPU or more during the run"
# The findings name only the items that ran (item 1 here), and the warm-up runs are in no figure.
result "$(sed -n '/^## Findings/,/^## /p' "$tmp/out/report.md" | grep -q 'Item [02-9]\|item [02-9]' || echo 1)" \
	"report: the findings name only the items that ran"
result "$([ "$(grep -c '^[0-9]*-warmup-[a-z0-9]* [^ ]* warmup 0 -w 2 -i 1000 --timeout ' "$tmp/bench.plan")" = 2 ] &&
	! grep -q ',warmup,' "$tmp/out/summary.csv" && echo 1)" \
	"plan: one warm-up run per module first, in no figure" "$(head -n 2 "$tmp/bench.plan")"

# A run that ran past its --timeout: bench-run prints the tail of its log and fails it; the
# guest exits 1. The report names the run, the error and the host's load, and exits 1.
first=$(head -n1 "$tmp/bench.plan" | cut -d' ' -f1)
awk -v id="$first" '$0 == "bench: end " id " ok" {
	print "# " id " run.log: # error: timed out after 100 s (--timeout)"
	print "# " id " run.log: not ok 1 binder_throughput"
	print "bench: end " id " fail: binder_throughput exited with 1"; next } { print }' \
	"$tmp/console.log" >"$tmp/to.log"
printf 'accel=tcg\nsmp=2\nhost_cpus=2\nload_start=3.67 3.97 3.96\nguest=FAIL: guest reported: /tests/run exited with 1\n' \
	>"$tmp/to-setup.txt"
report_of "$tmp/plan.json" "$tmp/to.log" "$tmp/to-setup.txt" "$tmp/to"
result "$([ "$rc" = 1 ] &&
	grep -qx -- "- failed: $first: fail: binder_throughput exited with 1 (timed out after 100 s (--timeout))" "$tmp/to/report.md" &&
	grep -q -- '^- The guest run failed: .*: 1 runs failed (listed above); every run reported\.$' "$tmp/to/report.md" &&
	grep -q -- "^- 1 runs ran past their --timeout ($first)\. Host load average at start: 3.67 3.97 3.96 on 2 CPUs\." "$tmp/to/report.md" &&
	echo 1)" "report: a timed-out run is named with its error and the host's load, exit 1" \
	"exit $rc: $(grep -- '^- \(failed\|The guest\|1 runs\)' "$tmp/to/report.md")"

# Item 5: in-kernel delivery times (bench-ktrace) beside the same run's round trips (bench-cdf):
# stock delivers in 100 us (median), split in 50; the round trip's median is 1000 us for both.
python3 "$bench" plan --profile quick --items 5 --runs 5 --plan "$tmp/k.plan" \
	--json "$tmp/k.json" >/dev/null
result "$(grep -c ' trace 1 -w 2 -i 500 --timeout ' "$tmp/k.plan" | grep -qx 10 && echo 1)" \
	"item 5: the plan has 10 trace runs with raw samples" "$(head -n1 "$tmp/k.plan")"
while read -r id mod _; do
	k=100
	[ "$mod" = binder_linux ] || k=50
	emit bench-rec "$id" all '{"iterations_per_sec": 1000, "avg_ms": 1.0, "p99_ms": 2.0}'
	emit bench-cdf "$id" "$(seq -s ' ' 20000 20000 2060000)"
	emit bench-ktrace "$id" "n=4000 avg_us=$k.5 p50_us=$k p90_us=$((2 * k)) p99_us=$((3 * k)) max_us=900 unmatched=0"
	emit bench-extra "$id" "secs=3"
	echo "bench: end $id ok"
done <"$tmp/k.plan" >"$tmp/k.log"
echo "bench: clocksource tsc" >>"$tmp/k.log"
report_of "$tmp/k.json" "$tmp/k.log" "$tmp/setup.txt" "$tmp/kout"
out=$(row_is "$tmp/kout/summary.csv" 5,ktrace,k_p50,stock,split n_base=5 base_median=100 \
	other_median=50 estimate_kind=ratio estimate=0.5 ci95_low=0.5 ci95_high=0.5 \
	mwu_p=0.0079365079 ranges=apart verdict=differs) && [ "$rc" = 0 ]
result "$([ $? = 0 ] && echo 1)" "item 5: delivery median 0.5x, 'differs', in summary.csv" "exit $rc: $out"
# The round trip's median is cdf[50] = 1020000 ns; two deliveries of 100 us are 19.6 % of it.
result "$(grep -q '^5,ktrace,u_p50,us,stock,5,1020.0,' "$tmp/kout/summary.csv" &&
	grep -q '^5,ktrace,k_share,%,stock,5,19.6078' "$tmp/kout/summary.csv" && echo 1)" \
	"item 5: round-trip median from the run's samples, and the kernel's share" \
	"$(grep '^5,ktrace,\(u_p50\|k_share\)' "$tmp/kout/summary.csv")"
result "$(grep -q '^## Item 5: in-kernel delivery time' "$tmp/kout/report.md" && echo 1)" \
	"item 5: the report has its section"

# Item 0: the allocator microbenchmark. v1 runs only where no walker runs, the trylock variant
# everywhere; the report compares split with stock everywhere and with v1 without the walker
# (split 3x v1's ops/s here). Items 8 and 9 use the same microbenchmark: one log for all three.
# Item 8 (inversion: a FIFO kthread among nice 19 ones) has v1 only without the walker and
# trylock in both; the FIFO kthread's P99.9 is 9 ms on stock and 90 us elsewhere. The walker's
# skips per reason go to a table: stock's walker skips 300 pages on alloc->mutex and frees 10,
# the others skip 3 and free 100. Item 9 (first touch) runs stock and split only; split
# installs half as many pages per second.
python3 "$bench" plan --profile quick --items "0 8 9" --runs 5 --variants trylock --plan "$tmp/a.plan" \
	--json "$tmp/a.json" >/dev/null
result "$([ "$(grep -c -- '--alloc-bench [0-9]* --alloc-ms' "$tmp/a.plan")" = 90 ] &&
	! grep -- '--alloc-shrink' "$tmp/a.plan" | grep -q binder_alloc_v1 &&
	[ "$(grep -- '--alloc-shrink' "$tmp/a.plan" | grep -c '^[0-9]*-alloc[0-9]-shrink-trylock binder_alloc_trylock:binder_alloc_split ')" = 10 ] &&
	! grep -q '^[0-9]*-alloc2-shrink-trylock ' "$tmp/a.plan" &&
	[ "$(grep -c '^[0-9]*-alloc4-trylock ' "$tmp/a.plan")" = 5 ] &&
	! grep -q '^[0-9]*-alloc[12]-trylock ' "$tmp/a.plan" &&
	[ "$(grep -c '^[0-9]*-alloc4-v1 binder_alloc_v1:binder_alloc_split alloc 0 --alloc-bench 4 --alloc-ms 500 ' "$tmp/a.plan")" = 5 ] &&
	echo 1)" "item 0: the plan has v1 only without the walker, trylock only in the designs table's configurations" "$(grep -c . "$tmp/a.plan") lines"
while read -r id mod _ _ args; do
	v=1000 f=9000000 fr=10 sk=300 ips=2000
	[ "$mod" = binder_linux ] || { v=2000 f=90000 fr=100 sk=3 ips=1000; }
	case $mod in binder_alloc_v1:*) v=$((v / 3)) ;; esac
	sh=false
	case $args in *--alloc-shrink*) sh=true ;; esac
	emit bench-rec "$id" all "{\"mode\": \"alloc\", \"shrink\": $sh, \"ops_per_sec\": $v.0, \"p50_ns\": 4000, \"p99_ns\": 9000, \"pages_freed\": $fr, \"shrinker_walks\": 40, \"skip_mutex\": $sk, \"skip_mmap\": 0, \"skip_lock\": 0, \"skip_vma\": 0, \"skip_mmget\": 0, \"fifo_p50_ns\": 5000, \"fifo_p99_ns\": 20000, \"fifo_p999_ns\": $f, \"fifo_max_ns\": $f, \"fifo_over_1ms\": 2, \"installs_per_sec\": $ips.0, \"errors\": 0}"
	emit bench-extra "$id" "reclaimed=0 secs=1"
	echo "bench: end $id ok"
done <"$tmp/a.plan" >"$tmp/a.log"
echo "bench: clocksource tsc" >>"$tmp/a.log"
report_of "$tmp/a.json" "$tmp/a.log" "$tmp/setup.txt" "$tmp/aout"
out=$(row_is "$tmp/aout/summary.csv" 0,alloc2-shrink,ops,stock,split base_median=1000 \
	other_median=2000 estimate=2 ci95_low=2 ci95_high=2 mwu_p=0.0079365079 verdict=differs) &&
	[ "$rc" = 0 ]
result "$([ $? = 0 ] && echo 1)" "item 0: split against stock with the walker in summary.csv" "exit $rc: $out"
result "$(grep -q '^0,alloc2,ops,ops/s,v1,5,666.0,666.0,666.0,split,5,2000.0,' "$tmp/aout/summary.csv" &&
	! grep -q '^0,alloc2-shrink,[a-z0-9]*,[^,]*,v1,' "$tmp/aout/summary.csv" && echo 1)" \
	"item 0: split against v1 only without the walker" "$(grep ',v1,' "$tmp/aout/summary.csv" | head -n2)"
result "$(grep -q '^0,alloc1-shrink,freed,pages,' "$tmp/aout/summary.csv" &&
	! grep -q '^0,alloc1,freed,' "$tmp/aout/summary.csv" && echo 1)" \
	"item 0: pages freed only where the walker ran"

result "$([ "$(grep -c -- '--alloc-fifo --hogs 2 ' "$tmp/a.plan")" = 35 ] &&
	! grep -- '--alloc-shrink' "$tmp/a.plan" | grep -q binder_alloc_v1 &&
	[ "$(grep -c '^[0-9]*-kinv-v1 binder_alloc_v1:binder_alloc_split alloc 0 --alloc-bench 4 --alloc-fifo ' "$tmp/a.plan")" = 5 ] &&
	[ "$(grep -c -- '--alloc-cold' "$tmp/a.plan")" = 60 ] &&
	! grep -- '--alloc-cold' "$tmp/a.plan" | grep -q -v ' binder_linux \| binder_alloc_split ' &&
	[ "$(grep -c -- '-cold4-128k-split binder_alloc_split alloc 0 --alloc-bench 4 --alloc-cold --alloc-ms 300 --alloc-max 131072 ' "$tmp/a.plan")" = 5 ] &&
	echo 1)" "items 8 and 9: the plan's modules and arguments" "$(grep -c . "$tmp/a.plan") lines"
result "$([ "$rc" = 0 ] && row_is "$tmp/aout/summary.csv" 8,kinv,p999,stock,split base_median=9000 \
		other_median=90 estimate=0.01 ci95_low=0.01 ci95_high=0.01 mwu_p=0.0079365079 \
		verdict=differs &&
	grep -q '^8,kinv-shrink,p999,us,split,5,90.0,90.0,90.0,trylock,5,90.0,' "$tmp/aout/summary.csv" &&
	grep -q '^8,kinv,p999,us,stock,5,9000.0,9000.0,9000.0,v1,5,90.0,' "$tmp/aout/summary.csv" &&
	! grep -q '^8,kinv-shrink,[a-z0-9]*,[^,]*,v1,' "$tmp/aout/summary.csv" &&
	row_is "$tmp/aout/summary.csv" 9,cold4-128k,ips,stock,split base_median=2000 \
		other_median=1000 estimate=0.5 mwu_p=0.0079365079 verdict=differs &&
	! grep -q '^9,[^,]*,[^,]*,[^,]*,\(v1\|trylock\),' "$tmp/aout/summary.csv" && echo 1)" \
	"items 8 and 9: the FIFO kthread's P99.9 and the installs per second in summary.csv" \
	"exit $rc: $(grep '^8,kinv,p999\|^9,cold4-128k,ips' "$tmp/aout/summary.csv")"
result "$(grep -q '^| 8 | FIFO 1 kthread, nice 19 4 kthreads, 2 hogs, freelist walker every 1 ms | stock | 5 | 40 | 10 | 300 | 0 | 0 | 0 | 0 | 30.00 |$' "$tmp/aout/report.md" &&
	grep -q '^| 8 | FIFO 1 kthread, nice 19 4 kthreads, 2 hogs, freelist walker every 1 ms | split | 5 | 40 | 100 | 3 | 0 | 0 | 0 | 0 | 0.03 |$' "$tmp/aout/report.md" &&
	! grep -q '^| 8 | [^|]* no walker |' "$tmp/aout/report.md" &&
	grep -q '^## Item 9: the cold path' "$tmp/aout/report.md" && echo 1)" \
	"items 8 and 9: the walker's skips per reason, only where it ran, and item 9's section" \
	"$(grep '^| 8 |' "$tmp/aout/report.md")"

# The cover letter's sections of items 0, 8 and 9: the FIFO kthread's P99.9 in ms, the medians
# and the ratio with its interval and a '*' where it differs after the correction, the
# walker's skips (medians), 75 columns at most.
result "$(grep -q '^  P99.9 ms  *9  *0.09  0.01 \[0.01-0.01\] \*$' "$tmp/aout/cover-table.txt" &&
	grep -q '^  skipped, T=4  *300  *3$' "$tmp/aout/cover-table.txt" &&
	grep -q '^  128 KiB, T=4  *2000  *1000  0.50 \[0.50-0.50\] \*$' "$tmp/aout/cover-table.txt" &&
	awk 'length > 75 { bad = 1 } END { exit bad }' "$tmp/aout/cover-table.txt" && echo 1)" \
	"items 0, 8 and 9: their sections of the cover letter's table, within 75 columns" \
	"$(grep -E 'P99.9 ms|skipped, T=4|128 KiB, T=4' "$tmp/aout/cover-table.txt")"

# Item 7: priority inversion. v1 runs only without pressure; the FIFO caller's P99.9 is
# 20 ms on stock, 2 ms on split and 4 ms on v1 in every run. One traced run (KIND waits) per
# module and configuration says where the FIFO threads waited; it is not in the figures.
python3 "$bench" plan --profile quick --items 7 --runs 5 --variants trylock --plan "$tmp/i.plan" \
	--json "$tmp/i.json" >/dev/null
result "$([ "$(grep -c -- '--fifo-threads 1 --nice-threads 8:19 ' "$tmp/i.plan")" = 42 ] &&
	[ "$(grep -c -- '--pressure drop_caches' "$tmp/i.plan")" = 18 ] &&
	[ "$(grep -c '^[0-9]*-inv-waits-[a-z0-9]* [^ ]* waits 0 ' "$tmp/i.plan")" = 4 ] &&
	[ "$(grep -c '^[0-9]*-inv-dc-waits-[a-z0-9]* [^ ]* waits 0 ' "$tmp/i.plan")" = 3 ] &&
	[ "$(grep -c '^[0-9]*-inv-dc-trylock binder_alloc_trylock:binder_alloc_split one ' "$tmp/i.plan")" = 5 ] &&
	! grep -- '--pressure' "$tmp/i.plan" | grep -q binder_alloc_v1 &&
	[ "$(grep -c '^[0-9]*-inv-v1 binder_alloc_v1:binder_alloc_split one 0 -w 2 -p -s 16384 ' "$tmp/i.plan")" = 5 ] &&
	echo 1)" "item 7: the plan has v1 only without pressure, trylock in both" "$(grep -c . "$tmp/i.plan") lines"
while read -r id mod kind _; do
	v=20
	[ "$mod" = binder_linux ] || v=2
	case $mod in binder_alloc_v1:*) v=4 ;; esac
	# The traced runs would spoil every figure if they counted: P99.9 of 500 ms.
	[ "$kind" != waits ] || {
		v=500
		emit bench-waits "$id" "caller|__mutex_lock<-binder_alloc_new_buf|3|4500|2500|139,120,139^49;looper|-<-|1|20|20|?"
	}
	emit bench-rec "$id" all "{\"p50_ms\": 0.5, \"p99_ms\": $v.5, \"p999_ms\": $v.0, \"worst_ms\": 30.0, \"over_1ms\": $((v * 3)), \"over_10ms\": 0, \"background_calls\": 900, \"rounds\": [{\"seconds\": 1.0}]}"
	emit bench-extra "$id" "reclaimed=0 secs=1"
	echo "bench: end $id ok"
done <"$tmp/i.plan" >"$tmp/i.log"
echo "bench: clocksource tsc" >>"$tmp/i.log"
report_of "$tmp/i.json" "$tmp/i.log" "$tmp/setup.txt" "$tmp/iout"
out=$(row_is "$tmp/iout/summary.csv" 7,inv-dc,p999,stock,split base_median=20 other_median=2 \
	estimate=0.1 ci95_low=0.1 ci95_high=0.1 mwu_p=0.0079365079 verdict=differs) && [ "$rc" = 0 ]
result "$([ $? = 0 ] && echo 1)" "item 7: split against stock under pressure in summary.csv" "exit $rc: $out"
result "$(grep -q '^7,inv,over1,calls,v1,5,12.0,12.0,12.0,split,5,6.0,' "$tmp/iout/summary.csv" &&
	grep -q '^7,inv,p999,ms,stock,5,20.0,20.0,20.0,v1,5,4.0,' "$tmp/iout/summary.csv" &&
	! grep -q '^7,inv-dc,[a-z0-9]*,[^,]*,v1,' "$tmp/iout/summary.csv" &&
	! grep -q '^7,inv-dc,[a-z0-9]*,[^,]*,[a-z0-9]*,[0-9]*,[^,]*,[^,]*,[^,]*,v1,' "$tmp/iout/summary.csv" &&
	echo 1)" "item 7: split and stock against v1 only without pressure" "$(grep ',v1,' "$tmp/iout/summary.csv" | head -n2)"
result "$(grep -q '^| configuration | figure | stock | split | v1 | trylock | split/stock | split/v1 | v1/stock | trylock/stock | trylock/split |$' "$tmp/iout/report.md" &&
	grep -q '^| FIFO 1 thread, nice 19 8 threads, 2 hogs, no pressure | FIFO caller: P99.9 (ms) | 20.0–20.0 (median 20.0) | 2.00–2.00 (median 2.00) | 4.00–4.00 (median 4.00) | 2.00–2.00 (median 2.00) | 0.1 \[0.1–0.1\]; differs (U test p=0.00794, BH q=0.0247; ranges apart) | 0.5 \[0.5–0.5\]; differs (U test p=0.00794, BH q=0.0247; ranges apart) | 0.2 \[0.2–0.2\]; differs (U test p=0.00794, BH q=0.0247; ranges apart) | 0.1 \[0.1–0.1\]; differs (U test p=0.00794, BH q=0.0247; ranges apart) | 1 \[1–1\]; too few distinct values ' "$tmp/iout/report.md" &&
	grep -q '^| FIFO 1 thread, nice 19 8 threads, 2 hogs, drop_caches every 10 ms | FIFO caller: P99.9 (ms) | 20.0–20.0 (median 20.0) | 2.00–2.00 (median 2.00) | - | 2.00–2.00 (median 2.00) | 0.1 \[0.1–0.1\]; differs (U test p=0.00794, BH q=0.0247; ranges apart) | - | - | 0.1 \[0.1–0.1\]; differs (U test p=0.00794, BH q=0.0247; ranges apart) | 1 \[1–1\]; too few distinct values (U test p=1, BH q=1; ranges overlap) |$' "$tmp/iout/report.md" &&
	grep -q '^- item 7, FIFO 1 thread, nice 19 8 threads, 2 hogs, no pressure, FIFO caller: P99.9: split better than stock' "$tmp/iout/report.md" &&
	! grep -q 'no figure shows the split measurably better' "$tmp/iout/report.md" && echo 1)" \
	"item 7: stock, split, v1 and trylock side by side (trylock against stock and split), and the findings, in report.md" "$(grep '^| FIFO 1 thread.*P99.9' "$tmp/iout/report.md")"
result "$(grep -q '^| FIFO 1 thread, nice 19 8 threads, 2 hogs, drop_caches every 10 ms, sched_switch traced | split | FIFO caller | __mutex_lock<-binder_alloc_new_buf | 3 | 4.50 | 2.50 | 139 (nice 19), 120 (nice 0), 139 (nice 19) lent 49 (FIFO 50) |$' "$tmp/iout/report.md" &&
	[ "$(grep -c '^| FIFO 1 thread.*sched_switch traced | [a-z0-9]* | FIFO 49 loopers | -<- | 1 | 0.02 | 0.02 | ? |$' "$tmp/iout/report.md")" = 7 ] && echo 1)" \
	"item 7: the traced runs' waits per site in report.md" "$(grep -c 'sched_switch traced' "$tmp/iout/report.md") lines"

result "$(grep -q '^  P99.9 ms  *20  *2  0.10 \[0.10-0.10\] \*$' "$tmp/iout/cover-table.txt" &&
	grep -q '^  inv dc P99.9  *2  *2  1.00 \[1.00-1.00\]$' "$tmp/iout/cover-table.txt" &&
	awk 'length > 75 { bad = 1 } END { exit bad }' "$tmp/iout/cover-table.txt" && echo 1)" \
	"item 7 and the trylock variant in the cover letter's table, within 75 columns" \
	"$(grep 'P99.9 ms' "$tmp/iout/cover-table.txt")"

# A figure that differs from a base whose median is 0 (no ratio): v1 has no FIFO call over
# 10 ms in any run, split has 6 in every run. The findings say "worse", and the report is there.
sed 's/"over_10ms": 0/"over_10ms": 6/' "$tmp/i.log" | while IFS= read -r l; do
	case $l in
	bench-rec:\ *-inv-split\ *)
		set -- $l
		p=${l#* * * * }
		echo "bench-rec: $2 all $(printf '%s' "$p" | md5sum | cut -d' ' -f1) $p"
		;;
	bench-rec:*) echo "$l" | sed 's/"over_10ms": 6/"over_10ms": 0/' | {
		read -r t id c _ p
		echo "$t $id $c $(printf '%s' "$p" | md5sum | cut -d' ' -f1) $p"; } ;;
	*) echo "$l" ;;
	esac
done >"$tmp/z.log"
report_of "$tmp/i.json" "$tmp/z.log" "$tmp/setup.txt" "$tmp/zout"
result "$([ "$rc" = 0 ] && grep -q '^- item 7, FIFO 1 thread, nice 19 8 threads, 2 hogs, no pressure, FIFO calls over 10 ms: split worse than v1, split-v1 +6 calls \[+6, +6\], p=' "$tmp/zout/report.md" && echo 1)" \
	"findings: a difference from a base median of 0 is named, not a crash" "exit $rc: $(grep 'over 10 ms: split' "$tmp/zout/report.md")"

# The guest ships raw samples (bench-samples); bench.py computes their order statistics: the
# sample at index n * p / 100 of the sorted ones, as the guest's awk did before. 1..200 ns in
# reverse order: P0 1, P50 101, P99 199, P99.5 200; delivery times 5 1 4 2 3 us (one unmatched).
# A record of before (bench-cdf, a whole bench-ktrace line) still reads as it was.
samples_log() { # ID TAG PAYLOAD...: tagged lines with their md5, as bench-run's emit() writes
	local id=$1 t p
	shift
	while [ $# -gt 0 ]; do
		t=$1 p=$2
		shift 2
		echo "$t: $id $(printf '%s' "$p" | md5sum | cut -d' ' -f1) $p"
	done
}
{
	samples_log r1 bench-samples "ns $(seq 200 -1 1 | tr '\n' ' ' | sed 's/ $//')" \
		bench-samples "k_us 5 1 4 2 3" bench-ktrace "unmatched=1"
	samples_log r2 bench-cdf "$(seq 0 102 | tr '\n' ' ' | sed 's/ $//')" \
		bench-ktrace "n=2 avg_us=1.5 p50_us=2 p90_us=2 p99_us=2 max_us=2 unmatched=0"
	echo "bench: clocksource tsc"
} >"$tmp/samples.log"
expect_out "raw samples: bench.py computes each run's CDF and delivery times; old records read as they were" \
	"r1 103 1 101 199 200 200 {'n': 5.0, 'avg_us': 3.0, 'p50_us': 3.0, 'p90_us': 5.0, 'p99_us': 5.0, 'max_us': 5.0, 'unmatched': 1.0}
r2 103 0 50 99 100 102 {'n': 2.0, 'avg_us': 1.5, 'p50_us': 2.0, 'p90_us': 2.0, 'p99_us': 2.0, 'max_us': 2.0, 'unmatched': 0.0} []" \
	python3 -c 'import sys; sys.path.insert(0, sys.argv[1])
from benchlib.parse import parse_log
runs, problems = parse_log(sys.argv[2])
for rid in ("r1", "r2"):
    c = runs[rid]["cdf"]
    print(rid, len(c), c[0], c[50], c[99], c[100], c[102], runs[rid]["ktrace"], *([problems] if rid == "r2" else []))' \
	"$top/bench" "$tmp/samples.log"

# Item 7's guest side: dwaits() of bench/bench-run on a made-up sched_switch trace. The FIFO
# caller (prio 49) sleeps 2000 us on a mutex in binder_alloc_new_buf, with another CPU's event
# between its switch-out and its stack; a loopers (prio 50) sleeps 300 us and 500 us in an rwsem
# with no binder frame; a nice 19 thread's D sleep does not count. The caller is woken 100 us
# before it runs (a run-queue wait) by the nice 19 thread (prio 139) that released the mutex;
# the looper's wakers are not in the trace ("?"). A waking while the caller still runs is stale:
# its next sleep (S, 1 ms) is not a run-queue wait, only the 100 us after its next waking are.
eval "$(sed -n '/^dwaits() {/,/^}/p' "$top/bench/bench-run")"
cat >"$tmp/sched.trace" <<'TRACE'
# tracer: nop
 binder_throughp-120 [001] d..2. 100.000100: sched_switch: prev_comm=binder_throughp prev_pid=120 prev_prio=49 prev_state=D ==> next_comm=swapper/1 next_pid=0 next_prio=120
 binder_throughp-130 [000] d..2. 100.000100: sched_switch: prev_comm=binder_throughp prev_pid=130 prev_prio=139 prev_state=D ==> next_comm=binder_throughp next_pid=131 next_prio=50
 binder_throughp-120 [001] d..2. 100.000101: <stack trace>
 => __schedule+0x2c4/0x8f0
 => schedule+0x2a/0xc0
 => schedule_preempt_disabled+0x15/0x20
 => __mutex_lock.constprop.0+0x3b1/0x7a0
 => binder_alloc_new_buf+0x9c/0x2f0 [binder_linux]
 => binder_transaction+0x8d1/0x2c10 [binder_linux]
 binder_throughp-130 [000] d..2. 100.000102: <stack trace>
 => __schedule+0x2c4/0x8f0
 => binder_alloc_free_buf+0x1/0x2 [binder_linux]
 binder_throughp-131 [000] d..2. 100.000200: sched_switch: prev_comm=binder_throughp prev_pid=131 prev_prio=50 prev_state=D ==> next_comm=swapper/0 next_pid=0 next_prio=120
 binder_throughp-131 [000] d..2. 100.000201: <stack trace>
 => __schedule+0x2c4/0x8f0
 => rwsem_down_read_slowpath+0x1/0x2
 => do_user_addr_fault+0x1/0x2
          <idle>-0 [000] d..2. 100.000500: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=binder_throughp next_pid=131 next_prio=50
 binder_throughp-131 [000] d..2. 100.000600: sched_switch: prev_comm=binder_throughp prev_pid=131 prev_prio=50 prev_state=D ==> next_comm=swapper/0 next_pid=0 next_prio=120
 binder_throughp-131 [000] d..2. 100.000601: <stack trace>
 => rwsem_down_read_slowpath+0x1/0x2
          <idle>-0 [000] d..2. 100.001100: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=binder_throughp next_pid=131 next_prio=50
  binder_throughp-130 [000] d..3. 100.002000: sched_waking: comm=binder_throughp pid=120 prio=49 target_cpu=001
          <idle>-0 [001] d..2. 100.002100: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=binder_throughp next_pid=120 next_prio=49
 binder_throughp-130 [000] d..3. 100.002200: sched_waking: comm=binder_throughp pid=120 prio=49 target_cpu=001
 binder_throughp-120 [001] d..2. 100.002300: sched_switch: prev_comm=binder_throughp prev_pid=120 prev_prio=49 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120
          <idle>-0 [001] d.h3. 100.003300: sched_waking: comm=binder_throughp pid=120 prio=49 target_cpu=001
          <idle>-0 [001] d..2. 100.003400: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=binder_throughp next_pid=120 next_prio=49
TRACE
expect_out "item 7: dwaits() sums each FIFO thread's D-state waits per site" \
	"caller|__mutex_lock.constprop.0<-binder_alloc_new_buf+0x9c|1|2000|2000|139;looper|rwsem_down_read_slowpath<--|2|800|500|?;caller|runqueue|2|200|100|" \
	dwaits "$tmp/sched.trace" "49=caller 50=looper"
# Item 10's roles on the same trace: the prios of its SCHED_FIFO 99 and 1 threads (0, 98) and
# the looper's as fifo1: only the looper's waits are of a role.
expect_out "item 10: dwaits() takes the roles it names, by kernel prio" \
	"fifo1|rwsem_down_read_slowpath<--|2|800|500|?" \
	dwaits "$tmp/sched.trace" "0=fifo99 50=fifo1"

# Priority inheritance (an rt_mutex): the FIFO 99 thread (prio 0) blocks twice on locks held by
# a nice 19 thread (prio 139). The first time, the holder was lent prio 0 as the waiter blocked
# (sched_pi_setprio names the holder) and dropped it before its waking, as rt_mutex_unlock()
# does: the waker is "139^0". The second wait starts after the drop and nothing is lent during
# it: "139". A boost after a wait's wakeup, or one lent only to another task, is not counted.
# The FIFO 1 thread (prio 98) waits on a FIFO 1 holder whose last event is its drop back to its
# own prio 98 from a boost: nothing was lent above its own prio, "98".
cat >"$tmp/pi.trace" <<'TRACE'
# tracer: nop
 binder_prio_rec-140 [000] d..2. 99.000000: sched_pi_setprio: comm=binder_prio_rec pid=150 oldprio=98 newprio=0
 binder_prio_rec-140 [000] d..2. 99.000010: sched_pi_setprio: comm=binder_prio_rec pid=150 oldprio=0 newprio=98
 binder_prio_rec-200 [001] d..2. 99.999990: sched_pi_setprio: comm=binder_prio_rec pid=140 oldprio=139 newprio=0
 binder_prio_rec-200 [001] d..2. 100.000000: sched_switch: prev_comm=binder_prio_rec prev_pid=200 prev_prio=0 prev_state=D ==> next_comm=binder_prio_rec next_pid=140 next_prio=0
 binder_prio_rec-200 [001] d..2. 100.000001: <stack trace>
 => rt_mutex_slowlock_block.constprop.0+0x1/0x2
 => binder_alloc_new_buf+0x10/0x20 [binder_linux]
 binder_prio_rec-140 [001] d..2. 100.000900: sched_pi_setprio: comm=binder_prio_rec pid=140 oldprio=0 newprio=139
 binder_prio_rec-140 [001] d..3. 100.001000: sched_waking: comm=binder_prio_rec pid=200 prio=0 target_cpu=001
 binder_prio_rec-140 [001] d..2. 100.001000: sched_switch: prev_comm=binder_prio_rec prev_pid=140 prev_prio=139 prev_state=R+ ==> next_comm=binder_prio_rec next_pid=200 next_prio=0
 binder_prio_rec-200 [001] d..2. 100.002000: sched_switch: prev_comm=binder_prio_rec prev_pid=200 prev_prio=0 prev_state=D ==> next_comm=binder_prio_rec next_pid=140 next_prio=139
 binder_prio_rec-200 [001] d..2. 100.002001: <stack trace>
 => rt_mutex_slowlock_block.constprop.0+0x1/0x2
 => binder_alloc_new_buf+0x10/0x20 [binder_linux]
 binder_prio_rec-140 [001] d..3. 100.005000: sched_waking: comm=binder_prio_rec pid=200 prio=0 target_cpu=001
 binder_prio_rec-140 [001] d..2. 100.005000: sched_switch: prev_comm=binder_prio_rec prev_pid=140 prev_prio=139 prev_state=R+ ==> next_comm=binder_prio_rec next_pid=200 next_prio=0
 binder_prio_rec-300 [000] d..2. 100.006000: sched_pi_setprio: comm=binder_prio_rec pid=140 oldprio=139 newprio=0
 binder_prio_rec-201 [000] d..2. 100.010000: sched_pi_setprio: comm=binder_prio_rec pid=150 oldprio=0 newprio=98
 binder_prio_rec-201 [000] d..2. 100.010100: sched_switch: prev_comm=binder_prio_rec prev_pid=201 prev_prio=98 prev_state=D ==> next_comm=binder_prio_rec next_pid=150 next_prio=98
 binder_prio_rec-201 [000] d..2. 100.010101: <stack trace>
 => rt_mutex_slowlock_block.constprop.0+0x1/0x2
 => binder_alloc_new_buf+0x10/0x20 [binder_linux]
 binder_prio_rec-150 [000] d..3. 100.011100: sched_waking: comm=binder_prio_rec pid=201 prio=98 target_cpu=000
 binder_prio_rec-150 [000] d..2. 100.011100: sched_switch: prev_comm=binder_prio_rec prev_pid=150 prev_prio=98 prev_state=R+ ==> next_comm=binder_prio_rec next_pid=201 next_prio=98
TRACE
expect_out "item 10: a waker lent a prio by priority inheritance during the wait is PRIO^LENT" \
	"fifo99|rt_mutex_slowlock_block.constprop.0<-binder_alloc_new_buf+0x10|2|4000|3000|139^0,139;fifo1|rt_mutex_slowlock_block.constprop.0<-binder_alloc_new_buf+0x10|1|1000|1000|98;fifo99|runqueue|2|0|0|;fifo1|runqueue|1|0|0|" \
	dwaits "$tmp/pi.trace" "0=fifo99 98=fifo1"

# A lock wait with a spurious wakeup: the FIFO 99 thread (prio 0) contends on an rt_mutex held
# by a nice 0 thread (prio 120), which is lent prio 0. Its first sleep (1000 us) is ended by a
# nice 19 thread (prio 139) that wakes it from a wake_q and is lent nothing; it sleeps again
# (2000 us) until the holder, its boost dropped, wakes it. The contention of the rt_mutex's
# wait_lock inside the wait (a spinlock at the rt_mutex's address) neither ends it nor starts
# another; a contention that never slept is no wait. Sleeps: two, wakers "139" and "120^0"; one lock wait of 3800 us, its waker "120^0".
# The holder, switched out at prio 0 while lent it, is no FIFO 99 thread: its run-queue wait
# is not counted, only the waiter's three.
cat >"$tmp/cw.trace" <<'TRACE'
# tracer: nop
 binder_prio_rec-210 [001] d..2. 199.000000: contention_begin: 00000000deadbeef (flags=SPIN)
 binder_prio_rec-210 [001] d..2. 199.000010: contention_end: 00000000deadbeef (ret=0)
 binder_prio_rec-210 [001] d..2. 200.000000: contention_begin: 00000000aaaa0000 (flags=RT)
 binder_prio_rec-210 [001] d..2. 200.000100: sched_pi_setprio: comm=binder_prio_rec pid=160 oldprio=120 newprio=0
 binder_prio_rec-210 [001] d..2. 200.000500: sched_switch: prev_comm=binder_prio_rec prev_pid=210 prev_prio=0 prev_state=D ==> next_comm=binder_prio_rec next_pid=160 next_prio=0
 binder_prio_rec-210 [001] d..2. 200.000501: <stack trace>
 => rt_mutex_schedule+0x1/0x2
 => binder_alloc_new_buf+0x797/0x900 [binder_linux]
 binder_prio_rec-170 [000] d..3. 200.001400: sched_waking: comm=binder_prio_rec pid=210 prio=0 target_cpu=001
 binder_prio_rec-160 [001] d..2. 200.001500: sched_switch: prev_comm=binder_prio_rec prev_pid=160 prev_prio=0 prev_state=R+ ==> next_comm=binder_prio_rec next_pid=210 next_prio=0
 binder_prio_rec-210 [001] d..2. 200.001510: contention_begin: 00000000aaaa0000 (flags=SPIN)
 binder_prio_rec-210 [001] d..2. 200.001520: contention_end: 00000000aaaa0000 (ret=0)
 binder_prio_rec-210 [001] d..2. 200.001600: sched_switch: prev_comm=binder_prio_rec prev_pid=210 prev_prio=0 prev_state=D ==> next_comm=binder_prio_rec next_pid=160 next_prio=0
 binder_prio_rec-210 [001] d..2. 200.001601: <stack trace>
 => rt_mutex_schedule+0x1/0x2
 => binder_alloc_new_buf+0x797/0x900 [binder_linux]
 binder_prio_rec-160 [001] d..2. 200.003500: sched_pi_setprio: comm=binder_prio_rec pid=160 oldprio=0 newprio=120
 binder_prio_rec-160 [001] d..3. 200.003550: sched_waking: comm=binder_prio_rec pid=210 prio=0 target_cpu=001
 binder_prio_rec-160 [001] d..2. 200.003600: sched_switch: prev_comm=binder_prio_rec prev_pid=160 prev_prio=120 prev_state=R+ ==> next_comm=binder_prio_rec next_pid=210 next_prio=0
 binder_prio_rec-210 [001] d..2. 200.003650: sched_switch: prev_comm=binder_prio_rec prev_pid=210 prev_prio=0 prev_state=R+ ==> next_comm=binder_prio_rec next_pid=170 next_prio=139
 binder_prio_rec-170 [001] d..2. 200.003700: sched_switch: prev_comm=binder_prio_rec prev_pid=170 prev_prio=139 prev_state=R+ ==> next_comm=binder_prio_rec next_pid=210 next_prio=0
 binder_prio_rec-210 [001] d..2. 200.003800: contention_end: 00000000aaaa0000 (ret=0)
TRACE
expect_out "item 10: a lock wait is one wait from its contention_begin, its waker that of its last sleep" \
	"fifo99|wait: rt_mutex_schedule<-binder_alloc_new_buf+0x797|1|3800|3800|120^0;fifo99|rt_mutex_schedule<-binder_alloc_new_buf+0x797|2|3000|2000|139,120^0;fifo99|runqueue|3|200|100|" \
	dwaits "$tmp/cw.trace" "0=fifo99 98=fifo1"

# A waiter that spins: woken from its sleep by a nice 19 thread's wake_q (spurious), the FIFO 99
# thread spins on the owner in TASK_UNINTERRUPTIBLE instead of sleeping again, and the holder
# (nice 0, lent 0 for the wait) wakes it as it releases the lock: a waking of a running task.
# The sleep's waker is the nice 19 thread; the lock wait's is the holder, "120^0".
cat >"$tmp/spin.trace" <<'TRACE'
# tracer: nop
 binder_prio_rec-210 [001] d..2. 300.000000: contention_begin: 00000000aaaa0000 (flags=RT)
 binder_prio_rec-210 [001] d..2. 300.000100: sched_pi_setprio: comm=binder_prio_rec pid=160 oldprio=120 newprio=0
 binder_prio_rec-210 [001] d..2. 300.000500: sched_switch: prev_comm=binder_prio_rec prev_pid=210 prev_prio=0 prev_state=D ==> next_comm=swapper/1 next_pid=0 next_prio=120
 binder_prio_rec-210 [001] d..2. 300.000501: <stack trace>
 => rt_mutex_schedule+0x1/0x2
 => binder_alloc_new_buf+0x797/0x900 [binder_linux]
 binder_prio_rec-170 [000] d..3. 300.001400: sched_waking: comm=binder_prio_rec pid=210 prio=0 target_cpu=001
          <idle>-0 [001] d..2. 300.001500: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=binder_prio_rec next_pid=210 next_prio=0
 binder_prio_rec-160 [000] d..2. 300.003500: sched_pi_setprio: comm=binder_prio_rec pid=160 oldprio=0 newprio=120
 binder_prio_rec-160 [000] d..3. 300.003550: sched_waking: comm=binder_prio_rec pid=210 prio=0 target_cpu=001
 binder_prio_rec-160 [000] d..2. 300.003600: sched_switch: prev_comm=binder_prio_rec prev_pid=160 prev_prio=120 prev_state=S ==> next_comm=binder_prio_rec next_pid=170 next_prio=139
 binder_prio_rec-210 [001] d..2. 300.003800: contention_end: 00000000aaaa0000 (ret=0)
TRACE
expect_out "item 10: a lock wait's waker is the last to wake it, spinning on the owner too" \
	"fifo99|wait: rt_mutex_schedule<-binder_alloc_new_buf+0x797|1|3800|3800|120^0;fifo99|rt_mutex_schedule<-binder_alloc_new_buf+0x797|1|1000|1000|139;fifo99|runqueue|1|100|100|" \
	dwaits "$tmp/spin.trace" "0=fifo99 98=fifo1"

# The lockstat kernel: lockstat() of bench/bench-run on a made-up /proc/lock_stat sums binder's
# classes of the same name (&alloc->mutex and lockdep's &alloc->mutex#2) and ignores others; the
# report puts the guest's lines in a table and says the timings are not make bench's.
eval "$(sed -n '/^lockstat() {/,/^}/p' "$top/bench/bench-run")"
cat >"$tmp/lock_stat" <<'LS'
lock_stat version 0.4
-------------------------------------------------------------------------------------------
                              class name    con-bounces    contentions   waittime-min   waittime-max waittime-total   waittime-avg    acq-bounces   acquisitions   holdtime-min   holdtime-max holdtime-total   holdtime-avg
-------------------------------------------------------------------------------------------
                          &alloc->mutex:            10             12           0.50        3000.00        6000.00         500.00            40            900           0.20          80.00        1500.00           1.67
                          -------------
                          &alloc->mutex             12          [<ffffffff81000000>] binder_alloc_new_buf+0x3c/0x90 [binder_linux]
                        &alloc->mutex#2:             1              3           1.00          10.00          20.00           6.67             2            100           0.10         120.00         300.00           3.00
                      &proc->inner_lock:             0              0           0.00           0.00           0.00           0.00            10           5000           0.05           9.00         900.00           0.18
                           &mm->mmap_lock:           5              5           1.00           2.00           5.00           1.00             1             10           1.00           1.00           1.00           1.00
LS
expect_out "lock_stat: binder's classes, summed per name" \
	"&alloc->mutex,15,3000.00,6020.00,1000,120.00,1800.00;&proc->inner_lock,0,0.00,0.00,5000,9.00,900.00" \
	lockstat "$tmp/lock_stat"
python3 "$bench" plan --profile quick --items 1 --runs 3 --plan "$tmp/l.plan" --json "$tmp/l.json" >/dev/null
while read -r id mod _; do
	emit bench-rec "$id" all '{"iterations_per_sec": 100, "avg_ms": 1.0, "p99_ms": 2.0, "rounds": [{"seconds": 1.0}]}'
	if [ "$mod" = binder_linux ]; then
		emit bench-lockstat "$id" "&alloc->mutex,15,3000.00,6020.00,1000,120.00,1800.00;&proc->inner_lock,0,0.00,0.00,5000,9.00,900.00"
	elif [ "${id%%-*}" = 006 ]; then
		# nobody took install_mutex in this run: lock_stat leaves the class out
		emit bench-lockstat "$id" "&alloc->lock,4,5.00,8.00,1000,2.00,50.00"
	else
		emit bench-lockstat "$id" "&alloc->install_mutex,0,0.00,0.00,40,30.00,100.00;&alloc->lock,4,5.00,8.00,1000,2.00,50.00"
	fi
	echo "bench: end $id ok"
done <"$tmp/l.plan" >"$tmp/l.log"
echo "bench: clocksource tsc" >>"$tmp/l.log"
printf 'accel=tcg\nflavour=lockstat\n' >"$tmp/l-setup.txt"
report_of "$tmp/l.json" "$tmp/l.log" "$tmp/l-setup.txt" "$tmp/lout"
result "$([ "$rc" = 0 ] &&
	grep -q '^| 1 | -w 2, no pressure | stock | &alloc->mutex | 3 | 15 | 6.02 | 3000.00 | 401.33 | 1000 | 120.00 |$' "$tmp/lout/report.md" &&
	grep -q '^| 1 | -w 2, drop_caches every 10 ms | split | &alloc->lock | 3 | 4 | 0.01 | 5.00 | 2.00 | 1000 | 2.00 |$' "$tmp/lout/report.md" &&
	grep -q '^- The lock_stat kernel (CONFIG_LOCK_STAT, DEBUG_KERNEL): every lock operation is instrumented' "$tmp/lout/report.md" &&
	grep -q '^| 1 | -w 2, no pressure | split | &alloc->install_mutex | 3 | 0 | 0.00 | 0.00 | 0.00 | 40 | 30.00 |$' "$tmp/lout/report.md" &&
	grep -q '^Method: one boot of the binder=m lockstat kernel' "$tmp/lout/report.md" &&
	echo 1)" "lock_stat: the report's table and its warning" "exit $rc: $(grep -c '^| 1 |' "$tmp/lout/report.md") rows"
expect_fail "bench.sh: BENCH_LOCKSTAT=2" "BENCH_LOCKSTAT takes 0 or 1 (got '2')" \
	env BENCH_LOCKSTAT=2 "$top/bench/bench.sh"

# Item 1 under pressure: pages reclaimed per drop_caches write (50 or 80 pages in 100 writes),
# only where the writes were made.
python3 "$bench" plan --profile quick --items 1 --runs 3 --plan "$tmp/r.plan" --json "$tmp/r.json" >/dev/null
while read -r id mod _ _ args; do
	w=0 pg=0
	case $args in *--pressure*) w=100 pg=50 ;; esac
	[ "$mod" = binder_linux ] || pg=$((pg * 8 / 5))
	emit bench-rec "$id" all "{\"iterations_per_sec\": 100, \"avg_ms\": 1.0, \"p99_ms\": 2.0, \"drop_caches_writes\": $w, \"rounds\": [{\"seconds\": 1.0}]}"
	emit bench-extra "$id" "reclaimed=$pg secs=1"
	echo "bench: end $id ok"
done <"$tmp/r.plan" >"$tmp/r.log"
echo "bench: clocksource tsc" >>"$tmp/r.log"
report_of "$tmp/r.json" "$tmp/r.log" "$tmp/setup.txt" "$tmp/rout"
result "$([ "$rc" = 0 ] && grep -q '^1,seed-dc,rpw,pages/write,stock,3,0.5,0.5,0.5,split,3,0.8,0.8,0.8,1.6' "$tmp/rout/summary.csv" &&
	! grep -q '^1,seed,rpw,' "$tmp/rout/summary.csv" && echo 1)" \
	"item 1: pages reclaimed per drop_caches write, with pressure only" "exit $rc: $(grep ',rpw,' "$tmp/rout/summary.csv")"

# bench.sh accept keeps only a complete run.
expect_fail "bench.sh accept: no complete run" "no complete make bench run in $tmp/noout/bench" \
	env OUT="$tmp/noout" "$top/bench/bench.sh" accept
expect_fail "bench.sh: unknown argument" "unknown argument 'acept'" "$top/bench/bench.sh" acept

# bench.sh's input checks, before anything is built.
export CACHE=$tmp/cache
expect_fail "bench.sh: unknown mode" "BENCH_MODES: unknown mode 'turbo'" \
	env BENCH_MODES="sync turbo" "$top/bench/bench.sh"
expect_fail "bench.sh: unknown item" "BENCH_ITEMS: unknown item '11' (have: 0 1 2 3 4 5 6 7 8 9 10)" \
	env BENCH_ITEMS="1 11" "$top/bench/bench.sh"
expect_fail "bench.sh: BENCH_QUICK and BENCH_FULL together" "pick one" \
	env BENCH_QUICK=1 BENCH_FULL=1 "$top/bench/bench.sh"
expect_fail "bench.sh: BENCH_RUNS not a number" "BENCH_RUNS='x' is not a number" \
	env BENCH_RUNS=x "$top/bench/bench.sh"
expect_fail "bench.sh: BENCH_HOST_LOAD not a number" "BENCH_HOST_LOAD='two' is not a number of busy loops" \
	env BENCH_HOST_LOAD=two "$top/bench/bench.sh"
expect_fail "bench.sh: BENCH_SETTLE not a number" "BENCH_SETTLE='-1' is not a number of seconds" \
	env BENCH_SETTLE=-1 "$top/bench/bench.sh"
# make bench-accept's other checks (the code, the boots, the layout): tests/bench/test-record.sh.
mkdir -p "$tmp/acc/bench/perf"
: >"$tmp/acc/bench/bench.ok"
expect_fail "bench.sh accept: bench.ok without boots" "bench.ok names no boot" \
	env OUT="$tmp/acc" "$top/bench/bench.sh" accept
expect_fail "bench.sh accept: a directory outside series/bench*" "accept series/cover-letter.txt: a record goes to series/bench or series/bench-NAME" \
	env OUT="$tmp/acc" "$top/bench/bench.sh" accept series/cover-letter.txt
expect_fail "bench.sh accept: a directory up the tree" "accept series/bench-../x: a record goes to series/bench or series/bench-NAME" \
	env OUT="$tmp/acc" "$top/bench/bench.sh" accept series/bench-../x
expect_fail "bench.sh: no kernel and no build allowed" "no binder=m perf kernel in" \
	env BENCH_NO_BUILD=1 "$top/bench/bench.sh"

# The design variants (BENCH_VARIANTS): each runs in the items VARIANTS gives it (item 9 only
# where it installs pages otherwise than the split), is compared with stock and with split,
# and its rollbacks are counted from bench-extra. Items 1, 7 and 9 with rt, trylock and
# v3, without v1: throughput 1000 (stock), 2000 (split), 3000 (v3), 2000 (the
# rest); 0, 4, 40 and 2 rollbacks; item 7's FIFO caller makes 1000 calls beside 3000 of the
# nice 19 threads, 2.5 voluntary switches per timed call, and the callers use 8 us of CPU per
# timed call, that is 2 per call of all.
python3 "$bench" plan --profile quick --items "1 7 9" --runs 5 --variants "rt trylock v3" \
	--no-v1 --plan "$tmp/v.plan" --json "$tmp/v.json" >/dev/null
result "$(! grep -q binder_alloc_v1 "$tmp/v.plan" &&
	[ "$(grep -c -- '-cold[24]-[0-9]*k-v3 binder_alloc_v3:binder_alloc_split alloc ' "$tmp/v.plan")" = 20 ] &&
	[ "$(grep -c -- '-cold[0-9]-[0-9]*k-rt binder_alloc_rt:binder_alloc_split alloc ' "$tmp/v.plan")" = 20 ] &&
	! grep -q -- '-cold1-[0-9]*k-v3 ' "$tmp/v.plan" &&
	[ "$(grep -c -- '-cold1-[0-9]*k-split ' "$tmp/v.plan")" = 10 ] &&
	! grep -- '--alloc-cold' "$tmp/v.plan" | grep -q trylock &&
	[ "$(grep -c '^[0-9]*-seed-dc-trylock binder_alloc_trylock:binder_alloc_split one ' "$tmp/v.plan")" = 5 ] &&
	[ "$(grep -c -- '-warmup-' "$tmp/v.plan")" = 5 ] && echo 1)" \
	"plan: the variants in their items (item 9: rt and v3, not trylock; not T=1), no v1 with --no-v1" \
	"$(grep -c . "$tmp/v.plan") lines"
vlog() { # STOCK_TPUT: a console log of the plan above
	while read -r id mod kind _ args; do
		v=2000 rt=2 bg=0
		case $args in *--nice-threads*) bg=3000 ;; esac
		case $mod in binder_linux) v=$1 rt=0 ;; binder_alloc_split) rt=4 ;; binder_alloc_v3:*) v=3000 rt=40 ;; esac
		emit bench-rec "$id" all "{\"mode\": \"sync\", \"iterations_per_sec\": $v.0, \"avg_ms\": 1.0, \"p50_ms\": 1.0, \"p99_ms\": 2.0, \"p999_ms\": 3.0, \"worst_ms\": 4.0, \"over_1ms\": 1, \"over_10ms\": 0, \"transactions\": 1000, \"background_calls\": $bg, \"drop_caches_writes\": 0, \"ops_per_sec\": $v.0, \"installs_per_sec\": $v.0, \"p50_ns\": 100, \"p99_ns\": 200, \"rounds\": [{\"seconds\": 1.0}], \"client_vcsw_per_call\": 1.0, \"client_ivcsw_per_call\": 0.5, \"client_cpu_us_per_call\": 8.0, \"server_vcsw_per_call\": -1, \"server_ivcsw_per_call\": -1, \"server_cpu_us_per_call\": -1, \"fifo_vcsw_per_call\": 2.5, \"fifo_ivcsw_per_call\": 0.0, \"fifo_cpu_us_per_call\": 30.0}"
		emit bench-extra "$id" "reclaimed=0 secs=1 retries=$rt skip_mmget=0 skip_mmap=0 skip_mutex=1 skip_vma=0 skip_lock=0 skip_retry=0"
		echo "bench: end $id ok"
	done <"$tmp/v.plan"
	echo "bench: clocksource tsc"
}
vlog 1000 >"$tmp/v.log"
report_of "$tmp/v.json" "$tmp/v.log" "$tmp/setup.txt" "$tmp/vout"
result "$([ "$rc" = 0 ] &&
	row_is "$tmp/vout/summary.csv" 1,seed,tput,stock,v3 base_median=1000 other_median=3000 estimate=3 &&
	row_is "$tmp/vout/summary.csv" 1,seed,tput,split,v3 base_median=2000 other_median=3000 estimate=1.5 &&
	row_is "$tmp/vout/summary.csv" 9,cold2-4k,ips,stock,rt base_median=1000 other_median=2000 &&
	! grep -q '^9,[^,]*,[^,]*,[^,]*,[a-z]*,[0-9]*,[^,]*,[^,]*,[^,]*,trylock,' "$tmp/vout/summary.csv" && echo 1)" \
	"report: each variant against stock and against split" "exit $rc"
result "$(row_is "$tmp/vout/summary.csv" 7,inv,f_vcsw,stock,split base_median=2.5 other_median=2.5 &&
	row_is "$tmp/vout/summary.csv" 7,inv,c_cpu,stock,split base_median=2 other_median=2 &&
	row_is "$tmp/vout/summary.csv" 1,seed,c_cpu,stock,split base_median=8 other_median=8 &&
	! grep -q '^[0-9]*,[^,]*,s_cpu,' "$tmp/vout/summary.csv" && echo 1)" \
	"report: switches and CPU per call (callers per call of all their calls; no server without it)" \
	"$(grep ',\(c_cpu\|f_vcsw\),' "$tmp/vout/summary.csv" | head -n3)"
result "$(grep -q '^| -w 2, no pressure | v3 | 5 | 40 | 1 | 0 | 0 | 0 | 0 | 0 |$' "$tmp/vout/report.md" &&
	grep -q '^| -w 2, no pressure | stock | 5 | 0 | 1 | 0 | 0 | 0 | 0 | 0 |$' "$tmp/vout/report.md" &&
	grep -q '^1,1,[0-9]*-inv-v3,7,inv,".*",one,[0-9],v3,.*,3000,40,1,0,0,0,0,0,' "$tmp/vout/runs.csv" && echo 1)" \
	"report: the rollbacks and skips of each module, in report.md and runs.csv" \
	"$(grep '^| -w 2, no pressure | v3' "$tmp/vout/report.md"; grep -m1 -- '-inv-v3,' "$tmp/vout/runs.csv")"
result "$([ "$(grep -c ',seed,tput,iter/s,' "$tmp/vout/values.csv")" = 25 ] &&
	grep -q '^1,seed,tput,iter/s,v3,1,[0-9]*-seed-v3,3000.0$' "$tmp/vout/values.csv" && echo 1)" \
	"report: values.csv has every run's value of each figure" "$(grep -c ',seed,tput,iter/s,' "$tmp/vout/values.csv"): $(grep -m1 'v3' "$tmp/vout/values.csv")"
vlog 500 >"$tmp/v2.log"
report_of "$tmp/v.json" "$tmp/v2.log" "$tmp/setup.txt" "$tmp/vout2"
rc=0
python3 "$bench" designs --boot "proxy=$tmp/vout" --boot "noproxy=$tmp/vout2" --out "$tmp/designs.md" >/dev/null || rc=$?
result "$([ "$rc" = 0 ] &&
	grep -q '^| figure | split/stock | rt/stock | trylock/stock | v3/stock |$' "$tmp/designs.md" &&
	grep -q '^| item 1: throughput, no pressure | 2.00x \[2.00-2.00\] + | 2.00x \[2.00-2.00\] + | 2.00x \[2.00-2.00\] + | 3.00x \[3.00-3.00\] + |$' "$tmp/designs.md" &&
	grep -q '^## Stock with proxy execution against stock without' "$tmp/designs.md" &&
	grep -q '^| item 1: throughput, no pressure | 2.00x \[2.00-2.00\] \* | 1.00x \[1.00-1.00\] |$' "$tmp/designs.md" && echo 1)" \
	"designs: each design against stock per boot; stock proxy/noproxy across the boots" \
	"exit $rc: $(grep 'item 1: throughput, no pressure' "$tmp/designs.md" | head -n2)"
# A ratio below 0.1 keeps two significant digits (item 8's are about 0.001x), not "0.00x".
mkdir -p "$tmp/small"
printf '%s\n' 'item,config,figure,base,other,estimate,estimate_kind,ci95_low,ci95_high,verdict' \
	'8,kinv,p99,stock,split,0.00041,ratio,0.00032,0.012,differs' >"$tmp/small/summary.csv"
python3 "$bench" designs --boot "perf=$tmp/small" --out "$tmp/small.md" >/dev/null
result "$(grep -qF '| item 8: FIFO kthread P99, no walker | 0.00041x [0.00032-0.012] * |' "$tmp/small.md" && echo 1)" \
	"designs: ratios below 0.1 with two significant digits" "$(grep 'item 8' "$tmp/small.md")"
expect_fail "designs: a boot without its summary" "designs: --boot x=$tmp/nope: expected NAME=DIR with DIR/summary.csv" \
	python3 "$bench" designs --boot "x=$tmp/nope" --out "$tmp/d2.md"
# --design-only (the proxy and noproxy boots): only the designs table's configurations, every
# module of them; items 2 to 6 have none.
python3 "$bench" plan --profile quick --items "0 1 7 8 9" --runs 3 --variants "rt v3" \
	--no-v1 --design-only --plan "$tmp/d.plan" --json "$tmp/d.json" >/dev/null
result "$(cut -d' ' -f1 "$tmp/d.plan" | sed 's/^[0-9]*-//; s/-[a-z0-9]*$//' | sort -u | tr '\n' ' ' |
	grep -qx 'alloc1-shrink alloc4 alloc4-shrink cold2-128k cold2-4k cold4-128k cold4-4k inv inv-dc inv-dc-waits inv-waits kinv kinv-shrink seed seed-dc warmup ' &&
	[ "$(grep -c '^[0-9]*-inv-dc-v3 ' "$tmp/d.plan")" = 3 ] &&
	[ "$(grep -c '^[0-9]*-alloc4-stock ' "$tmp/d.plan")" = 3 ] && echo 1)" \
	"plan: --design-only keeps the designs table's configurations, for every module" \
	"$(cut -d' ' -f1 "$tmp/d.plan" | sed 's/^[0-9]*-//; s/-[a-z0-9]*$//' | sort -u | tr '\n' ' ')"
expect_fail "plan: --design-only without such a configuration" "plan: --design-only: none of items 2 3 has a configuration of the designs table" \
	python3 "$bench" plan --profile quick --items "2 3" --design-only --plan "$tmp/x.plan" --json "$tmp/x.json"
expect_fail "plan: an unknown variant" "plan: unknown variant 'rust'" \
	python3 "$bench" plan --profile quick --variants rust --plan "$tmp/x.plan" --json "$tmp/x.json"
expect_fail "bench.sh: an unknown variant" "BENCH_VARIANTS: unknown variant 'rust'" \
	env BENCH_VARIANTS=rust "$top/bench/bench.sh"
expect_fail "bench.sh: an unknown boot" "BENCH_BOOTS: unknown boot 'kvm'" \
	env BENCH_BOOTS="perf kvm" "$top/bench/bench.sh"
expect_fail "bench.sh: boots with lock_stat" "BENCH_BOOTS with BENCH_LOCKSTAT=1" \
	env BENCH_BOOTS=perf BENCH_LOCKSTAT=1 "$top/bench/bench.sh"
# make check's bench-build stage: a module that does not build is a "not ok" and fails the
# stage. A kernel tree (KSRC=) and a perf build dir that are there but are no kernel: each
# build-module.sh call fails.
fk=$tmp/fake-ksrc
mkdir -p "$fk"
ft=$tmp/fake-cache/ksrc-$(realpath "$fk" | sha1sum | cut -c1-12)
mkdir -p "$ft/build-stock-perf-m/arch/x86/boot" "$ft/build-stock-perf-m/include/config"
touch "$ft/build-stock-perf-m/bas.ok" "$ft/build-stock-perf-m/arch/x86/boot/bzImage" "$ft/build-stock-perf-m/Module.symvers"
echo 7.3.4-fake >"$ft/build-stock-perf-m/include/config/kernel.release"
for t in stock split; do
	mkdir -p "$ft/wt-$t/drivers/android" && touch "$ft/wt-$t/drivers/android/binder_alloc.c"
done
bo=$(env CACHE="$tmp/fake-cache" KSRC="$fk" BENCH_BUILD_ONLY=1 BENCH_BOOTS=perf BENCH_ITEMS=1 \
	"$top/bench/bench.sh" 2>/dev/null) && brc=0 || brc=$?
result "$([ "$brc" != 0 ] && grep -qx 'not ok 1 perf: binder_alloc_split.ko' <<<"$bo" &&
	grep -qx 'not ok 2 perf: binder_linux.ko' <<<"$bo" && ! grep -qE '^ok [0-9]+ perf:' <<<"$bo" && echo 1)" \
	"bench.sh BENCH_BUILD_ONLY=1: a module that does not build is not ok, and the stage fails" \
	"exit $brc: $(tr '\n' '|' <<<"$bo")"
result "$(for f in "$top"/bench/variant-*.patch; do v=${f##*/variant-}; python3 "$bench" variant "${v%.patch}" >/dev/null || exit; done && echo 1)" \
	"bench.py describes every bench/variant-*.patch"

# The table goes to LKML: no name of this repository's tooling in it.
ct=("$tmp"/out/cover-table.txt "$tmp"/aout/cover-table.txt "$tmp"/iout/cover-table.txt)
result "$(ls "${ct[@]}" >/dev/null && ! grep -qiE 'make bench|item [0-9]|seed' "${ct[@]}" && echo 1)" \
	"report: the cover tables name no make target, item number or seed" \
	"$(grep -iE 'make bench|item [0-9]|seed' "${ct[@]}" | head -n1)"
echo "# bench report: $n tests, $fails failed"
[ "$fails" = 0 ]
