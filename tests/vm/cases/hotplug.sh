#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# RDMA devices added, renamed and deleted while rdmachan is loaded
# ("rdma link add/delete", "rdma dev set name") are tracked.
. /tests/lib.sh

check "rxe pair comes up" rxe_pair_up
check "rdmachan loads" rdmachan_load
check_eq "both devices listed" "rxe0 rxe1" "$(rdmachan_devices)"

check "rdma link delete rxe1" rxe_del rxe1
check_eq "rxe1 is gone from the list" "rxe0" "$(rdmachan_devices)"
check_fail "dev show rxe1 fails after deletion" "No such device" $TOOL dev show rxe1
check "rxe0 still answers" $TOOL dev show rxe0

check "rdma link add rxe1 again" rxe_add rxe1 veth1
check_eq "rxe1 is back in the list" "rxe0 rxe1" "$(rdmachan_devices)"
check "re-added rxe1 answers" sh -c "$TOOL -j dev show rxe1 | jq -e '.[0].ports[0].state == \"ACTIVE\"'"

check "a third device on a new veth pair" sh -c \
	"$IP link add veth2 type veth peer name veth3 && $IP link set veth2 up && $IP link set veth3 up"
check "rdma link add rxe2" rxe_add rxe2 veth2
check_eq "rxe2 is listed" "rxe0 rxe1 rxe2" "$(rdmachan_devices)"
check "rdma dev set rxe2 name rxe9" $RDMA dev set rxe2 name rxe9
check_eq "the rename is seen" "rxe0 rxe1 rxe9" "$(rdmachan_devices)"
check "dev show finds the new name" $TOOL dev show rxe9
check_fail "the old name is gone" "No such device" $TOOL dev show rxe2

check "port goes down with its netdev" sh -c \
	"$IP link set veth2 down && sleep 0.5 && $TOOL -j dev show rxe9 | jq -e '.[0].ports[0].state == \"DOWN\"'"
check "port comes back up" sh -c \
	"$IP link set veth2 up && sleep 0.5 && $TOOL -j dev show rxe9 | jq -e '.[0].ports[0].state == \"ACTIVE\"'"
check "port events are logged" sh -c 'dmesg | grep -q "rxe9: rdmachan: port 1: port error"'

# Repeated add/delete under a running lister.
( i=0; while [ $i -lt 200 ]; do $TOOL dev list >/dev/null 2>&1; i=$((i + 1)); done ) &
lister=$!
churn_ok=0
i=0
while [ $i -lt 10 ]; do
	rxe_del rxe9 && rxe_add rxe9 veth2 && churn_ok=$((churn_ok + 1))
	i=$((i + 1))
done
wait $lister
check_eq "10 delete/add cycles beside a busy lister" 10 "$churn_ok"

check "delete every device" sh -c "$RDMA link delete rxe0 && $RDMA link delete rxe1 && $RDMA link delete rxe9"
check_eq "the list is empty" "" "$(rdmachan_devices)"
check "rdmachan unloads" rdmachan_unload
done_testing
