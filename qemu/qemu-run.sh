#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# qemu-run.sh --kernel IMAGE --initrd CPIO [--out DIR] [-- KERNEL-ARGS...]
# Boot a test guest and judge the run: on x86_64, QEMU's pc machine (ACPI, no PCI), console on
# the first UART (ttyS0), the guest's verdict on the second (ttyS1); with ARCH=arm64, QEMU's virt
# machine under TCG, console on its PL011 (ttyAMA0), the verdict on a virtio console (hvc0). The
# console goes to DIR/console.log. /init's own device, wired to DIR/result, carries the test
# plan's KTAP (copied to DIR/ktap) and, last, /init's verdict. The run fails (exit 1,
# "FAIL: <reason>; log: <path>") on a timeout, a verdict other than "bas-verdict: success",
# or a kernel splat in the log (qemu/check-log.sh). A kernel that fails
# before /init has run is booted once more (the first log is kept as DIR/console.boot1.log).
# Knobs: SMP (2), MEM (1G; 2G for a KASAN or kmemleak kernel), TIMEOUT (600 s, wall clock),
# ACCEL (kvm|tcg, default: qemu/accel.sh), V=1 (console on stdout too), QEMU (binary).
# DIR defaults to $CACHE/runs/<date>-<pid>.
BAS_ARCH_OK=1 # BAS_ARCH (lib.sh) selects the machine below
. "$(dirname "$0")/../scripts/lib.sh"

usage="usage: qemu-run.sh --kernel IMAGE --initrd CPIO [--out DIR] [-- KERNEL-ARGS...]"
kernel= initrd= out=
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) kernel=${2:?$usage}; shift 2 ;;
	--initrd) initrd=${2:?$usage}; shift 2 ;;
	--out) out=${2:?$usage}; shift 2 ;;
	--) shift; break ;;
	*) die "unknown argument '$1' ($usage)" ;;
	esac
done
[ -n "$kernel" ] && [ -n "$initrd" ] || die "$usage"
[ -f "$kernel" ] || die "kernel $kernel: no such file"
[ -f "$initrd" ] || die "initrd $initrd: no such file"

qemu=${QEMU:-$BAS_QEMU}
command -v "$qemu" >/dev/null || die "$qemu not found (make deps${ARCH:+ ARCH=$ARCH})"
if [ "$BAS_ARCH" = x86_64 ]; then
	accel=$(ACCEL=${ACCEL:-} "$BAS_TOP/qemu/accel.sh" "$kernel") || exit 1
else
	accel=tcg # lib.sh refused any other ACCEL
fi
out=${out:-$CACHE/runs/$(date +%Y%m%d-%H%M%S)-$$}
mkdir -p "$out"
log=$out/console.log
rm -f "$out/console.boot1.log"
result=$out/result

# A debug kernel (KASAN, kmemleak) needs more memory: read its build dir's .config.
config=${kernel%/"$BAS_IMAGE"}/.config
mem=${MEM:-}
if [ -z "$mem" ]; then
	mem=1G
	[ -f "$config" ] && grep -q -E '^CONFIG_(KASAN|DEBUG_KMEMLEAK)=y' "$config" && mem=2G
fi

# pc, not microvm: under TCG, microvm offers the kernel no reference (HPET, ACPI PM timer)
# to calibrate the TSC against, and the guest hangs after "Marking TSC unstable".
cmdline=
if [ "$BAS_ARCH" = arm64 ]; then
	# pauth-impdef: QEMU's own pointer-authentication hash instead of QARMA5, which costs TCG
	# much of its time; the guest sees the same feature. arm64 kernels take their command
	# line from -append only: the console and panic_on_warn go here, not in the .config.
	machine=(-machine virt,gic-version=3 -accel tcg,thread=multi -cpu max,pauth-impdef=on)
	cmdline="console=$BAS_CONSOLE panic_on_warn=1 "
elif [ "$accel" = kvm ]; then
	machine=(-machine pc -accel kvm -cpu host)
else
	# A KASAN kernel gets 4-level paging: with LA57 it can report a wild access at boot
	# (see qemu-wrapper.sh). Other kernels, the benchmark's among them, keep -cpu max.
	cpu=max
	[ -f "$config" ] && grep -q '^CONFIG_KASAN=y' "$config" && cpu=max,la57=off
	machine=(-machine pc -accel tcg,thread=multi -cpu $cpu)
fi
# x86_64: the kernel's built-in command line already has console=ttyS0 panic_on_warn=1 reboot=t.
cmdline+="panic=-1 oops=panic softlockup_panic=1 $*"
# /init's verdict device (qemu/init.c: RESULT_PORT).
if [ "$BAS_RESULT" = ttyS1 ]; then
	verdict=(-serial "file:$result")
else
	verdict=(-device virtio-serial-device -chardev "file,id=result,path=$result"
		-device virtconsole,chardev=result)
fi
cmd=(timeout --foreground "${TIMEOUT:-600}" "$qemu" "${machine[@]}"
	-smp "${SMP:-2}" -m "$mem" -nodefaults -nographic -monitor none -no-reboot
	-serial stdio "${verdict[@]}"
	-kernel "$kernel" -initrd "$initrd" -append "$cmdline")
echo "${cmd[*]}" >"$out/cmdline"

# boot: run the guest once; sets rc (QEMU's exit status) and secs.
boot() {
	rm -f "$log"
	: >"$result"
	note "booting $kernel ($accel, smp ${SMP:-2}, $mem); log: $log"
	local start
	start=$(date +%s)
	rc=0
	if [ "${V:-0}" = 1 ]; then
		"${cmd[@]}" </dev/null 2>&1 | tee "$log" || rc=${PIPESTATUS[0]}
	else
		"${cmd[@]}" </dev/null >"$log" 2>&1 || rc=$?
	fi
	secs=$(($(date +%s) - start))
}

# judge: prints why the boot failed and returns 1, or returns 0.
judge() {
	local splat verdict
	if [ "$rc" = 124 ]; then
		echo "timeout after ${TIMEOUT:-600} s"
		return 1
	fi
	if ! splat=$("$BAS_TOP/qemu/check-log.sh" "$log"); then
		echo "kernel splat: $(echo "$splat" | sed -n 2p | cut -c1-160)"
		return 1
	fi
	verdict=$(tr -d '\r' <"$result" | sed -n 's/^bas-verdict: //p' | tail -n1)
	case $verdict in
	success) ;;
	failure:*) echo "guest reported${verdict#failure}"; return 1 ;;
	*) echo "no verdict from the guest (qemu exit $rc)${verdict:+; result: $verdict}"; return 1 ;;
	esac
	if [ "$rc" != 0 ]; then
		echo "qemu exited with $rc"
		return 1
	fi
}

for try in 1 2; do
	boot
	# The plan's results: all that reached the result device but the verdict.
	tr -d '\r' <"$result" | grep -v '^bas-verdict: ' >"$out/ktap" || true
	reason=$(judge) && break
	# A kernel that fails before /init has printed a line ran none of the test: under TCG
	# we have seen a KASAN report in an early interrupt in a few percent of boots (and an
	# "Oops: int3" of a patched static key, before and after /init, gone since the test
	# kernels have no JUMP_LABEL: qemu/config/x86_64.config). Say so and boot once more; a failure
	# after /init started, or a second one, is the verdict.
	if [ "$try" = 1 ] && ! grep -q '^\[init\] ' "$log"; then
		mv "$log" "$out/console.boot1.log"
		note "the kernel failed before /init ran ($reason); booting once more; first log: $out/console.boot1.log"
		continue
	fi
	echo "FAIL: $reason; log: $log" >&2
	exit 1
done
echo "PASS: ${secs}s; log: $log"
