#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The rdmachan tool's channel commands against the real module: listen
# (print, --echo, --sink), send, recv, connect, ping and bench, the
# sysfs directories behind "stat", and the errors users will meet.

# On Debian's kernel only: what it adds is what the tool parses and
# prints; the ioctls behind the commands run on the debug kernel in
# chan_basic, chan_bench, bad_input and fuzz, and over siw in chan_basic
# and chan_faults
requires() {
	_have_kernel stock
}

. /tests/lib.sh

SRV=192.0.2.1
CLI=192.0.2.2
T=/tmp/tool_chan
mkdir -p $T

check "rxe pair comes up" rxe_pair_up
check "rdmachan loads" rdmachan_load

# send -> recv
bg recv $TOOL chan recv $SRV:7001 -c 3
wait_for 10 listening 7001
check "send delivers three messages" $TOOL chan send $SRV:7001 --src $CLI alpha beta gamma
wait $PID_recv
check_eq "recv exits 0 after three messages" 0 "$?"
check_eq "recv prints them in order" "alpha beta gamma" "$(tr '\n' ' ' < $T/recv.out | sed 's/ $//')"

# send with an immediate; recv -j shows it
bg recvj $TOOL -j chan recv $SRV:7002 -c 1
wait_for 10 listening 7002
check "send --imm succeeds" $TOOL chan send $SRV:7002 --src $CLI --imm 0x1234 hello
wait $PID_recvj
check_eq "recv -j reports data and immediate" "hello 4660" \
	"$(jq -r 'select(.data) | "\(.data) \(.imm)"' < $T/recvj.out)"

# connect: lines of standard input become messages
bg recv2 $TOOL chan recv $SRV:7003 -c 2
wait_for 10 listening 7003
check "connect sends standard input line by line" sh -c \
	"printf 'one\ntwo\n' | $TOOL chan connect $SRV:7003 --src $CLI"
wait $PID_recv2
check_eq "connect's lines arrive" "one two" "$(tr '\n' ' ' < $T/recv2.out | sed 's/ $//')"

# ping against listen --echo; sysfs shows the server side meanwhile
bg echo $TOOL chan listen $SRV:7004 --echo
wait_for 10 listening 7004
check "ping -c 20 -i 0 gets 20 replies" sh -c \
	"$TOOL chan ping $SRV:7004 --src $CLI -c 20 -i 0 -s 100 | grep -q '20 messages sent, 20 received'"
j=$($TOOL -j chan ping $SRV:7004 --src $CLI -c 50 -i 0 -s 4k)
check "ping -j: 50 replies, min <= p50 <= p99 <= max" sh -c "test -n '$j' && echo '$j' | jq -e \
	'.sent == 50 and .received == 50 and .size == 4096 and .min_us > 0 and
	 .min_us <= .p50_us and .p50_us <= .p99_us and .p99_us <= .max_us'"
check_fail "ping of a message over the max size fails" "larger than the channel's max message size" \
	$TOOL chan ping $SRV:7004 --src $CLI -c 1 -s 2M

# a live channel in sysfs and in stat, with counters that match: a
# "connect" fed through a FIFO stays open while we look
kill $PID_echo
wait $PID_echo
check_eq "listen exits 0 on SIGTERM" 0 "$?"
bg printer $TOOL chan listen $SRV:7007
wait_for 10 listening 7007
mkfifo $T/in
$TOOL chan connect $SRV:7007 --src $CLI < $T/in > $T/conn.out 2>&1 &
PID_conn=$!
exec 4> $T/in
printf 'abcdefghij\nabcdefghij\nabcdefghij\n' >&4
wait_for 10 sh -c "[ \$(wc -l < $T/printer.out) -ge 3 ]"
ch=$(grep -l "^$SRV:7007\$" /sys/class/rdmachan/chan*/dst_addr 2>/dev/null | head -n 1)
ch=${ch%/dst_addr}
check "a connected channel has a sysfs directory" test -n "$ch"
check_eq "its state is connected" connected "$(cat $ch/state 2>/dev/null)"
check_eq "its role is active" active "$(cat $ch/role 2>/dev/null)"
check_eq "its device is $DEV1, port 1" "$DEV1 1" "$(cat $ch/dev_name $ch/port_num 2>/dev/null | tr '\n' ' ' | sed 's/ $//')"
check_eq "its queue depth is the default" "$(cat /sys/module/rdmachan/parameters/queue_depth)" \
	"$(cat $ch/queue_depth 2>/dev/null)"
check_eq "it sent 3 messages, 30 bytes (sysfs)" "3 30" \
	"$(cat $ch/stats/msgs_tx $ch/stats/bytes_tx 2>/dev/null | tr '\n' ' ' | sed 's/ $//')"
cli_addr=$(cat $ch/src_addr 2>/dev/null)
srv=$(grep -l "^$cli_addr\$" /sys/class/rdmachan/chan*/dst_addr 2>/dev/null | head -n 1)
srv=${srv%/dst_addr}
check_eq "the listening side is passive, on $DEV0" "passive $DEV0" \
	"$(cat $srv/role $srv/dev_name 2>/dev/null | tr '\n' ' ' | sed 's/ $//')"
check_eq "it received 3 messages, 30 bytes (sysfs)" "3 30" \
	"$(cat $srv/stats/msgs_rx $srv/stats/bytes_rx 2>/dev/null | tr '\n' ' ' | sed 's/ $//')"
check "stat lists the client" sh -c "$TOOL chan show | grep -q '^$(basename "$ch"): connected active $cli_addr -> $SRV:7007 dev $DEV1 port 1'"
check "stat -j agrees with sysfs" sh -c "$TOOL -j chan show $(basename "$srv") | jq -e \
	'.[0].msgs_rx == 3 and .[0].bytes_rx == 30 and .[0].role == \"passive\"'"
case $DEV1 in siw*) hdr=in-band ;; *) hdr=immediate ;; esac
check "stat shows where the header travels ($hdr)" sh -c "$TOOL chan show $(basename "$ch") | grep -q ' header $hdr '"
check "stat ends the counters with solicited_events" sh -c \
	"$TOOL -s chan show $(basename "$ch") | grep -Eq ' errors [0-9]+ solicited_events [0-9]+\$'"
check "stat -j lists the listener" sh -c \
	"$TOOL -j chan show | jq -e 'map(select(.name | startswith(\"listener\")) | .src_addr) | index(\"$SRV:7007\")'"
exec 4>&-
wait $PID_conn
check_eq "connect exits 0 at the end of its input" 0 "$?"

# the largest channel one may ask for, 16384 credits of 1 MiB messages,
# would take 32 GiB of buffers: both ends offer no more than fits the
# chan_mem_kb parameter (64 MiB: buffers of 1 MiB and a page, 2 per
# credit and 3 for control messages: 30 credits), and the channel works
bg big $TOOL chan listen $SRV:7011 --echo -d 16384 -m 1m
wait_for 10 listening 7011
check "a channel asking for 16384 x 1 MiB connects, and pings 1 MiB" \
	$TOOL chan ping $SRV:7011 --src $CLI -c 2 -s 1m -d 16384 -m 1m
mkfifo $T/in2
$TOOL chan connect $SRV:7011 --src $CLI -d 16384 -m 1m < $T/in2 > $T/conn2.out 2>&1 &
PID_conn2=$!
exec 5> $T/in2
wait_for 10 sh -c "grep -l '^$SRV:7011\$' /sys/class/rdmachan/chan*/dst_addr > /dev/null 2>&1"
ch=$(grep -l "^$SRV:7011\$" /sys/class/rdmachan/chan*/dst_addr 2>/dev/null | head -n 1)
ch=${ch%/dst_addr}
check_eq "its depth is lowered to what fits chan_mem_kb (30)" 30 \
	"$(cat $ch/queue_depth 2>/dev/null)"
echo 16384 > /sys/module/rdmachan/parameters/chan_mem_kb
check "a channel asking for 16384 x 1 MiB under chan_mem_kb=16384 pings" \
	$TOOL chan ping $SRV:7011 --src $CLI -c 1 -s 1m -d 16384 -m 1m
echo 65536 > /sys/module/rdmachan/parameters/chan_mem_kb
check_fail "chan_mem_kb refuses a value below 1024" "Invalid argument" \
	sh -c "echo 1023 > /sys/module/rdmachan/parameters/chan_mem_kb"
exec 5>&-
wait $PID_conn2
kill $PID_big 2>/dev/null
wait $PID_big 2>/dev/null
check "the client's directory goes when it closes" test ! -e "$ch"
kill $PID_printer
wait $PID_printer
check "its sysfs directories are gone" sh -c "! ls /sys/class/rdmachan | grep -Eq '^(chan|listener)'"

# bench against listen --sink
bg sink $TOOL chan listen $SRV:7005 --sink -n 1
wait_for 10 listening 7005
j=$($TOOL -j chan bench $SRV:7005 --src $CLI -t 2 -s 256 -q)
check "bench -j reports a positive rate" sh -c "test -n '$j' && echo '$j' | jq -e \
	'.messages > 0 and .msg_rate > 0 and .size == 256 and .bytes == .messages * 256'"
wait $PID_sink
check_eq "listen -n 1 exits 0 after the channel ended" 0 "$?"
n=$(echo "$j" | jq .messages)
check "the sink counted every message the bench sent" grep -q "after $n messages" $T/sink.err
grep -q "after $n messages" $T/sink.err || diag "bench: $j" "sink: $(cat $T/sink.err)"

# errors
check_fail "connect to a port with no listener" "Connection refused" \
	$TOOL chan send $SRV:4999 --src $CLI x
$TOOL chan ping nonsense >/dev/null 2>&1
check_eq "a bad address is a usage error" 2 "$?"
$TOOL chan ping $SRV -c 0 >/dev/null 2>&1
check_eq "a zero count is a usage error" 2 "$?"
$TOOL chan bench $SRV -t 1x >/dev/null 2>&1
check_eq "a bad duration is a usage error" 2 "$?"
$TOOL chan listen $SRV --depth 0 >/dev/null 2>&1
check_eq "depth 0 is a usage error" 2 "$?"
check_fail "listen on an address nobody has" "Cannot assign requested address" \
	$TOOL chan listen 192.0.2.77:7006
check_fail "stat of an unknown channel" "no such channel" $TOOL chan show chan99999
for c in "chan listen" "chan connect" "chan send" "chan recv" "chan ping" "chan bench" "chan show"; do
	check "$c --help exits 0" $TOOL $c --help
done
check "rdmachan unloads after the tool exited" rdmachan_unload
done_testing
