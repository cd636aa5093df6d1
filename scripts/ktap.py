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
                     "names OUT [--norm]\n")
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
                skip = re.search(r" # (SKIP|skip)", desc)
                st = "not-ok" if not ok else "skip" if skip else "ok"
                print(f"{st}\t{re.sub(r' # .*$', '', desc)}")
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
        if cmd == "names" and len(args) in (1, 2) and args[1:] in ([], ["--norm"]):
            print("\n".join(names(args[0], args[1:] == ["--norm"])))
            return 0
    except (OSError, ValueError) as e:
        sys.stderr.write(f"ktap.py: error: {cmd}: {e}\n")
        return 1
    return usage()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
