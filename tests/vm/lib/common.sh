# SPDX-License-Identifier: GPL-2.0-only
#
# tests/vm/lib/common.sh: what every part of the guest library uses
# (sourced by /tests/lib.sh): the paths of the programs the scripts call,
# and waiting for commands and processes.

# busybox sh runs its own applets before PATH: call real tools by path.
IP=/usr/sbin/ip
RDMA=/usr/bin/rdma
MODPROBE=/usr/sbin/modprobe
RMMOD=/usr/sbin/rmmod
TOOL=/usr/bin/rdmachan
HELPERS=/usr/libexec/rdmachan

# wait_for SECONDS CMD [ARGS...]: retry CMD every 0.1 s until it succeeds.
wait_for() {
	_n=$(($1 * 10))
	shift
	while [ "$_n" -gt 0 ]; do
		"$@" >/dev/null 2>&1 && return 0
		sleep 0.1
		_n=$((_n - 1))
	done
	return 1
}

# proc_ended PID...: each process PID has ended: no such process, or a
# zombie.
# A case's background job that exits while the case waits inside check
# (its command substitution runs in a subshell) stays a zombie until
# check returns, since only the case's own shell can reap it: kill -0
# alone would see it alive for as long as the wait lasts.
proc_ended() {
	for _p in "$@"; do
		kill -0 "$_p" 2>/dev/null || continue
		grep -q '^State:[[:space:]]*Z' "/proc/$_p/status" 2>/dev/null || return 1
	done
}

# bg NAME CMD...: run CMD in the background, killed after 60 s (or
# $BG_SECS) so that a hang fails the case instead of stalling it; its
# output goes to $T/NAME.out and $T/NAME.err, its pid to $PID_NAME.  A
# server that must outlive a long client run says so with BG_SECS.
bg() {
	_n=$1
	shift
	timeout "${BG_SECS:-60}" "$@" > "${T:-/tmp}/$_n.out" 2> "${T:-/tmp}/$_n.err" &
	eval "PID_$_n=$!"
}
