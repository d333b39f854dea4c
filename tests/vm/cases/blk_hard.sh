#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The block server's smaller contracts under hostile input and racing
# admins: no listening port until something is exported, and none after
# the last unexport; export names of ASCII only (a Latin-1 letter is
# refused); a read-write export of a device made read-only with
# blockdev --setro is EROFS; the block ioctls' errors
# (ioctl_abuse blk: an output field set on input, a count with a NULL
# array, a MAP whose argument is read-only leaving no disk, a LIST whose
# user buffer stalls holding up no other call); an export of a name whose
# forced unexport is still running refused cleanly (EEXIST, no sysfs
# warning) and made once the unexport returned; and blk_wire's refusal
# flood, whose requests keep coming while their queue closes (the
# refusals queued then must be freed: the server's check at the queue's
# release, and kmemleak on the debug kernel).

. /tests/lib.sh

T=/tmp/blk_hard
mkdir -p $T
ALLOW="--allow 192.0.2.0/24"

check "rxe pair comes up" rxe_pair_up
check "rdmachan loads" rdmachan_load
check "rdmachan_blk loads" $MODPROBE rdmachan_blk

# ---- the listener follows the exports ---------------------------------------
if listening 7471; then
	not_ok "no listener on port 7471 after the load, nothing exported"
	diag "$(grep -s . /sys/class/rdmachan/listener*/src_addr)"
else
	ok "no listener on port 7471 after the load, nothing exported"
fi

# h1's device completes each request after 300 ms, four at a time: a
# forced unexport waits for the bios in flight, long enough for exports
# to be tried meanwhile
B1=$(nullb_new hard1 64 irqmode=2 completion_nsec=300000000 hw_queue_depth=4)
B2=$(nullb_new hard2 64)
B3=$(nullb_new hard3 64)
check "three 64 MiB null_blk devices" test -b "$B1" -a -b "$B2" -a -b "$B3"
[ -b "$B3" ] || blk_bail "no backing devices"

check "export h1" $TOOL blk export h1 "$B1" $ALLOW
check "a listener on port 7471 after the first export" wait_for 5 listening 7471
check "export h2" $TOOL blk export h2 "$B2" $ALLOW
check "unexport h2" $TOOL blk unexport h2
check "still listening with h1 exported" listening 7471
check "unexport h1, the last" $TOOL blk unexport h1
if wait_for 5 sh -c "! grep -qs ':7471\$' /sys/class/rdmachan/listener*/src_addr"; then
	ok "no listener on port 7471 after the last unexport"
else
	not_ok "no listener on port 7471 after the last unexport"
fi
check "the log says why" sh -c "dmesg | grep -q 'no export left: no longer listening on port 7471'"
check_fail "a map finds no server" "ECONNREFUSED|ETIMEDOUT|EHOSTUNREACH|ECONNRESET|ENETUNREACH" \
	timeout 90 $TOOL blk map $BLK_SRV h1 --src $BLK_CLI
check "export h1 again" $TOOL blk export h1 "$B1" $ALLOW
check "listening again" wait_for 5 listening 7471

# ---- names and read-only devices ---------------------------------------------
# (busybox's printf says nothing when its write fails: the log says why)
check "an export named x\\xe9 (a Latin-1 letter) through ctl/export is refused" \
	sh -c "! printf 'x\\351 $B2\\n' > /sys/class/rdmachan_blk/ctl/export"
check "the refusal is logged" sh -c "dmesg | grep -q 'refused: a name is 1 to 63 characters'"
check_eq "nothing was exported under it" "h1" \
	"$($TOOL -j blk show exports | jq -r '[.exports[].name] | sort | join(" ")')"
check "blockdev --setro $B2" $BLOCKDEV --setro "$B2"
check_fail "a read-write export of the read-only device: EROFS" "EROFS" \
	$TOOL blk export h2 "$B2" $ALLOW
check "the EROFS is logged" sh -c "dmesg | grep -q 'export h2: $B2 is read-only'"
check "a read-only export of it works" $TOOL blk export h2 "$B2" --ro $ALLOW
check "unexport h2" $TOOL blk unexport h2
check "blockdev --setrw $B2" $BLOCKDEV --setrw "$B2"

# ---- the ioctls ------------------------------------------------------------------
run_checks $HELPERS/ioctl_abuse blk $BLK_SRV $BLK_CLI h1
check "the refused BLK_MAP is logged" sh -c \
	"dmesg | grep -q 'BLK_MAP: ioctl_abuse (pid [0-9]*): output field index not zero'"
check "the refused BLK_LIST is logged" sh -c \
	"dmesg | grep -q 'BLK_LIST: ioctl_abuse (pid [0-9]*): a count with a null entries pointer'"
check_eq "no disk is left" "0" "$($TOOL -j blk show maps | jq '.maps | length')"

# ---- an export of a name whose forced unexport runs --------------------------------
# The unexport closes the mapping's queues and waits for them; an export
# of the same name (another device) meanwhile must be refused with EEXIST
# (not find the old sysfs directory in its way), and must succeed once the
# unexport returned.
for round in 1 2 3; do
	D=$(timeout 60 $TOOL blk map $BLK_SRV h1 --src $BLK_CLI --queues 2 2> $T/map.err)
	if [ ! -b "$D" ]; then
		not_ok "round $round: map h1"
		diag "$(cat $T/map.err)"
		break
	fi
	$DD if=/dev/zero of="$D" bs=64k count=64 oflag=direct 2>/dev/null &
	ddpid=$!
	$DD if=/dev/zero of="$D" bs=64k count=64 seek=64 oflag=direct 2>/dev/null &
	ddpid2=$!
	sleep 1
	timeout 90 $TOOL blk unexport h1 --force > $T/unexport.out 2>&1 &
	upid=$!
	n=0 made=0 other=0
	while [ $n -lt 400 ]; do
		n=$((n + 1))
		if $TOOL blk export h1 "$B3" $ALLOW > $T/export.out 2>&1; then
			made=1
			break
		fi
		grep -qE "EEXIST|EBUSY" $T/export.out || { other=1; diag "$(cat $T/export.out)"; }
	done
	wait $upid
	urc=$?
	wait $ddpid $ddpid2
	check_eq "round $round: the forced unexport returned 0" 0 "$urc"
	check_eq "round $round: every export attempt meanwhile: EEXIST, or success once it returned" \
		"0 1" "$other $made"
	diag "round $round: $n export attempts"
	$TOOL blk unmap "$D" --force 2>/dev/null
	# back to h1 on B1 for the next round
	$TOOL blk unexport h1 --force > /dev/null 2>&1
	check "round $round: export h1 on its device again" $TOOL blk export h1 "$B1" $ALLOW
done
if dmesg | grep -q "duplicate filename"; then
	not_ok "no sysfs duplicate-filename warning"
	diag "$(dmesg | grep -B2 -A8 'duplicate filename' | head -n 20)"
else
	ok "no sysfs duplicate-filename warning"
fi

# ---- refusals queued while their queue closes ------------------------------------
check "open_timeout_ms=2000" sh -c "echo 2000 > /sys/module/rdmachan_blk/parameters/open_timeout_ms"
run_checks $HELPERS/blk_wire -s $BLK_SRV -c $BLK_CLI -F 5 h1
check "the server logged the refusals that found no room" sh -c \
	"dmesg | grep -q 'refusals wait for room: closing it'"
check "h1's sessions are gone" wait_for 20 sh -c \
	"$TOOL -j blk show exports | jq -e '.exports[] | select(.name == \"h1\") | .sessions == 0 and .channels == 0' > /dev/null"

check "unexport h1" $TOOL blk unexport h1
check "no listener left" sh -c "! grep -qs ':7471\$' /sys/class/rdmachan/listener*/src_addr"
check "rdmachan_blk and rdmachan unload" blk_unload
done_testing
