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
#   prio       ARGS run by binder_prio_reclaim instead (PRIO=, default: the one in
#              ../binder_prio_reclaim): exit 0, every result of its plan ok, one well-formed
#              "# result class=..." line per result, of its name, with no errors and its
#              figures in order, and a reclaimer that scanned, with pages on binder's
#              freelist at its scans in shrinker mode
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
prio=${PRIO:-$here/../binder_prio_reclaim/binder_prio_reclaim}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# The PIDs of binder_throughput and binder_prio_reclaim processes (their comm: the name cut
# to 15 characters).
strays() {
	for p in /proc/[0-9]*; do
		case $(cat "$p/comm" 2>/dev/null) in
		binder_throughp | binder_prio_rec) echo "${p#/proc/}" ;;
		esac
	done | tr '\n' ' '
}

# check_prio LOG: why a binder_prio_reclaim run failed, or nothing.
check_prio() {
	awk '
		/^1\.\.[0-9]+$/ { plan = substr($0, 4) + 0 }
		/^ok [0-9]+ / { ok++; name[$3] = 1 }
		/^not ok / { bad++ }
		/^# result class=/ {
			results++
			if ($0 !~ /^# result class=[a-z0-9-]+( [a-z_0-9]+=[a-z_0-9]+)+$/) { form = $0; next }
			for (i = 3; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
			cls[v["class"]] = 1
			if (v["errors"] != 0) err = $3 " errors=" v["errors"]
			if (v["class"] == "reclaimer") {
				if (v["scans"] < 1) err = "the reclaimer made no scan"
				if (v["mode"] == "shrinker" && v["freelist_before_sum"] < 1)
					err = "no page on the freelist at any scan"
			} else if (v["calls"] < 1) {
				err = $3 " made no call"
			} else if (!(v["p99_ns"] <= v["p999_ns"] && v["p999_ns"] <= v["max_ns"] &&
				     v["avg_ns"] <= v["max_ns"])) {
				err = $3 " figures out of order (P99 <= P99.9 <= max, average <= max)"
			}
			delete v
		}
		END {
			for (c in cls) if (!(c in name)) err = "class=" c " has no ok result of its name"
			if (!plan) print "no plan line"
			else if (bad) print bad " results not ok"
			else if (ok != plan) print ok " ok of a plan of " plan
			else if (results != plan) print results " result lines for a plan of " plan
			else if (form != "") print "malformed: " form
			else if (err != "") print err
		}' "$1"
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
	prio)
		[ "$rc" = 0 ] || { echo "exit $rc"; return; }
		check_prio "$log"
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
	prog=$bt
	[ "$kind" != prio ] || prog=$prio
	echo "# === $name ($kind): ${prog##*/} $args"
	start=$(date +%s)
	if [ ! -x "$prog" ]; then
		echo "no $prog" >"$log"
		rc=127
	elif [ "$kind" = sigint ]; then
		$prog $args >"$log" 2>&1 </dev/null &
		pid=$!
		sleep 3
		kill -INT "$pid"
		wait "$pid"
		rc=$?
	else
		$prog $args >"$log" 2>&1 </dev/null
		rc=$?
	fi
	sed 's/^/# /' "$log"
	reason=$(check "$name" "$kind" "$rc" "$log")
	stray=$(strays)
	if [ -n "$stray" ]; then
		reason=${reason:-"stray processes: $stray"}
		kill -9 $stray 2>/dev/null
	fi
	skip=$(sed -n 's/^ok 1 [^ ]* # SKIP //p' "$log" | head -n1)
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
