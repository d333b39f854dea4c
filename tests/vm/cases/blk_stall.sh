#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Bursts of remote-data WRITEs on one queue (fio randwrite 128 KiB at
# QD32 over a mapping of depth 16, blkdiscard -z), three rounds: every
# request carries a fast registration chained in front of its SEND while
# the sends before it may still be unacknowledged.  A registration that
# the transport finds still valid stalls the channel (the keepalive
# gives up after 30 s, the requests time out): each round must end, with
# no "not free" from rxe (rxe_reg_fast_mr).  The regression test of the
# REG_MR that rxe 6.1 ran twice on a retransmission
# (Documentation/kernel-api.rst, registration pools).

# Debian's kernel only: it tests what rxe does on a retransmission, and
# the debug kernel's sanitizers add little to it (make check's time)
requires() {
	_have_kernel stock
}

. /tests/lib.sh

T=/tmp/blk_stall
mkdir -p $T
MiB=1048576

check "rxe pair comes up" rxe_pair_up
check "rdmachan and rdmachan_blk load" blk_load
B=$(nullb_new stall 256)
[ -b "$B" ] || blk_bail "no backing device"
check "blk export stall $B" $TOOL blk export stall "$B" --allow 192.0.2.0/24
for round in 1 2 3; do
	D=$(timeout 60 $TOOL blk map $BLK_SRV stall --src $BLK_CLI --queues 1 --depth 16 2> $T/map.err)
	check "round $round: blk map --queues 1 --depth 16 ($D)" test -b "$D"
	[ -b "$D" ] || blk_bail "no mapping"
	if timeout 120 $FIO --name=burst --filename="$D" --direct=1 --ioengine=libaio \
		--iodepth=32 --rw=randwrite --bs=128k --size=128M --time_based \
		--runtime=15 > $T/fio.out 2>&1 &&
	   timeout 60 /usr/sbin/blkdiscard -z -o $((32 * MiB)) -l $((64 * MiB)) "$D"; then
		ok "round $round: fio randwrite 128k QD32 for 15 s and blkdiscard -z"
	else
		not_ok "round $round: fio randwrite 128k QD32 for 15 s and blkdiscard -z"
		blk_io_failed $T/fio.out
	fi
	diag "rxe1 (client) counters: $(hw_counters rxe1)"
	diag "rxe0 (server) counters: $(hw_counters rxe0)"
	check "round $round: blk unmap $D" timeout 60 $TOOL blk unmap "$D"
done
check_eq "rxe refused no fast registration" "0" \
	"$(dmesg | grep -c 'rxe_reg_fast_mr.*not free')"
check "blk unexport stall" $TOOL blk unexport stall
check "rdmachan_blk and rdmachan unload" blk_unload
done_testing
