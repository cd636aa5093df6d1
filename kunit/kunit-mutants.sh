#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kunit-mutants.sh [--check] [NAME|FILE...]: check that the binder_alloc KUnit cases can fail,
# and fail cleanly. Each kunit/mutants/NAME.patch (default: all) is a change to the split tree
# whose first "# expect:" line says what the debug flavour must report with it. Each is applied
# alone, with git apply, to one scratch worktree $TREE/wt-mutant (the split branch, the harness
# fixups staged), which kunit/kunit.sh runs as a directory tree: one fixed path, so one build
# directory, rebuilt incrementally. Prints KTAP, one line per mutant; exits 1 when any
# expectation is not met. --check only checks the files and prints the plan.
#
# Expectation clauses, separated by ";" (CASE: a case name; a parameterised case names all
# of its parameters):
#   FAIL CASE...      each result of each CASE is FAIL
#   FAIL-ANY CASE...  at least one result of the CASEs is FAIL or ERROR (crashed): one of them
#                     catches the mutant (a CASE that never ran, the kernel having died in an
#                     earlier one, needs no result)
#   PASS others       each result of any other case is PASS
#   complete          the kernel log has the suite's result line (no crash, no hang)
#   clean-log         qemu/check-log.sh finds no splat in the kernel log
# Always: kunit.py ended within KUNIT_TIMEOUT (default 900 s here), with results. A mutant
# known to survive carries "# todo: WHY": its "not ok" line gets a TODO directive and does not
# fail the run. Results and logs: $OUT/kunit-mutants/NAME/ (default out/).
. "$(dirname "$0")/../scripts/lib.sh"

check_only=0
[ "${1:-}" = --check ] && { check_only=1; shift; }
dir=$BAS_TOP/kunit/mutants
files=()
if [ $# = 0 ]; then
	for f in "$dir"/*.patch; do [ -e "$f" ] && files+=("$f"); done
	[ ${#files[@]} -gt 0 ] || die "no mutants in $dir"
fi
for a; do
	case $a in
	*/* | *.patch) f=$a ;;
	*) f=$dir/$a.patch ;;
	esac
	[ -f "$f" ] || die "no mutant '$a' ($f)"
	files+=("$(realpath "$f")")
done

# expect_of FILE: the clauses of FILE's "# expect:" line, one a line; dies on a bad one.
expect_of() {
	local line c
	line=$(sed -n 's/^# expect:[[:space:]]*//p' "$1" | head -n1)
	[ -n "$line" ] || die "${1##*/}: no '# expect:' line"
	tr ';' '\n' <<<"$line" | sed 's/^[[:space:]]*//; s/[[:space:]]*$//; /^$/d' | while read -r c; do
		case $c in
		'FAIL '?* | 'FAIL-ANY '?* | 'PASS others' | complete | clean-log) echo "$c" ;;
		*) die "${1##*/}: bad expectation '$c' (expected FAIL CASE..., FAIL-ANY CASE..., PASS others, complete or clean-log)" ;;
		esac
	done
}
for f in "${files[@]}"; do
	expect_of "$f" >/dev/null || exit 1
	grep -q '^diff --git ' "$f" || die "${f##*/}: not a git diff"
done
if [ "$check_only" = 1 ]; then
	echo "1..${#files[@]}"
	i=0
	for f in "${files[@]}"; do
		i=$((i + 1))
		echo "# $i ${f##*/}: $(expect_of "$f" | paste -sd ';' | sed 's/;/; /g')"
	done
	exit 0
fi

split=$("$BAS_TOP/scripts/prepare-tree.sh" split) || exit 1
sha=$(git -C "$split" rev-parse HEAD)
wt=$TREE/wt-mutant
export KUNIT_TIMEOUT=${KUNIT_TIMEOUT:-900}
OUT=${OUT:-$BAS_TOP/out}/kunit-mutants

add_wt() {
	[ -d "$wt" ] && return
	git -C "$TREE/base" worktree prune
	git -C "$TREE/base" worktree add -q --detach "$wt" "$sha"
}
# reset_wt: wt-mutant at the split commit with the harness fixups that apply (as
# prepare-tree.sh does) staged, so that "git diff" there shows a mutant alone. Files that do
# not change keep their timestamps.
reset_wt() {
	git -C "$wt" reset -q --hard
	git -C "$wt" clean -fdq
	git -C "$wt" checkout -q --detach "$sha"
	apply_fixups "$wt" >/dev/null
	git -C "$wt" add -A
}

# suite_done LOG: LOG has the suite's result line.
suite_done() { grep -qE '^(\[ *[0-9.]+\] )?(not )?ok [0-9]+ binder_alloc$' <(tr -d '\r' <"$1"); }

# judge NAME FILE RESULTDIR SECONDS: the KTAP line of one mutant, then its results as comments.
judge() {
	local name=$1 f=$2 o=$3 secs=$4 json log c w cs st r hit any mine todo logv why=() named=() caught=()
	local -A status
	json=$(find "$o" -maxdepth 1 -name 'kunit-dir-*-debug.json' | head -n1)
	log=$(find "$o" -maxdepth 1 -name 'kunit-dir-*-debug.log' | head -n1)
	# ktap.py kunit-status: "STATUS<TAB>KUnit Test Group.binder_alloc.CASE[.PARAM]"
	[ -z "$json" ] || while IFS=$'\t' read -r st c; do
		c=${c#KUnit Test Group.binder_alloc.}
		# A kernel that died mid-suite leaves kunit.py results without a case name: the
		# crashed case is found from the kernel log below.
		[ -n "$c" ] || continue
		status[$c]=$st
	done < <(python3 "$BAS_TOP/scripts/ktap.py" kunit-status "$json")
	logv="no kernel log"
	if [ -n "$log" ]; then
		logv=clean
		"$BAS_TOP/qemu/check-log.sh" "$log" >"$o/check-log.out" 2>&1 ||
			logv="splat: $(sed -n 2p "$o/check-log.out" | cut -c1-160)"
	fi
	# A kernel that died in a case (a panic: panic_on_warn=1) leaves no result line for it, and
	# kunit.py no result, or results for some of its parameters only: that case is the first one
	# of the suite's array, in the glob, without a result line in the log. It gets
	# CASE.(crashed) ERROR.
	if [ -n "$log" ] && ! suite_done "$log"; then
		while read -r c; do
			# shellcheck disable=SC2053 # the glob is a pattern
			[[ binder_alloc.$c == ${KUNIT_GLOB:-binder_alloc.binder_alloc_test_*} ]] || continue
			grep -qE "^(\[ *[0-9.]+\] )?    (not )?ok [0-9]+ $c( |\$)" <(tr -d '\r' <"$log") && continue
			status["$c.(crashed)"]=ERROR
			break
		done < <(sed -n '/^static struct kunit_case binder_alloc_test_cases\[\] = {/,/^};/p' \
			"$wt/drivers/android/tests/binder_alloc_kunit.c" | sed -n 's/^[[:space:]]*KUNIT_CASE[A-Z_]*(\([a-z0-9_]*\).*/\1/p')
	fi
	[ ${#status[@]} -gt 0 ] || why+=("no results (kunit.py JSON: ${json:-none})")
	! grep -q 'timed out after' "$o/kunit.out" || why+=("kunit.py timeout (${KUNIT_TIMEOUT} s) reached")
	# under CASE RESULT: RESULT is CASE or one of its parameters.
	under() { [ "$2" = "$1" ] || [ "${2#"$1".}" != "$2" ]; }
	while read -r c; do
		case $c in
		'FAIL '* | 'FAIL-ANY '*)
			w=${c%% *} hit=0
			for cs in ${c#* }; do
				named+=("$cs")
				any=0
				for r in "${!status[@]}"; do
					under "$cs" "$r" || continue
					any=1
					case ${status[$r]} in FAIL | ERROR) hit=1 && { [ "$w" = FAIL ] || caught+=("$r ${status[$r]}"); } ;; esac
					[ "$w" != FAIL ] || [ "${status[$r]}" = FAIL ] || why+=("$r: ${status[$r]}, expected FAIL")
				done
				# FAIL-ANY: a case after one that killed the kernel has no result, and
				# needs none.
				[ "$any" = 1 ] || [ "$w" = FAIL-ANY ] || why+=("$cs: no result")
			done
			[ "$hit" = 1 ] || why+=("no FAIL from ${c#* }: the mutant survived")
			;;
		'PASS others')
			for r in "${!status[@]}"; do
				mine=0
				for cs in "${named[@]}"; do under "$cs" "$r" && mine=1; done
				[ "$mine" = 1 ] || [ "${status[$r]}" = PASS ] || why+=("$r: ${status[$r]}, expected PASS")
			done
			;;
		complete)
			[ -n "$log" ] && suite_done "$log" || why+=("no suite result line in the kernel log (crash or hang)")
			;;
		clean-log) [ "$logv" = clean ] || why+=("kernel log: $logv") ;;
		esac
	done < <(expect_of "$f")
	todo=$(sed -n 's/^# todo:[[:space:]]*//p' "$f" | head -n1)
	if [ ${#why[@]} = 0 ]; then
		echo "ok $i mutant $name: as expected${caught[0]:+, caught by $(printf '%s, ' "${caught[@]}" | sed 's/, $//')} ($secs s)"
	else
		echo "not ok $i mutant $name: $(printf '%s; ' "${why[@]}" | sed 's/; $//') ($secs s)${todo:+ # TODO $todo}"
		[ -n "$todo" ] || bad=$((bad + 1))
	fi
	for r in "${!status[@]}"; do echo "${status[$r]} $r"; done | sort -k2 | sed "s/^/# $name: /"
	echo "# $name: check-log: $logv"
}

run_all() {
	local f name o t0 rc
	with_lock "$(tree_id)" add_wt
	reset_wt
	for f in "${files[@]}"; do
		git -C "$wt" apply --check "$f" 2>/dev/null ||
			die "${f##*/} does not apply to the split tree ($(git -C "$wt" rev-parse --short HEAD))"
	done
	echo "TAP version 13"
	echo "1..${#files[@]}"
	i=0
	bad=0
	for f in "${files[@]}"; do
		i=$((i + 1))
		name=${f##*/}
		name=${name%.patch}
		o=$OUT/$name
		rm -rf "$o"
		mkdir -p "$o"
		reset_wt
		git -C "$wt" apply "$f"
		git -C "$wt" diff --stat | tail -n1 | sed "s/^ */# $name: /"
		note "mutant $name: kunit/kunit.sh debug $wt (output: $o/kunit.out)"
		t0=$SECONDS
		rc=0
		OUT=$o "$BAS_TOP/kunit/kunit.sh" debug "$wt" >"$o/kunit.out" 2>&1 || rc=$?
		echo "$rc" >"$o/kunit.rc"
		judge "$name" "$f" "$o" $((SECONDS - t0))
	done
	reset_wt
	[ "$bad" = 0 ]
}
with_lock wt-mutant run_all
