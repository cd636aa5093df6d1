#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make deps: README's Requirements name exactly the packages scripts/deps.sh installs, .ci/run
# installs them through it, and bad input gets one error line.
. "$(dirname "$0")/../lib.sh"

list=$("$top/scripts/deps.sh" --list | sort)
# README's Requirements: the backquoted package list after "installs them with apt:".
readme=$(sed -n '/^## Requirements/,/^## /p' "$top/README.md" | tr '\n' ' ' |
	sed -n 's/.*installs them with apt: `\([^`]*\)`.*/\1/p' | tr -s ' ' '\n' | sed '/^$/d' | sort)
result "$([ -n "$list" ] && [ "$list" = "$readme" ] && echo 1)" \
	"README's Requirements list the packages of scripts/deps.sh" \
	"$(diff <(echo "$list") <(echo "$readme") | grep '^[<>]' | tr '\n' ' ')"
result "$(grep -q '^scripts/deps.sh\b' "$top/.ci/run" && ! grep -q 'apt-get install' "$top/.ci/run" && echo 1)" \
	".ci/run installs through scripts/deps.sh and nothing else"
result "$(echo "$list" | grep -qx gnuplot-nox && echo 1)" "make deps installs gnuplot-nox for make bench's plots"
err=$("$top/scripts/deps.sh" --all 2>&1 >/dev/null)
rc=$?
result "$([ "$rc" != 0 ] && [ "$err" = "deps.sh: error: unknown argument '--all' (usage: deps.sh [--list])" ] && echo 1)" \
	"deps.sh: an unknown argument is one error line" "exit $rc: $err"
echo "# $n tests, $fails failed"
[ "$fails" = 0 ]
