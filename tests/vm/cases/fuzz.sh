#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The ioctl and syscall fuzzer (tests/vm/helpers/fuzz.c) with a fresh
# seed each run: random and boundary values in every ioctl's structure,
# bad pointers, random commands, read/write/poll, descriptors closed and
# made anew, several processes on shared descriptors.  It must end
# cleanly (no worker killed, no call stuck), leave no channel or listener
# behind, and the module must unload; done_testing checks the kernel log
# (and on the debug tier kmemleak_check.sh runs after it).
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
	CAP=${FUZZ_SECONDS:-180}
else
	KIND=stock
	CALLS=${FUZZ_CALLS:-45000}
	CAP=${FUZZ_SECONDS:-150}
fi
PROCS=${FUZZ_PROCS:-3}
# A fresh seed, printed before the run: a panic ends the VM mid-run.
SEED=${FUZZ_SEED:-$((0x$(tr -d '-' < /proc/sys/kernel/random/uuid | cut -c1-12)))}
ARGS="--seed $SEED --calls $CALLS --seconds $CAP --procs $PROCS $(echo "${FUZZ_ARGS:-}" | tr ',' ' ')"
# a call inside the kernel this long is a hang (the debug kernel is slower
# where it matters: teardown, lockdep)
[ "$KIND" = debug ] && ARGS="$ARGS --hang-secs 90"

check "rxe pair comes up" rxe_pair_up
check "rdmachan loads" rdmachan_load

OUT=/tmp/fuzz.out
diag "$KIND kernel: fuzz $ARGS (reproduce: FUZZ_SEED=$SEED FUZZ_PROCS=$PROCS)"
# memory, every 30 s: a long run on the debug kernel once ran the 1 GiB
# VM out of memory (the OOM killer took the workers)
( while sleep 30; do
	echo "# $(date +%s): $(grep -E '^(MemAvailable|Slab|SUnreclaim|VmallocUsed|Percpu|Mlocked):' /proc/meminfo | tr -s ' ' | tr '\n' ' ')channels: $(ls /sys/class/rdmachan 2>/dev/null | grep -c '^chan') listeners: $(ls /sys/class/rdmachan 2>/dev/null | grep -c '^listener')"
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
# summary as diagnostics, then two results, workers ending cleanly and no
# stray descriptor, which count here
fuzzer_report() {
	cat $OUT
	return $rc
}
run_checks fuzzer_report
if [ "$rc" != 0 ]; then
	# what the module and the driver said, without the argument checks'
	# refusals (the bulk of the log)
	diag "$(dmesg | grep -E 'rdmachan|rxe|siw|ib_|Out of memory' |
		grep -v -e ' (pid [0-9]*): ' -e 'callbacks suppressed' | tail -n 80)"
	# the OOM killer's report: which allocation (gfp_mask, order, trace)
	# found no memory, and the memory then (the samples, shown above for
	# every run, miss a spike)
	diag "$(sed 's/^[0-9]*,[0-9]*,[0-9]*,[^;]*;//' /tmp/fuzz.oom | head -n 150)"
	diag "$(sort -k3 -n -r /proc/slabinfo 2>/dev/null | head -n 15)"
fi
# a channel's release may still be tearing down when the fuzzer exits
check "no channel or listener left in /sys/class/rdmachan" \
	wait_for 20 sh -c '! ls /sys/class/rdmachan | grep -Eq "chan|listener"'
check "rdmachan unloads" rdmachan_unload
done_testing
