#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# checkpatch-git.sh: the `git` that series.sh puts first on PATH for checkpatch.pl. No tree
# here has upstream's history, so checkpatch's commit lookups (git log --format='%H %s' -1 ID)
# are answered from $BAS_UPSTREAM_COMMITS (series/upstream-commits.txt), as upstream's tree
# would answer them; an unlisted ID is unknown, as upstream's git would say. Everything else
# goes to the real git ($BAS_REAL_GIT) in the tree $BAS_CHECKPATCH_TREE.
set -eu
if [ "${1:-}" = log ] && [ "$#" -ge 4 ] && [[ " $* " == *" --format=%H %s "* ]]; then
	id=${!#}
	while read -r hash subject; do
		case $hash in '#'* | '') continue ;; esac
		if [[ $hash == "$id"* || $id == "$hash"* ]]; then
			printf '%-40s %s\n' "$hash" "$subject"
			exit 0
		fi
	done <"$BAS_UPSTREAM_COMMITS"
	echo "fatal: bad object $id"
	exit 128
fi
exec "$BAS_REAL_GIT" -C "$BAS_CHECKPATCH_TREE" "$@"
