#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# accel.sh [KERNEL]: print the QEMU accelerator to use, kvm or tcg.
#   ACCEL=tcg: tcg, no probe. ACCEL=kvm: kvm if the probe passes, else a one-line error, exit 1.
#   ACCEL unset or auto: kvm if the probe passes, else tcg.
# Probe: /dev/kvm must open, and a real kernel must boot under -accel kvm: KERNEL (or any kernel
# that build-kernel.sh finished) is booted without an initramfs and must reach the root-mount
# panic within 30 s without "KVM internal error". A BIOS-only guest is not enough: on nested
# hosts without VMX exposed, firmware runs fine and Linux dies early ("KVM internal error.
# Suberror: 1"). The verdict is cached in $CACHE/accel.<hash of qemu version + host kernel
# release>; with no kernel built yet the probe cannot run: tcg is printed and nothing is cached.
. "$(dirname "$0")/../scripts/lib.sh"

qemu=${QEMU:-qemu-system-x86_64}
mode=${ACCEL:-auto}
case $mode in
tcg) echo tcg; exit 0 ;;
kvm | auto) ;;
*) die "ACCEL=$mode: expected kvm, tcg or auto" ;;
esac

key=$( ("$qemu" --version | head -n1; uname -r) | sha256sum | cut -c1-16)
cache=$CACHE/accel.$key

# probe [KERNEL]: prints "kvm" or "tcg <reason>"; caches it unless there was no kernel to try.
probe() {
	if [ -f "$cache" ]; then
		cat "$cache"
		return
	fi
	if ! [ -r /dev/kvm ] || ! [ -w /dev/kvm ] || ! : 2>/dev/null <>/dev/kvm; then
		echo "tcg /dev/kvm is missing or cannot be opened" | tee "$cache"
		return
	fi
	local kernel=${1:-} log rc verdict
	if [ -z "$kernel" ]; then
		kernel=$(ls -t "$TREE"/build-*/bas.ok 2>/dev/null | grep -v -- '-arm64/bas.ok$' | head -n1 || true)
		[ -n "$kernel" ] && kernel=$(dirname "$kernel")/arch/x86/boot/bzImage
	fi
	if [ -z "$kernel" ] || [ ! -f "$kernel" ]; then
		echo "tcg no kernel built yet to probe KVM with"
		return
	fi
	note "probing KVM with $kernel"
	log=$(mktemp)
	# QEMU aborts on some KVM failures: the inner shell keeps bash's "Aborted" note quiet.
	rc=$( (timeout 30 "$qemu" -machine pc -accel kvm -cpu host -m 256M -smp 1 \
		-nodefaults -nographic -monitor none -no-reboot -serial "file:$log.con" \
		-kernel "$kernel" -append "console=ttyS0 panic=-1" </dev/null >"$log" 2>&1
		echo $?) 2>/dev/null)
	cat "$log.con" >>"$log" 2>/dev/null || true
	if grep -q 'KVM internal error' "$log"; then
		verdict="tcg $(grep -m1 -o 'KVM internal error[^,]*' "$log" | tr -d '\r')"
	elif grep -q -E 'VFS: Unable to mount root|Kernel panic|Run /init' "$log"; then
		verdict=kvm
	elif [ "$rc" = 124 ]; then
		verdict="tcg a KVM guest did not reach the root mount within 30 s"
	else
		verdict="tcg a KVM guest failed (qemu exit $rc): $(grep -m1 -v '^$' "$log" | tr -d '\r' | cut -c1-120)"
	fi
	rm -f "$log" "$log.con"
	echo "$verdict" | tee "$cache"
}

verdict=$(with_lock accel probe "${1:-}")
accel=${verdict%% *}
if [ "$mode" = kvm ] && [ "$accel" != kvm ]; then
	die "ACCEL=kvm: KVM guests fail on this machine (${verdict#tcg }); use ACCEL=tcg or leave ACCEL unset"
fi
echo "$accel"
