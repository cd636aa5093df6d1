#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host unit tests of the binder_throughput statistics (selftests/binder_throughput/stats.c):
# build tests/selftest/test-stats.c against it and run it (KTAP result lines).
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
src=$top/selftests/binder_throughput
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if ! gcc -O2 -Wall -Wextra -Werror -I"$src" -o "$tmp/test-stats" \
	"$top/tests/selftest/test-stats.c" "$src/stats.c" 2>"$tmp/cc.log"; then
	printf 'TAP version 13\nnot ok 1 build test-stats.c: %s\n1..1\n' "$(head -n1 "$tmp/cc.log")"
	exit 1
fi
echo "TAP version 13"
"$tmp/test-stats"
