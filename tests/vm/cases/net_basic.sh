#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The network channel end to end: "rdmachan net add rcn0 listen
# 192.0.2.1" and "net add rcn1 connect 192.0.2.1 --src 192.0.2.2", each
# interface moved into its own network namespace (rcA, rcB) so that
# traffic between 10.77.0.1 and 10.77.0.2 really crosses the channel
# (rxe1 <-> rxe0), not the loopback.  Checks: carrier, ping (IPv4 and
# IPv6, 60000 bytes, a flood of small ones without loss), the counters
# (ip -s link, net show --json, sysfs), a 64 MiB TCP stream checked byte
# for byte, 16 concurrent flows; the data paths by their counters, the
# bytes intact each time: the 64 MiB stream received into the channel's
# own buffers and sent from the skbs' pages (rx_zc_packets and
# tx_zc_packets grow: zero copy), with rx_zero_copy=0 copied into the
# receive page pool (rx_pool_packets grows), at MTU 20000 (packets under
# half a receive buffer) copied, at MTU 1500 copied both ways; the
# tracepoints (system rdmachan_net) of one ping of 60000 bytes: on each
# interface its transmit and its receive of the same length, in order
# (rcn0 sends the request, then receives the reply; rcn1 the other way),
# the large packets received without a copy, and nothing once disabled;
# "net show -d" names each interface's channel, its device and queue pair
# number, an RC queue pair of "rdma res show qp";
# "rdma link delete" of the connecting
# side's device under a TCP stream (carrier off within the keepalive
# time, back after the device is re-added, the stream survives), bad
# ioctl arguments; "ip link add ... type rdmachan" (iproute2's module
# link_rdmachan.so, installed by make install) making a listening and a
# connecting interface that connect, "ip -d link show" reporting their
# attributes (text and JSON), ip's refusals, "ip link del"; net del
# under traffic and a new interface accepted from the same peer, rmmod
# under traffic.

# Debian's kernel; net_teardown.sh runs the teardown on the debug kernel
requires() {
	_have_kernel stock 6.12
}

. /tests/lib.sh

T=/tmp/net_basic
mkdir -p $T
NET_STREAM=$HELPERS/net_stream
PING=/usr/bin/ping
MiB=1048576

check "rxe pair comes up" rxe_pair_up
check "rdmachan and rdmachan_net load" net_load
check "net add rcn0 listen 192.0.2.1 --peer 192.0.2.2" \
	$TOOL net add rcn0 listen 192.0.2.1 --peer 192.0.2.2
check "net add rcn1 connect 192.0.2.1 --src 192.0.2.2" \
	$TOOL net add rcn1 connect 192.0.2.1 --src 192.0.2.2
check "both are point-to-point, NOARP, of kind rdmachan (ip -d link)" sh -c \
	"$IP -d link show rcn0 | grep -q 'POINTOPOINT,NOARP' &&
	 $IP -d link show rcn1 | grep -q 'rdmachan'"
check_eq "sysfs: rcn0 listens, rcn1 connects" "listen connect" \
	"$(cat /sys/class/net/rcn0/rdmachan/mode) $(cat /sys/class/net/rcn1/rdmachan/mode)"
check_eq "NAPI in softirq on both by default (sysfs threaded)" "0 0" \
	"$(cat /sys/class/net/rcn0/threaded) $(cat /sys/class/net/rcn1/threaded)"
check "the two interfaces in their namespaces rcA and rcB, addressed, up" net_ns_up
check "carrier on both within 20 s" wait_for 20 net_carrier_both
check_eq "both channels poll in softirq by default (no rx_spread)" "softirq" \
	"$(chan_poll_modes)"
check_eq "net show --json: both up, rcn1's peer is 192.0.2.1:7472" "up up 192.0.2.1:7472" \
	"$($TOOL -j net show | jq -r '[(.devices[] | select(.name == "rcn0") | .state),
		(.devices[] | select(.name == "rcn1") | .state, .peer)] | join(" ")')"
check "net show (text) names rcn0, listening, up" sh -c \
	"$TOOL net show rcn0 | grep -q '^rcn0: listen 192.0.2.1:7472 state up'"
check "prefixes: rdmachan -j n s parses with jq" sh -c \
	"$TOOL -j n s | jq -e '.devices | length == 2' > /dev/null"
diag "$($TOOL -sd net show)"

# ---- ping ----------------------------------------------------------------
# drops and errors from here on (a packet that came before the far end was
# up was rightly dropped)
bad0=$(net_bad_counters)
check "ping 10.77.0.2 from rcA (5 packets)" \
	$IP netns exec rcA $PING -c 5 -W 5 10.77.0.2
check "ping 10.77.0.1 from rcB" $IP netns exec rcB $PING -c 3 -W 5 10.77.0.1
check "ping -s 60000 (one message each way per packet)" \
	$IP netns exec rcA $PING -c 3 -s 60000 -W 5 10.77.0.2
check "IPv6: ping fd77::2 from rcA" $IP netns exec rcA $PING -6 -c 3 -W 5 fd77::2

# ---- tracepoints -----------------------------------------------------------
TR=/sys/kernel/tracing
# net_traced NAME CMD...: CMD (an IPv4 ping) with the trace on; the
# events in $T/NAME, but IPv6's: the stack's own (a router solicitation,
# an MLD report) may cross meanwhile
net_traced() {
	_n=$1
	shift
	echo > $TR/trace
	echo 1 > $TR/tracing_on
	"$@" > /dev/null
	_r=$?
	echo 0 > $TR/tracing_on
	sed -n 's/.*\(rcnet_[a-z]*\): /\1 /p' $TR/trace |
		grep -v ' proto 0x86dd ' > $T/$_n
	return $_r
}
# net_seq FILE DEV: DEV's events, as "event:len" words, in order
net_seq() {
	awk -v d="$2" '$2 == d && $1 != "rcnet_queue" {
		printf "%s%s:%s", n++ ? " " : "", $1, $4 } END { print "" }' "$1"
}
# the channel of each interface (sysfs channel) and its rdma res line
rdma res show qp > $T/qp.txt 2>&1
for ns_dev in rcA:rcn0 rcB:rcn1; do
	ns=${ns_dev%:*}
	dev=${ns_dev#*:}
	set -- $($IP netns exec $ns $TOOL -j -d net show $dev | jq -r \
		'.devices[0].channels[0] | "\(.channel) \(.dev) \(.qpn)"')
	check_eq "net show -d -j: $dev's channel, device and queue pair number" \
		"$($IP netns exec $ns cat /sys/class/net/$dev/rdmachan/channel) $(cat /sys/class/rdmachan/$1/dev_name 2>/dev/null) $(cat /sys/class/rdmachan/$1/qpn 2>/dev/null)" \
		"$*"
	check "rdma res show qp lists qpn $3 of $2 as an RC queue pair" \
		sh -c "grep '^link $2/[0-9]* lqpn $3 ' $T/qp.txt | grep -q 'type RC' ||
			{ cat $T/qp.txt; false; }"
done
[ -e $TR/trace ] || mount -t tracefs nodev $TR
echo 0 > $TR/tracing_on
echo global > $TR/trace_clock
check "the network channel's events enable" sh -c \
	"echo 1 > $TR/events/rdmachan_net/enable"
check "a ping of 60000 bytes, traced" net_traced ping60k \
	$IP netns exec rcA $PING -c 1 -s 60000 -W 5 10.77.0.2
diag "$(cat $T/ping60k)"
check_eq "rcn0: the request sent, then the reply received (60028 bytes)" \
	"rcnet_xmit:60028 rcnet_recv:60028" "$(net_seq $T/ping60k rcn0)"
check_eq "rcn1: the request received, then the reply sent" \
	"rcnet_recv:60028 rcnet_xmit:60028" "$(net_seq $T/ping60k rcn1)"
check "each send went (ret 0), each receive without a copy" sh -c \
	"! grep -v ' ret 0\$' $T/ping60k | grep -q rcnet_xmit &&
	 ! grep rcnet_recv $T/ping60k | grep -vq 'zero-copy\$'"
echo 0 > $TR/events/rdmachan_net/enable
check "a ping with the events disabled" net_traced off \
	$IP netns exec rcA $PING -c 1 -W 5 10.77.0.2
check_eq "records nothing" 0 "$(wc -l < $T/off)"
echo local > $TR/trace_clock
echo 1 > $TR/tracing_on
rx0=$(net_stat rcA rcn0 rx_packets)
$IP netns exec rcA $PING -A -q -c 3000 -s 16 -W 10 10.77.0.2 > $T/flood.out 2>&1
diag "$(tail -n 2 $T/flood.out)"
check "a flood of 3000 small pings: none lost" \
	grep -q '3000 packets transmitted, 3000 packets received' $T/flood.out
rx1=$(net_stat rcA rcn0 rx_packets)
check "ip -s link counted the 3000 replies on rcn0 ($rx0 -> $rx1)" \
	test "$((rx1 - rx0))" -ge 3000
check "net show --json: rcn1's counters agree with ip -s link" sh -c \
	"test \"\$($TOOL -j net show rcn1 | jq '.devices[0].counters.tx_packets')\" -ge 3000"
# NAPI in a kthread (the user's choice, sysfs threaded), and back
nt() {
	$IP netns exec rcA sh -c "echo $1 > /sys/class/net/rcn0/threaded" &&
		$IP netns exec rcB sh -c "echo $1 > /sys/class/net/rcn1/threaded"
}
check "threaded NAPI on both" nt 1
check "ping -s 60000 with NAPI threaded" \
	$IP netns exec rcA $PING -c 3 -s 60000 -W 5 10.77.0.2
check "NAPI back in softirq" nt 0
check "ping with NAPI in softirq again" $IP netns exec rcA $PING -c 3 -W 5 10.77.0.2

# ---- TCP -----------------------------------------------------------------
rz0=$(net_sysfs rcB rcn1 rx_zc_packets)
zc0=$(net_sysfs rcA rcn0 tx_zc_packets)
net_stream_run "a 64 MiB TCP stream rcA -> rcB, checked byte for byte" \
	5001 1 $((64 * MiB)) 150
# the stream's large packets went up in the channel's receive buffers,
# replaced from its page pool (the check above: intact)
rz1=$(net_sysfs rcB rcn1 rx_zc_packets)
check "rcn1 received the stream without a copy (rx_zc_packets $rz0 -> $rz1)" \
	test "$rz1" -gt $((rz0 + 256))
# and they left rcn0 from the skbs' own pages (the check above: intact)
zc1=$(net_sysfs rcA rcn0 tx_zc_packets)
check "rcn0 sent the stream without a copy (tx_zc_packets $zc0 -> $zc1)" \
	test "$zc1" -gt $((zc0 + 256))
net_stream_run "16 concurrent TCP flows of 2 MiB each, checked" \
	5002 16 $((2 * MiB)) 150

# copied_stream WHAT PORT BYTES MIN: a checked stream whose packets rcn1
# copies into its page pool where the kernel has one (Debian's does):
# rx_pool_packets grows by more than MIN, rx_zc_packets stays
copied_stream() {
	_rz=$(net_sysfs rcB rcn1 rx_zc_packets)
	_pp=$(net_sysfs rcB rcn1 rx_pool_packets)
	net_stream_run "$1, checked" "$2" 1 "$3" 150
	_pp1=$(net_sysfs rcB rcn1 rx_pool_packets)
	check "rcn1 copied it into its page pool (rx_pool_packets $_pp -> $_pp1)" \
		test "$_pp1" -gt $((_pp + $4))
	check_eq "and took over no receive buffer (rx_zc_packets)" \
		"$_rz" "$(net_sysfs rcB rcn1 rx_zc_packets)"
}
RZ=/sys/module/rdmachan_net/parameters/rx_zero_copy
check "rx_zero_copy=0" sh -c "echo 0 > $RZ"
copied_stream "a 16 MiB TCP stream with receive copies" 5006 $((16 * MiB)) 128
check "rx_zero_copy=1" sh -c "echo 1 > $RZ"
# the numeric parameters are bounded (net_params.c)
check_fail "rx_backlog=0 is refused" "Invalid" \
	sh -c "echo 0 > /sys/module/rdmachan_net/parameters/rx_backlog"
check "the refusal names the module and the bounds" sh -c \
	"dmesg | grep -q \"rdmachan_net: rx_backlog: invalid value '0' (1..65536)\""
# packets of less than half a receive buffer (64 KiB) are copied too
check "MTU 20000 on both ends" sh -c \
	"$IP -n rcA link set rcn0 mtu 20000 && $IP -n rcB link set rcn1 mtu 20000"
copied_stream "an 8 MiB TCP stream at MTU 20000" 5007 $((8 * MiB)) 64

check_eq "no new errors or drops on either side (ip -s link)" "$bad0" "$(net_bad_counters)"
# small packets: many more messages than credits, the queue stops and wakes
st0=$(net_sysfs rcA rcn0 tx_stopped)
check "MTU 1500 on both ends" sh -c \
	"$IP -n rcA link set rcn0 mtu 1500 && $IP -n rcB link set rcn1 mtu 1500"
zc0=$(net_sysfs rcA rcn0 tx_zc_packets)
rz0=$(net_sysfs rcB rcn1 rx_zc_packets)
net_stream_run "a 16 MiB TCP stream at MTU 1500 (one message per 1500-byte packet), checked" \
	5005 1 $((16 * MiB)) 150
check_eq "packets of 1500 bytes are copied, not sent from their pages (tx_zc_packets)" \
	"$zc0" "$(net_sysfs rcA rcn0 tx_zc_packets)"
check_eq "nor received in the channel's buffers (rx_zc_packets)" \
	"$rz0" "$(net_sysfs rcB rcn1 rx_zc_packets)"
diag "tx_stopped on rcn0: $st0 -> $(net_sysfs rcA rcn0 tx_stopped)"
check "MTU back to 65524 (the default messages' size)" sh -c \
	"$IP -n rcA link set rcn0 mtu 65524 && $IP -n rcB link set rcn1 mtu 65524"

# ---- link loss -----------------------------------------------------------
# a long stream, then the connecting side's device goes away under it
$IP netns exec rcB timeout 200 $NET_STREAM server 5003 1 200 > $T/loss_srv.out 2>&1 &
SRV=$!
sleep 0.5
$IP netns exec rcA timeout 200 $NET_STREAM client 10.77.0.2 5003 1 $((256 * MiB)) 200 \
	> $T/loss_cli.out 2>&1 &
CLI=$!
check "the stream is under way (4 MiB across)" wait_for 30 net_rx_over rcB rcn1 $(($(net_stat rcB rcn1 rx_bytes) + 4 * MiB))
check "rdma link delete $DEV1 under the stream" rxe_del $DEV1
check "carrier off on rcn1 (the device went away) within 5 s" \
	wait_for 5 net_no_carrier rcB rcn1
check "carrier off on rcn0 (the peer is gone) within the keepalive time (10 s)" \
	wait_for 10 net_no_carrier rcA rcn0
check_eq "net show: rcn1 reconnecting" "reconnecting" \
	"$($TOOL -j net show rcn1 | jq -r '.devices[0].state')"
sleep 2
check "rdma link add $DEV1 back" rxe_add $DEV1 veth1
check "carrier back on both within 30 s" wait_for 30 net_carrier_both
diag "$($TOOL -sd net show)"
if wait $CLI; then
	ok "the TCP stream survived the outage: 256 MiB arrived whole"
else
	not_ok "the TCP stream survived the outage: 256 MiB arrived whole"
	diag "$(cat $T/loss_cli.out $T/loss_srv.out)"
fi
wait $SRV
check "sysfs: rcn1 counted the loss and the reconnect" sh -c \
	"[ \"$(net_sysfs rcB rcn1 reconnects)\" -ge 1 ] && [ \"$(net_sysfs rcB rcn1 losses)\" -ge 1 ]"
check "ping after the outage" $IP netns exec rcA $PING -c 3 -W 5 10.77.0.2

# ---- a stranger -----------------------------------------------------------
# A third address on the connecting side's wire opens channels to rcn0's
# port and sends what would be IPv4 packets (immediate 0x0800): each is
# refused before any channel exists (the listener's admit, reason
# REFUSED: EACCES), and the peer's link never notices.
# stranger_refused: rcn0's listener counted 5 admissions refused
stranger_refused() {
	[ "$(cat $(grep -ls ':7472$' /sys/class/rdmachan/listener*/src_addr |
		sed 's/src_addr$/rejected_refused/'))" -ge 5 ]
}
loss0=$(net_sysfs rcA rcn0 losses)
rc0=$(net_sysfs rcA rcn0 reconnects)
check "192.0.2.3 added on veth1 (a third host)" sh -c 	"$IP addr add 192.0.2.3/24 dev veth1 && sleep 1"
$IP netns exec rcA $PING -A -q -c 2000 -s 16 -W 10 10.77.0.2 > $T/stranger_ping.out 2>&1 &
PNG=$!
for i in 1 2 3 4 5; do
	check_fail "stranger $i: chan send from 192.0.2.3 to rcn0's port is refused (EACCES)" \
		"ermission denied|does not admit" \
		$TOOL chan send 192.0.2.1:7472 --src 192.0.2.3 --imm 2048 --timeout 5s \
		"EEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEE"
done
wait $PNG
check "the peer's ping ran on, none lost, while the stranger knocked" \
	grep -q '2000 packets transmitted, 2000 packets received' $T/stranger_ping.out
check "rcn0's listener counted the refusals (rejected_refused)" stranger_refused
check_eq "rcn0 lost no link to the stranger (losses, reconnects)" "$loss0 $rc0" \
	"$(net_sysfs rcA rcn0 losses) $(net_sysfs rcA rcn0 reconnects)"
check "carrier still on both" net_carrier_both
$IP addr del 192.0.2.3/24 dev veth1

# ---- bad input -----------------------------------------------------------
run_checks $HELPERS/net_abuse rcn0
check_fail "ip link add type rdmachan without mode and addr is refused" \
	"mode and addr are needed" $IP link add rcx type rdmachan
check_fail "... and with a bad mode" "invalid mode" \
	$IP link add rcx type rdmachan mode sideways addr 192.0.2.1

# ---- ip link add ... type rdmachan (link_rdmachan.so, net_link.c) ----------
check "ip link add rcn2 type rdmachan mode listen addr 192.0.2.1:7480 peer 192.0.2.2" \
	$IP link add rcn2 type rdmachan mode listen addr 192.0.2.1:7480 peer 192.0.2.2 \
		reconnect-delay 300
check "ip link add rcn3 type rdmachan mode connect ... src 192.0.2.2 depth 64 mtu 9000" \
	$IP link add rcn3 mtu 9000 type rdmachan mode connect addr 192.0.2.1:7480 \
		src 192.0.2.2 depth 64 loss-timeout off
check "both connect within 20 s (their state is up)" wait_for 20 sh -c \
	"grep -qx up /sys/class/net/rcn2/rdmachan/state && grep -qx up /sys/class/net/rcn3/rdmachan/state"
check "ip -d link show rcn2: the kind and its attributes" sh -c \
	"$IP -d link show rcn2 | grep -q 'rdmachan mode listen addr 192.0.2.1 port 7480 peer 192.0.2.2 msg-size [0-9]* depth 0 reconnect-delay 300 loss-timeout '"
check_eq "ip -d -j link show rcn3: mode, addr, port, src, depth, MTU, no loss timeout" \
	"connect 192.0.2.1 7480 192.0.2.2 64 9000 null" \
	"$($IP -d -j link show rcn3 | jq -r '.[0] | "\(.linkinfo.info_data | "\(.mode) \(.addr) \(.port) \(.src) \(.depth)") \(.mtu) \(.linkinfo.info_data.loss_timeout_ms)"')"
check_eq "net show lists them as net add's: listen with its peer, connect with its source" \
	"rcn2 listen 192.0.2.1:7480 192.0.2.2 rcn3 connect 192.0.2.1:7480 192.0.2.2" \
	"$($TOOL -j net show | jq -r '[.devices[] | select(.name == "rcn2" or .name == "rcn3") | "\(.name) \(.mode) \(.addr) \(.src)"] | join(" ")')"
check_fail "ip link add of a name in use is refused" "exists" \
	$IP link add rcn2 type rdmachan mode connect addr 192.0.2.1:7480
check "ip link del rcn3 and rcn2" sh -c "$IP link del rcn3 && $IP link del rcn2"
check "both are gone" sh -c "! $IP link show rcn2 2>/dev/null && ! $IP link show rcn3 2>/dev/null"
check_fail "net add: a bad address is a usage error" "invalid address" \
	$TOOL net add rcn9 connect 300.1.2.3
check_fail "net del of no such interface fails" "no such" $TOOL net del rcn9

# ---- net del under traffic, a new peer interface -------------------------
$IP netns exec rcB timeout 60 $NET_STREAM server 5004 1 60 > /dev/null 2>&1 &
SRV=$!
sleep 0.5
$IP netns exec rcA timeout 60 $NET_STREAM client 10.77.0.2 5004 1 $((512 * MiB)) 60 \
	> /dev/null 2>&1 &
CLI=$!
check "traffic flows (2 MiB across)" wait_for 30 net_rx_over rcB rcn1 $(($(net_stat rcB rcn1 rx_bytes) + 2 * MiB))
check "net del rcn1 under a TCP stream" timeout 20 $TOOL net del rcn1
check "rcn1 is gone" sh -c "! $IP netns exec rcB $IP link show rcn1 2>/dev/null"
check "carrier off on rcn0 within 10 s" wait_for 10 net_no_carrier rcA rcn0
kill $CLI $SRV 2>/dev/null
wait $CLI $SRV 2>/dev/null
check "net add rcn1 connect again, into rcB" sh -c \
	"$TOOL net add rcn1 connect 192.0.2.1 --src 192.0.2.2 &&
	 $IP link set rcn1 netns rcB &&
	 $IP -n rcB addr add 10.77.0.2 peer 10.77.0.1 dev rcn1 &&
	 $IP -n rcB link set rcn1 up"
check "rcn0 takes the new connection from its peer: carrier on both" \
	wait_for 30 net_carrier_both
check "ping across the new channel" $IP netns exec rcA $PING -c 3 -W 5 10.77.0.2

# ---- rmmod under traffic -------------------------------------------------
$IP netns exec rcA $PING -A -q -c 100000 -s 1000 -w 60 10.77.0.2 > /dev/null 2>&1 &
PNG=$!
check "traffic flows (1 MiB across)" wait_for 30 net_rx_over rcB rcn1 $(($(net_stat rcB rcn1 rx_bytes) + MiB))
check "rmmod rdmachan_net under a ping flood" timeout 30 $RMMOD rdmachan_net
check "both interfaces are gone" sh -c \
	"! $IP netns exec rcA $IP link show rcn0 2>/dev/null &&
	 ! $IP netns exec rcB $IP link show rcn1 2>/dev/null"
kill $PNG 2>/dev/null
wait $PNG 2>/dev/null
check "rdmachan unloads" rdmachan_unload
$IP netns del rcA
$IP netns del rcB
done_testing
