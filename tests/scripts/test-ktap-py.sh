#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# scripts/ktap.py, the host's one reader of results: check.sh's counts, a plan's results by
# case name (a missing one, a failure's reason, carriage returns), KUnit's JSON, and its errors.
. "$(dirname "$0")/../lib.sh"
k=$top/scripts/ktap.py

printf '%s\r\n' "TAP version 13" "ok 1 a" "ok 2 b # SKIP no binderfs" "not ok 3 c" "# ok 4 not a result" \
	"ok 5" "xok 6 no" "ok 7 d # skip lower case" >"$tmp/log"
result "$([ "$(python3 "$k" count "$tmp/log")" = "2 1 2" ] && echo 1)" \
	"count: passed, failed, skipped; '# ' lines and other text are not results" "$(python3 "$k" count "$tmp/log")"

printf '# the plan\n\nsync files -w 2\noneway - -w 2\npairs - -p\nsigint sigint\n' >"$tmp/cases"
printf '%s\r\n' "# === sync" "ok 1 sync (3 s)" "# oneway: no 'average: ' line" "not ok 2 oneway" \
	"ok 3 pairsx (1 s)" "ok 4 sigint # SKIP not root" >"$tmp/console"
got=$(python3 "$k" expect "$tmp/cases" "$tmp/console")
rc=$?
want=$(printf '%s\n' "ok 1 sync (3 s)" "not ok 2 oneway: no 'average: ' line" \
	"not ok 3 pairs: no result from the guest" "ok 4 sigint # SKIP not root")
result "$([ "$rc" = 1 ] && [ "$got" = "$want" ] && echo 1)" \
	"expect: one result per case, in the plan's order, renumbered; a failure's reason; a missing case" \
	"exit $rc: $(echo "$got" | tr '\n' '|')"
got=$(python3 "$k" status "$tmp/console" | tr '\t\n' ':|')
result "$([ "$got" = "ok:sync (3 s)|not-ok:oneway|ok:pairsx (1 s)|skip:sigint|" ] && echo 1)" \
	"status: ok, not-ok or skip, and the description without its directive" "$got"
got=$(python3 "$k" expect --no-skip "$tmp/cases" "$tmp/console" | sed -n 4p)
result "$([ "$got" = "not ok 4 sigint: skipped: not root" ] && echo 1)" "expect --no-skip: a skipped case fails" "$got"
printf 'ok 1 sync\nok 2 oneway\nok 3 pairs\nok 4 sigint\n' >"$tmp/all"
python3 "$k" expect "$tmp/cases" "$tmp/all" >/dev/null
result "$([ $? = 0 ] && echo 1)" "expect: exit 0 when every case passed"

cat >"$tmp/k.json" <<'EOF'
{"name": "KUnit Test Group", "test_cases": [], "sub_groups": [
 {"name": "binder_alloc", "sub_groups": [], "test_cases": [
  {"name": "binder_alloc_test_mmap", "status": "PASS"},
  {"name": "binder_alloc_test_rollback", "status": "SKIP"},
  {"name": "binder_alloc_test_install_zap_race", "status": "FAIL"}]}]}
EOF
got=$(python3 "$k" kunit-json kunit-plain "$tmp/k.json")
rc=$?
want=$(printf '%s\n' "ok 1 kunit-plain KUnit Test Group.binder_alloc.binder_alloc_test_mmap" \
	"ok 2 kunit-plain KUnit Test Group.binder_alloc.binder_alloc_test_rollback # SKIP" \
	"not ok 3 kunit-plain KUnit Test Group.binder_alloc.binder_alloc_test_install_zap_race (FAIL)")
result "$([ "$rc" = 1 ] && [ "$got" = "$want" ] && echo 1)" "kunit-json: a line per case, exit 1 on a failure" \
	"exit $rc: $(echo "$got" | tr '\n' '|')"
got=$(python3 "$k" kunit-status "$tmp/k.json" | sed -n 3p)
result "$([ "$got" = "$(printf 'FAIL\tKUnit Test Group.binder_alloc.binder_alloc_test_install_zap_race')" ] && echo 1)" \
	"kunit-status: STATUS and the case's path" "$got"
echo '{"name": "KUnit Test Group", "test_cases": [], "sub_groups": []}' >"$tmp/none.json"
got=$(python3 "$k" kunit-json x "$tmp/none.json")
result "$([ $? = 1 ] && [ "$got" = "not ok 1 x: no test cases in $tmp/none.json" ] && echo 1)" \
	"kunit-json: no cases is a failure" "$got"

# kunit-log: kunit.py parse (a stand-in that keeps its input) gets the last KTAP document only.
printf 'import sys\nsrc = sys.argv[-1]\nout = sys.argv[-2][len("--json="):]\nopen(out, "w").write(open(src).read())\n' >"$tmp/kunit.py"
printf '%s\r\n' "[    4.0] KTAP version 1" "[    4.0] 1..0" "[init] running" "[    4.6] KTAP version 1" "[    4.6] 1..2" \
	"[    4.6]     KTAP version 1" "[    4.6]     # Subtest: binder_buffer" "[    4.7] ok 1 binder_buffer" >"$tmp/console"
python3 "$k" kunit-log "$tmp/kunit.py" "$tmp/console" "$tmp/kl.json"
got=$(head -n2 "$tmp/kl.json" | tr '\n' '|')
result "$([ "$got" = "[    4.6] KTAP version 1|[    4.6] 1..2|" ] && [ "$(wc -l <"$tmp/kl.json")" = 5 ] && echo 1)" \
	"kunit-log: kunit.py parse reads the module's KTAP document, not the built-in one before it" "$got"

expect_fail "an unknown command" "ktap.py: error: usage:" python3 "$k" counts "$tmp/log"
expect_fail "a file that does not exist" "ktap.py: error: count: .*nope" python3 "$k" count "$tmp/nope"
echo '{' >"$tmp/bad.json"
expect_fail "JSON that does not parse" "ktap.py: error: kunit-json:" python3 "$k" kunit-json x "$tmp/bad.json"
[ "$fails" = 0 ]
