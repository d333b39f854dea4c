#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Listeners: "rdmachan listen ADDR:0" picks a free port and prints it, a
# client connects to that port; a listener whose device is deleted wakes
# its pollers with POLLERR and accept says ENODEV.
. /tests/lib.sh

SRV=192.0.2.1
CLI=192.0.2.2
T=/tmp/listener
mkdir -p $T

check "rxe pair comes up" rxe_pair_up
check "rdmachan loads" rdmachan_load

# port 0: the kernel picks, the tool prints what it got
printed_port() {
	sed -n "s/^listening on $SRV:\([0-9]*\)\$/\1/p" "$T/$1.err"
}
has_port() {
	[ -n "$(printed_port "$1")" ]
}
bg l0 $TOOL chan listen $SRV:0 -n 1
wait_for 10 has_port l0
P=$(printed_port l0)
check "listen $SRV:0 prints the port it got" test -n "$P"
check "... not 0" test "${P:-0}" != 0
check "... and sysfs shows the listener on it" listening "${P:-0}"
check "stat shows what it may hold for unaccepted connections" sh -c \
	"$TOOL -s chan show | grep -q 'connecting 0/16 mem_pending 0/268435456 rejected 0 (busy 0) timed_out 0'"
check "send to the printed port is received" \
	$TOOL chan send $SRV:"${P:-0}" --src $CLI "to port zero"
wait $PID_l0
check_eq "listen -n 1 exits 0" 0 "$?"
check_eq "the message arrived" "to port zero" "$(cat $T/l0.out)"

bg l1 $TOOL -j chan listen $SRV:0 -n 1
jport() {
	jq -r 'select(.event == "listening") | .addr' < "$T/l1.out" 2>/dev/null |
		sed -n 's/.*:\([0-9]*\)$/\1/p'
}
has_jport() {
	[ -n "$(jport)" ]
}
wait_for 10 has_jport
P1=$(jport)
check "listen -j on :0: the listening event has the port" test "${P1:-0}" != 0
check "two port-0 listeners get different ports" test "$P1" != "$P"
check "send to it" $TOOL chan send $SRV:"${P1:-0}" --src $CLI again
wait $PID_l1
check_eq "listen -j -n 1 exits 0" 0 "$?"
check_fail "connecting to port 0 is a usage error" "not ADDR" \
	$TOOL chan send $SRV:0 --src $CLI nothing

# device removal under a listener (the last check: it takes rxe0 away)
run_checks $HELPERS/listen_test devremove
check "the removal is logged" sh -c \
	"dmesg | grep -q 'listener [0-9]* (192.0.2.1:[0-9]*): device removed'"
check "rdmachan unloads" rdmachan_unload
done_testing
