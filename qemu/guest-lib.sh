# SPDX-License-Identifier: GPL-2.0
# Shell helpers of the guest test plans (module-run, dkms-run, stress-run, fixes-run, smoke-run,
# selftest-run, bench-run, aosp-run), at /tests/lib.sh in the initramfs: their KTAP, and what more than
# one of them measures. Sourced by busybox sh.

# free_kb: free memory in kB, as exactly as the kernel counts it: once the page cache and the
# shrinkable caches are dropped and every slab cache has given its empty slabs back, MemFree
# with each CPU's pending counter deltas folded in (stat_refresh), plus the free pages on the
# per-CPU lists (zoneinfo's "count:"), which MemFree leaves out and which move by megabytes
# from one reading to the next.
free_kb() {
	sync
	echo 3 >/proc/sys/vm/drop_caches
	for fk_s in /sys/kernel/slab/*/shrink; do echo 1 >"$fk_s"; done 2>/dev/null
	echo 1 >/proc/sys/vm/stat_refresh
	awk -v kb="$(awk '$1 == "KernelPageSize:" { print $2; exit }' /proc/self/smaps)" '
		FILENAME == "/proc/meminfo" && $1 == "MemFree:" { free = $2 }
		FILENAME == "/proc/zoneinfo" && $1 == "count:" { pcp += $2 }
		END { print free + pcp * kb }' /proc/meminfo /proc/zoneinfo
}

# depot_kb: kB in the stack depot's pools (<debugfs>/stackdepot/stats; 0 without one): where
# KASAN and kmemleak keep the call stacks they record, and which never gives memory back. It
# grows with every new stack seen, so free memory drops by it under a load that leaks nothing.
depot_kb() {
	awk '$1 == "pools:" { p = $2 } END { print (p + 0) * 16 }' /sys/kernel/debug/stackdepot/stats 2>/dev/null ||
		echo 0
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

# Fault injection (stress-run, fuzz-run), limited to stacks through a range of text: FAULTS=all,
# from MODULE's start to the end of the module area (MODULE is the only module loaded); FAULTS=1,
# binder_alloc.c's .text: the functions listed in /tests/alloc-text (from binder_alloc.o, by
# alloc_text in scripts/lib.sh) must sit together in /proc/kallsyms, and the range ends at the
# next symbol; names that another object of the module has too (/tests/alloc-skip) are skipped.
# Addresses are 16 hex digits: sort compares them as strings.
TIMES=1000000
dbg=/sys/kernel/debug
# The end of the module area: x86_64's ends at 0xffffffffff000000; arm64's (no KASLR in the
# test kernels) where the kernel image starts, at _text.
case $(uname -m) in
aarch64) area_end=0x$(awk '$3 == "_text" { print $1; exit }' /proc/kallsyms) ;;
*) area_end=0xffffffffff000000 ;;
esac
# alloc_range: prints the range as "START END", or why there is none.
alloc_range() {
	awk -v m="[$MODULE]" 'FILENAME == ARGV[1] { a[$1] = 1; next }
		FILENAME == ARGV[2] { skip[$1] = 1; next }
		$4 == m && ($2 == "t" || $2 == "T") && !($3 in skip) { print $1, ($3 in a) ? 1 : 0 }' \
		/tests/alloc-text /tests/alloc-skip /proc/kallsyms | sort | awk -v area_end="$area_end" '
		$2 == 1 && state == 2 { state = 3; at = $1 }
		$2 == 1 && state == 0 { start = $1; state = 1 }
		$2 == 0 && state == 1 { end = $1; state = 2 }
		END {
			if (state == 0) print "no binder_alloc.c function of the module in /proc/kallsyms"
			else if (state == 3) print "binder_alloc.c text is not in one piece (again at 0x" at ")"
			else print "0x" start, (state == 2 ? "0x" end : area_end)
		}'
}
# module_range: the same for FAULTS=all.
module_range() {
	awk -v m="$MODULE" -v area_end="$area_end" '$1 == m { print $6, area_end; n++ }
		END { if (!n) print "no", m, "in /proc/modules" }' /proc/modules
}
# faults_on: failslab and fail_page_alloc fail 1% of the allocations of the tasks that have
# make-it-fail set, under that range; faults_off prints how many failed.
faults_on() {
	if [ "$FAULTS" = all ]; then
		set -- $(module_range)
	else
		set -- $(alloc_range)
	fi
	start=$1 end=${2:-}
	case $start in
	0x0000000000000000) ktap_msg "text addresses are hidden (kptr_restrict)"; return 1 ;;
	0x*) ;;
	*) ktap_msg "$*"; return 1 ;;
	esac
	case $end in
	0x?*) ;;
	*) ktap_msg "no end for the range (no _text in /proc/kallsyms?)"; return 1 ;;
	esac
	ktap_msg "fault injection under $start-$end"
	for d in failslab fail_page_alloc; do
		f=$dbg/$d
		echo 1 >"$f/probability" && echo 1 >"$f/interval" && echo "$TIMES" >"$f/times" &&
			echo 0 >"$f/verbose" && echo Y >"$f/task-filter" && echo N >"$f/ignore-gfp-wait" &&
			echo "$start" >"$f/require-start" && echo "$end" >"$f/require-end" ||
			return 1
	done
	echo N >$dbg/fail_page_alloc/ignore-gfp-highmem && echo 0 >$dbg/fail_page_alloc/min-order
}
faults_off() { # prints the number of failures injected, in all and by kind
	t=0 by=
	for d in failslab fail_page_alloc; do
		echo 0 >"$dbg/$d/probability"
		k=$((TIMES - $(cat "$dbg/$d/times")))
		t=$((t + k)) by="$by${by:+, }$d $k"
	done
	echo "$t ($by)"
}
# left_over (stress-run, fuzz-run): what is left, from binder's debugfs: active objects other than nodes, nodes, procs, and the
# dead nodes that an upstream race in binder.c leaks: a transaction that fails after its target
# process released its nodes drops a local strong ref that the release already zeroed
# (fixes/dead-node-local-refs.patch). With FIXES=1 the module carries that fix and nothing may
# be left. With FIXES=0 those nodes, found by their signature (dead, every count zero but
# local_strong_refs, which is negative: -1, or -2 for two such transactions), are counted and
# shown, not failed.
left_over() {
	st=/sys/kernel/debug/binder/stats
	bug=0
	[ "$FIXES" = 1 ] || bug=$(sed -n '/^dead nodes:/,/^[^ ]/p' /sys/kernel/debug/binder/state |
		grep -c -E '^  node [0-9]+: .* ls -[0-9]+ lw 0 is 0 iw 0 ')
	echo "$(awk '$2 == "active" && $1 != "node:" { s += $3 } END { print s + 0 }' $st)" \
		"$(awk '$1 == "node:" && $2 == "active" { print $3 + 0 }' $st)" \
		"$(ls /sys/kernel/debug/binder/proc | wc -l)" "$bug"
}
# wait_left_over: prints left_over's figures once nothing is left (binder's deferred release
# runs in a workqueue), or after 10 s.
wait_left_over() {
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		set -- $(left_over)
		[ "$1" = 0 ] && [ "$2" = "$4" ] && [ "$3" = 0 ] && break
		sleep 1
	done
	echo "$@"
}

# kcsan_counters WHO: on the kcsan kernel, KCSAN's counters as "# WHO: KCSAN: ..." (read by
# kcsan_counted in scripts/lib.sh), and a check that it was on and watching. Its reports go to the
# kernel log, which the host scans.
kcsan_counters() {
	ktap_msg "$1: KCSAN: $(awk -F': ' 'NF == 2 && $1 ~ /^(enabled|setup_watchpoints|data_races|report_races|races_unknown_origin|no_capacity)$/ {
		printf "%s%s %s", sep, $1, $2; sep = ", " }' "$dbg/kcsan")"
	check "KCSAN on and watching" sh -c "grep -q '^enabled: 1\$' $dbg/kcsan && ! grep -q '^setup_watchpoints: 0\$' $dbg/kcsan"
}

# fuzz_figures OUT: binder_fuzz's figures in its output OUT (its "# " lines but the programs and
# the corpus entries) as "# fuzz: ..." lines (fuzz-run, suites-run).
fuzz_figures() {
	grep '^# ' "$1" | grep -v -e '^# prog ' -e '^# corpus [0-9]*:$' -e '^# | ' | ktap_cat 'fuzz: '
}
# fuzz_ok OUT RC: binder_fuzz exited RC 0 with its ok line, no call of it timed out, no process of
# it was killed by a signal, and binder released every program's processes in time.
fuzz_ok() {
	[ "$2" = 0 ] && grep -q '^ok 1 binder_fuzz' "$1" && grep -q '^# calls timed out: 0$' "$1" &&
		grep -q '^# processes killed by a signal: 0$' "$1" &&
		grep -q '^# programs whose release took over [0-9]* s: 0$' "$1"
}

# unload MOD: rmmod, retried while binder's last files are released.
unload() {
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		rmmod "$1" 2>/dev/null && [ ! -e "/sys/module/$1" ] && return 0
		sleep 1
	done
	rmmod "$1"
}
