#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host-side unit tests: every executable tests/*/test-*.sh, each a TAP producer (TAP version
# 13, result lines, a plan), run through prove (perl), which also fails a script whose output
# is not valid TAP (no plan, a plan that does not match).
set -u
top=$(cd "$(dirname "$0")" && pwd)
tests=()
for t in "$top"/*/test-*.sh; do
	[ -x "$t" ] && tests+=("$t")
done
command -v prove >/dev/null || { echo "run-host-tests.sh: error: prove not found (perl; make deps installs it)" >&2; exit 1; }
exec prove -v --exec bash "${tests[@]}"
