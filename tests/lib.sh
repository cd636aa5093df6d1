# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Common setup of the host tests (tests/*/test-*.sh), sourced: $top (the repository),
# $tmp (removed on exit), the KTAP counters n and fails, and result.
set -u
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
tmp=$(mktemp -d)
n=0
fails=0
# TAP: the version line now, the plan (as many tests as ran) when the script exits, so that
# prove and other TAP readers take every script as it is.
echo "TAP version 13"
# make check ACCEL=kvm exports ACCEL to the host tests; no test takes it from its caller (an
# arm64 script refuses ACCEL=kvm at once).
unset ACCEL
trap 'echo "1..$n"; rm -rf "$tmp"' EXIT

# result OK DESC [DETAIL]: "ok N DESC" when OK is 1, else "not ok N DESC (DETAIL)".
result() {
	n=$((n + 1))
	if [ "$1" = 1 ]; then
		echo "ok $n $2"
	else
		echo "not ok $n $2${3:+ ($3)}"
		fails=$((fails + 1))
	fi
}

# expect_fail DESC PATTERN CMD...: CMD exits non-zero with exactly one "error:" line on stdout
# and stderr, and that line matches PATTERN (bad input gets a one-line error).
expect_fail() {
	local desc=$1 pat=$2 err rc=0
	shift 2
	err=$("$@" 2>&1 >/dev/null) || rc=$?
	if [ "$rc" != 0 ] && [ "$(printf '%s\n' "$err" | grep -c 'error:')" = 1 ] &&
		printf '%s' "$err" | grep -q -- "$pat"; then
		result 1 "$desc"
	else
		result 0 "$desc" "exit $rc: $err"
	fi
}

# refused_by BIN DESC MESSAGE ARGS...: BIN ARGS is a bad command line: exit 2, nothing on stdout,
# stderr exactly "NAME: error: MESSAGE" (NAME: BIN's file name), as the selftests' parsers do.
refused_by() {
	local bin=$1 desc=$2 want="${1##*/}: error: $3" rc ok=0
	shift 3
	"$bin" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
	rc=$?
	[ "$rc" = 2 ] && [ ! -s "$tmp/out" ] && [ "$(cat "$tmp/err")" = "$want" ] && ok=1
	result $ok "$desc" "exit $rc: $(head -c 300 "$tmp/err")"
}
