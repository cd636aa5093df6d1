#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# send/send-dry-run.sh: one mail per patch in patches/, each with To: and
# Cc: headers and otherwise unchanged, the cover letter with the changelog and
# the Link to v1; the fixes of fixes/ as a series of their own (a cover letter
# from fixes/cover-letter.txt, numbered mails threaded to it, in fixes/ order,
# their Cc: trailers in Cc), made with git am and git format-patch on a fake
# baseline repository; and nothing sent: sendmail, msmtp, b4 and git send-email are
# replaced by stand-ins on PATH that record any call. get_maintainer.pl is a
# stand-in too (a fake Linux tree), so this needs no kernel tree; one more case
# runs the real one when the cache has the split tree, and is skipped otherwise.
. "$(dirname "$0")/../lib.sh"

# Stand-ins that must never be called, and a git that records send-email.
real_git=$(command -v git)
mkdir -p "$tmp/bin"
for prog in sendmail msmtp b4; do
	printf '#!/bin/sh\necho "%s $*" >>"%s/sent"\nexit 0\n' "$prog" "$tmp" >"$tmp/bin/$prog"
done
cat >"$tmp/bin/git" <<EOF
#!/bin/sh
for a; do
	case \$a in send-email) echo "git \$*" >>"$tmp/sent"; exit 0 ;; esac
done
exec "$real_git" "\$@"
EOF
chmod +x "$tmp"/bin/*
# The stand-ins do record (else "nothing sent" below would prove nothing).
env PATH="$tmp/bin:$PATH" sh -c 'sendmail -t </dev/null; git send-email --dry-run x; git --version >/dev/null'
result "$([ "$(wc -l <"$tmp/sent")" = 2 ] && echo 1)" "the sendmail and git send-email stand-ins record calls" \
	"$(cat "$tmp/sent")"
: >"$tmp/sent"

# A fake Linux tree: MAINTAINERS and a get_maintainer.pl that answers --nol
# with a maintainer and a reviewer, --nom with the reviewer and a list.
mkdir -p "$tmp/linux/scripts" "$tmp/linux/lib"
: >"$tmp/linux/MAINTAINERS"
: >"$tmp/linux/lib/kunit"
cat >"$tmp/linux/scripts/get_maintainer.pl" <<'EOF'
#!/usr/bin/perl
my %o = map { $_ => 1 } @ARGV;
die "no --no-git\n" unless $o{'--no-git'};
die "no patch\n" unless -f $ARGV[-1];
print "Ann Maintainer <ann\@example.org>\n" unless $o{'--nom'};
print "Rob \x{c3}\x{98}verby <rob\@example.org>\n";
print "list\@lists.example.org\n" unless $o{'--nol'};
EOF

# The mails are sent as AUTHOR (or git config's user): no git config here, so that only AUTHOR
# can be the identity, and a run without it has none.
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1

# A fake baseline (BASE_REPO), a git repository tagged v7.3.4-base: of each file the fixes
# change, the lines their hunks show, at the line numbers they give, and filler lines between,
# so that the fixes apply to it with git am in fixes/ order as they do to the real baseline.
python3 - "$tmp/kbase" "$top"/fixes/*.patch <<'PY'
import os, re, sys
files = {}
for patch in sys.argv[2:]:
    path, left = None, (0, 0)
    for line in open(patch, encoding="utf-8"):
        line = line.rstrip("\n")
        m = re.match(r"diff --git a/(\S+) b/", line)
        if m:
            path = m.group(1)
            continue
        m = re.match(r"@@ -(\d+)(?:,(\d+))? \+\d+(?:,(\d+))? @@", line)
        if m and path:
            old, left = int(m.group(1)), (int(m.group(2) or 1), int(m.group(3) or 1))
            continue
        if left == (0, 0) or line.startswith("\\"):
            continue
        if line[:1] in (" ", "-"):
            files.setdefault(path, {})[old] = line[1:]
            old += 1
        left = (left[0] - (line[:1] != "+"), left[1] - (line[:1] != "-"))
for path, lines in files.items():
    os.makedirs(os.path.dirname(os.path.join(sys.argv[1], path)), exist_ok=True)
    with open(os.path.join(sys.argv[1], path), "w", encoding="utf-8") as f:
        for i in range(1, max(lines) + 1):
            f.write(lines.get(i, f"/* filler {i} */") + "\n")
PY
(cd "$tmp/kbase" && git init -q && git add -A &&
	git -c user.name=Base -c user.email=base@kernel-test.org commit -q -m base && git tag v7.3.4-base) ||
	echo "# could not make the fake baseline in $tmp/kbase"
export BASE_REPO=$tmp/kbase
export AUTHOR='Test User <test@kernel-test.org>'
# The placeholder identity of the committed mails, as format-patch wrote it.
ph_line=$(awk '/^$/ { exit } /^From: / { h = $0; next } h != "" && /^[ \t]/ { h = h $0; next } h != "" { exit }
	END { print h }' "$top/patches/0000-cover-letter.patch")
ph_addr=$(printf '%s\n' "$ph_line" | sed -n 's/.*<\(.*\)>.*/\1/p')
ph_name=$(printf '%s\n' "$ph_line" | sed 's/^From: *//; s/ *<.*//; s/[[:space:]]\{1,\}/ /g')
result "$([ -n "$ph_addr" ] && [ -n "$ph_name" ] && echo 1)" "the committed mails' placeholder identity: '$ph_name <$ph_addr>'"

orig_sum=$(cd "$top/patches" && sha256sum ./* | sha256sum)
out=$tmp/out
env PATH="$tmp/bin:$PATH" OUT="$out" MAINT_TREE="$tmp/linux" V1_LINK=https://lore.example.org/v1/ \
	V2_LINK=https://lore.example.org/v2/ FIXES_LINK=https://lore.example.org/fixes/ \
	EXTRA_CC="Tia Fixes <tia@example.org>, rob@example.org" \
	"$top/send/send-dry-run.sh" >"$tmp/stdout" 2>"$tmp/stderr"
rc=$?
result "$([ "$rc" = 0 ] && echo 1)" "send-dry-run exits 0" "exit $rc: $(head -n3 "$tmp/stderr")"

mapfile -t patches < <(cd "$top/patches" && ls 0*.patch)
# Bo Zhang, whose design the series carries, in the patches' Suggested-by: the Cc of every mail.
result "$(grep -lx 'Suggested-by: Bo Zhang <zhangbo56@xiaomi.com>' "$top"/patches/0*.patch | grep -q . && echo 1)" \
	"patches/: a Suggested-by: Bo Zhang trailer (the Cc the mails below must carry)"
mapfile -t mails < <(cd "$out/send" 2>/dev/null && find . -maxdepth 1 -type f -printf '%P\n' | sort)
result "$([ "${patches[*]}" = "${mails[*]}" ] && echo 1)" \
	"one mail per patch in patches/ (${#patches[@]})" "mails: ${mails[*]}"
mapfile -t fixes < <(cd "$top/fixes" && ls ./*.patch | sed 's|^\./||')
nfix=${#fixes[@]}
mapfile -t fmails < <(cd "$out/send/fixes" 2>/dev/null && ls)
ok=$([ "${#fmails[@]}" = $((nfix + 1)) ] && [ "${fmails[0]:-}" = 0000-cover-letter.patch ] && echo 1)
for k in $(seq 1 "$nfix"); do
	[[ ${fmails[k]:-} == $(printf %04d "$k")-*.patch ]] || ok=
done
result "$ok" "send/fixes/: a cover letter and one numbered mail per fix in fixes/ ($nfix)" "mails: ${fmails[*]}"

# headers FILE: the header block, continuation lines joined.
headers() {
	awk '/^$/ { exit } /^[ \t]/ { h = h $0; next } { if (h != "") print h; h = $0 } END { if (h != "") print h }' "$1"
}
# as_generated FILE: FILE with its headers unfolded, To:/Cc: dropped and the identity, sender's
# or placeholder, as ID: what must be the same in a mail and the patch it was made from.
as_generated() {
	{
		headers "$1" | grep -v -e '^To: ' -e '^Cc: ' | sed 's/^From: *\(.*[^ ]\) *<\(.*\)>$/From: \1 <\2>/'
		echo
		sed '1,/^$/d' "$1"
	} | sed -e "s/$ph_name <$ph_addr>/ID/g; s/$ph_addr/ID/g; s/^From: $ph_name <ID>/From: ID/; s/^$ph_name (/ID (/" \
		-e 's/Test User <test@kernel-test.org>/ID/g; s/test@kernel-test.org/ID/g; s/^Test User (/ID (/' |
		grep -v -e '^- Link to v[12]: https://lore.example.org/v[12]/$' \
			-e '^- Applies on v7.3.4 plus the fixes: https://lore.example.org/fixes/$'
}
# sent_as_test_user FILE: from and signed off by AUTHOR, no trace of the placeholder.
sent_as_test_user() {
	headers "$1" | grep -qx 'From: Test User <test@kernel-test.org>' &&
		grep -qx 'Signed-off-by: Test User <test@kernel-test.org>' "$1" &&
		! grep -qF "$ph_addr" "$1"
}
for m in "${patches[@]}"; do
	f=$out/send/$m
	h=$(headers "$f" 2>/dev/null)
	ok=1
	why=
	printf '%s\n' "$h" | grep -q '^To: Ann Maintainer <ann@example.org>, =?utf-8?q?Rob_=C3=98verby?= <rob@example.org>$' ||
		{ ok=0; why="To: $(printf '%s\n' "$h" | grep '^To:')"; }
	printf '%s\n' "$h" | grep -q '^Cc: list@lists.example.org, Bo Zhang <zhangbo56@xiaomi.com>, Tia Fixes <tia@example.org>$' ||
		{ ok=0; why="$why Cc: $(printf '%s\n' "$h" | grep '^Cc:')"; }
	result "$ok" "$m: To maintainer and reviewer, Cc list, the series' Suggested-by and EXTRA_CC, no address twice" "$why"
	if [ "$m" = 0000-cover-letter.patch ]; then
		# The cover letter has no Signed-off-by.
		result "$(headers "$f" | grep -qx 'From: Test User <test@kernel-test.org>' &&
			! grep -qF "$ph_addr" "$f" && echo 1)" "$m: from AUTHOR, no trace of the placeholder"
	else
		result "$(sent_as_test_user "$f" && echo 1)" "$m: from and signed off by AUTHOR, no trace of the placeholder" \
			"$(headers "$f" | grep '^From:'; grep '^Signed-off-by:' "$f")"
	fi
	# Apart from the added headers, the identity (and the cover letter's Links), unchanged.
	d=$(diff <(as_generated "$top/patches/$m") <(as_generated "$f") 2>&1)
	result "$([ -z "$d" ] && [ -f "$f" ] && echo 1)" "$m: otherwise the patch as generated" "$d"
done

# subject FILE: the Subject: header, unfolded.
subject() {
	headers "$1" | sed -n 's/^Subject: //p'
}
# as_fix FILE: as_generated, less what making a series of the fixes changes: the commit ids
# (format-patch's From line, the index lines), the threading headers, the subject's number
# ([PATCH k/N]), and the hunk headers (each fix now follows the ones before it in fixes/
# order, and the fake baseline has no function names).
as_fix() {
	as_generated "$1" | grep -v -e '^From [0-9a-f]\{40\} ' -e '^Message-Id: ' -e '^In-Reply-To: ' \
		-e '^References: ' -e '^index [0-9a-f]*\.\.[0-9a-f]*' |
		sed -e 's/^Subject: \[PATCH [0-9]*\/[0-9]*\]/Subject: [PATCH]/' -e 's/^@@ .*/@@/'
}

# The fixes' series: in fixes/ order, each threaded to the cover letter.
fcover=$out/send/fixes/0000-cover-letter.patch
cover_id=$(headers "$fcover" 2>/dev/null | sed -n 's/^Message-Id: //p')
ok=$([ -n "$cover_id" ] && ! headers "$fcover" | grep -q '^In-Reply-To:' && echo 1)
why=
for k in $(seq 1 "$nfix"); do
	f=$out/send/fixes/${fmails[k]:-none}
	want="[PATCH $k/$nfix] $(subject "$top/fixes/${fixes[k - 1]}" | sed 's/^\[PATCH\] //')"
	[ "$(subject "$f" 2>/dev/null)" = "$want" ] || { ok=; why="$why ${fmails[k]:-}: '$(subject "$f" 2>/dev/null)', not '$want';"; }
	headers "$f" 2>/dev/null | grep -qxF "In-Reply-To: $cover_id" &&
		headers "$f" | grep -qxF "References: $cover_id" || { ok=; why="$why ${fmails[k]:-} not threaded to $cover_id;"; }
done
result "$ok" "send/fixes/: mail k is [PATCH k/$nfix] of the k-th fix of fixes/, in reply to the cover letter" "$why"
txt=$top/fixes/cover-letter.txt
body=$(sed '1,/^$/d' "$fcover" 2>/dev/null | head -n "$(tail -n +3 "$txt" | wc -l)")
result "$([ "$(subject "$fcover" 2>/dev/null)" = "[PATCH 0/$nfix] $(head -n1 "$txt")" ] &&
	[ "$body" = "$(tail -n +3 "$txt")" ] &&
	sed '1,/^$/d' "$fcover" | grep -qx "Test User ($nfix):" && echo 1)" \
	"send/fixes/ cover letter: subject [PATCH 0/$nfix] and text from fixes/cover-letter.txt, the shortlog as AUTHOR's" \
	"subject '$(subject "$fcover" 2>/dev/null)'; $(diff <(printf '%s\n' "$body") <(tail -n +3 "$txt") | head -n4)"

# Each fix: To the maintainers, Cc the addresses of its own Cc: trailers (stable@ where the
# fix has one) first, the lists and EXTRA_CC; the mail otherwise as generated. The cover
# letter: the union of the fixes' To and of their Cc but the trailers.
nstable=0
for k in $(seq 1 "$nfix"); do
	m=${fixes[k - 1]}
	f=$out/send/fixes/${fmails[k]:-none}
	h=$(headers "$f" 2>/dev/null)
	want="list@lists.example.org, Tia Fixes <tia@example.org>"
	trail=$(sed -n '/^---$/q; s/^Cc: //p' "$top/fixes/$m" | paste -sd, | sed 's/,/, /g')
	[ -z "$trail" ] || want="$trail, $want"
	case $trail in *stable@vger.kernel.org*) nstable=$((nstable + 1)) ;; esac
	ok=1
	printf '%s\n' "$h" | grep -q '^To: Ann Maintainer <ann@example.org>, =?utf-8?q?Rob_=C3=98verby?= <rob@example.org>$' ||
		ok=0
	printf '%s\n' "$h" | grep -qxF "Cc: $want" || ok=0
	result "$ok" "fixes/$m: To maintainer and reviewer, Cc list, EXTRA_CC and its Cc: trailers" \
		"$(printf '%s\n' "$h" | grep -E '^(To|Cc):' | tr '\n' ' ') (want Cc: $want)"
	result "$(sent_as_test_user "$f" && echo 1)" "fixes/$m: from and signed off by AUTHOR"
	d=$(diff <(as_fix "$top/fixes/$m") <(as_fix "$f") 2>&1)
	result "$([ -z "$d" ] && [ -f "$f" ] && echo 1)" "fixes/$m: otherwise the patch as generated" "$d"
done
stable_cc=0
for f in "$out"/send/fixes/0*.patch; do
	! headers "$f" | grep -q '^Cc: .*stable@vger\.kernel\.org' || stable_cc=$((stable_cc + 1))
done
result "$([ "$nstable" -ge 1 ] && [ "$stable_cc" = "$nstable" ] && echo 1)" \
	"Cc: stable: the $nstable fixes with the trailer have stable@ in their Cc: header, no other mail" "$stable_cc mails do"
h=$(headers "$fcover" 2>/dev/null)
result "$(printf '%s\n' "$h" | grep -q '^To: Ann Maintainer <ann@example.org>, =?utf-8?q?Rob_=C3=98verby?= <rob@example.org>$' &&
	printf '%s\n' "$h" | grep -qx 'Cc: list@lists.example.org, Tia Fixes <tia@example.org>' && echo 1)" \
	"send/fixes/ cover letter: To and Cc the union of the fixes', stable@ not among them" \
	"$(printf '%s\n' "$h" | grep -E '^(To|Cc):' | tr '\n' ' ')"

cover=$out/send/0000-cover-letter.patch
links=$(awk '/^Changes since v[0-9]+$/ { c = 1 } c && /^- Link to v[12]: / { print } c && /^Testing$/ { exit }' "$cover" 2>/dev/null)
result "$([ "$links" = "- Link to v1: https://lore.example.org/v1/
- Link to v2: https://lore.example.org/v2/" ] && echo 1)" \
	"cover letter: Links to v1 and v2 at the end of the changelog" "got '$links'"
result "$(grep -q '^0000-cover-letter.patch$' "$tmp/stdout" && grep -q '^  To: Ann Maintainer' "$tmp/stdout" &&
	grep -q '^fixes/0000-cover-letter.patch$' "$tmp/stdout" && echo 1)" \
	"the listing names each mail with its To and Cc, the fixes' cover letter too" "$(head -n3 "$tmp/stdout")"
result "$(grep -qxF -- '- Applies on v7.3.4 plus the fixes: https://lore.example.org/fixes/' "$cover" &&
	! grep -q 'warning: FIXES_LINK' "$tmp/stderr" && ! grep -q '^In-Reply-To:' "$cover" && echo 1)" \
	"FIXES_LINK set: the RFC's cover letter links the fixes, no warning, no In-Reply-To" "$(cat "$tmp/stderr")"
result "$(grep -q "send .*/fixes/ first.*not a reply to the fixes (no In-Reply-To).*FIXES_LINK=" "$tmp/stderr" && echo 1)" \
	"a note: the fixes first, then the RFC as a thread of its own with FIXES_LINK" "$(cat "$tmp/stderr")"
result "$(grep -q 'no base-commit:.*imported into git' "$tmp/stderr" &&
	grep -q 'git -C ~/linux am .*/fixes/\*.patch' "$tmp/stderr" &&
	grep -q 'make apply KSRC=~/linux && git -C ~/linux format-patch --base=v7.3.4 ' "$tmp/stderr" && echo 1)" \
	"a note: no base-commit:, and the commands that make one on upstream's v7.3.4" "$(cat "$tmp/stderr")"
result "$([ ! -s "$tmp/sent" ] && echo 1)" "nothing sent (no sendmail, msmtp, b4 or git send-email call)" \
	"$(cat "$tmp/sent")"
result "$([ "$(cd "$top/patches" && sha256sum ./* | sha256sum)" = "$orig_sum" ] && echo 1)" "patches/ left as it was"

# The default links, with a warning each: v1's inferred, v2's a lore search for its subject.
env -u V1_LINK -u V2_LINK PATH="$tmp/bin:$PATH" OUT="$tmp/out2" MAINT_TREE="$tmp/linux" \
	"$top/send/send-dry-run.sh" >/dev/null 2>"$tmp/stderr2"
rc=$?
result "$([ "$rc" = 0 ] && grep -q 'warning: V1_LINK=.* is inferred' "$tmp/stderr2" &&
	grep -qx -- '- Link to v1: https://lore.kernel.org/all/20260805152752.1924434-1-zhangbo56@xiaomi.com/' \
		"$tmp/out2/send/0000-cover-letter.patch" && echo 1)" \
	"V1_LINK unset: the link of the archived v2 cover letter with its domain filled in, and a warning" \
	"exit $rc: $(cat "$tmp/stderr2")"
result "$([ "$rc" = 0 ] && grep -q 'warning: V2_LINK is not set' "$tmp/stderr2" &&
	grep -qx -- '- Link to v2: https://lore.kernel.org/all/?q=s%3A%22split+alloc-%3Emutex+to+improve+performance%22' \
		"$tmp/out2/send/0000-cover-letter.patch" && echo 1)" \
	"V2_LINK unset: lore's search for v2's subject, and a warning" "exit $rc: $(cat "$tmp/stderr2")"
result "$([ "$rc" = 0 ] && grep -q 'warning: FIXES_LINK is not set; send .*/fixes/ first' "$tmp/stderr2" &&
	grep -qxF -- '- Applies on v7.3.4 plus the fixes: (unknown: set FIXES_LINK)' "$tmp/out2/send/0000-cover-letter.patch" &&
	echo 1)" "FIXES_LINK unset: a warning, and the RFC's cover letter says it is unknown" "exit $rc: $(cat "$tmp/stderr2")"

# expect_fail DESC PATTERN ENV...: the script exits non-zero with one error line matching PATTERN.
expect_fail() {
	local desc=$1 pat=$2 err rc
	shift 2
	err=$(env PATH="$tmp/bin:$PATH" OUT="$tmp/out3" MAINT_TREE="$tmp/linux" "$@" "$top/send/send-dry-run.sh" 2>&1 >/dev/null)
	rc=$?
	result "$([ "$rc" != 0 ] && [ "$(printf '%s\n' "$err" | grep -c 'error:')" = 1 ] &&
		[ "$(printf '%s\n' "$err" | grep -vc 'warning:')" = 1 ] &&
		printf '%s' "$err" | grep -q -- "$pat" && echo 1)" "bad input: $desc" "exit $rc: $err"
}
expect_fail "PATCHES that does not exist" "PATCHES=$tmp/nope is not a directory" PATCHES="$tmp/nope"
mkdir -p "$tmp/empty"
expect_fail "no cover letter" "no cover letter" PATCHES="$tmp/empty"
: >"$tmp/empty/0000-cover-letter.patch"
expect_fail "only a cover letter" "no patches besides the cover letter" PATCHES="$tmp/empty"
expect_fail "MAINT_TREE without get_maintainer.pl" "no Linux tree with MAINTAINERS" MAINT_TREE="$tmp/empty"
mkdir -p "$tmp/nochg"
cp "$top"/patches/0*.patch "$tmp/nochg/"
# The changelog the series' version asks for: since the version before it.
prev=$(sed -n 's/^Subject: \[[^]]*[[:space:]]v\([0-9][0-9]*\)[[:space:]][0-9]*\/[0-9]*\].*/\1/p' \
	"$tmp/nochg/0000-cover-letter.patch" | head -n1)
prev=$((prev - 1))
sed -i "s/^Changes since v$prev\$/Changes/" "$tmp/nochg/0000-cover-letter.patch"
expect_fail "cover letter without the changelog" "no version changelog ('Changes since v$prev')" PATCHES="$tmp/nochg"
mkdir -p "$tmp/notpatch"
cp "$top/patches/0000-cover-letter.patch" "$tmp/notpatch/"
echo hello >"$tmp/notpatch/0001-x.patch"
expect_fail "a file that is not a patch" "0001-x.patch is not a git format-patch mail" PATCHES="$tmp/notpatch"
expect_fail "an empty V1_LINK" "V1_LINK is empty" V1_LINK=
expect_fail "no identity (no AUTHOR, no git config user)" "no sender identity .*git config user.name" AUTHOR=
expect_fail "a placeholder AUTHOR" "placeholder .*reserved domain" AUTHOR='Some One <someone@users.noreply.example>'
expect_fail "the committed placeholder as git config user" "placeholder" AUTHOR= \
	GIT_CONFIG_COUNT=2 GIT_CONFIG_KEY_0=user.name "GIT_CONFIG_VALUE_0=$ph_name" \
	GIT_CONFIG_KEY_1=user.email "GIT_CONFIG_VALUE_1=$ph_addr"
expect_fail "an AUTHOR that is not an address" "is not an address" AUTHOR='Test User'
mkdir -p "$tmp/fx-nocover"
cp "$top"/fixes/*.patch "$tmp/fx-nocover/"
expect_fail "fixes without fixes/cover-letter.txt" "no $tmp/fx-nocover/cover-letter.txt: the fixes' cover letter" \
	FIX_PATCHES="$tmp/fx-nocover"
printf 'binder: a subject\nthat goes on\n' >"$tmp/fx-nocover/cover-letter.txt"
expect_fail "a fixes cover letter whose second line is not blank" "the first line must be the subject, the second blank" \
	FIX_PATCHES="$tmp/fx-nocover"
expect_fail "BASE_REPO without the baseline tag" "no tag v7.3.4-base in BASE_REPO=$tmp/empty" BASE_REPO="$tmp/empty"
result "$([ ! -s "$tmp/sent" ] && echo 1)" "nothing sent by the bad-input runs either" "$(cat "$tmp/sent")"

# The real get_maintainer.pl, when the cache has the split tree.
TREE=$(bash -c '. "$1/scripts/lib.sh" && echo "$TREE"' - "$top")
if [ -f "$TREE/wt-split/scripts/get_maintainer.pl" ]; then
	env -u MAINT_TREE -u BASE_REPO PATH="$tmp/bin:$PATH" OUT="$tmp/out4" V1_LINK=https://lore.example.org/v1/ \
		"$top/send/send-dry-run.sh" >/dev/null 2>"$tmp/stderr4"
	rc=$?
	ok=$([ "$rc" = 0 ] && echo 1)
	for m in "${patches[@]}"; do
		h=$(headers "$tmp/out4/send/$m" 2>/dev/null)
		printf '%s\n' "$h" | grep -q '^To: .*@' && printf '%s\n' "$h" | grep -q '^Cc: .*linux-kernel@vger.kernel.org' || ok=
	done
	result "$ok" "the real get_maintainer.pl in $TREE/wt-split: To and Cc (linux-kernel) on every mail" \
		"exit $rc: $(head -n2 "$tmp/stderr4")"
	h=
	for k in $(seq 1 "$nfix"); do
		[ "${fixes[k - 1]}" != kunit-exit-unmap.patch ] || h=$(headers "$tmp/out4/send/fixes/${fmails[k]}" 2>/dev/null)
	done
	result "$(printf '%s\n' "$h" | grep -q '^Cc: .*kunit-dev@googlegroups.com' &&
		printf '%s\n' "$h" | grep -q '^To: .*Carlos Llamas' && echo 1)" \
		"the real get_maintainer.pl: the KUnit fix goes to binder's maintainers and KUnit's list" \
		"$(printf '%s\n' "$h" | grep -E '^(To|Cc):')"
else
	n=$((n + 1))
	echo "ok $n the real get_maintainer.pl # SKIP no split tree in the cache (make trees)"
fi

# README's git send-email command for the fixes, with --dry-run, on the mails: no question
# asked (on a terminal, where there is one), the mails' own To/Cc, stable@ among the recipients.
se=$(sed -n 's|^git send-email \(.*\) out/send/fixes/\*\.patch$|\1|p' "$top/README.md" | grep -v -- --dry-run | head -n1)
if [ -z "$se" ]; then
	result 0 "README.md has the git send-email command for out/send/fixes/"
elif ! "$real_git" send-email -h >/dev/null 2>&1 && ! "$real_git" send-email --help >/dev/null 2>&1; then
	n=$((n + 1))
	echo "ok $n git send-email --dry-run $se # SKIP no git send-email (Debian's git-email)"
else
	cmd="'$real_git' send-email $se --confirm=never --dry-run --smtp-server='$tmp/bin/sendmail' $out/send/fixes/*.patch"
	if command -v script >/dev/null; then
		env GIT_AUTHOR_NAME='Test User' GIT_AUTHOR_EMAIL=test@kernel-test.org timeout 120 \
			script -qec "$cmd" /dev/null </dev/null >"$tmp/se.out" 2>&1
	else
		env GIT_AUTHOR_NAME='Test User' GIT_AUTHOR_EMAIL=test@kernel-test.org timeout 120 \
			sh -c "$cmd" </dev/null >"$tmp/se.out" 2>&1
	fi
	rc=$?
	result "$([ "$rc" = 0 ] && ! grep -q 'To whom\|In-Reply-To for\|Send this' "$tmp/se.out" &&
		[ "$(grep -c '^Dry-OK' "$tmp/se.out")" = $((nfix + 1)) ] &&
		[ "$(grep -c '^Sendmail: .* stable@vger\.kernel\.org' "$tmp/se.out")" = "$nstable" ] &&
		[ "$(grep -c '^Sendmail: .* ann@example\.org' "$tmp/se.out")" = $((nfix + 1)) ] && echo 1)" \
		"README's git send-email $se, --dry-run: no question, $((nfix + 1)) mails to their own To/Cc, stable@ on $nstable" \
		"exit $rc: $(grep -m3 -e 'To whom' -e 'error' -e 'fatal' "$tmp/se.out")"
fi
result "$([ ! -s "$tmp/sent" ] && echo 1)" "nothing sent, all runs" "$(cat "$tmp/sent")"
[ "$fails" = 0 ]
