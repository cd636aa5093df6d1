# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Common helpers for the binder-alloc-split scripts. Sourced, not run.
#
# Cache layout ($CACHE, default ${XDG_CACHE_HOME:-$HOME/.cache}/binder-alloc-split):
#   apt/            private apt configuration (sources list, lists, archives)
#   dl/             verified downloads
#   <tree>/         one kernel tree per source (debian-7.3.4, or ksrc-<hash> for KSRC=)
#     base/         git repo of the pristine tree, baseline commit tagged v7.3.4-base
#     base.ok       stamp: written last, only once base/ is complete
#     wt-<name>/    git worktrees (stock, split, ...) that builds use
#     build-<name>/ kernel build directories (O=)
# Every stamp is written after the thing it vouches for is complete, and removed
# before that thing is modified, so an interrupted run is never trusted later.

set -euo pipefail

BAS_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=${CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/binder-alloc-split}
KVER=7.3.4
BASE_TAG=v$KVER-base

die() {
	echo "${0##*/}: error: $*" >&2
	exit 1
}

note() {
	echo "[bas] $*" >&2
}

# ARCH reaches every kernel build through the environment. BAS_ARCH is its one reading:
# x86_64 (the default; x86 is the same) or arm64, anything else an error. Only the scripts
# that build or boot for arm64, or do not depend on it (fetch-kernel.sh, prepare-tree.sh;
# qemu-wrapper.sh takes the architecture as an argument), accept it: each sets BAS_ARCH_OK=1
# before it sources this file, which takes the mark off again, so that it does not reach the
# scripts they call. Everything else builds for x86_64 and refuses an ARCH it would silently
# misuse.
case ${ARCH:-x86_64} in
x86_64 | x86) BAS_ARCH=x86_64 ;;
arm64) BAS_ARCH=arm64 ;;
*) die "ARCH='$ARCH': unsupported (supported: x86_64, arm64)" ;;
esac
[ "$BAS_ARCH" = x86_64 ] || [ "${BAS_ARCH_OK:-0}" = 1 ] ||
	die "ARCH=$ARCH: this script builds for x86_64 only (ARCH=arm64: make kunit, kunit-plain, kunit-debug, selftest, stress, check-arm64, deps)"
unset BAS_ARCH_OK

# What the test guests of BAS_ARCH are built with and booted on (one harness; ARCH= picks the row):
#   BAS_CROSS   CROSS_COMPILE prefix ("" on x86_64)     BAS_SFX    build dir suffix of the arch
#   BAS_IMAGE   kernel image, relative to a build dir   BAS_QEMU   QEMU binary
#   BAS_CONSOLE the guest's console (kernel messages)   BAS_RESULT the guest's verdict device
# x86_64: QEMU pc, 8250 UARTs ttyS0 (console) and ttyS1 (verdict). arm64: QEMU virt, whose one
# UART (PL011, ttyAMA0) is the console; the verdict goes out on a virtio console (hvc0).
case $BAS_ARCH in
x86_64)
	BAS_CROSS='' BAS_SFX='' BAS_IMAGE=arch/x86/boot/bzImage BAS_QEMU=qemu-system-x86_64
	BAS_CONSOLE=ttyS0 BAS_RESULT=ttyS1
	;;
arm64)
	BAS_CROSS=aarch64-linux-gnu- BAS_SFX=-arm64 BAS_IMAGE=arch/arm64/boot/Image
	BAS_QEMU=qemu-system-aarch64 BAS_CONSOLE=ttyAMA0 BAS_RESULT=hvc0
	# There is no arm64 KVM on an x86_64 host: refuse ACCEL=kvm before anything is built.
	case ${ACCEL:-tcg} in tcg | auto) ;; *) die "ACCEL=$ACCEL: ARCH=arm64 runs under TCG only (ACCEL=tcg or auto)" ;; esac
	;;
esac

# apply_fixups DIR: apply to the git worktree DIR, as uncommitted changes, each harness fixup
# (fixups/*.diff) that applies there; print the names of those applied.
apply_fixups() {
	local f
	for f in "$BAS_TOP"/fixups/*.diff; do
		[ -e "$f" ] && git -C "$1" apply --check "$f" 2>/dev/null || continue
		git -C "$1" apply "$f"
		echo "${f##*/}"
	done
}

# host_load_start N: N busy loops, each pinned to one host CPU in turn (taskset), in the
# background, beside QEMU: a host that takes the guest's vCPUs away at any moment (make bench's
# BENCH_HOST_LOAD, kunit-repeat.sh's LOAD). host_load_stop ends them; callers trap it on EXIT.
host_loads=()
host_load_start() {
	local i
	for ((i = 0; i < $1; i++)); do
		taskset -c $((i % $(nproc))) sh -c 'while :; do :; done' &
		host_loads+=($!)
	done
}
host_load_stop() {
	[ ${#host_loads[@]} = 0 ] || kill "${host_loads[@]}" 2>/dev/null
	wait "${host_loads[@]}" 2>/dev/null || true # killed: 143
	host_loads=()
}

# with_lock NAME CMD...: run CMD under an exclusive flock on $CACHE/.lock-NAME.
with_lock() {
	local _lock=$1
	shift
	mkdir -p "$CACHE"
	(
		flock 9
		"$@"
	) 9>"$CACHE/.lock-$_lock"
}

# tree_id: the cache directory name of the kernel tree in use.
tree_id() {
	if [ -n "${KSRC:-}" ]; then
		echo "ksrc-$(realpath "$KSRC" | sha1sum | cut -c1-12)"
	else
		echo "debian-$KVER"
	fi
}

TREE=$CACHE/$(tree_id)

# uapi_headers: the uapi headers of the stock tree, installed (headers_install) into
# $TREE/build-uapi once per tree; prints that directory (its usr/include is the include dir).
uapi_headers() {
	local hdr=$TREE/build-uapi
	"$BAS_TOP/scripts/prepare-tree.sh" stock >/dev/null || exit 1
	_uapi_build() {
		[ -f "$hdr/bas.ok" ] && [ "$(cat "$hdr/bas.ok")" = "$(cat "$TREE/base.ok")" ] && return
		rm -f "$hdr/bas.ok"
		mkdir -p "$hdr"
		make -C "$TREE/wt-stock" O="$hdr" ARCH=x86_64 -s headers_install >"$hdr/headers.log" 2>&1 ||
			die "headers_install failed (see $hdr/headers.log)"
		cat "$TREE/base.ok" >"$hdr/bas.ok"
	}
	with_lock build-uapi _uapi_build || exit 1
	echo "$hdr"
}

# private_apt VAR DIR: set the array VAR to the apt-get options of a private apt
# configuration in DIR (its sources.list, lists and archives there; no lock, no sandbox user).
private_apt() {
	local -n _opts=$1
	mkdir -p "$2/lists/partial" "$2/archives/partial" || die "cannot create $2"
	_opts=(-o "Dir::Etc::SourceList=$2/sources.list" -o Dir::Etc::SourceParts=/dev/null
		-o "Dir::State::Lists=$2/lists" -o "Dir::Cache=$2" -o "Dir::Cache::archives=$2/archives"
		-o Debug::NoLocking=1 -o APT::Sandbox::User=root -q)
}

# alloc_text KO DIR: for fault injection under binder_alloc.c's functions (FAULTS=1 of make
# stress and make fuzz; faults_on in qemu/guest-lib.sh), their names in DIR/alloc-text, for the
# guest to find in /proc/kallsyms, and in DIR/alloc-skip those to skip there.
alloc_text() {
	local syms
	syms=$("${BAS_CROSS}objdump" -t "${1%/*}/binder_alloc.o") ||
		die "${BAS_CROSS}objdump ${1%/*}/binder_alloc.o failed"
	awk 'NF > 3 && $(NF - 2) == ".text" && $NF != ".text" { print $NF }' <<<"$syms" >"$2/alloc-text"
	[ -s "$2/alloc-text" ] || die "no .text symbol in ${1%/*}/binder_alloc.o"
	# A local name that another object of the module has too (GCC's out-of-line copy of a
	# header's inline, srcu_read_lock_fast_notrace.constprop.0 on arm64, say) tells nothing
	# about where binder_alloc.c's text is: the guest skips those (/tests/alloc-skip).
	syms=$("${BAS_CROSS}nm" --defined-only "$1") || die "${BAS_CROSS}nm $1 failed"
	awk '$2 == "t" || $2 == "T" { print $3 }' <<<"$syms" | sort | uniq -d |
		{ grep -x -F -f "$2/alloc-text" || [ $? = 1 ]; } >"$2/alloc-skip" ||
		die "cannot list the names of ${1##*/} that binder_alloc.o shares"
}

# kcsan_counted LOG WHO: for make stress and make fuzz on the kcsan kernel, from the counters
# that the guest printed as "# WHO: KCSAN: ..." (kcsan_counters in qemu/guest-lib.sh). KCSAN counts a race (data_races, races_unknown_origin) before it decides
# whether to print it. It cannot print one whose watcher had already left when the second
# access found the watchpoint (report_races: only that access is known); it skips one whose
# value did not change (CONFIG_KCSAN_REPORT_VALUE_CHANGE_ONLY) and one that repeats a report of
# the last 3 s. The log scan judges only printed reports, so: a race that KCSAN could have
# printed and did not (data_races - report_races + races_unknown_origin above the reports
# printed) may be binder's and fails the run; those it cannot print are named, not failed.
# One KTAP line, numbered after the guest's.
kcsan_counted() {
	local log=$1 who=$2 n counts d r u p seen
	n=$(tr -d '\r' <"$log" | grep -c -E '^(not )?ok [0-9]+ ')
	counts=$(tr -d '\r' <"$log" | sed -n "s/^# $who: KCSAN: //p" | tail -n1)
	d=$(sed -n 's/.*data_races \([0-9]*\).*/\1/p' <<<"$counts")
	r=$(sed -n 's/.*report_races \([0-9]*\).*/\1/p' <<<"$counts")
	u=$(sed -n 's/.*races_unknown_origin \([0-9]*\).*/\1/p' <<<"$counts")
	p=$(tr -d '\r' <"$log" | grep -c 'BUG: KCSAN: ')
	if [ -z "$d" ] || [ -z "$r" ] || [ -z "$u" ]; then
		echo "not ok $((n + 1)) KCSAN printed every race it could # no counters from the guest"
		return 1
	fi
	seen=$((d - r + u))
	echo "# $who: KCSAN: $((d + u)) races counted (data_races $d, races_unknown_origin $u), $p reports printed"
	[ "$r" = 0 ] || echo "# $who: KCSAN: $r of them seen by the second access only, after the" \
		"watcher had left (report_races): KCSAN has no report to print for those"
	if [ "$seen" -gt "$p" ]; then
		echo "not ok $((n + 1)) KCSAN printed every race it could # $((seen - p)) not printed" \
			"(value unchanged, or a repeat within 3 s; see stress/README.md)"
		return 1
	fi
	echo "ok $((n + 1)) KCSAN printed every race it could"
}

# guest_results DIR: the result and "# " lines that a guest's test plan wrote to its result
# device (qemu-run.sh --out DIR: DIR/ktap), for the stage's log; nothing if it wrote none.
guest_results() {
	grep -E '^(not )?ok [0-9]+ |^# ' "$1/ktap" 2>/dev/null || true
}

# debian_sources SUITE...: a sources.list "deb" line (component main) for each SUITE of
# Debian's archive, whose URI is read from this machine's apt sources, so that no mirror is
# named here. Used for private apt configurations (fetch-kernel.sh, dkms-check.sh).
debian_sources() {
	local uri s
	uri=$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null |
		awk '/^URIs:/ { for (i = 2; i <= NF; i++) print $i }' |
		grep -E '/debian/?$' | head -n1 || true)
	if [ -z "$uri" ]; then
		uri=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
			awk '$1 == "deb" { for (i = 2; i <= NF; i++) if ($i ~ /:\/\//) { print $i; break } }' |
			grep -E '/debian/?$' | head -n1 || true)
	fi
	[ -n "$uri" ] || die "no Debian archive URI in /etc/apt/sources.list{,.d}"
	for s; do
		echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] ${uri%/} $s main"
	done
}
