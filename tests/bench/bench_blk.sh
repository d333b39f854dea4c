#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Guest half of the block rows of tests/bench/run-bench.sh (make bench;
# not a test): fio direct=1 on the same memory-backed null_blk three
# ways, in the same VM, over the same rxe link:
#
#   rcblk   rdmachan_blk: "rdmachan blk export" on 192.0.2.1, "rdmachan
#           blk map 192.0.2.1 NAME --src 192.0.2.2" (rxe1 -> rxe0)
#   nvme    nvme-rdma against nvmet-rdma (configfs: a subsystem with
#           allow_any_host, namespace 1 on the null_blk, port rdma
#           192.0.2.1:4420 ipv4), "nvme connect -t rdma --host-traddr
#           192.0.2.2" (rxe1 -> rxe0)
#   local   the null_blk itself
#
# Jobs (fio --output-format=json+, parsed with jq), BENCH_BLK_SECS each
# (default 5; on a remote disk split among its slices, below), each run
# after a 1 s ramp, one job thread, libaio:
#   4k randread QD1: total latency (lat, submission included) p50 and
#   p99 (us; --lat_percentiles: a driver that completes a request within
#   io_submit() shows it in slat, not clat); 4k randread and randwrite
#   QD32: IOPS; 128k sequential read and write QD32: MB/s (10^6 B/s).
#   Polled (io_uring, --hipri: IOPOLL): 4k randread QD1 p50 and p99, 4k
#   randread QD32 IOPS, on the remote disks mapped again with queues of
#   polled I/O (BENCH_BLK_POLL_QUEUES, default 1: "blk map
#   --poll-queues", "nvme connect --nr-poll-queues"; the libaio jobs run
#   on the disks mapped without: bench_pass, lib/measure.sh); not
#   on the null_blk, which has none.
# Both remote disks get the same hardware queues and depth: BENCH_BLK_QUEUES
# (default 2, nvme's default of one I/O queue per CPU in this 2-CPU VM)
# and BENCH_BLK_DEPTH (default 128, nvme-rdma's default queue size).
# BENCH_RUNS passes.  In each, both remote disks are mapped at once and
# each job runs on them in BENCH_BLK_SLICES slices each (default 2) of
# BENCH_BLK_SECS / slices seconds, in turns A B B A A B ... (rcblk is A
# in odd passes, nvme in even ones; slice_job, tests/vm/lib/measure.sh):
# the VM's speed drifts by a factor of two over minutes, and a disk's
# figure is that of its slices together.  Then the jobs run on the
# null_blk alone, unsliced.  A remote job with a slice that failed or
# whose traffic did not cross the wire (rxe1 sent no packet) reports 0s.
# Each figure is one line "RESULT NAME VALUE" on the results port.
# Placement: fio runs on CPU 0 and the wire's receive work (RPS on both
# veths, the FIFO wire of lib.sh's wire_fifo steered to one CPU) on CPU
# 1, so that neither host's work runs inside the other's fio thread, as
# between two machines; unpinned, which CPU each flow landed on was a
# lottery per pass (Documentation/testing.rst, "One CPU for both
# hosts").  A sixth job, rr32c, repeats 4k randread QD32 with the wire's
# work on CPU 0 too: everything on one CPU.
# BENCH_BLK_JOBS=JOB,JOB... runs only these of the jobs (rr1, rr32, rw32,
# sr, sw, rr32c, pr1 and pr32 the polled ones; the others
# report 0, left out of the tables), for a quicker A/B of one figure.
# BENCH_BLK_SCHED=none|mq-deadline sets both remote disks' I/O scheduler
# (each keeps its driver's default otherwise; disk_sched, measure.sh).
# BENCH_BLK_PROFILE=JOB (rr1, rr32, rw32, sr, sw; needs perf in the
# initramfs: RDMACHAN_EXTRA_PROGRAMS=/usr/bin/perf) runs that job of each
# disk under "perf record -a" and prints the top of its report, by
# symbol, as diagnostics: where the CPU time of a TCG guest goes.
# BENCH_BLK_CALLERS=SYM,SYM... records the profile with call graphs and
# prints, under it, the call chains that led to each of these symbols.
# BENCH_BLK_TRACE=JOB runs that job of the rdmachan disk with the
# rdmachan_blk tracepoints recording (tracefs; Documentation/debugging.rst)
# and prints the p50 and p99 of each stage of a request, matched by tag
# and sector on both sides: the client's send to the server's arrival,
# the arrival to the bio's submission, the backing device (submission to
# bio end), the bio's end to the server's reply (or the RDMA WRITE that
# carries a READ's data and reply), that to the client's reply, the
# reply to the request's end, and the whole; under them, the legs to
# the reply and back and the whole of the READs answered by their data's
# WRITE_WITH_IMM and of those answered by a reply message, apart.
# Where perf is in the initramfs, the nvme disk's job (and the rdmachan
# disk's, for the comparison) runs under "perf record" of the block
# layer's issue and completion events too, for the legs both disks have
# (p50, p99): the remote
# disk's issue to the backing device's issue, the backing device's own
# time, its completion to the remote disk's, the whole; the context
# switches and softirq runs per I/O on each CPU; and, event by event
# (scheduler, softirqs, work items, the veths' packets), the timeline of
# two I/Os.  Under TCG, time with interrupts off shows in a profile on
# the spin_unlock_irqrestore that ends it, and tracing slows both disks:
# compare its figures between disks only.
# With BENCH_BLK_TRACE the mapping keeps its latency histograms too
# (latency_hist 1), and after each job of the rdmachan disk they say p50
# and p99 (hist_read, hist_write: blk show --hist), as diagnostics.
# The veths keep Ethernet's MTU of 1500: a 9000 MTU changed the packets
# per I/O but not the ratios (bd4cf6f).
. /tests/lib.sh

SECS=${BENCH_BLK_SECS:-5}
RUNS=${BENCH_RUNS:-3}
QUEUES=${BENCH_BLK_QUEUES:-2}
POLLQ=${BENCH_BLK_POLL_QUEUES:-1}
DEPTH=${BENCH_BLK_DEPTH:-128}
SIZE_MB=${BENCH_BLK_MB:-256}
NVME=/usr/sbin/nvme
NQN=nqn.2026-11.org.rdmachan:bench
HOSTNQN=nqn.2014-08.org.nvmexpress:uuid:6c3a3b0e-2c59-4b8e-9d3e-0b1e5c0ffee1
HOSTID=6c3a3b0e-2c59-4b8e-9d3e-0b1e5c0ffee1
T=/tmp/bench_blk
mkdir -p $T

result() { echo "RESULT $1 $2" >&3; }
rxe1_sent() { cat /sys/class/infiniband/$DEV1/ports/1/hw_counters/sent_pkts; }

PROFILE=${BENCH_BLK_PROFILE:-}
CALLERS=${BENCH_BLK_CALLERS:-}
TRACE=${BENCH_BLK_TRACE:-}
PERF=/usr/bin/perf
[ -z "$PROFILE" ] || [ -x $PERF ] || PROFILE=
PERF_TRACE=$TRACE
[ -x $PERF ] || PERF_TRACE=
TR=/sys/kernel/tracing

# stages_on / stages_off: the rdmachan_blk events recording, in a ring
# of 8 MiB a CPU on the global clock (the two sides run on two CPUs)
stages_on() {
	[ -e $TR/trace ] || mount -t tracefs nodev $TR || return 1
	echo 0 > $TR/tracing_on
	echo global > $TR/trace_clock
	echo 8192 > $TR/buffer_size_kb
	echo > $TR/trace
	echo 1 > $TR/events/rdmachan_blk/enable && echo 1 > $TR/tracing_on
}
stages_off() {
	echo 0 > $TR/tracing_on
	echo 0 > $TR/events/rdmachan_blk/enable
}

# p50_p99 FILE COLUMN: "P50/P99 " of the numbers in COLUMN of FILE
p50_p99() {
	cut -d' ' -f"$2" "$1" | sort -n | awk '{ a[NR] = $1 }
		END { printf "%s/%s ", a[int((NR + 1) / 2)],
			a[int((NR * 99 + 99) / 100)] }'
}

# stage_legs: from the trace, each request that ended (rcblk_clt_done
# "ended") with all its stages seen, matched by tag and sector (a reply
# by queue and tag to its send); the p50 and p99 (us) of its stages
stage_legs() {
	awk '
	{
		for (i = 1; i <= NF; i++)
			if ($i ~ /^rcblk_(clt|srv)_[a-z_]*:$/)
				break
		if (i > NF)
			next
		ts = $(i - 1); sub(/:$/, "", ts); ts *= 1e6
		ev = $i; sub(/:$/, "", ev)
	}
	ev == "rcblk_clt_send" {
		k = $(i + 5) " " $(i + 8)
		t["send", k] = ts; last[$(i + 3) " " $(i + 5)] = k
		next
	}
	ev == "rcblk_clt_unsent" {
		k = last[$(i + 3) " " $(i + 5)]
		if (k != "")
			delete t["send", k]
		next
	}
	ev == "rcblk_clt_reply" {
		k = last[$(i + 3) " " $(i + 5)]
		if (k != "") {
			t["crep", k] = ts
			by[k] = $(i + 9) == "write_imm"
		}
		next
	}
	ev ~ /^rcblk_srv_/ {
		k = $(i + 3) " " $(i + 6); s = ev; sub(/^rcblk_srv_/, "", s)
		# a READ pushed by WRITE_WITH_IMM: its push is its reply
		if (s == "rdma" && (("bio_end", k) in t))
			s = "reply"
		if (s != "rdma")
			t[s, k] = ts
		next
	}
	ev == "rcblk_clt_done" && $(i + 9) == "ended" {
		k = $(i + 3) " " $(i + 6)
		if (!(("send", k) in t) || !(("arrive", k) in t) ||
		    !(("submit", k) in t) || !(("bio_end", k) in t) ||
		    !(("reply", k) in t) || !(("crep", k) in t))
			next
		printf "%.1f %.1f %.1f %.1f %.1f %.1f %.1f %d\n",
		       t["arrive", k] - t["send", k],
		       t["submit", k] - t["arrive", k],
		       t["bio_end", k] - t["submit", k],
		       t["reply", k] - t["bio_end", k],
		       t["crep", k] - t["reply", k],
		       ts - t["crep", k], ts - t["send", k], by[k]
		delete by[k]
		split("send arrive submit bio_end reply crep", names, " ")
		for (n in names)
			delete t[names[n], k]
	}' $TR/trace > $T/stages
	[ -s $T/stages ] || { echo "no request with every stage traced"; return 0; }
	for _c in 1 2 3 4 5 6 7; do
		p50_p99 $T/stages $_c
	done | awk -v n="$(wc -l < $T/stages)" '{
		printf "%d requests, p50/p99 (us): to the server %s, queued there %s, backing device %s, to the reply %s, back %s, to the end %s; whole %s\n",
		       n, $1, $2, $3, $4, $5, $6, $7 }'
	# a READ's reply with its data (WRITE_WITH_IMM) or as a message
	for _by in 1 0; do
		awk -v by=$_by '$8 == by' $T/stages > $T/stages_by
		[ -s $T/stages_by ] || continue
		printf '%s %s ' "$(wc -l < $T/stages_by)" $_by
		for _c in 4 5 7; do
			p50_p99 $T/stages_by $_c
		done
		echo
	done | awk '{
		printf "  %d replied by %s, p50/p99 (us): to the reply %s, back %s; whole %s\n",
		       $1, $2 ? "write_imm" : "a message", $3, $4, $5 }'
	rm -f $T/stages $T/stages_by
}

# hist_diag DEV: the mapping's read and write latency histograms since the
# job began (blk show --hist), as "op p50/p99 (samples)"
hist_diag() {
	$TOOL -j blk show maps --hist 2>/dev/null | jq -r --arg d "$1" '
		.maps[] | select(.dev == $d) |
		[["read", .hist_read], ["write", .hist_write] |
		 select(.[1] != null and .[1].samples > 0) |
		 "\(.[0]) p50 < \(.[1].p50_us) us, p99 < \(.[1].p99_us) us (\(.[1].samples))"] |
		join("; ")'
}
hist_reset() {
	for _h in /sys/block/${1##*/}/rdmachan/hist_*; do
		[ -w "$_h" ] && echo 0 > "$_h"
	done
}

# trace_legs DATA BACKING: from "perf record" DATA (fio_job's events),
# the I/Os completed with the context switches and softirq runs per I/O
# on each CPU, the events of two I/Os (the 2001st and 2002nd), and the
# medians (us) of the legs of each I/O, matched by sector between the
# backing device (BACKING, a path) and the other disk
trace_legs() {
	_mm=$(tr : , < "/sys/class/block/${2##*/}/dev")
	$PERF script -i "$1" -F cpu,time,event,trace 2>/dev/null | awk -v nb="$_mm" \
		-v legs="$T/legs" -v shown="$T/shown" '
	{
		cpu = $1; gsub(/[][]/, "", cpu); cpu += 0
		ts = $2; sub(/:$/, "", ts); ts *= 1e6
		ev = $3; sub(/:$/, "", ev)
		if (ev == "sched:sched_switch") { sw[cpu]++; next }
		if (ev == "irq:softirq_entry") {
			v = $NF; gsub(/[][]/, "", v); si[cpu " " v]++; next
		}
		if (ev !~ /^block:/) {
			if (show)
				print > shown
			next
		}
		dev = $4
		for (i = 5; i < NF; i++)
			if ($(i + 1) == "+") { sec = $i; break }
		k = (dev == nb ? "n" : "c") (ev ~ /issue/ ? "i" : "d")
		t[k, sec] = ts
		if (k == "ci" && (nd == 2000 || nd == 2001))
			show = 1
		if (show)
			print > shown
		if (k == "cd")
			show = 0
		if (k != "cd")
			next
		nd++
		if ((("ci", sec) in t) && (("ni", sec) in t) && (("nd", sec) in t))
			printf "%.1f %.1f %.1f %.1f\n", t["ni", sec] - t["ci", sec],
			       t["nd", sec] - t["ni", sec],
			       t["cd", sec] - t["nd", sec],
			       t["cd", sec] - t["ci", sec] > legs
	}
	END {
		printf "%d I/Os completed", nd
		for (c in sw)
			printf "; cpu%s %.2f context switches", c, sw[c] / (nd ? nd : 1)
		for (k in si)
			printf "; cpu%s %.2f", k, si[k] / (nd ? nd : 1)
		print " (per I/O)"
	}'
	cat "$T/shown" 2>/dev/null
	rm -f "$T/shown"
	[ -s "$T/legs" ] || return 0
	for _c in 1 2 3 4; do
		p50_p99 "$T/legs" $_c
	done | awk -v n="$(wc -l < "$T/legs")" '{
		printf "%d I/Os matched, p50/p99: to the server %s us, backing device %s us, back %s us, whole %s us\n", n, $1, $2, $3, $4 }'
	rm -f "$T/legs"
}

# hw_snap: every hardware counter of both soft-RoCE devices, "DEV NAME
# VALUE", and the stack's dropped packets
hw_snap() {
	for _h in /sys/class/infiniband/$DEV0 /sys/class/infiniband/$DEV1; do
		for _f in $_h/ports/1/hw_counters/*; do
			[ -f "$_f" ] && echo "${_h##*/} ${_f##*/} $(cat $_f)"
		done
	done
	# packets the stack dropped (a backlog full), summed over the CPUs
	_hs=0
	while read -r _ha _hb _hc; do
		_hs=$((_hs + 0x$_hb))
	done < /proc/net/softnet_stat
	echo "softnet dropped $_hs"
}

# hw_delta DEV JOB JSON: diagnostics: the counters that moved during JOB
# on DEV (fio's JSON output), per I/O completed (the ramp's I/O moves the
# counters too, not the count)
hw_delta() {
	_hn=$(jq -r '.jobs[0].read.total_ios + .jobs[0].write.total_ios' \
		"$3" 2>/dev/null)
	[ "${_hn:-0}" -gt 0 ] 2>/dev/null || return 0
	_hd=$(awk -v n="$_hn" 'NR == FNR { b[$1 " " $2] = $3; next }
		($1 " " $2) in b && $3 != b[$1 " " $2] {
			printf "%s%s/%s %.3g", sep, $1, $2, ($3 - b[$1 " " $2]) / n
			sep = ", "
		}' $T/hw.before $T/hw.after)
	[ -z "$_hd" ] || diag "$2 on $1, per I/O ($_hn): $_hd"
}

# watch_start DEV / watch_end DEV JOB JSON: diagnostics of a remote job: the
# disk's average queue while busy (iostat's aqu-sz over its %util:
# time_in_queue over io_ticks of /sys/block/DEV/stat, snapshots before
# and after the job; a multipath nvme disk counts on its path device),
# each CPU's busy share from /proc/stat, and fio's mean completion
# latency and share of time at each depth.  Nothing runs during the job:
# a sampling loop (a cat and a sleep forked five times a second) cost
# the wire's CPU about 8 % under TCG.  A job whose requests each end
# before fio can submit the next shows it: fio at depth 32, the disk's
# queue near 1, completion latency near 0 (Documentation/testing.rst,
# "One CPU for both hosts").
watch_start() {
	_wd=${1##*/}
	for _wp in /sys/block/${_wd%n*}c*n${_wd##*n}; do
		[ -e "$_wp/stat" ] && _wd=${_wp##*/}
	done
	cpu_snap > $T/cpu.before
	cat /sys/block/$_wd/stat > $T/stat.before
}
watch_end() {
	_l="disk queue $(cat $T/stat.before /sys/block/$_wd/stat | awk '
		NR == 1 { t = $11; b = $10; next }
		{ t = $11 - t; b = $10 - b
		  if (b > 0) printf "avg %.1f while busy (%d ms)", t / b, b
		  else printf "never busy" }')"
	_l="$_l; cpu busy $(cpu_busy $T/cpu.before)"
	_l="$_l; fio $(jq -r '.jobs[0] | (if .read.total_ios > 0 then .read else .write end) as $d |
		"clat mean \($d.clat_ns.mean / 1000 | floor) us, depth% " +
		([.iodepth_level | to_entries[] | select(.value > 0) |
		  "\(.key):\(.value | floor)"] | join(" "))' "$3" 2>/dev/null)"
	diag "$2 on $1: $_l"
}

# fio_job DEV NAME RW BS DEPTH JSON MS: one time-based job of MS
# milliseconds after a 1 s ramp with ENGINE's fio options (libaio, or
# io_uring polled); fio's json+ (its latency histogram too) in JSON
fio_job() {
	if [ "$2" = "$PROFILE" ]; then
		_p="$PERF record -a ${CALLERS:+-g} -q -o $T/perf.data --"
	else
		_p=
	fi
	[ "$2" != "$PERF_TRACE" ] || [ "$1" = "$B" ] ||
		_p="$PERF record -a -q -o $T/trace.data -e block:block_rq_issue -e block:block_rq_complete -e sched:sched_switch -e sched:sched_wakeup -e irq:softirq_entry -e irq:softirq_exit -e workqueue:workqueue_execute_start -e workqueue:workqueue_execute_end -e net:netif_receive_skb -e net:net_dev_xmit --"
	hw_snap > $T/hw.before
	[ "$1" = "$B" ] || watch_start "$1"
	# the rdmachan disk: its histograms from here, its stages traced
	_ours=0
	_traced=0
	case "$1" in /dev/rcblk*) _ours=1; hist_reset "$1" ;; esac
	if [ "$_ours" = 1 ] && [ "$2" = "$TRACE" ] && stages_on; then
		_traced=1
	fi
	# shellcheck disable=SC2086 # ENGINE is several words
	$_p timeout $((SECS + 60)) $FIO --name="$2" --filename="$1" --direct=1 \
		$ENGINE --iodepth="$5" --rw="$3" --bs="$4" --numjobs=1 \
		--cpus_allowed="$FIO_CPU" \
		--time_based --runtime="$7ms" --ramp_time=1 --norandommap \
		--randrepeat=0 --lat_percentiles=1 --output-format=json+ \
		> "$6" 2> "$T/$2.err"
	_r=$?
	if [ "$_traced" = 1 ]; then
		stages_off
		diag "stages of $2 on $1: $(stage_legs)" >&2
	fi
	[ "$_ours" = 0 ] || diag "latency of $2 on $1: $(hist_diag "$1")" >&2
	hw_snap > $T/hw.after
	[ "$1" = "$B" ] || watch_end "$1" "$2" "$6" >&2
	hw_delta "$1" "$2" "$6" >&2
	if [ -f $T/perf.data ]; then
		diag "perf profile of $2 on $1:" >&2
		diag "$(perf_top $T/perf.data 60)" >&2
		# each CPU's own top, with sample counts: per I/O, the wire's
		# CPU is the one that limits the QD32 jobs
		for _c in $(seq 0 $((NCPU - 1))); do
			diag "CPU $_c:"
			diag "$($PERF report -i $T/perf.data --stdio --no-children \
				-n -C $_c --sort sym 2>/dev/null | grep -v '^#' |
				grep -v '^$' | head -n 40)"
		done >&2
		[ -z "$CALLERS" ] || diag "$($PERF report -i $T/perf.data \
			--stdio --no-children -S "$CALLERS" -G \
			-g caller,0.5,callee,function,percent 2>/dev/null |
			grep -v '^#' | grep -v '^$' | head -n 150)" >&2
		rm -f $T/perf.data
	fi
	if [ -f $T/trace.data ]; then
		diag "trace of $2 on $1:" >&2
		diag "$(trace_legs $T/trace.data "$B")" >&2
		rm -f $T/trace.data
	fi
	return $_r
}

NCPU=$(grep -c ^processor /proc/cpuinfo)
FIO_CPU=0
WIRE_CPUS=2	# CPU 1
[ "$NCPU" -ge 2 ] || WIRE_CPUS=1

# The sliced jobs' settings (tests/vm/lib/measure.sh, slice_job): the
# figures of each set, in the order of its jobs (bench_set)
BENCH_KEY=blk
SLICES=${BENCH_BLK_SLICES:-2}
RATE_JOBS="rr32 rw32 sr sw rr32c"
LIBAIO_FIGS="randread_4k_qd1_p50_us randread_4k_qd1_p99_us randread_4k_qd32_iops
	randwrite_4k_qd32_iops seqread_128k_MBps seqwrite_128k_MBps
	randread_4k_qd32_onecpu_iops"
POLLED_FIGS="randread_4k_qd1_polled_p50_us randread_4k_qd1_polled_p99_us
	randread_4k_qd32_polled_iops"
ENGINE=--ioengine=libaio

# slice_one KIND DEV NAME I: slice I of job NAME on KIND's disk DEV
# (SECS / SLICES seconds), fio's JSON in $T/KIND.NAME.I.json;
# $T/KIND.NAME.bad when it failed or, on a remote disk, its traffic did
# not cross the wire (rxe1 sent no packet).  rr32c: the wire's work on
# fio's CPU too.
slice_one() {
	_sj=$T/$1.$3.$4.json
	_ss=$(rxe1_sent)
	[ "$3" != rr32c ] || wire_fifo 1
	# shellcheck disable=SC2046 # RW BS DEPTH, three words
	fio_job "$2" "$3" $(job_args "$3") "$_sj" $((SECS * 1000 / SLICES)) ||
		{ fio_fail "$3" "$_sj"; : > "$T/$1.$3.bad"; }
	[ "$3" != rr32c ] || wire_fifo $WIRE_CPUS
	{ [ "$2" = "$B" ] || [ "$(rxe1_sent)" != "$_ss" ]; } && return 0
	diag "bench_blk: $3 on $1's disk did not cross the wire" >&2
	: > "$T/$1.$3.bad"
}

# local_all: the libaio jobs on the null_blk itself, each one slice of
# BENCH_BLK_SECS (kind local); print the figures in the order of
# LIBAIO_FIGS (lat_figs, rate_fig: 0s for a job that failed or is not
# wanted)
local_all() {
	_sl=$SLICES
	SLICES=1
	for _j in rr1 $RATE_JOBS; do
		rm -f "$T/local.$_j".*
		! bench_want "$_j" || slice_one local "$B" "$_j" 0
	done
	SLICES=$_sl
	lat_figs local rr1
	for _j in $RATE_JOBS; do
		# shellcheck disable=SC2046 # DIR UNIT FIGURE, three words
		set -- $(rate_args "$_j")
		rate_fig local "$_j" "$1" "$2"
	done
}

# fio_fail NAME JSON: diagnostics of a failed job (on stderr as well as
# the results port: local_all's stdout carries the figures)
fio_fail() {
	{
		diag "fio job $1 failed:"
		diag "$(tail -n 20 $T/$1.err; jq -r '.jobs[0].error' "$2" 2>/dev/null)"
		diag "$(dmesg | grep -E 'rdmachan|rcblk|nvme|null_blk|rxe' | tail -n 20)"
	} >&2
}

# report KIND FIGURES...: one RESULT per figure of LIBAIO_FIGS,
# blk_KIND_FIGURE, 0 for those not given
report() {
	_k=$1
	shift
	for _f in $LIBAIO_FIGS; do
		result "blk_${_k}_$_f" "${1:-0}"
		[ $# -gt 0 ] && shift
	done
}

# ---- rdmachan_blk -------------------------------------------------------
# rcblk_up POLL / rcblk_down DEV: map the export with QUEUES queues and
# POLL queues of polled I/O, print the disk / unmap it
rcblk_up() {
	D=$($TOOL blk map $BLK_SRV bench --src $BLK_CLI --queues "$QUEUES" \
		--poll-queues "$1" --depth "$DEPTH" 2> $T/map.err)
	if [ -b "$D" ]; then
		[ "$1" != 0 ] ||
			result blk_rcblk_got "$(blk_maps ".maps[] | select(.dev == \"$D\") |
			\"\\(.queues)x\\(.depth)\"" | tr -d '"')"
		echo "$D"
		return 0
	fi
	{
		diag "blk map failed: $D $(cat $T/map.err)"
		diag "$(dmesg | grep -E 'rdmachan|rcblk' | tail -n 20)"
	} >&2
	return 1
}
rcblk_down() {
	diag "$($TOOL -sd blk show maps)"
	diag "$($TOOL -sd blk show exports)"
	blk_chan_stats "$1"
	$TOOL blk unmap "$1" || diag "blk unmap $1 failed"
}

# ---- nvme-rdma ----------------------------------------------------------
# nvme_up POLL / nvme_down DEV: connect with QUEUES I/O queues and POLL
# queues of polled I/O, print the namespace's disk / disconnect
nvme_up() {
	if ! $NVME connect -t rdma -a $BLK_SRV -s 4420 -n $NQN \
		--host-traddr $BLK_CLI --nr-io-queues "$QUEUES" \
		--nr-poll-queues "$1" \
		--queue-size "$DEPTH" --hostnqn $HOSTNQN --hostid $HOSTID \
		> $T/connect.out 2>&1; then
		{
			diag "nvme connect failed: $(cat $T/connect.out)"
			diag "$(dmesg | grep -E 'nvme' | tail -n 20)"
		} >&2
		return 1
	fi
	if ! N=$(nvme_disk_wait $NQN); then
		diag "nvme connect: no namespace disk" >&2
		nvme_down
		return 1
	fi
	for _c in /sys/class/nvme/nvme*; do
		diag "nvme-rdma: $N, ${_c##*/} queue_count $(cat $_c/queue_count) (the admin queue too), sqsize $(cat $_c/sqsize) (zero-based)" >&2
	done
	echo "$N"
}
nvme_down() {
	$NVME disconnect -n $NQN > $T/disconnect.out 2>&1 ||
		diag "nvme disconnect failed: $(cat $T/disconnect.out)"
}

check "rxe pair comes up" rxe_pair_up
# the FIFO wire of the block cases (lib.sh, wire_fifo), for both disks,
# its work on CPU 1 (fio's on CPU 0; see the top)
check "the veth pair delivers each flow in order (RPS), on CPU $((WIRE_CPUS / 2))" \
	wire_fifo $WIRE_CPUS
# the server offers DEPTH requests per queue (its default is 64), so
# that the map's --depth is what the client gets, as nvme's --queue-size
check "rdmachan and rdmachan_blk (queue_depth=$DEPTH) load" sh -c \
	"$MODPROBE rdmachan && $MODPROBE rdmachan_blk queue_depth=$DEPTH"
check "nvmet, nvmet-rdma and nvme-rdma load" sh -c \
	"$MODPROBE nvmet && $MODPROBE nvmet-rdma && $MODPROBE nvme-rdma"
B=$(nullb_new bench "$SIZE_MB")
check "a $SIZE_MB MiB memory-backed null_blk ($B)" test -b "$B"
[ -b "$B" ] || blk_bail "no backing device"
# fill it, so that reads copy pages as they would from a real disk
# rather than zero-fill holes
check "fill the null_blk" $DD if=/dev/zero of="$B" bs=1M count="$SIZE_MB" oflag=direct
check "nvmet: subsystem $NQN on $B, rdma port $BLK_SRV:4420" \
	nvmet_up $NQN "$B" $BLK_SRV

result blk_secs "$SECS"
result blk_slices "$SLICES"
result blk_queues "$QUEUES"
result blk_poll_queues "$POLLQ"
result blk_depth "$DEPTH"
result blk_mb "$SIZE_MB"
result blk_runs "$RUNS"
# the export serves every pass; a traced run keeps the mapping's
# histograms too (off by default)
[ -z "$TRACE" ] || echo 1 > /sys/module/rdmachan/parameters/latency_hist
check "blk export bench $B" $TOOL blk export bench "$B" --allow 192.0.2.0/24
# odd passes rcblk's slice first, even ones nvme's: a VM that speeds up
# or slows down over a job favours neither
for pass in $(seq "$RUNS"); do
	diag "block pass $pass of $RUNS"
	if [ $((pass % 2)) = 1 ]; then
		bench_pass rcblk nvme
	else
		bench_pass nvme rcblk
	fi
	# shellcheck disable=SC2046 # the figures, one word each
	report local $(local_all)
	bench_none local polled
done
diag "$($TOOL -sd blk show)"
check "blk unexport bench" $TOOL blk unexport bench
diag "$($TOOL -sd blk show)"

nvmet_down $NQN
check "rdmachan_blk and rdmachan unload" blk_unload
done_testing
