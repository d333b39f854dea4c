#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Print the release (e.g. 6.1.0-56-amd64) of the Debian kernel image that
# linux-image-amd64 installs: the kernel rdmachan is built for and tested
# on.  Not "uname -r": the build machine may run another kernel.
set -eu

dep=$(dpkg-query -W -f='${Depends}' linux-image-amd64 2>/dev/null) || {
	echo "kver.sh: linux-image-amd64 is not installed (run: make deps)" >&2
	exit 1
}
# "linux-image-6.1.0-56-amd64 (= 6.1.192-2)" -> 6.1.0-56-amd64; a
# signed/unsigned alternative list ("a | b") takes the first.
kver=$(printf '%s\n' "$dep" | sed -n 's/^linux-image-\([^ ,|]*\).*/\1/p' |
	sed 's/-unsigned$//')
if [ -z "$kver" ] || [ ! -e "/boot/vmlinuz-$kver" ]; then
	echo "kver.sh: cannot find the kernel of linux-image-amd64 ($dep)" >&2
	exit 1
fi
echo "$kver"
