#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# What "make demo" shows: two soft-RoCE hosts, rdmachan.ko finding them,
# and the rdmachan tool reporting them.  Not a test (run-all skips it).
RESULTS=/dev/null
. /tests/lib.sh

step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

step "Two hosts: soft-RoCE (rdma_rxe) on a veth pair, 192.0.2.1 <-> 192.0.2.2"
rxe_pair_up || { echo "fixture failed"; exit 1; }
$IP -br addr show veth0
$IP -br addr show veth1
$RDMA link show

step "modprobe rdmachan"
rdmachan_load
dmesg | grep rdmachan | sed 's/^\[[ 0-9.]*\] //'
ls -l /dev/rdmachan

step "rdmachan version"
$TOOL version

step "rdmachan dev list"
$TOOL dev list

step "rdmachan dev show rxe0"
$TOOL dev show rxe0

step "rdmachan -j -p dev show rxe1"
$TOOL -j -p dev show rxe1

step "rdma link delete rxe1; rdmachan dev list"
rxe_del rxe1
$TOOL dev list

step "rmmod rdmachan"
rdmachan_unload && echo "unloaded cleanly"
echo
