#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kunit/kunit-mutants.sh without a kernel: --check reads every mutant of kunit/mutants/ and
# prints its plan; bad mutants get a one-line error before anything is built; make check does
# not run the mutants.
. "$(dirname "$0")/../lib.sh"

export CACHE=$tmp/cache
km=$top/kunit/kunit-mutants.sh

# expect_fail DESC PATTERN ARG...: kunit-mutants.sh ARG... exits non-zero with one error line
# matching PATTERN, and leaves no cache behind.
expect_fail() {
	local desc=$1 pat=$2 err rc
	shift 2
	err=$("$km" "$@" 2>&1 >/dev/null)
	rc=$?
	result "$([ "$rc" != 0 ] && [ "$(grep -c 'error:' <<<"$err")" = 1 ] && grep -q -- "$pat" <<<"$err" &&
		[ ! -e "$CACHE" ] && echo 1)" "$desc" "exit $rc: $err"
}

mutants=$(find "$top/kunit/mutants" -name '*.patch' | wc -l)
out=$("$km" --check 2>&1)
rc=$?
result "$([ "$rc" = 0 ] && [ "$mutants" -gt 0 ] && grep -qx "1\.\.$mutants" <<<"$out" && echo 1)" \
	"--check: all $mutants mutants have an expectation" "exit $rc: $out"
result "$([ "$(grep -c '^# [0-9]* .*\.patch: ' <<<"$out")" = "$mutants" ] && echo 1)" "--check: one plan line per mutant"
result "$([ ! -e "$CACHE" ] && echo 1)" "--check leaves the cache alone"

diff=$(sed -n '/^diff --git /,$p' "$(find "$top/kunit/mutants" -name '*.patch' | head -n1)")
printf '%s\n' "$diff" >"$tmp/no-expect.patch"
expect_fail "a mutant without an expectation" "no-expect.patch: no '# expect:' line" --check "$tmp/no-expect.patch"
{ echo "# expect: FAIL binder_alloc_test_rollback; PASS all"; printf '%s\n' "$diff"; } >"$tmp/bad.patch"
expect_fail "a bad expectation" "bad expectation 'PASS all'" "$tmp/bad.patch"
echo "# expect: clean-log" >"$tmp/empty.patch"
expect_fail "a mutant that is not a diff" "empty.patch: not a git diff" "$tmp/empty.patch"
expect_fail "an unknown mutant" "no mutant 'nope'" nope

result "$(! grep -q kunit-mutants "$top/scripts/check.sh" && echo 1)" "make check does not run the mutants"
echo "# $n tests, $fails failed"
[ "$fails" = 0 ]
