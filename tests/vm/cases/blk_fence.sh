#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# No zombie writes after a reconnect (Documentation/blk-server.rst,
# "Fencing"): a WRITE stuck on the server's device longer than the
# client's request timeout is held by the client and sent again on its
# next connection; the server must not admit that connection while a bio
# of the old one can still reach the device, so that the old copy cannot
# land after a newer write of the same block.
#
# The export is a device-mapper linear device over a null_blk.  Block 0
# holds pattern A; the table is suspended; the client writes pattern B
# to block 0 (its disk's io_timeout 1 s: after four expiries it recovers
# the link, holding the write).  While the server's old bio waits in
# device-mapper, every OPEN of the client's next connection must be
# refused as fenced (the mapping stays "reconnecting", last_error
# EAGAIN, the server logs it) and no bio of a new connection may reach
# the device (the export's bios stay 1).  Once the table is resumed the
# old bio ends, the next attempt is admitted, the held write completes
# (dd succeeds), the client writes pattern C to block 0, and after
# everything settles block 0 holds C on the device and through the disk.
# Skips on a kernel without dm-mod.

requires() {
	_have_kernel stock debug
}

. /tests/lib.sh

T=/tmp/blk_fence
mkdir -p $T
SYSX=/sys/class/rdmachan_blk/ctl/exports

# attr NAME: the mapping's sysfs attribute NAME
attr() {
	cat "/sys/block/${D#/dev/}/rdmachan/$1" 2>/dev/null
}

if ! $MODPROBE -n dm-mod > /dev/null 2>&1 && ! test -d /sys/module/dm_mod; then
	diag "skipped: this kernel has no device-mapper"
	done_testing
	exit 0
fi
check "rxe pair comes up" rxe_pair_up
check "rdmachan and rdmachan_blk load" blk_load
B=$(nullb_new fence 64)
[ -b "$B" ] || blk_bail "no backing device"
X=$(dm_new fence "0 $($BLOCKDEV --getsz "$B") linear $B 0")
check "a device-mapper linear device over a 64 MiB null_blk ($X)" test -b "$X"
[ -b "$X" ] || blk_bail "no device-mapper device"
head -c 4096 /dev/urandom > $T/a
head -c 4096 /dev/urandom > $T/b
head -c 4096 /dev/urandom > $T/c

check "blk export fence $X" $TOOL blk export fence "$X" --allow 192.0.2.0/24
# attempts every 100 ms to 1 s: the fence, not the backoff, sets the pace
echo 1000 > /sys/module/rdmachan_blk/parameters/clt_reconnect_max_delay_ms
D=$(timeout 60 $TOOL blk map $BLK_SRV fence --src $BLK_CLI --queues 2 \
	--reconnect-delay 100 --loss-timeout 300000 2> $T/map.err)
[ -b "$D" ] || { diag "$(cat $T/map.err)"; blk_bail "no mapping"; }
ok "blk map --queues 2 ($D)"
check "pattern A written to block 0 through the disk" $DD if=$T/a of="$D" bs=4k oflag=direct
check "block 0 of the device holds A" block_is "$X" 0 $T/a
echo 1000 > /sys/block/${D#/dev/}/queue/io_timeout

check "dmsetup suspend fence" $DMSETUP suspend fence
$DD if=$T/b of="$D" bs=4k count=1 oflag=direct > $T/ddb.out 2>&1 &
dd_pid=$!
check "the server's WRITE of B waits in device-mapper (bios 1, within 30 s)" \
	wait_for 30 sh -c "test \"\$(cat $SYSX/fence/bios)\" -ge 1"
check "the client's request times out and it recovers the link (reconnecting within 30 s)" \
	wait_for 30 sh -c "test \"\$(cat /sys/block/${D#/dev/}/rdmachan/state)\" = reconnecting"
check "its next connection is fenced: last_error EAGAIN (-11) within 20 s" \
	wait_for 20 sh -c "test \"\$(cat /sys/block/${D#/dev/}/rdmachan/last_error)\" = -11"
check "the server says why" sh -c "dmesg | grep -q 'fence: OPEN of connection .* fenced'"
# a while of refused attempts: nothing of a new connection gets through
fenced_ok=1
for _i in 1 2 3 4 5 6 7 8 9 10; do
	sleep 0.5
	_s=$(attr state)
	_b=$(cat $SYSX/fence/bios 2>/dev/null)
	if [ "$_s" != reconnecting ] || [ "$_b" != 1 ]; then
		fenced_ok=0
		diag "while the old bio is held: state $_s, export bios $_b"
		break
	fi
done
check_eq "for 5 s the mapping stays reconnecting and no other bio reaches the device" 1 $fenced_ok
check "the client's dd still waits (its write is held, not acknowledged)" kill -0 $dd_pid
diag "attempts: $(attr attempt), sessions on the server: $(cat $SYSX/fence/sessions), channels: $(cat $SYSX/fence/channels)"

check "dmsetup resume fence" $DMSETUP resume fence
check "the old bio ends, the next connection is admitted: live within 30 s" \
	wait_for 30 sh -c "test \"\$(cat /sys/block/${D#/dev/}/rdmachan/state)\" = live"
if wait_for 30 proc_ended $dd_pid; then
	wait $dd_pid
	check_eq "the held write of B is acknowledged (dd exits 0)" 0 $?
else
	not_ok "the held write of B is acknowledged within 30 s"
	kill $dd_pid 2>/dev/null
fi
check "the client writes C to block 0" $DD if=$T/c of="$D" bs=4k oflag=direct
sleep 3
check "block 0 of the device holds C, the last acknowledged write" block_is "$X" 0 $T/c
check "the disk reads back C" block_is "$D" 0 $T/c
check_eq "the mapping counted a reconnect" 1 "$(attr reconnects)"
check "blk unmap $D" timeout 60 $TOOL blk unmap "$D"
check "blk unexport fence" timeout 60 $TOOL blk unexport fence
check "dmsetup remove fence" $DMSETUP remove fence
check "rdmachan_blk and rdmachan unload" blk_unload
done_testing
