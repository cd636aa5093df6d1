#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# qemu-wrapper.sh DIR [x86_64|arm64]: write DIR/qemu-system-x86_64 (or, for arm64,
# DIR/qemu-system-aarch64), a wrapper that kunit.py runs instead of QEMU. kunit.py always
# passes "-accel kvm -accel hvf -accel tcg"; where /dev/kvm opens but KVM guests die (nested
# virtualisation without VMX), QEMU would pick KVM and the guest would die. The wrapper
# drops kunit.py's -accel options and uses the accelerator that qemu/accel.sh chose;
# an arm64 guest on this x86_64 host always runs under multi-threaded TCG (kunit.py's
# arm64 configuration passes its own -cpu).
BAS_ARCH_OK=1 # the wrapper is for the arch given as its argument
. "$(dirname "$0")/../scripts/lib.sh"

dir=${1:?usage: qemu-wrapper.sh DIR [x86_64|arm64]}
case ${2:-x86_64} in
x86_64)
	name=qemu-system-x86_64 pkg=qemu-system-x86
	accel=$("$BAS_TOP/qemu/accel.sh")
	;;
arm64) name=qemu-system-aarch64 pkg=qemu-system-arm accel=tcg-arm64 ;;
*) die "unknown architecture '$2' (supported: x86_64, arm64)" ;;
esac
case $accel in
kvm) accel_args="-accel kvm -cpu host" ;;
# la57=off: with 5-level paging a KASAN kernel can report a wild access at boot. On the boot
# CPU identify_cpu() clears boot_cpu_data's feature bits, LA57 included, with interrupts on;
# an interrupt in that window finds pgtable_l5_enabled() false, KASAN's shadow bounds
# computed for 4 levels, and the 5-level direct map (per-CPU data in rcu_is_watching())
# outside them: "BUG: KASAN: wild-memory-access in rcu_is_watching" from cpu_detect(). Seen
# once in three boots of the debug KUnit kernel with two other guests on the host.
tcg) accel_args="-accel tcg,thread=multi -cpu max,la57=off" ;;
tcg-arm64) accel_args="-accel tcg,thread=multi" ;;
*) die "unexpected accelerator '$accel'" ;;
esac
qemu=$(command -v $name) || die "$name not found (apt-get install $pkg)"
mkdir -p "$dir"
cat >"$dir/$name.tmp" <<WRAP
#!/bin/bash
args=()
while [ \$# -gt 0 ]; do
	case \$1 in
	-accel) shift ;;
	*) args+=("\$1") ;;
	esac
	shift
done
exec $qemu $accel_args "\${args[@]}"
WRAP
chmod +x "$dir/$name.tmp"
mv "$dir/$name.tmp" "$dir/$name"
