#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# binder_throughput's option contract: what a bad command line gets (exit 2, nothing on stdout,
# exactly one "binder_throughput: error: ..." line naming the real limit) for the ranges, the
# number syntax, stray arguments, and the combinations it refuses; and that the neighbouring
# good command lines are not refused. Needs no binder: the parser runs before anything is
# opened or forked, and a good command line ends in a SKIP (or a short run) on the host.
. "$(dirname "$0")/../lib.sh"

if ! make -s -C "$top/selftests/binder_throughput" OUTPUT="$tmp" >"$tmp/cc.log" 2>&1; then
	result 0 "build binder_throughput" "$(head -n1 "$tmp/cc.log")"
	exit 1
fi
bt=$tmp/binder_throughput

# refused DESC MESSAGE ARGS...: refused_by (tests/lib.sh) of binder_throughput.
refused() { refused_by "$bt" "$@"; }

# accepted DESC ARGS...: not a command line error (the host SKIPs it, or runs it).
accepted() {
	local desc=$1 rc ok=0
	shift
	"$bt" "$@" --timeout 60 >"$tmp/out" 2>"$tmp/err" </dev/null
	rc=$?
	[ "$rc" != 2 ] && [ ! -s "$tmp/err" ] && ok=1
	result $ok "$desc" "exit $rc: $(head -c 300 "$tmp/err")"
}

# -w: one range, 2 to 256, stated once (in the error and in --help).
refused "-w 0: the real range" "-w '0': not a number from 2 to 256" -w 0
refused "-w 1: the same range, not another message" "-w '1': not a number from 2 to 256" -w 1
refused "-w 257" "-w '257': not a number from 2 to 256" -w 257
"$bt" --help >"$tmp/help" 2>&1
result "$(grep -q -- '-w N  *workers, 2 to 256' "$tmp/help" && echo 1)" "--help states -w's range"
accepted "-w 2 is in range" -w 2 -i 5

# Numbers: digits only, like every other bad number (strtoul() takes blanks and a sign).
refused "-w ' 3': a leading space" "-w ' 3': not a number from 2 to 256" -w ' 3'
refused "-i +5: a sign" "-i '+5': not a number from 1 to 100000000" -i +5
refused "-s ' 1': a leading space" "-s ' 1': not a number from 0 to 2147483647" -s ' 1'
refused "--pressure drop_caches:+5" "--pressure drop_caches: '+5': not a number from 0 to 60000" \
	--pressure drop_caches:+5
refused "--nice-threads 1:+5: a sign on the nice" \
	"--nice-threads '1:+5': nice '+5' is not a number from -20 to 19" \
	--fifo-threads 1 --nice-threads 1:+5
refused "--nice-threads '1: 5': a space before the nice" \
	"--nice-threads '1: 5': nice ' 5' is not a number from -20 to 19" \
	--fifo-threads 1 --nice-threads '1: 5'
accepted "--nice-threads 1:-5: a negative nice is a number" -i 5 --fifo-threads 1 --nice-threads 1:-5

# Stray arguments are an error, with -h too.
refused "-h extra: a stray argument" "unexpected argument 'extra' (see --help)" -h extra
refused "--help extra" "unexpected argument 'extra' (see --help)" --help extra
"$bt" -h >"$tmp/out" 2>&1
rc=$?
result "$([ "$rc" = 0 ] && grep -q '^usage: binder_throughput' "$tmp/out" && echo 1)" \
	"-h alone prints the help and exits 0" "exit $rc"

# --alloc-bench makes no transactions: it refuses their options instead of ignoring them.
refused "--alloc-bench with --mode" "--alloc-bench: not with --mode (an option of transaction runs)" \
	--alloc-bench 1 --mode oneway
refused "--alloc-bench with -p" "--alloc-bench: not with -p (an option of transaction runs)" \
	--alloc-bench 1 -p
refused "--alloc-bench with -w" "--alloc-bench: not with -w (an option of transaction runs)" \
	-w 4 --alloc-bench 1
refused "--alloc-bench with -i" "--alloc-bench: not with -i (an option of transaction runs)" \
	--alloc-bench 1 -i 5
refused "--alloc-bench with -d" "--alloc-bench: not with -d (an option of transaction runs)" \
	--alloc-bench 1 -d "$tmp/d"
result "$([ ! -e "$tmp/d" ] && echo 1)" "--alloc-bench with -d: refused before -d's file is made"
refused "--alloc-bench with --mem-stats" \
	"--alloc-bench: not with --mem-stats (an option of transaction runs)" \
	--alloc-bench 1 --mem-stats
accepted "--alloc-bench with --hogs H, --json and --timeout" \
	--alloc-bench 1 --alloc-ms 10 --hogs 1 --json "$tmp/a.json"

# -p: pairs need an even -w.
refused "-p -w 3: uneven pairs" "-p with -w 3: client/server pairs need an even number of workers" \
	-p -w 3
accepted "-p -w 4" -p -w 4 -i 5

# --random-size needs a payload to draw from.
refused "--random-size without -s" "--random-size: needs -s N, the largest payload (N > 0)" \
	--random-size
refused "--random-size -s 0" "--random-size: needs -s N, the largest payload (N > 0)" \
	--random-size -s 0
accepted "--random-size -s 100" --random-size -s 100 -i 5

# The samples' limit names its factors and the real round count, not -i alone.
refused "-w 256 --threads 64 --server-threads 64: the samples' limit" \
	"163840000 latency samples per round (256 calling workers x 64 timed threads x -i 10000), kept for --rounds 1 plus one round to sort: over the limit of 134217728 samples" \
	-w 256 --threads 64 --server-threads 64
refused "--rounds in the samples' limit" \
	"1638400 latency samples per round (256 calling workers x 64 timed threads x -i 100), kept for --rounds 100 plus one round to sort: over the limit of 134217728 samples" \
	-w 256 --threads 64 -i 100 --rounds 100

# --help lists every failure --faults counts (the README points to --help for them).
result "$(grep -q 'BR_FROZEN_REPLY' "$tmp/help" && echo 1)" "--help: --faults counts BR_FROZEN_REPLY"
[ "$fails" = 0 ]
