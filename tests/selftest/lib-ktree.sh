# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Sourced by the host tests that build binder_throughput as in a kernel tree
# (test-ktap.sh, test-intree-build.sh); after tests/lib.sh.
#
# ktree: the kernel tree whose tools/testing/selftests they use: KSRC= when set, else the
# cache's Debian 7.3.4 tree once it is complete (its base.ok stamp). Prints the tree, or
# nothing and the reason on stderr. The tree is only read: scratch_selftests copies from it.
ktree() {
	local cache=${CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/binder-alloc-split} t
	if [ -n "${KSRC:-}" ]; then
		t=$KSRC
	elif [ -f "$cache/debian-7.3.4/base.ok" ]; then
		t=$cache/debian-7.3.4/base
	else
		echo "no kernel tree (KSRC=, or $cache/debian-7.3.4/base once fetched)" >&2
		return 1
	fi
	if [ ! -f "$t/tools/testing/selftests/kselftest.h" ] || [ ! -f "$t/tools/testing/selftests/lib.mk" ]; then
		echo "no tools/testing/selftests/kselftest.h and lib.mk in $t" >&2
		return 1
	fi
	echo "$t"
}

# scratch_selftests TREE DIR: DIR/tools/testing/selftests with the tree's selftests Makefile,
# lib.mk, kselftest.h and kselftest_harness.h, DIR/scripts/subarch.include (the selftests
# Makefile includes it), and copies of selftests/binder_throughput and binder_prio_reclaim (the
# targets of those names) and of their library selftests/binder_uapi, without binder_uapi/standalone (our kselftest.h):
# the in-tree build must not reach it.
scratch_selftests() {
	local k=$1/tools/testing/selftests s=$2/tools/testing/selftests
	mkdir -p "$s" "$2/scripts" &&
		cp "$k/Makefile" "$k/lib.mk" "$k/kselftest.h" "$k/kselftest_harness.h" "$s/" &&
		cp "$1/scripts/subarch.include" "$2/scripts/" &&
		cp -r "$top/selftests/binder_throughput" "$top/selftests/binder_prio_reclaim" \
			"$top/selftests/binder_uapi" "$s/" &&
		rm -rf "$s/binder_uapi/standalone" "$s/binder_throughput/binder_throughput" \
			"$s/binder_throughput/binder_throughput-static" \
			"$s/binder_prio_reclaim/binder_prio_reclaim" \
			"$s/binder_prio_reclaim/binder_prio_reclaim-static"
}
