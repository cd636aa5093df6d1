#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# scripts/ktap.py gtest, googletest output to KTAP (make aosp-check), on made-up guest output:
# passes, a failure with its reason, a test's own skip, a crash, cases never run, a binary that
# did not start, a silent non-zero exit, known failures on both drivers, on one, on neither.
. "$(dirname "$0")/../lib.sh"
k=$top/scripts/ktap.py

# block D T RC: the guest's lines of test T on driver D (aosp/aosp-run), its list given on fd 3
# and its output on standard input.
block() {
	sed "s/^/# list $1 $2: /" <&3
	sed "s/^/# gtest $1 $2: /"
	echo "# exit $1 $2: $3"
}
list='S.
  Pass
  Fail
  Skip
  Known
  Crash  # GetParam() = 1
  Never'
run_ok() {
	printf '%s\n' '[==========] Running 2 tests from 1 test suite.' '[ RUN      ] S.Pass' \
		'ProcessState W 12-05 attemptIncStrongHandle(1): Not supported' '[       OK ] S.Pass (3 ms)'
}
{
	# stock: Pass passes, Fail fails, Skip skips itself, Known fails, Crash dies.
	{
		run_ok
		printf '%s\n' '[ RUN      ] S.Fail' 'binderLibTest.cpp:123: Failure' 'Expected equality of these values:' \
			'  0' '  ret' '[  FAILED  ] S.Fail (5 ms)' '[ RUN      ] S.Skip' '[  SKIPPED ] S.Skip (0 ms)' \
			'[ RUN      ] S.Known' '[  FAILED  ] S.Known (1 ms)' '[ RUN      ] S.Crash' 'Aborted'
	} | block stock T 134 3<<<"$list"
	# split: every case passes but Known, which fails here too; the binary then exits 1.
	for c in Pass Fail Skip Crash Never; do
		printf '[ RUN      ] S.%s\n[       OK ] S.%s (0 ms)\n' "$c" "$c"
	done | { cat; printf '%s\n' '[ RUN      ] S.Known' '[  FAILED  ] S.Known (1 ms)' \
		'[==========] 6 tests from 1 test suite ran. (9 ms total)' '[  FAILED  ] S.Known'; } |
		block split T 1 3<<<"$list"
	# U did not start on stock, exited 2 with its one case passed on split.
	echo 'Binder driver could not be opened.  Terminating.' | block stock U 134 3</dev/null
	printf 'S.\n  Pass\n' >"$tmp/u"
	run_ok | block split U 2 3<"$tmp/u"
} >"$tmp/ktap"
printf '# a comment\n\nS.Known the guest has no SELinux\n' >"$tmp/known"
got=$(python3 "$k" gtest "$tmp/known" "$tmp/ktap" stock,split T,U)
rc=$?
want=$(printf '%s\n' 'ok 1 stock: S.Pass' \
	'not ok 2 stock: S.Fail: binderLibTest.cpp:123: Expected equality of these values:' \
	'ok 3 stock: S.Skip # SKIP skipped by the test' \
	'ok 4 stock: S.Known # SKIP known failure: the guest has no SELinux' \
	'not ok 5 stock: S.Crash: T died in it (exited with 134)' \
	'not ok 6 stock: S.Never: not run (T exited with 134 before it)' \
	'not ok 7 stock: U did not start (exited with 134): Binder driver could not be opened.  Terminating.' \
	'ok 8 split: S.Pass' 'ok 9 split: S.Fail' 'ok 10 split: S.Skip' \
	'ok 11 split: S.Known # SKIP known failure: the guest has no SELinux' \
	'ok 12 split: S.Crash' 'ok 13 split: S.Never' \
	'ok 14 split: S.Pass' 'not ok 15 split: U exited with 2')
result "$([ "$rc" = 1 ] && [ "$got" = "$want" ] && echo 1)" \
	"gtest: a result per case and driver; failure reason, skip, crash, never run, no start, silent exit" \
	"exit $rc: $(diff <(echo "$want") <(echo "$got") | tr '\n' '|')"

# A known failure that fails on one driver only fails there; one that passes on every driver
# fails the list.
printf 'S.Known no SELinux\nS.Pass no cgroups\n' >"$tmp/known2"
{
	run_ok | sed '1d' | cat - <(printf '%s\n' '[ RUN      ] S.Known' '[  FAILED  ] S.Known (1 ms)') |
		block stock V 1 3<<<$'S.\n  Pass\n  Known'
	{ run_ok; printf '%s\n' '[ RUN      ] S.Known' '[       OK ] S.Known (0 ms)'; } | block split V 0 3<<<$'S.\n  Pass\n  Known'
} >"$tmp/ktap2"
got=$(python3 "$k" gtest "$tmp/known2" "$tmp/ktap2" stock,split V)
rc=$?
want=$(printf '%s\n' 'ok 1 stock: S.Pass' \
	'not ok 2 stock: S.Known: fails on stock only, not on every driver as known-failures has it' \
	'ok 3 split: S.Pass' 'ok 4 split: S.Known' \
	'not ok 5 S.Pass: in known-failures (no cgroups) but it passed on every driver')
result "$([ "$rc" = 1 ] && [ "$got" = "$want" ] && echo 1)" \
	"gtest: a known failure on one driver only fails there; one that passes everywhere fails the list" \
	"exit $rc: $(diff <(echo "$want") <(echo "$got") | tr '\n' '|')"

# A parameterized case's result line names its parameter; a DISABLED_ case is listed, never
# run; a known failure with a crash at exit (139) still fails; a run killed at its limit; a
# known-failures entry that names no case (tab-separated) fails the list.
plist=$'P/S.\n  T/0  # GetParam() = 1\n  DISABLED_U\nS.\n  K'
{
	printf '%s\n' '[ RUN      ] P/S.T/0' 'x.cpp:7: Failure' 'Value of: ok' \
		'[  FAILED  ] P/S.T/0, where GetParam() = 1 (5 ms)' '[ RUN      ] S.K' '[  FAILED  ] S.K (1 ms)' \
		'[  FAILED  ] P/S.T/0, where GetParam() = 1' | block stock X 139 3<<<"$plist"
	printf '%s\n' '[ RUN      ] P/S.T/0' '[       OK ] P/S.T/0 (1 ms)' '[ RUN      ] S.K' \
		'[  FAILED  ] S.K (1 ms)' | block split X 1 3<<<"$plist"
	printf '%s\n' '[ RUN      ] S.Slow' | block stock Y timeout 3<<<$'S.\n  Slow\n  Next'
	printf '%s\n' '[ RUN      ] S.Slow' '[       OK ] S.Slow (1 ms)' '[ RUN      ] S.Next' \
		'[       OK ] S.Next (1 ms)' | block split Y 0 3<<<$'S.\n  Slow\n  Next'
} >"$tmp/ktap4"
printf 'S.K\tno SELinux\nS.Typo no such case\n' >"$tmp/known4"
got=$(python3 "$k" gtest "$tmp/known4" "$tmp/ktap4" stock,split X,Y)
rc=$?
want=$(printf '%s\n' 'not ok 1 stock: P/S.T/0: x.cpp:7: Value of: ok' 'ok 2 stock: P/S.DISABLED_U # SKIP disabled' \
	'ok 3 stock: S.K # SKIP known failure: no SELinux' 'not ok 4 stock: X exited with 139' \
	'not ok 5 stock: S.Slow: Y timed out in it' 'not ok 6 stock: S.Next: not run (Y timed out before it)' \
	'ok 7 split: P/S.T/0' 'ok 8 split: P/S.DISABLED_U # SKIP disabled' \
	'ok 9 split: S.K # SKIP known failure: no SELinux' 'ok 10 split: S.Slow' 'ok 11 split: S.Next' \
	'not ok 12 S.Typo: in known-failures (no such case) but no test has that case')
result "$([ "$rc" = 1 ] && [ "$got" = "$want" ] && echo 1)" \
	"gtest: parameterized, disabled, a crash at exit beside a known failure, a timeout, a stale entry" \
	"exit $rc: $(diff <(echo "$want") <(echo "$got") | tr '\n' '|')"

# Every case passing on both drivers: exit 0. No output for a driver at all: one failure.
{
	run_ok | block stock W 0 3<<<$'S.\n  Pass'
	run_ok | block split W 0 3<<<$'S.\n  Pass'
} >"$tmp/ktap3"
got=$(python3 "$k" gtest /dev/null "$tmp/ktap3" stock,split W)
result "$([ $? = 0 ] && [ "$got" = $'ok 1 stock: S.Pass\nok 2 split: S.Pass' ] && echo 1)" \
	"gtest: exit 0 when every case passed on every driver" "$got"
got=$(python3 "$k" gtest /dev/null "$tmp/ktap3" stock,split,other W | tail -n1)
result "$([ "$got" = 'not ok 3 other: W: no result from the guest (the boot or the plan failed before it ran)' ] && echo 1)" \
	"gtest: a driver the guest never reached is a failure" "$got"
printf 'S.Pass\n' >"$tmp/bad"
got=$(python3 "$k" gtest "$tmp/bad" "$tmp/ktap3" stock,split W 2>&1)
result "$([ $? = 1 ] && [ "$got" = "ktap.py: error: gtest: $tmp/bad: expected 'SUITE.CASE REASON', got 'S.Pass'" ] && echo 1)" \
	"gtest: a known-failures line without a reason is an error" "$got"
echo "# $n tests, $fails failed"
[ "$fails" = 0 ]
