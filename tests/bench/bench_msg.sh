#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Guest half of tests/bench/run-bench.sh (make bench; not a test): message rate, bandwidth and
# latency of perftest (ib_send_bw / ib_send_lat over rdma_cm) and of
# rdmachan (in-kernel bench, tool-driven bench) on the same rxe pair in
# the same VM; the round trip of rdmachan's in-kernel rping and of
# rping's own client against rping -s; unreliable datagrams (UD),
# ib_send_bw and ib_send_lat -c UD against the in-kernel datagram bench;
# then one-sided WRITE and READ
# bandwidth, ib_write_bw / ib_read_bw against rdmachan's in-kernel and
# tool-driven one-sided bench; and the in-kernel 64-byte rate again with
# every rdmachan tracepoint recording, and with latency histograms.
# Each figure is one line "RESULT NAME VALUE" on the results port, read by
# the host script.
. /tests/lib.sh

SRV=192.0.2.1
CLI=192.0.2.2
SECS=${BENCH_SECS:-4}
PINGS=${BENCH_PINGS:-5000}
RUNS=${BENCH_RUNS:-3}
LAT_PAIRS=${BENCH_LAT_PAIRS:-10}
RPINGS=${BENCH_RPINGS:-2000}
# one-sided ops per call (per chained post); the region is RBATCH * size
RBATCH=${BENCH_RDMA_BATCH:-32}
T=/tmp/bench
mkdir -p $T

result() { echo "RESULT $1 $2" >&3; }

# Packets that rxe1 (the client host) has sent
rxe1_sent() { cat /sys/class/infiniband/$DEV1/ports/1/hw_counters/sent_pkts; }

# perftest RESULT_AWK PROGRAM ARGS...: run a perftest server on rxe0 and
# its client on rxe1; print what RESULT_AWK extracts from the client's
# report.  perftest's client sometimes starts before its server listens
# (and then fails or crashes), so a run without a report is repeated.
# A run that did not cross the wire (rxe1 sent nothing: the client ran
# on rxe0 through rxe's loopback) is reported as 0.
perftest() {
	_awk=$1
	_prog=$2
	shift 2
	for _try in 1 2 3; do
		_sent=$(rxe1_sent)
		timeout 60 $_prog -R -d rxe0 "$@" > $T/pt_srv.out 2>&1 &
		sleep 2
		timeout 60 $_prog -R -d rxe1 "$@" $SRV > $T/pt_cli.out 2>&1
		wait
		_r=$(awk "$_awk" $T/pt_cli.out)
		if [ -n "$_r" ] && [ "$(rxe1_sent)" = "$_sent" ]; then
			echo "bench: $_prog did not cross the wire" >&2
			_r="0 0"
		fi
		[ -n "$_r" ] && break
		cat $T/pt_cli.out >&2
	done
	echo "$_r"
}

# perftest_bw SIZE: ib_send_bw, depth 128: average MB/s and msg/s
# ("#bytes #iterations BW peak[MB/sec] BW average[MB/sec] MsgRate[Mpps]")
perftest_bw() {
	perftest "\$1 == $1 && NF >= 5 { print \$4, \$5 * 1e6; exit }" \
		ib_send_bw -s "$1" -D "$SECS"
}

# perftest_lat SIZE: ib_send_lat; one-way t_typical and t_avg in us
# ("#bytes #iterations t_min t_max t_typical t_avg t_stdev 99% 99.9%")
perftest_lat() {
	perftest "\$1 == $1 && NF >= 6 { print \$5, \$6; exit }" \
		ib_send_lat -s "$1" -n "$PINGS"
}

# perftest_rdma_bw PROGRAM SIZE: ib_write_bw or ib_read_bw (tx depth 128,
# perftest's default): average MB/s as printed, and ops/s
perftest_rdma_bw() {
	perftest "\$1 == $2 && NF >= 5 { print \$4, \$5 * 1e6; exit }" \
		"$1" -s "$2" -D "$SECS"
}

# rdmachan_rdma_bw OP SIZE PORT KERNEL: one-sided bench, RBATCH ops per
# call, both ends busy-polling; MB/s and ops/s as the initiator measured
# them.  KERNEL=1: in-kernel at both ends (listen --target, bench
# --kernel); 0: the tool's RDMACHAN_IOC_RDMA loop against "reg".
rdmachan_rdma_bw() {
	_region=$(($2 * RBATCH))
	if [ "$4" = 1 ]; then
		timeout 60 $TOOL -j chan listen $SRV:$3 --target --region $_region -n 1 -q \
			--poll direct > $T/target.out 2>&1 &
		_k=--kernel
	else
		timeout 60 $TOOL -j mr reg $SRV:$3 --size $_region -n 1 -q \
			--poll direct > $T/target.out 2>&1 &
		_k=
	fi
	wait_for 10 listening "$3"
	timeout 60 $TOOL -j chan bench $SRV:$3 --src $CLI --op "$1" -s "$2" -t "${SECS}s" \
		-b $RBATCH -q --poll direct $_k > $T/rbench.out 2>&1
	wait
	jq -r '"\(.mbytes_per_sec) \(.ops_per_sec)"' $T/rbench.out ||
		cat $T/rbench.out $T/target.out >&2
}

# rdmachan_bw SIZE PORT KERNEL_SENDER: one bench run against a kernel
# sink, both ends busy-polling their completion queues as perftest does
rdmachan_bw() {
	_k=
	[ "$3" = 1 ] && _k=--kernel
	timeout 60 $TOOL -j chan listen $SRV:$2 --sink --kernel -n 1 -q --poll direct \
		> $T/sink.out 2>&1 &
	wait_for 10 listening "$2"
	timeout 60 $TOOL -j chan bench $SRV:$2 --src $CLI -s "$1" -t "${SECS}s" -b 32 -d 128 -q $_k \
		--poll direct > $T/bench.out 2>&1
	wait
	# the rate that arrived, as the sink measured it
	jq -r 'select(.event == "closed") | "\(.bytes / .seconds / 1e6) \(.messages / .seconds)"' \
		$T/sink.out
}

# events ON|OFF: every event of system rdmachan recording into tracefs's
# ring buffer, or none (what they cost: make bench's tracepoint row)
TR=/sys/kernel/tracing
events() {
	[ -e $TR/trace ] || mount -t tracefs nodev $TR || return 1
	if [ "$1" = on ]; then
		echo > $TR/trace
		echo 1 > $TR/events/rdmachan/enable
		echo 1 > $TR/tracing_on
	else
		echo 0 > $TR/events/rdmachan/enable
		echo > $TR/trace
	fi
}

# rdmachan_lat PORT POLL: in-kernel ping-pong; one-way p50 and avg (RTT/2)
rdmachan_lat() {
	timeout 60 $TOOL -j chan listen $SRV:$1 --echo --kernel -n 1 -q --poll "$2" > $T/echo.out 2>&1 &
	wait_for 10 listening "$1"
	timeout 60 $TOOL -j chan ping $SRV:$1 --src $CLI --kernel -c "$PINGS" -s 64 --poll "$2" \
		> $T/ping.out 2>&1
	wait
	jq -r '"\(.p50_us / 2) \(.avg_us / 2)"' $T/ping.out
}

# rdmachan_user_lat PORT: tool ping (user space both ends); one-way p50, avg
rdmachan_user_lat() {
	timeout 60 $TOOL -j chan listen $SRV:$1 --echo -n 1 -q --poll direct > $T/uecho.out 2>&1 &
	wait_for 10 listening "$1"
	timeout 60 $TOOL -j chan ping $SRV:$1 --src $CLI -c "$PINGS" -i 0 -s 64 -q --poll direct \
		> $T/uping.out 2>&1
	wait
	jq -r '"\(.p50_us / 2) \(.avg_us / 2)"' $T/uping.out ||
		cat $T/uping.out $T/uecho.out >&2
}

# perftest_ud_bw SIZE: ib_send_bw -c UD: average MB/s and msg/s, as its
# client (the sender) measured them
perftest_ud_bw() {
	perftest "\$1 == $1 && NF >= 5 { print \$4, \$5 * 1e6; exit }" \
		ib_send_bw -c UD -s "$1" -D "$SECS"
}

# perftest_ud_lat SIZE: ib_send_lat -c UD; one-way t_typical and t_avg in us
perftest_ud_lat() {
	perftest "\$1 == $1 && NF >= 6 { print \$5, \$6; exit }" \
		ib_send_lat -c UD -s "$1" -n "$PINGS"
}

# rdmachan_ud_bw SIZE PORT: the in-kernel datagram blast against the
# kernel's sink (completions in softirq: a busy-polling sink takes the
# CPU that soft-RoCE's receive work needs): msg/s sent (as the blast measured it) and delivered (as
# the sink did), MB/s delivered
rdmachan_ud_bw() {
	timeout 60 $TOOL -j dgram recv $SRV:$2 --sink -W 1s > $T/udsink.out 2>&1 &
	wait_for 10 cm_listening $SRV "$2"
	timeout 60 $TOOL -j dgram bench $SRV:$2 -I $CLI -s "$1" -t "${SECS}s" \
		> $T/udblast.out 2>&1
	wait
	_sent=$(jq -r .msg_rate $T/udblast.out 2>/dev/null) || cat $T/udblast.out >&2
	jq -r --arg s "${_sent:-0}" '"\($s) \(.msg_rate) \(.mbytes_per_sec)"' $T/udsink.out ||
		cat $T/udsink.out >&2
}

# rdmachan_ud_lat PORT: the in-kernel datagram ping-pong against the
# kernel's echo, both endpoints busy-polling; one-way p50 and avg (RTT/2)
rdmachan_ud_lat() {
	timeout 60 $TOOL -j dgram echo $SRV:$1 -k --busy-poll > $T/udecho.out 2>&1 &
	_echo=$!
	wait_for 10 cm_listening $SRV "$1"
	timeout 60 $TOOL -j dgram bench $SRV:$1 -I $CLI --op pingpong -c "$PINGS" -s 64 \
		--busy-poll > $T/udping.out 2>&1
	kill -INT $_echo
	wait
	jq -r '"\(.p50_us / 2) \(.avg_us / 2)"' $T/udping.out ||
		cat $T/udping.out $T/udecho.out >&2
}

# rping_rtt PORT CLIENT...: an rping -s on rxe0, CLIENT making RPINGS
# pings of 64 B against it from rxe1; the run's wall time per ping in us
# (its connection setup amortised over the pings), 0 if it failed
rping_rtt() {
	_p=$1
	shift
	timeout 120 rping -s -a $SRV -p "$_p" > $T/rps.out 2>&1 &
	wait_for 10 cm_listening $SRV "$_p"
	# busybox's date has no %N: /proc/uptime's 10 ms, over a run of seconds
	read -r _t0 _ < /proc/uptime
	timeout 120 "$@" -C "$RPINGS" > $T/rpc.out 2>&1
	_rc=$(rping_rc $? $T/rpc.out)
	read -r _t1 _ < /proc/uptime
	wait
	if [ "$_rc" = 0 ]; then
		awk -v a="$_t0" -v b="$_t1" -v n="$RPINGS" 'BEGIN { printf "%.2f\n", (b - a) * 1e6 / n }'
	else
		cat $T/rpc.out >&2
		echo 0
	fi
}

check "rxe pair comes up" rxe_pair_up
check "rdmachan loads" rdmachan_load
# perftest's rdma_cm client takes its source address from the routing
# table (its --source_ip is not used for the resolution): without a
# source, 192.0.2.1 is local, and the client would land on rxe0 itself,
# where rxe loops packets back without IP, UDP or the veth.  Route the
# server's address out of veth1 for any source, so that perftest, like
# rdmachan (--src 192.0.2.2), runs rxe1 -> rxe0 across the wire.
check "perftest's client is routed across the wire" \
	$IP rule add pref 99 to $SRV iif lo lookup 100

# BENCH_RUNS passes, each with every row, perftest and rdmachan in turn:
# the host takes the median of each figure over the passes.
port=7200
result rdma_batch $RBATCH
result msg_runs "$RUNS"
for pass in $(seq "$RUNS"); do
	diag "pass $pass of $RUNS"
	for size in 64 4096; do
		set -- $(perftest_bw $size)
		result "perftest_send_bw_${size}_MBps" "${1:-0}"
		result "perftest_send_rate_${size}" "${2:-0}"
		port=$((port + 1))
		set -- $(rdmachan_bw $size $port 1)
		result "kernel_send_bw_${size}_MBps" "${1:-0}"
		result "kernel_send_rate_${size}" "${2:-0}"
		port=$((port + 1))
		set -- $(rdmachan_bw $size $port 0)
		result "tool_send_bw_${size}_MBps" "${1:-0}"
		result "tool_send_rate_${size}" "${2:-0}"
	done
	# right after the 64-byte in-kernel rate: the same with the events on
	port=$((port + 1))
	events on
	set -- $(rdmachan_bw 64 $port 1)
	events off
	result "kernel_send_rate_64_traced" "${2:-0}"
	# and with latency histograms (off by default): what they cost
	port=$((port + 1))
	echo 1 > /sys/module/rdmachan/parameters/latency_hist
	set -- $(rdmachan_bw 64 $port 1)
	echo 0 > /sys/module/rdmachan/parameters/latency_hist
	result "kernel_send_rate_64_hist" "${2:-0}"
	# and what one latency costs, timed in the kernel (hist.c)
	DBG=/sys/kernel/debug
	[ -e $DBG/rdmachan ] || mount -t debugfs nodev $DBG 2>/dev/null
	result "hist_cost_ns" "$(cat $DBG/rdmachan/hist_cost 2>/dev/null || echo 0)"
	set -- $(perftest_lat 64)
	result perftest_send_lat_64_typical_us "${1:-0}"
	result perftest_send_lat_64_avg_us "${2:-0}"
	port=$((port + 1))
	set -- $(rdmachan_lat $port direct)
	result kernel_lat_64_direct_p50_us "${1:-0}"
	result kernel_lat_64_direct_avg_us "${2:-0}"
	port=$((port + 1))
	set -- $(rdmachan_lat $port softirq)
	result kernel_lat_64_softirq_p50_us "${1:-0}"
	result kernel_lat_64_softirq_avg_us "${2:-0}"
	port=$((port + 1))
	set -- $(rdmachan_user_lat $port)
	result tool_lat_64_p50_us "${1:-0}"
	result tool_lat_64_avg_us "${2:-0}"

	# unreliable datagrams: ib_send_bw / ib_send_lat -c UD against the
	# in-kernel datagram bench
	for size in 64 1024; do
		set -- $(perftest_ud_bw $size)
		result "perftest_ud_bw_${size}_MBps" "${1:-0}"
		result "perftest_ud_rate_${size}" "${2:-0}"
		port=$((port + 1))
		set -- $(rdmachan_ud_bw $size $port)
		result "kernel_ud_sent_rate_${size}" "${1:-0}"
		result "kernel_ud_rate_${size}" "${2:-0}"
		result "kernel_ud_bw_${size}_MBps" "${3:-0}"
	done
	set -- $(perftest_ud_lat 64)
	result perftest_ud_lat_64_typical_us "${1:-0}"
	result perftest_ud_lat_64_avg_us "${2:-0}"
	port=$((port + 1))
	set -- $(rdmachan_ud_lat $port)
	result kernel_ud_lat_64_p50_us "${1:-0}"
	result kernel_ud_lat_64_avg_us "${2:-0}"

	# rping: rdmachan's kernel client and rping's own, one rping -s
	port=$((port + 1))
	result rping_user_rtt_us "$(rping_rtt $port rping -c -a $SRV -I $CLI -p $port)"
	port=$((port + 1))
	result rping_kernel_rtt_us "$(rping_rtt $port $TOOL rping -c $SRV -p $port -I $CLI)"

	# one-sided: perftest's ib_write_bw / ib_read_bw against rdmachan's
	for op in write read; do
		for size in 4096 65536; do
			set -- $(perftest_rdma_bw ib_${op}_bw $size)
			result "perftest_${op}_bw_${size}_MBps" "${1:-0}"
			result "perftest_${op}_rate_${size}" "${2:-0}"
			port=$((port + 1))
			set -- $(rdmachan_rdma_bw $op $size $port 1)
			result "kernel_${op}_bw_${size}_MBps" "${1:-0}"
			result "kernel_${op}_rate_${size}" "${2:-0}"
			port=$((port + 1))
			set -- $(rdmachan_rdma_bw $op $size $port 0)
			result "tool_${op}_bw_${size}_MBps" "${1:-0}"
			result "tool_${op}_rate_${size}" "${2:-0}"
		done
	done
done
# Latency pairs: ib_send_lat and the busy-polled in-kernel ping-pong back
# to back, BENCH_LAT_PAIRS times, which one goes first alternating, and
# the same with ib_send_lat -c UD and the datagram ping-pong.  Under
# TCG the round trip is bimodal (one-way about 22 us or about 45 us, a
# mode lasting seconds, for both programs alike): a pair mostly runs in
# one mode, so the host takes the median of the per-pair ratios.
# lat_pair PREFIX PAIR PERFTEST_CMD RDMACHAN_CMD: one pair's result line
lat_pair() {
	if [ $(($2 % 2)) = 1 ]; then
		_a=$($3)
		_b=$($4)
	else
		_b=$($4)
		_a=$($3)
	fi
	set -- "$1" "$2" $_a
	_pt="${3:-0} ${4:-0}"
	set -- "$1" "$2" $_b
	result "${1}_$2" "$_pt ${3:-0} ${4:-0}"
}
for pair in $(seq "$LAT_PAIRS"); do
	port=$((port + 1))
	lat_pair lat_pair "$pair" "perftest_lat 64" "rdmachan_lat $port direct"
	port=$((port + 1))
	lat_pair ud_lat_pair "$pair" "perftest_ud_lat 64" "rdmachan_ud_lat $port"
done
check "rdmachan unloads" rdmachan_unload
done_testing
