# shellcheck shell=bash
# Common setup of the host tests (tests/*/test-*.sh), sourced: $top (the repository),
# $tmp (removed on exit), the KTAP counters n and fails, and result.
set -u
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
fails=0

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
