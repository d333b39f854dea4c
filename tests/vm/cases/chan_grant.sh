#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Receive buffers that follow use (wire feature GROW): with shrink_idle_ms
# at 300, an idle channel's ends keep one credit of each other's and free
# the other buffers; an unread peer grows its grant back to the depth and
# no further; a slow reader loses nothing; idle again, the grant shrinks
# again (chan_test grant, chan_test_grant.c).  Then the same with the
# header in band (imm_header=0), whose RETIRE messages carry a shared
# header buffer rather than the immediate.

# Over rxe and siw (iWARP: the header always in band)
requires() {
	_have_rdma rxe siw
}

. /tests/lib.sh

check "rxe pair comes up" rxe_pair_up
check "rdmachan loads with shrink_idle_ms=300" rdmachan_load shrink_idle_ms=300
check_eq "shrink_idle_ms is 300" 300 \
	"$(cat /sys/module/rdmachan/parameters/shrink_idle_ms)"
run_checks $HELPERS/chan_test grant
check "imm_header=0 is taken" sh -c \
	'echo 0 > /sys/module/rdmachan/parameters/imm_header'
run_checks $HELPERS/chan_test grant
check "no channel is left" sh -c '! ls /sys/class/rdmachan | grep -q chan'
check "rdmachan unloads" rdmachan_unload
done_testing
