#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# "rdmachan rping" (RDMACHAN_IOC_RPING) against rdma-core's rping, both
# ways: the kernel client against "rping -s" and "rping -c" against the
# kernel server, at rping's smallest size, its default, a page and its
# largest, the data checked (-V) on both ends; kernel against kernel, and
# a server's count when its client ends right after its one ping; and the
# peers that must end a run with a clear error and nothing left: a
# server whose size is smaller than the client's (EPROTO), an rdmachan
# listener (refused), a port nobody listens on, a client killed in the
# middle, an interrupted client, an rdmachan channel connecting to the
# rping server.  rdmachan unloads afterwards (nothing held).

# Over rxe on Debian's kernel and over siw on the debug kernel, whose
# KASAN and kmemleak see the QP, MRs and pages of every run; the debug
# kernel's rxe run would add nothing the two do not cover.
requires() {
	_have_rdma rxe siw
	_not_on debug/rxe
}

. /tests/lib.sh

SRV=192.0.2.1
CLI=192.0.2.2
T=/tmp/rping
mkdir -p $T

check "rxe pair comes up" rxe_pair_up
check "rdmachan loads" rdmachan_load

# jq_ok FILE FILTER: FILTER (jq -e) holds on FILE's JSON
jq_ok() {
	jq -e "$2" "$1" >/dev/null 2>&1 && return 0
	cat "$1"
	return 1
}

port=7200
for size in 26 64 4096 65535; do
	port=$((port + 1))
	# the kernel client against rping -s
	timeout 120 rping -s -a $SRV -p $port -S $size > $T/us.out 2>&1 &
	us=$!
	wait_for 10 cm_listening $SRV $port
	timeout 120 $TOOL -j rping -c $SRV -p $port -I $CLI -C 10 -S $size -V \
		> $T/kc.json 2> $T/kc.err
	check_eq "kernel client, $size bytes: rping -s echoes 10 pings, data checked" \
		"0 10 $size" "$? $(jq -r '"\(.pings) \(.size)"' $T/kc.json 2>/dev/null)"
	wait $us
	check_eq "kernel client, $size bytes: rping -s ends cleanly" 0 \
		"$(rping_rc $? $T/us.out)"

	# rping -c against the kernel server
	port=$((port + 1))
	timeout 120 $TOOL -j rping -s $SRV:$port -S $size -V > $T/ks.json 2> $T/ks.err &
	ks=$!
	wait_for 10 cm_listening $SRV $port
	timeout 120 rping -c -a $SRV -I $CLI -p $port -C 10 -S $size -V > $T/uc.out 2>&1
	rc=$(rping_rc $? $T/uc.out)
	# what rping said, and what the server logged, when it failed
	[ "$rc" = 0 ] || diag "rping -c: $(cat $T/uc.out); kernel: $(dmesg | tail -n 5)"
	check_eq "kernel server, $size bytes: rping -c makes 10 pings, data checked" 0 $rc
	wait $ks
	check_eq "kernel server, $size bytes: served 10 pings of the client's size" \
		"0 10 $size" "$? $(jq -r '"\(.pings) \(.peer_size)"' $T/ks.json 2>/dev/null)"
done

# kernel against kernel, verbose: the data in the kernel log
port=$((port + 1))
timeout 120 $TOOL -j rping -s $SRV:$port -S 100 -V -v > $T/ks.json 2> $T/ks.err &
ks=$!
wait_for 10 cm_listening $SRV $port
check "kernel client against kernel server: 20 pings of 100 bytes, checked" \
	sh -c "timeout 120 $TOOL -j rping -c $SRV:$port -I $CLI -C 20 -S 100 -V -v > $T/kc.json &&
	       jq -e '.pings == 20 and .rtt_min_us > 0 and .rtt_max_us >= .rtt_min_us' $T/kc.json"
wait $ks
check "the kernel server served them" jq_ok $T/ks.json '.pings == 20'
check "-v logs each ping's data in the kernel log" \
	sh -c "dmesg | grep -q 'rping: ping data: rdma-ping-19: '"

# a client's disconnect after its last ping races the completion of the
# server's last go-ahead: one ping a run, so every run ends in that race
served=0
runs=0
while [ $runs -lt 8 ]; do
	runs=$((runs + 1))
	port=$((port + 1))
	timeout 60 $TOOL -j rping -s $SRV:$port -S 64 > $T/ks.json 2> $T/ks.err &
	ks=$!
	wait_for 10 cm_listening $SRV $port
	timeout 60 $TOOL -j rping -c $SRV:$port -I $CLI -C 1 -S 64 > /dev/null 2>&1
	wait $ks && jq -e '.pings == 1 and .error == null' $T/ks.json > /dev/null &&
		served=$((served + 1))
done
check_eq "8 kernel servers each count their client's one ping and end cleanly" \
	8 $served

# a server smaller than its client's pings: refused with EPROTO
port=$((port + 1))
timeout 60 $TOOL -j rping -s $SRV:$port -S 64 > $T/ks.json 2> $T/ks.err &
ks=$!
wait_for 10 cm_listening $SRV $port
timeout 60 rping -c -a $SRV -I $CLI -p $port -C 3 -S 1000 > $T/uc.out 2>&1
# rping exits 0 when its server disconnected: it must only not hang
check "rping -c of 1000 bytes against a 64-byte server ends" test $? != 124
wait $ks
check_eq "the kernel server refuses it with EPROTO and says why" "1 EPROTO" \
	"$? $(jq -r .error $T/ks.json 2>/dev/null)"
check "the log names the sizes" \
	sh -c "dmesg | grep -q 'advertised 1000 bytes; this server takes 1 to 64'"

# the kernel client pinging more than rping -s can take: a clear error
port=$((port + 1))
timeout 60 rping -s -a $SRV -p $port -S 64 > $T/us.out 2>&1 &
us=$!
wait_for 10 cm_listening $SRV $port
check_fail "a kernel client of 1000 bytes against rping -s -S 64 fails, not hangs" \
	"ECONNRESET|ETIMEDOUT|EIO" timeout 60 $TOOL rping -c $SRV -p $port -I $CLI -C 3 -S 1000
wait $us

# rdmachan's own listener is no rping server; nobody on a port
timeout 60 $TOOL chan listen $SRV:7299 > /dev/null 2>&1 &
cl=$!
wait_for 10 listening 7299
check_fail "the kernel client against an rdmachan listener is refused" \
	"ECONNREFUSED" timeout 60 $TOOL rping -c $SRV -p 7299 -I $CLI -C 1
kill $cl
wait $cl 2>/dev/null
check_fail "the kernel client against a port nobody listens on is refused" \
	"ECONNREFUSED" timeout 60 $TOOL rping -c $SRV -p 7298 -I $CLI -C 1

# rping -c killed in the middle: the kernel server ends, cleanly or
# with ECONNRESET, and does not hang.  Killed once it has pinged: its
# -v lines reach the file a buffer (a few dozen pings) at a time, and a
# slow VM may not have connected within a fixed sleep.
port=$((port + 1))
timeout 60 $TOOL -j rping -s $SRV:$port > $T/ks.json 2> $T/ks.err &
ks=$!
wait_for 10 cm_listening $SRV $port
rm -f $T/killed.out
rping -c -v -a $SRV -I $CLI -p $port > $T/killed.out 2>&1 &
uc=$!
check "rping -c pings the kernel server" wait_for 60 test -s $T/killed.out
kill -9 $uc
wait $uc 2>/dev/null
wait $ks
check "a killed client ends the kernel server within its bound" \
	jq_ok $T/ks.json '.pings > 0 and (.error == null or .error == "ECONNRESET" or .error == "ETIMEDOUT")'

# an interrupted kernel client: what it did is the result; interrupted
# once rping -s -v has written some of its pings to the file
port=$((port + 1))
rm -f $T/served.out
timeout 60 rping -s -v -a $SRV -p $port > $T/served.out 2>&1 &
us=$!
wait_for 10 cm_listening $SRV $port
timeout 60 $TOOL -j rping -c $SRV -p $port -I $CLI > $T/kc.json 2> $T/kc.err &
kc=$!
check "the kernel client pings rping -s" wait_for 50 test -s $T/served.out
kill -TERM $kc
wait $kc
check_eq "an interrupted kernel client exits 0" 0 $?
check "and reports its pings" jq_ok $T/kc.json '.pings > 0'
wait $us

# an rdmachan channel connecting to the rping server: its connect fails,
# the server ends without a ping
port=$((port + 1))
timeout 60 $TOOL -j rping -s $SRV:$port > $T/ks.json 2> $T/ks.err &
ks=$!
wait_for 10 cm_listening $SRV $port
check_fail "an rdmachan channel to an rping server fails to connect" \
	"." sh -c "echo hi | timeout 60 $TOOL chan connect $SRV:$port --src $CLI"
wait $ks
check "the rping server ends without a ping" jq_ok $T/ks.json '.pings == 0'

check "no rping holds the module: rdmachan unloads" rdmachan_unload
done_testing
