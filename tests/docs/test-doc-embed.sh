#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# scripts/doc-embed.sh: a Markdown block that quotes a file is rewritten from it, --check
# fails when it differs, bad blocks are refused with one line; then the project's docs.
. "$(dirname "$0")/../lib.sh"

mkdir -p "$tmp/top/scripts" "$tmp/top/series"
cp "$top/scripts/doc-embed.sh" "$top/scripts/lib.sh" "$tmp/top/scripts/"
printf '# Title\n\n| a | b |\n|---|---|\n| 1 | 2 |\n' >"$tmp/top/series/t.md"
doc=$tmp/top/doc.md
printf 'Before.\n\n<!-- embed: series/t.md -->\nstale\n<!-- end embed -->\n\nAfter.\n' >"$doc"
embed=$tmp/top/scripts/doc-embed.sh

rc=0
out=$("$embed" --check "$doc" 2>&1) || rc=$?
result "$([ "$rc" = 1 ] && [ "$(echo "$out" | wc -l)" = 1 ] && [[ $out == *"$doc: a block differs from its file"* ]] &&
	grep -qx stale "$doc" && echo 1)" "--check: a stale block fails with one line, the doc untouched" "exit $rc: $out"
rc=0
"$embed" "$doc" >/dev/null 2>&1 || rc=$?
want=$(printf 'Before.\n\n<!-- embed: series/t.md -->\n| a | b |\n|---|---|\n| 1 | 2 |\n<!-- end embed -->\n\nAfter.')
result "$([ "$rc" = 0 ] && [ "$(cat "$doc")" = "$want" ] && echo 1)" "the block is rewritten from its file, title left out" \
	"exit $rc: $(tr '\n' '|' <"$doc")"
rc=0
"$embed" --check "$doc" >/dev/null 2>&1 || rc=$?
result "$([ "$rc" = 0 ] && echo 1)" "--check: a block equal to its file passes" "exit $rc"

printf '<!-- embed: series/none.md -->\n<!-- end embed -->\n' >"$tmp/top/missing.md"
expect_fail "a block of a file that does not exist" "missing.md:1: series/none.md: no such file, or empty" \
	"$embed" --check "$tmp/top/missing.md"
printf '<!-- embed: series/t.md -->\nno end\n' >"$tmp/top/open.md"
expect_fail "a block without its end" "open.md:1: <!-- embed: series/t.md --> has no <!-- end embed -->" \
	"$embed" "$tmp/top/open.md"
result "$(grep -qx 'no end' "$tmp/top/open.md" && echo 1)" "a bad block leaves the doc as it was"
expect_fail "no doc" "usage: doc-embed.sh" "$embed" --check

# The project's docs: every embedded block is its file's text.
rc=0
# (find, not git ls-files: doc-test.sh runs this test in a copy that is no git checkout)
mapfile -t docs < <(find "$top" -name '*.md' -not -path "$top/series/*" -not -path "$top/out/*" \
	-not -path "$top/.git/*" | sort)
out=$("$top/scripts/doc-embed.sh" --check "${docs[@]}" 2>&1) || rc=$?
result "$([ "$rc" = 0 ] && echo 1)" "the project's docs: every embedded block equals its file" "$out"

# design.md argues from accepted records: each estimate with its interval ("Nx [a-b]") that a
# section quotes must be found in its record; the prose copies none by hand. figures_not_in DOC
# FROM TO SOURCE...: the section runs from FROM to TO ("" for the end); a summary.csv source
# gives its rows as the designs table writes them, any other source its text.
figures_not_in() {
	python3 - "$top" "$@" <<'PY'
import csv, os, re, sys
top, doc, start, end, *sources = sys.argv[1:]
sys.path.insert(0, os.path.join(top, "bench"))
from benchlib.designs import design_cell
known, text = set(), ""
for p in sources:
    if p.endswith("summary.csv"):
        with open(p) as f:
            known.update(re.sub(r" [*+]$", "", design_cell(r)) for r in csv.DictReader(f))
    else:
        text += open(p).read()
doc = open(doc).read()
sec = re.sub(r"\s+", " ", doc[doc.index(start):doc.index(end) if end else len(doc)])
print(" ".join(f for f in re.findall(r"[0-9.]+x \[[0-9.+-]+\]", sec) if f not in known and f not in text))
PY
}
design=$top/Documentation/design.md
missing=$(figures_not_in "$design" "### 12.6 The decision" "## 13. " "$top/series/bench-designs/designs.md")
result "$([ -z "$missing" ] && echo 1)" "design.md 12.6: each figure it quotes is in series/bench-designs/designs.md" "$missing"
missing=$(figures_not_in "$design" "## 13. " "" "$top"/series/bench-v5*/*/summary.csv)
result "$([ -z "$missing" ] && echo 1)" "design.md 13: each figure it quotes is a row of series/bench-v5*/*/summary.csv" "$missing"

# The cover letter copies no figure by hand: an estimate with its interval is written there only
# as an "@fig ...@" placeholder, which make series renders from the accepted record's summary.csv.
missing=$(python3 - "$top/series/cover-letter.txt" <<'PY'
import re, sys
doc = re.sub(r"@fig [^@]*@", "", open(sys.argv[1]).read())
print(" ".join(re.findall(r"[0-9.]+x? \[[0-9.+-]+\]", re.sub(r"\s+", " ", doc))))
PY
)
result "$([ -z "$missing" ] && echo 1)" "cover letter: no estimate with its interval copied by hand (only @fig placeholders)" "$missing"
