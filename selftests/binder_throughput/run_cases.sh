#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# run_cases.sh [CASES]: binder_throughput's cases, as KTAP, one result per case. CASES
# (default: plans/check beside this script) has one case per line, "NAME CHECK ARGS...", run
# as binder_throughput ARGS (BT=, default: the binder_throughput beside this script):
#   -          exit 0, KTAP "ok 1", and binderThroughputTest's result lines
#   reclaim    the same, and "reclaimed pages: N" with N > 0
#   files      the same, and ARGS' -d /tmp/NAME.ns holds one sample per transaction and
#              --json /tmp/NAME.json says "result": "ok"
#   inversion  files, and the --fifo-threads line counts every timed call and the
#              --nice-threads line is there
#   sigint     SIGINT after 3 s: exit non-zero, "interrupted by signal 2"
#   timeout    exit non-zero, "timed out after"
# Every case also checks that no binder_throughput process is left behind. A case that
# binder_throughput skips (not root, no binderfs) is a SKIP. Each case's output follows its
# "# === NAME" line as "# " lines. Exit 0 when no case failed, else 1 (KSFT_FAIL); 4 (KSFT_SKIP)
# when every case was skipped.
# POSIX sh: it runs under busybox in make check's guest and under the kselftest runner
# (make run_tests), where it is registered as TEST_PROGS.
set -u
here=$(dirname "$0")
bt=${BT:-$here/binder_throughput}
cases=${1:-$here/plans/check}
[ -f "$cases" ] || { echo "run_cases.sh: error: no cases file $cases" >&2; exit 1; }
[ -x "$bt" ] || { echo "run_cases.sh: error: no binder_throughput at $bt" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# The PIDs of binder_throughput processes (their comm: the name cut to 15 characters).
strays() {
	for p in /proc/[0-9]*; do
		[ "$(cat "$p/comm" 2>/dev/null)" = binder_throughp ] && echo "${p#/proc/}"
	done | tr '\n' ' '
}

# check NAME CHECK RC LOG: why the case failed, or nothing.
check() {
	name=$1 kind=$2 rc=$3 log=$4
	case $kind in
	- | reclaim | files | inversion)
		[ "$rc" = 0 ] && grep -q '^ok 1 binder_throughput$' "$log" || { echo "exit $rc, no ok line"; return; }
		for l in 'iterations per sec: ' 'average: ' '50%: '; do
			grep -q "^# $l" "$log" || { echo "no '$l' line"; return; }
		done
		if [ "$kind" = files ] || [ "$kind" = inversion ]; then
			want=$(sed -n 's/^# round [0-9/]*: \([0-9][0-9]*\) transactions.*/\1/p' "$log" |
				awk '{ n += $1 } END { print n + 0 }')
			got=$(wc -l <"/tmp/$name.ns")
			[ "$got" = "$want" ] && [ "$want" -gt 0 ] || { echo "-d file has $got samples, want $want"; return; }
			grep -q '"result": "ok"' "/tmp/$name.json" || { echo "no ok result in the JSON"; return; }
		fi
		if [ "$kind" = inversion ]; then
			grep -q "^# SCHED_FIFO callers: ${want:-0} calls, " "$log" ||
				{ echo "no 'SCHED_FIFO callers: ${want:-0} calls' line"; return; }
			grep -q '^# nice 19 callers: [0-9][0-9]* calls by 4 threads' "$log" ||
				{ echo "no 'nice 19 callers' line"; return; }
		fi
		if [ "$kind" = reclaim ]; then
			n=$(sed -n 's/^# reclaimed pages: \([0-9][0-9]*\).*/\1/p' "$log")
			[ "${n:-0}" -gt 0 ] || echo "no pages reclaimed (${n:-no count})"
		fi
		;;
	sigint)
		[ "$rc" != 0 ] && grep -q 'interrupted by signal 2' "$log" &&
			grep -q '^not ok 1 binder_throughput' "$log" || echo "exit $rc after SIGINT"
		;;
	timeout)
		[ "$rc" != 0 ] && grep -q 'timed out after' "$log" || echo "exit $rc, no timeout"
		;;
	*)
		echo "unknown check '$kind'"
		;;
	esac
}

total=$(awk '$1 != "" && $1 !~ /^#/' "$cases" | wc -l) # as the loop below reads them
echo "TAP version 13"
echo "1..$total"
n=0
fails=0
skips=0
while read -r name kind args; do
	case $name in '' | '#'*) continue ;; esac
	n=$((n + 1))
	log=$tmp/$name.log
	echo "# === $name ($kind): binder_throughput $args"
	start=$(date +%s)
	if [ "$kind" = sigint ]; then
		$bt $args >"$log" 2>&1 </dev/null &
		pid=$!
		sleep 3
		kill -INT "$pid"
		wait "$pid"
		rc=$?
	else
		$bt $args >"$log" 2>&1 </dev/null
		rc=$?
	fi
	sed 's/^/# /' "$log"
	reason=$(check "$name" "$kind" "$rc" "$log")
	stray=$(strays)
	if [ -n "$stray" ]; then
		reason=${reason:-"stray processes: $stray"}
		kill -9 $stray 2>/dev/null
	fi
	skip=$(sed -n 's/^ok 1 binder_throughput # SKIP //p' "$log")
	if [ -z "$reason" ]; then
		echo "ok $n $name ($(($(date +%s) - start)) s)"
	elif [ "$rc" = 4 ] && [ -n "$skip" ]; then
		echo "ok $n $name # SKIP $skip"
		skips=$((skips + 1))
	else
		echo "# $name: $reason"
		echo "not ok $n $name"
		fails=$((fails + 1))
	fi
done <"$cases"
[ "$fails" = 0 ] || exit 1
[ "$skips" -lt "$n" ] || exit 4 # KSFT_SKIP: nothing was tested
