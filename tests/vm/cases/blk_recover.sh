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
#
# (blk_remap.sh: a mapping given up, remapped, and unmapped while it
# reconnects.)  Runs on both kernels over rxe (the debug kernel with 2
# flaps of each).

requires() {
	_have_kernel stock 6.12 debug
}

. /tests/lib.sh

T=/tmp/blk_recover
mkdir -p $T
# the debug kernel (kmemleak's file tells it) is slower: fewer flaps
FLAPS=${BLK_FLAPS:-4}
[ -e /sys/kernel/debug/kmemleak ] && FLAPS=${BLK_FLAPS:-2}

# outage DEV KIND: one loss of the link (KIND dev: the client's device
# deleted and added back; route: blackholed 5 s), seen as "reconnecting"
# with an attempt under way or counted, then "live" again.  Return 0 when
# all of that was seen; says what was not.
outage() {
	_d=$1
	if [ "$2" = dev ]; then
		rxe_del $DEV1 || { diag "rdma link delete $DEV1 failed"; return 1; }
	else
		wire_blackhole on || { diag "blackhole failed"; return 1; }
	fi
	_seen=0
	if wait_for 30 blk_map_state_is "$_d" reconnecting; then
		_att=$(blk_map_attr "$_d" attempt)
		_js=$(blk_map_show_state "$_d")
		_seen=1
		sleep 5
		_att2=$(blk_map_attr "$_d" attempt)
	else
		diag "$2 outage: the mapping never said reconnecting (state $(blk_map_attr "$_d" state))"
	fi
	if [ "$2" = dev ]; then
		rxe_add $DEV1 veth1 || diag "rdma link add $DEV1 failed"
	else
		wire_blackhole off || diag "restoring the route failed"
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

check "rxe pair comes up" rxe_pair_up
check "rdmachan and rdmachan_blk load" blk_load
B=$(nullb_new recover 128)
[ -b "$B" ] || blk_bail "no backing device"
check "blk export recover $B" $TOOL blk export recover "$B" --allow 192.0.2.0/24

# ---- flaps under a verifying fio ---------------------------------------
blk_map_export recover --queues 2 --reconnect-delay 500 --loss-timeout 120000
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
blk_map_export recover --queues 1 --reconnect-delay 500 --loss-timeout 60000 --fast-io-fail 1500
check "a read works" $DD if="$D" of=/dev/null bs=4k count=16 iflag=direct
check "the link's tracepoints enable" blk_link_trace_on
check "route blackholed" wire_blackhole on
check "reconnecting within 30 s" wait_for 30 blk_map_state_is "$D" reconnecting
t0=$(date +%s)
check_fail "a read fails while reconnecting, once fast_io_fail_ms passed" "error" \
	timeout 60 $DD if="$D" of=/dev/null bs=4k count=1 skip=99 iflag=direct
diag "it failed after $(($(date +%s) - t0)) s"
check_eq "still reconnecting" reconnecting "$(blk_map_attr "$D" state)"
check "blk show says attempt N of M" sh -c \
	"$TOOL blk show maps | grep -q 'state reconnecting attempt [0-9]* of [0-9]*'"
check "route back" wire_blackhole off
check "live again within 60 s" wait_for 60 blk_map_state_is "$D" live
blk_link_trace "$D" > $T/trace.fast
check "the trace: lost, fast-fail, each attempt, back" link_trace_back $T/trace.fast
diag "$(cat $T/trace.fast)"
check "a read works again" $DD if="$D" of=/dev/null bs=4k count=16 iflag=direct
check "blk unmap" timeout 60 $TOOL blk unmap "$D"

check "blk unexport recover" wait_for 30 $TOOL blk unexport recover
check "rdmachan_blk and rdmachan unload" blk_unload
done_testing
