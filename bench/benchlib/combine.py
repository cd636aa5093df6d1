# SPDX-License-Identifier: GPL-2.0
"""bench.py combine, recompute and headline: the boots of one kernel together. combine puts the
runs.csv of each boot (DIR/bootN/, a report of its own) in DIR/runs.csv, and computes
DIR/summary.csv from it alone (recompute_rows): each boot's rows, with that boot's test and
correction, as its own report has them, and each figure's finding over the boots (finding());
with two boots or more, DIR/pooled.csv, every boot's runs together (pooled_rows(): the secondary
analysis); then DIR/report.md, led by the headline endpoints (bench/headline.txt), and
DIR/cover-table.txt. recompute computes summary.csv and pooled.csv again from runs.csv and says
whether they are the same.
"""

import csv
import glob
import io
import json
import os
import re

from benchlib.common import ITEMS, die
from benchlib.cover import cover_table
from benchlib.figures import FIGURES, TAILS, alternatives, pool, summarize, tail_of
from benchlib.plan import PROFILES, configs
from benchlib.report import SUMMARY_HEADER, summary_line
from benchlib.stats import ALPHA, verdicts
from benchlib.tables import figure_cells, ratio_text


POOLED = "pooled.csv"  # the secondary analysis: every boot's runs together


def boot_dirs(d):
    """DIR/boot1, DIR/boot2, ... in order; an error without any."""
    dirs = sorted(glob.glob(os.path.join(d, "boot[0-9]*")),
                  key=lambda p: int(re.sub(r"\D", "", os.path.basename(p)) or 0))
    if not dirs:
        die(f"{d}: no boot1/ (a boot's report) in it")
    return dirs


def number(s):
    """A runs.csv value as the report had it: an int, a float, or None where empty."""
    if s == "":
        return None
    return int(s) if re.fullmatch(r"-?[0-9]+", s) else float(s)


def read_csv(path):
    if not os.path.isfile(path):
        die(f"{path}: no such file")
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def boot_plans(runs_rows, items):
    """Each boot's plan and runs from runs.csv's rows (items: boot -> the plan's items): the
    figures of its runs (fig_KEY, on each run's first row). Returns [(boot, plan, runs)] in
    the boots' order."""
    by_boot = {}
    for x in runs_rows:
        b = x["boot"]
        plan, runs = by_boot.setdefault(b, ({"items": items[b], "runs": []}, {}))
        if x["id"] in runs:  # another class of the same run
            continue
        item = None if x["item"] == "" else int(x["item"])
        plan["runs"].append(dict(id=x["id"], item=item, config=x["config"], label=x["label"],
                                 rep=int(x["rep"]), module=x["module"], kind=x["kind"]))
        runs[x["id"]] = {"end": x["result"],
                         "fig": {k[4:]: number(v) for k, v in x.items()
                                 if k.startswith("fig_") and v != ""}}
    return [(int(b), p, r) for b, (p, r) in sorted(by_boot.items(), key=lambda kv: int(kv[0]))]


def fig_value(d, key, get):
    """A run's value of a figure as runs.csv has it (summarize()'s value)."""
    return d["fig"].get(key)


def tested_rows(plan, runs):
    """The rows of one boot, or of the boots pooled, with their family's correction."""
    return verdicts(summarize(plan, runs, value=fig_value)
                    + alternatives(plan, runs, value=fig_value))


def row_order(r):
    """summary.csv's order of the rows, within a boot."""
    order = {k: i for item, figs in FIGURES.items() for i, (k, *_) in enumerate(figs)}
    return (r["item"], r["config"], order[r["figure"]] if r["item"] != 6 else 0,
            r["figure"], (r["base"], r["other"]) != ("stock", "split"), r["base"], r["other"])


def recompute_rows(runs_rows, items):
    """summary.csv's rows from runs.csv's: per boot, its figures through summarize() and
    verdicts() as in the boot's report; then each figure's finding over the boots."""
    rows = []
    for b, plan, runs in boot_plans(runs_rows, items):
        for r in tested_rows(plan, runs):
            r["boot"] = b
            rows.append(r)
    groups = {}
    for r in rows:
        groups.setdefault(row_key(r), []).append(r)
    for rs in groups.values():
        f = finding(rs)
        for r in rs:
            r["finding"] = f
    return sorted(rows, key=lambda r: (row_order(r), r["boot"]))


def pooled_rows(runs_rows, items):
    """pooled.csv's rows: the runs of every boot together, one family (the secondary analysis,
    bench/method.md); none with fewer than two boots."""
    boots = boot_plans(runs_rows, items)
    if len(boots) < 2:
        return []
    return sorted(tested_rows(*pool(boots)), key=row_order)


def row_key(r):
    return (r["item"], r["config"], r["figure"], r["base"], r["other"])


def direction(r):
    """+1 where other is above base (the estimate's ratio above 1, or its shift above 0), -1
    below, 0 neither."""
    neutral = 1 if r.get("est_kind") == "ratio" else 0
    est = r.get("est")
    return 0 if est is None or est == neutral else (1 if est > neutral else -1)


def finding(rs):
    """A figure's verdict over the boots (rs: its row of each boot): a finding only when it
    differs after the correction in every boot, two at least, in the same direction."""
    item = rs[0]["item"]
    t = tail_of(item, rs[0]["figure"])
    if t:
        return f"in the tail: see {t}"
    if len(rs) < 2:
        return "one boot: not replicated"
    diff = [r for r in rs if r.get("verdict") == "differs"]
    if not diff:
        return "no finding"
    if len(diff) < len(rs):
        return ("no finding: differs in boot " + ", ".join(str(r["boot"]) for r in diff)
                + " only")
    dirs = {direction(r) for r in diff}
    if len(dirs) > 1 or 0 in dirs:
        return "no finding: differs in opposite directions"
    return f"finding: {'higher' if dirs == {1} else 'lower'} in every boot"


def summary_text(rows):
    """summary.csv of a combined record: the boot, summary_line() and the finding."""
    f = io.StringIO()
    w = csv.writer(f, lineterminator="\n")
    w.writerow(["boot"] + SUMMARY_HEADER + ["finding"])
    for r in rows:
        w.writerow([r["boot"]] + summary_line(r) + [r["finding"]])
    return f.getvalue()


def pooled_text(rows, nboots):
    """pooled.csv: the boots pooled ("1+2"), then summary_line() of each row."""
    f = io.StringIO()
    w = csv.writer(f, lineterminator="\n")
    w.writerow(["boots"] + SUMMARY_HEADER)
    for r in rows:
        w.writerow(["+".join(str(i) for i in range(1, nboots + 1))] + summary_line(r))
    return f.getvalue()


def pooled_md(rows, heads):
    """report.md's section of the pooled analysis: what it is, then the headline endpoints."""
    by = {row_key(r): r for r in rows}
    md = ["", "## Pooled over the boots: the secondary analysis", "",
          "Every boot's runs together, one family with its own Benjamini–Hochberg correction "
          "(pooled.csv has every figure): the secondary analysis, named before the run in "
          "bench/method.md (\"Pooled over the boots\"); the findings above are the primary one. "
          f"{sum(r.get('verdict') == 'differs' for r in rows)} of {len(rows)} figures differ "
          "after this correction. The headline endpoints:", "",
          "| item | configuration | figure | stock | split | split/stock | verdict |",
          "|---|---|---|---|---|---|---|"]
    for i, c, f in heads:
        r = by.get((i, c, TAILS[i][0] if tail_of(i, f) else f, "stock", "split"))
        md.append(f"| {i} | {r['label']} | {figure_cells(r)} |" if r else
                  f"| {i} | {c} | {f} | not in this run | | | |")
    return md


def plan_items(d):
    """boot number (as runs.csv has it) -> the items of that boot's plan.json."""
    items = {}
    for i, bd in enumerate(boot_dirs(d), 1):
        with open(os.path.join(bd, "plan.json")) as f:
            items[str(i)] = json.load(f)["items"]
    return items


# ---- headline ----

def headline(path):
    """The endpoints of bench/headline.txt: "ITEM CONFIG FIGURE" a line (split against stock;
    '#' starts a comment), each a figure that make bench computes; an error for a line that
    names none. Returns [(item, config, figure)]."""
    if not os.path.isfile(path):
        die(f"headline: {path}: no such file")
    known = {}
    for item, name, *_ in configs(PROFILES["default"], ITEMS, ["sync", "oneway", "pipeline"]):
        known.setdefault(item, []).append(name)
    out = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            words = line.split("#", 1)[0].split()
            if not words:
                continue
            where = f"{path}:{n}: '{' '.join(words)}'"
            if len(words) != 3 or not words[0].isdigit():
                die(f"headline: {where}: expected ITEM CONFIG FIGURE")
            item, cfg, fig = int(words[0]), words[1], words[2]
            if item not in known or item == 6:
                die(f"headline: {where} names no figure: no item {item} of split against stock")
            if cfg not in known[item]:
                die(f"headline: {where} names no figure: item {item} has no configuration "
                    f"'{cfg}' (have: {' '.join(known[item])})")
            if fig not in [k for k, *_ in FIGURES[item]]:
                die(f"headline: {where} names no figure: item {item} has no figure '{fig}' "
                    f"(have: {' '.join(k for k, *_ in FIGURES[item])})")
            out.append((item, cfg, fig))
    if not out:
        die(f"headline: {path} names no endpoint")
    return out


def cmd_headline(a):
    for item, cfg, fig in headline(a.file):
        print(f"{item} {cfg} {fig}")


# ---- combine ----

def cell(r):
    """One boot's estimate of a row, its interval and its verdict, in a table cell."""
    v = r.get("verdict", "no data")
    mark = " *" if v == "differs" else " +" if v.startswith(f"p < {ALPHA}") else ""
    return f"{ratio_text(r)}{mark}" if r.get("est") is not None else v


def med(r, side):
    from statistics import median
    v = r["a" if side == "base" else "b"]
    return f"{median(v):.3g}" if v else "-"


def tail_cols(groups, r):
    """A tail row's columns: the medians (stock -> split) of its column figures, per boot."""
    t = TAILS.get(r["item"])
    if not t or r["figure"] != t[0]:
        return ""
    out = []
    for k in t[1]:
        rs = groups.get((r["item"], r["config"], k, r["base"], r["other"]), [])
        out.append(f"{k} " + "; ".join(f"{med(x, 'base')} → {med(x, 'other')}" for x in rs))
    return " (" + ", ".join(out) + ")"


def table(keys, groups, nboots):
    md = ["| item | configuration | figure | " + " | ".join(f"boot {i}" for i in
                                                           range(1, nboots + 1))
          + " | finding |", "|---|---|---|" + "---|" * (nboots + 1)]
    for k in keys:
        rs = groups.get(k)
        if not rs:
            md.append(f"| {k[0]} | {k[1]} | {k[2]} |" + " not in this run |" * (nboots + 1))
            continue
        r = rs[0]
        who = "" if (r["base"], r["other"]) == ("stock", "split") else f", {r['other']}/{r['base']}"
        md.append(f"| {r['item']} | {r['label']} | {r['name']} ({r['unit']}){who}"
                  f"{tail_cols(groups, r)} | "
                  + " | ".join(cell(x) for x in rs) + f" | {r['finding']} |")
    return md


def cmd_combine(a):
    """DIR/runs.csv from each DIR/bootN/runs.csv, then summary.csv, report.md and
    cover-table.txt of the boots together."""
    d = a.dir
    dirs = boot_dirs(d)
    heads = headline(a.headline)
    header, rows = None, []
    for i, bd in enumerate(dirs, 1):
        with open(os.path.join(bd, "runs.csv"), newline="") as f:
            rd = csv.reader(f)
            h = next(rd)
            if header is not None and h != header:
                die(f"combine: {bd}/runs.csv: its columns are not those of boot 1")
            header = h
            rows += [[str(i)] + x[1:] for x in rd]
    with open(os.path.join(d, "runs.csv"), "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(header)
        w.writerows(rows)
    runs_rows, items = read_csv(os.path.join(d, "runs.csv")), plan_items(d)
    srows = recompute_rows(runs_rows, items)
    with open(os.path.join(d, "summary.csv"), "w") as f:
        f.write(summary_text(srows))
    prows = pooled_rows(runs_rows, items)
    if prows:
        with open(os.path.join(d, POOLED), "w") as f:
            f.write(pooled_text(prows, len(dirs)))
    elif os.path.exists(os.path.join(d, POOLED)):
        os.remove(os.path.join(d, POOLED))
    with open(os.path.join(dirs[0], "plan.json")) as f:
        plan = json.load(f)
    setup = {}
    with open(os.path.join(dirs[0], "setup.txt")) as f:
        for line in f:
            k, _, v = line.rstrip("\n").partition("=")
            setup[k] = v
    skips = {}
    for x in read_csv(os.path.join(d, "runs.csv")):
        if x["item"] == "0" and x["walker_skip_mutex"] != "" and x["result"].startswith("ok"):
            skips.setdefault((int(x["boot"]), x["config"], x["module"]), []).append(
                number(x["walker_skip_mutex"]))
    ct = cover_table(srows, plan, setup, boots=len(dirs), skips=skips)
    with open(os.path.join(d, "cover-table.txt"), "w") as f:
        f.write(ct)
    groups = {}
    for r in srows:
        groups.setdefault(row_key(r), []).append(r)
    n = len(dirs)
    main = [rs for rs in groups.values() if not rs[0]["finding"].startswith("in the tail")]
    found = [rs for rs in main if rs[0]["finding"].startswith("finding")]
    one = [rs for rs in main if "only" in rs[0]["finding"]]
    opp = [rs for rs in main if "opposite" in rs[0]["finding"]]
    lead = [rs for rs in main if rs[0].get("verdict") == "differs"] if n == 1 else []
    md = [f"# make bench: the {setup.get('boot', '?')} boot, "
          + (f"{n} boots of the same plan" if n > 1 else "one boot (not replicated)"), "",
          "Each boot is a report of its own (" + ", ".join(
              f"[boot{i}/report.md](boot{i}/report.md)" for i in range(1, n + 1))
          + "), its runs in an order shuffled with its own seed ("
          + ", ".join(f"boot {i}: {x}" for i, x in enumerate(seeds(dirs), 1)) + "). "
          f"Per boot: the Hodges–Lehmann estimate with its 95% interval, '*' where the figure "
          f"differs after that boot's Benjamini–Hochberg correction (q < {ALPHA}), '+' where "
          "only its p is below it. A figure is a finding only when it differs in every boot in "
          "the same direction. P99.9, max and the calls over a bound of one configuration are "
          "one tail: one row, P99.9's verdict, the others as its columns (medians, stock → "
          "split).", "", "## Headline endpoints", "",
          f"Named before the run in bench/headline.txt (split against stock):", ""]
    md += table([(i, c, TAILS[i][0] if tail_of(i, f) else f, "stock", "split")
                 for i, c, f in heads], groups, n)
    md += ["", "## Findings", "",
           f"{len(main)} figures (a tail counts once): {len(found)} findings (differ in every "
           f"boot, the same direction); {len(one)} differ in some boots only and {len(opp)} in "
           "opposite directions, neither a finding." if n > 1 else
           f"{len(main)} figures (a tail counts once), one boot (BENCH_REPLICAS=1, make bench's "
           "default): none is a finding, which takes two boots or more that all differ in the "
           "same direction (make bench-record: two boots of every kernel). What one boot can "
           f"say: {len(lead)} figures differ after this boot's correction (below): in its runs "
           "the two modules differ by more than chance would make of those runs (false "
           f"discovery rate {ALPHA} over the boot's figures); but the runs of a boot share "
           "what the boot left them (memory, caches, the host that hour), so whether the "
           "difference holds in another boot it cannot say. For the rest, each verdict says "
           "why not ('no difference detected': the interval bounds how large one could be).",
           ""]
    md += table([k for k, rs in groups.items() if rs[0]["finding"].startswith("finding")],
                groups, n) if found else []
    md += table([row_key(rs[0]) for rs in lead], groups, n) if lead else []
    md += pooled_md(prows, heads) if prows else []
    md += ["", "## Every figure", ""]
    md += table([k for k, rs in groups.items() if not rs[0]["finding"].startswith("in the tail")],
                groups, n)
    md += ["", "## Cover letter table", "", "```", ct.rstrip("\n"), "```", ""]
    with open(os.path.join(d, "report.md"), "w") as f:
        f.write("\n".join(md))
    print(ct, end="")


def seeds(dirs):
    out = []
    for bd in dirs:
        with open(os.path.join(bd, "plan.json")) as f:
            out.append(json.load(f).get("order_seed", "?"))
    return out


def same_text(path, got):
    """path holds exactly got, or an error at the first line that differs."""
    got = got.splitlines()
    if not os.path.isfile(path):
        die(f"recompute: {path}: no such file")
    with open(path) as f:
        want = f.read().splitlines()
    for i, (g, w) in enumerate(zip(got, want), 1):
        if g != w:
            die(f"recompute: {path}:{i} differs from runs.csv's: '{w}' (runs.csv gives '{g}')")
    if len(got) != len(want):
        die(f"recompute: {path} has {len(want)} lines, runs.csv gives {len(got)}")
    print(f"{path}: {len(want) - 1} rows, each as runs.csv gives it")


def cmd_recompute(a):
    """summary.csv and pooled.csv computed again from runs.csv: the same, or the first line that
    differs. A record of two boots or more from before the pooled analysis has no pooled.csv."""
    runs_rows, items = read_csv(os.path.join(a.dir, "runs.csv")), plan_items(a.dir)
    same_text(os.path.join(a.dir, "summary.csv"), summary_text(recompute_rows(runs_rows, items)))
    pooled, prows = os.path.join(a.dir, POOLED), pooled_rows(runs_rows, items)
    if prows and os.path.isfile(pooled):
        same_text(pooled, pooled_text(prows, len(items)))
    elif prows:
        print(f"{pooled}: none (a record from before the pooled analysis)")
    elif os.path.isfile(pooled):
        die(f"recompute: {pooled}: a record of one boot has no pooled analysis")
