#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kunit.sh FLAVOUR [TREE]: run the binder_alloc KUnit suite with the kernel's own
# tools/testing/kunit/kunit.py on x86_64 QEMU, or with ARCH=arm64 on QEMU's arm64 virt
# machine (kunit.py --arch=arm64, cross-built with aarch64-linux-gnu-gcc; TCG).
#   FLAVOUR: plain | debug (PROVE_LOCKING, KASAN, DEBUG_ATOMIC_SLEEP, DEBUG_LIST)
#   TREE:    split (default: the series applied) | stock | variant-NAME (the series, make
#            bench's hooks and bench/variant-NAME.patch: one of the bench's designs, with the
#            KUnit cases as that patch leaves them) | DIR (a Linux tree used as
#            it is, e.g. a scratch copy with a change of yours; build dir in the cache)
# kunit.py's results are printed as they come; its JSON and the raw kernel log
# go to $OUT (default out/). Fails when kunit.py fails or the kernel log has a splat.
# KUNIT_SLOW=1 runs every case; KUNIT_SLOW=0 leaves out upstream's slow-marked
# binder_alloc_exhaustive_test (750,000 single-threaded runs: 7-9 minutes under TCG on the
# plain build, far more under KASAN) by running binder_alloc.binder_alloc_test_*, which is
# every other case, the slow-marked race case included. Default: 1 for plain, 0 for debug;
# make check passes KUNIT_SLOW=0 to both.
# KUNIT_GLOB (default from KUNIT_SLOW) selects cases, e.g.
# KUNIT_GLOB='binder_alloc.binder_alloc_test_rollback*'.
# KUNIT_BUILD_ONLY=1 builds the kernel (kunit.py build), prints its build directory and
# runs nothing; KUNIT_CONFIG_ONLY=1 only configures it (kunit.py config: seconds).
BAS_ARCH_OK=1 # ARCH=arm64 is handled below (BAS_ARCH)
. "$(dirname "$0")/../scripts/lib.sh"

flavour=${1:?usage: kunit.sh plain|debug [split|stock|variant-NAME|DIR]}
tree=${2:-split}
case $flavour in plain | debug) ;; *) die "unknown KUnit flavour '$flavour' (expected plain or debug)" ;; esac
slow=${KUNIT_SLOW:-}
[ -n "$slow" ] || { [ "$flavour" = plain ] && slow=1 || slow=0; }
case $slow in 0 | 1) ;; *) die "KUNIT_SLOW='$slow': expected 0 or 1" ;; esac
case $tree in
split | stock | variant-?*) ;;
*)
	[ -d "$tree" ] || die "unknown tree '$tree' (expected split, stock, variant-NAME or a directory)"
	[ -f "$tree/drivers/android/binder_alloc.c" ] && [ -x "$tree/tools/testing/kunit/kunit.py" ] ||
		die "$tree: not a Linux tree with binder and kunit.py"
	# Debian's linux-source links tests/ into the composite binder_linux object: with binder
	# and its KUnit test built in, that fails at the end of the build ("ar: ... file format
	# not recognized"). Say so now; the tree is not ours to change.
	! grep -q '^binder_linux-$(CONFIG_ANDROID_BINDER_ALLOC_KUNIT_TEST)[[:space:]]*+=[[:space:]]*tests/' \
		"$tree/drivers/android/Makefile" 2>/dev/null ||
		die "$tree: drivers/android/Makefile links tests/ into binder_linux (Debian's linux-source), which cannot build the KUnit test built in; apply $BAS_TOP/fixups/debian-kunit-tests-dir.diff to it first (git apply)"
	;;
esac

# BAS_ARCH (lib.sh, from ARCH): build dirs and results of arm64 carry an -arm64 suffix.
arch=$BAS_ARCH
case $arch in
x86_64) sfx= cc=gcc cross=() ;;
arm64) sfx=-arm64 cc=aarch64-linux-gnu-gcc cross=(--cross_compile=aarch64-linux-gnu-) ;;
esac
# kunit/<arch>.kunitconfig: what only that architecture has (x86_64: options arm64 has not, or
# cannot turn off), merged after the flavour's file.
arch_kunitconfig=()
[ ! -f "$BAS_TOP/kunit/$arch.kunitconfig" ] || arch_kunitconfig=(--kunitconfig="$BAS_TOP/kunit/$arch.kunitconfig")
[ "$arch" = x86_64 ] || command -v "$cc" >/dev/null ||
	die "$cc not found: ARCH=$arch needs the cross compiler (make deps ARCH=$arch)"

OUT=${OUT:-$BAS_TOP/out}
SMP=${SMP:-2}
JOBS=${JOBS:-$(nproc)}
KUNIT_TIMEOUT=${KUNIT_TIMEOUT:-1800}
if [ -z "${KUNIT_GLOB:-}" ]; then
	KUNIT_GLOB='binder_alloc*'
	[ "$slow" = 1 ] || KUNIT_GLOB='binder_alloc.binder_alloc_test_*'
fi

if [ -d "$tree" ]; then
	wt=$(realpath "$tree")
	tree=dir-$(echo "$wt" | sha1sum | cut -c1-12)
	mkdir -p "$CACHE"
	build=$CACHE/build-kunit-$tree-$flavour$sfx
else
	wt=$("$BAS_TOP/scripts/prepare-tree.sh" "$tree")
	build=$TREE/build-kunit-$tree-$flavour$sfx
fi
bin=$CACHE/bin
"$BAS_TOP/qemu/qemu-wrapper.sh" "$bin" "$arch"
mkdir -p "$OUT"
json=$OUT/kunit-$tree-$flavour$sfx.json
log=$OUT/kunit-$tree-$flavour$sfx.log

make_opts=()
if command -v ccache >/dev/null; then
	export CCACHE_DIR=${CCACHE_DIR:-$CACHE/ccache}
	make_opts+=(--make_options "CC=ccache $cc" --make_options "HOSTCC=ccache gcc")
fi

note "kunit.py: binder_alloc, $flavour flavour, $tree tree, $arch, -smp $SMP, build dir $build"
# One kunit.py at a time per build directory.
kunit_py() {
	local cmd=$1 jobs=(--jobs="$JOBS")
	shift
	[ "$cmd" != config ] || jobs=() # kunit.py config takes no --jobs
	cd "$wt"
	PATH=$bin:$PATH python3 tools/testing/kunit/kunit.py "$cmd" --arch="$arch" "${cross[@]}" \
		--kunitconfig=drivers/android/tests \
		--kunitconfig="$BAS_TOP/kunit/$flavour.kunitconfig" \
		"${arch_kunitconfig[@]}" \
		--build_dir="$build" "${jobs[@]}" "${make_opts[@]}" "$@"
}
run_kunit() {
	kunit_py run --qemu_args="-smp $SMP" --kernel_args=panic_on_warn=1 --kernel_args=panic=-1 \
		--timeout="$KUNIT_TIMEOUT" --json="$json" "$KUNIT_GLOB"
}
if [ "${KUNIT_CONFIG_ONLY:-0}" = 1 ]; then
	# Configure the build dir and stop: kunit.py config runs olddefconfig and checks that every
	# option of the kunitconfigs landed in .config (kunit-module.sh's check of a flavour).
	with_lock "${build##*/}" kunit_py config >&2 || die "kunit.py config failed ($flavour, $tree)"
	echo "$build"
	exit 0
fi
if [ "${KUNIT_BUILD_ONLY:-0}" = 1 ]; then
	# Build (or bring up to date) the kernel and stop: kunit-exhaustive.sh boots it itself.
	with_lock "${build##*/}" kunit_py build >&2 || die "kunit.py build failed ($flavour, $tree)"
	echo "$build"
	exit 0
fi
rm -f "$json" "$log"
rc=0
with_lock "${build##*/}" run_kunit || rc=$?
[ -f "$build/test.log" ] && cp "$build/test.log" "$log"
[ -f "$json" ] && python3 "$BAS_TOP/scripts/ktap.py" kunit-json "kunit-$flavour$sfx" "$json" || true
[ "$rc" = 0 ] || die "kunit.py reported failures (exit $rc); kernel log: $log"
[ -f "$log" ] || die "kunit.py left no kernel log"
if [ -x "$BAS_TOP/qemu/check-log.sh" ]; then
	"$BAS_TOP/qemu/check-log.sh" "$log" || die "splat in the kernel log: $log"
fi
# The race and rollback cases need real parallelism: the guest must have come up with -smp.
cpus=$(sed -n 's/.*smp: Brought up [0-9]* nodes\{0,1\}, \([0-9]*\) CPUs\{0,1\}.*/\1/p' "$log" | head -n 1)
[ "${cpus:-0}" -ge "$SMP" ] ||
	die "the guest brought up ${cpus:-no} CPUs, not $SMP (no 'smp: Brought up' line with $SMP CPUs in $log)"
note "kunit $flavour ($tree, $arch, $cpus CPUs): pass; kernel log: $log"
