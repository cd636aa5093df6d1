# SPDX-License-Identifier: GPL-2.0
"""bench.py designs: the decision table of Documentation/design.md over the boots' reports
(design_cell, cmd_designs).
"""

import csv
import os

from benchlib.common import DESIGN_FIGURES, VARIANTS, die
from benchlib.stats import ALPHA, compare, verdicts


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
