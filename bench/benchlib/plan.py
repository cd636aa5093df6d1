# SPDX-License-Identifier: GPL-2.0
"""bench.py plan: the counts per profile and the constants of each item, the configurations
of each item (configs), the modules each runs (modules_for), and cmd_plan, which writes the
guest's plan and plan.json.
"""

import json
import random

from benchlib.common import MODULES, TRACED, V1, VARIANTS, design_configs, die, variant_module


# ---- plan ----

# Counts per profile; SOURCES: the counts of the published measurements each item follows
# (bench/items.md, "The sources"). i1: the v2 cover letter (-w 2, -i per client).
# i2: the binder performance article (-i per client thread, 1000 calls per thread there). i3:
# the coroutine benchmark (100k requests per round: -i 50000 with two clients; 5 warm-up and 10
# measured rounds). i4: FIFO vs OTHER clients. i5: item 1's -w 2 with the binder tracepoints on
# (the article gives no count; item 1's is used). t0: item 0's run time in ms (no source has
# it; full uses 2 s). i7: the SCHED_FIFO caller's calls in item 7 (no source). t8, t9: item 8's
# and item 9's run time in ms (no source; item 8's SCHED_FIFO kthread makes an op every 1.1 ms
# or so). r*: runs per module.
PROFILES = {
    "quick": dict(r0=2, t0=500, r1=4, i1=1000, r2=2, i2=100, r3=2, i3=500, w3=1, m3=2, r4=2,
                  i4=200, r5=2, i5=500, r7=2, i7=200, r8=2, t8=500, r9=2, t9=300, r10=2,
                  i10=200),
    "default": dict(r0=10, t0=1000, r1=10, i1=5000, r2=5, i2=500, r3=4, i3=2500, w3=1, m3=3,
                    r4=5, i4=1000, r5=6, i5=2000, r7=10, i7=2000, r8=10, t8=2000, r9=10,
                    t9=500, r10=5, i10=1000),
    "full": dict(r0=10, t0=2000, r1=10, i1=10000, r2=10, i2=1000, r3=5, i3=50000, w3=5, m3=10,
                 r4=10, i4=5000, r5=10, i5=10000, r7=10, i7=5000, r8=10, t8=5000, r9=10,
                 t9=1000, r10=10, i10=5000),
}
SOURCES = dict(r0=10, t0=2000, r1=10, i1=10000, r2=10, i2=1000, r3=5, i3=50000, w3=5, m3=10,
               r4=10, i4=5000, r5=10, i5=10000, r7=10, i7=5000, r8=10, t8=5000, r9=10,
               t9=1000, r10=10, i10=5000)
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
    "r10": "item 10: runs per module and configuration",
    "i10": "item 10: calls per client thread (-n; 8 threads)",
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
# Item 10: selftests/binder_prio_reclaim, the 2023 spinlock commit's test: PRIO_THREADS client
# threads of each class (SCHED_FIFO 99 and 1, nice -20 and 19) calling one server, with
# PRIO_FEW loopers (fewer than the 8 callers) or PRIO_MANY (more); the reclaimer every 10 ms.
PRIO_THREADS = 2
PRIO_FEW = 4
PRIO_MANY = 16
PRIO_RECLAIM = (("shr", "shrinker:10", "shrinker debugfs scan every 10 ms"),
                ("dc", "drop_caches:10", "drop_caches every 10 ms"),
                ("none", "none", "no reclaim"))
# The runs' time limits, not an estimate: a run's --timeout is 30 s + 10 x (RUN_OVERHEAD_S +
# calls / CALLS_PER_S), and bench.sh gives QEMU 3 x the sum of those (limit_s) + 5 min. They
# are about three times what runs take, on purpose; the estimate is below.
RUN_OVERHEAD_S = 3
CALLS_PER_S = 2500
# The estimate of guest time (est_s: the ETA, and bench.sh's estimate of a whole make bench):
# EST_BOOT_S a boot, and per run EST_RUN_S + calls / EST_CALLS_PER_S[item] (item None: the
# warm-up runs). "calls" is each configuration's last field in configs() (for items 0, 8 and
# 9, 2.5 per ms of the run). Calibrated on the records' own times: per item, the sum of runs.csv's
# run_s (the guest's seconds from insmod to the end of the run) less 0.1 s a run, over its
# calls, in the 15 boots of series/bench, series/bench-v5cand and
# series/bench-default-runs/run5-dea6b41; then the time between the runs (rmmod, the result
# lines) taken as 20% more and the boot as 10 s, fitted to setup.txt's guest= seconds of those
# boots and of dea6b41's quick profile (234 runs, 149 s in the guest). `bench.py calibrate
# RECORD...` prints the estimate against each boot's recorded guest time (each within -30% and
# +16% of it when these were set).
EST_BOOT_S = 10
EST_RUN_S = 0.12
EST_CALLS_PER_S = {None: 4100, 0: 2000, 1: 9500, 2: 6100, 3: 19000, 4: 6900, 5: 3000,
                   7: 2700, 8: 2000, 9: 2300, 10: 4400}
# A whole make bench on the 2-core host (bench.py estimate, which bench.sh prints first): the
# guest time of each boot's plan, BENCH_REPLICAS times; per boot on the host HOST_BOOT_S: the
# wait for the load average to settle (40 to 100 s in the records' setup.txt; BENCH_SETTLE at
# most) and the plan, initramfs and report; HOST_END_S at the end (combine, designs). Then
# the builds of what is missing, with ccache cold (a fresh cache on this host, by its stamps:
# the source's fetch from a near mirror and the stock and split trees 72 s, the perf kernel
# 9.3 min, the proxy kernel 9.5 min, the modules 6 to 30 s each, AOSP's binaries 76 s).
HOST_BOOT_S = 110
HOST_END_S = 30
FETCH_S = 180
BUILD_KERNEL_S = 600
BUILD_MODULES_S = 60
BUILD_AOSP_S = 90


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
        # AOSP's binderThroughputTest, the tool of v2's table (aosp/aosp-build.sh): -w 2 as
        # above, and -w 4 -p, two client/server pairs.
        for args, name, what in ((base, "aosp", "-w 2"),
                                 (f"-w 4 -p -i {c['i1']}", "aosp-p4", "-w 4 -p")):
            out.append((1, name, f"binderThroughputTest {what}, no pressure", "aosp", args, 0,
                        2 * c["i1"]))
            out.append((1, f"{name}-dc", f"binderThroughputTest {what}, drop_caches every 10 ms",
                        "aosp", args + " --pressure drop_caches", 0, 4 * c["i1"]))
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
    if 10 in items:
        n = c["i10"]
        calls = 4 * PRIO_THREADS * n
        for short, mode, what in PRIO_RECLAIM:
            for loopers, lname in ((PRIO_FEW, "few"), (PRIO_MANY, "many")):
                out.append((10, f"prio-{short}-{lname}",
                            f"4 classes x {PRIO_THREADS} threads, {loopers} loopers, {what}",
                            "prio", f"-n {n} -l {loopers} -r {mode}", 0, calls))
        # One more run, with the real-time threads' sleeps traced (item 7's inv-waits).
        out.append((10, "prio-shr-few-waits",
                     f"4 classes x {PRIO_THREADS} threads, {PRIO_FEW} loopers, shrinker debugfs "
                     "scan every 10 ms, sched_switch traced", "pwaits",
                     f"-n {n} -l {PRIO_FEW} -r shrinker:10", 0, calls))
        # The limit: the SCHED_FIFO 99 class alone, with no one to wait behind.
        out.append((10, "prio-shr-limit",
                    f"SCHED_FIFO 99 x {PRIO_THREADS} threads alone, {PRIO_FEW} loopers, "
                    "shrinker debugfs scan every 10 ms", "prio",
                    f"-n {n} -l {PRIO_FEW} -c fifo99:{PRIO_THREADS} -r shrinker:10", 0,
                    PRIO_THREADS * n))
    return out


def modules_for(item, name, items, variants=("trylock",), v1=True):
    """The modules of a configuration, in run order: stock and split; in items 0, 7 and 8 (and
    item 1 with item 6) v1 where no shrinker runs (it is racy: no walker, no drop_caches), unless
    not v1; then each of variants in the items it runs in (VARIANTS), in the configurations of
    the designs table only (design_configs())."""
    alt = item in (0, 7, 8) or (item == 1 and 6 in items and not name.startswith("aosp"))
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
        for k in ("r0", "r1", "r2", "r3", "r4", "r5", "r7", "r8", "r9", "r10"):
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
    # The warm-up runs first, one per module; then every other run in an order shuffled with
    # the seed (a.seed): no module is always first, no configuration always early, and the
    # same seed gives the same order.
    first, rest = [], []
    for item, name, label, kind, args, cdf, calls in warm + cfgs:
        reps = 1 if kind in TRACED + ("warmup",) else c[f"r{item}"]
        limit = RUN_OVERHEAD_S + calls / CALLS_PER_S
        timeout = int(30 + 10 * limit)
        est = run_estimate(item, calls)
        if kind != "fifo":
            args += f" --timeout {timeout}"
        else:
            f, o = args.split("|")
            args = f"{f.strip()} --timeout {timeout} | {o.strip()} --timeout {timeout}"
        mods = used if kind == "warmup" else mods_of(item, name)
        for r in range(1, reps + 1):
            for short, mod in mods:
                (first if kind == "warmup" else rest).append(
                    (item, name, label, kind, args, cdf, est, limit, r, short, mod))
    random.Random(a.seed).shuffle(rest)
    for item, name, label, kind, args, cdf, est, limit, r, short, mod in first + rest:
        rid = f"{len(runs) + 1:03d}-{name}-{short}"
        runs.append(dict(id=rid, item=item, config=name, label=label, rep=r,
                         module=short, kind=kind, args=args, est_s=round(est, 2),
                         limit_s=round(limit, 1)))
        lines.append(f"{rid} {mod} {kind} {cdf} {args}")
    with open(a.plan, "w") as f:
        f.write("\n".join(lines) + "\n")
    total = EST_BOOT_S + sum(r["est_s"] for r in runs)
    with open(a.json, "w") as f:
        json.dump(dict(profile=a.profile, items=items, modes=modes, counts=c, seed=SOURCES,
                       variants=variants, v1=a.v1, design_only=a.design_only,
                       order_seed=a.seed, configs=[x[1] for x in cfgs],
                       est_boot_s=EST_BOOT_S, est_s=round(total), runs=runs),
                  f, indent=1)
    print(f"{len(runs)} runs, about {round(total)} s of guest time (estimated: EST_* in "
          "bench/benchlib/plan.py)")


def run_estimate(item, calls):
    """A run's guest seconds, estimated (EST_RUN_S, EST_CALLS_PER_S)."""
    return EST_RUN_S + calls / EST_CALLS_PER_S[item]


def cmd_calibrate(a):
    """The estimate against the records: per boot of each RECORD (a record's directory, such
    as series/bench, or one kernel's), setup.txt's guest seconds and the estimate of its
    plan.json at the EST_* constants; per item, runs.csv's mean run_s (insmod to the end of the
    run) and the estimate's mean per run, which also holds the run's share of the time between
    runs. Exit 1 when a boot's estimate is not within --tolerance (a share) of its guest time."""
    import csv
    import os
    import re
    kernels = []
    for d in a.records:
        if os.path.isfile(os.path.join(d, "runs.csv")):
            kernels.append(d)
        elif not os.path.isdir(d):
            die(f"calibrate: {d}: no such directory")
        else:
            kernels += sorted(os.path.join(d, k) for k in os.listdir(d)
                              if os.path.isfile(os.path.join(d, k, "runs.csv")))
    if not kernels:
        die(f"calibrate: no runs.csv in {' '.join(a.records)} or a directory of it")
    items = {}
    bad = 0
    for kd in kernels:
        with open(os.path.join(kd, "runs.csv"), newline="") as f:
            rows = list(csv.DictReader(f))
        boots = sorted((x for x in os.listdir(kd) if re.fullmatch(r"boot[0-9]+", x)),
                       key=lambda x: int(x[4:])) or [""]
        for b in boots:
            bd = os.path.join(kd, b) if b else kd
            with open(os.path.join(bd, "plan.json")) as f:
                plan = json.load(f)
            with open(os.path.join(bd, "setup.txt")) as f:
                m = re.search(r"^guest=PASS: ([0-9]+)s", f.read(), re.M)
            if not m:
                print(f"{bd}: no guest=PASS line in setup.txt, left out")
                continue
            c = dict(PROFILES[plan["profile"]])
            c.update(plan["counts"])
            calls = {(x[0], x[1]): x[6] for x in configs(c, set(range(11)), plan["modes"])}
            calls[(None, "warmup")] = 2 * WARMUP_CALLS
            run_s = {r["id"]: float(r["run_s"]) for r in rows
                     if r.get("boot", "1") == (b[4:] or "1") and r["run_s"] not in ("", "-1")}
            est = EST_BOOT_S
            for r in plan["runs"]:
                e = run_estimate(r["item"], calls[(r["item"], r["config"])])
                est += e
                it = items.setdefault(r["item"], [0, 0.0, 0, 0.0])
                if r["id"] in run_s:
                    it[0] += 1
                    it[1] += run_s[r["id"]]
                it[2] += 1
                it[3] += e
            guest = int(m.group(1))
            ok = abs(est / guest - 1) <= a.tolerance
            bad += not ok
            print(f"{bd}: {len(plan['runs'])} runs, {guest} s in the guest, estimate {est:.0f} s "
                  f"({est / guest:.2f}){'' if ok else ' (outside the tolerance)'}")
    for item in sorted(items, key=lambda i: -1 if i is None else i):
        n, s, ne, e = items[item]
        print(f"item {'warm-up' if item is None else item}: {ne} runs, run_s {s / max(n, 1):.2f} s "
              f"a run recorded, estimate {e / ne:.2f} s a run (with the time between runs)")
    if bad:
        die(f"calibrate: {bad} boots' estimates outside {a.tolerance:.0%} of their guest time")


def minutes(s):
    return f"{max(1, round(s / 60))} min"


def cmd_estimate(a):
    """One line: the estimate of a whole make bench of the plans given (NAME=plan.json, each a
    boot), BENCH_REPLICAS times, with the builds of what is missing (--build FLAVOUR, --fetch,
    --aosp)."""
    guest, n, names = 0, 0, []
    for x in a.plan:
        name, _, path = x.partition("=")
        try:
            with open(path) as f:
                plan = json.load(f)
        except (OSError, ValueError) as e:
            die(f"estimate: --plan {x}: {e}")
        guest += plan.get("est_s", EST_BOOT_S + sum(r["est_s"] for r in plan["runs"]))
        n += len(plan["runs"])
        names.append(name)
    guest *= a.replicas
    host = a.replicas * len(names) * HOST_BOOT_S + HOST_END_S
    builds = []
    if a.fetch:
        builds.append(("the source's fetch and trees", FETCH_S))
    for fl in a.build:
        builds.append((f"the {fl} kernel and its modules", BUILD_KERNEL_S + BUILD_MODULES_S))
    if a.aosp:
        builds.append(("AOSP's binaries", BUILD_AOSP_S))
    build = sum(s for _, s in builds)
    kernels = " and ".join(names) if len(names) < 3 else ", ".join(names[:-1]) + " and " + names[-1]
    boots = (f"the {kernels} boot{'s' if len(names) > 1 else ''}, "
             + ("once" if a.replicas == 1 else ("each " if len(names) > 1 else "")
               + ("twice" if a.replicas == 2 else f"{a.replicas} times")))
    what = (f"builds of {', '.join(w for w, _ in builds)} about {minutes(build)}"
            if builds else "nothing to build")
    print(f"estimate: {boots}, {n * a.replicas} runs: about {minutes(guest)} in the guest, "
          f"{minutes(host)} on the host around the boots, {what}: about "
          f"{minutes(guest + host + build)} in all (EST_* and HOST_* in bench/benchlib/plan.py)")
