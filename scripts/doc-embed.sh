#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# doc-embed.sh [--check] DOC...: the blocks of a Markdown DOC that quote a file of the
# repository, so that no figure in them is copied by hand. A block is
#   <!-- embed: PATH -->
#   ... PATH's lines, its first line (a title) and the blank line after it left out ...
#   <!-- end embed -->
# Without --check, each block is rewritten from its file; with it, nothing is written and
# the exit status is 1 if any block differs from its file (one line per block says which).
. "$(dirname "$0")/lib.sh"

check=0
[ "${1:-}" != --check ] || { check=1; shift; }
[ $# -gt 0 ] || die "usage: doc-embed.sh [--check] DOC..."
rc=0
for doc; do
	[ -f "$doc" ] || die "$doc: no such file"
	new=$(mktemp) err=$(mktemp)
	# awk prints the document with each block's body replaced by its file, and fails (a line in
	# $err) for a file that is missing or a block that is not closed.
	if ! awk -v top="$BAS_TOP" -v err="$err" '
		function emit(path,   line, n, f) {
			f = top "/" path
			if ((getline line <f) <= 0) { print FILENAME ":" FNR ": " path ": no such file, or empty" >err; bad = 1; return }
			n = 0
			while ((getline line <f) > 0) {
				if (n++ == 0 && line == "") continue
				print line
			}
			close(f)
		}
		/^<!-- embed: [^ ]+ -->$/ { print; path = $3; emit(path); inside = 1; start = FNR; next }
		/^<!-- end embed -->$/ { inside = 0; print; next }
		!inside { print }
		END { if (inside) { print FILENAME ":" start ": <!-- embed: " path " --> has no <!-- end embed -->" >err; bad = 1 }
			exit bad }' "$doc" >"$new"; then
		msg=$(head -n1 "$err")
		rm -f "$new" "$err"
		die "$msg"
	fi
	rm -f "$err"
	if cmp -s "$doc" "$new"; then
		rm -f "$new"
	elif [ "$check" = 1 ]; then
		echo "doc-embed.sh: $doc: a block differs from its file: $(diff "$doc" "$new" | head -n1)" >&2
		rm -f "$new"
		rc=1
	else
		cat "$new" >"$doc"
		rm -f "$new"
		note "$doc: rewrote its embedded blocks"
	fi
done
exit $rc
