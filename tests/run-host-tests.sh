#!/bin/bash
# Host-side unit tests: every tests/*/test-*.sh, each printing KTAP result lines.
set -u
top=$(cd "$(dirname "$0")" && pwd)
rc=0
for t in "$top"/*/test-*.sh; do
	[ -x "$t" ] || continue
	echo "# ${t#"$top"/}"
	"$t" || rc=1
done
exit $rc
