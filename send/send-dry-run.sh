#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# send-dry-run.sh (make send-dry-run): write the series in patches/ as mails
# into $OUT/send/, and the upstream fixes of fixes/ as a series of their own into
# $OUT/send/fixes/, ready to review, and print who each one goes to.
#
# It never sends anything: it runs no git send-email, no sendmail, no b4. Each
# mail is the git format-patch file with To: and Cc: headers added:
#   - every patch: To the maintainers and reviewers, Cc the mailing lists, from
#     the kernel's scripts/get_maintainer.pl run against that patch in a Linux
#     tree (--no-git --no-git-fallback --no-rolestats --no-fixes; --nol for To,
#     --nom for Cc, reviewers already in To are dropped from Cc);
#   - a patch that changes a KUnit test (a path with "kunit" in it) also goes
#     to KUnit's maintainers and lists: get_maintainer.pl -f lib/kunit, as
#     the test's own path does not name them;
#   - every mail of the series also Cc the addresses of the series'
#     Suggested-by: trailers: whose design the series carries reads all of it
#     (git send-email would Cc them only on the patches that carry them);
#   - the cover letter: the union of those, since get_maintainer.pl cannot
#     read a cover letter;
#   - each fix: as a patch of the series, and Cc the addresses of its own Cc:
#     trailers (stable@vger.kernel.org), which git send-email would add; the
#     fixes' cover letter: the union of their To and Cc but those trailers.
# The fixes are one series, sent before the RFC: git format-patch --cover-letter
# --thread=shallow on a branch of the baseline $BASE_TAG with the fixes applied
# by git am in fixes/ order (in a scratch repository that borrows the objects of
# BASE_REPO and checks out only the files they touch), the cover letter's subject
# (first line) and text from fixes/cover-letter.txt. The RFC is a thread of its
# own, not a reply to the fixes: its cover letter gets their lore link
# (FIXES_LINK) once they are posted.
# No mail has a base-commit: line: the baseline is Debian's source imported into
# git, a commit that exists nowhere else. The script prints how to get one from
# upstream's v7.3.4 tag.
# Each mail is from and signed off by you: the placeholder identity of the
# committed mails is replaced by git config user.name/user.email, or AUTHOR=
# (send/mail-identity.py); an unset or placeholder identity is refused.
# The cover letter must carry the version changelog ("Changes since v2" for
# a v3); "- Link to vN: $VN_LINK" for each earlier version is added at the
# end of it.
#
# Knobs:
#   PATCHES     the series (default: patches/)
#   FIX_PATCHES the fixes (default: fixes/; a directory without mails: none), with
#               their cover letter FIX_PATCHES/cover-letter.txt
#   BASE_REPO   git repository with the tag $BASE_TAG (default: the cache's, see
#               make trees); only read
#   OUT         results; the mails go to $OUT/send (default: out/)
#   MAINT_TREE  Linux tree with MAINTAINERS and scripts/get_maintainer.pl
#               (default: the split worktree in the cache, see make trees;
#               else KSRC)
#   AUTHOR      'Name <address>' to send as, instead of git config's user
#   V1_LINK     lore link of v1 (Bo Zhang's RFC). The default is the one the
#               archived v2 cover letter gives, its Message-ID's domain masked
#               there and filled in with the domain of his address as public
#               list archives show it; a warning says so until V1_LINK is set.
#   V2_LINK     lore link of v2 (Bo Zhang's "[RFC PATCH v2 0/2] binder: split
#               alloc->mutex to improve performance"). Its Message-ID is not
#               known here: the default is lore's search for that subject, and
#               a warning says so until V2_LINK is set.
#   FIXES_LINK  lore link of the fixes' cover letter, for the RFC's cover letter.
#               Unknown until the fixes are posted: until it is set, a warning,
#               and the line says so.
#   EXTRA_CC    comma-separated addresses to Cc on every mail. get_maintainer.pl
#               runs with --no-fixes: the cache tree has no upstream history,
#               so the authors of the commits in the Fixes: tags are not
#               found; add them here.
. "$(dirname "$0")/../scripts/lib.sh"

PATCHES=${PATCHES:-$BAS_TOP/patches}
FIX_PATCHES=${FIX_PATCHES:-$BAS_TOP/fixes}
OUT=${OUT:-$BAS_TOP/out}
SEND_DIR=$OUT/send
V1_LINK_INFERRED=https://lore.kernel.org/all/20260805152752.1924434-1-zhangbo56@xiaomi.com/
V1_LINK=${V1_LINK-$V1_LINK_INFERRED}
V2_LINK_SEARCH='https://lore.kernel.org/all/?q=s%3A%22split+alloc-%3Emutex+to+improve+performance%22'
V2_LINK=${V2_LINK:-}
FIXES_LINK=${FIXES_LINK:-}
BASE_REPO=${BASE_REPO:-$TREE/base}
EXTRA_CC=${EXTRA_CC:-}
GM_OPTS=(--no-git --no-git-fallback --no-rolestats --no-fixes)

if [ -z "${MAINT_TREE:-}" ]; then
	MAINT_TREE=$TREE/wt-split
	[ -d "$MAINT_TREE" ] || [ -z "${KSRC:-}" ] || MAINT_TREE=$KSRC
fi

[ $# = 0 ] || die "usage: send-dry-run.sh (no arguments; see the knobs at the top of the script)"
[ -d "$PATCHES" ] || die "PATCHES=$PATCHES is not a directory"
cover=$PATCHES/0000-cover-letter.patch
[ -f "$cover" ] || die "no cover letter $cover (make series writes it)"
list=()
for p in "$PATCHES"/0*.patch; do
	[ ! -f "$p" ] || [ "${p##*/}" = 0000-cover-letter.patch ] || list+=("$p")
done
[ "${#list[@]}" -gt 0 ] || die "no patches besides the cover letter in $PATCHES"
[ -f "$MAINT_TREE/scripts/get_maintainer.pl" ] && [ -f "$MAINT_TREE/MAINTAINERS" ] ||
	die "no Linux tree with MAINTAINERS and scripts/get_maintainer.pl at $MAINT_TREE: run make trees, or set MAINT_TREE="
[ -n "$V1_LINK" ] || die "V1_LINK is empty: set it to the lore link of v1"
ident=$(python3 "$BAS_TOP/send/mail-identity.py" ident) || die "$ident"
[ "$V1_LINK" != "$V1_LINK_INFERRED" ] ||
	echo "${0##*/}: warning: V1_LINK=$V1_LINK is inferred (the archived v2 cover letter masks its domain); check it on lore, then set V1_LINK=" >&2

fixes=()
for p in "$FIX_PATCHES"/*.patch; do
	[ ! -f "$p" ] || fixes+=("$p")
done
for p in "${list[@]}" "${fixes[@]}"; do
	grep -q '^Subject: ' "$p" && grep -q '^diff --git ' "$p" ||
		die "${p##*/} is not a git format-patch mail with a diff"
done
fixes_cover=$FIX_PATCHES/cover-letter.txt
if [ ${#fixes[@]} -gt 0 ]; then
	[ -f "$fixes_cover" ] || die "no $fixes_cover: the fixes' cover letter (first line: its subject)"
	[ -n "$(head -n1 "$fixes_cover")" ] && [ -z "$(sed -n 2p "$fixes_cover")" ] ||
		die "$fixes_cover: the first line must be the subject, the second blank"
	base_commit=$(git -C "$BASE_REPO" rev-parse -q --verify "$BASE_TAG^{commit}" 2>/dev/null) ||
		die "no tag $BASE_TAG in BASE_REPO=$BASE_REPO: run make trees, or set BASE_REPO="
fi

# The version from the cover letter's subject, e.g. [RFC PATCH v2 0/4]: 2.
version=$(sed -n 's/^Subject: \[[^]]*[[:space:]]v\([0-9][0-9]*\)[[:space:]][0-9]*\/[0-9]*\].*/\1/p' "$cover" | head -n1)
version=${version:-1}
if [ "$version" -ge 2 ]; then
	prev=$((version - 1))
	grep -qE "^Changes (since v$prev|in v$version)" "$cover" ||
		die "the cover letter has no version changelog ('Changes since v$prev'); add it to series/cover-letter.txt"
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ "$version" -ge 3 ] && [ -z "$V2_LINK" ]; then
	echo "${0##*/}: warning: V2_LINK is not set: the cover letter links lore's search for v2's subject; set V2_LINK= to v2's lore link before sending" >&2
	V2_LINK=$V2_LINK_SEARCH
fi
if [ ${#fixes[@]} -gt 0 ] && [ -z "$FIXES_LINK" ]; then
	echo "${0##*/}: warning: FIXES_LINK is not set; send $SEND_DIR/fixes/ first, then set FIXES_LINK= to the lore link of its cover letter" >&2
	FIXES_LINK="(unknown: set FIXES_LINK)"
fi

# as_sent MAIL: a copy of MAIL in $tmp, from and signed off by $ident; prints its path.
as_sent() {
	local copy=$tmp/sent.${1##*/} why
	cp "$1" "$copy"
	why=$(python3 "$BAS_TOP/send/mail-identity.py" rewrite "$ident" "$copy") || die "${1##*/}: $why"
	echo "$copy"
}

# gm ARGS...: get_maintainer.pl's addresses for ARGS (options, then a patch or -f PATH), one
# a line.
gm() {
	local out
	out=$(cd "$MAINT_TREE" && perl scripts/get_maintainer.pl "${GM_OPTS[@]}" "$@" 2>"$tmp/gm.err") ||
		die "get_maintainer.pl failed on ${*: -1}: $(head -n1 "$tmp/gm.err")"
	printf '%s\n' "$out" | sed '/^[[:space:]]*$/d'
}

# gm_all PATCH OPTS...: gm for PATCH and, for a patch that changes a KUnit test, for lib/kunit.
gm_all() {
	local p=$1
	shift
	gm "$@" "$p"
	! grep -q '^diff --git a/[^ ]*kunit' "$p" || gm "$@" -f lib/kunit
}

# uniq_addrs [EXCLUDE]: stdin's addresses, each once (by the address part,
# case-insensitively), less those in the file EXCLUDE.
uniq_addrs() {
	awk 'function key(s) {
		if (match(s, /<[^>]*>/)) s = substr(s, RSTART + 1, RLENGTH - 2)
		return tolower(s)
	}
	FILENAME != "-" { ex[key($0)] = 1; next }
	!ex[key($0)] && !seen[key($0)]++' "$@" -
}

extra_cc() {
	[ -n "$EXTRA_CC" ] || return 0
	printf '%s\n' "$EXTRA_CC" | tr ',' '\n' | sed 's/^[[:space:]]*//; s/[[:space:]]*$//; /^$/d'
}

# header NAME FILE: "NAME: a,\n b" folded one address a line, names with
# non-ASCII characters RFC 2047-encoded; nothing if FILE is empty.
header() {
	[ -s "$2" ] || return 0
	python3 - "$1" "$2" <<-'PY' || die "bad address in the $1 list: $(tr '\n' ' ' <"$2")"
		import sys, email.utils
		name, path = sys.argv[1:]
		out = []
		for line in open(path, encoding="utf-8"):
		    if not line.strip():
		        continue
		    real, addr = email.utils.parseaddr(line.strip())
		    if "@" not in addr:
		        sys.exit(1)
		    out.append(email.utils.formataddr((real, addr), charset="utf-8"))
		print(name + ": " + ",\n ".join(out))
	PY
}

# write_mail SRC DST TO CC: SRC with To:/Cc: added at the end of its headers.
write_mail() {
	{
		header To "$3"
		header Cc "$4"
	} >"$tmp/hdr"
	awk -v hdr="$tmp/hdr" '!done && /^$/ { while ((getline l < hdr) > 0) print l; done = 1 } { print }' \
		"$1" >"$2"
}

# credit_cc: the addresses of the series' Suggested-by: trailers, one a line.
credit_cc() {
	awk '/^---$/ { nextfile } sub(/^Suggested-by: /, "")' "${list[@]}"
}

rm -rf "$SEND_DIR"
mkdir -p "$SEND_DIR"
: >"$tmp/all-to"
: >"$tmp/all-cc"
for p in "${list[@]}"; do
	name=${p##*/}
	gm_all "$(realpath "$p")" --nol | uniq_addrs >"$tmp/to"
	[ -s "$tmp/to" ] || die "get_maintainer.pl found no maintainer for $name"
	{
		gm_all "$(realpath "$p")" --nom
		credit_cc
		extra_cc
	} | uniq_addrs "$tmp/to" >"$tmp/cc"
	mail=$(as_sent "$p")
	write_mail "$mail" "$SEND_DIR/$name" "$tmp/to" "$tmp/cc"
	cat "$tmp/to" >>"$tmp/all-to"
	cat "$tmp/cc" >>"$tmp/all-cc"
	printf '%s\n' "$name" >>"$tmp/names"
	cp "$tmp/to" "$tmp/to.$name"
	cp "$tmp/cc" "$tmp/cc.$name"
done

# The cover letter: everyone, and the Links to earlier versions at the end of the changelog.
uniq_addrs <"$tmp/all-to" >"$tmp/to"
uniq_addrs "$tmp/to" <"$tmp/all-cc" >"$tmp/cc"
links="- Link to v1: $V1_LINK"
[ "$version" -lt 3 ] || links="$links
- Link to v2: $V2_LINK"
[ ${#fixes[@]} = 0 ] || links="$links
- Applies on v$KVER plus the fixes: $FIXES_LINK"
if [ "$version" -ge 2 ] && ! grep -q "Link to v1:" "$cover"; then
	# After the last line of the "Changes ..." section: before the first
	# line after a blank line that is neither a bullet nor its continuation.
	awk -v link="$links" -v re="^Changes (since v$prev|in v$version)" '
		!body { print; if (/^$/) body = 1; next }
		$0 ~ re { inchg = 1; print; next }
		inchg && /^$/ { blank++; next }
		inchg && blank && !/^(- |  )/ { print link; inchg = 0; done = 1 }
		{ for (; blank > 0; blank--) print ""; print }
		END { if (inchg) print link }' "$cover" >"$tmp/cover"
else
	cp "$cover" "$tmp/cover"
fi
mail=$(as_sent "$tmp/cover")
write_mail "$mail" "$SEND_DIR/0000-cover-letter.patch" "$tmp/to" "$tmp/cc"
cp "$tmp/to" "$tmp/to.0000-cover-letter.patch"
cp "$tmp/cc" "$tmp/cc.0000-cover-letter.patch"

for name in 0000-cover-letter.patch $(cat "$tmp/names"); do
	echo "$name"
	sed 's/^/  To: /' "$tmp/to.$name"
	sed 's/^/  Cc: /' "$tmp/cc.$name"
done
note "wrote $((${#list[@]} + 1)) mails (v$version) to $SEND_DIR; nothing was sent"

# fixes_series DIR: the fixes as one series, format-patch's mails in DIR (see the top). Git
# runs without the user's or the system's configuration, so that no format.* or am.* setting
# changes the mails; the commits are the sender's (committer, and the Message-Ids' domain).
fixes_series() {
	local repo=$tmp/fixes-repo p sent=() g
	for p in "${fixes[@]}"; do
		sent+=("$(as_sent "$p")")
	done
	g=(env GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null "GIT_COMMITTER_NAME=${ident% <*}"
		"GIT_COMMITTER_EMAIL=$(printf '%s\n' "$ident" | sed 's/.*<\(.*\)>$/\1/')" git -C "$repo")
	mkdir -p "$repo"
	"${g[@]}" init -q
	echo "$(git -C "$BASE_REPO" rev-parse --path-format=absolute --git-common-dir)/objects" \
		>"$repo/.git/objects/info/alternates"
	"${g[@]}" update-ref refs/heads/fixes "$base_commit"
	"${g[@]}" symbolic-ref HEAD refs/heads/fixes
	"${g[@]}" config core.sparseCheckout true
	sed -n 's|^diff --git a/\([^ ]*\) b/\([^ ]*\)$|/\1\n/\2|p' "${sent[@]}" | sort -u \
		>"$repo/.git/info/sparse-checkout"
	"${g[@]}" read-tree -mu HEAD
	"${g[@]}" am -q "${sent[@]}" >"$tmp/am.log" 2>&1 ||
		die "the fixes do not apply to $BASE_TAG in fixes/ order: $(grep -m1 -e '^Patch failed' -e '^error' "$tmp/am.log")"
	"${g[@]}" config branch.fixes.description "$(cat "$fixes_cover")"
	"${g[@]}" format-patch -q --cover-letter --thread=shallow --cover-from-description=subject \
		--subject-prefix=PATCH -o "$1" "$base_commit..fixes"
}

# base_commit_note: how to give the mails a base-commit: line.
base_commit_note() {
	local n=${#list[@]}
	note "no base-commit: in the mails: $BASE_TAG is Debian's source imported into git, a commit that exists nowhere else. For one, on a clean checkout of upstream's tag v$KVER (here ~/linux):"
	note "  git -C ~/linux checkout -b bas-v$KVER v$KVER && git -C ~/linux am $FIX_PATCHES/*.patch"
	note "  git -C ~/linux format-patch --base=v$KVER --cover-letter -o /tmp/base-fixes v$KVER.."
	note "  make apply KSRC=~/linux && git -C ~/linux format-patch --base=v$KVER --cover-letter -o /tmp/base-rfc -$n"
	note "then copy the base-commit: and prerequisite-patch-id: lines at the end of /tmp/base-fixes/0000-cover-letter.patch and /tmp/base-rfc/0000-cover-letter.patch to the same place (before '-- ') in $SEND_DIR/fixes/0000-cover-letter.patch and $SEND_DIR/0000-cover-letter.patch"
}

# The fixes: their own series, each with the addresses of its Cc: trailers too.
if [ ${#fixes[@]} = 0 ]; then
	base_commit_note
	exit 0
fi
fixes_series "$tmp/fixes-out"
mapfile -t fmails < <(cd "$tmp/fixes-out" && ls)
[ "${#fmails[@]}" = $((${#fixes[@]} + 1)) ] && [ "${fmails[0]}" = 0000-cover-letter.patch ] ||
	die "git format-patch wrote ${#fmails[@]} mails for ${#fixes[@]} fixes and a cover letter"
mkdir -p "$SEND_DIR/fixes"
: >"$tmp/fx-to"
: >"$tmp/fx-cc"
for name in "${fmails[@]:1}"; do
	p=$tmp/fixes-out/$name
	gm_all "$p" --nol | uniq_addrs >"$tmp/to"
	[ -s "$tmp/to" ] || die "get_maintainer.pl found no maintainer for fixes/$name"
	{
		gm_all "$p" --nom
		extra_cc
	} >"$tmp/gm-cc"
	{
		awk '/^---$/ { exit } sub(/^Cc: /, "")' "$p"
		cat "$tmp/gm-cc"
	} | uniq_addrs "$tmp/to" >"$tmp/cc"
	write_mail "$p" "$SEND_DIR/fixes/$name" "$tmp/to" "$tmp/cc"
	cat "$tmp/to" >>"$tmp/fx-to"
	cat "$tmp/gm-cc" >>"$tmp/fx-cc"
	cp "$tmp/to" "$tmp/to.fixes.$name"
	cp "$tmp/cc" "$tmp/cc.fixes.$name"
done
uniq_addrs <"$tmp/fx-to" >"$tmp/to.fixes.0000-cover-letter.patch"
uniq_addrs "$tmp/to.fixes.0000-cover-letter.patch" <"$tmp/fx-cc" >"$tmp/cc.fixes.0000-cover-letter.patch"
write_mail "$tmp/fixes-out/0000-cover-letter.patch" "$SEND_DIR/fixes/0000-cover-letter.patch" \
	"$tmp/to.fixes.0000-cover-letter.patch" "$tmp/cc.fixes.0000-cover-letter.patch"
for name in "${fmails[@]}"; do
	echo "fixes/$name"
	sed 's/^/  To: /' "$tmp/to.fixes.$name"
	sed 's/^/  Cc: /' "$tmp/cc.fixes.$name"
done
note "wrote ${#fixes[@]} fix mails and their cover letter to $SEND_DIR/fixes; nothing was sent"
note "send $SEND_DIR/fixes/ first; then $SEND_DIR/ as a thread of its own, not a reply to the fixes (no In-Reply-To), with the fixes' lore link in its cover letter: FIXES_LINK=<link> make send-dry-run"
base_commit_note
