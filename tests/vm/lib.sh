# SPDX-License-Identifier: GPL-2.0-only
#
# Guest-side test library, sourced by every script in /tests/cases.
#
# Results go to fd 3 (the VM's second serial port, read by the host) as
# KTAP: "ok N - what" / "not ok N - what", diagnostics as "# ..." lines,
# and a closing plan "1..N" from done_testing.  They are echoed to the
# console too, so a person watching sees them.

RESULTS=${RESULTS:-/dev/ttyS1}
exec 3>>"$RESULTS"

# busybox sh runs its own applets before PATH: call real tools by path.
IP=/usr/sbin/ip
RDMA=/usr/bin/rdma
MODPROBE=/usr/sbin/modprobe
RMMOD=/usr/sbin/rmmod
TOOL=/usr/bin/rdmachan
HELPERS=/usr/libexec/rdmachan
T_N=0
T_FAILED=0

# The software RDMA driver of the fixture: rxe (RoCE, the default) or siw
# (iWARP), from the kernel command line (rdmachan_rdma=siw).  Its two
# devices are $DEV0 on veth0 (192.0.2.1) and $DEV1 on veth1 (192.0.2.2);
# the C helpers read the same names from the environment.
RDMA_DRIVER=${rdmachan_rdma:-rxe}
DEV0=${RDMA_DRIVER}0
DEV1=${RDMA_DRIVER}1
export DEV0 DEV1 RDMA_DRIVER

t_result() {
	T_N=$((T_N + 1))
	echo "$1 $T_N - $2" >&3
	echo "$1 $T_N - $2"
}

ok() { t_result ok "$*"; }
not_ok() { T_FAILED=$((T_FAILED + 1)); t_result "not ok" "$*"; }

diag() {
	printf '%s\n' "$*" | sed 's/^/# /' >&3
	printf '%s\n' "$*" | sed 's/^/# /'
}

# check DESC CMD [ARGS...]: passes when CMD exits 0.
check() {
	_d=$1
	shift
	_out=$("$@" 2>&1)
	_rc=$?
	if [ "$_rc" = 0 ]; then
		ok "$_d"
	else
		not_ok "$_d"
		diag "command: $* (exit $_rc)"
		diag "$_out"
	fi
}

# check_fail DESC REGEX CMD [ARGS...]: passes when CMD exits non-zero and
# its output (stdout and stderr) matches the extended regular expression.
check_fail() {
	_d=$1
	_re=$2
	shift 2
	if _out=$("$@" 2>&1); then
		not_ok "$_d"
		diag "command: $* succeeded, expected failure"
		diag "$_out"
	elif printf '%s\n' "$_out" | grep -Eq -- "$_re"; then
		ok "$_d"
	else
		not_ok "$_d"
		diag "command: $* failed without matching /$_re/"
		diag "$_out"
	fi
}

# check_eq DESC EXPECTED ACTUAL
check_eq() {
	if [ "$2" = "$3" ]; then
		ok "$1"
	else
		not_ok "$1"
		diag "expected: $2"
		diag "actual:   $3"
	fi
}

# wait_for SECONDS CMD [ARGS...]: retry CMD every 0.1 s until it succeeds.
wait_for() {
	_n=$(($1 * 10))
	shift
	while [ "$_n" -gt 0 ]; do
		"$@" >/dev/null 2>&1 && return 0
		sleep 0.1
		_n=$((_n - 1))
	done
	return 1
}

# proc_ended PID...: each process PID has ended: no such process, or a
# zombie.
# A case's background job that exits while the case waits inside check
# (its command substitution runs in a subshell) stays a zombie until
# check returns, since only the case's own shell can reap it: kill -0
# alone would see it alive for as long as the wait lasts.
proc_ended() {
	for _p in "$@"; do
		kill -0 "$_p" 2>/dev/null || continue
		grep -q '^State:[[:space:]]*Z' "/proc/$_p/status" 2>/dev/null || return 1
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
		$IP route add 192.0.2.1 dev veth1 src 192.0.2.2 table 100 &&
		$IP route add 192.0.2.2 dev veth0 src 192.0.2.1 table 101 &&
		$IP rule add pref 1000 lookup local &&
		$IP rule del pref 0 lookup local &&
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

rdmachan_load() {
	$MODPROBE rdmachan "$@"
}

rdmachan_unload() {
	$RMMOD rdmachan
}

module_loaded() {
	[ -d "/sys/module/$1" ]
}

# Lines in the kernel log that fail any test run (an OOM kill ends the
# case's processes: the report in the log says why).
KLOG_BAD='Out of memory|invoked oom-killer|BUG:|WARNING:|Oops|general protection|hung_task|blocked for more than|UBSAN:|KASAN:|suspected memory leak|circular locking|inconsistent lock state|refcount_t:|list_(add|del) corruption'

# The line done_testing adds to the kernel log once it checked it, and
# klog_unchecked: the log after the last such line (all of it without
# one), what fixture_reset checks between two cases of one VM.
KLOG_CHECKED='rdmachan-test: the log above was checked'
klog_unchecked() {
	dmesg | awk -v m="$KLOG_CHECKED" '{ l[NR] = $0 } index($0, m) { n = NR }
		END { for (i = n + 1; i <= NR; i++) print l[i] }'
}

# klog_clean TITLE CMD: a test that the kernel log CMD prints (dmesg,
# klog_unchecked) has none of KLOG_BAD; when it has, its end follows as
# diagnostics.  Returns 1 then.
klog_clean() {
	if $2 | grep -qE "$KLOG_BAD"; then
		not_ok "$1"
		diag "$($2 | tail -n 80)"
		return 1
	fi
	ok "$1"
}

# done_testing: check the kernel log and print the plan.  Every case ends
# with it.  The log is the case's own when it shares the VM with others
# (the debug tier): fixture_reset clears it between them.
done_testing() {
	if klog_clean "kernel log is clean (no bug, warning, oops, lockdep or KASAN report)" dmesg; then
		# what the module and the drivers said, for failures above
		[ "$T_FAILED" -eq 0 ] ||
			diag "$(dmesg | grep -E 'rdmachan|rxe|siw' | tail -n 40)"
	fi
	echo "$KLOG_CHECKED" > /dev/kmsg
	echo "1..$T_N" >&3
}

# run_checks CMD [ARGS...]: run a helper that reports in KTAP
# (tests/vm/helpers/ktap.h: "ok N - what", "not ok N - what # detail",
# "# ..." lines, a closing plan "1..N") and report each of its results as
# a test of this case, with the same title.  Its "# " lines and anything
# else it prints become diagnostics.  A helper that reports nothing,
# whose plan is missing or does not match its results, or that exits
# non-zero without a failed result, is a failure too.
run_checks() {
	read -r _t0 _ < /proc/uptime
	_out=$("$@" 2>&1)
	_rc=$?
	read -r _t1 _ < /proc/uptime
	_seen=0
	_failed=0
	_plan=
	while IFS= read -r _line; do
		case "$_line" in
		"ok "*) ok "${_line#ok [0-9]* - }"; _seen=$((_seen + 1)) ;;
		"not ok "*)
			not_ok "${_line#not ok [0-9]* - }"
			_seen=$((_seen + 1))
			_failed=1
			;;
		"1.."*) _plan=${_line#1..} ;;
		"KTAP version "*) ;;
		"# "*) diag "${_line#\# }" ;;
		*) [ -n "$_line" ] && diag "$_line" ;;
		esac
	done <<EOT
$_out
EOT
	if [ "$_seen" = 0 ] || [ "$_plan" != "$_seen" ] ||
	   { [ "$_rc" != 0 ] && [ "$_failed" = 0 ]; }; then
		not_ok "$1 ran to completion"
		diag "exit status $_rc, plan ${_plan:-none}, $_seen results"
	fi
	# what each step costs, for choosing where cases run (testing.rst)
	diag "$(basename "$1") ${2:-} took $(awk "BEGIN { printf \"%.1f\", $_t1 - $_t0 }") s"
}

# perf_top DATA LINES: the top of "perf report" of DATA by object and
# symbol (the benches' profiles; perf is in the initramfs only with
# RDMACHAN_EXTRA_PROGRAMS=/usr/bin/perf)
# cpu_snap [STAT]: each CPU's busy and idle jiffies ("cpuN BUSY IDLE"),
# from /proc/stat (or STAT, "-" for stdin: another host's); cpu_busy
# BEFORE [AFTER]: each CPU's busy share between the snapshot in file
# BEFORE and the one in AFTER (default: now), on one line ("cpu0 41%
# cpu1 95%")
cpu_snap() { awk '/^cpu[0-9]/ { print $1, $2 + $3 + $4 + $7 + $8, $5 + $6 }' "${1:-/proc/stat}"; }
cpu_busy() {
	{ if [ -n "${2:-}" ]; then cat "$2"; else cpu_snap; fi; } |
		awk 'NR == FNR { b[$1] = $2; i[$1] = $3; next }
		{ d = $2 - b[$1]; t = d + $3 - i[$1]
		  printf "%s%s %d%%", sep, $1, t ? 100 * d / t : 0; sep = " " }
		END { print "" }' "$1" -
}

perf_top() {
	/usr/bin/perf report -i "$1" --stdio --no-children --sort dso,sym \
		2>/dev/null | grep -v '^#' | grep -v '^$' | head -n "$2"
}

# listening PORT: an rdmachan listener on PORT shows in sysfs
listening() {
	grep -qs ":$1\$" /sys/class/rdmachan/listener*/src_addr
}

# bg NAME CMD...: run CMD in the background, killed after 60 s so that a
# hang fails the case instead of stalling it; its output goes to
# $T/NAME.out and $T/NAME.err, its pid to $PID_NAME.
bg() {
	_n=$1
	shift
	timeout 60 "$@" > "${T:-/tmp}/$_n.out" 2> "${T:-/tmp}/$_n.err" &
	eval "PID_$_n=$!"
}

# rdmachan_devices: names of the devices rdmachan lists, space-separated
rdmachan_devices() {
	$TOOL -j dev list | jq -r '[.[].name] | join(" ")'
}

# ---- The two-VM fixture (tests/vm/run-pair.sh) ----------------------------
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

# ---- The block channel (blk_*.sh) -----------------------------------------
#
# One VM is both hosts: the server exports a null_blk device on
# $BLK_SRV (192.0.2.1, rxe0) and the client maps it from $BLK_CLI
# (192.0.2.2, rxe1) as /dev/rcblkN.
BLK_SRV=192.0.2.1
BLK_CLI=192.0.2.2
BLOCKDEV=/usr/sbin/blockdev
DD=/usr/bin/dd
CMP=/usr/bin/cmp
FIO=/usr/bin/fio

blk_load() {
	wire_fifo && rdmachan_load && $MODPROBE rdmachan_blk
}

blk_unload() {
	$RMMOD rdmachan_blk && $RMMOD rdmachan
}

# nullb_new NAME SIZE_MB [ATTR=VALUE...]: a memory-backed null_blk device
# made through configfs (module parameters give whole GiB only), with
# the null_blk attributes given (discard=1, cache_size=16, blocksize=4096);
# prints its path, /dev/nullb_NAME (6.1 names the disk after the configfs
# directory).  Failures are reported as diagnostics.
nullb_new() {
	_nb=/sys/kernel/config/nullb/nullb_$1
	_sz=$2
	shift 2
	if [ ! -d /sys/kernel/config/nullb ]; then
		$MODPROBE configfs 2>/dev/null
		grep -q ' /sys/kernel/config ' /proc/mounts ||
			mount -t configfs configfs /sys/kernel/config ||
			{ diag "nullb_new: cannot mount configfs"; return 1; }
		module_loaded null_blk || $MODPROBE null_blk nr_devices=0 ||
			{ diag "nullb_new: cannot load null_blk"; return 1; }
	fi
	mkdir "$_nb" || { diag "nullb_new: mkdir $_nb failed"; return 1; }
	for _a in size="$_sz" memory_backed=1 "$@" power=1; do
		echo "${_a#*=}" > "$_nb/${_a%%=*}" ||
			{ diag "nullb_new: $_a failed"; return 1; }
	done
	wait_for 5 test -b "/dev/${_nb##*/}" ||
		{ diag "nullb_new: no /dev/${_nb##*/}"; return 1; }
	echo "/dev/${_nb##*/}"
}

# dev_sum DEV: md5 of the whole device, read past the page cache's copy
# (the server writes the backing device with bios, not through it)
dev_sum() {
	$BLOCKDEV --flushbufs "$1" 2>/dev/null
	$DD if="$1" bs=1M iflag=direct 2>/dev/null | md5sum | cut -d' ' -f1
}

# nvmet_up NQN DEV ADDR: an nvmet subsystem NQN (any host) with DEV as
# namespace 1, on rdma port 1 at ADDR:4420 (make bench's block rows)
nvmet_up() {
	_s=/sys/kernel/config/nvmet/subsystems/$1
	_p=/sys/kernel/config/nvmet/ports/1
	mkdir $_s && echo 1 > $_s/attr_allow_any_host &&
		mkdir $_s/namespaces/1 &&
		echo -n "$2" > $_s/namespaces/1/device_path &&
		echo 1 > $_s/namespaces/1/enable &&
		mkdir $_p && echo rdma > $_p/addr_trtype &&
		echo ipv4 > $_p/addr_adrfam && echo "$3" > $_p/addr_traddr &&
		echo 4420 > $_p/addr_trsvcid &&
		ln -s $_s $_p/subsystems/$1
}

# nvmet_down NQN: undo nvmet_up
nvmet_down() {
	rm -f /sys/kernel/config/nvmet/ports/1/subsystems/$1
	rmdir /sys/kernel/config/nvmet/ports/1 \
		/sys/kernel/config/nvmet/subsystems/$1/namespaces/1 \
		/sys/kernel/config/nvmet/subsystems/$1
}

# nvme_disk NQN: the namespace disk of our controller of subsystem NQN,
# /dev/nvmeXnY
nvme_disk() {
	for _c in /sys/class/nvme/nvme*; do
		[ "$(cat $_c/subsysnqn 2>/dev/null)" = "$1" ] || continue
		# the namespace's disk, nvmeXnY, not a multipath path's hidden
		# nvmeXcZnY (and not _n: wait_for's counter)
		for _nd in /sys/block/nvme*n*; do
			case "${_nd##*/}" in
			*c*) ;;
			*) [ -e "$_nd" ] && { echo "/dev/${_nd##*/}"; return 0; } ;;
			esac
		done
	done
	return 1
}

# blk_chan_stats DEV: each channel's message and credit counters and the
# mapping DEV's dispatch counters, as diagnostics
blk_chan_stats() {
	for _c in /sys/class/rdmachan/chan*; do
		[ -d "$_c/stats" ] || continue
		_l="${_c##*/}:"
		for _s in msgs_tx msgs_rx credit_msgs_tx credit_stalls; do
			_l="$_l $_s $(cat $_c/stats/$_s)"
		done
		diag "$_l"
	done
	_m=/sys/block/${1##*/}/rdmachan
	_l="${1##*/}:"
	for _s in remote_inv local_inv starved busy; do
		_l="$_l $_s $(cat $_m/$_s)"
	done
	diag "$_l"
}

# blk_maps [JQ_FILTER]: the mappings of "rdmachan -j blk show maps"
blk_maps() {
	$TOOL -j blk show maps | jq -c "${1:-.maps}"
}

# blk_map_attr DEV NAME: sysfs attribute NAME of the mapping DEV
# (/sys/block/rcblkN/rdmachan/NAME)
blk_map_attr() {
	cat "/sys/block/${1#/dev/}/rdmachan/$2" 2>/dev/null
}

# blk_map_state_is DEV STATE: the mapping DEV is in STATE (live,
# reconnecting, dead)
blk_map_state_is() {
	[ "$(blk_map_attr "$1" state)" = "$2" ]
}

# blk_counter DEV KEY: counter KEY of the mapping DEV (client side)
blk_counter() {
	$TOOL -j blk show maps | jq -r --arg d "$1" ".maps[] | select(.dev == \$d) | .counters.$2"
}

# blk_export_counter NAME KEY: counter KEY of export NAME (server side)
blk_export_counter() {
	$TOOL -j blk show exports | jq -r --arg n "$1" ".exports[] | select(.name == \$n) | .counters.$2"
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

# pattern_put NAME MIB: 1 MiB of random data (kept as $T/NAME.pat, $T the
# case's directory) written to the disk $D at MIB MiB, direct and synced;
# pattern_back NAME MIB: it reads back the same
pattern_put() {
	head -c 1048576 /dev/urandom > $T/$1.pat
	$DD if=$T/$1.pat of="$D" bs=64k seek=$(($2 * 16)) oflag=direct conv=fsync
}
pattern_back() {
	$DD if="$D" bs=64k skip=$(($2 * 16)) count=16 iflag=direct 2>/dev/null |
		cmp - $T/$1.pat
}

# fio_verify_start SECS: a verifying writer on the disk $D, in the
# background (its pid in fio_pid, its output in $T/fio.out): random writes
# of 4k-64k, crc32c verified behind them, QD32, two jobs over the first
# 64 MiB, until fio_verify_stop or SECS seconds
fio_verify_start() {
	timeout "$1" $FIO --name=verify --filename="$D" --direct=1 \
		--ioengine=libaio --iodepth=32 --numjobs=2 --size=32M \
		--offset_increment=32M --rw=randwrite --bsrange=4k-64k \
		--verify=crc32c --verify_backlog=512 --verify_fatal=1 \
		--time_based --runtime=100000 --group_reporting \
		> $T/fio.out 2>&1 &
	fio_pid=$!
}

# fio_verify_stop: SIGINT to it; it must end within 120 s, stopped by the
# signal, with no I/O error or verify failure
fio_verify_stop() {
	kill -INT $fio_pid 2>/dev/null
	if wait_for 120 sh -c "! kill -0 $fio_pid 2>/dev/null"; then
		wait $fio_pid
		_rc=$?
		# fio's status for "stopped by a signal" is 128; an error is 1
		check_eq "fio ends stopped by SIGINT (128), with no I/O error or verify failure" 128 $_rc
		check "fio's summary says err= 0" grep -q 'err= 0:' $T/fio.out
		[ $_rc = 128 ] || blk_io_failed $T/fio.out
	else
		not_ok "fio ends within 120 s of SIGINT"
		kill -9 $fio_pid 2>/dev/null
	fi
}

# blk_io_failed FIO_OUT: what a failed fio run and the kernel said, as
# diagnostics (rdmachan, rxe and the disks; not the I/O errors)
blk_io_failed() {
	diag "$(grep -E 'err=|error|fio:|verify' "$1" | head -n 8)"
	diag "$(dmesg | grep -E 'rxe|rdmachan|rcblk|queue' |
		grep -vE 'registering|I/O error|timed out' | tail -n 16)"
}

# blk_bail WHY: the rest of the case depends on what just failed: say
# so, close the plan and end the case
blk_bail() {
	diag "skipping the rest of the case: $*"
	diag "$(dmesg | grep -E 'rdmachan(_blk)?:|rcblk|null_blk' | tail -n 30)"
	done_testing
	exit 0
}

# ---- The network channel (net_*.sh) -----------------------------------------
#
# One VM is both hosts: rcn0 listens on 192.0.2.1 (rxe0), rcn1 connects
# from 192.0.2.2 (rxe1); each interface goes into a network namespace of
# its own (rcA: 10.77.0.1, fd77::1; rcB: 10.77.0.2, fd77::2), so that
# what one sends to the other crosses the channel, not the loopback.

net_load() {
	rdmachan_load && $MODPROBE rdmachan_net
}

# net_ns_up: the namespaces, the interfaces moved there, addressed, up
net_ns_up() {
	$IP netns add rcA && $IP netns add rcB &&
		$IP link set rcn0 netns rcA && $IP link set rcn1 netns rcB &&
		$IP -n rcA link set lo up && $IP -n rcB link set lo up &&
		$IP -n rcA addr add 10.77.0.1 peer 10.77.0.2 dev rcn0 &&
		$IP -n rcB addr add 10.77.0.2 peer 10.77.0.1 dev rcn1 &&
		$IP -n rcA -6 addr add fd77::1/64 dev rcn0 nodad &&
		$IP -n rcB -6 addr add fd77::2/64 dev rcn1 nodad &&
		$IP -n rcA link set rcn0 up && $IP -n rcB link set rcn1 up
}

# net_carrier NS DEV: DEV in namespace NS is up with its carrier on
net_carrier() {
	$IP -n "$1" -o link show "$2" 2>/dev/null | grep -q 'LOWER_UP'
}

net_no_carrier() {
	! net_carrier "$@"
}

net_carrier_both() {
	net_carrier rcA rcn0 && net_carrier rcB rcn1
}

# chan_poll_modes: the poll modes of every channel, each once, on one line
chan_poll_modes() {
	cat /sys/class/rdmachan/chan*/poll_mode | sort -u | tr '\n' ' ' | sed 's/ $//'
}

# net_stat NS DEV FIELD: a counter of ip -s link (statistics/FIELD)
net_stat() {
	$IP netns exec "$1" cat "/sys/class/net/$2/statistics/$3" 2>/dev/null || echo -1
}

# net_bad_counters: errors and drops of rcn0 and rcn1, on one line
net_bad_counters() {
	for _nd in rcA:rcn0 rcB:rcn1; do
		for _f in rx_errors tx_errors rx_dropped tx_dropped; do
			printf '%s=%s ' "${_nd#*:}.$_f" "$(net_stat "${_nd%%:*}" "${_nd#*:}" "$_f")"
		done
	done
}

# net_sysfs NS DEV ATTR: /sys/class/net/DEV/rdmachan/ATTR
net_sysfs() {
	$IP netns exec "$1" cat "/sys/class/net/$2/rdmachan/$3" 2>/dev/null
}

# net_rx_over NS DEV BYTES: DEV received more than BYTES
net_rx_over() {
	[ "$(net_stat "$1" "$2" rx_bytes)" -gt "$3" ]
}

# net_stream_run DESC PORT FLOWS BYTES SECONDS: FLOWS TCP streams of
# BYTES from rcA to rcB (tests/vm/helpers/net_stream.c), each checked
# byte for byte at the far end; one test
net_stream_run() {
	_d=$1
	_o=${T:-/tmp}/stream_$2
	$IP netns exec rcB timeout "$5" $HELPERS/net_stream server "$2" "$3" "$5" \
		> "$_o.srv" 2>&1 &
	_s=$!
	wait_for 5 sh -c "grep -q listening $_o.srv"
	_t0=$(date +%s)
	$IP netns exec rcA timeout "$5" $HELPERS/net_stream client 10.77.0.2 "$2" \
		"$3" "$4" "$5" > "$_o.cli" 2>&1
	_c=$?
	wait $_s
	_sr=$?
	diag "$_d: $(($(date +%s) - _t0)) s; $(tail -n 1 "$_o.cli")"
	if [ "$_c" = 0 ] && [ "$_sr" = 0 ] &&
	   [ "$(grep -c ', ok$' "$_o.srv")" = "$3" ]; then
		ok "$_d"
	else
		not_ok "$_d"
		diag "client (exit $_c): $(tail -n 5 "$_o.cli")"
		diag "server (exit $_sr): $(tail -n 5 "$_o.srv")"
		diag "$(dmesg | grep -E 'rdmachan|rcn' | tail -n 10)"
	fi
}

# ---- device-mapper (blk_drain.sh, blk_fence.sh) ------------------------------

DMSETUP="env DM_DISABLE_UDEV=1 /usr/sbin/dmsetup"

# dm_new NAME TABLE: a device-mapper device (no udev: libdevmapper makes
# /dev/mapper/NAME itself); prints its path
dm_new() {
	module_loaded dm_mod || $MODPROBE dm-mod ||
		{ diag "dm_new: cannot load dm-mod"; return 1; }
	$DMSETUP create "$1" --table "$2" >&2 ||
		{ diag "dm_new: dmsetup create $1 failed"; return 1; }
	wait_for 5 test -b "/dev/mapper/$1" ||
		{ diag "dm_new: no /dev/mapper/$1"; return 1; }
	echo "/dev/mapper/$1"
}

# blk_export_attr NAME ATTR: sysfs attribute ATTR of export NAME
blk_export_attr() {
	cat "/sys/class/rdmachan_blk/ctl/exports/$1/$2" 2>/dev/null
}

# block_is DEV BLOCK FILE: 4 KiB block BLOCK of DEV holds FILE's bytes
block_is() {
	$DD if="$1" bs=4k skip="$2" count=1 iflag=direct 2>/dev/null | $CMP -s - "$3"
}
