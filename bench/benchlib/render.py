# SPDX-License-Identifier: GPL-2.0
"""bench.py render: figures in prose. A template's "@fig ITEM.CONFIG.FIGURE[.OTHER/BASE].FIELD@"
is replaced by that figure's FIELD from a summary.csv (bench/method.md, "Figures in prose"):

  bN.ratio  boot N's estimate with its 95% interval, as the cover table has it: 0.25 [0.14-0.43]
  bN.est, bN.low, bN.high   the estimate, the interval's ends (3 significant digits)
  bN.base, bN.other         the medians of BASE and OTHER (default stock and split)
  bN.p, bN.q, bN.verdict    the rank test's p, its corrected q, the boot's verdict
  bN.mark                   the verdict as the cover table marks it: " *" differs after the
                            correction, " +" before it only, "" neither
  finding                   the figure's finding over the boots
  pooled.ratio|est|low|high|base|other|p|q|verdict|mark   the same of the boots pooled (the
                            secondary analysis: pooled.csv beside the summary.csv)

A summary.csv of one boot (no boot column) is boot 1 and has no finding. SUMMARY may also be a
record (make bench's out/bench, series/bench): then "@fig KERNEL:ITEM...@" takes the figure from
RECORD/KERNEL/summary.csv (perf, proxy, noproxy), and a placeholder without KERNEL: from perf's.
"""

import csv
import os
import re

from benchlib.common import die
from benchlib.cover import cfmt, cover_interval, verdict_mark


PLACEHOLDER = re.compile(r"@fig ([^@\n]*)@")
KERNEL = re.compile(r"([a-z][a-z0-9_-]*):(.*)$")
SPEC = re.compile(r"([0-9]+)\.([A-Za-z0-9_-]+)\.([a-z0-9_]+)(?:\.([a-z0-9]+)/([a-z0-9]+))?"
                  r"\.(?:(?:b([0-9]+)|(pooled))\.(ratio|est|low|high|base|other|p|q|verdict|mark)|(finding))$")


def num(v):
    return None if v == "" else float(v)


def field(rows, spec, where):
    m = SPEC.match(spec)
    if not m:
        die(f"render: {where}: '@fig {spec}@' is not ITEM.CONFIG.FIGURE[.OTHER/BASE].FIELD "
            "(FIELD: bN.ratio|est|low|high|base|other|p|q|verdict|mark, pooled.the same, "
            "or finding)")
    item, cfg, fig, other, base, boot, pooled, what, fnd = m.groups()
    boot = boot or pooled
    other, base = other or "split", base or "stock"
    key = (item, cfg, fig, base, other)
    boots = rows.get(key)
    if not boots:
        die(f"render: {where}: '@fig {spec}@' names no figure of the summary "
            f"(no row {item},{cfg},{fig},{base},{other})")
    if fnd:
        r = next(iter(boots.values()))
        if "finding" not in r:
            die(f"render: {where}: '@fig {spec}@': the summary has no finding (one boot)")
        return r["finding"]
    r = boots.get(boot)
    if r is None and pooled:
        die(f"render: {where}: '@fig {spec}@': no pooled.csv beside the summary, or no such "
            "row in it")
    if r is None:
        die(f"render: {where}: '@fig {spec}@': no boot {boot} in the summary "
            f"(have: {' '.join(sorted(boots))})")
    if what == "verdict":
        return r["verdict"]
    if what == "mark":
        return verdict_mark(r["verdict"])
    if what in ("base", "other"):
        v = num(r[f"{what}_median"])
        return "-" if v is None else cfmt(v, r["unit"])
    if what in ("p", "q"):
        v = num(r["mwu_p" if what == "p" else "bh_q"])
        return "-" if v is None else f"{v:.2g}"
    est = num(r["estimate"])
    if est is None:
        die(f"render: {where}: '@fig {spec}@': the figure has no estimate ({r['verdict']})")
    row = dict(est_kind=r["estimate_kind"], est=est, ci_lo=num(r["ci95_low"]),
               ci_hi=num(r["ci95_high"]))
    if what == "ratio":
        return cover_interval(row)
    v = row[{"est": "est", "low": "ci_lo", "high": "ci_hi"}[what]]
    return "-" if v is None else f"{v:.3g}"


def load(summary):
    """summary.csv's rows by figure and boot, with pooled.csv's beside it as boot "pooled"."""
    rows = {}
    with open(summary, newline="") as f:
        for r in csv.DictReader(f):
            key = (r["item"], r["config"], r["figure"], r["base"], r["other"])
            rows.setdefault(key, {})[r.get("boot", "1")] = r
    pooled = os.path.join(os.path.dirname(summary), "pooled.csv")
    if os.path.isfile(pooled):
        with open(pooled, newline="") as f:
            for r in csv.DictReader(f):
                key = (r["item"], r["config"], r["figure"], r["base"], r["other"])
                if key in rows:
                    rows[key]["pooled"] = r
    return rows


def render(text, summary, name="template"):
    """text with each placeholder replaced from the rows of summary (a summary.csv, or a record
    whose KERNEL/summary.csv the placeholders' KERNEL: prefixes name, perf's by default)."""
    record = os.path.isdir(summary)
    if not record and not os.path.isfile(summary):
        die(f"render: {summary}: no such file or record")
    kernels = {}

    def rows_of(kernel, where, spec):
        if not record and kernel is not None:
            die(f"render: {where}: '@fig {spec}@' names a kernel, and {summary} is one "
                "summary.csv, not a record")
        kernel = kernel or "perf"
        if kernel not in kernels:
            path = os.path.join(summary, kernel, "summary.csv") if record else summary
            if not os.path.isfile(path):
                die(f"render: {where}: '@fig {spec}@': the record has no {kernel} boot "
                    f"({path}: no such file)")
            kernels[kernel] = load(path)
        return kernels[kernel]

    def sub(m, where):
        spec = m.group(1).strip()
        k = KERNEL.match(spec)
        kernel, fig = (k.group(1), k.group(2)) if k else (None, spec)
        return field(rows_of(kernel, where, spec), fig, where)

    out = []
    for n, line in enumerate(text.split("\n"), 1):
        out.append(PLACEHOLDER.sub(lambda m: sub(m, f"{name}:{n}"), line))
    return "\n".join(out)


def cmd_render(a):
    if not os.path.isfile(a.template):
        die(f"render: {a.template}: no such file")
    with open(a.template) as f:
        print(render(f.read(), a.summary, a.template), end="")
