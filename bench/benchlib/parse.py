# SPDX-License-Identifier: GPL-2.0
"""The guest's console log: the tagged lines of each run (bench-rec, bench-samples, bench-extra,
bench-ktrace, bench-waits, bench-lockstat, bench-aosp), the runs' errors and the clocksource
check. The guest ships raw samples (bench-samples); their order statistics are computed here. Records made
before that (series/ up to 2026-12-05) carry them computed by the guest, as bench-cdf and a
whole bench-ktrace line: both are read as they are.
"""

import hashlib
import json
import re

from benchlib.stats import cdf_points, delivery_stats


# ---- report ----

TAG = re.compile(r"^(bench-rec|bench-samples|bench-cdf|bench-extra|bench-ktrace|bench-waits|"
                 r"bench-lockstat|bench-aosp): "
                 r"(\S+) (.*)$")
# A failed run's last log lines, as bench-run prints them: "# ID run.log: # error: ...".
RUN_ERROR = re.compile(r"^# (\S+) \S+\.log: # error: (.*)$")


def throughput_test(text):
    """The figures of AOSP binderThroughputTest's result lines (bench-aosp, joined by "|"), named
    as binder_throughput's --json names them: iterations_per_sec, avg_ms, worst_ms, best_ms,
    p50_ms, p90_ms, p95_ms, p99_ms (the middle of the histogram bucket each falls in), and
    long_frac (the share of calls longer than its histogram's range), 0 when not printed."""
    d = {"long_frac": 0.0}
    for line in text.split("|"):
        line = line.strip()
        m = re.match(r"^iterations per sec: ([0-9.e+-]+)$", line)
        if m:
            d["iterations_per_sec"] = float(m.group(1))
            continue
        m = re.match(r"^average:([0-9.e+-]+)ms worst:([0-9.e+-]+)ms best:([0-9.e+-]+)ms$", line)
        if m:
            d.update(avg_ms=float(m.group(1)), worst_ms=float(m.group(2)),
                     best_ms=float(m.group(3)))
            continue
        if line.startswith("50%:"):
            for pct, v in re.findall(r"([0-9]+)%: ([0-9.e+-]+)", line):
                d[f"p{pct}_ms"] = float(v)
            continue
        m = re.match(r"^([0-9.e+-]+)% of transactions took longer", line)
        if m:
            d["long_frac"] = float(m.group(1))
            continue
        raise ValueError(f"unknown binderThroughputTest line '{line}'")
    for k in ("iterations_per_sec", "avg_ms", "p99_ms"):
        if k not in d:
            raise ValueError(f"no {k} in binderThroughputTest's lines")
    return d


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
            elif tag == "bench-aosp":
                try:
                    r.setdefault("rec", {})["all"] = throughput_test(payload)
                except ValueError as e:
                    problems.append(f"{rid}: bench-aosp: {e}")
            elif tag == "bench-samples":
                kind, _, values = payload.partition(" ")
                try:
                    samples = [int(v) for v in values.split()]
                except ValueError:
                    problems.append(f"{rid}: bad bench-samples line")
                    continue
                if kind == "ns":
                    r["cdf"] = cdf_points(samples)
                elif kind == "k_us":
                    r.setdefault("ktrace", {}).update(delivery_stats(samples))
                else:
                    problems.append(f"{rid}: bench-samples of an unknown kind '{kind}'")
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
                r.setdefault("ktrace", {}).update({k: float(v) for k, v in
                                                   (kv.split("=", 1) for kv in payload.split())})
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
