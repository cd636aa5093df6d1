#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# prepare-tree.sh NAME: a git worktree $TREE/wt-NAME that builds use.
#   stock: the pristine baseline (v7.3.4-base);
#   split: the baseline with fixes/*.patch, then patches/*.patch, applied with `git am`
#            (branch split; branch split-base: the baseline with the fixes, where the series
#            starts);
#   variant-NAME: split plus make bench's hooks and bench/variant-NAME.patch (branch
#            variant-NAME; bench only), with bench/binder_alloc_bench.c linked into binder, so
#            that kunit.sh and build-kernel.sh can build and test one of the bench's designs.
# In both, the harness fixups (fixups/*.diff, only those that apply) are applied as
# uncommitted changes, so that they never enter the series. Files that do not change
# keep their timestamps, so builds stay incremental.
BAS_ARCH_OK=1 # the worktrees are the same for every ARCH
. "$(dirname "$0")/lib.sh"

name=${1:?usage: prepare-tree.sh stock|split|variant-NAME}
variant=
case $name in
stock | split) ;;
variant-?*)
	variant=${name#variant-}
	[ -f "$BAS_TOP/bench/variant-$variant.patch" ] ||
		die "unknown tree '$name': no bench/variant-$variant.patch"
	;;
*) die "unknown tree '$name' (expected stock, split or variant-NAME)" ;;
esac
# A variant tree: the series, then these, with git am (the bench's hooks, then the design).
bench_patches=()
[ -z "$variant" ] || bench_patches=("$BAS_TOP/bench/alloc-bench-hook.patch"
	"$BAS_TOP/bench/shrinker-skips-reclaim-mutex.patch" "$BAS_TOP/bench/variant-$variant.patch")

"$BAS_TOP/scripts/fetch-kernel.sh"
base=$TREE/base
wt=$TREE/wt-$name
stamp=$TREE/wt-$name.ok

# series_id: what the split branch is made of: the code of patches 0001..., not
# their headers (Date, Message-ID) nor the cover letter, so that regenerating
# patches/ without changing code does not re-apply them and rebuild.
series_id() {
	if [ "$name" != stock ]; then
		local p
		for p in "$BAS_TOP"/fixes/*.patch "$BAS_TOP"/patches/0*.patch; do
			case $p in */0000-*) continue ;; esac
			[ -e "$p" ] && git patch-id --stable <"$p"
		done | sha256sum | cut -c1-16
		[ -z "$variant" ] || cat "${bench_patches[@]}" "$BAS_TOP/bench/binder_alloc_bench.c" |
			sha256sum | cut -c1-16
	else
		echo none
	fi
}

want="$(cat "$TREE/base.ok") $(series_id) $(cat "$BAS_TOP"/fixups/*.diff | sha256sum | cut -c1-16)"

# tree_state: what wt-NAME holds now: HEAD, the uncommitted diff and untracked files.
# A worktree edited by hand (say, a WARN_ON injected to test the harness) no longer
# matches its stamp and is reset.
tree_state() {
	{
		git -C "$wt" rev-parse HEAD
		git -C "$wt" diff HEAD
		git -C "$wt" status --porcelain
	} | sha256sum | cut -c1-16
}

# am_each MAIL...: git am each mail but the cover letter, in wt-NAME.
am_each() {
	local p
	for p; do
		[ -e "$p" ] || continue
		case $p in */0000-*) continue ;; esac
		git am -q --keep-cr "$p" >/dev/null 2>&1 || {
			git am --abort >/dev/null 2>&1 || true
			die "${p##*/} does not apply to $BASE_TAG with fixes/ and the series"
		}
	done
}

prepare() {
	[ -f "$stamp" ] && [ -d "$wt" ] && [ "$(cat "$stamp")" = "$want $(tree_state)" ] && return
	rm -f "$stamp"
	if [ ! -d "$wt" ]; then
		git -C "$base" worktree prune
		git -C "$base" worktree add -q --detach "$wt" "$BASE_TAG"
	fi
	cd "$wt"
	git am --abort >/dev/null 2>&1 || true
	git reset -q --hard
	git checkout -q --detach "$BASE_TAG"
	if [ "$name" != stock ]; then
		git checkout -q -B "$name" "$BASE_TAG"
		am_each "$BAS_TOP"/fixes/*.patch
		# The series applies on the fixes: branch $name-base is where it starts.
		git branch -q -f "$name-base" HEAD
		am_each "$BAS_TOP"/patches/0*.patch "${bench_patches[@]}"
	fi
	if [ -n "$variant" ]; then
		# The bench's debugfs file and skip counts, built into binder (uncommitted, as the
		# harness fixups): the hooks above call them.
		cp "$BAS_TOP/bench/binder_alloc_bench.c" drivers/android/
		echo 'binder_linux-y += binder_alloc_bench.o' >>drivers/android/Makefile
	fi
	local f
	for f in $(apply_fixups "$wt"); do
		note "wt-$name: applied harness fixup $f"
	done
	echo "$want $(tree_state)" >"$stamp"
}

with_lock "$(tree_id)" prepare
echo "$wt"
