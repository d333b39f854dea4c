#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Queues of polled I/O (Documentation/blk-client.rst, "Polled queues"):
# a mapping of one queue and one polled queue ("blk map --poll-queues 1").
#
#   shape    sysfs says nr_queues 1, poll_queues 1, the disk's io_poll 1,
#            two channels, the second (the polled queue) "direct", the
#            first "softirq"; "blk show -j" says poll_queues 1; a mapping
#            without them has io_poll 0 and one channel.
#   routing  the block channel's send events (rdmachan_blk:rcblk_clt_send)
#            name the queue of each request: fio with io_uring and --hipri
#            (IOPOLL) sends on queue 1, libaio (not polled) only on queue 0;
#            the polled queue's 128 READs were invalidated by the server
#            (remote_inv), none locally (local_inv unchanged).
#   data     what polled writes wrote reads back through the other queue
#            and the other way round (fio --verify_only), crc32c checked.
#   outage   a verifying polled fio runs while the wire is blackholed
#            both ways, the way back first (lib/fixture.sh, wire_blackhole
#            on back: requests are left on the wire) and restored:
#            the mapping reconnects both queues, fio ends with no error
#            and no verify failure, held requests were resubmitted.
#   input    poll_queues=x is refused by map_device (EINVAL), --poll-queues
#            65 by the tool; the map_device usage names poll_queues=P.
#   force    "blk unmap --force" while a polled fio reads and writes
#            returns within 60 s, and fio ends within 60 s, with I/O
#            errors (its pollers find no channel, then their requests
#            failed).
#   unmap    unmap while idle, then unexport: no session, no channel is
#            left, rdmachan_blk and rdmachan unload.
#
# On Debian's kernels and the debug kernel, over rxe.
requires() {
	_have_kernel stock 6.12 debug
}

. /tests/lib.sh

T=/tmp/blk_poll
mkdir -p $T
TR=/sys/kernel/tracing
CTL=/sys/class/rdmachan_blk/ctl

check "tracefs is mounted" sh -c \
	"[ -e $TR/trace ] || mount -t tracefs nodev $TR"
check "rxe pair comes up" rxe_pair_up
check "rdmachan and rdmachan_blk load" blk_load
B=$(nullb_new poll 64)
[ -b "$B" ] || blk_bail "no backing device"
check "blk export poll $B" $TOOL blk export poll "$B" --allow 192.0.2.0/24

# ---- shape ---------------------------------------------------------------
D=$(timeout 60 $TOOL blk map $BLK_SRV poll --src $BLK_CLI --queues 1 \
	--poll-queues 1 2> $T/map.err)
[ -b "$D" ] || { diag "$(cat $T/map.err)"; blk_bail "no mapping"; }
ok "blk map --queues 1 --poll-queues 1 ($D)"
M=$(basename "$D")
check_eq "sysfs: nr_queues 1, poll_queues 1" "1 1" \
	"$(blk_map_attr "$D" nr_queues) $(blk_map_attr "$D" poll_queues)"
check_eq "the disk polls (queue/io_poll)" 1 "$(cat /sys/block/$M/queue/io_poll)"
set -- $(cat /sys/block/$M/rdmachan/channels)
check_eq "two channels" 2 $#
C0=$1
C1=$2
check_eq "queue 0's channel is softirq, queue 1's direct" "softirq direct" \
	"$(cat /sys/class/rdmachan/$C0/poll_mode) $(cat /sys/class/rdmachan/$C1/poll_mode)"
check_eq "blk show -j: queues 1, poll_queues 1" "1 1" \
	"$($TOOL -j blk show maps | jq -r --arg d "$D" '.maps[] |
		select(.dev == $d) | "\(.queues) \(.poll_queues)"')"
check "blk show prints poll_queues 1" sh -c \
	"$TOOL blk show maps | grep -q ' poll_queues 1 '"

# ---- routing and data ----------------------------------------------------
# fio_phase NAME ENGINE-ARGS...: 8 MiB of 64 KiB writes (crc32c headers)
# or, with --verify_only, their check; its output in $T/NAME.out
fio_phase() {
	_n=$1
	shift
	timeout 300 $FIO --name=phase --filename="$D" --direct=1 --iodepth=8 \
		--rw=write --bs=64k --size=8M --verify=crc32c --verify_fatal=1 \
		"$@" > $T/$_n.out 2>&1
}
# sends_on QUEUE: send events of queue QUEUE in the trace
sends_on() {
	grep -c "rcblk_clt_send: $M queue $1 " $TR/trace
}
# traced NAME ENGINE-ARGS...: fio_phase with the send events recorded
traced() {
	echo 0 > $TR/tracing_on
	echo > $TR/trace
	echo 1 > $TR/tracing_on
	fio_phase "$@"
	_rc=$?
	echo 0 > $TR/tracing_on
	[ $_rc = 0 ] || { diag "$(tail -n 5 $T/$1.out)"; return 1; }
}
echo 0 > $TR/events/enable
check "the send event enables" sh -c \
	"echo 1 > $TR/events/rdmachan_blk/rcblk_clt_send/enable"

check "polled writes (io_uring --hipri) run" \
	traced pw --ioengine=io_uring --hipri
check "they were sent on the polled queue" test "$(sends_on 1)" -gt 0
diag "polled writes: $(sends_on 1) sends on queue 1, $(sends_on 0) on queue 0"
check "libaio reads them back, crc32c checked" \
	traced pr --ioengine=libaio --verify_only
check_eq "not polled: nothing on the polled queue" 0 "$(sends_on 1)"
check "libaio writes run" traced lw --ioengine=libaio --offset=16M
check_eq "not polled: nothing on the polled queue" 0 "$(sends_on 1)"
li=$(blk_map_attr "$D" local_inv)
ri=$(blk_map_attr "$D" remote_inv)
check "polled reads read them back, crc32c checked" \
	traced lr --ioengine=io_uring --hipri --offset=16M --verify_only
check "they were sent on the polled queue" test "$(sends_on 1)" -gt 0
# the polled queue's READs are answered by a SEND that invalidates: no
# local invalidation (its completion would come in softirq)
check_eq "their registrations were invalidated by the server, none here" \
	"$li yes" "$(blk_map_attr "$D" local_inv) $([ "$(blk_map_attr "$D" remote_inv)" -ge $((ri + 128)) ] && echo yes)"
echo 0 > $TR/events/enable

# ---- outage under polled I/O ---------------------------------------------
w=$(blk_map_attr "$D" writes)
timeout 600 $FIO --name=verify --filename="$D" --direct=1 \
	--ioengine=io_uring --hipri --iodepth=16 --size=32M --offset=32M \
	--rw=randwrite --bsrange=4k-64k --verify=crc32c --verify_backlog=256 \
	--verify_fatal=1 --time_based --runtime=100000 > $T/fio.out 2>&1 &
fio_pid=$!
check "polled fio writes" wait_for 60 sh -c \
	"test \$(cat /sys/block/$M/rdmachan/writes) -gt $((w + 200))"
# blackholed: what is on the wire is never answered, held, sent again
check "the wire blackholed, the way back first" wire_blackhole on back
check "reconnecting within 60 s" wait_for 60 blk_map_state_is "$D" reconnecting
sleep 2
check "the route back" wire_blackhole off
check "live again within 60 s" wait_for 60 blk_map_state_is "$D" live
check "fio still runs" kill -0 $fio_pid
# some polled I/O after the way back
w=$(blk_map_attr "$D" writes)
check "polled writes go on after it" wait_for 60 sh -c \
	"test \$(cat /sys/block/$M/rdmachan/writes) -gt $((w + 100))"
fio_verify_stop
check "held requests were resubmitted (held > 0)" test "$(blk_map_attr "$D" held)" -gt 0
check_eq "no request failed (errors 0)" 0 "$(blk_map_attr "$D" errors)"
set -- $(cat /sys/block/$M/rdmachan/channels)
check_eq "two channels again, queue 1's direct" "2 direct" \
	"$# $(cat /sys/class/rdmachan/$2/poll_mode 2>/dev/null)"
check "the log says both queues came back" sh -c \
	"dmesg | grep -q '$M: export poll on .* back: 2 queues'"
blk_chan_stats "$D"

# ---- input ---------------------------------------------------------------
check "map_device's usage names poll_queues=P" grep -q 'poll_queues=P' $CTL/map_device
check_fail "map_device refuses poll_queues=x" "Invalid argument" \
	sh -c "echo '$BLK_SRV poll poll_queues=x' > $CTL/map_device"
check_fail "the tool refuses --poll-queues 65" "invalid poll queue count" \
	$TOOL blk map $BLK_SRV poll --poll-queues 65

# ---- forced unmap under polled I/O ---------------------------------------
w=$(blk_map_attr "$D" writes)
timeout 300 $FIO --name=force --filename="$D" --direct=1 \
	--ioengine=io_uring --hipri --iodepth=16 --size=32M --rw=randrw \
	--bsrange=4k-64k --time_based --runtime=240 > $T/force.out 2>&1 &
fpid=$!
check "polled fio reads and writes" wait_for 60 sh -c \
	"test \$(cat /sys/block/$M/rdmachan/writes) -gt $((w + 100))"
check "blk unmap --force under it returns within 60 s" \
	timeout 60 $TOOL blk unmap --force "$D"
check "fio ends within 60 s" wait_for 60 proc_ended $fpid
wait $fpid
check "with I/O errors, not killed by its timeout" sh -c \
	"grep -q 'error' $T/force.out && ! grep -q 'terminating on signal' $T/force.out"

# a mapping without polled queues: its disk does not poll
D=$(timeout 60 $TOOL blk map $BLK_SRV poll --src $BLK_CLI --queues 1 2> $T/map.err)
[ -b "$D" ] || { diag "$(cat $T/map.err)"; blk_bail "no mapping"; }
ok "blk map --queues 1 ($D)"
M=$(basename "$D")
check_eq "without --poll-queues: poll_queues 0, io_poll 0, one channel" "0 0 1" \
	"$(blk_map_attr "$D" poll_queues) $(cat /sys/block/$M/queue/io_poll) $(wc -w < /sys/block/$M/rdmachan/channels)"
check "unmap" $TOOL blk unmap "$D"

check "no session left on the export" wait_for 20 sh -c \
	"$TOOL -j blk show exports | jq -e '.exports[] | select(.name == \"poll\") | .sessions == 0' > /dev/null"
check "blk unexport" $TOOL blk unexport poll
check "no channel is left" wait_for 30 sh -c "! ls /sys/class/rdmachan | grep -q '^chan'"
check "rdmachan_blk and rdmachan unload" blk_unload
done_testing
