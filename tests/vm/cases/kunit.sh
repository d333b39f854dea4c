#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Debug tier (guest side, /tests/cases/kunit.sh): load rdmachan_kunit.ko
# (pure logic), then bring up the soft-RoCE fixture and rdmachan.ko and
# load rdmachan_chan_kunit.ko (the in-kernel channel API over rxe0/rxe1,
# with failslab set up for its fault-injection cases).  The KUnit suites of
# a module run while it loads.  Every test case (every parameter of a
# parameterized one) of both modules is reported as one test.  The KTAP
# comes from the kernel log after the mark line, flattened by
# /tests/kunit/ktap.awk; it is also copied to the console between
# "rdmachan-kunit-ktap begin/end" lines for the host (tests/run-debug.sh
# kunit_crosscheck).

# KUnit, failslab: the debug kernel only
requires() {
	_have_kernel debug
}

. /tests/lib.sh

KTAP=/tmp/kunit.ktap
FLAT=/tmp/kunit.flat

echo "rdmachan-kunit-ktap mark" > /dev/kmsg
check "rdmachan_kunit loads (its suites run)" "$MODPROBE" rdmachan_kunit

# failslab for rdmachan_chan_kunit: every slab allocation of a task with
# make_it_fail fails (task-filter; the test sets it on its own thread around
# one call) and a task's fail_nth reaches GFP_KERNEL allocations too.
FAILSLAB=/sys/kernel/debug/failslab
FAILSLAB_ATTRS="probability interval times verbose task-filter ignore-gfp-wait"
failslab_save() {
	for _a in $FAILSLAB_ATTRS; do
		cat "$FAILSLAB/$_a" > "/tmp/failslab.$_a" || return 1
	done
}
failslab_setup() {
	echo 0 > $FAILSLAB/verbose &&
		echo Y > $FAILSLAB/task-filter &&
		echo N > $FAILSLAB/ignore-gfp-wait &&
		echo 1 > $FAILSLAB/interval &&
		echo -1 > $FAILSLAB/times &&
		echo 100 > $FAILSLAB/probability
}
failslab_reset() {
	echo 0 > $FAILSLAB/probability || return 1
	for _a in $FAILSLAB_ATTRS; do
		cat "/tmp/failslab.$_a" > "$FAILSLAB/$_a" || return 1
	done
}

check "rxe pair comes up" rxe_pair_up
# keepalive_ms=3600000: the keepalive tick also polls RDMACHAN_POLL_DIRECT
# channels; with the first tick an hour away, the suite's DIRECT case can
# check that only the caller's rdmachan_poll() delivers, whatever the timing.
check "rdmachan loads" rdmachan_load keepalive_ms=3600000
check "failslab is available" test -d $FAILSLAB
check "failslab settings saved" failslab_save
check "failslab set up (task-filter, 100%)" failslab_setup
check "rdmachan_chan_kunit loads (its suites run)" "$MODPROBE" rdmachan_chan_kunit
check "failslab reset" failslab_reset
dmesg | sed -n '/rdmachan-kunit-ktap mark/,$p' | sed 's/^\[[^]]*\] \{0,1\}//' > $KTAP
awk -f /tests/kunit/ktap.awk $KTAP > $FLAT

failed=0
grep -q '^not ok ' $FLAT && failed=1
while IFS= read -r line; do
	case "$line" in
	"ok "*) ok "kunit: ${line#ok }" ;;
	"not ok "*) not_ok "kunit: ${line#not ok }" ;;
	"# "*) [ "$failed" = 1 ] && diag "${line#\# }" ;;
	esac
done < $FLAT

# Every suite the module registered (one debugfs directory each) finished.
want=$(for d in /sys/kernel/debug/kunit/rdmachan_*; do
	[ -d "$d" ] && echo "${d##*/}"
done | sort | tr '\n' ' ')
have=$(sed -n 's/^suite //p' $FLAT | sort | tr '\n' ' ')
check "KUnit suites found in debugfs" test -n "$want"
check_eq "every rdmachan KUnit suite reported its result" "$want" "$have"

{
	echo "rdmachan-kunit-ktap begin"
	sed -n '/^ *KTAP version/,$p' $KTAP
	echo "rdmachan-kunit-ktap end"
} > /dev/console
check "rdmachan_chan_kunit unloads" "$RMMOD" rdmachan_chan_kunit
check "rdmachan_kunit unloads" "$RMMOD" rdmachan_kunit
check "no channel or listener is left behind" \
	sh -c '! ls /sys/class/rdmachan | grep -Eq "chan|listener"'
check "rdmachan unloads" rdmachan_unload
done_testing
