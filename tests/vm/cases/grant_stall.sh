#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The shared receive budget run dry at scale: 500 pairs whose readers
# stop reading at once, beside two busy pairs, on one device with a
# grow_budget_kb of 128 buffers.  The 500 senders send until they wait
# for credits, none sees an RNR or an error, the grants stop growing at
# the budget, the busy pairs keep carrying checksummed messages, and
# when the readers come back every held message arrives in order and
# intact and each pair carries messages again; idle, the budget comes
# back.  chan_test budget 500 (chan_test_budget.c); grant_budget runs
# the same with 8 unread pairs over rxe and siw, and the parameter's
# checks.

# rxe on stock 6.1: siw and the debug kernel run grant_budget's 8 pairs
requires() {
	_have_rdma rxe
	_have_kernel stock
}

. /tests/lib.sh

check "rxe pair comes up" rxe_pair_up
check "rdmachan loads with grow_budget_kb=512 shrink_idle_ms=300" \
	rdmachan_load grow_budget_kb=512 shrink_idle_ms=300
run_checks $HELPERS/chan_test budget 500
check "no channel is left" sh -c '! ls /sys/class/rdmachan | grep -q chan'
check "rdmachan unloads" rdmachan_unload
done_testing
