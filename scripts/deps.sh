#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# What make check, make bench and the rest need on Debian or Ubuntu, installed with apt
# (make deps, as root; .ci/run calls it on a fresh machine). --list prints the packages.
. "$(dirname "$0")/lib.sh"

# gdb: make kunit-exhaustive; gnuplot-nox: make bench's plots; rsync: headers_install;
# kmod: depmod and modinfo; debian-archive-keyring: the trixie-backports kernel source.
PKGS=(make gcc libc6-dev git python3 perl bc bison flex libelf-dev libssl-dev
	cpio xz-utils kmod rsync ccache busybox-static qemu-system-x86 gdb gnuplot-nox
	ca-certificates debian-archive-keyring)

case "${1:-}" in
--list) printf '%s\n' "${PKGS[@]}"; exit 0 ;;
'') ;;
*) die "unknown argument '$1' (usage: deps.sh [--list])" ;;
esac
[ "$(id -u)" = 0 ] || die "installing packages needs root: run sudo make deps (deps.sh --list prints them)"
command -v apt-get >/dev/null || die "no apt-get: install these by hand: ${PKGS[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q --no-install-recommends "${PKGS[@]}" >/dev/null
echo "deps.sh: installed ${#PKGS[@]} packages"
