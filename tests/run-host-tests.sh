#!/bin/bash
# Host-side unit tests: every executable tests/*/test-*.sh, each a TAP producer (TAP version
# 13, result lines, a plan). Run through prove (perl) when it is there, which also fails a
# script whose output is not valid TAP (no plan, a plan that does not match); else one by one.
set -u
top=$(cd "$(dirname "$0")" && pwd)
tests=()
for t in "$top"/*/test-*.sh; do
	[ -x "$t" ] && tests+=("$t")
done
if command -v prove >/dev/null; then
	exec prove -v --exec bash "${tests[@]}"
fi
rc=0
for t in "${tests[@]}"; do
	echo "# ${t#"$top"/}"
	"$t" || rc=1
done
exit $rc
