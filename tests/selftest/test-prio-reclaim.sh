#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# selftests/binder_prio_reclaim with no binder: it builds without a warning; a bad command line
# gets exit 2, nothing on stdout and exactly one "binder_prio_reclaim: error: ..." line, and
# the neighbouring good ones are not refused; what it cannot do is a KTAP SKIP of every result
# with exit 4; and run_cases.sh's "prio" check, fed made-up output, passes a good run and
# fails each thing it checks.
. "$(dirname "$0")/../lib.sh"

if ! make -s -C "$top/selftests/binder_prio_reclaim" OUTPUT="$tmp" >"$tmp/cc.log" 2>&1 ||
	grep -qi warning "$tmp/cc.log"; then
	result 0 "build binder_prio_reclaim without warnings" "$(head -n1 "$tmp/cc.log")"
	exit 1
fi
result 1 "build binder_prio_reclaim without warnings"
bpr=$tmp/binder_prio_reclaim

# refused DESC MESSAGE ARGS...: refused_by (tests/lib.sh) of binder_prio_reclaim.
refused() { refused_by "$bpr" "$@"; }

# accepted DESC ARGS...: not a command line error. The reclaimer is pointed at a debugfs
# without binder's shrinker, so that a host with binder skips instead of running.
accepted() {
	local desc=$1 rc ok=0
	shift
	"$bpr" -d /dev/null --debugfs "$tmp/nodebugfs" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
	rc=$?
	[ "$rc" = 4 ] && [ ! -s "$tmp/err" ] && ok=1
	result $ok "$desc" "exit $rc: $(head -c 300 "$tmp/err")"
}

refused "-n 0" "-n '0': not a number from 1 to 10000000" -n 0
refused "-n +5: a sign" "-n '+5': not a number from 1 to 10000000" -n +5
refused "-l 65" "--loopers '65': not a number from 1 to 64" --loopers 65
refused "--classes fifo100" "--classes fifo priority '100': not a number from 1 to 99" -c fifo100:1
refused "--classes nice-21" "--classes nice '-21': not a number from -20 to 19" -c nice-21:1
refused "--classes without threads" "--classes 'fifo1': 'fifo1' is not CLASS:THREADS" -c fifo1
refused "--classes of an unknown class" \
	"--classes 'idle:1': unknown class 'idle' (want fifoP or niceN)" -c idle:1
refused "--classes with a class twice" "--classes 'nice0:1,nice0:2': class nice0 twice" -c nice0:1,nice0:2
refused "--classes over 256 threads" "--classes 'fifo1:200,nice0:57': 257 threads, over 256" \
	-c fifo1:200,nice0:57
refused "--classes with an empty item" "--classes 'fifo1:1,': '' is not CLASS:THREADS" -c fifo1:1,
refused "--classes: fifo099 is fifo99" "--classes 'fifo099:1,fifo99:1': class fifo99 twice" \
	-c fifo099:1,fifo99:1
refused "requests that cannot fit the server's mapping" \
	"--classes and --sizes: 9 threads x 262144 bytes, over 2 MiB of the server's 4 MiB binder mapping" \
	-c fifo1:9 -s 16:262144
refused "more latencies than it keeps" "--classes and --calls: 8 threads x 10000000 calls, over 67108864" \
	-n 10000000
refused "--sizes under the header" "--sizes MIN '8': not a number from 16 to 262144" -s 8:100
refused "--sizes MIN over MAX" "--sizes '200:100': MIN over MAX" -s 200:100
refused "--reclaim of an unknown mode" \
	"--reclaim 'kswapd': unknown mode (want shrinker[:MS], drop_caches[:MS] or none)" -r kswapd
refused "--reclaim period 0" "--reclaim period '0': not a number from 1 to 60000" -r shrinker:0
refused "an option without its value" "-t: needs a value (see --help)" -t
refused "an unknown option" "unknown option '--fast' (see --help)" --fast 1
refused "a stray argument" "unexpected argument 'extra' (see --help)" extra
refused "-h with a stray argument" "unexpected argument 'extra' (see --help)" -h extra
"$bpr" -h >"$tmp/out" 2>&1
rc=$?
result "$([ "$rc" = 0 ] && grep -q '^usage: binder_prio_reclaim' "$tmp/out" &&
	grep -q -- '-n, --calls N  *calls per client thread, 1 to 10000000' "$tmp/out" && echo 1)" \
	"-h prints the help, with -n's range, and exits 0" "exit $rc"

accepted "the defaults" -n 1
accepted "the limit run: SCHED_FIFO 99 alone" -n 1 -c fifo99:1
accepted "the edges of the ranges" -n 8000000 -l 64 -s 16:262144 -r shrinker:60000 -c nice-20:4,nice19:4
accepted "drop_caches, a period, handle 0" -n 1 -r drop_caches:5 --handle0 -r shrinker

# What it cannot do: every result a SKIP, and exit 4.
"$bpr" -d /dev/null --debugfs "$tmp/nodebugfs" -n 1 >"$tmp/out" 2>&1
rc=$?
result "$([ "$rc" = 4 ] && sed -n 2p "$tmp/out" | grep -qx '1\.\.5' &&
	[ "$(grep -c '^ok [1-5] [a-z0-9-]* # SKIP ' "$tmp/out")" = 5 ] &&
	{ grep -q "SKIP no binder shrinker in $tmp/nodebugfs/shrinker" "$tmp/out" ||
		grep -q 'SKIP cannot set every class' "$tmp/out"; } && echo 1)" \
	"no binder shrinker in debugfs: every result a SKIP with the reason, exit 4" \
	"exit $rc: $(tr '\n' '|' <"$tmp/out")"

# run_cases.sh's check "prio", against a stand-in that prints FAKE's output.
rc_=$top/selftests/binder_throughput/run_cases.sh
sh=sh
command -v busybox >/dev/null && sh="busybox sh"
cat >"$tmp/fake" <<'EOS'
#!/bin/sh
cat "$FAKE"
exit "${FAKE_RC:-0}"
EOS
chmod +x "$tmp/fake"
good() {
	cat <<'EOS'
TAP version 13
1..3
# binder_prio_reclaim: 2 loopers
# result class=fifo99 threads=2 calls=600 errors=0 avg_ns=1 p99_ns=2 p999_ns=3 max_ns=4 over_1ms=0 over_10ms=0
ok 1 fifo99
# result class=nice19 threads=2 calls=600 errors=0 avg_ns=1 p99_ns=2 p999_ns=3 max_ns=4 over_1ms=0 over_10ms=0
ok 2 nice19
# result class=reclaimer mode=shrinker period_ms=10 scans=50 errors=0 elapsed_ns=500000000 freelist_before_sum=9 freelist_after_sum=0
ok 3 reclaimer
# Totals: pass:3 fail:0 xfail:0 xpass:0 skip:0 error:0
EOS
}
echo "case1 prio -n 300" >"$tmp/cases"
# prio_case DESC WANT SED: the run with the good output edited by SED; WANT: ok, or the reason.
prio_case() {
	local rc
	good | sed -e "$3" >"$tmp/fake.out"
	env BT="$tmp/fake" PRIO="$tmp/fake" FAKE="$tmp/fake.out" $sh "$rc_" "$tmp/cases" >"$tmp/rc.out" 2>&1
	rc=$?
	if [ "$2" = ok ]; then
		result "$([ "$rc" = 0 ] && grep -q '^ok 1 case1' "$tmp/rc.out" && echo 1)" "$1" "exit $rc"
	else
		result "$([ "$rc" = 1 ] && grep -q '^not ok 1 case1$' "$tmp/rc.out" &&
			grep -qF "# case1: $2" "$tmp/rc.out" && echo 1)" "$1" \
			"exit $rc: $(grep '^# case1:' "$tmp/rc.out")"
	fi
}
prio_case "prio: a good run passes" ok ''
prio_case "prio: a result not ok fails" "1 results not ok" 's/^ok 2 nice19/not ok 2 nice19/'
prio_case "prio: a result line missing fails" "2 result lines for a plan of 3" '/class=nice19/d'
prio_case "prio: a result missing fails" "2 ok of a plan of 3" '/^ok 2 /d'
prio_case "prio: a malformed result line fails" "malformed: # result class=nice19 threads=2 calls=" \
	's/class=nice19 threads=2 calls=600/class=nice19 threads=2 calls=/'
prio_case "prio: a class with errors fails" "class=fifo99 errors=1" '/fifo99/s/errors=0/errors=1/'
prio_case "prio: a class with no call fails" "class=nice19 made no call" '/nice19/s/calls=600/calls=0/'
prio_case "prio: a reclaimer that made no scan fails" "the reclaimer made no scan" 's/scans=50/scans=0/'
prio_case "prio: shrinker scans with an empty freelist fail" "no page on the freelist at any scan" \
	's/freelist_before_sum=9/freelist_before_sum=0/'
prio_case "prio: drop_caches needs no freelist count" ok \
	's/mode=shrinker/mode=drop_caches/; s/freelist_before_sum=9/freelist_before_sum=0/'
prio_case "prio: a result line of no result's name fails" "class=fifo98 has no ok result of its name" \
	's/class=fifo99/class=fifo98/'
prio_case "prio: P99.9 over max fails" "class=nice19 figures out of order" '/nice19/s/p999_ns=3/p999_ns=5/'
prio_case "prio: an average over max fails" "class=fifo99 figures out of order" '/fifo99/s/avg_ns=1/avg_ns=9/'
good >"$tmp/fake.out"
env BT="$tmp/fake" PRIO="$tmp/fake" FAKE="$tmp/fake.out" FAKE_RC=1 $sh "$rc_" "$tmp/cases" >"$tmp/rc.out" 2>&1
rc=$?
result "$([ "$rc" = 1 ] && grep -q '^# case1: exit 1$' "$tmp/rc.out" && echo 1)" "prio: a non-zero exit fails" "exit $rc"
printf '%s\n' "TAP version 13" "1..1" "ok 1 fifo99 # SKIP no binderfs in this kernel" >"$tmp/fake.out"
env BT="$tmp/fake" PRIO="$tmp/fake" FAKE="$tmp/fake.out" FAKE_RC=4 $sh "$rc_" "$tmp/cases" >"$tmp/rc.out" 2>&1
rc=$?
result "$([ "$rc" = 4 ] && grep -q '^ok 1 case1 # SKIP no binderfs in this kernel$' "$tmp/rc.out" && echo 1)" \
	"prio: a run that skips is a SKIP" "exit $rc: $(grep 'case1' "$tmp/rc.out" | tail -1)"
env BT="$tmp/fake" PRIO="$tmp/none" $sh "$rc_" "$tmp/cases" >"$tmp/rc.out" 2>&1
rc=$?
result "$([ "$rc" = 1 ] && grep -q '^not ok 1 case1$' "$tmp/rc.out" && echo 1)" "prio: no binder_prio_reclaim fails the case" "exit $rc"
[ "$fails" = 0 ]
