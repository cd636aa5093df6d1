# SPDX-License-Identifier: GPL-2.0
"""The report's plots: write_plots, the latency CDF (item 1) and the throughput bars (items
1 and 2), drawn by gnuplot where it is installed.
"""

import os
import shutil
import statistics
import subprocess


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
