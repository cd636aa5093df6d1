#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""device-table.py DIR (make device-table DIR=DIR): selftests/binder_prio_reclaim's output from a
device, DIR/stock/bootN/*.ktap and DIR/patched/bootN/*.ktap (each a run's stdout: the
selftest's README, "On an Android device"), as a Markdown table on stdout: per boot N, stock's
N-th boot against patched's with the bench's statistics (benchlib), then every ok boot pooled,
the secondary analysis (bench/method.md). A boot with a failed run is named and left out; bad
input is one error line and exit 1. Python 3 stdlib only.
"""

import glob
import os
import re
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [os.path.join(TOP, "bench"), os.path.join(TOP, "scripts")]
import ktap  # noqa: E402  scripts/ktap.py, the host's one reader of results
from benchlib import common  # noqa: E402
from benchlib.combine import cell, finding, headline, row_key  # noqa: E402
from benchlib.figures import (  # noqa: E402
    FIGURES, PRIO_CLASSES, PRIO_FIELDS, cfg_order, prio_figures, summarize)
from benchlib.plan import PRIO_THREADS, PROFILES, configs  # noqa: E402
from benchlib.stats import ALPHA, verdicts  # noqa: E402
from benchlib.tables import figure_cells  # noqa: E402

common.PROG = "device-table.py"  # common.die's name for this program
die = common.die
KERNELS = ("stock", "patched")
BOOTS_WANTED = 3  # the README's protocol: three boots of each kernel at least
# Every class's every field, and the reclaimer's scans: item 10's figures and more.
FIGS = {10: prio_figures({c: [k for k, *_ in PRIO_FIELDS] for _, c, _ in PRIO_CLASSES})
        + [f for f in FIGURES[10] if f[0] == "scans"]}
HEADER = re.compile(r"^# binder_prio_reclaim: (.*), -?[0-9]+ CPUs$")


def read_run(path):
    """A run's output: (configuration, {class: its result line's fields}), or a str that says
    why the run failed; a ValueError where the file is not the test's output at all."""
    lines = ktap.read(path)
    refused = [x for x in lines if x.startswith("binder_prio_reclaim: error: ")]
    if refused:
        return f"the test refused its command line: {refused[0]}"
    if not any(x.strip() for x in lines):
        return "empty: the test printed nothing"
    plan = [int(x[3:]) for x in lines if re.fullmatch(r"1\.\.[0-9]+", x)]
    if not plan:
        raise ValueError("no KTAP plan line (1..N): not binder_prio_reclaim's output")
    tests = [(ok, n, desc) for ok, n, desc in ktap.results(lines)]
    for ok, n, desc in tests:
        if ktap.result_status(ok, desc) != "ok":
            return f"{'ok' if ok else 'not ok'} {n} {desc}"
    if len(tests) < plan[0] or not any(x.startswith("# Totals:") for x in lines):
        return (f"truncated: {len(tests)} of {plan[0]} results, "
                f"{'then' if len(tests) < plan[0] else 'and'} no '# Totals:' line")
    header = [m.group(1) for m in map(HEADER.match, lines) if m]
    if not header:
        return "no '# binder_prio_reclaim: ...' header line"
    recs = {}
    for x in lines:
        if x.startswith("# result class="):
            kv = dict(w.partition("=")[::2] for w in x.split()[2:])
            if not all(v.isdigit() for k, v in kv.items() if k not in ("class", "mode")):
                return f"malformed: {x}"
            recs[kv["class"]] = {k: int(v) if v.isdigit() else v for k, v in kv.items()}
    for _, _, desc in tests:
        if desc not in recs:
            return f"no '# result class={desc} ...' line"
    classes = ",".join(f"{c}:{r.get('threads')}" for c, r in recs.items() if c != "reclaimer")
    return f"{header[0]}; classes {classes}", recs


def bench_configs():
    """The bench's configurations of item 10 (benchlib/plan.py), in its order: (name, -l, -r,
    -c), -c the selftest's default where the bench gives none: every class, PRIO_THREADS each."""
    every = ",".join(f"{c}:{PRIO_THREADS}" for c, _, _ in PRIO_CLASSES)
    out = []
    for _, name, _, kind, args, *_ in configs(PROFILES["default"], (10,), []):
        if kind == "prio":
            a = dict(zip(args.split()[::2], args.split()[1::2]))
            out.append((name, a["-l"], a["-r"], a.get("-c", every)))
    return out


def config_name(cfg):
    """The bench's name of a configuration (its loopers, reclaim and classes), or custom."""
    m = re.search(r"^([0-9]+) loopers, .* (no reclaim|reclaim by (\S+) every ([0-9]+) ms), "
                  r"calls to a node; classes (.*)$", cfg)
    if m:
        loopers, _, mode, period, classes = m.groups()
        mine = (loopers, f"{mode}:{period}" if mode else "none", classes)
        for name, *theirs in bench_configs():
            if tuple(theirs) == mine:
                return name
    return "custom"


def read_dir(d):
    """{kernel: {boot: [(file, (cfg, recs) or why it failed)]}} of DIR; an error for a layout
    that is not DIR/stock/bootN/*.ktap and DIR/patched/bootN/*.ktap."""
    want = f"want {d}/stock/ and {d}/patched/, each with boot1/, boot2/, ... of *.ktap files"
    if not os.path.isdir(d):
        die(f"{d}: no such directory ({want})")
    for e in sorted(os.listdir(d)):
        if e not in KERNELS and not e.startswith(".") and os.path.isdir(os.path.join(d, e)):
            die(f"{d}/{e}: not a kernel ({want})")
    out = {}
    for k in KERNELS:
        kd = os.path.join(d, k)
        if not os.path.isdir(kd):
            die(f"{kd}: no such directory ({want})")
        out[k] = {}
        for e in sorted(os.listdir(kd)):
            m = re.fullmatch(r"boot([1-9][0-9]*)", e)
            if e.startswith("."):
                continue
            if not m or not os.path.isdir(os.path.join(kd, e)):
                die(f"{kd}/{e}: not a boot ({want})")
            files = sorted(glob.glob(os.path.join(kd, e, "*.ktap")))
            if not files:
                die(f"{kd}/{e}: no run (*.ktap) in it")
            runs = []
            for f in files:
                try:
                    runs.append((os.path.basename(f), read_run(f)))
                except ValueError as err:
                    die(f"{f}: {err}")
            out[k][int(m.group(1))] = runs
        if not out[k]:
            die(f"{kd}: no boot (boot1/, ...) in it")
    return out


def main():
    d = sys.argv[1] if len(sys.argv) == 2 else die("usage: device-table.py DIR")
    if not d:
        die("no directory given (make device-table DIR=DIR)")
    data = read_dir(d.rstrip("/") or "/")
    failed = {(k, b): f"{f}: {r}" for k in KERNELS for b, runs in data[k].items()
              for f, r in runs if isinstance(r, str)}
    names, plan = {}, {k: {} for k in KERNELS}  # plan[kernel][boot]: its runs, as plan.json's
    runs = {}
    for k in KERNELS:
        for b, rs in sorted(data[k].items()):
            if (k, b) in failed:
                continue
            for i, (f, (cfg, recs)) in enumerate(rs):
                if cfg not in names:
                    n = config_name(cfg)
                    same = sum(x.split("#")[0] == n for x in names.values())
                    names[cfg] = f"{n}#{same + 1}" if same else n
                rid = f"{k}/boot{b}/{f}"
                plan[k].setdefault(b, []).append(dict(id=rid, item=10, config=names[cfg],
                                                      label=names[cfg], rep=(b, i), module=k,
                                                      kind="prio"))
                runs[rid] = {"end": "ok", "rec": recs}
    for k in KERNELS:
        if not plan[k]:
            first = next(v for (kk, _), v in sorted(failed.items()) if kk == k)
            die(f"{d}/{k}: every boot failed, nothing to compare (boot {min(data[k])}: {first})")

    order = [c[0] for c in bench_configs()]
    names = dict(sorted(names.items(), key=lambda kv: cfg_order({"configs": order}, kv[1])))

    def tested(rs):
        p = {"items": [10], "configs": order, "runs": rs}
        rows = summarize(p, runs, "stock", "patched", figures=FIGS)
        return verdicts([r for r in rows if r["a"] or r["b"]])

    boots = sorted(set(data["stock"]) | set(data["patched"]))
    per_boot = {b: tested(plan["stock"].get(b, []) + plan["patched"].get(b, []))
                for b in boots if b in plan["stock"] and b in plan["patched"]}
    pooled = tested([r for k in KERNELS for rs in plan[k].values() for r in rs])
    groups = {}
    for b, rows in per_boot.items():
        for r in rows:
            r["boot"] = b
            groups.setdefault(row_key(r), []).append(r)
    for rs in groups.values():
        f = finding(rs)
        for r in rs:
            r["finding"] = f
    print("\n".join(report(d, data, failed, names, boots, per_boot, pooled, groups)))


def runs_text(data, failed, boots):
    """How many runs each kernel's ok boots of boots have ("Stock 6 runs, patched 6 runs"), and
    which boots those are, where boots are more than one."""
    out = []
    for k in KERNELS:
        ok = [b for b in boots if b in data[k] and (k, b) not in failed]
        out.append(f"{k} {sum(len(data[k][b]) for b in ok)} runs"
                   + (f" (boots {' '.join(map(str, ok))})" if len(boots) > 1 else ""))
    text = ", ".join(out)
    return text[0].upper() + text[1:]


def report(d, data, failed, names, boots, per_boot, pooled, groups):
    """The Markdown: the boots and the failed ones, the headline endpoints, each boot's table,
    the pooled table, the configurations."""
    md = ["# binder_prio_reclaim on a device: patched against stock", "",
          f"From {d}: " + "; ".join(f"{k} boots {' '.join(str(b) for b in sorted(data[k]))}, "
                                    f"{sum(len(r) for r in data[k].values())} runs"
                                    for k in KERNELS) + ".", ""]
    for (k, b), why in sorted(failed.items()):
        md.append(f"- {k} boot {b} failed, left out of the statistics: {why}")
    for k in KERNELS:
        ok = [b for b in data[k] if (k, b) not in failed]
        if len(ok) < BOOTS_WANTED:
            md.append(f"- {k}: {len(ok)} ok boot{'s' if len(ok) != 1 else ''}, fewer than the "
                      f"{BOOTS_WANTED} the protocol asks for")
    md += ["", "Boot N is stock's N-th boot against patched's N-th (they ran in a random order, "
           "not together): each kernel's min–max (median) over the boot's runs, the "
           "Hodges–Lehmann estimate of patched/stock with its 95% interval, the U test and the "
           "verdict after the Benjamini–Hochberg correction over that boot's figures "
           f"(bench/method.md, \"Statistics\"); '*' differs (q < {ALPHA}), '+' p < {ALPHA} "
           "before the correction only. A figure is a finding only when it differs in every "
           "boot, the same direction. Pooled: every ok boot's runs together, one family of its "
           "own, the secondary analysis (bench/method.md, \"Pooled over the boots\").", "",
           "## Headline endpoints", "", "bench/headline.txt's item 10 lines, patched against "
           "stock:", "",
           "| configuration | figure | " + " | ".join(f"boot {b}" for b in boots)
           + " | finding | pooled (secondary) |", "|---|---|" + "---|" * (len(boots) + 2)]
    by_pool = {row_key(r): r for r in pooled}
    heads = headline(os.path.join(TOP, "bench", "headline.txt"))
    for _, c, f in [h for h in heads if h[0] == 10]:
        key = (10, c, f, "stock", "patched")
        rs = {r["boot"]: r for r in groups.get(key, [])}
        if not rs and key not in by_pool:
            md.append(f"| {c} | {f} |" + " not in this run |" * (len(boots) + 2))
            continue
        r = next(iter(rs.values()), by_pool.get(key))
        md.append(f"| {c} | {r['name']} ({r['unit']}) | "
                  + " | ".join(cell(rs[b]) if b in rs else "-" if b in per_boot else
                               "failed" if any((k, b) in failed for k in KERNELS) else "missing"
                               for b in boots)
                  + f" | {r.get('finding', 'no boot')} | "
                  + (cell(by_pool[key]) if key in by_pool else "-") + " |")
    found = [rs[0] for rs in groups.values() if rs[0]["finding"].startswith("finding")]
    md += ["", f"Findings, figures that differ in every boot compared, the same direction: "
           f"{len(found)} of {len(groups)}"
           + "".join(f"\n- {r['config']}, {r['name']}: {r['finding']}" for r in found)]
    table = ["| configuration | figure | stock | patched | patched/stock | verdict |",
             "|---|---|---|---|---|---|"]
    for b in boots:
        md += ["", f"## Boot {b}", ""]
        if b not in per_boot:
            md.append("No comparison: " + "; ".join(
                f"{k} boot {b} " + (f"failed ({failed[(k, b)]})" if (k, b) in failed
                                    else "ok" if b in data[k] else "missing")
                for k in KERNELS) + ".")
            continue
        md += [runs_text(data, failed, [b]) + ".", ""] + table
        md += [f"| {r['config']} | {figure_cells(r)} |" for r in per_boot[b]]
    md += ["", "## Pooled over the boots: the secondary analysis", "",
           runs_text(data, failed, boots) + ": every ok boot's runs together, one "
           "Benjamini–Hochberg family of its own, the secondary analysis; the boots above are "
           "the primary one.", ""]
    md += table + [f"| {r['config']} | {figure_cells(r)} |" for r in pooled]
    md += ["", "## Configurations", "", "The runs whose header line is the same, but for the "
           "CPUs online, are one configuration; its name is the bench's where it has one "
           "(bench/benchlib/plan.py, item 10).", "", "| configuration | header and classes |",
           "|---|---|"] + [f"| {n} | {c} |" for c, n in names.items()]
    return md


if __name__ == "__main__":
    main()
