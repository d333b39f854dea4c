#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Datagram endpoints (RDMACHAN_IOC_DGRAM_*, "rdmachan dgram"): an echo
# endpoint answers the kernel's resolution (SIDR) and echoes datagrams of
# one byte, udaddy's 100 and the path MTU, one at a time and in bursts,
# the data checked; a datagram of the MTU + 1 is refused with EMSGSIZE; a
# sent datagram arrives with its source address, queue pair and
# immediate; a sender closing right after its sends: they all arrive; a
# port nobody serves does not resolve; udaddy's client against the echo
# endpoint and "dgram ping" against udaddy's server; bursts at an echo of
# 8 buffers: every datagram comes back or is counted lost, and a loss
# shows in the echo's rx_empty; the in-kernel bench (DGRAM_BENCH): a
# ping-pong against the kernel's echo makes its round trips, with their
# times in order, and a datagram over the MTU is refused; busy-polling
# endpoints (ping and echo, the kernel's ping-pong, a sender's close); a
# blast at the kernel's sink: it counts what it took, no more than was
# sent, and a sink without traffic ends on SIGINT; two members of a
# multicast group receive a sender's datagrams, and mckey both ways (its
# sender to a member, a sender to its member); the device removed under
# an endpoint waiting to receive, a busy-polling one and a kernel sink:
# all end with ENODEV.  rdmachan unloads after every part (nothing
# held).

# Over rxe only: siw (iWARP) has no datagrams, and an endpoint on it is
# refused (EOPNOTSUPP, checked on the debug kernel's siw run).
requires() {
	_have_rdma rxe siw
}

. /tests/lib.sh

SRV=192.0.2.1
CLI=192.0.2.2
T=/tmp/dgram
mkdir -p $T

check "rxe pair comes up" rxe_pair_up
check "rdmachan loads" rdmachan_load

if [ "$RDMA_DRIVER" = siw ]; then
	check_fail "siw: an endpoint is refused with EOPNOTSUPP" "EOPNOTSUPP" \
		timeout 30 $TOOL dgram recv $SRV:7300 -W 1s
	check "no endpoint holds the module: rdmachan unloads" rdmachan_unload
	done_testing
	exit 0
fi

# jq_ok FILE FILTER: FILTER (jq -e) holds on FILE's JSON
jq_ok() {
	jq -e "$2" "$1" >/dev/null 2>&1 && return 0
	cat "$1"
	return 1
}

# datagrams FILE FILTER: FILTER (jq -r) on the array of the datagrams
# that "dgram recv -j" printed to FILE (its "joined" event left out)
datagrams() {
	jq -s -r "[.[] | select(.from)] | $2" "$1" 2>/dev/null
}

# the path MTU: the active MTU of the device's port
MTU=$(ibv_devinfo -d $DEV0 | sed -n 's/.*active_mtu:[[:space:]]*\([0-9]*\).*/\1/p')
check "the port has an active MTU" test -n "$MTU"

# an echo endpoint and pings of several sizes and bursts, data checked
timeout 300 $TOOL -j dgram echo $SRV:7301 > $T/echo.json 2> $T/echo.err &
echo_pid=$!
wait_for 10 cm_listening $SRV 7301
for sb in "1 1" "100 1" "100 16" "$MTU 4"; do
	set -- $sb
	timeout 60 $TOOL -j dgram ping $SRV:7301 -I $CLI -c 10 -s $1 -b $2 -V \
		> $T/ping.json 2> $T/ping.err
	check_eq "ping of $1 bytes in bursts of $2: every datagram echoed, data checked" \
		"0 $((10 * $2)) 0" \
		"$? $(jq -r '"\(.received) \(.lost)"' $T/ping.json 2>/dev/null)"
done
check_fail "a datagram of the MTU + 1 is refused with EMSGSIZE" "EMSGSIZE" \
	timeout 60 $TOOL dgram ping $SRV:7301 -I $CLI -c 1 -s $((MTU + 1))
kill -INT $echo_pid
wait $echo_pid
check "the echo endpoint reports what it echoed" \
	jq_ok $T/echo.json '.echoed == 10 + 10 + 160 + 40 and .rx == .echoed'

# one datagram with its source, queue pair and immediate
timeout 60 $TOOL -j dgram recv $SRV:7302 -c 1 -W 30s > $T/recv.json 2> $T/recv.err &
recv_pid=$!
wait_for 10 cm_listening $SRV 7302
timeout 60 $TOOL -j dgram send $SRV:7302 -I $CLI hello-datagram > $T/send.json 2> $T/send.err
check "send: one datagram sent" jq_ok $T/send.json '.sent == 1'
wait $recv_pid
check_eq "recv: it arrives whole, from the sender's address" \
	"0 $CLI 14 hello-datagram" \
	"$? $(jq -r '"\(.from) \(.len) \(.data)"' $T/recv.json 2>/dev/null)"
check "recv: with the sender's queue pair as its source and immediate" \
	jq_ok $T/recv.json '.qpn > 0 and .imm == .qpn'

# a sender that closes right after posting: what it posted still goes
timeout 60 $TOOL -j dgram recv $SRV:7305 -c 64 -W 30s > $T/recv.json 2> $T/recv.err &
recv_pid=$!
wait_for 10 cm_listening $SRV 7305
timeout 60 $TOOL -j dgram send $SRV:7305 -I $CLI -c 64 -s 1000 > $T/send.json 2> $T/send.err
wait $recv_pid
check_eq "a sender that closes at once after 64 datagrams: all 64 arrive" \
	"0 64" "$? $(datagrams $T/recv.json length)"

check_fail "a port nobody serves does not resolve" \
	"EHOSTUNREACH|ETIMEDOUT|ECONNREFUSED" \
	timeout 60 $TOOL dgram send $SRV:7399 -I $CLI -W 3s x

# udaddy's client against the echo endpoint (10 datagrams of 100 bytes)
timeout 120 $TOOL -j dgram echo $SRV:7174 -c 10 > $T/echo.json 2> $T/echo.err &
echo_pid=$!
wait_for 10 cm_listening $SRV 7174
c0="$(hw_counters $DEV0)"
c1="$(hw_counters $DEV1)"
timeout 60 udaddy -s $SRV -b $CLI > $T/udaddy.out 2>&1
check "udaddy -s against the echo endpoint: 10 datagrams there and back" \
	sh -c "grep -q 'return status 0' $T/udaddy.out || { cat $T/udaddy.out; false; }"
wait $echo_pid
check "the echo endpoint echoed udaddy's 10" jq_ok $T/echo.json '.echoed == 10'
diag "echo: $(cat $T/echo.json)"
diag "$DEV0 before: $c0"
diag "$DEV0 after:  $(hw_counters $DEV0)"
diag "$DEV1 before: $c1"
diag "$DEV1 after:  $(hw_counters $DEV1)"

# dgram ping against udaddy's server: it takes 10, then answers 10
timeout 120 udaddy -b $SRV > $T/udaddy.out 2>&1 &
ud_pid=$!
wait_for 10 cm_listening $SRV 7174
timeout 60 $TOOL -j dgram ping $SRV -I $CLI -b 10 -c 1 > $T/ping.json 2> $T/ping.err
check_eq "dgram ping against udaddy's server: 10 sent, 10 answers" "0 10 10" \
	"$? $(jq -r '"\(.sent) \(.received)"' $T/ping.json 2>/dev/null)"
wait $ud_pid
check "udaddy's server ends cleanly" \
	sh -c "grep -q 'return status 0' $T/udaddy.out || { cat $T/udaddy.out; false; }"

# bursts at an echo of 8 buffers: UD may drop, the counts must say so
timeout 300 $TOOL -j dgram echo $SRV:7303 -d 8 > $T/echo.json 2> $T/echo.err &
echo_pid=$!
wait_for 10 cm_listening $SRV 7303
timeout 120 $TOOL -j dgram ping $SRV:7303 -I $CLI -c 20 -b 64 -s 64 -W 2s \
	> $T/ping.json 2> $T/ping.err
kill -INT $echo_pid
wait $echo_pid
check "a flood: every datagram comes back or is counted lost" \
	jq_ok $T/ping.json '.sent == 1280 and .received + .lost == .sent'
lost=$(jq -r .lost $T/ping.json 2>/dev/null)
diag "the flood: $lost lost; the echo: $(jq -c '{rx, echoed, rx_empty}' $T/echo.json 2>/dev/null)"
check "and a loss shows in the echo's rx_empty" \
	sh -c "[ '$lost' = 0 ] || jq -e '.rx_empty > 0' $T/echo.json > /dev/null"
check "the echo endpoint is still sound: it echoed what it received" \
	jq_ok $T/echo.json '.rx == .echoed'

# the in-kernel bench: ping-pong against the kernel's echo
timeout 300 $TOOL -j dgram echo $SRV:7306 -k > $T/kecho.json 2> $T/kecho.err &
echo_pid=$!
wait_for 10 cm_listening $SRV 7306
timeout 120 $TOOL -j dgram bench $SRV:7306 -I $CLI --op pingpong -c 500 -s 64 \
	> $T/pp.json 2> $T/pp.err
check "bench --op pingpong: 500 round trips against echo -k" \
	jq_ok $T/pp.json '.round_trips == 500 and .mode == "kernel" and .size == 64'
check "its round trip times are in order: 0 < min <= p50 <= p99 <= max, avg within" \
	jq_ok $T/pp.json '.min_us > 0 and .min_us <= .p50_us and .p50_us <= .p99_us and
		.p99_us <= .max_us and .min_us <= .avg_us and .avg_us <= .max_us'
check_fail "bench: a datagram of the MTU + 1 is refused with EMSGSIZE" "EMSGSIZE" \
	timeout 60 $TOOL dgram bench $SRV:7306 -I $CLI --op pingpong -c 1 -s $((MTU + 1))
timeout 120 $TOOL -j dgram bench $SRV:7306 -I $CLI --op pingpong -t 2s -s $MTU \
	> $T/pp2.json 2> $T/pp2.err
check "bench --op pingpong -t 2s of the MTU: round trips, for the 2 s and not on and on" \
	jq_ok $T/pp2.json '.round_trips > 0 and .seconds > 1.5 and .seconds < 30'
kill -INT $echo_pid
wait $echo_pid
rc=$?
# each request the client counted came back from the echo; a lost one may
# or may not have reached it, and so may the one the timed run's end cut
set -- $(jq -s -r '"\(.[0].round_trips + .[1].round_trips) \(.[0].lost + .[1].lost + 1)"' \
	$T/pp.json $T/pp2.json 2>/dev/null)
check_eq "echo -k ends on SIGINT and echoed every round trip (and no more than the rest)" \
	"0 true" "$rc $(jq --argjson ok "${1:-0}" --argjson rest "${2:-0}" \
		'.echoed >= $ok and .echoed <= $ok + $rest' $T/kecho.json 2>/dev/null)"

# busy-polling endpoints (RDMACHAN_DGRAM_BUSY_POLL): each end processes
# its completion queue itself, in its waits
timeout 300 $TOOL -j dgram echo $SRV:7310 --busy-poll > $T/becho.json 2> $T/becho.err &
echo_pid=$!
wait_for 10 cm_listening $SRV 7310
timeout 60 $TOOL -j dgram ping $SRV:7310 -I $CLI -c 10 -s 100 -b 16 -V --busy-poll \
	> $T/bping.json 2> $T/bping.err
check_eq "busy-poll: bursts of 16 against a busy-polling echo, every datagram back, data checked" \
	"0 160 0" "$? $(jq -r '"\(.received) \(.lost)"' $T/bping.json 2>/dev/null)"
kill -INT $echo_pid
wait $echo_pid
check "busy-poll: the echo, asleep in its wait, ends on SIGINT having echoed the 160" \
	jq_ok $T/becho.json '.echoed == 160 and .rx == 160'
timeout 300 $TOOL -j dgram echo $SRV:7311 -k --busy-poll > $T/kecho.json 2> $T/kecho.err &
echo_pid=$!
wait_for 10 cm_listening $SRV 7311
timeout 120 $TOOL -j dgram bench $SRV:7311 -I $CLI --op pingpong -c 500 -s 64 --busy-poll \
	> $T/pp.json 2> $T/pp.err
check "busy-poll: the in-kernel ping-pong makes its 500 round trips" \
	jq_ok $T/pp.json '.round_trips == 500 and .min_us <= .p50_us and .p50_us <= .max_us'
kill -INT $echo_pid
wait $echo_pid
timeout 60 $TOOL -j dgram recv $SRV:7312 -c 64 -W 30s > $T/recv.json 2> $T/recv.err &
recv_pid=$!
wait_for 10 cm_listening $SRV 7312
timeout 60 $TOOL -j dgram send $SRV:7312 -I $CLI -c 64 -s 1000 --busy-poll \
	> $T/send.json 2> $T/send.err
wait $recv_pid
check_eq "busy-poll: a sender that closes at once after 64 datagrams: its close polls them out, all 64 arrive" \
	"0 64" "$? $(datagrams $T/recv.json length)"

# a blast at the kernel's sink: UD may drop (receive buffers, the veth's
# backlog), the sink counts what it took
timeout 300 $TOOL -j dgram recv $SRV:7307 --sink -W 2s > $T/sink.json 2> $T/sink.err &
sink_pid=$!
wait_for 10 cm_listening $SRV 7307
timeout 120 $TOOL -j dgram bench $SRV:7307 -I $CLI -c 5000 -s 256 > $T/blast.json 2> $T/blast.err
check "bench (blast): 5000 datagrams of 256 bytes sent" \
	jq_ok $T/blast.json '.op == "blast" and .datagrams == 5000 and .bytes == 5000 * 256 and .msg_rate > 0'
wait $sink_pid
check_eq "the sink ends 2 s after the last datagram" "0" "$?"
diag "the sink: $(cat $T/sink.json)"
check "it took some, no more than were sent, each of 256 bytes" \
	jq_ok $T/sink.json '.bytes == .datagrams * 256 and .datagrams > 0 and
		.datagrams <= 5000'
timeout 60 $TOOL -j dgram recv $SRV:7308 --sink > $T/sink.json 2> $T/sink.err &
sink_pid=$!
wait_for 10 cm_listening $SRV 7308
kill -INT $sink_pid
wait $sink_pid
check_eq "a sink with no traffic ends on SIGINT, with nothing taken" "0 0" \
	"$? $(jq -r .datagrams $T/sink.json 2>/dev/null)"

# multicast: two members on one host, a sender on the other
for r in 1 2; do
	timeout 120 $TOOL -j dgram recv 224.0.1.1 -I $CLI -c 10 -W 30s \
		> $T/m$r.json 2> $T/m$r.err &
	eval m${r}_pid=\$!
done
wait_for 10 sh -c "grep -q joined $T/m1.json && grep -q joined $T/m2.json"
timeout 60 $TOOL -j dgram send 224.0.1.1 -I $SRV -c 10 -s 100 > $T/send.json 2> $T/send.err
check "a sender to group 224.0.1.1 sends 10 datagrams" \
	jq_ok $T/send.json '.sent == 10 and .peer_qpn == 16777215'
for r in 1 2; do
	eval wait \$m${r}_pid
	check_eq "member $r of the group receives the 10, from the sender" \
		"0 10 $SRV" "$? $(datagrams $T/m$r.json '"\(length) \(.[0].from)"')"
done

# mckey's sender to a member, a sender to mckey's member
timeout 120 $TOOL -j dgram recv 224.0.1.2 -I $CLI -c 10 -W 30s \
	> $T/m1.json 2> $T/m1.err &
m1_pid=$!
wait_for 10 grep -q joined $T/m1.json
timeout 60 mckey -m 224.0.1.2 -b $SRV -s > $T/mckey.out 2>&1
check "mckey -s sends to the group" \
	sh -c "grep -q 'return status 0' $T/mckey.out || { cat $T/mckey.out; false; }"
wait $m1_pid
check_eq "the member receives mckey's 10 of 100 bytes, its queue pair the immediate" \
	"0 10 100 true" \
	"$? $(datagrams $T/m1.json '"\(length) \(.[0].len) \(.[0].imm == .[0].qpn)"')"
timeout 120 mckey -m 224.0.1.3 -b $CLI > $T/mckey.out 2>&1 &
mk_pid=$!
wait_for 10 grep -q "joined dgid" $T/mckey.out
timeout 60 $TOOL -j dgram send 224.0.1.3 -I $SRV -c 10 -s 100 > $T/send.json 2> $T/send.err
check "a sender to mckey's group sends 10" jq_ok $T/send.json '.sent == 10'
wait $mk_pid
check "mckey's member receives them and ends cleanly" \
	sh -c "grep -q 'return status 0' $T/mckey.out || { cat $T/mckey.out; false; }"
check_fail "a unicast address is no group to join from -I" "multicast group" \
	$TOOL dgram recv $SRV -I $CLI

check "no endpoint holds the module: rdmachan unloads" rdmachan_unload
check "rdmachan loads again" rdmachan_load

# the device removed under an endpoint waiting to receive and a sink
timeout 60 $TOOL -j dgram recv $SRV:7304 -c 0 > $T/recv.json 2> $T/recv.err &
recv_pid=$!
timeout 60 $TOOL -j dgram recv $SRV:7309 --sink > $T/sink.json 2> $T/sink.err &
sink_pid=$!
timeout 60 $TOOL -j dgram recv $SRV:7313 -c 0 --busy-poll > $T/brecv.json 2> $T/brecv.err &
brecv_pid=$!
wait_for 10 cm_listening $SRV 7304
wait_for 10 cm_listening $SRV 7309
wait_for 10 cm_listening $SRV 7313
check "the server's device is removed" rxe_del $DEV0
wait $recv_pid
check_eq "the waiting endpoint ends with ENODEV" "1 ENODEV" \
	"$? $(cat $T/recv.json $T/recv.err | grep -o ENODEV | head -n 1)"
wait $sink_pid
check_eq "the kernel sink ends with ENODEV" "1 ENODEV" \
	"$? $(cat $T/sink.json $T/sink.err | grep -o ENODEV | head -n 1)"
wait $brecv_pid
check_eq "a busy-polling endpoint asleep in its wait ends with ENODEV" "1 ENODEV" \
	"$? $(cat $T/brecv.json $T/brecv.err | grep -o ENODEV | head -n 1)"
check "rdmachan unloads after the device removal" rdmachan_unload
done_testing
