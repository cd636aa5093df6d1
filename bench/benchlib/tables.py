# SPDX-License-Identifier: GPL-2.0
"""The report's tables and the text of their cells: fmt and the range, ratio and verdict
texts, the modules side by side, the trylock skips and counts, lockstat and the waits.
"""

import statistics

from benchlib.common import TRACED, VARIANTS


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


def figure_cells(r):
    """A row's figure and its cells: each module's min-max (median), the estimate, the
    verdict (the report's tables of one comparison)."""
    return (f"{r['name']} ({r['unit']}) | {range_text(r['a'], r['unit'])} | "
            f"{range_text(r['b'], r['unit'])} | {ratio_text(r)} | {verdict_text(r)}")


def verdict_text(row):
    if "verdict" not in row:
        return "no data"
    return (f"{row['verdict']} (U test p={row['p']:.3g}, BH q={row['q']:.3g}; "
            f"ranges {row['ranges']})")


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


# skip_retry (the gate's skips while a retry is pending) is in alloc_bench_counts only
COUNT_FIELDS = ((("retries", "allocations rolled back"),) + SKIP_FIELDS
                + (("skip_retry", "retry pending (gate)"),))


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
        if (r["item"] == item and r["kind"] not in TRACED + ("warmup",)
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


WAITS_SHOWN = 12


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
        if (r["kind"] in TRACED + ("warmup",) or not d.get("end", "").startswith("ok")
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


ROLE_TEXT = {"caller": "FIFO caller", "looper": "FIFO 49 loopers", "fifo99": "SCHED_FIFO 99",
             "fifo1": "SCHED_FIFO 1"}


def waits_table(plan, runs, item):
    """The traced runs of item 7 (the FIFO caller and the FIFO loopers) or item 10 (its
    SCHED_FIFO classes): each module's D-state waits per thread and blocking site, the largest
    total first."""
    md = ["| configuration | module | thread | blocked in (lock <- binder function) | waits | "
          "total (ms) | max (ms) | woken by (prio) |", "|---|---|---|---|---|---|---|---|"]
    for r in plan["runs"]:
        if r["kind"] not in TRACED or r["item"] != item:
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
            who = ROLE_TEXT.get(role, role)
            md.append(f"| {r['label']} | {r['module']} | {who} | {site} | {n} | "
                      f"{tot / 1000:.2f} | {mx / 1000:.2f} | {waker_text(wakers)} |")
        if len(ws) > WAITS_SHOWN:
            rest = ws[WAITS_SHOWN:]
            md.append(f"| {r['label']} | {r['module']} | all | {len(rest)} more sites | "
                      f"{sum(w[2] for w in rest)} | {sum(w[3] for w in rest) / 1000:.2f} | "
                      f"{max(w[4] for w in rest) / 1000:.2f} | |")
    return md


PRIO_TEXT = {"139": "nice 19", "120": "nice 0", "100": "nice -20", "49": "FIFO 50",
             "50": "FIFO 49", "0": "FIFO 99", "98": "FIFO 1"}


def prio_text(p):
    """A kernel prio with what it is in items 7 and 10."""
    return f"{p} ({PRIO_TEXT[p]})" if p in PRIO_TEXT else p


def waker_text(wakers):
    """Kernel prios of the tasks that ended the waits; "PRIO^LENT" is a waker that priority
    inheritance lent LENT during the wait."""
    return ", ".join(" lent ".join(prio_text(p) for p in w.split("^"))
                     for w in wakers.split(",") if w)
