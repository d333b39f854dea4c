#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Install every Debian package rdmachan needs to build, check and test,
# idempotently: nothing is done when all are present; otherwise one
# "apt-get update" and one install by name.
set -eu

PACKAGES="
	build-essential bc bison flex kmod cpio patch
	libelf-dev libssl-dev
	linux-image-amd64 linux-headers-amd64 linux-source-6.1
	linux-image-6.12-amd64 linux-headers-6.12-amd64
	qemu-system-x86 busybox-static
	iproute2 rdma-core ibverbs-utils ibverbs-providers rdmacm-utils perftest
	sparse jq python3 xz-utils dkms
	python3-docutils groff-base man-db
	fio e2fsprogs nvme-cli iperf3 dmsetup
"

missing=
for p in $PACKAGES; do
	status=$(dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null || true)
	case "$status" in
	ii*) ;;
	*) missing="$missing $p" ;;
	esac
done

if [ -z "$missing" ]; then
	echo "deps: all packages present"
	exit 0
fi

if [ "$(id -u)" != 0 ]; then
	echo "deps: missing packages:$missing" >&2
	echo "deps: run 'make deps' as root to install them" >&2
	exit 1
fi

echo "deps: installing:$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
# shellcheck disable=SC2086
apt-get install -y -q --no-install-recommends $missing
