#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""bench.py: the host side of make bench (bench/bench.sh). Python 3 stdlib only.

  bench.py plan --profile quick|default|full --items "0 1 2 3 4 5 6 7 8 9 10"
               --modes "sync oneway pipeline"
               [--runs N] [--seed N] --plan FILE --json FILE
      writes the guest's plan (bench/bench-run: "ID MODULE KIND CDF ARGS" per line: a warm-up
      run per module, then every run in an order shuffled with the seed, default 1) and
      plan.json (every run, its estimated guest seconds est_s and time limit limit_s, the
      counts used, order_seed, est_s: the boot's estimate); prints that estimate.
  bench.py estimate --plan NAME=plan.json... [--replicas N] [--build FLAVOUR]... [--fetch]
               [--aosp]
      one line: the estimate of a whole make bench of those boots, N times each, with the
      builds of what is missing (bench.sh prints it first; bench.sh estimate alone).
  bench.py calibrate RECORD... [--tolerance SHARE]
      each boot of the records (series/bench, ...): its guest seconds in setup.txt against the
      estimate of its plan.json; per item, run_s recorded against the estimate; exit 1 when a
      boot's estimate is off by more than SHARE (0.35).
  bench.py report --plan plan.json --log console.log --setup setup.txt --out DIR
      reads the guest's tagged lines and writes DIR/report.md, runs.csv, summary.csv,
      cover-table.txt and, with gnuplot, the plots (SVG and PNG).
  bench.py combine DIR --headline FILE
      the boots DIR/boot1, DIR/boot2, ... (each a report) together: DIR/runs.csv (every run of
      every boot, its figures in fig_KEY), DIR/summary.csv computed from it (each boot's rows
      and each figure's finding over the boots), DIR/report.md led by the headline endpoints
      of FILE, DIR/cover-table.txt.
  bench.py recompute DIR
      computes DIR/summary.csv again from DIR/runs.csv (and the boots' plan.json items); exit 1
      at the first line that differs.
  bench.py headline FILE
      checks bench/headline.txt (ITEM CONFIG FIGURE a line, each a figure make bench computes)
      and prints its endpoints.
  bench.py render TEMPLATE SUMMARY.csv|RECORD
      TEMPLATE with each "@fig [KERNEL:]ITEM.CONFIG.FIGURE[.OTHER/BASE].FIELD@" replaced by
      that figure's FIELD from SUMMARY.csv, or from RECORD/KERNEL/summary.csv (KERNEL: perf if
      left out) (bench/method.md, "Figures in prose"); exit 1 for one that names no figure.
  bench.py mwu "X1 X2 ..." "Y1 Y2 ..." [--asymptotic]
      prints "U=<U of X> p=<two-sided p> method=exact|normal" (the host tests use it).
  bench.py compare "BASE1 BASE2 ..." "OTHER1 ..."
      one figure as the report sees it, on its own: "ratio|shift=<Hodges-Lehmann estimate>
      ci95=<low>,<high>|none p=<p> verdict=<verdict>".
  bench.py bh "P1 P2 ..."
      the Benjamini-Hochberg adjusted p-values, in the same order.
"""

import argparse
import sys

from benchlib.common import ITEMS, PROG, VARIANTS, die
from benchlib.stats import benjamini_hochberg, compare, mann_whitney, verdicts
from benchlib.plan import PROFILES, cmd_calibrate, cmd_estimate, cmd_plan
from benchlib.report import cmd_report
from benchlib.designs import cmd_designs
from benchlib.combine import cmd_combine, cmd_headline, cmd_recompute
from benchlib.render import cmd_render


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
    p.add_argument("--seed", type=int, default=1,
                   help="the seed of the run order (make bench: a new one per boot)")
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
    x = sub.add_parser("combine")
    x.add_argument("dir")
    x.add_argument("--headline", required=True)
    x = sub.add_parser("recompute")
    x.add_argument("dir")
    x = sub.add_parser("headline")
    x.add_argument("file")
    x = sub.add_parser("render")
    x.add_argument("template")
    x.add_argument("summary")
    x = sub.add_parser("calibrate")
    x.add_argument("records", nargs="+")
    x.add_argument("--tolerance", type=float, default=0.35)
    x = sub.add_parser("estimate")
    x.add_argument("--plan", action="append", required=True, help="NAME=plan.json of a boot")
    x.add_argument("--replicas", type=int, default=1)
    x.add_argument("--build", action="append", default=[], help="a kernel flavour to build")
    x.add_argument("--fetch", action="store_true", help="the source and trees to fetch")
    x.add_argument("--aosp", action="store_true", help="AOSP's binaries to build")
    v = sub.add_parser("variant")
    v.add_argument("name")
    a = ap.parse_args()
    {"plan": cmd_plan, "report": lambda a: sys.exit(cmd_report(a)), "mwu": cmd_mwu,
     "compare": cmd_compare, "bh": cmd_bh, "designs": cmd_designs,
     "variant": cmd_variant, "calibrate": cmd_calibrate, "estimate": cmd_estimate,
     "combine": cmd_combine, "recompute": cmd_recompute,
     "headline": cmd_headline, "render": cmd_render}[a.cmd](a)


if __name__ == "__main__":
    main()
