#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The standalone Makefile of binder_throughput honours OUTPUT= that names a directory which
# does not exist yet (README's virtme-ng recipe: make -C ... OUTPUT=/tmp/bt): it creates it.
. "$(dirname "$0")/../lib.sh"

out=$tmp/not/yet/there
rc=0
make -s -C "$top/selftests/binder_throughput" OUTPUT="$out" >"$tmp/cc.log" 2>&1 || rc=$?
ok=0
[ "$rc" = 0 ] && [ -x "$out/binder_throughput" ] && ok=1
result $ok "make OUTPUT=<new directory> builds binder_throughput there" "exit $rc: $(head -n1 "$tmp/cc.log")"

rc=0
make -s -C "$top/selftests/binder_throughput" OUTPUT="$out/static" static >"$tmp/cc.log" 2>&1 || rc=$?
ok=0
[ "$rc" = 0 ] && [ -x "$out/static/binder_throughput-static" ] && ok=1
result $ok "make OUTPUT=<new directory> static builds binder_throughput-static there" "exit $rc: $(head -n1 "$tmp/cc.log")"
[ "$fails" = 0 ]
