#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Print one KTAP-style line per KUnit case from kunit.py's --json output."""
import json
import sys


def cases(group, prefix=""):
    name = group.get("name", "")
    path = f"{prefix}.{name}" if prefix and name else (name or prefix)
    for case in group.get("test_cases", []):
        yield f"{path}.{case['name']}" if path else case["name"], case["status"]
    for sub in group.get("sub_groups", []):
        yield from cases(sub, path)


def main():
    label, path = sys.argv[1], sys.argv[2]
    with open(path) as f:
        data = json.load(f)
    n = 0
    bad = 0
    for name, status in cases(data):
        n += 1
        if status == "PASS":
            print(f"ok {n} {label} {name}")
        elif status == "SKIP":
            print(f"ok {n} {label} {name} # SKIP")
        else:
            bad += 1
            print(f"not ok {n} {label} {name} ({status})")
    if n == 0:
        print(f"not ok 1 {label}: no test cases in {path}")
        return 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
