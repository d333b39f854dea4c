#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Message channels through /dev/rdmachan: connect/accept, message sizes
# around the inline and maximum limits, immediates, EMSGSIZE keeping the
# message, batched send/receive, 100,000 verified messages, credits and
# backpressure, orderly close, connection errors, 64 channels at once.
. /tests/lib.sh

check "rxe pair comes up" rxe_pair_up
check "rdmachan loads" rdmachan_load
run_checks $HELPERS/chan_test basic
run_checks $HELPERS/chan_test stream 100000
run_checks $HELPERS/chan_test backpressure
run_checks $HELPERS/chan_test close
run_checks $HELPERS/chan_test errors
run_checks $HELPERS/chan_test many 64
check "rdmachan unloads after the channels closed" rdmachan_unload
done_testing
