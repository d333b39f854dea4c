// SPDX-License-Identifier: GPL-2.0-only
/*
 * chan_test: message channel checks, both ends in one process.
 *
 * The listener binds 192.0.2.1 ($DEV0, rxe0 by default); the client
 * connects from 192.0.2.2 ($DEV1, rxe1).  Each subcommand reports its
 * checks in KTAP (ktap.h) for the guest test library's run_checks.  The
 * commands are in a file per concern (chan_test_msg.c, _bench.c,
 * _conc.c, _fault.c); the table at the end of this file names them, with
 * their timeouts, and subcmd.c runs the one asked for.
 *
 *   chan_test basic        sizes, immediates, EMSGSIZE, batches, info
 *   chan_test stream N     N sequenced, checksummed messages, one way
 *   chan_test backpressure credits, EAGAIN, slow reader, poll
 *   chan_test close        peer close, listener close with pending
 *   chan_test errors       no listener, unreachable, bad arguments
 *   chan_test many N       N concurrent channels
 *   chan_test devremove    rdma link delete under live channels
 *   chan_test deadpeer [MIN MAX]  the peer vanishes silently: keepalive
 *                          notices, MIN to MAX s after
 *   chan_test idleprobe TICK_MS SECS  an idle pair probes once per five
 *                          keepalive ticks, both ends together
 *   chan_test bench        RDMACHAN_IOC_BENCH: blast/sink, ping-pong/echo,
 *                          counters in sysfs, bad arguments
 *   chan_test rdmabench    RDMACHAN_IOC_BENCH one-sided: WRITE and READ
 *                          against RDMA_TARGET, bad arguments, a missing
 *                          or short target, a target ending mid-run
 *   chan_test faultloop N  N channel setups/teardowns under failslab
 *   chan_test hold         open a channel pair and wait for a signal
 *   chan_test efault       faulting user buffers, alone and among other
 *                          senders: nothing sent for them, no credit lost
 *   chan_test concurrent [N] [MODE]
 *                          writers of every kind (write, SEND, SENDMMSG,
 *                          BENCH blast) and readers of every kind (read,
 *                          RECV, RECVMMSG, BENCH sink) on one channel fd
 *                          each: every message arrives once, intact, and
 *                          no credit is created or lost (MODE: softirq,
 *                          workqueue, direct)
 *   chan_test qperror      a QP forced into the error state, a QP fatal
 *                          event, a CQ error (debugfs fault injection):
 *                          both ends fail with a clear error, counted on
 *                          the device
 *   chan_test ctrlhold     the client holds back its buffers for the
 *                          server's control messages (debugfs fault
 *                          injection): the server's credit updates wait,
 *                          the client stalls, nothing fails; released,
 *                          everything arrives
 *   chan_test unplug N [S] N cycles of "rdma link delete" of either side's
 *                          device (alternating) under a blast: both ends
 *                          fail with ENODEV or ECONNRESET within S s
 *                          (default 2), the device comes back, a new
 *                          channel works
 *   chan_test pollwake     poll(), select() and epoll on a busy-polled
 *                          channel: woken by a message, a credit, the
 *                          peer's close, without spinning
 */
#define _GNU_SOURCE
#include "chan_test.h"

/*
 * @n on Debian's kernel, a quarter of it on the debug kernel: the counted
 * runs of bench and rdmabench move their data through KASAN and kmemleak
 * there, several times slower under TCG, and what they check (every
 * message, every byte, the counters) does not depend on how many.
 * kmemleak's file tells the kernels apart, as it does for the cases.
 */
unsigned long long scaled(unsigned long long n)
{
	static int debug = -1;

	if (debug < 0)
		debug = !access("/sys/kernel/debug/kmemleak", F_OK);
	return debug ? n / 4 : n;
}

/* both ends with @opts; a failure is reported */
int pair_open(struct chan_pair *p, const struct rdmachan_chan_opts *opts)
{
	if (!chan_pair_open(ctl, p, opts, opts))
		return 0;
	ktap_result(0, p->failed, "%s", strerror(errno));
	return -1;
}

uint32_t csum(const unsigned char *b, size_t n)
{
	uint32_t h = 2166136261u;

	while (n--)
		h = (h ^ *b++) * 16777619u;
	return h;
}

void fill(unsigned char *b, size_t n, uint32_t seed)
{
	size_t i;

	for (i = 0; i < n; i++)
		b[i] = (unsigned char)(seed * 31 + i * 7);
}

/* Close the @n pairs' two ends (arrays @cli, @srv) and their listener */
void pairs_close(int lfd, int *cli, int *srv, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		close(cli[i]);
		close(srv[i]);
	}
	close(lfd);
	free(cli);
	free(srv);
}

/* A channel's sysfs attribute @name as text, without the newline */
const char *sysfs_attr(int fd, const char *name, char *buf, size_t n)
{
	struct rdmachan_chan_info info;
	char path[128];
	FILE *f;

	buf[0] = 0;
	ioc_chan_info(fd, &info);
	snprintf(path, sizeof(path), "/sys/class/rdmachan/chan%u/%s", info.id,
		 name);
	f = fopen(path, "r");
	if (f) {
		if (!fgets(buf, n, f))
			buf[0] = 0;
		fclose(f);
	}
	buf[strcspn(buf, "\n")] = 0;
	return buf;
}

/* CLOCK_MONOTONIC in seconds */
double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static const struct subcmd cmds[] = {
	{ "basic", cmd_basic, NULL,
	  "sizes, immediates, EMSGSIZE, batches, info", 0 },
	{ "stream", cmd_stream, "[N]",
	  "N (100000) sequenced, checksummed messages, one way", 0 },
	{ "backpressure", cmd_backpressure, NULL,
	  "credits, EAGAIN, slow reader, poll", 0 },
	{ "close", cmd_close, NULL, "peer close, listener close with pending", 0 },
	{ "errors", cmd_errors, NULL, "no listener, unreachable, bad arguments", 0 },
	{ "many", cmd_many, "[N]", "N (64) concurrent channels", 0 },
	{ "devremove", cmd_devremove, NULL,
	  "rdma link delete under live channels", 0 },
	{ "deadpeer", cmd_deadpeer, "[MIN MAX]",
	  "the peer vanishes silently: keepalive notices", 0 },
	{ "idleprobe", cmd_idleprobe, "TICK_MS SECS",
	  "an idle pair probes once per five keepalive ticks, both ends together",
	  0 },
	{ "bench", cmd_bench, NULL,
	  "RDMACHAN_IOC_BENCH two-sided, its counters, bad arguments", 0 },
	{ "rdmabench", cmd_rdmabench, NULL,
	  "RDMACHAN_IOC_BENCH one-sided, bad or missing targets", 0 },
	{ "faultloop", cmd_faultloop, "[N]",
	  "N (20) channel setups/teardowns under failslab", 0 },
	{ "grant", cmd_grant, NULL,
	  "receive buffers that follow use: shrink when idle, grow with use",
	  0 },
	{ "frag", cmd_frag, NULL,
	  "messages that span receive buffers (FRAG), every way they go", 300 },
	{ "budget", cmd_budget, "[STALL]",
	  "grants stop growing at the device's budget, without RNR or error",
	  300 },
	{ "hold", cmd_hold, NULL, "open a channel pair and wait for a signal", 0 },
	{ "efault", cmd_efault, NULL,
	  "faulting user buffers: nothing sent for them, no credit lost", 0 },
	/* a lost wake-up must fail the case, not hang it */
	{ "concurrent", cmd_concurrent, "[N] [MODE]",
	  "writers and readers of every kind on one channel", 300 },
	{ "qperror", cmd_qperror, NULL,
	  "QP error state, QP fatal event, CQ error: both ends fail", 0 },
	{ "ctrlhold", cmd_ctrlhold, NULL,
	  "control credits run out: the peer waits, nothing fails", 0 },
	{ "unplug", cmd_unplug, "[N] [S]",
	  "N (100) device removals under a blast, each end fails within S s", 0 },
	{ "pollwake", cmd_pollwake, NULL,
	  "poll, select, epoll on a busy-polled channel wake, without spinning", 0 },
	{ "fair", cmd_fair, "[N] [SECS]",
	  "N (100) busy pairs at once for SECS (5): how evenly they share", 300 },
	{ "scale", cmd_scale, "[N] [SHARE]",
	  "N (1000) default pairs, or what fits in SHARE% (50) of memory", 900 },
	{ "setup", cmd_setup, "[N]",
	  "N (200) default pairs opened at once and closed: the setup rate", 300 },
	{ }
};

int main(int argc, char **argv)
{
	return subcmd_main(argc, argv, cmds, NULL);
}
