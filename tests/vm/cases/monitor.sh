#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The events (module/chan/uevent.c) as "rdmachan monitor" prints them
# (Documentation/debugging.rst, "Events"), three monitors at once: all
# objects as text, all as JSON, and channels only.  While they run:
#
#   chan     a listener takes a client's two messages; both channels and
#            the listener come and go.
#   outage   with a /dev channel, a block mapping and a network pair up
#            over rxe1, "rdma link delete rxe1", then "rdma link add":
#            the device is removed and added, the channels fail, the
#            mapping's and the interfaces' links are lost and come back,
#            the carriers go off and on.
#   flap     veth1 down and up: rxe1's port goes down and up (the wire's
#            routes, which the kernel drops with veth1, are put back).
#   teardown the mapping unmapped; once the server's session ended (a flap
#            that failed the client's channels leaves the server's until
#            their keepalive fails), the export unexported; the
#            interfaces deleted (the interfaces are up, in this
#            namespace: a netdev's uevents go to its own).
#
# Then every event appears once and in order:
#   - each channel: "added" first, with its state; then state changes
#     that make one chain from it; "removed" last, in the last state;
#   - each listener, interface and mapping: added (mapped) first and
#     removed (unmapped) last, once each;
#   - rxe1: removed, then added, once each; during the flap its port lines
#     are as many as rdmachan counted port events (port_events), a down
#     and an up after it among them;
#   - each link (the mapping's, each interface's): its lines are its
#     tracepoints' (rdmachan_link_state and _attempt), one for one, in
#     order: lost, each failed attempt, back (dead: stopped at deletion);
#   - each interface's carrier alternates on and off: on, off at the loss,
#     on when back, off at its deletion;
#   - the JSON monitor printed the same events (object, name, in order),
#     each a JSON object; the channels-only monitor the channel lines.
#
# On Debian's kernels and the debug kernel (lockdep checks the order of
# the event queue's locks against the channels'), over rxe.
requires() {
	_have_kernel stock 6.12 debug
}

. /tests/lib.sh

SRV=192.0.2.1
CLI=192.0.2.2
T=/tmp/monitor
mkdir -p $T
TR=/sys/kernel/tracing

check "rxe pair comes up" rxe_pair_up
check "rdmachan and rdmachan_blk load" blk_load
check "rdmachan_net loads" $MODPROBE rdmachan_net
check "tracefs is mounted" sh -c \
	"[ -e $TR/trace ] || mount -t tracefs nodev $TR"
echo 0 > $TR/tracing_on
echo > $TR/trace
check "the link events enable" sh -c \
	"echo 1 > $TR/events/rdmachan/rdmachan_link_state/enable &&
	 echo 1 > $TR/events/rdmachan/rdmachan_link_attempt/enable"
echo 1 > $TR/tracing_on

BG_SECS=900 bg mon $TOOL monitor
BG_SECS=900 bg monj $TOOL -j monitor
BG_SECS=900 bg monc $TOOL monitor chan
check "the three monitors listen" wait_for 20 sh -c \
	"grep -q listening $T/mon.err && grep -q listening $T/monj.err &&
	 grep -q listening $T/monc.err" ||
	diag "$(cat $T/mon.err $T/monj.err $T/monc.err)"

# rdev_dir DEV: rdmachan's directory of the RDMA device DEV
rdev_dir() {
	grep -lx "$1" /sys/class/rdmachan/dev*/name 2>/dev/null | head -n 1 |
		xargs -r dirname
}

# ---- chan: a listener and two channels ----------------------------------
bg recv $TOOL chan recv $SRV:7701 -c 2
wait_for 10 listening 7701
check "a client sends two messages" sh -c \
	"printf 'alpha\nbravo\n' | $TOOL chan connect $SRV:7701 --src $CLI"
wait $PID_recv
check_eq "the server took them" "0 alpha bravo" \
	"$? $(tr '\n' ' ' < $T/recv.out | sed 's/ $//')"

# ---- outage: rxe1 removed and added under a channel, a mapping, a pair ----
bg recv2 $TOOL chan recv $SRV:7702 -c 9
wait_for 10 listening 7702
mkfifo $T/in
BG_SECS=300 bg conn sh -c "$TOOL chan connect $SRV:7702 --src $CLI < $T/in"
exec 7> $T/in
echo one >&7
wait_for 10 sh -c "grep -qx one $T/recv2.out"
B=$(nullb_new monitor 64)
check "blk export monitor $B" $TOOL blk export monitor "$B" --allow 192.0.2.0/24
D=$(timeout 60 $TOOL blk map $BLK_SRV monitor --src $BLK_CLI \
	--reconnect-delay 300 --loss-timeout 120000 2> $T/map.err)
check "blk map monitor ($D)" test -b "$D"
check "net add rcn0 listen, rcn1 connect" sh -c \
	"$TOOL net add rcn0 listen $SRV --peer $CLI --reconnect-delay 200 &&
	 $TOOL net add rcn1 connect $SRV --src $CLI --reconnect-delay 200"
# up (sysfs has a carrier for running interfaces only), in this
# namespace: a netdev's uevents go to its own
check "rcn0 and rcn1 up" sh -c "$IP link set rcn0 up && $IP link set rcn1 up"
carrier() { [ "$(cat /sys/class/net/$1/carrier 2>/dev/null)" = "$2" ]; }
check "both carriers on" wait_for 30 sh -c \
	"[ \"\$(cat /sys/class/net/rcn0/carrier)\" = 1 ] &&
	 [ \"\$(cat /sys/class/net/rcn1/carrier)\" = 1 ]"
check "rdma link delete $DEV1" rxe_del $DEV1
check "the mapping reconnects" wait_for 30 blk_map_state_is "$D" reconnecting
check "rcn1's carrier goes off" wait_for 30 carrier rcn1 0
sleep 1
check "rdma link add $DEV1" rxe_add $DEV1 veth1
check "the mapping is live again" wait_for 60 blk_map_state_is "$D" live
check "both carriers on again" wait_for 60 sh -c \
	"[ \"\$(cat /sys/class/net/rcn0/carrier)\" = 1 ] &&
	 [ \"\$(cat /sys/class/net/rcn1/carrier)\" = 1 ]"
exec 7>&-
wait $PID_conn
kill $PID_recv2 2>/dev/null
wait $PID_recv2

# ---- flap: rxe1's port down and up --------------------------------------
R1=$(rdev_dir $DEV1)
port_down() { ! grep -q ACTIVE /sys/class/infiniband/$DEV1/ports/1/state; }
sleep 1
pe0=$(cat "$R1/port_events" 2>/dev/null)
at0=$(wc -l < $T/mon.out)
check "veth1 down" $IP link set veth1 down
check "$DEV1's port goes down" wait_for 10 port_down
check "veth1 up" $IP link set veth1 up
check "$DEV1's port comes up" wait_for 20 port_active $DEV1
check "the wire's routes and neighbours are back" wire_links_up

# ---- teardown -------------------------------------------------------------
check "blk unmap $D" $TOOL blk unmap "$D"
# a flap that failed the client's channels (a slow host) leaves the
# server's up until their keepalive fails: the export is idle after that
check "the export's session ends" wait_for 30 blk_export_idle monitor
# unexport NAME: blk unexport NAME; when refused, what the server holds
unexport() {
	$TOOL blk unexport "$1" && return
	_rc=$?
	echo "$1 holds $(blk_export_attr "$1" sessions) sessions, $(blk_export_attr "$1" channels) channels"
	return $_rc
}
check "blk unexport monitor" unexport monitor
check "net del rcn1, rcn0" sh -c "$TOOL net del rcn1 && $TOOL net del rcn0"
check "the last event arrives" wait_for 20 grep -q '^net rcn0: removed' $T/mon.out
check "no channel is left" wait_for 20 sh -c \
	"! ls /sys/class/rdmachan | grep -q '^chan'"
sleep 2
pe1=$(cat "$R1/port_events" 2>/dev/null)
kill $PID_mon $PID_monj $PID_monc 2>/dev/null
wait $PID_mon $PID_monj $PID_monc
echo 0 > $TR/tracing_on
diag "$(wc -l < $T/mon.out) events; the first: $(head -n 1 $T/mon.out)"

# ---- every event once, in order -------------------------------------------
# chain: each channel added, its changes one chain from the added state,
# removed last in the state it reached; what is wrong, printed
chain() {
	awk '
	function bad(m) { print m ": " $0; err = 1 }
	$1 != "chan" { next }
	{ n = $2; sub(/:$/, "", n); r = $0; sub(/^[a-z]* [^ ]*: /, "", r) }
	# an id is used again once its channel is gone: a new life
	r ~ /^added: / {
		if (seen[n] && !gone[n]) bad("added twice")
		seen[n] = 1; gone[n] = 0
		split(r, a, /[:,] */); st[n] = a[2]; next
	}
	!seen[n] || gone[n] { bad("outside its life"); next }
	r ~ /^removed: / {
		split(r, a, /[:,] */)
		if (a[2] != st[n]) bad("removed in another state")
		gone[n] = 1; next
	}
	{ split(r, w, / /); if (w[1] != st[n] || w[2] != "->") bad("not a chain"); st[n] = w[3] }
	END {
		for (n in seen) if (!gone[n]) { print "never removed: " n; err = 1 }
		exit err
	}' $T/mon.out
}
check "each channel: added, one chain of state changes, removed" chain
check "the channels failed by the removal say so" \
	grep -q '^chan chan[0-9]*: connected -> failed' $T/mon.out
check "the first client's channel: added on $DEV1 with its peer" \
	grep -q "^chan chan[0-9]*: added: connected, $DEV1 qpn [1-9][0-9]*, peer $SRV:7701\$" $T/mon.out

# once NAME FIRST LAST: NAME's first line is FIRST, its last LAST, each once
once() {
	_l=$(grep "^[a-z]* $1: " $T/mon.out | sed 's/^[a-z]* [^ ]*: //')
	[ "$(echo "$_l" | head -n 1)" = "$2" ] &&
		[ "$(echo "$_l" | tail -n 1)" = "$3" ] &&
		[ "$(echo "$_l" | grep -c "^$2\$")" = 1 ] &&
		[ "$(echo "$_l" | grep -c "^$3\$")" = 1 ] ||
		{ echo "$_l"; return 1; }
}
check "each listener: added first, removed last, once" sh -c \
	"[ \$(grep -c '^listener listener[0-9]*: added: on $SRV:770[12]\$' $T/mon.out) = 2 ] &&
	 [ \$(grep -c '^listener listener[0-9]*: removed: on $SRV:770[12]\$' $T/mon.out) = 2 ]"
for n in rcn0 rcn1; do
	check "$n: added first, removed last, once" once $n added removed
done
bn=${D#/dev/}
check "$bn: mapped first, unmapped last, once" \
	once "$bn" "mapped export monitor on $SRV:7471" unmapped

check_eq "$DEV1: removed, then added" "removed added" \
	"$(sed -n "s/^dev $DEV1: \(removed\|added\)\$/\1/p" $T/mon.out | tr '\n' ' ' | sed 's/ $//')"
# the flap's port lines: as many as rdmachan counted, a down, then an up
tail -n +$((at0 + 1)) $T/mon.out | grep "^dev $DEV1: port 1 " > $T/port.txt
check_eq "the flap: one port line for each of rdmachan's port events" \
	"$((pe1 - pe0))" "$(grep -c . $T/port.txt)"
check "the flap: the port down, then up" sh -c \
	"sed -n '/port 1 down\$/,\$p' $T/port.txt | grep -q 'port 1 up\$'"

# link NAME: NAME's link lines as the trace says them, one a line:
# "lost", "attempt N", "back N"; from the monitor and from the trace
link_mon() {
	sed -n "s/^[a-z]* $1: //p" $T/mon.out | awk '
	/^link lost/ { print "lost" }
	/^attempt [0-9]* / { print "attempt " $2 }
	/^live after / { print "back " $3 }
	/^dead after / { print "dead " $3 }
	/^reconnecting stopped after / { print "dead " $4 }'
}
link_trace() {
	sed -n "s/.*rdmachan_link_[a-z]*: $1 //p" $TR/trace | awk '
	$1 == "LIVE" && $3 == "RECONNECTING" { print "lost"; next }
	$1 == "attempt" && $6 != "0" { print "attempt " $2; next }
	$1 == "attempt" { next }
	$3 == "LIVE" { print "back " $7; next }
	$3 == "DEAD" { print "dead " $7 }'
}
for n in $bn rcn1 rcn0; do
	link_mon $n > $T/link-$n.mon
	link_trace $n > $T/link-$n.trace
	diag "$n: $(tr '\n' ',' < $T/link-$n.mon)"
	check "$n: the link's lines are its tracepoints', in order" sh -c \
		"cmp -s $T/link-$n.mon $T/link-$n.trace || { paste $T/link-$n.mon $T/link-$n.trace; false; }"
done
check "$bn's link was lost and came back" sh -c \
	"grep -qx lost $T/link-$bn.mon && grep -q '^back ' $T/link-$bn.mon"
check "rcn1's link was lost and came back" sh -c \
	"grep -qx lost $T/link-rcn1.mon && grep -q '^back ' $T/link-rcn1.mon"
# on at the start, off at the loss, on when back, off at the deletion
for n in rcn0 rcn1; do
	check_eq "$n: the carrier alternates, from on to off, through the loss" \
		"ok" "$(sed -n "s/^net $n: carrier //p" $T/mon.out | awk '
			{ if ($1 != (NR % 2 ? "on" : "off")) bad = 1; s = s " " $1 }
			END { print (!bad && !(NR % 2) && NR >= 4) ? "ok" : "bad:" s }')"
done

jq -c 'select(type != "object")' $T/monj.out > $T/notobj.txt 2>&1
check "every JSON line is an object" test ! -s $T/notobj.txt
check_eq "the JSON monitor saw the same events, in order" \
	"$(awk '{ sub(/:$/, "", $2); print $1, $2 }' $T/mon.out | md5sum)" \
	"$(jq -r '.object + " " + .name' $T/monj.out | md5sum)"
check_eq "JSON: a channel's failure has its numbers" "number number" \
	"$(jq -r 'select(.object == "chan" and .state == "failed" and .old_state == "connected") | "\(.error | type) \(.qpn | type)"' $T/monj.out | head -n 1)"
check_eq "the channels-only monitor saw the channel lines" \
	"$(grep '^chan ' $T/mon.out | md5sum)" "$(md5sum < $T/monc.out)"
check "the monitors lost nothing" sh -c \
	"! grep -q lost $T/mon.err $T/monj.err $T/monc.err"
done_testing
