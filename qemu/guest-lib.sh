# SPDX-License-Identifier: GPL-2.0
# Shell helpers of the guest test plans (module-run, dkms-run, stress-run, fixes-run, smoke-run,
# selftest-run, bench-run, aosp-run), at /tests/lib.sh in the initramfs: their KTAP, and what more than
# one of them measures. Sourced by busybox sh.

# memfree: MemFree in kB once the page cache and the shrinkable caches are dropped.
memfree() {
	sync
	echo 3 >/proc/sys/vm/drop_caches
	sed -n 's/^MemFree: *\([0-9]*\) kB/\1/p' /proc/meminfo
}

# live: binder objects still active (the sum of debugfs stats' "active" counts) and procs.
live() {
	a=$(awk '$2 == "active" { s += $3 } END { print s + 0 }' /sys/kernel/debug/binder/stats)
	echo "$a $(ls /sys/kernel/debug/binder/proc | wc -l)"
}

# The plan's KTAP goes to the console and to the result device, which /init opens for the plan
# as fd 3 (qemu/init.c): there no kernel message can cut a line, and qemu/qemu-run.sh copies it
# to DIR/ktap, where the host reads the results.
# (true, not ':': a redirection that fails on a special builtin ends a POSIX shell)
if { true >&3; } 2>/dev/null; then ktap_port=1; else ktap_port=0; fi

# ktap_line LINE: one line of KTAP; ktap_msg TEXT...: a "# " diagnostic line.
ktap_line() {
	printf '%s\n' "$1"
	[ "$ktap_port" = 0 ] || printf '%s\n' "$1" >&3
}
ktap_msg() { ktap_line "# $*"; }
# ktap_forward: each line of standard input as it is (a program's own KTAP);
# ktap_cat [PREFIX]: each line of standard input as a "# PREFIX..." line.
# (a last line without its newline is still a line)
ktap_forward() { while IFS= read -r l || [ -n "$l" ]; do ktap_line "$l"; done; }
ktap_cat() { while IFS= read -r l || [ -n "$l" ]; do ktap_msg "${1:-}$l"; done; }

# check DESC CMD...: run CMD, print its KTAP line, return its status; counts in $n, $failed.
n=0
failed=0
check() {
	desc=$1
	shift
	n=$((n + 1))
	if "$@"; then
		ktap_line "ok $n $desc"
	else
		ktap_line "not ok $n $desc"
		failed=$((failed + 1))
		return 1
	fi
}

# sm_start: binderfs on /dev/binderfs with /dev/binder a link to its "binder" device (the module
# loaded with devices=binder; libbinder opens /dev/binder), and Android's servicemanager
# (/tests/servicemanager, AOSP's, aosp/aosp-build.sh) on it as context manager; its pid in $sm
# once it has entered its looper, which it does after BINDER_SET_CONTEXT_MGR_EXT (debugfs:
# "thread PID: l 02", or 12 once waiting), 20 s at most; else non-zero, why in $sm_err.
# sm_stop: stop it (non-zero if it had died), unlink and detach binderfs.
sm_start() {
	mkdir -p /dev/binderfs
	if ! mount -t binder binder /dev/binderfs; then
		sm_err="cannot mount binderfs on /dev/binderfs"
		return 1
	fi
	ln -sf /dev/binderfs/binder /dev/binder
	/tests/servicemanager /dev/binder >/tmp/sm.log 2>&1 &
	sm=$!
	for _ in $(seq 200); do
		grep -qE "thread $sm: l [0-9a-f]?2" "/sys/kernel/debug/binder/proc/$sm" 2>/dev/null && return 0
		kill -0 "$sm" 2>/dev/null || break
		sleep 0.1
	done
	sm_err="servicemanager did not become the context manager: $(head -n1 /tmp/sm.log)"
	sm_stop
	return 1
}
sm_stop() {
	kill "$sm" 2>/dev/null
	sm_rc=$?
	wait "$sm" 2>/dev/null
	rm -f /dev/binder
	umount -l /dev/binderfs
	return "$sm_rc"
}

# The lines of a binderThroughputTest (AOSP's) whose worker failed: it exits 0 all the same.
AOSP_BT_FAILED='^thread [0-9]+ failed|condition:.* failed|^nonzero child status'

# run_limited SECS OUT CMD...: CMD in a session of its own (setsid), its output to OUT; after
# SECS the whole session is sent SIGTERM, and SIGKILL 5 s later (busybox timeout signals only
# its child, not the processes that child forked). Returns CMD's status; $limited is 1 when the
# limit ended it, $left 1 when CMD left processes of its session behind (killed here: a
# binderThroughputTest whose worker failed leaves the others blocked on their pipes).
run_limited() {
	rl_secs=$1 rl_out=$2
	shift 2
	rm -f /tmp/.limited
	setsid "$@" >"$rl_out" 2>&1 </dev/null &
	rl_pid=$!
	setsid sh -c "sleep $rl_secs; touch /tmp/.limited; kill -TERM -$rl_pid; sleep 5; kill -KILL -$rl_pid" \
		>/dev/null 2>&1 </dev/null &
	rl_wd=$!
	wait "$rl_pid"
	rl_rc=$?
	left=0
	if kill -0 "-$rl_pid" 2>/dev/null; then
		left=1
		kill -KILL "-$rl_pid" 2>/dev/null
	fi
	kill -KILL "-$rl_wd" 2>/dev/null
	wait "$rl_wd" 2>/dev/null
	limited=0
	[ ! -f /tmp/.limited ] || limited=1
	return "$rl_rc"
}

# unload MOD: rmmod, retried while binder's last files are released.
unload() {
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		rmmod "$1" 2>/dev/null && [ ! -e "/sys/module/$1" ] && return 0
		sleep 1
	done
	rmmod "$1"
}
