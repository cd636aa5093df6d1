#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host tests of make bench's record, TAP: the run order (a permutation of the runs, shuffled by
# a seed), the estimate of guest time (calibrated on the records) and of a whole make bench (the
# default within 45 minutes, quick within 10, printed first), the boots of a kernel together (a
# finding only where every boot differs in the same direction, the headline endpoints first,
# one tail; one boot), summary.csv recomputed from runs.csv (a made-up record here;
# series/bench once it is of this format), figures rendered into prose, and bench-accept's
# checks of the code, the boots, the kernels and the layout.
. "$(dirname "$0")/../lib.sh"
bench=$top/bench/bench.py

# ---- the run order ----
order() { # SEED NAME: a plan of items 1 and 7, 4 runs each, in $tmp/NAME
	python3 "$bench" plan --profile quick --items "1 7" --runs 4 --seed "$1" \
		--plan "$tmp/$2" --json "$tmp/$2.json" >/dev/null
}
order 1 o1
order 1 o1b
order 2 o2
runs_of() { sed 's/^[0-9]* *//; s/^[0-9]*-//' "$1"; } # each line without its place
result "$(cmp -s "$tmp/o1" "$tmp/o1b" && echo 1)" "order: the same seed gives the same plan"
result "$(! cmp -s <(runs_of "$tmp/o1") <(runs_of "$tmp/o2") && echo 1)" \
	"order: another seed, another order"
# A permutation: the same lines in both, each configuration and module 4 times (the 5 traced runs
# and the 3 warm-ups, of stock, split and v1, once), the warm-ups first, the places numbered
# 1 .. N in order.
counts=$(cut -d' ' -f1 "$tmp/o1" | sed 's/^[0-9]*-//' | sort | uniq -c | awk '{ print $1 }' | sort -u | tr '\n' ' ')
result "$(diff <(runs_of "$tmp/o1" | sort) <(runs_of "$tmp/o2" | sort) >/dev/null &&
	[ "$counts" = "1 4 " ] && [ "$(grep -c -- '-waits-' "$tmp/o1")" = 5 ] &&
	head -n 3 "$tmp/o1" | grep -c -- '-warmup-' | grep -qx 3 && ! sed 1,3d "$tmp/o1" | grep -q -- '-warmup-' &&
	[ "$(cut -c1-3 "$tmp/o1" | tr '\n' ' ')" = "$(seq -f %03g 1 "$(grep -c . "$tmp/o1")" | tr '\n' ' ')" ] &&
	grep -q '"order_seed": 2,' "$tmp/o2.json" && echo 1)" \
	"order: a permutation of the same runs (4 per configuration and module), warm-ups first, seed in plan.json" \
	"counts: $counts"

# ---- the estimate of guest time ----
# plan.json: each run's estimate (est_s) below its time limit (limit_s, which its --timeout is
# made of), the boot's est_s their sum and the boot's own.
result "$(python3 - "$tmp/o1.json" <<'PY' && echo 1
import json, sys
p = json.load(open(sys.argv[1]))
runs = p["runs"]
ok = (runs and all(0 < r["est_s"] < r["limit_s"] for r in runs)
      and p["est_s"] == round(p["est_boot_s"] + sum(r["est_s"] for r in runs)))
sys.exit(not ok and f"est_s {p.get('est_s')}, runs {runs[:1]}")
PY
)" "estimate: plan.json has each run's estimate, below its time limit, and the boot's"
# Calibrated: the estimate of every boot of the records with their guest time (setup.txt)
# within 35% of that time.
rc=0
python3 "$bench" calibrate "$top"/series/bench "$top"/series/bench-v5cand \
	"$top"/series/bench-default-runs/run5-dea6b41 >"$tmp/calibrate.out" 2>&1 || rc=$?
result "$([ "$rc" = 0 ] && [ "$(grep -c ' s in the guest, estimate ' "$tmp/calibrate.out")" -ge 15 ] && echo 1)" \
	"estimate: within 35% of every recorded boot's guest time (bench.py calibrate)" \
	"exit $rc: $(grep -E 'outside|error' "$tmp/calibrate.out" | head -n 3 | tr '\n' '|')"
# bench.sh prints its estimate of the whole run first; `bench.sh estimate` only that. The
# default (one perf boot) within 45 minutes, cold (nothing built: the fetch, the perf kernel,
# AOSP's binaries) and warm (built, as make check leaves the cache); the quick profile within 10
# warm; the record (make bench-record) every kernel twice. A fake cache: the stamps of what is
# built, for a KSRC= tree.
in_all() { sed -n 's/.*: about \([0-9]*\) min in all .*/\1/p' <<<"$1"; }
fk=$tmp/est-ksrc
mkdir -p "$fk"
ec=$tmp/est-cache
et=$ec/ksrc-$(realpath "$fk" | sha1sum | cut -c1-12)
est() { env CACHE="$ec" KSRC="$fk" "$@" "$top/bench/bench.sh" estimate 2>&1; }
three="perf proxy noproxy"
cold=$(est) qcold=$(est BENCH_QUICK=1) rcold=$(est BENCH_BOOTS="$three" BENCH_REPLICAS=2)
mkdir -p "$et/build-stock-perf-m" "$ec/aosp/build-x"
touch "$et/build-stock-perf-m/bas.ok" "$et/wt-stock.ok" "$et/wt-split.ok" "$ec/aosp/build-x/aosp.ok"
warm=$(est) quick=$(est BENCH_QUICK=1) record=$(est BENCH_BOOTS="$three" BENCH_REPLICAS=2)
designs=$(est BENCH_VARIANTS=all BENCH_BOOTS="$three")
result "$(grep -q '^estimate: the perf boot, once, [0-9]* runs: .*builds of .*the perf kernel and its modules' <<<"$cold" &&
	[ "$(in_all "$cold")" -le 45 ] && grep -q 'nothing to build' <<<"$warm" && [ "$(in_all "$warm")" -le 45 ] &&
	[ "$(in_all "$warm")" -lt "$(in_all "$cold")" ] && echo 1)" \
	"estimate: make bench is one perf boot, within 45 minutes cold and warm" "cold: $cold; warm: $warm"
result "$(grep -q '^estimate: the perf boot, once, ' <<<"$quick" && [ "$(in_all "$quick")" -le 10 ] && echo 1)" \
	"estimate: BENCH_QUICK=1 within 10 minutes warm" "$quick"
result "$(grep -q '^estimate: the perf, proxy and noproxy boots, each twice, .*builds of the proxy kernel' <<<"$record" &&
	[ "$(in_all "$record")" -gt 45 ] && echo 1)" \
	"estimate: the record's three kernels, two boots each, the proxy kernel to build" "$record"
# README's cost table: each "estimate: about N min" is what bench.sh estimate prints, cold then
# warm, for the command of its row.
readme_est() { # PREFIX: the estimates of README's row that starts with PREFIX, in order
	grep -F "| $1" "$top/README.md" | grep -o 'estimate[^|]*about [0-9]* min' |
		sed 's/.*about \([0-9]*\) min$/\1/' | tr '\n' ' '
}
want="$(in_all "$cold") $(in_all "$warm") |$(in_all "$qcold") $(in_all "$quick") |$(in_all "$rcold") $(in_all "$record") |$(in_all "$designs") "
got="$(readme_est '`make bench`: one boot')|$(readme_est '`BENCH_QUICK=1 make bench` |')|$(readme_est '`make bench-record`:')|$(readme_est '`BENCH_VARIANTS=all BENCH_BOOTS=')"
result "$([ "$got" = "$want" ] && echo 1)" "estimate: README's cost table has bench.sh estimate's figures" \
	"README: '$got', bench.sh estimate: '$want'"
expect_fail "bench.sh estimate takes no argument" "estimate takes no argument (got: x)" \
	env CACHE="$ec" "$top/bench/bench.sh" estimate x
# make bench prints it before anything is built or checked (here: no proxy kernel, and
# BENCH_NO_BUILD=1).
run=$(env CACHE="$ec" KSRC="$fk" BENCH_NO_BUILD=1 BENCH_BOOTS="proxy noproxy" "$top/bench/bench.sh" 2>&1)
result "$(grep -q '^\[bas\] profile default: estimate: the proxy and noproxy boots, once, ' <<<"$(head -n1 <<<"$run")" &&
	grep -q 'error: no binder=m proxy kernel' <<<"$run" && echo 1)" \
	"bench.sh: the estimate first, before the kernels" "$run"

# ---- two made-up boots of items 1 and 7 ----
# boot_of DIR N SEED TPUT AVG: boot N in DIR/bootN, its order shuffled with SEED. The FIFO
# caller's P99.9 is 20 ms on stock, 2 on split (both boots); split's throughput is twice
# stock's (TPUT=2) or about the same (TPUT=1); split's average is below stock's (AVG=lo) or
# above (AVG=hi).
emit() { # TAG ID [CLASS] PAYLOAD
	local tag=$1 id=$2 cls=
	shift 2
	[ "$tag" != bench-rec ] || { cls="$1 "; shift; }
	echo "$tag: $id $cls$(printf '%s' "$1" | md5sum | cut -d' ' -f1) $1"
}
boot_of() {
	local d=$1/boot$2 id mod kind r v p a
	mkdir -p "$d"
	python3 "$bench" plan --profile quick --items "1 7" --runs 5 --seed "$3" \
		--plan "$d/bench.plan" --json "$d/plan.json" >/dev/null
	while read -r id mod kind _; do
		r=$((10#${id%%-*}))
		v=$((1000 + r)) p=20 a=5
		if [ "$mod" != binder_linux ]; then
			p=2
			if [ "$4" = 2 ]; then v=$((2000 + r)); else v=$((1000 + (r * 7) % 13)); fi
			if [ "$5" = lo ]; then a=1; else a=9; fi
		fi
		if [ "$kind" = aosp ]; then
			emit bench-aosp "$id" "iterations per sec: $v.5|average:$a.$r""ms worst:9.1ms best:0.07ms|50%: 0.19 90%: 0.19 95%: 0.58 99%: 2.5 "
		else
			emit bench-rec "$id" all "{\"iterations_per_sec\": $v, \"avg_ms\": $a.$r, \"p50_ms\": 1.0, \"p99_ms\": 2.$r, \"p999_ms\": $p.$r, \"worst_ms\": $((p * 2)).$r, \"over_1ms\": 3, \"over_10ms\": $((p / 10)), \"transactions\": 1000, \"background_calls\": 3000, \"rounds\": [{\"seconds\": 1.0}]}"
			emit bench-extra "$id" "reclaimed=5 secs=1"
		fi
		echo "bench: end $id ok"
	done <"$d/bench.plan" >"$d/console.log"
	echo "bench: clocksource tsc" >>"$d/console.log"
	printf 'boot=perf\nreplica=%s\naccel=tcg\nsmp=2\nkernel=Linux 7.3.4\n' "$2" >"$d/setup.txt"
	python3 "$bench" report --plan "$d/plan.json" --log "$d/console.log" --setup "$d/setup.txt" \
		--out "$d" >/dev/null
}
rec=$tmp/rec/perf
boot_of "$rec" 1 11 2 lo
boot_of "$rec" 2 12 1 hi
rc=0
python3 "$bench" combine "$rec" --headline "$top/bench/headline.txt" >/dev/null 2>"$tmp/combine.err" || rc=$?
result "$([ "$rc" = 0 ] && [ -s "$rec/summary.csv" ] && [ -s "$rec/report.md" ] && [ -s "$rec/cover-table.txt" ] && echo 1)" \
	"combine: two boots give runs.csv, summary.csv, report.md and cover-table.txt" "exit $rc: $(cat "$tmp/combine.err")"
# finding_is KEY FINDING VERDICT1 VERDICT2: summary.csv's rows of the figure KEY
# (item,config,figure,base,other) in boots 1 and 2
finding_is() {
	python3 - "$rec/summary.csv" "$@" <<'PY'
import csv, sys
f, key, want, *verdicts = sys.argv[1:]
rows = [r for r in csv.DictReader(open(f))
        if ",".join((r["item"], r["config"], r["figure"], r["base"], r["other"])) == key]
got = ([r["boot"] for r in rows], [r["verdict"] for r in rows], {r["finding"] for r in rows})
if got != (["1", "2"], verdicts, {want}):
    sys.exit(print(f"{key}: {got}") or 1)
PY
}
out=$(finding_is 7,inv,p999,stock,split "finding: lower in every boot" differs differs)
result "$([ $? = 0 ] && echo 1)" "combine: differs in both boots, the same direction: a finding" "$out"
out=$(finding_is 1,seed,tput,stock,split "no finding: differs in boot 1 only" differs "no difference detected")
result "$([ $? = 0 ] && echo 1)" "combine: differs in one boot only: no finding" "$out"
out=$(finding_is 1,seed,avg,stock,split "no finding: differs in opposite directions" differs differs)
result "$([ $? = 0 ] && echo 1)" "combine: differs in both boots in opposite directions: no finding" "$out"
# The tail: max and the calls over 10 ms are P99.9's columns, no finding of their own.
out=$(finding_is 7,inv,max,stock,split "in the tail: see p999" differs differs &&
	finding_is 7,inv,over10,stock,split "in the tail: see p999" differs differs)
result "$([ $? = 0 ] && grep -q '^| 7 | [^|]* | FIFO caller: P99.9 (ms) (max 40.[0-9]* → 4.[0-9]*; 40.[0-9]* → 4.[0-9]*, over10 2 → 0; 2 → 0) | ' "$rec/report.md" &&
	! grep -q '^| 7 | [^|]* | FIFO caller: \(max\|calls over 10 ms\)' "$rec/report.md" && echo 1)" \
	"tail: P99.9, max and the calls over 10 ms are one row with one verdict" "$out"
# The cover table: a line per boot, 'finding' after the second where both differ the same way;
# max without an interval or verdict; 75 columns at most.
ct=$rec/cover-table.txt
result "$(grep -q '^  P99.9 ms       1  *20.[0-9]  *2.[0-9]*  0.[0-9]* \[[0-9.]*-[0-9.]*\] \*$' "$ct" &&
	grep -q '^                 2  *20.[0-9]  *2.[0-9]*  0.[0-9]* \[[0-9.]*-[0-9.]*\] \*  finding$' "$ct" &&
	grep -q '^  max ms         1  *40.[0-9]  *4.[0-9]*$' "$ct" &&
	sed -n '/^End to end, again/,$p' "$ct" | grep -q '^  iter/s         1 .* \*$' &&
	! grep -q 'iter/s.*finding' "$ct" &&
	awk 'length > 75 { bad = 1 } END { exit bad }' "$ct" && ! grep -qiE 'make bench|item [0-9]|seed' "$ct" && echo 1)" \
	"cover table: both boots' estimates, the finding, the tail's columns, 75 columns" \
	"$(grep -E 'P99.9 ms|max ms  ' "$ct" | head -n 4 | tr '\n' '|')"

# Pooled over the boots, the secondary analysis: pooled.csv has each figure once, its runs those
# of both boots (its estimate and p those of bench.py compare on them), one family of its own;
# report.md has it after the findings, the headline endpoints pooled, and says it is secondary.
pooled_is() { # KEY CONFIG FIGURE: pooled.csv's row KEY is bench.py compare of runs.csv's values
	python3 - "$rec" "$bench" "$@" <<'PY'
import csv, subprocess, sys
d, bench, key, cfg, fig = sys.argv[1:]
rows = [r for r in csv.DictReader(open(f"{d}/pooled.csv"))
        if ",".join((r["item"], r["config"], r["figure"], r["base"], r["other"])) == key]
vals = {}
for x in csv.DictReader(open(f"{d}/runs.csv")):
    if x["config"] == cfg and x[f"fig_{fig}"] and x["result"].startswith("ok"):
        vals.setdefault(x["module"], []).append(x[f"fig_{fig}"])
want = subprocess.run([bench, "compare", " ".join(vals["stock"]), " ".join(vals["split"])],
                      capture_output=True, text=True).stdout
got = (f"ratio={float(rows[0]['estimate']):.6g} ci95={float(rows[0]['ci95_low']):.6g},"
       f"{float(rows[0]['ci95_high']):.6g} p={float(rows[0]['mwu_p']):.6g}") if len(rows) == 1 else ""
if (len(rows) != 1 or rows[0]["boots"] != "1+2" or (rows[0]["n_base"], rows[0]["n_other"]) != ("10", "10")
        or not want.startswith(got + " ")):
    sys.exit(print(f"{key}: {len(rows)} rows, {got or rows}; compare: {want}") or 1)
PY
}
out=$(pooled_is 7,inv,p999,stock,split inv p999 2>&1 && pooled_is 1,seed,tput,stock,split seed tput 2>&1) || out="failed: $out"
bh=$(python3 -c 'import csv, sys; r = list(csv.DictReader(open(sys.argv[1]))); print(len(r), len({x["item"] + x["config"] + x["figure"] + x["base"] + x["other"] for x in r}))' "$rec/pooled.csv")
pooled_sec=$(sed -n '/^## Pooled over the boots: the secondary analysis$/,/^## /p' "$rec/report.md")
result "$([ -z "$out" ] && [ "$(head -c 11 "$rec/pooled.csv")" = "boots,item," ] &&
	[ "$bh" = "$(grep -c '^1,' "$rec/summary.csv") $(grep -c '^1,' "$rec/summary.csv")" ] &&
	[ "$(grep '^## ' "$rec/report.md" | tr '\n' '|')" = "## Headline endpoints|## Findings|## Pooled over the boots: the secondary analysis|## Every figure|## Cover letter table|" ] &&
	grep -q 'the secondary analysis, named before the run in bench/method.md' <<<"$pooled_sec" &&
	grep -q '^| 7 | [^|]* | FIFO caller: P99.9 (ms) | 20.[0-9]–20.[0-9] (median 20.[0-9]) | 2.[0-9]*–2.[0-9]* (median 2.[0-9]*) | 0.1[0-9]* \[.*\] | differs (U test p=1.08e-05, BH q=' <<<"$pooled_sec" &&
	grep -q '^| 8 | kinv | p99 | not in this run |' <<<"$pooled_sec" && echo 1)" \
	"pooled: both boots' runs together, one row a figure, the report's secondary section" \
	"$out; rows $bh; $(grep '^| 7' <<<"$pooled_sec" | head -n 1)"

# One boot (make bench's default): every figure "one boot: not replicated", none a finding; the
# report says so, and lists the figures that differ in that boot; recompute, the cover table
# and the designs table work on it.
one=$tmp/one/perf
mkdir -p "$one"
cp -r "$rec/boot1" "$one/"
rc=0
python3 "$bench" combine "$one" --headline "$top/bench/headline.txt" >/dev/null 2>"$tmp/one.err" || rc=$?
python3 "$bench" recompute "$one" >/dev/null 2>>"$tmp/one.err" || rc=$?
python3 "$bench" designs --boot "perf=$one/boot1" --out "$tmp/one-designs.md" >/dev/null 2>>"$tmp/one.err" || rc=$?
findings=$(python3 -c 'import csv, sys; print(" ".join(sorted({r["finding"] for r in csv.DictReader(open(sys.argv[1]))})))' "$one/summary.csv")
result "$([ "$rc" = 0 ] && [ "$findings" = "in the tail: see p999 one boot: not replicated" ] &&
	grep -qx '# make bench: the perf boot, one boot (not replicated)' "$one/report.md" &&
	sed -n '/^## Findings/,/^## /p' "$one/report.md" | grep -q '^[0-9]* figures (a tail counts once), one boot (BENCH_REPLICAS=1, make bench.s default): none is a finding, .* [1-9][0-9]* figures differ after this boot.s correction (below)' &&
	sed -n '/^## Findings/,/^## /p' "$one/report.md" | grep -q '^| 7 | [^|]* | FIFO caller: P99.9 (ms) .* \* | one boot: not replicated |$' &&
	grep -q 'One boot: no figure is replicated' "$one/cover-table.txt" &&
	[ ! -e "$one/pooled.csv" ] && ! grep -q '^## Pooled' "$one/report.md" &&
	grep -q '^| item 7: ' "$tmp/one-designs.md" && ! grep -q '^## Stock with proxy execution' "$tmp/one-designs.md" && echo 1)" \
	"combine: one boot, no finding, nothing pooled; the report lists what differs in that boot; recompute, designs" \
	"exit $rc: $(cat "$tmp/one.err"); findings: $findings; $(sed -n '/^## Findings/,/^## /p' "$one/report.md" | sed -n 3p | cut -c1-200)"

# ---- the headline endpoints ----
# The report leads with exactly bench/headline.txt's endpoints, in its order.
want=$(python3 "$bench" headline "$top/bench/headline.txt" | awk '{ print $1 }' | tr '\n' ' ')
got=$(sed -n '/^## Headline endpoints/,/^## /p' "$rec/report.md" | grep '^| [0-9]' | awk -F' [|] ' '{ print $1 }' | tr -d '| ' | tr '\n' ' ')
result "$([ "$(grep -m1 '^## ' "$rec/report.md")" = "## Headline endpoints" ] && [ -n "$want" ] && [ "$got" = "$want" ] &&
	sed -n '/^## Headline endpoints/,/^## /p' "$rec/report.md" | grep -q '^| 8 | kinv | p99 | not in this run |' && echo 1)" \
	"headline: the report leads with the endpoints of bench/headline.txt, in order" "want '$want', got '$got'"
printf '7 inv p999\n7 inv p9999  # a typo\n' >"$tmp/bad-headline.txt"
expect_fail "headline: a line that names no figure" "bad-headline.txt:2: '7 inv p9999' names no figure: item 7 has no figure 'p9999'" \
	python3 "$bench" combine "$rec" --headline "$tmp/bad-headline.txt"
printf '7 inx p999\n' >"$tmp/bad-headline2.txt"
expect_fail "headline: a configuration that does not exist" "item 7 has no configuration 'inx'" \
	python3 "$bench" headline "$tmp/bad-headline2.txt"

# ---- summary.csv recomputed from runs.csv ----
# runs.csv: every run of both boots, its boot and order seed; each boot's rows of summary.csv are
# those of the boot's own report (from the console log): the fig_ columns are its figures.
result "$(python3 - "$rec" <<'PY' && echo 1
import csv, sys
d = sys.argv[1]
rows = list(csv.reader(open(f"{d}/summary.csv")))
runs = list(csv.DictReader(open(f"{d}/runs.csv")))
for b in ("1", "2"):
    mine = sorted(tuple(r[1:-1]) for r in rows[1:] if r[0] == b)
    own = sorted(tuple(r) for r in list(csv.reader(open(f"{d}/boot{b}/summary.csv")))[1:])
    if mine != own or not mine:
        sys.exit(f"boot {b}: {len(mine)} rows, its own report {len(own)}")
seeds = {(r["boot"], r["order_seed"]) for r in runs}
if seeds != {("1", "11"), ("2", "12")}:
    sys.exit(f"boots and seeds {seeds}")
PY
)" "runs.csv: both boots, their seeds; each boot's summary rows are its own report's"
rc=0
python3 "$bench" recompute "$rec" >"$tmp/recompute.out" 2>&1 || rc=$?
result "$([ "$rc" = 0 ] && echo 1)" "recompute: summary.csv of a made-up record is as runs.csv gives it" "exit $rc: $(cat "$tmp/recompute.out")"
# One figure changed in runs.csv: recompute names the line of summary.csv that differs.
cp -r "$tmp/rec" "$tmp/rec2"
python3 - "$tmp/rec2/perf/runs.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
for r in rows:
    if r["boot"] == "2" and r["config"] == "inv" and r["module"] == "split" and r["fig_p999"]:
        r["fig_p999"] = "2.5"
        break
w = csv.DictWriter(open(sys.argv[1], "w", newline=""), rows[0].keys(), lineterminator="\n")
w.writeheader()
w.writerows(rows)
PY
expect_fail "recompute: a figure changed in runs.csv fails it" "recompute: .*/rec2/perf/summary.csv:[0-9]* differs from runs.csv's: '2,7,inv,p999," \
	python3 "$bench" recompute "$tmp/rec2/perf"
# pooled.csv too: a changed line fails it; a record from before the pooled analysis has none,
# and says so.
cp -r "$tmp/rec" "$tmp/rec3"
sed -i '2s/,[^,]*$/,changed/' "$tmp/rec3/perf/pooled.csv"
expect_fail "recompute: a line of pooled.csv changed fails it" "recompute: .*/rec3/perf/pooled.csv:2 differs from runs.csv's" \
	python3 "$bench" recompute "$tmp/rec3/perf"
rm "$tmp/rec3/perf/pooled.csv"
rc=0
python3 "$bench" recompute "$tmp/rec3/perf" >"$tmp/recompute.out" 2>&1 || rc=$?
result "$([ "$rc" = 0 ] && grep -q 'pooled.csv: none (a record from before the pooled analysis)$' "$tmp/recompute.out" && echo 1)" \
	"recompute: a record without pooled.csv is one from before the pooled analysis" "exit $rc: $(cat "$tmp/recompute.out")"
# The committed records (series/bench and the others of series/bench*): every boot's
# summary.csv as its runs.csv gives it, once it has the format (bootN/ with runs.csv's fig_
# columns); before that run, a skip that says so.
recs=()
for d in "$top"/series/bench*/*/; do
	[ -f "$d/runs.csv" ] && [ -d "$d/boot1" ] && recs+=("$d")
done
if [ ${#recs[@]} = 0 ]; then
	n=$((n + 1))
	echo "ok $n recompute: series/bench # SKIP series/bench is a record of the old format (no bootN/, no fig_ columns in runs.csv): it awaits the two-boot make bench of the final series, then this test runs on it"
else
	for d in "${recs[@]}"; do
		rc=0
		python3 "$bench" recompute "$d" >"$tmp/recompute.out" 2>&1 || rc=$?
		result "$([ "$rc" = 0 ] && echo 1)" "recompute: ${d#"$top"/} as its runs.csv gives it" "$(cat "$tmp/recompute.out")"
	done
fi

# ---- figures in prose ----
cat >"$tmp/t.txt" <<'EOF'
The FIFO caller's P99.9 was @fig 7.inv.p999.b1.ratio@ of stock's (@fig 7.inv.p999.b1.base@ ms
against @fig 7.inv.p999.b1.other@), then @fig 7.inv.p999.b2.est@: @fig 7.inv.p999.finding@.
Throughput: @fig 1.seed.tput.finding@.
Marks: [@fig 7.inv.p999.b1.mark@] [@fig 1.seed.tput.b1.mark@] [@fig 1.seed.tput.b2.mark@]
EOF
rc=0
python3 "$bench" render "$tmp/t.txt" "$rec/summary.csv" >"$tmp/t.out" 2>&1 || rc=$?
result "$([ "$rc" = 0 ] &&
	grep -qx "The FIFO caller's P99.9 was 0.1[0-9] \[0.1[0-9]-0.1[0-9]\] of stock's (20.[0-9] ms" "$tmp/t.out" &&
	grep -qx 'against 2.[0-9]*), then 0.1[0-9]*: finding: lower in every boot.' "$tmp/t.out" &&
	grep -qx 'Throughput: no finding: differs in boot 1 only.' "$tmp/t.out" &&
	grep -qxF 'Marks: [ *] [ *] []' "$tmp/t.out" && echo 1)" \
	"render: a template's figures from summary.csv" "exit $rc: $(tr '\n' '|' <"$tmp/t.out")"
echo 'P99.9 of item 8: @fig 8.kinv.p999.b1.ratio@' >"$tmp/t2.txt"
expect_fail "render: a figure the summary lacks is an error" "t2.txt:1: '@fig 8.kinv.p999.b1.ratio@' names no figure of the summary" \
	python3 "$bench" render "$tmp/t2.txt" "$rec/summary.csv"
echo 'x @fig 7.inv.p999.b3.ratio@' >"$tmp/t3.txt"
expect_fail "render: a boot the summary lacks is an error" "no boot 3 in the summary" \
	python3 "$bench" render "$tmp/t3.txt" "$rec/summary.csv"
echo 'x @fig 7.inv.p999.ratio@' >"$tmp/t4.txt"
expect_fail "render: a placeholder without its field is an error" "is not ITEM.CONFIG.FIGURE" \
	python3 "$bench" render "$tmp/t4.txt" "$rec/summary.csv"
# A record: KERNEL: names its boot's summary.csv, perf's without a prefix.
# $tmp/rec is the made-up record; its proxy boot: perf's summary.csv with item 7's inv p999
# rows as trylock/stock instead of split/stock.
mkdir -p "$tmp/rec/proxy"
python3 - "$rec/summary.csv" "$tmp/rec/proxy/summary.csv" <<'PY'
import csv, sys
with open(sys.argv[1], newline="") as f:
    rows = list(csv.DictReader(f))
for r in rows:
    if (r["item"], r["config"], r["figure"], r["other"]) == ("7", "inv", "p999", "split"):
        r["other"] = "trylock"
with open(sys.argv[2], "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=list(rows[0]))
    w.writeheader()
    w.writerows(rows)
PY
printf '%s\n' 'perf @fig 7.inv.p999.b1.est@ = @fig perf:7.inv.p999.b1.est@' \
	'proxy @fig proxy:7.inv.p999.trylock/stock.b1.est@' >"$tmp/t5.txt"
rc=0
python3 "$bench" render "$tmp/t5.txt" "$tmp/rec" >"$tmp/t5.out" 2>&1 || rc=$?
result "$([ "$rc" = 0 ] && grep -qx 'perf 0.1[0-9]* = 0.1[0-9]*' "$tmp/t5.out" &&
	[ "$(sed -n 1p "$tmp/t5.out" | awk '{ print $2 == $4 }')" = 1 ] &&
	grep -qx 'proxy 0.1[0-9]*' "$tmp/t5.out" && echo 1)" \
	"render: a record's figures, by kernel (perf's without a prefix)" "exit $rc: $(tr '\n' '|' <"$tmp/t5.out")"
echo 'x @fig proxy:7.inv.p999.b1.est@' >"$tmp/t6.txt"
expect_fail "render: a kernel's summary.csv lacks the figure" "t6.txt:1: '@fig 7.inv.p999.b1.est@' names no figure of the summary (no row 7,inv,p999,stock,split)" \
	python3 "$bench" render "$tmp/t6.txt" "$tmp/rec"
echo 'x @fig noproxy:7.inv.p999.b1.est@' >"$tmp/t7.txt"
expect_fail "render: a kernel the record lacks is an error" "the record has no noproxy boot" \
	python3 "$bench" render "$tmp/t7.txt" "$tmp/rec"
expect_fail "render: a kernel with one summary.csv is an error" "names a kernel, and $tmp/rec/perf/summary.csv is one summary.csv" \
	python3 "$bench" render "$tmp/t7.txt" "$tmp/rec/perf/summary.csv"
# pooled.FIELD: the secondary analysis, from the pooled.csv beside the summary.csv.
printf '%s\n' '@fig 10.prio-shr-few.n19_max.pooled.est@ @fig 10.prio-shr-few.n19_max.pooled.mark@' >"$tmp/t8.txt"
rc=0
python3 "$bench" render "$tmp/t8.txt" "$top/series/bench" >"$tmp/t8.out" 2>&1 || rc=$?
want=$(python3 - "$top/series/bench/perf/pooled.csv" <<'PY'
import csv, sys
for r in csv.DictReader(open(sys.argv[1], newline="")):
    if (r["item"], r["config"], r["figure"], r["other"]) == ("10", "prio-shr-few", "n19_max", "split"):
        print(f"{float(r['estimate']):.3g} {'*' if r['verdict'].startswith('differs') else '+' if r['verdict'].startswith('p < ') else ''}".rstrip())
PY
)
result "$([ "$rc" = 0 ] && [ -n "$want" ] && [ "$(sed 's/  */ /g; s/ $//' "$tmp/t8.out")" = "$want" ] && echo 1)" \
	"render: pooled.FIELD is the pooled.csv row's" "exit $rc: got '$(cat "$tmp/t8.out")', want '$want'"
echo 'x @fig 7.inv.p999.pooled.est@' >"$tmp/t9.txt"
mkdir -p "$tmp/lone" && cp "$rec/summary.csv" "$tmp/lone/"
expect_fail "render: pooled.FIELD without a pooled.csv is an error" "no pooled.csv beside the summary" \
	python3 "$bench" render "$tmp/t9.txt" "$tmp/lone/summary.csv"
# The cover letter's placeholders, once it has any: each names a figure of series/bench's record.
cl=$top/series/cover-letter.txt
if grep -q '@fig ' "$cl" 2>/dev/null; then
	rc=0
	python3 "$bench" render "$cl" "$top/series/bench" >/dev/null 2>"$tmp/cl.err" || rc=$?
	result "$([ "$rc" = 0 ] && echo 1)" "render: every figure of series/cover-letter.txt is in series/bench" "$(cat "$tmp/cl.err")"
else
	n=$((n + 1))
	echo "ok $n render: series/cover-letter.txt # SKIP no @fig placeholder in it yet (send/series.sh does not render it yet)"
fi

# ---- make bench-accept: the code, the boots, the layout ----
# A copy of the scripts in a git repository of its own, with a patch and a document.
at=$tmp/acctop
mkdir -p "$at/patches" "$at/series"
cp -r "$top/scripts" "$top/bench" "$at/"
echo 'patch v1' >"$at/patches/0001-a.patch"
echo 'notes' >"$at/NOTES.md"
git() { command git -C "$at" -c user.name=t -c user.email=t@t "$@"; }
git init -q && git add -A && git commit -qm base
# run_record OUT PROFILE BOOTS [KERNELS]: a made-up complete run of KERNELS (default: perf,
# proxy and noproxy, as make bench-record) in OUT/bench with BOOTS boots each, its code.txt that
# of the working tree now
run_record() {
	local o=$1/bench i f k
	rm -rf "$o"
	mkdir -p "$o"
	echo "$2 ${4:-perf proxy noproxy}" >"$o/bench.ok"
	echo "# designs" >"$o/designs.md"
	echo table >"$o/cover-table.txt"
	cp "$at/bench/headline.txt" "$o/"
	"$at/bench/bench.sh" code >"$o/code.txt"
	for k in ${4:-perf proxy noproxy}; do
		mkdir -p "$o/$k"
		for f in cover-table.txt report.md summary.csv runs.csv; do echo "$f" >"$o/$k/$f"; done
		for ((i = 1; i <= $3; i++)); do
			mkdir -p "$o/$k/boot$i"
			for f in cover-table.txt report.md summary.csv plan.json bench.plan console.log; do
				echo "$f $i" >"$o/$k/boot$i/$f"
			done
			printf 'date=2026-12-05 04:00 UTC\ncommit=abc\n' >"$o/$k/boot$i/setup.txt"
		done
	done
}
accept() { # OUT [DIR]: bench.sh accept of the copy; sets rc
	rc=0
	OUT=$1 "$at/bench/bench.sh" accept "${@:2}" >/dev/null 2>"$tmp/accept.err" || rc=$?
}
run_record "$tmp/r1" default 2
accept "$tmp/r1"
result "$([ "$rc" = 0 ] && [ "$(cat "$at/series/bench/perf/boot2/console.log."*.xz | xz -dc)" = "console.log 2" ] &&
	[ "$(cat "$at/series/bench/perf/boot1/bench.plan")" = "bench.plan 1" ] &&
	[ -f "$at/series/bench/perf/boot2/plan.json" ] && [ -f "$at/series/bench/perf/runs.csv" ] &&
	[ -f "$at/series/bench/headline.txt" ] && [ -s "$at/series/bench/code.txt" ] &&
	! ls -d "$at/series/"*.new.* 2>/dev/null && echo 1)" \
	"accept: a two-boot run of HEAD's code, every boot's console log (xz) and plan kept" "exit $rc: $(cat "$tmp/accept.err")"
# A commit that changes the code measured: the run is no longer HEAD's; nothing is copied.
echo 'patch v2' >"$at/patches/0001-a.patch"
git commit -qam 'patch v2'
echo 'stale' >"$at/series/bench/mark"
expect_fail "accept: a run whose code differs from HEAD's is refused" \
	"the run in $tmp/r1/bench measured code that differs from HEAD's in patches/0001-a.patch: make bench again at HEAD" \
	env OUT="$tmp/r1" "$at/bench/bench.sh" accept
result "$([ -f "$at/series/bench/mark" ] && ! ls -d "$at/series/"*.new.* 2>/dev/null && echo 1)" \
	"accept: a refused run copies nothing"
# An untracked file among the inputs at run time (a variant patch not committed) differs too.
run_record "$tmp/r2" default 2
echo 'variant' >"$at/bench/variant-new.patch"
run_record "$tmp/r3" default 2
rm "$at/bench/variant-new.patch"
expect_fail "accept: a run that had an uncommitted input is refused" "differs from HEAD's in bench/variant-new.patch" \
	env OUT="$tmp/r3" "$at/bench/bench.sh" accept
# A commit of documentation and the cover letter (which takes the run's figures) only: the
# run is still of HEAD's code.
echo 'more notes' >>"$at/NOTES.md"
echo 'Results: @fig 7.inv.p999.b1.ratio@' >"$at/patches/0000-cover-letter.patch"
git add "$at/patches/0000-cover-letter.patch"
git commit -qam notes
accept "$tmp/r2"
result "$([ "$rc" = 0 ] && [ ! -f "$at/series/bench/mark" ] && echo 1)" \
	"accept: a commit of documentation and the cover letter only after the run changes nothing" "exit $rc: $(cat "$tmp/accept.err")"
# The cover letter's record is two boots or more of the default or full profile, of each of
# the three kernels (make bench-record), not make bench's default: one perf boot.
run_record "$tmp/r4" default 1
expect_fail "accept: one boot is not the cover letter's record" "the perf boot in $tmp/r4/bench ran once (BENCH_REPLICAS=1, make bench's default): .*(make bench-record;" \
	env OUT="$tmp/r4" "$at/bench/bench.sh" accept
run_record "$tmp/r6" default 2 perf
expect_fail "accept: the cover letter's record has every kernel" "the run in $tmp/r6/bench has no proxy boot: the cover letter's record is every kernel's, two boots each (make bench-record;" \
	env OUT="$tmp/r6" "$at/bench/bench.sh" accept
accept "$tmp/r6" series/bench-perf
result "$([ "$rc" = 0 ] && [ -f "$at/series/bench-perf/perf/boot2/setup.txt" ] && [ ! -d "$at/series/bench-perf/proxy" ] && echo 1)" \
	"accept series/bench-NAME: a record of the perf kernel alone kept beside" "exit $rc: $(cat "$tmp/accept.err")"
run_record "$tmp/r5" quick 2
expect_fail "accept: the quick profile is not the cover letter's record" "is of the quick profile: not the cover letter's" \
	env OUT="$tmp/r5" "$at/bench/bench.sh" accept
accept "$tmp/r4" series/bench-one
result "$([ "$rc" = 0 ] && [ -f "$at/series/bench-one/perf/boot1/console.log.00.xz" ] && echo 1)" \
	"accept series/bench-NAME: a one-boot record kept beside" "exit $rc: $(cat "$tmp/accept.err")"
# A console log of 4 MB that xz cannot shrink: parts under 2 MiB each, together the whole log.
head -c 3000000 /dev/urandom | base64 >"$tmp/r4/bench/perf/boot1/console.log"
accept "$tmp/r4" series/bench-one
parts=$(ls "$at/series/bench-one/perf/boot1/console.log."*.xz 2>/dev/null | wc -l)
result "$([ "$rc" = 0 ] && [ "$parts" -ge 3 ] &&
	[ -z "$(find "$at/series/bench-one" -name 'console.log.*.xz' -size +2048k)" ] &&
	cat "$at/series/bench-one/perf/boot1/console.log."*.xz | xz -dc | cmp -s - "$tmp/r4/bench/perf/boot1/console.log" &&
	echo 1)" \
	"accept: a large console log in xz parts under 2 MiB that together are the log" "exit $rc, $parts parts: $(cat "$tmp/accept.err")"
printf 'date=x\ncommit=abc\nhost_load=2 busy loops beside QEMU\n' >"$tmp/r2/bench/perf/boot2/setup.txt"
expect_fail "accept: a run with busy loops beside QEMU" "the perf boot boot2 in $tmp/r2/bench had BENCH_HOST_LOAD=2 busy loops" \
	env OUT="$tmp/r2" "$at/bench/bench.sh" accept
rm "$tmp/r2/bench/code.txt"
expect_fail "accept: a run without code.txt (an older make bench)" "has no code.txt or headline.txt" \
	env OUT="$tmp/r2" "$at/bench/bench.sh" accept
# bench.sh checks bench/headline.txt before it builds anything.
echo '9 cold4-4k p98' >"$at/bench/headline.txt"
expect_fail "bench.sh: a headline line that names no figure stops it first" "item 9 has no figure 'p98'" \
	env CACHE="$tmp/cache" "$at/bench/bench.sh"
expect_fail "bench.sh: BENCH_REPLICAS=0" "BENCH_REPLICAS='0' is not a number of boots" \
	env CACHE="$tmp/cache" BENCH_REPLICAS=0 "$top/bench/bench.sh"
expect_fail "bench.sh: BENCH_SEED not a number" "BENCH_SEED='x' is not a number" \
	env CACHE="$tmp/cache" BENCH_SEED=x "$top/bench/bench.sh"
echo "# bench record: $n tests, $fails failed"
[ "$fails" = 0 ]
