#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host unit tests of binder_throughput's context switches and CPU time per call
# (selftests/binder_throughput/usage.c): build tests/selftest/test-usage.c against it and
# run it (KTAP result lines), then parse what "test-usage json" prints, an object ending in
# the keys as results.c writes them, as JSON: every key a number, -1 where absent.
. "$(dirname "$0")/../lib.sh"
src=$top/selftests/binder_throughput

if ! gcc -O2 -Wall -Wextra -Werror -pthread -I"$src" -o "$tmp/test-usage" \
	"$top/tests/selftest/test-usage.c" "$src/usage.c" >"$tmp/cc.log" 2>&1; then
	result 0 "build test-usage.c" "$(head -n1 "$tmp/cc.log")"
	exit 1
fi
# Its own result lines, numbered after ours: renumber them into this script's plan.
"$tmp/test-usage" >"$tmp/out" 2>&1
rc=$?
while IFS= read -r line; do
	case $line in
	"ok "*) result 1 "${line#ok [0-9]* }" ;;
	"not ok "*) result 0 "${line#not ok [0-9]* }" ;;
	"1.."*) ;;
	*) echo "$line" ;;
	esac
done <"$tmp/out"
result "$([ "$rc" = 0 ] && echo 1)" "test-usage exits 0 when every check passes" "exit $rc"

"$tmp/test-usage" json >"$tmp/u.json"
if ! command -v python3 >/dev/null; then
	n=$((n + 1))
	echo "ok $n the JSON parses, the per-call keys are numbers # SKIP no python3"
else
	python3 - "$tmp/u.json" >"$tmp/py.log" 2>&1 <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
keys = [f"{w}_{k}_per_call" for w in ("client", "server", "fifo") for k in ("vcsw", "ivcsw", "cpu_us")]
assert list(d)[-9:] == keys, list(d)
assert d["result"] == "ok"
for k in keys:
    assert isinstance(d[k], (int, float)) and not isinstance(d[k], bool), k
assert d["server_vcsw_per_call"] == -1 and d["client_vcsw_per_call"] == 2.5, d
PY
	result "$([ $? = 0 ] && echo 1)" "the JSON parses, the per-call keys are last and numbers" \
		"$(tail -n1 "$tmp/py.log")"
fi
[ "$fails" = 0 ]
