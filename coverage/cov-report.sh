#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# cov-report.sh DIR FILE CHANGED SUITE...: make coverage's report (coverage/coverage.sh) for the
# source file FILE (its name as the tracefiles' SF: lines end). Merges DIR/SUITE.info of each
# SUITE into DIR/total.info (lcov -a), prints FILE's line and branch coverage per suite and
# merged, and, when CHANGED is a file of line numbers (- for none), every one of those lines that
# is executable and that no suite reached, with its reason: the first line of REASONS (default
# coverage/unreached: "TEXT<tab>REASON", TEXT a part of the source line) whose TEXT the line has.
# Exits 1 when a tracefile is missing or has no FILE, or when such a line has no reason.
. "$(dirname "$0")/../scripts/lib.sh"

[ $# -ge 4 ] || die "usage: cov-report.sh DIR FILE CHANGED|- SUITE..."
dir=$1 file=$2 changed=$3
shift 3
reasons=${REASONS:-$BAS_TOP/coverage/unreached}
[ -f "$reasons" ] || die "REASONS=$reasons: no such file"
[ "$changed" = - ] || [ -f "$changed" ] || die "CHANGED=$changed: no such file"
adds=()
for s; do
	[ -s "$dir/$s.info" ] || die "no tracefile $dir/$s.info"
	adds+=(-a "$dir/$s.info")
done
lcov --rc lcov_branch_coverage=1 --quiet "${adds[@]}" -o "$dir/total.info" >"$dir/lcov-merge.log" 2>&1 ||
	die "lcov -a failed (see $dir/lcov-merge.log)"

# figures INFO: "LH LF BRH BRF" of FILE's record; nothing when INFO has none.
figures() {
	awk -v f="/$file" '
		/^SF:/ { on = (substr($0, length($0) - length(f) + 1) == f || substr($0, 4) == substr(f, 2)); seen += on; next }
		!on { next }
		/^DA:/ { split(substr($0, 4), a, ","); lf++; if (a[2] > 0) lh++ }
		/^BRDA:/ { split(substr($0, 6), a, ","); brf++; if (a[4] != "-" && a[4] > 0) brh++ }
		END { if (seen) print lh + 0, lf + 0, brh + 0, brf + 0 }' "$1"
}
pct() { awk -v h="$1" -v f="$2" 'BEGIN { if (f) printf "%d/%d %.1f%%", h, f, 100 * h / f; else printf "none" }'; }

echo "coverage of $file ($(basename "$dir")): lines, branches"
for s in "$@" total; do
	read -r lh lf bh bf < <(figures "$dir/$s.info") || true
	[ -n "${lf:-}" ] || die "$dir/$s.info has no record of $file"
	printf '  %-10s %-22s %s\n' "${s/total/merged}" "$(pct "$lh" "$lf")" "$(pct "$bh" "$bf")"
done
[ "$changed" != - ] || exit 0

# The changed lines: executable (a DA: line), reached or not, from the merged tracefile.
awk -v f="/$file" -v reasons="$reasons" -v changed="$changed" '
	BEGIN {
		while ((getline l < changed) > 0) ch[l + 0] = 1
		FS = "\t"
		while ((getline l < reasons) > 0) {
			if (l ~ /^#/ || l == "") continue
			split(l, a, "\t")
			nr++; rt[nr] = a[1]; rr[nr] = a[2]
		}
		FS = " "
	}
	/^SF:/ { on = (substr($0, length($0) - length(f) + 1) == f || substr($0, 4) == substr(f, 2)); if (on) src = substr($0, 4); next }
	on && /^DA:/ { split(substr($0, 4), a, ","); if ((a[1] + 0) in ch) { ex++; if (a[2] > 0) hit++; else miss[a[1] + 0] = 1 } }
	END {
		n = 0
		while ((getline l < src) > 0) text[++n] = l
		printf "lines the series adds or changes in %s: %d executable, %d reached, %d not\n", substr(f, 2), ex, hit, ex - hit
		bad = 0
		for (i = 1; i <= n; i++) {
			if (!(i in miss)) continue
			t = text[i]; sub(/^[ \t]+/, "", t)
			why = ""
			for (r = 1; r <= nr; r++) if (index(text[i], rt[r])) { why = rr[r]; break }
			if (why == "") { why = "NO REASON RECORDED (coverage/unreached)"; bad++ }
			printf "  %d: %s\n      %s\n", i, t, why
		}
		exit bad ? 1 : 0
	}' "$dir/total.info"
