#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Block recovery between two hosts for real (the two-VM fixture,
# tests/vm/run-pair.sh; Documentation/testing.rst, "Two hosts"): a server
# VM exports its virtio disk, the client VM maps it over the link, and
#
#   depth1  200 reads of 4k one at a time: all but the first few posts
#           run soft-RoCE's work before they return (posts_now), and a
#           random read fio at QD32 has few of its posts do so;
#   killed  the server's qemu is terminated under a verifying fio (random
#           writes of 4k-64k, crc32c, QD32, two jobs), then booted again
#           and the disk exported again: the mapping says "reconnecting"
#           with its attempts and last error (a timed-out attempt, -110)
#           meanwhile, is live once the server serves, fio ends with no
#           error and no verify failure, held requests were resubmitted,
#           and what was written before the kill reads back;
#   frozen  the server's VM is stopped (qemu monitor "stop"): the
#           keepalive finds it, the attempts time out, a read waits, and
#           after "cont" the mapping is live and the read done; stopped
#           again, "blk unmap --force" returns at once;
#   ipv6    (Debian's kernel) the export mapped over IPv6,
#           [2001:db8::1]:7471, reads what was written over IPv4.
#
# The server half exports, says "ready", and at the end checks that the
# client's sessions are gone and that it unexports and unloads cleanly.
#
# Debian's 6.1 kernel only: the debug kernel has neither IPv6 nor a NIC
# driver, and KASAN and lockdep see the same client paths in blk_recover;
# 6.12 adds nothing that blk_recover does not reach there.

requires() {
	_two_hosts
	_have_kernel stock
}

. /tests/lib.sh

T=/tmp/blk_pair
mkdir -p $T

# ---- the server's half ------------------------------------------------------
server_half() {
	pair_up && ok "the server's end of the link comes up" ||
		{ not_ok "the server's end of the link comes up"; blk_bail "no link"; }
	check "rdmachan and rdmachan_blk load" sh -c \
		"$MODPROBE rdmachan && $MODPROBE rdmachan_blk"
	$MODPROBE virtio_blk 2>/dev/null
	wait_for 10 test -b /dev/vda && ok "the server has its disk" ||
		{ not_ok "the server has its disk"; blk_bail "no disk"; }
	# --stable-id: the identity a client checks when it reconnects must
	# not depend on the disk sequence number of this boot
	check "blk export pair /dev/vda --stable-id (IPv4 and IPv6 clients)" \
		$TOOL blk export pair /dev/vda --stable-id \
		--allow $PAIR_CLI/32 --allow $PAIR_CLI6/128
	check "it listens on [::]:7471 (IPv6 and IPv4)" sh -c \
		"dmesg | grep -q 'rdmachan_blk: listening on \[::\]:7471'"
	ctl_open || blk_bail "no control line"
	echo ready >&4
	while read -r _cmd <&4; do
		[ "$(printf '%s' "$_cmd" | tr -d '\r')" = finish ] && break
	done
	# the client unmapped; the sessions of a client that vanished (the
	# frozen server's, once thawed) end with their keepalive
	check "no session is left once the client is gone (30 s)" \
		wait_for 30 sh -c "[ \"\$($TOOL -j blk show exports | jq '.exports[0].sessions')\" = 0 ]"
	diag "$($TOOL -sd blk show exports)"
	check "blk unexport pair" $TOOL blk unexport pair
	check "rdmachan_blk and rdmachan unload" blk_unload
	done_testing
}

# ---- the client's half -------------------------------------------------------

# attr NAME: the mapping's sysfs attribute NAME
attr() {
	cat "/sys/block/${D#/dev/}/rdmachan/$1" 2>/dev/null
}

state_is() {
	[ "$(attr state)" = "$1" ]
}

# map ADDR ARGS...: map the export at ADDR (sets D), or end the case
map() {
	_a=$1
	shift
	D=$(timeout 60 $TOOL blk map "$_a" pair "$@" 2> $T/map.err)
	[ -b "$D" ] || { diag "$(cat $T/map.err)"; blk_bail "no mapping"; }
	ok "blk map $_a pair $* ($D)"
}

# ask_host WHAT REQUEST...: ask the host, as the check WHAT
ask_host() {
	_w=$1
	shift
	if host_do "$@"; then
		ok "$_w"
	else
		not_ok "$_w"
		diag "host: $*: $HOST_REPLY"
		return 1
	fi
}

# lost_and_counted WHAT: the mapping says reconnecting (30 s at most: the
# keepalive), and then, within 30 s, that an attempt failed: the one under
# way is the second or later, the last error ETIMEDOUT (no one answers)
lost_and_counted() {
	check "$1: the mapping is reconnecting within 30 s" \
		wait_for 30 state_is reconnecting
	check "$1: blk show says so, with attempt N of M" sh -c \
		"$TOOL blk show maps | grep -q 'state reconnecting attempt [0-9]* of [0-9]*'"
	check "$1: an attempt failed, timed out (-110), within 30 s" \
		wait_for 30 attempt_failed
	diag "$1: attempt $(attr attempt), last error $(attr last_error)"
}

attempt_failed() {
	_at=$(attr attempt)
	[ "${_at%% *}" -ge 2 ] && [ "$(attr last_error)" = -110 ]
}

# stuck NAME: the kernel stacks of the processes called NAME
stuck() {
	for _p in /proc/[0-9]*; do
		[ "$(cat $_p/comm 2>/dev/null)" = "$1" ] || continue
		echo "${_p#/proc/} $1: $(tr '\n' ' ' < $_p/stack)"
	done
}

# depth1: when a post runs its provider work at once (blk-client.rst,
# "Where a post's work runs"): at depth 1 to this server, all but the
# first 8 posts and any that a reader of the new disk (udev) overlapped;
# and not under fio's QD32 (at most a tenth of its reads: the first may)
depth1() {
	_p0=$(attr posts_now)
	check "200 reads of 4 KiB, one at a time" \
		dd if="$D" of=/dev/null bs=4k count=200 iflag=direct status=none
	_p1=$(attr posts_now)
	diag "posts_now +$((_p1 - _p0)) over 200 reads at depth 1"
	check "at depth 1 the posts ran their provider work at once (180 of 200)" \
		test $((_p1 - _p0)) -ge 180
	_r0=$(attr reads)
	check "fio randread at QD32, 2 s" timeout 60 $FIO --name=qd32 \
		--filename="$D" --direct=1 --ioengine=libaio --iodepth=32 \
		--rw=randread --bs=4k --size=64M --runtime=2 --time_based \
		--output=$T/qd32.out
	_p2=$(attr posts_now)
	_r1=$(attr reads)
	diag "posts_now +$((_p2 - _p1)) over $((_r1 - _r0)) reads at QD32"
	check "at QD32 few did (a tenth of the reads at most)" \
		test $(((_p2 - _p1) * 10)) -le $((_r1 - _r0))
}

client_half() {
	pair_up && ok "the client's end of the link comes up" ||
		{ not_ok "the client's end of the link comes up"; blk_bail "no link"; }
	check "rdmachan and rdmachan_blk load" sh -c \
		"$MODPROBE rdmachan && $MODPROBE rdmachan_blk"
	ctl_open || blk_bail "no control line"
	ask_host "the server VM serves" server ready || blk_bail "no server"

	# ---- killed ---------------------------------------------------------
	map $PAIR_SRV --queues 2 --reconnect-delay 500 --loss-timeout 180000
	depth1
	check "1 MiB written at 200 MiB" pattern_put before 200
	fio_verify_start 600
	sleep 5
	check "fio runs on the disk" kill -0 $fio_pid
	ask_host "the server's host is killed (qemu terminated)" server kill
	lost_and_counted "server killed"
	check "fio waits, no error yet" kill -0 $fio_pid
	ask_host "the server's host boots again and exports the disk" server start
	check "live again within 60 s of the export" wait_for 60 state_is live
	sleep 5
	check "fio still runs" kill -0 $fio_pid
	fio_verify_stop
	check_eq "no request failed (errors 0)" 0 "$(attr errors)"
	check "held requests were resubmitted (held > 0)" test "$(attr held)" -gt 0
	check "what was written before the kill reads back" pattern_back before 200

	# ---- frozen ---------------------------------------------------------
	ask_host "the server's VM is stopped (frozen)" server stop
	lost_and_counted "server frozen"
	timeout 300 $DD if="$D" of=$T/held.dat bs=64k skip=3200 count=16 \
		iflag=direct > $T/held.out 2>&1 &
	dd_pid=$!
	sleep 2
	check "a read waits while the server is frozen" kill -0 $dd_pid
	ask_host "the server's VM runs again" server cont
	check "live again within 60 s" wait_for 60 state_is live
	if wait_for 30 proc_ended $dd_pid; then
		ok "the read that waited is done (30 s)"
	else
		not_ok "the read that waited is done (30 s)"
		diag "$(stuck dd)"
		diag "inflight $(attr inflight) timeouts $(attr timeouts) held $(attr held)"
		diag "$(dmesg | tail -n 20)"
		wait_for 60 proc_ended $dd_pid
		diag "inflight $(attr inflight) timeouts $(attr timeouts) held $(attr held); dd: $(cat $T/held.out)"
	fi
	check "and it read what is there" cmp $T/held.dat $T/before.pat
	check_eq "no request failed (errors 0)" 0 "$(attr errors)"
	diag "$($TOOL -sd blk show maps)"
	ask_host "the server's VM is stopped again" server stop
	check "reconnecting within 30 s" wait_for 30 state_is reconnecting
	read -r t0 _ < /proc/uptime
	check "blk unmap --force returns at once (10 s) while the server is frozen" \
		timeout 10 $TOOL blk unmap --force "$D"
	read -r t1 _ < /proc/uptime
	diag "unmap --force took $(awk "BEGIN { print $t1 - $t0 }") s"
	ask_host "the server's VM runs again" server cont

	# ---- ipv6 -----------------------------------------------------------
	if [ -d /proc/sys/net/ipv6 ]; then
		map "[$PAIR_SRV6]" --queues 2
		check "blk show names the server [$PAIR_SRV6]:7471" sh -c \
			"$TOOL blk show maps | grep -qF '[$PAIR_SRV6]:7471'"
		check "over IPv6 it reads what was written over IPv4" \
			pattern_back before 200
		check "1 MiB written over IPv6 at 210 MiB" pattern_put six 210
		check "and read back" pattern_back six 210
		check "blk unmap" timeout 60 $TOOL blk unmap "$D"
	fi

	check "the log says the link was lost and came back" sh -c \
		"dmesg | grep -q 'rcblk.*link lost' && dmesg | grep -q 'rcblk.*back: 2 queues'"
	ask_host "the server VM ends (its own checks)" server finish
	done_testing
}

case "$PAIR_ROLE" in
server) server_half ;;
client) client_half ;;
*)
	not_ok "blk_pair runs on the two-VM fixture (rdmachan_role server or client)"
	done_testing
	;;
esac
