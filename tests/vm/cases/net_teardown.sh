#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The network channel's teardowns under traffic, for the debug kernel
# (KASAN, lockdep, kmemleak after the case): every way an interface
# goes, each while a TCP stream or a ping flood crosses it: net del, a
# link loss and its reconnect ("rdma link delete" of each side's device
# in turn), ip link del (the interface then made again inside its
# namespace by "ip -n NS link add ... type rdmachan", under RTNL as
# rtnetlink makes it), the namespace holding it deleted, rmmod with
# both interfaces up.  Each way an interface goes runs beside readers of
# every file of its sysfs group (/sys/class/net/NAME/rdmachan/*, world
# readable), so that what the group reads of the device is seen to
# outlive its teardown; then three rounds of net del, ip link del and a
# dying namespace of an interface alone with its readers.  net_basic.sh
# checks the data on Debian's kernel.
# On Debian's kernel too: only it has CONFIG_PAGE_POOL, so only there do
# the interfaces go with their receive page pool's pages still in skbs
# (page_pool_destroy() then waits for them without the module).  On both,
# they go with zero-copy sends in flight, whose skbs the teardown gives
# back (-ECONNRESET; kmemleak finds none left on the debug kernel).

requires() {
	_have_kernel stock 6.12 debug
}

. /tests/lib.sh

T=/tmp/net_teardown
mkdir -p $T
NET_STREAM=$HELPERS/net_stream
PING=/usr/bin/ping
MiB=1048576

# net_pair: rcn0 and rcn1 added, in their namespaces, carrier on
net_pair() {
	$TOOL net add rcn0 listen 192.0.2.1 --peer 192.0.2.2 --reconnect-delay 200 &&
		$TOOL net add rcn1 connect 192.0.2.1 --src 192.0.2.2 --reconnect-delay 200 &&
		net_ns_up && wait_for 30 net_carrier_both
}

# net_gone NAME: net show has no interface NAME
net_gone() {
	! $TOOL -j net show | jq -e --arg n "$1" '.devices[] | select(.name == $n)' > /dev/null
}

# flood_start: a ping flood rcA -> rcB in the background ($FLOOD)
flood_start() {
	$IP netns exec rcA $PING -A -q -s 1400 -w 60 10.77.0.2 > /dev/null 2>&1 &
	FLOOD=$!
}

flood_stop() {
	kill $FLOOD 2>/dev/null
	wait $FLOOD 2>/dev/null
}

READERS=
# readers_start NS NAME...: add readers of the sysfs groups of the NAMEd
# interfaces in namespace NS, as any user may run them, in a loop (net
# show, which reads the same under RTNL, cannot race the teardown, which
# holds it).  The sysfs readers live outside NS (the namespace would not
# die while one of its processes lives): a sysfs mounted from inside NS
# under $T/sys-NS shows NS's interfaces (nsenter --net: the mount is
# made in this mount namespace).
readers_start() {
	_ns=$1
	shift
	mkdir -p $T/sys-$_ns
	grep -q " $T/sys-$_ns " /proc/mounts ||
		nsenter --net=/run/netns/$_ns mount -t sysfs sysfs $T/sys-$_ns
	for _rdev in "$@"; do
		check "a reader sees $_rdev's sysfs group from outside $_ns" \
			test -r $T/sys-$_ns/class/net/$_rdev/rdmachan/state
		# the shell's read: no fork per file, so the loop is tight;
		# a round that read the group says so in $T/rd-NAME
		rm -f $T/rd-$_rdev
		sh -c "while :; do for f in $T/sys-$_ns/class/net/$_rdev/rdmachan/*; do
			read -r x < \$f; done 2>/dev/null
			read -r x < $T/sys-$_ns/class/net/$_rdev/rdmachan/state 2>/dev/null &&
				: > $T/rd-$_rdev; done" &
		READERS="$READERS $!"
		sh -c "while :; do cat $T/sys-$_ns/class/net/$_rdev/rdmachan/state; done" \
			> /dev/null 2>&1 &
		READERS="$READERS $!"
		# the teardown must not outrun the readers' start (a fork
		# and an exec under TCG take longer than a net del)
		check "the readers of $_rdev run (a round of its group read)" \
			wait_for 20 test -e $T/rd-$_rdev
	done
}

readers_stop() {
	kill $READERS 2>/dev/null
	wait $READERS 2>/dev/null
	READERS=
	# lazily: a reader's last cat may still hold a file of the mount,
	# and a mount left behind would show the next rcC (a new namespace
	# of the same name) the old one's empty class/net
	for _m in $T/sys-*; do
		umount -l $_m 2>/dev/null
	done
}

# lone_dev NS NAME PORT: a listening interface NAME alone in namespace NS
# (it needs no peer: its sysfs group reads the loop's state all the same)
lone_dev() {
	{ [ -e /run/netns/$1 ] || $IP netns add $1; } &&
		$TOOL net add $2 listen 192.0.2.1:$3 --peer 192.0.2.2 &&
		$IP link set $2 netns $1
}

# stream_start: a TCP stream rcA -> rcB that outlasts what is done to it
stream_start() {
	$IP netns exec rcB timeout 60 $NET_STREAM server 5010 1 60 > /dev/null 2>&1 &
	SSRV=$!
	sleep 0.5
	$IP netns exec rcA timeout 60 $NET_STREAM client 10.77.0.2 5010 1 $((1024 * MiB)) 60 \
		> /dev/null 2>&1 &
	SCLI=$!
}

stream_stop() {
	kill $SCLI $SSRV 2>/dev/null
	wait $SCLI $SSRV 2>/dev/null
}

check "rxe pair comes up" rxe_pair_up
check "rdmachan and rdmachan_net load" net_load
# the devices here spread their receive work (rx_spread): the unbound
# workqueue and threaded NAPI under every teardown, on the debug kernel
check "rx_spread=1" sh -c "echo 1 > /sys/module/rdmachan_net/parameters/rx_spread"
check "rcn0 (listen) and rcn1 (connect) up in rcA and rcB" net_pair
check_eq "with rx_spread both channels poll in the unbound workqueue" "unbound" \
	"$(chan_poll_modes)"
check_eq "with rx_spread NAPI is threaded on both" "1 1" \
	"$($IP netns exec rcA cat /sys/class/net/rcn0/threaded) $($IP netns exec rcB cat /sys/class/net/rcn1/threaded)"
check "ping across" $IP netns exec rcA $PING -c 3 -W 10 10.77.0.2

# ---- net del under a TCP stream, then the same peer again ---------------
stream_start
check "the stream flows (1 MiB across)" wait_for 60 net_rx_over rcB rcn1 $(($(net_stat rcB rcn1 rx_bytes) + MiB))
readers_start rcB rcn1
check "net del rcn1 under the stream and sysfs readers" timeout 30 $TOOL net del rcn1
check "carrier off on rcn0" wait_for 20 net_no_carrier rcA rcn0
readers_stop
stream_stop
check "rcn1 added again, rcn0 takes it" sh -c \
	"$TOOL net add rcn1 connect 192.0.2.1 --src 192.0.2.2 --reconnect-delay 200 &&
	 $IP link set rcn1 netns rcB &&
	 $IP -n rcB addr add 10.77.0.2 peer 10.77.0.1 dev rcn1 &&
	 $IP -n rcB link set rcn1 up"
check "carrier on both" wait_for 30 net_carrier_both

# ---- down and up under a flood -------------------------------------------
flood_start
check "the flood flows (1 MiB across)" wait_for 60 net_rx_over rcB rcn1 $(($(net_stat rcB rcn1 rx_bytes) + MiB))
check "ip link set rcn1 down and up under the flood" sh -c \
	"$IP -n rcB link set rcn1 down && sleep 1 && $IP -n rcB link set rcn1 up"
flood_stop
check "ping across after down and up" $IP netns exec rcA $PING -c 3 -W 10 10.77.0.2

# ---- link loss under a ping flood, each side's device in turn -----------
flood_start
check "rdma link delete $DEV1 (the connecting side) under a ping flood" rxe_del $DEV1
check "carrier off on both" wait_for 20 sh -c \
	"! $IP -n rcA -o link show rcn0 | grep -q LOWER_UP &&
	 ! $IP -n rcB -o link show rcn1 | grep -q LOWER_UP"
check "rdma link add $DEV1 back" rxe_add $DEV1 veth1
check "carrier back on both" wait_for 40 net_carrier_both
check "rdma link delete $DEV0 (the listening side) under the flood" rxe_del $DEV0
check "carrier off on both" wait_for 20 sh -c \
	"! $IP -n rcA -o link show rcn0 | grep -q LOWER_UP &&
	 ! $IP -n rcB -o link show rcn1 | grep -q LOWER_UP"
check "rdma link add $DEV0 back" rxe_add $DEV0 veth0
check "carrier back on both (rcn0 listens again)" wait_for 40 net_carrier_both
flood_stop
check "ping across after both losses" $IP netns exec rcA $PING -c 3 -W 10 10.77.0.2
diag "$($TOOL -sd net show)"

# ---- ip link del, a dying namespace ------------------------------------
flood_start
readers_start rcA rcn0
check "ip link del rcn0 under the flood and sysfs readers" timeout 30 $IP -n rcA link del rcn0
check "carrier off on rcn1" wait_for 20 net_no_carrier rcB rcn1
readers_stop
flood_stop
check "ip -n rcA link add rcn0 type rdmachan mode listen: made in rcA" sh -c \
	"$IP -n rcA link add rcn0 type rdmachan mode listen addr 192.0.2.1 peer 192.0.2.2 &&
	 $IP -n rcA addr add 10.77.0.1 peer 10.77.0.2 dev rcn0 &&
	 $IP -n rcA link set rcn0 up"
check "carrier on both (rcn1 reconnected)" wait_for 40 net_carrier_both
stream_start
check "the stream flows again (1 MiB across)" wait_for 60 net_rx_over rcB rcn1 $(($(net_stat rcB rcn1 rx_bytes) + MiB))
stream_stop
readers_start rcB rcn1
check "ip netns del rcB (sysfs readers of rcn1 outside it)" $IP netns del rcB
check "the namespace's end deletes rcn1 with it" wait_for 20 net_gone rcn1
readers_stop
check "net add rcn1 in a new rcB" sh -c \
	"$IP netns add rcB &&
	 $TOOL net add rcn1 connect 192.0.2.1 --src 192.0.2.2 &&
	 $IP link set rcn1 netns rcB && $IP -n rcB link set lo up &&
	 $IP -n rcB addr add 10.77.0.2 peer 10.77.0.1 dev rcn1 &&
	 $IP -n rcB link set rcn1 up"
check "carrier on both" wait_for 40 net_carrier_both

# ---- each way an interface goes, beside nothing but its readers -------------
# Under the traffic above the readers get little of the CPU; here they
# have it to themselves, three rounds of each way.
for r in 1 2 3; do
	check "round $r: rcn7 alone in rcC" lone_dev rcC rcn7 7480
	readers_start rcC rcn7
	check "round $r: net del rcn7 beside its readers" timeout 30 $TOOL net del rcn7
	readers_stop
	check "round $r: rcn7 alone in rcC again" lone_dev rcC rcn7 7480
	readers_start rcC rcn7
	check "round $r: ip link del rcn7 beside its readers" timeout 30 $IP -n rcC link del rcn7
	readers_stop
	check "round $r: rcn7 alone in rcC again" lone_dev rcC rcn7 7480
	readers_start rcC rcn7
	check "round $r: ip netns del rcC beside rcn7's readers" $IP netns del rcC
	check "round $r: rcn7 goes with its namespace" wait_for 20 net_gone rcn7
	readers_stop
done

# ---- rmmod under traffic -------------------------------------------------
stream_start
check "the stream flows (1 MiB across)" wait_for 60 net_rx_over rcB rcn1 $(($(net_stat rcB rcn1 rx_bytes) + MiB))
readers_start rcA rcn0
readers_start rcB rcn1
check "rcn7 alone in rcC, for a reader without traffic" lone_dev rcC rcn7 7480
readers_start rcC rcn7
check "rmmod rdmachan_net under the stream and sysfs readers" timeout 60 $RMMOD rdmachan_net
readers_stop
check_eq "no interface left" "" "$($IP -n rcA -o link show rcn0 2>/dev/null; $IP -n rcB -o link show rcn1 2>/dev/null)"
stream_stop
check "rdmachan unloads" rdmachan_unload
$IP netns del rcA
$IP netns del rcB
$IP netns del rcC
done_testing
