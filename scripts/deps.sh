#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# What make check, make bench and the rest need on Debian or Ubuntu, installed with apt
# (make deps: as root, or through sudo; .ci/run calls it on a fresh machine). --list prints
# the packages. They are the same for ARCH=arm64: make check runs the arm64 KUnit plain
# flavour, so the cross compiler, its static libc and QEMU for arm64 are always among them.
BAS_ARCH_OK=1 # make deps ARCH=arm64 is accepted; the list does not depend on it
. "$(dirname "$0")/lib.sh"

# gdb: make kunit-exhaustive; gnuplot-nox: make bench's plots; rsync: headers_install;
# kmod: depmod and modinfo; debian-archive-keyring: the trixie-backports kernel source;
# gcc-aarch64-linux-gnu, libc6-dev-arm64-cross, qemu-system-arm: the arm64 guests;
# clang, googletest (its sources), dpkg-dev (dpkg-source), patch: AOSP's binder tests; lcov:
# make coverage (and its host test).
PKGS=(make gcc libc6-dev git python3 perl bc bison flex libelf-dev libssl-dev
	cpio xz-utils kmod rsync ccache busybox-static qemu-system-x86 gdb gnuplot-nox
	ca-certificates debian-archive-keyring gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-system-arm
	clang googletest dpkg-dev patch lcov)

case "${1:-}" in
--list) printf '%s\n' "${PKGS[@]}"; exit 0 ;;
'') ;;
*) die "unknown argument '$1' (usage: deps.sh [--list])" ;;
esac
command -v apt-get >/dev/null || die "no apt-get: install these by hand: ${PKGS[*]}"
# As root (CI) apt-get runs as is; as a user, through sudo, which asks for the password.
sudo=()
if [ "$(id -u)" != 0 ]; then
	command -v sudo >/dev/null || die "installing packages needs root and there is no sudo: run make deps as root (deps.sh --list prints the packages)"
	sudo=(sudo DEBIAN_FRONTEND=noninteractive)
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -q
"${sudo[@]}" apt-get install -y -q --no-install-recommends "${PKGS[@]}" >/dev/null
echo "deps.sh: installed ${#PKGS[@]} packages"
