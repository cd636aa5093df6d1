# SPDX-License-Identifier: GPL-2.0
"""The cover letter's table (cover-table.txt): its number format, intervals, blocks and
sections, and item 1's table in the v2 cover letter's form.
"""

import statistics
import textwrap

from benchlib.figures import tail_of
from benchlib.stats import ALPHA
from benchlib.plan import (
    ALLOC_INV_HOGS, ALLOC_INV_NICE, ALLOC_THREADS, COLD_SIZES, COLD_THREADS, INV_HOGS,
    INV_NICE_THREADS)


def cfmt(v, unit):
    """A value in at most 3 significant digits (10000 and up as 'k'), for the cover letter."""
    if abs(v) >= 10000:
        return f"{v / 1000:.3g}k"
    if abs(v) >= 100 or unit in ("calls", "pages", "ops"):
        return f"{v:.0f}"
    return f"{v:.3g}"


def verdict_mark(verdict):
    """A boot's verdict as the cover table marks it: " *" differs after the correction, " +"
    p < 0.05 before it only, "" neither."""
    return " *" if verdict == "differs" else " +" if verdict.startswith("p < 0.05") else ""


def cover_interval(r, k=1):
    """A row's Hodges-Lehmann estimate and 95% interval in a few characters: a ratio
    "0.47 [0.31-0.72]", or a shift (scaled by k) "-22 [-27, -15]"."""
    def g(v):
        a = abs(v)
        return (f"{v:.0f}" if a >= 100 else f"{v:.1f}" if a >= 10 else f"{v:.2f}" if a >= 0.1
                else f"{v:.2g}")

    lo, hi = r["ci_lo"], r["ci_hi"]
    if r["est_kind"] == "ratio":
        return f"{g(r['est'])} " + (f"[{g(lo)}-{g(hi)}]" if lo is not None else "[none]")
    return (f"{r['est'] * k:+.3g} "
            + (f"[{lo * k:+.3g}, {hi * k:+.3g}]" if lo is not None else "[none]"))


def cover_block(title, rows, figs, base="stock", other="split", scale=None):
    """Lines of the cover letter: a title (wrapped to 72 columns), then per figure of figs
    (config, key, label, unit) a line per boot (rows with "boot": its number in a column):
    the medians of base and other, other against base (cover_interval()), a '*' where the row
    differs after the correction and a '+' where only its uncorrected p is below 0.05; after
    the last boot's line, 'finding' where the figure is one over the boots (finding()). A
    column of a tail (max, the calls over a bound: figures.TAILS) has its medians only: the
    tail's verdict is P99.9's. scale: unit -> (factor, new unit)."""
    by = {}
    for r in rows:
        if r["base"] == base and r["other"] == other:
            by.setdefault((r["config"], r["figure"]), []).append(r)
    multi = any("boot" in r for r in rows)
    body = []
    for cfg, key, label, unit in figs:
        rs = sorted(by.get((cfg, key), []), key=lambda r: r.get("boot", 0))
        for i, r in enumerate(rs):
            lab = label if i == 0 else ""
            bt = f"{r['boot']:<2}" if multi else ""
            if not r["a"] or not r["b"]:
                body.append(f"  {lab:<15}{bt}{'no data':>9}")
                continue
            k = (scale or {}).get(unit, (1, unit))[0]
            ma, mb = statistics.median(r["a"]) * k, statistics.median(r["b"]) * k
            line = f"  {lab:<15}{bt}{cfmt(ma, unit):>9}{cfmt(mb, unit):>9}"
            if not tail_of(r["item"], key):
                verdict = r.get("verdict", "")
                mark = verdict_mark(verdict)
                line += f"  {cover_interval(r, k)}{mark}"
                if multi and i == len(rs) - 1 and r.get("finding", "").startswith("finding"):
                    line += "  finding"
            body.append(line)
    if not body:
        return []
    return ([""] + textwrap.wrap(title, 72)
            + [f"  {'':<15}{'' if not multi else '  '}{base:>9}{other:>9}  {other}/{base} "
               "[95% interval]"] + body)


def cover_sections(rows, plan, skips):
    """The cover letter's results of the mechanism the series changes: items 7, 8, 0's walker,
    9 and the trylock variant, each where it ran."""
    c = plan["counts"]
    out = []
    r7 = [r for r in rows if r["item"] == 7]
    out += cover_block(
        f"Priority inversion on one binder_alloc ({runs_of(r7)} runs per driver): a "
        f"SCHED_FIFO thread times {c['i7']} sync calls, 1 ms apart, among {INV_NICE_THREADS} "
        "nice 19 threads of its process that call the same server as fast as they can, with "
        f"{INV_HOGS} nice 0 CPU hogs; 16 KiB payloads. The FIFO thread's calls:",
        r7, [(cfg, k, f"{lbl}{suffix}", u) for cfg, suffix in (("inv", ""), ("inv-dc", " dc"))
             for k, lbl, u in (("p99", "P99 ms", "ms"), ("p999", "P99.9 ms", "ms"),
                               ("max", "max ms", "ms"), ("over10", "calls >10ms", "calls"))])
    r8 = [r for r in rows if r["item"] == 8]
    out += cover_block(
        f"The same in the allocator alone ({runs_of(r8)} runs per driver): a "
        "SCHED_FIFO kthread times binder_alloc_new_buf(), a write and "
        f"binder_alloc_free_buf(), 1 ms apart, among {ALLOC_INV_NICE} nice 19 kthreads "
        f"looping the same on one binder_alloc, with {ALLOC_INV_HOGS} CPU hogs; 'w': "
        "a kthread also walks the freelist with binder_alloc_free_page() every 1 ms. The "
        "FIFO kthread's ops:",
        r8, [(cfg, k, f"{lbl}{suffix}", "us")
             for cfg, suffix in (("kinv", ""), ("kinv-shrink", " w"))
             for k, lbl in (("p99", "P99 ms"), ("p999", "P99.9 ms"), ("max", "max ms"))],
        scale={"us": (1e-3, "ms")})
    r0 = [r for r in rows if r["item"] == 0]
    block = cover_block(
        f"The shrinker's reach ({runs_of(r0)} runs per driver): T kthreads loop "
        "binder_alloc_new_buf(), a write and binder_alloc_free_buf() on one binder_alloc "
        "while a kthread walks the freelist every 1 ms: the pages it freed, and the pages it "
        "skipped because its trylock of alloc->mutex (stock) or reclaim_mutex (split) "
        "failed:",
        r0, [(f"alloc{t}-shrink", "freed", f"freed, T={t}", "pages") for t in ALLOC_THREADS])
    if block:
        boots = sorted({b for b, _, _ in skips})
        for t in ALLOC_THREADS:
            for i, bt in enumerate(boots):
                a = skips.get((bt, f"alloc{t}-shrink", "stock"))
                b = skips.get((bt, f"alloc{t}-shrink", "split"))
                if a and b:
                    lab = f"skipped, T={t}" if i == 0 else ""
                    col = f"{bt:<2}" if bt else ""
                    block.append(f"  {lab:<15}{col}{cfmt(statistics.median(a), 'pages'):>9}"
                                 f"{cfmt(statistics.median(b), 'pages'):>9}")
        out += block
    r9 = [r for r in rows if r["item"] == 9]
    out += cover_block(
        f"The cold path ({runs_of(r9)} runs per driver): T kthreads on one "
        "binder_alloc allocate 4 KiB or 128 KiB buffers over pages not installed yet, so "
        "that each binder_alloc_new_buf() installs its pages; pages installed per second "
        "of allocation:",
        r9, [(f"cold{t}-{size // 1024}k", "ips", f"{sname}, T={t}", "pages/s")
             for size, sname in COLD_SIZES for t in COLD_THREADS])
    tl = [r for r in rows if r["other"] == "trylock"]
    out += cover_block(
        "The design alternative, bench only: the shrinker isolates the page under a trylock "
        "of alloc->lock, as Rust binder's does, so that nothing rolls back; against split, "
        "in the measurements above ('inv': the inversion through binder, 'alloc': in the "
        "allocator alone, 'e2e': end to end; 'w': with the walker):",
        tl, [(cfg, k, lbl, u) for cfg, k, lbl, u in (
            ("inv", "p999", "inv P99.9 ms", "ms"), ("inv-dc", "p999", "inv dc P99.9", "ms"),
            ("kinv", "p999", "alloc P99.9 ms", "us"),
            ("kinv-shrink", "p999", "alloc w P99.9", "us"),
            ("alloc4-shrink", "freed", "freed, T=4", "pages"),
            ("seed", "tput", "e2e iter/s", "iter/s"),
            ("seed-dc", "tput", "e2e dc iter/s", "iter/s"))],
        base="split", other="trylock", scale={"us": (1e-3, "ms")})
    return out


def runs_of(rows):
    """The most runs any row of rows has for either side."""
    return max((max(len(r["a"]), len(r["b"])) for r in rows), default=0)


def walker_skips(plan, runs, boot=0):
    """Item 0's walker: the pages it skipped on its mutex trylock, per run of stock and split,
    as {(boot, config, module): [count, ...]} (boot 0: a report of one boot)."""
    sk = {}
    for r in plan["runs"]:
        j = runs.get(r["id"], {}).get("rec", {}).get("all", {})
        if r["item"] == 0 and j.get("shrink") and r["module"] in ("stock", "split"):
            sk.setdefault((boot, r["config"], r["module"]), []).append(j.get("skip_mutex", 0))
    return sk


def cover_table(rows, plan, setup, runs=None, boots=1, skips=None):
    """The cover letter's Results, plain text (at most 75 columns): the setup, the sections
    of cover_sections(), then item 1's. boots: how many boots rows hold (their "boot"); skips:
    walker_skips() of them (default: of runs, one boot)."""
    runs = runs or {}
    ntested = len({(r["item"], r["config"], r["figure"], r["base"], r["other"])
                   for r in rows if "p" in r})
    sections = cover_sections(rows, plan, walker_skips(plan, runs) if skips is None else skips)
    head = textwrap.wrap(
        f"Measured in QEMU ({setup.get('accel', '?')}, -smp {setup.get('smp', '?')}) on "
        f"{setup.get('host_cpus', '?')} host CPUs (load average {setup.get('load_start', '?')} "
        f"at the start), {setup.get('kernel', '?')}, {setup.get('flavour', 'perf')} config, "
        "binder=m; each driver a module of the same kernel, the runs in a random order in "
        "each boot. "
        "Per figure the medians over the runs, and the Hodges-Lehmann estimate of the ratio "
        "(or, where a value is 0, the difference) with its 95% interval from the "
        "Mann-Whitney U test; '*': differs after a Benjamini-Hochberg correction over the "
        f"{'boot' if boots > 1 else 'run'}'s {ntested} figures (false discovery rate {ALPHA}); "
        f"'+': p < {ALPHA} before "
        "the correction only, not a finding; neither: no difference detected, the interval "
        "says how large one could be. P99.9, max and the calls over 10 ms (1 ms in the "
        "allocator) are one tail, with P99.9's verdict. 'dc': with drop_caches every "
        "10 ms." + (f" Two boots of the same runs, each in its own random order: a line per "
                    f"boot (1, 2); 'finding': differs after the correction in all {boots} "
                    "boots in the same direction." if boots > 1 else
                    " One boot: no figure is replicated."), 72)
    sections += item1_table(rows, plan)
    if not sections:
        return "(no item of the cover letter's results was run)\n"
    return "\n".join(head + sections) + "\n"


def item1_table(rows, plan):
    """Item 1, the v2 cover letter's table: throughput, average and P99, without and with
    pressure; first with AOSP's binderThroughputTest, the tool of that table, where it ran."""
    c = plan["counts"]
    r1 = [r for r in rows if r["item"] == 1]
    aosp = [r for r in r1 if r["config"].startswith("aosp")]
    seed = [r for r in r1 if not r["config"].startswith("aosp")]

    def figs(cfgs, avg):
        return [(cfg, k, f"{lbl}{suffix}", u) for cfg, suffix in cfgs
                for k, lbl, u in (("tput", "iter/s", "iter/s"), ("avg", avg, "ms"),
                                  ("p99", "P99 ms", "ms"))]
    out = cover_block(
        f"End to end, as in v2's table, with its tool, AOSP's binderThroughputTest "
        f"({runs_of(aosp)} runs per driver): -w 2 -i {c['i1']}, and -w 4 -p (two "
        "client/server pairs, '-p'; its iter/s counts the servers too, twice the calls); "
        "its P99 is the middle of the 0.39 ms histogram bucket the call falls in:",
        aosp, figs((("aosp", ""), ("aosp-dc", " dc"), ("aosp-p4", " -p"),
                    ("aosp-p4-dc", " -p dc")), "avg ms")) if aosp else []
    again = ", again" if aosp else ", as in v2's table"
    return out + cover_block(
        f"End to end{again} ({runs_of(seed)} runs per driver): binder_throughput -w 2 -i "
        f"{c['i1']}, two processes calling each other:",
        seed, figs((("seed", ""), ("seed-dc", " dc")), "average ms"))
