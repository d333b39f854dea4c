#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Map and unmap the same export BLK_CYCLES times (15: a cycle with fio
# takes 10 s on the debug kernel under TCG, beside another VM), with a short verifying fio on the disk in each cycle and
# 1 to 3 queues in turn; every cycle's disk must come and go and
# leave no session behind.  On the debug kernel: KASAN and lockdep watch,
# and the tier's kmemleak_check.sh after the case must find no leak.

# kmemleak, KASAN, lockdep: the debug kernel
requires() {
	_have_kernel debug
}

. /tests/lib.sh

T=/tmp/blk_cycle
mkdir -p $T
CYCLES=${BLK_CYCLES:-15}

check "rxe pair comes up" rxe_pair_up
check "rdmachan and rdmachan_blk load" blk_load
B=$(nullb_new cycle 64)
check "a 64 MiB null_blk" test -b "$B"
[ -b "$B" ] || blk_bail "no backing device"
check "export cycle" $TOOL blk export cycle "$B" --allow 192.0.2.0/24

i=1
maps=0
ios=0
unmaps=0
while [ $i -le $CYCLES ]; do
	q=$((i % 3 + 1))
	D=$(timeout 60 $TOOL blk map $BLK_SRV cycle --src $BLK_CLI --queues $q --depth 16 \
		2> $T/map.err)
	if [ ! -b "$D" ]; then
		diag "cycle $i: map failed: $D $(cat $T/map.err)"
		break
	fi
	maps=$((maps + 1))
	if timeout 120 $FIO --name=c$i --filename="$D" --direct=1 --ioengine=libaio \
		--iodepth=4 --rw=randwrite --bsrange=4k-64k --size=512k --offset=$(((i % 16) * 2))M \
		--verify=crc32c --verify_fatal=1 > $T/fio.out 2>&1; then
		ios=$((ios + 1))
	else
		diag "cycle $i ($q queues): fio failed: $(grep -E 'err=|error|verify|fio:' $T/fio.out | head -n 3)"
		diag "cycle $i: $($TOOL -j blk show maps | jq -c '.maps[] | [.dev, .state, .last_error_name]')"
	fi
	if timeout 60 $TOOL blk unmap "$D" 2> $T/unmap.err && wait_for 10 sh -c "! test -e $D"; then
		unmaps=$((unmaps + 1))
	else
		diag "cycle $i: unmap failed: $(cat $T/unmap.err)"
		break
	fi
	i=$((i + 1))
done
check_eq "$CYCLES maps" "$CYCLES" "$maps"
check_eq "$CYCLES verified fio runs" "$CYCLES" "$ios"
check_eq "$CYCLES unmaps, each disk gone" "$CYCLES" "$unmaps"
check_eq "no mapping left" 0 "$($TOOL -j blk show maps | jq '.maps | length')"
check "no session left on the export" wait_for 20 sh -c \
	"$TOOL -j blk show exports | jq -e '.exports[] | select(.name == \"cycle\") | .sessions == 0 and .channels == 0' > /dev/null"
check "no rdmachan channel left" wait_for 20 sh -c "! ls /sys/class/rdmachan | grep -q chan"
check "blk unexport" $TOOL blk unexport cycle
check "rdmachan_blk and rdmachan unload" blk_unload
done_testing
