#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Channels meeting trouble: an idle pair's keepalive (a probe once per
# five 200 ms ticks, both ends together: chan_test idleprobe), a peer
# that vanishes silently (keepalive notices; on rxe in about 15 s with
# the default ACK timeout and under 6 s with ack_timeout=14), user
# buffers that fault in the middle of a batch, a peer slow to repost
# the buffers of control messages (ctrl_hold), a QP forced into the
# error state behind the channel's back, fatal QP/CQ events and a
# keepalive probe that never ends, through
# /sys/kernel/debug/rdmachan/inject (both ends poll EPOLLERR within 5 s;
# the injected end fails with ECONNRESET, EIO or ETIMEDOUT, the peer with
# ECONNRESET; qp_events and cq_events count them),
# "rdma link delete" of the device under live channels (waiters woken
# with ENODEV, fds still closable), and rmmod refused while a channel fd
# is open, allowed after the last close.

# Runs over rxe and, on the debug kernel, over siw too (tests/lib-host.sh)
requires() {
	_have_rdma rxe siw
}

. /tests/lib.sh

check "rxe pair comes up" rxe_pair_up
check "rdmachan loads with a 200 ms keepalive" rdmachan_load keepalive_ms=200
run_checks $HELPERS/chan_test idleprobe 200 4
# deadpeer WHAT [MIN MAX]: a peer vanishes (chan_test deadpeer, noticed
# MIN to MAX s after), then the wire and the channels are as before
deadpeer() {
	_what=$1
	shift
	run_checks $HELPERS/chan_test deadpeer "$@"
	check "the neighbours are restored ($_what)" wire_neighbours_up
	check "no channel is left ($_what)" \
		sh -c '! ls /sys/class/rdmachan | grep -q chan'
}

# rxe: the default ACK timeout, 2.1 s: 7 tries take about 15 s (rxe's
# first timer may be due early); then 67 ms (ack_timeout=14), under a
# second.  siw: TCP's retries (tcp_retries2, the fixture's 3) decide.
if [ "$RDMA_DRIVER" = rxe ]; then
	deadpeer "ACK timeout 2.1 s" 8 40
	check "ack_timeout=14" \
		sh -c "echo 14 > /sys/module/rdmachan/parameters/ack_timeout"
	deadpeer "ACK timeout 67 ms" 0 6
	check "ack_timeout back to its default" \
		sh -c "echo 19 > /sys/module/rdmachan/parameters/ack_timeout"
else
	deadpeer "TCP's retries"
fi

# user buffers that fault, alone and among another thread's sends
run_checks $HELPERS/chan_test efault

# a receiver slow to repost for control messages: its peer waits
run_checks $HELPERS/chan_test ctrlhold

# a QP forced into the error state, QP and CQ fatal events
run_checks $HELPERS/chan_test qperror
check "no channel is left after the QP failures" \
	wait_for 10 sh -c '! ls /sys/class/rdmachan | grep -q chan'

# rmmod while a process holds channel fds
$HELPERS/chan_test hold > /tmp/hold.out 2>&1 &
holder=$!
check "a process holds a connected channel pair" wait_for 10 grep -q READY /tmp/hold.out
check_eq "two channels are listed in sysfs" 2 "$(ls /sys/class/rdmachan | grep -c '^chan')"
check_fail "rmmod is refused while channel fds are open" "in use" $RMMOD rdmachan
check "the module is still loaded" module_loaded rdmachan
check_eq "the refused rmmod left the channels connected" "connected connected" \
	"$(cat /sys/class/rdmachan/chan*/state | tr '\n' ' ' | sed 's/ $//')"
kill $holder
wait $holder 2>/dev/null
check "the channels go away when the holder dies" \
	wait_for 10 sh -c '! ls /sys/class/rdmachan | grep -q chan'
check "rmmod succeeds after the last close" rdmachan_unload

check "rdmachan loads again" rdmachan_load
run_checks $HELPERS/chan_test devremove
check "no channel is left after the device removal" \
	sh -c '! ls /sys/class/rdmachan | grep -q chan'
check_eq "the removed device's rdmachan context is gone" $DEV0 "$(rdmachan_devices)"
check "rdmachan unloads after the device removal" rdmachan_unload
done_testing
