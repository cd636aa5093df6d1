#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# qemu/qemu-run.sh's verdict and its second boot, against a fake QEMU: a kernel that fails
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
pass) echo "[init] running /tests/run"; printf 'ok 1 a\r\n' >"$result"; echo "bas-verdict: success" >>"$result" ;;
fail) echo "[init] running /tests/run"; echo "bas-verdict: failure: 1 of 3 checks" >"$result" ;;
forged)
	# The plan writes a verdict of its own; /init's, the last line, is the one.
	echo "[init] running /tests/run"
	printf 'bas-verdict: success\nnot ok 1 a\nbas-verdict: failure: 1 of 1 checks\n' >"$result" ;;
esac
QEMU
chmod +x "$tmp/qemu"
: >"$tmp/bzImage"
: >"$tmp/initrd"

# run PLAN [ACCEL]: qemu-run.sh under the fake QEMU, ACCEL=tcg unless given (not the caller's:
# make check ACCEL=kvm exports it); sets rc, out (its stdout and stderr), boots.
run() {
	rm -rf "$tmp/out" "$tmp/boots"
	rc=0
	out=$(FAKE_PLAN="$1" FAKE_BOOTS=$tmp/boots QEMU=$tmp/qemu ACCEL=${2:-tcg} CACHE=$tmp/cache \
		"$top/qemu/qemu-run.sh" --kernel "$tmp/bzImage" --initrd "$tmp/initrd" \
		--out "$tmp/out" 2>&1) || rc=$?
	boots=$(cat "$tmp/boots" 2>/dev/null || echo 0)
}

run pass
result "$([ "$rc" = 0 ] && [ "$boots" = 1 ] && echo 1)" "a passing run boots once" "rc $rc, $boots boots"
result "$([ "$(cat "$tmp/out/ktap")" = "ok 1 a" ] && echo 1)" \
	"the plan's KTAP, from the result device, is in DIR/ktap without the verdict" "$(cat "$tmp/out/ktap")"

run forged
ok=$([ "$rc" = 1 ] && grep -q "^FAIL: guest reported: 1 of 1 checks" <<<"$out" &&
	[ "$(cat "$tmp/out/ktap")" = "not ok 1 a" ] && echo 1)
result "$ok" "the last verdict line is the verdict: a plan cannot forge an earlier one" "rc $rc: $out"

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

# The whole command line of each machine, extra kernel arguments last (the kcsan stress's
# panic_on_warn=0 must come after arm64's panic_on_warn=1).
q="timeout --foreground 600 $tmp/qemu"
files="-kernel $tmp/bzImage -initrd $tmp/initrd"
env -u ARCH FAKE_PLAN=pass FAKE_BOOTS=$tmp/boots QEMU=$tmp/qemu ACCEL=tcg CACHE=$tmp/cache \
	"$top/qemu/qemu-run.sh" --kernel "$tmp/bzImage" --initrd "$tmp/initrd" --out "$tmp/out" \
	-- panic_on_warn=0 >/dev/null 2>&1 || true
want="$q -machine pc -accel tcg,thread=multi -cpu max -smp 2 -m 1G -nodefaults -nographic -monitor none"
want+=" -no-reboot -serial stdio -serial file:$tmp/out/result $files"
want+=" -append panic=-1 oops=panic softlockup_panic=1 panic_on_warn=0"
got=$(cat "$tmp/out/cmdline")
result "$([ "$got" = "$want" ] && echo 1)" "x86_64: pc machine, verdict on the second UART" "got: $got"

rm -rf "$tmp/out" "$tmp/boots"
ARCH=arm64 FAKE_PLAN=pass FAKE_BOOTS=$tmp/boots QEMU=$tmp/qemu ACCEL=tcg CACHE=$tmp/cache \
	"$top/qemu/qemu-run.sh" --kernel "$tmp/bzImage" --initrd "$tmp/initrd" --out "$tmp/out" \
	-- panic_on_warn=0 >"$tmp/arm.out" 2>&1 || true
want="$q -machine virt,gic-version=3 -accel tcg,thread=multi -cpu max,pauth-impdef=on -smp 2 -m 1G"
want+=" -nodefaults -nographic -monitor none -no-reboot -serial stdio -device virtio-serial-device"
want+=" -chardev file,id=result,path=$tmp/out/result -device virtconsole,chardev=result $files"
want+=" -append console=ttyAMA0 panic_on_warn=1 panic=-1 oops=panic softlockup_panic=1 panic_on_warn=0"
got=$(cat "$tmp/out/cmdline")
result "$([ "$got" = "$want" ] && [ "$(cat "$tmp/boots")" = 1 ] && echo 1)" \
	"ARCH=arm64: virt machine, PL011 console, verdict on the virtio console (hvc0), one boot" \
	"got: $got; $(cat "$tmp/arm.out")"

ARCH=arm64 run pass kvm
ok=$([ "$rc" = 1 ] && [ "$out" = "qemu-run.sh: error: ACCEL=kvm: ARCH=arm64 runs under TCG only (ACCEL=tcg or auto)" ] && echo 1)
result "$ok" "ARCH=arm64 refuses ACCEL=kvm in one line" "rc $rc: $out"

exit $((fails > 0))
