#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# reproducer.sh LOG FUZZER: the program of binder_fuzz that ran last before the first splat of
# the console log LOG (make fuzz, fuzz/fuzz.sh), as a program file on stdout: the last
# "# prog N ..." line before that splat names it (binder_fuzz -L writes one to the kernel log
# before each program), either "seed S", rebuilt with FUZZER -p -s S, or "mutant of corpus K
# seed S", rebuilt with FUZZER -p -r ENTRY -m S from the last "# corpus K:" block before it. The
# splat is the first line that qemu/check-log.sh finds, with the same CHECK_LOG_* knobs as the
# run's. Exits 1, saying why, when there is no splat or no program before it.
. "$(dirname "$0")/../scripts/lib.sh"

[ $# = 2 ] || die "usage: reproducer.sh LOG FUZZER"
log=$1 fuzzer=$2
[ -r "$log" ] || die "cannot read $log"
[ -x "$fuzzer" ] || die "FUZZER=$fuzzer is not an executable"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tr -d '\r' <"$log" >"$tmp/log"
# check-log.sh: "LOG: kernel splat:", then "N:LINE" for each line it found.
first=$("$BAS_TOP/qemu/check-log.sh" "$tmp/log" 2>/dev/null | sed -n '2{s/^[0-9]*://;p;q}') || true
[ -n "$first" ] || { echo "reproducer.sh: no splat in $log" >&2; exit 1; }
at=$(grep -n -F -m1 -- "$first" "$tmp/log" | cut -d: -f1)
head -n "$at" "$tmp/log" >"$tmp/before"
last=$(sed -n 's/.*# prog [0-9][0-9]* //p' "$tmp/before" | tail -n1)
case $last in
"seed "*)
	"$fuzzer" -p -s "${last#seed }"
	;;
"mutant of corpus "*)
	set -- $last
	# The last block of entry K before the program: its "# | " lines, from its header to the
	# next program (the kernel's own lines may come in between).
	awk -v k="$4" '
		/# corpus [0-9]+:$/ { on = ($NF == k ":"); if (on) n = 0; next }
		/# prog [0-9]+ / { on = 0; next }
		on && /# \| / { sub(/.*# \| /, ""); buf[n++] = $0 }
		END { for (i = 0; i < n; i++) print buf[i] }' "$tmp/before" >"$tmp/entry"
	[ -s "$tmp/entry" ] || die "no corpus entry $4 before the splat in $log"
	"$fuzzer" -p -r "$tmp/entry" -m "$6"
	;;
*)
	echo "reproducer.sh: no \"# prog\" line before the splat in $log" >&2
	exit 1
	;;
esac
