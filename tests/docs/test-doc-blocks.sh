#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# scripts/doc-test.sh: first on a made-up Markdown file (a passing block, an
# expected exit status, a failing block, bad markers, an unmarked block that
# must not run, bash -eu, a scratch copy of the repository), then on bad
# input, then on the project's own docs: every block they mark as testable.
. "$(dirname "$0")/../lib.sh"

# A doc block that ran `make host-tests` would run this file again (none does: README's is
# not run by the doc tests, make check's host stage runs it).
if [ -n "${BAS_DOC_TEST:-}" ]; then
	n=1
	echo "ok 1 doc blocks # SKIP nested run (a testable doc block ran the host tests)"
	exit 0
fi

md=$tmp/doc.md
cat >"$md" <<EOF
# A doc

Run from the top of a copy of the repository, with an empty cache:

<!-- testable -->
\`\`\`sh
test -f Makefile && test -x scripts/doc-test.sh
test "\$CACHE" != "\${XDG_CACHE_HOME:-\$HOME/.cache}/binder-alloc-split"
test -z "\$(ls "\$CACHE")"
touch doc-test-was-here
\`\`\`

An expected exit status:

<!-- testable: exit 3 -->
\`\`\`bash
exit 3
\`\`\`

bash -e stops at the first failure:

<!-- testable -->
\`\`\`sh
false
touch $tmp/after-false
\`\`\`

bash -u:

<!-- testable: exit 1 -->
\`\`\`sh
echo "\$SURELY_UNSET_DOC_TEST_VARIABLE"
\`\`\`

Not marked, so not run:

\`\`\`sh
touch $tmp/unmarked-ran
\`\`\`

    touch $tmp/indented-ran

<!-- testable: maybe -->
\`\`\`sh
true
\`\`\`

<!-- testable -->
Some text instead of a block.

<!-- testable -->
\`\`\`sh
true
EOF

# at TEXT: the line number of the first line of $md that is TEXT, plus one
# (the first line of a block after its fence; for a marker, use at - 1).
at() { echo $(($(grep -nFx -- "$1" "$md" | head -n1 | cut -d: -f1) + 1)); }

"$top/scripts/doc-test.sh" "$md" >"$tmp/out" 2>"$tmp/err"
rc=$?
# expect LINE-REGEX DESC: a line of the output matches.
expect() {
	result "$(grep -qE "$1" "$tmp/out" && echo 1)" "$2" "$(grep -vE '^#' "$tmp/out" | tr '\n' '|')"
}
result "$([ "$rc" = 1 ] && echo 1)" "doc-test exits 1 when a block fails" "exit $rc: $(head -n2 "$tmp/err")"
expect "^ok 1 $md:$(at '```sh'): test -f Makefile" "a passing block: ok, named by file:line and its first command"
result "$([ ! -e "$top/doc-test-was-here" ] && echo 1)" "blocks run in a scratch copy, not in this checkout"
rm -f "$top/doc-test-was-here"
expect "^ok 2 $md:$(at '```bash'): exit 3 \(exits 3\)$" "<!-- testable: exit 3 --> expects exit 3"
expect "^not ok 3 $md:$(($(at false) - 1)): false: exit 1, expected 0$" "a failing block: not ok, with its exit status"
result "$([ ! -e "$tmp/after-false" ] && echo 1)" "blocks run with bash -e"
expect "^ok 4 $md:$(($(at 'echo "$SURELY_UNSET_DOC_TEST_VARIABLE"') - 1)): echo .* \(exits 1\)$" "blocks run with bash -u"
result "$([ ! -e "$tmp/unmarked-ran" ] && [ ! -e "$tmp/indented-ran" ] && echo 1)" "unmarked blocks are not run"
expect "^not ok 5 $md:$(($(at '<!-- testable: maybe -->') - 1)): unknown marker '<!-- testable: maybe -->'" "an unknown marker: not ok"
expect "^not ok 6 $md:$(($(at 'Some text instead of a block.') - 2)): the marker is not followed by a \`\`\`sh block$" "a marker without a block: not ok"
expect "^not ok 7 $md:$(($(grep -nFx '```sh' "$md" | tail -n1 | cut -d: -f1) + 1)): the block is not closed$" "a block that is not closed: not ok"
expect "^# doc-test: 7 blocks, 4 failed$" "a summary comment line"
result "$([ "$(grep -cE '^(not )?ok ' "$tmp/out")" = 7 ] && echo 1)" "one result line per block and no other"

# expect_fail DESC PATTERN CMD...: exit non-zero with one error line matching PATTERN.
expect_fail() {
	local desc=$1 pat=$2 err rc
	shift 2
	err=$("$@" 2>&1 >/dev/null)
	rc=$?
	result "$([ "$rc" != 0 ] && [ "$(printf '%s\n' "$err" | wc -l)" = 1 ] &&
		printf '%s' "$err" | grep -q "error:.*$pat" && echo 1)" "bad input: $desc" "exit $rc: $err"
}
expect_fail "a file that does not exist" "no such file: $tmp/nope.md" "$top/scripts/doc-test.sh" "$tmp/nope.md"
expect_fail "an unknown option" "unknown option '--all'" "$top/scripts/doc-test.sh" --all
printf '# Nothing to test\n\n    make check\n' >"$tmp/none.md"
expect_fail "no testable blocks" "no testable blocks in" "$top/scripts/doc-test.sh" "$tmp/none.md"
expect_fail "a bad DOC_TEST_TIMEOUT" "DOC_TEST_TIMEOUT=soon is not a number" \
	env DOC_TEST_TIMEOUT=soon "$top/scripts/doc-test.sh" "$md"

# The project's docs: each testable block is one result here.
"$top/scripts/doc-test.sh" >"$tmp/docs" 2>&1
rc=$?
while IFS= read -r line; do
	if [[ $line =~ ^ok\ [0-9]+\ (.*)$ ]]; then
		result 1 "docs: ${BASH_REMATCH[1]}"
	elif [[ $line =~ ^not\ ok\ [0-9]+\ (.*)$ ]]; then
		result 0 "docs: ${BASH_REMATCH[1]}"
	else
		printf '%s\n' "$line" | sed 's/^\([^#]\)/# \1/'
	fi
done <"$tmp/docs"
result "$([ "$rc" = 0 ] && echo 1)" "scripts/doc-test.sh on the docs exits 0" "exit $rc"
[ "$fails" = 0 ]
