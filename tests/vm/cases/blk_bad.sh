#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The block channel refuses what it must, with the errno the user will
# meet: the tool without rdmachan_blk (blacklisted: ENOTTY and its hint), exports of
# what is no block device or exported already, maps of unknown exports,
# from addresses not allowed, read-write of read-only exports, unmaps of
# no disk, a server that is not there; blk_wire's malformed OPENs and
# requests (each answered with its status, the server still serving,
# the backing devices untouched: a checksum before and after; what may
# end a channel - a request of another type, one cut shorter than the
# header, a READ into rkey 0, a 64 KiB WRITE from rkey 0 (both pieces of
# its pull fail) - each on a session of its own, followed by a new one), and its flood of requests on a slow export (the excess
# refused with RESOURCE at once, counted in errors and logged; the first
# OK within 2 s of the last send: the replies must not wait behind
# submissions waiting for the device's tags); and a read-only mapping
# refuses writes
# (dd, and mount -o rw where the kernel has ext4: Debian's, not the debug
# kernel, which runs the rest under KASAN and lockdep).

. /tests/lib.sh

T=/tmp/blk_bad
MNT=/mnt/blk
mkdir -p $T $MNT

check "rxe pair comes up" rxe_pair_up
check "rdmachan loads" rdmachan_load
# rdmachan_blk loads on the first block ioctl, unless blacklisted
# (admin.sh): here it is, so that the tool meets its absence
mkdir -p /etc/modprobe.d
echo "blacklist rdmachan_blk" > /etc/modprobe.d/blk_bad.conf
check_fail "blk show without rdmachan_blk: ENOTTY, rdmachan_blk is not loaded" \
	"ENOTTY.*rdmachan_blk is not loaded" $TOOL blk show
check_fail "blk export without rdmachan_blk: ENOTTY" "ENOTTY" \
	$TOOL blk export x /dev/null --allow 192.0.2.0/24
rm -f /etc/modprobe.d/blk_bad.conf
check "rdmachan_blk loads" $MODPROBE rdmachan_blk
check "blk show with nothing: empty lists" sh -c \
	"$TOOL -j blk show | jq -e '.exports == [] and .maps == []' > /dev/null"

B1=$(nullb_new wire 64 discard=1)
B2=$(nullb_new wire_ro 64)
B3=$(nullb_new wire_deny 64)
B4=$(nullb_new spare 64)
# 150 ms a request, 4 at a time: blk_wire's flood fills the server's
# slots, and its submissions wait for the device's tags
B5=$(nullb_new wire_slow 64 discard=1 irqmode=2 completion_nsec=150000000 hw_queue_depth=4)
check "five 64 MiB null_blk devices" test -b "$B1" -a -b "$B2" -a -b "$B3" -a -b "$B4" -a -b "$B5"
[ -b "$B5" ] || blk_bail "no backing devices"
# an ext4 on wire's device (for the read-only mapping at the end; it
# cannot be made once the device is exported: the server holds it), and
# something else than zeroes on wire_ro's
check "mkfs.ext4 on the device behind wire" /usr/sbin/mkfs.ext4 -q -F "$B1"
head -c 4194304 /dev/urandom > $T/pat
$DD if=$T/pat of="$B2" bs=1M oflag=direct conv=notrunc 2>/dev/null

check "export wire (read-write, 192.0.2.0/24)" $TOOL blk export wire "$B1" --allow 192.0.2.0/24
check "export wire_ro --ro" $TOOL blk export wire_ro "$B2" --ro --allow 192.0.2.0/24
check "export wire_deny to 198.51.100.0/24 and 2001:db8::/32 only" \
	$TOOL blk export wire_deny "$B3" --allow 198.51.100.0/24 --allow 2001:db8::/32
check_eq "blk show: wire_deny's allow list" "198.51.100.0/24 2001:db8::/32" \
	"$($TOOL -j blk show exports | jq -r '.exports[] | select(.name == "wire_deny") | .allow | join(" ")')"
check_eq "blk show: wire_ro is read-only" "true" \
	"$($TOOL -j blk show exports | jq -r '.exports[] | select(.name == "wire_ro") | .ro')"

# ---- export ---------------------------------------------------------------
check_fail "export of a name exported already: EEXIST" "EEXIST" \
	$TOOL blk export wire "$B4" --allow 192.0.2.0/24
check_fail "export of a device exported already, under another name: EBUSY" "EBUSY" \
	$TOOL blk export wire2 "$B1" --allow 192.0.2.0/24
check_fail "export of a path that does not exist: ENOENT" "ENOENT" \
	$TOOL blk export nodev /dev/nonexistent --allow 192.0.2.0/24
check_fail "export of a character device: ENOTBLK" "ENOTBLK" \
	$TOOL blk export chardev /dev/null --allow 192.0.2.0/24
: > $T/regular
check_fail "export of a regular file: ENOTBLK" "ENOTBLK" \
	$TOOL blk export regfile $T/regular --allow 192.0.2.0/24
check_fail "export of a relative path: EINVAL or ENOENT" "EINVAL|ENOENT" \
	$TOOL blk export relpath nullb0 --allow 192.0.2.0/24
check_fail "export name with a slash: usage error" "invalid export name" \
	$TOOL blk export a/b "$B3"
check_fail "export with a bad network: usage error" "invalid network" \
	$TOOL blk export x "$B3" --allow 192.0.2.1/24
check_fail "unexport of an unknown export: ENOENT" "ENOENT" $TOOL blk unexport nosuch
check_eq "the failed exports left nothing behind" "wire wire_deny wire_ro" \
	"$($TOOL -j blk show exports | jq -r '[.exports[].name] | sort | join(" ")')"

# ---- map, unmap -------------------------------------------------------------
check_fail "map of an unknown export: ENOENT" "ENOENT" \
	timeout 60 $TOOL blk map $BLK_SRV nosuch --src $BLK_CLI
check_fail "map from an address the export does not allow: EACCES" "EACCES" \
	timeout 60 $TOOL blk map $BLK_SRV wire_deny --src $BLK_CLI
check_fail "read-write map of a read-only export: EROFS" "EROFS" \
	timeout 60 $TOOL blk map $BLK_SRV wire_ro --src $BLK_CLI
check_fail "map of a server that is not there (port 7999): refused or timed out" \
	"ECONNREFUSED|ETIMEDOUT|EHOSTUNREACH|ECONNRESET|ENETUNREACH" \
	timeout 90 $TOOL blk map $BLK_SRV:7999 wire --src $BLK_CLI
check_fail "unmap of a disk that does not exist: ENOENT" "ENOENT|ENODEV" $TOOL blk unmap rcblk99
check_fail "unmap of index 4294967295: ENOENT" "ENOENT|ENODEV" $TOOL blk unmap 4294967295
check_fail "unmap /dev/sda: usage error" "invalid disk" $TOOL blk unmap /dev/sda
check_fail "remap of a disk that does not exist: ENOENT" "ENOENT" $TOOL blk remap rcblk99
check_fail "remap /dev/sda: usage error" "invalid disk" $TOOL blk remap /dev/sda
check_fail "remap_device with garbage is refused" "Invalid argument" \
	sh -c "echo 'x1' > /sys/class/rdmachan_blk/ctl/remap_device"
check_eq "the failed maps left no disk behind" "0" "$($TOOL -j blk show maps | jq '.maps | length')"
check "no rcblk disk in /sys/block" sh -c "! ls /sys/block | grep -q rcblk"

# ---- blk_wire: a hostile client over a plain channel --------------------------
s1=$(dev_sum "$B1")
s2=$(dev_sum "$B2")
s3=$(dev_sum "$B3")
# blk_wire's mute channel (no OPEN) waits at most 10 s for the server's close
check_fail "open_timeout_ms=999 is refused" "range|Invalid" \
	sh -c "echo 999 > /sys/module/rdmachan_blk/parameters/open_timeout_ms"
check "open_timeout_ms=2000" sh -c "echo 2000 > /sys/module/rdmachan_blk/parameters/open_timeout_ms"
# every numeric parameter is bounded the same way (blk_params.c)
check_fail "clt_queue_depth=1 is refused" "Invalid" \
	sh -c "echo 1 > /sys/module/rdmachan_blk/parameters/clt_queue_depth"
check "the refusal names the module and the bounds" sh -c \
	"dmesg | grep -q \"rdmachan_blk: clt_queue_depth: invalid value '1' (2..4096)\""
check_eq "clt_queue_depth kept" 128 \
	"$(cat /sys/module/rdmachan_blk/parameters/clt_queue_depth)"
check "export wire_slow" $TOOL blk export wire_slow "$B5" --allow 192.0.2.0/24
run_checks $HELPERS/blk_wire -s $BLK_SRV -c $BLK_CLI -b "$B1" wire wire_ro wire_deny wire_slow
check "the server logged the channel without OPEN" sh -c \
	"dmesg | grep -q 'no OPEN within 2000 ms of the connection: closing it'"
check_eq "the read-write export's backing device is untouched" "$s1" "$(dev_sum "$B1")"
check_eq "the read-only export's backing device is untouched" "$s2" "$(dev_sum "$B2")"
check_eq "the denied export's backing device is untouched" "$s3" "$(dev_sum "$B3")"
check "the export counted rejected requests" sh -c \
	"test \"\$($TOOL -j blk show exports | jq -r '.exports[] | select(.name == \"wire\") | .counters.rejected')\" -gt 0"
check "the slow export counted its RESOURCE refusals in errors" sh -c \
	"test \"\$($TOOL -j blk show exports | jq -r '.exports[] | select(.name == \"wire_slow\") | .counters.errors')\" -gt 0"
check "the server logged a RESOURCE refusal" sh -c \
	"dmesg | grep -q 'wire_slow: request tag [0-9]* refused with RESOURCE: queue-depth requests wait for a slot'"
check "blk_wire's sessions are gone" wait_for 10 sh -c \
	"$TOOL -j blk show exports | jq -e '.exports[] | select(.name == \"wire\") | .sessions == 0' > /dev/null"

# ---- a read-only mapping refuses writes ----------------------------------------
s1=$(dev_sum "$B1")
D=$(timeout 60 $TOOL blk map $BLK_SRV wire --ro --src $BLK_CLI 2> $T/map.err)
if [ -b "$D" ]; then
	ok "blk map --ro of the read-write export ($D)"
else
	not_ok "blk map --ro of the read-write export"
	diag "$D $(cat $T/map.err)"
	blk_bail "no read-only mapping"
fi
check_eq "the disk is read-only (blockdev --getro)" 1 "$($BLOCKDEV --getro "$D")"
check_eq "blk show: the mapping is ro" true \
	"$($TOOL -j blk show maps | jq -r --arg d "$D" '.maps[] | select(.dev == $d) | .ro')"
check_fail "dd to the read-only disk fails (EROFS or EACCES on open)" \
	"Read-only|Permission denied|Operation not permitted" \
	$DD if=/dev/zero of="$D" bs=4k count=1 oflag=direct conv=notrunc
check "reads work" sh -c "$DD if=$D of=/dev/null bs=1M count=4 iflag=direct"
$MODPROBE ext4 2>/dev/null
EXT4=0
grep -qw ext4 /proc/filesystems && EXT4=1
if [ "$EXT4" = 0 ]; then
	diag "no ext4 in this kernel: the mounts of the read-only disk are left out"
elif mount -t ext4 -o rw "$D" $MNT > $T/mount.out 2>&1; then
	# a mount that fell back to read-only is fine; a read-write one is not
	check "mount -o rw of the read-only disk ended read-only" \
		sh -c "grep ' $MNT ' /proc/mounts | grep -q ' ro[ ,]'"
	check_fail "creating a file on it fails" "Read-only|ermission|denied" touch $MNT/newfile
	umount $MNT
else
	ok "mount -o rw of the read-only disk fails"
	diag "$(cat $T/mount.out)"
fi
if [ "$EXT4" = 1 ]; then
	check "mount -o ro works" mount -t ext4 -o ro,noload "$D" $MNT
	check "and lists the fs" ls $MNT/lost+found
	umount $MNT 2>/dev/null
fi
check "blk unmap" $TOOL blk unmap "$D"
check_eq "the backing device is untouched by the read-only mapping" "$s1" "$(dev_sum "$B1")"
check "blk unexport of the four" sh -c \
	"$TOOL blk unexport wire && $TOOL blk unexport wire_ro && $TOOL blk unexport wire_deny &&
	 $TOOL blk unexport wire_slow"
check "rdmachan_blk and rdmachan unload" blk_unload
done_testing
