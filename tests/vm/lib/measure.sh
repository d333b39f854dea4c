# SPDX-License-Identifier: GPL-2.0-only
#
# tests/vm/lib/measure.sh: what the benchmarks (tests/bench/bench_*.sh)
# measure beside their figures (sourced by /tests/lib.sh): each CPU's
# busy share, a perf profile's top; which block jobs run, and on disks set
# up how (bench_want, bench_disk_pass).  The soft-RDMA devices' port
# counters are the fixture's (hw_counters), the block channel's are
# blk.sh's (blk_chan_stats), and run_checks reports what each step took.

# cpu_snap [STAT]: each CPU's busy and idle jiffies ("cpuN BUSY IDLE"),
# from /proc/stat (or STAT, "-" for stdin: another host's); cpu_busy
# BEFORE [AFTER]: each CPU's busy share between the snapshot in file
# BEFORE and the one in AFTER (default: now), on one line ("cpu0 41%
# cpu1 95%")
cpu_snap() { awk '/^cpu[0-9]/ { print $1, $2 + $3 + $4 + $7 + $8, $5 + $6 }' "${1:-/proc/stat}"; }
cpu_busy() {
	{ if [ -n "${2:-}" ]; then cat "$2"; else cpu_snap; fi; } |
		awk 'NR == FNR { b[$1] = $2; i[$1] = $3; next }
		{ d = $2 - b[$1]; t = d + $3 - i[$1]
		  printf "%s%s %d%%", sep, $1, t ? 100 * d / t : 0; sep = " " }
		END { print "" }' "$1" -
}

# perf_top DATA LINES: the top of "perf report" of DATA by object and
# symbol (the benches' profiles; perf is in the initramfs only with
# RDMACHAN_EXTRA_PROGRAMS=/usr/bin/perf)
perf_top() {
	/usr/bin/perf report -i "$1" --stdio --no-children --sort dso,sym \
		2>/dev/null | grep -v '^#' | grep -v '^$' | head -n "$2"
}

# bench_want JOB: JOB is one of BENCH_BLK_JOBS (comma-separated on the
# kernel command line; every job of the benchmark when unset)
bench_want() {
	case ",${BENCH_BLK_JOBS:-$1}," in
	*",$1,"*) return 0 ;;
	esac
	return 1
}

# bench_disk_pass KIND: the block benchmarks' jobs on KIND's remote disk
# (rcblk, nvme), set up by "KIND_up POLL", which prints the disk, and
# taken down by "KIND_down DEV": the libaio jobs (bench_libaio KIND DEV)
# on the disk without queues of polled I/O, then the polled ones
# (bench_polled KIND DEV) on it set up again with POLLQ of them.  Each
# set runs on a disk set up for it alone: beside nvme-rdma's one queue, a
# queue of polled I/O doubled its libaio QD1 latency between two hosts.
# A set that did not run reports 0s (bench_none KIND libaio|polled).
bench_disk_pass() {
	if { bench_want rr1 || bench_want rr32 || bench_want rw32 ||
		bench_want sr || bench_want sw || bench_want rr32c; } &&
		_bd=$("$1_up" 0); then
		bench_libaio "$1" "$_bd"
		"$1_down" "$_bd"
	else
		bench_none "$1" libaio
	fi
	if { bench_want pr1 || bench_want pr32; } &&
		_bd=$("$1_up" "$POLLQ"); then
		bench_polled "$1" "$_bd"
		"$1_down" "$_bd"
	else
		bench_none "$1" polled
	fi
}
