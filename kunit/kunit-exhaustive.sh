#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kunit-exhaustive.sh [TREE [SHARDS [INDEX...]]]: upstream's slow binder_alloc_exhaustive_test
# on a KUnit kernel (by default the debug one, PROVE_LOCKING and KASAN: make kunit-debug's),
# split into SHARDS guests that run side by side.
#   TREE:   split (default) | stock
#   SHARDS: number of shards (default: the number of CPUs); INDEX...: the shards to run
#           (default: all of them). make check runs shard 0 of 625 (5 of the 3125 calls).
# The case is single-threaded: 3125 gen_buf_sizes() calls of 240 runs each, one verdict at
# the end. Under KASAN and lockdep in TCG that is hours on one CPU. Each shard is a -smp 1
# guest of the same kernel, attached to gdb through QEMU's gdbstub; kunit-exhaustive-gdb.py
# lets call n run only in shard n % SHARDS and, in the others, returns at once after adding
# its 240 runs to the case's counter. The kernel and the test are not changed.
# Per shard: the call counts gdb saw (all 3125 calls seen, this shard's share run) and the
# guest's KUnit timeout, the case's KUnit result (kunit.py parse), check-log.sh on the log.
# Output: one KTAP line per shard check, in $OUT/kunit-exhaustive/ the logs.
# KUNIT_EXHAUSTIVE_FLAVOUR: the KUnit kernel, debug (default) or plain (make check's shard: the
# kernel its kunit-plain stage built; make check runs the debug flavour's cases on make stress's
# kernel, kunit/kunit-module.sh, and builds no debug KUnit kernel).
# KUNIT_EXHAUSTIVE_TIMEOUT: seconds per guest (default 43200). The guests boot with
# kunit.timeout= set to it: KUnit's own limit for this slow case (3 x 300 s of guest time by
# default) ends a shard that runs half of the case under TCG before it is done.
. "$(dirname "$0")/../scripts/lib.sh"

tree=${1:-split}
case $tree in
split | stock) ;;
*) die "unknown tree '$tree' (expected split or stock)" ;;
esac
shards=${2:-$(nproc)}
[[ $shards =~ ^[1-9][0-9]*$ ]] && [ "$shards" -le 3125 ] || die "SHARDS='$shards': expected 1..3125"
shift $(($# > 2 ? 2 : $#))
indexes=("$@")
[ ${#indexes[@]} -gt 0 ] || mapfile -t indexes < <(seq 0 $((shards - 1)))
for i in "${indexes[@]}"; do
	[[ $i =~ ^[0-9]+$ ]] && [ "$i" -lt "$shards" ] || die "shard index '$i': expected 0..$((shards - 1))"
done
flavour=${KUNIT_EXHAUSTIVE_FLAVOUR:-debug}
case $flavour in plain | debug) ;; *) die "KUNIT_EXHAUSTIVE_FLAVOUR='$flavour': expected plain or debug" ;; esac
timeout=${KUNIT_EXHAUSTIVE_TIMEOUT:-43200}
[[ $timeout =~ ^[1-9][0-9]*$ ]] || die "KUNIT_EXHAUSTIVE_TIMEOUT='$timeout': expected seconds"
command -v gdb >/dev/null || die "gdb not found (apt-get install gdb)"
gdb -q -batch -nx -ex 'python import gdb' >/dev/null 2>&1 || die "this gdb has no Python"

OUT=${OUT:-$BAS_TOP/out}
dir=$OUT/kunit-exhaustive
rm -rf "$dir"
mkdir -p "$dir"

build=$(KUNIT_BUILD_ONLY=1 "$BAS_TOP/kunit/kunit.sh" "$flavour" "$tree")
wt=$TREE/wt-$tree
src=$wt/drivers/android/tests/binder_alloc_kunit.c
# The runs of one gen_buf_sizes() call, from the case's own total.
grep -q '^#define TOTAL_EXHAUSTIVE_CASES (3125 \* 2 \* 120)$' "$src" ||
	die "$src: TOTAL_EXHAUSTIVE_CASES is not 3125 * 2 * 120; the case changed, update this script"
calls=3125 per_call=240
copy_kernel() {
	cp "$build/arch/x86/boot/bzImage" "$build/System.map" "$dir/"
}
with_lock "${build##*/}" copy_kernel
# symbol NAME [HINT]: the address of the one symbol NAME in System.map; HINT: in the error.
symbol() {
	local a
	a=$(awk -v s="$1" '$3 == s { print $1 }' "$dir/System.map")
	[[ $a =~ ^[0-9a-f]{16}$ ]] || die "$1 not found once in $build/System.map${2:+ ($2)}"
	echo "$a"
}
gbs=$(symbol gen_buf_sizes 'inlined?')
kto=$(symbol kunit_base_timeout)
bin=$CACHE/bin
"$BAS_TOP/qemu/qemu-wrapper.sh" "$bin"

# run_shard I: one guest, stopped at reset until gdb attaches; the console goes to a file.
run_shard() {
	local i=$1 d=$dir/shard-$1 n
	mkdir -p "$d"
	timeout "$timeout" "$bin/qemu-system-x86_64" -nodefaults -nographic -no-reboot \
		-m 1024 -smp 1 -kernel "$dir/bzImage" -serial "file:$d/console.log" -monitor none \
		-gdb "unix:$d/gdb.sock,server=on,wait=off" -S \
		-append "console=ttyS0 nokaslr kunit.enable=1 kunit.filter_glob=binder_alloc.binder_alloc_exhaustive_test kunit.timeout=$timeout kunit_shutdown=reboot panic_on_warn=1 panic=-1" \
		>"$d/qemu.log" 2>&1 &
	local q=$!
	echo "$q" >"$d/timeout.pid"
	for n in $(seq 100); do
		[ -S "$d/gdb.sock" ] && break
		sleep 0.1
	done
	SOCK=$d/gdb.sock GBS=$gbs KTO=$kto SHARD=$i SHARDS=$shards RUNS_PER_CALL=$per_call \
		timeout "$timeout" gdb -q -batch -nx -x "$BAS_TOP/kunit/kunit-exhaustive-gdb.py" \
		>"$d/gdb.log" 2>&1 || echo "gdb: exit $?" >>"$d/gdb.log"
	wait $q || echo "qemu: exit $?" >>"$d/gdb.log"
}

note "kunit-exhaustive: $tree tree, $flavour kernel $build, ${#indexes[@]} of $shards shards, gen_buf_sizes at $gbs"
t0=$(date +%s)
# timeout(1) keeps its guest out of the terminal's process group: stop the guests on ^C.
stop_guests() {
	cat "$dir"/shard-*/timeout.pid 2>/dev/null | xargs -r kill 2>/dev/null || true
	die "interrupted"
}
trap stop_guests INT TERM
pids=()
for i in "${indexes[@]}"; do
	run_shard "$i" &
	pids+=($!)
done
for p in "${pids[@]}"; do wait "$p" || true; done
note "kunit-exhaustive: guests done in $(($(date +%s) - t0)) s"

# The verdict. Shard i owns calls i, i + SHARDS, ...
n=0 bad=0
ok() {
	n=$((n + 1))
	echo "ok $n $*"
}
not_ok() {
	n=$((n + 1)) bad=1
	echo "not ok $n $*"
}
for i in "${indexes[@]}"; do
	d=$dir/shard-$i label="kunit-exhaustive $tree shard $i/$shards"
	want=$(((calls - i + shards - 1) / shards))
	total=$(grep '^shard total: ' "$d/gdb.log" || true)
	kt=$(grep '^shard: kunit timeout ' "$d/gdb.log" || true)
	if [ "$total" = "shard total: $calls calls seen, $want run here" ] &&
		[ "$kt" = "shard: kunit timeout $timeout s" ]; then
		ok "$label: $calls calls seen, $want run here, KUnit timeout $timeout s"
	else
		not_ok "$label: expected $calls calls seen, $want run here, KUnit timeout $timeout s; gdb: ${total:-none}, ${kt:-no timeout read}; $d/gdb.log"
	fi
	res=
	python3 "$BAS_TOP/scripts/ktap.py" kunit-log "$wt/tools/testing/kunit/kunit.py" \
		"$d/console.log" "$d/kunit.json" >"$d/parse.log" 2>&1 &&
		res=$(python3 "$BAS_TOP/scripts/ktap.py" kunit-json case "$d/kunit.json" 2>&1) || true
	# One case, passed (kunit.py parse names the top group "KUnit Test Group").
	if [[ $res =~ ^ok\ 1\ case\ ([A-Za-z\ ]+\.)?binder_alloc\.binder_alloc_exhaustive_test$ ]]; then
		ok "$label: binder_alloc.binder_alloc_exhaustive_test passed"
	else
		not_ok "$label: binder_alloc.binder_alloc_exhaustive_test did not pass; $d/console.log"
	fi
	if "$BAS_TOP/qemu/check-log.sh" "$d/console.log"; then
		ok "$label: kernel log clean"
	else
		not_ok "$label: splat in the kernel log; $d/console.log"
	fi
done
[ "$bad" = 0 ] || die "the exhaustive case failed; logs in $dir"
note "kunit-exhaustive: pass ($tree, ${#indexes[@]} of $shards shards, $(($(date +%s) - t0)) s)"
