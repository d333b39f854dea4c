#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The block rows of make bench between two hosts: the guest half that
# tests/bench/run-bench.sh runs on the two-VM fixture (tests/vm/run-pair.sh,
# each VM one vCPU: RDMACHAN_SMP=1).  A benchmark, not a test.
#
# The one-VM rows (bench_blk.sh) run both hosts on one machine: the
# server's work and the client's share its CPUs, and the wire's CPU runs
# the receive work of both.  Here each host has its own CPU and its own
# soft-RoCE device on a virtio NIC, as two machines would: what one side
# of a transport costs no longer slows the other.
#
# The server (192.0.2.1) exports a filled, memory-backed null_blk through
# rdmachan_blk and through nvmet-rdma, says "ready" and waits.  The
# client (192.0.2.2) runs, for BENCH_RUNS passes, each fio job on both
# remote disks in BENCH_BLK_SLICES slices each (default 2), taking turns
# A B B A A B ... (rdmachan_blk is A in odd passes, nvme-rdma in even
# ones; slice_job): 4k random reads at QD1
# (p50, p99) and QD32, 4k random writes at QD32, 128k sequential reads
# and writes at QD32 (MB/s, 10^6 B/s), on disks of one queue; then, for
# BENCH_RUNS more passes, on the disks mapped again with
# BENCH_BLK_POLL_QUEUES queues of polled I/O beside it (default 1: blk
# map --poll-queues, nvme connect --nr-poll-queues), 4k random reads at
# QD1 (p50, p99) and QD32 with io_uring --hipri.
# BENCH_BLK_JOBS as for bench_blk.sh (rr1, rr32, rw32, sr, sw, pr1,
# pr32).  Its results: RESULT pair_rcblk_FIGURE and
# pair_nvme_FIGURE, one a pass, of a job's slices together.
# BENCH_BLK_SECS (a job's seconds on each disk, split among its slices),
# BENCH_BLK_DEPTH and BENCH_BLK_SCHED as for bench_blk.sh; one queue
# each (one CPU).
# BENCH_BLK_PROFILE=JOB (rr1, rr32, rw32; perf in the initramfs)
# profiles each slice of that job on the client and on the server (for
# the slice's seconds, asked over TCP port 7001: srv_perf), at
# BENCH_BLK_PROFILE_FREQ samples a second (default 4000), printing the
# BENCH_BLK_PROFILE_LINES (default 50) heaviest symbols, after the
# share of each object (the kernel, each module, fio);
# BENCH_BLK_CALLERS=SYM,SYM... as for bench_blk.sh.
# Before the passes, perftest's ib_write_bw and ib_read_bw from the
# server (128 KiB, 32 outstanding, BENCH_BLK_SECS) give the link's own
# figures for what the 128k rows do (the server pushes a READ's data
# with RDMA WRITE and pulls a WRITE's with RDMA READ), as diagnostics.

. /tests/lib.sh

SECS=${BENCH_BLK_SECS:-5}
SLICES=${BENCH_BLK_SLICES:-2}
RUNS=${BENCH_RUNS:-3}
DEPTH=${BENCH_BLK_DEPTH:-128}
SIZE_MB=${BENCH_BLK_MB:-256}
POLLQ=${BENCH_BLK_POLL_QUEUES:-1}
ENGINE=--ioengine=libaio
NVME=/usr/sbin/nvme
NQN=nqn.2026-11.org.rdmachan:pairbench
HOSTNQN=nqn.2014-08.org.nvmexpress:uuid:6c3a3b0e-2c59-4b8e-9d3e-0b1e5c0ffee2
HOSTID=6c3a3b0e-2c59-4b8e-9d3e-0b1e5c0ffee2
T=/tmp/bench_blk_pair
mkdir -p $T

result() { echo "RESULT $1 $2" >&3; }
# the sliced jobs' settings (tests/vm/lib/measure.sh, slice_job)
BENCH_KEY=pair
RATE_JOBS="rr32 rw32 sr sw"
LIBAIO_FIGS="randread_4k_qd1_p50_us randread_4k_qd1_p99_us
	randread_4k_qd32_iops randwrite_4k_qd32_iops seqread_128k_MBps
	seqwrite_128k_MBps"
POLLED_FIGS="randread_4k_qd1_polled_p50_us randread_4k_qd1_polled_p99_us
	randread_4k_qd32_polled_iops"

# ---- the server's half ------------------------------------------------------
server_half() {
	pair_up && ok "the server's end of the link comes up" ||
		{ not_ok "the server's end of the link comes up"; blk_bail "no link"; }
	check "rdmachan and rdmachan_blk (queue_depth=$DEPTH) load" sh -c \
		"$MODPROBE rdmachan && $MODPROBE rdmachan_blk queue_depth=$DEPTH"
	check "nvmet and nvmet-rdma load" sh -c \
		"$MODPROBE nvmet && $MODPROBE nvmet-rdma"
	B=$(nullb_new pairbench "$SIZE_MB")
	check "a $SIZE_MB MiB memory-backed null_blk ($B)" test -b "$B"
	[ -b "$B" ] || blk_bail "no backing device"
	check "fill the null_blk" $DD if=/dev/zero of="$B" bs=1M \
		count="$SIZE_MB" oflag=direct
	check "blk export bench $B --allow $PAIR_CLI/32" \
		$TOOL blk export bench "$B" --allow $PAIR_CLI/32
	check "nvmet: subsystem $NQN on $B, rdma port $PAIR_SRV:4420" \
		nvmet_up $NQN "$B" $PAIR_SRV
	# the client reads this host's /proc/stat before and after each job
	# (srv_stat): a connection to port 7000, over the virtio NIC's IP
	/usr/bin/nc -ll -p 7000 -e /usr/bin/cat /proc/stat &
	_nc=$!
	# and asks for this host's profile of a slice (srv_perf)
	if [ -n "${BENCH_BLK_PROFILE:-}" ] && [ -x /usr/bin/perf ]; then
		perf_script > $T/srv_perf.sh && chmod +x $T/srv_perf.sh
		/usr/bin/nc -ll -p 7001 -e $T/srv_perf.sh &
		_nc="$_nc $!"
	fi
	# and runs a perftest client against the client's server (link_bw)
	link_script > $T/link_bw.sh && chmod +x $T/link_bw.sh
	/usr/bin/nc -ll -p 7002 -e $T/link_bw.sh &
	_nc="$_nc $!"
	ctl_open || blk_bail "no control line"
	echo ready >&4
	while read -r _cmd <&4; do
		[ "$(printf '%s' "$_cmd" | tr -d '\r')" = finish ] && break
	done
	# shellcheck disable=SC2086 # one or two pids
	kill $_nc
	diag "$($TOOL -sd blk show exports)"
	check "blk unexport bench" $TOOL blk unexport bench
	nvmet_down $NQN
	check "rdmachan_blk and rdmachan unload" blk_unload
	done_testing
}

# ---- the client's half ------------------------------------------------------

# hw_snap: the client's soft-RoCE hardware counters, its interrupts (in
# all and by source), context switches (in all and those of the threads
# fio takes turns with: ksoftirqd, the kworkers) and softirqs
# of each kind, "NAME VALUE"
hw_snap() {
	for _f in /sys/class/infiniband/$DEV1/ports/1/hw_counters/*; do
		[ -f "$_f" ] && echo "${_f##*/} $(cat $_f)"
	done
	awk '$1 == "intr" { print "interrupts", $2 }
		$1 == "ctxt" { print "ctxt", $2 }' /proc/stat
	cat /proc/[0-9]*/status 2>/dev/null | awk '
		$1 == "Name:" { split($2, n, "/"); k = n[1] }
		$1 ~ /ctxt_switches:$/ && k ~ /^(ksoftirqd|kworker)$/ {
			c[k] += $2 }
		END { for (k in c) print "ctxt_" k, c[k] }'
	awk 'NR > 1 { s = 0; for (i = 2; i <= NF; i++) s += $i
		print "softirq_" tolower(substr($1, 1, length($1) - 1)), s }' \
		/proc/softirqs
	# a numbered line by its source's name, the others (LOC:) by theirs
	awk 'NR > 1 && $2 ~ /^[0-9]+$/ {
		n = $1 ~ /^[0-9]+:$/ ? $NF : substr($1, 1, length($1) - 1)
		print "irq_" n, $2 }' /proc/interrupts
}

# hw_delta JSON: those that moved during the job of fio's JSON, per I/O
# completed
hw_delta() {
	_hn=$(jq -r '.jobs[0].read.total_ios + .jobs[0].write.total_ios' \
		"$1" 2>/dev/null)
	[ "${_hn:-0}" -gt 0 ] 2>/dev/null || return 0
	awk -v n="$_hn" 'NR == FNR { b[$1] = $2; next }
		($1 in b) && $2 != b[$1] {
			printf "%s%s %.3g", sep, $1, ($2 - b[$1]) / n; sep = ", "
		}' $T/hw.before $T/hw.after
}

# perf_report DATA: the share of each object, then the heaviest symbols
perf_report() {
	/usr/bin/perf report -i "$1" --stdio --no-children -n -g none \
		--sort dso 2>/dev/null | grep -v '^#' | grep -v '^$' | head -n 15
	/usr/bin/perf report -i "$1" --stdio --no-children -n -g none \
		--sort sym 2>/dev/null | grep -v '^#' | grep -v '^$' |
		head -n "${BENCH_BLK_PROFILE_LINES:-50}"
}

# perf_script: the server's answer on port 7001: reads a number of
# seconds, profiles the whole host that long, prints what perf_report
# does (this script again, with PERF_REPORT set: it only reports)
perf_script() {
	cat <<-EOF
	#!/bin/sh
	read -r secs
	/usr/bin/perf record -a -q -F ${BENCH_BLK_PROFILE_FREQ:-4000} \\
		-o $T/srv.data -- sleep "\$secs" > /dev/null 2>&1
	PERF_REPORT=$T/srv.data BENCH_BLK_PROFILE_LINES=${BENCH_BLK_PROFILE_LINES:-50} sh $0
	rm -f $T/srv.data
	EOF
}

# srv_perf SECS: the server's profile of the next SECS seconds, from
# the server half's port 7001 (perf_script), on stdout once done
srv_perf() {
	{ echo "$1"; sleep $(($1 + 30)); } |
		timeout $(($1 + 30)) /usr/bin/nc $PAIR_SRV 7001
}

if [ -n "${PERF_REPORT:-}" ]; then
	perf_report "$PERF_REPORT"
	exit 0
fi

# link_script: the server's answer on port 7002: reads "PROGRAM SECS",
# runs that perftest program's client (128 KiB, 32 outstanding) against
# the client host's server, prints its report
link_script() {
	cat <<-EOF
	#!/bin/sh
	read -r prog secs
	case "\$prog" in ib_write_bw|ib_read_bw) ;; *) exit 1 ;; esac
	timeout \$((secs + 30)) /usr/bin/\$prog -R -d $DEV0 -s 131072 -t 32 \
		-D "\$secs" $PAIR_CLI 2>&1
	EOF
}

# link_bw PROGRAM: MB/s of the link for 128 KiB transfers of PROGRAM
# (ib_write_bw: the server writes, as it pushes a READ's data;
# ib_read_bw: it reads, as it pulls a WRITE's), its server here
link_bw() {
	timeout 60 /usr/bin/$1 -R -d $DEV1 -s 131072 -t 32 -D "$SECS" \
		> $T/link_srv.out 2>&1 &
	sleep 2
	{ echo "$1 $SECS"; sleep $((SECS + 30)); } |
		timeout $((SECS + 30)) /usr/bin/nc $PAIR_SRV 7002 > $T/link_cli.out
	wait
	awk '$1 == 131072 && NF >= 5 { print $4; exit }' $T/link_cli.out
}

# srv_stat: the server's CPUs as cpu_snap prints them (nothing when it
# does not answer within 5 s)
srv_stat() {
	timeout 5 /usr/bin/nc $PAIR_SRV 7000 | cpu_snap -
}

# fio_job DEV NAME RW BS DEPTH OUT: a slice of a job, time-based, of
# SECS / SLICES seconds, with ENGINE's fio engine, fio's JSON (json+:
# with the latency histogram's bins) in OUT; the client's and the
# server's CPU busy shares and fio's mean completion latency as
# diagnostics
fio_job() {
	# diag's copy on stdout goes to stderr: the callers' stdout is figures
	srv_stat > $T/srv.before
	hw_snap > $T/hw.before
	cpu_snap > $T/cpu.before
	_p=
	[ "$2" != "${BENCH_BLK_PROFILE:-}" ] || [ ! -x /usr/bin/perf ] ||
		_p="/usr/bin/perf record -a ${BENCH_BLK_CALLERS:+-g} -q -F ${BENCH_BLK_PROFILE_FREQ:-4000} -o $T/perf.data --"
	# the server profiles the slice's ramp and run, whole seconds
	_sp=
	[ -z "$_p" ] || { srv_perf $(((SECS * 1000 / SLICES + 1999) / 1000)) \
		> $T/srv_perf.txt 2>&1 & _sp=$!; }
	# shellcheck disable=SC2086 # ENGINE is several words
	$_p timeout $((SECS + 60)) $FIO --name="$2" --filename="$1" --direct=1 \
		$ENGINE --iodepth="$5" --rw="$3" --bs="$4" --numjobs=1 \
		--time_based --runtime="$((SECS * 1000 / SLICES))ms" \
		--ramp_time=1 --norandommap --randrepeat=0 --lat_percentiles=1 \
		--output-format=json+ > "$6" 2> "$T/$2.err"
	_r=$?
	_c=$(cpu_busy $T/cpu.before)
	hw_snap > $T/hw.after
	srv_stat > $T/srv.after
	diag "$2 on $1: client cpu busy $_c, server $(cpu_busy $T/srv.before $T/srv.after); fio $(jq -r '.jobs[0] as $j |
		($j | if .read.total_ios > 0 then .read else .write end) |
		"\(.total_ios) I/Os, clat mean \(.clat_ns.mean / 1000 | floor) us, its context switches \(if .total_ios > 0 then $j.ctx * 100 / .total_ios | floor / 100 else 0 end) per I/O"' \
		"$6" 2>/dev/null)" >&2
	diag "$2 on $1, $DEV1 per I/O: $(hw_delta "$6")" >&2
	if [ -f $T/perf.data ]; then
		diag "the client's perf profile of $2 on $1:" >&2
		diag "$(perf_report $T/perf.data)" >&2
		[ -z "${BENCH_BLK_CALLERS:-}" ] || diag "$(/usr/bin/perf report \
			-i $T/perf.data --stdio --no-children \
			-S "$BENCH_BLK_CALLERS" -G \
			-g caller,0.5,callee,function,percent 2>/dev/null |
			grep -v '^#' | grep -v '^$' | head -n 150)" >&2
		rm -f $T/perf.data
	fi
	if [ -n "$_sp" ]; then
		wait $_sp
		diag "the server's perf profile of $2 on $1:" >&2
		diag "$(cat $T/srv_perf.txt)" >&2
	fi
	if [ $_r != 0 ]; then
		diag "fio job $2 failed: $(tail -n 5 $T/$2.err)" >&2
		diag "$(dmesg | grep -E 'rdmachan|rcblk|nvme|rxe' | tail -n 10)" >&2
	fi
	return $_r
}

# slice_one KIND DEV NAME I: slice I of job NAME on KIND's disk DEV,
# fio's JSON in $T/KIND.NAME.I.json; $T/KIND.NAME.bad when it failed
slice_one() {
	# shellcheck disable=SC2046 # RW BS DEPTH, three words
	fio_job "$2" "$3" $(job_args "$3") "$T/$1.$3.$4.json" ||
		: > "$T/$1.$3.bad"
}

# link_alive: the server still answers over the link (its /proc/stat on
# TCP port 7000).  Under load the link has died now and then, for either
# disk (testing.rst, "Block rows between two hosts"): then the passes
# end, with the figures so far.
link_alive() {
	[ -n "$(srv_stat)" ] && return 0
	diag "the server no longer answers over the link: no more passes"
	diag "$(dmesg | grep -E 'rdmachan|rcblk|nvme|rxe|virtio|eth0' | tail -n 10)"
	return 1
}

# rcblk_up POLL / rcblk_down DEV: map the export with one queue and POLL
# queues of polled I/O, print the disk / unmap it
rcblk_up() {
	D=$(timeout 60 $TOOL blk map $PAIR_SRV bench --queues 1 \
		--poll-queues "$1" --depth "$DEPTH" 2> $T/map.err)
	[ -b "$D" ] && echo "$D" && return 0
	diag "blk map failed: $D $(cat $T/map.err)" >&2
	return 1
}
rcblk_down() {
	diag "$($TOOL -sd blk show maps)" >&2
	blk_chan_stats "$1" >&2
	$TOOL blk unmap "$1" || diag "blk unmap $1 failed" >&2
}

# nvme_up POLL / nvme_down DEV: connect with one I/O queue and POLL
# queues of polled I/O, print the namespace's disk / disconnect
nvme_up() {
	if ! $NVME connect -t rdma -a $PAIR_SRV -s 4420 -n $NQN \
		--nr-io-queues 1 --nr-poll-queues "$1" --queue-size "$DEPTH" \
		--hostnqn $HOSTNQN --hostid $HOSTID > $T/connect.out 2>&1; then
		diag "nvme connect failed: $(cat $T/connect.out)" >&2
		return 1
	fi
	nvme_disk_wait $NQN && return 0
	diag "nvme connect: no namespace disk" >&2
	nvme_down
	return 1
}
nvme_down() {
	$NVME disconnect -n $NQN > $T/disconnect.out 2>&1 ||
		diag "nvme disconnect failed: $(cat $T/disconnect.out)" >&2
}

client_half() {
	pair_up && ok "the client's end of the link comes up" ||
		{ not_ok "the client's end of the link comes up"; blk_bail "no link"; }
	check "rdmachan, rdmachan_blk and nvme-rdma load" sh -c \
		"$MODPROBE rdmachan && $MODPROBE rdmachan_blk && $MODPROBE nvme-rdma"
	ctl_open || blk_bail "no control line"
	host_do server ready && ok "the server VM serves" ||
		{ not_ok "the server VM serves"; diag "host: $HOST_REPLY"; blk_bail "no server"; }
	result pair_secs "$SECS"
	result pair_slices "$SLICES"
	result pair_depth "$DEPTH"
	result pair_mb "$SIZE_MB"
	result pair_runs "$RUNS"
	result pair_poll_queues "$POLLQ"
	result pair_cpus "$(grep -c ^processor /proc/cpuinfo)"
	# the link's own figures for the 128k rows, as diagnostics
	for _p in ib_write_bw ib_read_bw; do
		_bw=$(link_bw $_p)
		diag "the link, perftest $_p 128k from the server: ${_bw:-no figure} MB/s"
		[ -n "$_bw" ] || diag "$(tail -n 5 $T/link_cli.out)"
	done
	# odd passes rcblk's job first, even ones nvme's: a host that speeds
	# up or slows down over a job favours neither.  The polled rows run
	# after every pass of the others: a polled QD32 job keeps the
	# client's one vCPU busy (97-99%), and runs have lost the link or a
	# driver there more than once (nvme-rdma's keep-alive expiring, the
	# virtio NIC's transmit queue timing out); last, such a loss ends no
	# pass of the rows with targets
	for _set in libaio polled; do
		for pass in $(seq "$RUNS"); do
			diag "two-host block pass $pass of $RUNS, $_set"
			if [ $((pass % 2)) = 1 ]; then
				bench_pass rcblk nvme $_set
			else
				bench_pass nvme rcblk $_set
			fi
			link_alive || break 2
		done
	done
	host_do server finish && ok "the server VM ends" ||
		{ not_ok "the server VM ends"; diag "host: $HOST_REPLY"; }
	check "rdmachan_blk and rdmachan unload" blk_unload
	done_testing
}

case "$PAIR_ROLE" in
server) server_half ;;
client) client_half ;;
*)
	not_ok "bench_blk_pair runs on the two-VM fixture (rdmachan_role server or client)"
	done_testing
	;;
esac
