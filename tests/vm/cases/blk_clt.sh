#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The block client's own interfaces: mapping and unmapping through
# /sys/class/rdmachan_blk/ctl/map_device and unmap_device (no tool), the
# per-disk attributes under /sys/block/rcblkN/rdmachan/, inline and
# remote WRITEs counted apart, READs through the staging pages and
# remote ones too (clt_staged_reads=0: none staged), a read-only
# mapping, rmmod refused while
# mapped, unmap refused while the disk is open and forced under dd.
# Then against tests/vm/helpers/blk_evil, a hostile server on a plain
# channel: an OPEN_RSP with a bad magic, short, refused (EACCES), two
# queues answering different exports (each EPROTO or the refusal's
# errno, logged, nothing left mapped); replies with tags past the depth
# or for requests no longer in flight (counted in bogus, logged, the
# mapping live); batches of replies malformed, too long, with bogus tags,
# or not offered (clt_reply_batch=0: counted in bogus, logged, the rest
# taken); a server that writes the staging pages itself and sends bogus
# WRITE_WITH_IMMs (bogus, logged, its bytes read), and answers a remote
# READ by the WRITE_WITH_IMM of its data (read, invalidated here); a
# server that stops
# answering (the request times out
# with io_timeout 1 s, the mapping dies, I/O fails at once, the unmap
# works), and one that closes its channels (likewise).

# Both kernels over rxe (the debug kernel adds KASAN, lockdep, kmemleak)
requires() {
	_have_kernel stock debug
}

. /tests/lib.sh

T=/tmp/blk_clt
mkdir -p $T
CTL=/sys/class/rdmachan_blk/ctl
KiB=1024
MiB=1048576

# attr N NAME: /sys/block/rcblkN/rdmachan/NAME
attr() {
	cat "/sys/block/rcblk$1/rdmachan/$2" 2>/dev/null
}

# newest_index: the index of the mapping mapped last (dmesg says it)
newest_index() {
	dmesg | sed -n 's/.*rdmachan_blk: rcblk\([0-9]*\): export .* on .*sectors.*/\1/p' | tail -n 1
}

check "rxe pair comes up" rxe_pair_up
check "rdmachan and rdmachan_blk load" blk_load
B=$(nullb_new clt 64)
check "a 64 MiB memory-backed null_blk ($B)" test -b "$B"
[ -b "$B" ] || blk_bail "no backing device"
check "export clt" $TOOL blk export clt "$B" --allow 192.0.2.0/24

# ---- map through sysfs ---------------------------------------------------
check "map_device shows its usage" sh -c "grep -q 'ADDR\[:PORT\] NAME' $CTL/map_device"
check_fail "map_device refuses a malformed line" "Invalid argument" \
	sh -c "echo 'nonsense' > $CTL/map_device"
check_fail "map_device refuses an unknown option" "Invalid argument" \
	sh -c "echo '$BLK_SRV clt bogus=1' > $CTL/map_device"
check_fail "map_device of an unknown export: ENOENT" "No such file" \
	sh -c "echo '$BLK_SRV nosuch' > $CTL/map_device"
check "the refusal is logged with the export and the server" sh -c \
	"dmesg | grep -q 'refused export nosuch: -2'"
check "map_device '$BLK_SRV:7471 clt queues=2 depth=32'" \
	sh -c "echo '$BLK_SRV:7471 clt queues=2 depth=32' > $CTL/map_device"
N=$(newest_index)
D=/dev/rcblk$N
check "the disk exists ($D)" wait_for 5 test -b "$D"
[ -b "$D" ] || blk_bail "no mapping"
check_eq "rdmachan/state" live "$(attr $N state)"
check_eq "rdmachan/server" "$BLK_SRV:7471" "$(attr $N server)"
check_eq "rdmachan/export" clt "$(attr $N export)"
check_eq "rdmachan/nr_queues" 2 "$(attr $N nr_queues)"
check "rdmachan/queue_depth is at most 32" test "$(attr $N queue_depth)" -le 32 -a "$(attr $N queue_depth)" -ge 2
check "rdmachan/max_io is a multiple of 4 KiB" sh -c "test \$(( $(attr $N max_io) % 4096 )) = 0 -a $(attr $N max_io) -gt 0"
IM=$(attr $N inline_max)
diag "max_io $(attr $N max_io), inline_max $IM, features $(attr $N features), export_flags $(attr $N export_flags)"
check_eq "max_hw_sectors_kb is max_io" "$(($(attr $N max_io) / KiB))" \
	"$(cat /sys/block/rcblk$N/queue/max_hw_sectors_kb)"
check_eq "the size is the backing device's" "$($BLOCKDEV --getsize64 "$B")" \
	"$($BLOCKDEV --getsize64 "$D")"
check_eq "two hardware queues" 2 "$(ls /sys/block/rcblk$N/mq | wc -l)"

# ---- inline and remote WRITEs --------------------------------------------
head -c $((4 * KiB)) /dev/urandom > $T/p4k
head -c $((256 * KiB)) /dev/urandom > $T/p256k
iw0=$(attr $N inline_writes)
w0=$(attr $N writes)
check "a 4 KiB direct write" $DD if=$T/p4k of="$D" bs=4k seek=7 oflag=direct conv=notrunc
if [ "${IM:-0}" -ge 4096 ]; then
	check_eq "it travelled inline" $((iw0 + 1)) "$(attr $N inline_writes)"
fi
iw1=$(attr $N inline_writes)
check "a 256 KiB direct write" $DD if=$T/p256k of="$D" bs=256k seek=3 oflag=direct conv=notrunc
check_eq "it was not inline" "$iw1" "$(attr $N inline_writes)"
check "writes counted" test "$(attr $N writes)" -ge $((w0 + 2))
$BLOCKDEV --flushbufs "$B"
check "the backing device has both" sh -c \
	"$DD if=$B bs=4k skip=7 count=1 iflag=direct 2>/dev/null | $CMP - $T/p4k &&
	 $DD if=$B bs=256k skip=3 count=1 iflag=direct 2>/dev/null | $CMP - $T/p256k"
check "reading back through the disk (remote READs)" sh -c \
	"$DD if=$D bs=256k skip=3 count=1 iflag=direct 2>/dev/null | $CMP - $T/p256k &&
	 $DD if=$D bs=512 skip=56 count=8 iflag=direct 2>/dev/null | $CMP - $T/p4k"
check "read_bytes counted" test "$(attr $N read_bytes)" -ge $((256 * KiB))
# a READ of a page or less went through its tag's staging page
check_eq "a staging page per tag (depth 32)" "$(attr $N queue_depth)" \
	"$(attr $N staging_pages)"
sr0=$(attr $N staged_reads)
r0=$(attr $N reads)
check "a 4 KiB direct read of the 4 KiB written" sh -c \
	"$DD if=$D bs=4k skip=7 count=1 iflag=direct 2>/dev/null | $CMP - $T/p4k"
check_eq "it was staged" $((sr0 + 1)) "$(attr $N staged_reads)"
check "an 8 KiB direct read" $DD if="$D" of=/dev/null bs=8k count=1 iflag=direct
check_eq "it was not" $((sr0 + 1)) "$(attr $N staged_reads)"
check_eq "both counted as reads" $((r0 + 2)) "$(attr $N reads)"
# every remote READ and WRITE gave its registration back, invalidated by
# the server's reply or here; a staged one had none
check_eq "remote_inv + local_inv = the remote requests" \
	"$(($(attr $N reads) - $(attr $N staged_reads) + $(attr $N writes) - $(attr $N inline_writes)))" \
	"$(($(attr $N remote_inv) + $(attr $N local_inv)))"
diag "remote_inv $(attr $N remote_inv) local_inv $(attr $N local_inv) starved $(attr $N starved) busy $(attr $N busy)"
# on rxe the registrations and local invalidations of each queue's
# channel run on a QP of their own, an RC QP connected to itself
# (Documentation/protocol.rst, "Remote invalidation"): one per queue (the
# server's channels, whose sends carry none, have none)
if [ "$RDMA_DRIVER" = rxe ]; then
	check_eq "a registration QP per queue, connected to itself (rdma res show qp)" 2 \
		"$($RDMA res show qp | awk '{ for (i = 1; i < NF; i++) { if ($i == "lqpn") l = $(i + 1); if ($i == "rqpn") r = $(i + 1) } if (l != "" && l == r) n++; l = r = "" } END { print n + 0 }')"
fi
# on RoCE only a staged READ's reply rides its data's RDMA WRITE_WITH_IMM
# (RCBLK_OPEN_WRITE_IMM): the server's reply to a remote READ or WRITE
# invalidates its registration, and the client posts no invalidation
if [ "$RDMA_DRIVER" = rxe ]; then
	check_eq "each remote READ and WRITE invalidated by the server's reply" \
		"$(($(attr $N reads) - $(attr $N staged_reads) + $(attr $N writes) - $(attr $N inline_writes))) 0" \
		"$(attr $N remote_inv) $(attr $N local_inv)"
fi
# the page cache writes back 512-byte buffers: a request whose data
# starts 1 KiB into a page, so its registration starts inside one
head -c $((40 * KiB)) /dev/urandom > $T/p40k
check "a buffered 40 KiB write at byte 1025 KiB, then fsync" \
	$DD if=$T/p40k of="$D" bs=1k seek=1025 conv=notrunc,fsync
$BLOCKDEV --flushbufs "$B"
check "the backing device has it" sh -c \
	"$DD if=$B bs=1k skip=1025 count=40 iflag=direct 2>/dev/null | $CMP - $T/p40k"
$BLOCKDEV --flushbufs "$D"
check "read back through the disk (buffered)" sh -c \
	"$DD if=$D bs=1k skip=1025 count=40 2>/dev/null | $CMP - $T/p40k"
check_eq "the mapping is live" live "$(attr $N state)"
check_eq "no errors" 0 "$(attr $N errors)"
check_eq "nothing bogus" 0 "$(attr $N bogus)"
check_eq "nothing in flight" 0 "$(attr $N inflight)"

# ---- module reference, open disk -------------------------------------------
check_fail "rmmod rdmachan_blk is refused while mapped" "in use|busy" $RMMOD rdmachan_blk
exec 4<"$D"
check_fail "unmap_device while the disk is open: EBUSY" "busy" \
	sh -c "echo $N > $CTL/unmap_device"
check_fail "unmap_device refuses a malformed line" "Invalid argument" \
	sh -c "echo '$N now' > $CTL/unmap_device"
check "remap_device shows its usage" sh -c "grep -q 'INDEX' $CTL/remap_device"
check_fail "remap_device of a live mapping: EALREADY" "already in progress" \
	sh -c "echo $N > $CTL/remap_device"
exec 4<&-
check "unmap_device once closed" wait_for 10 sh -c "echo $N > $CTL/unmap_device"
check "the disk is gone" wait_for 5 sh -c "! test -e $D"
check_fail "unmap_device of a gone index: ENOENT" "No such file" \
	sh -c "echo $N > $CTL/unmap_device"

# ---- read-only, READs all remote (clt_staged_reads=0) ---------------------
echo 0 > /sys/module/rdmachan_blk/parameters/clt_staged_reads
check "map_device '$BLK_SRV clt ro queues=1'" sh -c "echo '$BLK_SRV clt ro queues=1' > $CTL/map_device"
echo 1 > /sys/module/rdmachan_blk/parameters/clt_staged_reads
N=$(newest_index)
D=/dev/rcblk$N
check "the read-only disk exists ($D)" wait_for 5 test -b "$D"
check_eq "it is read-only" 1 "$($BLOCKDEV --getro "$D")"
check_fail "a write to it fails" "Operation not permitted|Read-only|Permission denied" \
	$DD if=$T/p4k of="$D" bs=4k oflag=direct conv=notrunc
check "it reads" sh -c "$DD if=$D bs=256k skip=3 count=1 iflag=direct 2>/dev/null | $CMP - $T/p256k"
check_eq "no staging pages: not offered" 0 "$(attr $N staging_pages)"
check "a 4 KiB read" sh -c \
	"$DD if=$D bs=4k skip=7 count=1 iflag=direct 2>/dev/null | $CMP - $T/p4k"
check_eq "no READ was staged" 0 "$(attr $N staged_reads)"
check_eq "each READ was remote" "$(attr $N reads)" \
	"$(($(attr $N remote_inv) + $(attr $N local_inv)))"
check "unmap it" wait_for 10 sh -c "echo $N > $CTL/unmap_device"

# ---- forced unmap under dd --------------------------------------------------
check "map_device '$BLK_SRV clt'" sh -c "echo '$BLK_SRV clt' > $CTL/map_device"
N=$(newest_index)
D=/dev/rcblk$N
check "the disk exists ($D)" wait_for 5 test -b "$D"
# dd after dd over the first 32 MiB, until one fails
(
	while $DD if=/dev/zero of="$D" bs=128k oflag=direct conv=notrunc count=256 \
		2>> $T/dd.err; do
		:
	done
) &
loop_pid=$!
exec 5<"$D"
# writes_seen: the mapping counted a write (dd has started)
writes_seen() {
	test "$(attr $N writes)" -gt 0
}
check "writes are on the wire" wait_for 60 writes_seen
check "dd is writing" kill -0 $loop_pid
check_fail "unmap without force is refused while open under dd" "busy" \
	sh -c "echo $N > $CTL/unmap_device"
t0=$(date +%s)
check "unmap_device '$N force' returns within 60 s" timeout 60 sh -c "echo '$N force' > $CTL/unmap_device"
diag "the forced unmap took $(($(date +%s) - t0)) s"
exec 5<&-
if wait_for 60 proc_ended $loop_pid; then
	ok "dd fails and its loop ends within 60 s"
else
	not_ok "dd fails and its loop ends within 60 s"
	kill -9 $loop_pid 2>/dev/null
fi
diag "$(tail -n 3 $T/dd.err)"
check "the disk is gone" wait_for 10 sh -c "! test -e $D"
check "the export has no session left" wait_for 20 sh -c \
	"$TOOL -j blk show exports | jq -e '.exports[] | select(.name == \"clt\") | .sessions == 0' > /dev/null"

# ---- many remote WRITEs at once ------------------------------------------
# a 1 MiB direct write is 8 requests of 128 KiB on one queue, each pulled
# by the server with RDMA READ from its registration
check "map_device '$BLK_SRV clt queues=1 src=$BLK_CLI' (over the veth pair)" \
	sh -c "echo '$BLK_SRV clt queues=1 src=$BLK_CLI' > $CTL/map_device"
N=$(newest_index)
D=/dev/rcblk$N
head -c $((4 * MiB)) /dev/urandom > $T/p4m
check "4 MiB of 1 MiB direct writes" $DD if=$T/p4m of="$D" bs=1M seek=8 oflag=direct conv=notrunc
check_eq "the mapping is live after them" live "$(attr $N state)"
$BLOCKDEV --flushbufs "$B"
check "the backing device has them" sh -c \
	"$DD if=$B bs=1M skip=8 count=4 iflag=direct 2>/dev/null | $CMP - $T/p4m"
check "4 MiB of 1 MiB direct reads" sh -c \
	"$DD if=$D bs=1M skip=8 count=4 iflag=direct 2>/dev/null | $CMP - $T/p4m"
diag "$(dmesg | grep -E 'rdmachan|rcblk' | tail -n 5)"
check "unmap it" wait_for 10 sh -c "echo $N > $CTL/unmap_device"

# ---- a hostile server (tests/vm/helpers/blk_evil) -------------------------
EVIL=$HELPERS/blk_evil
EVIL_PORT=7480

# evil_start MODE QUEUES: blk_evil listening on $BLK_SRV:$EVIL_PORT (a
# new port each time: a listener's port is not free at once)
evil_start() {
	EVIL_PORT=$((EVIL_PORT + 1))
	$EVIL -p $EVIL_PORT -q "$2" "$1" > $T/evil_$1.out 2>&1 &
	evil_pid=$!
	wait_for 10 grep -q listening $T/evil_$1.out
}

# evil_map MODE QUEUES: start blk_evil (in this shell: check runs its
# command in a subshell), then map its export; the write's error.  A lost
# link is given up after 1 s (blk_recover.sh tests the reconnecting).
evil_map() {
	evil_start "$1" "$2" || { echo "blk_evil did not start"; return 1; }
	sh -c "echo '$BLK_SRV:$EVIL_PORT evil queues=$2 reconnect_delay_ms=100 loss_timeout_ms=1000' > $CTL/map_device" 2>&1
}

# evil_refused MODE QUEUES DESC REGEX: the map fails with REGEX
evil_refused() {
	if evil_start "$1" "$2"; then
		check_fail "$3" "$4" sh -c "echo '$BLK_SRV:$EVIL_PORT evil queues=$2' > $CTL/map_device"
	else
		not_ok "$3"
		diag "blk_evil did not start: $(cat $T/evil_$1.out)"
	fi
}

evil_gone() {
	wait_for 15 proc_ended $evil_pid || {
		diag "blk_evil did not end: killed"
		kill -9 $evil_pid 2>/dev/null
	}
	diag "$(cat $T/evil_*.out 2>/dev/null | tail -n 3)"
	rm -f $T/evil_*.out
}

evil_refused garbage 1 "OPEN_RSP with a bad magic: EPROTO" "Protocol error"
evil_gone
check "it is logged" sh -c "dmesg | grep -q 'bad OPEN_RSP for evil from $BLK_SRV:$EVIL_PORT: bad magic'"
evil_refused short 1 "a short OPEN_RSP: EPROTO" "Protocol error"
evil_gone
check "it is logged" sh -c "dmesg | grep -q 'short OPEN_RSP'"
evil_refused refuse 1 "OPEN_RSP status ACCES: EACCES" "Permission denied"
evil_gone
evil_refused mismatch 2 "two queues answering other export ids: EPROTO" "Protocol error"
evil_gone
check "it is logged" sh -c "dmesg | grep -q 'answered another export or geometry'"
echo 2000 > /sys/module/rdmachan_blk/parameters/clt_timeout_ms
evil_refused mute 1 "no OPEN_RSP within clt_timeout_ms: ETIMEDOUT" "timed out"
evil_gone
echo 10000 > /sys/module/rdmachan_blk/parameters/clt_timeout_ms
check "it is logged" sh -c "dmesg | grep -q 'no OPEN_RSP for evil from $BLK_SRV:$EVIL_PORT in 2000 ms'"
check_eq "no mapping was left by the refusals" 0 "$($TOOL -j blk show maps | jq '.maps | length')"

# bogus replies: a tag past the depth, a reply for a request not in flight
if evil_map badtags 1 > $T/evil_map.err; then
	ok "map from a server that sends bogus tags"
	N=$(newest_index)
	D=/dev/rcblk$N
	check_fail "a READ fails with EIO (the server said IOERR)" "Input/output error" \
		$DD if="$D" of=/dev/null bs=4k count=1 iflag=direct
	check "bogus replies were counted" test "$(attr $N bogus)" -gt 0
	check "errors were counted" test "$(attr $N errors)" -gt 0
	check_eq "the mapping is still live" live "$(attr $N state)"
	check "the bogus tags are logged" sh -c "dmesg | grep -q 'rcblk$N: queue 0: ignored reply'"
	check "unmap it" wait_for 10 sh -c "echo $N > $CTL/unmap_device"
else
	not_ok "map from a server that sends bogus tags"
	diag "$(cat $T/evil_map.err)"
fi
evil_gone

# batches of replies: malformed ones, bogus tags in them, and a batch
# from a server that was not offered them (clt_reply_batch=0)
for _b in 1 0; do
	echo $_b > /sys/module/rdmachan_blk/parameters/clt_reply_batch
	if evil_map batch 1 > $T/evil_map.err; then
		ok "map from a server that sends bad batches (clt_reply_batch=$_b)"
		N=$(newest_index)
		check_fail "a READ fails with EIO (the batch said IOERR)" \
			"Input/output error" \
			$DD if=/dev/rcblk$N of=/dev/null bs=4k count=1 iflag=direct
		check_eq "the mapping is still live" live "$(attr $N state)"
		if [ $_b = 1 ]; then
			check "bogus batches and replies were counted" \
				test "$(attr $N bogus)" -ge 4
			check "replies came in batches" \
				test "$(attr $N batched_replies)" -ge 2
			check "a malformed batch is logged" sh -c \
				"dmesg | grep -q 'rcblk$N: queue 0: ignored a batch of replies of 6 bytes'"
			check "one of 32 replies is logged" sh -c \
				"dmesg | grep -q 'rcblk$N: queue 0: ignored a batch of replies of 128 bytes'"
		else
			check "the batch, not offered, was bogus" \
				test "$(attr $N bogus)" -ge 1
			check_eq "no reply was taken from it" 0 \
				"$(attr $N batched_replies)"
			check "it is logged" sh -c \
				"dmesg | grep -q 'rcblk$N: queue 0: ignored reply 0x.*(len 4)'"
		fi
		check "unmap it" wait_for 10 sh -c "echo $N > $CTL/unmap_device"
	else
		not_ok "map from a server that sends bad batches (clt_reply_batch=$_b)"
		diag "$(cat $T/evil_map.err)"
	fi
	evil_gone
done
echo 1 > /sys/module/rdmachan_blk/parameters/clt_reply_batch

# READs into the staging pages, from a server that writes the data there
# by RDMA and sends bogus WRITE_WITH_IMMs (a tag past the depth, an
# error) before the right reply: the bogus ones are counted and logged,
# the bytes it wrote reach the reader.  A remote READ it answers by the
# WRITE_WITH_IMM of its data, the reply riding it: read, and its
# registration invalidated here (local_inv), not by the server.
head -c $((4 * KiB)) /dev/zero | tr '\0' '\245' > $T/a5
cat $T/a5 $T/a5 > $T/a5x2
if evil_map staged 1 > $T/evil_map.err; then
	ok "map from a server that writes the staging pages"
	N=$(newest_index)
	check "it granted staged READs" test "$(attr $N staging_pages)" -gt 0
	b0=$(attr $N bogus)
	sr0=$(attr $N staged_reads)
	check "a 4 KiB READ reads what the server wrote" sh -c \
		"$DD if=/dev/rcblk$N bs=4k skip=3 count=1 iflag=direct 2>/dev/null | $CMP - $T/a5"
	check_eq "it was staged" $((sr0 + 1)) "$(attr $N staged_reads)"
	check "the two bogus replies before it were counted" \
		test "$(attr $N bogus)" -ge $((b0 + 2))
	check "they are logged" sh -c \
		"dmesg | grep -q 'rcblk$N: queue 0: ignored reply'"
	li0=$(attr $N local_inv)
	ri0=$(attr $N remote_inv)
	check "an 8 KiB (remote) READ answered by WRITE_WITH_IMM reads its data" sh -c \
		"$DD if=/dev/rcblk$N bs=8k skip=1 count=1 iflag=direct 2>/dev/null | $CMP - $T/a5x2"
	check_eq "its registration was invalidated here, not remotely" \
		"$((li0 + 1)) $ri0" "$(attr $N local_inv) $(attr $N remote_inv)"
	check_fail "a WRITE fails with EIO (the server said IOERR)" \
		"Input/output error" \
		$DD if=$T/a5 of=/dev/rcblk$N bs=4k count=1 oflag=direct conv=notrunc
	check_eq "the mapping is still live" live "$(attr $N state)"
	check "unmap it" wait_for 10 sh -c "echo $N > $CTL/unmap_device"
else
	not_ok "map from a server that writes the staging pages"
	diag "$(cat $T/evil_map.err)"
fi
evil_gone

# a server that stops answering: the requests time out, the link is
# recovered, no attempt works within the loss timeout: the mapping dies
if evil_map silent 1 > $T/evil_map.err; then
	ok "map from a server that will stop answering"
	N=$(newest_index)
	D=/dev/rcblk$N
	echo 1000 > /sys/block/rcblk$N/queue/io_timeout
	touch /tmp/blk_evil.silent
	sleep 1
	t0=$(date +%s)
	check_fail "a READ it does not answer fails (EIO) within 60 s" "Input/output error" \
		timeout 60 $DD if="$D" of=/dev/null bs=4k count=1 iflag=direct
	diag "it took $(($(date +%s) - t0)) s"
	check "the mapping is dead" wait_for 20 sh -c "test \"\$(cat /sys/block/rcblk$N/rdmachan/state)\" = dead"
	check_eq "blk show says dead too" dead \
		"$($TOOL -j blk show maps | jq -r --arg d "$D" '.maps[] | select(.dev == $d) | .state')"
	check_fail "new I/O fails at once" "Input/output error|No such device" \
		timeout 10 $DD if="$D" of=/dev/null bs=4k count=1 iflag=direct
	check "unmap the dead mapping" wait_for 10 sh -c "echo $N > $CTL/unmap_device"
else
	not_ok "map from a server that will stop answering"
	diag "$(cat $T/evil_map.err)"
fi
rm -f /tmp/blk_evil.silent
evil_gone

# a server that closes its channels: no reconnect works, the mapping
# dies at the loss timeout, I/O fails
if evil_map close 1 > $T/evil_map.err; then
	ok "map from a server that will close its channels"
	N=$(newest_index)
	D=/dev/rcblk$N
	touch /tmp/blk_evil.silent
	check "the mapping dies within 30 s" wait_for 30 sh -c \
		"test \"\$(cat /sys/block/rcblk$N/rdmachan/state)\" = dead"
	check "last_error says why" test "$(attr $N last_error)" -lt 0
	check_fail "I/O fails at once" "Input/output error|No such device" \
		timeout 10 $DD if="$D" of=/dev/null bs=4k count=1 iflag=direct
	check "unmap it" wait_for 10 sh -c "echo $N > $CTL/unmap_device"
else
	not_ok "map from a server that will close its channels"
	diag "$(cat $T/evil_map.err)"
fi
rm -f /tmp/blk_evil.silent
evil_gone

check "blk unexport clt" $TOOL blk unexport clt
# the server's queues of the forced session may still be closing
check "rdmachan_blk and rdmachan unload (within 20 s)" wait_for 20 blk_unload
done_testing
