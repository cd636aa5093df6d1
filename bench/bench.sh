#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# bench.sh: make bench. Stock binder_linux against binder_alloc_split and the design variants,
# each boot's modules on one kernel, their runs in an order shuffled per boot with a seed
# (bench/bench-run), then the report of each boot (bench/bench.py report), the boots of each
# kernel together (bench.py combine) and the designs table over the kernels (bench.py designs).
# Boots (BENCH_BOOTS, in this order; default perf), each BENCH_REPLICAS times (default 1):
#   perf     the binder=m perf kernel: every item of BENCH_ITEMS;
#   proxy    the binder=m proxy kernel (perf + CONFIG_SCHED_PROXY_EXEC, qemu/config/proxy.config):
#            the designs table's configurations of items 0, 1, 7, 8, 9 and 10 of BENCH_ITEMS;
#   noproxy  the same proxy kernel booted with sched_proxy_exec=0: those of items 7, 8 and 10
#            (the same kernel binary, without proxy execution).
# The default, one perf boot, is what a newcomer can wait for (about 22 minutes on a 2-core
# host under TCG once make check has built the perf kernel); the cover letter's record is the
# three kernels, two boots each (make bench-record: BENCH_BOOTS="perf proxy noproxy"
# BENCH_REPLICAS=2, about an hour and a half), which accept requires of series/bench. Before
# it builds anything, bench.sh prints its estimate of the whole run (bench.py estimate: the
# plans' guest time, the host's time around the boots, the builds of what is missing);
# `bench.sh estimate` prints only that.
# Each boot writes OUT/bench/BOOT/bootN/ (N = 1 .. BENCH_REPLICAS, the same plan in another
# order): report.md, runs.csv, summary.csv, setup.txt, plan.json, bench.plan, console.log,
# cover-table.txt, plots; then OUT/bench/BOOT/ has runs.csv, summary.csv (each boot's figures
# and each figure's finding over the boots), pooled.csv (two boots or more: the boots' runs
# together, the secondary analysis), report.md (led by bench/headline.txt's endpoints) and
# cover-table.txt; OUT/bench/cover-table.txt is the perf boot's (the cover letter's table),
# OUT/bench/designs.md the designs table (boot1 of each kernel); OUT/bench/headline.txt and
# code.txt (the files the run's code is built from, with their git blob ids) are copied first.
# Builds what is missing: the kernels (unless BENCH_NO_BUILD=1), the modules (kept in
# $CACHE/bench by the hash of their inputs and the kernel), binder_throughput.
# The perf boot's items 0, 6, 7 and 8 add binder_alloc_v1.ko (patch 0001 and
# bench/v1-ceiling.patch). BENCH_VARIANTS (default none; all: every one) names the design
# variants, binder_alloc_NAME.ko = the series and bench/variant-NAME.patch, bench only, which run
# in the designs table's configurations (design_configs() in benchlib/common.py) of items 0, 1,
# 7, 8, 10 and, where their page installation differs from the split's, 9 (VARIANTS in
# benchlib/common.py), in every boot; BENCH_VARIANTS= runs none.
# Every module is built with BAS_BENCH=1: <debugfs>/binder/alloc_bench of items 0, 8 and 9
# (bench/binder_alloc_bench.c, bench/alloc-bench-hook.patch), the shrinker's skip counts and the
# rollback count (bench/shrinker-skips-*.patch, <debugfs>/binder/alloc_bench_counts), inert for
# the rest.
# Knobs: BENCH_QUICK=1 (a few minutes) or BENCH_FULL=1 (the published measurements' counts);
# BENCH_BOOTS ("perf"; of "perf proxy noproxy"); BENCH_ITEMS ("0 1 2 3 4 5 6 7 8 9 10");
# BENCH_VARIANTS;
# BENCH_MODES ("sync oneway pipeline", item 3), BENCH_RUNS (runs per module and configuration,
# overrides the profile), BENCH_NO_BUILD=1, OUT, and those of qemu-run.sh (SMP, MEM, ACCEL;
# TIMEOUT defaults to 3 x the sum of a boot's run time limits, limit_s in plan.json, + 5 min).
# BENCH_REPLICAS=N (1): boots of each kernel; BENCH_SEED=S: the boots' order seeds are
# S, S+1, ... (default: a random one per boot); both recorded in setup.txt and runs.csv.
# BENCH_SETTLE=S (180): before each boot, wait up to S seconds for the host's 1-minute load
# average, rounded, plus -smp to fit the host's CPUs.
# BENCH_HOST_LOAD=N: N busy loops on the host beside QEMU for the whole guest run, each pinned
# to a host CPU in turn (taskset): make bench on a busy host, on purpose (see bench/method.md).
# BENCH_LOCKSTAT=1 (make bench-lockstat): one boot, of the lockstat flavour (CONFIG_LOCK_STAT),
# in OUT/bench-lockstat/lockstat; the guest then sends each run's /proc/lock_stat lines of
# binder's locks.
# BENCH_BUILD_ONLY=1 (make check's bench-build stage): build the kernels and the modules the
# boots need and binder_throughput, print one KTAP line per module (not ok, and exit 1, for one
# that does not build), boot nothing and leave OUT alone.
# A run that completes leaves OUT/bench/bench.ok; `bench.sh accept` (make bench-accept) then
# copies its record to series/bench, or `bench.sh accept series/DIR` to series/DIR (a record
# kept beside the cover letter's, such as the designs decision's), if the run's code is HEAD's:
# the files of code.txt (code_re below) with HEAD's blobs. series/bench takes two boots or more
# of the default or full profile only, of each of the three kernels. `bench.sh code` prints the
# working tree's code.txt.
. "$(dirname "$0")/../scripts/lib.sh"

case ${BENCH_LOCKSTAT:-0} in
0) out=${OUT:-$BAS_TOP/out}/bench ;;
1) out=${OUT:-$BAS_TOP/out}/bench-lockstat ;;
*) die "BENCH_LOCKSTAT takes 0 or 1 (got '${BENCH_LOCKSTAT}')" ;;
esac
all_boots="perf proxy noproxy"

# The files the measured modules, the guest's binaries and its plan are built from: module()'s
# key and build-module.sh's inputs, the kernels' configs and build, binder_throughput and its
# UAPI library, binderThroughputTest (aosp/), the guest's plan runner and the planner; no
# documentation, and not the cover letter (patches/0000-cover-letter.patch), which takes the run's
# figures after it. A run records them (code.txt: "BLOB PATH" a line) and their hash (setup.txt's
# code=); accept compares them with HEAD's.
code_re='^(patches/|fixes/|fixups/|binder_alloc_split/|Kbuild$|bench/[^/]+[.](patch|c)$|bench/bench-run$|bench/benchlib/(plan|common)[.]py$|scripts/(lib|build-module|build-kernel|prepare-tree)[.]sh$|selftests/(binder_throughput|binder_prio_reclaim|binder_uapi)/|aosp/|qemu/(config/|guest-lib[.]sh$|mkinitramfs[.]sh$))'
nocode_re='([.]md|/README[^/]*|^patches/0000-cover-letter[.]patch)$'
# code_list [REF]: "BLOB PATH" of each such file in the working tree (tracked or untracked, not
# ignored), or at REF; sorted by path.
code_list() {
	local f
	if [ $# = 1 ]; then
		git -C "$BAS_TOP" ls-tree -r --full-tree "$1" | sed 's/^[0-9]* blob \([0-9a-f]*\)	/\1 /' |
			awk -v re="$code_re" -v no="$nocode_re" '{ p = $0; sub(/^[^ ]* /, "", p) } p ~ re && p !~ no'
	else
		code_files | grep -E "$code_re" | grep -Ev "$nocode_re" | LC_ALL=C sort -u | while read -r f; do
			[ ! -f "$BAS_TOP/$f" ] || echo "$(cd "$BAS_TOP" && git hash-object -- "$f") $f"
		done
	fi | LC_ALL=C sort -k2
}
# code_files: the checkout's files, as git lists them (tracked, or untracked and not ignored), or
# every file under BAS_TOP but out/ where it is no git checkout (a copy or a tarball; such a run's
# code_dirty is "unknown", and make bench-accept, which compares with HEAD, needs git).
code_files() {
	if git -C "$BAS_TOP" rev-parse --git-dir >/dev/null 2>&1; then
		git -C "$BAS_TOP" ls-files -co --exclude-standard
	else
		(cd "$BAS_TOP" && find . -path ./out -prune -o -type f -print | sed 's|^[.]/||')
	fi
}

if [ "${1:-}" = code ]; then
	[ $# = 1 ] || die "code takes no argument (got: ${*:2})"
	git -C "$BAS_TOP" rev-parse --git-dir >/dev/null 2>&1 || die "$BAS_TOP is not a git repository"
	code_list
	exit 0
fi

# accept [series/DIR]: keep the last complete run's record in series/bench, where make series
# takes the cover letter's table from, or in series/DIR.
if [ "${1:-}" = accept ]; then
	dest=$BAS_TOP/series/bench
	if [ $# -gt 1 ]; then
		[ $# = 2 ] || die "accept takes one directory at most (got: ${*:2})"
		[[ $2 =~ ^series/bench(-[A-Za-z0-9._]+)*$ ]] && [[ $2 != *..* ]] ||
			die "accept $2: a record goes to series/bench or series/bench-NAME"
		dest=$BAS_TOP/$2
	fi
	# never a lock_stat run: its kernel's timings are not the perf kernel's
	out=${OUT:-$BAS_TOP/out}/bench
	[ -f "$out/bench.ok" ] || die "no complete make bench run in $out (bench.ok is missing): run make bench first"
	read -r -a done_boots <"$out/bench.ok" || true
	[ ${#done_boots[@]} -gt 1 ] || die "$out/bench.ok names no boot: run make bench again"
	[ -f "$out/code.txt" ] && [ -f "$out/headline.txt" ] ||
		die "the run in $out has no code.txt or headline.txt (made before make bench recorded them): run make bench again"
	# The cover letter's numbers are those of HEAD's code: each file the run was built from
	# with HEAD's content, and no other.
	git -C "$BAS_TOP" rev-parse --verify -q HEAD >/dev/null || die "$BAS_TOP has no HEAD commit"
	code_list HEAD >"$out/code.HEAD.$$" || die "cannot list HEAD's files"
	differ=$({ diff "$out/code.txt" "$out/code.HEAD.$$" || true; } | sed -n 's/^[<>] [^ ]* //p' | LC_ALL=C sort -u)
	rm -f "$out/code.HEAD.$$"
	[ -z "$differ" ] || die "the run in $out measured code that differs from HEAD's in $(head -n1 <<<"$differ")$([ "$(wc -l <<<"$differ")" = 1 ] || echo " and $(($(wc -l <<<"$differ") - 1)) more files"): make bench again at HEAD"
	# The cover letter's record: not the quick profile, and every kernel (the cover letter has
	# @fig proxy: and noproxy: placeholders).
	if [ "$dest" = "$BAS_TOP/series/bench" ]; then
		[ "${done_boots[0]}" != quick ] ||
			die "the run in $out is of the quick profile: not the cover letter's (bench.sh accept series/bench-NAME keeps it beside)"
		for b in $all_boots; do
			[[ " ${done_boots[*]:1} " == *" $b "* ]] ||
				die "the run in $out has no $b boot: the cover letter's record is every kernel's, two boots each (make bench-record; bench.sh accept series/bench-NAME keeps it beside)"
		done
	fi
	for b in "${done_boots[@]:1}"; do
		bds=("$out/$b"/boot[0-9]*)
		[ -d "${bds[0]}" ] || die "the $b boot in $out has no boot1/ (a record of an older make bench): run make bench again"
		[ "$dest" != "$BAS_TOP/series/bench" ] || [ ${#bds[@]} -ge 2 ] ||
			die "the $b boot in $out ran once (BENCH_REPLICAS=1, make bench's default): the cover letter's record is two boots or more (make bench-record; bench.sh accept series/bench-NAME keeps it beside)"
		for bd in "${bds[@]}"; do
			load=$(sed -n 's/^host_load=//p' "$bd/setup.txt")
			[ -z "$load" ] || die "the $b boot ${bd##*/} in $out had BENCH_HOST_LOAD=${load%% *} busy loops beside QEMU: not the cover letter's run"
		done
	done
	# Built beside it and moved in whole: a failed copy leaves the old record as it was.
	new=$dest.new.$$
	rm -rf "$new"
	mkdir -p "$new"
	trap 'rm -rf "$new"' EXIT
	cp "$out"/{bench.ok,designs.md,headline.txt,code.txt} "$new"/ || die "cannot copy the run of $out"
	[ ! -f "$out/cover-table.txt" ] || cp "$out/cover-table.txt" "$new"/ || die "cannot copy the run of $out"
	for b in "${done_boots[@]:1}"; do
		mkdir -p "$new/$b"
		cp "$out/$b"/{cover-table.txt,report.md,summary.csv,runs.csv} "$new/$b"/ ||
			die "cannot copy the $b boot of $out"
		[ ! -f "$out/$b/pooled.csv" ] || cp "$out/$b/pooled.csv" "$new/$b"/ ||
			die "cannot copy the $b boot of $out"
		for bd in "$out/$b"/boot[0-9]*; do
			r=${bd##*/}
			mkdir -p "$new/$b/$r"
			cp "$bd"/{cover-table.txt,report.md,summary.csv,setup.txt,plan.json,bench.plan} "$new/$b/$r"/ ||
				die "cannot copy the $b boot $r of $out"
			cp "$bd"/*.svg "$new/$b/$r"/ 2>/dev/null || true
			# The guest's console, every figure's source, in xz parts of at most 1.5 MB of log
			# each (console.log.00.xz, ...), so that no file committed is over 2 MiB:
			# `cat console.log.*.xz | xz -dc` is the whole log.
			split -d -a 2 -C 1500000 --filter='xz -9 >"$FILE.xz"' "$bd/console.log" \
				"$new/$b/$r/console.log." || die "cannot compress the $b boot $r's console log"
		done
	done
	rm -rf "$dest"
	mv "$new" "$dest"
	trap - EXIT
	note "copied the run of $(sed -n 's/^date=//p' "$out/${done_boots[1]}/boot1/setup.txt") to $dest$([ "$dest" != "$BAS_TOP/series/bench" ] || echo "; make series puts its cover-table.txt in the cover letter")"
	exit 0
fi
estimate_only=0
if [ "${1:-}" = estimate ]; then
	[ $# = 1 ] || die "estimate takes no argument (got: ${*:2})"
	estimate_only=1
	shift
fi
[ $# = 0 ] || die "unknown argument '$1' (bench.sh takes none, estimate, accept or code)"

# lock_stat runs count lock events, not spreads: the quick profile and items 0, 1 and 7 unless set.
all_items="0 1 2 3 4 5 6 7 8 9 10"
quick=${BENCH_QUICK:-0} items=${BENCH_ITEMS:-$all_items}
boots=${BENCH_BOOTS:-perf}
if [ "${BENCH_LOCKSTAT:-0}" = 1 ]; then
	[ -n "${BENCH_QUICK:-}${BENCH_FULL:-}" ] || quick=1
	items=${BENCH_ITEMS:-0 1 7}
	[ -z "${BENCH_BOOTS:-}" ] || die "BENCH_BOOTS with BENCH_LOCKSTAT=1: make bench-lockstat has one boot, of the lockstat kernel"
	boots=lockstat
fi
case $quick/${BENCH_FULL:-0} in
0/0) profile=default ;;
1/0) profile=quick ;;
0/1) profile=full ;;
1/1) die "BENCH_QUICK=1 and BENCH_FULL=1: pick one" ;;
*) die "BENCH_QUICK and BENCH_FULL take 0 or 1 (got '$quick', '${BENCH_FULL:-0}')" ;;
esac
for i in $items; do
	[[ " $all_items " == *" $i "* ]] || die "BENCH_ITEMS: unknown item '$i' (have: $all_items)"
done
[ -n "${items// /}" ] || die "BENCH_ITEMS is empty (have: $all_items)"
for b in $boots; do
	[ "$b" = lockstat ] || [[ " $all_boots " == *" $b "* ]] || die "BENCH_BOOTS: unknown boot '$b' (have: $all_boots)"
done
[ -n "${boots// /}" ] || die "BENCH_BOOTS is empty (have: $all_boots)"
all_variants=$(cd "$BAS_TOP/bench" && ls variant-*.patch | sed 's/^variant-//; s/\.patch$//' | tr '\n' ' ')
variants=${BENCH_VARIANTS:-}
[ "$variants" != all ] || variants=$all_variants
for v in $variants; do
	[[ " $all_variants" == *" $v "* ]] || die "BENCH_VARIANTS: unknown variant '$v' (have: ${all_variants% })"
done
modes=${BENCH_MODES:-sync oneway pipeline}
for m in $modes; do
	case $m in sync | oneway | pipeline) ;; *) die "BENCH_MODES: unknown mode '$m' (have: sync oneway pipeline)" ;; esac
done
[ -n "${modes// /}" ] || die "BENCH_MODES is empty (have: sync oneway pipeline)"
runs=${BENCH_RUNS:-0}
case $runs in '' | *[!0-9]*) die "BENCH_RUNS='$runs' is not a number" ;; esac
hostload=${BENCH_HOST_LOAD:-0}
case $hostload in '' | *[!0-9]*) die "BENCH_HOST_LOAD='$hostload' is not a number of busy loops" ;; esac
[ "$hostload" = 0 ] || command -v taskset >/dev/null || die "BENCH_HOST_LOAD needs taskset (util-linux)"
settle=${BENCH_SETTLE:-180}
case $settle in '' | *[!0-9]*) die "BENCH_SETTLE='$settle' is not a number of seconds" ;; esac
command -v python3 >/dev/null || die "python3 not found (the report generator needs it)"
build_only=${BENCH_BUILD_ONLY:-0}
case $build_only in 0 | 1) ;; *) die "BENCH_BUILD_ONLY takes 0 or 1 (got '$build_only')" ;; esac
replicas=${BENCH_REPLICAS:-1}
case $replicas in '' | 0 | *[!0-9]*) die "BENCH_REPLICAS='$replicas' is not a number of boots (1 or more)" ;; esac
seed=${BENCH_SEED:-}
case $seed in *[!0-9]*) die "BENCH_SEED='$seed' is not a number" ;; esac
headline=$BAS_TOP/bench/headline.txt
python3 "$BAS_TOP/bench/bench.py" headline "$headline" >/dev/null || exit 1 # its error said why

# boot_conf BOOT: sets flavour, kargs (the kernel command line's extra words), bitems (the
# items of BENCH_ITEMS that the boot runs; empty: it does not run), v1 (1: binder_alloc_v1.ko),
# bvariants (the variants it runs) and design (1: only the designs table's configurations).
# The proxy boot runs the designs table's configurations of items 0, 1, 7, 8, 9 and 10 for every
# module; the noproxy boot those of items 7, 8 and 10, for every module too (the proxy boot
# against it says what proxy execution does to them, on one kernel binary).
boot_conf() {
	local want i
	kargs=() v1=0 bvariants=$variants design=0
	case $1 in
	perf) flavour=perf want=$all_items v1=1 ;;
	proxy) flavour=proxy want="0 1 7 8 9 10" design=1 ;;
	noproxy) flavour=proxy want="7 8 10" kargs=(sched_proxy_exec=0) design=1 ;;
	# The lockstat kernel hung at random under TCG (in 5 of 8 boots with the bench's two
	# serial ports: silent after "sched_clock: Marking stable", or after "TSC found unstable"
	# mid-run), never in 4 boots with tsc=reliable, which turns the clocksource watchdog off.
	# Its timings are not used, so it gets tsc=reliable; the perf kernels boot as they always did.
	lockstat) flavour=lockstat want=$all_items kargs=(tsc=reliable) v1=1 ;;
	esac
	bitems=
	for i in $items; do
		[[ " $want " != *" $i "* ]] || bitems="$bitems $i"
	done
	bitems=${bitems# }
}

# kernel_for FLAVOUR: the binder=m kernel of FLAVOUR, built unless there or BENCH_NO_BUILD=1.
kernel_for() {
	local bdir=$TREE/build-stock-$1-m t
	if [ ! -f "$bdir/bas.ok" ]; then
		[ "${BENCH_NO_BUILD:-0}" != 1 ] ||
			die "no binder=m $1 kernel in $bdir (make bench builds it unless BENCH_NO_BUILD=1)"
		note "building the binder=m $1 kernel (once)"
		for t in stock split; do
			[ -f "$TREE/wt-$t.ok" ] || "$BAS_TOP/scripts/prepare-tree.sh" "$t" >/dev/null ||
				die "cannot prepare the $t tree for the kernel build"
		done
		"$BAS_TOP/scripts/build-kernel.sh" stock "$1" m >/dev/null ||
			die "no binder=m $1 kernel in $bdir, and building one failed"
	fi
	[ -f "$bdir/arch/x86/boot/bzImage" ] || die "$bdir/arch/x86/boot/bzImage: no such file (the build in $bdir is incomplete)"
}

work=$CACHE/bench
mkdir -p "$work"

# module NAME BDIR: the .ko for the kernel in BDIR, rebuilt only when the kernel, the driver
# sources or our diffs change. binder_alloc_v1: build-module.sh run from a copy of the top whose
# patches/ holds 0001 and bench/v1-ceiling.patch, on the stock tree. binder_alloc_VARIANT:
# the split tree with BAS_VARIANT=VARIANT. All but binder_linux are loaded as module
# binder_alloc_split.
module() {
	local name=$1 bdir=$2 src=split top=$BAS_TOP variant= modname=binder_alloc_split key ko
	case $name in
	binder_linux) src=stock modname=binder_linux ;;
	binder_alloc_v1) src=stock ;;
	binder_alloc_split) ;;
	binder_alloc_*) variant=${name#binder_alloc_} ;;
	esac
	key=$({ echo "FIXES=${FIXES:-1}"; cat "$bdir/include/config/kernel.release" "$bdir/Module.symvers" \
		"$TREE/wt-$src"/drivers/android/*.[ch] \
		"$BAS_TOP"/patches/0*.patch "$BAS_TOP"/fixes/*.patch "$BAS_TOP"/fixups/binder-module-exit.patch \
		"$BAS_TOP"/binder_alloc_split/{VERSION,modinfo.c,*.patch} "$BAS_TOP/Kbuild" \
		"$BAS_TOP"/bench/*.patch "$BAS_TOP"/bench/*.c \
		"$BAS_TOP/scripts/build-module.sh"; } |
		sha1sum | cut -c1-12)
	ko=$work/ko/$name-$key.ko
	[ ! -f "$ko" ] || { echo "$ko"; return; }
	mkdir -p "$work/ko"
	if [ "$name" = binder_alloc_v1 ]; then
		top=$work/v1-top
		rm -rf "$top"
		mkdir -p "$top/patches"
		for d in scripts qemu fixups fixes binder_alloc_split Kbuild bench; do ln -s "$BAS_TOP/$d" "$top/$d"; done
		cp "$BAS_TOP"/patches/000[01]-*.patch "$top/patches/"
		cp "$BAS_TOP/bench/v1-ceiling.patch" "$top/patches/0004-bench-v1-ceiling.patch"
	fi
	BAS_BENCH=1 BAS_VARIANT=$variant KDIR=$bdir KSRC=$TREE/wt-$src MODULE=$modname \
		MODDIR=$work/build-$name "$top/scripts/build-module.sh" >/dev/null ||
		die "building $name.ko for $(cat "$bdir/include/config/kernel.release") failed"
	cp "$work/build-$name/$modname.ko" "$ko.tmp"
	mv "$ko.tmp" "$ko"
	echo "$ko"
}

# plan BOOT FILE JSON [SEED]: the boot's plan (bench.py plan), its order shuffled with SEED
# (default 1); prints the line it says.
plan() {
	local opts=()
	[ "$v1" = 1 ] || opts+=(--no-v1)
	[ "$design" = 0 ] || opts+=(--design-only)
	# No earlier plan is ever run: set -e does not hold in boot(), called in an || list.
	rm -f "$2" "$3"
	# shellcheck disable=SC2086 # word lists
	python3 "$BAS_TOP/bench/bench.py" plan --profile "$profile" --items "$bitems" --modes "$modes" \
		--runs "$runs" --variants "$bvariants" "${opts[@]}" --seed "${4:-1}" --plan "$2" --json "$3" ||
		die "bench.py plan failed for the $1 boot"
}

# mods_of PLAN: the modules that PLAN loads, by name.
mods_of() {
	awk '{ m = $2; sub(/:.*/, "", m); print m }' "$1" | sort -u
}

# kos_of PLAN: the modules that PLAN loads, built, as mkinitramfs.sh arguments
# (FILE:/tests/ko/NAME.ko); fails when one cannot be built.
kos_of() {
	local f ko
	for f in $(mods_of "$1"); do
		ko=$(with_lock bench-module module "$f" "$bdir") || return 1
		echo "$ko:/tests/ko/$f.ko"
	done
}

# estimate: prints the estimate of the whole run (bench.py estimate): each boot's plan, the
# builds of what is missing (a kernel, the source and its trees, AOSP's binaries for item 1).
estimate() {
	local b fl=" " eargs=(--replicas "$replicas") d rc=0
	d=$(mktemp -d) || die "mktemp failed"
	for b in $boots; do
		boot_conf "$b"
		[ -n "$bitems" ] || continue
		plan "$b" "$d/$b.plan" "$d/$b.json" >/dev/null
		eargs+=(--plan "$b=$d/$b.json")
		if [ ! -f "$TREE/build-stock-$flavour-m/bas.ok" ] && [[ $fl != *" $flavour "* ]]; then
			eargs+=(--build "$flavour")
			fl="$fl$flavour "
		fi
	done
	[ ${#eargs[@]} -gt 2 ] || { rm -rf "$d"; die "no boot of BENCH_BOOTS ($boots) runs any of BENCH_ITEMS ($items)"; }
	[ -f "$TREE/wt-stock.ok" ] && [ -f "$TREE/wt-split.ok" ] || eargs+=(--fetch)
	[[ " $items " != *" 1 "* ]] || ls "$CACHE"/aosp/build-*/aosp.ok >/dev/null 2>&1 || eargs+=(--aosp)
	python3 "$BAS_TOP/bench/bench.py" estimate "${eargs[@]}" || rc=$?
	rm -rf "$d"
	[ "$rc" = 0 ] || die "bench.py estimate failed"
}
if [ "$estimate_only" = 1 ]; then
	estimate
	exit 0
fi
if [ "$build_only" = 0 ]; then
	line=$(estimate) || exit 1 # its error said why
	note "profile $profile: $line"
fi

# Every boot's kernel first: a missing one (BENCH_NO_BUILD=1) fails before anything is built.
for b in $boots; do
	boot_conf "$b"
	[ -z "$bitems" ] || kernel_for "$flavour"
done
for t in binder_throughput binder_prio_reclaim; do
	make -s -C "$BAS_TOP/selftests/$t" OUTPUT="$work" static >"$work/bt-build.log" 2>&1 ||
		die "building $t failed: $(head -n1 "$work/bt-build.log")"
done
# Item 1 also runs AOSP's binderThroughputTest, with Android's servicemanager (aosp_bins: sets
# aosp; BENCH_BUILD_ONLY=1 builds it after the modules, which fail sooner when they do).
aosp=()
aosp_bins() {
	[[ " $items " == *" 1 "* ]] || return 0
	abin=$("$BAS_TOP/aosp/aosp-build.sh" | tail -n1) || exit 1 # its error said why
	aosp=("$abin/binderThroughputTest:/tests/binderThroughputTest" "$abin/servicemanager:/tests/servicemanager")
}

if [ "$build_only" = 1 ]; then
	n=0 failed=0
	for b in $boots; do
		boot_conf "$b"
		[ -n "$bitems" ] || continue
		bdir=$TREE/build-stock-$flavour-m
		plan "$b" "$work/$b.plan" "$work/$b.json" >/dev/null
		# Each module a result of its own: one that does not build fails the stage.
		for f in $(mods_of "$work/$b.plan"); do
			n=$((n + 1))
			if ko=$(with_lock bench-module module "$f" "$bdir"); then
				echo "ok $n $b: $f.ko: $ko"
			else
				echo "not ok $n $b: $f.ko"
				failed=1
			fi
		done
	done
	echo "ok $((n + 1)) binder_throughput-static: $work/binder_throughput-static"
	echo "ok $((n + 2)) binder_prio_reclaim-static: $work/binder_prio_reclaim-static"
	[ "$failed" = 0 ] || exit 1
	aosp_bins
	[ ${#aosp[@]} = 0 ] || echo "ok $((n + 3)) binderThroughputTest: ${aosp[0]%%:*}"
	exit 0
fi
aosp_bins

# From here on the last run in $out is no longer the one to accept, whatever happens next.
rm -f "$out/bench.ok" "$out/cover-table.txt" "$out/designs.md"
mkdir -p "$out"
# What the run is: the headline endpoints named before it, and the files its code is built from.
cp "$headline" "$out/headline.txt"
code_list >"$out/code.txt" || die "cannot list the files the run's code is built from"
code=$(sha1sum <"$out/code.txt" | cut -c1-12)
code_dirty=no
if ! git -C "$BAS_TOP" rev-parse --git-dir >/dev/null 2>&1; then
	code_dirty=unknown
elif ! git -C "$BAS_TOP" diff --quiet HEAD -- $(cut -d' ' -f2- "$out/code.txt") 2>/dev/null ||
	[ -n "$(git -C "$BAS_TOP" ls-files -o --exclude-standard | grep -E "$code_re" | grep -Ev "$nocode_re")" ]; then
	code_dirty=yes
fi

# BENCH_HOST_LOAD: the busy loops start before QEMU and stop when it has ended.
trap host_load_stop EXIT
# What the host ran beside QEMU: the host's busy CPU time (/proc/stat) over the guest run
# less the CPU time of this script's children (QEMU, and the progress loop's helpers).
busy_ticks() { awk '$1 == "cpu" { print $2 + $3 + $4 + $7 + $8 + $9; exit }' /proc/stat; }
# times must run in this shell, not in $(...) or a pipe: a subshell has no children yet.
child_ticks() {
	awk -v hz="$(getconf CLK_TCK)" 'NR == 2 { n = 0
		for (i = 1; i <= 2; i++) { split($i, t, /[ms]/); n += t[1] * 60 + t[2] } print int(n * hz) }' "$1"
}

# boot BOOT N SEED: one guest run of BOOT's plan in the order of SEED, and its report in
# $out/BOOT/bootN. Returns non-zero if the guest run failed or a run gave no result.
boot() {
	local b=$1 r=$2 s=$3 bo kernel initrd accel total est limit waited start qpid log shown first
	local done_n now eta last rc wall busy0 busy1 child0 child1 rrc i kos kos_txt k
	bo=$out/$b/boot$r
	kernel=$bdir/arch/x86/boot/bzImage
	rm -rf "$bo"
	mkdir -p "$bo"
	plan "$b" "$work/bench.plan" "$bo/plan.json" "$s" >"$work/plan.txt"
	cp "$work/bench.plan" "$bo/bench.plan"
	total=$(grep -c . "$work/bench.plan")
	# est: the plan's estimate of guest time; limit: the sum of its runs' time limits
	read -r est limit < <(python3 -c 'import json, sys
p = json.load(open(sys.argv[1]))
print(int(p["est_s"]), int(sum(r["limit_s"] for r in p["runs"])))' "$bo/plan.json")
	kos_txt=$(kos_of "$work/bench.plan") || die "the modules of the $b boot did not all build"
	mapfile -t kos <<<"$kos_txt"
	initrd=$("$BAS_TOP/qemu/mkinitramfs.sh" "$work/bench.cpio" "$BAS_TOP/bench/bench-run:/tests/run" \
		"$BAS_TOP/qemu/guest-lib.sh:/tests/lib.sh" \
		"$work/binder_throughput-static:/tests/binder_throughput" \
		"$work/binder_prio_reclaim-static:/tests/binder_prio_reclaim" "$work/bench.plan:/tests/bench.plan" \
		"${aosp[@]}" "${kos[@]}")
	accel=$(ACCEL=${ACCEL:-} "$BAS_TOP/qemu/accel.sh" "$kernel")
	# An idle host: the 1-minute load average trails what ran before (a build, the host tests,
	# the last boot) by minutes. Wait up to BENCH_SETTLE seconds for it to leave the guest's
	# vCPUs their CPUs; the report warns if it did not.
	waited=0
	while [ "$waited" -lt "$settle" ] && awk -v c="$(nproc)" -v s="${SMP:-2}" \
		'{ exit !(int($1 + 0.5) + s > c) }' /proc/loadavg; do
		[ "$waited" != 0 ] || note "waiting up to ${settle} s for the host's load average ($(cut -d' ' -f1 /proc/loadavg)) to settle"
		sleep 10
		waited=$((waited + 10))
	done
	{
		echo "boot=$b"
		echo "replica=$r"
		echo "order_seed=$s"
		echo "date=$(date -u '+%Y-%m-%d %H:%M UTC')"
		echo "host_cpus=$(nproc)"
		echo "cpu=$(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n1)"
		echo "load_start=$(cut -d' ' -f1-3 /proc/loadavg)"
		[ "$waited" = 0 ] || echo "settle=${waited} s of waiting for the load average to settle (BENCH_SETTLE=$settle)"
		echo "qemu=$("${QEMU:-qemu-system-x86_64}" --version | head -n1)"
		echo "accel=$accel"
		echo "smp=${SMP:-2}"
		echo "mem=${MEM:-1G}"
		echo "kernel=Linux $(cat "$bdir/include/config/kernel.release")"
		echo "kargs=${kargs[*]}"
		echo "config=$flavour flavour, binder=m (qemu/config/base.config + $([ "$flavour" != proxy ] || echo "perf.config + ")$flavour.config + binder-m.config on allnoconfig$([ "$flavour" != proxy ] || echo ", then x86_64-proxy.config"))"
		echo "flavour=$flavour"
		echo "items=$bitems"
		echo "stock=binder_linux.ko: the 7.3.4 driver out of tree with fixes/, fixups/binder-module-exit.patch and make bench's bench/alloc-bench-hook.patch and bench/shrinker-skips-alloc-mutex.patch only"
		local series=("$BAS_TOP"/patches/0*.patch) last
		last=${series[-1]##*/}
		echo "split=binder_alloc_split.ko: patches/0001-${last%%-*} and our diffs"
		! grep -q ' binder_alloc_v1:' "$work/bench.plan" ||
			echo "v1=binder_alloc_v1.ko: patches/0001 and bench/v1-ceiling.patch (bench only, racy: no-pressure runs only)"
		for k in $variants; do
			! grep -q " binder_alloc_$k:" "$work/bench.plan" ||
				echo "$k=binder_alloc_$k.ko: patches/0001-${last%%-*} and bench/variant-$k.patch (bench only: $(python3 "$BAS_TOP/bench/bench.py" variant "$k"))"
		done
		echo "commit=$(git -C "$BAS_TOP" describe --always --dirty 2>/dev/null || echo '?')"
		echo "code=$code (the hash of code.txt: the files the modules, the guest's binaries and plan are built from)"
		echo "code_dirty=$code_dirty"
		[ "$hostload" = 0 ] || echo "host_load=$hostload busy loops beside QEMU (BENCH_HOST_LOAD), pinned to the host CPUs in turn"
	} >"$bo/setup.txt"

	note "$b boot $r of $replicas ($flavour kernel${kargs[*]:+, ${kargs[*]}}, order seed $s), profile $profile: $total runs (items: $bitems), about $((est / 60)) min of guest time estimated; log: $bo/console.log"
	start=$(date +%s)
	rm -rf "$work/guest"
	host_load_start "$hostload"
	busy0=$(busy_ticks)
	times >"$work/times0.txt"
	local qargs=()
	[ ${#kargs[@]} = 0 ] || qargs=(-- "${kargs[@]}")
	TIMEOUT=${TIMEOUT:-$((3 * limit + 300))} "$BAS_TOP/qemu/qemu-run.sh" --kernel "$kernel" \
		--initrd "$initrd" --out "$work/guest" "${qargs[@]}" >"$work/qemu-run.txt" 2>&1 &
	qpid=$!
	log=$work/guest/console.log
	# Progress: runs done, and an ETA from the plan's estimates scaled by the time taken so far.
	shown=-1
	first=
	while kill -0 "$qpid" 2>/dev/null; do
		sleep 5
		[ -f "$log" ] || continue
		done_n=$(tr -d '\r' <"$log" | grep -c '^bench: end ' || true)
		[ -n "$first" ] || ! grep -q '^bench: start' "$log" || first=$(date +%s)
		if [ "$done_n" = "$shown" ] || [ "$done_n" = 0 ]; then continue; fi
		shown=$done_n
		now=$(date +%s)
		eta=$(python3 -c '
import json, sys
runs = json.load(open(sys.argv[1]))["runs"]
n, spent = int(sys.argv[2]), float(sys.argv[3])
done = sum(r["est_s"] for r in runs[:n]); left = sum(r["est_s"] for r in runs[n:])
print(int(spent * left / done) if done else 0)' "$bo/plan.json" "$done_n" "$((now - ${first:-start}))")
		last=$(tr -d '\r' <"$log" | grep '^bench: end ' | tail -n1 | cut -d' ' -f3-)
		printf '[bench] %s: %d/%d runs, %dm%02ds, ETA %dm%02ds: %s\n' "$b" "$done_n" "$total" \
			$(((now - start) / 60)) $(((now - start) % 60)) $((eta / 60)) $((eta % 60)) "$last" >&2
	done
	rc=0
	wait "$qpid" || rc=$?
	busy1=$(busy_ticks)
	times >"$work/times1.txt"
	child0=$(child_ticks "$work/times0.txt")
	child1=$(child_ticks "$work/times1.txt")
	host_load_stop
	tail -n1 "$work/qemu-run.txt" >&2
	cp "$log" "$bo/console.log" 2>/dev/null || true
	wall=$(($(date +%s) - start))
	{
		echo "load_end=$(cut -d' ' -f1-3 /proc/loadavg)"
		awk -v b="$((busy1 - busy0))" -v c="$((child1 - child0))" -v hz="$(getconf CLK_TCK)" -v w="$wall" \
			'BEGIN { o = (b - c) / hz / (w > 0 ? w : 1); printf "host_other_cpus=%.2f\n", o < 0 ? 0 : o }' </dev/null
		echo "wall=${wall} s (boot to the end of the report's input)"
		echo "guest=$(tail -n1 "$work/qemu-run.txt" | sed "s|; log: .*||")"
	} >>"$bo/setup.txt"
	rrc=0
	python3 "$BAS_TOP/bench/bench.py" report --plan "$bo/plan.json" --log "$bo/console.log" \
		--setup "$bo/setup.txt" --out "$bo" || rrc=$?
	note "$b boot $r: report $bo/report.md (${wall} s)"
	[ "$rc" = 0 ] || { echo "bench.sh: error: the $b boot's guest run failed: $(tail -n1 "$work/qemu-run.txt"); which runs and why: $bo/report.md" >&2; return 1; }
	[ "$rrc" = 0 ] || { echo "bench.sh: error: some runs of the $b boot gave no result (see $bo/report.md)" >&2; return 1; }
}

# Every boot of BENCH_BOOTS once, then again (BENCH_REPLICAS): the boots of a kernel apart in
# time, each run order shuffled with its own seed.
ok=1
ran=()
k=0
for b in $boots; do
	boot_conf "$b"
	if [ -z "$bitems" ]; then
		note "$b boot: none of BENCH_ITEMS ($items) runs there, skipped"
		continue
	fi
	ran+=("$b")
	rm -rf "${out:?}/$b"
done
[ ${#ran[@]} -gt 0 ] || die "no boot of BENCH_BOOTS ($boots) runs any of BENCH_ITEMS ($items)"
for ((r = 1; r <= replicas; r++)); do
	for b in "${ran[@]}"; do
		boot_conf "$b"
		bdir=$TREE/build-stock-$flavour-m
		kernel_for "$flavour"
		if [ -n "$seed" ]; then s=$((seed + k)); else s=$(od -An -N4 -tu4 /dev/urandom | tr -d ' '); fi
		k=$((k + 1))
		boot "$b" "$r" "$s" || ok=0
	done
done
dargs=()
for b in "${ran[@]}"; do
	[ -f "$out/$b/boot1/runs.csv" ] || continue
	python3 "$BAS_TOP/bench/bench.py" combine "$out/$b" --headline "$out/headline.txt" >/dev/null ||
		die "bench.py combine failed for the $b boots"
	note "$b: $replicas boot(s) together in $out/$b/report.md"
	dargs+=(--boot "$b=$out/$b/boot1")
done
[ ! -f "$out/${ran[0]}/cover-table.txt" ] || cp "$out/${ran[0]}/cover-table.txt" "$out/cover-table.txt"
[ ${#dargs[@]} = 0 ] || python3 "$BAS_TOP/bench/bench.py" designs "${dargs[@]}" --out "$out/designs.md" ||
	die "bench.py designs failed"
note "designs table: $out/designs.md"
[ "$ok" = 1 ] || die "a boot failed (see above); $out/bench.ok not written"
echo "$profile ${ran[*]}" >"$out/bench.ok"
