#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# selftests/binder_throughput/run_cases.sh, the cases that make check's guest and make
# run_tests run, against a stand-in binder_throughput (no binder here): valid KTAP with one
# result per case, each check able to fail (a missing result line, a sample file one short,
# a SIGINT not reported, a skip), and its exit code. busybox sh runs it in the guest: so does
# this test when busybox is installed, else dash, else sh.
. "$(dirname "$0")/../lib.sh"
rc_=$top/selftests/binder_throughput/run_cases.sh
sh=sh
command -v busybox >/dev/null && sh="busybox sh"
command -v busybox >/dev/null || { command -v dash >/dev/null && sh=dash; }

# The stand-in: what binder_throughput prints for ARGS; FAKE_MODE bends one case. A shell
# cannot catch a SIGINT that it was started with ignored (a background job of a script is), a
# C program can, as binder_throughput does: the SIGINT case is one.
mkdir -p "$tmp/bin"
cat >"$tmp/sigint.c" <<'EOF'
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void on_int(int sig)
{
	static const char msg[] = "# interrupted by signal 2\nnot ok 1 binder_throughput\n";

	(void)sig;
	if (write(1, msg, sizeof(msg) - 1) < 0)
		_exit(2);
	_exit(1);
}

int main(void)
{
	const char *mode = getenv("FAKE_MODE");
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = mode && !strcmp(mode, "ignore-int") ? SIG_IGN : on_int;
	sigaction(SIGINT, &sa, NULL);
	sleep(5);
	return 0;
}
EOF
gcc -O2 -Wall -o "$tmp/bin/sigint" "$tmp/sigint.c" || { result 0 "build the SIGINT stand-in"; exit 1; }
cat >"$tmp/bin/binder_throughput" <<'EOF'
#!/bin/sh
case " $* " in
*" --rounds 1 "*) exec "$(dirname "$0")/sigint" ;;
*" --timeout 3 "*) echo "# error: timed out after 3 s"; echo "not ok 1 binder_throughput"; exit 1 ;;
esac
if [ "${FAKE_MODE:-}" = skip ]; then
	echo "ok 1 binder_throughput # SKIP not running as root"; exit 4
fi
echo "# round 1/1: 3 transactions"
set -- "$@"
while [ $# -gt 0 ]; do
	case $1 in
	-d) n=3; [ "${FAKE_MODE:-}" = short ] && n=2; seq $n >"$2"; shift ;;
	--json) echo '{"result": "ok"}' >"$2"; shift ;;
	esac
	shift
done
echo "# iterations per sec: 100"
[ "${FAKE_MODE:-}" = no-average ] || echo "# average: 1 ms"
echo "# 50%: 1 ms"
echo "# reclaimed pages: 7"
echo "ok 1 binder_throughput"
EOF
chmod +x "$tmp/bin/binder_throughput"
cat >"$tmp/cases" <<EOF
# a comment, then a blank line

plain - -i 10
files files -i 10 -d $tmp/files.ns --json $tmp/files.json
pressure reclaim -i 10
sigint sigint -w 2 -i 1000000 --rounds 1
timeout timeout -w 2 --timeout 3
EOF
# files checks /tmp/NAME.ns: the case's own name, as plans/check writes it.
sed -i "s#$tmp/files.ns#/tmp/bas-rc-$$.ns#; s#$tmp/files.json#/tmp/bas-rc-$$.json#; s#^files #bas-rc-$$ #" "$tmp/cases"
c=bas-rc-$$
trap 'echo "1..$n"; rm -rf "$tmp" /tmp/$c.ns /tmp/$c.json' EXIT

run() { env BT="$tmp/bin/binder_throughput" FAKE_MODE="$1" $sh "$rc_" "$tmp/cases" >"$tmp/out" 2>&1; echo $?; }

rc=$(run "")
want=$(printf '%s\n' "TAP version 13" "1..5" "ok 1 plain" "ok 2 $c" "ok 3 pressure" "ok 4 sigint" "ok 5 timeout")
got=$(grep -v '^#' "$tmp/out" | sed -E 's/ \([0-9]+ s\)$//')
result "$([ "$rc" = 0 ] && [ "$got" = "$want" ] && echo 1)" "$sh: every case passes: KTAP, one result each, exit 0" \
	"exit $rc: $(echo "$got" | tr '\n' '|')"
result "$(grep -q '^# === plain (-): binder_throughput -i 10$' "$tmp/out" &&
	grep -q '^# # iterations per sec: 100$' "$tmp/out" && echo 1)" \
	"each case's command and output follow as '# ' lines"

rc=$(run no-average)
result "$([ "$rc" = 1 ] && grep -q '^not ok 1 plain$' "$tmp/out" && grep -q "^# plain: no 'average: ' line$" "$tmp/out" &&
	grep -q '^ok 4 sigint' "$tmp/out" && echo 1)" "a missing result line fails the case, with its reason, and the run" \
	"exit $rc"
rc=$(run short)
result "$([ "$rc" = 1 ] && grep -q "^not ok 2 $c$" "$tmp/out" &&
	grep -q "^# $c: -d file has 2 samples, want 3$" "$tmp/out" && echo 1)" "files: a sample file one short fails" "exit $rc"
rc=$(run ignore-int)
result "$([ "$rc" = 1 ] && grep -q '^not ok 4 sigint$' "$tmp/out" && echo 1)" "sigint: a run that SIGINT does not end fails" \
	"exit $rc"
rc=$(run skip)
result "$([ "$rc" = 0 ] && grep -q '^ok 1 plain # SKIP not running as root$' "$tmp/out" && echo 1)" \
	"a case that binder_throughput skips is a SKIP" "exit $rc: $(grep '^ok 1' "$tmp/out")"
grep -E '^(plain|pressure) ' "$tmp/cases" | sed 's/^/  /' >"$tmp/skipcases"
echo "  # an indented comment" >>"$tmp/skipcases"
rc=$(env BT="$tmp/bin/binder_throughput" FAKE_MODE=skip $sh "$rc_" "$tmp/skipcases" >"$tmp/out" 2>&1; echo $?)
result "$([ "$rc" = 4 ] && grep -qx '1\.\.2' "$tmp/out" && [ "$(grep -c '^ok [12] .* # SKIP' "$tmp/out")" = 2 ] && echo 1)" \
	"every case skipped: exit 4 (KSFT_SKIP); the plan counts the cases as the loop reads them" \
	"exit $rc: $(grep -v '^# ' "$tmp/out" | tr '\n' '|')"

expect_fail "no cases file" "run_cases.sh: error: no cases file $tmp/none" env BT="$tmp/bin/binder_throughput" $sh "$rc_" "$tmp/none"
expect_fail "no binder_throughput" "run_cases.sh: error: no binder_throughput at $tmp/nobt" env BT="$tmp/nobt" $sh "$rc_" "$tmp/cases"
[ "$fails" = 0 ]
