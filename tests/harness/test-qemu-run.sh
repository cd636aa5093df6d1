#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# scripts/qemu-run.sh's verdict and its second boot, against a fake QEMU: a kernel that fails
# before /init printed a line is booted once more; a failure after /init started is not. With
# ARCH=arm64: the virt machine, its console, and the verdict through the virtio console.
. "$(dirname "$0")/../lib.sh"

# The fake QEMU plays, boot after boot, the scripts in $FAKE_PLAN (one word per boot):
# early (an Oops before /init), pass (/init runs, verdict success), fail (/init runs,
# verdict failure). It counts its boots in $FAKE_BOOTS.
cat >"$tmp/qemu" <<'QEMU'
#!/bin/bash
result=
for a in "$@"; do
	case $a in
	file:*) result=${a#file:} ;;
	file,id=result,path=*) result=${a#file,id=result,path=} ;;
	esac
done
boots=$(($(cat "$FAKE_BOOTS" 2>/dev/null || echo 0) + 1))
echo "$boots" >"$FAKE_BOOTS"
set -- $FAKE_PLAN
shift $((boots - 1))
echo "[    0.000000] Linux version 7.3.4 (fake)"
case ${1:-none} in
early)
	echo "[    0.720000] Oops: int3: 0000 [#1] SMP"
	echo "[    0.720001] Kernel panic - not syncing: Fatal exception"
	exit 0 ;;
pass) echo "[init] running /tests/run"; echo success >"$result" ;;
fail) echo "[init] running /tests/run"; echo "failure: 1 of 3 checks" >"$result" ;;
esac
QEMU
chmod +x "$tmp/qemu"
: >"$tmp/bzImage"
: >"$tmp/initrd"

# run PLAN: qemu-run.sh under the fake QEMU; sets rc, out (its stdout and stderr), boots.
run() {
	rm -rf "$tmp/out" "$tmp/boots"
	rc=0
	out=$(FAKE_PLAN="$1" FAKE_BOOTS=$tmp/boots QEMU=$tmp/qemu ACCEL=${ACCEL:-tcg} CACHE=$tmp/cache \
		"$top/scripts/qemu-run.sh" --kernel "$tmp/bzImage" --initrd "$tmp/initrd" \
		--out "$tmp/out" 2>&1) || rc=$?
	boots=$(cat "$tmp/boots" 2>/dev/null || echo 0)
}

run pass
result "$([ "$rc" = 0 ] && [ "$boots" = 1 ] && echo 1)" "a passing run boots once" "rc $rc, $boots boots"

run "early pass"
ok=$([ "$rc" = 0 ] && [ "$boots" = 2 ] && [ -f "$tmp/out/console.boot1.log" ] &&
	grep -q "failed before /init ran (kernel splat: .*Oops: int3" <<<"$out" && echo 1)
result "$ok" "a kernel that dies before /init is booted once more" "rc $rc, $boots boots: $out"

run "early early pass"
ok=$([ "$rc" = 1 ] && [ "$boots" = 2 ] && grep -q "^FAIL: kernel splat: .*Oops: int3" <<<"$out" && echo 1)
result "$ok" "a second early death is the verdict" "rc $rc, $boots boots: $out"

run "fail pass"
ok=$([ "$rc" = 1 ] && [ "$boots" = 1 ] && [ ! -f "$tmp/out/console.boot1.log" ] &&
	grep -q "^FAIL: guest reported: 1 of 3 checks" <<<"$out" && echo 1)
result "$ok" "a failure after /init started is not retried" "rc $rc, $boots boots: $out"

# has WORD...: the command line of the last run has every WORD (as a word of its own).
has() {
	local w
	for w; do
		grep -q -- " $w\( \|$\)" "$tmp/out/cmdline" || return 1
	done
}
ok=$(has -machine pc -serial stdio "file:$tmp/out/result" panic=-1 bas.result=/dev/ttyS1 && echo 1)
result "$ok" "x86_64: pc machine, verdict on the second UART (bas.result=/dev/ttyS1)" "$(cat "$tmp/out/cmdline")"

ARCH=arm64 run pass
ok=$([ "$rc" = 0 ] && [ "$boots" = 1 ] &&
	has -machine virt,gic-version=3 -accel tcg,thread=multi -cpu max,pauth-impdef=on -serial stdio \
		virtio-serial-device "file,id=result,path=$tmp/out/result" virtconsole,chardev=result \
		console=ttyAMA0 panic_on_warn=1 bas.result=/dev/hvc0 &&
	! has "file:$tmp/out/result" && ! has reboot=t && echo 1)
result "$ok" "ARCH=arm64: virt machine, PL011 console, verdict on the virtio console (hvc0)" \
	"rc $rc, $boots boots: $(cat "$tmp/out/cmdline")"

ARCH=arm64 ACCEL=kvm run pass
ok=$([ "$rc" = 1 ] && [ "$out" = "qemu-run.sh: error: ACCEL=kvm: ARCH=arm64 runs under tcg only" ] && echo 1)
result "$ok" "ARCH=arm64 refuses ACCEL=kvm in one line" "rc $rc: $out"

exit $((fails > 0))
