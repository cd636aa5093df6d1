# SPDX-License-Identifier: GPL-2.0
# kunit-exhaustive-gdb.py: run one shard of upstream's binder_alloc_exhaustive_test.
# Sourced by gdb (gdb -batch -x), attached to QEMU's gdbstub; see kunit-exhaustive.sh.
#
# The case makes one gen_buf_sizes() call per offsets case (3125 calls); each call does
# RUNS_PER_CALL runs and adds them to *runs, its fifth argument (%r8 at entry, x86-64 ABI).
# Call number n (*runs / RUNS_PER_CALL at its entry) belongs to shard n % SHARDS. A call of
# another shard returns at its entry (pc from the return address, rsp past it) after adding
# RUNS_PER_CALL to *runs, so the case's own KUNIT_EXPECT_EQ(runs, TOTAL_EXHAUSTIVE_CASES)
# still holds, and only this shard's calls run their free sequences and checks.
#
# Environment: SOCK (gdbstub socket), GBS (gen_buf_sizes' address, hex), KTO
# (kunit_base_timeout's address, hex), SHARD, SHARDS, RUNS_PER_CALL. Prints "shard: kunit
# timeout N s" (the guest's kunit.timeout, read at the first call), "shard: N calls seen,
# M run here" every 100 calls, "shard: K repeated stops" and "shard total: N calls seen, M
# run here" at the end.
import os
import sys

import gdb

sock = os.environ['SOCK']
gbs = int(os.environ['GBS'], 16)
kto = int(os.environ['KTO'], 16)
shard, shards = int(os.environ['SHARD']), int(os.environ['SHARDS'])
per_call = int(os.environ['RUNS_PER_CALL'])

gdb.execute('set pagination off')
gdb.execute('set confirm off')
gdb.execute('target remote ' + sock)
gdb.execute('hbreak *%#x' % gbs)

ran = repeats = 0
last = -1
while True:
    try:
        gdb.execute('continue', to_string=True)
        pc = int(gdb.parse_and_eval('$pc')) & 0xffffffffffffffff
    except gdb.error as e:
        # The guest ended (kunit_shutdown=reboot with -no-reboot) or died.
        print('shard: target gone: %s' % e)
        break
    if pc != gbs:
        print('shard: stopped at %#x, not at gen_buf_sizes' % pc)
        break
    if last == -1:
        val = gdb.parse_and_eval('*(unsigned long *)%#x' % kto)
        print('shard: kunit timeout %d s' % int(val))
    # The call's number comes from the case's own counter: every earlier call has added its
    # runs to *runs (here or in gdb) before this one starts. Counting stops is not enough:
    # the breakpoint can stop twice at the entry of one call that runs here (seen in 8-shard
    # runs: 3126 and 3128 stops for 3125 calls), and a second stop counted as the next call
    # would skip the call and shift every later call to another shard.
    runs = int(gdb.parse_and_eval('$r8')) & 0xffffffffffffffff
    done = int(gdb.parse_and_eval('*(unsigned long *)%#x' % runs))
    if done % per_call:
        print('shard: *runs is %d at a call entry, not a multiple of %d' % (done, per_call))
        break
    n = done // per_call
    if n == last:
        repeats += 1
        print('shard: stopped again at the entry of call %d' % n)
        continue
    if n != last + 1:
        print('shard: call %d after call %d' % (n, last))
        break
    last = n
    if n % shards != shard:
        gdb.execute('set var *(unsigned long *)%#x += %d' % (runs, per_call))
        gdb.execute('set var $pc = *(unsigned long *)$rsp')
        gdb.execute('set var $rsp = $rsp + 8')
    else:
        ran += 1
    if (n + 1) % 100 == 0:
        print('shard: %d calls seen, %d run here' % (n + 1, ran))
        sys.stdout.flush()
print('shard: %d repeated stops' % repeats)
print('shard total: %d calls seen, %d run here' % (last + 1, ran))
