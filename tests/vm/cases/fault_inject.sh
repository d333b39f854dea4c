#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Debug tier only: channel setup, traffic and teardown with failslab
# failing the test process's kernel allocations (task-filter: only that
# process is hit) at 5, 20 and 50 %: setup, one message, an in-kernel
# bench run and teardown over and over (chan_test faultloop).  Every
# call must end in success or a clean errno; then, with injection off,
# channels must work again and the module unload cleanly.  The
# surrounding kmemleak_check catches leaks of the error paths, the log
# check any oops, lockdep or KASAN report.

# failslab and the kmemleak scan around the case: the debug kernel only
requires() {
	_have_kernel debug
}

. /tests/lib.sh

DBG=/sys/kernel/debug
mount | grep -q " $DBG " || mount -t debugfs debugfs $DBG

# inject KIND PERCENT: fail KIND's allocations of flagged tasks at PERCENT
inject() {
	echo Y > $DBG/$1/task-filter &&
		echo N > $DBG/$1/ignore-gfp-wait &&
		echo "$2" > $DBG/$1/probability &&
		echo 1 > $DBG/$1/interval &&
		echo -1 > $DBG/$1/times &&
		echo 0 > $DBG/$1/space &&
		echo 0 > $DBG/$1/verbose
}

check "rxe pair comes up" rxe_pair_up
check "rdmachan loads" rdmachan_load
check "failslab is available" test -d $DBG/failslab

for p in 5 20 50; do
	check "failslab at $p%" inject failslab $p
	run_checks $HELPERS/chan_test faultloop 15
done
check "fault injection off" sh -c "echo 0 > $DBG/failslab/probability"

run_checks $HELPERS/chan_test basic
check "no channel is left behind" sh -c '! ls /sys/class/rdmachan | grep -q chan'
check "rdmachan unloads" rdmachan_unload
done_testing
