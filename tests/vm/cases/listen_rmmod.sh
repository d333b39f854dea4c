#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Every module that owns a listener closes it, and unloads, under a flood
# of connections to it: rdmachan_blk (its server's port 7471: the last
# export goes, then the module) and rdmachan_net (a listening
# interface's port 7472: rmmod), ROUNDS times each.
# Four loops connect from 192.0.2.2 and send one message, as fast as
# connections are refused or taken, while rmmod runs: a listener's
# pending callback (which accepts on it) may be under way when the
# module closes the listener, and the close must wait for it, so that
# neither the listener nor the module's text is used after the unload.
# Each round: rmmod succeeds within its bound, the module is gone, no
# listener is left; then the module loads again and the next round
# starts.  On the debug kernel KASAN sees a use after free, the log
# check any oops.

. /tests/lib.sh

T=/tmp/listen_rmmod
mkdir -p $T
case "$(uname -r)" in
*debug*) ROUNDS=2 ;;
*) ROUNDS=4 ;;
esac
FLOOD=

# flood_start PORT: four loops of connect-and-send to 192.0.2.1:PORT,
# until $T/stop exists
flood_start() {
	rm -f $T/stop
	for _i in 1 2 3 4; do
		sh -c "while [ ! -e $T/stop ]; do $TOOL chan send 192.0.2.1:$1 \
			--src 192.0.2.2 --timeout 2s x > /dev/null 2>&1; done" &
		FLOOD="$FLOOD $!"
	done
}

# flood_stop: each loop ends after its connect-and-send under way (which
# holds /dev/rdmachan open: rdmachan would not unload before)
flood_stop() {
	: > $T/stop
	wait $FLOOD 2>/dev/null
	FLOOD=
}

# accepted_some PORT: the listener on PORT took a connection, so the
# flood reaches it
accepted_some() {
	_f=$(grep -ls ":$1\$" /sys/class/rdmachan/listener*/src_addr | head -n 1)
	[ -n "$_f" ] && [ "$(cat "${_f%src_addr}accepted")" -gt 0 ]
}

check "rxe pair comes up" rxe_pair_up
check "rdmachan and rdmachan_blk load" blk_load
B=$(nullb_new lrm 64)
check "a null_blk to export ($B)" test -b "$B"

r=1
while [ $r -le $ROUNDS ]; do
	check "round $r: blk export lrm" $TOOL blk export lrm "$B" --allow 192.0.2.0/24
	flood_start 7471
	check "round $r: the flood reaches the block server's listener" \
		wait_for 30 accepted_some 7471
	check "round $r: blk unexport lrm under the flood" timeout 60 $TOOL blk unexport lrm
	check "round $r: rmmod rdmachan_blk under the flood" timeout 60 $RMMOD rdmachan_blk
	flood_stop
	check "round $r: rdmachan_blk is gone, and its listener" sh -c \
		"! [ -d /sys/module/rdmachan_blk ] && ! grep -qs ':7471\$' /sys/class/rdmachan/listener*/src_addr"
	check "round $r: rdmachan_blk loads again" $MODPROBE rdmachan_blk
	r=$((r + 1))
done
check "rdmachan_blk unloads" $RMMOD rdmachan_blk

check "rdmachan_net loads" $MODPROBE rdmachan_net
r=1
while [ $r -le $ROUNDS ]; do
	check "round $r: net add rcn0 listen 192.0.2.1" \
		$TOOL net add rcn0 listen 192.0.2.1
	flood_start 7472
	check "round $r: the flood reaches the interface's listener" \
		wait_for 30 accepted_some 7472
	check "round $r: rmmod rdmachan_net under the flood" timeout 60 $RMMOD rdmachan_net
	flood_stop
	check "round $r: rdmachan_net is gone, and its listener" sh -c \
		"! [ -d /sys/module/rdmachan_net ] && ! grep -qs ':7472\$' /sys/class/rdmachan/listener*/src_addr"
	check "round $r: rdmachan_net loads again" $MODPROBE rdmachan_net
	r=$((r + 1))
done
check "rdmachan_net unloads" $RMMOD rdmachan_net
check "no channel is left in sysfs" sh -c '! ls -d /sys/class/rdmachan/chan* 2>/dev/null'
check "rdmachan unloads" rdmachan_unload
done_testing
