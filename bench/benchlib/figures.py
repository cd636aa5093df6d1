# SPDX-License-Identifier: GPL-2.0
"""The report's figures: the extractors of one value per run, the figures per item
(FIGURES, USAGE_FIGURES, OPTIONAL), summarize, which compares two modules per
configuration and figure, and alternatives, which compares each variant with the split.
"""

import statistics

from benchlib.common import TRACED, VARIANTS
from benchlib.stats import compare


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
    """Item 5: a field of the run's in-kernel delivery times (bench-samples k_us), in us."""
    def get(d):
        k = d.get("ktrace", {})
        return k[field] if k.get("n") and field in k else None
    return get


def round_trip(pct):
    """Item 5: percentile pct of the same run's user-space round trips (bench-samples ns), in us."""
    def get(d):
        c = d.get("cdf", [])
        return c[pct] / 1000 if len(c) > pct else None
    return get


def kernel_share(d):
    """Item 5: two deliveries (the call and its reply) over one round trip, medians, in %."""
    k, u = ktrace("p50_us")(d), round_trip(50)(d)
    return 100 * 2 * k / u if k is not None and u else None


# Item 10: selftests/binder_prio_reclaim's classes (its default -c) and the fields of its
# "# result class=..." lines: (class, key, name) and (key, name, field, unit, scale, better).
PRIO_CLASSES = (("fifo99", "f99", "SCHED_FIFO 99"), ("fifo1", "f1", "SCHED_FIFO 1"),
                ("nice-20", "n20", "nice -20"), ("nice19", "n19", "nice 19"))
PRIO_FIELDS = (("calls", "calls", "calls", "calls", 1.0, None),
               ("avg", "average", "avg_ns", "ms", 1e-6, False),
               ("p99", "P99", "p99_ns", "ms", 1e-6, False),
               ("p999", "P99.9", "p999_ns", "ms", 1e-6, False),
               ("max", "max", "max_ns", "ms", 1e-6, False),
               ("over1", "calls over 1 ms", "over_1ms", "calls", 1.0, False),
               ("over10", "calls over 10 ms", "over_10ms", "calls", 1.0, False))


def prio_figures(which):
    """Item 10's figures of each class's fields in which ({class key: (field keys)}), keyed
    CLASS_FIELD (f99_max), in the order of PRIO_CLASSES and PRIO_FIELDS."""
    return [(f"{c}_{k}", f"{name}: {what}", unit, better, rec(cls, field, scale))
            for cls, c, name in PRIO_CLASSES for k, what, field, unit, scale, better in PRIO_FIELDS
            if k in which.get(c, ())]


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
    # selftests/binder_prio_reclaim's "# result class=..." lines, one bench-rec per class
    10: prio_figures({"f99": ("avg", "p99", "p999", "max", "over10"), "f1": ("avg", "max"),
                      "n20": ("avg", "max"), "n19": ("avg", "max")})
        + [("scans", "reclaimer: scans", "scans", None, rec("reclaimer", "scans"))],
}
# The figure keys in the order of first appearance: runs.csv's fig_KEY columns.
FIG_KEYS = tuple(dict.fromkeys(k for figs in FIGURES.values() for k, *_ in figs))
# One tail per configuration: P99.9 of 2,000 calls is the second-largest call and max the
# largest, so P99.9, max and the calls over a bound are one observation. The report gives the
# tail one verdict, P99.9's, with the others as its columns: item -> (figure, (columns)).
TAILS = {7: ("p999", ("max", "over10")), 8: ("p999", ("max", "over1"))}


def tail_of(item, key):
    """The tail figure whose column key is (item 7's max is P99.9's), or None."""
    t = TAILS.get(item)
    return t[0] if t and key in t[1] else None


# Figures that only some configurations have (a walker, pressure): no row where no run has one.
OPTIONAL = ("freed", "rpw", "s_cpu", "s_vcsw", "s_ivcsw", "scans", "f1_avg", "f1_max",
            "n20_avg", "n20_max", "n19_avg", "n19_max")


def cfg_order(plan, cfg):
    """A configuration's place in the plan's canonical order (configs(), not the shuffled run
    order), so that the report's rows do not depend on the order seed."""
    cs = plan.get("configs", [])
    return cs.index(cfg) if cfg in cs else len(cs)


def summarize(plan, runs, base="stock", other="split", item_as=None, only=None, value=None,
              figures=FIGURES):
    """One row per (item, config, figure): the base's and the other's values ("a", "b"),
    the ratio other/base and the verdict. item_as and only: item 6's rows (split and stock
    against v1, item 1's configuration only). value(d, key, get): a run's value of a figure
    (default get(d), from the guest's output; recompute: from runs.csv). figures: item ->
    its figures (FIGURES; bench/device-table.py: item 10's every class and field)."""
    value = value or (lambda d, key, get: get(d))
    by_cfg = {}
    for r in plan["runs"]:
        if (only and r["config"] != only) or r["kind"] in TRACED + ("warmup",):
            continue
        by_cfg.setdefault((r["item"], r["config"], r["label"]), []).append(r)
    rows = []
    for (item, cfg, label), rs in sorted(by_cfg.items(),
                                         key=lambda kv: cfg_order(plan, kv[0][1])):
        if item_as is None and item not in plan["items"]:
            continue
        for key, name, unit, better, get in figures[item]:
            vals = {base: {}, other: {}}
            for r in rs:
                d = runs.get(r["id"], {})
                if r["module"] not in vals or not d.get("end", "").startswith("ok"):
                    continue
                v = value(d, key, get)
                if v is not None:
                    vals[r["module"]][r["rep"]] = v
            a = [vals[base][k] for k in sorted(vals[base])]
            b = [vals[other][k] for k in sorted(vals[other])]
            if not a and not b and (key in OPTIONAL or rs[0]["kind"] == "aosp"):
                # without the walker or without pressure, or a figure binderThroughputTest
                # does not give: the figure does not apply
                continue
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


def pool(boots):
    """The runs of several boots as one boot's, for the pooled analysis (bench/method.md): boots
    is [(boot, plan, runs)]; each run's id and rep become (boot, id) and (boot, rep), so that
    the same run of two boots stays two runs. Returns (plan, runs)."""
    plan, runs = {"items": [], "runs": []}, {}
    for b, p, rs in boots:
        plan["items"] = sorted(set(plan["items"]) | set(p["items"]))
        plan.setdefault("configs", p.get("configs", []))
        for r in p["runs"]:
            plan["runs"].append(dict(r, id=(b, r["id"]), rep=(b, r["rep"])))
            if r["id"] in rs:
                runs[(b, r["id"])] = rs[r["id"]]
    return plan, runs


def alternatives(plan, runs, value=None):
    """The rows of the bench-only modules: split against v1 and v1 against stock where v1
    ran (items 0, 7 and 8; item 1's configuration as item 6); each design variant against
    stock and against split wherever it ran."""
    rows = []
    cfgs = {}
    for r in plan["runs"]:
        if r["kind"] not in TRACED + ("warmup",):
            cfgs.setdefault((r["item"], r["config"]), set()).add(r["module"])
    for (item, cfg), mods in sorted(cfgs.items(), key=lambda kv: cfg_order(plan, kv[0][1])):
        shown = 6 if item == 1 else item
        if "v1" in mods and shown in plan["items"]:
            rows += summarize(plan, runs, "v1", "split", item_as=shown, only=cfg,
                              value=value)
            if item in (1, 7, 8):
                rows += summarize(plan, runs, "stock", "v1", item_as=shown, only=cfg,
                                  value=value)
        if item not in plan["items"]:
            continue
        # A record's variants are the modules it ran: one since retired from VARIANTS (a
        # record made before) still has its rows, so that the record recomputes.
        for v in list(VARIANTS) + sorted(mods - set(VARIANTS) - {"stock", "split", "v1"}):
            if v in mods:
                rows += summarize(plan, runs, "stock", v, only=cfg, value=value)
                rows += summarize(plan, runs, "split", v, only=cfg, value=value)
    return rows
