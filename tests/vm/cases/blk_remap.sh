#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# A block mapping given up, remapped, and unmapped while it reconnects
# (Documentation/blk-client.rst, "Link loss"; blk_recover.sh has the
# losses it comes back from on its own):
#
#   dead    loss_timeout_ms: with the client's device gone for good the
#           mapping is "dead" after 3 s, held and new I/O fail, and unmap
#           returns at once; the trace ends RECONNECTING -> DEAD.
#   remap   "blk remap" of a dead mapping (refused while live, failing while
#           the device is gone, working once it is back): ext4 on it
#           (Debian's kernel; data at an offset on the debug one) reads
#           back and takes writes, e2fsck clean; after a forced unexport
#           and the export made again, the mapping is remapped too.
#   restart the server unexports (the lost session gone) and exports the same
#           device again while the client reconnects: the client comes
#           back to it and reads what it wrote.
#   unmap   "blk unmap --force" of a mapping while it reconnects returns
#           at once, and its held I/O fails.
#
# Runs on both kernels over rxe.

requires() {
	_have_kernel stock 6.12 debug
}

. /tests/lib.sh

T=/tmp/blk_remap
mkdir -p $T

check "rxe pair comes up" rxe_pair_up
check "rdmachan and rdmachan_blk load" blk_load
B=$(nullb_new remap 128)
[ -b "$B" ] || blk_bail "no backing device"
check "blk export remap $B" $TOOL blk export remap "$B" --allow 192.0.2.0/24

# ---- loss_timeout_ms: dead --------------------------------------------------
blk_map_export remap --queues 1 --reconnect-delay 500 --loss-timeout 3000
check "the trace restarts" blk_link_trace_on
timeout 120 $DD if="$D" of=/dev/null bs=4k count=1000000 iflag=direct > $T/dd.out 2>&1 &
dd_pid=$!
sleep 1
check "the client's device deleted" rxe_del $DEV1
check "dead within 30 s" wait_for 30 blk_map_state_is "$D" dead
blk_link_trace "$D" > $T/trace.dead
check "the trace ends RECONNECTING -> DEAD" sh -c \
	"tail -n 1 $T/trace.dead | grep -q '^[^ ]* RECONNECTING -> DEAD err -[0-9]'"
diag "$(cat $T/trace.dead)"
check_eq "blk show -j: dead" dead "$(blk_map_show_state "$D")"
check "the reader ends with an error within 30 s" wait_for 30 proc_ended $dd_pid
check_fail "new I/O fails at once" "error" \
	timeout 10 $DD if="$D" of=/dev/null bs=4k count=1 iflag=direct
check "the log says it gave up" sh -c "dmesg | grep -q 'rcblk.*not back within loss_timeout_ms'"
t0=$(date +%s)
check "blk unmap of a dead mapping returns at once (10 s)" timeout 10 $TOOL blk unmap "$D"
diag "unmap took $(($(date +%s) - t0)) s"
check "the client's device added back" rxe_add $DEV1 veth1

# ---- remap: a dead mapping opened again under what has it open ------------
MNT=/mnt/blk_remap
mkdir -p $MNT
blk_map_export remap --queues 2 --reconnect-delay 500 --loss-timeout 2000
check_fail "blk remap of a live mapping is refused (EALREADY)" "EALREADY" \
	$TOOL blk remap "$D"
# a file system where the kernel has one (Debian's), else data at an offset
# and the disk held open
fs=0
if /usr/sbin/mkfs.ext4 -q -F "$D" 2> /dev/null &&
   mount -t ext4 "$D" $MNT 2> /dev/null; then
	fs=1
	head -c 3000000 /dev/urandom > $MNT/before
	(cd $MNT && md5sum before > $T/remap.sums)
	check "ext4 on the mapping: a file written and synced" sync
else
	check "1 MiB written at 64 MiB" pattern_put remap 64
	exec 6< "$D"
	diag "no ext4 here: the disk is held open instead"
fi
check "the client's device deleted" rxe_del $DEV1
check "dead within 30 s" wait_for 30 blk_map_state_is "$D" dead
check_fail "blk remap while the device is gone fails, and says why" "blk remap" \
	timeout 60 $TOOL blk remap "$D"
check_eq "... and the mapping stays dead" dead "$(blk_map_attr "$D" state)"
check "the client's device added back" rxe_add $DEV1 veth1
check "blk remap brings it back (60 s)" wait_for 60 $TOOL blk remap "$D"
check_eq "sysfs: live" live "$(blk_map_attr "$D" state)"
check_eq "blk show -j: live" live "$(blk_map_show_state "$D")"
check "the log says the remap worked" sh -c \
	"dmesg | grep -q 'rcblk.*remapping export remap' && dmesg | grep -q 'rcblk.*back: 2 queues'"
if [ $fs = 1 ]; then
	echo 3 > /proc/sys/vm/drop_caches
	check "the file system's file reads back with its checksum" \
		sh -c "cd $MNT && md5sum -c $T/remap.sums"
	check "and takes a new file" sh -c \
		"head -c 1000000 /dev/urandom > $MNT/after && sync"
	check "umount" umount $MNT
	check "e2fsck -fn finds it clean" /usr/sbin/e2fsck -fn "$D"
else
	check "the data reads back" pattern_back remap 64
	exec 6<&-
fi
# a forced unexport kills the mapping; the same device exported again
# (the same export identity) is remapped
check "blk unexport --force remap" $TOOL blk unexport --force remap
check "dead within 30 s of the forced unexport" wait_for 30 blk_map_state_is "$D" dead
check_fail "blk remap with no such export fails" "blk remap" timeout 60 $TOOL blk remap "$D"
check "blk export remap again" $TOOL blk export remap "$B" --allow 192.0.2.0/24
check "blk remap after the export is back" timeout 60 $TOOL blk remap "$D"
check "a read works after the remap" $DD if="$D" of=/dev/null bs=4k count=16 iflag=direct
check_eq "live after the remap" live "$(blk_map_attr "$D" state)"
check "blk unmap" timeout 60 $TOOL blk unmap "$D"

# ---- the server's export made again while the client reconnects ----------
blk_map_export remap --queues 2 --reconnect-delay 1000 --loss-timeout 120000
check "1 MiB written at 32 MiB" pattern_put restart 32
check "route blackholed" wire_blackhole on
check "reconnecting within 30 s" wait_for 30 blk_map_state_is "$D" reconnecting
check "the server let the lost session go (30 s)" wait_for 30 sh -c \
	"$TOOL -j blk show exports | jq -e '.exports[] | select(.name == \"remap\") | .sessions == 0'"
check "blk unexport remap (its session gone, no --force)" $TOOL blk unexport remap
check "blk export remap again, from the same device" \
	$TOOL blk export remap "$B" --allow 192.0.2.0/24
check "route back" wire_blackhole off
check "live again within 60 s: the same export" wait_for 60 blk_map_state_is "$D" live
check "the data reads back" pattern_back restart 32
check "blk unmap" timeout 60 $TOOL blk unmap "$D"

# ---- unmap --force while reconnecting -------------------------------------
blk_map_export remap --queues 2 --reconnect-delay 1000 --loss-timeout 600000
timeout 120 $DD if="$D" of=/dev/null bs=64k count=1000000 iflag=direct > $T/dd2.out 2>&1 &
dd_pid=$!
sleep 1
check "route blackholed" wire_blackhole on
check "reconnecting within 30 s" wait_for 30 blk_map_state_is "$D" reconnecting
check "blk unmap --force while reconnecting returns within 20 s" \
	timeout 20 $TOOL blk unmap --force "$D"
check "the held reader ends within 30 s" wait_for 30 proc_ended $dd_pid
if ! proc_ended "$dd_pid"; then
	# where it waits: its state, kernel stack and output so far
	diag "reader $dd_pid: $(grep -E '^(Name|State)' /proc/$dd_pid/status | tr '\n' ' ')wchan $(cat /proc/$dd_pid/wchan 2>/dev/null)"
	diag "its stack: $(cat /proc/$dd_pid/stack 2>/dev/null | awk '{print $2}' | head -n 12 | tr '\n' ' ')"
	diag "its output: $(tr '\n' ' ' < $T/dd2.out)"
	diag "rcblk disks left: $(ls /sys/block | grep rcblk | tr '\n' ' ')"
fi
check "route back" wire_blackhole off
check_eq "no mapping is left" 0 "$($TOOL -j blk show maps | jq '.maps | length')"

check "blk unexport remap" wait_for 30 $TOOL blk unexport remap
check "rdmachan_blk and rdmachan unload" blk_unload
done_testing
