#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# selftests/binder_fuzz on the host, no binder needed: it builds without a warning; a seed
# makes the same program every time and seeds differ; the text form round-trips; the recorded
# seed-42.prog is what the generator makes of 42 (a change of the generator updates it on
# purpose: binder_fuzz -p -s 42 >tests/fuzz/seed-42.prog); a dry run's call trace is the same
# run to run and for a seed and its printed program; a mutant is fixed by its seed and differs;
# a dry run is KTAP, fixed by its seed, and leaves no process; bad options and program files get
# one "error:" line; a device that cannot be used is "not ok".
. "$(dirname "$0")/../lib.sh"
src=$top/selftests/binder_fuzz
f=$tmp/binder_fuzz

rc=0
make -C "$src" OUTPUT="$tmp" all >"$tmp/build.log" 2>&1 || rc=$?
result "$([ "$rc" = 0 ] && [ -x "$f" ] && echo 1)" "build: make all" \
	"exit $rc: $(grep -m1 -i error "$tmp/build.log")"
[ -x "$f" ] || { echo "# $n tests, $fails failed"; exit 1; }
result "$(grep -q 'warning:' "$tmp/build.log" || echo 1)" "build: no compiler warning (-Wall -Wextra)" \
	"$(grep -m1 'warning:' "$tmp/build.log")"
rc=0
make -C "$src" OUTPUT="$tmp" static >"$tmp/static.log" 2>&1 || rc=$?
result "$([ "$rc" = 0 ] && [ -x "$tmp/binder_fuzz-static" ] && echo 1)" \
	"build: make static (the guest's binder_fuzz-static)" "exit $rc: $(tail -n1 "$tmp/static.log")"

# A seed's program, twice; seeds 1..50, fifty programs.
a=$("$f" -p -s 42)
b=$("$f" -p -s 42)
result "$([ -n "$a" ] && [ "$a" = "$b" ] && echo 1)" "-p -s 42 twice prints the same program"
for s in $(seq 1 50); do "$f" -p -s "$s" | md5sum; done >"$tmp/sums"
result "$([ "$(sort -u "$tmp/sums" | wc -l)" = 50 ] && echo 1)" "seeds 1..50 make 50 different programs" \
	"$(sort -u "$tmp/sums" | wc -l) different"
head -n1 <<<"$a" | grep -qE '^binder_fuzz v1 procs=[234]$' &&
	! tail -n +2 <<<"$a" | grep -qvE '^p[0-3] [a-z_]+( |$)'
result "$([ $? = 0 ] && echo 1)" "a program: the header line, then one call per line (pN CALL ...)"

# Printing, parsing, printing: the same text.
bad=
for s in $(seq 1 200); do
	"$f" -p -s "$s" >"$tmp/p"
	"$f" -p -r "$tmp/p" >"$tmp/q" 2>&1 && cmp -s "$tmp/p" "$tmp/q" || bad="$bad $s"
done
result "$([ -z "$bad" ] && echo 1)" "print -> parse (-r) -> print round-trips for seeds 1..200" \
	"differs for seeds$bad"

"$f" -p -s 42 >"$tmp/42.prog"
result "$(cmp -s "$tmp/42.prog" "$top/tests/fuzz/seed-42.prog" && echo 1)" \
	"tests/fuzz/seed-42.prog is the program of seed 42" \
	"$(diff "$top/tests/fuzz/seed-42.prog" "$tmp/42.prog" | head -n4 | tr '\n' '|')"

# The dry executor's trace: the same twice, and the same for the recorded program of a seed.
trace() { "$f" --dry --trace "$@" | grep '^# trace '; }
t1=$(trace -s 42 -n 1)
t2=$(trace -s 42 -n 1)
result "$([ "$(wc -l <<<"$t1")" -ge 10 ] && [ "$t1" = "$t2" ] && echo 1)" \
	"--dry --trace -s 42 twice: the same call trace" "$(wc -l <<<"$t1") lines"
grep -q '^# trace p[0-3] ioctl BINDER_WRITE_READ write=[0-9]* read=[0-9]* hash=[0-9a-f]\{16\}$' <<<"$t1"
result "$([ $? = 0 ] && echo 1)" "the trace has BINDER_WRITE_READ lines with the bytes' hash"
t3=$(trace -r "$top/tests/fuzz/seed-42.prog")
result "$([ "$t1" = "$t3" ] && echo 1)" "--dry --trace -r seed-42.prog: the same trace as -s 42" \
	"$(diff <(echo "$t1") <(echo "$t3") | head -n4 | tr '\n' '|')"

# Mutants: the same for the same seed, other than their program, themselves programs.
m1=$("$f" -p -r "$tmp/42.prog" -m 7)
m2=$("$f" -p -r "$tmp/42.prog" -m 7)
result "$([ -n "$m1" ] && [ "$m1" = "$m2" ] && [ "$m1" != "$a" ] && echo 1)" \
	"-p -r F -m 7 twice: the same mutant, other than F"
bad=
for m in $(seq 1 100); do
	"$f" -p -r "$tmp/42.prog" -m "$m" >"$tmp/m"
	cmp -s "$tmp/m" "$tmp/42.prog" && bad="$bad $m"
	"$f" -p -r "$tmp/m" | cmp -s - "$tmp/m" || bad="$bad $m(round-trip)"
done
result "$([ -z "$bad" ] && echo 1)" "mutation seeds 1..100: each mutant differs and round-trips" \
	"bad:$bad"

# A dry run: KTAP with the figures, exit 0; fixed by -s; no process of it left.
out=$("$f" --dry -s 5 -n 30)
rc=$?
ok=1
for l in '^TAP version 13$' '^1\.\.1$' '^# prog 0 seed 0x5$' '^# programs run: 30$' '^# calls run: [1-9]' \
	'^# calls timed out: 0$' '^# programs per second: ' '^# corpus size: 0$' '^# kcov: not available' \
	'^ok 1 binder_fuzz$'; do
	grep -q "$l" <<<"$out" || { ok=0; echo "# missing: $l"; }
done
result "$([ "$rc" = 0 ] && [ "$ok" = 1 ] && echo 1)" "--dry -n 30: KTAP, a plan of 1, the figures, ok 1" \
	"exit $rc"
out2=$("$f" --dry -s 5 -n 30)
result "$([ "$(grep -v 'per second' <<<"$out")" = "$(grep -v 'per second' <<<"$out2")" ] &&
	[ "$(grep -c '^# prog ' <<<"$out")" = 30 ] && echo 1)" \
	"without kcov a run is fixed by -s: the same 30 programs twice"
result "$(pgrep -f "$f" >/dev/null || echo 1)" "no process of the run is left" "$(pgrep -af "$f")"

# A device that cannot be used: not ok, exit non-zero, one error line.
err=$("$f" -d "$tmp/no-such-binder" -n 1 2>&1 >"$tmp/out")
rc=$?
result "$([ "$rc" != 0 ] && grep -q '^not ok 1 binder_fuzz$' "$tmp/out" &&
	[ "$(grep -c 'error:' <<<"$err")" = 1 ] && echo 1)" \
	"-d a missing device: 'not ok 1 binder_fuzz', one error line, non-zero exit" "exit $rc: $err"

# Bad options and program files: one "error:" line each, a non-zero exit.
printf 'binder_fuzz v1 procs=2\np0 mmap size=4m prot=r\np0 frobnicate\n' >"$tmp/bad3"
printf 'binder_fuzz v1 procs=2\n# a comment\n\np1 wr txn h=0 objs=ptr:32:none:9\n' >"$tmp/bad4"
printf 'binder_fuzz v1 procs=2\np2 open\n' >"$tmp/bad2"
printf 'p0 open\n' >"$tmp/bad1"
expect_fail "an unknown option" "unknown option '-x'" "$f" -x
expect_fail "an unknown long option" "unknown option '--frob'" "$f" --frob
expect_fail "-s not a number" "-s: 'abc' is not a number" "$f" -s abc
expect_fail "-s without its argument" "'-s' needs an argument" "$f" -s
expect_fail "-n 0" "-n: run at least 1 program" "$f" -n 0
expect_fail "-t junk" "-t: 'junk' is not a number of seconds" "$f" -t junk
expect_fail "-r a missing file" "-r $tmp/none: No such file" "$f" -r "$tmp/none"
expect_fail "-r a file with an unknown call names its line" "bad3:3: unknown call at 'frobnicate'" \
	"$f" -p -r "$tmp/bad3"
expect_fail "-r a file with a bad object argument names its line" "bad4:4: bad object argument" \
	"$f" -r "$tmp/bad4"
expect_fail "-r a call by a process the program has not" "bad2:2: expected a process" \
	"$f" -p -r "$tmp/bad2"
expect_fail "-r a file without the header line" "bad1:1: expected 'binder_fuzz v1 procs=N'" \
	"$f" -p -r "$tmp/bad1"
expect_fail "-m without -r" "-m needs -r" "$f" -p -s 1 -m 7
expect_fail "-P 9" "-P: 2..4 processes, not 9" "$f" -P 9
expect_fail "-l 0" "-l: 1..64 calls" "$f" -l 0
expect_fail "-p without a program" "-p needs a program" "$f" -p
expect_fail "-k with --dry" "-k needs kcov" "$f" -k --dry
expect_fail "a stray argument" "unexpected argument 'x'" "$f" x
echo "# $n tests, $fails failed"
[ "$fails" = 0 ]
