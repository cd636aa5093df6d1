#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# binder_throughput's KTAP, from its two builds: standalone (binder_uapi/standalone's
# kselftest.h) and as in a kernel tree (the tree's kselftest.h). The standalone lines are the expected
# ones (ktap.c's pass, fail and skip, through ktap-driver.c); then both builds run the same
# command lines (a SKIP, a bad command line, --help, the SKIP under a kselftest runner's
# KSFT_TAP_LEVEL) and the same driver outcomes, and must print the same, exit the same. The
# tree is KSRC= or the cache's (lib-ktree.sh), copied to a scratch directory; without one the
# comparisons are TAP SKIPs.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-ktree.sh"
src=$top/selftests/binder_throughput
drv=$top/tests/selftest/ktap-driver.c
chmod 755 "$tmp"	# setpriv's user below runs the binaries in here

mkdir -p "$tmp/sa"
if ! make -s -C "$src" OUTPUT="$tmp/sa" >"$tmp/cc.log" 2>&1 ||
	! gcc -O2 -Wall -Wextra -Werror -I"$top/selftests/binder_uapi/standalone" -I"$src" -I"$top/selftests/binder_uapi" -o "$tmp/sa/ktap-driver" "$drv" "$src/ktap.c" \
		>>"$tmp/cc.log" 2>&1; then
	result 0 "standalone build" "$(head -n1 "$tmp/cc.log")"
	exit 1
fi

# run DIR NAME CMD...: CMD's exit code, stdout and stderr into DIR/NAME.
run() {
	local d=$1 name=$2 rc
	shift 2
	"$@" >"$d/$name.out" 2>"$d/$name.err" </dev/null
	rc=$?
	echo "$rc" >"$d/$name.rc"
}

# expect NAME RC LINES...: the standalone output of NAME is exactly LINES, its exit code RC.
expect() {
	local name=$1 rc=$2 ok=0
	shift 2
	printf '%s\n' "$@" >"$tmp/want"
	if [ "$(cat "$tmp/sa/$name.rc")" = "$rc" ] && cmp -s "$tmp/want" "$tmp/sa/$name.out"; then
		ok=1
	fi
	result $ok "standalone: $name prints the documented KTAP" \
		"exit $(cat "$tmp/sa/$name.rc"), $(diff "$tmp/want" "$tmp/sa/$name.out" | tr '\n' ' ')"
}

totals() {
	echo "# Totals: pass:$1 fail:$2 xfail:0 xpass:0 skip:$3 error:0"
}
skipped='# 1 skipped test(s) detected. Consider enabling relevant config options to improve coverage.'

# The SKIP of a run without binder: not root (as another user when we are root).
unpriv=()
if [ "$(id -u)" = 0 ]; then
	command -v setpriv >/dev/null && unpriv=(setpriv --reuid=65534 --regid=65534 --clear-groups)
fi

# cases DIR: every run, with DIR's binder_throughput and ktap-driver.
cases() {
	local d=$1
	run "$d" pass "$d/ktap-driver" pass
	run "$d" fail "$d/ktap-driver" fail "round 1: a transaction left no sample"
	run "$d" skip "$d/ktap-driver" skip "no binderfs"
	run "$d" pass-nested env KSFT_TAP_LEVEL=1 "$d/ktap-driver" pass
	run "$d" usage "$d/binder_throughput" -w 0
	run "$d" help "$d/binder_throughput" --help
	if [ "$(id -u)" != 0 ] || [ ${#unpriv[@]} -gt 0 ]; then
		run "$d" not-root "${unpriv[@]}" "$d/binder_throughput" -w 2 -i 10
		run "$d" not-root-nested env KSFT_TAP_LEVEL=1 "${unpriv[@]}" "$d/binder_throughput" -i 10
	fi
}
cases "$tmp/sa"

expect pass 0 "TAP version 13" "1..1" "ok 1 binder_throughput" "$(totals 1 0 0)"
expect fail 1 "TAP version 13" "1..1" "# error: round 1: a transaction left no sample" \
	"not ok 1 binder_throughput" "$(totals 0 1 0)"
expect skip 4 "TAP version 13" "1..1" "ok 1 binder_throughput # SKIP no binderfs" "$skipped" \
	"$(totals 0 0 1)"
expect pass-nested 0 "1..1" "ok 1 binder_throughput" "$(totals 1 0 0)"
if [ -f "$tmp/sa/not-root.rc" ]; then
	expect not-root 4 "TAP version 13" "1..1" \
		"# sync: 2 workers, 10 iterations, 0-byte payload, 1 client and 4 server threads, 0 warmup and 1 measured rounds" \
		"ok 1 binder_throughput # SKIP not running as root" "$skipped" "$(totals 0 0 1)"
fi
ok=0
[ "$(cat "$tmp/sa/usage.rc")" = 2 ] && [ ! -s "$tmp/sa/usage.out" ] &&
	[ "$(wc -l <"$tmp/sa/usage.err")" = 1 ] && ok=1
result $ok "standalone: a bad command line is exit 2, one line on stderr, no KTAP" \
	"exit $(cat "$tmp/sa/usage.rc"): $(cat "$tmp/sa/usage.out" "$tmp/sa/usage.err")"

# The same runs from the in-tree build.
names=(pass fail skip pass-nested usage help)
[ -f "$tmp/sa/not-root.rc" ] && names+=(not-root not-root-nested)
if ! tree=$(ktree 2>"$tmp/why"); then
	for name in "${names[@]}"; do
		n=$((n + 1))
		echo "ok $n in-tree build prints what standalone does: $name # SKIP $(cat "$tmp/why")"
	done
	[ "$fails" = 0 ]
	exit
fi
scratch=$tmp/tree
st=$scratch/tools/testing/selftests
mkdir -p "$tmp/it"
if ! scratch_selftests "$tree" "$scratch" >"$tmp/cp.log" 2>&1 ||
	! make -s -C "$st/binder_throughput" OUTPUT="$tmp/it" >"$tmp/cc.log" 2>&1 ||
	! gcc -O2 -Wall -Wextra -Werror -I"$st" -I"$st/binder_throughput" -I"$st/binder_uapi" \
		-o "$tmp/it/ktap-driver" "$drv" "$st/binder_throughput/ktap.c" >>"$tmp/cc.log" 2>&1; then
	result 0 "in-tree build with $tree's kselftest.h" "$(head -n1 "$tmp/cp.log" "$tmp/cc.log")"
	exit 1
fi
cases "$tmp/it"
for name in "${names[@]}"; do
	ok=0
	cmp -s "$tmp/sa/$name.rc" "$tmp/it/$name.rc" && cmp -s "$tmp/sa/$name.out" "$tmp/it/$name.out" &&
		cmp -s "$tmp/sa/$name.err" "$tmp/it/$name.err" && ok=1
	result $ok "in-tree build prints what standalone does: $name" \
		"$(diff "$tmp/sa/$name.out" "$tmp/it/$name.out" | head -n4 | tr '\n' ' ')"
done
[ "$fails" = 0 ]
