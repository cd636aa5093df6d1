#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# doc-test.sh [FILE.md...]: run the code blocks of the docs that are marked
# as testable, and print one KTAP result line for each.
#
# A testable block is a fenced ```sh (or ```bash) block, its fences in column
# 0, right after a marker line:
#
#   <!-- testable -->            the block must exit 0
#   <!-- testable: exit N -->    the block must exit with status N
#
# Each block runs as a script with `bash -eu`, from the top of a scratch copy
# of the repository (the files git tracks plus untracked ones it does not
# ignore), with CACHE set to an empty directory, so that a block can neither
# change this checkout nor use or fill the kernel cache. Mark only cheap,
# safe commands: nothing that builds a kernel or needs the cache.
# DOC_TEST_TIMEOUT (seconds, default 300) bounds each block. A marker that is
# not followed by such a block, or a block that is not closed, fails.
# Without FILE arguments: every Markdown file of the checkout (tracked, or
# untracked and not ignored).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
me=${0##*/}
die() {
	echo "$me: error: $*" >&2
	exit 1
}

# A block that runs doc-test.sh again (directly or through the host tests)
# would recurse without end.
if [ -n "${BAS_DOC_TEST:-}" ]; then
	echo "ok 1 doc-test # SKIP nested run inside a testable block"
	exit 0
fi

timeout_s=${DOC_TEST_TIMEOUT:-300}
[[ $timeout_s =~ ^[1-9][0-9]*$ ]] || die "DOC_TEST_TIMEOUT=$timeout_s is not a number of seconds"
files=()
for a; do
	case $a in
	-*) die "unknown option '$a' (usage: doc-test.sh [FILE.md...])" ;;
	esac
	[ -f "$a" ] || die "no such file: $a"
	files+=("$(realpath "$a")")
done
if [ ${#files[@]} = 0 ]; then
	mapfile -t files < <(git -C "$top" ls-files -co --exclude-standard -- '*.md' | sed "s|^|$top/|")
	[ ${#files[@]} -gt 0 ] || die "no Markdown files found in $top"
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/blocks"

# Collect the blocks: $tmp/blocks/N.sh with $tmp/blocks/N.meta holding
# "WHERE<tab>EXPECTED EXIT" or "WHERE<tab>bad<tab>PROBLEM".
nb=0
add_bad() { # WHERE PROBLEM
	nb=$((nb + 1))
	printf '%s\tbad\t%s\n' "$1" "$2" >"$tmp/blocks/$nb.meta"
}
for f in "${files[@]}"; do
	rel=${f#"$top"/}
	state=text
	ln=0
	while IFS= read -r line || [ -n "$line" ]; do
		ln=$((ln + 1))
		case $state in
		text)
			[[ $line == '<!--'*testable* ]] || continue
			where=$rel:$ln
			if [[ $line =~ ^'<!-- testable -->'[[:space:]]*$ ]]; then
				expect=0
			elif [[ $line =~ ^'<!-- testable: exit '([0-9]+)' -->'[[:space:]]*$ ]]; then
				expect=${BASH_REMATCH[1]}
			else
				add_bad "$where" "unknown marker '$line' (use <!-- testable --> or <!-- testable: exit N -->)"
				continue
			fi
			state=marker
			;;
		marker)
			if [[ $line =~ ^'```'(sh|bash)[[:space:]]*$ ]]; then
				nb=$((nb + 1))
				: >"$tmp/blocks/$nb.sh"
				bwhere=$rel:$((ln + 1))
				printf '%s\t%s\n' "$bwhere" "$expect" >"$tmp/blocks/$nb.meta"
				state=block
			else
				add_bad "$where" "the marker is not followed by a \`\`\`sh block"
				state=text
			fi
			;;
		block)
			if [[ $line =~ ^'```'[[:space:]]*$ ]]; then
				state=text
			else
				printf '%s\n' "$line" >>"$tmp/blocks/$nb.sh"
			fi
			;;
		esac
	done <"$f"
	case $state in
	marker) add_bad "$where" "the marker is not followed by a \`\`\`sh block" ;;
	block) printf '%s\tbad\t%s\n' "$bwhere" "the block is not closed" >"$tmp/blocks/$nb.meta" ;;
	esac
done
[ "$nb" -gt 0 ] || die "no testable blocks in: ${files[*]#"$top"/}"

# A scratch copy of the repository to run the blocks in.
copy=$tmp/repo
mkdir -p "$copy" "$tmp/cache"
if git -C "$top" rev-parse --git-dir >/dev/null 2>&1; then
	(cd "$top" && git ls-files -z -co --exclude-standard | tar --null --ignore-failed-read -T - -cf - 2>/dev/null) | tar -C "$copy" -xf - ||
		die "could not copy $top to $copy"
else
	tar -C "$top" --exclude=./out -cf - . | tar -C "$copy" -xf - || die "could not copy $top to $copy"
fi

echo "# doc-test: $nb testable blocks in ${#files[@]} files"
fails=0
for i in $(seq 1 "$nb"); do
	IFS=$'\t' read -r where expect problem <"$tmp/blocks/$i.meta"
	if [ "$expect" = bad ]; then
		echo "not ok $i $where: $problem"
		fails=$((fails + 1))
		continue
	fi
	first=$(grep -v -e '^[[:space:]]*#' -e '^[[:space:]]*$' "$tmp/blocks/$i.sh" | head -n1 |
		sed 's/[[:space:]][[:space:]]*#.*//' | cut -c1-60)
	desc="$where: ${first:-(empty block)}"
	[ "$expect" = 0 ] || desc="$desc (exits $expect)"
	(cd "$copy" && env -u OUT CACHE="$tmp/cache" BAS_DOC_TEST=1 \
		timeout "$timeout_s" bash -eu "$tmp/blocks/$i.sh") </dev/null >"$tmp/log" 2>&1
	rc=$?
	if [ "$rc" = "$expect" ]; then
		echo "ok $i $desc"
	else
		if [ "$rc" = 124 ]; then
			echo "not ok $i $desc: timed out after ${timeout_s}s"
		else
			echo "not ok $i $desc: exit $rc, expected $expect"
		fi
		tail -n 20 "$tmp/log" | sed 's/^/# /'
		fails=$((fails + 1))
	fi
done
echo "# doc-test: $nb blocks, $fails failed"
[ "$fails" = 0 ]
