#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# One-sided RDMA (issue 4): registration arguments (REG_MR at the page
# count's wrap points, an addr below 4096 with a length near 2^64 that
# once crashed the kernel, and past max_mr_size: E2BIG), WRITE and READ data
# integrity from 1 B to 4 MiB (unaligned, multi-SGE, softirq and
# busy-polled), WRITE_WITH_IMM, fence, atomics, unsignalled chains,
# refused accesses that leave memory untouched, concurrent fetch-adds,
# and a process killed with registrations outstanding.

# Runs over rxe on Debian's kernels, over siw on the debug kernel: the
# operations' code is the provider's there (testing.rst, "Where each case
# runs, and what it costs")
requires() {
	_have_rdma rxe siw
	_have_kernel stock 6.12 debug
	_not_on debug/rxe
}

. /tests/lib.sh

check "rxe pair comes up" rxe_pair_up
# one-sided operations cross a wire that keeps order (wire_fifo)
check "the wire delivers each flow in order" wire_fifo
check "rdmachan loads" rdmachan_load
run_checks $HELPERS/rdma_test args
run_checks $HELPERS/rdma_test data
run_checks $HELPERS/rdma_test data direct
run_checks $HELPERS/rdma_test access
run_checks $HELPERS/rdma_test fadd 8 2000
run_checks $HELPERS/rdma_test kill
run_checks $HELPERS/rdma_test memlock
run_checks $HELPERS/rdma_async_test
run_checks $HELPERS/rdma_async_test direct
check "no registration outlives its channel (rdmachan unloads)" rdmachan_unload
done_testing
