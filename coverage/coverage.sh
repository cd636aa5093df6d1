#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# coverage.sh: make coverage. For each driver of COV_MODULES, one boot of the debug kernel that
# runs every suite (suites/suites.sh: KUnit at load, the selftest's check plan, the fixes'
# reproducers, stress-run's loads with fault injection, the fuzzer) on the module built with
# gcov's counters (BAS_GCOV=1). The guest ships the module's .gcda files after each suite and
# resets the counters; here each suite becomes an lcov tracefile (geninfo, with the module's
# .gcno files), and coverage/cov-report.sh merges them (lcov -a) and reports binder_alloc.c's
# lines and branches per suite and merged, and, for the series' driver, every line it adds or
# changes (against the stock driver's binder_alloc.c, both with fixes/) that no suite reached,
# with its reason from coverage/unreached. Writes out/coverage/DRIVER/: the tracefiles,
# report.txt and html/ (genhtml). Fails when a suite failed or a line lacks its reason.
# Knobs:
#   COV_MODULES            the drivers (default "binder_linux binder_alloc_split")
#   SUITES_STRESS_SECONDS, SUITES_FUZZ_SECONDS, FUZZ_SEED: suites/suites.sh's (120, 300, 1)
#   and those of qemu-run.sh.
. "$(dirname "$0")/../scripts/lib.sh"

[ $# = 0 ] || die "coverage.sh takes no arguments (knobs: COV_MODULES, SUITES_STRESS_SECONDS, SUITES_FUZZ_SECONDS, FUZZ_SEED)"
modules=${COV_MODULES:-binder_linux binder_alloc_split}
[ -n "${modules// /}" ] || die "COV_MODULES is empty (expected binder_alloc_split and/or binder_linux)"
for m in $modules; do
	case $m in binder_alloc_split | binder_linux) ;; *) die "COV_MODULES: unknown module '$m' (expected binder_alloc_split or binder_linux)" ;; esac
done
command -v lcov >/dev/null && command -v genhtml >/dev/null || die "lcov not found (make deps installs it)"
gcov_tool=gcov-$(gcc -dumpversion | cut -d. -f1)
command -v "$gcov_tool" >/dev/null || die "$gcov_tool not found: the gcov of the gcc that builds the modules"

out=${OUT:-$BAS_TOP/out}/coverage
rm -rf "$out"
mkdir -p "$out"
lrc=(--rc lcov_branch_coverage=1)

# tracefiles RUN MODDIR: RUN/SUITE.info for each suite whose .gcda files the guest shipped
# (RUN/guest/ktap), each checked against its md5sum; prints the suites.
tracefiles() {
	local run=$1 moddir=$2 suite path sum f d
	mkdir -p "$run/gcda"
	awk -v dir="$run/gcda" '
		$1 == "gcda" { f = dir "/" n++ ".b64"; print $2, $3, $4, f > (dir "/index"); next }
		$1 == "b64" && f != "" { print $2 > f; next }
		$1 == "gcda-end" { close(f); f = "" }' "$run/guest/ktap"
	[ -s "$run/gcda/index" ] || die "no .gcda from the guest (see $run/guest/console.log)"
	while read -r suite path sum f; do
		# The gcda's path is the module build dir's, on the host: it goes beside a copy of the .gcno.
		case $path in "$moddir"/*) ;; *) die "a .gcda from outside the module's build dir: $path" ;; esac
		d=$run/gcda/$suite/tree
		if [ ! -d "$d" ]; then
			mkdir -p "$d"
			(cd "$moddir" && find . -name '*.gcno' -exec cp --parents {} "$d/" \;)
		fi
		mkdir -p "$d/$(dirname "${path#"$moddir"/}")"
		base64 -d "$f" >"$d/${path#"$moddir"/}" || die "bad base64 for $path ($suite)"
		[ "$(md5sum <"$d/${path#"$moddir"/}" | cut -d' ' -f1)" = "$sum" ] || die "$path ($suite): md5sum differs from the guest's"
	done <"$run/gcda/index"
	for suite in $(awk '{ print $1 }' "$run/gcda/index" | uniq); do
		geninfo "${lrc[@]}" --gcov-tool "$gcov_tool" --quiet --base-directory "$moddir" \
			-o "$run/$suite.info" "$run/gcda/$suite/tree" >>"$run/geninfo.log" 2>&1 ||
			die "geninfo failed for $suite (see $run/geninfo.log)"
		echo "$suite"
	done
}

rc=0
stock_src=
for module in $modules; do
	run=$out/$module
	r=0
	BAS_GCOV=1 "$BAS_TOP/suites/suites.sh" debug "$module" "$run" || r=$?
	[ "$r" = 0 ] || rc=1
	moddir=$(cat "$run/moddir") || die "suites.sh left no $run/moddir"
	[ "$module" != binder_linux ] || stock_src=$moddir/binder_alloc.c
	suites=$(tracefiles "$run" "$moddir")
	changed=()
	if [ "$module" = binder_alloc_split ]; then
		# The lines of the series' binder_alloc.c that differ from the stock driver's (with
		# fixes/ both), by their number in the series' file.
		[ -n "$stock_src" ] || stock_src=$(dirname "$(KDIR=$TREE/build-stock-debug-m MODULE=binder_linux \
			BAS_GCOV=1 BAS_KCOV=1 BAS_KUNIT=1 "$BAS_TOP/scripts/build-module.sh" | tail -n1)")/binder_alloc.c
		diff --unchanged-line-format= --old-line-format= --new-line-format='%dn
' "$stock_src" "$moddir/binder_alloc.c" >"$run/changed-lines" || [ $? = 1 ] || die "diff of binder_alloc.c failed"
		changed=("$run/changed-lines")
	fi
	# shellcheck disable=SC2086 # the suites, a word each
	"$BAS_TOP/coverage/cov-report.sh" "$run" binder_alloc.c "${changed[@]:--}" $suites >"$run/report.txt" || rc=1
	cat "$run/report.txt"
	genhtml "${lrc[@]}" --quiet -o "$run/html" "$run/total.info" >"$run/genhtml.log" 2>&1 ||
		die "genhtml failed (see $run/genhtml.log)"
	note "coverage: $module: $run/report.txt, $run/html/index.html"
done
exit "$rc"
