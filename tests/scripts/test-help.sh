#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make help: every target of the Makefile has a "## target" line, and make help prints it.
. "$(dirname "$0")/../lib.sh"

targets=$(grep -oE '^[a-z][a-z0-9-]*:' "$top/Makefile" | tr -d : | sort -u)
help=$(make -s -C "$top" help)
for t in $targets; do
	result "$(printf '%s\n' "$help" | grep -q "^$t\( \|$\)" && echo 1)" "make help names $t"
done
phony=$(sed -n '/^\.PHONY:/,/[^\\]$/p' "$top/Makefile" | tr -d '\\' | sed 's/^\.PHONY://' | tr -s ' \t' '\n' | sed '/^$/d' | sort -u)
result "$([ "$phony" = "$targets" ] && echo 1)" "every target is .PHONY, and every .PHONY name a target" \
	"$(diff <(echo "$targets") <(echo "$phony") | grep '^[<>]' | tr '\n' ' ')"
echo "# $n tests, $fails failed"
[ "$fails" = 0 ]
