#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The in-kernel benchmark (RDMACHAN_IOC_BENCH), the example user of the
# exported channel API: blast against sink and ping-pong against echo,
# both ends looping in the kernel; the tool's --kernel modes; sysfs
# counters matching the traffic; bad arguments.
. /tests/lib.sh

SRV=192.0.2.1
CLI=192.0.2.2
T=/tmp/chan_bench
mkdir -p $T

check "rxe pair comes up" rxe_pair_up
check "rdmachan loads" rdmachan_load
run_checks $HELPERS/chan_test bench

# bench --kernel against listen --sink --kernel: what is sent arrives
bg sink $TOOL -j listen $SRV:7101 --sink --kernel -n 1 -q
wait_for 10 listening 7101
check "bench --kernel runs for a second" sh -c \
	"$TOOL -j bench $SRV:7101 --src $CLI --kernel -t 1s -s 256 -b 16 > $T/bench.json"
wait $PID_sink
check_eq "the kernel sink exits 0 after one channel" 0 "$?"
sent=$(jq -r .messages $T/bench.json)
got=$(jq -r 'select(.event == "closed") | .messages' $T/sink.out)
check "the kernel blast sent messages" test "${sent:-0}" -gt 0
check_eq "the kernel sink received every message sent" "$sent" "$got"
check_eq "bench reports the in-kernel mode" kernel "$(jq -r .mode $T/bench.json)"
diag "in-kernel blast: $(jq -c '{size, batch, messages, msg_rate, mbytes_per_sec}' $T/bench.json)"

# the same with both ends busy-polling (DIRECT): the close after the run
# must still flush every send and end in order
bg sinkd $TOOL -j listen $SRV:7105 --sink --kernel -n 1 -q --poll direct
wait_for 10 listening 7105
check "bench --kernel --poll direct runs for a second" sh -c \
	"$TOOL -j bench $SRV:7105 --src $CLI --kernel -t 1s -s 64 -b 32 --poll direct > $T/benchd.json"
wait $PID_sinkd
check_eq "the busy-polled kernel sink ends in order after the close" closed \
	"$(jq -r 'select(.chan) | .event' $T/sinkd.out)"
check_eq "the busy-polled kernel sink received every message sent" \
	"$(jq -r .messages $T/benchd.json)" \
	"$(jq -r 'select(.event == "closed") | .messages' $T/sinkd.out)"

# user-space bench against the kernel sink: both sides agree too
bg sink2 $TOOL -j listen $SRV:7102 --sink --kernel -n 1 -q
wait_for 10 listening 7102
check "bench (user space) against the kernel sink" sh -c \
	"$TOOL -j bench $SRV:7102 --src $CLI -t 1s -s 64 -q > $T/bench2.json"
wait $PID_sink2
check_eq "the kernel sink counted what user-space bench sent" \
	"$(jq -r .messages $T/bench2.json)" \
	"$(jq -r 'select(.event == "closed") | .messages' $T/sink2.out)"

# ping --kernel against listen --echo --kernel, softirq and busy-polled
for poll in softirq direct; do
	bg echo $TOOL -j listen $SRV:7103 --echo --kernel -n 1 -q --poll $poll
	wait_for 10 listening 7103
	check "ping --kernel --poll $poll: 2000 round trips" sh -c \
		"$TOOL -j ping $SRV:7103 --src $CLI --kernel -c 2000 -s 64 --poll $poll > $T/ping.json"
	wait $PID_echo
	check_eq "the kernel echo exits 0 after one channel ($poll)" 0 "$?"
	check_eq "ping --kernel: 2000 replies ($poll)" 2000 "$(jq -r .received $T/ping.json)"
	check "ping --kernel: min <= p50 <= p99 <= max ($poll)" \
		jq -e '.min_us > 0 and .min_us <= .p50_us and .p50_us <= .p99_us and .p99_us <= .max_us' \
		$T/ping.json
	diag "in-kernel ping ($poll): $(jq -c '{min_us, avg_us, p50_us, p99_us, max_us}' $T/ping.json)"
done

check_fail "listen --kernel without --echo or --sink is a usage error" \
	"needs --echo or --sink" $TOOL listen $SRV:7104 --kernel
check "rdmachan unloads" rdmachan_unload
done_testing
