#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Print the path of Debian's linux-source-6.1 tree, unpacking it under
# the cache (RDMACHAN_CACHE, default ~/.cache/rdmachan) when it is not
# there yet or the package has changed.  Used for checkpatch.pl, and for
# reading the RTRS/RNBD/nvme-rdma anchors.
set -eu

cache=${RDMACHAN_CACHE:-$HOME/.cache/rdmachan}
tarball=/usr/src/linux-source-6.1.tar.xz
[ -f "$tarball" ] || {
	echo "kernel-source.sh: $tarball missing (run: make deps)" >&2
	exit 1
}
version=$(dpkg-query -W -f='${Version}' linux-source-6.1)
dir=$cache/linux-source-6.1
stamp=$dir/.rdmachan-unpacked

# Callers may run at once (make check's static checks and the debug
# kernel's build beside them): one unpacks, under a lock, the others
# wait for it and find the stamp.  Two tars into one directory failed
# with "Directory renamed before its status could be extracted".
mkdir -p "$cache"
exec 9> "$cache/linux-source-6.1.lock"
flock 9
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$version" ]; then
	rm -rf "$dir"
	tar -C "$cache" -xf "$tarball"
	echo "$version" > "$stamp"
fi
flock -u 9
exec 9>&-
echo "$dir"
