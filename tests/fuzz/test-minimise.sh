#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The minimiser of selftests/binder_fuzz (-M), on the planted build's known crash: with
# -DBINDER_FUZZ_PLANTED the dry executor's process abort()s when it issues BC_FREE_BUFFER after
# a munmap of its own in the same program. Seed 12 is the first seed whose program does that
# (searched here in 1..12 with a reading of the printed programs, checked against the planted
# run itself). Minimised, it is exactly the crash's two calls: the munmap and the
# BINDER_WRITE_READ with the BC_FREE_BUFFER alone, by the same process; the dry executor needs
# nothing else (no mmap before the munmap: it maps nothing; no other process), so nothing else
# may stay. The result still crashes, replayed (-r) and minimised again. A program that does
# not crash (the normal build runs the same seed without the planted bug): exit 1, one line.
. "$(dirname "$0")/../lib.sh"
src=$top/selftests/binder_fuzz
f=$tmp/binder_fuzz
fp=$tmp/binder_fuzz-planted
seed=12

rc=0
make -C "$src" OUTPUT="$tmp" all planted >"$tmp/build.log" 2>&1 || rc=$?
result "$([ "$rc" = 0 ] && [ -x "$f" ] && [ -x "$fp" ] && echo 1)" "build: make all planted" \
	"exit $rc: $(grep -m1 -i error "$tmp/build.log")"
[ -x "$fp" ] || { echo "# $n tests, $fails failed"; exit 1; }

# crashes SEED: whether SEED's program has a process that munmaps and then, without an exit
# in between, issues a free (the planted bug), read from its text.
crashes() {
	"$f" -p -s "$1" | awk 'NR > 1 {
		p = $1
		if (gone[p]) next
		if ($2 == "exit") gone[p] = 1
		if ($2 == "munmap") un[p] = 1
		if ($2 == "wr" && un[p] && / (wr|;) free /) { hit = 1; exit }
	} END { exit !hit }'
}
first=
for s in $(seq 1 2000); do
	crashes "$s" && { first=$s; break; }
done
result "$([ "$first" = "$seed" ] && echo 1)" "the first seed whose program crashes the planted build is $seed" \
	"found ${first:-none}"
out=$("$fp" --dry -s "$seed" -n 1)
result "$(grep -q '^# killed: program 0, p[0-3], by signal 6 (Aborted)$' <<<"$out" && echo 1)" \
	"the planted dry run of seed $seed has a process killed by SIGABRT" "$(grep killed <<<"$out")"
out=$("$fp" --dry -s $((seed - 1)) -n 1)
result "$(grep -q '^# processes killed by a signal: 0$' <<<"$out" && echo 1)" \
	"the planted dry run of seed $((seed - 1)) has none"
"$f" -p -s "$seed" >"$tmp/orig.prog"
calls=$(($(wc -l <"$tmp/orig.prog") - 1))
result "$([ "$calls" -gt 2 ] && echo 1)" "seed $seed's program has more calls than the crash needs ($calls)"

# Minimised: the munmap and the free of one process, nothing else, and it still crashes.
rc=0
"$fp" -M --dry -s "$seed" >"$tmp/min.prog" 2>"$tmp/min.err" || rc=$?
body=$(tail -n +2 "$tmp/min.prog")
p=$(head -c2 <<<"$body")
ok=0
[ "$rc" = 0 ] && [ "$(wc -l <<<"$body")" = 2 ] && [ "$(head -n1 "$tmp/min.prog")" = "$(head -n1 "$tmp/orig.prog")" ] &&
	grep -qxE "$p munmap part=[a-z]+" <<<"$(sed -n 1p <<<"$body")" &&
	grep -qxE "$p wr free buf=[a-z]+" <<<"$(sed -n 2p <<<"$body")" && ok=1
result "$ok" "-M --dry -s $seed: exactly 'pN munmap' then 'pN wr free' of one process" \
	"exit $rc: $(tr '\n' '|' <"$tmp/min.prog") $(cat "$tmp/min.err")"
free=${body##*$'\n'}
grep -qxF -- "$(sed -n 1p <<<"$body")" "$tmp/orig.prog" &&
	grep -qE "^$p wr (.* ; )?${free#"$p wr "}( ;|$)" "$tmp/orig.prog"
result "$([ $? = 0 ] && echo 1)" "the minimal calls are the original's (the free is one of its wr's commands)"
result "$(grep -qx "binder_fuzz: minimised $calls calls to 2" "$tmp/min.err" && echo 1)" \
	"it says how far it minimised" "$(cat "$tmp/min.err")"
out=$("$fp" --dry -r "$tmp/min.prog")
result "$(grep -q 'by signal 6 (Aborted)' <<<"$out" && echo 1)" "the minimal program still crashes (-r)"
rc=0
again=$("$fp" -M --dry -r "$tmp/min.prog" 2>/dev/null) || rc=$?
result "$([ "$rc" = 0 ] && [ "$again" = "$(cat "$tmp/min.prog")" ] && echo 1)" \
	"minimising it again reproduces and keeps it as it is" "exit $rc"

# No crash: exit 1 and one line that says so, nothing on stdout.
for build in "$f" "$fp"; do
	case $build in
	"$f") what="seed $seed without the planted bug" args=(-s "$seed") ;;
	*) what="seed-42.prog (no munmap) in the planted build" args=(-r "$top/tests/fuzz/seed-42.prog") ;;
	esac
	rc=0
	"$build" -M --dry "${args[@]}" >"$tmp/none.out" 2>"$tmp/none.err" || rc=$?
	result "$([ "$rc" = 1 ] && [ ! -s "$tmp/none.out" ] && [ "$(wc -l <"$tmp/none.err")" = 1 ] &&
		grep -q 'does not reproduce' "$tmp/none.err" && echo 1)" \
		"-M of $what: exit 1, one line" "exit $rc: $(cat "$tmp/none.err")"
done
echo "# $n tests, $fails failed"
[ "$fails" = 0 ]
