#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Messages that span receive buffers (wire feature FRAG): two channels of
# /dev/rdmachan agree on buffers of 4 KiB of payload, and messages up to
# the largest travel as fragments and arrive whole, by every way of
# sending and reading; a large send waits for all its credits; idle ends
# hold little; a depth too small for the largest message's fragments
# keeps whole buffers (chan_test frag, chan_test_frag.c).  Then the same
# with the header in band (imm_header=0).

# Over rxe and siw (iWARP: the header always in band)
requires() {
	_have_rdma rxe siw
}

. /tests/lib.sh

check "rxe pair comes up" rxe_pair_up
check "rdmachan loads" rdmachan_load
run_checks $HELPERS/chan_test frag
check "imm_header=0 is taken" sh -c \
	'echo 0 > /sys/module/rdmachan/parameters/imm_header'
run_checks $HELPERS/chan_test frag
check "no channel is left" sh -c '! ls /sys/class/rdmachan | grep -q chan'
check "rdmachan unloads" rdmachan_unload
done_testing
