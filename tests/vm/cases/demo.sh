#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# What "make demo" shows: rdmachan as "make install" sets it up (the
# installed tool, udev's rules, modules loaded on demand), two soft-RoCE
# hosts, rdmachan.ko loading for them and finding them, the tool
# reporting them, and message channels between them:
# send/recv, ping against an echo server, bench against a sink (from user
# space and in the kernel), sysfs state; the block channel: a null_blk
# exported, mapped as /dev/rcblkN with its by-id name, ext4 on it, a
# file through it; the configuration config save would write.  Not a
# test (run-all skips it).

requires() {
	_not_a_test "make demo runs it (tests/vm/run-vm.sh --demo)"
}

RESULTS=/dev/null
. /tests/lib.sh

step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

TOOL=/usr/local/sbin/rdmachan
step "rdmachan as make install put it: $TOOL, udev rules, and udevd running"
ls -l $TOOL /usr/local/lib/udev/rules.d/60-rdmachan.rules
udevd_start || echo "(udevd did not start)"

step "Two hosts: soft-RoCE (rdma_rxe) on a veth pair, 192.0.2.1 <-> 192.0.2.2"
rxe_pair_up || { echo "fixture failed"; exit 1; }
$IP -br addr show veth0
$IP -br addr show veth1
$RDMA link show

step "rdmachan loaded by itself when the RDMA devices appeared (udev)"
wait_for 20 test -c /dev/rdmachan || rdmachan_load
udev_settled
dmesg | grep rdmachan | sed 's/^\[[ 0-9.]*\] //'
ls -l /dev/rdmachan

step "rdmachan version"
$TOOL version

step "rdmachan dev list"
$TOOL dev list

step "rdmachan dev show rxe0"
$TOOL dev show rxe0

step "rdmachan -j -p dev show rxe1"
$TOOL -j -p dev show rxe1

SRV=192.0.2.1
CLI=192.0.2.2

step "rdmachan chan recv $SRV:7000 -c 3  &  rdmachan chan send $SRV:7000 --src $CLI hello RDMA world"
timeout 30 $TOOL chan recv $SRV:7000 -c 3 &
wait_for 10 listening 7000
$TOOL chan send $SRV:7000 --src $CLI hello RDMA world
wait

step "rdmachan chan listen $SRV --echo  &  rdmachan chan ping $SRV -c 5 -i 200ms"
timeout 60 $TOOL chan listen $SRV --echo -q &
echo_pid=$!
wait_for 10 listening 7470
$TOOL chan ping $SRV --src $CLI -c 5 -i 200ms

step "while a channel is open: rdmachan chan show"
( sleep 3 | $TOOL chan connect $SRV --src $CLI > /dev/null ) &
wait_for 10 sh -c 'ls /sys/class/rdmachan | grep -q chan'
$TOOL chan show
wait
kill $echo_pid 2>/dev/null
wait $echo_pid 2>/dev/null

step "rdmachan chan listen $SRV:7001 --sink  &  rdmachan chan bench $SRV:7001 -t 3s -s 4k"
timeout 60 $TOOL chan listen $SRV:7001 --sink -n 1 &
wait_for 10 listening 7001
$TOOL chan bench $SRV:7001 --src $CLI -t 3s -s 4k
wait

step "the same in the kernel (RDMACHAN_IOC_BENCH): bench --kernel, ping --kernel"
timeout 60 $TOOL chan listen $SRV:7002 --sink --kernel -n 1 &
wait_for 10 listening 7002
$TOOL chan bench $SRV:7002 --src $CLI -t 3s -s 4k --kernel
wait
timeout 60 $TOOL chan listen $SRV:7003 --echo --kernel -n 1 -q --poll direct &
wait_for 10 listening 7003
$TOOL chan ping $SRV:7003 --src $CLI -c 2000 --kernel --poll direct
wait

step "the block channel: a 64 MiB null_blk on the server (rdmachan_blk loads on the first blk command)"
BLKDEV=$(nullb_new demo 64)
echo "backing device: $BLKDEV"

step "server: rdmachan blk export demo $BLKDEV --allow 192.0.2.0/24"
$TOOL blk export demo "$BLKDEV" --allow 192.0.2.0/24

step "client: rdmachan blk map $SRV demo --src $CLI"
RCBLK=$(timeout 60 $TOOL blk map $SRV demo --src $CLI)
echo "$RCBLK"
awk '$1 ~ /^rdmachan/ { print $1, "loaded" }' /proc/modules

if [ -b "$RCBLK" ]; then
	step "its names in /dev/disk (udev): by the export's identity and by its server"
	udev_settled
	ls -l /dev/disk/by-id /dev/disk/by-path | grep rdmachan
	BYID=$(ls -d /dev/disk/by-id/rdmachan-demo-* 2>/dev/null | head -n 1)
	[ -n "$BYID" ] || BYID=$RCBLK

	step "mkfs.ext4 $BYID; mount; copy a file through it; read it back"
	/usr/sbin/mkfs.ext4 -q -F "$BYID" && mkdir -p /mnt/rcblk &&
		mount -t ext4 "$BYID" /mnt/rcblk && df -h /mnt/rcblk
	head -c 3145728 /dev/urandom > /tmp/demo.bin
	cp /tmp/demo.bin /mnt/rcblk/ && umount /mnt/rcblk &&
		mount -t ext4 "$RCBLK" /mnt/rcblk
	echo "sent:      $(md5sum < /tmp/demo.bin)"
	echo "read back: $(md5sum < /mnt/rcblk/demo.bin)"
	umount /mnt/rcblk

	step "rdmachan blk show"
	$TOOL blk show

	step "rdmachan config show: what config save would write for a restore at boot"
	$TOOL config show

	step "rdmachan blk unmap $RCBLK; rdmachan blk unexport demo"
	$TOOL blk unmap "$RCBLK" && $TOOL blk unexport demo && echo "done"
else
	echo "(the block channel is not working in this build)"
	$TOOL blk unexport demo 2>/dev/null
fi
$RMMOD rdmachan_blk

step "the network channel: rdmachan net add rcn0 listen $SRV; rcn1 connect from $CLI"
$TOOL net add rcn0 listen $SRV && $TOOL net add rcn1 connect $SRV --src $CLI
echo "each in a network namespace of its own, so that traffic crosses the channel:"
echo "  rcA: rcn0 10.77.0.1 <-> rcB: rcn1 10.77.0.2"
if net_ns_up && wait_for 20 net_carrier_both; then
	$TOOL net show
	step "ping 10.77.0.2 from rcA"
	$IP netns exec rcA /usr/bin/ping -c 3 10.77.0.2
	step "a TCP transfer of 16 MiB rcA -> rcB, checked byte for byte"
	$IP netns exec rcB timeout 60 $HELPERS/net_stream server 5001 1 60 &
	sleep 0.5
	$IP netns exec rcA timeout 60 $HELPERS/net_stream client 10.77.0.2 5001 1 16777216 60
	wait
	$IP -n rcB -s link show rcn1
else
	echo "(the network channel is not working in this build)"
fi
$TOOL net del rcn1; $TOOL net del rcn0
$IP netns del rcA 2>/dev/null; $IP netns del rcB 2>/dev/null
$RMMOD rdmachan_net

step "rdma link delete rxe1; rdmachan dev list"
rxe_del rxe1
$TOOL dev list

step "rmmod rdmachan"
rdmachan_unload && echo "unloaded cleanly"
udevd_stop
echo
