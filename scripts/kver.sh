#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Print the release (e.g. 6.1.0-56-amd64) of the kernel rdmachan is built
# for and tested on:
#
#   1. $KVER, when set ("make KVER=6.12.117+deb12-amd64", which the top
#      Makefile exports, so that every script under it sees the same);
#      its headers must be installed (/lib/modules/$KVER/build);
#   2. else the running kernel (uname -r), when its headers are installed;
#   3. else the kernel of Debian's linux-image-amd64 (make deps installs
#      it and its headers).
#
# kver.sh --series 6.12: the release of Debian's linux-image-6.12-amd64
# instead (the second kernel make check tests, tests/run-all.sh).
#
# Documentation/admin-guide.rst, "Supported kernels".
set -eu

# dep_release PACKAGE: the kernel release a Debian metapackage depends on:
# "linux-image-6.1.0-56-amd64 (= 6.1.192-2)" -> 6.1.0-56-amd64 (of a
# signed/unsigned alternative list, "a | b", the first); it must be
# installed
dep_release() {
	dep=$(dpkg-query -W -f='${Depends}' "$1" 2>/dev/null) || {
		echo "kver.sh: $1 is not installed (run: make deps)" >&2
		exit 1
	}
	kver=$(printf '%s\n' "$dep" | sed -n 's/^linux-image-\([^ ,|]*\).*/\1/p' |
		sed 's/-unsigned$//')
	if [ -z "$kver" ] || [ ! -e "/boot/vmlinuz-$kver" ]; then
		echo "kver.sh: cannot find the kernel of $1 ($dep)" >&2
		exit 1
	fi
	echo "$kver"
}

if [ "${1:-}" = --series ]; then
	dep_release "linux-image-$2-amd64"
	exit 0
fi

if [ -n "${KVER:-}" ]; then
	[ -d "/lib/modules/$KVER/build" ] || {
		echo "kver.sh: KVER=$KVER has no headers (/lib/modules/$KVER/build): apt-get install linux-headers-$KVER" >&2
		exit 1
	}
	echo "$KVER"
	exit 0
fi

running=$(uname -r)
if [ -d "/lib/modules/$running/build" ]; then
	echo "$running"
	exit 0
fi

dep_release linux-image-amd64
