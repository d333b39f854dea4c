#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Loading before and after RDMA devices exist, unloading with devices
# present, rmmod refused while /dev/rdmachan is open, and 20 load/unload
# cycles that must leave the kernel log clean.
. /tests/lib.sh

check "rxe modules load" rxe_modules_up
check "rdmachan loads with no RDMA device" rdmachan_load
check_eq "no device is listed" "" "$(rdmachan_devices)"
check "rxe pair comes up" rxe_pair_up
check_eq "devices added after load are listed" "rxe0 rxe1" "$(rdmachan_devices)"
check "rdmachan unloads with devices present" rdmachan_unload
check "rdmachan loads with devices present" rdmachan_load
check_eq "devices present before load are listed" "rxe0 rxe1" "$(rdmachan_devices)"

exec 4</dev/rdmachan
check_fail "rmmod is refused while /dev/rdmachan is open" "in use" $RMMOD rdmachan
check "the module is still loaded" module_loaded rdmachan
check "the open device still answers" $TOOL dev list
exec 4<&-
check "rmmod succeeds after the last close" rdmachan_unload

cycles_ok=0
i=0
while [ $i -lt 20 ]; do
	rdmachan_load && [ "$(rdmachan_devices)" = "rxe0 rxe1" ] &&
		rdmachan_unload && cycles_ok=$((cycles_ok + 1))
	i=$((i + 1))
done
check_eq "20 load/list/unload cycles succeed" 20 "$cycles_ok"
check "rdma_rxe unloads after the devices are deleted" sh -c \
	"$RDMA link delete rxe0 && $RDMA link delete rxe1 && $RMMOD rdma_rxe"
done_testing
