#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# ARCH=: the supported values (x86_64, arm64) and where arm64 is accepted, one error line
# otherwise; deps and make check for arm64; the arm64 QEMU wrapper that kunit.py runs.
. "$(dirname "$0")/../lib.sh"

# fails_with DESC WANT_RC LINE CMD...: CMD exits WANT_RC and its stderr is exactly LINE
# (make's "Makefile:N:" read as "Makefile:").
fails_with() {
	local desc=$1 want=$2 line=$3 err rc
	shift 3
	err=$("$@" 2>&1 >/dev/null)
	rc=$?
	err=$(printf '%s\n' "$err" | sed 's/^Makefile:[0-9]*: /Makefile: /')
	result "$([ "$rc" = "$want" ] && [ "$err" = "$line" ] && echo 1)" "$desc" "exit $rc: $err"
}

mk=(make -s -C "$top" --no-print-directory)
fails_with "make: an unknown ARCH names the supported ones" 2 \
	"Makefile: *** ARCH=sparc: unsupported (supported: x86_64, arm64).  Stop." \
	"${mk[@]}" kunit ARCH=sparc
fails_with "make: ARCH=arm64 with a target that does not build for it" 2 \
	"Makefile: *** ARCH=arm64: only make kunit kunit-plain kunit-debug selftest stress check-arm64 deps help run on arm64 so far, not check.  Stop." \
	"${mk[@]}" check ARCH=arm64
fails_with "make: ARCH=arm64 from the environment is refused too" 2 \
	"Makefile: *** ARCH=arm64: only make kunit kunit-plain kunit-debug selftest stress check-arm64 deps help run on arm64 so far, not module-check.  Stop." \
	env ARCH=arm64 "${mk[@]}" module-check
result "$("${mk[@]}" -n kunit-plain ARCH=arm64 >/dev/null 2>&1 && echo 1)" "make: kunit-plain accepts ARCH=arm64"
result "$("${mk[@]}" -n kunit-plain ARCH=x86_64 >/dev/null 2>&1 && echo 1)" "make: kunit-plain accepts ARCH=x86_64"
for t in selftest stress check-arm64; do
	result "$("${mk[@]}" -n $t ARCH=arm64 >/dev/null 2>&1 && echo 1)" "make: $t accepts ARCH=arm64"
done

fails_with "kunit.sh: an unknown ARCH" 1 "kunit.sh: error: ARCH='mips': unsupported (supported: x86_64, arm64)" \
	env ARCH=mips "$top/kunit/kunit.sh" plain
fails_with "a script that builds for x86_64 only refuses ARCH=arm64" 1 \
	"module-check.sh: error: ARCH=arm64: this script builds for x86_64 only (ARCH=arm64: make kunit, kunit-plain, kunit-debug, selftest, stress, check-arm64, deps)" \
	env ARCH=arm64 "$top/binder_alloc_split/module-check.sh"
fails_with "an arm64 script's mark does not reach the x86_64-only scripts it would call" 1 \
	"module-check.sh: error: ARCH=arm64: this script builds for x86_64 only (ARCH=arm64: make kunit, kunit-plain, kunit-debug, selftest, stress, check-arm64, deps)" \
	env ARCH=arm64 bash -c 'export BAS_ARCH_OK=1; . "$0"; "$1"' "$top/scripts/lib.sh" "$top/binder_alloc_split/module-check.sh"
# ACCEL=kvm on arm64: refused by lib.sh, before anything is built, whatever the entry point.
for s in kunit/kunit.sh selftest/selftest.sh stress/stress.sh; do
	fails_with "${s##*/}: ARCH=arm64 refuses ACCEL=kvm before it builds" 1 \
		"${s##*/}: error: ACCEL=kvm: ARCH=arm64 runs under TCG only (ACCEL=tcg or auto)" \
		env ARCH=arm64 ACCEL=kvm CACHE="$tmp/none" "$top/$s"
done
fails_with "deps.sh: an unknown ARCH" 1 "deps.sh: error: ARCH='mips': unsupported (supported: x86_64, arm64)" \
	env ARCH=mips "$top/scripts/deps.sh" --list

x86=$(env -u ARCH "$top/scripts/deps.sh" --list)
arm=$(ARCH=arm64 "$top/scripts/deps.sh" --list)
missing=$(comm -23 <(printf '%s\n' gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-system-arm) \
	<(echo "$x86" | sort) | tr '\n' ' ')
result "$([ -z "$missing" ] && echo 1)" \
	"deps.sh: make deps installs the cross compiler, its libc and qemu-system-arm (make check's arm64 stage)" \
	"missing: $missing"
result "$([ "$x86" = "$arm" ] && echo 1)" "deps.sh: ARCH=arm64 installs the same packages" \
	"$(diff <(echo "$x86") <(echo "$arm") | grep '^[<>]' | tr '\n' ' ')"
# make check's arm64 stage, run by check.sh with a kunit.sh that reports what it was given.
mkdir -p "$tmp/chk/scripts" "$tmp/chk/kunit"
cp "$top/scripts/check.sh" "$top/scripts/lib.sh" "$tmp/chk/scripts/"
printf '#!/bin/bash\necho "ok 1 kunit.sh $* ARCH=$ARCH ACCEL=$ACCEL KUNIT_SLOW=$KUNIT_SLOW"\n' >"$tmp/chk/kunit/kunit.sh"
chmod +x "$tmp/chk/kunit/kunit.sh"
got=$(env -u ARCH ACCEL=kvm OUT="$tmp/chk/out" "$tmp/chk/scripts/check.sh" kunit-plain-arm64 2>&1 | grep '^ok 1 kunit.sh')
result "$([ "$got" = "ok 1 kunit.sh plain split ARCH=arm64 ACCEL=tcg KUNIT_SLOW=0" ] && echo 1)" \
	"check.sh: make check runs KUnit's plain flavour on arm64, under TCG whatever ACCEL is" "got: $got"

# lib.sh's row of each architecture: what the guests are built with and booted on.
row() { env -u ARCH ${1:+ARCH=$1} BAS_ARCH_OK=1 bash -c '. "$0"; echo "$BAS_CROSS|$BAS_SFX|$BAS_IMAGE|$BAS_QEMU|$BAS_CONSOLE|$BAS_RESULT"' "$top/scripts/lib.sh"; }
got=$(row)
result "$([ "$got" = "||arch/x86/boot/bzImage|qemu-system-x86_64|ttyS0|ttyS1" ] && echo 1)" "lib.sh: the x86_64 row" "got: $got"
got=$(row arm64)
result "$([ "$got" = "aarch64-linux-gnu-|-arm64|arch/arm64/boot/Image|qemu-system-aarch64|ttyAMA0|hvc0" ] && echo 1)" \
	"lib.sh: the arm64 row" "got: $got"

# The arm64 wrapper: kunit.py's -accel options dropped, multi-threaded TCG, the rest kept.
mkdir -p "$tmp/fake" "$tmp/bin"
printf '#!/bin/sh\necho "$@"\n' >"$tmp/fake/qemu-system-aarch64"
chmod +x "$tmp/fake/qemu-system-aarch64"
PATH=$tmp/fake:$PATH CACHE=$tmp/cache "$top/qemu/qemu-wrapper.sh" "$tmp/bin" arm64 2>/dev/null
got=$("$tmp/bin/qemu-system-aarch64" -nodefaults -accel kvm -accel hvf -accel tcg -smp 2 2>&1)
result "$([ "$got" = "-accel tcg,thread=multi -nodefaults -smp 2" ] && echo 1)" \
	"qemu-wrapper.sh arm64: drops kunit.py's -accel, runs multi-threaded TCG" "got: $got"
fails_with "qemu-wrapper.sh: an unknown architecture" 1 \
	"qemu-wrapper.sh: error: unknown architecture 'mips' (supported: x86_64, arm64)" \
	env CACHE="$tmp/cache" "$top/qemu/qemu-wrapper.sh" "$tmp/bin" mips

echo "# $n tests, $fails failed"
[ "$fails" = 0 ]
