#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# build-kernel.sh TREE FLAVOUR [BINDER]: build a QEMU test kernel.
#   TREE: stock | split (worktree from prepare-tree.sh); FLAVOUR: perf | debug | kcsan (debug
#   with KCSAN in place of KASAN) | lockstat (perf with CONFIG_LOCK_STAT) | proxy (perf with
#   CONFIG_SCHED_PROXY_EXEC; x86_64) | rt (debug with PREEMPT_RT; x86_64);
#   BINDER: y (built in, default) | m (binder_linux.ko, staged for the initramfs).
# ARCH=arm64 (lib.sh: BAS_ARCH) cross-builds for QEMU's arm64 virt machine with aarch64-linux-gnu-.
# Build dir: $TREE/build-<tree>-<flavour>-<binder>[-arm64]. The .config is allnoconfig +
# qemu/config/: base.config + <arch>.config + <flavour>.config (+ binder-m.config)
# (+ <arch>-<flavour>.config in a second pass), regenerated only when the fragments change,
# and checked: every CONFIG_X=v line of the fragments must be in it. Modules (BINDER=m) are installed
# into <build>/modules (INSTALL_MOD_PATH) for mkinitramfs.sh -m. Knobs: JOBS (default nproc).
# Prints the kernel image's path (bzImage, arm64: Image) last on stdout; a stamp <build>/bas.ok
# is written only on success.
BAS_ARCH_OK=1 # builds for BAS_ARCH (lib.sh): the toolchain and the image below
. "$(dirname "$0")/lib.sh"

usage="usage: build-kernel.sh stock|split perf|debug|kcsan|lockstat|proxy|rt [y|m]"
tree=${1:?$usage}
flavour=${2:?$usage}
binder=${3:-y}
case $tree in stock | split) ;; *) die "unknown tree '$tree' ($usage)" ;; esac
case $flavour in perf | debug | kcsan | lockstat | proxy | rt) ;; *) die "unknown flavour '$flavour' ($usage)" ;; esac
[ "$flavour" != proxy ] || [ "$BAS_ARCH" = x86_64 ] || die "the proxy flavour is make bench's, for x86_64 only (no qemu/config/$BAS_ARCH-proxy.config)"
[ "$flavour" != rt ] || [ "$BAS_ARCH" = x86_64 ] || die "the rt flavour is for x86_64 only (no qemu/config/$BAS_ARCH-rt.config)"
case $binder in y | m) ;; *) die "unknown binder mode '$binder' ($usage)" ;; esac

src=$("$BAS_TOP/scripts/prepare-tree.sh" "$tree") || die "prepare-tree.sh $tree failed"
out=$TREE/build-$tree-$flavour-$binder$BAS_SFX
stamp=$out/bas.ok
log=$out/build.log
frags=("$BAS_TOP/qemu/config/base.config" "$BAS_TOP/qemu/config/$BAS_ARCH.config")
[ "$flavour" = kcsan ] || [ "$flavour" = rt ] && frags+=("$BAS_TOP/qemu/config/debug.config")
[ "$flavour" = proxy ] && frags+=("$BAS_TOP/qemu/config/perf.config")
frags+=("$BAS_TOP/qemu/config/$flavour.config")
[ "$binder" = m ] && frags+=("$BAS_TOP/qemu/config/binder-m.config")
# qemu/config/<arch>-<flavour>.config: options that make more of Kconfig visible (arm64's KCSAN needs
# EXPERT). allnoconfig would turn every newly visible option off (PRINTK, BLOCK, SLUB_DEBUG...),
# so configure() resolves it in a second pass, on top of the first pass's whole .config.
late=()
[ -f "$BAS_TOP/qemu/config/$BAS_ARCH-$flavour.config" ] && late=("$BAS_TOP/qemu/config/$BAS_ARCH-$flavour.config")

cc=${BAS_CROSS}gcc hostcc=gcc
command -v "$cc" >/dev/null || die "$cc not found: ARCH=$BAS_ARCH needs the cross compiler (make deps ARCH=$BAS_ARCH)"
# ccache for the host programs too (kconfig, fixdep, modpost, objtool): each build dir compiles
# the same ones, which a cold make check would otherwise compile once per kernel.
command -v ccache >/dev/null && cc="ccache $cc" hostcc="ccache gcc"
makeargs=(-C "$src" O="$out" ARCH="$BAS_ARCH" ${BAS_CROSS:+CROSS_COMPILE="$BAS_CROSS"} CC="$cc" HOSTCC="$hostcc"
	-j"${JOBS:-$(nproc)}")
export KBUILD_BUILD_TIMESTAMP="2026-01-01 00:00:00 UTC" KBUILD_BUILD_USER=bas KBUILD_BUILD_HOST=qemu
export CCACHE_DIR=${CCACHE_DIR:-$CACHE/ccache} CCACHE_NOHASHDIR=1 CCACHE_BASEDIR=$TREE

# check_config: every CONFIG_X=v of the fragments (the last one wins) is in .config;
# every "# CONFIG_X is not set" is neither =y nor =m there.
check_config() {
	local missing
	missing=$(awk '
		FNR == NR { have[$0] = 1; next }
		/^CONFIG_[A-Za-z0-9_]+=/ { k = $0; sub(/=.*/, "", k); want[k] = $0; next }
		/^# CONFIG_[A-Za-z0-9_]+ is not set/ { want[$2] = "off" }
		END {
			for (k in want) {
				if (want[k] == "off") {
					if ((k "=y") in have || (k "=m") in have) print k "=n (is on)"
				} else if (!(want[k] in have)) print want[k]
			}
		}' "$out/.config" "${frags[@]}" "${late[@]}" | sort)
	[ -z "$missing" ] || die "options that did not land in $out/.config: $(echo $missing)"
}

configure() {
	local want have=
	want=$({
		cat "${frags[@]}"
		[ ${#late[@]} = 0 ] || { echo "# second pass"; cat "${late[@]}"; }
	} | sha256sum | cut -c1-16)
	[ -f "$out/.config.frags" ] && have=$(cat "$out/.config.frags")
	if [ "$want" = "$have" ] && [ -f "$out/.config" ]; then
		return
	fi
	note "configuring $out (allnoconfig + ${frags[*]##*/}${late:+, then + ${late[*]##*/}})"
	rm -f "$out/.config.frags"
	mkdir -p "$out/.kcfg"
	[ -f "$out/.config" ] && cp -p "$out/.config" "$out/.kcfg/old"
	# merge_config.sh -m only merges the fragments (and reports overridden values);
	# allnoconfig with KCONFIG_ALLCONFIG then resolves them, as merge_config.sh -n would,
	# but with our CC so that Kconfig's compiler checks match the build.
	(cd "$src" && scripts/kconfig/merge_config.sh -m -O "$out/.kcfg" "${frags[@]}") >>"$log" 2>&1 ||
		die "merge_config.sh failed (see $log)"
	mv "$out/.kcfg/.config" "$out/.kcfg/merged"
	make "${makeargs[@]}" KCONFIG_ALLCONFIG="$out/.kcfg/merged" allnoconfig >>"$log" 2>&1 ||
		die "make allnoconfig failed (see $log)"
	if [ ${#late[@]} -gt 0 ]; then
		# Every option the first pass resolved is now set explicitly, so the second
		# allnoconfig changes only what the late fragments (and the fragments they enable) ask.
		cp "$out/.config" "$out/.kcfg/pass1"
		(cd "$src" && scripts/kconfig/merge_config.sh -m -O "$out/.kcfg" "$out/.config" \
			"${frags[@]}" "${late[@]}") >>"$log" 2>&1 || die "merge_config.sh failed (see $log)"
		mv "$out/.kcfg/.config" "$out/.kcfg/merged"
		make "${makeargs[@]}" KCONFIG_ALLCONFIG="$out/.kcfg/merged" allnoconfig >>"$log" 2>&1 ||
			die "make allnoconfig failed (see $log)"
		# ...and turns nothing off: every option on after the first pass is on after it, but
		# those that a late fragment turns off by name ("# CONFIG_X is not set").
		local lost
		lost=$(awk 'FILENAME == ARGV[1] { if (/^# CONFIG_[A-Za-z0-9_]+ is not set/) off[$2] = 1; next }
			FILENAME == ARGV[2] { if (/^CONFIG_[A-Za-z0-9_]+=[ym]$/) { sub(/=.*/, ""); if (!($0 in off)) on[$0] = 1 }; next }
			/^CONFIG_[A-Za-z0-9_]+=[ym]$/ { sub(/=.*/, ""); delete on[$0] }
			END { for (k in on) print k }' <(cat "${late[@]}") "$out/.kcfg/pass1" "$out/.config" | sort)
		[ -z "$lost" ] || die "the second configure pass (${late[*]##*/}) turned off: $(echo $lost)"
		# What it turned on, for the reader: the late fragments' options, and what they select.
		local gained
		gained=$(awk 'FNR == NR { if (/^CONFIG_[A-Za-z0-9_]+=[ym]$/) { sub(/=.*/, ""); on[$0] = 1 }; next }
			/^CONFIG_[A-Za-z0-9_]+=[ym]$/ { sub(/=.*/, ""); if (!($0 in on)) print }' \
			"$out/.kcfg/pass1" "$out/.config" | sort)
		note "the second configure pass (${late[*]##*/}) turned on: $(echo $gained)"
	fi
	if [ -f "$out/.kcfg/old" ] && cmp -s "$out/.kcfg/old" "$out/.config"; then
		mv "$out/.kcfg/old" "$out/.config" # identical: keep the old timestamp
	fi
	check_config
	echo "$want" >"$out/.config.frags"
}

build() {
	mkdir -p "$out"
	rm -f "$stamp"
	: >"$log"
	configure
	check_config
	note "building $out (log: $log)"
	make "${makeargs[@]}" "${BAS_IMAGE##*/}" >>"$log" 2>&1 ||
		die "kernel build failed: $(grep -m1 -E 'error|Error' "$log" || tail -n1 "$log") (see $log)"
	rm -rf "$out/modules"
	if [ "$binder" = m ]; then
		make "${makeargs[@]}" modules >>"$log" 2>&1 || die "modules build failed (see $log)"
		make "${makeargs[@]}" INSTALL_MOD_PATH="$out/modules" INSTALL_MOD_STRIP=1 DEPMOD=true \
			modules_install >>"$log" 2>&1 || die "modules_install failed (see $log)"
		find "$out/modules" -name binder_linux.ko | grep -q . ||
			die "binder_linux.ko missing from $out/modules"
	fi
	make "${makeargs[@]}" -s kernelrelease >"$out/kernelrelease" 2>>"$log"
	date -u +%FT%TZ >"$stamp"
}

with_lock "build-$tree-$flavour-$binder$BAS_SFX" build
echo "$out/$BAS_IMAGE"
