#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The identity of the mails and the form of their commit references, on the committed mails:
# send/mail-identity.py (who the mails are from and signed off by) and checkpatch's commit
# lookups through send/checkpatch-git.sh (series/upstream-commits.txt), which must catch a
# cited commit that is not listed, a wrong subject and a bare hash. The checkpatch cases need
# a kernel tree in the cache (make fetch) and are skipped without one.
. "$(dirname "$0")/../lib.sh"
mi=$top/send/mail-identity.py
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1

# expect_ident DESC RC PATTERN ENV...: mail-identity.py ident exits RC with one line matching PATTERN.
expect_ident() {
	local desc=$1 want=$2 pat=$3 got rc
	shift 3
	got=$(cd "$tmp" && env "$@" python3 "$mi" ident)
	rc=$?
	result "$([ "$rc" = "$want" ] && [ "$(printf '%s\n' "$got" | wc -l)" = 1 ] &&
		printf '%s' "$got" | grep -q -- "$pat" && echo 1)" "ident: $desc" "exit $rc: $got"
}
expect_ident "AUTHOR" 0 '^Test User <test@kernel-test.org>$' AUTHOR='Test User <test@kernel-test.org>'
expect_ident "git config" 0 '^Test User <test@kernel-test.org>$' AUTHOR= GIT_CONFIG_COUNT=2 \
	GIT_CONFIG_KEY_0=user.name GIT_CONFIG_VALUE_0='Test User' GIT_CONFIG_KEY_1=user.email \
	GIT_CONFIG_VALUE_1=test@kernel-test.org
expect_ident "unset" 1 'no sender identity.*git config user.name' AUTHOR=
for a in 'A B <a@foo.example>' 'A B <a@x.invalid>' 'A B <a@example.com>' 'A B <a@sub.example.org>' \
	'A B <a@host.test>' 'A B <a@localhost>'; do
	expect_ident "placeholder '$a'" 1 'placeholder\|not an address' AUTHOR="$a"
done
expect_ident "no name" 1 'not an address with a name' AUTHOR='a@kernel-test.org'

# rewrite: the committed placeholder becomes the sender everywhere, and only there.
cp "$top/patches/0000-cover-letter.patch" "$top"/patches/0001-*.patch "$tmp/"
python3 "$mi" rewrite 'Tëst User <test@kernel-test.org>' "$tmp"/0*.patch
rc=$?
p1=$(ls "$tmp"/0001-*.patch)
result "$([ "$rc" = 0 ] && grep -qx 'From: =?utf-8?q?T=C3=ABst_User?= <test@kernel-test.org>' "$p1" &&
	grep -qx 'Signed-off-by: Tëst User <test@kernel-test.org>' "$p1" &&
	grep -q '^Message-Id: <.*\.git\.test@kernel-test\.org>$' "$p1" &&
	grep -qx "Tëst User ($(ls "$top"/patches/0*.patch | grep -vc /0000-)):" "$tmp/0000-cover-letter.patch" &&
	echo 1)" \
	"rewrite: From (RFC 2047), Signed-off-by, Message-Id and the shortlog carry the sender"
ph=$(sed -n 's/^Signed-off-by: .*<\(.*\)>$/\1/p' "$top/patches/0001-"*.patch | head -n1)
result "$([ -n "$ph" ] && ! grep -qF "$ph" "$tmp"/0*.patch && echo 1)" "rewrite: no trace of the placeholder <$ph>"
d=$(diff <(sed '1,/^---$/d' "$top"/patches/0001-*.patch) <(sed '1,/^---$/d' "$p1"))
result "$([ -z "$d" ] && echo 1)" "rewrite: the diff itself unchanged" "$d"
cp "$p1" "$tmp/again.patch"
python3 "$mi" rewrite 'Other One <other@kernel-test.org>' "$tmp/again.patch"
result "$(cmp -s "$p1" "$tmp/again.patch" && echo 1)" "rewrite: a mail from a real identity is left as it is"
out=$(python3 "$mi" rewrite 'X <x@y.example>' "$tmp/again.patch")
result "$([ $? = 1 ] && printf '%s' "$out" | grep -q placeholder && echo 1)" "rewrite: refuses a placeholder sender" "$out"

# checkpatch's commit lookups.
TREE=$(bash -c '. "$1/scripts/lib.sh" && echo "$TREE"' - "$top")
if [ ! -f "$TREE/base/scripts/checkpatch.pl" ]; then
	n=$((n + 1))
	echo "ok $n checkpatch commit lookups # SKIP no kernel tree in the cache (make fetch)"
	exit 0
fi
cp_step() {
	bash -c '. "$1/scripts/lib.sh"; n=0; fails=0
		eval "$(sed -n "/^checkpatch_step() {/,/^}/p" "$1/send/series.sh")"
		checkpatch_step "$TREE/base" "$2" x' - "$top" "$1"
}
fix=$top/fixes/page-lookup-ref.patch
r3=$(grep -l "^commit 8b52c7261e04 (" "$top"/patches/0*.patch | head -n1)
out=$(cp_step "$fix")
result "$(printf '%s' "$out" | grep -q '^ok ' && echo 1)" "checkpatch: fixes/page-lookup-ref.patch clean, its Fixes: found" "$out"
sed 's/^Fixes: d1716b4b78fb/Fixes: d1716b4b78fc/' "$fix" >"$tmp/unknown.patch"
out=$(cp_step "$tmp/unknown.patch")
result "$(printf '%s' "$out" | grep -q 'UNKNOWN_COMMIT_ID' && echo 1)" "checkpatch: an unlisted commit is unknown" "$out"
sed 's/("binder: concurrent page installation")/("binder: concurrent page install")/' "$fix" >"$tmp/subject.patch"
out=$(cp_step "$tmp/subject.patch")
result "$(printf '%s' "$out" | grep -q 'BAD_FIXES_TAG' && echo 1)" "checkpatch: a wrong subject in Fixes:" "$out"
sed 's/^commit 8b52c7261e04 (/8b52c7261e04 (/' "$r3" >"$tmp/bare.patch"
out=$(cp_step "$tmp/bare.patch")
result "$(printf '%s' "$out" | grep -q 'GIT_COMMIT_ID' && echo 1)" "checkpatch: a bare hash without 'commit'" "$out"
[ "$fails" = 0 ]
