#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kunit-repeat.sh FLAVOUR RUNS [LOAD]: run kunit/kunit.sh FLAVOUR (split tree) RUNS times in a
# row, each in a fresh boot, with LOAD busy loops (default 0) on the host beside QEMU, each
# pinned to one host CPU in turn, as make bench's BENCH_HOST_LOAD: a host that takes the guest's
# vCPUs away at any moment. Stops at the first run that fails. Each run's kernel log is kept
# in $OUT/kunit-repeat/FLAVOUR-N.log, and one line per run says what its cases reported (the
# rollback case's allocations and rollbacks, the race case's rollbacks), so that a case that
# passes without reaching its race shows. Knobs: those of kunit.sh (KUNIT_SLOW, KUNIT_GLOB,
# SMP, ...; KUNIT_SLOW defaults to 0 here, as in make check).
. "$(dirname "$0")/../scripts/lib.sh"

[ $# = 2 ] || [ $# = 3 ] || die "usage: kunit-repeat.sh plain|debug RUNS [LOAD]"
flavour=$1 runs=$2 load=${3:-0}
case $flavour in plain | debug) ;; *) die "FLAVOUR='$flavour': expected plain or debug" ;; esac
case $runs in '' | *[!0-9]* | 0) die "RUNS='$runs' is not a positive number of runs" ;; esac
case $load in '' | *[!0-9]*) die "LOAD='$load' is not a number of busy loops" ;; esac
[ "$load" = 0 ] || command -v taskset >/dev/null || die "LOAD needs taskset (util-linux)"

OUT=${OUT:-$BAS_TOP/out}
export KUNIT_SLOW=${KUNIT_SLOW:-0}
dir=$OUT/kunit-repeat
mkdir -p "$dir"
rm -f "$dir/$flavour"-*.log

trap host_load_stop EXIT
host_load_start "$load"

for ((n = 1; n <= runs; n++)); do
	rc=0
	OUT=$dir/run "$BAS_TOP/kunit/kunit.sh" "$flavour" >"$dir/$flavour-$n.out" 2>&1 || rc=$?
	cp "$dir/run/kunit-split-$flavour.log" "$dir/$flavour-$n.log" 2>/dev/null || true
	what=$(sed -n 's/.*# binder_alloc_test_\(rollback\|install_zap_race\): \(.*rollbacks\).*/\1: \2/p' \
		"$dir/$flavour-$n.log" 2>/dev/null | tr '\n' ';')
	if [ "$rc" != 0 ]; then
		echo "not ok $n kunit $flavour with $load busy loops: $(tail -n1 "$dir/$flavour-$n.out")"
		die "run $n of $runs failed: $dir/$flavour-$n.out, $dir/$flavour-$n.log"
	fi
	echo "ok $n kunit $flavour with $load busy loops # ${what%;}"
done
note "$runs runs of kunit $flavour passed in a row with $load busy loops on the host"
