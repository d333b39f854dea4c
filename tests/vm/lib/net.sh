# SPDX-License-Identifier: GPL-2.0-only
#
# tests/vm/lib/net.sh: the network channel (net_*.sh, sourced by
# /tests/lib.sh).
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
