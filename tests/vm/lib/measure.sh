# SPDX-License-Identifier: GPL-2.0-only
#
# tests/vm/lib/measure.sh: what the benchmarks (tests/bench/bench_*.sh)
# measure beside their figures (sourced by /tests/lib.sh): each CPU's
# busy share, a perf profile's top; which block jobs run (bench_want),
# and how the block benches slice them between their two disks
# (slice_job, bench_pass).  The soft-RDMA devices' port
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

# ---- the block benchmarks' sliced jobs ----------------------------------
# Both block benches (bench_blk.sh on one VM, bench_blk_pair.sh between
# two) run each job on both remote disks, mapped at once, in slices
# taken in turns (slice_job).  Each bench sets BENCH_KEY (its results'
# prefix: blk, pair), SLICES, T, RATE_JOBS (its QD32 jobs), LIBAIO_FIGS
# and POLLED_FIGS (each set's figures, in the order of its jobs), ENGINE,
# and defines slice_one KIND DEV NAME I (one slice of job NAME on KIND's
# disk DEV, fio's json+ in $T/KIND.NAME.I.json, $T/KIND.NAME.bad when
# it failed), KIND_up POLL (maps KIND's disk with POLL queues of polled
# I/O, prints it) and KIND_down DEV.

# job_args NAME: fio's RW BS DEPTH for job NAME (rr32c: rr32 with the
# wire's work on fio's CPU, bench_blk.sh's one-CPU row)
job_args() {
	case $1 in
	rr1 | pr1) echo randread 4k 1 ;;
	rr32 | pr32 | rr32c) echo randread 4k 32 ;;
	rw32) echo randwrite 4k 32 ;;
	sr) echo read 128k 32 ;;
	sw) echo write 128k 32 ;;
	esac
}

# rate_args NAME: the direction, unit and figure of a rate job
rate_args() {
	case $1 in
	rr32) echo read iops randread_4k_qd32_iops ;;
	rw32) echo write iops randwrite_4k_qd32_iops ;;
	sr) echo read bw_bytes seqread_128k_MBps ;;
	sw) echo write bw_bytes seqwrite_128k_MBps ;;
	rr32c) echo read iops randread_4k_qd32_onecpu_iops ;;
	pr32) echo read iops randread_4k_qd32_polled_iops ;;
	esac
}

# slice_job KA DA KB DB NAME: job NAME on KA's disk DA and KB's disk DB,
# SLICES slices each, in turns A B B A A B B A ...  The host's speed
# drifts by a factor of two over minutes under TCG (testing.rst, "Pass
# by pass"); a drift that is steady over a pair of turns (A B B A) slows
# both disks alike, and a disk's figure is that of its slices together
# (lat_figs, rate_fig), not of one stretch of the job.
slice_job() {
	rm -f "$T/$1.$5".* "$T/$3.$5".*
	bench_want "$5" || return 0
	_i=0
	while [ $_i -lt "$SLICES" ]; do
		if [ $((_i % 2)) = 0 ]; then
			slice_one "$1" "$2" "$5" $_i
			slice_one "$3" "$4" "$5" $_i
		else
			slice_one "$3" "$4" "$5" $_i
			slice_one "$1" "$2" "$5" $_i
		fi
		_i=$((_i + 1))
	done
}

# sliced KIND NAME: whether job NAME ran on KIND's disk, every slice
sliced() {
	[ ! -f "$T/$1.$2.bad" ] && [ -f "$T/$1.$2.0.json" ]
}

# lat_figs KIND NAME: the p50 and p99 (us) of job NAME's slices on
# KIND's disk, from their latency histograms added up, as fio computes
# its percentiles from one (the smallest bin holding the share); 0 0
# when a slice failed or the job did not run
lat_figs() {
	if ! sliced "$1" "$2"; then
		echo 0 0
		return
	fi
	jq -r '.jobs[0].read.lat_ns.bins | to_entries[] |
		"\(.key) \(.value)"' "$T/$1.$2".*.json | sort -n | awk '
		{ k[NR] = $1; c[NR] = $2; n += $2 }
		END {
			p[1] = 50; p[2] = 99; j = 1; s = 0
			for (i = 1; i <= NR && j <= 2; i++) {
				s += c[i]
				while (j <= 2 && s >= p[j] / 100 * n)
					v[j++] = k[i] / 1000
			}
			printf "%.3f %.3f\n", v[1], v[2]
		}'
}

# rate_fig KIND NAME DIR iops|bw_bytes: the IOPS or MB/s (10^6 B/s) of
# direction DIR of job NAME's slices on KIND's disk, their I/Os or bytes
# over their run times together; 0 when a slice failed or it did not run
rate_fig() {
	if ! sliced "$1" "$2"; then
		echo 0
		return
	fi
	jq -s -r --arg d "$3" --arg k "$4" 'map(.jobs[0][$d]) |
		(map(.runtime) | add) as $ms |
		if $ms == 0 then 0
		elif $k == "iops" then (map(.total_ios) | add) * 1000 / $ms
		else (map(.io_bytes) | add) * 1000 / $ms / 1e6 end' \
		"$T/$1.$2".*.json
}

# lat_result KIND NAME FIGURE: RESULT BENCH_KEY_KIND_FIGURE_p50_us and
# _p99_us of lat_figs; rate_result KIND NAME: RESULT BENCH_KEY_KIND_FIGURE
# of rate_fig, FIGURE by rate_args
lat_result() {
	# shellcheck disable=SC2046 # p50 and p99, two words
	set -- "$@" $(lat_figs "$1" "$2")
	result "${BENCH_KEY}_$1_$3_p50_us" "$4"
	result "${BENCH_KEY}_$1_$3_p99_us" "$5"
}
rate_result() {
	# shellcheck disable=SC2046 # DIR UNIT FIGURE, three words
	set -- "$1" "$2" $(rate_args "$2")
	result "${BENCH_KEY}_$1_$5" "$(rate_fig "$1" "$2" "$3" "$4")"
}

# bench_set KA DA KB DB libaio|polled: each job of the set on KA's disk
# DA and KB's disk DB, in turns (slice_job).  libaio: rr1 (QD1 p50,
# p99), then RATE_JOBS; polled: pr1, pr32 with io_uring and --hipri on
# the disks' polled queues.
bench_set() {
	_ka=$1 _da=$2 _kb=$3 _db=$4
	if [ "$5" = libaio ]; then
		ENGINE=--ioengine=libaio
		set -- rr1 randread_4k_qd1 "$RATE_JOBS"
	else
		ENGINE="--ioengine=io_uring --hipri"
		set -- pr1 randread_4k_qd1_polled pr32
	fi
	slice_job "$_ka" "$_da" "$_kb" "$_db" "$1"
	lat_result "$_ka" "$1" "$2"
	lat_result "$_kb" "$1" "$2"
	for _j in $3; do
		slice_job "$_ka" "$_da" "$_kb" "$_db" "$_j"
		rate_result "$_ka" "$_j"
		rate_result "$_kb" "$_j"
	done
	ENGINE=--ioengine=libaio
}

# bench_none KIND libaio|polled: 0 for each figure of the set
bench_none() {
	if [ "$2" = libaio ]; then
		set -- "$1" $LIBAIO_FIGS
	else
		set -- "$1" $POLLED_FIGS
	fi
	_k=$1
	shift
	for _f in "$@"; do
		result "${BENCH_KEY}_${_k}_$_f" 0
	done
}

# disk_sched DEV: DEV's I/O scheduler, first set to BENCH_BLK_SCHED when
# that is given (none, mq-deadline: both disks alike); otherwise each disk
# keeps its driver's default (rdmachan_blk: none; nvme-rdma: mq-deadline
# on a queue of one hardware queue).  An nvme namespace's disk is its
# multipath node, whose bios go to its paths' hidden disks: theirs too.
disk_sched() {
	_n=${1#/dev/}
	_l=$_n
	case $_n in
	nvme*n*)
		for _p in /sys/block/${_n%n*}c*n${_n##*n}; do
			[ ! -e "$_p" ] || _l="$_l ${_p##*/}"
		done ;;
	esac
	_o=
	for _d in $_l; do
		_s=/sys/block/$_d/queue/scheduler
		[ -z "${BENCH_BLK_SCHED:-}" ] || echo "$BENCH_BLK_SCHED" > "$_s" ||
			diag "scheduler $BENCH_BLK_SCHED on $_d refused" >&2
		_o="$_o${_o:+, }$_d $(sed 's/.*\[\(.*\)\].*/\1/' "$_s")"
	done
	echo "$_o"
}

# bench_pass A B [SETS]: a pass, A's job first at each step: the libaio
# set on both disks set up without queues of polled I/O, then the polled
# set on both set up again with POLLQ of them (beside nvme-rdma's one
# queue, a queue of polled I/O doubled its libaio QD1 latency between two
# hosts); SETS (default "libaio polled") the sets to run.
# A set that one disk could not take reports 0s for both (bench_none).
bench_pass() {
	for _set in ${3:-libaio polled}; do
		_q=0
		if [ $_set = libaio ]; then
			bench_want rr1 || bench_want rr32 || bench_want rw32 ||
				bench_want sr || bench_want sw ||
				bench_want rr32c || _q=
		else
			_q=$POLLQ
			bench_want pr1 || bench_want pr32 || _q=
		fi
		_da=''
		_db=''
		if [ -n "$_q" ] && _da=$("$1_up" "$_q") &&
			_db=$("$2_up" "$_q"); then
			diag "$_set, I/O schedulers: $1 $(disk_sched "$_da"); $2 $(disk_sched "$_db")"
			bench_set "$1" "$_da" "$2" "$_db" $_set
		else
			bench_none "$1" $_set
			bench_none "$2" $_set
		fi
		[ -z "$_da" ] || "$1_down" "$_da"
		[ -z "$_db" ] || "$2_down" "$_db"
	done
}
