#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# fuzz.sh [FLAVOUR...]: make fuzz. Boots the binder=m kernel of each FLAVOUR (default: debug, with
# KASAN, lockdep, kmemleak and fault injection; kcsan: the same with KCSAN in place of KASAN),
# once per driver of FUZZ_MODULES, each built with KCOV's PC tracing (BAS_KCOV=1), and runs
# selftests/binder_fuzz there (fuzz/fuzz-run). Prints the guest's figures (programs, programs per
# second, corpus, binder PCs reached), a line per driver with them and the splats (0 expected),
# and for a run that splatted the program that ran last before it (fuzz/reproducer.sh), as a
# file the fuzzer replays (-r) and minimises (-M -r).
# Knobs:
#   FUZZ_SECONDS   how long each driver is fuzzed (default 600)
#   FUZZ_PROGRAMS  N: run N programs instead, each a fresh one from the seed, not guided by
#                  coverage (-K): the same programs every time (make check: 300)
#   FUZZ_SEED      the run's seed, decimal or 0x-hex (default 1)
#   FUZZ_MODULES   the drivers, in this order (default "binder_linux binder_alloc_split")
#   FAULTS         1 (default): failslab and fail_page_alloc on 1% of the fuzzer's allocations
#                  under binder_alloc.c; 0: off
#   and those of qemu-run.sh (TIMEOUT: default the run's length + 600 s).
. "$(dirname "$0")/../scripts/lib.sh"

flavours=("$@")
[ ${#flavours[@]} -gt 0 ] || flavours=(debug)
for f in "${flavours[@]}"; do
	case $f in debug | kcsan) ;; *) die "unknown fuzz flavour '$f' (expected debug or kcsan)" ;; esac
done
secs=${FUZZ_SECONDS:-600}
[[ $secs =~ ^[0-9]+$ ]] && [ "$secs" -ge 10 ] || die "FUZZ_SECONDS='$secs': expected a number of seconds, at least 10"
programs=${FUZZ_PROGRAMS:-}
[ -z "$programs" ] || [[ $programs =~ ^[1-9][0-9]*$ ]] || die "FUZZ_PROGRAMS='$programs': expected a number of programs, at least 1"
seed=${FUZZ_SEED:-1}
[[ $seed =~ ^([0-9]+|0x[0-9a-fA-F]+)$ ]] || die "FUZZ_SEED='$seed': expected a decimal or 0x-hex number"
modules=${FUZZ_MODULES:-binder_linux binder_alloc_split}
[ -n "${modules// /}" ] || die "FUZZ_MODULES is empty (expected binder_linux and/or binder_alloc_split)"
for m in $modules; do
	case $m in binder_alloc_split | binder_linux) ;; *) die "FUZZ_MODULES: unknown module '$m' (expected binder_alloc_split or binder_linux)" ;; esac
done
faults=${FAULTS:-1}
case $faults in 0 | 1) ;; *) die "FAULTS='$faults': expected 0 or 1" ;; esac

out=${OUT:-$BAS_TOP/out}/fuzz
mkdir -p "$out"
for t in static all; do
	make -s -C "$BAS_TOP/selftests/binder_fuzz" OUTPUT="$out" "$t" >"$out/build-$t.log" 2>&1 ||
		die "building binder_fuzz ($t) failed: $(head -n1 "$out/build-$t.log")"
done
# The run's arguments; -L: each program and corpus entry to the kernel log (see fuzz-run).
if [ -n "$programs" ]; then
	args="-s $seed -n $programs -K -L"
	length=$((programs * 2))
else
	args="-s $seed -t $secs -L"
	length=$secs
fi

rc=0
summary=()
for flavour in "${flavours[@]}"; do
	bdir=$TREE/build-stock-$flavour-m
	"$BAS_TOP/scripts/build-kernel.sh" stock "$flavour" m >/dev/null
	for module in $modules; do
		ko=$(KDIR=$bdir MODULE=$module BAS_KCOV=1 "$BAS_TOP/scripts/build-module.sh" | tail -n1)
		run=$out/$flavour-$module
		rm -rf "$run"
		mkdir -p "$run"
		alloc_text "$ko" "$run"
		printf 'MODULE=%s\nFAULTS=%s\nARGS="%s"\n' "$module" "$faults" "$args" >"$run/fuzz.conf"
		initrd=$("$BAS_TOP/qemu/mkinitramfs.sh" "$run/fuzz.cpio" "$BAS_TOP/fuzz/fuzz-run:/tests/run" \
			"$BAS_TOP/qemu/guest-lib.sh:/tests/lib.sh" "$run/fuzz.conf:/tests/fuzz.conf" "$ko" \
			"$out/binder_fuzz-static:/tests/binder_fuzz" "$run/alloc-text:/tests/alloc-text" \
			"$run/alloc-skip:/tests/alloc-skip")
		note "fuzz: $flavour kernel, $module, $args, FAULTS=$faults"
		kargs=(printk.devkmsg=on)
		scope=
		# KCSAN reports are warnings: go on, and let the log scan judge them (see stress.sh).
		[ "$flavour" != kcsan ] || { kargs+=(panic_on_warn=0); scope='binder_[A-Za-z0-9_]*\+0x'; }
		r=0
		CHECK_LOG_INJECTED_FAULTS=$faults CHECK_LOG_KCSAN_SCOPE=$scope TIMEOUT=${TIMEOUT:-$((length + 600))} \
			"$BAS_TOP/qemu/qemu-run.sh" --kernel "$bdir/$BAS_IMAGE" --initrd "$initrd" --out "$run/guest" \
			-- "${kargs[@]}" || r=$?
		guest_results "$run/guest"
		[ "$flavour" != kcsan ] || kcsan_counted "$run/guest/console.log" fuzz || r=1
		# The splats: none, or the first line the log scan found (qemu-run.sh's verdict).
		splat=$(CHECK_LOG_INJECTED_FAULTS=$faults CHECK_LOG_KCSAN_SCOPE=$scope "$BAS_TOP/qemu/check-log.sh" \
			"$run/guest/console.log" 2>/dev/null | sed -n '2{s/^[0-9]*://;p;q}') || true
		fig=$(sed -n 's/^# fuzz: # //p' "$run/guest/ktap" 2>/dev/null |
			grep -E '^(programs run|programs per second|corpus|binder PCs|kcov)' | paste -sd';' -)
		summary+=("$flavour $module: ${fig:-no figures}; splats: ${splat:-none}")
		if [ "$r" != 0 ]; then
			rc=1
			if CHECK_LOG_INJECTED_FAULTS=$faults CHECK_LOG_KCSAN_SCOPE=$scope "$BAS_TOP/fuzz/reproducer.sh" \
				"$run/guest/console.log" "$out/binder_fuzz" >"$run/reproducer.prog"; then
				echo "# fuzz: $flavour $module: the last program before the splat: $run/reproducer.prog" \
					"(replay in a guest: binder_fuzz -r FILE; minimise: binder_fuzz -M -r FILE)"
				sed 's/^/# | /' "$run/reproducer.prog"
			fi
		fi
	done
done
printf '# fuzz: %s\n' "${summary[@]}"
exit "$rc"
