#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Licence: LICENSE is GPL-2.0, as the driver, and every source and script of ours (C, shell,
# Python, the guest plans, Makefiles, Kbuild, .ci/run) names it on its first or second line.
. "$(dirname "$0")/../lib.sh"
cd "$top" || exit 1
result "$(grep -q 'GNU GENERAL PUBLIC LICENSE' LICENSE 2>/dev/null && grep -q 'Version 2, June 1991' LICENSE && echo 1)" \
	"LICENSE is the GPL, version 2"
missing=()
while read -r f; do
	head -n2 "$f" | grep -qE '^(#|//|/\*) SPDX-License-Identifier: GPL-2.0' || missing+=("$f")
done < <(git ls-files | grep -E '(\.sh|\.py|\.c|\.h)$|(^|/)[a-z-]+-run$|^\.ci/run$|(^|/)Makefile$|(^|/)Kbuild$' |
	grep -v -E '^(patches|kunit/mutants)/')
result "$([ ${#missing[@]} = 0 ] && echo 1)" "every source and script has an SPDX line" "${missing[*]}"
[ "$fails" = 0 ]
