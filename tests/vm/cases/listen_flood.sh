#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# A peer cannot make a listener hold more than its budget: connect
# requests far beyond listen_budget_kb / listen_max_connecting, half-open
# (raw rdma_cm, never completed) and completed but never accepted, are
# refused with reason BUSY (ENOBUFS), memory stays bounded, half-open
# ones are dropped after the listener's timeout, normal clients still get
# in; then everything is released and the module unloads.
. /tests/lib.sh

check "rxe pair comes up" rxe_pair_up
check "rdmachan loads" rdmachan_load
check_eq "listen_budget_kb defaults to 262144" 262144 \
	"$(cat /sys/module/rdmachan/parameters/listen_budget_kb)"
check_eq "listen_max_connecting defaults to 16" 16 \
	"$(cat /sys/module/rdmachan/parameters/listen_max_connecting)"
check_fail "listen_budget_kb below 64 is refused" "Invalid argument" \
	sh -c 'echo 63 > /sys/module/rdmachan/parameters/listen_budget_kb'
check_fail "listen_max_connecting 0 is refused" "Invalid argument" \
	sh -c 'echo 0 > /sys/module/rdmachan/parameters/listen_max_connecting'
check "a small budget: 16 MiB" sh -c \
	'echo 16384 > /sys/module/rdmachan/parameters/listen_budget_kb'
check "at most 4 connections set up at a time" sh -c \
	'echo 4 > /sys/module/rdmachan/parameters/listen_max_connecting'
run_checks $HELPERS/listen_test flood
check "the refusals are logged" sh -c \
	"dmesg | grep -q 'rdmachan: listener [0-9]*: .*connections being set up'"
check "the dropped half-open connections are logged" sh -c \
	"dmesg | grep -q 'did not complete its connection within 1500 ms: dropped'"
check "the listener is gone from sysfs" sh -c \
	'! ls -d /sys/class/rdmachan/listener* 2>/dev/null'
check "no channel is left in sysfs" sh -c \
	'! ls -d /sys/class/rdmachan/chan* 2>/dev/null'
check "rdmachan unloads" rdmachan_unload
done_testing
