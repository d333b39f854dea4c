#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Debug tier (guest side), between two cases that share a VM
# (tests/run-debug.sh runs several cases a VM): take down what the case
# before left, so that the next one finds the VM as a fresh boot has it,
# but for the modules loaded and kmemleak's state.
#
#   - what is mounted under /tmp and /mnt is unmounted;
#   - rdmachan and its users unload (a module that does not is a test
#     failure: the cases unload their modules themselves, so this finds
#     a reference left behind);
#   - null_blk's configfs devices go, then null_blk and brd;
#   - every soft-RDMA device and every veth pair goes, and the routing
#     rules of the wire: the next case's rxe_pair_up makes them anew,
#     without the block cases' RPS setting (wire_fifo) or a device a case
#     added;
#   - the kernel log since the case checked it (done_testing) is checked,
#     and the log is cleared, so that the next case's checks of the log
#     ("dmesg | grep -q ...") see only its own lines.
. /tests/lib.sh

AFTER=${PREV_CASE:-the case before}
NULLB=/sys/kernel/config/nullb

unmount_all() {
	awk '$2 ~ "^/(tmp|mnt)/" { print $2 }' /proc/mounts | sort -r |
		while read -r _m; do
			umount "$_m" || exit 1
		done
}

# ours: loaded modules named rdmachan*, those nothing uses first, round
# by round (four at most: blk and net over rdmachan need two)
unload_ours() {
	_round=0
	while [ "$_round" -lt 4 ]; do
		_left=$(awk '$1 ~ /^rdmachan/ { print $1, $3 }' /proc/modules)
		[ -n "$_left" ] || return 0
		printf '%s\n' "$_left" | while read -r _mod _users; do
			[ "$_users" != 0 ] || $RMMOD "$_mod"
		done
		_round=$((_round + 1))
	done
	_left=$(awk '$1 ~ /^rdmachan/ { print $1 }' /proc/modules)
	[ -z "$_left" ] || { echo "still loaded: $_left"; return 1; }
}

nullb_down() {
	if [ -d $NULLB ]; then
		for _d in "$NULLB"/*/; do
			[ -d "$_d" ] || continue
			echo 0 > "$_d/power" && rmdir "$_d" || return 1
		done
	fi
	! module_loaded null_blk || $RMMOD null_blk || return 1
	! module_loaded brd || $RMMOD brd
}

fixture_down() {
	for _d in /sys/class/infiniband/*; do
		[ -e "$_d" ] || continue
		$RDMA link delete "${_d##*/}" || return 1
	done
	# a pair goes with either end
	for _v in $($IP -o link show type veth | sed -n 's/^[0-9]*: \([^@:]*\).*/\1/p'); do
		$IP link show "$_v" > /dev/null 2>&1 || continue
		$IP link delete "$_v" || return 1
	done
	# wire_routes_up's rules (their routes went with the veths)
	for _p in 100 101; do
		! $IP rule show pref $_p | grep -q . || $IP rule del pref $_p || return 1
	done
	if $IP rule show pref 1000 | grep -q .; then
		$IP rule add pref 0 lookup local && $IP rule del pref 1000
	fi
}

check "after $AFTER: what it mounted is unmounted" unmount_all
check "after $AFTER: rdmachan and its users unload" unload_ours
check "after $AFTER: its null_blk devices go, null_blk and brd unload" nullb_down
check "after $AFTER: its RDMA devices and veth pairs go" fixture_down
klog_clean "after $AFTER: the kernel log since the case checked it is clean" klog_unchecked
dmesg -c > /dev/null
echo "1..$T_N" >&3
