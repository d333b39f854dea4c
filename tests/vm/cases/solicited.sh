#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Channels in poll mode "solicited": waiters wake for solicited messages
# (and WRITE_WITH_IMM) only, a read takes what has arrived, credits flow
# both ways; over siw such a channel is refused (EOPNOTSUPP).

# Runs over rxe and, on the debug kernel, over siw too, where it checks
# that a solicited channel is refused (tests/lib-host.sh)
requires() {
	_have_rdma rxe siw
}

. /tests/lib.sh

check "rxe pair comes up" rxe_pair_up
check "rdmachan loads" rdmachan_load
run_checks $HELPERS/solicited_test

# the tool: recv --poll solicited, send --solicited (rxe: siw refuses)
if [ "$RDMA_DRIVER" = rxe ]; then
	SRV=192.0.2.1
	CLI=192.0.2.2
	T=/tmp/solicited
	mkdir -p $T
	bg recv $TOOL chan recv $SRV:7101 --poll solicited -c 2
	wait_for 10 listening 7101
	check "send --solicited delivers two messages" \
		$TOOL chan send $SRV:7101 --src $CLI --solicited one two
	wait $PID_recv
	check_eq "recv --poll solicited prints them in order" "one two" \
		"$(tr '\n' ' ' < $T/recv.out | sed 's/ $//')"
fi
check "no channel is left" sh -c '! ls /sys/class/rdmachan | grep -q chan'
check "rdmachan unloads" rdmachan_unload
done_testing
