#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Forced teardown of the block channel under I/O: "blk unmap --force"
# while fio runs on the disk and "blk unexport --force" while dd writes
# to a disk mapping it.  Each command returns within 60 s, the I/O
# ends with errors within 60 to 90 s (not a hang), the orphaned disk
# fails I/O and unmaps, the kernel log stays
# clean (done_testing: no WARNING, BUG, oops) and the modules unload.

# Runs on both kernels over rxe (the debug kernel adds KASAN and lockdep)
requires() {
	_have_kernel stock debug
}

. /tests/lib.sh

T=/tmp/blk_force
mkdir -p $T

# opened DEV: the mapping DEV has an opener (fio or dd got as far as open)
opened() {
	[ "$($TOOL -j blk show maps | jq -r --arg d "$1" '.maps[] | select(.dev == $d) | .openers')" -ge 1 ] 2>/dev/null
}

# gone PID SECONDS: process PID has ended within SECONDS
gone() {
	wait_for "$2" proc_ended $1
}

check "rxe pair comes up" rxe_pair_up
check "rdmachan and rdmachan_blk load" blk_load
B=$(nullb_new force 128)
check "a 128 MiB null_blk" test -b "$B"
[ -b "$B" ] || blk_bail "no backing device"
check "export force" $TOOL blk export force "$B" --allow 192.0.2.0/24

# ---- unmap --force under fio ------------------------------------------------
D=$(timeout 60 $TOOL blk map $BLK_SRV force --src $BLK_CLI --queues 2 2> $T/map.err)
[ -b "$D" ] || { not_ok "blk map"; diag "$(cat $T/map.err)"; blk_bail "no mapping"; }
ok "blk map ($D)"
timeout 300 $FIO --name=force --filename="$D" --direct=1 --ioengine=libaio --iodepth=16 \
	--numjobs=2 --rw=randrw --bsrange=4k-64k --size=64M --time_based --runtime=240 \
	> $T/fio.out 2>&1 &
fio_pid=$!
check "fio has the disk open (openers >= 1, within 60 s)" wait_for 60 opened "$D"
sleep 3
check "fio is running on the disk" kill -0 $fio_pid
check_fail "blk unmap without --force is refused while fio has it open (EBUSY)" "EBUSY" \
	timeout 30 $TOOL blk unmap "$D"
t0=$(date +%s)
check "blk unmap --force returns within 60 s" timeout 60 $TOOL blk unmap --force "$D"
if gone $fio_pid 60; then
	ok "fio ends within 60 s of the forced unmap"
	wait $fio_pid
	rc=$?
	diag "fio ended after $(($(date +%s) - t0)) s, exit $rc"
	check "fio saw I/O errors (exit status not 0)" test "$rc" != 0
else
	not_ok "fio ends within 60 s of the forced unmap"
	kill -9 $fio_pid 2>/dev/null
	diag "$(tail -n 20 $T/fio.out)"
fi
diag "$(grep -E 'err=|error' $T/fio.out | head -n 5)"
check "the disk is gone" wait_for 30 sh -c "! test -e $D"
check_eq "no mapping is left" 0 "$($TOOL -j blk show maps | jq '.maps | length')"
check "the export has no session left" wait_for 20 sh -c \
	"$TOOL -j blk show exports | jq -e '.exports[] | select(.name == \"force\") | .sessions == 0' > /dev/null"

# ---- unexport --force under dd ----------------------------------------------
D=$(timeout 120 $TOOL blk map $BLK_SRV force --src $BLK_CLI 2> $T/map2.err)
[ -b "$D" ] || { not_ok "blk map again"; diag "$(cat $T/map2.err)"; blk_bail "no second mapping"; }
ok "blk map again ($D)"
# dd over and over: each loop ends only when a dd fails.  The writer
# stops short of the end (a write past it fails with ENOSPC, which on a
# fast link came within the 3 s below and ended the loop too soon); the
# reader's end of the disk is a plain EOF.
timeout 300 sh -c "while $DD if=/dev/zero of=$D bs=64k count=1024 oflag=direct conv=notrunc; do :; done" \
	> $T/dd.out 2>&1 &
dd_pid=$!
timeout 300 sh -c "while $DD if=$D of=/dev/null bs=64k iflag=direct; do :; done" \
	> $T/ddr.out 2>&1 &
ddr_pid=$!
check "dd has the disk open (openers >= 1, within 60 s)" wait_for 60 opened "$D"
sleep 3
check "dd is writing and reading the disk" sh -c "kill -0 $dd_pid && kill -0 $ddr_pid"
check_fail "blk unexport without --force is refused while mapped (EBUSY)" "EBUSY" \
	timeout 30 $TOOL blk unexport force
check "blk unexport --force returns within 60 s" timeout 60 $TOOL blk unexport --force force
# timeout's 124 would mean the loop never saw an error
if gone $dd_pid 90 && gone $ddr_pid 30; then
	ok "the writing and the reading dd fail within 90 s of the forced unexport"
	wait $dd_pid
	rc=$?
	wait $ddr_pid
	rcr=$?
	check "neither was ended by its timeout" test "$rc" != 124 -a "$rcr" != 124
	diag "dd: $(grep -iE 'error|dd:' $T/dd.out | tail -n 2)"
	diag "dd (read): $(grep -iE 'error|dd:' $T/ddr.out | tail -n 2)"
else
	not_ok "the writing and the reading dd fail within 90 s of the forced unexport"
	kill $dd_pid $ddr_pid 2>/dev/null
fi
check_eq "the export is gone" 0 "$($TOOL -j blk show exports | jq '.exports | length')"
diag "$($TOOL -sd blk show maps)"
check "the mapping is no longer live" sh -c \
	"$TOOL -j blk show maps | jq -e --arg d '$D' '[.maps[] | select(.dev == \$d)] | length == 0 or .[0].state != \"live\"' > /dev/null"
check "I/O to the orphaned disk fails in bounded time" sh -c \
	"! timeout 90 $DD if=$D of=/dev/null bs=4k count=1 iflag=direct"
check "blk unmap --force of the orphaned disk" sh -c \
	"! test -e $D || timeout 60 $TOOL blk unmap --force $D"
check "the disk is gone" wait_for 10 sh -c "! test -e $D"

check "rdmachan_blk and rdmachan unload" blk_unload
check "the backing device still works" sh -c "$DD if=$B of=/dev/null bs=1M count=1 iflag=direct"
done_testing
