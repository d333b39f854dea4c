#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# rdmachan_blk's server: exports of null_blk devices through sysfs and the
# exports parameter, their directories and counters, every bad input
# refused with its errno, rmmod refused while something is exported, the
# listener on port 7471 only once something is exported (none at the
# load, one after the exports parameter), a channel whose first message is no OPEN
# refused and closed, and (when the client side is there) a mapping
# through which dd writes and reads back the data; then eight rounds of
# export, map, unmap and an unexport right after the unmap, each of which
# must succeed: the server learns of an unmap only after it returned,
# and the unexport gives ending sessions a grace.  Where netem is
# (Debian's kernel) the client's packets are delayed 200 ms during the
# rounds, so that without the grace every such unexport would be EBUSY.

# Debian's 6.12 too: it opens the exported device another way
requires() {
	_have_kernel stock 6.12 debug
}

. /tests/lib.sh

T=/tmp/blk_srv
mkdir -p $T
CTL=/sys/class/rdmachan_blk/ctl
EXP=$CTL/exports
SRV=192.0.2.1
CLI=192.0.2.2

ctl() {
	# ctl FILE TEXT: write TEXT to a control file in one write; on a
	# failure print dd's complaint ("error writing ...: <strerror>")
	_o=$(printf '%s\n' "$2" | dd of="$CTL/$1" bs=4096 2>&1) && return 0
	printf '%s\n' "$_o"
	return 1
}
srv_load() {
	$MODPROBE rdmachan_blk "$@"
}
srv_unload() {
	$RMMOD rdmachan_blk
}

check "rxe pair comes up" rxe_pair_up
check "null_blk: three memory-backed devices of 1 GiB, 4 KiB blocks" \
	$MODPROBE null_blk nr_devices=3 memory_backed=1 \
	gb=1 bs=4096 discard=1
check "rdmachan_blk loads" srv_load
check "the control files are there" test -f $CTL/export -a -f $CTL/unexport
check "the exports directory is there, empty" sh -c "[ -d $EXP ] && [ -z \"\$(ls $EXP)\" ]"
check "no listener on port 7471 while nothing is exported" sh -c \
	"! grep -qs ':7471\$' /sys/class/rdmachan/listener*/src_addr"

# ---- exports through sysfs ----
check "export d0 /dev/nullb0 allow=192.0.2.0/24" \
	ctl export "d0 /dev/nullb0 allow=192.0.2.0/24"
check "exports/d0 is there" test -d $EXP/d0
check "the listener is on port 7471 after the first export" wait_for 10 listening 7471
check_eq "d0 path" /dev/nullb0 "$(cat $EXP/d0/path)"
check_eq "d0 ro" 0 "$(cat $EXP/d0/ro)"
check_eq "d0 stable_id" 0 "$(cat $EXP/d0/stable_id)"
check_eq "d0 allow" 192.0.2.0/24 "$(cat $EXP/d0/allow)"
check_eq "d0 size_sectors is the device's" \
	"$(cat /sys/block/nullb0/size)" "$(cat $EXP/d0/size_sectors)"
check_eq "d0 sessions" 0 "$(cat $EXP/d0/sessions)"
check_eq "d0 export_id is 32 hex digits" 32 "$(tr -d '\n' < $EXP/d0/export_id | wc -c)"
for c in reads writes read_bytes write_bytes flushes fua discards \
	write_zeroes inline_writes errors rejected inflight; do
	check_eq "d0 counters/$c is 0" 0 "$(cat $EXP/d0/counters/$c)"
done
check "export d1 /dev/nullb1 ro allow=192.0.2.2,10.0.0.0/8 allow=fd00::/8" \
	ctl export "d1 /dev/nullb1 ro allow=192.0.2.2,10.0.0.0/8 allow=fd00::/8"
check_eq "d1 ro" 1 "$(cat $EXP/d1/ro)"
check_eq "d1 allow lists the three" "192.0.2.2/32,10.0.0.0/8,fd00::/8" \
	"$(cat $EXP/d1/allow)"
check_eq "d1 export_id differs from d0's" 1 \
	"$([ "$(cat $EXP/d0/export_id)" != "$(cat $EXP/d1/export_id)" ] && echo 1)"

# ---- bad input: refused, nothing changes ----
check_fail "a taken name: EEXIST" "exists" ctl export "d0 /dev/nullb2"
check_fail "a device exported already (held exclusively): EBUSY" "busy" \
	ctl export "d9 /dev/nullb0"
check_fail "no such device: ENOENT" "No such file" ctl export "d9 /dev/nope"
check_fail "not a block device: ENOTBLK" "Block device required" \
	ctl export "d9 /dev/null"
check_fail "a name with '/': EINVAL" "Invalid argument" ctl export "a/b /dev/nullb2"
check_fail "the name '..': EINVAL" "Invalid argument" ctl export ".. /dev/nullb2"
check_fail "a name of 64 characters: EINVAL" "Invalid argument" \
	ctl export "$(printf '%064d' 0) /dev/nullb2"
check_fail "no path: EINVAL" "Invalid argument" ctl export "d9"
check_fail "an unknown option: EINVAL" "Invalid argument" ctl export "d9 /dev/nullb2 rw"
check_fail "a bad CIDR prefix: EINVAL" "Invalid argument" \
	ctl export "d9 /dev/nullb2 allow=192.0.2.0/33"
check_fail "a bad CIDR address: EINVAL" "Invalid argument" \
	ctl export "d9 /dev/nullb2 allow=192.0.2/24"
check_fail "an empty allow entry: EINVAL" "Invalid argument" \
	ctl export "d9 /dev/nullb2 allow=10.0.0.1,,10.0.0.2"
A17=$(i=0; while [ $i -lt 17 ]; do printf '10.0.0.%d,' $i; i=$((i + 1)); done)
check_fail "17 allowed networks: E2BIG" "too long" \
	ctl export "d9 /dev/nullb2 allow=${A17%,}"
check "nothing was exported by them" sh -c "[ \"\$(ls $EXP | tr '\n' ' ')\" = 'd0 d1 ' ]"
check_fail "unexport of no export: ENOENT" "No such file" ctl unexport d9
check_fail "unexport with an unknown option: EINVAL" "Invalid argument" \
	ctl unexport "d0 now"
check_fail "unexport of a bad name: EINVAL" "Invalid argument" ctl unexport "a/b"
check_fail "rmmod with exports is refused" "in use" srv_unload

# ---- the wire: a first message that is no OPEN ----
check "a channel whose first message is no OPEN connects" \
	$TOOL chan send $SRV:7471 --src $CLI "not an OPEN"
check "... and the server refuses it" wait_for 10 sh -c \
	"dmesg | grep -q 'malformed OPEN: refused'"

# ---- a mapping, when the client side is there ----
D=$($TOOL blk map $SRV d0 --src $CLI 2> $T/map.err)
if [ -b "$D" ]; then
	ok "d0 mapped from $CLI: $D"
	check_eq "d0 sessions 1" 1 "$(cat $EXP/d0/sessions)"
	check "dd 1 MiB of a pattern to the disk" sh -c \
		"dd if=/dev/urandom of=$T/pat bs=64k count=16 2>/dev/null &&
		 dd if=$T/pat of=$D bs=64k oflag=direct 2>/dev/null"
	check "the backing device has it" sh -c \
		"dd if=/dev/nullb0 bs=64k count=16 iflag=direct 2>/dev/null | cmp - $T/pat"
	check "it reads back through the disk" sh -c \
		"dd if=$D of=$T/back bs=64k count=16 iflag=direct 2>/dev/null &&
		 cmp $T/pat $T/back"
	check "counters: writes, reads and their bytes counted" sh -c \
		"[ \$(cat $EXP/d0/counters/writes) -gt 0 ] &&
		 [ \$(cat $EXP/d0/counters/reads) -gt 0 ] &&
		 [ \$(cat $EXP/d0/counters/write_bytes) -ge 1048576 ] &&
		 [ \$(cat $EXP/d0/counters/inflight) = 0 ]"
	check "write zeroes (zero-page writes) of 4 MiB through the disk" \
		timeout 40 /usr/sbin/blkdiscard -z -o 8388608 -l 4194304 $D
	diag "server counters: $(cd $EXP/d0/counters && grep . * | tr '\n' ' ')"
	check "... the backing device reads zeroes there" sh -c \
		"dd if=/dev/nullb0 bs=1M skip=8 count=4 iflag=direct 2>/dev/null |
		 cmp -n 4194304 - /dev/zero"
	check "... and the pattern before it is intact" sh -c \
		"dd if=/dev/nullb0 bs=64k count=16 iflag=direct 2>/dev/null | cmp - $T/pat"
	check_fail "unexport of a mapped export: EBUSY" "busy" ctl unexport d0
	check "forced unexport of a mapped export" ctl unexport "d0 force"
	check "... its directory is gone" test ! -e $EXP/d0
	check "... the disk's I/O fails now" sh -c \
		"! dd if=$D of=/dev/null bs=4k count=1 iflag=direct 2>/dev/null"
	check "the mapping goes (unmap --force)" sh -c \
		"$TOOL blk unmap $D --force"
else
	diag "no mapping ($D): $(cat $T/map.err)"
	not_ok "d0 mapped from $CLI"
	ctl unexport "d0 force"
fi

# ---- unmap, then unexport at once (the server learns of the unmap a
# moment after it returns: the unexport waits for the ending session).
# Where netem is (Debian's kernel), the client's packets are delayed
# 200 ms, so that the server learns of each unmap 200 ms after it
# returned: without the grace every unexport would be refused. ----
slow=
if $MODPROBE sch_netem 2> /dev/null &&
	/usr/sbin/tc qdisc add dev veth1 root netem delay 200ms 2> /dev/null; then
	slow=", the client's packets delayed 200 ms"
fi
n=0
for r in 1 2 3 4 5 6 7 8; do
	ctl export "u0 /dev/nullb0 allow=192.0.2.0/24" > $T/u.err 2>&1 || break
	D=$($TOOL blk map $SRV u0 --src $CLI 2>> $T/u.err) || break
	$TOOL blk unmap "$D" 2>> $T/u.err || break
	ctl unexport u0 >> $T/u.err 2>&1 || break
	n=$r
done
[ -z "$slow" ] || /usr/sbin/tc qdisc del dev veth1 root
check_eq "8 rounds of export, map, unmap, unexport at once$slow" 8 "$n"
[ "$n" = 8 ] || { diag "$(cat $T/u.err)"; ctl unexport "u0 force"; }

# ---- unexport ----
check "unexport d1" ctl unexport d1
check "exports/ is empty again" sh -c "[ -z \"\$(ls $EXP)\" ]"
check "the device can be opened exclusively again (export it anew)" \
	ctl export "d1 /dev/nullb1"
check "and unexported" ctl unexport "d1 force"

# ---- a stable identity: the name and size, not which disk ----
check "export s /dev/nullb1 stable_id" ctl export "s /dev/nullb1 stable_id"
check_eq "s stable_id" 1 "$(cat $EXP/s/stable_id)"
check_eq "blk show -j says stable_id" true \
	"$($TOOL -j blk show exports | jq '.exports[] | select(.name == "s") | .stable_id')"
check "blk show says stable-id" sh -c "$TOOL blk show exports | grep -q 'export s .* stable-id'"
sid=$(cat $EXP/s/export_id)
check "unexport s" ctl unexport s
check "export s of another disk of the same size, stable_id (a reboot)" \
	$TOOL blk export s /dev/nullb2 --stable-id
check_eq "the same export_id" "$sid" "$(cat $EXP/s/export_id)"
check "unexport s" ctl unexport s
check "export s of that disk without stable_id" ctl export "s /dev/nullb2"
check_eq "another export_id" 1 "$([ "$(cat $EXP/s/export_id)" != "$sid" ] && echo 1)"
check "unexport s" ctl unexport s
check "rdmachan_blk unloads" srv_unload

# ---- the exports parameter ----
check "loads with exports=\"p0=/dev/nullb0,ro,allow=192.0.2.0/24+::1;p1=/dev/nullb1,stable_id\"" \
	srv_load "exports=p0=/dev/nullb0,ro,allow=192.0.2.0/24+::1;p1=/dev/nullb1,stable_id"
check_eq "p0 ro" 1 "$(cat $EXP/p0/ro 2>&1)"
check_eq "p0 allow" "192.0.2.0/24,::1/128" "$(cat $EXP/p0/allow 2>&1)"
check_eq "p1 allows nobody" "" "$(cat $EXP/p1/allow 2>&1)"
check_eq "p1 stable_id" 1 "$(cat $EXP/p1/stable_id 2>&1)"
check_fail "rmmod with them is refused" "in use" srv_unload
check "the exports parameter started the listener" wait_for 10 listening 7471
check "unexport p0" ctl unexport p0
check "unexport p1" ctl unexport p1
check "no listener once both are unexported" sh -c \
	"! grep -qs ':7471\$' /sys/class/rdmachan/listener*/src_addr"
check "rdmachan_blk unloads" srv_unload
check_fail "a bad exports parameter fails the load" "." \
	srv_load "exports=p0=/dev/nope"
check "after it, a good load works" srv_load
check "and unloads" srv_unload
check "rdmachan unloads" rdmachan_unload
done_testing
