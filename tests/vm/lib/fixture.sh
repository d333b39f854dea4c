# SPDX-License-Identifier: GPL-2.0-only
#
# tests/vm/lib/fixture.sh: the one-VM fixture (sourced by /tests/lib.sh):
# two software RDMA devices on a veth pair, the two "hosts" of every case
# (rxe_pair_up), the wire between them (policy routes, neighbours, RPS),
# the kernel modules' presence, the devices' port counters, and udevd
# for the cases of what make install sets up.  Documentation/testing.rst,
# "The fixture" and "The wire", says why it is built so.

# The software RDMA driver of the fixture: rxe (RoCE, the default) or siw
# (iWARP), from the kernel command line (rdmachan_rdma=siw).  Its two
# devices are $DEV0 on veth0 (192.0.2.1) and $DEV1 on veth1 (192.0.2.2);
# the C helpers read the same names from the environment.
RDMA_DRIVER=${rdmachan_rdma:-rxe}
DEV0=${RDMA_DRIVER}0
DEV1=${RDMA_DRIVER}1
export DEV0 DEV1 RDMA_DRIVER

port_active() {
	grep -q ACTIVE "/sys/class/infiniband/$1/ports/1/state" 2>/dev/null
}

# The standard fixture: two soft-RoCE devices on a veth pair, the two
# "hosts" of every test.  crc32_generic must be there before rdma_rxe.
rxe_modules_up() {
	if [ "$RDMA_DRIVER" = siw ]; then
		$MODPROBE siw || return 1
		# iWARP rides on TCP: a vanished peer is noticed when TCP gives
		# up retransmitting, after about 3 s with 3 retries (not 15 min)
		echo 3 > /proc/sys/net/ipv4/tcp_retries2
	else
		$MODPROBE crc32_generic && $MODPROBE rdma_rxe || return 1
	fi
	$MODPROBE rdma_ucm && $MODPROBE ib_uverbs && $MODPROBE veth
}

# Both addresses are local to this one network namespace, so by default
# 192.0.2.2 -> 192.0.2.1 would be routed through lo and rdma_cm would put
# both ends on rxe0.  (rxe in 6.1 only works in the initial namespace, so
# the hosts cannot be split into namespaces.)  Policy routing sends what
# this host originates (iif lo) from one address to the other out of the
# veth, and accept_local lets the far end take packets from a "local"
# source: every channel really crosses the wire, rxe1 <-> rxe0.
wire_routes_up() {
	for _c in all default veth0 veth1; do
		echo 1 > /proc/sys/net/ipv4/conf/$_c/accept_local
		echo 0 > /proc/sys/net/ipv4/conf/$_c/rp_filter
	done
	$IP rule add pref 100 from 192.0.2.2 to 192.0.2.1 iif lo lookup 100 &&
		$IP rule add pref 101 from 192.0.2.1 to 192.0.2.2 iif lo lookup 101 &&
		$IP rule add pref 1000 lookup local &&
		$IP rule del pref 0 lookup local &&
		wire_links_up
}

# wire_links_up: the two routes of wire_routes_up's tables and the
# neighbour entries.  A veth end set down takes its routes and neighbours
# with it, and what its host sends to the other address is routed as
# local again (through lo), as before wire_routes_up.  A case that sets a
# veth end down calls this once it is up again.
wire_links_up() {
	$IP route replace 192.0.2.1 dev veth1 src 192.0.2.2 table 100 &&
		$IP route replace 192.0.2.2 dev veth0 src 192.0.2.1 table 101 &&
		wire_neighbours_up
}

# wire_neighbours_up: permanent neighbour entries for the two addresses.
# rdma_cm's first resolution of a fresh neighbour over this looped-back
# pair is only retried at its timeout (the ARP reply's update does not
# wake it here), so the fixture fills the entries in advance.
wire_neighbours_up() {
	$IP neigh replace 192.0.2.1 lladdr "$(cat /sys/class/net/veth0/address)" \
		dev veth1 nud permanent &&
		$IP neigh replace 192.0.2.2 lladdr "$(cat /sys/class/net/veth1/address)" \
		dev veth0 nud permanent
}

# wire_blackhole on [back] | off: what the client (veth1) sends to the
# server is lost, or not.  The server's address gets a neighbour entry
# with a MAC no one has, so veth0 drops the frames.  (A blackhole route
# does not do it: rxe routes with the device as output interface, and the
# lookup passes over a route with no device; the debug kernel has no
# netem.)  rdma_cm sees the entry change (its netevent notifier) and
# fails the client's connections at once, and the server's replies
# still come back until then, so the requests on the wire may all be
# answered before the loss is acted on.  "back" first loses what the
# server sends to the client, for a second, so that what the client sends
# in that second is on the wire, unanswered, when its connections fail.
wire_blackhole() {
	if [ "$1" = on ]; then
		if [ "${2:-}" = back ]; then
			$IP neigh replace 192.0.2.2 lladdr 02:00:00:00:00:02 \
				dev veth0 nud permanent || return 1
			sleep 1
		fi
		$IP neigh replace 192.0.2.1 lladdr 02:00:00:00:00:01 dev veth1 nud permanent
	else
		wire_neighbours_up
	fi
}

# wire_fifo [MASK]: make the veth pair deliver each flow in order, as a link
# does.  veth hands a packet to the receiving side on the backlog of the
# CPU that sent it, so two packets of one queue pair sent from two CPUs
# (rxe sends from whichever CPU posted, or from its timers) may arrive
# in the other order when one CPU is slow, which under TCG on a loaded
# host happens.  RoCE assumes an in-order path, and rxe breaks without
# it: a spurious retransmission of an RDMA READ request overtaken by the
# SEND_WITH_INV that ends its I/O reaches the responder after the
# registration it reads is gone, and the responder's QP fails silently
# (Documentation/testing.rst, "The wire").  RPS steers each flow (rxe's
# UDP source port is per QP) to one CPU's backlog.  Set by blk_load for
# the block channel's cases and by the cases of one-sided operations
# (rdma_ops, tool_rdma, chan_bench), not by the other message-channel
# cases: with RPS the sending CPU no longer does the receive work, and on
# the debug kernel a message-channel stream then let rxe queue packets
# until the VM ran out of memory.  MASK (hex)
# limits RPS to those CPUs (default: all; the block bench puts the wire's
# work on one CPU).
wire_fifo() {
	_cpus=${1:-$(printf "%x" $(((1 << $(grep -c ^processor /proc/cpuinfo)) - 1)))}
	for _v in veth0 veth1; do
		echo "$_cpus" > /sys/class/net/$_v/queues/rx-0/rps_cpus || return 1
	done
}

# veth_pair_up: the hosts' link, veth0 (192.0.2.1) and veth1 (192.0.2.2),
# routed across (rxe on lo fails rdma_cm's route resolution)
veth_pair_up() {
	$IP link show veth0 >/dev/null 2>&1 && return 0
	$IP link add veth0 type veth peer name veth1 &&
		$IP addr add 192.0.2.1/24 dev veth0 &&
		$IP addr add 192.0.2.2/24 dev veth1 &&
		$IP link set veth0 up && $IP link set veth1 up &&
		wire_routes_up
}

# rxe_add NAME NETDEV: add a software RDMA device ($RDMA_DRIVER: rxe
# unless the VM runs the siw tier) and wait for its port.
rxe_add() {
	$RDMA link add "$1" type "$RDMA_DRIVER" netdev "$2" &&
		wait_for 10 port_active "$1"
}

# rxe_up NAME NETDEV: rxe_add unless the device is there already (a case
# repeated in one VM, see RDMACHAN_REPEAT in tests/run-debug.sh).
rxe_up() {
	if [ -e "/sys/class/infiniband/$1" ]; then
		wait_for 10 port_active "$1"
	else
		rxe_add "$1" "$2"
	fi
}

rxe_del() {
	$RDMA link delete "$1"
}

rxe_pair_up() {
	rxe_modules_up && veth_pair_up && rxe_up $DEV0 veth0 &&
		rxe_up $DEV1 veth1
}

module_loaded() {
	[ -d "/sys/module/$1" ]
}

# hw_counter DEV NAME: one of rxe's port counters (0 when absent)
hw_counter() {
	cat "/sys/class/infiniband/$1/ports/1/hw_counters/$2" 2>/dev/null || echo 0
}

# hw_counter_both NAME: port counter NAME of both ends ($DEV0 + $DEV1)
hw_counter_both() {
	echo $(( $(hw_counter $DEV0 "$1") + $(hw_counter $DEV1 "$1") ))
}

# hw_counters DEV: every port counter of DEV, NAME=VALUE on one line
hw_counters() {
	for _c in /sys/class/infiniband/$1/ports/1/hw_counters/*; do
		printf '%s=%s ' "${_c##*/}" "$(cat "$_c")"
	done
}

# ---- udev (admin.sh, demo.sh) -------------------------------------------------
# udevd_start: udevd with the image's rules (make install-data's among
# them), names resolved (GROUP= needs that); udevd_stop ends it.
UDEVADM=/usr/bin/udevadm
udevd_start() {
	mkdir -p /run/udev &&
		/usr/lib/systemd/systemd-udevd --daemon --resolve-names=early 2> /tmp/udevd.log &&
		wait_for 10 $UDEVADM control --ping
}

udevd_stop() {
	$UDEVADM control --exit 2> /dev/null
	wait_for 10 sh -c "! $UDEVADM control --ping" && rm -rf /run/udev
}

# udev_settled: udevd has handled every event so far
udev_settled() {
	$UDEVADM settle --timeout=20
}
