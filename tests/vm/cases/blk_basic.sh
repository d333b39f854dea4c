#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The block channel end to end: a 256 MiB memory-backed null_blk (with
# a 16 MiB volatile cache, so that FLUSH and FUA mean something, and
# discard) exported by "rdmachan blk export" on 192.0.2.1 and mapped by
# "rdmachan blk map" from 192.0.2.2 as /dev/rcblkN: size and block size,
# random data both ways compared with the backing device, ext4 (mkfs,
# files with checksums, e2fsck clean, remount), fio verify at QD1 and
# QD32 with two jobs, no post's provider work run at once at depth 1
# (the server is on this host), FLUSH/FUA/DISCARD/WRITE_ZEROES counted
# and seen on the backing device, "blk show --json", unmap refused while
# mounted and unexport while mapped (EBUSY); last, a mapping of one queue of
# depth 16 under a verifying fio at QD32: every request on one channel,
# more requests than slots, and 4k WRITEs whose replies come several to
# a message; and one of depth 64 whose grant, from 16,
# reaches the depth under fio at QD16 once a request was refused (the
# client asks).  The disks have no I/O scheduler unless one is set (the
# one-queue disk runs its first fio under mq-deadline).  Between the fio
# and ext4 parts, where the server's work is woken: at high priority from
# the wire's CPU, at normal priority from the softirq work of the
# client's own post, when fio and the wire's work share a CPU.

# Debian's kernel only: the debug kernel has no ext4 (blk_cycle.sh runs there)
requires() {
	_have_kernel stock 6.12
}

. /tests/lib.sh

T=/tmp/blk_basic
MNT=/mnt/blk
mkdir -p $T $MNT
MiB=1048576

check "rxe pair comes up" rxe_pair_up
check "rdmachan and rdmachan_blk load" blk_load
B=$(nullb_new basic 256 discard=1 cache_size=16)
check "a 256 MiB memory-backed null_blk with discard and a cache ($B)" test -b "$B"
[ -b "$B" ] || blk_bail "no backing device"

check "blk export basic $B --allow 192.0.2.0/24" \
	$TOOL blk export basic "$B" --allow 192.0.2.0/24
check_eq "blk show exports: the export, its path, size and allow list" \
	"basic $B 268435456 false 192.0.2.0/24" \
	"$($TOOL -j blk show exports | jq -r '.exports[] | select(.name == "basic") |
		"\(.name) \(.path) \(.size) \(.ro) \(.allow | join(","))"')"
D=$($TOOL blk map $BLK_SRV basic --src $BLK_CLI 2> $T/map.err)
if printf '%s\n' "$D" | grep -Eq '^/dev/rcblk[0-9]+$' && [ -b "$D" ]; then
	ok "blk map prints the new disk ($D) and it exists"
else
	not_ok "blk map prints the new disk and it exists"
	diag "output: $D"
	diag "$(cat $T/map.err)"
	blk_bail "no mapping"
fi
check_eq "the disk's size is the backing device's" \
	"$($BLOCKDEV --getsize64 "$B")" "$($BLOCKDEV --getsize64 "$D")"
check_eq "the disk's logical block size is the backing device's" \
	"$($BLOCKDEV --getss "$B")" "$($BLOCKDEV --getss "$D")"
check_eq "blk show --json: the mapping, live, its server, export and size" \
	"$BLK_SRV:7471 basic live 268435456 false" \
	"$($TOOL -j blk show | jq -r --arg d "$D" '.maps[] | select(.dev == $d) |
		"\(.server) \(.export) \(.state) \(.size) \(.ro)"')"
check "blk show (text) names the disk and the export" sh -c \
	"$TOOL blk show | grep -q '^$D: server $BLK_SRV:7471 export basic state live'"
check "prefixes: rdmachan -j b s m parses with jq" sh -c \
	"$TOOL -j b s m | jq -e '.maps | length >= 1' > /dev/null"
check "the export has a session" sh -c \
	"$TOOL -j blk show exports | jq -e '.exports[] | select(.name == \"basic\") | .sessions >= 1 and .channels >= 1' > /dev/null"

# ---- data through the client, checked on the backing device -----------
head -c $((8 * MiB)) /dev/urandom > $T/pat8m
head -c $((12 * 1024)) /dev/urandom > $T/pat12k
check "write 8 MiB of random data at 3 MiB through the disk (1 MiB direct writes)" \
	$DD if=$T/pat8m of="$D" bs=1M seek=3 oflag=direct conv=notrunc,fsync
check "write 12 KiB at sector 30001 (512-byte direct writes)" \
	$DD if=$T/pat12k of="$D" bs=512 seek=30001 oflag=direct conv=notrunc,fsync
$BLOCKDEV --flushbufs "$B"
check "the backing device has the 8 MiB" sh -c \
	"$DD if=$B bs=1M skip=3 count=8 iflag=direct 2>/dev/null | $CMP - $T/pat8m"
check "the backing device has the 12 KiB" sh -c \
	"$DD if=$B bs=512 skip=30001 count=24 iflag=direct 2>/dev/null | $CMP - $T/pat12k"
check "reading them back through the disk gives the same bytes" sh -c \
	"$DD if=$D bs=1M skip=3 count=8 iflag=direct 2>/dev/null | $CMP - $T/pat8m &&
	 $DD if=$D bs=512 skip=30001 count=24 iflag=direct 2>/dev/null | $CMP - $T/pat12k"
head -c $((4 * MiB)) /dev/urandom > $T/pat4m
check "the other way: 4 MiB written on the server, at 40 MiB" \
	$DD if=$T/pat4m of="$B" bs=1M seek=40 oflag=direct conv=notrunc,fsync
check "read through the disk (4 KiB direct reads)" sh -c \
	"$DD if=$D bs=4k skip=$((40 * 256)) count=1024 iflag=direct 2>/dev/null | $CMP - $T/pat4m"
check "read through the disk (a buffered read of 4 MiB)" sh -c \
	"$BLOCKDEV --flushbufs $D && $DD if=$D bs=1M skip=40 count=4 2>/dev/null | $CMP - $T/pat4m"

# ---- flush, FUA, discard, write zeroes ----------------------------------
f0=$(blk_counter "$D" flushes)
u0=$(blk_counter "$D" fua)
ef0=$(blk_export_counter basic flushes)
check "dd conv=fsync (a FLUSH)" $DD if=$T/pat12k of="$D" bs=4k seek=100 count=1 conv=notrunc,fsync
check "dd oflag=direct,dsync (FUA writes)" \
	$DD if=$T/pat12k of="$D" bs=4k seek=200 count=3 oflag=direct,dsync conv=notrunc
f1=$(blk_counter "$D" flushes)
u1=$(blk_counter "$D" fua)
ef1=$(blk_export_counter basic flushes)
diag "client flushes $f0 -> $f1, fua $u0 -> $u1; export flushes $ef0 -> $ef1"
diag "write cache of the backing device: $(cat /sys/block/${B#/dev/}/queue/write_cache), of the disk: $(cat /sys/block/${D#/dev/}/queue/write_cache 2>/dev/null)"
check "the mapping counted the FLUSH" test "${f1:-0}" -gt "${f0:-0}"
check "the mapping counted the FUA writes" test "${u1:-0}" -gt "${u0:-0}"
check "the export counted the FLUSH" test "${ef1:-0}" -gt "${ef0:-0}"

check "write 4 MiB of random data at 64 MiB and at 72 MiB" sh -c \
	"$DD if=$T/pat4m of=$D bs=1M seek=64 oflag=direct conv=notrunc &&
	 $DD if=$T/pat4m of=$D bs=1M seek=72 oflag=direct conv=notrunc"
d0=$(blk_counter "$D" discards)
z0=$(blk_counter "$D" write_zeroes)
diag "discard: max $(cat /sys/block/${D#/dev/}/queue/discard_max_bytes 2>/dev/null) bytes, write zeroes: max $(cat /sys/block/${D#/dev/}/queue/write_zeroes_max_bytes 2>/dev/null) bytes"
check "blkdiscard 4 MiB at 64 MiB" /usr/sbin/blkdiscard -o $((64 * MiB)) -l $((4 * MiB)) "$D"
check "blkdiscard -z (write zeroes) 4 MiB at 72 MiB" \
	/usr/sbin/blkdiscard -z -o $((72 * MiB)) -l $((4 * MiB)) "$D"
$BLOCKDEV --flushbufs "$B"
check "the discarded range reads as zeroes on the backing device" sh -c \
	"$DD if=$B bs=1M skip=64 count=4 iflag=direct 2>/dev/null | $CMP -n $((4 * MiB)) - /dev/zero"
check "the zeroed range reads as zeroes on the backing device" sh -c \
	"$DD if=$B bs=1M skip=72 count=4 iflag=direct 2>/dev/null | $CMP -n $((4 * MiB)) - /dev/zero"
check "and through the disk" sh -c \
	"$DD if=$D bs=1M skip=64 count=12 iflag=direct 2>/dev/null |
	 $CMP -n $((4 * MiB)) - /dev/zero"
check "the mapping counted the DISCARD" test "$(blk_counter "$D" discards)" -gt "${d0:-0}"
diag "write_zeroes counter $z0 -> $(blk_counter "$D" write_zeroes)"
check "the bytes around the zeroed ranges are untouched" sh -c \
	"$DD if=$B bs=1M skip=40 count=4 iflag=direct 2>/dev/null | $CMP - $T/pat4m"

# ---- fio: verified random writes, then a verifying read -----------------
# two jobs, each in its own 32 MiB region (offset_increment), sizes from
# 4 KiB (inline) to 128 KiB (RDMA READ by the server)
fio_verify() { # NAME ENGINE DEPTH
	$FIO --name="$1" --filename="$D" --direct=1 --ioengine="$2" --iodepth="$3" \
		--numjobs=2 --offset=96M --offset_increment=32M --size=16M \
		--bsrange=4k-128k --rw=randwrite --verify=crc32c --verify_fatal=1 \
		--do_verify=1 --randrepeat=1 --group_reporting > $T/fio_$1.out 2>&1 &&
	$FIO --name="$1" --filename="$D" --direct=1 --ioengine="$2" --iodepth="$3" \
		--numjobs=2 --offset=96M --offset_increment=32M --size=16M \
		--bsrange=4k-128k --rw=randwrite --verify=crc32c --verify_fatal=1 \
		--verify_only=1 --randrepeat=1 --group_reporting >> $T/fio_$1.out 2>&1
}
if fio_verify qd1 psync 1; then
	ok "fio randwrite verify=crc32c and a verifying read, QD1, 2 jobs"
else
	not_ok "fio randwrite verify=crc32c and a verifying read, QD1, 2 jobs"
	diag "$(tail -n 30 $T/fio_qd1.out)"
fi
if fio_verify qd32 libaio 32; then
	ok "fio randwrite verify=crc32c and a verifying read, QD32, 2 jobs"
else
	not_ok "fio randwrite verify=crc32c and a verifying read, QD32, 2 jobs"
	diag "$(tail -n 30 $T/fio_qd32.out)"
fi
# the server is on this host: no post runs its provider work at once,
# not even at depth 1 (blk-client.rst, "Where a post's work runs")
check "200 reads of 4 KiB, one at a time" \
	dd if="$D" of=/dev/null bs=4k count=200 iflag=direct status=none
check_eq "with the server on this host no post ran its provider work at once (posts_now)" \
	0 "$(cat /sys/block/${D#/dev/}/rdmachan/posts_now)"
check "the counters: no errors, nothing rejected, nothing in flight" sh -c \
	"$TOOL -j blk show | jq -e --arg d '$D' '(.maps[] | select(.dev == \$d) | .counters |
		.errors == 0 and .rejected == 0 and .inflight == 0 and .reads > 0 and .writes > 0) and
		(.exports[] | select(.name == \"basic\") | .counters | .errors == 0 and .rejected == 0)' > /dev/null"
diag "$($TOOL -sd blk show)"

# ---- one CPU --------------------------------------------------------------
# fio and the wire's work on CPU 0, the server's too: the client's posts
# leave soft-RoCE's work to ksoftirqd (blk-client.rst, "Where a post's
# work runs"), so fio fills its queue before the server runs, and the
# disk must hold at least 8 of fio's 16 requests on average
# (time_in_queue over io_ticks, in tenths; about 10 when each request
# ended before fio posted the next).  Where the server's work was woken
# (blk_srv_io.c, rcblk_srv_io_kick(); the workqueue_queue_work
# tracepoint) is a diagnostic, with the wire's work on CPU 1 first.
TR=/sys/kernel/tracing
WQE=$TR/events/workqueue/workqueue_queue_work
wq_count() { # run fio; print the kicks on rcblk_srv and on rcblk_srv_yield
	# meanwhile, and the disk's average queue while busy (tenths)
	read -r _ _ _ _ _ _ _ _ _ b0 q0 _ < /sys/block/${D#/dev/}/stat
	echo > $TR/trace
	echo 1 > $WQE/enable
	timeout 120 $FIO --name=wq --filename="$D" --direct=1 --ioengine=libaio \
		--iodepth=16 --rw=randread --bs=4k --cpus_allowed=0 --time_based \
		--runtime=3 --size=64M > $T/fio_wq.out 2>&1 || echo "fio failed" >&2
	echo 0 > $WQE/enable
	read -r _ _ _ _ _ _ _ _ _ b1 q1 _ < /sys/block/${D#/dev/}/stat
	echo "$(grep -c 'workqueue=rcblk_srv ' $TR/trace)" \
		"$(grep -c 'workqueue=rcblk_srv_yield ' $TR/trace)" \
		"$(((q1 - q0) * 10 / (b1 - b0 + 1)))"
}
check "tracefs is mounted" sh -c "[ -e $TR/trace ] || mount -t tracefs nodev $TR"
echo 'workqueue ~ "rcblk_srv*"' > $WQE/filter
check "the wire's work on CPU 1" wire_fifo 2
wq_count > $T/wq
read -r hi yield qd < $T/wq
diag "wire on CPU 1: $hi kicks on rcblk_srv, $yield on rcblk_srv_yield, queue $qd/10"
check "wire on CPU 1: the server's work is woken at high priority" test "${hi:-0}" -gt 0
check "the wire's work on CPU 0" wire_fifo 1
wq_count > $T/wq
check "the wire's work on every CPU again" wire_fifo
read -r hi yield qd < $T/wq
diag "one CPU: $hi kicks on rcblk_srv, $yield on rcblk_srv_yield, queue $qd/10"
check "one CPU: the disk held at least 8 requests at a time on average" \
	test "${qd:-0}" -ge 80
echo 0 > $WQE/filter

# ---- ext4 ---------------------------------------------------------------
check_eq "the mapping is still live" live \
	"$($TOOL -j blk show maps | jq -r --arg d "$D" '.maps[] | select(.dev == $d) | .state')"
check "mkfs.ext4 on the disk" /usr/sbin/mkfs.ext4 -q -F "$D"
check "mount it" mount -t ext4 "$D" $MNT
if grep -q " $MNT ext4 " /proc/mounts; then
	i=1
	while [ $i -le 12 ]; do
		head -c $((i * 97 * 1024 + i)) /dev/urandom > $MNT/file$i
		i=$((i + 1))
	done
	cp $T/pat8m $MNT/big
	mkdir -p $MNT/dir/sub && cp $T/pat12k $MNT/dir/sub/small
	(cd $MNT && md5sum file* big dir/sub/small > $T/sums)
	check_eq "14 files written and summed" 14 "$(wc -l < $T/sums)"
	check "sync" sync
	check_fail "blk unmap of a mounted disk is refused (EBUSY)" "EBUSY" $TOOL blk unmap "$D"
	check_fail "blk unexport of a mapped export is refused (EBUSY)" "EBUSY" \
		$TOOL blk unexport basic
	check "umount" umount $MNT
	check "e2fsck -fn finds it clean" /usr/sbin/e2fsck -fn "$D"
	$BLOCKDEV --flushbufs "$B"
	check "e2fsck -fn of the backing device (the server's copy) finds it clean too" \
		/usr/sbin/e2fsck -fn "$B"
	check "mount it again" mount -t ext4 "$D" $MNT
	check "every file has its checksum" sh -c "cd $MNT && md5sum -c $T/sums"
	check "umount again" umount $MNT
else
	not_ok "ext4: files, e2fsck, remount (not run: no file system mounted)"
	diag "$($TOOL -sd blk show maps)"
	# the refusals, with the disk held open instead of mounted
	exec 5< "$D"
	check_fail "blk unmap of an open disk is refused (EBUSY)" "EBUSY" $TOOL blk unmap "$D"
	# a dead mapping has no session on the server: unexport may go on
	if [ "$($TOOL -j blk show maps | jq -r --arg d "$D" '.maps[] | select(.dev == $d) | .state')" = live ]; then
		check_fail "blk unexport of a mapped export is refused (EBUSY)" "EBUSY" \
			$TOOL blk unexport basic
	fi
	exec 5<&-
fi

# ---- the end ------------------------------------------------------------
check "blk unmap $D" $TOOL blk unmap "$D"
check "the disk is gone" wait_for 5 sh -c "! test -e $D"

# one queue: every request and reply on one channel, a depth below fio's
$TOOL -j blk show exports | jq -e '.exports[] | select(.name == "basic")' > /dev/null ||
	check "export basic again (the dead mapping let it go)" \
		$TOOL blk export basic "$B" --allow 192.0.2.0/24
D=$(timeout 60 $TOOL blk map $BLK_SRV basic --src $BLK_CLI --queues 1 --depth 16 2> $T/map1.err)
check "blk map --queues 1 --depth 16 ($D)" test -b "$D"
check_eq "blk show: 1 queue, depth 16" "1 16" \
	"$($TOOL -j blk show maps | jq -r --arg d "$D" '.maps[] | select(.dev == $d) | "\(.queues) \(.depth)"')"
# no I/O scheduler by default, one queue or many; one set by hand holds
SCHED=/sys/block/${D#/dev/}/queue/scheduler
check "its I/O scheduler is none by default" grep -q '\[none\]' $SCHED
check "mq-deadline can be set on it" sh -c "echo mq-deadline > $SCHED && grep -q '\[mq-deadline\]' $SCHED"
if timeout 300 $FIO --name=q1 --filename="$D" --direct=1 --ioengine=libaio --iodepth=32 \
	--rw=randwrite --bsrange=4k-128k --size=8M --offset=200M --verify=crc32c \
	--verify_fatal=1 > $T/fio_q1.out 2>&1; then
	ok "fio randwrite verify=crc32c at QD32 on one queue of depth 16, mq-deadline"
else
	not_ok "fio randwrite verify=crc32c at QD32 on one queue of depth 16, mq-deadline"
	diag "$(grep -E 'err=|error|verify|fio:' $T/fio_q1.out | head -n 5)"
	diag "$($TOOL -sd blk show maps)"
fi
# inline WRITEs, whose replies the server sends several to a message
# when one pass of its work has them ready (blk-server.rst, "Replies"),
# without a scheduler again
check "back to none" sh -c "echo none > $SCHED && grep -q '\[none\]' $SCHED"
b0=$(cat /sys/block/${D#/dev/}/rdmachan/batched_replies)
if timeout 300 $FIO --name=q1b --filename="$D" --direct=1 --ioengine=libaio \
	--iodepth=32 --rw=randwrite --bs=4k --size=8M --offset=100M \
	--verify=crc32c --verify_fatal=1 > $T/fio_q1b.out 2>&1; then
	ok "fio 4k randwrite verify=crc32c at QD32 on it"
else
	not_ok "fio 4k randwrite verify=crc32c at QD32 on it"
	diag "$(grep -E 'err=|error|verify|fio:' $T/fio_q1b.out | head -n 5)"
fi
b1=$(cat /sys/block/${D#/dev/}/rdmachan/batched_replies)
diag "${D#/dev/}: $((b1 - b0)) replies came behind another in a message"
check "the server answered some of them in batches" test "$((b1 - b0))" -gt 0
check_eq "nothing bogus" 0 "$(cat /sys/block/${D#/dev/}/rdmachan/bogus)"
check "blk unmap $D" timeout 60 $TOOL blk unmap "$D"

# one queue of depth 64 on a grant of 16, fio at QD16: the server
# answers each request at once, so it never holds half of its grant and
# grows it by itself to 32 at most, while the requests' credits are on
# the wire too.  A client refused a credit asks for more (protocol.rst,
# "Grants that follow use"): then, once fio is done, its channel holds
# the whole depth (before the idle shrink, 5 s later)
D=$(timeout 60 $TOOL blk map $BLK_SRV basic --src $BLK_CLI --queues 1 --depth 64 2> $T/map2.err)
check "blk map --queues 1 --depth 64 ($D)" test -b "$D"
C=$(cat /sys/block/${D#/dev/}/rdmachan/channels 2> /dev/null)
diag "its channel $C: $(cat /sys/class/rdmachan/$C/send_credits 2> /dev/null) credits before fio"
check "fio randread at QD16 on it, 2 s" timeout 120 $FIO --name=g --filename="$D" \
	--direct=1 --ioengine=libaio --iodepth=16 --rw=randread --bs=4k \
	--time_based --runtime=2 --size=64M --output=$T/fio_g.out
refused=$(cat /sys/block/${D#/dev/}/rdmachan/busy)
diag "${D#/dev/}: $refused requests refused for want of room"
if [ "${refused:-0}" -gt 0 ]; then
	check "refused, it asked: its channel holds 64 credits within 3 s" \
		wait_for 3 sh -c "test \$(cat /sys/class/rdmachan/$C/send_credits) = 64"
else
	ok "no request refused: nothing to ask"
fi
diag "$C: $(cat /sys/class/rdmachan/$C/send_credits) credits"
check "blk unmap $D" timeout 60 $TOOL blk unmap "$D"
check_eq "blk show maps: none" "0" "$($TOOL -j blk show maps | jq '.maps | length')"
check "blk unexport basic" $TOOL blk unexport basic
check_eq "blk show exports: none" "0" "$($TOOL -j blk show exports | jq '.exports | length')"
check "rdmachan_blk and rdmachan unload" blk_unload
done_testing
