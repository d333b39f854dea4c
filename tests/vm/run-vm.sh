#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# run-vm.sh [OPTIONS] --cases a,b,...   run guest test cases, results in --out
# run-vm.sh [OPTIONS] --demo            run the demo, output on this terminal
# run-vm.sh [OPTIONS] --shell           interactive shell on the VM console
#
# Options:
#   --kernel FILE   kernel image (default: the Debian linux-image-amd64 one)
#   --kver KVER     its module release (default: scripts/kver.sh, which
#                   answers $KVER when it is set, as make exports it)
#   --initrd FILE   use this initramfs instead of building one
#   --out DIR       where console.log and results.ktap go (default tests/vm/out/run)
#   --timeout SEC   kill the VM after SEC seconds (default 300)
#   --memory MB     guest memory (default 1024; 1536 on the debug kernel)
#
# For the two-VM fixture (tests/vm/run-pair.sh), which boots two of these:
#   --nic LPORT:RPORT:MAC   a virtio NIC on a point-to-point link to the
#                   other VM: a qemu socket netdev, UDP datagrams between
#                   127.0.0.1:LPORT (this VM) and 127.0.0.1:RPORT (the peer)
#   --ctl PATH      serial port 2 (ttyS2) on the pipes PATH.in (to the
#                   guest) and PATH.out (from it): run-pair.sh's control line
#   --monitor PATH  qemu's monitor on the pipes PATH.in and PATH.out
#   --disk FILE     a virtio disk (raw) on FILE, which outlives the VM
#   --pidfile FILE  qemu writes its pid there
#
# The VM runs under qemu TCG (no KVM) with no network card but --nic's:
# no packet can leave it, or leave 127.0.0.1.  Serial port 0 is the
# console, serial port 1 carries results.
#
# RDMACHAN_QMP=1 gives the VM a QMP socket, --out's qmp.sock, for a look
# at a running VM from outside (e.g. "info virtio-queue-status" through
# human-monitor-command: a stuck link's virtio rings; testing.rst).
#
# RDMACHAN_APPEND adds to the kernel command line (e.g. rdmachan_rdma=siw,
# which the guest's fixture reads).  RDMACHAN_SMP sets the VM's vCPUs
# (default 2; the two-host block bench boots two VMs of one each).
#
# RDMACHAN_KERNEL=debug boots the debug test kernel of scripts/test-kernel.sh
# (build it first) instead of the Debian one: --kernel and --kver default
# to it, and the initramfs carries its modules and the debug-tier scripts.
set -euo pipefail

TOP=$(cd "$(dirname "$0")/../.." && pwd)
# --kver; else the debug kernel's, or scripts/kver.sh's (the exported
# KVER of "make bench KVER=..." among them)
KVER_ARG=
KERNEL=
INITRD=
OUT=$TOP/tests/vm/out/run
TIMEOUT=300
MEMORY=
MODE=
CASES=
DEVICES=()
MONITOR=(-monitor none)

while [ $# -gt 0 ]; do
	case "$1" in
	--kernel) KERNEL=$2; shift ;;
	--kver) KVER_ARG=$2; shift ;;
	--initrd) INITRD=$2; shift ;;
	--out) OUT=$2; shift ;;
	--timeout) TIMEOUT=$2; shift ;;
	--memory) MEMORY=$2; shift ;;
	--cases) MODE=test; CASES=$2; shift ;;
	--nic)
		IFS=: read -r lport rport mac <<< "$2"
		DEVICES+=(-netdev "socket,id=wire,udp=127.0.0.1:$rport,localaddr=127.0.0.1:$lport"
			-device "virtio-net-pci,netdev=wire,mac=$mac")
		shift ;;
	--ctl) DEVICES+=(-chardev "pipe,id=ctl,path=$2"); CTL=1; shift ;;
	--monitor) MONITOR=(-chardev "pipe,id=mon,path=$2" -mon chardev=mon,mode=readline); shift ;;
	--disk) DEVICES+=(-drive "file=$2,if=virtio,format=raw"); shift ;;
	--pidfile) DEVICES+=(-pidfile "$2"); shift ;;
	--demo) MODE=demo ;;
	--shell) MODE=shell ;;
	-h|--help) sed -n '3,/^set -e/{/^set -e/!p}' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "run-vm.sh: unknown argument '$1'" >&2; exit 2 ;;
	esac
	shift
done
[ -n "$MODE" ] || { echo "run-vm.sh: need --cases, --demo or --shell" >&2; exit 2; }

# --- Alternate kernel (RDMACHAN_KERNEL=debug) -------------------------------
EXTRA_APPEND=
case "${RDMACHAN_KERNEL:-stock}" in
stock) ;;
debug)
	TKDIR=$("$TOP/scripts/test-kernel.sh" --print-dir) || exit 1
	KVER=${KVER_ARG:-$(cat "$TKDIR/kernelrelease")}
	[ -n "$KERNEL" ] || KERNEL=$TKDIR/build/arch/x86/boot/bzImage
	# Room for KUnit's KTAP and lockdep/KASAN reports in dmesg.
	EXTRA_APPEND="log_buf_len=4M"
	# kmemleak tracks every allocation (an skb costs it two objects),
	# KASAN keeps freed memory in quarantine: a burst of packets that
	# fits Debian's kernel in 1 GiB did not fit this one (testing.rst,
	# "The debug tier")
	[ -n "$MEMORY" ] || MEMORY=1536
	;;
*) echo "run-vm.sh: RDMACHAN_KERNEL must be stock or debug" >&2; exit 2 ;;
esac
# ---------------------------------------------------------------------------
[ -n "$MEMORY" ] || MEMORY=1024
[ -n "$KVER_ARG" ] || [ "${RDMACHAN_KERNEL:-stock}" = debug ] ||
	KVER_ARG=$("$TOP/scripts/kver.sh")
KVER=${KVER_ARG:-$KVER}
[ -n "$KERNEL" ] || KERNEL=/boot/vmlinuz-$KVER
mkdir -p "$OUT"
if [ -z "$INITRD" ]; then
	INITRD=$TOP/tests/vm/out/initramfs-$KVER.cpio
	"$TOP/tests/vm/build-initramfs.sh" "$KVER" "$INITRD"
fi

# cryptomgr.notests: Debian's kernels test each crypto algorithm as it
# registers, at every boot; on a loaded host such a test once held a
# vCPU for minutes (soft lockup in cryptomgr_test) and the VM never
# reached init.  Those tests test nothing of ours.
APPEND="console=ttyS0 panic=-1 quiet cryptomgr.notests=1 rdmachan_mode=$MODE"
[ -n "$CASES" ] && APPEND="$APPEND rdmachan_cases=$CASES"
# The guest dumps its kernel log and stuck tasks shortly before the
# timeout kills it (tests/vm/init), so that a hang leaves its trace.
[ "$MODE" = test ] && [ "$TIMEOUT" -ge 240 ] &&
	APPEND="$APPEND rdmachan_watchdog=$((TIMEOUT - 90))"
[ -n "$EXTRA_APPEND" ] && APPEND="$APPEND $EXTRA_APPEND"
[ -n "${RDMACHAN_APPEND:-}" ] && APPEND="$APPEND $RDMACHAN_APPEND"

# TCG runs each vCPU on a thread of its own, except for 6.12: there a
# vCPU can still execute a jump label's int3 after the other finished
# patching it (text_poke_bp(); "Oops: int3" in sched_clock_cpu() at
# boot, 2 boots of 25 with qemu 7.2), so its vCPUs take turns on one
# thread, where a write to code is seen by the next instruction
# (Documentation/testing.rst, "The test VM")
ACCEL=tcg
case "$KVER" in 6.12.*) ACCEL=tcg,thread=single ;; esac

QMP=()
[ "${RDMACHAN_QMP:-0}" = 0 ] || QMP=(-qmp "unix:$OUT/qmp.sock,server=on,wait=off")
QEMU=(qemu-system-x86_64 -machine pc -accel "$ACCEL" -cpu max -smp "${RDMACHAN_SMP:-2}"
	-m "$MEMORY" -nic none -no-reboot -display none "${MONITOR[@]}" "${QMP[@]}"
	-kernel "$KERNEL" -initrd "$INITRD" "${DEVICES[@]}")
# the control line is the third serial port, after console and results
CTL_SERIAL=()
[ -n "${CTL:-}" ] && CTL_SERIAL=(-serial chardev:ctl)

case "$MODE" in
test)
	: > "$OUT/console.log"
	: > "$OUT/results.ktap"
	rc=0
	timeout -k 10 "$TIMEOUT" "${QEMU[@]}" -append "$APPEND" \
		-serial "file:$OUT/console.log" \
		-serial "file:$OUT/results.ktap" "${CTL_SERIAL[@]}" </dev/null || rc=$?
	if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
		echo "# VM killed after ${TIMEOUT}s timeout" >> "$OUT/results.ktap"
	fi
	exit "$rc"
	;;
demo)
	exec timeout -k 10 "$TIMEOUT" "${QEMU[@]}" -append "$APPEND" \
		-serial stdio -serial null </dev/null
	;;
shell)
	exec "${QEMU[@]}" -append "$APPEND" -serial mon:stdio -serial null
	;;
esac
