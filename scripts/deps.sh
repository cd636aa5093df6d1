#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# What make check, make bench and the rest need on Debian or Ubuntu, installed with apt
# (make deps: as root, or through sudo; .ci/run calls it on a fresh machine). --list prints
# the packages. ARCH=arm64 adds the cross compiler, its static libc and QEMU for ARCH=arm64.
BAS_ARCH_OK=1 # ARCH=arm64 adds packages below
. "$(dirname "$0")/lib.sh"

# gdb: make kunit-exhaustive; gnuplot-nox: make bench's plots; rsync: headers_install;
# kmod: depmod and modinfo; debian-archive-keyring: the trixie-backports kernel source.
PKGS=(make gcc libc6-dev git python3 perl bc bison flex libelf-dev libssl-dev
	cpio xz-utils kmod rsync ccache busybox-static qemu-system-x86 gdb gnuplot-nox
	ca-certificates debian-archive-keyring)
[ "$BAS_ARCH" = x86_64 ] || PKGS+=(gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-system-arm) # BAS_ARCH: lib.sh

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
