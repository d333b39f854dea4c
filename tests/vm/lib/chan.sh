# SPDX-License-Identifier: GPL-2.0-only
#
# tests/vm/lib/chan.sh: the message channel (sourced by /tests/lib.sh):
# rdmachan.ko loaded and unloaded, the devices it lists, its listeners
# and channels as sysfs shows them.

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
