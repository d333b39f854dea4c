# SPDX-License-Identifier: GPL-2.0-only
#
# tests/vm/lib/chan.sh: the message channel (sourced by /tests/lib.sh):
# rdmachan.ko loaded and unloaded, the devices it lists, its listeners
# and channels as sysfs shows them; any rdma_cm listener, and rping's
# exit status.

rdmachan_load() {
	$MODPROBE rdmachan "$@"
}

rdmachan_unload() {
	$RMMOD rdmachan
}

# rdmachan_devices: names of the devices rdmachan lists, space-separated
rdmachan_devices() {
	$TOOL -j dev list | jq -r '[.[].name] | join(" ")'
}

# cm_listening ADDR PORT: an rdma_cm listener on ADDR:PORT, any program's
# or the kernel's, in either port space, as "rdma res show cm_id" lists it
cm_listening() {
	rdma res show cm_id 2>/dev/null | grep LISTEN | grep -q "src-addr $1:$2 "
}

# rping_rc RC FILE: rdma-core's rping's exit RC, but 0 for its exit at
# the end of a good run: before rdma-core v59 (f3ae6534a, "rping:
# terminate CM event thread before exiting"; Debian 12 has v44) its CM
# thread, handed the last event, may call rdma_get_cm_event() again after
# the main thread destroyed the channel, and exits 255 with EBADF.  Only
# that, as the last line of FILE (rping's output), and no other complaint.
rping_rc() {
	if [ "$1" = 255 ] &&
	   [ "$(tail -n 1 "$2")" = "rdma_get_cm_event: Bad file descriptor" ] &&
	   ! grep -Eq 'fail|error|mismatch|wait for' "$2"; then
		diag "rping exited 255 after its last event (rdma-core's race before v59): counted as 0" >&2
		echo 0
		return
	fi
	echo "$1"
}

# listening PORT: an rdmachan listener on PORT shows in sysfs
listening() {
	grep -qs ":$1\$" /sys/class/rdmachan/listener*/src_addr
}

# chan_connected_to PORT: a channel whose peer is on PORT is connected
chan_connected_to() {
	for _f in $(grep -ls ":$1\$" /sys/class/rdmachan/chan*/dst_addr); do
		[ "$(cat "${_f%/dst_addr}/state" 2>/dev/null)" = connected ] &&
			return 0
	done
	return 1
}

# chan_poll_modes: the poll modes of every channel, each once, on one line
chan_poll_modes() {
	cat /sys/class/rdmachan/chan*/poll_mode | sort -u | tr '\n' ' ' | sed 's/ $//'
}
