#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# selftests/binder_fuzz as tools/testing/selftests/binder_fuzz of a kernel tree (a scratch copy
# of its selftests framework, ../tests/selftest/lib-ktree.sh; the tree is only read): "make
# TARGETS=binder_fuzz" builds it with lib.mk and the tree's kselftest.h, and its static and
# planted targets too, all without a warning; built against the tree's own UAPI headers
# (enum-style ioctls, the freeze notifications) it prints and traces seed 42 as the host build.
# TAP SKIPs when there is no tree (KSRC=, or the cache's).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../selftest/lib-ktree.sh"

descs=("make TARGETS=binder_fuzz builds it in-tree without warnings"
	"in-tree static and planted builds without warnings"
	"the in-tree build prints and traces seed 42 as seed-42.prog")
if ! tree=$(ktree 2>"$tmp/why"); then
	for d in "${descs[@]}"; do
		n=$((n + 1))
		echo "ok $n $d # SKIP $(cat "$tmp/why")"
	done
	exit 0
fi
unset MAKEFLAGS MAKELEVEL MFLAGS
st=$tmp/tree/tools/testing/selftests
k=$tree/tools/testing/selftests
# Our sources only (no build output), and binder_uapi without its standalone kselftest.h.
if ! { mkdir -p "$st/binder_fuzz" "$tmp/tree/scripts" &&
	cp "$k/Makefile" "$k/lib.mk" "$k/kselftest.h" "$k/kselftest_harness.h" "$st/" &&
	cp "$tree/scripts/subarch.include" "$tmp/tree/scripts/" &&
	cp "$top/selftests/binder_fuzz/"*.[ch] "$top/selftests/binder_fuzz/Makefile" "$st/binder_fuzz/" &&
	cp -r "$top/selftests/binder_uapi" "$st/" && rm -rf "$st/binder_uapi/standalone"; }; then
	result 0 "a scratch copy of $tree's selftests framework"
	exit 1
fi
# The tree's UAPI headers, as lib.mk's KHDR_INCLUDES would have them once installed.
hdr=$tree/../build-uapi/usr/include
[ -f "$hdr/linux/android/binder.h" ] || hdr=$tree/usr/include
inc=()
[ -f "$hdr/linux/android/binder.h" ] && inc=(KHDR_INCLUDES="-isystem $hdr")

rc=0
make -C "$st" TARGETS=binder_fuzz FORCE_TARGETS=1 "${inc[@]}" >"$tmp/make.log" 2>&1 || rc=$?
f=$st/binder_fuzz/binder_fuzz
result "$([ "$rc" = 0 ] && [ -x "$f" ] && ! grep -qi warning "$tmp/make.log" &&
	grep -qE -- '-I\.\.( |$)' "$tmp/make.log" && echo 1)" "${descs[0]}" \
	"exit $rc: $(grep -i -m1 -e warning -e error "$tmp/make.log")"
rc=0
make -C "$st/binder_fuzz" OUTPUT="$st/binder_fuzz" "${inc[@]}" static planted >"$tmp/s.log" 2>&1 || rc=$?
result "$([ "$rc" = 0 ] && [ -x "$f-static" ] && [ -x "$f-planted" ] && ! grep -qi warning "$tmp/s.log" &&
	echo 1)" "${descs[1]}" "exit $rc: $(grep -i -m1 -e warning -e error "$tmp/s.log")"
make -s -C "$top/selftests/binder_fuzz" OUTPUT="$tmp/host" all >/dev/null 2>&1
trace() { "$1" --dry --trace -s 42 -n 1 | grep '^# trace '; }
"$f" -p -s 42 | cmp -s - "$top/tests/fuzz/seed-42.prog" &&
	[ "$(trace "$f")" = "$(trace "$tmp/host/binder_fuzz")" ]
result "$([ $? = 0 ] && echo 1)" "${descs[2]}" "headers: ${inc[*]:-of the host}"
echo "# $n tests, $fails failed"
[ "$fails" = 0 ]
