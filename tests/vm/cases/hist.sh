#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The latency histograms (module/chan/hist.c, Documentation/debugging.rst
# "Latency histograms"), off by default and turned on with latency_hist
# 1, count what was done, once each, and reset:
#
#   chan  a client sends 10 messages to a listener's reader: the reader's
#         channel counts 10 arrivals to release in hist_recv, the client's
#         10 sends to completion in hist_send (reaped by the completions
#         that cover them, the keepalives' included); every file has its
#         24 buckets; "chan show --hist" says 10 samples in text and JSON,
#         with 24 buckets; a write resets hist_send to 0.  With
#         latency_hist 0 a new channel keeps none: empty files, nothing
#         in chan show --hist.
#   blk   a mapping's 4 KiB direct writes and reads (dd): its hist_write
#         and hist_read count what its counters count (writes, reads),
#         and so do the export's; blk show --hist shows both; a reset.
#   net   pings across two interfaces in their namespaces: each one's
#         hist_rx counts what its rx_packets counts, hist_tx what its
#         tx_packets counts; net show --hist (in the namespace) too.
#   cost  /sys/kernel/debug/rdmachan/hist_cost times one latency.
#
# On Debian's 6.1 and the debug kernel, over rxe.
requires() {
	_have_kernel stock debug
}

. /tests/lib.sh

SRV=192.0.2.1
CLI=192.0.2.2
T=/tmp/hist
mkdir -p $T
P=/sys/module/rdmachan/parameters/latency_hist

# total FILE: the samples of a histogram file; "none" when it is empty
total() {
	awk '{ n += $2; l++ } END { print l ? n : "none" }' "$1" 2>/dev/null
}

# buckets FILE: its lines
buckets() {
	grep -c . "$1" 2>/dev/null
}

# chan_named ROLE: the sysfs name of the channel of that role
chan_named() {
	grep -l "^$1\$" /sys/class/rdmachan/chan*/role 2>/dev/null |
		sed -n 's|.*/\(chan[0-9]*\)/role|\1|p' | head -n 1
}

check "rxe pair comes up" rxe_pair_up
check "rdmachan and rdmachan_blk load" blk_load
check_eq "latency_hist is off by default" 0 "$(cat $P)"
check "latency_hist 1: what is made from now on keeps histograms" \
	sh -c "echo 1 > $P"
DBG=/sys/kernel/debug
[ -e $DBG/rdmachan ] || mount -t debugfs nodev $DBG
cost=$(cat $DBG/rdmachan/hist_cost 2>/dev/null)
diag "one latency costs ${cost:-?} ns"
check "debugfs hist_cost times one latency: a number of ns, 1 to 100000" \
	sh -c "[ '${cost:-0}' -ge 1 ] && [ '${cost:-0}' -le 100000 ]"

# ---- chan -----------------------------------------------------------------
bg recv $TOOL chan recv $SRV:7801 -c 11
wait_for 10 listening 7801
mkfifo $T/in
bg conn sh -c "$TOOL chan connect $SRV:7801 --src $CLI < $T/in"
exec 7> $T/in
for i in 1 2 3 4 5 6 7 8 9 10; do
	echo "message$i" >&7
done
check "the reader takes 10 messages" wait_for 20 sh -c \
	"[ \$(grep -c . $T/recv.out) = 10 ]"
cli=$(chan_named active)
srv=$(chan_named passive)
C=/sys/class/rdmachan
check_eq "the reader's channel: 10 in hist_recv" 10 "$(total $C/$srv/hist_recv)"
check "the client's channel: 10 in hist_send (once reaped)" \
	wait_for 15 sh -c "[ \"\$(awk '{ n += \$2 } END { print n }' $C/$cli/hist_send)\" = 10 ]"
check_eq "each file has its 24 buckets" "24 24 24 24" \
	"$(buckets $C/$cli/hist_send) $(buckets $C/$cli/hist_recv) $(buckets $C/$srv/hist_send) $(buckets $C/$srv/hist_recv)"
check_eq "the client received nothing: 0 in its hist_recv" 0 "$(total $C/$cli/hist_recv)"
check "chan show --hist: 10 samples of sends" sh -c \
	"$TOOL chan show $cli --hist | grep -q '^    hist_send (from a send to its completion): 10 samples, p50 < [0-9]* us, p99 < [0-9]* us\$'"
check "chan show --hist draws a bar" sh -c \
	"$TOOL chan show $cli --hist | grep -q ' us |#'"
check_eq "chan show -j --hist: 10 samples, 24 buckets that add up" "10 24 10" \
	"$($TOOL -j chan show $cli --hist | jq -r '.[0].hist_send | "\(.samples) \(.buckets | length) \([.buckets[].count] | add)"')"
check "chan show without --hist has none" sh -c \
	"! $TOOL -j chan show $cli | jq -e '.[0] | has(\"hist_send\")' > /dev/null"
check "a write resets hist_send" sh -c "echo 0 > $C/$cli/hist_send"
check_eq "hist_send is 0 after it" 0 "$(total $C/$cli/hist_send)"
echo message11 >&7
exec 7>&-
wait $PID_recv
wait $PID_conn

check "latency_hist 0" sh -c "echo 0 > $P"
bg recv $TOOL chan recv $SRV:7802 -c 2
wait_for 10 listening 7802
mkfifo $T/in2
bg conn sh -c "$TOOL chan connect $SRV:7802 --src $CLI < $T/in2"
exec 7> $T/in2
echo one >&7
wait_for 20 sh -c "grep -qx one $T/recv.out"
cli=$(chan_named active)
check_eq "a channel made then keeps none: empty files" "none none" \
	"$(total $C/$cli/hist_send) $(total $C/$cli/hist_recv)"
check "chan show --hist shows none for it" sh -c \
	"! $TOOL chan show $cli --hist | grep -q hist_"
echo two >&7
exec 7>&-
wait $PID_recv
wait $PID_conn
echo 1 > $P

# ---- blk ------------------------------------------------------------------
B=$(nullb_new hist 64)
check "blk export hist $B" $TOOL blk export hist "$B" --allow 192.0.2.0/24
D=$(timeout 60 $TOOL blk map $BLK_SRV hist --src $BLK_CLI 2> $T/map.err)
check "blk map hist ($D)" test -b "$D"
M=/sys/block/${D#/dev/}/rdmachan
E=/sys/class/rdmachan_blk/ctl/exports/hist
check "16 direct writes of 4 KiB" $DD if=/dev/urandom of="$D" bs=4k count=16 oflag=direct
check "16 direct reads of 4 KiB" $DD if="$D" of=/dev/null bs=4k count=16 iflag=direct
check_eq "the mapping: hist_read and hist_write count its reads and writes" \
	"$(cat $M/reads) $(cat $M/writes)" "$(total $M/hist_read) $(total $M/hist_write)"
check "the mapping did at least the 16 of each" sh -c \
	"[ $(total $M/hist_read) -ge 16 ] && [ $(total $M/hist_write) -ge 16 ]"
check_eq "the export: hist_read and hist_write count its reads and writes" \
	"$(cat $E/counters/reads) $(cat $E/counters/writes)" \
	"$(total $E/hist_read) $(total $E/hist_write)"
check_eq "blk show -j --hist: the mapping's and the export's samples" \
	"$(total $M/hist_write) $(total $E/hist_write)" \
	"$($TOOL -j blk show --hist | jq -r '"\(.maps[0].hist_write.samples) \(.exports[0].hist_write.samples)"')"
check "blk show --hist (text) draws the mapping's writes" sh -c \
	"$TOOL blk show maps --hist | grep -q '^    hist_write (write requests, from dispatch to end): [1-9][0-9]* samples'"
check "a write resets the mapping's hist_read" sh -c "echo 0 > $M/hist_read"
check_eq "hist_read is 0 after it" 0 "$(total $M/hist_read)"
check "blk unmap" $TOOL blk unmap "$D"
check "blk unexport hist" $TOOL blk unexport hist

# ---- net ------------------------------------------------------------------
check "rdmachan_net loads" $MODPROBE rdmachan_net
check_eq "latency_hist is 1" 1 "$(cat $P)"
check "net add rcn0 listen, rcn1 connect" sh -c \
	"$TOOL net add rcn0 listen $SRV --peer $CLI &&
	 $TOOL net add rcn1 connect $SRV --src $CLI"
check "the two interfaces in their namespaces, up" net_ns_up
check "carrier on both" wait_for 20 net_carrier_both
check "ping 10.77.0.1 from rcB (5 packets, one of 60000 bytes)" sh -c \
	"$IP netns exec rcB /usr/bin/ping -c 4 -i 0.2 -W 5 10.77.0.1 > /dev/null &&
	 $IP netns exec rcB /usr/bin/ping -c 1 -s 60000 -W 5 10.77.0.1 > /dev/null"
# nshist NS DEV FILE: the samples of DEV's histogram FILE, seen in NS
nshist() {
	$IP netns exec "$1" awk '{ n += $2 } END { print n + 0 }' \
		"/sys/class/net/$2/rdmachan/$3"
}
# same NS DEV: DEV's histograms count what its counters count (read
# again while a packet of the stack's own, IPv6's, lands between reads)
same() {
	[ "$(net_stat $1 $2 rx_packets) $(net_stat $1 $2 tx_packets)" = \
	  "$(nshist $1 $2 hist_rx) $(nshist $1 $2 hist_tx)" ]
}
for e in "rcA rcn0" "rcB rcn1"; do
	set -- $e
	check "$2: hist_rx counts its rx_packets, hist_tx its tx_packets" \
		wait_for 5 same $1 $2 ||
		diag "$(net_stat $1 $2 rx_packets) $(net_stat $1 $2 tx_packets) against $(nshist $1 $2 hist_rx) $(nshist $1 $2 hist_tx)"
done
check "rcn0 received the 5 pings" sh -c "[ $(nshist rcA rcn0 hist_rx) -ge 5 ]"
check "net show --hist in rcA: rcn0's hist_rx" sh -c \
	"$IP netns exec rcA $TOOL net show rcn0 --hist | grep -q '^    hist_rx (packets, from arrival to the stack): [1-9][0-9]* samples'"
check "net del rcn1, rcn0" sh -c "$TOOL net del rcn1 && $TOOL net del rcn0"
echo 0 > $P

done_testing
