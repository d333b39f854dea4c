#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# A channel made through /dev/rdmachan is charged to its maker's memory
# cgroup: what it allocates for itself (sysfs mem_bytes) is in the
# cgroup's memory.current while it is open and leaves with it, for a
# connecting process and for a listening one (the channels its listener
# takes in).  A maker whose memory.max has no room for a channel gets
# ENOMEM and a log line, no OOM kill, and the same connect from outside
# that cgroup succeeds; a listener's maker without room refuses the
# request (the peer's connect fails with ENOMEM) and takes it in once
# there is room again.  The channels carry messages of up to 1 MiB, so
# that even the few buffers a new channel holds weigh a few MiB.

# Debian's kernels: memory cgroups are the kernel's; what rdmachan adds
# is the same on the debug kernel
requires() {
	_have_kernel stock 6.12
}

. /tests/lib.sh

SRV=192.0.2.1
CLI=192.0.2.2
T=/tmp/memcg
CG=/sys/fs/cgroup
mkdir -p $T

# $T/in_cg CGROUP CMD...: run CMD in the cgroup
cat > $T/in_cg <<'SH'
#!/bin/sh
echo $$ > "/sys/fs/cgroup/$1/cgroup.procs" || exit 1
shift
exec "$@"
SH
chmod +x $T/in_cg

# chan_of ROLE: the sysfs directory of the one channel in that role
chan_of() {
	grep -l "^$1\$" /sys/class/rdmachan/chan*/role 2>/dev/null |
		sed 's,/role$,,' | head -n 1
}

# chan_up ROLE: the channel in that role is connected
chan_up() {
	_c=$(chan_of "$1")
	[ -n "$_c" ] && [ "$(cat "$_c/state")" = connected ]
}

# port_up PORT: the channel accepted on local port PORT is connected
port_up() {
	_c=$(grep -l ":$1\$" /sys/class/rdmachan/chan*/src_addr 2>/dev/null |
		head -n 1)
	[ -n "$_c" ] && [ "$(cat "${_c%/src_addr}/state")" = connected ]
}

# no_active: the client's channel is gone
no_active() {
	[ -z "$(chan_of active)" ]
}

# no_chan_left: every channel is gone
no_chan_left() {
	! ls -d /sys/class/rdmachan/chan* >/dev/null 2>&1
}

# held NAME CGROUP ADDR: a "chan connect" from CGROUP, open until
# release NAME closes its input
held() {
	rm -f "$T/$1.in"
	mkfifo "$T/$1.in"
	BG_SECS=120 bg "$1" $T/in_cg "$2" sh -c \
		"$TOOL chan connect $3 --src $CLI -m 1M < $T/$1.in"
	# read-write: opens at once, even when the reader never comes
	exec 8<> "$T/$1.in"
}

release() {
	exec 8>&-
	eval "wait \$PID_$1"
}

# at_least A B: A >= B
at_least() {
	[ "$1" -ge "$2" ]
}

check "rxe pair comes up" rxe_pair_up
check "rdmachan loads" rdmachan_load
check "cgroup2 is mounted" sh -c \
	"grep -q ' $CG cgroup2 ' /proc/mounts || mount -t cgroup2 none $CG"
check "the memory controller is on for child cgroups" sh -c \
	"echo +memory > $CG/cgroup.subtree_control"
check "cgroups for a client and a server" mkdir -p $CG/cli $CG/srv

# a client's channel
bg sink $TOOL chan listen $SRV:7101 --sink -q -m 1M
wait_for 10 listening 7101
held c1 cli $SRV:7101
check "the client's channel comes up" wait_for 20 chan_up active
A=$(chan_of active)
MEM=$(cat "$A/mem_bytes" 2>/dev/null || echo 0)
CUR=$(cat $CG/cli/memory.current)
diag "client channel: mem_bytes $MEM, cgroup memory.current $CUR"
check "a channel of 1 MiB messages holds over 4 MiB of its own" \
	at_least "$MEM" 4194304
check "the client's cgroup is charged for it" at_least "$CUR" "$MEM"
release c1
check "the channel closes" wait_for 20 no_active
AFTER=$(cat $CG/cli/memory.current)
diag "after the close: memory.current $AFTER"
check "its memory leaves the cgroup with it" \
	at_least $((CUR - AFTER)) $((MEM * 9 / 10))

# a server's channels: charged to the listener's maker
bg sink2 $T/in_cg srv $TOOL chan listen $SRV:7102 --sink -q -m 1M
wait_for 10 listening 7102
SRV0=$(cat $CG/srv/memory.current)
held c2 "" $SRV:7102
check "the server's channel comes up" wait_for 20 port_up 7102
P=$(grep -l ":7102\$" /sys/class/rdmachan/chan*/src_addr | sed 's,/src_addr$,,')
PMEM=$(cat "$P/mem_bytes" 2>/dev/null || echo 0)
SRV1=$(cat $CG/srv/memory.current)
diag "server channel: mem_bytes $PMEM, memory.current $SRV0 -> $SRV1"
check "the listener's cgroup is charged for the channel it took in" \
	at_least $((SRV1 - SRV0)) $((PMEM * 9 / 10))
release c2
# the listener's cgroup without room: the worker that builds the channel
# refuses the request (NO_RESOURCES), the connect fails with ENOMEM
check "the server's channel closes" wait_for 20 no_active
check "the listener's cgroup gets half a channel's room" sh -c \
	"echo \$((\$(cat $CG/srv/memory.current) + $PMEM / 2)) > $CG/srv/memory.max"
check_fail "a connect the listener's cgroup has no room for fails with ENOMEM" \
	"Cannot allocate memory" \
	$TOOL chan send $SRV:7102 --src $CLI -m 1M hello
check "the listener logs that it cannot set the channel up" sh -c \
	"dmesg | grep -q 'cannot set up a channel: -12'"
check "no process of the listener's cgroup was OOM-killed" \
	grep -q '^oom_kill 0$' $CG/srv/memory.events
check "the listener's memory.max back to max" sh -c \
	"echo max > $CG/srv/memory.max"
check "the listener takes the same connect in now" \
	$TOOL chan send $SRV:7102 --src $CLI -m 1M hello
kill "$PID_sink2" 2>/dev/null
wait "$PID_sink2" 2>/dev/null

# no room: ENOMEM, not an OOM kill
check "the client's cgroup gets half a channel's room" sh -c \
	"echo $((MEM / 2)) > $CG/cli/memory.max"
check_fail "a connect its cgroup has no room for fails with ENOMEM" \
	"Cannot allocate memory" \
	$T/in_cg cli $TOOL chan send $SRV:7101 --src $CLI -m 1M hello
check "the refusal is logged" sh -c \
	"dmesg | grep -q 'no memory for the channel.s buffers after .*memory cgroup may be at its limit'"
check "no process was OOM-killed for it" grep -q '^oom_kill 0$' \
	$CG/cli/memory.events
check "the same connect from outside that cgroup succeeds" \
	$TOOL chan send $SRV:7101 --src $CLI -m 1M hello
check "memory.max back to max" sh -c "echo max > $CG/cli/memory.max"

kill "$PID_sink" 2>/dev/null
wait "$PID_sink" 2>/dev/null
check "every channel is gone" wait_for 20 no_chan_left
check "the cgroups go" rmdir $CG/cli $CG/srv
check "rdmachan unloads" rdmachan_unload
done_testing
