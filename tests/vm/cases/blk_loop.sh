#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# A disk exported through itself: export "cyc --stable-id" of a null_blk,
# map it (/dev/rcblkN), force the export away (the mapping loses it),
# then export "cyc --stable-id" again with /dev/rcblkN itself as the
# device and remap the disk onto it.  Each request of the disk would go
# to the export, whose bios go to the very disk that waits for them:
# nothing would ever end.  The export is refused with ELOOP (a disk this
# host maps from one of its own addresses), the refusal is logged, the
# disk's reads end (with an error, the export being gone) instead of
# hanging, and the null_blk can be exported and mapped again.

requires() {
	_have_kernel stock
}

. /tests/lib.sh

T=/tmp/blk_loop
mkdir -p $T

check "rxe pair comes up" rxe_pair_up
check "rdmachan and rdmachan_blk load" blk_load
B=$(nullb_new cyc 64)
check "a 64 MiB null_blk ($B)" test -b "$B"
[ -b "$B" ] || blk_bail "no backing device"
check "blk export cyc $B --stable-id" \
	$TOOL blk export cyc "$B" --stable-id --allow 192.0.2.0/24
D=$(timeout 60 $TOOL blk map $BLK_SRV cyc --src $BLK_CLI 2> $T/map.err)
[ -b "$D" ] || { not_ok "blk map cyc"; diag "$(cat $T/map.err)"; blk_bail "no mapping"; }
ok "blk map cyc ($D)"
check "a read of $D" $DD if="$D" of=/dev/null bs=4k count=1 iflag=direct
check "blk unexport --force cyc" timeout 90 $TOOL blk unexport --force cyc
check_fail "blk export cyc $D (the disk itself) is refused: ELOOP" \
	"ELOOP|levels of symbolic links" \
	$TOOL blk export cyc "$D" --stable-id --allow 192.0.2.0/24
check "the refusal is logged" sh -c \
	"dmesg | grep -q 'export cyc: $D is a disk this host maps from itself: refused'"
check_eq "no export is left" 0 "$($TOOL -j blk show exports | jq '.exports | length')"
check_fail "blk remap $D: its export is gone (not a hang)" "." \
	timeout 60 $TOOL blk remap "$D"
# a read ends, with an error, within the mapping's bounds
timeout 120 $DD if="$D" of=/dev/null bs=4k count=1 iflag=direct > $T/dd.out 2>&1
rc=$?
check "a 4 KiB O_DIRECT read of $D ends, not hangs (exit $rc, not timeout's 124)" \
	test "$rc" != 124
check "blk unmap --force $D" timeout 60 $TOOL blk unmap --force "$D"
check "the null_blk exports again" \
	$TOOL blk export cyc "$B" --stable-id --allow 192.0.2.0/24
D=$(timeout 60 $TOOL blk map $BLK_SRV cyc --src $BLK_CLI 2> $T/map2.err)
check "and maps again ($D)" test -b "$D"
check "a read of the new mapping" $DD if="$D" of=/dev/null bs=4k count=1 iflag=direct
check "blk unmap $D" timeout 60 $TOOL blk unmap "$D"
check "blk unexport cyc" timeout 60 $TOOL blk unexport cyc
check "the modules unload" blk_unload
done_testing
