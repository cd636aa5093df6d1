#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# selftests/binder_throughput (and binder_prio_reclaim) as tools/testing/selftests/ of a kernel tree:
# in a scratch copy of the tree's selftests framework (lib-ktree.sh; the tree is only read),
# "make -C tools/testing/selftests TARGETS=binder_throughput" builds it with lib.mk and the
# tree's kselftest.h, without a warning, and so does its "static" target; the binary is the
# test (a bad command line exits 2). TAP SKIPs when there is no tree (KSRC=, or the cache's).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-ktree.sh"

if ! tree=$(ktree 2>"$tmp/why"); then
	for d in "make TARGETS=binder_throughput builds it without warnings" \
		"in-tree static build without warnings" "the in-tree binary refuses a bad command line" \
		"make install registers run_cases.sh and its cases for run_tests" \
		"make TARGETS=binder_prio_reclaim builds it without warnings" \
		"binder_prio_reclaim's in-tree static build without warnings"; do
		n=$((n + 1))
		echo "ok $n $d # SKIP $(cat "$tmp/why")"
	done
	exit 0
fi
# As from a shell: an outer make's (make host-tests) level and flags would change lib.mk's
# defaults (OUTPUT is only defaulted at MAKELEVEL 0).
unset MAKEFLAGS MAKELEVEL MFLAGS
scratch=$tmp/tree
st=$scratch/tools/testing/selftests
if ! scratch_selftests "$tree" "$scratch" 2>"$tmp/cp.log"; then
	result 0 "scratch copy of $tree's tools/testing/selftests" "$(head -n1 "$tmp/cp.log")"
	exit 1
fi

# No warning, and the flags that make it the in-tree build: lib.mk's, ours (V=1 shows them).
make -C "$st" TARGETS=binder_throughput FORCE_TARGETS=1 V=1 >"$tmp/make.log" 2>&1
rc=$?
ok=0
[ "$rc" = 0 ] && [ -x "$st/binder_throughput/binder_throughput" ] &&
	! grep -qi 'warning' "$tmp/make.log" && grep -qE -- '-I\.\.( |$)' "$tmp/make.log" &&
	grep -q -- '-D_GNU_SOURCE=' "$tmp/make.log" && ok=1
result $ok "make TARGETS=binder_throughput builds it without warnings" \
	"exit $rc: $(grep -i -m1 -e warning -e error "$tmp/make.log")"

make -C "$st/binder_throughput" OUTPUT="$st/binder_throughput" static >"$tmp/static.log" 2>&1
rc=$?
ok=0
[ "$rc" = 0 ] && [ -x "$st/binder_throughput/binder_throughput-static" ] &&
	! grep -qi 'warning' "$tmp/static.log" && ok=1
result $ok "in-tree static build without warnings" \
	"exit $rc: $(grep -i -m1 -e warning -e error "$tmp/static.log")"

"$st/binder_throughput/binder_throughput" -w 0 >"$tmp/out" 2>"$tmp/err"
rc=$?
ok=0
[ "$rc" = 2 ] && [ ! -s "$tmp/out" ] && grep -q "^binder_throughput: error: -w '0'" "$tmp/err" && ok=1
result $ok "the in-tree binary refuses a bad command line" "exit $rc: $(cat "$tmp/err")"

# What the kselftest runner runs (lib.mk's emit_tests, the installed list) and what install
# puts beside it: the test, run_cases.sh and the cases it reads.
(cd "$st/binder_throughput" && make -s COLLECTION=binder_throughput emit_tests &&
	make -s INSTALL_PATH="$tmp/inst" install) >"$tmp/install.log" 2>&1
rc=$?
ok=0
[ "$rc" = 0 ] && [ -x "$tmp/inst/run_cases.sh" ] && [ -f "$tmp/inst/plans/check" ] &&
	grep -qx 'binder_throughput:run_cases.sh' "$tmp/install.log" &&
	grep -qx 'binder_throughput:binder_throughput' "$tmp/install.log" && ok=1
result $ok "make install registers run_cases.sh and its cases for run_tests" \
	"exit $rc: $(tr '\n' ' ' <"$tmp/install.log")"

# binder_prio_reclaim: kselftest.h alone, the same library.
make -C "$st" TARGETS=binder_prio_reclaim FORCE_TARGETS=1 V=1 >"$tmp/make.log" 2>&1
rc=$?
ok=0
[ "$rc" = 0 ] && [ -x "$st/binder_prio_reclaim/binder_prio_reclaim" ] &&
	! grep -qi 'warning' "$tmp/make.log" && grep -qE -- '-I\.\.( |$)' "$tmp/make.log" && ok=1
result $ok "make TARGETS=binder_prio_reclaim builds it without warnings" \
	"exit $rc: $(grep -i -m1 -e warning -e error "$tmp/make.log")"
make -C "$st/binder_prio_reclaim" OUTPUT="$st/binder_prio_reclaim" static >"$tmp/static.log" 2>&1
rc=$?
ok=0
[ "$rc" = 0 ] && [ -x "$st/binder_prio_reclaim/binder_prio_reclaim-static" ] &&
	! grep -qi 'warning' "$tmp/static.log" && ok=1
result $ok "binder_prio_reclaim's in-tree static build without warnings" \
	"exit $rc: $(grep -i -m1 -e warning -e error "$tmp/static.log")"
[ "$fails" = 0 ]
