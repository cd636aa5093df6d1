#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# build-module.sh: build binder_alloc_split.ko, the binder driver with the series, out of tree
# (make module). The driver sources (drivers/android/*.[ch]) are copied from KSRC into MODDIR;
# the upstream fixes (fixes/*.patch) that KSRC has not, then the series (patches/), which applies
# on top of them, unless KSRC already has it; our own diffs
# (fixups/binder-module-exit.patch, binder_alloc_split/*.patch), the Kbuild file and the modinfo
# glue; then kbuild builds the module against KDIR.
# Knobs:
#   KDIR     kernel build dir (default: /lib/modules/$KERNELRELEASE/build when KERNELRELEASE is
#            set; else, from make module (BAS_KDIR_AUTO=1), /lib/modules/$(uname -r)/build when
#            the running kernel is a 7.3 one with it; else the test bed's $TREE/build-stock-perf-m)
#   KSRC     a Linux 7.3 tree, or a linux-source tarball (default: the distro's
#            /usr/src/linux-source-X.Y.tar.* when KERNELRELEASE is set, else $TREE/wt-split)
#   MODDIR   module build dir (default: $CACHE/module/<id of KDIR and KSRC>)
#   W        kbuild's W= (default 1); ALLOW_WARNINGS=1: compiler warnings do not fail the build
#   MODULE   binder_alloc_split (default), or binder_linux: the stock driver (KSRC without the
#            series, default $TREE/wt-stock) with only the module_exit fixup, for the test bed
#   FIXES    1 (default): apply fixes/*.patch, the fixes for bugs of unmodified Linux 7.3.4
#            binder (both modules carry them, so that they compare fairly); tests: only their
#            KUnit cases (drivers/android/tests), to show the bugs on the unfixed driver; 0: none
#   BAS_KUNIT=1  link drivers/android/tests/binder_alloc_kunit.c into the module: the
#            binder_alloc KUnit suite runs when it is loaded (KDIR needs CONFIG_KUNIT=y)
#   BAS_KCOV=1   KCOV's PC tracing in the module's objects (make fuzz; KDIR needs CONFIG_KCOV=y)
#   BAS_GCOV=1   gcov's counters in the module's objects (make coverage; KDIR needs
#            CONFIG_GCOV_KERNEL=y): the .gcno files stay in MODDIR beside the sources
#   BAS_BENCH=1  make bench's modules: also bench/binder_alloc_bench.c,
#            bench/alloc-bench-hook.patch (<debugfs>/binder/alloc_bench, items 0, 8, 9) and
#            the one of bench/shrinker-skips-*.patch that applies (the shrinker's skips)
#   BAS_VARIANT=NAME  with BAS_BENCH=1: bench/variant-NAME.patch last, one of make bench's
#            design alternatives (bench only): trylock, ... (ls bench/variant-*.patch)
#   BAS_TEST_DIFF=FILE  a diff of drivers/android/, applied last: a test build that a check
#            must fail (module-check's planted leak, binder_alloc_split/planted-leak.diff)
# Prints the .ko path last on stdout.
BAS_ARCH_OK=1 # ARCH=arm64: for the test bed's arm64 kernel, cross-built (below)
. "$(dirname "$0")/lib.sh"

kver=${KERNELRELEASE:-}
name=${MODULE:-binder_alloc_split}
bench=${BAS_BENCH:-0}
case $bench in 0 | 1) ;; *) die "BAS_BENCH='$bench': expected 0 or 1" ;; esac
fixes=${FIXES:-1}
case $fixes in 0 | 1 | tests) ;; *) die "FIXES='$fixes': expected 0, 1 or tests" ;; esac
variant=${BAS_VARIANT:-}
variants=$(cd "$BAS_TOP/bench" && ls variant-*.patch | sed 's/^variant-//; s/\.patch$//' | tr '\n' ' ')
[ -z "$variant" ] || [[ " $variants" == *" $variant "* ]] ||
	die "BAS_VARIANT='$variant': expected one of: ${variants% } (bench/variant-NAME.patch), or nothing"
[ -z "$variant" ] || [ "$bench" = 1 ] || die "BAS_VARIANT=$variant is a make bench module: it needs BAS_BENCH=1"
test_diff=${BAS_TEST_DIFF:-}
[ -z "$test_diff" ] || [ -f "$test_diff" ] || die "BAS_TEST_DIFF=$test_diff: no such file"
[ -z "$test_diff" ] || test_diff=$(realpath "$test_diff")
kunit=${BAS_KUNIT:-0}
case $kunit in 0 | 1) ;; *) die "BAS_KUNIT='$kunit': expected 0 or 1" ;; esac
[ "$fixes" != tests ] || [ "$kunit" = 1 ] || die "FIXES=tests adds KUnit cases only: it needs BAS_KUNIT=1"
kcov=${BAS_KCOV:-0}
case $kcov in 0 | 1) ;; *) die "BAS_KCOV='$kcov': expected 0 or 1" ;; esac
gcov=${BAS_GCOV:-0}
case $gcov in 0 | 1) ;; *) die "BAS_GCOV='$gcov': expected 0 or 1" ;; esac
case $name in
binder_alloc_split) stock_tree=split ;;
binder_linux) stock_tree=stock ;;
*) die "unknown MODULE '$name' (expected binder_alloc_split or binder_linux)" ;;
esac
# kbuild sets KERNELRELEASE itself: neither it nor our make's flags may reach it.
unset KERNELRELEASE MAKEFLAGS MAKELEVEL MFLAGS

# distro_source X.Y: the linux-source tarball of Debian (/usr/src/linux-source-X.Y.tar.xz)
# or Ubuntu (/usr/src/linux-source-X.Y.Z/linux-source-X.Y.Z.tar.bz2).
distro_source() {
	local f
	for f in /usr/src/linux-source-"$1".tar.* /usr/src/linux-source-"$1"*/linux-source-*.tar.*; do
		[ -f "$f" ] && echo "$f" && return
	done
	die "no linux-source tarball for Linux $1 in /usr/src (apt-get install linux-source-$1), or set KSRC="
}

# make module (BAS_KDIR_AUTO=1) with neither KDIR nor KERNELRELEASE: the running kernel, as
# for any out-of-tree module, when it is a 7.3 kernel with its build dir; else the test bed's.
if [ -z "$kver" ] && [ -z "${KDIR:-}" ] && [ "${BAS_KDIR_AUTO:-0}" = 1 ]; then
	run=$(uname -r)
	case $run in
	7.3 | 7.3[.+-]*) [ ! -f "/lib/modules/$run/build/Makefile" ] || kver=$run ;;
	esac
	if [ -n "$kver" ]; then
		note "module: for the running kernel $run (/lib/modules/$run/build; KDIR= picks another)"
	else
		note "module: for the test bed's binder=m perf kernel: the running kernel $run has no Linux 7.3 build dir in /lib/modules/$run/build (KDIR= picks another)"
	fi
fi
# KDIR first: a bad KDIR fails before anything is fetched or prepared.
if [ -n "$kver" ]; then
	kdir=${KDIR:-/lib/modules/$kver/build}
else
	# The test bed's default kernel: built (or checked against its stamp) here.
	if [ -z "${KDIR:-}" ] && [ ! -f "$TREE/build-stock-perf-m$BAS_SFX/bas.ok" ]; then
		"$BAS_TOP/scripts/build-kernel.sh" stock perf m >/dev/null
	fi
	kdir=${KDIR:-$TREE/build-stock-perf-m$BAS_SFX}
fi
[ -f "$kdir/Makefile" ] && [ -f "$kdir/Module.symvers" ] ||
	die "KDIR=$kdir is not a kernel build dir (no Makefile or Module.symvers)"
config=$kdir/include/config/auto.conf
[ -f "$config" ] || die "KDIR=$kdir is not configured (no include/config/auto.conf)"
grep -q '^CONFIG_ANDROID_BINDER_IPC=[ym]' "$config" ||
	die "the kernel in KDIR=$kdir has no binder (CONFIG_ANDROID_BINDER_IPC is off)"
# The series' reclaim_mutex is an rt_mutex: in tree, binder's Kconfig selects RT_MUTEXES.
[ "$name" = binder_linux ] || grep -q '^CONFIG_RT_MUTEXES=y' "$config" ||
	die "the kernel in KDIR=$kdir has no rt_mutex (CONFIG_RT_MUTEXES is off), which the series' reclaim_mutex is"
[ "$kunit" = 0 ] || grep -q '^CONFIG_KUNIT=y' "$config" ||
	die "BAS_KUNIT=1: the kernel in KDIR=$kdir has no KUnit (CONFIG_KUNIT=y)"
[ "$kcov" = 0 ] || grep -q '^CONFIG_KCOV=y' "$config" ||
	die "BAS_KCOV=1: the kernel in KDIR=$kdir has no KCOV (CONFIG_KCOV=y: the debug flavour)"
[ "$gcov" = 0 ] || grep -q '^CONFIG_GCOV_KERNEL=y' "$config" ||
	die "BAS_GCOV=1: the kernel in KDIR=$kdir has no gcov (CONFIG_GCOV_KERNEL=y: the debug flavour)"
case $BAS_ARCH in x86_64) want=CONFIG_X86_64=y ;; arm64) want=CONFIG_ARM64=y ;; esac
grep -qx "$want" "$config" || die "KDIR=$kdir is not an $BAS_ARCH kernel (no $want; ARCH=$BAS_ARCH)"
if [ -n "$kver" ]; then
	ksrc=${KSRC:-$(distro_source "$(echo "$kver" | cut -d. -f1,2 | sed 's/[^0-9.].*//')")}
else
	# The test bed's default source tree: prepared (or checked against its stamp) here.
	[ -n "${KSRC:-}" ] || "$BAS_TOP/scripts/prepare-tree.sh" "$stock_tree" >/dev/null
	ksrc=${KSRC:-$TREE/wt-$stock_tree}
fi
[ -e "$ksrc" ] || die "KSRC=$ksrc does not exist"
kdir=$(realpath "$kdir")
ksrc=$(realpath "$ksrc")
moddir=${MODDIR:-$CACHE/module/$name-$(echo "$kdir $ksrc $fixes $kunit $bench $variant$([ "$kcov$gcov" = 00 ] || echo " $kcov$gcov")${test_diff:+ $test_diff}" | sha1sum | cut -c1-12)}
mkdir -p "$moddir"
moddir=$(realpath "$moddir")
log=$moddir/build.log

# Fresh copy of the driver, from a tree or a tarball, in a dir that is ours (marked) or empty.
[ -f "$moddir/.bas-module" ] || [ -z "$(ls -A "$moddir")" ] ||
	die "MODDIR=$moddir is not empty and is not a $name build dir"
find "$moddir" -mindepth 1 -delete
: >"$moddir/.bas-module"
if [ -d "$ksrc" ]; then
	[ -f "$ksrc/drivers/android/binder.c" ] || die "KSRC=$ksrc has no drivers/android/binder.c"
	cp "$ksrc"/drivers/android/*.[ch] "$moddir/"
	if [ "$kunit" = 1 ]; then
		mkdir "$moddir/tests"
		cp "$ksrc"/drivers/android/tests/*.c "$moddir/tests/" 2>/dev/null
	fi
else
	tar -xf "$ksrc" -C "$moddir" --wildcards --no-wildcards-match-slash --strip-components=3 \
		'*/drivers/android/*.[ch]' 2>/dev/null || die "KSRC=$ksrc: no drivers/android in this tarball"
	[ "$kunit" = 0 ] || tar -xf "$ksrc" -C "$moddir" --wildcards --strip-components=3 \
		'*/drivers/android/tests/*.c' 2>/dev/null
fi
[ "$kunit" = 0 ] || [ -f "$moddir/tests/binder_alloc_kunit.c" ] ||
	die "BAS_KUNIT=1: KSRC=$ksrc has no drivers/android/tests/binder_alloc_kunit.c"
cd "$moddir"

# Our diffs and the series touch drivers/android/ (-p3 leaves the file name). No git repo
# above MODDIR may take part: git apply would take paths relative to it. The KUnit suite
# (tests/) is left out unless BAS_KUNIT=1.
# Kconfig is not built here: KDIR's configuration is checked above instead.
excl=(--exclude='binder/*' --exclude='tests/.kunitconfig' --exclude='Kconfig') # kunit.py's: not copied
[ "$kunit" = 1 ] || excl+=(--exclude='tests/*')
gapply() {
	GIT_CEILING_DIRECTORIES=$(dirname "$moddir") git apply -p3 "${excl[@]}" "$@"
}
series=()
for p in "$BAS_TOP"/patches/0*.patch; do
	case $p in */0000-*) ;; *) series+=("$p") ;; esac
done
[ ${#series[@]} -gt 0 ] || die "no patches in $BAS_TOP/patches"
# series_in: the series reverts cleanly, last patch first, from a scratch copy.
series_in() {
	local i
	rm -rf .rev && mkdir .rev && cp ./*.[ch] .rev/
	[ ! -d tests ] || cp -r tests .rev/ # BAS_KUNIT=1: the series changes the KUnit suite too
	for ((i = ${#series[@]} - 1; i >= 0; i--)); do
		(cd .rev && gapply -R "${series[i]}") 2>/dev/null || return 1
	done
	rm -rf .rev
}
ours=("$BAS_TOP/fixups/binder-module-exit.patch")
if [ "$name" = binder_linux ]; then
	! series_in || die "KSRC=$ksrc has the series: MODULE=binder_linux builds the stock driver"
	rm -rf .rev
	series=()
	how="not applied (stock driver)"
elif series_in; then
	how="in KSRC"
else
	rm -rf .rev
	how="applied here, on the fixes"
fi
[ "$name" = binder_linux ] || ours+=("$BAS_TOP"/binder_alloc_split/*.patch)
[ "$bench" = 0 ] || ours+=("$BAS_TOP/bench/alloc-bench-hook.patch")

# The upstream fixes, but for those KSRC has already; the series applies on top of them, so a
# KSRC with the series has them all (a fix may no longer revert cleanly on top of the series).
fixed=()
if [ "$fixes" != 0 ] && [ "$how" != "in KSRC" ]; then
	for p in "$BAS_TOP"/fixes/*.patch; do
		[ -e "$p" ] || continue
		only=()
		if [ "$fixes" = tests ]; then
			grep -q '^diff --git a/drivers/android/tests/' "$p" || continue
			only=(--include='tests/*')
		fi
		gapply "${only[@]}" --check -R "$p" 2>/dev/null && continue
		gapply "${only[@]}" "$p" 2>>"$log" || die "${p#"$BAS_TOP"/} does not apply to the binder driver of KSRC=$ksrc"
		fixed+=("$p")
	done
fi
if [ "$how" != "in KSRC" ]; then
	for p in "${series[@]}"; do
		gapply "$p" 2>>"$log" ||
			die "${p##*/} does not apply to the binder driver of KSRC=$ksrc with FIXES=$fixes (the series is for Linux 7.3.4 with fixes/ applied)"
	done
fi
# Ours, unless KSRC has them already (a test-bed tree with the fixups applied).
for p in "${ours[@]}"; do
	gapply --check -R "$p" 2>/dev/null && continue
	gapply "$p" 2>>"$log" || die "${p#"$BAS_TOP"/} does not apply to the binder driver of KSRC=$ksrc"
done
# make bench: the shrinker's skip counts, for the shrinker this driver has (alloc->mutex or
# install_mutex), then the variant, written on top of them.
if [ "$bench" = 1 ]; then
	skips=
	for p in "$BAS_TOP"/bench/shrinker-skips-*.patch; do
		gapply --check "$p" 2>/dev/null && skips=$p && break
	done
	[ -n "$skips" ] || die "none of bench/shrinker-skips-*.patch applies to the binder driver of KSRC=$ksrc"
	bench_patches=("$skips")
	[ -z "$variant" ] || bench_patches+=("$BAS_TOP/bench/variant-$variant.patch")
	for p in "${bench_patches[@]}"; do
		gapply "$p" 2>>"$log" || die "${p#"$BAS_TOP"/} does not apply to the binder driver of KSRC=$ksrc"
		ours+=("$p")
	done
fi
if [ -n "$test_diff" ]; then
	gapply "$test_diff" 2>>"$log" || die "BAS_TEST_DIFF=$test_diff does not apply to the binder driver of KSRC=$ksrc"
	ours+=("$test_diff")
fi

# modinfo: version, base, one line per patch: "NNNN patch-id subject", then our own diffs.
{
	echo "#define BAS_VERSION \"$(cat "$BAS_TOP/binder_alloc_split/VERSION")\""
	echo "#define BAS_BASE \"Linux $KVER\""
	for p in "${series[@]}"; do
		f=${p##*/}
		subj=$(awk '/^Subject: /{s=substr($0, 10); while ((getline l) > 0 && l ~ /^[ \t]/) s=s l; print s; exit}' "$p" |
			sed -e 's/^\[[^]]*\] *//' -e 's/[\\"]/\\&/g')
		id=$(git patch-id --stable <"$p" | cut -c1-12)
		echo "BAS_PATCH(\"${f%%-*} $id $subj\");"
	done
	for p in "${fixed[@]}"; do
		echo "BAS_PATCH(\"fix$([ "$fixes" = 1 ] || echo " (tests only)") $(git patch-id --stable <"$p" | cut -c1-12) ${p#"$BAS_TOP"/}\");"
	done
	for p in "${ours[@]}"; do
		echo "BAS_PATCH(\"ours $(git patch-id --stable <"$p" | cut -c1-12) ${p#"$BAS_TOP"/}\");"
	done
} >bas_series.h
cp "$BAS_TOP/binder_alloc_split/modinfo.c" "$BAS_TOP/Kbuild" .
bench_y=
if [ "$bench" = 1 ]; then
	cp "$BAS_TOP/bench/binder_alloc_bench.c" .
	bench_y=y
fi
kunit_y= kcov_y= gcov_y=
[ "$kunit" = 0 ] || kunit_y=y
[ "$kcov" = 0 ] || kcov_y=y
[ "$gcov" = 0 ] || gcov_y=y
fixes_how="${#fixed[@]} fixes"
[ "$fixes" != tests ] || fixes_how="the KUnit cases of ${#fixed[@]} fixes"
note "building $name.ko in $moddir (KDIR=$kdir, KSRC=$ksrc, series $how, $fixes_how; log: $log)"

# ARCH=arm64: kbuild needs the cross compiler too (KDIR must be an arm64 build).
cross=()
[ "$BAS_ARCH" = x86_64 ] || cross=(ARCH="$BAS_ARCH" CROSS_COMPILE="$BAS_CROSS")
rc=0
make -C "$kdir" "${cross[@]}" M="$moddir" BAS_MODULE="$name" BAS_BENCH="$bench_y" BAS_KUNIT="$kunit_y" BAS_KCOV="$kcov_y" BAS_GCOV="$gcov_y" W="${W-1}" modules >>"$log" 2>&1 || rc=$?
# modpost: "ERROR: modpost: M.ko: symbol 'S' undefined!" (older: "ERROR: modpost: "S" [M.ko] undefined!").
missing=$(sed -n -e "s/^ERROR: modpost: .*: symbol '\([^']*\)' undefined!\$/\1/p" \
	-e 's/^ERROR: modpost: "\([^"]*\)" .* undefined!$/\1/p' "$log" | sort -u | tr '\n' ' ')
[ -z "$missing" ] || die "the kernel in KDIR=$kdir does not export symbols that binder needs: ${missing% } (Debian's kernels export them)"
[ "$rc" = 0 ] || die "module build failed: $(grep -m1 -E 'error|Error' "$log" || tail -n1 "$log") (see $log)"
warnings=$(grep -c 'warning:' "$log" || true)
if [ "$warnings" != 0 ] && [ "${ALLOW_WARNINGS:-0}" != 1 ]; then
	die "$warnings compiler warnings: $(grep -m1 'warning:' "$log") (see $log; ALLOW_WARNINGS=1 lets them pass)"
fi
[ -f "$name.ko" ] || die "$name.ko missing after the build (see $log)"
echo "$moddir/$name.ko"
