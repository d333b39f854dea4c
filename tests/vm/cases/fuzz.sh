#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The ioctl and syscall fuzzer (tests/vm/helpers/fuzz.c) with a fresh
# seed each run: random and boundary values in every ioctl's structure,
# bad pointers, random commands, read/write/poll, descriptors closed and
# made anew, several processes on shared descriptors; datagram endpoints
# too (opened on either host, resolving ports served or not, batches to
# live, junk and multicast peers, groups joined and left).  It must end
# cleanly (no worker killed, no call stuck), leave no channel or listener
# behind, and the module must unload; done_testing checks the kernel log
# (and on the debug tier kmemleak_check.sh runs after it).
#
# With rdmachan_blk built, it is loaded too: the fuzzer also makes the
# block channel's ioctls (exports of two small null_blk devices made
# here and of bogus paths, maps of them from 192.0.2.2, unmaps, lists,
# I/O on the disks while they go away), removes every mapping and export
# at the end, and the case checks that none is left and that both
# modules unload.
#
# With rdmachan_net built, it is loaded too: the fuzzer also makes the
# network channel's ioctls (NET_ADD of interfaces named rcnfz*, listening
# and connecting on the fixture's addresses and others, with valid and
# hostile arguments; NET_DEL; NET_LIST), reads their sysfs files while
# other workers delete them with ip link del, deletes every interface at
# the end, and the case checks that none is left and that rdmachan_net
# unloads.
#
# Environment (from the kernel command line, as scripts/fuzz.sh sets it):
# FUZZ_SEED replays a seed, FUZZ_CALLS and FUZZ_SECONDS bound the run
# (defaults: a short run, shorter on the debug kernel), FUZZ_PROCS the
# workers (default 3), FUZZ_ARGS more options, commas for spaces (one
# word on the kernel command line), e.g. --avoid-known.
. /tests/lib.sh

# The debug kernel (KASAN, lockdep, kmemleak; kmemleak's file tells it)
# ran about as many calls a second as the stock one under TCG, but its
# VM does more around the case: fewer calls there.
if [ -e /sys/kernel/debug/kmemleak ]; then
	KIND=debug
	CALLS=${FUZZ_CALLS:-30000}
	CAP=${FUZZ_SECONDS:-120}
else
	KIND=stock
	CALLS=${FUZZ_CALLS:-45000}
	CAP=${FUZZ_SECONDS:-100}
fi
PROCS=${FUZZ_PROCS:-3}
# A fresh seed, printed before the run: a panic ends the VM mid-run.
SEED=${FUZZ_SEED:-$((0x$(tr -d '-' < /proc/sys/kernel/random/uuid | cut -c1-12)))}
ARGS="--seed $SEED --calls $CALLS --seconds $CAP --procs $PROCS $(echo "${FUZZ_ARGS:-}" | tr ',' ' ')"
# a call inside the kernel this long is a hang (the debug kernel is slower
# where it matters: teardown, lockdep)
[ "$KIND" = debug ] && ARGS="$ARGS --hang-secs 90"

check "rxe pair comes up" rxe_pair_up
if $MODPROBE -n rdmachan_blk 2>/dev/null; then
	BLK=1
	check "rdmachan and rdmachan_blk load" blk_load
	# a map that cannot connect or get its OPEN_RSP fails sooner; a
	# mapping whose link the calls broke (a QP error, its export gone)
	# fails its held I/O after 1 s and gives up after 10 s, not after
	# the 10 minutes of nvme's ctrl_loss_tmo: its I/O does not wait past
	# the fuzzer's hang bound
	_p=/sys/module/rdmachan_blk/parameters
	echo 5000 > $_p/clt_timeout_ms
	echo 500 > $_p/clt_reconnect_delay_ms
	echo 1000 > $_p/clt_fast_io_fail_ms
	echo 10000 > $_p/clt_loss_timeout_ms
	for _n in fz0 fz1; do
		_b=$(nullb_new $_n 16)
		if [ -b "$_b" ]; then
			ARGS="$ARGS --blk-dev $_b"
		else
			not_ok "a 16 MiB null_blk for the fuzzer ($_n)"
		fi
	done
else
	BLK=0
	check "rdmachan loads" rdmachan_load
fi
if $MODPROBE -n rdmachan_net 2>/dev/null; then
	NET=1
	check "rdmachan_net loads" $MODPROBE rdmachan_net
	# a teardown waits for a connection attempt under way: 1 s at most
	# (the fuzzer's interfaces connect to random addresses too)
	echo 1000 > /sys/module/rdmachan_net/parameters/connect_timeout_ms
else
	NET=0
fi

OUT=/tmp/fuzz.out
diag "$KIND kernel: fuzz $ARGS (reproduce: FUZZ_SEED=$SEED FUZZ_PROCS=$PROCS)"
# memory, every 30 s: a long run on the debug kernel once ran the 1 GiB
# VM out of memory (the OOM killer took the workers)
( while sleep 30; do
	echo "# $(date +%s): $(grep -E '^(MemAvailable|Slab|SUnreclaim|VmallocUsed|Percpu|Mlocked):' /proc/meminfo | tr -s ' ' | tr '\n' ' ')channels: $(ls /sys/class/rdmachan 2>/dev/null | grep -c '^chan') listeners: $(ls /sys/class/rdmachan 2>/dev/null | grep -c '^listener') exports: $(ls /sys/class/rdmachan_blk/ctl/exports 2>/dev/null | wc -l) maps: $(ls /sys/block 2>/dev/null | grep -c '^rcblk') netdevs: $(ls /sys/class/net | grep -c '^rcn')"
  done ) > /tmp/fuzz.mem 2>&1 &
memwatch=$!
# the OOM killer's report, as it is logged: at the end of a long run the
# kernel's log buffer no longer holds it
awk '/invoked oom-killer/ { on = 1 } on { print; fflush() } /Killed process/ { on = 0 }' \
	< /dev/kmsg > /tmp/fuzz.oom 2>/dev/null &
oomwatch=$!
$HELPERS/fuzz $ARGS > $OUT 2>&1
rc=$?
kill $memwatch $oomwatch 2>/dev/null
diag "$(tail -n 100 /tmp/fuzz.mem)"
# the fuzzer reports in KTAP (tests/vm/helpers/ktap.h's format): its
# summary as diagnostics, then five results, workers ending cleanly, no
# stray descriptor, every block mapping and export removed, its own
# counters intact and every network interface deleted, which count here
fuzzer_report() {
	cat $OUT
	return $rc
}
run_checks fuzzer_report
if [ "$rc" != 0 ]; then
	# what the module and the driver said, without the argument checks'
	# refusals (the bulk of the log)
	diag "$(dmesg | grep -E 'rdmachan|rcn|rxe|siw|ib_|Out of memory' |
		grep -v -e ' (pid [0-9]*): ' -e 'callbacks suppressed' | tail -n 80)"
	# the OOM killer's report: which allocation (gfp_mask, order, trace)
	# found no memory, and the memory then (the samples, shown above for
	# every run, miss a spike)
	diag "$(sed 's/^[0-9]*,[0-9]*,[0-9]*,[^;]*;//' /tmp/fuzz.oom | head -n 150)"
	diag "$(sort -k3 -n -r /proc/slabinfo 2>/dev/null | head -n 15)"
fi
# blk_empty: no export or mapping, by the tool and in sysfs
blk_empty() {
	$TOOL -j blk show | jq -e '.exports == [] and .maps == []' > /dev/null &&
		[ -z "$(ls /sys/class/rdmachan_blk/ctl/exports)" ] &&
		! ls /sys/block | grep -q '^rcblk'
}
if [ "$BLK" = 1 ]; then
	if wait_for 20 blk_empty; then
		ok "no block export or mapping left (rdmachan blk show, /sys/class/rdmachan_blk, /sys/block)"
	else
		not_ok "no block export or mapping left (rdmachan blk show, /sys/class/rdmachan_blk, /sys/block)"
		diag "$($TOOL -sd blk show 2>&1; ls /sys/class/rdmachan_blk/ctl/exports /sys/block 2>&1)"
		# remove them anyway, for the checks below
		for _d in $($TOOL -j blk show maps | jq -r '.maps[].dev'); do
			timeout 60 $TOOL blk unmap --force "$_d"
		done
		for _e in $($TOOL -j blk show exports | jq -r '.exports[].name'); do
			timeout 60 $TOOL blk unexport --force "$_e"
		done
	fi
	check "rdmachan_blk unloads" $RMMOD rdmachan_blk
fi
# net_empty: no interface of rdmachan_net, by the tool and in sysfs
net_empty() {
	$TOOL -j net show | jq -e '.devices == []' > /dev/null &&
		! ls /sys/class/net | grep -q '^rcn'
}
if [ "$NET" = 1 ]; then
	if wait_for 20 net_empty; then
		ok "no network interface left (rdmachan net show, /sys/class/net)"
	else
		not_ok "no network interface left (rdmachan net show, /sys/class/net)"
		diag "$($TOOL -sd net show 2>&1; ls /sys/class/net 2>&1)"
		# delete them anyway, for the checks below
		for _n in $($TOOL -j net show | jq -r '.devices[].name'); do
			timeout 60 $TOOL net del "$_n"
		done
	fi
	check "rdmachan_net unloads" $RMMOD rdmachan_net
fi
# a channel's release may still be tearing down when the fuzzer exits
chans_gone() {
	! ls /sys/class/rdmachan | grep -Eq "chan|listener"
}
if wait_for 20 chans_gone; then
	ok "no channel or listener left in /sys/class/rdmachan"
else
	not_ok "no channel or listener left in /sys/class/rdmachan"
	for _c in $(ls /sys/class/rdmachan | grep -E "chan|listener"); do
		diag "$_c: $(cd /sys/class/rdmachan/$_c && for _a in name role state error src_addr dst_addr poll_mode; do
			[ -r $_a ] && printf '%s=%s ' $_a "$(cat $_a)"; done)"
	done
	_t0=$(date +%s)
	wait_for 120 chans_gone &&
		diag "they were gone $(($(date +%s) - _t0)) s later"
fi
check "rdmachan unloads" rdmachan_unload
done_testing
