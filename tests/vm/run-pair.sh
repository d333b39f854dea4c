#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# run-pair.sh [OPTIONS] --cases CASE: the two-VM fixture.
#
# Boots two test VMs (tests/vm/run-vm.sh), a server and a client, each
# with one virtio NIC on a point-to-point link between the two: a qemu
# socket netdev, UDP datagrams between two ports of 127.0.0.1, so that
# nothing leaves this machine (and a VM that dies and boots again finds
# its link where it was).  Both run CASE; the kernel command line's
# rdmachan_role (server, client) says which half.  The server has a disk
# (virtio, raw, 256 MiB) that outlives each of its boots.
#
# The client's results are the run's: console.log and results.ktap in
# --out.  Each boot of the server has its own directory, server-N/.
#
# The client asks for what only the host can do over its control line
# (serial port 2), one request a line, answered "ok" or "fail WHY":
#   server ready    wait until the server says it serves (its first boot)
#   server kill     terminate the server's qemu (SIGKILL): its host is gone
#   server start    boot the server again; answered once it says "ready"
#   server stop     stop its vCPUs ("stop" in its qemu monitor): a host
#                   that is frozen, neither answering nor closing anything
#   server cont     let them run again ("cont")
#   server finish   tell the server to end (its last checks, then it
#                   powers off) and wait for that
# The server says "ready" on its own control line once it serves, then
# waits there for "finish".
#
# Options:
#   --initrd FILE, --kver KVER   as for run-vm.sh
#   --out DIR       where the results go (default tests/vm/out/pair)
#   --timeout SEC   of the client VM, and of each server boot (default 300)
set -uo pipefail

TOP=$(cd "$(dirname "$0")/../.." && pwd)
OUT=$TOP/tests/vm/out/pair
TIMEOUT=300
CASE=
VMARGS=()
while [ $# -gt 0 ]; do
	case "$1" in
	--initrd|--kver) VMARGS+=("$1" "$2"); shift ;;
	--out) OUT=$2; shift ;;
	--timeout) TIMEOUT=$2; shift ;;
	--cases) CASE=$2; shift ;;
	-h|--help) sed -n '3,32p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "run-pair.sh: unknown argument '$1'" >&2; exit 2 ;;
	esac
	shift
done
[ -n "$CASE" ] || { echo "run-pair.sh: need --cases CASE" >&2; exit 2; }

mkdir -p "$OUT"
rm -rf "$OUT"/server-* "$OUT"/*.in "$OUT"/*.out "$OUT"/server.img
: > "$OUT/console.log"
: > "$OUT/results.ktap"
LOG=$OUT/pair.log
: > "$LOG"
say() { echo "$(date +%T) $*" >> "$LOG"; }

# Two free UDP ports of 127.0.0.1, one for each end of the link.
free_port() {
	local p
	while :; do
		p=$((20000 + RANDOM % 30000))
		[ "$p" != "${1:-}" ] || continue
		[ -z "$(ss -Hlun "sport = :$p" 2>/dev/null)" ] && { echo "$p"; return; }
	done
}
SPORT=$(free_port)
CPORT=$(free_port "$SPORT")

# The control lines (and the server's monitor) are pairs of fifos, opened
# here read-write so that neither side blocks on open or sees EOF when
# the other restarts.
for f in client.ctl server.ctl server.mon; do
	mkfifo "$OUT/$f.in" "$OUT/$f.out" || exit 1
done
exec {C_IN}<>"$OUT/client.ctl.in" {C_OUT}<>"$OUT/client.ctl.out"
exec {S_IN}<>"$OUT/server.ctl.in" {S_OUT}<>"$OUT/server.ctl.out"
exec {M_IN}<>"$OUT/server.mon.in" {M_OUT}<>"$OUT/server.mon.out"
truncate -s 256M "$OUT/server.img" || exit 1

SERVER_BOOT=0
SERVER_JOB=
SERVER_READY=0

# drain FD: throw away what a fifo holds (a dead boot's last words)
drain() {
	local line
	while read -r -t 0.1 -u "$1" line; do :; done
	PARTIAL[$1]=
}

# read_line FD TIMEOUT: a whole line of FD in LINE (its CR cut), within
# TIMEOUT seconds, or false.  A busy VM's console may write a line in
# pieces more than TIMEOUT apart, and bash's read gives back the piece it
# has at a timeout: it is kept for the next call, not lost, so that a
# line is never taken for its tail ("rver start").
declare -A PARTIAL
read_line() {
	local part
	if IFS= read -r -t "$2" -u "$1" part; then
		LINE=${PARTIAL[$1]:-}$part
		LINE=${LINE%$'\r'}
		PARTIAL[$1]=
		return 0
	fi
	PARTIAL[$1]=${PARTIAL[$1]:-}$part
	return 1
}

server_running() {
	[ -n "$SERVER_JOB" ] && kill -0 "$SERVER_JOB" 2>/dev/null
}

server_boot() {
	SERVER_BOOT=$((SERVER_BOOT + 1))
	local dir=$OUT/server-$SERVER_BOOT
	mkdir -p "$dir"
	drain "$S_OUT"
	drain "$M_OUT"
	rm -f "$OUT/server.pid"
	SERVER_READY=0
	RDMACHAN_APPEND="${RDMACHAN_APPEND:-} rdmachan_role=server" \
		"$TOP/tests/vm/run-vm.sh" "${VMARGS[@]}" --out "$dir" \
		--timeout "$TIMEOUT" --cases "$CASE" \
		--nic "$SPORT:$CPORT:52:54:00:00:00:01" --ctl "$OUT/server.ctl" \
		--monitor "$OUT/server.mon" --disk "$OUT/server.img" \
		--pidfile "$OUT/server.pid" > "$dir/run.log" 2>&1 &
	SERVER_JOB=$!
	say "server boot $SERVER_BOOT started (job $SERVER_JOB)"
}

# server_wait_ready: until the server says "ready" (120 s at most)
server_wait_ready() {
	local line n=0
	[ "$SERVER_READY" = 1 ] && return 0
	while server_running && [ $n -lt 1200 ]; do
		if read_line "$S_OUT" 0.1; then
			line=$LINE
			say "server: $line"
			[ "$line" = ready ] && { SERVER_READY=1; return 0; }
		fi
		n=$((n + 1))
	done
	REASON="the server did not say ready (boot $SERVER_BOOT $(server_running && echo running || echo ended))"
	return 1
}

server_kill() {
	local pid
	server_running || { REASON="the server is not running"; return 1; }
	pid=$(cat "$OUT/server.pid" 2>/dev/null)
	[ -n "$pid" ] || { REASON="no pid of the server's qemu"; return 1; }
	kill -KILL "$pid"
	wait "$SERVER_JOB" 2>/dev/null
	SERVER_JOB=
	say "server boot $SERVER_BOOT killed"
}

# monitor CMD EXPECT: a command to the server's qemu monitor, then "info
# status" until it says EXPECT (10 s at most)
monitor() {
	local line n=0
	server_running || { REASON="the server is not running"; return 1; }
	drain "$M_OUT"
	printf '%s\n' "$1" >&"$M_IN"
	while [ $n -lt 100 ]; do
		printf 'info status\n' >&"$M_IN"
		while read -r -t 0.1 -u "$M_OUT" line; do
			case "$line" in
			*"VM status: $2"*) say "server $1: $2"; return 0 ;;
			esac
		done
		n=$((n + 1))
	done
	REASON="the monitor did not say '$2' after '$1'"
	return 1
}

server_finish() {
	local n=0
	server_running || { REASON="the server is not running"; return 1; }
	printf 'finish\n' >&"$S_IN"
	while server_running && [ $n -lt 1200 ]; do
		sleep 0.1
		n=$((n + 1))
	done
	server_running && { REASON="the server did not end within 120 s"; return 1; }
	wait "$SERVER_JOB" 2>/dev/null
	SERVER_JOB=
	say "server boot $SERVER_BOOT finished"
}

# request LINE: do what the client asked; ANSWER: what to send back
request() {
	REASON=
	case "$1" in
	"server ready") server_wait_ready ;;
	"server kill") server_kill ;;
	"server start") server_running && { REASON="the server runs"; false; } ||
		{ server_boot; server_wait_ready; } ;;
	"server stop") monitor stop paused ;;
	"server cont") monitor cont running ;;
	"server finish") server_finish ;;
	*) REASON="unknown request"; false ;;
	esac && { ANSWER=ok; return; }
	ANSWER="fail $REASON"
}

server_boot
RDMACHAN_APPEND="${RDMACHAN_APPEND:-} rdmachan_role=client" \
	"$TOP/tests/vm/run-vm.sh" "${VMARGS[@]}" --out "$OUT" \
	--timeout "$TIMEOUT" --cases "$CASE" \
	--nic "$CPORT:$SPORT:52:54:00:00:00:02" --ctl "$OUT/client.ctl" \
	> "$OUT/client-run.log" 2>&1 &
CLIENT_JOB=$!
say "client started (job $CLIENT_JOB), link 127.0.0.1:$CPORT <-> 127.0.0.1:$SPORT"

while kill -0 "$CLIENT_JOB" 2>/dev/null; do
	read_line "$C_OUT" 1 || continue
	line=$LINE
	[ -n "$line" ] || continue
	say "client asks: $line"
	request "$line" 2>>"$LOG"
	say "answer: $ANSWER"
	printf '%s\n' "$ANSWER" >&"$C_IN"
done
wait "$CLIENT_JOB"
rc=$?
say "client ended (exit $rc)"
if server_running; then
	say "the server still runs: killed"
	kill -KILL "$(cat "$OUT/server.pid" 2>/dev/null)" 2>/dev/null
	wait "$SERVER_JOB" 2>/dev/null
	echo "# run-pair.sh: killed, the client having ended without 'server finish'" \
		>> "$OUT/server-$SERVER_BOOT/results.ktap"
fi
rm -f "$OUT"/*.in "$OUT"/*.out "$OUT/server.img" "$OUT/server.pid"
echo "$SERVER_BOOT" > "$OUT/server-boots"
exit "$rc"
