#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The in-kernel benchmark (RDMACHAN_IOC_BENCH), the example user of the
# exported channel API: blast against sink and ping-pong against echo,
# one-sided WRITE and READ against a target, both ends looping in the
# kernel; the tool's --kernel modes; sysfs counters matching the traffic;
# bad arguments, a missing or short target, a target ending mid-run.

# Over rxe on Debian's 6.1: the one-sided paths over siw run in rdma_ops,
# the two-sided ones in chan_basic and chan_faults.  Not in make check's
# debug tier, where it took two to three minutes of a VM: the benchmark's
# ioctls run there under KASAN and lockdep in the fuzzer's run
# (fuzz_chan.c), and its channels' paths in chan_basic (rxe) and rdma_ops
# (siw).
requires() {
	_not_on debug/rxe
}

. /tests/lib.sh

SRV=192.0.2.1
CLI=192.0.2.2
T=/tmp/chan_bench
mkdir -p $T

check "rxe pair comes up" rxe_pair_up
# one-sided operations cross a wire that keeps order (wire_fifo)
check "the wire delivers each flow in order" wire_fifo
check "rdmachan loads" rdmachan_load
run_checks $HELPERS/chan_test bench
run_checks $HELPERS/chan_test rdmabench
# what the transport went through (retries, sequence errors, RNR)
diag "rxe0: $(hw_counters rxe0)"
diag "rxe1: $(hw_counters rxe1)"

# bench --kernel against listen --sink --kernel: what is sent arrives
bg sink $TOOL -j chan listen $SRV:7101 --sink --kernel -n 1 -q
wait_for 10 listening 7101
check "bench --kernel runs for a second" sh -c \
	"$TOOL -j chan bench $SRV:7101 --src $CLI --kernel -t 1s -s 256 -b 16 > $T/bench.json"
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
bg sinkd $TOOL -j chan listen $SRV:7105 --sink --kernel -n 1 -q --poll direct
wait_for 10 listening 7105
check "bench --kernel --poll direct runs for a second" sh -c \
	"$TOOL -j chan bench $SRV:7105 --src $CLI --kernel -t 1s -s 64 -b 32 --poll direct > $T/benchd.json"
wait $PID_sinkd
check_eq "the busy-polled kernel sink ends in order after the close" closed \
	"$(jq -r 'select(.chan) | .event' $T/sinkd.out)"
check_eq "the busy-polled kernel sink received every message sent" \
	"$(jq -r .messages $T/benchd.json)" \
	"$(jq -r 'select(.event == "closed") | .messages' $T/sinkd.out)"

# user-space bench against the kernel sink: both sides agree too
bg sink2 $TOOL -j chan listen $SRV:7102 --sink --kernel -n 1 -q
wait_for 10 listening 7102
check "bench (user space) against the kernel sink" sh -c \
	"$TOOL -j chan bench $SRV:7102 --src $CLI -t 1s -s 64 -q > $T/bench2.json"
wait $PID_sink2
check_eq "the kernel sink counted what user-space bench sent" \
	"$(jq -r .messages $T/bench2.json)" \
	"$(jq -r 'select(.event == "closed") | .messages' $T/sink2.out)"

# ping --kernel against listen --echo --kernel, softirq and busy-polled.
# The echo ends when the ping closes; its bound is the ping's and more:
# 2000 round trips on the debug kernel under load took over 60 s, and the
# echo killed by bg's default bound closed the channel under the ping
# (EPIPE).  The ping's own bound keeps a hang from stalling the case.
for poll in softirq direct; do
	BG_SECS=330 bg echo $TOOL -j chan listen $SRV:7103 --echo --kernel -n 1 -q --poll $poll
	wait_for 10 listening 7103
	check "ping --kernel --poll $poll: 2000 round trips" sh -c \
		"timeout 300 $TOOL -j chan ping $SRV:7103 --src $CLI --kernel -c 2000 -s 64 --poll $poll > $T/ping.json"
	wait $PID_echo
	check_eq "the kernel echo exits 0 after one channel ($poll)" 0 "$?"
	check_eq "ping --kernel: 2000 replies ($poll)" 2000 "$(jq -r .received $T/ping.json)"
	check "ping --kernel: min <= p50 <= p99 <= max ($poll)" \
		jq -e '.min_us > 0 and .min_us <= .p50_us and .p50_us <= .p99_us and .p99_us <= .max_us' \
		$T/ping.json
	diag "in-kernel ping ($poll): $(jq -c '{min_us, avg_us, p50_us, p99_us, max_us}' $T/ping.json)"
done

check_fail "listen --kernel without --echo, --sink or --target is a usage error" \
	"needs --echo, --sink or --target" $TOOL chan listen $SRV:7104 --kernel

# bench --kernel --op write|read against listen --target: one-sided runs
# in the kernel at both ends; every op counted, bytes = ops * size
for op in write read; do
	bg tgt $TOOL -j chan listen $SRV:7106 --target -n 1 -q
	wait_for 10 listening 7106
	check "bench --kernel --op $op -s 4k runs for a second" sh -c \
		"$TOOL -j chan bench $SRV:7106 --src $CLI --kernel --op $op -t 1s -s 4k -b 16 > $T/$op.json"
	wait $PID_tgt
	check_eq "the target exits 0 after the initiator's close ($op)" 0 "$?"
	check "bench --kernel --op $op: ops > 0, bytes = ops * 4096, in-kernel" \
		jq -e ".ops > 0 and .bytes == .ops * 4096 and .mode == \"kernel\" and .op == \"$op\" and .batch == 16" \
		$T/$op.json
	check_eq "the target's channel ended in order ($op)" closed \
		"$(jq -r 'select(.chan) | .event' $T/tgt.out)"
	diag "in-kernel $op: $(jq -c '{size, batch, ops, ops_per_sec, mbytes_per_sec}' $T/$op.json)"
done

# busy-polled at both ends, 64 KiB, an exact count
bg tgtd $TOOL -j chan listen $SRV:7107 --target -n 1 -q --poll direct
wait_for 10 listening 7107
check "bench --kernel --op read -s 64k -c 100 -b 4 --poll direct" sh -c \
	"$TOOL -j chan bench $SRV:7107 --src $CLI --kernel --op read -s 64k -c 100 -b 4 --poll direct > $T/readd.json"
wait $PID_tgtd
check "it did exactly 100 reads of 64 KiB" \
	jq -e '.ops == 100 and .bytes == 6553600' $T/readd.json
bg tgth $TOOL chan listen $SRV:7108 --target -n 1 -q
wait_for 10 listening 7108
check "bench --kernel --op write -s 1k -c 640 (human output)" sh -c \
	"$TOOL chan bench $SRV:7108 --src $CLI --kernel --op write -s 1k -c 640 > $T/human.txt"
wait $PID_tgth
check "it prints size, batch, in-kernel, 640 ops, ops/s and MB/s" \
	grep -Eq '^192.0.2.1:7108 write size 1024 batch 16 in-kernel: 640 ops in [0-9.]+ s, [0-9]+ ops/s, [0-9.]+ MB/s' \
	$T/human.txt

# bad arguments: the tool's, then the kernel's (a region too small)
check_fail "bench --kernel --op write -b 65 is a usage error" "at most 64 ops" \
	$TOOL chan bench $SRV:7109 --kernel --op write -b 65
check_fail "bench --kernel --op read -s 0 is a usage error" "at least 1" \
	$TOOL chan bench $SRV:7109 --kernel --op read -s 0
check_fail "listen --region without --target is a usage error" "goes with --target" \
	$TOOL chan listen $SRV:7109 --sink --region 4k
bg tgts $TOOL -j chan listen $SRV:7109 --target --region 16k -n 1 -q
wait_for 10 listening 7109
check_fail "16 x 4 KiB against a 16 KiB region fails with EMSGSIZE" \
	"Message too long.*region is smaller" \
	$TOOL chan bench $SRV:7109 --src $CLI --kernel --op write -s 4k -b 16 -t 1s
wait $PID_tgts
check_eq "that target still ends in order at the close" closed \
	"$(jq -r 'select(.chan) | .event' $T/tgts.out)"

# the target goes away mid-run (its listen is stopped): EPIPE, no hang
bg tgtk $TOOL -j chan listen $SRV:7110 --target -q
wait_for 10 listening 7110
timeout 60 $TOOL -j chan bench $SRV:7110 --src $CLI --kernel --op write -t 30s \
	> $T/killed.out 2>&1 &
pid_ini=$!
check "the initiator connects to it" wait_for 60 chan_connected_to 7110
kill $PID_tgtk
wait $pid_ini
check_eq "an initiator whose target ended mid-run exits 1" 1 "$?"
check "and says the target ended the run (EPIPE)" \
	grep -q "Broken pipe (the target ended the run)" $T/killed.out
wait $PID_tgtk
check "rdmachan unloads" rdmachan_unload
done_testing
