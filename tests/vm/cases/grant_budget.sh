#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The receive buffers one device's channels may be granted beyond their
# start (grow_budget_kb): with a budget of 128 buffers of 4 KiB, peers
# nobody reads make their grants grow up to the budget and no further,
# their senders waiting for credits without an RNR or an error; busy
# pairs keep carrying messages; every held message arrives once the
# readers come back; idle, the budget comes back (chan_test budget,
# chan_test_budget.c).  The parameter's bounds, the device's counters in
# the tool, and the refusals in the log.

# Over rxe and siw (iWARP has no RNR: a receive queue run dry would end
# the connection)
requires() {
	_have_rdma rxe siw
}

. /tests/lib.sh

check "rxe pair comes up" rxe_pair_up
check "rdmachan loads with grow_budget_kb=512 shrink_idle_ms=300" \
	rdmachan_load grow_budget_kb=512 shrink_idle_ms=300
check_eq "grow_budget_kb is 512" 512 \
	"$(cat /sys/module/rdmachan/parameters/grow_budget_kb)"
check_fail "grow_budget_kb above 1073741824 is refused" "Invalid argument" \
	sh -c 'echo 1073741825 > /sys/module/rdmachan/parameters/grow_budget_kb'
run_checks $HELPERS/chan_test budget
check "the refusals are logged" sh -c \
	"dmesg | grep -q 'reach grow_budget_kb (512 KiB): the grant stops growing'"
check "chan show prints the devices' rx_grown_bytes" sh -c \
	"$TOOL chan show | grep -q '^dev[0-9]*: [a-z]*0 rx_grown_bytes 0'"
check "chan show -s prints grow_refused" sh -c \
	"$TOOL -s chan show | grep -q 'grow_refused [1-9]'"
check "grow_budget_kb=131072 is taken back" sh -c \
	'echo 131072 > /sys/module/rdmachan/parameters/grow_budget_kb'
check "no channel is left" sh -c '! ls /sys/class/rdmachan | grep -q chan'
check "rdmachan unloads" rdmachan_unload
done_testing
