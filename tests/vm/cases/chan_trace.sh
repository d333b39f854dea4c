#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The channel's tracepoints (module/chan/chan_trace.h), enabled through
# tracefs, and the queue pair numbers that join a channel with "rdma res":
# while a client sends three messages of 5, 6 and 7 bytes to a server and
# closes, each side's events come complete and in order (the client's
# rdma_cm resolution and ESTABLISHED, CONNECTING -> CONNECTED, three
# sends, -> DISCONNECTED; the server's CONNECTED and three DATA arrivals
# of those lengths, in order, then -> DISCONNECTED last), every one under
# its channel's queue pair number; that number is the channel's sysfs
# qpn, chan show's, the lqpn of an RC queue pair of its device in "rdma
# res show qp", and of rdmachan's rdma_cm identifier in "rdma res show
# cm_id".  Under chan_test grant (shrink_idle_ms 300), idle channels'
# grant events retire credits, a RETIRE message goes and arrives for each,
# and unread channels' grants grow.  A one-sided WRITE traces its post,
# then its completion.  With the events disabled nothing more is traced.
# Dynamic debug ("module rdmachan +p"): a connection logs each side's
# queues, its start with what was negotiated, and its queue pair's drain;
# turned off, none of those lines (on Debian's kernels: the debug
# kernel's config has no dynamic debug).

# On Debian's kernel and the debug kernel (tracefs in both), over rxe
requires() {
	_have_kernel stock debug
}

. /tests/lib.sh

SRV=192.0.2.1
CLI=192.0.2.2
T=/tmp/chan_trace
mkdir -p $T
TR=/sys/kernel/tracing

check "tracefs is mounted" sh -c \
	"[ -e $TR/trace ] || mount -t tracefs nodev $TR"
check "rxe pair comes up" rxe_pair_up
check "rdmachan loads" rdmachan_load
check "rdmachan's events are listed" sh -c \
	"ls $TR/events/rdmachan | grep -q '^rdmachan_chan_state\$'"
echo 0 > $TR/tracing_on
echo > $TR/trace
check "its events enable" sh -c "echo 1 > $TR/events/rdmachan/enable"
echo 1 > $TR/tracing_on

# chan_named ROLE: the sysfs name of the channel of that role (active:
# the client's, passive: the server's)
chan_named() {
	grep -l "^$1\$" /sys/class/rdmachan/chan*/role 2>/dev/null |
		sed -n 's|.*/\(chan[0-9]*\)/role|\1|p' | head -n 1
}

bg recv $TOOL chan recv $SRV:7701 -c 3
wait_for 10 listening 7701
mkfifo $T/in
bg conn sh -c "$TOOL chan connect $SRV:7701 --src $CLI < $T/in"
exec 7> $T/in
echo alpha >&7
echo bravo2 >&7
wait_for 10 sh -c "grep -qs '^passive\$' /sys/class/rdmachan/chan*/role &&
		   grep -qs '^active\$' /sys/class/rdmachan/chan*/role"
cli=$(chan_named active)
srv=$(chan_named passive)
cqpn=$(cat /sys/class/rdmachan/$cli/qpn 2>/dev/null)
sqpn=$(cat /sys/class/rdmachan/$srv/qpn 2>/dev/null)
cdev=$(cat /sys/class/rdmachan/$cli/dev_name 2>/dev/null)
sdev=$(cat /sys/class/rdmachan/$srv/dev_name 2>/dev/null)
diag "client $cli $cdev qpn $cqpn, server $srv $sdev qpn $sqpn"
check "both channels have a queue pair number" \
	sh -c "[ '${cqpn:-0}' -gt 0 ] && [ '${sqpn:-0}' -gt 0 ]"
rdma res show qp > $T/qp.txt 2>&1
rdma res show cm_id > $T/cm.txt 2>&1
# a QP number is its device's: the line of link DEV/1 with that lqpn
for e in "$cdev $cqpn" "$sdev $sqpn"; do
	set -- $e
	check "rdma res show qp lists $2 of $1 as an RC queue pair" \
		sh -c "grep '^link $1/[0-9]* lqpn $2 ' $T/qp.txt | grep -q 'type RC' ||
			{ cat $T/qp.txt; false; }"
	check "rdma res show cm_id lists rdmachan's identifier of it" \
		sh -c "grep '^link $1/[0-9]* ' $T/cm.txt | grep 'lqpn $2 ' | grep -q 'rdmachan' ||
			{ cat $T/cm.txt; false; }"
done
check "chan show prints the server's queue pair number" sh -c \
	"$TOOL chan show $srv | grep -q ' qpn $sqpn\$'"
check_eq "chan show -j has it" "$sqpn" \
	"$($TOOL -j chan show $srv | jq -r '.[0].qpn')"
echo charlie >&7
exec 7>&-
wait $PID_recv
check_eq "the server takes the three messages" "0 alpha bravo2 charlie" \
	"$? $(tr '\n' ' ' < $T/recv.out | sed 's/ $//')"
wait $PID_conn
wait_for 10 sh -c "! ls /sys/class/rdmachan | grep -q chan"
echo 0 > $TR/tracing_on
grep ' rdmachan_chan_' $TR/trace > $T/trace.txt
diag "$(wc -l < $T/trace.txt) events"

# life CHAN QPN: the channel's events, one a line, as "event: text"
# without the channel and queue pair, each line checked to carry QPN
life() {
	awk -v c="chan$1" -v q="$2" '
		{ for (i = 1; i <= NF; i++) if ($i ~ /^rdmachan_chan_/) break
		  ev = $i; sub(/^rdmachan_chan_/, "", ev); sub(/:$/, "", ev) }
		$(i + 1) != c { next }
		# no queue pair yet at the resolution events
		$(i + 2) != "qpn" || ($(i + 3) != q &&
			!(ev == "cm" && $(i + 3) == 0)) { print "WRONG-QPN " $0; next }
		{ s = ""; for (j = i + 4; j <= NF; j++) s = s " " $j
		  print ev ":" s }' $T/trace.txt
}
life "${cli#chan}" "$cqpn" > $T/cli.txt
life "${srv#chan}" "$sqpn" > $T/srv.txt
check "no event of theirs under another queue pair number" \
	sh -c "! grep -q WRONG-QPN $T/cli.txt $T/srv.txt || { cat $T/cli.txt $T/srv.txt; false; }"
check_eq "the client: resolved, established, connected, three sends, disconnected, in order" \
	"cm: ADDR_RESOLVED|cm: ROUTE_RESOLVED|cm: ESTABLISHED|state: ESTABLISHED: CONNECTING -> CONNECTED|send: 5|send: 6|send: 7|state: DISCONNECTED" \
	"$(grep -v '^recv:' $T/cli.txt | sed -n \
		-e 's/^\(cm: [A-Z_]*\) status 0$/\1/p' \
		-e 's/^\(state: [A-Z]*: [A-Z]* -> CONNECTED\) err 0$/\1/p' \
		-e 's/^state: [A-Z]*: CONNECTED -> \(DISCONNECTED\) err 0$/state: \1/p' \
		-e 's/^send: DATA seq [0-9]* len \([0-9]*\) credits [0-9]*$/send: \1/p' |
		grep -v '^cm: DISCONNECTED\|^cm: TIMEWAIT_EXIT' | paste -sd '|')"
check_eq "its sends are numbered 0, 1, 2" "0 1 2" \
	"$(sed -n 's/^send: DATA seq \([0-9]*\) .*/\1/p' $T/cli.txt | paste -sd ' ')"
# (the first message may complete before rdma_cm's ESTABLISHED event)
check_eq "the server: connected, then disconnected last" \
	"state: CONNECTED|state: DISCONNECTED" \
	"$(sed -n -e 's/^state: [A-Z]*: CONNECTING -> \(CONNECTED\) err 0$/state: \1/p' \
		-e 's/^state: [A-Z]*: CONNECTED -> \(DISCONNECTED\) err 0$/state: \1/p' \
		-e '$s/^state: [A-Z]*: CONNECTED -> \(DISCONNECTED\) err 0$/last/p' \
		$T/srv.txt | grep -v '^last$' | paste -sd '|')"
check_eq "its last event is that disconnection" "DISCONNECTED" \
	"$(tail -n 1 $T/srv.txt | sed -n 's/^state: [A-Z]*: CONNECTED -> \(DISCONNECTED\) err 0$/\1/p')"
check_eq "between, three DATA arrivals of 5, 6 and 7 bytes, in order" \
	"5 6 7" "$(sed -n 's/^recv: DATA len \([0-9]*\) credits [0-9]*$/\1/p' $T/srv.txt | paste -sd ' ')"

# grants: chan_test grant (chan_grant.c's case, its own checks) with the
# events on: idle channels retire credits, unread ones grow them back
old_idle=$(cat /sys/module/rdmachan/parameters/shrink_idle_ms)
echo 300 > /sys/module/rdmachan/parameters/shrink_idle_ms
echo > $TR/trace
echo 1 > $TR/tracing_on
run_checks $HELPERS/chan_test grant
echo 0 > $TR/tracing_on
echo "$old_idle" > /sys/module/rdmachan/parameters/shrink_idle_ms
grep ' rdmachan_chan_' $TR/trace > $T/trace2.txt
# sums: the credits the grant events retired, the RETIRE messages sent and
# received, the grow events
awk '/ rdmachan_chan_grant: .* retire / { for (i = 1; i < NF; i++)
		if ($i == "retire") { r += $(i + 1) + 0; break } }
     / rdmachan_chan_send: .* RETIRE / { s++ }
     / rdmachan_chan_recv: .* RETIRE / { v++ }
     / rdmachan_chan_grant: .* grow / { g++ }
     END { print r + 0, s + 0, v + 0, g + 0 }' $T/trace2.txt > $T/sums
read -r nret nsent nrecv ngrow < $T/sums
diag "grant events: $nret credits retired, $nsent RETIRE sent, $nrecv taken, $ngrow grows"
check "idle channels retire credits" test "$nret" -gt 0
check_eq "a RETIRE message goes for each credit retired, and arrives" \
	"$nret $nret" "$nsent $nrecv"
check "unread channels' grants grow back" test "$ngrow" -gt 0

# one-sided: a WRITE posted, then its completion (on a wire that keeps
# order, as one-sided operations need: wire_fifo)
check "the wire delivers each flow in order" wire_fifo
bg reg timeout 60 $TOOL -j mr reg $SRV:7705 --size 64k -n 10
wait_for 10 listening 7705
echo > $TR/trace
echo 1 > $TR/tracing_on
check "a one-sided WRITE goes" \
	$TOOL rdma write $SRV:7705 --src $CLI --offset 100 --data hello
echo 0 > $TR/tracing_on
kill $PID_reg 2>/dev/null
wait $PID_reg 2>/dev/null
grep ' rdmachan_chan_rdma' $TR/trace | sed 's/.* rdmachan_chan_/rdmachan_chan_/' > $T/trace3.txt
# (its channel's registrations, a fencing LOCAL_INV first, are requests
# of their own around it)
wch=$(sed -n 's/^rdmachan_chan_rdma: \(chan[0-9]*\) qpn [0-9]* WRITE .*/\1/p' $T/trace3.txt | head -n 1)
sed -n "s/^rdmachan_chan_\(rdma[a-z_]*\): ${wch:-none} qpn [0-9]* /\1: /p" $T/trace3.txt |
	paste -sd '|' > $T/wch.txt
check "its channel traces the WRITE posted, then its completion" sh -c \
	"grep -q 'rdma: WRITE nr 1 posted 1 err 0|rdma_done: nr 1 status 0' $T/wch.txt ||
	 { cat $T/wch.txt; false; }"
check "every request of it completes with status 0" sh -c \
	"! tr '|' '\n' < $T/wch.txt | grep '^rdma_done:' | grep -qv 'status 0\$'"

# disabled, nothing more is traced
echo 0 > $TR/events/rdmachan/enable
echo > $TR/trace
echo 1 > $TR/tracing_on
bg recv2 $TOOL chan recv $SRV:7702 -c 1
wait_for 10 listening 7702
check "a message goes with the events disabled" \
	$TOOL chan send $SRV:7702 --src $CLI delta
wait $PID_recv2
echo 0 > $TR/tracing_on
check_eq "and leaves no event of rdmachan's" 0 "$(grep -c ' rdmachan_chan_' $TR/trace)"
echo > $TR/trace

# dynamic debug: the slow paths' lines, off until asked for (Debian's
# kernels have it; the debug kernel's config leaves it out)
DDC=/sys/kernel/debug/dynamic_debug/control
[ -e $DDC ] || mount -t debugfs none /sys/kernel/debug 2>/dev/null
if [ -e $DDC ]; then
	check "dynamic debug of rdmachan turns on" sh -c "echo 'module rdmachan +p' > $DDC"
	n0=$(dmesg | wc -l)
	bg recv3 $TOOL chan recv $SRV:7703 -c 1
	wait_for 10 listening 7703
	check "a message goes with it on" $TOOL chan send $SRV:7703 --src $CLI echo
	wait $PID_recv3
	wait_for 10 sh -c "! ls /sys/class/rdmachan | grep -q chan"
	dmesg | tail -n +$((n0 + 1)) > $T/dyndbg.txt
	check "each side logs its queues, and its start with what was negotiated" sh -c \
		"grep -q 'channel [0-9]*: queues on rxe[01]: send [0-9]*, receive' $T/dyndbg.txt &&
		 grep -q 'channel [0-9]*: connected: wire version [0-9]* features' $T/dyndbg.txt &&
		 grep -q 'channel [0-9]*: accepted: wire version [0-9]* features' $T/dyndbg.txt ||
		 { cat $T/dyndbg.txt; false; }"
	check "and the drain of its queue pair" sh -c \
		"grep -q 'channel [0-9]*: queue pair [0-9]* drained in [0-9]* ms' $T/dyndbg.txt"
	check "dynamic debug of rdmachan turns off" sh -c "echo 'module rdmachan -p' > $DDC"
	n0=$(dmesg | wc -l)
	bg recv4 $TOOL chan recv $SRV:7704 -c 1
	wait_for 10 listening 7704
	check "a message goes with it off" $TOOL chan send $SRV:7704 --src $CLI foxtrot
	wait $PID_recv4
	check_eq "and logs none of those lines" 0 \
		"$(dmesg | tail -n +$((n0 + 1)) | grep -c ': queues on rxe\|wire version\|drained in')"
else
	diag "no dynamic debug in this kernel: its checks run on Debian's"
fi
check "rdmachan unloads" rdmachan_unload
done_testing
