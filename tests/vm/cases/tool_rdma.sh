#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The rdmachan tool's one-sided RDMA commands against the real module:
# "reg" serving a buffer, "write" (data, pattern, file, --sge, --inline,
# --fence, --unsignaled, --imm, --read-then-write, zero length), "read"
# (--out, --sge, --check-byte), "atomic fadd" and "cswap", their JSON,
# "bench --op write|read", and the errors users will meet: a stale key,
# a buffer without remote write, past the end, a wrong key, a refused
# registration.  Every byte a write claims to have placed is looked at
# on the server (its "peek" and "sum" answers) or read back.

# Over rxe only: it uses atomics and WRITE_WITH_IMM, which iWARP (siw)
# does not have.  Debian's kernel only: the one-sided paths behind the
# commands run on the debug kernel in rdma_ops (over rxe and siw)
requires() {
	_have_kernel stock
	_have_rdma rxe
}

. /tests/lib.sh

SRV=192.0.2.1
CLI=192.0.2.2
T=/tmp/tool_rdma
mkdir -p $T
SIZE=65536

check "rxe pair comes up" rxe_pair_up
# one-sided operations cross a wire that keeps order (wire_fifo)
check "the wire delivers each flow in order" wire_fifo
check "rdmachan loads" rdmachan_load

# reg_bg NAME PORT ARGS...: a reg server in the background, JSON lines to
# $T/NAME.out; killed after 240 s if the case hangs.  Waits until it
# listens.
reg_bg() {
	_n=$1
	_p=$2
	shift 2
	timeout 240 $TOOL -j mr reg $SRV:$_p "$@" > $T/$_n.out 2> $T/$_n.err &
	eval "PID_$_n=$!"
	wait_for 10 listening $_p
}

# ask PORT REQUEST: what the reg server on PORT answers to REQUEST
# ("peek OFF LEN", "sum"), through "connect": its first line is the
# memory descriptor, its second the answer.
ask() {
	: > $T/ask.out
	{ echo "$2"; wait_for 5 sh -c "[ \$(wc -l < $T/ask.out) -ge 2 ]"; } |
		$TOOL chan connect $SRV:$1 --src $CLI > $T/ask.out 2> $T/ask.err
	sed -n 2p $T/ask.out
}

# jq_ok JSON FILTER: FILTER (jq -e) holds on JSON; prints JSON if not
jq_ok() {
	printf '%s\n' "$1" | jq -e "$2" >/dev/null 2>&1 && return 0
	printf 'JSON: %s\nfilter: %s\n' "$1" "$2"
	return 1
}

# jcheck DESC JSON FILTER
jcheck() {
	check "$1" jq_ok "$2" "$3"
}

# rep N CHAR: CHAR N times
rep() {
	head -c "$1" /dev/zero | tr '\0' "$2"
}

# ---- server A: 64 KiB of '.', all rights --------------------------------
reg_bg A 7101 --size 64k --fill 0x2e -n 1000
check "reg A listens (event listening)" sh -c \
	"jq -e -s 'map(select(.event == \"listening\" and .addr == \"$SRV:7101\")) | length == 1' $T/A.out"
A=$SRV:7101
C="--src $CLI"

check_eq "a fresh buffer peeks as its fill byte" "....." "$(ask 7101 'peek 0 5')"
check "reg registers the buffer for each channel (event registered)" sh -c \
	"jq -e -s 'map(select(.event == \"registered\")) | .[0] | .length == $SIZE and
	 (.rkey | startswith(\"0x\")) and .access == \"local-write,remote-write,remote-read,remote-atomic\"' $T/A.out"

# write: --data
check "write --data succeeds" $TOOL rdma write $A $C --offset 100 --data hello
check_eq "the data is in the server's buffer" ".hello." "$(ask 7101 'peek 99 7')"

j=$($TOOL -j rdma write $A $C --offset 200 --data 'json!')
jcheck "write -j reports op, bytes, status, error, wc_status, offset, sge" "$j" \
	'.op == "write" and .bytes == 5 and .status == 0 and .error == null and
	 .wc_status == "SUCCESS" and .offset == 200 and .sge == 1'
check_eq "write -j's data landed" "json!" "$(ask 7101 'peek 200 5')"

# write: --len/--pattern over 3 segments; the 0xee gaps must not show
check "write --len 300 --pattern 0x41 --sge 3 succeeds" \
	$TOOL rdma write $A $C --offset 1000 --len 300 --pattern 0x41 --sge 3
check_eq "a gathered write lands whole, nothing before or after" \
	".$(rep 300 A)." "$(ask 7101 'peek 999 302')"
check "write --sge 16 succeeds" $TOOL rdma write $A $C --offset 1400 --len 100 --pattern 0x42 --sge 16
check_eq "16 segments gathered in order" "$(rep 100 B)" "$(ask 7101 'peek 1400 100')"

# write: --file, read back with --out, compared with cmp
head -c 3000 /dev/urandom > $T/in.bin
check "write --file (3000 random bytes) succeeds" $TOOL rdma write $A $C --offset 4096 --file $T/in.bin
check "read --out of the same range succeeds" $TOOL rdma read $A $C --offset 4096 --len 3000 --out $T/back.bin
check "the file read back is the file written (cmp)" cmp $T/in.bin $T/back.bin
check "read --sge 4 --out of the same range" \
	$TOOL rdma read $A $C --offset 4096 --len 3000 --sge 4 --out $T/back4.bin
check "scattered over 4 segments, it is still the file (cmp)" cmp $T/in.bin $T/back4.bin
check "read --poll direct --out of the same range" \
	$TOOL rdma read $A $C --poll direct --offset 4096 --len 3000 --out $T/backd.bin
check "busy-polled, it is still the file (cmp)" cmp $T/in.bin $T/backd.bin

# write: flags
check "write --inline succeeds" $TOOL rdma write $A $C --offset 300 --data inline-data --inline
check_eq "the inline write landed" "inline-data" "$(ask 7101 'peek 300 11')"
check "write --fence succeeds" $TOOL rdma write $A $C --offset 320 --data fenced --fence
check_eq "the fenced write landed" "fenced" "$(ask 7101 'peek 320 6')"
check "write --unsignaled succeeds" $TOOL rdma write $A $C --offset 340 --data quiet --unsignaled
check_eq "the unsignalled write landed" "quiet" "$(ask 7101 'peek 340 5')"
check "write --poll direct succeeds" $TOOL rdma write $A $C --poll direct --offset 360 --data direct
check_eq "the busy-polled write landed" "direct" "$(ask 7101 'peek 360 6')"
j=$($TOOL -j rdma write $A $C --offset 380 --len 0)
jcheck "a zero-length write succeeds (bytes 0, sge 0)" "$j" \
	'.bytes == 0 and .sge == 0 and .status == 0'
check_eq "and changes nothing" "..." "$(ask 7101 'peek 379 3')"

# write --imm: WRITE_WITH_IMM, seen by reg as a write_imm event
j=$($TOOL -j rdma write $A $C --offset 400 --data withimm --imm 77)
jcheck "write --imm 77 succeeds and reports imm" "$j" '.status == 0 and .imm == 77'
check_eq "the data of the WRITE_WITH_IMM landed" "withimm" "$(ask 7101 'peek 400 7')"
check "reg reports the immediate (event write_imm, imm 77)" wait_for 5 sh -c \
	"jq -e -s 'map(select(.event == \"write_imm\" and .imm == 77)) | length == 1' $T/A.out"

# --read-then-write: a READ of 8 bytes, then a fenced WRITE of the same place
check "write 12345678 at 8192" $TOOL rdma write $A $C --offset 8192 --data 12345678
j=$($TOOL -j rdma write $A $C --offset 8192 --data abcdefgh --read-then-write)
jcheck "read-then-write reads the old value before the fenced write" "$j" \
	".status == 0 and .read_status == 0 and .read_error == null and
	 .read_wc_status == \"SUCCESS\" and .fence == true and
	 .read_before == $((0x3837363534333231))"
check_eq "and the new value is in place" "abcdefgh" "$(ask 7101 'peek 8192 8')"
j=$($TOOL -j rdma write $A $C --offset 8192 --data ABCDEFGH --read-then-write --no-fence)
# (unfenced, the READ may see the WRITE after it: either value will do)
jcheck "read-then-write --no-fence: no fence, both done" "$j" \
	".status == 0 and .read_status == 0 and .fence == false and
	 (.read_before == $((0x6867666564636261)) or .read_before == $((0x4847464544434241)))"

# read: hexdump, JSON, --check-byte
check "read prints the bytes (hexdump)" sh -c \
	"$TOOL rdma read $A $C --offset 100 --len 5 | grep -q '|hello|'"
j=$($TOOL -j rdma read $A $C --offset 100 --len 5)
jcheck "read -j: op, bytes, status, wc_status, hex" "$j" \
	'.op == "read" and .bytes == 5 and .status == 0 and .error == null and
	 .wc_status == "SUCCESS" and .offset == 100 and .hex == "68656c6c6f" and
	 (.fnv64 | length == 16)'
j=$($TOOL -j rdma read $A $C --offset 1000 --len 300 --sge 4 --check-byte 0x41)
jcheck "read --sge 4 --check-byte: gaps untouched, every byte checked" "$j" \
	'.status == 0 and .sge == 4 and .gaps_ok == true and .check_byte == 65 and
	 .check_ok == true and .first_mismatch == null'
check_fail "read --check-byte fails on the first other byte" "byte 300 is 0x2e, not 0x41" \
	$TOOL rdma read $A $C --offset 1000 --len 301 --check-byte 0x41

# the whole buffer, seen by the server and by a READ
sum=$(ask 7101 sum)
check "the server answers sum" sh -c "echo '$sum' | grep -Eq '^sum [0-9a-f]{16} [0-9]+\$'"
j=$($TOOL -j rdma read $A $C --len 64k)
check_eq "a READ of the whole buffer has the server's FNV-1a" \
	"$(echo "$sum" | cut -d' ' -f2)" "$(printf '%s\n' "$j" | jq -r .fnv64)"

# atomics on the u64 at 16384
check "write 8 zero bytes at 16384" $TOOL rdma write $A $C --offset 16384 --len 8 --pattern 0
j=$($TOOL -j rdma atomic fadd $A $C --offset 16384 --add 5)
jcheck "fadd 5 returns the old value 0" "$j" \
	'.op == "fadd" and .old == 0 and .done == 1 and .count == 1 and
	 .status == 0 and .wc_status == "SUCCESS"'
j=$($TOOL -j rdma atomic fadd $A $C --offset 16384 --add 3 --count 100)
jcheck "fadd 3 a hundred times (two calls): first old 5, last old 302" "$j" \
	'.done == 100 and .first_old == 5 and .old == 302 and .status == 0'
check "fadd prints the old value" sh -c \
	"$TOOL rdma atomic fadd $A $C --offset 16384 --add 0 | grep -q 'old 305'"
j=$($TOOL -j rdma read $A $C --offset 16384 --len 8)
jcheck "the u64 is 305" "$j" '.first_u64 == 305'
j=$($TOOL -j rdma atomic cswap $A $C --offset 16384 --compare 305 --swap 1000)
jcheck "cswap 305 -> 1000 succeeds: old 305, swapped" "$j" \
	'.op == "cswap" and .old == 305 and .swapped == true and .status == 0'
j=$($TOOL -j rdma atomic cswap $A $C --offset 16384 --compare 305 --swap 7)
jcheck "cswap 305 -> 7 does not swap: old 1000" "$j" \
	'.old == 1000 and .swapped == false and .status == 0'
check "cswap says so in text" sh -c \
	"$TOOL rdma atomic cswap $A $C --offset 16384 --compare 1 --swap 2 | grep -q 'old 1000 (not swapped)'"
j=$($TOOL -j rdma read $A $C --offset 16384 --len 8)
jcheck "the u64 is 1000" "$j" '.first_u64 == 1000'
check_fail "an unaligned atomic is refused" "Invalid argument" \
	$TOOL rdma atomic fadd $A $C --offset 16385 --add 1

# errors
check_fail "write --stale: the dead key is refused" \
	"write: Permission denied \(EACCES, wc_status REM_ACCESS_ERR" \
	$TOOL rdma write $A $C --offset 500 --data stale --stale
check "reg reports the dereg" sh -c \
	"jq -e -s 'map(select(.event == \"dereg\")) | length == 1' $T/A.out"
check_eq "the stale write changed nothing" "....." "$(ask 7101 'peek 500 5')"
j=$($TOOL -j rdma read $A $C --len 8 --stale)
check_eq "read --stale exits 1" 1 "$?"
jcheck "read --stale -j: status -13, EACCES, REM_ACCESS_ERR" "$j" \
	'.status == -13 and .error == "EACCES" and .wc_status == "REM_ACCESS_ERR"'
check_fail "a write past the end is refused" "Permission denied.*REM_ACCESS_ERR" \
	$TOOL rdma write $A $C --offset 65534 --data xyz
check_eq "and changes nothing" ".." "$(ask 7101 'peek 65534 2')"
check_fail "a read past the end is refused" "Permission denied.*REM_ACCESS_ERR" \
	$TOOL rdma read $A $C --offset 65000 --len 1000
check_fail "a wrong rkey is refused" "Permission denied.*REM_ACCESS_ERR" \
	$TOOL rdma read $A $C --len 8 --rkey 0x1
check_fail "a wrong remote address is refused" "Permission denied.*REM_ACCESS_ERR" \
	$TOOL rdma write $A $C --raddr 0x1000 --data x
check_fail "an inline write over the inline limit is refused" \
	"write: --inline: 65536 bytes are over the channel's inline limit of [0-9]+" \
	$TOOL rdma write $A $C --len 64k --inline
check_eq "reg answers a peek past the end with ERANGE" "peek error ERANGE" \
	"$(ask 7101 'peek 65000 1000')"

# bench --op write | read: short runs, non-zero bandwidth
out=$($TOOL chan bench $A $C --op write -s 4k -t 2s -q)
check "bench --op write runs and prints its bandwidth" sh -c \
	"echo '$out' | grep -Eq ' write size 4096 batch 16: [1-9][0-9]* ops in .* MB/s'"
check "bench --op write reports non-zero MB/s" sh -c \
	"echo '$out' | awk '{ for (i = 1; i < NF; i++) if (\$(i + 1) == \"MB/s\") exit !(\$i > 0); exit 1 }'"
check "bench --op write spread zeros over the whole buffer" \
	$TOOL rdma read $A $C --len 64k --check-byte 0
j=$($TOOL -j chan bench $A $C --op read -s 8k -b 8 -t 2s -q)
jcheck "bench --op read -j: ops, bytes and non-zero bandwidth" "$j" \
	'.op == "read" and .size == 8192 and .batch == 8 and .mode == "user" and
	 .ops > 0 and .bytes == .ops * 8192 and .mbytes_per_sec > 0 and
	 .gbits_per_sec > 0 and .seconds >= 2'
j=$($TOOL -j chan bench $A $C --op write -s 1k -c 100)
jcheck "bench --op write -c 100 does exactly 100" "$j" '.ops == 100 and .bytes == 102400'

# a peer that sends requests and never reads the answers stalls only
# its own channel: the others are still answered
nfailed() {
	jq -s 'map(select(.event == "failed")) | length' $T/A.out
}
f0=$(nfailed)
check_eq "reg saw the six channels a refused access broke fail" 6 "$f0"
reqs=$(for i in $(seq 400); do printf 'sum '; done)
timeout 60 $TOOL chan send $A $C $reqs > $T/deaf.out 2>&1 &
PID_deaf=$!
sleep 2
r=$(ask 7101 sum)
check "a peer that does not read its answers does not block the others" sh -c \
	"[ -d /proc/$PID_deaf ] && echo '$r' | grep -Eq '^sum [0-9a-f]{16} 0\$'"
kill $PID_deaf
wait $PID_deaf
failed_one_more() {
	[ "$(nfailed)" -eq $((f0 + 1)) ]
}
check "reg ends that channel when it goes" wait_for 5 failed_one_more

# four clients at once: fetch-adds on one word never lose an update
check "write 8 zero bytes at 24576" $TOOL rdma write $A $C --offset 24k --len 8 --pattern 0
for i in 1 2 3 4; do
	$TOOL -j rdma atomic fadd $A $C --offset 24k --add 1 --count 300 > $T/fadd$i.out 2>&1 &
	eval "PID_fadd$i=\$!"
done
for i in 1 2 3 4; do
	eval "wait \$PID_fadd$i"
	check_eq "concurrent fadd client $i exits 0" 0 "$?"
done
j=$($TOOL -j rdma read $A $C --offset 24k --len 8)
jcheck "four clients' 1200 fetch-adds all count" "$j" '.first_u64 == 1200'

sum=$(ask 7101 sum)
kill $PID_A
wait $PID_A
check_eq "reg exits 0 on SIGTERM" 0 "$?"
check "reg's summary: channels, write_imm, fnv64 of the last sum" sh -c \
	"tail -n 1 $T/A.out | jq -e '.write_imm == 1 and .size == $SIZE and .reg_errors == 0 and
	 .channels > 30 and .fnv64 == \"$(echo "$sum" | cut -d' ' -f2)\" and .first_u64 == 0'"

# ---- server B: no remote write, unaligned ----------------------------------
reg_bg B 7102 --size 10000 --fill 0x33 --access local-write,remote-read --offset-in-page 100 -n 3
B=$SRV:7102
check_fail "a write without remote-write rights is refused" \
	"write: Permission denied \(EACCES, wc_status REM_ACCESS_ERR" \
	$TOOL rdma write $B $C --data nope
check "reg B registered without remote write" sh -c \
	"jq -e -s 'map(select(.event == \"registered\")) | length == 1 and .[0].access == \"local-write,remote-read\"' $T/B.out"
# the buffer starts 100 bytes into a page: the first aligned u64 of it
baddr=$(jq -r -s 'map(select(.event == "registered")) | .[0].addr' $T/B.out)
boff=$(( (8 - (baddr & 7)) & 7 ))
check "an unaligned registration reads whole, across pages" \
	$TOOL rdma read $B $C --len 10000 --check-byte 0x33
check_fail "an atomic without remote-atomic rights is refused" "Permission denied.*REM_ACCESS_ERR" \
	$TOOL rdma atomic fadd $B $C --offset $boff --add 1
wait $PID_B
check_eq "reg -n 3 exits 0 after three channels" 0 "$?"
check "B's buffer was never written" sh -c \
	"tail -n 1 $T/B.out | jq -e '.channels == 3 and .first_u64 == $((0x3333333333333333))'"

# ---- server C: a registration the kernel refuses ---------------------------
reg_bg C 7103 --size 4k --access remote-write -n 1
check_fail "a client is told the server could not register" \
	"could not register its buffer: EINVAL" $TOOL rdma read $SRV:7103 $C --len 8
wait $PID_C
check_eq "reg exits 1 when a registration failed" 1 "$?"
check "reg reports reg_failed with EINVAL" sh -c \
	"jq -e -s 'map(select(.event == \"reg_failed\" and .error == \"EINVAL\")) | length == 1' $T/C.out"

# ---- server D: 1 MiB starting 1000 bytes into a page, text output -------
timeout 240 $TOOL mr reg $SRV:7104 --size 1m --offset-in-page 1000 -n 4 > $T/D.out 2> $T/D.err &
PID_D=$!
wait_for 10 listening 7104
D=$SRV:7104
check "reg prints where it listens" grep -q "^listening on $SRV:7104\$" $T/D.err
head -c 1048576 /dev/urandom > $T/big.bin
check "write --file of 1 MiB, gathered from 16 segments" \
	$TOOL rdma write $D $C --file $T/big.bin --sge 16
check "read --sge 16 --out of the whole 1 MiB" \
	$TOOL rdma read $D $C --len 1m --sge 16 --out $T/bigback.bin
check "1 MiB over 257 pages comes back as written (cmp)" cmp $T/big.bin $T/bigback.bin
check "write --imm --solicited says what it wrote" sh -c \
	"$TOOL rdma write $D $C --offset 4k --data sol --imm 5 --solicited | grep -q '^wrote 3 bytes to $D offset 4096\$'"
check_fail "a local buffer over the registration limit is refused" \
	"register 4194304 bytes: Argument list too long \(E2BIG\)" \
	$TOOL rdma write $D $C --len 4m
wait $PID_D
check_eq "reg -n 4 exits 0" 0 "$?"
check "reg's text lines: registered, write_imm, closed" sh -c \
	"grep -q '^chan [0-9]*: registered 1048576 bytes for $CLI:[0-9]*: addr 0x[0-9a-f]* rkey 0x[0-9a-f]*\$' $T/D.err &&
	 grep -q '^chan [0-9]*: write_imm imm 5\$' $T/D.err &&
	 grep -q '^chan [0-9]*: closed after 1 write_imm, 0 unknown requests\$' $T/D.err"
check "reg's text summary" grep -Eq \
	"^4 channels, 1 write_imm, fnv64 [0-9a-f]{16}, first u64 [0-9]+\$" $T/D.out

# usage errors and help
$TOOL rdma write $A >/dev/null 2>&1
check_eq "write without data is a usage error" 2 "$?"
$TOOL rdma write $A --data x --len 3 >/dev/null 2>&1
check_eq "write with two sources is a usage error" 2 "$?"
$TOOL rdma read $A >/dev/null 2>&1
check_eq "read without --len is a usage error" 2 "$?"
$TOOL rdma atomic >/dev/null 2>&1
check_eq "atomic without an operation is a usage error" 2 "$?"
$TOOL rdma atomic fadd $A --compare 1 >/dev/null 2>&1
check_eq "atomic fadd --compare is a usage error" 2 "$?"
$TOOL mr reg $A >/dev/null 2>&1
check_eq "reg without --size is a usage error" 2 "$?"
$TOOL chan bench $A --op write -b 65 >/dev/null 2>&1
check_eq "bench --op write -b 65 is a usage error" 2 "$?"
for c in "mr reg" "rdma write" "rdma read" "rdma atomic fadd" "chan bench"; do
	check "$c --help exits 0" $TOOL $c --help
done
check "no registration outlives the tool (rdmachan unloads)" rdmachan_unload
done_testing
