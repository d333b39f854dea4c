# SPDX-License-Identifier: GPL-2.0-only
#
# tests/vm/lib/pair.sh: the two-VM fixture (tests/vm/run-pair.sh; sourced
# by /tests/lib.sh).
#
# Two VMs, each one host with one software RDMA device on its virtio NIC
# eth0, linked point to point (a qemu socket netdev over 127.0.0.1): the
# server (rdmachan_role=server: 192.0.2.1, 2001:db8::1, $DEV0) and the
# client (192.0.2.2, 2001:db8::2, $DEV1).  A case written for it has both
# halves and runs the one its VM's role names.  The client asks the host
# to kill, boot, freeze and thaw the server over its control line
# (host_do); the server says "ready" there once it serves, then waits for
# "finish".

PAIR_ROLE=${rdmachan_role:-}
PAIR_SRV=192.0.2.1
PAIR_CLI=192.0.2.2
PAIR_SRV6=2001:db8::1
PAIR_CLI6=2001:db8::2
# the MACs tests/vm/run-pair.sh gives the two NICs
PAIR_SRV_MAC=52:54:00:00:00:01
PAIR_CLI_MAC=52:54:00:00:00:02

# pair_up: this VM's end of the link (IPv6 too where the kernel has it:
# Debian's) and its RDMA device on it
pair_up() {
	if [ "$PAIR_ROLE" = server ]; then
		_a=$PAIR_SRV _a6=$PAIR_SRV6 _d=$DEV0
		_p=$PAIR_CLI _p6=$PAIR_CLI6 _pmac=$PAIR_CLI_MAC
	else
		_a=$PAIR_CLI _a6=$PAIR_CLI6 _d=$DEV1
		_p=$PAIR_SRV _p6=$PAIR_SRV6 _pmac=$PAIR_SRV_MAC
	fi
	hostname "rdmachan-$PAIR_ROLE"
	# modules on Debian's kernel (no udev here to load them), built in
	# on the debug one
	$MODPROBE virtio_pci 2>/dev/null
	$MODPROBE virtio_net 2>/dev/null
	wait_for 10 test -e /sys/class/net/eth0 ||
		{ diag "pair_up: no eth0 (no virtio NIC?)"; return 1; }
	rxe_modules_up || return 1
	# the peer's neighbour entries are permanent, as wire_neighbours_up
	# makes them on one VM: rdma_cm retries a first resolution only at
	# its timeout, and a first connect then timed out now and then
	$IP link set eth0 up && $IP addr add $_a/24 dev eth0 &&
		$IP neigh replace $_p lladdr $_pmac dev eth0 nud permanent ||
		return 1
	if [ -d /proc/sys/net/ipv6 ]; then
		$IP -6 addr add $_a6/64 dev eth0 nodad &&
			$IP -6 neigh replace $_p6 lladdr $_pmac dev eth0 nud permanent ||
			return 1
	fi
	rxe_add $_d eth0
}

# ctl_open: the control line to the host (ttyS2) as fd 4, raw and without
# echo, so that what the host writes is read back as it was written
ctl_open() {
	stty -F /dev/ttyS2 raw -echo && exec 4<>/dev/ttyS2
}

# host_do REQUEST...: ask the host (run-pair.sh) for REQUEST ("server
# kill", "server start", ...) and wait for its answer, HOST_WAIT seconds
# at most (default 200): 0 when it says "ok"; its answer in HOST_REPLY
host_do() {
	echo "$*" >&4
	HOST_REPLY=
	if read -r -t "${HOST_WAIT:-200}" HOST_REPLY <&4; then
		HOST_REPLY=$(printf '%s' "$HOST_REPLY" | tr -d '\r')
	else
		HOST_REPLY="no answer within ${HOST_WAIT:-200} s"
	fi
	[ "$HOST_REPLY" = ok ]
}
