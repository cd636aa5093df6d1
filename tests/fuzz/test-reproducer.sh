#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# fuzz/reproducer.sh, make fuzz's pick of the program before a splat, on made-up console logs:
# a splat after a mutant of a corpus entry whose block has the kernel's lines in it and that is
# printed again after the splat (the ring of 512 wrapped); a splat after a fresh program; the
# splat is the first one, not the last; no splat; no program before the splat; bad input.
. "$(dirname "$0")/../lib.sh"
r=$top/fuzz/reproducer.sh
f=$tmp/binder_fuzz
make -s -C "$top/selftests/binder_fuzz" OUTPUT="$tmp" all >"$tmp/build.log" 2>&1
result "$([ -x "$f" ] && echo 1)" "build: make all" "$(head -n1 "$tmp/build.log")"
[ -x "$f" ] || exit 1

# kmsg LINE...: console lines as binder_fuzz -L writes them.
kmsg() { for l; do printf '[   12.345678] binder_fuzz: %s\n' "$l"; done; }
entry() { "$f" -p -s "$1" | sed 's/^/# | /'; }
{
	kmsg "# prog 0 seed 0x5" "# corpus 0:"
	mapfile -t e <<<"$(entry 5)"
	kmsg "${e[@]}"
	kmsg "# prog 1 seed 0x7" "# corpus 1:"
	mapfile -t e <<<"$(entry 7)"
	kmsg "${e[@]:0:3}"
	echo "[   12.4] binder_alloc_split: 336:336 ioctl c0306201 7fff71d0eb10 returned -22"
	kmsg "${e[@]:3}"
	kmsg "# prog 2 mutant of corpus 1 seed 0x9"
	echo "[   12.5] BUG: KASAN: slab-use-after-free in binder_alloc_free_page+0x10/0x20"
	kmsg "# corpus 1:"
	mapfile -t e <<<"$(entry 11)"
	kmsg "${e[@]}"
	kmsg "# prog 3 seed 0xb"
	echo "[   13.0] WARNING: CPU: 0 PID: 1 at drivers/android/binder_alloc.c:1 f+0x0/0x1"
} >"$tmp/mutant.log"
printf '%s\n' "$(entry 7)" | sed 's/^# | //' >"$tmp/e7"
"$f" -p -r "$tmp/e7" -m 0x9 >"$tmp/want"
o=$("$r" "$tmp/mutant.log" "$f" 2>&1)
result "$([ "$o" = "$(cat "$tmp/want")" ] && echo 1)" \
	"after a mutant: corpus entry 1 as it was before the splat, mutated with its seed" "$o"
result "$(! "$f" -p -r "$tmp/e7" | cmp -s - "$tmp/want" && echo 1)" "the mutant differs from its entry"
{
	kmsg "# prog 0 seed 0x5" "# prog 1 seed 0xb"
	echo "[   13.0] WARNING: CPU: 0 PID: 1 at drivers/android/binder_alloc.c:1 f+0x0/0x1"
	kmsg "# prog 2 seed 0x7"
	echo "[   14.0] BUG: KASAN: slab-use-after-free in binder_alloc_free_page+0x10/0x20"
} >"$tmp/fresh.log"
o=$("$r" "$tmp/fresh.log" "$f" 2>&1)
result "$([ "$o" = "$("$f" -p -s 0xb)" ] && echo 1)" "after a fresh program: its seed's program, the first splat's" "$o"
kmsg "# prog 0 seed 0x5" "# prog 1 seed 0xb" >"$tmp/clean.log"
o=$("$r" "$tmp/clean.log" "$f" 2>&1)
result "$([ $? = 1 ] && grep -q 'no splat' <<<"$o" && echo 1)" "no splat: exit 1, says so" "$o"
{
	echo "[   13.0] WARNING: CPU: 0 PID: 1 at drivers/android/binder_alloc.c:1 f+0x0/0x1"
	kmsg "# prog 0 seed 0x5"
} >"$tmp/early.log"
o=$("$r" "$tmp/early.log" "$f" 2>&1)
result "$([ $? = 1 ] && grep -q 'no "# prog" line before the splat' <<<"$o" && echo 1)" \
	"a splat before any program: exit 1, says so" "$o"
expect_fail "a log that is not there" "cannot read $tmp/nosuch" "$r" "$tmp/nosuch" "$f"
expect_fail "a fuzzer that is not there" "FUZZER=$tmp/nosuch is not an executable" "$r" "$tmp/fresh.log" "$tmp/nosuch"
expect_fail "no arguments" "usage: reproducer.sh LOG FUZZER" "$r"
