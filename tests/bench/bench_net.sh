#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Guest half of the network rows of tests/bench/run-bench.sh (make
# bench; not a test): TCP throughput and ping latency over the rdmachan
# netdev (rcn0 in rcA <-> rcn1 in rcB, as net_basic.sh sets them up),
# against TCP and ping over the veth pair itself (192.0.2.2 -> 192.0.2.1,
# the wire under rxe), and against the raw channel at the netdev's
# message size (rdmachan chan bench --kernel, 64 KiB messages; chan ping
# --kernel for the latency); then the netdev again with rx_spread=1.
# One line "RESULT NAME VALUE" a figure.
#   BENCH_NET_MB    MiB per TCP run (default 256)
#   BENCH_PINGS     ping round trips (default 5000, at most 2000 here)
#   BENCH_SECS      seconds per raw-channel run (default 4)
#   BENCH_RUNS      passes (default 3)
#   BENCH_NET_PROFILE=1  the rdmachan netdev's TCP runs under "perf record
#                   -a" (needs perf in the initramfs:
#                   RDMACHAN_EXTRA_PROGRAMS=/usr/bin/perf); the top of its
#                   report, by symbol, as diagnostics
#   BENCH_NET_PIN   1 (default): the programs on CPU 0 and the wire's
#                   receive work on CPU 1, as the block bench places them
#                   (testing.rst, "Network rows"); 0: where the scheduler and
#                   RPS put them
. /tests/lib.sh

SRV=192.0.2.1
CLI=192.0.2.2
SECS=${BENCH_SECS:-4}
RUNS=${BENCH_RUNS:-3}
MB=${BENCH_NET_MB:-256}
PINGS=${BENCH_PINGS:-5000}
[ "$PINGS" -gt 2000 ] && PINGS=2000
T=/tmp/bench_net
mkdir -p $T
PERF=/usr/bin/perf
PROFILE=${BENCH_NET_PROFILE:-0}
[ -x $PERF ] || PROFILE=0
# every program of a run on CPU 0, the veths' receive work (RPS, see
# lib.sh's wire_fifo) on CPU 1: which CPU does what is then the same in
# every pass, for every row, instead of a draw of the flows' hashes
PIN=${BENCH_NET_PIN:-1}
[ "$(grep -c ^processor /proc/cpuinfo)" -ge 2 ] || PIN=0
RUN=
[ "$PIN" = 0 ] || RUN="taskset -c 0"

result() { echo "RESULT $1 $2" >&3; }

# tcp_rate NS_SRV NS_CLI ADDR PORT [SRC]: one 1-flow stream, MB/s (0 on
# failure); NS "-" for the initial namespace.  PROF=1: under perf record
tcp_rate() {
	_sx=; _cx=; _p=
	[ "$1" = - ] || _sx="$IP netns exec $1"
	[ "$2" = - ] || _cx="$IP netns exec $2"
	[ "${PROF:-0}" = 0 ] || _p="$PERF record -a -q -o $T/perf.data --"
	$_sx $RUN timeout 120 $HELPERS/net_stream server "$4" 1 120 > $T/srv.out 2>&1 &
	wait_for 5 grep -q listening $T/srv.out
	cpu_snap > $T/cpu.before
	$_p $_cx $RUN timeout 120 $HELPERS/net_stream client "$3" "$4" 1 $((MB * 1048576)) 120 1 $5 \
		> $T/cli.out 2>&1
	wait
	diag "TCP to $3: cpu busy $(cpu_busy $T/cpu.before)" >&2
	if [ -n "$_p" ]; then
		diag "perf profile of TCP to $3:" >&2
		diag "$(perf_top $T/perf.data 70)" >&2
		rm -f $T/perf.data
	fi
	sed -n 's/.*, ok, in .* s, \([0-9.]*\) MB\/s$/\1/p' $T/cli.out | grep . || echo 0
}

# ping_avg NS ADDR [ARGS]: ping -A round trip average, microseconds
ping_avg() {
	_x=
	[ "$1" = - ] || _x="$IP netns exec $1"
	_a=$2
	shift 2
	$_x $RUN /usr/bin/ping -A -q -c "$PINGS" "$@" "$_a" 2>/dev/null |
		sed -n 's|.*min/avg/max = [0-9.]*/\([0-9.]*\)/.*|\1|p' |
		awk '{ print $1 * 1000 } END { if (!NR) print 0 }'
}

# chan_rate PORT: the raw channel, in-kernel sender, 64 KiB messages, MB/s
chan_rate() {
	$RUN timeout 60 $TOOL -j chan listen $SRV:$1 --sink --kernel -n 1 -q > $T/sink.out 2>&1 &
	wait_for 10 listening "$1"
	cpu_snap > $T/cpu.before
	$RUN timeout 60 $TOOL -j chan bench $SRV:$1 --src $CLI -s 65536 -t "${SECS}s" -b 32 -d 128 \
		-q --kernel > $T/bench.out 2>&1
	wait
	diag "raw channel: cpu busy $(cpu_busy $T/cpu.before)" >&2
	jq -r 'select(.event == "closed") | .bytes / .seconds / 1e6' $T/sink.out | grep . || echo 0
}

# chan_lat PORT: the raw channel's in-kernel ping, 64 B, round trip avg, us
chan_lat() {
	$RUN timeout 60 $TOOL -j chan listen $SRV:$1 --echo --kernel -n 1 -q > $T/echo.out 2>&1 &
	wait_for 10 listening "$1"
	$RUN timeout 60 $TOOL -j chan ping $SRV:$1 --src $CLI --kernel -c "$PINGS" -s 64 \
		> $T/cping.out 2>&1
	wait
	jq -r '.avg_us' $T/cping.out | grep . || echo 0
}

# net_bench_add: rcn0 listening, rcn1 connecting (with the rx_spread
# the module has now)
net_bench_add() {
	$TOOL net add rcn0 listen $SRV && $TOOL net add rcn1 connect $SRV --src $CLI
}

net_bench_up() {
	net_ns_up && wait_for 20 net_carrier_both
}

# net_bench_del: both interfaces and their namespaces gone
net_bench_del() {
	$TOOL net del rcn1
	$TOOL net del rcn0
	$IP netns del rcA
	$IP netns del rcB
}

check "rxe pair comes up" rxe_pair_up
[ "$PIN" = 0 ] || check "the programs on CPU 0, the wire's receive work on CPU 1" wire_fifo 2
check "rdmachan and rdmachan_net load" net_load
check "rcn0 listen, rcn1 connect" net_bench_add
check "in rcA and rcB, carrier on" net_bench_up
result net_mb "$MB"
result net_runs "$RUNS"
port=7300
for pass in $(seq "$RUNS"); do
	diag "pass $pass of $RUNS"
	port=$((port + 1))
	result net_tcp_MBps "$(PROF=$PROFILE tcp_rate rcB rcA 10.77.0.2 $port)"
	port=$((port + 1))
	result veth_tcp_MBps "$(tcp_rate - - $SRV $port $CLI)"
	port=$((port + 1))
	result chan_64k_MBps "$(chan_rate $port)"
	result net_ping_avg_us "$(ping_avg rcA 10.77.0.2)"
	result veth_ping_avg_us "$(ping_avg - $SRV -I $CLI)"
	port=$((port + 1))
	result chan_ping_avg_us "$(chan_lat $port)"
done
diag "$($TOOL -sd net show)"
net_bench_del

# the same devices with rx_spread=1: the channel polled in an unbound
# workqueue, NAPI threaded (Documentation/net.rst, "Where the work runs")
echo 1 > /sys/module/rdmachan_net/parameters/rx_spread
check "rx_spread=1: rcn0 listen, rcn1 connect" net_bench_add
check "rx_spread=1: in rcA and rcB, carrier on" net_bench_up
for pass in $(seq "$RUNS"); do
	diag "rx_spread pass $pass of $RUNS"
	port=$((port + 1))
	result net_spread_tcp_MBps "$(tcp_rate rcB rcA 10.77.0.2 $port)"
	result net_spread_ping_avg_us "$(ping_avg rcA 10.77.0.2)"
done
net_bench_del
echo 0 > /sys/module/rdmachan_net/parameters/rx_spread
check "rdmachan_net unloads" $RMMOD rdmachan_net
# the rows after these (scale) run message-channel streams, which RPS on
# one CPU overruns (wire_fifo, tests/vm/lib/fixture.sh): RPS off again
[ "$PIN" = 0 ] || check "RPS is off again" wire_fifo 0
done_testing
