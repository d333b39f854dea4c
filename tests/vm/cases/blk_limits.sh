#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# What a client may hold on the block server (blk_srv_limits.c): an
# address that no export allows gets no channel at all (EACCES at its
# connect, logged); a host that is allowed and opens channels without
# ever sending OPEN holds at most max_peer_queues of them, and the
# server at most max_queues, while another client maps the export and
# does I/O; a mapping may not ask for more than max_session_queues
# (EUSERS).  The bounds are module parameters, read at each decision;
# ctl/queues counts what max_queues bounds, each queue until its close
# has ended (a round of hogs starts only once the last round's are gone).

requires() {
	_have_kernel stock 6.12 debug
}

. /tests/lib.sh

T=/tmp/blk_limits
mkdir -p $T
P=/sys/module/rdmachan_blk/parameters
CTL=/sys/class/rdmachan_blk/ctl
HOGS=

# blk_listener FILE: a file of the block server's listener (port 7471)
blk_listener() {
	_f=$(grep -ls ':7471$' /sys/class/rdmachan/listener*/src_addr | head -n 1)
	cat "${_f%src_addr}$1"
}

# hog N: N channels from 192.0.2.3 to the block server that never send
# anything (chan connect reading a FIFO that this shell holds open and
# never writes: no line, no end of file)
mkfifo $T/silent
exec 7<> $T/silent
hog() {
	_i=0
	while [ $_i -lt "$1" ]; do
		$TOOL chan connect 192.0.2.1:7471 --src 192.0.2.3 < $T/silent \
			> $T/hog.$_i.out 2>&1 &
		HOGS="$HOGS $!"
		_i=$((_i + 1))
	done
}

hogs_stop() {
	kill $HOGS 2>/dev/null
	wait $HOGS 2>/dev/null
	HOGS=
}

# hogs_held: channels the server holds from 192.0.2.3 (its end of each:
# local port 7471, the peer 192.0.2.3; one it closes leaves sysfs)
hogs_held() {
	grep -ls '^192.0.2.3:' /sys/class/rdmachan/chan*/dst_addr | while read -r _f; do
		grep -qs ':7471$' "${_f%dst_addr}src_addr" && echo
	done | wc -l
}

hogs_exactly() {
	[ "$(hogs_held)" -eq "$1" ]
}

# hogs_settle N: the server holds N of them, and still N 3 s later (one
# set up beside them is closed at the accept meanwhile); else what the
# hogs said.  Not "at most N" first: that holds before any has connected,
# and a slow VM may take longer than 3 s to connect them all.
hogs_settle() {
	wait_for 60 hogs_exactly "$1" && sleep 3 && hogs_exactly "$1" && return 0
	echo "the server holds $(hogs_held) channels of 192.0.2.3"
	tail -n 3 $T/hog.*.out
	return 1
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
hog 10
# refused at admission, or, set up beside others, closed at the accept
check "the server holds six of 192.0.2.3's ten silent channels" hogs_settle 6
check "the refusals name max_peer_queues" sh -c \
	"dmesg | grep -Eq 'connection from 192.0.2.3 (refused|closed): it holds 6 queues \(max_peer_queues\)'"
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
# a channel leaves sysfs as its close begins; its queue counts until the
# close has ended
check "the server holds no queue (ctl/queues 0)" wait_for 60 sh -c \
	"[ \$(cat $CTL/queues) -eq 0 ]"
check "max_queues 3, max_peer_queues 128" sh -c \
	"echo 3 > $P/max_queues && echo 128 > $P/max_peer_queues"
hog 5
check "the server holds three of five silent channels" hogs_settle 3
check "ctl/queues says so (once a refused one's close has ended)" \
	wait_for 30 sh -c "[ \$(cat $CTL/queues) -eq 3 ]"
# the server holding three comes before the other two's refusal; one set
# up beside the three counts itself when it is closed at the accept
# ("holds 4", or more)
check "the refusals name max_queues" wait_for 30 sh -c \
	"dmesg | grep -Eq '(refused|closed): the server holds [0-9]+ queues \(max_queues\)'"
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
