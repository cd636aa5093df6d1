#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Bad input to make aosp-check's build (aosp/aosp-build.sh) and to its known-failures list: a
# source package the archive does not give, a patch of aosp/patches that does not apply, a
# malformed known-failures line; each a one-line error, and no stamp left in the cache. apt-get
# is a stand-in here: the tests need no network.
. "$(dirname "$0")/../lib.sh"

export CACHE=$tmp/cache
mkdir -p "$tmp/fakebin" "$tmp/fn/libs/binder" "$tmp/fn/libs/binderthreadstate" "$tmp/fn/cmds/servicemanager"
# FAKE: what the stand-in's "source" gives: nothing, or a frameworks-native whose
# IPCThreadState.cpp is not Android 10's, and a .dsc of android-platform-tools.
echo 'int main(void) { return 0; }' >"$tmp/fn/libs/binder/IPCThreadState.cpp"
tar czf "$tmp/fn.tar.gz" -C "$tmp/fn" libs cmds
cat >"$tmp/fakebin/apt-get" <<FAKE
#!/bin/sh
for a; do
	case \$a in
	source) [ "\$FAKE" = none ] || { cp "$tmp/fn.tar.gz" android-platform-frameworks-native_10.0.0+r36.orig.tar.gz
		echo 'Format: 3.0 (quilt)' >android-platform-tools_29.0.6-28.dsc
		: >android-platform-tools_29.0.6.orig.tar.gz; : >android-platform-tools_29.0.6-28.debian.tar.xz; }
		echo "E: Failed to fetch some archives."; exit 100 ;;
	esac
done
exit 0
FAKE
chmod +x "$tmp/fakebin/apt-get"
expect_fail "aosp-build: a source package apt-get does not fetch" \
	"apt-get source did not fetch android-platform-frameworks-native_10.0.0+r36.orig.tar.gz" \
	env PATH="$tmp/fakebin:$PATH" FAKE=none "$top/aosp/aosp-build.sh"
expect_fail "aosp-build: a patch of aosp/patches that does not apply" \
	"aosp/patches/[a-z-]*.patch does not apply to android-platform-frameworks-native 1:10.0.0+r36-1" \
	env PATH="$tmp/fakebin:$PATH" FAKE=bad "$top/aosp/aosp-build.sh"
expect_fail "aosp-build: arguments are refused" "usage: aosp-build.sh" "$top/aosp/aosp-build.sh" x
expect_fail "aosp-build: ARCH=arm64 says why it is not built" "built for x86_64 only" \
	env ARCH=arm64 "$top/aosp/aosp-build.sh"
result "$([ -z "$(find "$CACHE" -name '*.ok')" ] && echo 1)" "aosp-build: no stamp left in the cache" \
	"$(find "$CACHE" -name '*.ok')"

# A known-failures line without a reason stops aosp-check.sh before anything is built: a copy
# of the scripts it runs, with such a list.
mkdir -p "$tmp/top"
cp -r "$top/scripts" "$top/aosp" "$tmp/top/"
echo 'BinderLibTest.PassFile' >>"$tmp/top/aosp/known-failures"
expect_fail "aosp-check: a known-failures line without its reason" \
	"aosp/known-failures: expected 'SUITE.CASE REASON', got 'BinderLibTest.PassFile'" \
	env PATH="$tmp/fakebin:$PATH" FAKE=none "$tmp/top/aosp/aosp-check.sh"
echo "# $n tests, $fails failed"
[ "$fails" = 0 ]
