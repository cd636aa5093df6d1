#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host-side unit tests for qemu/check-log.sh, KTAP-style output.
# Clean boot logs (clean-boot.log and clean-boot-arm64.log, from real x86_64 and arm64 guests)
# and benign look-alike lines must pass;
# a log with each kind of splat must fail.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
check=$here/../../qemu/check-log.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
echo "TAP version 13"
failed=0

# expect RC NAME: check-log.sh on $tmp/log must exit RC.
expect() {
	local want=$1 name=$2 rc=0
	n=$((n + 1))
	"$check" "$tmp/log" >"$tmp/out" 2>&1 || rc=$?
	if [ "$rc" = "$want" ]; then
		echo "ok $n $name"
	else
		echo "not ok $n $name (exit $rc, expected $want)"
		sed 's/^/# /' "$tmp/out"
		failed=$((failed + 1))
	fi
}

cp "$here/clean-boot.log" "$tmp/log"
expect 0 "clean boot log"
cp "$here/clean-boot-arm64.log" "$tmp/log"
expect 0 "clean arm64 boot log (make selftest ARCH=arm64)"

cat >"$tmp/log" <<'LOG'
[    0.000000] Linux version 7.3.4 (bas@qemu) (gcc (Debian 12.2.0-14) 12.2.0) #1 SMP PREEMPT
[    0.120000] rcu: 	RCU CPU stall warnings timeout set to 21 (rcu_cpu_stall_timeout).
[    0.130000] Freeing unused kernel image (initmem) memory: 1024K
[    0.140000] kmemleak: Kernel memory leak detector initialized (mem pool available: 15800)
[    0.160000] watchdog: Enabled. Permanently consumes one hw-PMU counter.
[    0.170000] NMI watchdog: Enabled. Permanently consumes one hw-PMU counter.
[    0.180000] hung_task: panic on hung task enabled
[    0.190000] Kernel command line: console=ttyS0 panic_on_warn=1 reboot=t oops=panic softlockup_panic=1
[    0.200000] Lock dependency validator: Copyright (c) 2006 Red Hat, Inc., Ingo Molnar
[    0.210000] ... MAX_LOCKDEP_SUBCLASSES:  8
[    0.220000] Run /init as init process
[init] verdict: success
[    0.230000] kmemleak: Automatic memory scanning thread ended
[    0.240000] printk: console [ttyS0] enabled
LOG
expect 0 "benign look-alike lines"

splat() { # NAME LINE...
	local name=$1
	shift
	cp "$here/clean-boot.log" "$tmp/log"
	printf '%s\n' "$@" >>"$tmp/log"
	expect 1 "$name"
}

splat "BUG" "[   12.345678] BUG: unable to handle page fault for address: ffff888100000000"
splat "WARNING" "[   12.345678] WARNING: CPU: 1 PID: 77 at drivers/android/binder_alloc.c:123 binder_alloc_new_buf+0x1/0x2"
splat "WARNING (7.3 format)" "[    2.787852] WARNING: warn.c:3 at warn_init+0x0/0x1000 [warn], CPU#1: insmod/40" \
	"[    2.804278] Kernel panic - not syncing: kernel: panic_on_warn set ..."
splat "Oops" "[   12.345678] Oops: general protection fault, probably for non-canonical address 0xdead: 0000 [#1] SMP"
splat "kernel BUG" "[   12.345678] kernel BUG at drivers/android/binder_alloc.c:971!"
splat "general protection fault" "[   12.345678] general protection fault, probably for non-canonical address 0xdead"
splat "lockdep circular" "[   12.345678] WARNING: possible circular locking dependency detected" \
	"[   12.345679] 7.3.4-debug #1 Not tainted"
splat "lockdep circular (no WARNING prefix)" "[   12.3] possible circular locking dependency detected"
splat "lockdep inconsistent" "[   12.3] inconsistent lock state"
splat "lockdep recursive" "[   12.3] possible recursive locking detected"
splat "suspicious RCU usage" "[   12.3] suspicious RCU usage."
splat "lock held returning to user" "[   12.3] lock held when returning to user space!"
splat "bad unlock balance" "[   12.3] bad unlock balance detected!"
splat "hung task" "[  250.1] INFO: task binder_test:88 blocked for more than 122 seconds."
splat "KASAN" "[   12.3] BUG: KASAN: slab-use-after-free in binder_alloc_free_buf+0x1/0x2"
splat "KASAN (bare)" "[   12.3] KASAN: null-ptr-deref in range [0x0-0x7]"
splat "UBSAN" "[   12.3] UBSAN: shift-out-of-bounds in drivers/android/binder.c:42:7"
splat "kmemleak" "unreferenced object 0xffff888004a1c000 (size 64):"
splat "panic" "[   12.3] Kernel panic - not syncing: panic_on_warn set ..."
splat "Call Trace" "[   12.3] Call Trace:"
splat "Call trace (arm64)" "[   12.3] Call trace:"
splat "arm64 oops" "[   12.3] Internal error: Oops: 0000000096000005 [#1]  SMP"
splat "RCU stall" "[   40.3] rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:"
splat "RCU stall (sched)" "[   40.3] rcu: INFO: rcu_sched detected stalls on CPUs/tasks:"
splat "RCU stall (expedited)" "[   40.3] rcu: INFO: rcu_preempt detected expedited stalls on CPUs/tasks:"
splat "soft lockup" "[   40.3] watchdog: BUG: soft lockup - CPU#0 stuck for 22s! [sh:1]"
splat "hard lockup" "[   40.3] watchdog: CPU1: Watchdog detected hard LOCKUP on cpu 1"
splat "sleeping in atomic" "[   12.3] BUG: sleeping function called from invalid context at kernel/locking/mutex.c:283"
splat "sleeping in atomic (bare)" "[   12.3] sleeping function called from invalid context at mm/slub.c:4000"
splat "list corruption" "[   12.3] list_add corruption. next->prev should be prev"
splat "workqueue lockup" "[   40.3] BUG: workqueue lockup - pool cpus=0 node=0 flags=0x0 nice=0 stuck for 31s!"
splat "CRLF serial log" $'[   12.3] WARNING: CPU: 0 PID: 1 at x.c:1 f+0x0/0x1\r'

# make stress: a page allocation failure report of an injected fault is dropped with
# CHECK_LOG_INJECTED_FAULTS=1 (and is a splat without it), but not a report printed inside it.
warn_alloc() {
	cat <<'LOG'
[   50.1] binder_throughput: page allocation failure: order:0, mode:0x400dc2(GFP_KERNEL_ACCOUNT|__GFP_HIGHMEM|__GFP_ZERO), nodemask=(null)
[   50.1] CPU: 1 UID: 0 PID: 321 Comm: binder_throughput Not tainted 7.3.4-debug #1 PREEMPT
[   50.1] Call Trace:
[   50.1]  <TASK>
[   50.1]  warn_alloc+0x1b5/0x2a0
LOG
	[ -z "${1:-}" ] || echo "$1"
	cat <<'LOG'
[   50.1]  </TASK>
[   50.1] Mem-Info:
[   50.1] 524157 pages RAM
[   50.1] 12007 pages reserved
[   50.2] binder_alloc_split: 321:325 transaction call to 319:0 failed 2557/29189/-12, size 64-0 line 3344
LOG
}
warn_alloc >"$tmp/log"
expect 1 "page allocation failure report without CHECK_LOG_INJECTED_FAULTS"
export CHECK_LOG_INJECTED_FAULTS=1
expect 0 "page allocation failure report of an injected fault"
warn_alloc "[   50.1] BUG: KCSAN: data-race in binder_alloc_new_buf / binder_alloc_free_page" >"$tmp/log"
expect 1 "KCSAN report inside a page allocation failure report"
warn_alloc >"$tmp/log"
echo "[   51.0] WARNING: CPU: 0 PID: 1 at mm/list_lru.c:1 f+0x0/0x1" >>"$tmp/log"
expect 1 "WARNING after a page allocation failure report"
warn_alloc | sed 's/Call Trace:/Call trace:/' >"$tmp/log"
expect 0 "page allocation failure report of an injected fault, arm64's \"Call trace:\""
warn_alloc | sed 's/page allocation failure: order:0, mode/vmalloc error: size 8192, align 0x1000, vm_struct allocation failed, mode/' >"$tmp/log"
expect 0 "vmalloc failure report of an injected fault (make fuzz: binder_alloc_mmap_handler's kvcalloc)"
unset CHECK_LOG_INJECTED_FAULTS
expect 1 "vmalloc failure report without CHECK_LOG_INJECTED_FAULTS"
warn_alloc | sed 's/Call Trace:/Call trace:/' >"$tmp/log"
expect 1 "arm64 page allocation failure report without CHECK_LOG_INJECTED_FAULTS"

# make stress on the kcsan kernel: with CHECK_LOG_KCSAN_SCOPE a KCSAN report with no frame in
# scope is dropped (and is a splat without it); one with a frame in scope, one cut short and
# any other splat printed inside a dropped one are not.
kcsan_report() { # FRAME...: a report of a race at unknown origin in those frames
	echo "[  286.383700] =================================================================="
	echo "[  286.383711] BUG: KCSAN: data-race in ${1%%/*}/0x60"
	echo "[  286.383712] "
	echo "[  286.383713] race at unknown origin, with read to 0xffff888006f2c1e8 of 8 bytes by task 389 on cpu 1:"
	printf '[  286.383714]  %s\n' "$@"
	cat <<'LOG'
[  286.383720] 
[  286.383721] value changed: 0x0000000000000000 -> 0x0000000000000001
[  286.383722] 
[  286.383723] Reported by Kernel Concurrency Sanitizer on:
[  286.383724] CPU: 1 UID: 0 PID: 389 Comm: binder_throughp Not tainted 7.3.4-kcsan #1 PREEMPT
[  286.383725] Hardware name: QEMU Standard PC (i440FX + PIIX, 1996), BIOS 1.16.2-debian-1.16.2-1 04/01/2014
[  286.383726] ==================================================================
LOG
}
sched='kthread_is_per_cpu+0xd/0x60 can_migrate_task+0x1a0/0x3b0 detach_tasks+0x1f0/0x420 sched_balance_rq+0x2f5/0xd90'
cp "$here/clean-boot.log" "$tmp/log"
kcsan_report $sched >>"$tmp/log"
expect 1 "KCSAN report outside binder without CHECK_LOG_KCSAN_SCOPE"
export CHECK_LOG_KCSAN_SCOPE='binder_[A-Za-z0-9_]*\+0x'
expect 0 "KCSAN report outside binder with CHECK_LOG_KCSAN_SCOPE (task binder_throughp)"
grep -q "KCSAN report outside .*kthread_is_per_cpu" "$tmp/out" && echo "ok $((n += 1)) it is named" ||
	{ echo "not ok $((n += 1)) it is named"; failed=$((failed + 1)); }
cp "$here/clean-boot.log" "$tmp/log"
kcsan_report $sched binder_alloc_free_page+0x42/0x1c0 list_lru_walk_one+0x5e/0x90 >>"$tmp/log"
expect 1 "KCSAN report with a binder frame"
cp "$here/clean-boot.log" "$tmp/log"
kcsan_report $sched | sed '$d' >>"$tmp/log"
expect 1 "KCSAN report that does not end"
cp "$here/clean-boot.log" "$tmp/log"
kcsan_report $sched '[  286.383719] WARNING: CPU: 0 PID: 1 at mm/list_lru.c:1 f+0x0/0x1' >>"$tmp/log"
expect 1 "WARNING inside a KCSAN report outside binder"
cp "$here/clean-boot.log" "$tmp/log"
{ kcsan_report $sched; kcsan_report binder_alloc_new_buf+0x1/0x2; } >>"$tmp/log"
expect 1 "KCSAN report with a binder frame after one outside binder"
CHECK_LOG_KCSAN_SCOPE='binder_(' expect 2 "bad CHECK_LOG_KCSAN_SCOPE"
unset CHECK_LOG_KCSAN_SCOPE

n=$((n + 1))
rc=0
"$check" "$tmp/does-not-exist" >/dev/null 2>&1 || rc=$?
if [ "$rc" = 2 ]; then echo "ok $n unreadable log"; else echo "not ok $n unreadable log (exit $rc)"; failed=$((failed + 1)); fi

echo "1..$n"
if [ "$failed" -ne 0 ]; then
	echo "# $failed of $n failed"
	exit 1
fi
echo "# all $n passed"
