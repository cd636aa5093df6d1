#!/bin/bash
# qemu-wrapper.sh DIR: write DIR/qemu-system-x86_64, a wrapper that kunit.py runs
# instead of QEMU. kunit.py always passes "-accel kvm -accel hvf -accel tcg"; where
# /dev/kvm opens but KVM guests die (nested virtualisation without VMX), QEMU would
# pick KVM and the guest would die. The wrapper drops kunit.py's -accel options and
# uses the accelerator that scripts/accel.sh chose.
. "$(dirname "$0")/lib.sh"

dir=${1:?usage: qemu-wrapper.sh DIR}
accel=$("$BAS_TOP/scripts/accel.sh")
case $accel in
kvm) accel_args="-accel kvm -cpu host" ;;
tcg) accel_args="-accel tcg,thread=multi -cpu max" ;;
*) die "unexpected accelerator '$accel'" ;;
esac
qemu=$(command -v qemu-system-x86_64) || die "qemu-system-x86_64 not found (apt-get install qemu-system-x86)"
mkdir -p "$dir"
cat >"$dir/qemu-system-x86_64.tmp" <<WRAP
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
chmod +x "$dir/qemu-system-x86_64.tmp"
mv "$dir/qemu-system-x86_64.tmp" "$dir/qemu-system-x86_64"
