#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# build-initramfs.sh KVER OUTPUT [EXTRA_MODULE_DIR]
#
# Build the test VM's initramfs (an uncompressed cpio archive): busybox,
# the Debian kernel's RDMA and veth modules with their dependencies, the
# rdmachan module(s), the rdmachan tool and test helpers, iproute2,
# rdma-core and perftest tools with their shared libraries, the rxe verbs
# provider, and the guest test scripts.  The tree is merged-/usr like
# Debian 12.
#
# RDMACHAN_KERNEL=debug: for the debug test kernel of
# scripts/test-kernel.sh instead (KVER is its release): its modules,
# rdmachan.ko and rdmachan_kunit.ko built against it by
# tests/kernel/build-modules.sh, and the guest scripts of the debug tier.
set -euo pipefail

KVER=$1
OUT=$2
TOP=$(cd "$(dirname "$0")/../.." && pwd)
MODDIR=/lib/modules/$KVER
TOOL_BIN=${RDMACHAN_TOOL:-$TOP/userspace-tool/rdmachan}
WORK=$(mktemp -d)
ROOT=$WORK/root
trap 'rm -rf "$WORK"' EXIT

# --- Alternate kernel (RDMACHAN_KERNEL=debug) -------------------------------
# MODBASE: where the kernel's /lib/modules lives on this machine ("" for
# the installed Debian kernel); OURKOS: where our .ko files come from:
# RDMACHAN_KOS, .ko files built for KVER already (tests/run-all.sh for
# Debian's second kernel, tests/run-debug.sh for the debug kernel), else
# the checkout's (stock) or a build here (debug).
MODBASE=
MODPROBE_D=()
OURKOS=${RDMACHAN_KOS:-}
case "${RDMACHAN_KERNEL:-stock}" in
stock)
	[ -n "$OURKOS" ] || OURKOS=$TOP/module
	;;
debug)
	TKDIR=$("$TOP/scripts/test-kernel.sh" --print-dir) || exit 1
	[ "$(cat "$TKDIR/kernelrelease")" = "$KVER" ] || {
		echo "build-initramfs: KVER $KVER is not the debug kernel's ($(cat "$TKDIR/kernelrelease"))" >&2
		exit 1
	}
	MODBASE=$TKDIR/modroot
	MODPROBE_D=(-d "$MODBASE")
	MODDIR=$MODBASE/lib/modules/$KVER
	if [ -z "$OURKOS" ]; then
		OURKOS=$TOP/tests/vm/out/debug-modules
		"$TOP/tests/kernel/build-modules.sh" "$TKDIR/build" "$OURKOS" >/dev/null
	fi
	;;
*) echo "build-initramfs: RDMACHAN_KERNEL must be stock or debug" >&2; exit 2 ;;
esac
# ---------------------------------------------------------------------------

# Kernel modules the tests load, resolved with their dependencies; siw
# (soft-iWARP) only where the kernel has it (the debug kernel, not
# Debian's).
KMODS="rdma_rxe rdma_ucm ib_uverbs ib_umad veth crc32_generic null_blk"
# The block channel's cases (blk_*.sh) add configfs (null_blk devices of
# any size), loop and ext4 with crc32c (Debian's kernel; the debug kernel
# has configfs built in and neither loop nor ext4).
# The block rows of make bench (tests/bench/bench_blk.sh) compare with
# nvme-rdma against nvmet-rdma (Debian's kernel).
# sch_netem: a lossy wire for the retransmission cases (blk_lossy.sh).
# dm-mod, dm-delay: device-mapper devices whose table is suspended or
# slow, holding bios on the server's device (blk_drain.sh, blk_fence.sh).
# virtio_net, virtio_blk: the two-VM fixture's link and the server's disk
# (tests/vm/run-pair.sh); built in, or absent, on the debug kernel.
OPTIONAL_KMODS="siw configfs loop ext4 crc32c_generic nvme-rdma nvme-fabrics nvmet nvmet-rdma sch_netem virtio_pci virtio_net virtio_blk dm-mod dm-delay"

# Programs copied with their shared libraries (util-linux's losetup:
# busybox's cannot give a loop device 4 KiB sectors, cpu_hotplug.sh).
PROGRAMS="
	/usr/bin/kmod
	/usr/sbin/ip /usr/bin/rdma
	/usr/bin/ibv_devinfo /usr/bin/ibv_devices /usr/bin/rping /usr/bin/cmtime
	/usr/bin/udaddy /usr/bin/mckey
	/usr/bin/ib_send_bw /usr/bin/ib_send_lat /usr/bin/ib_write_bw
	/usr/bin/ib_write_lat /usr/bin/ib_read_bw /usr/bin/ib_read_lat
	/usr/bin/ib_atomic_bw /usr/bin/jq
	/usr/bin/fio /usr/sbin/mkfs.ext4 /usr/sbin/e2fsck /usr/sbin/blkdiscard
	/usr/sbin/blockdev /usr/bin/dd /usr/bin/cmp /usr/sbin/nvme
	/usr/sbin/tc /usr/sbin/dmsetup /usr/sbin/losetup
	/usr/bin/udevadm
"
# RDMACHAN_EXTRA_PROGRAMS: more programs for a run, e.g. /usr/bin/perf
# to profile a run of tests/bench/run-bench.sh.
PROGRAMS="$PROGRAMS ${RDMACHAN_EXTRA_PROGRAMS:-}"
# Loaded with dlopen(), so ldd of the programs does not find them.
DLOPENED="
	/usr/lib/x86_64-linux-gnu/libibverbs/librxe-rdmav34.so
	/usr/lib/x86_64-linux-gnu/libibverbs/libsiw-rdmav34.so
	/lib/x86_64-linux-gnu/libgcc_s.so.1
"

mkdir -p "$ROOT"/usr/{bin,sbin,lib,lib64,libexec/rdmachan} \
	"$ROOT"/{dev,proc,sys,tmp,run,etc/libibverbs.d,tests,root}
for d in bin sbin lib lib64; do
	ln -s "usr/$d" "$ROOT/$d"
done

# copy_file SRC: copy a file to the same path under ROOT, resolving the
# merged-/usr aliases (/lib -> /usr/lib) so that symlinks stay valid.
copy_file() {
	local src real dst
	src=$1
	real=$(readlink -f "$src")
	dst=$ROOT$(printf '%s' "$real" | sed -E 's#^/(bin|sbin|lib|lib64)/#/usr/\1/#')
	[ -e "$dst" ] && return 0
	mkdir -p "$(dirname "$dst")"
	cp "$real" "$dst"
	# Keep the name the loader asks for when it is a symlink.
	local want
	want=$ROOT$(printf '%s' "$src" | sed -E 's#^/(bin|sbin|lib|lib64)/#/usr/\1/#')
	if [ "$want" != "$dst" ] && [ ! -e "$want" ]; then
		mkdir -p "$(dirname "$want")"
		ln -s "$real" "$want"
	fi
}

copy_with_libs() {
	local f lib
	copy_file "$1"
	for lib in $(ldd "$1" 2>/dev/null | grep -o '/[^ ]*' || true); do
		copy_file "$lib"
	done
}

for p in $PROGRAMS "$TOOL_BIN"; do
	[ -e "$p" ] || { echo "build-initramfs: missing $p" >&2; exit 1; }
done
for p in $PROGRAMS; do
	copy_with_libs "$p"
done
for p in $DLOPENED; do
	[ -e "$p" ] && copy_with_libs "$p"
done
cp /etc/libibverbs.d/rxe.driver "$ROOT/etc/libibverbs.d/"
[ -e /etc/mke2fs.conf ] && cp /etc/mke2fs.conf "$ROOT/etc/"
[ -e /etc/libibverbs.d/siw.driver ] && cp /etc/libibverbs.d/siw.driver "$ROOT/etc/libibverbs.d/"

# kmod is a multi-call binary.
for t in modprobe insmod rmmod lsmod modinfo depmod; do
	ln -sf ../bin/kmod "$ROOT/usr/sbin/$t"
done

# Our tool and test helpers.
cp "$TOOL_BIN" "$ROOT/usr/bin/rdmachan"
for h in "$TOP"/tests/vm/helpers/*; do
	[ -x "$h" ] && [ -f "$h" ] && cp "$h" "$ROOT/usr/libexec/rdmachan/"
done

# What "make install" puts outside /lib/modules (make install-data), the
# way an installed host has it: the tool in /usr/local/sbin, the udev
# rules, the systemd unit, the sysusers.d group (made here as
# systemd-sysusers would: admin.sh).  udevd is udevadm by another name.
make -s -C "$TOP" install-data DESTDIR="$ROOT" > "$WORK/install.log" 2>&1 || {
	cat "$WORK/install.log" >&2
	exit 1
}
mkdir -p "$ROOT/usr/lib/systemd"
ln -s ../../bin/udevadm "$ROOT/usr/lib/systemd/systemd-udevd"

# busybox last: its applets only where no real program took the name.
cp /bin/busybox "$ROOT/usr/bin/busybox"
for a in $(/bin/busybox --list); do
	[ -e "$ROOT/usr/bin/$a" ] || [ -e "$ROOT/usr/sbin/$a" ] ||
		ln -s busybox "$ROOT/usr/bin/$a"
done

# Kernel modules: the dependency closure of KMODS, then ours, then depmod.
GUEST_MODDIR=/lib/modules/$KVER
mkdir -p "$ROOT$GUEST_MODDIR"
for m in $OPTIONAL_KMODS; do
	modprobe "${MODPROBE_D[@]}" -S "$KVER" --show-depends "$m" >/dev/null 2>&1 &&
		KMODS="$KMODS $m"
done
for m in $KMODS; do
	modprobe "${MODPROBE_D[@]}" -S "$KVER" --show-depends "$m" |
		awk '$1 == "insmod" { print $2 }'
done | sort -u | while read -r ko; do
	ko=${ko#"$MODBASE"}
	mkdir -p "$ROOT$(dirname "$ko")"
	cp "$MODBASE$ko" "$ROOT$ko"
done
cp "$MODDIR"/modules.order "$MODDIR"/modules.builtin* "$ROOT$GUEST_MODDIR/"
# ours: the checkout's, where make install-modules puts them
# (updates/rdmachan/); modules built elsewhere (another kernel's, the
# debug kernel's) in extra/
if [ "$OURKOS" = "$TOP/module" ]; then
	make -s -C "$TOP" install-modules DESTDIR="$ROOT" KVER="$KVER" \
		> "$WORK/install-modules.log" 2>&1 || {
		cat "$WORK/install-modules.log" >&2
		exit 1
	}
fi
mkdir -p "$ROOT$GUEST_MODDIR/extra"
[ "$OURKOS" = "$TOP/module" ] ||
	find "$OURKOS" -name '*.ko' -exec cp {} "$ROOT$GUEST_MODDIR/extra/" \;
if [ -n "${3:-}" ]; then
	find "$3" -name '*.ko' -exec cp {} "$ROOT$GUEST_MODDIR/extra/" \;
fi
# The tree uses /lib -> usr/lib; depmod wants the modules under the base.
mkdir -p "$ROOT/usr/lib/modules"
depmod -b "$ROOT" "$KVER"

# Guest scripts.
cp "$TOP/tests/vm/init" "$ROOT/init"
chmod +x "$ROOT/init"
cp "$TOP/tests/vm/lib.sh" "$ROOT/tests/"
cp -r "$TOP/tests/vm/lib" "$ROOT/tests/"
cp -r "$TOP/tests/vm/cases" "$ROOT/tests/"
# Guest halves of the benchmarks (tests/bench/run-bench.sh), not tests.
cp "$TOP"/tests/bench/bench_*.sh "$ROOT/tests/cases/"
if [ "${RDMACHAN_KERNEL:-stock}" = debug ]; then
	cp "$TOP"/tests/kernel/cases/*.sh "$ROOT/tests/cases/"
	mkdir -p "$ROOT/tests/kunit"
	cp "$TOP/tests/kunit/ktap.awk" "$ROOT/tests/kunit/"
fi
printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/:/bin/false\n' > "$ROOT/etc/passwd"
printf 'root:x:0:\nnogroup:x:65534:\n' > "$ROOT/etc/group"
awk '$1 == "g" { printf "%s:x:%d:\n", $2, 110 + n++ }' \
	"$ROOT"/usr/local/lib/sysusers.d/rdmachan.conf >> "$ROOT/etc/group"

(cd "$ROOT" && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc --quiet) > "$OUT.tmp"
mv "$OUT.tmp" "$OUT"
