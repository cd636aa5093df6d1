#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""bench.py: the host side of make bench (scripts/bench.sh). Python 3 stdlib only.

  bench.py plan --profile quick|default|full --items "0 1 2 3 4 5 6 7 8 9"
               --modes "sync oneway pipeline"
               [--runs N] --plan FILE --json FILE
      writes the guest's plan (qemu/bench-run: "ID MODULE KIND CDF ARGS" per line, the modules
      interleaved A B A B) and plan.json (every run, its weight for the ETA, the counts used).
  bench.py report --plan plan.json --log console.log --setup setup.txt --out DIR
      reads the guest's tagged lines and writes DIR/report.md, runs.csv, summary.csv,
      cover-table.txt and, with gnuplot, the plots (SVG and PNG).
  bench.py mwu "X1 X2 ..." "Y1 Y2 ..." [--asymptotic]
      prints "U=<U of X> p=<two-sided p> method=exact|normal" (the host tests use it).
  bench.py compare "BASE1 BASE2 ..." "OTHER1 ..."
      one figure as the report sees it, on its own: "ratio|shift=<Hodges-Lehmann estimate>
      ci95=<low>,<high>|none p=<p> verdict=<verdict>".
  bench.py bh "P1 P2 ..."
      the Benjamini-Hochberg adjusted p-values, in the same order.
"""

import argparse
import csv
import hashlib
import itertools
import json
import math
import os
import re
import shutil
import statistics
import subprocess
import sys
import textwrap

PROG = "bench.py"
MODULES = [("stock", "binder_linux"), ("split", "binder_alloc_split")]
# Item 6: bench/v1-ceiling.patch on patches 0001-0003, loaded from binder_alloc_v1.ko (its
# module name is binder_alloc_split); only where the shrinker does not run (it is racy).
V1 = ("v1", "binder_alloc_v1:binder_alloc_split")
# The design alternatives, bench only: bench/variant-NAME.patch on the series, built into
# binder_alloc_NAME.ko (module name binder_alloc_split). Each: what it is, and the items it runs
# in: 0, 1, 7 and 8; item 9 (the cold path) only where it installs pages other than the split
# does, and not as another variant does (v3 and rt do; trylock and trywait install as v3). scripts/bench.sh builds those of BENCH_VARIANTS; every bench/variant-*.patch must be here.
VARIANTS = {
    "rt": ("the series' v3 design (installs serialized on install_mutex, which the shrinker "
           "holds from clearing an entry until its zap) with install_mutex an rt_mutex: a "
           "waiter lends its priority to the holder (priority inheritance)", (0, 1, 7, 8, 9)),
    "trylock": ("the series' v3 installs with Rust binder's shrinker order: it clears the page "
                "and isolates it under a trylock of alloc->lock, and skips the page when the "
                "trylock fails; nothing rolls back", (0, 1, 7, 8)),
    "trywait": ("the trylock variant, but when the trylock of alloc->lock fails the shrinker "
                "drops the list_lru lock and waits for alloc->lock instead of skipping the page",
                (0, 1, 7, 8)),
    "v3": ("the series' v3: installs serialized on install_mutex, which the shrinker holds "
           "from clearing an entry until its zap, and no lookup", (0, 1, 7, 8, 9)),
}


def variant_module(name):
    """(short name, plan MODULE) of a variant."""
    return (name, f"binder_alloc_{name}:binder_alloc_split")


TRYLOCK = variant_module("trylock")
ITEMS = tuple(range(10))
ALPHA = 0.05
EXACT_LIMIT = 200000  # enumerate the rank sums while C(n1 + n2, n1) is at most this


def die(msg):
    print(f"{PROG}: error: {msg}", file=sys.stderr)
    sys.exit(1)


# ---- statistics ----

def midranks(values):
    """Ranks 1..n of values, ties sharing the mean of their ranks."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    ranks = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return ranks


def mann_whitney(x, y, asymptotic=False):
    """Mann-Whitney U test, two-sided. Returns (U of x, p, method).

    Exact: the permutation distribution of x's rank sum over every way to pick len(x) of the
    pooled midranks (exact with ties too), while there are at most EXACT_LIMIT ways. Otherwise
    the normal approximation with the tie correction and a continuity correction of 0.5.
    """
    n1, n2 = len(x), len(y)
    if n1 == 0 or n2 == 0:
        raise ValueError("empty sample")
    ranks = midranks(list(x) + list(y))
    r1 = sum(ranks[:n1])
    u = r1 - n1 * (n1 + 1) / 2
    mean = n1 * n2 / 2
    if not asymptotic and math.comb(n1 + n2, n1) <= EXACT_LIMIT:
        dev = abs(u - mean) - 1e-9
        hits = total = 0
        off = n1 * (n1 + 1) / 2
        for pick in itertools.combinations(ranks, n1):
            total += 1
            if abs(sum(pick) - off - mean) >= dev:
                hits += 1
        return u, hits / total, "exact"
    n = n1 + n2
    ties = {}
    for v in ranks:
        ties[v] = ties.get(v, 0) + 1
    tie = sum(t ** 3 - t for t in ties.values())
    var = n1 * n2 / 12 * ((n + 1) - tie / (n * (n - 1)))
    if var <= 0:
        return u, 1.0, "normal"
    z = max(abs(u - mean) - 0.5, 0) / math.sqrt(var)
    return u, min(1.0, math.erfc(z / math.sqrt(2))), "normal"


def min_p(n1, n2):
    """The smallest two-sided exact p that samples of these sizes can reach (no ties)."""
    if math.comb(n1 + n2, n1) > EXACT_LIMIT:
        return 0.0
    return min(1.0, 2 / math.comb(n1 + n2, n1))


def min_p_ties(x, y):
    """The smallest two-sided p that the rank test can give for samples of these sizes with
    the pooled values of x and y (their ties): that of the most extreme split of them."""
    pooled = sorted(list(x) + list(y))
    return mann_whitney(pooled[:len(x)], pooled[len(x):])[1]


def u_null_counts(n1, n2):
    """How many of the C(n1 + n2, n1) rank assignments give each U = 0 .. n1 * n2 (no ties):
    N(m, n, u) = N(m - 1, n, u - n) + N(m, n - 1, u)."""
    prev = [[1] + [0] * (n1 * n2) for _ in range(n2 + 1)]  # m = 0: only U = 0
    for m in range(1, n1 + 1):
        cur = [[1] + [0] * (n1 * n2)]  # n = 0: only U = 0
        for n in range(1, n2 + 1):
            row = [0] * (n1 * n2 + 1)
            for u in range(m * n + 1):
                row[u] = (prev[n][u - n] if u >= n else 0) + cur[n - 1][u]
            cur.append(row)
        prev = cur
    return prev[n2]


def u_critical(n1, n2, alpha=ALPHA):
    """The largest c with P(U <= c) <= alpha / 2 under the null (no ties), or -1 if none:
    exact while C(n1 + n2, n1) is at most EXACT_LIMIT, else the normal approximation."""
    if math.comb(n1 + n2, n1) <= EXACT_LIMIT:
        counts, total = u_null_counts(n1, n2), math.comb(n1 + n2, n1)
        c, cum = -1, 0
        for u, k in enumerate(counts):
            cum += k
            if cum / total > alpha / 2:
                break
            c = u
        return c
    z = statistics.NormalDist().inv_cdf(1 - alpha / 2)
    return math.floor(n1 * n2 / 2 - z * math.sqrt(n1 * n2 * (n1 + n2 + 1) / 12) - 0.5)


def hodges_lehmann(base, other, alpha=ALPHA):
    """The Hodges-Lehmann estimate of other against base and its (1 - alpha) interval, the
    one the rank test gives (Moses): the median of the pairwise differences, and their
    (c+1)-th smallest and largest, c = u_critical(). On logs, as a ratio, when every value
    is above 0; else as a shift in the figure's unit. Returns (kind, estimate, low, high),
    kind "ratio" or "shift"; low and high are None when the sizes allow no interval."""
    ratio = all(v > 0 for v in list(base) + list(other))
    f = math.log if ratio else (lambda v: v)
    d = sorted(f(b) - f(a) for a in base for b in other)
    est = statistics.median(d)
    c = u_critical(len(base), len(other), alpha)
    lo, hi = (d[c], d[len(d) - 1 - c]) if c >= 0 else (None, None)
    if ratio:
        return ("ratio", math.exp(est), *(None if v is None else math.exp(v) for v in (lo, hi)))
    return "shift", est, lo, hi


def compare(base, other):
    """What a row says of other against base: the Hodges-Lehmann estimate and interval, the
    detectable difference, the rank test and the smallest p the sizes allow."""
    kind, est, lo, hi = hodges_lehmann(base, other)
    u, p, meth = mann_whitney(other, base)
    return dict(est_kind=kind, est=est, ci_lo=lo, ci_hi=hi,
                detectable=detectable(base, other, kind), u=u, p=p, method=meth,
                min_p=min_p(len(base), len(other)))


def benjamini_hochberg(ps):
    """Benjamini-Hochberg adjusted p-values (q) of ps, in the same order."""
    m = len(ps)
    order = sorted(range(m), key=lambda i: ps[i])
    q = [1.0] * m
    run = 1.0
    for rank in range(m, 0, -1):
        i = order[rank - 1]
        run = min(run, ps[i] * m / rank)
        q[i] = run
    return q


def detectable(base, other, kind, power=0.8, alpha=ALPHA):
    """The smallest difference (a ratio, or a shift in the unit) that samples of these sizes
    and this spread would find with the given power: the normal approximation of the rank
    test (its efficiency 3/pi against the t test), with the pooled standard deviation of the
    values (of their logs for a ratio). None with fewer than 2 values a side."""
    n1, n2 = len(base), len(other)
    if n1 < 2 or n2 < 2:
        return None
    f = math.log if kind == "ratio" else (lambda v: v)
    sd = math.sqrt(((n1 - 1) * statistics.variance([f(v) for v in base])
                    + (n2 - 1) * statistics.variance([f(v) for v in other])) / (n1 + n2 - 2))
    nd = statistics.NormalDist()
    delta = ((nd.inv_cdf(1 - alpha / 2) + nd.inv_cdf(power)) * sd
             * math.sqrt(1 / n1 + 1 / n2) / math.sqrt(3 / math.pi))
    return math.exp(delta) if kind == "ratio" else delta


# ---- plan ----

# Counts per profile; SOURCES: the counts of the published measurements each item follows
# (Documentation/benchmark.md, "The sources"). i1: the v2 cover letter (-w 2, -i per client).
# i2: the binder performance article (-i per client thread, 1000 calls per thread there). i3:
# the coroutine benchmark (100k requests per round: -i 50000 with two clients; 5 warm-up and 10
# measured rounds). i4: FIFO vs OTHER clients. i5: item 1's -w 2 with the binder tracepoints on
# (the article gives no count; item 1's is used). t0: item 0's run time in ms (no source has
# it; full uses 2 s). i7: the SCHED_FIFO caller's calls in item 7 (no source). t8, t9: item 8's
# and item 9's run time in ms (no source; item 8's SCHED_FIFO kthread makes an op every 1.1 ms
# or so). r*: runs per module.
PROFILES = {
    "quick": dict(r0=2, t0=500, r1=4, i1=1000, r2=2, i2=100, r3=2, i3=500, w3=1, m3=2, r4=2,
                  i4=200, r5=2, i5=500, r7=2, i7=200, r8=2, t8=500, r9=2, t9=300),
    "default": dict(r0=10, t0=1000, r1=10, i1=5000, r2=5, i2=500, r3=4, i3=2500, w3=1, m3=3,
                    r4=5, i4=1000, r5=6, i5=2000, r7=10, i7=2000, r8=10, t8=2000, r9=10,
                    t9=500),
    "full": dict(r0=10, t0=2000, r1=10, i1=10000, r2=10, i2=1000, r3=5, i3=50000, w3=5, m3=10,
                 r4=10, i4=5000, r5=10, i5=10000, r7=10, i7=5000, r8=10, t8=5000, r9=10,
                 t9=1000),
}
SOURCES = dict(r0=10, t0=2000, r1=10, i1=10000, r2=10, i2=1000, r3=5, i3=50000, w3=5, m3=10,
               r4=10, i4=5000, r5=10, i5=10000, r7=10, i7=5000, r8=10, t8=5000, r9=10,
               t9=1000)
ALLOC_THREADS = (1, 2, 4)
ALLOC_MAX = 8192
COUNT_TEXT = {
    "r0": "item 0: runs per module and configuration",
    "t0": "item 0: run time (ms)",
    "r1": "item 1: runs per module and configuration",
    "i1": "item 1: calls per client (-i; 2 clients)",
    "r2": "item 2: runs per module and configuration",
    "i2": "item 2: calls per client thread (-i)",
    "r3": "item 3: runs per module and mode",
    "i3": "item 3: calls per client and round (-i; 2 clients)",
    "w3": "item 3: warm-up rounds",
    "m3": "item 3: measured rounds",
    "r4": "item 4: runs per module",
    "i4": "item 4: calls per client thread (-i)",
    "r5": "item 5: runs per module",
    "i5": "item 5: calls per client (-i; 2 clients)",
    "r7": "item 7: runs per module and configuration",
    "i7": "item 7: calls of the SCHED_FIFO client (-i)",
    "r8": "item 8: runs per module and configuration",
    "t8": "item 8: run time (ms)",
    "r9": "item 9: runs per module and configuration",
    "t9": "item 9: run time (ms)",
}
# Item 7: one client process with one SCHED_FIFO thread (timed calls, 1 ms apart) and
# INV_NICE_THREADS threads at nice 19, against one server process whose 16 loopers are
# SCHED_FIFO 49, while INV_HOGS nice-0 processes spin; 16 KiB payloads.
INV_NICE_THREADS = 8
INV_HOGS = 2
INV_PAYLOAD = 16384
# The warm-up run of each module, first in the boot (KIND warmup; not in any figure).
WARMUP_CALLS = 1000
WARMUP_ARGS = f"-w 2 -i {WARMUP_CALLS}"
# Item 8: item 7 in the allocator alone. ALLOC_INV_NICE kthreads at nice 19 and one SCHED_FIFO 50
# kthread (--alloc-fifo) on one binder_alloc, while ALLOC_INV_HOGS nice-0 processes spin.
ALLOC_INV_NICE = 4
ALLOC_INV_HOGS = 2
# Item 9: first-touch installs by 1, 2 and 4 kthreads, of buffers of these sizes.
COLD_THREADS = (1, 2, 4)
COLD_SIZES = ((4096, "4 KiB"), (131072, "128 KiB"))
# Rough TCG cost for the ETA before the first run ends and for the timeouts: seconds per run
# plus calls per second (the issue measured 5,000-7,000 sync calls/s; pressure is slower).
RUN_OVERHEAD_S = 3
CALLS_PER_S = 2500


def configs(c, items, modes):
    """(item, name, label, kind, args, cdf, calls) for each configuration, in run order."""
    out = []
    if 0 in items:
        for shrink in (False, True):
            for t in ALLOC_THREADS:
                label = (f"{t} kthread{'s' if t > 1 else ''}, "
                         + ("freelist walker every 1 ms" if shrink else "no walker"))
                out.append((0, f"alloc{t}{'-shrink' if shrink else ''}", label, "alloc",
                            f"--alloc-bench {t} --alloc-ms {c['t0']} --alloc-max {ALLOC_MAX}"
                            + (" --alloc-shrink" if shrink else ""), 0,
                            c["t0"] / 1000 * CALLS_PER_S))
    if 1 in items or 6 in items:
        base = f"-w 2 -i {c['i1']}"
        out.append((1, "seed", "-w 2, no pressure", "one", base, 1, 2 * c["i1"]))
    if 1 in items:
        out.append((1, "seed-dc", "-w 2, drop_caches every 10 ms", "one",
                    base + " --pressure drop_caches", 1, 4 * c["i1"]))
    if 2 in items:
        for t in (1, 5, 10, 20):
            out.append((2, f"threads{t}", f"{t} client thread{'s' if t > 1 else ''}, payload 0",
                        "one", f"-w 2 -p --threads {t} --server-threads 16 -i {c['i2']}", 0,
                        t * c["i2"]))
        for s, name in ((4096, "4KiB"), (65536, "64KiB")):
            out.append((2, f"payload{name}", f"1 client thread, payload {name}", "one",
                        f"-w 2 -p --threads 1 --server-threads 16 -s {s} -i {c['i2']}", 0,
                        c["i2"] * (2 if s > 4096 else 1)))
    if 3 in items:
        for m in modes:
            win = "" if m == "sync" else " --window 8"
            out.append((3, m, f"--mode {m}, drop_caches every 10 ms", "one",
                        f"-w 2 --mode {m}{win} --mem-stats --warmup {c['w3']} --rounds {c['m3']} "
                        f"-i {c['i3']} --pressure drop_caches", 0,
                        2 * 2 * c["i3"] * (c["w3"] + c["m3"])))
    if 4 in items:
        i = c["i4"]
        out.append((4, "fifo", "FIFO 1 thread, OTHER 3 threads, -s 8000, drop_caches every 1 ms",
                    "fifo",
                    f"-w 2 -p --threads 1 --fifo -s 8000 -i {i} | "
                    f"-w 2 -p --threads 3 -s 8000 -i {i}", 0, 2 * 4 * i))
    if 5 in items:
        out.append((5, "ktrace", "-w 2, binder tracepoints on, no pressure", "trace",
                    f"-w 2 -i {c['i5']}", 1, 4 * c["i5"]))
    if 7 in items:
        base = (f"-w 2 -p -s {INV_PAYLOAD} --fifo-threads 1 --nice-threads {INV_NICE_THREADS}:19 "
                f"--server-threads 16 --server-fifo --hogs {INV_HOGS} -i {c['i7']}")
        what = f"FIFO 1 thread, nice 19 {INV_NICE_THREADS} threads, {INV_HOGS} hogs"
        out.append((7, "inv", f"{what}, no pressure", "one", base, 0, 5 * c["i7"]))
        out.append((7, "inv-dc", f"{what}, drop_caches every 10 ms", "one",
                    base + " --pressure drop_caches", 0, 8 * c["i7"]))
        # One more run per module and configuration, with the FIFO threads' sleeps traced:
        # where they wait, not how long the calls take (tracing costs time).
        out.append((7, "inv-waits", f"{what}, no pressure, sched_switch traced", "waits",
                    base, 0, 5 * c["i7"]))
        out.append((7, "inv-dc-waits", f"{what}, drop_caches every 10 ms, sched_switch traced",
                    "waits", base + " --pressure drop_caches", 0, 8 * c["i7"]))
    if 8 in items:
        what = (f"FIFO 1 kthread, nice 19 {ALLOC_INV_NICE} kthreads, {ALLOC_INV_HOGS} hogs")
        for shrink in (False, True):
            out.append((8, "kinv" + ("-shrink" if shrink else ""),
                        what + (", freelist walker every 1 ms" if shrink else ", no walker"),
                        "alloc", f"--alloc-bench {ALLOC_INV_NICE} --alloc-fifo --hogs {ALLOC_INV_HOGS} "
                        f"--alloc-ms {c['t8']} --alloc-max {ALLOC_MAX}"
                        + (" --alloc-shrink" if shrink else ""), 0,
                        c["t8"] / 1000 * CALLS_PER_S))
    if 9 in items:
        for size, sname in COLD_SIZES:
            for t in COLD_THREADS:
                out.append((9, f"cold{t}-{size // 1024}k",
                            f"{t} kthread{'s' if t > 1 else ''}, {sname} buffers", "alloc",
                            f"--alloc-bench {t} --alloc-cold --alloc-ms {c['t9']} "
                            f"--alloc-max {size}", 0, c["t9"] / 1000 * CALLS_PER_S))
    return out


def design_configs():
    """The configurations of the designs table (DESIGN_FIGURES) and item 7's traced runs of
    them: the only ones the variants run in, and all that the proxy boot runs."""
    return {cfg for cfg, _, _ in DESIGN_FIGURES} | {"inv-waits", "inv-dc-waits"}


def modules_for(item, name, items, variants=("trylock",), v1=True):
    """The modules of a configuration, in run order: stock and split; in items 0, 7 and 8 (and
    item 1 with item 6) v1 where no shrinker runs (it is racy: no walker, no drop_caches), unless
    not v1; then each of variants in the items it runs in (VARIANTS), in the configurations of
    the designs table only (design_configs())."""
    alt = item in (0, 7, 8) or (item == 1 and 6 in items)
    pressure = name.endswith("-shrink") or "-dc" in name
    return (MODULES + ([V1] if v1 and alt and not pressure else [])
            + [variant_module(v) for v in variants
               if item in VARIANTS[v][1] and (item != 1 or 1 in items)
               and name in design_configs()])


def cmd_plan(a):
    c = dict(PROFILES[a.profile])
    items = sorted({int(x) for x in a.items.split()})
    modes = a.modes.split()
    variants = a.variants.split()
    for v in variants:
        if v not in VARIANTS:
            die(f"plan: unknown variant '{v}' (have: {' '.join(VARIANTS)})")
    if a.runs:
        for k in ("r0", "r1", "r2", "r3", "r4", "r5", "r7", "r8", "r9"):
            c[k] = a.runs
    runs = []
    lines = []
    cfgs = configs(c, items, modes)
    if a.design_only:
        cfgs = [x for x in cfgs if x[1] in design_configs()]
        if not cfgs:
            die(f"plan: --design-only: none of items {' '.join(map(str, items))} has a "
                "configuration of the designs table")
    # One discarded run per module first: the boot's first runs of a module include TCG
    # translating kernel paths that no run has taken yet.
    def mods_of(item, name):
        return modules_for(item, name, items, variants, a.v1)

    used = [m for m in MODULES + [V1] + [variant_module(v) for v in variants]
            if any(m in mods_of(item, name) for item, name, *_ in cfgs)]
    warm = [(None, "warmup", "warm-up (not used)", "warmup", WARMUP_ARGS, 0, 2 * WARMUP_CALLS)]
    for item, name, label, kind, args, cdf, calls in warm + cfgs:
        reps = 1 if kind in ("waits", "warmup") else c[f"r{item}"]
        est = RUN_OVERHEAD_S + calls / CALLS_PER_S
        timeout = int(30 + 10 * est)
        if kind != "fifo":
            args += f" --timeout {timeout}"
        else:
            f, o = args.split("|")
            args = f"{f.strip()} --timeout {timeout} | {o.strip()} --timeout {timeout}"
        mods = used if kind == "warmup" else mods_of(item, name)
        for r in range(1, reps + 1):
            # A B B A: the modules' order is reversed every other round
            for short, mod in (mods if r % 2 else mods[::-1]):
                rid = f"{len(runs) + 1:03d}-{name}-{short}"
                runs.append(dict(id=rid, item=item, config=name, label=label, rep=r,
                                 module=short, kind=kind, args=args, est_s=round(est, 1)))
                lines.append(f"{rid} {mod} {kind} {cdf} {args}")
    with open(a.plan, "w") as f:
        f.write("\n".join(lines) + "\n")
    scaled = {k: (c[k], SOURCES[k]) for k in COUNT_TEXT}
    with open(a.json, "w") as f:
        json.dump(dict(profile=a.profile, items=items, modes=modes, counts=c, seed=SOURCES,
                       variants=variants, v1=a.v1, design_only=a.design_only, runs=runs),
                  f, indent=1)
    total = sum(r["est_s"] for r in runs)
    print(f"{len(runs)} runs, about {int(total)} s of guest time at {CALLS_PER_S} calls/s")
    del scaled


# ---- report ----

TAG = re.compile(r"^(bench-rec|bench-cdf|bench-extra|bench-ktrace|bench-waits|bench-lockstat): "
                 r"(\S+) (.*)$")
# A failed run's last log lines, as bench-run prints them: "# ID run.log: # error: ...".
RUN_ERROR = re.compile(r"^# (\S+) \S+\.log: # error: (.*)$")


def parse_log(path):
    """{run id: {"rec": {class: dict}, "cdf": [...], "extra": {...}, "ktrace": {...},
    "end": str, "error": str}}, problems."""
    runs, problems = {}, []
    clock = None
    with open(path, errors="replace") as f:
        for raw in f:
            line = raw.rstrip("\r\n").replace("\r", "")
            if line.startswith("bench: clocksource "):
                clock = line.split(" ", 2)[2].strip()
                continue
            if line.startswith("bench: end "):
                parts = line.split(" ", 3)
                runs.setdefault(parts[2], {})["end"] = parts[3] if len(parts) > 3 else ""
                continue
            m = RUN_ERROR.match(line)
            if m:
                runs.setdefault(m.group(1), {})["error"] = m.group(2)
                continue
            m = TAG.match(line)
            if not m:
                continue
            tag, rid, rest = m.groups()
            cls = None
            if tag == "bench-rec":
                cls, _, rest = rest.partition(" ")
            md5, _, payload = rest.partition(" ")
            if hashlib.md5(payload.encode()).hexdigest() != md5:
                problems.append(f"{rid}: {tag} line fails its md5sum (console noise?)")
                continue
            r = runs.setdefault(rid, {})
            if tag == "bench-rec":
                try:
                    r.setdefault("rec", {})[cls] = json.loads(payload)
                except ValueError:
                    problems.append(f"{rid}: bad JSON")
            elif tag == "bench-cdf":
                r["cdf"] = [int(v) for v in payload.split()]
            elif tag == "bench-lockstat":
                try:
                    r["lockstat"] = {f[0]: dict(con=int(f[1]), wmax=float(f[2]),
                                                wtotal=float(f[3]), acq=int(f[4]),
                                                hmax=float(f[5]), htotal=float(f[6]))
                                     for f in (x.split(",") for x in payload.split(";") if x)}
                except (IndexError, ValueError):
                    problems.append(f"{rid}: bad bench-lockstat line")
            elif tag == "bench-waits":
                try:
                    r["waits"] = [(w[0], w[1], int(w[2]), int(w[3]), int(w[4]), w[5]) for w in
                                  (x.split("|") for x in payload.split(";") if x)]
                except (IndexError, ValueError):
                    problems.append(f"{rid}: bad bench-waits line")
            elif tag == "bench-ktrace":
                r["ktrace"] = {k: float(v) for k, v in
                               (kv.split("=", 1) for kv in payload.split())}
            else:
                r["extra"] = dict(kv.split("=", 1) for kv in payload.split())
    # The guest waits for tsc before its first run; a change during the boot (the TSC found
    # unstable) would change the clock of every run after it.
    if clock is not None and clock != "tsc":
        problems.append(f"the guest's clocksource was {clock} at the end of the boot, not tsc: "
                        "the runs after the switch were timed with another clock")
    elif clock is None and runs:
        problems.append("no clocksource line at the end of the boot (the guest did not finish)")
    return runs, problems


# Figures: (item, key, label, unit, higher_is_better, extractor(run data) -> value or None)
def rec(cls, field, scale=1.0):
    def get(d):
        v = d.get("rec", {}).get(cls, {}).get(field)
        return None if v is None or v < 0 else v * scale
    return get


def total_time(d):
    r = d.get("rec", {}).get("all")
    return sum(x["seconds"] for x in r["rounds"]) if r else None


def reclaimed(d):
    e = d.get("extra", {})
    return float(e["reclaimed"]) if "reclaimed" in e else None


def reclaimed_per_write(d):
    """Pages the shrinker freed per write of 2 to drop_caches; only in runs with pressure."""
    w = d.get("rec", {}).get("all", {}).get("drop_caches_writes")
    r = reclaimed(d)
    return r / w if w and r is not None else None


def walker_freed(d):
    """Item 0: pages the walker freed; only in runs that had the walker."""
    r = d.get("rec", {}).get("all", {})
    return r.get("pages_freed") if r.get("shrink") else None


def per_call(field, all_calls=False):
    """Items 1 and 7: a getrusage figure per call of binder_throughput's JSON (-1: absent).
    all_calls: per call of all the callers' calls, the nice 19 threads' (background_calls)
    with the timed ones (transactions), rather than per timed call."""
    def get(d):
        j = d.get("rec", {}).get("all", {})
        v = j.get(field)
        if v is None or v < 0:
            return None
        if all_calls and j.get("transactions"):
            return v * j["transactions"] / (j["transactions"] + j.get("background_calls", 0))
        return v
    return get


def ktrace(field):
    """Item 5: a field of the run's in-kernel delivery times (bench-ktrace), in us."""
    def get(d):
        k = d.get("ktrace", {})
        return k[field] if k.get("n") and field in k else None
    return get


def round_trip(pct):
    """Item 5: percentile pct of the same run's user-space round trips (bench-cdf), in us."""
    def get(d):
        c = d.get("cdf", [])
        return c[pct] / 1000 if len(c) > pct else None
    return get


def kernel_share(d):
    """Item 5: two deliveries (the call and its reply) over one round trip, medians, in %."""
    k, u = ktrace("p50_us")(d), round_trip(50)(d)
    return 100 * 2 * k / u if k is not None and u else None


# Items 1 and 7: the callers' and the server's getrusage figures per call of all the callers'
# calls (binder_throughput's *_per_call keys).
USAGE_FIGURES = [
    ("c_cpu", "callers: CPU per call", "us", False, per_call("client_cpu_us_per_call", True)),
    ("c_vcsw", "callers: voluntary switches per call", "switches", False,
     per_call("client_vcsw_per_call", True)),
    ("c_ivcsw", "callers: involuntary switches per call", "switches", False,
     per_call("client_ivcsw_per_call", True)),
    ("s_cpu", "server: CPU per call", "us", False, per_call("server_cpu_us_per_call", True)),
    ("s_vcsw", "server: voluntary switches per call", "switches", False,
     per_call("server_vcsw_per_call", True)),
    ("s_ivcsw", "server: involuntary switches per call", "switches", False,
     per_call("server_ivcsw_per_call", True))
]
FIGURES = {
    0: [("ops", "throughput", "ops/s", True, rec("all", "ops_per_sec")),
        ("p50", "per op: median", "ns", False, rec("all", "p50_ns")),
        ("p99", "per op: P99", "ns", False, rec("all", "p99_ns")),
        ("freed", "pages freed by the walker", "pages", None, walker_freed)],
    1: [("tput", "throughput", "iter/s", True, rec("all", "iterations_per_sec")),
        ("avg", "average", "ms", False, rec("all", "avg_ms")),
        ("p99", "P99", "ms", False, rec("all", "p99_ms")),
        ("rpw", "pages reclaimed per drop_caches write", "pages/write", None,
         reclaimed_per_write)] + USAGE_FIGURES,
    2: [("tput", "throughput", "calls/s", True, rec("all", "iterations_per_sec")),
        ("avg", "average latency", "ms", False, rec("all", "avg_ms"))],
    3: [("time", "total time (measured rounds)", "s", False, total_time),
        ("avg", "average latency", "ms", False, rec("all", "avg_ms")),
        ("mem", "peak binder memory", "pages", False, rec("all", "binder_pages_peak")),
        ("cpu", "CPU utilisation", "%", False, rec("all", "cpu_busy_pct")),
        ("reclaim", "pages reclaimed", "pages", None, reclaimed)],
    4: [("fifo_avg", "FIFO client: average", "ms", False, rec("fifo", "avg_ms")),
        ("fifo_max", "FIFO client: max", "ms", False, rec("fifo", "worst_ms")),
        ("other_avg", "OTHER clients: average", "ms", False, rec("other", "avg_ms")),
        ("other_max", "OTHER clients: max", "ms", False, rec("other", "worst_ms"))],
    5: [("k_p50", "in-kernel delivery: median", "us", False, ktrace("p50_us")),
        ("k_avg", "in-kernel delivery: average", "us", False, ktrace("avg_us")),
        ("k_p99", "in-kernel delivery: P99", "us", False, ktrace("p99_us")),
        ("u_p50", "user-space round trip: median", "us", False, round_trip(50)),
        ("u_p99", "user-space round trip: P99", "us", False, round_trip(99)),
        ("k_share", "2 x delivery / round trip (medians)", "%", None, kernel_share)],
    7: [("p50", "FIFO caller: median", "ms", False, rec("all", "p50_ms")),
        ("p99", "FIFO caller: P99", "ms", False, rec("all", "p99_ms")),
        ("p999", "FIFO caller: P99.9", "ms", False, rec("all", "p999_ms")),
        ("max", "FIFO caller: max", "ms", False, rec("all", "worst_ms")),
        ("over1", "FIFO calls over 1 ms", "calls", False, rec("all", "over_1ms")),
        ("over10", "FIFO calls over 10 ms", "calls", False, rec("all", "over_10ms")),
        ("bg", "nice 19 callers: calls", "calls", None, rec("all", "background_calls")),
        ("f_cpu", "FIFO caller: CPU per call", "us", False, per_call("fifo_cpu_us_per_call")),
        ("f_vcsw", "FIFO caller: voluntary switches per call", "switches", False,
         per_call("fifo_vcsw_per_call")),
        ("f_ivcsw", "FIFO caller: involuntary switches per call", "switches", False,
         per_call("fifo_ivcsw_per_call"))] + USAGE_FIGURES,
    8: [("p50", "FIFO kthread: median", "us", False, rec("all", "fifo_p50_ns", 1e-3)),
        ("p99", "FIFO kthread: P99", "us", False, rec("all", "fifo_p99_ns", 1e-3)),
        ("p999", "FIFO kthread: P99.9", "us", False, rec("all", "fifo_p999_ns", 1e-3)),
        ("max", "FIFO kthread: max", "us", False, rec("all", "fifo_max_ns", 1e-3)),
        ("over1", "FIFO ops over 1 ms", "ops", False, rec("all", "fifo_over_1ms")),
        ("bg", "nice 19 kthreads: ops/s", "ops/s", None, rec("all", "ops_per_sec")),
        ("freed", "pages freed by the walker", "pages", None, walker_freed)],
    9: [("ips", "pages installed per second of allocation", "pages/s", True,
         rec("all", "installs_per_sec")),
        ("p50", "per binder_alloc_new_buf(): median", "us", False, rec("all", "p50_ns", 1e-3)),
        ("p99", "per binder_alloc_new_buf(): P99", "us", False, rec("all", "p99_ns", 1e-3))],
}
# Figures that only some configurations have (a walker, pressure): no row where no run has one.
OPTIONAL = ("freed", "rpw", "s_cpu", "s_vcsw", "s_ivcsw")
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
}


def fmt(v, unit=""):
    if v is None:
        return "-"
    a = abs(v)
    if unit in ("iter/s", "calls/s", "ops/s", "pages/s"):
        return f"{v / 1000:.2f}k" if a >= 1000 else f"{v:.0f}"
    if unit in ("pages", "%", "calls", "ops", "skips"):
        return f"{v:.0f}" if a >= 10 or unit != "%" else f"{v:.1f}"
    if a >= 100:
        return f"{v:.0f}"
    if a >= 10:
        return f"{v:.1f}"
    if a >= 1:
        return f"{v:.2f}"
    return f"{v:.3f}"


def summarize(plan, runs, base="stock", other="split", item_as=None, only=None):
    """One row per (item, config, figure): the base's and the other's values ("a", "b"),
    the ratio other/base and the verdict. item_as and only: item 6's rows (split and stock
    against v1, item 1's configuration only)."""
    by_cfg = {}
    for r in plan["runs"]:
        if (only and r["config"] != only) or r["kind"] in ("waits", "warmup"):
            continue
        by_cfg.setdefault((r["item"], r["config"], r["label"]), []).append(r)
    rows = []
    for (item, cfg, label), rs in by_cfg.items():
        if item_as is None and item not in plan["items"]:
            continue
        for key, name, unit, better, get in FIGURES[item]:
            vals = {base: {}, other: {}}
            for r in rs:
                d = runs.get(r["id"], {})
                if r["module"] not in vals or not d.get("end", "").startswith("ok"):
                    continue
                v = get(d)
                if v is not None:
                    vals[r["module"]][r["rep"]] = v
            a = [vals[base][k] for k in sorted(vals[base])]
            b = [vals[other][k] for k in sorted(vals[other])]
            if not a and not b and key in OPTIONAL:
                continue  # without the walker or without pressure: the figure does not apply
            row = dict(item=item_as or item, config=cfg, label=label, figure=key, name=name,
                       unit=unit, better=better, base=base, other=other, a=a, b=b)
            if a and b:
                ma, mb = statistics.median(a), statistics.median(b)
                row["ratio"] = mb / ma if ma else None
                row.update(compare(a, b))
                overlap = not (max(a) < min(b) or max(b) < min(a))
                row["ranges"] = "overlap" if overlap else "apart"
            rows.append(row)
    return rows


def verdicts(rows):
    """The verdict of every row that has a test, with the Benjamini-Hochberg correction over
    all of them (q: the adjusted p; false discovery rate ALPHA):
      differs                 q < ALPHA
      p < ALPHA, not after correction   p < ALPHA <= q
      no difference detected  p >= ALPHA, and p < ALPHA was possible
      too few runs (p >= X always)      the sample sizes cannot reach p < ALPHA
      too few distinct values           the sizes can, but not with these ties"""
    tested = [r for r in rows if "p" in r]
    for r, q in zip(tested, benjamini_hochberg([r["p"] for r in tested])):
        r["q"] = q
        if q < ALPHA:
            r["verdict"] = "differs"
        elif r["p"] < ALPHA:
            r["verdict"] = f"p < {ALPHA}, not after correction"
        elif r["min_p"] >= ALPHA:
            r["verdict"] = f"too few runs (p >= {r['min_p']:.2f} always)"
        elif min_p_ties(r["a"], r["b"]) >= ALPHA:  # a second enumeration: only here
            r["verdict"] = "too few distinct values"
        else:
            r["verdict"] = "no difference detected"
    return rows


def range_text(v, unit):
    if not v:
        return "-"
    return f"{fmt(min(v), unit)}–{fmt(max(v), unit)} (median {fmt(statistics.median(v), unit)})"


def ratio_text(row, dash="–"):
    """The Hodges-Lehmann estimate of other against base with its 95% interval: a ratio
    "0.47 [0.31–0.72]", or a shift in the figure's unit "-22 [-27, -15]" where a value is 0."""
    if row.get("est") is None:
        return "-"
    lo, hi = row["ci_lo"], row["ci_hi"]
    if row["est_kind"] == "ratio":
        ci = f"[{lo:.3g}{dash}{hi:.3g}]" if lo is not None else "[no interval]"
        return f"{row['est']:.3g} {ci}"
    ci = f"[{lo:+.3g}, {hi:+.3g}]" if lo is not None else "[no interval]"
    return f"{row['est']:+.3g} {row['unit']} {ci}"


def verdict_text(row):
    if "verdict" not in row:
        return "no data"
    return (f"{row['verdict']} (U test p={row['p']:.3g}, BH q={row['q']:.3g}; "
            f"ranges {row['ranges']})")



def cfmt(v, unit):
    """A value in at most 3 significant digits (10000 and up as 'k'), for the cover letter."""
    if abs(v) >= 10000:
        return f"{v / 1000:.3g}k"
    if abs(v) >= 100 or unit in ("calls", "pages", "ops"):
        return f"{v:.0f}"
    return f"{v:.3g}"


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
    """Lines of the cover letter: a title (wrapped to 72 columns), then one line per figure
    of figs (config, key, label, unit): the medians of base and other, other against base
    (cover_interval()), a '*' where the row differs after the correction and a '+' where
    only its uncorrected p is below 0.05. scale: unit ->
    (factor, new unit)."""
    by = {(r["config"], r["figure"]): r for r in rows
          if r["base"] == base and r["other"] == other}
    body = []
    for cfg, key, label, unit in figs:
        r = by.get((cfg, key))
        if r is None:
            continue
        if not r["a"] or not r["b"]:
            body.append(f"  {label:<15}{'no data':>9}")
            continue
        k = (scale or {}).get(unit, (1, unit))[0]
        ma, mb = statistics.median(r["a"]) * k, statistics.median(r["b"]) * k
        verdict = r.get("verdict", "")
        mark = (" *" if verdict == "differs" else " +" if verdict.startswith("p < 0.05")
                else "")
        body.append(f"  {label:<15}{cfmt(ma, unit):>9}{cfmt(mb, unit):>9}  "
                    f"{cover_interval(r, k)}{mark}")
    if not body:
        return []
    return ([""] + textwrap.wrap(title, 72)
            + [f"  {'':<15}{base:>9}{other:>9}  {other}/{base} [95% interval]"] + body)


def cover_sections(rows, plan, runs):
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
        sk = {}
        for r in plan["runs"]:
            j = runs.get(r["id"], {}).get("rec", {}).get("all", {})
            if r["item"] == 0 and j.get("shrink") and r["module"] in ("stock", "split"):
                sk.setdefault((r["config"], r["module"]), []).append(j.get("skip_mutex", 0))
        for t in ALLOC_THREADS:
            a, b = sk.get((f"alloc{t}-shrink", "stock")), sk.get((f"alloc{t}-shrink", "split"))
            if a and b:
                block.append(f"  {f'skipped, T={t}':<15}{cfmt(statistics.median(a), 'pages'):>9}"
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


def cover_table(rows, plan, setup, runs=None):
    """The cover letter's Results, plain text (at most 75 columns): the setup, the sections
    of cover_sections(), then item 1's."""
    runs = runs or {}
    ntested = sum(1 for r in rows if "p" in r)
    sections = cover_sections(rows, plan, runs)
    head = textwrap.wrap(
        f"Measured in QEMU ({setup.get('accel', '?')}, -smp {setup.get('smp', '?')}) on "
        f"{setup.get('host_cpus', '?')} host CPUs (load average {setup.get('load_start', '?')} "
        f"at the start), {setup.get('kernel', '?')}, {setup.get('flavour', 'perf')} config, "
        "binder=m; each driver a module of the same kernel, the runs interleaved in one boot. "
        "Per figure the medians over the runs, and the Hodges-Lehmann estimate of the ratio "
        "(or, where a value is 0, the difference) with its 95% interval from the "
        "Mann-Whitney U test; '*': differs after a Benjamini-Hochberg correction over the "
        f"run's {ntested} figures (false discovery rate {ALPHA}); '+': p < {ALPHA} before "
        "the correction only, not a finding; neither: no difference detected, the interval "
        "says how large one could be. 'dc': with drop_caches every "
        "10 ms.", 72)
    sections += item1_table(rows, plan)
    if not sections:
        return "(no item of the cover letter's results was run)\n"
    return "\n".join(head + sections) + "\n"


def item1_table(rows, plan):
    """Item 1, the v2 cover letter's table: throughput, average and P99, without and with
    pressure."""
    c = plan["counts"]
    r1 = [r for r in rows if r["item"] == 1]
    return cover_block(
        f"End to end, as in v2's table ({runs_of(r1)} runs per driver): "
        f"binder_throughput -w 2 -i {c['i1']}, two processes calling each other:",
        r1, [(cfg, k, f"{lbl}{suffix}", u) for cfg, suffix in (("seed", ""), ("seed-dc", " dc"))
             for k, lbl, u in (("tput", "iter/s", "iter/s"), ("avg", "average ms", "ms"),
                               ("p99", "P99 ms", "ms"))])


def write_plots(out, rows, plan, runs):
    """gnuplot: latency CDF (item 1) and throughput bars (items 1 and 2). Returns notes."""
    gp = shutil.which("gnuplot")
    if not gp:
        return ["gnuplot is not installed: the plots were skipped (apt-get install gnuplot-nox)"]
    notes = []
    # CDF: per module and configuration, the median over runs of each percentile.
    pcts = list(range(100)) + [99.5, 99.9, 100]
    series = []
    for cfg in ("seed", "seed-dc"):
        for mod in ("stock", "split"):
            cdfs = [runs[r["id"]]["cdf"] for r in plan["runs"]
                    if r["config"] == cfg and r["module"] == mod
                    and len(runs.get(r["id"], {}).get("cdf", [])) == len(pcts)]
            if not cdfs:
                continue
            fn = f"cdf-{cfg}-{mod}.dat"
            with open(os.path.join(out, fn), "w") as f:
                for i, p in enumerate(pcts):
                    f.write(f"{statistics.median(c[i] for c in cdfs) / 1e6:.6f} {p / 100:.4f}\n")
            title = mod + (" drop_caches" if cfg == "seed-dc" else " no pressure")
            series.append(f"'{fn}' using 1:2 with steps lw 2 title \"{title} ({len(cdfs)} runs)\"")
    bars = [r for r in rows if r["figure"] == "tput" and r["a"] and r["b"] and r["item"] != 6]
    with open(os.path.join(out, "throughput.dat"), "w") as f:
        for r in bars:
            f.write(f"\"{r['config']}\" {statistics.median(r['a'])} {min(r['a'])} "
                    f"{max(r['a'])} {statistics.median(r['b'])} {min(r['b'])} "
                    f"{max(r['b'])}\n")
    for ext, term in (("svg", "svg size 900,540 dynamic"), ("png", "pngcairo size 900,540")):
        script = [f"set terminal {term}", "set termoption noenhanced", "set grid",
                  "set key bottom right"]
        if series:
            script += [f"set output 'latency-cdf.{ext}'",
                       "set title 'Latency CDF, binder_throughput -w 2 (median of each percentile over runs)'",
                       "set xlabel 'latency (ms)'", "set ylabel 'fraction of calls'",
                       "set logscale x", "set yrange [0:1]", "plot " + ", ".join(series),
                       "unset logscale x", "set yrange [*:*]"]
        if bars:
            script += [f"set output 'throughput.{ext}'", "set key top right",
                       "set title 'Throughput: median and min-max over runs'",
                       "set xlabel ''", "set ylabel 'calls per second'",
                       "set style data histogram", "set style histogram errorbars gap 2 lw 1",
                       "set style fill solid 0.6 border -1", "set xtics rotate by -30",
                       "set yrange [0:*]",
                       "plot 'throughput.dat' using 2:3:4:xtic(1) title 'stock (binder_linux)', "
                       "'' using 5:6:7 title 'split (binder_alloc_split)'"]
        gpf = os.path.join(out, f"plots-{ext}.gp")
        with open(gpf, "w") as f:
            f.write("\n".join(script) + "\n")
        res = subprocess.run([gp, os.path.basename(gpf)], cwd=out, capture_output=True, text=True)
        if res.returncode and ext == "png":
            # gnuplot without cairo: the libgd png terminal.
            with open(gpf, "w") as f:
                f.write("\n".join(script).replace("pngcairo size", "png size") + "\n")
            res = subprocess.run([gp, os.path.basename(gpf)], cwd=out, capture_output=True,
                                 text=True)
        if res.returncode:
            notes.append(f"gnuplot failed for {ext}: {res.stderr.strip().splitlines()[-1:]}")
    if not series:
        notes.append("no latency samples (item 1 not run or failed): no CDF plot")
    return notes


MOD_ORDER = ("stock", "split", "v1") + tuple(VARIANTS)


def side_by_side(rows):
    """Items 0, 7, 8 and 9: the modules side by side in one row per configuration and figure,
    each with min-max (median), then each comparison (B/A with its verdict) the rows hold."""
    cells, pairs, mods = {}, [], set()
    for r in rows:
        c = cells.setdefault((r["label"], r["name"], r["unit"]), {})
        c[r["base"]], c[r["other"]] = r["a"], r["b"]
        c[(r["other"], r["base"])] = r
        mods |= {r["base"], r["other"]}
        if (r["other"], r["base"]) not in pairs:
            pairs.append((r["other"], r["base"]))
    mods = [m for m in MOD_ORDER if m in mods]
    md = ["| configuration | figure | " + " | ".join(mods) + " | "
          + " | ".join(f"{o}/{b}" for o, b in pairs) + " |",
          "|---|---|" + "---|" * (len(mods) + len(pairs))]
    for (label, name, unit), c in cells.items():
        def vs(o, b):
            r = c.get((o, b))
            return f"{ratio_text(r)}; {verdict_text(r)}" if r else "-"
        md.append(f"| {label} | {name} ({unit}) | "
                  + " | ".join(range_text(c.get(m), unit) for m in mods) + " | "
                  + " | ".join(vs(o, b) for o, b in pairs) + " |")
    return md


SKIP_FIELDS = (("skip_mutex", "mutex trylock"), ("skip_mmap", "mmap_lock trylock"),
               ("skip_lock", "alloc->lock trylock"), ("skip_vma", "not the VMA"),
               ("skip_mmget", "mm gone"))


def skips_table(plan, runs, item):
    """Item 0 or 8 with the walker: per configuration and module, the medians over the runs
    of the walker's walks, the pages it freed and its LRU_SKIPs per reason; the skips per
    freed page from the sums over the runs."""
    md = ["| item | configuration | module | runs | walks | pages freed | "
          + " | ".join(f"skips: {t}" for _, t in SKIP_FIELDS) + " | skips per freed page |",
          "|---|---|---|---|---|---|" + "---|" * (len(SKIP_FIELDS) + 1)]
    groups = {}
    for r in plan["runs"]:
        j = runs.get(r["id"], {}).get("rec", {}).get("all", {})
        if (r["item"] == item and j.get("shrink")
                and runs[r["id"]].get("end", "").startswith("ok")):
            groups.setdefault((r["item"], r["label"], r["module"]), []).append(j)
    for (item, label, mod), js in groups.items():
        def med(k):
            return count_text(statistics.median(j.get(k, 0) for j in js))
        skips = sum(j.get(k, 0) for j in js for k, _ in SKIP_FIELDS)
        freed = sum(j.get("pages_freed", 0) for j in js)
        md.append(f"| {item} | {label} | {mod} | {len(js)} | {med('shrinker_walks')} | "
                  f"{med('pages_freed')} | " + " | ".join(med(k) for k, _ in SKIP_FIELDS)
                  + f" | {skips / freed if freed else float('inf'):.2f} |")
    return md if groups else []


COUNT_FIELDS = (("retries", "allocations rolled back"),) + SKIP_FIELDS


def counts_block(plan, runs, item):
    """counts_table() with its heading, or nothing."""
    t = counts_table(plan, runs, item)
    return (["", "How often the mechanism ran: the allocations that the shrinker made roll back "
             "and retry, and the shrinker's skips per reason, medians over the runs "
             "(<debugfs>/binder/alloc_bench_counts after each run). trywait's 'alloc->lock "
             "trylock' counts its waits for alloc->lock, none of which skips the page.", ""]
            + t) if t else []


def counts_table(plan, runs, item):
    """Per configuration and module: the medians over the runs of the allocations that rolled
    back (retries) and of the shrinker's skips per reason, from alloc_bench_counts (bench-extra),
    whoever ran the shrinker (drop_caches, the walker, a cold round's reclaim): how often the
    mechanism under test ran. Stock has no rollback: its retries are 0."""
    groups = {}
    for r in plan["runs"]:
        d = runs.get(r["id"], {})
        e = d.get("extra", {})
        if (r["item"] == item and r["kind"] not in ("waits", "warmup")
                and d.get("end", "").startswith("ok") and "retries" in e):
            groups.setdefault((r["label"], r["module"]), []).append(e)
    if not groups:
        return []
    md = ["| configuration | module | runs | " + " | ".join(t for _, t in COUNT_FIELDS) + " |",
          "|---|---|---|" + "---|" * len(COUNT_FIELDS)]
    for (label, mod), es in groups.items():
        md.append(f"| {label} | {mod} | {len(es)} | " + " | ".join(
            count_text(statistics.median(float(e.get(k, 0)) for e in es))
            for k, _ in COUNT_FIELDS) + " |")
    return md


WAITS_SHOWN = 8


def lockstat_table(plan, runs):
    """The lockstat kernel's /proc/lock_stat per item, configuration, module and lock class:
    medians over the runs of the counts and totals, the largest max, the average wait over
    all contentions."""
    md = ["| item | configuration | module | lock | runs | contentions | wait total (ms) | "
          "wait max (us) | wait avg (us) | acquisitions | hold max (us) |",
          "|---|---|---|---|---|---|---|---|---|---|---|"]
    zero = dict(con=0, wmax=0.0, wtotal=0.0, acq=0, hmax=0.0, htotal=0.0)
    groups = {}
    for r in plan["runs"]:
        d = runs.get(r["id"], {})
        if (r["kind"] in ("waits", "warmup") or not d.get("end", "").startswith("ok")
                or "lockstat" not in d):
            continue
        groups.setdefault((r["item"], r["label"], r["module"]), []).append(d["lockstat"])
    for (item, label, mod), per_run in groups.items():
        for lock in sorted({k for ls in per_run for k in ls}):
            # lock_stat leaves out a class nobody took: that run counts as zero
            vs = [ls.get(lock, zero) for ls in per_run]
            con = sum(v["con"] for v in vs)
            md.append(f"| {item} | {label} | {mod} | {lock} | {len(vs)} | "
                      f"{count_text(statistics.median(v['con'] for v in vs))} | "
                      f"{statistics.median(v['wtotal'] for v in vs) / 1000:.2f} | "
                      f"{max(v['wmax'] for v in vs):.2f} | "
                      f"{(sum(v['wtotal'] for v in vs) / con) if con else 0:.2f} | "
                      f"{count_text(statistics.median(v['acq'] for v in vs))} | "
                      f"{max(v['hmax'] for v in vs):.2f} |")
    return md if groups else []


def count_text(v):
    """A count, or the median of an even number of counts (x.5), never in e-notation."""
    return f"{v:.0f}" if v == int(v) else f"{v:.1f}"


def waits_table(plan, runs):
    """Item 7's traced runs: each module's D-state waits of the FIFO caller and the FIFO
    loopers, per blocking site, the largest total first."""
    md = ["| configuration | module | thread | blocked in (lock <- binder function) | waits | "
          "total (ms) | max (ms) | woken by (prio) |", "|---|---|---|---|---|---|---|---|"]
    for r in plan["runs"]:
        if r["kind"] != "waits":
            continue
        d = runs.get(r["id"], {})
        if not d.get("end", "").startswith("ok"):
            md.append(f"| {r['label']} | {r['module']} | - | no result: "
                      f"{d.get('end', 'missing')} | | | | |")
            continue
        ws = d.get("waits", [])
        if not ws:
            md.append(f"| {r['label']} | {r['module']} | - | no D-state wait | 0 | 0 | 0 | |")
        for role, site, n, tot, mx, wakers in ws[:WAITS_SHOWN]:
            who = "FIFO caller" if role == "caller" else "FIFO 49 loopers"
            md.append(f"| {r['label']} | {r['module']} | {who} | {site} | {n} | "
                      f"{tot / 1000:.2f} | {mx / 1000:.2f} | {waker_text(wakers)} |")
        if len(ws) > WAITS_SHOWN:
            rest = ws[WAITS_SHOWN:]
            md.append(f"| {r['label']} | {r['module']} | both | {len(rest)} more sites | "
                      f"{sum(w[2] for w in rest)} | {sum(w[3] for w in rest) / 1000:.2f} | "
                      f"{max(w[4] for w in rest) / 1000:.2f} | |")
    return md


PRIO_TEXT = {"139": "nice 19", "120": "nice 0", "49": "FIFO 50", "50": "FIFO 49"}


def waker_text(wakers):
    """Kernel prios of the tasks that ended the waits, with what they are in item 7."""
    return ", ".join(f"{p} ({PRIO_TEXT[p]})" if p in PRIO_TEXT else p
                     for p in wakers.split(",") if p)


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
                   "idle machine's (Documentation/benchmark.md, \"A busy host\").")
    try:
        other = float(setup.get("host_other_cpus", ""))
    except ValueError:
        other = None
    if other is not None and other >= OTHER_CPUS_BUSY and not setup.get("host_load"):
        out.append(f"- The host was busy during the run: its other tasks used {other:g} CPUs "
                   f"on average beside QEMU, on {cpus} host CPUs with {smp} vCPUs; the "
                   "spinlock variants' figures show that condition (Documentation/"
                   "benchmark.md, \"A busy host\").")
    return out


def alternatives(plan, runs):
    """The rows of the bench-only modules: split against v1 and v1 against stock where v1
    ran (items 0, 7 and 8; item 1's configuration as item 6); each design variant against
    stock and against split wherever it ran."""
    rows = []
    cfgs = {}
    for r in plan["runs"]:
        if r["kind"] not in ("waits", "warmup"):
            cfgs.setdefault((r["item"], r["config"]), set()).add(r["module"])
    for (item, cfg), mods in cfgs.items():
        shown = 6 if item == 1 else item
        if "v1" in mods and shown in plan["items"]:
            rows += summarize(plan, runs, "v1", "split", item_as=shown, only=cfg)
            if item in (1, 7, 8):
                rows += summarize(plan, runs, "stock", "v1", item_as=shown, only=cfg)
        if item not in plan["items"]:
            continue
        for v in VARIANTS:
            if v in mods:
                rows += summarize(plan, runs, "stock", v, only=cfg)
                rows += summarize(plan, runs, "split", v, only=cfg)
    return rows


# binder_throughput's getrusage figures per call (-1 where absent), as the JSON has them
USAGE_FIELDS = tuple(f"{who}_{what}_per_call" for who in ("client", "server", "fifo")
                     for what in ("vcsw", "ivcsw", "cpu_us"))


def cmd_report(a):
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
    os.makedirs(a.out, exist_ok=True)
    rows = verdicts(summarize(plan, runs) + alternatives(plan, runs))
    ok = sum(1 for r in plan["runs"] if runs.get(r["id"], {}).get("end", "").startswith("ok"))
    failed_ids = [r["id"] for r in plan["runs"]
                  if r["id"] in runs and not runs[r["id"]].get("end", "ok").startswith("ok")]
    failed = [f"{i}: {runs[i]['end']}" + (f" ({runs[i]['error']})" if "error" in runs[i] else "")
              for i in failed_ids]
    timed_out = [i for i in failed_ids if "timed out" in runs[i].get("error", "")]
    missing = [r["id"] for r in plan["runs"] if r["id"] not in runs]

    with open(os.path.join(a.out, "runs.csv"), "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["id", "item", "config", "rep", "module", "class", "result", "calls_per_s",
                    "avg_ms", "p50_ms", "p99_ms", "worst_ms", "total_s", "cpu_busy_pct",
                    "binder_pages_peak", "reclaimed_pages", "run_s", "delivery_n",
                    "delivery_avg_us", "delivery_p50_us", "delivery_p99_us",
                    "alloc_ops_per_sec", "alloc_p50_ns", "alloc_p99_ns", "alloc_pages_freed",
                    "p999_ms", "over_1ms", "over_10ms", "background_calls",
                    *(k for k, _ in COUNT_FIELDS), *USAGE_FIELDS, "args"])
        for r in plan["runs"]:
            d = runs.get(r["id"], {})
            recs = d.get("rec") or {"-": {}}
            for cls, j in recs.items():
                w.writerow([r["id"], r["item"], r["config"], r["rep"], r["module"], cls,
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
                            r["args"]])
    with open(os.path.join(a.out, "summary.csv"), "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["item", "config", "figure", "unit", "base", "n_base", "base_median",
                    "base_min", "base_max", "other", "n_other", "other_median", "other_min",
                    "other_max", "ratio_other_base", "estimate_kind", "estimate", "ci95_low",
                    "ci95_high", "detectable_80", "mwu_u_other", "mwu_p", "mwu_method", "bh_q",
                    "ranges", "verdict"])
        for r in rows:
            a_, b_ = r["a"], r["b"]
            w.writerow([r["item"], r["config"], r["figure"], r["unit"], r["base"], len(a_),
                        statistics.median(a_) if a_ else "", min(a_, default=""),
                        max(a_, default=""), r["other"], len(b_),
                        statistics.median(b_) if b_ else "",
                        min(b_, default=""), max(b_, default=""), r.get("ratio", ""),
                        *(r.get(k, "") for k in ("est_kind", "est", "ci_lo", "ci_hi",
                                                 "detectable")),
                        r.get("u", ""), r.get("p", ""), r.get("method", ""), r.get("q", ""),
                        r.get("ranges", ""), r.get("verdict", "no data")])
    # Every figure's value of every run, one per line: what each row of summary.csv is computed
    # from (and what bench.py designs compares across boots).
    with open(os.path.join(a.out, "values.csv"), "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["item", "config", "figure", "unit", "module", "rep", "run", "value"])
        for r in plan["runs"]:
            d = runs.get(r["id"], {})
            if (r["kind"] in ("waits", "warmup") or r["item"] is None
                    or not d.get("end", "").startswith("ok")):
                continue
            for key, _, unit, _, get in FIGURES[r["item"]]:
                v = get(d)
                if v is not None:
                    w.writerow([r["item"], r["config"], key, unit, r["module"], r["rep"],
                                r["id"], repr(v)])
    table = cover_table(rows, plan, setup, runs)
    with open(os.path.join(a.out, "cover-table.txt"), "w") as f:
        f.write(table)
    notes = write_plots(a.out, rows, plan, runs)

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
                     ("accel", "accel (scripts/accel.sh)"), ("smp", "guest -smp"),
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
                  "a busy host (Documentation/benchmark.md, \"Known limits\"): rerun on an "
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
                   "qemu/bench-run; those runs are not in the figures above, tracing costs "
                   "time). A wait runs from the switch-out to the switch-in. 'runqueue' is "
                   "the time from a wakeup (or a preemption) to the switch-in; it overlaps the "
                   "end of each D-state wait. 'woken by' gives the kernel prio of the tasks "
                   "whose wakeup ended the waits, that is the lock's releaser: 139 is a nice 19 "
                   "client thread, 120 a nice-0 task (in the drop_caches configuration the "
                   "shrinker runs in the nice-0 drop_caches writer; the hogs take no lock). "
                   "The FIFO caller also waits, in S state, for the looper that handles its "
                   "call; the loopers' rows count their waits for every caller's calls.", ""]
            md += waits_table(plan, runs)
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
            md += ["bench/v1-ceiling.patch on patches 0001-0003 (binder_alloc_v1.ko): "
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
            md.append(f"| {first} | {r['name']} ({r['unit']}) | "
                      f"{range_text(r['a'], r['unit'])} | {range_text(r['b'], r['unit'])} | "
                      f"{ratio_text(r)} | {verdict_text(r)} |")
    md += ["", "## Plots", ""]
    for fn, title in (("latency-cdf", "Latency CDF (item 1)"), ("throughput", "Throughput")):
        if os.path.exists(os.path.join(a.out, fn + ".svg")):
            md.append(f"- {title}: [{fn}.svg]({fn}.svg), [{fn}.png]({fn}.png)")
    md += [f"- {n}" for n in notes]
    md += ["", "## Files", "", "- runs.csv: one row per run (and class); summary.csv: one row per "
           "figure; cover-table.txt; console.log: the guest's console", ""]
    with open(os.path.join(a.out, "report.md"), "w") as f:
        f.write("\n".join(md))
    print(table, end="")
    for r in rows:
        print(f"# {r['item']} {r['config']} {r['name']}: {r['other']}/{r['base']} {ratio_text(r)}, "
              f"{verdict_text(r)}")
    for n in notes:
        print(f"# {n}")
    return 0 if not failed and not missing and not problems else 1


# bench.py designs: the figures of the decision table (Documentation/design.md), per boot:
# (config, figure, what)
DESIGN_FIGURES = (
    ("inv", "p999", "item 7: FIFO caller P99.9, no pressure"),
    ("inv-dc", "p999", "item 7: FIFO caller P99.9, drop_caches"),
    ("inv", "p99", "item 7: FIFO caller P99, no pressure"),
    ("inv-dc", "p99", "item 7: FIFO caller P99, drop_caches"),
    ("inv", "f_vcsw", "item 7: FIFO caller voluntary switches per call"),
    ("inv", "c_cpu", "item 7: callers' CPU per call"),
    ("inv", "s_cpu", "item 7: server's CPU per call"),
    ("kinv", "p99", "item 8: FIFO kthread P99, no walker"),
    ("kinv-shrink", "p99", "item 8: FIFO kthread P99, walker"),
    ("cold2-4k", "p50", "item 9: new_buf median, 4 KiB, T=2"),
    ("cold2-4k", "p99", "item 9: new_buf P99, 4 KiB, T=2"),
    ("cold4-4k", "p50", "item 9: new_buf median, 4 KiB, T=4"),
    ("cold4-4k", "p99", "item 9: new_buf P99, 4 KiB, T=4"),
    ("cold2-128k", "p50", "item 9: new_buf median, 128 KiB, T=2"),
    ("cold2-128k", "p99", "item 9: new_buf P99, 128 KiB, T=2"),
    ("cold4-128k", "p50", "item 9: new_buf median, 128 KiB, T=4"),
    ("cold4-128k", "p99", "item 9: new_buf P99, 128 KiB, T=4"),
    ("alloc1-shrink", "freed", "item 0: pages the walker freed, T=1"),
    ("alloc4-shrink", "freed", "item 0: pages the walker freed, T=4"),
    ("alloc4", "ops", "item 0: ops/s, T=4, no walker"),
    ("seed", "tput", "item 1: throughput, no pressure"),
    ("seed-dc", "tput", "item 1: throughput, drop_caches"),
)


def design_cell(r):
    """A summary.csv row as a decision-table cell: the estimate, its interval, the verdict mark."""
    if not r or r["verdict"] in ("no data", ""):
        return "-"
    est, lo, hi = r["estimate"], r["ci95_low"], r["ci95_high"]
    if est == "":
        return "-"
    est = float(est)
    if r["estimate_kind"] == "ratio":
        # two decimals, or two significant digits below 0.1 (item 8's ratios are ~0.001x)
        def fmt(x):
            return f"{x:.2f}" if abs(x) >= 0.1 or x == 0 else f"{x:.2g}"
        cell = f"{fmt(est)}x" + (f" [{fmt(float(lo))}-{fmt(float(hi))}]" if lo != "" else "")
    else:
        cell = f"{est:+.3g}" + (f" [{float(lo):+.3g}, {float(hi):+.3g}]" if lo != "" else "")
    v = r["verdict"]
    return cell + (" *" if v == "differs" else " +" if v.startswith(f"p < {ALPHA}") else "")


def cmd_designs(a):
    """Each design against stock, per boot, from each boot's summary.csv; then stock on the proxy
    kernel with proxy execution against the same kernel without it, across two boots, from
    values.csv."""
    boots = []
    for spec in a.boot:
        name, _, d = spec.partition("=")
        if not name or not d or not os.path.isfile(os.path.join(d, "summary.csv")):
            die(f"designs: --boot {spec}: expected NAME=DIR with DIR/summary.csv")
        with open(os.path.join(d, "summary.csv")) as f:
            rows = list(csv.DictReader(f))
        boots.append((name, d, rows))
    md = ["# make bench: each design against stock", "",
          "Per boot, each design's figure against stock's on the same kernel in the same boot: "
          "the Hodges-Lehmann estimate of the ratio (or, where a value is 0, the shift), its 95% "
          "interval, '*' where it differs after the boot's Benjamini-Hochberg correction, '+' "
          "where only p < 0.05 before it (summary.csv of each boot). Lower is better for the "
          "latencies, switches and CPU; higher for pages freed and throughput. '-': the figure "
          "was not measured for that design in that boot.", ""]
    for name, d, rows in boots:
        by = {(r["config"], r["figure"], r["other"]): r for r in rows if r["base"] == "stock"}
        designs = [m for m in ("split", "v1") + tuple(VARIANTS)
                   if any(k[2] == m for k in by)]
        setup = {}
        if os.path.exists(os.path.join(d, "setup.txt")):
            with open(os.path.join(d, "setup.txt")) as f:
                setup = dict(line.rstrip("\n").partition("=")[::2] for line in f if "=" in line)
        md += [f"## {name} boot: {setup.get('kernel', '?')}"
               + (f", {setup['kargs']}" if setup.get("kargs") else "")
               + f" (commit {setup.get('commit', '?')}, {setup.get('date', '?')})", "",
               "| figure | " + " | ".join(f"{m}/stock" for m in designs) + " |",
               "|---|" + "---|" * len(designs)]
        for cfg, key, what in DESIGN_FIGURES:
            cells = [design_cell(by.get((cfg, key, m))) for m in designs]
            if any(c != "-" for c in cells):
                md.append(f"| {what} | " + " | ".join(cells) + " |")
        md.append("")
    vals = {}
    for name, d, _ in boots:
        p = os.path.join(d, "values.csv")
        if os.path.exists(p):
            with open(p) as f:
                for r in csv.DictReader(f):
                    vals.setdefault((name, r["config"], r["figure"], r["module"]),
                                    []).append(float(r["value"]))
    names = [b[0] for b in boots]
    if "proxy" in names and "noproxy" in names:
        md += ["## Stock with proxy execution against stock without, across two boots", "",
               "The stock module on the proxy kernel (proxy boot) against the same module on "
               "the same kernel booted with sched_proxy_exec=0 (noproxy boot), and the split "
               "the same way: two boots, so the difference includes what differs from boot to "
               "boot (a boot is not a replication of another: the stock driver has differed "
               "between two boots of one kernel on about one figure in five). Each a family of "
               "one (no correction); the estimate is proxy/noproxy.", "",
               "| figure | stock: proxy/noproxy | split: proxy/noproxy |", "|---|---|---|"]
        for cfg, key, what in DESIGN_FIGURES:
            cells = []
            for m in ("stock", "split"):
                x, y = vals.get(("noproxy", cfg, key, m)), vals.get(("proxy", cfg, key, m))
                if not x or not y:
                    cells.append("-")
                    continue
                row = dict(a=x, b=y, unit="", **compare(x, y))
                verdicts([row])
                cells.append(design_cell(dict(
                    estimate=row["est"], estimate_kind=row["est_kind"],
                    ci95_low="" if row["ci_lo"] is None else row["ci_lo"],
                    ci95_high="" if row["ci_hi"] is None else row["ci_hi"],
                    verdict=row["verdict"])))
            if any(c != "-" for c in cells):
                md.append(f"| {what} | " + " | ".join(cells) + " |")
        md.append("")
    with open(a.out, "w") as f:
        f.write("\n".join(md))
    print("\n".join(md))


def cmd_variant(a):
    if a.name not in VARIANTS:
        die(f"variant: unknown variant '{a.name}' (have: {' '.join(VARIANTS)})")
    print(VARIANTS[a.name][0])


def cmd_mwu(a):
    try:
        x = [float(v) for v in a.x.split()]
        y = [float(v) for v in a.y.split()]
        u, p, meth = mann_whitney(x, y, a.asymptotic)
    except ValueError as e:
        die(f"mwu: {e}")
    print(f"U={u:g} p={p:.6g} method={meth}")


def numbers(text, what):
    try:
        v = [float(x) for x in text.split()]
    except ValueError as e:
        die(f"{what}: {e}")
    if not v:
        die(f"{what}: no numbers")
    return v


def cmd_compare(a):
    """One figure on its own (a family of one: q = p): what the report says of it."""
    base, other = numbers(a.base, "compare"), numbers(a.other, "compare")
    row = dict(a=base, b=other, unit="", **compare(base, other))
    verdicts([row])
    ci = "none" if row["ci_lo"] is None else f"{row['ci_lo']:.6g},{row['ci_hi']:.6g}"
    print(f"{row['est_kind']}={row['est']:.6g} ci95={ci} p={row['p']:.6g} "
          f"verdict={row['verdict']}")


def cmd_bh(a):
    print(" ".join(f"{q:.6g}" for q in benjamini_hochberg(numbers(a.p, "bh"))))


def main():
    ap = argparse.ArgumentParser(prog=PROG)
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("plan")
    p.add_argument("--profile", choices=sorted(PROFILES), required=True)
    p.add_argument("--items", default=" ".join(str(i) for i in ITEMS))
    p.add_argument("--modes", default="sync oneway pipeline")
    p.add_argument("--runs", type=int, default=0)
    p.add_argument("--variants", default="",
                   help="the design alternatives to run (VARIANTS), space-separated")
    p.add_argument("--no-v1", dest="v1", action="store_false",
                   help="leave v1 (bench/v1-ceiling.patch) out")
    p.add_argument("--design-only", action="store_true",
                   help="only the configurations of the designs table (design_configs())")
    p.add_argument("--plan", required=True)
    p.add_argument("--json", required=True)
    r = sub.add_parser("report")
    r.add_argument("--plan", required=True)
    r.add_argument("--log", required=True)
    r.add_argument("--setup", default="")
    r.add_argument("--out", required=True)
    m = sub.add_parser("mwu")
    m.add_argument("x")
    m.add_argument("y")
    m.add_argument("--asymptotic", action="store_true")
    c = sub.add_parser("compare")
    c.add_argument("base")
    c.add_argument("other")
    b = sub.add_parser("bh")
    b.add_argument("p")
    d = sub.add_parser("designs")
    d.add_argument("--boot", action="append", required=True, help="NAME=DIR of a boot's report")
    d.add_argument("--out", required=True)
    v = sub.add_parser("variant")
    v.add_argument("name")
    a = ap.parse_args()
    {"plan": cmd_plan, "report": lambda a: sys.exit(cmd_report(a)), "mwu": cmd_mwu,
     "compare": cmd_compare, "bh": cmd_bh, "designs": cmd_designs,
     "variant": cmd_variant}[a.cmd](a)


if __name__ == "__main__":
    main()
