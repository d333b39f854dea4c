#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# rdmachan run the way "make install" sets it up (the image has what
# make install-data puts outside /lib/modules: the tool in
# /usr/local/sbin, the udev rules, the sysusers.d group), with udevd
# running: rdmachan loads when an RDMA device appears; /dev/rdmachan is
# group rdma, mode 0660; a block or network command loads rdmachan_blk /
# rdmachan_net on its first ioctl, and a blacklisted one is refused with
# ENOTTY and a log line; a mapped disk gets
# /dev/disk/by-id/rdmachan-EXPORT-ID (ID the server's export_id) and
# /dev/disk/by-path/rdmachan-SERVER-EXPORT, and its partition -part1; blk show and net show print
# counters with -s and the identity, source and policy with -d (JSON
# always).  Then the configuration
# that survives a reboot: "config save" of an export, a mapping with its
# reconnect policy and two interfaces writes the expected lines; an
# immediate "config restore" skips all four; everything is unmapped,
# deleted and unloaded but rdmachan, and "config restore" makes it again
# (the modules load on demand): the same by-id name with the data
# written before, the interfaces with their mode, address, MTU and
# policy, connected again; a file with a line that fails restores the rest
# and exits 1.  Last, the identity behind the by-id name: another device
# of the same size exported under the same name has another export_id,
# and a remap of the disk refuses it (ESTALE).

# Debian's 6.1 kernel (null_blk in configfs; what it checks is the same
# on 6.12, whose stock lane is full)
requires() {
	_have_kernel stock
}

. /tests/lib.sh

T=/tmp/admin
mkdir -p $T
TOOL=/usr/local/sbin/rdmachan
CONF=/etc/rdmachan/rdmachan.conf
MiB=1048576

# both_up: rcn0 and rcn1 are connected (their carrier is on)
both_up() {
	[ "$(cat /sys/class/net/rcn0/rdmachan/state /sys/class/net/rcn1/rdmachan/state)" = "up
up" ]
}

# link_to LINK DEV: LINK resolves to DEV
link_to() {
	[ "$(readlink -f "$1")" = "$2" ]
}

check_eq "rdmachan is not loaded before the RDMA devices appear" "no" \
	"$(module_loaded rdmachan && echo yes || echo no)"
check "rdmachan's udev rules are installed" test -f /usr/local/lib/udev/rules.d/60-rdmachan.rules
check "udevd starts" udevd_start
check "rxe pair comes up" rxe_pair_up
udev_settled
check "rdmachan loads when the RDMA devices appear (udev, kmod load)" \
	wait_for 20 module_loaded rdmachan
check "/dev/rdmachan appears" wait_for 10 test -c /dev/rdmachan
udev_settled
check_eq "/dev/rdmachan: group rdma, mode 0660 (60-rdmachan.rules)" "rdma 660" \
	"$(stat -c '%G %a' /dev/rdmachan)"
check_eq "rdmachan came from make install's directory (updates/rdmachan)" \
	"/lib/modules/$(uname -r)/updates/rdmachan/rdmachan.ko" \
	"$(/usr/sbin/modinfo -F filename rdmachan)"
check "the installed tool lists the RDMA devices (dev list)" sh -c \
	"$TOOL dev list | grep -q rxe0 && $TOOL dev list | grep -q rxe1"

# ---- autoload on the first ioctl -------------------------------------------
check_eq "rdmachan_blk and rdmachan_net are not loaded yet" "no no" \
	"$(module_loaded rdmachan_blk && echo yes || echo no) $(module_loaded rdmachan_net && echo yes || echo no)"
check "blk show works without a modprobe first" $TOOL blk show
check "... and rdmachan_blk was loaded for it" module_loaded rdmachan_blk
check "net show works without a modprobe first" $TOOL net show
check "... and rdmachan_net was loaded for it" module_loaded rdmachan_net
$RMMOD rdmachan_net
mkdir -p /etc/modprobe.d
echo "blacklist rdmachan_net" > /etc/modprobe.d/admin-test.conf
check_fail "a blacklisted rdmachan_net is not loaded: net show fails" \
	"not loaded|Inappropriate ioctl|ENOTTY" $TOOL net show
check "... with a log line naming the ioctl and the alias" sh -c \
	"dmesg | grep -q 'no module serves ioctl 0x92 (modprobe rdmachan-ioc-0x90'"
check "... and rdmachan_net stays unloaded" sh -c "! test -d /sys/module/rdmachan_net"
rm -f /etc/modprobe.d/admin-test.conf

# ---- stable disk names -----------------------------------------------------
wire_fifo
B=$(nullb_new admin 64)
check "a 64 MiB null_blk ($B)" test -b "$B"
[ -b "$B" ] || blk_bail "no backing device"
check "blk export cfg $B --allow 192.0.2.0/24" \
	$TOOL blk export cfg "$B" --allow 192.0.2.0/24
D=$($TOOL blk map $BLK_SRV cfg --src $BLK_CLI --reconnect-delay 300 \
	--loss-timeout 60000 --fast-io-fail 20000 2> $T/map.err)
check "blk map with a reconnect policy makes a disk ($D)" test -b "$D"
[ -b "$D" ] || { diag "$(cat $T/map.err)"; blk_bail "no mapping"; }
ID=$(cat /sys/class/rdmachan_blk/ctl/exports/cfg/export_id)
check_eq "the disk's export_id is the server's" "$ID" "$(blk_map_attr "$D" export_id)"
check_eq "the disk's src is the address it was mapped from" "$BLK_CLI" \
	"$(blk_map_attr "$D" src)"
udev_settled
BYID=/dev/disk/by-id/rdmachan-cfg-$ID
BYPATH=/dev/disk/by-path/rdmachan-$BLK_SRV:7471-cfg
check "udev: $BYID -> $D" wait_for 10 link_to "$BYID" "$D"
check "udev: $BYPATH -> $D" wait_for 10 link_to "$BYPATH" "$D"
check "blk show: no counters without -s" sh -c "! $TOOL blk show maps | grep -q ' reads '"
check "blk show -s: the counters" sh -c "$TOOL -s blk show maps | grep -q '^    reads [0-9]'"
check "blk show -d: the disk's identity, source and policy" sh -c \
	"$TOOL -d blk show maps | grep -q '^    export_id $ID src $BLK_CLI\$' &&
	 $TOOL -d blk show maps | grep -q '^    reconnect_delay_ms 300 loss_timeout_ms 60000 fast_io_fail_ms 20000\$'"
check_eq "blk show -j: the identity, source and policy without -d" "$ID $BLK_CLI 300 true" \
	"$($TOOL -j blk show maps | jq -r '.maps[0] | "\(.export_id) \(.src) \(.reconnect_delay_ms) \(.counters != null)"')"
# one partition, sectors 2048 to 10239 (an MBR, written by hand: the
# image has no partitioning tool); the data below goes after it
printf '\000\000\000\000\203\000\000\000\000\010\000\000\000\040\000\000' |
	$DD of="$D" bs=1 seek=446 conv=notrunc 2> /dev/null
printf '\125\252' | $DD of="$D" bs=1 seek=510 conv=notrunc,fsync 2> /dev/null
check "a partition table written on the disk is read (blockdev --rereadpt)" sh -c \
	"$BLOCKDEV --rereadpt $D && test -b ${D}p1"
udev_settled
check "udev: $BYID-part1 and the by-path -part1 -> ${D}p1" wait_for 10 sh -c \
	"[ \"\$(readlink -f $BYID-part1)\" = ${D}p1 ] && [ \"\$(readlink -f $BYPATH-part1)\" = ${D}p1 ]"
head -c $((4 * MiB)) /dev/urandom > $T/pat
check "4 MiB written through the by-id name" \
	$DD if=$T/pat of="$BYID" bs=1M seek=5 oflag=direct conv=notrunc,fsync

# ---- config save -----------------------------------------------------------
check "net add rcn0 listen 192.0.2.1 --peer 192.0.2.2 --reconnect-delay 200" \
	$TOOL net add rcn0 listen 192.0.2.1 --peer 192.0.2.2 --reconnect-delay 200
check "net add rcn1 connect 192.0.2.1 --src 192.0.2.2 --mtu 9000 --loss-timeout off" \
	$TOOL net add rcn1 connect 192.0.2.1 --src 192.0.2.2 --mtu 9000 --loss-timeout off
check "both connected within 20 s" wait_for 20 both_up
check "net show -d: rcn1's source and policy" sh -c \
	"$TOOL -d net show rcn1 | grep -q '^    src 192.0.2.2 reconnect_delay_ms [0-9]* loss_timeout_ms off\$'"
check "config save writes $CONF" $TOOL config save
diag "$(cat $CONF)"
check "the export's line" grep -qx "blk export cfg $B --allow 192.0.2.0/24" $CONF
check "the mapping's line, with its source and policy" grep -Eqx \
	"blk map $BLK_SRV:7471 cfg --src $BLK_CLI --queues [0-9]+ --depth [0-9]+ --reconnect-delay 300 --loss-timeout 60000 --fast-io-fail 20000" $CONF
check "rcn0's line: listen, its peer, its policy" grep -Eqx \
	"net add rcn0 listen 192.0.2.1:7472 --peer 192.0.2.2 --mtu [0-9]+ --msg-size [0-9]+ --depth [0-9]+ --reconnect-delay 200 --loss-timeout off" $CONF
check "rcn1's line: connect, its source, MTU 9000, no loss timeout" grep -Eqx \
	"net add rcn1 connect 192.0.2.1:7472 --src 192.0.2.2 --mtu 9000 --msg-size [0-9]+ --depth [0-9]+ --reconnect-delay [0-9]+ --loss-timeout off" $CONF
check_eq "config show prints what config save wrote" "$(cat $CONF)" "$($TOOL config show)"
check "config restore with everything in place: exit 0" sh -c \
	"$TOOL config restore > $T/again.out 2>&1"
check_eq "... skipping all four" "4" "$(grep -c '^exists, skipped: ' $T/again.out)"
check_eq "... and making nothing new" "1" "$($TOOL -j blk show maps | jq '.maps | length')"

# ---- everything gone, then restored ----------------------------------------
check "net del rcn1 and rcn0" sh -c "$TOOL net del rcn1 && $TOOL net del rcn0"
check "blk unmap $D" $TOOL blk unmap "$D"
check "blk unexport cfg" $TOOL blk unexport cfg
udev_settled
check "the by-id name went with the disk" sh -c "! test -e $BYID"
check "rdmachan_net and rdmachan_blk unload" sh -c \
	"$RMMOD rdmachan_net && $RMMOD rdmachan_blk"
check "config restore --dry-run would run all four lines" sh -c \
	"$TOOL config restore --dry-run > $T/dry.out 2>&1 && [ \$(grep -c '^would run: ' $T/dry.out) = 4 ]"
check "config restore: exit 0" sh -c "$TOOL config restore > $T/restore.out 2>&1"
diag "$(cat $T/restore.out)"
check "rdmachan_blk and rdmachan_net were loaded on demand" sh -c \
	"test -d /sys/module/rdmachan_blk && test -d /sys/module/rdmachan_net"
udev_settled
check "the same by-id name is back" wait_for 10 test -b "$BYID"
check "... and its partition's" wait_for 10 test -b "$BYID-part1"
D2=$(readlink -f "$BYID")
check "the data written before reads back through it" sh -c \
	"$DD if=$BYID bs=1M skip=5 count=4 iflag=direct 2>/dev/null | $CMP - $T/pat"
check_eq "the mapping's policy and source are back" "300 60000 20000 $BLK_CLI" \
	"$(blk_map_attr "$D2" reconnect_delay_ms) $(blk_map_attr "$D2" loss_timeout_ms) $(blk_map_attr "$D2" fast_io_fail_ms) $(blk_map_attr "$D2" src)"
check_eq "the interfaces are back: modes, addresses, rcn1's MTU and policy" \
	"listen 192.0.2.1:7472 192.0.2.2 200 connect 192.0.2.2 9000 off" \
	"$(cat /sys/class/net/rcn0/rdmachan/mode /sys/class/net/rcn0/rdmachan/addr \
		/sys/class/net/rcn0/rdmachan/src /sys/class/net/rcn0/rdmachan/reconnect_delay_ms \
		/sys/class/net/rcn1/rdmachan/mode /sys/class/net/rcn1/rdmachan/src \
		/sys/class/net/rcn1/mtu /sys/class/net/rcn1/rdmachan/loss_timeout_ms | tr '\n' ' ' | sed 's/ $//')"
check "both connected again within 20 s" wait_for 20 both_up
check_eq "config save now writes the same file" "$(grep -v -e '--queues' -e '^net' $CONF)" \
	"$($TOOL config show | grep -v -e '--queues' -e '^net')"

# ---- a line that fails -----------------------------------------------------
B3=$(nullb_new admin3 16)
printf '%s\n' "# one line fails, the rest is done" \
	"blk map $BLK_SRV:7471 nosuch" "blk export cfg2 $B3 --ro --allow 192.0.2.2" > $T/bad.conf
check_fail "config restore of a file with a failing line exits 1, naming it" \
	"bad.conf:2: failed" $TOOL config restore --file $T/bad.conf
check "... and still runs the line after it" test -d /sys/class/rdmachan_blk/ctl/exports/cfg2
check_fail "a line with options before its object is refused" \
	"without options" sh -c "echo '-j blk show' | $TOOL config restore --file -"

# ---- the identity guards the data -------------------------------------------
B2=$(nullb_new admin2 64)
check "blk unexport --force cfg under its mapping" $TOOL blk unexport --force cfg
check "the mapping is dead within 30 s" wait_for 30 blk_map_state_is "$D2" dead
check "another device of the same size exported as cfg" \
	$TOOL blk export cfg "$B2" --allow 192.0.2.0/24
check "... has another export_id" sh -c \
	"[ \"\$(cat /sys/class/rdmachan_blk/ctl/exports/cfg/export_id)\" != $ID ]"
check_fail "blk remap refuses it: another device under that name (ESTALE)" \
	"another device under that name" $TOOL blk remap "$D2"
check "the by-id name stays the old device's" link_to "$BYID" "$D2"

# ---- clean up --------------------------------------------------------------
$TOOL blk unexport cfg2 > /dev/null 2>&1
$TOOL net del rcn1 > /dev/null 2>&1
$TOOL net del rcn0 > /dev/null 2>&1
check "blk unmap the restored disk" $TOOL blk unmap --force "$D2"
check "blk unexport cfg" $TOOL blk unexport cfg
check "udevd ends" udevd_stop
rm -rf /etc/rdmachan
check "everything unloads" sh -c \
	"$RMMOD rdmachan_net && $RMMOD rdmachan_blk && $RMMOD rdmachan"
done_testing
