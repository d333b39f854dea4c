#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# run-bench.sh (make bench): rdmachan against perftest, in one VM run on
# the same soft-RoCE pair (rxe0 <-> rxe1 over a veth pair), printed as a
# table of ratios.
# A benchmark, not a test: nothing here passes or fails on speed.
#
#   message rate / bandwidth  ib_send_bw -R   vs  rdmachan bench --kernel
#                                                 and tool-driven bench
#                                                 (SENDMMSG batches of 32)
#   latency (one way)         ib_send_lat -R  vs  rdmachan ping --kernel
#                                                 (busy-polled and softirq)
#                                                 and tool ping -i 0
#   one-sided bandwidth       ib_write_bw -R  vs  rdmachan bench --kernel
#                             ib_read_bw -R       --op write|read (against
#                                                 listen --target) and the
#                                                 tool-driven --op write|read
#                                                 (against reg)
#   network (one TCP flow,    TCP over veth   vs  the rdmachan netdev, and
#   ping)                     ping over veth      the raw channel (64 KiB)
#   block (fio direct=1)      nvme-rdma       vs  rdmachan_blk (rcblk),
#                             (nvmet-rdma)        both against the same
#                                                 null_blk used locally
#
# Every run crosses the wire rxe1 -> veth -> rxe0, perftest's too (the
# guest script routes it so; Documentation/testing.rst says why).
# Every figure is the median of BENCH_RUNS passes (default 3) in the one
# VM run, each pass running every row, perftest and rdmachan in turn:
# under TCG single runs scatter by 20% and more.  The block table also
# pairs rcblk with nvme-rdma pass by pass (blkpass below; testing.rst,
# "Pass by pass").
# Messages: sizes 64 B and 4 KiB, queue depth 128.  One-sided: 4 KiB and
# 64 KiB, 32 ops per call (BENCH_RDMA_BATCH in the guest), one at a time;
# perftest keeps its tx depth (128) in flight.  Environment: BENCH_SECS
# (per bandwidth run, default 4), BENCH_PINGS (round trips, default
# 5000), BENCH_RPINGS (pings of each rping run, default 2000),
# BENCH_RUNS (passes, default 3), BENCH_LAT_PAIRS (back-to-back
# latency pairs after the passes, RC and UD each, default 10).  The raw figures stay in
# tests/vm/out/bench/results.ktap.  The guest half, which runs the
# programs, is tests/bench/bench_msg.sh; the block rows' is
# tests/bench/bench_blk.sh, run after it in the same VM (BENCH_BLK_SECS,
# per fio job, default 5; BENCH_BLK_QUEUES and BENCH_BLK_DEPTH, the
# remote disks' queues and requests per queue, default 2 and 128;
# BENCH_BLK_POLL_QUEUES, their queues of polled I/O, default 1;
# BENCH_BLK_SLICES, the slices of a job on each remote disk, default 2).
# The network rows' guest half is tests/bench/bench_net.sh (BENCH_NET_MB,
# MiB per TCP run, default 256; BENCH_NET_PROFILE=1, the netdev's TCP
# runs under perf; BENCH_NET_PIN=0, the programs and the wire's work
# where the scheduler and RPS put them).
# BENCH_BLK_JOBS, BENCH_BLK_SCHED, BENCH_BLK_PROFILE, BENCH_BLK_CALLERS and
# BENCH_BLK_TRACE
# (the stages of a request from the rdmachan_blk tracepoints): see
# bench_blk.sh.
# The scale rows' guest half is tests/bench/bench_scale.sh (what an idle
# channel costs, how many fit; BENCH_SETUP_PASSES passes, default 9, of
# BENCH_SETUP_PAIRS pairs, default 500, each paired with a cmtime pass:
# the setup rate).
# BENCH_MSG=0 leaves out the message rows, BENCH_NET=0 the network rows,
# BENCH_SCALE=0 the scale rows,
# BENCH_BLK=0 the block rows (both tables), BENCH_BLK=pair the one-VM
# block rows (the two-host ones, tests/bench/bench_blk_pair.sh on the
# two-VM fixture, run alone), BENCH_PAIR=0 the two-host block rows;
# BENCH_VM=0 prints the tables of the last run again without a VM.
# A VM run writes them with every raw figure to tests/bench/results/
# (BENCH_RESULTS=FILE for another file; see the end of this script).
#
# Targets (issue "Message channel"): in-kernel rate >= 1.0x perftest,
# latency <= 1.05x, tool-driven batched rate >= 0.8x; (issue "One-sided
# RDMA") in-kernel WRITE/READ bandwidth >= 0.95x; (block channel)
# rdmachan_blk IOPS >= 1.1x nvme-rdma, QD1 latency <= 0.9x, bandwidth
# >= 1.0x; (network channel) TCP over the netdev >= 0.8x the raw
# channel's byte rate at the same message size.  Under qemu TCG the
# absolute numbers are far below hardware; only the ratios mean anything.
set -euo pipefail

TOP=$(cd "$(dirname "$0")/../.." && pwd)
OUT=$TOP/tests/vm/out/bench
cd "$TOP"
[ "${BENCH_VM:-1}" = 0 ] || make -s all >/dev/null
# the kernel command line hands these to the guest's environment
RUNS=${BENCH_RUNS:-3}
LAT_PAIRS=${BENCH_LAT_PAIRS:-10}
SETUP_PASSES=${BENCH_SETUP_PASSES:-9}
SETUP_PAIRS=${BENCH_SETUP_PAIRS:-500}
BLK_SECS=${BENCH_BLK_SECS:-5}
SLICES=${BENCH_BLK_SLICES:-2}
# BENCH_MSG=0 / BENCH_BLK=0: leave out the message or the block rows
CASES=
TIMEOUT=300
if [ "${BENCH_MSG:-1}" != 0 ]; then
	CASES=bench_msg
	TIMEOUT=$((TIMEOUT + 300 + RUNS * 600 + LAT_PAIRS * 30))
fi
if [ "${BENCH_NET:-1}" != 0 ]; then
	CASES=${CASES:+$CASES,}bench_net
	# per pass: 4 TCP runs and 3 pings (rx_spread: one of each), each up to
	# 120 s (usually 10 to 20), and the setups
	TIMEOUT=$((TIMEOUT + 180 + RUNS * 420))
fi
if [ "${BENCH_SCALE:-1}" != 0 ]; then
	CASES=${CASES:+$CASES,}bench_scale
	# per pass: the pairs that fit (a few with 32 MiB channels, up to
	# 1,000), their messages and close; per setup pass, its pairs and
	# cmtime's connections, each a few seconds a hundred; then the
	# fairness pass's 100 pairs
	TIMEOUT=$((TIMEOUT + RUNS * 600 + SETUP_PASSES * (SETUP_PAIRS / 10 + 30) + 180))
fi
# BENCH_BLK=pair: the two-host block rows without the one-VM ones
if [ "${BENCH_BLK:-1}" != 0 ] && [ "${BENCH_BLK:-1}" != pair ]; then
	CASES=${CASES:+$CASES,}bench_blk
	# 2 remote disks x 8 jobs of BLK_SECS and, for each of their SLICES
	# slices, a ramp and fio's start; the null_blk's 6 jobs; the setup
	TIMEOUT=$((TIMEOUT + RUNS * (16 * (BLK_SECS + 8 * SLICES) + 6 * (BLK_SECS + 8) + 120)))
fi
[ -n "$CASES" ] || [ "${BENCH_BLK:-1}" = pair ] || { echo "run-bench.sh: BENCH_MSG=0, BENCH_NET=0, BENCH_SCALE=0 and BENCH_BLK=0: nothing to run" >&2; exit 2; }
# given NAME...: " NAME=value" for each of these variables that is set,
# for the guest's kernel command line (which hands them to its
# environment) or the results' settings line
given() {
	local n
	for n; do
		[ -z "${!n:-}" ] || printf ' %s=%s' "$n" "${!n}"
	done
}
# the block variables both block benches take (the two-host one maps a
# queue a disk and has no tracepoint stages: bench_blk_pair.sh)
BLK_GIVEN="BENCH_BLK_DEPTH BENCH_BLK_POLL_QUEUES BENCH_BLK_PROFILE BENCH_BLK_CALLERS BENCH_BLK_JOBS BENCH_BLK_SCHED"
# BENCH_VM=0: no VM, only the tables of the last run's results
[ "${BENCH_VM:-1}" = 0 ] || [ -z "$CASES" ] ||
RDMACHAN_APPEND="${RDMACHAN_APPEND:-} BENCH_SECS=${BENCH_SECS:-4} BENCH_PINGS=${BENCH_PINGS:-5000} BENCH_RUNS=$RUNS BENCH_LAT_PAIRS=$LAT_PAIRS BENCH_SETUP_PASSES=$SETUP_PASSES BENCH_SETUP_PAIRS=$SETUP_PAIRS BENCH_BLK_SECS=$BLK_SECS BENCH_BLK_SLICES=$SLICES$(given BENCH_NET_MB BENCH_NET_PROFILE BENCH_NET_PIN BENCH_RPINGS BENCH_BLK_QUEUES $BLK_GIVEN BENCH_BLK_TRACE)" \
	tests/vm/run-vm.sh --cases "$CASES" --out "$OUT" --timeout "$TIMEOUT" || true
R=$OUT/results.ktap

# The block rows between two hosts (tests/bench/bench_blk_pair.sh): two
# VMs of one vCPU each on the two-VM fixture, after the one-VM run and
# with its initramfs.  BENCH_PAIR=0 leaves them out.
PAIR=0
[ "${BENCH_BLK:-1}" = 0 ] || [ "${BENCH_PAIR:-1}" = 0 ] || PAIR=1
PAIR_OUT=$OUT/pair
if [ "$PAIR" = 1 ] && [ "${BENCH_VM:-1}" != 0 ]; then
	KVER=$(scripts/kver.sh)
	INITRD=$TOP/tests/vm/out/initramfs-$KVER.cpio
	# the one-VM run built it; without one (BENCH_BLK=pair), build it
	mkdir -p "$(dirname "$INITRD")" "$OUT"
	[ -f "$INITRD" ] && [ -n "$CASES" ] ||
		tests/vm/build-initramfs.sh "$KVER" "$INITRD" >/dev/null
	# per pass: 2 disks x 7 jobs of BLK_SECS and, for each of their
	# SLICES slices, a ramp and fio's start; a map and a connect; and the
	# two boots
	RDMACHAN_SMP=1 \
	RDMACHAN_APPEND="${RDMACHAN_APPEND:-} BENCH_RUNS=$RUNS BENCH_BLK_SECS=$BLK_SECS BENCH_BLK_SLICES=$SLICES$(given $BLK_GIVEN)" \
		tests/vm/run-pair.sh --initrd "$INITRD" --kver "$KVER" \
		--out "$PAIR_OUT" --timeout $((300 + RUNS * (14 * (BLK_SECS + 8 * SLICES) + 60))) \
		--cases bench_blk_pair > "$OUT/pair.log" 2>&1 || true
fi

# tables: every table of the run, from $OUT's results (to stdout and
# the results file, below)
tables() {
R=$OUT/results.ktap

# val NAME: the median of NAME's figures over the passes.  A failed run
# reports 0 (perftest's also when it did not cross the wire): it is left
# out, so that it cannot pull either side's median down; 0 when every
# pass failed.
val() {
	awk -v k="$1" '$1 == "RESULT" && $2 == k && $3 + 0 > 0 { print $3 }' "$R" |
		median | cut -d' ' -f1
}

# runs KEY: the passes a table's results hold, as its guest half recorded
# them under KEY (a reprint's BENCH_RUNS need not be it); BENCH_RUNS for
# results from before the key existed
runs() {
	local n
	n=$(val "$1")
	[ "$n" != 0 ] || n=$RUNS
	echo "$n"
}

# median: the median of the numbers on stdin, one a line, and their
# count: "MEDIAN COUNT" ("0 0" for none)
median() {
	tr -d '\r' | sort -g | awk '{ v[NR] = $1 } END {
		if (!NR) print 0, 0
		else print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2, NR }'
}

if [ -n "$CASES" ] && ! grep -q '^RESULT ' "$R"; then
	echo "run-bench.sh: no results; see $OUT/console.log" >&2
	exit 1
fi

# row LABEL OURS BASE UNIT HIGHER_IS_BETTER(1/0)
row() {
	awk -v l="$1" -v a="$2" -v b="$3" -v u="$4" -v h="$5" 'BEGIN {
		r = (b > 0) ? a / b : 0
		printf "%-44s %12.2f %12.2f %-6s %6.2fx%s\n", l, a, b, u, r,
			(h ? "" : " (lower is better)")
	}'
}

# pass_ratios KEY_A KEY_B HIGHER_IS_BETTER TARGET: KEY_A's figures over
# KEY_B's pass by pass (the k-th of each; a pair where either failed,
# 0, is left out).  Prints "MEDIAN LOWEST HIGHEST MET PAIRS", MET the
# pairs whose ratio meets TARGET; "0 0 0 0 0" for none.
pass_ratios() {
	local ratios med m
	ratios=$(awk -v ka="$1" -v kn="$2" '
	$1 == "RESULT" && $2 == ka { a[++na] = $3 + 0 }
	$1 == "RESULT" && $2 == kn { n[++nn] = $3 + 0 }
	END {
		for (i = 1; i <= na && i <= nn; i++)
			if (a[i] > 0 && n[i] > 0)
				print a[i] / n[i]
	}' "$R")
	if [ -z "$ratios" ]; then
		echo 0 0 0 0 0
		return
	fi
	read -r med m < <(median <<< "$ratios")
	sort -g <<< "$ratios" | awk -v h="$3" -v t="$4" -v med="$med" -v m="$m" '
	NR == 1 { lo = $1 }
	{ hi = $1; met += h ? $1 >= t : $1 <= t }
	END { print med, lo, hi, met + 0, m }'
}

if [ "${BENCH_MSG:-1}" != 0 ]; then
echo
printf "%-44s %12s %12s %-6s %7s\n" "rdmachan vs perftest (same VM, rxe)" "rdmachan" "perftest" "unit" "ratio"
for s in 64 4096; do
	pr=$(val "perftest_send_rate_$s")
	# MB/s of 10^6 bytes: perftest's own "MB/sec" column is in MiB/s
	pb=$(awk -v r="$pr" -v s=$s 'BEGIN { print r * s / 1e6 }')
	row "in-kernel message rate, ${s} B" "$(val "kernel_send_rate_$s")" "$pr" "msg/s" 1
	row "in-kernel bandwidth, ${s} B" "$(val "kernel_send_bw_${s}_MBps")" "$pb" "MB/s" 1
	row "tool-driven (batched) message rate, ${s} B" "$(val "tool_send_rate_$s")" "$pr" "msg/s" 1
	row "tool-driven (batched) bandwidth, ${s} B" "$(val "tool_send_bw_${s}_MBps")" "$pb" "MB/s" 1
done
pl=$(val perftest_send_lat_64_typical_us)
row "in-kernel latency p50, busy-poll, 64 B" "$(val kernel_lat_64_direct_p50_us)" "$pl" "us" 0
row "in-kernel latency p50, softirq, 64 B" "$(val kernel_lat_64_softirq_p50_us)" "$pl" "us" 0
row "tool ping latency p50, busy-poll, 64 B" "$(val tool_lat_64_p50_us)" "$pl" "us" 0
pa=$(val perftest_send_lat_64_avg_us)
row "in-kernel latency avg, busy-poll, 64 B" "$(val kernel_lat_64_direct_avg_us)" "$pa" "us" 0
row "rping round trip, kernel vs rping -c, 64 B" "$(val rping_kernel_rtt_us)" \
	"$(val rping_user_rtt_us)" "us" 0
for s in 64 1024; do
	pr=$(val "perftest_ud_rate_$s")
	row "in-kernel UD message rate, sent, ${s} B" "$(val "kernel_ud_sent_rate_$s")" "$pr" "msg/s" 1
	row "in-kernel UD message rate, delivered, ${s} B" "$(val "kernel_ud_rate_$s")" "$pr" "msg/s" 1
done
row "in-kernel UD latency p50, 64 B" "$(val kernel_ud_lat_64_p50_us)" \
	"$(val perftest_ud_lat_64_typical_us)" "us" 0
row "in-kernel UD latency avg, 64 B" "$(val kernel_ud_lat_64_avg_us)" \
	"$(val perftest_ud_lat_64_avg_us)" "us" 0

# The tracepoints' cost: each pass runs the in-kernel 64-byte rate with
# every rdmachan event recording right after the run without; the ratio
# of the two, pass by pass.  Disabled, an event is a patched-out branch:
# the "off" rate is the build's rate as if it had none.
echo
printf "%-44s %12s %12s %-6s %7s\n" "rdmachan's tracepoints (same VM, rxe)" "events on" "events off" "unit" "ratio"
row "in-kernel message rate, 64 B" "$(val kernel_send_rate_64_traced)" \
	"$(val kernel_send_rate_64)" "msg/s" 1
read -r med lo hi _ n < <(pass_ratios kernel_send_rate_64_traced kernel_send_rate_64 1 1)
printf "%-44s median %.2fx, %.2fx to %.2fx, %s passes\n" "  pass by pass, on / off" \
	"$med" "$lo" "$hi" "$n"

# The latency histograms' cost: off by default; each pass runs the
# in-kernel 64-byte rate again with latency_hist 1, right after the
# tracepoint run.
echo
printf "%-44s %12s %12s %-6s %7s\n" "rdmachan's latency histograms (same VM, rxe)" "kept" "none" "unit" "ratio"
row "in-kernel message rate, 64 B" "$(val kernel_send_rate_64_hist)" \
	"$(val kernel_send_rate_64)" "msg/s" 1
read -r med lo hi _ n < <(pass_ratios kernel_send_rate_64_hist kernel_send_rate_64 1 1)
printf "%-44s median %.2fx, %.2fx to %.2fx, %s passes\n" "  pass by pass, kept / none" \
	"$med" "$lo" "$hi" "$n"
# What TCG's noise hides from the rows: one latency's cost timed in the
# kernel (two clock reads and a per-CPU add; a message is two latencies,
# its send's and its receive's) against a message's time at the 64 B
# rate without them
awk -v c="$(val hist_cost_ns)" -v r="$(val kernel_send_rate_64)" 'BEGIN {
	if (c > 0 && r > 0)
		printf "%-44s %.0f ns a latency, 2 a message: %.2f%% of a message (%.0f ns)\n",
		       "  timed in the kernel", c, 200 * c / (1e9 / r), 1e9 / r
}'

# pair_ratio PREFIX FIELD_OURS FIELD_BASE: the median over the latency
# pairs (PREFIX_N: perftest p50 avg, rdmachan p50 avg) of the per-pair
# ratio; pairs where either run failed are left out.  Prints "RATIO PAIRS".
pair_ratio() {
	awk -v p="^$1_" -v a="$2" -v b="$3" '$1 == "RESULT" && $2 ~ p &&
		$3 + 0 > 0 && $5 + 0 > 0 { print $a / $b }' "$R" | median
}
for kind in lat_pair ud_lat_pair; do
	name="in-kernel latency"
	[ $kind = lat_pair ] || name="in-kernel UD latency"
	read -r ratio pairs < <(pair_ratio $kind 5 3)
	[ $kind = lat_pair ] && p50_pairs=$pairs
	printf "%-44s %12s %12s %-6s %6.2fx (lower is better)\n" \
		"$name p50, busy-poll, paired" "" "" "" "$ratio"
	read -r ratio _ < <(pair_ratio $kind 6 4)
	printf "%-44s %12s %12s %-6s %6.2fx (lower is better)\n" \
		"$name avg, busy-poll, paired" "" "" "" "$ratio"
done
echo
echo "Latency is one way (round trip / 2), against ib_send_lat's t_typical (median) and t_avg."
echo "UD: ib_send_bw -c UD's rate as its sender measured it; rdmachan's as its blast sent and its sink took it."
echo "rping: a run's wall time per ping (${BENCH_RPINGS:-2000} pings, setup included), both clients against rping -s."
echo "Paired rows: the median of the ratios of $p50_pairs back-to-back pairs (BENCH_LAT_PAIRS),"
echo "each pair's two runs in the same TCG speed mode (the round trip is bimodal under TCG)."

# One-sided bandwidth in MB/s of 10^6 bytes on both sides: perftest's is
# its message rate times the size (its own "MB/sec" column is in MiB/s).
echo
printf "%-44s %12s %12s %-6s %7s\n" "one-sided, rdmachan vs perftest" "rdmachan" "perftest" "unit" "ratio"
for op in write read; do
	OP=${op^^}
	for s in 4096 65536; do
		pb=$(awk -v r="$(val "perftest_${op}_rate_$s")" -v s=$s 'BEGIN { print r * s / 1e6 }')
		row "in-kernel RDMA $OP bandwidth, $((s / 1024)) KiB" \
			"$(val "kernel_${op}_bw_${s}_MBps")" "$pb" "MB/s" 1
		row "tool-driven RDMA $OP bandwidth, $((s / 1024)) KiB" \
			"$(val "tool_${op}_bw_${s}_MBps")" "$pb" "MB/s" 1
	done
done
echo
echo "Medians of $(runs msg_runs) passes."
echo "rdmachan one-sided: two calls of $(val rdma_batch) ops in flight in-kernel, one synchronous call at a time from the tool; perftest: 128 in flight."
fi

# Network rows (tests/bench/bench_net.sh): the rdmachan netdev against
# the veth pair under rxe and against the raw channel at the netdev's
# message size (64 KiB).
# netrow LABEL FIGURE VETH_FIGURE CHAN_FIGURE UNIT TARGET [measured]
# (measured: only when FIGURE has a value)
netrow() {
	awk -v l="$1" -v a="$(val "$2")" -v v="$(val "$3")" -v c="$(val "$4")" \
		-v u="$5" -v t="$6" -v m="${7:-}" '
	function r(x, y) { return (y > 0) ? sprintf("%.2fx", x / y) : "-" }
	BEGIN {
		if (m == "" || a > 0)
			printf "%-34s %10.1f %10.1f %10.1f %-5s %9s %9s  %s\n",
				l, a, v, c, u, r(a, v), r(a, c), t
	}'
}
if [ "${BENCH_NET:-1}" != 0 ]; then
	echo
	printf "%-34s %10s %10s %10s %-5s %9s %9s  %s\n" \
		"network, one flow" "rcnet" "veth" "channel" "unit" \
		"rc/veth" "rc/chan" "target (rc/chan)"
	netrow "TCP throughput (chan: 64 KiB msgs)" net_tcp_MBps veth_tcp_MBps \
		chan_64k_MBps MB/s ">= 0.80x"
	netrow "ping round trip avg (chan: 64 B)" net_ping_avg_us \
		veth_ping_avg_us chan_ping_avg_us us "(lower is better)"
	# the same with rx_spread=1 (Documentation/net.rst), when measured
	netrow "  rx_spread=1: TCP throughput" net_spread_tcp_MBps veth_tcp_MBps \
		chan_64k_MBps MB/s ">= 0.80x" measured
	netrow "  rx_spread=1: ping round trip" net_spread_ping_avg_us \
		veth_ping_avg_us chan_ping_avg_us us "(lower is better)" measured
	echo
	echo "Medians of $(runs net_runs) passes; TCP: one flow of $(val net_mb) MiB checked byte for byte"
	echo "(net_stream), rcn0 <-> rcn1 in two namespaces, veth: 192.0.2.2 -> 192.0.2.1;"
	echo "channel: rdmachan chan bench --kernel -s 64k (softirq) and chan ping --kernel."
	echo "Every program on CPU 0, the wire's receive work (RPS) on CPU 1, unless BENCH_NET_PIN=0"
	echo "(testing.rst, \"Network rows\")."
fi

if [ "${BENCH_SCALE:-1}" != 0 ]; then
	echo
	printf "%-44s %12s %12s %-6s %7s\n" "scale: idle channels (defaults, rxe)" "rdmachan" "target" "unit" "ratio"
	row "channel pairs open at once (90% of the VM)" "$(val scale_pairs)" 1000 pairs 1
	row "own memory per idle channel" "$(val scale_own_kib_per_chan)" 64 KiB 0
	row "total memory per idle channel (MemFree)" "$(val scale_total_kib_per_chan)" 64 KiB 0
	row "  of it the provider's queues (vmalloc)" "$(val scale_vmalloc_kib_per_chan)" 0 KiB 0
	printf "%-44s %12s %12s %-6s %7s\n" "" "rdmachan" "cmtime" "" ""
	row "setup rate, pairs connected and accepted" "$(val setup_pairs_per_s)" \
		"$(val cmtime_setup_conns_per_s)" "/s" 1
	read -r med lo hi met m < <(pass_ratios setup_pairs_per_s \
		cmtime_setup_conns_per_s 1 1)
	if [ "$m" = 0 ]; then
		printf "%-44s %12s %12s %-6s %7s\n" \
			"  paired passes: median of the ratios" "" "" "" "-"
	else
		printf "%-44s %12s %12s %-6s %6.2fx\n" \
			"  paired passes: median of the ratios" "" "" "" "$med"
		printf "  ratios %.2fx to %.2fx, at least 1.0x in %d of %d passes\n" \
			"$lo" "$hi" "$met" "$m"
	fi
	printf "%-44s %12s %12s %-6s %7s\n" "" "rdmachan" "target" "" ""
	row "fairness: slowest/fastest of $(val fair_pairs) busy pairs" \
		"$(val fair_min_over_max)" 0.8 "" 1
	row "fairness: 10th/90th percentile of the rates" \
		"$(awk -v a="$(val fair_p10_msgs_per_s)" -v b="$(val fair_p90_msgs_per_s)" \
			'BEGIN { print (b > 0) ? a / b : 0 }')" 0.8 "" 1
	echo
	echo "Medians of $(runs scale_runs) passes of chan_test scale: default channel pairs (depth"
	echo "$(val scale_depth), $(val scale_msg_size)-byte messages) until 1,000 or 90% of the VM's"
	echo "available memory (what a pair costs measured on 8 pairs after the first), all open at once;"
	echo "own: sysfs mem_bytes; total: the MemFree delta over both ends.  Setup: medians"
	echo "of $(runs setup_runs) passes of chan_test setup, $(val setup_pairs) default pairs opened while"
	echo "8 threads connect and one accepts, each pass paired with a cmtime pass of as"
	echo "many connections (rxe1 -> rxe0, its steps from create id to connect), the two"
	echo "taking turns at going first.  Fairness: one pass of chan_test fair, each pair's"
	echo "in-kernel BLAST of 64-byte messages, the rates in one window of $(val fair_secs) s while all run;"
	echo "the slowest client's rate over the fastest's, and the 10th percentile's over the 90th (mean"
	echo "$(val fair_mean_msgs_per_s)/s, median $(val fair_p50_msgs_per_s)/s)."
fi

# Block rows (tests/bench/bench_blk.sh): rdmachan_blk (rcblk) against
# nvme-rdma and both against the null_blk itself, fio direct=1.  One
# line a row: LABEL|FIGURE|UNIT|HIGHER_IS_BETTER|TARGET, the target of
# rcblk/nvme-rdma a bare number (at least it when HIGHER_IS_BETTER, at
# most it otherwise), or a note in parentheses for a row without one.
BP=blk
BLK_ROWS="4k randread QD1 lat p50|randread_4k_qd1_p50_us|us|0|0.90
4k randread QD1 lat p99|randread_4k_qd1_p99_us|us|0|0.90
4k randread QD32|randread_4k_qd32_iops|IOPS|1|1.10
4k randwrite QD32|randwrite_4k_qd32_iops|IOPS|1|1.10
128k seq read QD32|seqread_128k_MBps|MB/s|1|1.00
128k seq write QD32|seqwrite_128k_MBps|MB/s|1|1.00
4k randread QD32, one CPU|randread_4k_qd32_onecpu_iops|IOPS|1|1.00
4k randread QD1 polled p50|randread_4k_qd1_polled_p50_us|us|0|0.90
4k randread QD1 polled p99|randread_4k_qd1_polled_p99_us|us|0|0.90
4k randread QD32 polled|randread_4k_qd32_polled_iops|IOPS|1|1.10"
# blkrow LABEL FIGURE UNIT HIGHER_IS_BETTER TARGET: one row of medians
blkrow() {
	awk -v l="$1" -v a="$(val "blk_rcblk_$2")" -v n="$(val "blk_nvme_$2")" \
		-v o="$(val "blk_local_$2")" -v u="$3" -v h="$4" -v t="$5" '
	function r(x, y) { return (y > 0) ? sprintf("%.2fx", x / y) : "-" }
	BEGIN {
		if (t !~ /^\(/)
			t = sprintf("%s %.2fx%s", h ? ">=" : "<=", t,
				    h ? "" : " (lower is better)")
		printf "%-30s %10.1f %10.1f %10.1f %-5s %9s %9s %9s  %s\n",
			l, a, n, o, u, r(a, n), r(a, o), r(n, o), t
	}'
}
# blkpass LABEL FIGURE UNIT HIGHER_IS_BETTER TARGET: rcblk/nvme-rdma
# pass by pass, for a row with a target (figures BP_rcblk_FIGURE and
# BP_nvme_FIGURE: BP blk, or pair for the two hosts').  Both disks run in each pass,
# one right after the other, so the k-th rcblk figure pairs with the
# k-th nvme one; a pair where either failed (0) is left out.  Prints the
# median of the pairs' ratios, their range, and in how many pairs the
# ratio met TARGET.
blkpass() {
	local med lo hi met m
	case "$5" in
	"("*) return ;;
	esac
	read -r med lo hi met m < <(pass_ratios "${BP}_rcblk_$2" "${BP}_nvme_$2" "$4" "$5")
	if [ "$m" = 0 ]; then
		printf "%-30s %9s\n" "$1" "-"
		return
	fi
	awk -v l="$1" -v h="$4" -v t="$5" -v med="$med" -v lo="$lo" -v hi="$hi" \
		-v met="$met" -v m="$m" 'BEGIN {
		printf "%-30s %8.2fx %8.2fx %8.2fx %5d of %d  %s %.2fx\n",
			l, med, lo, hi, met, m, h ? ">=" : "<=", t
	}'
}

if [ "${BENCH_BLK:-1}" != 0 ] && [ "${BENCH_BLK:-1}" != pair ]; then
	echo
	printf "%-30s %10s %10s %10s %-5s %9s %9s %9s  %s\n" \
		"block, fio direct=1" "rcblk" "nvme-rdma" "local" "unit" \
		"rc/nvme" "rc/local" "nvme/loc" "target (rc/nvme)"
	while IFS='|' read -r l f u h t; do
		blkrow "$l" "$f" "$u" "$h" "$t"
	done <<< "$BLK_ROWS"
	echo
	printf "%-30s %9s %9s %9s %10s  %s\n" "rc/nvme pass by pass" \
		"median" "lowest" "highest" "met in" "target"
	while IFS='|' read -r l f u h t; do
		blkpass "$l" "$f" "$u" "$h" "$t"
	done <<< "$BLK_ROWS"
	echo
	echo "Medians of $(runs blk_runs) passes (BENCH_RUNS), $(val blk_secs) s a job (BENCH_BLK_SECS), on the remote disks in $(val blk_slices)"
	echo "slices (A B B A ...; BENCH_BLK_SLICES), each after a 1 s ramp;"
	echo "one fio thread, libaio; both remote disks $(val blk_queues) queues of $(val blk_depth) requests;"
	echo "a $(val blk_mb) MiB memory-backed null_blk (filled) behind all three; remote runs cross rxe1 -> veth -> rxe0."
	echo "fio on CPU 0, the wire's receive work (RPS) on CPU 1, but in the one-CPU row (testing.rst, \"One CPU for both hosts\")."
	echo "Polled rows: io_uring --hipri on $(val blk_poll_queues) queue(s) of polled I/O (blk map --poll-queues, nvme connect"
	echo "--nr-poll-queues; the null_blk has none: 0)."
fi

# Two hosts (bench_blk_pair.sh): the same figures, pass by pass too
PAIR_ROWS="4k randread QD1 lat p50|randread_4k_qd1_p50_us|us|0|0.90
4k randread QD1 lat p99|randread_4k_qd1_p99_us|us|0|0.90
4k randread QD32|randread_4k_qd32_iops|IOPS|1|1.10
4k randwrite QD32|randwrite_4k_qd32_iops|IOPS|1|1.10
128k seq read QD32|seqread_128k_MBps|MB/s|1|1.00
128k seq write QD32|seqwrite_128k_MBps|MB/s|1|1.00
4k randread QD1 polled p50|randread_4k_qd1_polled_p50_us|us|0|0.90
4k randread QD1 polled p99|randread_4k_qd1_polled_p99_us|us|0|0.90
4k randread QD32 polled|randread_4k_qd32_polled_iops|IOPS|1|1.10"
if [ "$PAIR" = 1 ]; then
	R=$PAIR_OUT/results.ktap
	BP=pair
	echo
	if ! grep -q '^RESULT pair_' "$R" 2>/dev/null; then
		echo "two hosts: no results; see $PAIR_OUT/console.log and $PAIR_OUT/pair.log"
	else
		printf "%-30s %10s %10s %-5s %9s  %s\n" "block, two hosts" "rcblk" \
			"nvme-rdma" "unit" "rc/nvme" "target (rc/nvme)"
		while IFS='|' read -r l f u h t; do
			awk -v l="$l" -v a="$(val "pair_rcblk_$f")" \
				-v n="$(val "pair_nvme_$f")" -v u="$u" -v h="$h" -v t="$t" '
			BEGIN {
				printf "%-30s %10.1f %10.1f %-5s %9s  %s %.2fx%s\n",
					l, a, n, u, (n > 0) ? sprintf("%.2fx", a / n) : "-",
					h ? ">=" : "<=", t, h ? "" : " (lower is better)"
			}'
		done <<< "$PAIR_ROWS"
		echo
		printf "%-30s %9s %9s %9s %10s  %s\n" "rc/nvme pass by pass" \
			"median" "lowest" "highest" "met in" "target"
		while IFS='|' read -r l f u h t; do
			blkpass "$l" "$f" "$u" "$h" "$t"
		done <<< "$PAIR_ROWS"
		echo
		echo "Medians of $(runs pair_runs) passes, $(val pair_secs) s a job in $(val pair_slices) slices (A B B A ...), each after a 1 s ramp,"
		echo "one fio thread, libaio;"
		echo "two VMs of $(val pair_cpus) vCPU, a server and a client, rxe on virtio NICs linked point to point"
		echo "(a qemu socket netdev over 127.0.0.1); one queue of $(val pair_depth) requests each; the server's"
		echo "filled $(val pair_mb) MiB null_blk behind both (testing.rst, \"Block rows between two hosts\")."
		echo "Polled rows: io_uring --hipri on $(val pair_poll_queues) more queue(s), of polled I/O."
	fi
fi
}

# results_header: what the run was, on what: its date, commit, kernel,
# machine and settings (the results file's first lines)
results_header() {
	local when
	_rk=$OUT/results.ktap
	[ -n "$CASES" ] || _rk=$PAIR_OUT/results.ktap
	when=$(date -u -r "$_rk" '+%Y-%m-%d %H:%M UTC' 2>/dev/null || date -u)
	echo "make bench: $when"
	echo "commit: $(git describe --always --dirty 2>/dev/null || echo unknown)"
	echo "kernel: $(scripts/kver.sh) (guest), qemu TCG, 2 vCPUs, 1 GiB; two hosts: 2 x 1 vCPU"
	echo "machine: $(nproc) CPUs, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1), $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo), $(qemu-system-x86_64 --version 2>/dev/null | head -n 1)"
	echo "settings: BENCH_RUNS=$RUNS BENCH_SECS=${BENCH_SECS:-4} BENCH_PINGS=${BENCH_PINGS:-5000} BENCH_LAT_PAIRS=$LAT_PAIRS BENCH_BLK_SECS=$BLK_SECS BENCH_BLK_SLICES=$SLICES BENCH_NET_MB=${BENCH_NET_MB:-256} BENCH_BLK=${BENCH_BLK:-1} BENCH_PAIR=$PAIR$(given BENCH_BLK_SCHED)"
}

# The results file: a VM run's tables and every raw figure (RESULT
# lines) with what it ran on, in tests/bench/results/DATE-KVER.txt (or
# BENCH_RESULTS=FILE), which a change that moves a figure commits; the
# documentation quotes none (Documentation/testing.rst, "Benchmarks").
# BENCH_VM=0 writes one only when BENCH_RESULTS names it.
RESULTS=${BENCH_RESULTS:-}
if [ -z "$RESULTS" ] && [ "${BENCH_VM:-1}" != 0 ]; then
	RESULTS=tests/bench/results/$(date -u +%Y-%m-%d)-$(scripts/kver.sh).txt
fi
if [ -z "$RESULTS" ]; then
	tables
	exit 0
fi
mkdir -p "$(dirname "$RESULTS")"
{
	results_header
	tables
	echo
	if [ -n "$CASES" ]; then
		echo "raw figures, one pass a line (RESULT NAME VALUE), one VM:"
		grep -h '^RESULT ' "$OUT/results.ktap" 2>/dev/null || true
	fi
	if [ "$PAIR" = 1 ]; then
		echo "raw figures, two hosts:"
		grep -h '^RESULT ' "$PAIR_OUT/results.ktap" 2>/dev/null || true
	fi
} > "$RESULTS.tmp"
mv "$RESULTS.tmp" "$RESULTS"
sed -n '/^raw figures/q;p' "$RESULTS" | tail -n +6
echo
echo "results: $RESULTS"
