#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Link loss and recovery of a block mapping (Documentation/blk-client.rst,
# "Link loss"), with a verifying fio running on the disk:
#
#   flaps   BLK_FLAPS times (default 4, 20 for the soak: RDMACHAN_APPEND=
#           "BLK_FLAPS=20") the client's device is deleted and added again
#           ("rdma link delete rxe1"), then as often the route to the server
#           is blackholed for 5 s (frames to a MAC no one has: a blackhole
#           route does not stop rxe, which routes with its device as the
#           output interface): each time "blk show" and sysfs must say
#           "reconnecting" with an attempt count, then "live" again; fio
#           (random writes of 4k-64k, crc32c verified behind them, QD32,
#           two jobs) must end with no error and no verify failure, and
#           the mapping counts the losses, reconnects and held requests;
#           a device added back makes the mapping try at once (logged).
#   fast    fast_io_fail_ms: a mapping whose link is blackholed fails its
#           I/O after 1.5 s while it stays "reconnecting", and works again
#           once the route is back.  The link's tracepoints
#           (rdmachan:rdmachan_link_*) tell it in order: LIVE ->
#           RECONNECTING with the loss's error, the fast-fail, each
#           attempt (failed ones with their error and next wait), the last
#           with error 0, then RECONNECTING -> LIVE with that count.
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
# Runs on both kernels over rxe (the debug kernel with 2 flaps of each).

requires() {
	_have_kernel stock 6.12 debug
}

. /tests/lib.sh

T=/tmp/blk_recover
mkdir -p $T
# the debug kernel (kmemleak's file tells it) is slower: fewer flaps
FLAPS=${BLK_FLAPS:-4}
[ -e /sys/kernel/debug/kmemleak ] && FLAPS=${BLK_FLAPS:-2}

# show_state DEV: the mapping's state as "blk show -j" says it
show_state() {
	$TOOL -j blk show maps | jq -r --arg d "$1" '.maps[] | select(.dev == $d) | .state'
}

# blackhole on|off: lib/fixture.sh's wire_blackhole
blackhole() {
	wire_blackhole "$@"
}

# outage DEV KIND: one loss of the link (KIND dev: the client's device
# deleted and added back; route: blackholed 5 s), seen as "reconnecting"
# with an attempt under way or counted, then "live" again.  Return 0 when
# all of that was seen; says what was not.
outage() {
	_d=$1
	if [ "$2" = dev ]; then
		rxe_del $DEV1 || { diag "rdma link delete $DEV1 failed"; return 1; }
	else
		blackhole on || { diag "blackhole failed"; return 1; }
	fi
	_seen=0
	if wait_for 30 blk_map_state_is "$_d" reconnecting; then
		_att=$(blk_map_attr "$_d" attempt)
		_js=$(show_state "$_d")
		_seen=1
		sleep 5
		_att2=$(blk_map_attr "$_d" attempt)
	else
		diag "$2 outage: the mapping never said reconnecting (state $(blk_map_attr "$_d" state))"
	fi
	if [ "$2" = dev ]; then
		rxe_add $DEV1 veth1 || diag "rdma link add $DEV1 failed"
	else
		blackhole off || diag "restoring the route failed"
	fi
	read -r _t0 _ < /proc/uptime
	if ! wait_for 60 blk_map_state_is "$_d" live; then
		diag "$2 outage: not live 60 s after the way back (state $(blk_map_attr "$_d" state), attempt $(blk_map_attr "$_d" attempt), last_error $(blk_map_attr "$_d" last_error))"
		return 1
	fi
	read -r _t1 _ < /proc/uptime
	echo "$2 $(awk "BEGIN { printf \"%.1f\", $_t1 - $_t0 }")" >> $T/back
	[ $_seen = 1 ] || return 1
	if [ "$_js" != reconnecting ]; then
		diag "$2 outage: blk show said '$_js', sysfs reconnecting"
		return 1
	fi
	echo "$_att -> $_att2" >> $T/attempts
	return 0
}

TR=/sys/kernel/tracing
# trace_links: the trace restarts with the link events alone
trace_links() {
	[ -e $TR/trace ] || mount -t tracefs nodev $TR || return 1
	echo 0 > $TR/tracing_on
	echo 0 > $TR/events/enable
	echo > $TR/trace
	echo 1 > $TR/events/rdmachan/rdmachan_link_state/enable &&
	echo 1 > $TR/events/rdmachan/rdmachan_link_attempt/enable &&
	echo 1 > $TR/events/rdmachan/rdmachan_link_fast_fail/enable &&
	echo 1 > $TR/tracing_on
}

# link_trace DEV: the trace's lines of DEV's link, from "rcblkN " on
link_trace() {
	sed -n "s/.*rdmachan_link_[a-z_]*: \($(basename "$1") .*\)/\1/p" $TR/trace
}

# link_trace_back FILE: lost, a fast-fail, attempts (failed ones with an
# error and a wait), the last with error 0, then back with that count
link_trace_back() {
	awk '
	NR == 1 { ok = $2 == "LIVE" && $4 == "RECONNECTING"; next }
	$2 == "fast-fail" { ff++; next }
	$2 == "attempt" && $7 != "0" { n++; if ($3 != n || $10 == "0") ok = 0; next }
	$2 == "attempt" { n++; last = $3; if ($3 != n) ok = 0; next }
	$2 == "RECONNECTING" && $4 == "LIVE" { back = $8 == last && last > 0; next }
	{ ok = 0 }
	END { exit !(ok && ff == 1 && back) }' "$1"
}

# map_recover ARGS...: map the export with ARGS (sets D), or end the case
map_recover() {
	D=$(timeout 60 $TOOL blk map $BLK_SRV recover --src $BLK_CLI "$@" 2> $T/map.err)
	[ -b "$D" ] || { diag "$(cat $T/map.err)"; blk_bail "no mapping"; }
	ok "blk map $* ($D)"
}

check "rxe pair comes up" rxe_pair_up
check "rdmachan and rdmachan_blk load" blk_load
B=$(nullb_new recover 128)
[ -b "$B" ] || blk_bail "no backing device"
check "blk export recover $B" $TOOL blk export recover "$B" --allow 192.0.2.0/24

# ---- flaps under a verifying fio ---------------------------------------
map_recover --queues 2 --reconnect-delay 500 --loss-timeout 120000
check_eq "sysfs: state live" live "$(blk_map_attr "$D" state)"
check_eq "sysfs: reconnect_delay_ms" 500 "$(blk_map_attr "$D" reconnect_delay_ms)"
check_eq "sysfs: loss_timeout_ms" 120000 "$(blk_map_attr "$D" loss_timeout_ms)"
check_eq "sysfs: fast_io_fail_ms off (the default)" off "$(blk_map_attr "$D" fast_io_fail_ms)"
check_fail "sysfs: a fast_io_fail_ms past the loss timeout is refused" "Invalid argument" \
	sh -c "echo 200000 > /sys/block/${D#/dev/}/rdmachan/fast_io_fail_ms"
check_eq "blk show -j: live, attempt 0, no loss" "live 0 0" \
	"$($TOOL -j blk show maps | jq -r --arg d "$D" '.maps[] | select(.dev == $d) | "\(.state) \(.attempt) \(.losses)"')"

: > $T/attempts
fio_verify_start 900
sleep 5
check "fio runs on the disk" kill -0 $fio_pid
n=0
for kind in dev route; do
	i=1
	while [ $i -le "$FLAPS" ]; do
		if outage "$D" $kind; then
			n=$((n + 1))
		else
			not_ok "$kind outage $i: reconnecting seen, then live"
		fi
		kill -0 $fio_pid 2>/dev/null || break 2
		sleep 2
		i=$((i + 1))
	done
done
check_eq "every outage was seen as reconnecting, then live" $((2 * FLAPS)) $n
diag "attempt counts during the outages: $(tr '\n' ' ' < $T/attempts)"
check "fio still runs after the outages" kill -0 $fio_pid
fio_verify_stop
check_eq "fio reports no error" 0 "$(grep -c 'err=[ ]*[1-9]\|verify:.*bad\|VERIFY' $T/fio.out)"
check "the mapping counted the losses (>= $n)" test "$(blk_map_attr "$D" losses)" -ge $n
check "the mapping counted the reconnects (>= $n)" test "$(blk_map_attr "$D" reconnects)" -ge $n
check "held requests were resubmitted (held > 0)" test "$(blk_map_attr "$D" held)" -gt 0
check_eq "no request failed (errors 0)" 0 "$(blk_map_attr "$D" errors)"
diag "live again, seconds after the way back: $(sort $T/back | awk '{ a[$1] = a[$1] " " $2 } END { for (k in a) printf "%s:%s; ", k, a[k] }')"
check "a device added makes the reconnecting mapping try at once (logged)" sh -c \
	"dmesg | grep -q '$DEV1: 1 reconnecting link(s) try now'"
check "the log says the link was lost and came back" sh -c \
	"dmesg | grep -q 'rcblk.*link lost' && dmesg | grep -q 'rcblk.*back: 2 queues'"
diag "$($TOOL -sd blk show maps)"
check "blk unmap" timeout 60 $TOOL blk unmap "$D"

# ---- fast_io_fail_ms ------------------------------------------------------
map_recover --queues 1 --reconnect-delay 500 --loss-timeout 60000 --fast-io-fail 1500
check "a read works" $DD if="$D" of=/dev/null bs=4k count=16 iflag=direct
check "the link's tracepoints enable" trace_links
check "route blackholed" blackhole on
check "reconnecting within 30 s" wait_for 30 blk_map_state_is "$D" reconnecting
t0=$(date +%s)
check_fail "a read fails while reconnecting, once fast_io_fail_ms passed" "error" \
	timeout 60 $DD if="$D" of=/dev/null bs=4k count=1 skip=99 iflag=direct
diag "it failed after $(($(date +%s) - t0)) s"
check_eq "still reconnecting" reconnecting "$(blk_map_attr "$D" state)"
check "blk show says attempt N of M" sh -c \
	"$TOOL blk show maps | grep -q 'state reconnecting attempt [0-9]* of [0-9]*'"
check "route back" blackhole off
check "live again within 60 s" wait_for 60 blk_map_state_is "$D" live
link_trace "$D" > $T/trace.fast
check "the trace: lost, fast-fail, each attempt, back" link_trace_back $T/trace.fast
diag "$(cat $T/trace.fast)"
check "a read works again" $DD if="$D" of=/dev/null bs=4k count=16 iflag=direct
check "blk unmap" timeout 60 $TOOL blk unmap "$D"

# ---- loss_timeout_ms: dead --------------------------------------------------
map_recover --queues 1 --reconnect-delay 500 --loss-timeout 3000
check "the trace restarts" trace_links
timeout 120 $DD if="$D" of=/dev/null bs=4k count=1000000 iflag=direct > $T/dd.out 2>&1 &
dd_pid=$!
sleep 1
check "the client's device deleted" rxe_del $DEV1
check "dead within 30 s" wait_for 30 blk_map_state_is "$D" dead
link_trace "$D" > $T/trace.dead
check "the trace ends RECONNECTING -> DEAD" sh -c \
	"tail -n 1 $T/trace.dead | grep -q '^[^ ]* RECONNECTING -> DEAD err -[0-9]'"
diag "$(cat $T/trace.dead)"
check_eq "blk show -j: dead" dead "$(show_state "$D")"
check "the reader ends with an error within 30 s" wait_for 30 proc_ended $dd_pid
check_fail "new I/O fails at once" "error" \
	timeout 10 $DD if="$D" of=/dev/null bs=4k count=1 iflag=direct
check "the log says it gave up" sh -c "dmesg | grep -q 'rcblk.*not back within loss_timeout_ms'"
t0=$(date +%s)
check "blk unmap of a dead mapping returns at once (10 s)" timeout 10 $TOOL blk unmap "$D"
diag "unmap took $(($(date +%s) - t0)) s"
check "the client's device added back" rxe_add $DEV1 veth1

# ---- remap: a dead mapping opened again under what has it open ------------
MNT=/mnt/blk_recover
mkdir -p $MNT
map_recover --queues 2 --reconnect-delay 500 --loss-timeout 2000
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
check_eq "blk show -j: live" live "$(show_state "$D")"
check "the log says the remap worked" sh -c \
	"dmesg | grep -q 'rcblk.*remapping export recover' && dmesg | grep -q 'rcblk.*back: 2 queues'"
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
check "blk unexport --force recover" $TOOL blk unexport --force recover
check "dead within 30 s of the forced unexport" wait_for 30 blk_map_state_is "$D" dead
check_fail "blk remap with no such export fails" "blk remap" timeout 60 $TOOL blk remap "$D"
check "blk export recover again" $TOOL blk export recover "$B" --allow 192.0.2.0/24
check "blk remap after the export is back" timeout 60 $TOOL blk remap "$D"
check "a read works after the remap" $DD if="$D" of=/dev/null bs=4k count=16 iflag=direct
check_eq "live after the remap" live "$(blk_map_attr "$D" state)"
check "blk unmap" timeout 60 $TOOL blk unmap "$D"

# ---- the server's export made again while the client reconnects ----------
map_recover --queues 2 --reconnect-delay 1000 --loss-timeout 120000
check "1 MiB written at 32 MiB" pattern_put restart 32
check "route blackholed" blackhole on
check "reconnecting within 30 s" wait_for 30 blk_map_state_is "$D" reconnecting
check "the server let the lost session go (30 s)" wait_for 30 sh -c \
	"$TOOL -j blk show exports | jq -e '.exports[] | select(.name == \"recover\") | .sessions == 0'"
check "blk unexport recover (its session gone, no --force)" $TOOL blk unexport recover
check "blk export recover again, from the same device" \
	$TOOL blk export recover "$B" --allow 192.0.2.0/24
check "route back" blackhole off
check "live again within 60 s: the same export" wait_for 60 blk_map_state_is "$D" live
check "the data reads back" pattern_back restart 32
check "blk unmap" timeout 60 $TOOL blk unmap "$D"

# ---- unmap --force while reconnecting -------------------------------------
map_recover --queues 2 --reconnect-delay 1000 --loss-timeout 600000
timeout 120 $DD if="$D" of=/dev/null bs=64k count=1000000 iflag=direct > $T/dd2.out 2>&1 &
dd_pid=$!
sleep 1
check "route blackholed" blackhole on
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
check "route back" blackhole off
check_eq "no mapping is left" 0 "$($TOOL -j blk show maps | jq '.maps | length')"

check "blk unexport recover" wait_for 30 $TOOL blk unexport recover
check "rdmachan_blk and rdmachan unload" blk_unload
done_testing
