#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# A block mapping's recovery does not wait on rdma_cm.  ib_cm holds an
# identifier whose CM message the provider never completes, and then
# rdma_destroy_id() waits for good (what soft-RoCE does when its packets
# are stuck below it; cpu_hotplug.sh).  Here every channel's identifier
# is held 10 minutes before its destruction
# (/sys/kernel/debug/rdmachan/cm_destroy_delay_ms) and the server's
# address is blackholed under a reader: the mapping must say
# "reconnecting", log the loss, make attempts, and be "dead" once its
# loss_timeout_ms (15 s) is past, not when the identifiers go; the reader
# and new I/O fail.  Then the hold ends, the route comes back, and
# "blk remap" brings the mapping back with its data.  rmmod waits for the
# identifiers still held, and ends.

# Debian's kernel: the logic is the same on the debug kernel
requires() {
	_have_kernel stock
}

. /tests/lib.sh

T=/tmp/blk_cm_hold
mkdir -p $T
HOLD=/sys/kernel/debug/rdmachan/cm_destroy_delay_ms

check "rxe pair comes up" rxe_pair_up
check "rdmachan and rdmachan_blk load" blk_load
grep -q ' /sys/kernel/debug ' /proc/mounts ||
	mount -t debugfs debugfs /sys/kernel/debug
[ -w $HOLD ] || blk_bail "no $HOLD"
B=$(nullb_new cmhold 128)
[ -b "$B" ] || blk_bail "no backing device"
check "blk export cmhold $B" $TOOL blk export cmhold "$B" --allow 192.0.2.0/24
D=$(timeout 60 $TOOL blk map $BLK_SRV cmhold --src $BLK_CLI --queues 2 \
	--reconnect-delay 500 --loss-timeout 15000 2> $T/map.err)
[ -b "$D" ] || blk_bail "no mapping: $(cat $T/map.err)"
ok "blk map --loss-timeout 15000 ($D)"
check "1 MiB written at 16 MiB" pattern_put hold 16

check "every identifier held 10 minutes before its destruction" sh -c "echo 600000 > $HOLD"
timeout 300 $DD if="$D" of=/dev/null bs=4k count=1000000 iflag=direct > $T/dd.out 2>&1 &
dd_pid=$!
sleep 1
check "the server's address blackholed" wire_blackhole on
check "reconnecting within 60 s" wait_for 60 blk_map_state_is "$D" reconnecting
read -r t0 _ < /proc/uptime
check "the loss is logged as it is found" sh -c "dmesg | grep -q 'rcblk.*link lost.*stopping its channels'"
check "dead within 120 s, the identifiers still held" wait_for 120 blk_map_state_is "$D" dead
read -r t1 _ < /proc/uptime
diag "dead $(awk "BEGIN { printf \"%.1f\", $t1 - $t0 }") s after reconnecting (loss_timeout_ms 15000)"
check "attempts were made and failed (logged)" sh -c \
	"dmesg | grep -q 'rcblk.*attempt [0-9]* of [0-9]* failed'"
check "the reader ends with an error" wait_for 30 proc_ended $dd_pid
check_fail "new I/O fails at once" "error" \
	timeout 10 $DD if="$D" of=/dev/null bs=4k count=1 iflag=direct
check "the log says it gave up" sh -c "dmesg | grep -q 'rcblk.*not back within loss_timeout_ms'"

check "the hold ends" sh -c "echo 0 > $HOLD"
check "the route comes back" wire_neighbours_up
check "blk remap brings it back (60 s)" wait_for 60 $TOOL blk remap "$D"
check_eq "sysfs: live" live "$(blk_map_attr "$D" state)"
check "the data reads back" pattern_back hold 16
check "blk unmap" timeout 60 $TOOL blk unmap "$D"

# rmmod with identifiers held: it waits for them, and ends once they go
check "identifiers held again, 20 s" sh -c "echo 20000 > $HOLD"
D=$(timeout 60 $TOOL blk map $BLK_SRV cmhold --src $BLK_CLI 2> $T/map.err)
check "a mapping made and unmapped" sh -c "[ -b '$D' ] && timeout 60 $TOOL blk unmap $D" ||
	diag "$(cat $T/map.err)"
check "blk unexport cmhold" $TOOL blk unexport cmhold
check "rdmachan_blk and rdmachan unload within 120 s" timeout 120 sh -c \
	". /tests/lib.sh; blk_unload"
done_testing
