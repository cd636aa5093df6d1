#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# series.sh export | apply | check | fixes-export | fixes-import
#   export: regenerate patches/ with `git format-patch` from the branch
#           $SERIES_BRANCH (default dev) of the cache tree, based on branch series-base
#           ($BASE_TAG with fixes/ applied, made if missing): the series applies on
#           Linux 7.3.4 with the fixes, which are sent first, as their own series; the cover letter is
#           $COVER_LETTER (default series/cover-letter.txt; first line: subject), set as the
#           branch description,
#           its line @BENCH_TABLE@ replaced by $BENCH_TABLE (default
#           series/bench/cover-table.txt, kept there by make bench-accept), and its
#           figures "@fig ...@" rendered from $BENCH_SUMMARY (default series/bench, the
#           accepted record: "@fig proxy:..." from its proxy boot's summary.csv, perf's
#           without a prefix; or one summary.csv) by bench.py render.
#   apply:  apply patches/ to KSRC with `git am` (KSRC must be a git checkout).
#   check:  the series applies to the baseline with the fixes, every patch builds with binder
#           built in and as a module without new W=1 warnings in drivers/android,
#           and checkpatch --strict is clean. Then the same for each upstream fix of
#           fixes/, on its own on the baseline (checkpatch run as on a mail, outside any
#           git tree); and the fixes apply together on the baseline, and the series on them.
#   fixes-export: regenerate fixes/ from the branches fix/NAME of the cache tree, each one
#           commit on the baseline: one mail, fixes/NAME.patch, per branch.
#   fixes-import: make those branches from fixes/ (a new cache has none).
# export and fixes-export write the mails as sent by you: author and Signed-off-by come from
# git config user.name/user.email or AUTHOR='Name <address>' (send/mail-identity.py), and
# an unset or placeholder identity is refused. PLACEHOLDER_IDENTITY=1 keeps the identity of the
# commits instead, placeholder or not (for the copies committed in this repo).
# No base-commit: the cache's baseline commit is synthetic (Debian's 7.3.4 source imported
# into git), so it would name a commit that exists nowhere else; the cover letter says which
# release the series applies to.
# sparse is not run: Debian 12's sparse 0.6.4 is too old for Linux 7.3 (the
# kernel's scripts/checker-valid.sh rejects it; forced, it fails to parse 7.3's
# headers). Set SPARSE=1 with a newer sparse on PATH to add C=1 to the builds.
. "$(dirname "$0")/../scripts/lib.sh"

PATCHES=$BAS_TOP/patches
FIXES=$BAS_TOP/fixes
SERIES_BRANCH=${SERIES_BRANCH:-dev}
JOBS=${JOBS:-$(nproc)}
# The check's builds go through the cache's ccache when it is installed, as the test kernels'
# do (build-kernel.sh): a patch that leaves a file alone gets that file from the cache.
kcc=()
if command -v ccache >/dev/null; then
	export CCACHE_DIR=${CCACHE_DIR:-$CACHE/ccache} CCACHE_NOHASHDIR=1 CCACHE_BASEDIR=$TREE
	kcc=(CC="ccache gcc" HOSTCC="ccache gcc")
fi
SPARSE=${SPARSE:-}

series_patches() {
	ls "$PATCHES"/0*.patch 2>/dev/null | grep -v '/0000-' || true
}

do_export() {
	local cover=${COVER_LETTER:-$BAS_TOP/series/cover-letter.txt}
	[ -f "$cover" ] || die "missing $cover"
	local table=${BENCH_TABLE:-$BAS_TOP/series/bench/cover-table.txt} text
	if grep -qx '@BENCH_TABLE@' "$cover"; then
		[ -s "$table" ] || die "BENCH_TABLE=$table: no benchmark table (run make bench-record, then make bench-accept)"
		text=$(awk -v t="$table" '$0 == "@BENCH_TABLE@" { while ((getline l < t) > 0) print l; next } { print }' "$cover")
	else
		text=$(cat "$cover")
	fi
	# Figures in prose: "@fig ...@" rendered from the accepted record's summary.csv (bench.py
	# render; bench/method.md, "Figures in prose"), never copied by hand.
	if grep -q '@fig ' "$cover"; then
		local summary=${BENCH_SUMMARY:-$BAS_TOP/series/bench} tpl
		[ -s "$summary" ] || die "BENCH_SUMMARY=$summary: no summary.csv for the cover letter's @fig figures (make bench-record, then make bench-accept)"
		tpl=$(mktemp)
		printf '%s\n' "$text" >"$tpl"
		text=$(python3 "$BAS_TOP/bench/bench.py" render "$tpl" "$summary") || { rm -f "$tpl"; exit 1; }
		rm -f "$tpl"
	fi
	local base=$TREE/base ident
	ident=$(sender_identity) || die "$ident"
	[ -f "$TREE/base.ok" ] || die "no kernel tree in $TREE: run make fetch first"
	git -C "$base" rev-parse -q --verify "refs/heads/$SERIES_BRANCH" >/dev/null ||
		die "no branch '$SERIES_BRANCH' in $base: make it as README.md's 'Working on the series' says, or set SERIES_BRANCH="
	series_base
	git -C "$base" merge-base --is-ancestor series-base "$SERIES_BRANCH" ||
		die "branch $SERIES_BRANCH is not based on series-base ($BASE_TAG with fixes/ applied): rebase it onto series-base"
	git -C "$base" config "branch.$SERIES_BRANCH.description" "$text"
	local tmp
	tmp=$(mktemp -d)
	git -C "$base" format-patch -q --thread=shallow --cover-letter \
		--cover-from-description=subject \
		--subject-prefix="${SUBJECT_PREFIX:-RFC PATCH v3}" \
		-o "$tmp" "series-base..$SERIES_BRANCH"
	set_identity "$ident" "$tmp"/*.patch
	rm -f "$PATCHES"/0*.patch
	mkdir -p "$PATCHES"
	mv "$tmp"/*.patch "$PATCHES"/
	rmdir "$tmp"
	ls "$PATCHES"/0*.patch
}

# series_base: branch series-base of the cache tree, $BASE_TAG with fixes/ applied in order,
# where the series starts; made if missing, refused if its commits are not the mails of fixes/.
series_base() {
	local base=$TREE/base want have c wt=$TREE/wt-series-base
	want=$(for p in $(fix_patches); do git patch-id --stable <"$p" | cut -d' ' -f1; done)
	if git -C "$base" rev-parse -q --verify refs/heads/series-base >/dev/null; then
		have=$(for c in $(git -C "$base" rev-list --reverse "$BASE_TAG..series-base"); do
			git -C "$base" show "$c" | git patch-id --stable | cut -d' ' -f1
		done)
		[ "$have" = "$want" ] ||
			die "branch series-base of $base is not $BASE_TAG with fixes/: delete it (git branch -D series-base), run make series again and rebase $SERIES_BRANCH onto the new one"
		return 0
	fi
	# shellcheck disable=SC2046
	with_lock "$(tree_id)" bash -c "
		set -e
		git -C '$base' worktree prune
		rm -rf '$wt'
		git -C '$base' worktree add -q --detach '$wt' '$BASE_TAG'
		git -C '$wt' am -q $(fix_patches | tr '\n' ' ') || { git -C '$wt' am --abort; exit 1; }
		git -C '$base' branch series-base \$(git -C '$wt' rev-parse HEAD)
		git -C '$base' worktree remove --force '$wt'" ||
		die "fixes/ does not apply to $BASE_TAG"
	note "made branch series-base: $BASE_TAG with fixes/"
}

# sender_identity: "Name <address>" of the sender, or with PLACEHOLDER_IDENTITY=1 nothing;
# on failure the one-line reason.
sender_identity() {
	[ "${PLACEHOLDER_IDENTITY:-0}" = 1 ] && return 0
	python3 "$BAS_TOP/send/mail-identity.py" ident
}

# set_identity IDENT MAIL...: the mails from and signed off by IDENT (none: left as they are).
set_identity() {
	local ident=$1 why
	shift
	[ -n "$ident" ] || return 0
	why=$(python3 "$BAS_TOP/send/mail-identity.py" rewrite "$ident" "$@") || die "$why"
}

fix_patches() {
	ls "$FIXES"/*.patch 2>/dev/null || true
}

do_fixes_export() {
	local base=$TREE/base b n tmp ident
	ident=$(sender_identity) || die "$ident"
	[ -f "$TREE/base.ok" ] || die "no kernel tree in $TREE: run make fetch first"
	local branches
	mapfile -t branches < <(git -C "$base" for-each-ref --format='%(refname:short)' 'refs/heads/fix/')
	[ ${#branches[@]} -gt 0 ] ||
		die "no branch fix/NAME in $base: make them from fixes/ with 'send/series.sh fixes-import'"
	tmp=$(mktemp -d)
	for b in "${branches[@]}"; do
		n=$(git -C "$base" rev-list --count "$BASE_TAG..$b")
		git -C "$base" merge-base --is-ancestor "$BASE_TAG" "$b" && [ "$n" = 1 ] ||
			die "branch $b is not one commit on $BASE_TAG: each fix is a mail of its own"
		git -C "$base" format-patch -q -1 --stdout --subject-prefix=PATCH "$b" \
			>"$tmp/${b#fix/}.patch"
	done
	set_identity "$ident" "$tmp"/*.patch
	mkdir -p "$FIXES"
	rm -f "$FIXES"/*.patch
	mv "$tmp"/*.patch "$FIXES"/
	rmdir "$tmp"
	fix_patches
}

do_fixes_import() {
	local base=$TREE/base p b wt
	"$BAS_TOP/scripts/fetch-kernel.sh"
	wt=$TREE/wt-fixes-import
	for p in $(fix_patches); do
		b=fix/$(basename "$p" .patch)
		if git -C "$base" rev-parse -q --verify "refs/heads/$b" >/dev/null; then
			note "$b exists: left as it is"
			continue
		fi
		with_lock "$(tree_id)" bash -c "
			set -e
			git -C '$base' worktree prune
			rm -rf '$wt'
			git -C '$base' worktree add -q --detach '$wt' '$BASE_TAG'
			git -C '$wt' am -q '$p' || { git -C '$wt' am --abort; exit 1; }
			git -C '$base' branch '$b' \$(git -C '$wt' rev-parse HEAD)
			git -C '$base' worktree remove --force '$wt'" ||
			die "${p##*/} does not apply to $BASE_TAG"
		note "made branch $b from ${p##*/}"
	done
}

do_apply() {
	[ -n "${KSRC:-}" ] || die "make apply needs KSRC=<your Linux 7.3 git tree>"
	# .git is a directory in a clone and a file in a worktree or submodule: ask git.
	local top
	top=$(git -C "$KSRC" rev-parse --show-toplevel 2>/dev/null) || top=
	[ -n "$top" ] && [ "$(cd "$top" && pwd -P)" = "$(cd "$KSRC" && pwd -P)" ] ||
		die "KSRC=$KSRC is not a git checkout (git am needs one)"
	[ -z "$(git -C "$KSRC" status --porcelain --untracked-files=no)" ] ||
		die "KSRC=$KSRC has uncommitted changes; commit or stash them first"
	local list
	list=$(series_patches)
	[ -n "$list" ] || die "no patches in $PATCHES"
	# The series applies on the fixes: those KSRC does not have yet go first.
	local log p fixes=
	for p in $(fix_patches); do
		git -C "$KSRC" apply --check -R "$p" 2>/dev/null || fixes="$fixes $p"
	done
	log=$(mktemp "${TMPDIR:-/tmp}/bas-apply.XXXXXX")
	# shellcheck disable=SC2086
	git -C "$KSRC" am -3 $fixes $list >"$log" 2>&1 || {
		git -C "$KSRC" am --abort >>"$log" 2>&1 || true
		die "the fixes and the series do not apply to KSRC=$KSRC (HEAD $(git -C "$KSRC" rev-parse --short HEAD)); they are based on Linux $KVER; git am's output: $log"
	}
	rm -f "$log"
	note "applied $(echo "$fixes" | wc -w) fixes and $(echo "$list" | wc -l) patches to $KSRC"
}

# bisect_config DIR y|m: a small .config (allnoconfig + binder) in build dir DIR.
bisect_config() {
	local dir=$1 bt=$2 wt=$3 frag
	mkdir -p "$dir"
	frag=$dir/fragment.config
	cat >"$frag.new" <<-FRAG
		CONFIG_64BIT=y
		CONFIG_MODULES=y
		CONFIG_MODULE_UNLOAD=y
		CONFIG_NET=y
		CONFIG_ANDROID_BINDER_IPC=$bt
		CONFIG_ANDROID_BINDERFS=y
		CONFIG_KUNIT=$bt
		CONFIG_ANDROID_BINDER_ALLOC_KUNIT_TEST=$bt
		CONFIG_FTRACE=y
	FRAG
	if [ -f "$dir/.config" ] && cmp -s "$frag.new" "$frag"; then
		rm "$frag.new"
		return
	fi
	mv "$frag.new" "$frag"
	make -s -C "$wt" O="$dir" "${kcc[@]}" allnoconfig >/dev/null
	(cd "$wt" && KCONFIG_CONFIG="$dir/.config" scripts/kconfig/merge_config.sh -m -O "$dir" "$dir/.config" "$frag" >/dev/null)
	make -s -C "$wt" O="$dir" "${kcc[@]}" olddefconfig >/dev/null
	grep -q "^CONFIG_ANDROID_BINDER_IPC=$bt" "$dir/.config" || die "could not configure binder=$bt in $dir"
}

# build_android DIR WT: rebuild drivers/android from scratch; print the warning count.
build_android() {
	local dir=$1 wt=$2 log=$1/android.log extra=()
	[ -n "$SPARSE" ] && extra=(C=1)
	find "$dir/drivers/android" -name '*.o' -delete 2>/dev/null || true
	if ! make -C "$wt" O="$dir" "${kcc[@]}" -j"$JOBS" W=1 "${extra[@]}" drivers/android/ >"$log" 2>&1; then
		tail -n 30 "$log" >&2
		return 1
	fi
	grep -c 'warning:' "$log" || true
}

do_check() {
	local list p n=0 fails=0
	list=$(series_patches)
	[ -n "$list" ] || die "no patches in $PATCHES"
	"$BAS_TOP/scripts/prepare-tree.sh" split >/dev/null
	local wt=$TREE/wt-bisect
	with_lock "$(tree_id)" bash -c "
		[ -d '$wt' ] || { git -C '$TREE/base' worktree prune; git -C '$TREE/base' worktree add -q --detach '$wt' '$BASE_TAG'; }
		git -C '$wt' reset -q --hard; git -C '$wt' checkout -q --detach split"
	local commits
	mapfile -t commits < <(git -C "$wt" rev-list --reverse "split-base..split")
	[ "${#commits[@]}" = "$(echo "$list" | wc -l)" ] ||
		die "branch split has ${#commits[@]} commits on split-base but patches/ has $(echo "$list" | wc -l) patches"

	# checkpatch --strict on every mail, the cover letter's too.
	for p in "$PATCHES"/0000-*.patch $list; do
		checkpatch_step "$wt" "$p" "${p##*/}"
	done

	# Every patch builds, binder =y and =m, without new warnings.
	local bt c
	declare -A base_warn=()
	for bt in y m; do
		local dir=$TREE/build-bisect-$bt
		checkout_base "$wt" split-base
		bisect_config "$dir" "$bt" "$wt"
		make -s -C "$wt" O="$dir" "${kcc[@]}" -j"$JOBS" prepare >/dev/null 2>&1 || die "make prepare failed in $dir"
		base_warn[$bt]=$(build_android "$dir" "$wt") || die "the baseline does not build with binder=$bt"
		for c in "${commits[@]}"; do
			git -C "$wt" checkout -q --detach "$c"
			build_step "$bt" "${base_warn[$bt]}" "$(git -C "$wt" log -1 --format=%s "$c")"
		done
		git -C "$wt" reset -q --hard
	done

	check_fixes "$wt"
	[ "$fails" = 0 ] || die "$fails series check(s) failed"
}

# checkout_base WT: the baseline in WT, with the harness fixups (uncommitted).
checkout_base() {
	git -C "$1" reset -q --hard
	git -C "$1" checkout -q --detach "${2:-$BASE_TAG}"
	apply_fixups "$1" >/dev/null
}

# build_step BT PREV DESC: build drivers/android of wt-bisect in build-bisect-BT and print the
# KTAP line of DESC: it builds, with no more W=1 warnings than PREV (the baseline's).
build_step() {
	local bt=$1 prev=$2 desc=$3 cnt dir=$TREE/build-bisect-$1
	n=$((n + 1))
	if ! cnt=$(build_android "$dir" "$wt"); then
		echo "not ok $n build binder=$bt: $desc"
		fails=$((fails + 1))
	elif [ "$cnt" -gt "$prev" ]; then
		echo "not ok $n build binder=$bt: $desc: $cnt warnings (baseline $prev)"
		grep 'warning:' "$dir/android.log" | sed 's/^/# /' | head -20
		fails=$((fails + 1))
	else
		echo "ok $n build binder=$bt W=1${SPARSE:+ C=1}: $desc ($cnt warnings, baseline $prev)"
	fi
}

# am_step DESC REF PATCH...: check out REF in wt-bisect and git am the PATCHes; KTAP line.
am_step() {
	local desc=$1 ref=$2
	shift 2
	n=$((n + 1))
	git -C "$wt" reset -q --hard
	git -C "$wt" checkout -q --detach "$ref"
	if git -C "$wt" am -q "$@" >"$TREE/build-bisect-am.log" 2>&1; then
		echo "ok $n $desc"
		return 0
	fi
	git -C "$wt" am --abort >/dev/null 2>&1 || true
	echo "not ok $n $desc"
	sed 's/^/# /' "$TREE/build-bisect-am.log" | head -10
	fails=$((fails + 1))
	return 1
}

# checkpatch_step WT MAIL LABEL: checkpatch --strict, no type ignored, on MAIL as a reviewer
# runs it on a mail, from outside the tree (WT's scripts, --root), one KTAP line. checkpatch
# looks up every commit that a message cites in git (UNKNOWN_COMMIT_ID if it is not there, and
# GIT_COMMIT_ID if the cited subject is not the commit's); no tree here has upstream's
# history, so those lookups are answered from series/upstream-commits.txt, the commits checked
# against upstream's published history (send/checkpatch-git.sh).
checkpatch_step() {
	local wt=$1 mail=$2 label=$3 out tmpd
	n=$((n + 1))
	tmpd=$(mktemp -d)
	mkdir "$tmpd/.git" "$tmpd/bin"
	ln -s "$BAS_TOP/send/checkpatch-git.sh" "$tmpd/bin/git"
	out=$(cd "$tmpd" && env -u GIT_DIR PATH="$tmpd/bin:$PATH" BAS_REAL_GIT="$(command -v git)" \
		BAS_CHECKPATCH_TREE="$wt" BAS_UPSTREAM_COMMITS="$BAS_TOP/series/upstream-commits.txt" \
		perl "$wt/scripts/checkpatch.pl" --strict --root="$wt" --quiet --show-types "$mail" 2>&1 || true)
	rm -rf "$tmpd"
	if [ -n "$out" ]; then
		echo "not ok $n checkpatch $label"
		echo "$out" | sed 's/^/# /'
		fails=$((fails + 1))
	else
		echo "ok $n checkpatch $label"
	fi
}

# check_fixes WT: each mail of fixes/ on its own on the baseline (checkpatch --strict as a
# then all of them together on the baseline, and the series on top of them.
# then all of them together on the baseline, and those the series does not carry on top of it.
check_fixes() {
	local wt=$1 fixes p bt
	fixes=$(fix_patches)
	[ -n "$fixes" ] || return 0
	for p in $fixes; do
		checkpatch_step "$wt" "$p" "fixes/${p##*/}"
	done
	for p in $fixes; do
		am_step "git am on $BASE_TAG: fixes/${p##*/}" "$BASE_TAG" "$p" || continue
		apply_fixups "$wt" >/dev/null
		for bt in y m; do
			build_step "$bt" "${base_warn[$bt]}" "fixes/${p##*/}"
		done
	done
	# shellcheck disable=SC2086
	am_step "the fixes together on $BASE_TAG" "$BASE_TAG" $fixes
	# shellcheck disable=SC2086
	am_step "the series on $BASE_TAG with the fixes" "$BASE_TAG" $fixes $(series_patches)
	git -C "$wt" reset -q --hard
}

case ${1:-} in
export) do_export ;;
apply) do_apply ;;
check) do_check ;;
fixes-export) do_fixes_export ;;
fixes-import) do_fixes_import ;;
*) die "usage: series.sh export|apply|check|fixes-export|fixes-import" ;;
esac
