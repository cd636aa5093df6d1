#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Bad input to binder_throughput's option parser and to selftest/selftest.sh: a
# non-zero exit and one error line naming the problem. Needs no binder: the
# parser runs before anything is opened or forked. Also the SKIP paths (not
# root; no binderfs on this host).
. "$(dirname "$0")/../lib.sh"

if ! make -s -C "$top/selftests/binder_throughput" OUTPUT="$tmp" >"$tmp/cc.log" 2>&1; then
	echo "not ok 1 build binder_throughput: $(head -n1 "$tmp/cc.log")"
	exit 1
fi
bt=$tmp/binder_throughput

# expect_fail DESC PATTERN CMD...: non-zero exit, exactly one "error:" line on
# stderr and it matches PATTERN, nothing on stdout.
expect_fail() {
	local desc=$1 pat=$2 err out rc ok=0
	shift 2
	out=$("$@" 2>"$tmp/err")
	rc=$?
	err=$(cat "$tmp/err")
	if [ "$rc" != 0 ] && [ -z "$out" ] && [ "$(printf '%s\n' "$err" | wc -l)" = 1 ] &&
		printf '%s' "$err" | grep -q "error:" && printf '%s' "$err" | grep -q -- "$pat"; then
		ok=1
	fi
	result $ok "$desc" "exit $rc: $err${out:+; stdout: $out}"
}

expect_fail "--mode foo" "--mode 'foo': not sync, oneway, pipeline or mixed" "$bt" --mode foo
expect_fail "-w 0" "-w '0': not a number from 2 to 256" "$bt" -w 0
expect_fail "-w abc" "-w 'abc'" "$bt" -w abc
expect_fail "-w -3" "-w '-3'" "$bt" -w -3
expect_fail "-w 1 (a worker does not call itself)" "-w '1': not a number from 2 to 256" "$bt" -w 1
expect_fail "-i 0" "-i '0'" "$bt" -i 0
expect_fail "-m 0" "-m '0'" "$bt" -m 0
expect_fail "--threads 0" "--threads '0'" "$bt" --threads 0
expect_fail "--server-threads 100" "--server-threads '100'" "$bt" --server-threads 100
expect_fail "--rounds 0" "--rounds '0'" "$bt" --rounds 0
expect_fail "--window 0" "--window '0'" "$bt" --mode pipeline --window 0
expect_fail "--window with sync" "--window 4: only for --mode oneway, pipeline or mixed" "$bt" --window 4
expect_fail "--faults with pipeline" "--faults: not with --mode pipeline" "$bt" --faults --mode pipeline
expect_fail "--faults with --alloc-bench" "--faults and --teardown: not with --alloc-bench" \
	"$bt" --faults --alloc-bench 1
# --fifo-threads, --nice-threads, --hogs (make bench's priority-inversion item).
expect_fail "--fifo-threads 0" "--fifo-threads '0': not a number from 1 to 64" "$bt" --fifo-threads 0
expect_fail "--fifo-threads with --threads" "--fifo-threads: not with --threads or --fifo" \
	"$bt" --fifo-threads 1 --threads 2
expect_fail "--fifo-threads with --fifo" "--fifo-threads: not with --threads or --fifo" \
	"$bt" --fifo-threads 1 --fifo
expect_fail "--fifo-threads with oneway" "--fifo-threads: only for --mode sync" \
	"$bt" --fifo-threads 1 --mode oneway
expect_fail "--nice-threads without --fifo-threads" "--nice-threads need --fifo-threads F" \
	"$bt" --nice-threads 8:19
expect_fail "--fifo-sleep without --fifo-threads" "--fifo-sleep and --nice-threads need --fifo-threads F" \
	"$bt" --fifo-sleep 100
expect_fail "--fifo-sleep over 1 s" "--fifo-sleep '2000000': not a number from 0 to 1000000" \
	"$bt" --fifo-threads 1 --fifo-sleep 2000000
expect_fail "--nice-threads without a nice" "--nice-threads '8': want N:NICE" \
	"$bt" --fifo-threads 1 --nice-threads 8
expect_fail "--nice-threads nice 20" "--nice-threads '8:20': nice '20' is not a number from -20 to 19" \
	"$bt" --fifo-threads 1 --nice-threads 8:20
expect_fail "--nice-threads 0 threads" "--nice-threads '0': not a number from 1 to 64" \
	"$bt" --fifo-threads 1 --nice-threads 0:19
expect_fail "--fifo-threads plus --nice-threads over 64" "--fifo-threads 40 and --nice-threads 30: more than 64 client threads" \
	"$bt" --fifo-threads 40 --nice-threads 30:19
expect_fail "--hogs 0" "--hogs '0': not a number from 1 to 64" "$bt" --hogs 0
expect_fail "--hogs with an unknown policy" "--hogs '2:rr:5': want H or H:fifo:PRIO" "$bt" --hogs 2:rr:5
expect_fail "--hogs FIFO priority at the servers'" "--hogs H:fifo: '49': not a number from 1 to 48" \
	"$bt" --hogs 2:fifo:49
expect_fail "FIFO hogs without --server-fifo" "--hogs 2:fifo:10: needs --server-fifo" "$bt" --hogs 2:fifo:10
expect_fail "--server-fifo with --alloc-bench" "--fifo-threads and --server-fifo: not with --alloc-bench (see --alloc-fifo)" \
	"$bt" --alloc-bench 1 --server-fifo
expect_fail "FIFO hogs with --alloc-bench" "--hogs 2:fifo:10: not with --alloc-bench (its hogs run at nice 0)" \
	"$bt" --alloc-bench 1 --hogs 2:fifo:10
expect_fail "--teardown 0" "--teardown '0'" "$bt" --teardown 0
expect_fail "mixed payload x window over half the buffer" "oneway buffer limit of 2097152 bytes" \
	"$bt" --mode mixed -s 300000
expect_fail "sync payload over the 4 MiB buffer" "-s 5000000: payload over binder's buffer limit of 4194304 bytes" \
	"$bt" -s 5000000
expect_fail "sync payload x callers over the buffer" "buffer limit of 4194304 bytes (the 4 MiB mapping): 7 callers" \
	"$bt" -w 8 -s 700000
expect_fail "oneway payload x window over half the buffer" "oneway buffer limit of 2097152 bytes" \
	"$bt" --mode oneway -s 300000
expect_fail "--pressure foo" "--pressure 'foo': unknown kind" "$bt" --pressure foo
expect_fail "--pressure drop_caches:x" "--pressure drop_caches: 'x'" "$bt" --pressure drop_caches:x
expect_fail "unknown long option" "unknown option '--bogus'" "$bt" --bogus
expect_fail "unknown short option" "unknown option '-x'" "$bt" -x
expect_fail "-d without a file" "-d: missing argument" "$bt" -d
expect_fail "--json without a file" "--json: missing argument" "$bt" --json
expect_fail "-d in a missing directory" "-d $tmp/no/such: No such file or directory" "$bt" -d "$tmp/no/such"
expect_fail "stray argument" "unexpected argument 'extra'" "$bt" extra
expect_fail "--timeout -1" "--timeout '-1'" "$bt" --timeout -1

out=$("$bt" --help 2>&1)
rc=$?
ok=0
[ "$rc" = 0 ] && printf '%s' "$out" | grep -q -- "--pressure drop_caches" && ok=1
result $ok "--help exits 0 and lists the options" "exit $rc"

# expect_skip DESC PATTERN CMD...: exit 4 (KSFT_SKIP) with a KTAP SKIP line.
expect_skip() {
	local desc=$1 pat=$2 out rc ok=0
	shift 2
	out=$("$@" 2>&1)
	rc=$?
	if [ "$rc" = 4 ] && printf '%s\n' "$out" | grep -q "^ok 1 binder_throughput # SKIP $pat"; then
		ok=1
	fi
	result $ok "$desc" "exit $rc: $(printf '%s' "$out" | tail -n1)"
}
if [ "$(id -u)" != 0 ]; then
	expect_skip "not root: SKIP" "not running as root" "$bt" -w 2 -i 10
elif command -v setpriv >/dev/null; then
	chmod 755 "$tmp"
	expect_skip "not root: SKIP" "not running as root" \
		setpriv --reuid=65534 --regid=65534 --clear-groups "$bt" -w 2 -i 10
else
	n=$((n + 1))
	echo "ok $n not root: SKIP # SKIP no setpriv to drop root"
fi
if [ "$(id -u)" = 0 ] && ! grep -qw binder /proc/filesystems; then
	expect_skip "no binderfs on this host: SKIP" "no binderfs" "$bt" -w 2 -i 10
	n=$((n + 1))
	if ls -d /tmp/binder_throughput_* >/dev/null 2>&1; then
		echo "not ok $n no mount point left in /tmp after the SKIP"
		fails=$((fails + 1))
	else
		echo "ok $n no mount point left in /tmp after the SKIP"
	fi
else
	n=$((n + 1))
	echo "ok $n no binderfs: SKIP # SKIP needs root on a host without binder"
fi

# --alloc-bench (make bench's item 0) and its options.
expect_fail "--alloc-bench out of range" "--alloc-bench '9': not a number from 1 to 8" "$bt" --alloc-bench 9
expect_fail "--alloc-max over the module's limit" "--alloc-max '300000': not a number from 8 to 262144" \
	"$bt" --alloc-bench 1 --alloc-max 300000
expect_fail "--alloc-shrink without --alloc-bench" "need --alloc-bench N" "$bt" --alloc-shrink
expect_fail "--alloc-fifo without --alloc-bench" "need --alloc-bench N" "$bt" --alloc-fifo
expect_fail "--alloc-cold without --alloc-bench" "need --alloc-bench N" "$bt" --alloc-cold
expect_fail "--alloc-bench 8 --alloc-fifo" "--alloc-bench 8 --alloc-fifo: at most 7 (the SCHED_FIFO kthread is the 8th)" \
	"$bt" --alloc-bench 8 --alloc-fifo
expect_fail "--alloc-cold with --alloc-shrink" "--alloc-cold: not with --alloc-shrink or --alloc-fifo" \
	"$bt" --alloc-bench 2 --alloc-cold --alloc-shrink
expect_fail "--alloc-cold with --alloc-fifo" "--alloc-cold: not with --alloc-shrink or --alloc-fifo" \
	"$bt" --alloc-bench 2 --alloc-cold --alloc-fifo

# selftest/selftest.sh rejects what it cannot use before booting anything.
expect_fail "selftest.sh: unknown plan" "unknown plan 'nope'" "$top/selftest/selftest.sh" nope
expect_fail "selftest.sh: KERNEL that does not exist" "KERNEL=$tmp/bzImage: no such file" \
	env KERNEL="$tmp/bzImage" "$top/selftest/selftest.sh"
: >"$tmp/bzImage"
expect_fail "selftest.sh: KOS that does not exist" "KOS: $tmp/x.ko: no such file" \
	env KERNEL="$tmp/bzImage" KOS="$tmp/x.ko" "$top/selftest/selftest.sh"
[ "$fails" = 0 ]
