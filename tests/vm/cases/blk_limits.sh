#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# What a client may hold on the block server (blk_srv_limits.c): an
# address that no export allows gets no channel at all (EACCES at its
# connect, logged); a host that is allowed and opens channels without
# ever sending OPEN holds at most max_peer_queues of them, and the
# server at most max_queues, while another client maps the export and
# does I/O; a mapping may not ask for more than max_session_queues
# (EUSERS).  The bounds are module parameters, read at each decision.

requires() {
	_have_kernel stock debug
}

. /tests/lib.sh

T=/tmp/blk_limits
mkdir -p $T
P=/sys/module/rdmachan_blk/parameters
HOGS=

# blk_listener FILE: a file of the block server's listener (port 7471)
blk_listener() {
	_f=$(grep -ls ':7471$' /sys/class/rdmachan/listener*/src_addr | head -n 1)
	cat "${_f%src_addr}$1"
}

# hog N: N channels from 192.0.2.3 to the block server that never send
# anything (chan connect with a silent standard input)
hog() {
	_i=0
	while [ $_i -lt "$1" ]; do
		sleep 120 | $TOOL chan connect 192.0.2.1:7471 --src 192.0.2.3 \
			> $T/hog.$_i.out 2>&1 &
		HOGS="$HOGS $!"
		_i=$((_i + 1))
	done
}

hogs_stop() {
	kill $HOGS 2>/dev/null
	pkill -f 'chan connect 192.0.2.1:7471' 2>/dev/null
	wait $HOGS 2>/dev/null
	HOGS=
}

# accepted_at_least N: the listener accepted N connections
accepted_at_least() {
	[ "$(blk_listener accepted)" -ge "$1" ]
}

check "rxe pair comes up" rxe_pair_up
check "rdmachan and rdmachan_blk load" blk_load
check "192.0.2.3 added on veth1 (a third host)" sh -c \
	"$IP addr add 192.0.2.3/24 dev veth1 && sleep 1"
check_eq "defaults: max_queues max_peer_queues max_session_queues max_export_queues" \
	"1024 128 64 512" \
	"$(cat $P/max_queues) $(cat $P/max_peer_queues) $(cat $P/max_session_queues) $(cat $P/max_export_queues)"
B=$(nullb_new lim 64)
check "a 64 MiB null_blk ($B)" test -b "$B"
[ -b "$B" ] || blk_bail "no backing device"

# ---- an address no export allows: no channel ------------------------------
check "blk export lim --allow 192.0.2.2/32 (only the client)" \
	$TOOL blk export lim "$B" --allow 192.0.2.2/32
r0=$(blk_listener rejected_refused)
for i in 1 2 3; do
	check_fail "a connect from 192.0.2.3 (not allowed) is refused: EACCES" \
		"ermission denied|does not admit" \
		$TOOL chan send 192.0.2.1:7471 --src 192.0.2.3 --timeout 5s x
done
check "the listener counted the refusals (rejected_refused)" \
	test "$(blk_listener rejected_refused)" -ge $((r0 + 3))
check "the refusal is logged" sh -c \
	"dmesg | grep -q 'connection from 192.0.2.3 refused: no export allows it'"
check "blk unexport lim" $TOOL blk unexport lim

# ---- an allowed host that never sends OPEN ---------------------------------
check "blk export lim --allow 192.0.2.0/24" \
	$TOOL blk export lim "$B" --allow 192.0.2.0/24
check "open_timeout_ms 60000, max_peer_queues 6" sh -c \
	"echo 60000 > $P/open_timeout_ms && echo 6 > $P/max_peer_queues"
a0=$(blk_listener accepted)
r0=$(blk_listener rejected_refused)
hog 10
check "six of 192.0.2.3's silent channels are accepted" \
	wait_for 60 accepted_at_least $((a0 + 6))
check "the other four are refused (rejected_refused)" wait_for 60 sh -c \
	"[ \$(grep -ls ':7471\$' /sys/class/rdmachan/listener*/src_addr | head -n 1 |
	   sed 's/src_addr\$/rejected_refused/' | xargs cat) -ge $((r0 + 4)) ]"
check_eq "no more than six were accepted" $((a0 + 6)) "$(blk_listener accepted)"
check "the refusals name max_peer_queues" sh -c \
	"dmesg | grep -q 'connection from 192.0.2.3 refused: it holds 6 queues (max_peer_queues)'"
D=$(timeout 60 $TOOL blk map $BLK_SRV lim --src $BLK_CLI --queues 2 2> $T/map.err)
if [ -b "$D" ]; then
	ok "another client maps the export meanwhile ($D)"
	check "and writes and reads it back" sh -c \
		"$DD if=/dev/urandom of=$T/data bs=64k count=16 2>/dev/null &&
		 $DD if=$T/data of=$D bs=64k oflag=direct 2>/dev/null &&
		 $DD if=$D of=$T/back bs=64k count=16 iflag=direct 2>/dev/null &&
		 $CMP $T/data $T/back"
	check "blk unmap $D" timeout 60 $TOOL blk unmap "$D"
else
	not_ok "another client maps the export meanwhile"
	diag "$(cat $T/map.err)"
fi

# ---- the server's total ------------------------------------------------------
hogs_stop
check "the hogs' queues are closed" wait_for 60 sh -c \
	"! ls /sys/class/rdmachan | grep -q '^chan'"
check "max_queues 3, max_peer_queues 128" sh -c \
	"echo 3 > $P/max_queues && echo 128 > $P/max_peer_queues"
a0=$(blk_listener accepted)
hog 5
check "three silent channels are accepted" wait_for 60 accepted_at_least $((a0 + 3))
sleep 2
check_eq "no more than three" $((a0 + 3)) "$(blk_listener accepted)"
check "the refusals name max_queues" sh -c \
	"dmesg | grep -q 'refused: the server holds 3 queues (max_queues)'"
hogs_stop
check "max_queues back to 1024, open_timeout_ms to 10000" sh -c \
	"echo 1024 > $P/max_queues && echo 10000 > $P/open_timeout_ms"
check "the hogs' queues are closed" wait_for 60 sh -c \
	"! ls /sys/class/rdmachan | grep -q '^chan'"

# ---- queues a mapping may ask for -------------------------------------------
# (the client asks for at most one queue per CPU: the VM has two)
check "max_session_queues 1" sh -c "echo 1 > $P/max_session_queues"
check_fail "blk map --queues 2 is refused: EUSERS" "EUSERS|oo many users" \
	timeout 60 $TOOL blk map $BLK_SRV lim --src $BLK_CLI --queues 2
check "the refusal names max_session_queues" sh -c \
	"dmesg | grep -q 'OPEN of lim from 192.0.2.2 refused: 2 queues asked, max_session_queues is 1'"
check_eq "the refused map left no disk" 0 "$($TOOL -j blk show maps | jq '.maps | length')"
D=$(timeout 60 $TOOL blk map $BLK_SRV lim --src $BLK_CLI --queues 1 2> $T/map2.err)
check "blk map --queues 1 is accepted ($D)" test -b "$D"
[ -b "$D" ] && check "blk unmap $D" timeout 60 $TOOL blk unmap "$D"
check "max_session_queues back to 64" sh -c "echo 64 > $P/max_session_queues"

check "blk unexport lim" timeout 60 $TOOL blk unexport lim
$IP addr del 192.0.2.3/24 dev veth1
check "the modules unload" blk_unload
done_testing
