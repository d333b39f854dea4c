# SPDX-License-Identifier: GPL-2.0-only
#
# tests/vm/lib/blk.sh: the block channel (blk_*.sh, sourced by
# /tests/lib.sh): null_blk devices to export, the mappings' and exports'
# attributes and counters, data patterns and fio verifying behind a
# case's faults, device-mapper devices (blk_drain.sh, blk_fence.sh), and
# nvmet and nvme-rdma for make bench's block rows.
#
# One VM is both hosts: the server exports a null_blk device on
# $BLK_SRV (192.0.2.1, rxe0) and the client maps it from $BLK_CLI
# (192.0.2.2, rxe1) as /dev/rcblkN.

BLK_SRV=192.0.2.1
BLK_CLI=192.0.2.2
# busybox's dd and cmp lack oflag=direct and cmp -n: coreutils' and
# diffutils' are called by path
BLOCKDEV=/usr/sbin/blockdev
DD=/usr/bin/dd
CMP=/usr/bin/cmp
FIO=/usr/bin/fio

# blk_load [PARAM=VALUE...]: the in-order wire, rdmachan (with the module
# parameters given) and rdmachan_blk
blk_load() {
	wire_fifo && rdmachan_load "$@" && $MODPROBE rdmachan_blk
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

# blk_map_show_state DEV: the mapping DEV's state as "blk show -j" says it
blk_map_show_state() {
	$TOOL -j blk show maps | jq -r --arg d "$1" '.maps[] | select(.dev == $d) | .state'
}

# blk_map_export EXPORT ARGS...: maps export EXPORT of $BLK_SRV from
# $BLK_CLI with ARGS and sets D to its device (an ok line), or ends the
# case saying why (blk_bail)
blk_map_export() {
	_x=$1
	shift
	D=$(timeout 60 $TOOL blk map $BLK_SRV "$_x" --src $BLK_CLI "$@" 2> /tmp/blk_map.err)
	[ -b "$D" ] || { diag "$(cat /tmp/blk_map.err)"; blk_bail "no mapping"; }
	ok "blk map $* ($D)"
}

# blk_link_trace_on: the trace restarts with the mappings' link events
# alone (rdmachan:rdmachan_link_state, _attempt, _fast_fail)
blk_link_trace_on() {
	_tr=/sys/kernel/tracing
	[ -e $_tr/trace ] || mount -t tracefs nodev $_tr || return 1
	echo 0 > $_tr/tracing_on
	echo 0 > $_tr/events/enable
	echo > $_tr/trace
	echo 1 > $_tr/events/rdmachan/rdmachan_link_state/enable &&
	echo 1 > $_tr/events/rdmachan/rdmachan_link_attempt/enable &&
	echo 1 > $_tr/events/rdmachan/rdmachan_link_fast_fail/enable &&
	echo 1 > $_tr/tracing_on
}

# blk_link_trace DEV: the trace's lines of DEV's link, from "rcblkN " on
blk_link_trace() {
	sed -n "s/.*rdmachan_link_[a-z_]*: \($(basename "$1") .*\)/\1/p" \
		/sys/kernel/tracing/trace
}

# blk_counter DEV KEY: counter KEY of the mapping DEV (client side)
blk_counter() {
	$TOOL -j blk show maps | jq -r --arg d "$1" ".maps[] | select(.dev == \$d) | .counters.$2"
}

# blk_export_counter NAME KEY: counter KEY of export NAME (server side)
blk_export_counter() {
	$TOOL -j blk show exports | jq -r --arg n "$1" ".exports[] | select(.name == \$n) | .counters.$2"
}

# blk_export_attr NAME ATTR: sysfs attribute ATTR of export NAME
blk_export_attr() {
	cat "/sys/class/rdmachan_blk/ctl/exports/$1/$2" 2>/dev/null
}

# blk_export_idle NAME: export NAME holds no session (a client's unmap
# reaches the server after it returns: wait_for it before an unexport)
blk_export_idle() {
	[ "$(blk_export_attr "$1" sessions)" = 0 ]
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
		for _s in credits_granted send_credits ctrl_waits; do
			_l="$_l $_s $(cat $_c/$_s)"
		done
		diag "$_l"
	done
	_m=/sys/block/${1##*/}/rdmachan
	_l="${1##*/}:"
	for _s in remote_inv local_inv starved busy posts_now batched_replies; do
		_l="$_l $_s $(cat $_m/$_s)"
	done
	diag "$_l"
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

# block_is DEV BLOCK FILE: 4 KiB block BLOCK of DEV holds FILE's bytes
block_is() {
	$DD if="$1" bs=4k skip="$2" count=1 iflag=direct 2>/dev/null | $CMP -s - "$3"
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

# ---- nvmet and nvme-rdma (make bench's block rows) ---------------------------

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

# nvme_disk_wait NQN: nvme_disk once there is one (10 s for the
# controller, 5 more for its block device); fails without
nvme_disk_wait() {
	wait_for 10 nvme_disk "$1" && _nw=$(nvme_disk "$1") &&
		wait_for 5 test -b "$_nw" && echo "$_nw"
}
