# SPDX-License-Identifier: GPL-2.0
"""bench.py report: the item titles, the findings, the busy-host check, and cmd_report, which
reads plan.json, console.log and setup.txt and writes report.md, the CSV files, the cover
table and the plots.
"""

import csv
import json
import os
import statistics

from benchlib.common import TRACED, VARIANTS
from benchlib.stats import ALPHA, EXACT_LIMIT, verdicts
from benchlib.parse import parse_log
from benchlib.plots import write_plots
from benchlib.plan import (
    ALLOC_INV_HOGS, ALLOC_INV_NICE, ALLOC_MAX, COUNT_TEXT, INV_HOGS, INV_NICE_THREADS, INV_PAYLOAD)
from benchlib.figures import FIG_KEYS, FIGURES, alternatives, summarize
from benchlib.tables import (
    COUNT_FIELDS, counts_block, figure_cells, lockstat_table, ratio_text, side_by_side,
    skips_table, verdict_text, waits_table)
from benchlib.cover import cover_table


ITEM_TITLE = {
    0: "Item 0: allocator microbenchmark (in the module, no transactions)",
    1: "Item 1: the v2 cover letter's configuration (binderThroughputTest -w 2)",
    2: "Item 2: scaling over client threads and payload (-w 2 -p, 16 server threads)",
    3: "Item 3: modes (-w 2, drop_caches every 10 ms)",
    4: "Item 4: SCHED_FIFO under forced reclaim",
    5: "Item 5: in-kernel delivery time from the binder tracepoints (-w 2, no pressure)",
    6: "Item 6: the alternatives in item 1's configuration: the v1 ceiling and the trylock "
       "variant",
    7: "Item 7: priority inversion on one binder_alloc (a SCHED_FIFO caller among nice 19 "
       "callers and CPU hogs)",
    8: "Item 8: priority inversion in the allocator alone (a SCHED_FIFO kthread among nice 19 "
       "kthreads and CPU hogs)",
    9: "Item 9: the cold path, first-touch page installs",
    10: "Item 10: calls per priority while the shrinker reclaims (binder_prio_reclaim, the 2023 "
        "spinlock commit's test)",
}



# The traced runs' "wait: " rows (bench/bench-run's dwaits()), in items 7 and 10.
WAIT_ROWS = ("A 'wait: SITE' row counts each lock wait that slept, from the lock's "
             "contention_begin to its contention_end in the thread (lock events traced), "
             "its waker the last task that woke the thread in it; the row of SITE counts "
             "each sleep. Where the sleeps outnumber the lock waits, a sleep ended without "
             "the lock (a spurious wakeup, as from a wake_q, or the lock taken first by "
             "another) and its waker did not end the wait. A folio's wait has no lock events "
             "and no 'wait:' row.")

def findings(rows, items):
    """What the verdicts say, in words: counts, and each figure that differs beyond noise."""
    out = []
    tested = [r for r in rows if "verdict" in r]
    diff = [r for r in tested if r["verdict"] == "differs"]
    uncorr = [r for r in tested if r["verdict"].endswith("not after correction")]
    none = [r for r in tested if r["verdict"] == "no difference detected"]
    few = [r for r in tested if r["verdict"].startswith("too few")]
    out.append(f"{len(rows)} figures, {len(tested)} of them tested: {len(diff)} differ after a "
               f"Benjamini–Hochberg correction over the {len(tested)} (false discovery rate "
               f"{ALPHA}); {len(uncorr)} more had p < {ALPHA} before the correction only (with "
               f"{len(tested)} tests at alpha {ALPHA}, about {len(tested) * ALPHA:.0f} would "
               f"have p < {ALPHA} by chance if no module differed from another); "
               f"{len(none)} show no difference detected, which is not evidence that they are "
               "equal (their intervals say how large a difference could be); "
               f"{len(few)} had too few runs or distinct values for the test; "
               f"{len(rows) - len(tested)} had no data. Only the first are listed here.")
    def up(r):  # the medians, not the ratio: a base median of 0 has no ratio
        return statistics.median(r["b"]) > statistics.median(r["a"])

    for r in diff:
        if r["better"] is None:
            how = "higher" if up(r) else "lower"
        else:
            how = "better" if up(r) == r["better"] else "worse"
        out.append(f"- item {r['item']}, {r['label']}, {r['name']}: {r['other']} {how} than "
                   f"{r['base']}, {r['other']}{'/' if r['est_kind'] == 'ratio' else '-'}"
                   f"{r['base']} {ratio_text(r)}, p={r['p']:.2g}, q={r['q']:.2g}")
    main = [r for r in diff if r["item"] != 6 and r["better"] is not None
            and r["base"] == "stock" and r["other"] == "split"]
    names = [str(i) for i in items if i != 6]
    if names and not any(up(r) == r["better"] for r in main):
        out.append(f"- In item{'s' if len(names) > 1 else ''} {', '.join(names)} no figure "
                   "shows the split measurably better than stock in this run.")
    out.append("- Not measured by make bench: lock_stat (the perf kernel has no "
               "CONFIG_LOCK_STAT; make bench-lockstat measures it on a kernel of its own)."
               + (" Item 0 times the allocator alone." if 0 in items else "")
               + (" Item 5 splits the round trip into in-kernel delivery and the rest."
                  if 5 in items else ""))
    return out


OTHER_CPUS_BUSY = 0.25  # busy_host(): the host's other tasks' average CPUs during the run


def busy_host(setup):
    """A warning when the guest's vCPUs did not have the host's CPUs to themselves: the load
    average at the start, in whole CPUs (rounded), plus -smp above the host's CPUs; the host's
    other tasks using a quarter of a CPU or more on average during the run (host_other_cpus,
    from /proc/stat less QEMU's CPU time); or busy loops beside QEMU (BENCH_HOST_LOAD)."""
    out = []
    try:
        load = float(setup.get("load_start", "").split()[0])
        cpus, smp = int(setup["host_cpus"]), int(setup.get("smp", "2"))
    except (ValueError, KeyError, IndexError):
        return out
    if setup.get("host_load"):
        out.append(f"- The host ran {setup['host_load']} (BENCH_HOST_LOAD): a busy host on "
                   "purpose. Its figures are not make bench's idle-host figures.")
    if round(load) + smp > cpus:
        out.append(f"- The host was busy: load average {load:g} at the start, plus the "
                   f"guest's {smp} vCPUs, on {cpus} host CPUs. A vCPU that holds a spinlock can "
                   "then be descheduled by the host while the other spins (TCG has no "
                   "paravirtual spinlocks), which slows the spinlock variants (split, v1, "
                   "trylock) more than stock: their figures here show that condition, not an "
                   "idle machine's (bench/method.md, \"A busy host\").")
    try:
        other = float(setup.get("host_other_cpus", ""))
    except ValueError:
        other = None
    if other is not None and other >= OTHER_CPUS_BUSY and not setup.get("host_load"):
        out.append(f"- The host was busy during the run: its other tasks used {other:g} CPUs "
                   f"on average beside QEMU, on {cpus} host CPUs with {smp} vCPUs; the "
                   "spinlock variants' figures show that condition (bench/method.md, "
                   "\"A busy host\").")
    return out


# binder_throughput's getrusage figures per call (-1 where absent), as the JSON has them
USAGE_FIELDS = tuple(f"{who}_{what}_per_call" for who in ("client", "server", "fifo")
                     for what in ("vcsw", "ivcsw", "cpu_us"))


def load_inputs(a):
    """plan.json, setup.txt (key=value lines) and the runs parsed from the console log."""
    with open(a.plan) as f:
        plan = json.load(f)
    setup = {}
    if os.path.exists(a.setup):
        with open(a.setup) as f:
            for line in f:
                k, _, v = line.rstrip("\n").partition("=")
                if k:
                    setup[k] = v
    runs, problems = parse_log(a.log) if os.path.exists(a.log) else ({}, ["no console log"])
    return plan, setup, runs, problems


def run_status(plan, runs):
    """The runs that ended ok (a count), failed, ran past their --timeout, or never reported."""
    ok = sum(1 for r in plan["runs"] if runs.get(r["id"], {}).get("end", "").startswith("ok"))
    failed_ids = [r["id"] for r in plan["runs"]
                  if r["id"] in runs and not runs[r["id"]].get("end", "ok").startswith("ok")]
    failed = [f"{i}: {runs[i]['end']}" + (f" ({runs[i]['error']})" if "error" in runs[i] else "")
              for i in failed_ids]
    timed_out = [i for i in failed_ids if "timed out" in runs[i].get("error", "")]
    missing = [r["id"] for r in plan["runs"] if r["id"] not in runs]

    return ok, failed, timed_out, missing


SUMMARY_HEADER = ["item", "config", "figure", "unit", "base", "n_base", "base_median", "base_min",
                  "base_max", "other", "n_other", "other_median", "other_min", "other_max",
                  "ratio_other_base", "estimate_kind", "estimate", "ci95_low", "ci95_high",
                  "detectable_80", "mwu_u_other", "mwu_p", "mwu_method", "bh_q", "ranges",
                  "verdict"]


def summary_line(r):
    """A row of summary.csv (SUMMARY_HEADER) from a row of summarize()."""
    a_, b_ = r["a"], r["b"]
    return [r["item"], r["config"], r["figure"], r["unit"], r["base"], len(a_),
            statistics.median(a_) if a_ else "", min(a_, default=""), max(a_, default=""),
            r["other"], len(b_), statistics.median(b_) if b_ else "", min(b_, default=""),
            max(b_, default=""), r.get("ratio", ""),
            *(r.get(k, "") for k in ("est_kind", "est", "ci_lo", "ci_hi", "detectable")),
            r.get("u", ""), r.get("p", ""), r.get("method", ""), r.get("q", ""),
            r.get("ranges", ""), r.get("verdict", "no data")]


def fig_values(r, d):
    """The figures of a run that ended ok and is in the figures (not a warm-up or traced run):
    {key: value}."""
    if (r["kind"] in TRACED + ("warmup",) or r["item"] is None
            or not d.get("end", "").startswith("ok")):
        return {}
    return {key: v for key, _, _, _, get in FIGURES[r["item"]] for v in (get(d),) if v is not None}


def write_csvs(out, plan, runs, rows, setup=None):
    """runs.csv, summary.csv and values.csv in out. runs.csv: one row per run and class, the
    boot (its replica number), the plan's order seed, the guest's raw fields and, on the run's
    first row, each of its figures (fig_KEY: what summary.csv is computed from)."""
    boot = (setup or {}).get("replica", "1")
    with open(os.path.join(out, "runs.csv"), "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["boot", "order_seed", "id", "item", "config", "label", "kind", "rep",
                    "module", "class", "result", "calls_per_s",
                    "avg_ms", "p50_ms", "p99_ms", "worst_ms", "total_s", "cpu_busy_pct",
                    "binder_pages_peak", "reclaimed_pages", "run_s", "delivery_n",
                    "delivery_avg_us", "delivery_p50_us", "delivery_p99_us",
                    "alloc_ops_per_sec", "alloc_p50_ns", "alloc_p99_ns", "alloc_pages_freed",
                    "p999_ms", "over_1ms", "over_10ms", "background_calls",
                    *(k for k, _ in COUNT_FIELDS), *USAGE_FIELDS, "walker_skip_mutex",
                    *(f"fig_{k}" for k in FIG_KEYS), "args"])
        for r in plan["runs"]:
            d = runs.get(r["id"], {})
            recs = d.get("rec") or {"-": {}}
            figs = fig_values(r, d)
            for cls, j in recs.items():
                w.writerow([boot, plan.get("order_seed", ""), r["id"], r["item"], r["config"],
                            r["label"], r["kind"], r["rep"], r["module"], cls,
                            d.get("end", "missing"), j.get("iterations_per_sec"),
                            j.get("avg_ms"), j.get("p50_ms"), j.get("p99_ms"), j.get("worst_ms"),
                            round(sum(x["seconds"] for x in j.get("rounds", [])), 6) or None,
                            j.get("cpu_busy_pct"), j.get("binder_pages_peak"),
                            d.get("extra", {}).get("reclaimed"), d.get("extra", {}).get("secs"),
                            *(d.get("ktrace", {}).get(k) for k in ("n", "avg_us", "p50_us",
                                                                     "p99_us")),
                            *(j.get(k) for k in ("ops_per_sec", "p50_ns", "p99_ns",
                                                 "pages_freed")),
                            *(j.get(k) for k in ("p999_ms", "over_1ms", "over_10ms",
                                                 "background_calls")),
                            *(d.get("extra", {}).get(k) for k, _ in COUNT_FIELDS),
                            *(j.get(k) for k in USAGE_FIELDS),
                            j.get("skip_mutex") if j.get("shrink") else None,
                            *(figs.get(k) for k in FIG_KEYS), r["args"]])
                figs = {}  # the run's first row only
    with open(os.path.join(out, "summary.csv"), "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(SUMMARY_HEADER)
        for r in rows:
            w.writerow(summary_line(r))
    # Every figure's value of every run, one per line: what each row of summary.csv is computed
    # from (and what bench.py designs compares across boots).
    with open(os.path.join(out, "values.csv"), "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["item", "config", "figure", "unit", "module", "rep", "run", "value"])
        for r in plan["runs"]:
            d = runs.get(r["id"], {})
            if (r["kind"] in TRACED + ("warmup",) or r["item"] is None
                    or not d.get("end", "").startswith("ok")):
                continue
            for key, _, unit, _, get in FIGURES[r["item"]]:
                v = get(d)
                if v is not None:
                    w.writerow([r["item"], r["config"], key, unit, r["module"], r["rep"],
                                r["id"], repr(v)])


def md_setup(plan, setup, ok, failed, missing, problems):
    """report.md's title, Setup (the machine, the counts, the method) and the runs' outcome."""
    boot = setup.get("boot", "")
    md = [f"# make bench{': the ' + boot + ' boot' if boot else ''}: stock binder_linux against "
          "binder_alloc_split" + (" and the design variants" if plan.get("variants") else ""), ""]
    md += ["## Setup", ""]
    for k, label in (("date", "date"), ("host_cpus", "host CPUs (nproc)"), ("cpu", "host CPU"),
                     ("load_start", "host load average at start"),
                     ("settle", "waited before the boot"),
                     ("load_end", "host load average at end"),
                     ("host_other_cpus", "host CPUs used beside QEMU during the run (average)"),
                     ("qemu", "QEMU"),
                     ("accel", "accel (qemu/accel.sh)"), ("smp", "guest -smp"),
                     ("mem", "guest memory"), ("kernel", "guest kernel"),
                     ("kargs", "kernel command line, added"),
                     ("config", "kernel config"), ("stock", "stock module"),
                     ("split", "split module"), ("v1", "v1 module (items 0, 6 and 7)"),
                     *((v, f"{v} module") for v in VARIANTS),
                     ("commit", "repository commit"),
                     ("host_load", "busy loops on the host (BENCH_HOST_LOAD)"),
                     ("wall", "bench wall time"), ("guest", "guest run (qemu-run.sh)")):
        if k in setup:
            md.append(f"- {label}: {setup[k]}")
    md += ["", f"Profile `{plan['profile']}`. Counts (this run / the published "
           "measurements'; scaled counts are marked):", "", "| count | here | published | |",
           "|---|---|---|---|"]
    for k, text in COUNT_TEXT.items():
        item = int(k[1])
        if item not in plan["items"] and not (item == 1 and 6 in plan["items"]):
            continue
        here, seed = plan["counts"][k], plan["seed"][k]
        md.append(f"| {text} | {here} | {seed} | {'scaled' if here != seed else ''} |")
    md += ["", f"Method: one boot of the binder=m {setup.get('flavour', 'perf')} kernel. "
           "It starts with one discarded warm-up run per module, then, for each "
           "configuration, the modules run in turn, their order reversed every other round "
           "(stock, split, split, stock, ...: A B B A). Each run loads the module with insmod, "
           "binder_throughput mounts a private binderfs and creates a fresh device, writes "
           "--json, and the module is removed with rmmod. Pages reclaimed are the "
           "binder_unmap_kernel_end tracepoint's events over the whole run (warm-up included), "
           "counted by the guest plan; the microbenchmark's runs (items 0, 8, 9) leave the "
           "tracepoint off. The guest checks at the end that the clocksource is still tsc.",
           "",
           "Per figure: each module as min–max (median) over the runs; B/A is the "
           "Hodges–Lehmann estimate of the ratio (the median of all ratios of a run of B to a "
           "run of A) with its 95% interval, the distribution-free one that the rank test "
           "gives (Moses: the (c+1)-th smallest and largest of those ratios, c the test's "
           "critical value); where a value is 0 the same is done for the difference B - A, "
           "shown with a sign, in the figure's unit. 'no interval': too few runs for one. "
           "The test: Mann–Whitney U, two-sided, exact (all rank assignments, midranks for "
           f"ties) up to {EXACT_LIMIT} assignments, else the normal approximation. Its p of "
           "every figure of the run goes through a Benjamini–Hochberg correction (q; false "
           f"discovery rate {ALPHA}). Verdicts: 'differs' when q < {ALPHA}; 'p < {ALPHA}, not "
           f"after correction'; 'no difference detected' when p >= {ALPHA} (not evidence of "
           "equality: the interval says how large a difference could be); 'too few runs' "
           f"when no outcome could reach p < {ALPHA} with that many runs, 'too few distinct "
           "values' when the ties of the values keep it from p < "
           f"{ALPHA}. Whether the min–max ranges overlap is shown too. summary.csv also has "
           "'detectable_80': the smallest ratio (or difference) that the same number of runs "
           "with the same spread would detect 4 times in 5 (a normal approximation of the "
           "test's power).",
           "", f"Runs: {ok} of {len(plan['runs'])} ok."]
    for x in failed:
        md.append(f"- failed: {x}")
    if missing:
        md.append(f"- no result from the guest: {len(missing)} runs ({', '.join(missing[:5])}"
                  f"{', ...' if len(missing) > 5 else ''})")
    for x in problems:
        md.append(f"- {x}")
    return md


def md_findings(plan, runs, rows, setup, failed, missing, timed_out, table):
    """report.md's Findings, lock_stat table and cover letter table."""
    md = []
    md += ["", "## Findings", ""]
    if setup.get("guest", "PASS").startswith("FAIL"):
        if missing:
            md.append(f"- The guest run failed: {setup['guest']}; the runs after it are missing "
                      "(console.log has the kernel's report).")
        else:
            md.append(f"- The guest run failed: {setup['guest']}: {len(failed)} runs failed "
                      "(listed above); every run reported.")
    if timed_out:
        md.append(f"- {len(timed_out)} runs ran past their --timeout ({', '.join(timed_out)}). "
                  f"Host load average at start: {setup.get('load_start', '?')} on "
                  f"{setup.get('host_cpus', '?')} CPUs. A TCG guest slows down many times on "
                  "a busy host (bench/method.md, \"A busy host\"): rerun on an "
                  "idle host to tell a slow run from a hung one.")
    md += busy_host(setup)
    if setup.get("flavour") == "lockstat":
        md.append("- The lock_stat kernel (CONFIG_LOCK_STAT, DEBUG_KERNEL): every lock operation "
                  "is instrumented, so the timing figures of this run are not make bench's and "
                  "are not compared with them. Its result is the lock_stat table below.")
    md += findings(rows, plan["items"])
    ls = lockstat_table(plan, runs)
    if ls:
        md += ["", "## lock_stat", "", "/proc/lock_stat of each run (cleared after insmod and "
               "a short warm-up run, read before rmmod), binder's lock classes: per item, "
               "configuration, module and lock "
               "class, the median over the runs of the contentions, the total wait and the "
               "acquisitions; the largest wait and hold over the runs; the average wait over "
               "all contentions of all runs. Times as lock_stat measures them, on the lock_stat "
               "kernel.", ""] + ls
    md += ["", "## Cover letter table", "", "```", table.rstrip("\n"), "```"]
    return md


def md_items(plan, runs, rows):
    """report.md's section of each item: what it runs, then its figures."""
    md = []
    for item in plan["items"]:
        ir = [r for r in rows if r["item"] == item]
        md += ["", f"## {ITEM_TITLE[item]}", ""]
        if item == 4:
            md += ["binder_throughput sets one scheduling class for all its client threads, so "
                   "the classes run as two concurrent binder_throughput processes, each with its "
                   "own binderfs device and server (-w 2 -p): one with one SCHED_FIFO (priority "
                   "50) client thread, one with three SCHED_OTHER client threads; a shell loop "
                   "in the guest writes 2 to /proc/sys/vm/drop_caches every 1 ms (busybox "
                   "usleep) while they run. They share the CPUs and the binder shrinker, not a "
                   "server (so not one alloc lock). Max is the worst single call.", ""]
        if item == 10:
            md += ["One selftests/binder_prio_reclaim run: one server process with 4 or 16 "
                   "loopers, one client process with 2 threads in each of 4 classes (SCHED_FIFO "
                   "99 and 1, nice -20 and 19), each making its calls to the server's node as "
                   "fast as it can, payload sizes from 16 bytes to 32 KiB drawn from a seed; a "
                   "nice-0 thread writes binder's shrinker debugfs scan file or 2 to "
                   "drop_caches every 10 ms, or nothing. The limit run has the SCHED_FIFO 99 "
                   "class alone. A figure per class is over all its threads' calls.", "",
                   "One more run per module traces, as item 7's does, the real-time threads' "
                   "sleeps (kernel prio 0: SCHED_FIFO 99; 98: SCHED_FIFO 1) with 4 loopers under "
                   "the shrinker: each D-state wait per blocking site, and the prios of the "
                   "tasks whose wakeup ended it (100: nice -20, 120: nice 0, 139: nice 19). "
                   "'139 lent 0' is a nice 19 waker that priority inheritance ran at prio 0 "
                   "during the wait (sched_pi_setprio traced): rt_mutex_unlock() drops the "
                   "lent prio before it wakes the waiter, so the prio at the wakeup alone "
                   "would not show it. " + WAIT_ROWS, ""]
            md += waits_table(plan, runs, 10)
        if item == 7:
            md += ["One binder_throughput run with -w 2 -p: one server process and one client "
                   "process, so every call allocates in the server's binder_alloc and every "
                   "reply in the client's, and all client threads meet on both. The client "
                   "process has one SCHED_FIFO (priority 50) thread that times its sync calls "
                   "with a 1 ms sleep between them (--fifo-threads 1) and "
                   f"{INV_NICE_THREADS} threads at nice 19 that call as fast as they can until "
                   f"the FIFO thread is done (--nice-threads {INV_NICE_THREADS}:19; their calls "
                   f"are counted, not timed); {INV_HOGS} processes spin at nice 0 during the "
                   f"run (--hogs {INV_HOGS}), so the nice 19 threads are preempted, whatever "
                   f"they hold. Payload {INV_PAYLOAD} bytes. The server's 16 loopers are "
                   "SCHED_FIFO 49 (--server-fifo): more loopers than callers, and above the "
                   "hogs and nice 19 threads, so that the FIFO caller does not wait for a "
                   "looper's CPU share (upstream binder passes only the caller's nice to the "
                   "looper, not its policy). The figures are the FIFO thread's calls. v1 runs "
                   "only without pressure; trylock (bench/variant-trylock.patch) in both "
                   "configurations.", ""]
            md += side_by_side(ir)
            md += counts_block(plan, runs, item)
            md += ["", "Where the SCHED_FIFO threads sleep in D state (waiting for a lock), "
                   "from one more run per module and configuration with sched_switch traced "
                   "for them and a kernel stack taken at each such sleep (KIND waits in "
                   "bench/bench-run; those runs are not in the figures above, tracing costs "
                   "time). A wait runs from the switch-out to the switch-in. 'runqueue' is "
                   "the time from a wakeup (or a preemption) to the switch-in; it overlaps the "
                   "end of each D-state wait. 'woken by' gives the kernel prio of the tasks "
                   "whose wakeup ended the waits, that is the lock's releaser: 139 is a nice 19 "
                   "client thread, 120 a nice-0 task (in the drop_caches configuration the "
                   "shrinker runs in the nice-0 drop_caches writer; the hogs take no lock). "
                   "The FIFO caller also waits, in S state, for the looper that handles its "
                   "call; the loopers' rows count their waits for every caller's calls. "
                   + WAIT_ROWS, ""]
            md += waits_table(plan, runs, 7)
            continue
        if item == 8:
            md += ["Item 7 without transactions: binder_throughput --alloc-bench "
                   f"{ALLOC_INV_NICE} --alloc-fifo --hogs {ALLOC_INV_HOGS} on a fresh device. "
                   f"In the module, {ALLOC_INV_NICE} kthreads at nice 19 loop item 0's op "
                   "(binder_alloc_new_buf() of 8 to "
                   f"{ALLOC_MAX} bytes, a write of the buffer, binder_alloc_free_buf()) as fast "
                   "as they can, and one SCHED_FIFO 50 kthread times the same op with a 1 ms "
                   "sleep after each, all on one binder_alloc, while "
                   f"{ALLOC_INV_HOGS} nice-0 processes spin so that the nice 19 kthreads are "
                   "preempted, whatever they hold. With the walker, one more kthread (nice 0) "
                   "runs list_lru_walk(alloc->freelist, binder_alloc_free_page) every 1 ms, so "
                   "pages are also zapped and reinstalled. The figures are the FIFO kthread's "
                   "ops, every one of them kept (not sampled); 'nice 19 kthreads: ops/s' is "
                   "the others' throughput. v1 runs only without the walker.", ""]
            md += side_by_side(ir)
            md += counts_block(plan, runs, item)
            sk = skips_table(plan, runs, 8)
            md += (["", "The walker's skips (see item 0):", ""] + sk) if sk else []
            continue
        if item == 9:
            md += ["binder_throughput --alloc-bench T --alloc-cold --alloc-max S on a fresh "
                   "device: in rounds, T kthreads each call binder_alloc_new_buf() for buffers "
                   "of exactly S bytes and keep them until together they hold half the "
                   "mapping (2 MiB); each call installs the pages its buffer covers, none of "
                   "which is installed (the mapping is fresh, or was reclaimed after the last "
                   "round). Then the buffers are freed and every page is reclaimed with "
                   "binder_alloc_free_page(), outside the timed part. 'pages installed per "
                   "second' is the pages reclaimed after each round over the time from the "
                   "start of the round's allocations to the end of the last one, summed over "
                   "the rounds; the per-call percentiles are of binder_alloc_new_buf() alone "
                   "(a reservoir sample of 8192 per kthread). Stock installs pages in parallel "
                   "under the per-VMA lock, and so does the split; the variants of v3 "
                   "serialize them on install_mutex.", ""]
            md += side_by_side(ir)
            md += counts_block(plan, runs, item)
            continue
        if item == 0:
            md += ["binder_throughput --alloc-bench maps a fresh device and writes to the "
                   "module's <debugfs>/binder/alloc_bench (bench/binder_alloc_bench.c, built "
                   "into make bench's modules only): N kthreads each loop "
                   "binder_alloc_new_buf() of a random size of 8 to "
                   f"{ALLOC_MAX} bytes, binder_alloc_copy_to_buffer() of the whole buffer and "
                   "binder_alloc_free_buf() on that device's binder_alloc, so freed pages go to "
                   "the freelist and are mostly taken back from it. The walker is one more "
                   "kthread that runs list_lru_walk(alloc->freelist, binder_alloc_free_page) "
                   "every 1 ms, so pages are also zapped and reinstalled. Throughput is ops "
                   "over the run's wall time; the per-op percentiles come from a reservoir "
                   "sample of 8192 ops per kthread. v1 (bench/v1-ceiling.patch) runs only "
                   "without the walker, trylock (bench/variant-trylock.patch) in every "
                   "configuration. No lock_stat: the perf kernel has no CONFIG_LOCK_STAT.", ""]
            md += side_by_side(ir)
            md += counts_block(plan, runs, item)
            sk = skips_table(plan, runs, 0)
            md += ["", "Why the walker frees what it frees: binder_alloc_free_page() skips a "
                   "page (LRU_SKIP) when a trylock fails, counted per reason by "
                   "bench/shrinker-skips-*.patch (bench only): 'mutex' is alloc->mutex on "
                   "stock and v1, reclaim_mutex on split, install_mutex on the variants of v3 "
                   "(v3, rt, trylock, trywait); 'alloc->lock' only exists in the trylock "
                   "variant. A skipped page stays on the freelist "
                   "and is tried again by the next walk.", ""] + sk if sk else []
            continue
        if item == 1 and any(r["other"] != "split" for r in ir):
            md += ["binder_throughput -w 2: two processes, each calling the other. 'callers' "
                   "and 'server': getrusage() of the calling and the serving processes over the "
                   "measured round (without -p every worker is both: callers), per call.", ""]
            md += side_by_side(ir)
            md += counts_block(plan, runs, item)
            continue
        if item == 5:
            md += ["The guest turns on the module's binder_transaction and "
                   "binder_transaction_received tracepoints (tracefs, trace clock 'local', "
                   "1 us resolution) for one binder_throughput run, then pairs the two events of "
                   "each transaction by its debug id: the delivery time runs from "
                   "binder_transaction() (before the target's buffer is allocated) to the "
                   "receiving thread's binder_thread_read(), so it includes the allocation, "
                   "the copy and the wake-up. Calls and replies are both counted. The same run's "
                   "user-space round trips (-d) are shown beside them; a round trip holds two "
                   "deliveries. Tracing adds its own cost to both. A run fails if the trace "
                   "buffer overran.", ""]
        if item == 6:
            md += ["bench/v1-ceiling.patch on the fixes and patch 0001 (binder_alloc_v1.ko): "
                   "alloc->lock alone on the allocation path, racy against the shrinker, so it "
                   "runs only without memory pressure, interleaved with the others in "
                   "item 1's configuration (stock, split, v1, trylock, stock, ...). "
                   "bench/variant-trylock.patch on the series (binder_alloc_trylock.ko): "
                   "the shrinker clears the page and isolates it under a trylock of "
                   "alloc->lock, as Rust binder's does, so the allocator's list_lru_del() "
                   "cannot fail and nothing rolls back; it runs with and without pressure. "
                   "'A' and 'B' are named in the first column; B/A is the ratio.", ""]
            md += ["| B against A | figure | A | B | B/A | verdict |",
                   "|---|---|---|---|---|---|"]
        else:
            md += ["| configuration | figure | stock | split | split/stock | verdict |",
                   "|---|---|---|---|---|---|"]
        for r in ir:
            first = f"{r['label']}: {r['other']} against {r['base']}" if item == 6 else r["label"]
            md.append(f"| {first} | {figure_cells(r)} |")
    return md


def md_files(out, notes):
    """report.md's Plots and Files."""
    md = []
    md += ["", "## Plots", ""]
    for fn, title in (("latency-cdf", "Latency CDF (item 1)"), ("throughput", "Throughput")):
        if os.path.exists(os.path.join(out, fn + ".svg")):
            md.append(f"- {title}: [{fn}.svg]({fn}.svg), [{fn}.png]({fn}.png)")
    md += [f"- {n}" for n in notes]
    md += ["", "## Files", "", "- runs.csv: one row per run (and class); summary.csv: one row per "
           "figure; cover-table.txt; console.log: the guest's console", ""]
    return md


def cmd_report(a):
    plan, setup, runs, problems = load_inputs(a)
    os.makedirs(a.out, exist_ok=True)
    rows = verdicts(summarize(plan, runs) + alternatives(plan, runs))
    ok, failed, timed_out, missing = run_status(plan, runs)
    write_csvs(a.out, plan, runs, rows, setup)
    table = cover_table(rows, plan, setup, runs)
    with open(os.path.join(a.out, "cover-table.txt"), "w") as f:
        f.write(table)
    notes = write_plots(a.out, rows, plan, runs)
    md = md_setup(plan, setup, ok, failed, missing, problems)
    md += md_findings(plan, runs, rows, setup, failed, missing, timed_out, table)
    md += md_items(plan, runs, rows)
    md += md_files(a.out, notes)
    with open(os.path.join(a.out, "report.md"), "w") as f:
        f.write("\n".join(md))
    print(table, end="")
    for r in rows:
        print(f"# {r['item']} {r['config']} {r['name']}: {r['other']}/{r['base']} {ratio_text(r)}, "
              f"{verdict_text(r)}")
    for n in notes:
        print(f"# {n}")
    return 0 if not failed and not missing and not problems else 1
