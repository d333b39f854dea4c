#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The block channel's tracepoints (module/blk/blk_trace.h, system
# rdmachan_blk), enabled through tracefs: a mapping of one queue does one
# I/O at a time, and each I/O's events come complete and in order on each
# side, under the request's tag:
#
#   4 KiB WRITE (inline)  client: send (data inline), reply by a
#                         SEND with status 0, done; server: arrive,
#                         submit, bio_end, reply
#   4 KiB READ            client: send (data staged), reply (by the
#                         RDMA WRITE_WITH_IMM that carries the data, or a
#                         SEND), done; server: arrive, submit, bio_end,
#                         rdma (the push), and a reply event only where
#                         the reply was a SEND
#   64 KiB WRITE          client: send (data remote), reply, done; server:
#                         arrive, rdma twice (the pull, in two RDMA READs
#                         of 32 KiB: half the default pull window each,
#                         Documentation/blk-server.rst "Pulls"), submit,
#                         bio_end, reply; with pull_window_kb=0, one rdma
#                         of all 64 KiB
#   21 4 KiB READs        one at a time, more than the 16 credits granted:
#                         each answered by its RDMA WRITE_WITH_IMM, which
#                         returns its credit (the channel's IMM_CREDIT,
#                         Documentation/protocol.rst), with no reply
#                         message and no CREDIT message either way
#                         (rdmachan_chan_recv)
#   the same 21, mapped   some answered by a reply message instead, where
#   again with rdmachan's the client's credits were due back
#   imm_credit 0          (rdmachan_credits_due()), and still no CREDIT
#                         message: the server's way with a peer whose
#                         module predates IMM_CREDIT
#
# every event naming the I/O's operation, sector and length where it
# carries them; with the events disabled an I/O records nothing.  The
# join with "rdma res": sysfs channels names the queue's channel (whose
# two ends each grant at least 16 credits: blk.h, RCBLK_MIN_GRANT), and
# "blk show -d" (text and JSON) its device and queue pair number, the
# lqpn of an RC queue pair of that device in "rdma res show qp".

# On Debian's kernel and the debug kernel (tracefs in both), over rxe
requires() {
	_have_kernel stock debug
}

. /tests/lib.sh

T=/tmp/blk_trace
mkdir -p $T
TR=/sys/kernel/tracing

check "tracefs is mounted" sh -c \
	"[ -e $TR/trace ] || mount -t tracefs nodev $TR"
check "rxe pair comes up" rxe_pair_up
check "rdmachan and rdmachan_blk load" blk_load
check "the block channel's events are listed" sh -c \
	"ls $TR/events/rdmachan_blk | grep -q '^rcblk_clt_send\$'"
B=$(nullb_new trace 16)
[ -b "$B" ] || blk_bail "no backing device"
check "blk export trace $B" $TOOL blk export trace "$B" --allow 192.0.2.0/24
D=$(timeout 60 $TOOL blk map $BLK_SRV trace --src $BLK_CLI --queues 1 2> $T/map.err)
[ -b "$D" ] || { diag "$(cat $T/map.err)"; blk_bail "no mapping"; }
ok "blk map --queues 1 ($D)"
M=$(basename "$D")

# ---- the queue's channel, and its line in rdma res ----------------------
ch=$(cat /sys/block/$M/rdmachan/channels)
check "sysfs channels names the queue's channel ($ch)" \
	sh -c "echo '$ch' | grep -Eq '^chan[0-9]+\$'"
set -- $($TOOL -j -d blk show maps | jq -r --arg d "$D" '.maps[] |
	select(.dev == $d) | .channels[0] | "\(.channel) \(.dev) \(.qpn)"')
check_eq "blk show -d -j: that channel, its device and queue pair number" \
	"$ch $(cat /sys/class/rdmachan/$ch/dev_name) $(cat /sys/class/rdmachan/$ch/qpn)" "$*"
# a queue's channel keeps 16 receive buffers granted, both ends (blk.h,
# RCBLK_MIN_GRANT: READs are answered without a credit)
check "both ends of the queue's channel grant at least 16 credits" sh -c \
	'for c in /sys/class/rdmachan/chan*; do
		[ $(cat $c/credits_granted) -ge 16 ] || exit 1; done'
check "blk show -d prints it" sh -c \
	"$TOOL -d blk show maps | grep -q '^    queue 0 $1 dev $2 qpn $3\$'"
rdma res show qp > $T/qp.txt 2>&1
check "rdma res show qp lists qpn $3 of $2 as an RC queue pair" \
	sh -c "grep '^link $2/[0-9]* lqpn $3 ' $T/qp.txt | grep -q 'type RC' ||
		{ cat $T/qp.txt; false; }"

echo 0 > $TR/tracing_on
echo 0 > $TR/events/enable
# one clock for both sides' events
echo global > $TR/trace_clock
check "its events enable" sh -c "echo 1 > $TR/events/rdmachan_blk/enable"

# traced_io NAME DD-ARGS...: one I/O with the trace on; its events, from
# the event's name on, in $T/NAME
traced_io() {
	name=$1
	shift
	echo > $TR/trace
	echo 1 > $TR/tracing_on
	$DD "$@" 2> $T/$name.dd || { cat $T/$name.dd; return 1; }
	echo 0 > $TR/tracing_on
	sed -n 's/.*\(rcblk_[a-z_]*\): /\1 /p' $TR/trace > $T/$name
}

# seq FILE SIDE: the events of one side (clt, srv), in order, on one line
seq() {
	awk -v side="rcblk_$2_" 'index($1, side) == 1 {
		printf "%s%s", n++ ? " " : "", substr($1, length(side) + 1) }
		END { print "" }' "$1"
}

# tags FILE: the distinct tags its events name (one I/O: one tag)
tags() {
	awk '{ for (i = 2; i < NF; i++) if ($i == "tag") print $(i + 1) }' "$1" |
		sort -u | wc -l
}

# io_is FILE OP SECTOR LEN: every event that names an operation names these
io_is() {
	awk -v op="$2" -v sec="$3" -v len="$4" '
	{ for (i = 2; i < NF; i++) {
		if ($i == "sector" && $(i + 1) != sec) bad++
		if ($i == "len" && $(i + 1) != len) bad++
		if ($i == "sector" && $(i - 1) != op) bad++ } }
	END { exit bad != 0 }' "$1"
}

# field FILE EVENT WORD: the word after WORD in EVENT's first line
field() {
	awk -v ev="$2" -v w="$3" '$1 == ev {
		for (i = 2; i < NF; i++) if ($i == w) { print $(i + 1); exit } }' "$1"
}

# ---- a 4 KiB WRITE, inline ------------------------------------------------
head -c 4096 /dev/urandom > $T/data4k
check "a 4 KiB write" traced_io w4k if=$T/data4k of="$D" bs=4k seek=5 count=1 oflag=direct
diag "$(cat $T/w4k)"
check_eq "client: send, reply, done" "send reply done" "$(seq $T/w4k clt)"
check_eq "server: arrive, submit, bio_end, reply" \
	"arrive submit bio_end reply" "$(seq $T/w4k srv)"
check_eq "one tag" 1 "$(tags $T/w4k)"
check "each names WRITE, sector 40, 4096 bytes" io_is $T/w4k WRITE 40 4096
check_eq "the client's event names the mapping; sent inline" "$M inline" \
	"$(awk '$1 == "rcblk_clt_send" { print $2 }' $T/w4k) $(field $T/w4k rcblk_clt_send data)"
check_eq "the reply came by a SEND, status 0" "send 0" \
	"$(field $T/w4k rcblk_clt_reply by) $(field $T/w4k rcblk_clt_reply status)"
check_eq "it ended with status 0" "0" "$(field $T/w4k rcblk_clt_done status)"

# ---- a 4 KiB READ ------------------------------------------------------------
check "a 4 KiB read" traced_io r4k if="$D" of=$T/back4k bs=4k skip=5 count=1 iflag=direct
diag "$(cat $T/r4k)"
check "it reads back what was written" cmp $T/data4k $T/back4k
check_eq "client: send, reply, done" "send reply done" "$(seq $T/r4k clt)"
by=$(field $T/r4k rcblk_clt_reply by)
want="arrive submit bio_end rdma"
[ "$by" = send ] && want="$want reply"
check_eq "server: arrive, submit, bio_end, rdma (and a reply: by $by)" \
	"$want" "$(seq $T/r4k srv)"
check_eq "one tag" 1 "$(tags $T/r4k)"
check "each names READ, sector 40, 4096 bytes" io_is $T/r4k READ 40 4096
check_eq "the client staged it (its tag's staging page)" staged "$(field $T/r4k rcblk_clt_send data)"

# ---- a 64 KiB WRITE, pulled ----------------------------------------------
head -c 65536 /dev/urandom > $T/data64k
check "a 64 KiB write" traced_io w64k if=$T/data64k of="$D" bs=64k seek=1 count=1 oflag=direct
diag "$(cat $T/w64k)"
check_eq "client: send, reply, done" "send reply done" "$(seq $T/w64k clt)"
check_eq "server: arrive, rdma twice, submit, bio_end, reply" \
	"arrive rdma rdma submit bio_end reply" "$(seq $T/w64k srv)"
check_eq "one tag" 1 "$(tags $T/w64k)"
grep -v '^rcblk_srv_rdma ' $T/w64k > $T/w64k.req
check "each other names WRITE, sector 128, 65536 bytes" io_is $T/w64k.req WRITE 128 65536
check_eq "the pieces: WRITE at sectors 128 and 192, 32768 bytes each" \
	"WRITE 128 32768 WRITE 192 32768" "$(awk '$1 == "rcblk_srv_rdma" {
		for (i = 2; i < NF; i++) if ($i == "sector")
			printf "%s%s %s %s", n++ ? " " : "", $(i - 1), $(i + 1), $(i + 3) }
		END { print "" }' $T/w64k)"
check "pull_window_kb=0" sh -c "echo 0 > /sys/module/rdmachan_blk/parameters/pull_window_kb"
check "a 64 KiB write, no pull window" traced_io w64k0 if=$T/data64k of="$D" bs=64k seek=1 count=1 oflag=direct
check_eq "server: arrive, rdma, submit, bio_end, reply" \
	"arrive rdma submit bio_end reply" "$(seq $T/w64k0 srv)"
check "each names WRITE, sector 128, 65536 bytes" io_is $T/w64k0 WRITE 128 65536
check "pull_window_kb=64 again" sh -c "echo 64 > /sys/module/rdmachan_blk/parameters/pull_window_kb"
check_eq "the client registered it (remote)" remote "$(field $T/w64k rcblk_clt_send data)"

# reads21 NAME: 21 4 KiB READs one at a time, traced with the channel's
# arrivals too (in $T/NAME.chan); all end, and no CREDIT message goes
# either way.  $n: how many were answered by a reply message.
reads21() {
	echo 1 > $TR/events/rdmachan/rdmachan_chan_recv/enable
	check "21 4 KiB reads, one at a time" traced_io "$1" if="$D" of=/dev/null bs=4k count=21 iflag=direct
	echo 0 > $TR/events/rdmachan/rdmachan_chan_recv/enable
	sed -n 's/.*\(rdmachan_chan_recv\): /\1 /p' $TR/trace > $T/$1.chan
	check_eq "all 21 ended" 21 "$(grep -c '^rcblk_clt_done' $T/$1)"
	n=$(awk '$1 == "rcblk_clt_reply" { for (i = 2; i < NF; i++)
		if ($i == "by" && $(i + 1) == "send") n++ } END { print n + 0 }' $T/$1)
	check_eq "no CREDIT message went either way" 0 \
		"$(grep -c ' CREDIT ' $T/$1.chan)"
}

# ---- READs one at a time: the credits go back in the immediates --------
reads21 r21
check_eq "none was answered by a reply message" 0 "$n"

# ---- disabled ----------------------------------------------------------------
echo 0 > $TR/events/rdmachan_blk/enable
check "an I/O with the events disabled" traced_io off if="$D" of=/dev/null bs=4k count=1 iflag=direct
check_eq "records nothing" 0 "$(wc -l < $T/off)"

# ---- without IMM_CREDIT: the credits go back in reply messages ----------
check "blk unmap" timeout 60 $TOOL blk unmap "$D"
check "imm_credit=0 is taken" sh -c \
	'echo 0 > /sys/module/rdmachan/parameters/imm_credit'
D=$(timeout 60 $TOOL blk map $BLK_SRV trace --src $BLK_CLI --queues 1 2> $T/map.err)
[ -b "$D" ] || { diag "$(cat $T/map.err)"; blk_bail "no mapping"; }
ok "blk map --queues 1 again ($D)"
echo 1 > $TR/events/rdmachan_blk/enable
reads21 r21old
echo 0 > $TR/events/rdmachan_blk/enable
check "some were answered by a reply message ($n)" test "$n" -ge 2
echo 1 > /sys/module/rdmachan/parameters/imm_credit
echo local > $TR/trace_clock
echo 1 > $TR/tracing_on

check "blk unmap" timeout 60 $TOOL blk unmap "$D"
check "no session left on the export" wait_for 20 sh -c \
	"$TOOL -j blk show exports | jq -e '.exports[] | select(.name == \"trace\") | .sessions == 0' > /dev/null"
check "blk unexport" $TOOL blk unexport trace
check "rdmachan_blk and rdmachan unload" blk_unload
done_testing
