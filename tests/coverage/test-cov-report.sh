#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# coverage/cov-report.sh, make coverage's merger and report, on made-up tracefiles: two suites
# that reach different lines and branches of a made-up binder_alloc.c, merged by lcov -a; the
# figures per suite and merged; the changed lines that nothing reaches, with and without a
# recorded reason; bad input.
. "$(dirname "$0")/../lib.sh"
r=$top/coverage/cov-report.sh
d=$tmp/run
mkdir -p "$d"
src=$tmp/src/binder_alloc.c
mkdir -p "${src%/*}"
printf '%s\n' 'int a(void)' '{' '	spin_lock(&alloc->lock);' '	if (x)' '		return -EAGAIN;' \
	'	WARN_ON(y);' '	return 0;' '}' >"$src"
# info NAME DA... -- BRDA...: a tracefile with one record, for $src.
info() {
	local name=$1
	shift
	{
		echo "TN:"
		echo "SF:$src"
		while [ "$1" != -- ]; do echo "DA:$1"; shift; done
		shift
		for b; do echo "BRDA:$b"; done
		echo "end_of_record"
	} >"$d/$name.info"
}
# kunit reaches lines 3, 4, 5 and the taken branch; fuzz lines 3, 4, 7 and the other one.
info kunit 3,5 4,5 5,2 6,0 7,0 -- 4,0,0,2 4,0,1,- 6,0,0,- 6,0,1,-
info fuzz 3,1 4,1 5,0 6,0 7,1 -- 4,0,0,0 4,0,1,1 6,0,0,- 6,0,1,-
printf '3\n5\n6\n' >"$d/changed"
printf '# made up\nWARN_ON(\ta warning that no test can trigger\n' >"$tmp/reasons"
o=$(REASONS=$tmp/reasons "$r" "$d" binder_alloc.c "$d/changed" kunit fuzz 2>&1)
rc=$?
result "$([ $rc = 0 ] && echo 1 || echo 0)" "a report whose unreached changed lines all have reasons exits 0" "exit $rc: $o"
result "$(grep -qE '^  kunit +3/5 60.0% +1/4 25.0%$' <<<"$o" && echo 1 || echo 0)" "kunit alone: 3 of 5 lines, 1 of 4 branches" "$o"
result "$(grep -qE '^  fuzz +3/5 60.0% +1/4 25.0%$' <<<"$o" && echo 1 || echo 0)" "fuzz alone: 3 of 5 lines, 1 of 4 branches" "$o"
result "$(grep -qE '^  merged +4/5 80.0% +2/4 50.0%$' <<<"$o" && echo 1 || echo 0)" "merged: 4 of 5 lines, 2 of 4 branches (lcov -a adds the counts)" "$o"
result "$(grep -q 'DA:3,6' "$d/total.info" && echo 1 || echo 0)" "total.info holds the summed counts"
result "$(grep -q ': 3 executable, 2 reached, 1 not$' <<<"$o" && echo 1 || echo 0)" "changed lines: 3 executable, 2 reached" "$o"
result "$(grep -A1 '^  6: WARN_ON(y);' <<<"$o" | grep -q 'a warning that no test can trigger' && echo 1 || echo 0)" \
	"the unreached changed line, with its reason" "$o"
: >"$tmp/none"
o=$(REASONS=$tmp/none "$r" "$d" binder_alloc.c "$d/changed" kunit fuzz 2>&1)
rc=$?
result "$([ $rc = 1 ] && grep -q 'NO REASON RECORDED' <<<"$o" && echo 1 || echo 0)" \
	"an unreached changed line without a reason fails the report" "exit $rc: $o"
o=$("$r" "$d" binder_alloc.c - kunit 2>&1)
result "$([ $? = 0 ] && ! grep -q 'lines the series' <<<"$o" && echo 1 || echo 0)" "CHANGED -: figures only" "$o"
expect_fail "a missing tracefile" "no tracefile .*/nosuch.info" "$r" "$d" binder_alloc.c - kunit nosuch
expect_fail "a tracefile without the file" "has no record of binder.c" "$r" "$d" binder.c - kunit
expect_fail "too few arguments" "usage: cov-report.sh" "$r" "$d" binder_alloc.c -
expect_fail "CHANGED that is not there" "CHANGED=.*no such file" "$r" "$d" binder_alloc.c "$tmp/nosuch" kunit
