#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# fixes-check.sh (make fixes-check): each upstream fix of fixes/ against its reproducer, in QEMU
# on the debug binder=m kernel (lockdep, KASAN, kmemleak, fault injection). The reproducer must
# fail on the driver without the fixes and pass on the driver with them. Two boots, each of a
# binder_linux.ko built out of tree (build-module.sh) with the binder_alloc KUnit suite linked in
# (BAS_KUNIT=1):
#   stock: FIXES=tests, the unfixed 7.3.4 driver with only the KUnit cases of the fixes;
#   fixed: FIXES=1, the driver with every fix.
# In each, fixes/fixes-run loads the module, which runs the fixes' KUnit cases (kunit.filter_glob),
# then runs selftests/binder_fixes. One KTAP line per fix and direction:
#   ok N NAME: stock fails     ("not ok" if the reproducer did not fail without the fix)
#   ok N NAME: fixed passes    ("not ok" if it did not pass with it)
# A boot whose kernel log has a splat, or whose guest gave no verdict, fails its direction.
# A fix in fixes/ without a reproducer below, or the reverse, is an error.
# Knobs: OUT (default out/), and those of qemu-run.sh (TIMEOUT, default 600 s a boot).
. "$(dirname "$0")/../scripts/lib.sh"

# NAME (fixes/NAME.patch) and its reproducer: kunit:CASE[,CASE...], KUnit cases that the fix
# adds to drivers/android/tests/binder_alloc_kunit.c (each one must fail on stock and pass fixed),
# TEST, a test of selftests/binder_fixes, or none:WHY for a fix with no deterministic reproducer:
# both its lines are "# SKIP WHY".
REPROS=(
	"kunit-exit-unmap none:the race of the suite's .exit with the test kthread's exit_mmap() is timing-dependent (its mail says so); each make kunit run goes through the fixed teardown after every case"
	"buffer-free-bitfield kunit:binder_buffer_test_free_apart"
	"page-lookup-ref kunit:binder_alloc_test_lost_install_race"
	"publish-race kunit:binder_alloc_test_lost_publish_race,binder_alloc_test_lookup_after_zap,binder_alloc_test_lookup_unpublished"
	"dead-node-local-refs dead_node"
	"failed-reply-alloc reply_alloc"
)

[ $# = 0 ] || die "usage: fixes-check.sh (no arguments)"
declare -A repro=()
cases=()
for r in "${REPROS[@]}"; do
	name=${r%% *}
	repro[$name]=${r#* }
	[ -f "$BAS_TOP/fixes/$name.patch" ] || die "REPROS names fixes/$name.patch, which does not exist"
	case ${repro[$name]} in
	kunit:*[!a-z0-9_,]* | kunit: | kunit:,* | kunit:*, | kunit:*,,*) die "REPROS: $name: '${repro[$name]}' is not kunit:CASE[,CASE...]" ;;
	kunit:*) IFS=, read -ra c <<<"${repro[$name]#kunit:}" && cases+=("${c[@]}") ;;
	none:?*) ;;
	none:) die "REPROS: $name: none: needs a reason" ;;
	esac
done
for p in "$BAS_TOP"/fixes/*.patch; do
	[ -e "$p" ] || continue
	name=$(basename "$p" .patch)
	[ -n "${repro[$name]:-}" ] || die "fixes/$name.patch has no reproducer in REPROS of ${0##*/}"
done
out=${OUT:-$BAS_TOP/out}/fixes-check
rm -rf "$out"
mkdir -p "$out"
bdir=$TREE/build-stock-debug-m
"$BAS_TOP/scripts/build-kernel.sh" stock debug m >/dev/null
hdr=$(uapi_headers)
make -s -C "$BAS_TOP/selftests/binder_fixes" OUTPUT="$out" KSFT="$TREE/wt-stock/tools/testing/selftests" \
	KHDR_INCLUDES="-isystem $hdr/usr/include" static >"$out/build.log" 2>&1 ||
	die "building selftests/binder_fixes failed: $(grep -m1 -E 'error|Error' "$out/build.log" || head -n1 "$out/build.log")"
declare -A ko=()
for dir in stock fixed; do
	f=1
	[ "$dir" = fixed ] || f=tests
	ko[$dir]=$(KDIR=$bdir MODULE=binder_linux FIXES=$f BAS_KUNIT=1 "$BAS_TOP/scripts/build-module.sh" | tail -n1) ||
		die "building binder_linux.ko (FIXES=$f BAS_KUNIT=1) failed"
done

# KUnit runs the cases of a module at load only when it is enabled and set to run them: the
# debug kernel, from allnoconfig, has KUNIT_DEFAULT_ENABLED and KUNIT_AUTORUN_ENABLED off. Only
# the reproducers may run: the suite's other cases meet an upstream race of the KUnit harness on
# the stock driver (BUG_ON(alloc->mapped) in .exit, which fixes/kunit-exit-unmap.patch fixes). They sit
# in two suites, and kunit.filter_glob is one glob, SUITE.CASE: KUNIT_GLOB, checked here to
# match exactly the reproducers among the cases of the fixed module's binder_alloc_kunit.c.
KUNIT_GLOB='binder_*.binder_*_test_[fl]*'
args=()
if [ ${#cases[@]} -gt 0 ]; then
	src=$(dirname "${ko[fixed]}")/tests/binder_alloc_kunit.c
	[ -f "$src" ] || die "no $src in the fixed module's build directory"
	for c in $(sed -n 's/^[[:space:]]*KUNIT_CASE[A-Z_]*(\([a-z0-9_]*\).*/\1/p' "$src"); do
		# shellcheck disable=SC2053 # a glob, as KUnit matches it
		[[ $c == ${KUNIT_GLOB#*.} ]] && m=1 || m=0
		[[ " ${cases[*]} " == *" $c "* ]] && w=1 || w=0
		[ "$m" = "$w" ] || die "KUNIT_GLOB '$KUNIT_GLOB' $([ "$m" = 1 ] && echo matches || echo misses) the case $c"
	done
	args=(kunit.enable=1 kunit.autorun=1 "kunit.filter_glob=$KUNIT_GLOB")
fi
printf '%s\n' "${cases[@]}" >"$out/kunit-cases"
declare -A why=() status=()
kunitpy=$TREE/wt-stock/tools/testing/kunit/kunit.py
for dir in stock fixed; do
	initrd=$("$BAS_TOP/qemu/mkinitramfs.sh" "$out/$dir.cpio" "$BAS_TOP/fixes/fixes-run:/tests/run" \
		"$BAS_TOP/qemu/guest-lib.sh:/tests/lib.sh" "${ko[$dir]}:/tests/binder_linux.ko" \
		"$out/binder_fixes-static:/tests/binder_fixes" "$out/kunit-cases:/tests/kunit-cases")
	note "fixes-check: the $dir driver"
	# Fault injection (reply_alloc) reports no failed page allocation, but should one appear the
	# log scan takes it as the test's, not as a splat.
	CHECK_LOG_INJECTED_FAULTS=1 "$BAS_TOP/qemu/qemu-run.sh" --kernel "$bdir/arch/x86/boot/bzImage" \
		--initrd "$initrd" --out "$out/$dir" -- "${args[@]}" >"$out/$dir.verdict" 2>&1 ||
		why[$dir]=$(sed -n 's/^FAIL: //p' "$out/$dir.verdict" | head -n1)
	# What the plan wrote (binder_fixes' KTAP among it), as comments of this stage.
	sed "s/^/# $dir: /" "$out/$dir/ktap" 2>/dev/null || true
	# Each reproducer's outcome, "ok", "not ok" or "skip": binder_fixes' TESTs from its KTAP
	# ("ok N global.NAME[ # SKIP ...]"), the KUnit cases from the kernel's, which kunit.py
	# parses out of the console log.
	[ ! -f "$out/$dir/ktap" ] || while IFS=$'\t' read -r st name; do
		status[$dir:${name#*.}]=$st
	done < <(python3 "$BAS_TOP/scripts/ktap.py" status "$out/$dir/ktap")
	# kunit.py parse exits non-zero when a case failed, which the stock driver's should.
	[ ${#cases[@]} = 0 ] || python3 "$BAS_TOP/scripts/ktap.py" kunit-log "$kunitpy" \
		"$out/$dir/console.log" "$out/$dir/kunit.json" >"$out/$dir/kunit-parse.log" 2>&1 || true
	if [ -s "$out/$dir/kunit.json" ]; then
		while IFS=$'\t' read -r st name; do
			case $st in PASS) st=ok ;; SKIP) st=skip ;; *) st=not-ok ;; esac
			status[$dir:${name##*.}]=$st
		done < <(python3 "$BAS_TOP/scripts/ktap.py" kunit-status "$out/$dir/kunit.json")
	fi
done

n=0
fails=0
for r in "${REPROS[@]}"; do
	name=${r%% *}
	test=${repro[$name]#kunit:}
	for dir in stock fixed; do
		n=$((n + 1))
		want="fixed passes"
		[ "$dir" = fixed ] || want="stock fails"
		if [[ ${repro[$name]} == none:* ]]; then
			echo "ok $n $name: $want # SKIP ${repro[$name]#none:}"
			continue
		fi
		# Each of the fix's reproducers: the first that does not give what this direction
		# wants is the reason of its "not ok".
		bad=
		[ -z "${why[$dir]:-}" ] || bad="the $dir boot failed (${why[$dir]})"
		IFS=, read -ra tests <<<"$test"
		for t in "${tests[@]}"; do
			[ -z "$bad" ] || break
			st=${status[$dir:$t]:-}
			if [ -z "$st" ]; then
				bad="no result for $t from the guest"
			elif [ "$st" = skip ]; then
				bad="$t was skipped (see the $dir lines above)"
			elif [ "$dir" = stock ] && [ "$st" = ok ]; then
				bad="$t passed without the fix"
			elif [ "$dir" = fixed ] && [ "$st" != ok ]; then
				bad="$t failed with the fix"
			fi
		done
		if [ -z "$bad" ]; then
			echo "ok $n $name: $want"
			continue
		fi
		echo "not ok $n $name: $want: $bad"
		fails=$((fails + 1))
	done
done
[ "$fails" = 0 ]
