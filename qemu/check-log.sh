#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# check-log.sh LOG: scan a guest's console log for kernel splats (oops, BUG, WARNING, lockdep,
# KASAN, UBSAN, kmemleak, hangs, stalls, panics). Prints the first matching lines (at most 20)
# and exits 1 when there is one, 0 when the log is clean, 2 when it cannot be read.
set -euo pipefail

log=${1:?usage: check-log.sh LOG}
[ -r "$log" ] || { echo "check-log.sh: error: cannot read $log" >&2; exit 2; }

# Patterns are anchored to what the kernel prints at the start of a message (after the
# optional "[    1.234567] " timestamp and "CPU: n PID: n" style prefixes are left alone):
# benign boot lines such as "Freeing unused kernel image (initmem) memory" or
# "RCU CPU stall warnings timeout set to 21" must not match.
patterns=(
	'BUG: '
	'WARNING: '
	'Oops'
	'kernel BUG'
	'general protection fault'
	'possible circular locking dependency'
	'inconsistent lock state'
	'possible recursive locking'
	'suspicious RCU usage'
	'lock held when returning to user space'
	'bad unlock balance'
	'INFO: task .* blocked for more than'
	'KASAN: '
	'UBSAN: '
	'unreferenced object 0x'
	'Kernel panic'
	'Call [Tt]race:'
	'RCU stall'
	'rcu_[a-z_]* detected (expedited )?stalls'
	'soft lockup'
	'hard LOCKUP'
	'sleeping function called from invalid context'
	'Unable to handle kernel'
	'kernel stack overflow'
	'stack-protector: '
	'list_(add|del) corruption'
	'Workqueue: .* hung'
	'BUG: workqueue lockup'
)
re=$(IFS='|'; echo "${patterns[*]}")
# The same but for "Call Trace:" (arm64: "Call trace:"), which every page allocation failure
# report has.
other=$(for p in "${patterns[@]}"; do [ "$p" = 'Call [Tt]race:' ] || printf '%s|' "$p"; done)
other=${other%|}
# CHECK_LOG_INJECTED_FAULTS=1 (make stress and make fuzz with fault injection): the report of
# each failed page allocation or vmalloc (warn_alloc's "page allocation failure: order:..." or
# "vmalloc error: size N, ..." with its stack and Mem-Info, which ends with "N pages reserved",
# at most 150 lines) is expected: drop those lines first, but for any line in them that looks
# like a splat other than the report's own "Call Trace:" (another CPU's report can be printed in
# the middle of it).
filter() {
	if [ "${CHECK_LOG_INJECTED_FAULTS:-0}" = 1 ]; then
		awk -v re="$other" '/page allocation failure: order:|vmalloc error: size [0-9]+, / { skip = 150 }
			!skip || $0 ~ re { print }
			skip { skip--; if (/ pages reserved$/) skip = 0 }'
	else
		cat
	fi
}
# CHECK_LOG_KCSAN_SCOPE=ERE (make stress on the kcsan kernel): a KCSAN report (from its
# "BUG: KCSAN:" line to the closing "=====" line, at most 200 lines) none of whose lines matches
# ERE is a data race of code outside the test's subject (the scheduler's, say): name it on
# stderr and drop it, but for any other splat line printed in the middle of it. A report that
# matches, or does not end where it should, stays and fails the log.
if [ -n "${CHECK_LOG_KCSAN_SCOPE:-}" ]; then
	rc=0
	grep -E -- "$CHECK_LOG_KCSAN_SCOPE" </dev/null 2>/dev/null || rc=$?
	[ "$rc" = 1 ] || { echo "check-log.sh: error: bad CHECK_LOG_KCSAN_SCOPE: $CHECK_LOG_KCSAN_SCOPE" >&2; exit 2; }
fi
kcsan_scope() {
	if [ -n "${CHECK_LOG_KCSAN_SCOPE:-}" ]; then
		# The scope comes through ENVIRON: awk -v would take its backslashes as escapes.
		awk -v re="$re" -v file="$log" '
			BEGIN { scope = ENVIRON["CHECK_LOG_KCSAN_SCOPE"] }
			function flush(keep,   i) {
				if (!keep)
					printf "check-log.sh: %s: KCSAN report outside /%s/, not counted: %s\n",
						file, scope, buf[1] >"/dev/stderr"
				for (i = 1; i <= n; i++)
					if (keep || (i > 1 && buf[i] ~ re))
						print buf[i]
				n = 0; inscope = 0
			}
			/BUG: KCSAN: / { if (n) flush(1) }
			!n && !/BUG: KCSAN: / { print; next }
			{
				buf[++n] = $0
				if ($0 ~ scope) inscope = 1
				if (n > 1 && /^(\[ *[0-9.]+\] )?=+$/) flush(inscope)
				else if (n >= 200) flush(1)
			}
			END { if (n) flush(1) }'
	else
		cat
	fi
}
# Strip the carriage returns that a serial console adds. A filter that fails is an error, not
# a clean log.
text=$(tr -d '\r' <"$log" | filter | kcsan_scope) || {
	echo "check-log.sh: error: cannot filter $log" >&2
	exit 2
}
if matches=$(grep -n -E -- "$re" <<<"$text" | head -n 20) && [ -n "$matches" ]; then
	echo "$log: kernel splat:"
	echo "$matches"
	exit 1
fi
exit 0
