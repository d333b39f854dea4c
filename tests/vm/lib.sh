# SPDX-License-Identifier: GPL-2.0-only
#
# Guest-side test library, sourced by every script in /tests/cases (the
# cases, the benchmarks' guest halves, the debug tier's scripts) and by
# hand in make vm-shell: ". /tests/lib.sh".  It only sources its parts,
# tests/vm/lib/*.sh (/tests/lib/ in the VM), each of which says at its top
# what it holds:
#
#   common.sh   the programs' paths; wait_for, proc_ended, bg
#   ktap.sh     results as KTAP: check, check_fail, check_eq, run_checks,
#               done_testing and the kernel log's verdict
#   fixture.sh  the one-VM fixture: soft-RDMA devices on a veth pair, the
#               wire between them, port counters, udevd
#   chan.sh     the message channel: rdmachan loaded, its devices,
#               listeners and channels; rdma_cm listeners, rping's exit
#   blk.sh      the block channel: null_blk, mappings and exports, data
#               patterns, fio, device-mapper, nvmet
#   net.sh      the network channel: namespaces, interfaces, TCP streams
#   pair.sh     the two-VM fixture (tests/vm/run-pair.sh)
#   measure.sh  the benchmarks' CPU shares and profiles
#
# Every part is sourced, whatever the script needs: many cases reach
# across them (admin, cpu_hotplug, fuzz, demo, the debug tier's
# fixture_reset), a part calls the others' functions (blk_load calls
# wire_fifo and rdmachan_load, everything calls diag and wait_for), and
# sourcing them all costs busybox sh a few milliseconds.  A part only
# defines functions and variables (and ktap.sh opens fd 3), so their order
# matters to none of them.

. /tests/lib/common.sh
. /tests/lib/ktap.sh
. /tests/lib/fixture.sh
. /tests/lib/chan.sh
. /tests/lib/blk.sh
. /tests/lib/net.sh
. /tests/lib/pair.sh
. /tests/lib/measure.sh
