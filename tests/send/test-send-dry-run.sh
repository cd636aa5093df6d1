#!/bin/bash
# scripts/send-dry-run.sh: one mail per patch in patches/, each with To: and
# Cc: headers and otherwise unchanged, the cover letter with the changelog and
# the Link to v1, and nothing sent: sendmail, msmtp, b4 and git send-email are
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
mkdir -p "$tmp/linux/scripts"
: >"$tmp/linux/MAINTAINERS"
cat >"$tmp/linux/scripts/get_maintainer.pl" <<'EOF'
#!/usr/bin/perl
my %o = map { $_ => 1 } @ARGV;
die "no --no-git\n" unless $o{'--no-git'};
die "no patch\n" unless -f $ARGV[-1];
print "Ann Maintainer <ann\@example.org>\n" unless $o{'--nom'};
print "Rob \x{c3}\x{98}verby <rob\@example.org>\n";
print "list\@lists.example.org\n" unless $o{'--nol'};
EOF

orig_sum=$(cd "$top/patches" && sha256sum ./* | sha256sum)
out=$tmp/out
env PATH="$tmp/bin:$PATH" OUT="$out" MAINT_TREE="$tmp/linux" V1_LINK=https://lore.example.org/v1/ \
	EXTRA_CC="Tia Fixes <tia@example.org>, rob@example.org" \
	"$top/scripts/send-dry-run.sh" >"$tmp/stdout" 2>"$tmp/stderr"
rc=$?
result "$([ "$rc" = 0 ] && echo 1)" "send-dry-run exits 0" "exit $rc: $(head -n3 "$tmp/stderr")"

mapfile -t patches < <(cd "$top/patches" && ls 0*.patch)
mapfile -t mails < <(cd "$out/send" 2>/dev/null && find . -maxdepth 1 -type f -printf '%P\n' | sort)
result "$([ "${patches[*]}" = "${mails[*]}" ] && echo 1)" \
	"one mail per patch in patches/ (${#patches[@]})" "mails: ${mails[*]}"
mapfile -t fixes < <(cd "$top/fixes" && ls ./*.patch | sed 's|^\./||')
mapfile -t fmails < <(cd "$out/send/fixes" 2>/dev/null && ls)
result "$([ "${fixes[*]}" = "${fmails[*]}" ] && echo 1)" \
	"one mail per fix in fixes/ (${#fixes[@]}), in send/fixes/" "mails: ${fmails[*]}"

# headers FILE: the header block, continuation lines joined.
headers() {
	awk '/^$/ { exit } /^[ \t]/ { h = h $0; next } { if (h != "") print h; h = $0 } END { if (h != "") print h }' "$1"
}
for m in "${patches[@]}"; do
	f=$out/send/$m
	h=$(headers "$f" 2>/dev/null)
	ok=1
	why=
	printf '%s\n' "$h" | grep -q '^To: Ann Maintainer <ann@example.org>, =?utf-8?q?Rob_=C3=98verby?= <rob@example.org>$' ||
		{ ok=0; why="To: $(printf '%s\n' "$h" | grep '^To:')"; }
	printf '%s\n' "$h" | grep -q '^Cc: list@lists.example.org, Tia Fixes <tia@example.org>$' ||
		{ ok=0; why="$why Cc: $(printf '%s\n' "$h" | grep '^Cc:')"; }
	result "$ok" "$m: To maintainer and reviewer, Cc list and EXTRA_CC, no address twice" "$why"
	# Apart from the added headers (and the cover letter's Link), unchanged.
	d=$(diff "$top/patches/$m" "$f" 2>&1 | grep '^[<>]' |
		grep -v -e '^> To: ' -e '^> Cc: ' -e '^>  ' -e '^> - Link to v1: https://lore.example.org/v1/$')
	result "$([ -z "$d" ] && [ -f "$f" ] && echo 1)" "$m: otherwise the patch as generated" "$d"
done

# Each fix goes on its own: To the maintainers, Cc the lists, EXTRA_CC and the addresses of
# its own Cc: trailers (stable@ where the fix has one) first, the mail otherwise as generated.
for m in "${fixes[@]}"; do
	f=$out/send/fixes/$m
	h=$(headers "$f" 2>/dev/null)
	want="list@lists.example.org, Tia Fixes <tia@example.org>"
	trail=$(sed -n '/^---$/q; s/^Cc: //p' "$top/fixes/$m" | paste -sd, | sed 's/,/, /g')
	[ -z "$trail" ] || want="$trail, $want"
	ok=1
	printf '%s\n' "$h" | grep -q '^To: Ann Maintainer <ann@example.org>, =?utf-8?q?Rob_=C3=98verby?= <rob@example.org>$' ||
		ok=0
	printf '%s\n' "$h" | grep -qxF "Cc: $want" || ok=0
	result "$ok" "fixes/$m: To maintainer and reviewer, Cc list, EXTRA_CC and its Cc: trailers" \
		"$(printf '%s\n' "$h" | grep -E '^(To|Cc):' | tr '\n' ' ') (want Cc: $want)"
	d=$(diff "$top/fixes/$m" "$f" 2>&1 | grep '^[<>]' | grep -v -e '^> To: ' -e '^> Cc: ' -e '^>  ')
	result "$([ -z "$d" ] && [ -f "$f" ] && echo 1)" "fixes/$m: otherwise the patch as generated" "$d"
done

cover=$out/send/0000-cover-letter.patch
link=$(awk '/^Changes since v1$/ { c = 1 } c && /^- Link to v1: / { print; exit } c && /^Testing$/ { exit }' "$cover" 2>/dev/null)
result "$([ "$link" = "- Link to v1: https://lore.example.org/v1/" ] && echo 1)" \
	"cover letter: Link to v1 at the end of the 'Changes since v1' changelog" "got '$link'"
result "$(grep -q '^0000-cover-letter.patch$' "$tmp/stdout" && grep -q '^  To: Ann Maintainer' "$tmp/stdout" && echo 1)" \
	"the listing names each mail with its To and Cc" "$(head -n3 "$tmp/stdout")"
result "$([ ! -s "$tmp/sent" ] && echo 1)" "nothing sent (no sendmail, msmtp, b4 or git send-email call)" \
	"$(cat "$tmp/sent")"
result "$([ "$(cd "$top/patches" && sha256sum ./* | sha256sum)" = "$orig_sum" ] && echo 1)" "patches/ left as it was"

# The masked default V1_LINK is used, with a warning.
env -u V1_LINK PATH="$tmp/bin:$PATH" OUT="$tmp/out2" MAINT_TREE="$tmp/linux" \
	"$top/scripts/send-dry-run.sh" >/dev/null 2>"$tmp/stderr2"
rc=$?
result "$([ "$rc" = 0 ] && grep -q 'warning: V1_LINK=.*masked' "$tmp/stderr2" &&
	grep -q '^- Link to v1: https://lore.kernel.org/all/20260805152752' "$tmp/out2/send/0000-cover-letter.patch" && echo 1)" \
	"V1_LINK unset: the masked link from the archived v2 cover letter, and a warning" "exit $rc: $(cat "$tmp/stderr2")"

# expect_fail DESC PATTERN ENV...: the script exits non-zero with one error line matching PATTERN.
expect_fail() {
	local desc=$1 pat=$2 err rc
	shift 2
	err=$(env PATH="$tmp/bin:$PATH" OUT="$tmp/out3" MAINT_TREE="$tmp/linux" "$@" "$top/scripts/send-dry-run.sh" 2>&1 >/dev/null)
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
sed -i 's/^Changes since v1$/Changes/' "$tmp/nochg/0000-cover-letter.patch"
expect_fail "cover letter without the changelog" "no version changelog ('Changes since v1')" PATCHES="$tmp/nochg"
mkdir -p "$tmp/notpatch"
cp "$top/patches/0000-cover-letter.patch" "$tmp/notpatch/"
echo hello >"$tmp/notpatch/0001-x.patch"
expect_fail "a file that is not a patch" "0001-x.patch is not a git format-patch mail" PATCHES="$tmp/notpatch"
expect_fail "an empty V1_LINK" "V1_LINK is empty" V1_LINK=
result "$([ ! -s "$tmp/sent" ] && echo 1)" "nothing sent by the bad-input runs either" "$(cat "$tmp/sent")"

# The real get_maintainer.pl, when the cache has the split tree.
TREE=$(bash -c '. "$1/scripts/lib.sh" && echo "$TREE"' - "$top")
if [ -f "$TREE/wt-split/scripts/get_maintainer.pl" ]; then
	env -u MAINT_TREE PATH="$tmp/bin:$PATH" OUT="$tmp/out4" V1_LINK=https://lore.example.org/v1/ \
		"$top/scripts/send-dry-run.sh" >/dev/null 2>"$tmp/stderr4"
	rc=$?
	ok=$([ "$rc" = 0 ] && echo 1)
	for m in "${patches[@]}"; do
		h=$(headers "$tmp/out4/send/$m" 2>/dev/null)
		printf '%s\n' "$h" | grep -q '^To: .*@' && printf '%s\n' "$h" | grep -q '^Cc: .*linux-kernel@vger.kernel.org' || ok=
	done
	result "$ok" "the real get_maintainer.pl in $TREE/wt-split: To and Cc (linux-kernel) on every mail" \
		"exit $rc: $(head -n2 "$tmp/stderr4")"
else
	n=$((n + 1))
	echo "ok $n the real get_maintainer.pl # SKIP no split tree in the cache (make trees)"
fi
result "$([ ! -s "$tmp/sent" ] && echo 1)" "nothing sent, all runs" "$(cat "$tmp/sent")"
[ "$fails" = 0 ]
