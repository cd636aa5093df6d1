#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""ktap.py: the one reader of test results on the host.

  ktap.py count LOG            "PASSED FAILED SKIPPED" of LOG's result lines: "ok N ... # SKIP"
                               is skipped, any other "ok N" passed, "not ok N" failed
                               (check.sh's count of each stage)
  ktap.py expect [--no-skip] NAMES FILE
                               one result per case of NAMES (the first word of each line that is
                               neither blank nor a comment), in that order and renumbered: the
                               first result line of FILE for that name, as it is; a failure gets
                               the reason from FILE's "# NAME: REASON" line; a case with no
                               result is "not ok N NAME: no result from the guest"; with
                               --no-skip a skipped case is "not ok N NAME: skipped: REASON".
                               Exit 1 when any case did not pass.
  ktap.py status FILE          "ok|skip|not-ok<TAB>DESC" per result line of FILE, DESC without its
                               directive
  ktap.py kunit-json LABEL JSON  one line per KUnit case of kunit.py's --json output:
                               "ok N LABEL PATH.CASE", "... # SKIP", "not ok N ... (STATUS)"
  ktap.py kunit-status JSON    "STATUS<TAB>PATH.CASE" per KUnit case of that output
  ktap.py kunit-log KUNITPY LOG JSON
                               KUNITPY parse --json=JSON over the last KTAP document of the
                               kernel log LOG: a module's suites, run when it loads, print
                               theirs after the built-in one (often "1..0"), and kunit.py
                               parse reads only the first
  ktap.py gtest KNOWN FILE DRIVERS BINARIES
                               one result per googletest case of each binary (BINARIES, comma-
                               separated) on each driver (DRIVERS, likewise), from what a guest
                               wrote to FILE (aosp/aosp-run): "# list D B: ..." (B
                               --gtest_list_tests), "# gtest D B: ..." (B's output), "# exit D
                               B: RC". "ok N D: SUITE.CASE", "... # SKIP" when the test skipped
                               itself, "not ok N D: SUITE.CASE: WHY" when it failed, crashed or
                               never ran; a binary that listed no case, or exited non-zero with
                               every case passed, is one "not ok". KNOWN ("SUITE.CASE REASON"
                               lines) lists the cases that fail in the guest whatever the
                               driver: one that fails on every driver is "# SKIP known failure:
                               REASON", one that fails on only some is a failure there, one that
                               passes on every driver, or names no case, a failure of KNOWN. An
                               exit other than 0, or 1 with a case failed, is a failure unless a
                               case died of it; "timeout" (RC) is a run killed at its limit.
                               DISABLED_ cases are "# SKIP disabled". Exit 1 on any failure.
  ktap.py names OUT [--norm]   "STAGE<TAB>NAME" of every result of a make check run (OUT/check),
                               sorted; --norm drops what varies from run to run and the suite
                               folders of paths (to compare two runs' names)

Result lines are KTAP's ("ok N DESC[ # DIRECTIVE]", "not ok N DESC"), at the start of a line,
carriage returns dropped. Python 3 standard library only.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

RESULT = re.compile(r"^(not )?ok ([0-9]+)(?: (.*))?$")


def results(lines):
    """(ok, number, description) for each result line of lines."""
    for line in lines:
        m = RESULT.match(line.rstrip("\r\n").replace("\r", ""))
        if m:
            yield m.group(1) is None, int(m.group(2)), m.group(3) or ""


def result_status(ok, desc):
    """A result's status: "not-ok", "skip" ("ok N ... # SKIP") or "ok"."""
    return "not-ok" if not ok else "skip" if re.search(r" # (SKIP|skip)", desc) else "ok"


def read(path):
    with open(path, errors="replace") as f:
        return f.read().replace("\r", "").split("\n")


def count(lines):
    passed = failed = skipped = 0
    for ok, _, desc in results(lines):
        if not ok:
            failed += 1
        elif re.search(r"# (SKIP|skip)", desc):
            skipped += 1
        else:
            passed += 1
    return passed, failed, skipped


def expect(names, lines, no_skip=False):
    out = []
    bad = 0
    for n, name in enumerate(names, 1):
        line = None
        for ok, _, desc in results(lines):
            if desc == name or desc.startswith(name + " ") or desc.startswith(name + ":"):
                line = (ok, desc)
                break
        if line is None:
            out.append(f"not ok {n} {name}: no result from the guest")
            bad += 1
        elif line[0] and no_skip and re.search(r" # (SKIP|skip)", line[1]):
            why = re.sub(r"^.*? # (SKIP|skip) ?", "", line[1])
            out.append(f"not ok {n} {name}: skipped: {why}")
            bad += 1
        elif line[0]:
            out.append(f"ok {n} {line[1]}")
        else:
            why = next((l[len(f"# {name}: "):] for l in lines if l.startswith(f"# {name}: ")), "")
            out.append(f"not ok {n} {line[1]}{': ' + why if why and line[1] == name else ''}")
            bad += 1
    return out, bad


def kunit_cases(group, prefix=""):
    name = group.get("name", "")
    path = f"{prefix}.{name}" if prefix and name else (name or prefix)
    for case in group.get("test_cases", []):
        yield (f"{path}.{case['name']}" if path else case["name"]), case["status"]
    for sub in group.get("sub_groups", []):
        yield from kunit_cases(sub, path)


def kunit_json(label, path):
    with open(path) as f:
        cases = list(kunit_cases(json.load(f)))
    out = []
    bad = 0
    for n, (name, status) in enumerate(cases, 1):
        if status == "PASS":
            out.append(f"ok {n} {label} {name}")
        elif status == "SKIP":
            out.append(f"ok {n} {label} {name} # SKIP")
        else:
            bad += 1
            out.append(f"not ok {n} {label} {name} ({status})")
    if not cases:
        out.append(f"not ok 1 {label}: no test cases in {path}")
        bad = 1
    return out, bad


def kunit_log(kunitpy, log, out):
    lines = read(log)
    top = re.compile(r"^(\[ *[0-9.]+\] )?KTAP version 1$")
    start = max((i for i, l in enumerate(lines) if top.match(l)), default=0)
    with tempfile.NamedTemporaryFile("w", suffix=".log") as f:
        f.write("\n".join(lines[start:]))
        f.flush()
        return subprocess.call([sys.executable, kunitpy, "parse", f"--json={out}", f.name])


GT_SUITE = re.compile(r"^([A-Za-z_][A-Za-z0-9_/]*)\.(\s+#.*)?$")
GT_CASE = re.compile(r"^  ([A-Za-z_][A-Za-z0-9_/]*)(\s+#.*)?$")
GT_RUN = re.compile(r"^\[ RUN      \] (\S+)$")
# A parameterized case's result line names its parameter: "P/S.T/0, where GetParam() = 1".
GT_END = re.compile(r"^\[ +(OK|FAILED|SKIPPED) +\] (\S+?)(?:, where .*?)?(?: \([0-9]+ ms\))?$")
GT_BLOCK = re.compile(r"^# (list|gtest|exit) (\S+) (\S+): ?(.*)$")


def gtest_block(listed, output):
    """(cases in order, {case: (status, why)}) of one binary's run: status is ok, skip, fail,
    crash (started, no result) or notrun."""
    cases, suite = [], None
    for line in listed:
        m = GT_SUITE.match(line)
        if m:
            suite = m.group(1)
            continue
        m = GT_CASE.match(line)
        if m and suite:
            cases.append(f"{suite}.{m.group(1)}")
    res, running, why = {}, None, ""
    for i, line in enumerate(output):
        m = GT_RUN.match(line)
        if m:
            running, why = m.group(1), ""
            if running not in cases:
                cases.append(running)
            continue
        m = GT_END.match(line)
        if m and m.group(2) == running:
            st = {"OK": "ok", "FAILED": "fail", "SKIPPED": "skip"}[m.group(1)]
            res[running] = (st, why)
            running = None
        elif running and not why and line.endswith("Failure"):
            nxt = next((l.strip() for l in output[i + 1:] if l.strip()), "")
            why = f"{line.split(': ')[0]}: {nxt}"[:160]
    if running:
        res[running] = ("crash", why)
    return cases, res


def gtest_exit(rc):
    """How a binary ended, for its cases' reasons: "exited with RC" or "timed out"."""
    return "timed out" if rc == "timeout" else f"exited with {rc}"


def gtest(known, lines, drivers, binaries):
    blocks = {}
    for line in lines:
        m = GT_BLOCK.match(line)
        if m:
            b = blocks.setdefault((m.group(2), m.group(3)), {"list": [], "gtest": [], "exit": None})
            if m.group(1) == "exit":
                b["exit"] = m.group(4)
            else:
                b[m.group(1)].append(m.group(4))
    out, bad = [], 0

    def emit(ok, desc):
        nonlocal bad
        bad += not ok
        out.append(f"{'' if ok else 'not '}ok {len(out) + 1} {desc}")

    runs = {}
    for d in drivers:
        for b in binaries:
            blk = blocks.get((d, b))
            if blk is None or blk["exit"] is None:
                runs[d, b] = None
                continue
            runs[d, b] = gtest_block(blk["list"], blk["gtest"]) + (blk["exit"],)
    failing = ("fail", "crash", "notrun")
    status = {}
    for b in binaries:
        order = []
        for d in drivers:
            for c in (runs[d, b] or ([],))[0]:
                if c not in order:
                    order.append(c)
        for d in drivers:
            r = runs[d, b]
            for c in order:
                status[d, b, c] = ("notrun", "") if r is None else r[1].get(c, ("notrun", ""))
        runs[b] = order
    for d in drivers:
        for b in binaries:
            r = runs[d, b]
            if r is None:
                emit(False, f"{d}: {b}: no result from the guest (the boot or the plan failed before it ran)")
                continue
            cases, res, rc = r
            first = next((l for l in blocks[d, b]["list"] + blocks[d, b]["gtest"] if l.strip()), "no output")
            if not cases:
                emit(False, f"{d}: {b} did not start ({gtest_exit(rc)}): {first}")
                continue
            failed = died = False
            for c in runs[b]:
                st, why = status[d, b, c]
                if c in known and st == "fail" and all(status[o, b, c][0] == "fail" for o in drivers):
                    failed = True
                    emit(True, f"{d}: {c} # SKIP known failure: {known[c]}")
                elif st == "ok":
                    emit(True, f"{d}: {c}")
                elif st == "skip":
                    emit(True, f"{d}: {c} # SKIP skipped by the test")
                elif st == "notrun" and "DISABLED_" in c:
                    emit(True, f"{d}: {c} # SKIP disabled")
                else:
                    failed = True
                    died = died or st != "fail"
                    if c in known:
                        why = (f"fails on {d} only, not on every driver as known-failures has it"
                               + (f": {why}" if why else "")) if st == "fail" else \
                            f"{'died' if st == 'crash' else 'not run'} ({gtest_exit(rc)})"
                    elif st == "crash":
                        why = (f"{b} timed out in it" if rc == "timeout"
                               else f"{b} died in it ({gtest_exit(rc)})")
                    elif st == "notrun":
                        why = f"not run ({b} {gtest_exit(rc)} before it)"
                    emit(False, f"{d}: {c}: {why or 'failed'}")
            # googletest exits 1 when a case failed; any other non-zero end (a crash at exit, a
            # failed global TearDown, a timeout after the last case) is a failure of its own,
            # unless a case already died of it.
            if rc != "0" and not (rc == "1" and failed) and not died:
                emit(False, f"{d}: {b} {gtest_exit(rc)}")
    listed = {k[2] for k in status}
    for c, why in known.items():
        seen = [k for k in status if k[2] == c]
        if listed and not seen:
            emit(False, f"{c}: in known-failures ({why}) but no test has that case")
        elif seen and all(status[k][0] not in failing for k in seen):
            emit(False, f"{c}: in known-failures ({why}) but it passed on every driver")
    return out, bad


def read_known(path):
    known = {}
    for line in read(path):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        name, why = (line.split(None, 1) + [""])[:2]
        if "." not in name or not why.strip():
            raise ValueError(f"{path}: expected 'SUITE.CASE REASON', got '{line}'")
        known[name] = why.strip()
    return known


def names(out, norm):
    rows = []
    d = os.path.join(out, "check")
    for log in sorted(os.listdir(d)):
        if not log.endswith(".log"):
            continue
        stage = log[:-4]
        for _, _, desc in results(read(os.path.join(d, log))):
            desc = re.sub(r" # (SKIP|skip|TODO|todo)( .*)?$", "", desc)
            desc = re.sub(r" \([0-9]+ s\)$", "", desc)
            desc = re.sub(r"^([a-z]+: [A-Za-z0-9_]+\.ko): /.*$", r"\1", desc)
            desc = re.sub(r"^(binder_throughput-static): /.*$", r"\1", desc)
            if norm:
                desc = re.sub(r"^(docs: )[^: ]+:[0-9]+: ", r"\1", desc)
                desc = re.sub(r"(^|[ \"])(scripts|qemu|kunit|bench|stress|selftest|fixes|send|"
                              r"binder_alloc_split|Documentation)/", r"\1", desc)
            rows.append(f"{stage}\t{desc}")
    return sorted(rows)


def usage():
    sys.stderr.write("ktap.py: error: usage: ktap.py count LOG | expect [--no-skip] NAMES FILE | status FILE | "
                     "kunit-json LABEL JSON | kunit-status JSON | kunit-log KUNITPY LOG JSON | "
                     "gtest KNOWN FILE DRIVERS BINARIES | names OUT [--norm]\n")
    return 2


def main(argv):
    if not argv:
        return usage()
    cmd, args = argv[0], argv[1:]
    try:
        if cmd == "count" and len(args) == 1:
            print("%d %d %d" % count(read(args[0])))
            return 0
        no_skip = args[:1] == ["--no-skip"]
        if cmd == "expect" and len(args) == 2 + no_skip:
            args = args[no_skip:]
            want = [l.split()[0] for l in read(args[0]) if l.strip() and not l.startswith("#")]
            out, bad = expect(want, read(args[1]), no_skip)
            print("\n".join(out))
            return 1 if bad else 0
        if cmd == "status" and len(args) == 1:
            for ok, _, desc in results(read(args[0])):
                print(f"{result_status(ok, desc)}\t{re.sub(r' # .*$', '', desc)}")
            return 0
        if cmd == "kunit-json" and len(args) == 2:
            out, bad = kunit_json(args[0], args[1])
            print("\n".join(out))
            return 1 if bad else 0
        if cmd == "kunit-status" and len(args) == 1:
            with open(args[0]) as f:
                for name, status in kunit_cases(json.load(f)):
                    print(f"{status}\t{name}")
            return 0
        if cmd == "kunit-log" and len(args) == 3:
            return kunit_log(*args)
        if cmd == "gtest" and len(args) == 4:
            out, bad = gtest(read_known(args[0]), read(args[1]), args[2].split(","), args[3].split(","))
            print("\n".join(out))
            return 1 if bad else 0
        if cmd == "names" and len(args) in (1, 2) and args[1:] in ([], ["--norm"]):
            print("\n".join(names(args[0], args[1:] == ["--norm"])))
            return 0
    except (OSError, ValueError) as e:
        sys.stderr.write(f"ktap.py: error: {cmd}: {e}\n")
        return 1
    return usage()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
