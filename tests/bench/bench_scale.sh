#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Guest half of the scale rows of tests/bench/run-bench.sh (make bench;
# not a test): what an idle channel with the default options costs (the
# channels' own count, the MemFree delta, the provider's queues as the
# VmallocUsed delta), how many such pairs fit in 90% of the VM's
# available memory (all open at once, messages checked on each): chan_test
# scale (tests/vm/helpers/chan_test_scale.c).  How fast they connect:
# BENCH_SETUP_PASSES passes (9) of chan_test setup, BENCH_SETUP_PAIRS
# pairs (500) opened at once, each paired with a pass of rdma-core's
# cmtime on the same rxe pair (its client on rxe1, its server on rxe0, as
# many connections), the two taking turns at going first.  Then chan_test
# fair (chan_test_fair.c) runs 100 busy pairs at once, how evenly they
# share the device.  Each figure is one line "RESULT NAME
# VALUE" on the results port.
. /tests/lib.sh

SRV=192.0.2.1
CLI=192.0.2.2
RUNS=${BENCH_RUNS:-3}
SETUP_PASSES=${BENCH_SETUP_PASSES:-9}
SETUP_PAIRS=${BENCH_SETUP_PAIRS:-500}
T=/tmp/bench
mkdir -p $T

result() { echo "RESULT $1 $2" >&3; }

# cmtime_rate N: connections a second of one cmtime run of N connections:
# N over the client's steps that set a connection up (create id, bind,
# resolve address and route, create qp, connect), each a column of total
# milliseconds for all N
cmtime_rate() {
	timeout 120 cmtime -b $SRV -c "$1" > $T/cmt_srv.out 2>&1 &
	srv=$!
	sleep 2
	timeout 120 cmtime -s $SRV -b $CLI -c "$1" > $T/cmt_cli.out 2>&1
	# the client is done: the server would wait for a test it does not run
	kill $srv 2>/dev/null
	wait
	awk -v n="$1" '
		/^(create id|bind addr|resolve addr|resolve route|create qp|connect)[ \t]*:/ {
			sub(/^[^:]*:/, ""); ms += $1; seen++
		}
		END { if (seen == 6 && ms > 0) print n * 1000 / ms; else print 0 }' $T/cmt_cli.out
	cat $T/cmt_cli.out >&2
}

check "rxe pair comes up" rxe_pair_up
check "rdmachan loads, idle grants shrinking after 1 s" rdmachan_load shrink_idle_ms=1000
# cmtime's client resolves from the routing table: cross the wire as the
# message rows do (bench_msg.sh, whose rule stays when they ran first)
check "cmtime's client is routed across the wire" \
	sh -c "$IP rule show pref 99 | grep -q 'lookup 100' ||
	       $IP rule add pref 99 to $SRV iif lo lookup 100"
# a pass that is not counted: the first channels and connections after
# boot pay for what the kernel makes once (slab and vmalloc areas, rxe's
# pools, sysfs), and whichever side ran first paid it for both
SCALE_OUT=$T/warm.out $HELPERS/chan_test scale 1000 90 > /dev/null 2>&1
cmtime_rate 1000 > /dev/null 2>&1
pass=1
while [ $pass -le "$RUNS" ]; do
	rm -f $T/scale.out
	SCALE_OUT=$T/scale.out $HELPERS/chan_test scale 1000 90 >&2
	while read -r _ name value; do
		result "$name" "$value"
	done < $T/scale.out
	pass=$((pass + 1))
done
result scale_runs "$RUNS"

# setup_rate: one pass of chan_test setup, its rate (0 if it failed)
setup_rate() {
	: > $T/setup.out
	SCALE_OUT=$T/setup.out $HELPERS/chan_test setup "$SETUP_PAIRS" >&2
	awk '$2 == "setup_pairs_per_s" { r = $3 } END { print r + 0 }' \
		$T/setup.out
}
# the k-th setup_pairs_per_s pairs with the k-th cmtime_setup_conns_per_s
pass=1
while [ $pass -le "$SETUP_PASSES" ]; do
	if [ $((pass % 2)) = 1 ]; then
		ours=$(setup_rate)
		theirs=$(cmtime_rate "$SETUP_PAIRS")
	else
		theirs=$(cmtime_rate "$SETUP_PAIRS")
		ours=$(setup_rate)
	fi
	result setup_pairs_per_s "$ours"
	result cmtime_setup_conns_per_s "$theirs"
	pass=$((pass + 1))
done
result setup_runs "$SETUP_PASSES"
result setup_pairs "$SETUP_PAIRS"
# fairness: 100 busy pairs at once, one pass, a window of 20 s
rm -f $T/fair.out
FAIR_OUT=$T/fair.out $HELPERS/chan_test fair 100 20 >&2
while read -r _ name value; do
	result "$name" "$value"
done < $T/fair.out
check "rdmachan unloads" rdmachan_unload
done_testing
