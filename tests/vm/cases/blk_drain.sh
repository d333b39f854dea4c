#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# A forced unexport never hands back a device that a bio of the export can
# still reach (Documentation/blk-server.rst, "Exports"): the export is a
# device-mapper linear device over a null_blk whose table is suspended
# while a client writes block 0 (pattern B), so the server's bio waits in
# device-mapper.  "blk unexport --force" must then fail with EINPROGRESS
# after its bounded wait, the export stay "draining" (blk show, sysfs)
# with the device still claimed: exporting it again is refused (EBUSY:
# nobody can open it exclusively) and its name stays taken (EEXIST),
# rmmod is refused.  The table resumed, the bio ends, the export goes by
# itself and the device is free: exported anew, its new owner writes
# pattern C, and block 0 still holds C a while later - the old bio landed
# before the device changed hands, not after.  Skips on a kernel without
# dm-mod.

# Debian's kernel has device-mapper as modules (the debug kernel: when
# built with it)
requires() {
	_have_kernel stock debug
}

. /tests/lib.sh

T=/tmp/blk_drain
mkdir -p $T
SYSX=/sys/class/rdmachan_blk/ctl/exports

# show_export NAME KEY: KEY of export NAME as "blk show -j" says it
show_export() {
	$TOOL -j blk show exports | jq -r --arg n "$1" ".exports[] | select(.name == \$n) | .$2"
}

if ! $MODPROBE -n dm-mod > /dev/null 2>&1 && ! test -d /sys/module/dm_mod; then
	diag "skipped: this kernel has no device-mapper"
	done_testing
	exit 0
fi
check "rxe pair comes up" rxe_pair_up
check "rdmachan and rdmachan_blk load" blk_load
B=$(nullb_new drain 64)
[ -b "$B" ] || blk_bail "no backing device"
SECTORS=$($BLOCKDEV --getsz "$B")
X=$(dm_new drain "0 $SECTORS linear $B 0")
check "a device-mapper linear device over a 64 MiB null_blk ($X)" test -b "$X"
[ -b "$X" ] || blk_bail "no device-mapper device"
head -c 4096 /dev/urandom > $T/a
head -c 4096 /dev/urandom > $T/b
head -c 4096 /dev/urandom > $T/c
check "pattern A written to block 0" $DD if=$T/a of=$X bs=4k oflag=direct
check "block 0 holds pattern A" block_is $X 0 $T/a

check "blk export drain $X" $TOOL blk export drain "$X" --allow 192.0.2.0/24
check_eq "its state is exported (sysfs)" exported "$(blk_export_attr drain state)"
check_eq "its state is exported (blk show)" exported "$(show_export drain state)"
D=$(timeout 60 $TOOL blk map $BLK_SRV drain --src $BLK_CLI --queues 1 2> $T/map.err)
[ -b "$D" ] || { diag "$(cat $T/map.err)"; blk_bail "no mapping"; }
ok "blk map ($D)"

check "dmsetup suspend drain" $DMSETUP suspend drain
$DD if=$T/b of="$D" bs=4k count=1 oflag=direct > $T/ddb.out 2>&1 &
dd_pid=$!
check "the server's WRITE of pattern B waits in device-mapper (bios 1, within 30 s)" \
	wait_for 30 sh -c "test \"\$(cat $SYSX/drain/bios)\" -ge 1"
t0=$(date +%s)
check_fail "blk unexport --force fails with EINPROGRESS while the bio is held" "EINPROGRESS" \
	timeout 90 $TOOL blk unexport --force drain
diag "the forced unexport returned after $(($(date +%s) - t0)) s"
check_eq "the export is draining (sysfs)" draining "$(blk_export_attr drain state)"
check_eq "the export is draining (blk show)" draining "$(show_export drain state)"
check_eq "blk show counts its bio in flight" 1 "$(show_export drain bios)"
check "the kernel log says why" sh -c "dmesg | grep -q 'unexport drain: .*stays claimed'"
check_fail "the device is still claimed: exporting it again is refused (EBUSY)" "EBUSY" \
	$TOOL blk export other "$X" --allow 192.0.2.0/24
check_fail "the draining export's name stays taken (EEXIST)" "EEXIST" \
	$TOOL blk export drain "$B" --allow 192.0.2.0/24
check_fail "rmmod rdmachan_blk is refused while it drains" "in use" $RMMOD rdmachan_blk
check_fail "a second unexport says it is still in progress" "EINPROGRESS" \
	timeout 90 $TOOL blk unexport drain

check "dmsetup resume drain" $DMSETUP resume drain
check "the last bio's end releases the device: the export goes (within 20 s)" \
	wait_for 20 sh -c "! test -e $SYSX/drain"
check "the kernel log says so" sh -c "dmesg | grep -q 'unexport drain: the last bio ended'"
check_eq "no export is left" 0 "$($TOOL -j blk show exports | jq '.exports | length')"
check "block 0 holds pattern B (the held WRITE landed)" block_is $X 0 $T/b
check "the device is free: exported again" $TOOL blk export again "$X" --allow 192.0.2.0/24
check "its new owner writes pattern C" $DD if=$T/c of=$X bs=4k oflag=direct
sleep 3
check "block 0 still holds pattern C: nothing of the old export came after" block_is $X 0 $T/c
if wait_for 60 proc_ended $dd_pid; then
	wait $dd_pid
	diag "the client's dd ended with exit $?: $(tail -n 1 $T/ddb.out)"
else
	not_ok "the client's dd ends within 60 s"
	kill $dd_pid 2>/dev/null
fi
check "blk unexport again" $TOOL blk unexport again
check "blk unmap --force of the orphaned disk" sh -c \
	"! test -e $D || timeout 60 $TOOL blk unmap --force $D"
check "dmsetup remove drain" $DMSETUP remove drain
check "rdmachan_blk and rdmachan unload" blk_unload
done_testing
