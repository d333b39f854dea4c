// SPDX-License-Identifier: GPL-2.0-only
/*
 * chan_test_bench.c: RDMACHAN_IOC_BENCH, its two-sided modes (bench) and
 * its one-sided ones (rdmabench).
 */
#define _GNU_SOURCE
#include "chan_test.h"

struct bench_thread {
	int fd;
	struct rdmachan_bench b;
	int ret, err;
};

static void *bench_thread(void *arg)
{
	struct bench_thread *t = arg;

	t->b.size = sizeof(t->b);
	t->ret = ioctl(t->fd, RDMACHAN_IOC_BENCH, &t->b);
	t->err = errno;
	return NULL;
}

/* Run @c on the client end and @s on the server end at the same time. */
static void bench_run(struct chan_pair *p, struct bench_thread *c,
		      struct bench_thread *s)
{
	pthread_t tc, ts;

	c->fd = p->cli;
	s->fd = p->srv;
	pthread_create(&ts, NULL, bench_thread, s);
	pthread_create(&tc, NULL, bench_thread, c);
	pthread_join(tc, NULL);
	pthread_join(ts, NULL);
}

static unsigned long long sysfs_stat(int fd, const char *name)
{
	struct rdmachan_chan_info info;
	char path[128], buf[64] = "";
	FILE *f;

	ioc_chan_info(fd, &info);
	snprintf(path, sizeof(path), "/sys/class/rdmachan/chan%u/stats/%s",
		 info.id, name);
	f = fopen(path, "r");
	if (!f)
		return ~0ULL;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = 0;
	fclose(f);
	return strtoull(buf, NULL, 0);
}

/* RDMACHAN_IOC_BENCH with @b as given: 0 or the errno */
static int bench_errno(int fd, struct rdmachan_bench *b)
{
	return ioctl(fd, RDMACHAN_IOC_BENCH, b) < 0 ? errno : 0;
}

static void bench_bad_args(struct chan_pair *p, unsigned int depth, unsigned int max)
{
	struct rdmachan_bench b;
	int e;

	memset(&b, 0, sizeof(b));
	b.size = sizeof(b) - 8;
	e = bench_errno(p->cli, &b);
	ktap_result(e == EINVAL, "BENCH with a wrong size fails with EINVAL", "%s", strerror(e));
	memset(&b, 0, sizeof(b));
	b.size = sizeof(b);
	b.mode = RDMACHAN_BENCH_READ + 1;
	e = bench_errno(p->cli, &b);
	ktap_result(e == EINVAL, "BENCH with an unknown mode fails with EINVAL", "%s", strerror(e));
	memset(&b, 0, sizeof(b));
	b.size = sizeof(b);
	b.reserved[7] = 1;
	e = bench_errno(p->cli, &b);
	ktap_result(e == EINVAL, "BENCH with a reserved field set fails with EINVAL", "%s",
	       strerror(e));
	memset(&b, 0, sizeof(b));
	b.size = sizeof(b);
	b.msgs = 1;
	e = bench_errno(p->cli, &b);
	ktap_result(e == EINVAL, "BENCH with an output field set fails with EINVAL", "%s",
	       strerror(e));
	memset(&b, 0, sizeof(b));
	b.size = sizeof(b);
	b.msg_size = max + 1;
	e = bench_errno(p->cli, &b);
	ktap_result(e == EMSGSIZE, "BENCH with messages over the maximum fails with EMSGSIZE",
	       "%s", strerror(e));
	memset(&b, 0, sizeof(b));
	b.size = sizeof(b);
	b.batch = depth + 1;
	e = bench_errno(p->cli, &b);
	ktap_result(e == EINVAL, "BENCH with a batch over the queue depth fails with EINVAL",
	       "%s", strerror(e));
	e = ioctl(p->cli, RDMACHAN_IOC_BENCH, (void *)8) < 0 ? errno : 0;
	ktap_result(e == EFAULT, "BENCH with a bad pointer fails with EFAULT", "%s", strerror(e));
}

int cmd_bench(SUBCMD_ARGS)
{
	struct bench_thread cli = {}, srv = {};
	struct rdmachan_chan_info info;
	unsigned long long tx, rx, n;
	struct chan_pair p;
	char desc[128];

	if (pair_open(&p, NULL))
		return 1;
	ioc_chan_info(p.cli, &info);
	bench_bad_args(&p, info.queue_depth, info.max_msg_size);

	/* blast N messages of 100 bytes in batches of 8 against a sink */
	n = scaled(20000);
	cli.b.mode = RDMACHAN_BENCH_BLAST;
	cli.b.msg_size = 100;
	cli.b.batch = 8;
	cli.b.count = n;
	srv.b.mode = RDMACHAN_BENCH_SINK;
	srv.b.count = n;
	bench_run(&p, &cli, &srv);
	snprintf(desc, sizeof(desc),
		 "in-kernel blast sends exactly the %llu messages asked for", n);
	ktap_result(cli.ret == 0 && cli.b.msgs == n && cli.b.bytes == n * 100 &&
	       cli.b.elapsed_ns > 0, desc,
	       "ret %d (%s) msgs %llu bytes %llu", cli.ret, strerror(cli.err),
	       (unsigned long long)cli.b.msgs, (unsigned long long)cli.b.bytes);
	snprintf(desc, sizeof(desc), "the in-kernel sink receives all %llu of them", n);
	ktap_result(srv.ret == 0 && srv.b.msgs == n && srv.b.bytes == n * 100, desc,
	       "ret %d (%s) msgs %llu bytes %llu", srv.ret, strerror(srv.err),
	       (unsigned long long)srv.b.msgs, (unsigned long long)srv.b.bytes);
	tx = sysfs_stat(p.cli, "msgs_tx");
	rx = sysfs_stat(p.srv, "msgs_rx");
	snprintf(desc, sizeof(desc), "sysfs msgs_tx and msgs_rx count the %llu messages", n);
	ktap_result(tx == n && rx == n, desc,
	       "msgs_tx %llu msgs_rx %llu", tx, rx);
	tx = sysfs_stat(p.cli, "bytes_tx");
	rx = sysfs_stat(p.srv, "bytes_rx");
	snprintf(desc, sizeof(desc), "sysfs bytes_tx and bytes_rx count their %llu bytes",
		 n * 100);
	ktap_result(tx == n * 100 && rx == n * 100, desc,
	       "bytes_tx %llu bytes_rx %llu", tx, rx);

	/* ping-pong N round trips against an echo */
	n = scaled(2000);
	memset(&cli, 0, sizeof(cli));
	memset(&srv, 0, sizeof(srv));
	cli.b.mode = RDMACHAN_BENCH_PINGPONG;
	cli.b.msg_size = 32;
	cli.b.count = n;
	srv.b.mode = RDMACHAN_BENCH_ECHO;
	srv.b.count = n;
	bench_run(&p, &cli, &srv);
	snprintf(desc, sizeof(desc),
		 "in-kernel ping-pong makes %llu round trips through the echo", n);
	ktap_result(cli.ret == 0 && cli.b.msgs == n && srv.ret == 0 && srv.b.msgs == n, desc,
	       "ping ret %d (%s) msgs %llu; echo ret %d (%s) msgs %llu",
	       cli.ret, strerror(cli.err), (unsigned long long)cli.b.msgs,
	       srv.ret, strerror(srv.err), (unsigned long long)srv.b.msgs);
	ktap_result(cli.b.lat_min_ns > 0 && cli.b.lat_min_ns <= cli.b.lat_p50_ns &&
	       cli.b.lat_p50_ns <= cli.b.lat_p99_ns && cli.b.lat_p99_ns <= cli.b.lat_max_ns &&
	       cli.b.lat_min_ns <= cli.b.lat_avg_ns && cli.b.lat_avg_ns <= cli.b.lat_max_ns,
	       "round-trip statistics are ordered: min <= p50 <= p99 <= max, min <= avg <= max",
	       "min %llu avg %llu p50 %llu p99 %llu max %llu",
	       (unsigned long long)cli.b.lat_min_ns, (unsigned long long)cli.b.lat_avg_ns,
	       (unsigned long long)cli.b.lat_p50_ns, (unsigned long long)cli.b.lat_p99_ns,
	       (unsigned long long)cli.b.lat_max_ns);
	ktap_diag("in-kernel ping-pong rtt min %.1f avg %.1f p99 %.1f us",
	       cli.b.lat_min_ns / 1e3, cli.b.lat_avg_ns / 1e3, cli.b.lat_p99_ns / 1e3);

	/* a sink without limits ends at the peer's close, with its count */
	memset(&srv, 0, sizeof(srv));
	srv.fd = p.srv;
	srv.b.mode = RDMACHAN_BENCH_SINK;
	{
		pthread_t ts;
		int i;

		pthread_create(&ts, NULL, bench_thread, &srv);
		for (i = 0; i < 100; i++)
			write(p.cli, "0123456789", 10);
		close(p.cli);
		pthread_join(ts, NULL);
	}
	ktap_result(srv.ret == 0 && srv.b.msgs == 100 && srv.b.bytes == 1000,
	       "an unlimited sink ends at the peer's close with every message counted",
	       "ret %d (%s) msgs %llu", srv.ret, strerror(srv.err),
	       (unsigned long long)srv.b.msgs);
	close(p.srv);
	close(p.lfd);
	return ktap_failures() ? 1 : 0;
}

/* ---- rdmabench: the one-sided modes ------------------------------------ */

static void on_usr1(int sig)
{
	(void)sig;
}

/* A bench thread started on its own; bench_join() waits for it. */
static pthread_t bench_start(struct bench_thread *t, int fd, unsigned int mode,
			     unsigned int size, unsigned int batch)
{
	pthread_t th;

	t->fd = fd;
	t->b.mode = mode;
	t->b.msg_size = size;
	t->b.batch = batch;
	pthread_create(&th, NULL, bench_thread, t);
	return th;
}

/*
 * Join @th within @secs seconds; a thread still in its ioctl then gets
 * SIGUSR1 (which ends any bench run), so that a bug fails the case
 * instead of hanging it.  Returns 0 if it ended by itself.
 */
static int bench_join(pthread_t th, struct bench_thread *t, double secs)
{
	struct timespec ts;
	int r;

	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += (time_t)secs;
	r = pthread_timedjoin_np(th, NULL, &ts);
	if (!r)
		return 0;
	ktap_diag("bench thread (mode %u) still running after %.0f s: signalled",
	       t->b.mode, secs);
	pthread_kill(th, SIGUSR1);
	pthread_join(th, NULL);
	return -1;
}

static void rdmabench_bad_args(struct chan_pair *p)
{
	static const struct {
		const char *what;
		unsigned int mode, size, batch;
		int err;
	} bad[] = {
		{ "WRITE with batch 0 fails with EINVAL", RDMACHAN_BENCH_WRITE, 4096, 0, EINVAL },
		{ "READ with batch 65 fails with EINVAL", RDMACHAN_BENCH_READ, 4096,
		  RDMACHAN_MAX_RDMA_OPS + 1, EINVAL },
		{ "WRITE with msg_size 0 fails with EINVAL", RDMACHAN_BENCH_WRITE, 0, 16, EINVAL },
		{ "RDMA_TARGET with batch 0 fails with EINVAL", RDMACHAN_BENCH_RDMA_TARGET,
		  4096, 0, EINVAL },
		{ "RDMA_TARGET with msg_size 0 fails with EINVAL", RDMACHAN_BENCH_RDMA_TARGET,
		  0, 1, EINVAL },
		{ "WRITE over RDMACHAN_BENCH_MAX_REGION fails with E2BIG", RDMACHAN_BENCH_WRITE,
		  RDMACHAN_BENCH_MAX_REGION / 16 + 1, 16, E2BIG },
		{ "RDMA_TARGET over RDMACHAN_BENCH_MAX_REGION fails with E2BIG",
		  RDMACHAN_BENCH_RDMA_TARGET, RDMACHAN_BENCH_MAX_REGION, 2, E2BIG },
		{ "RDMA_TARGET over the device's registration limit fails with E2BIG",
		  RDMACHAN_BENCH_RDMA_TARGET, 16U << 20, 1, E2BIG },
	};
	struct rdmachan_bench b;
	unsigned int i;
	int e;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memset(&b, 0, sizeof(b));
		b.size = sizeof(b);
		b.mode = bad[i].mode;
		b.msg_size = bad[i].size;
		b.batch = bad[i].batch;
		b.count = 1;
		e = bench_errno(p->cli, &b);
		ktap_result(e == bad[i].err, bad[i].what, "%s", strerror(e));
	}
}

/* WRITE or READ @count ops (or @ms) against a target on a fresh pair */
static void rdmabench_run(const char *what, unsigned int mode, unsigned int size,
			  unsigned int batch, unsigned long long count,
			  unsigned int ms, unsigned int poll_mode, int late_target)
{
	struct rdmachan_chan_opts o = { .poll_mode = poll_mode };
	struct bench_thread cli = {}, srv = {};
	char desc[160], cnt[48] = "";
	pthread_t tc, ts;
	struct chan_pair p;

	if (pair_open(&p, &o))
		return;
	cli.b.count = count;
	cli.b.duration_ms = ms;
	if (late_target) {
		/* the initiator waits for the descriptor that comes later */
		tc = bench_start(&cli, p.cli, mode, size, batch);
		usleep(500000);
		ts = bench_start(&srv, p.srv, RDMACHAN_BENCH_RDMA_TARGET, size, batch);
	} else {
		ts = bench_start(&srv, p.srv, RDMACHAN_BENCH_RDMA_TARGET, size, batch);
		tc = bench_start(&cli, p.cli, mode, size, batch);
	}
	bench_join(tc, &cli, 60);
	if (count)
		snprintf(cnt, sizeof(cnt), " (exactly the %llu asked for)", count);
	snprintf(desc, sizeof(desc), "%s: ops > 0%s, bytes = ops * %u, time > 0",
		 what, cnt, size);
	ktap_result(cli.ret == 0 && cli.b.msgs > 0 && (!count || cli.b.msgs == count) &&
	       cli.b.bytes == cli.b.msgs * size && cli.b.elapsed_ns > 0, desc,
	       "ret %d (%s) ops %llu bytes %llu elapsed %llu ns", cli.ret,
	       cli.ret ? strerror(cli.err) : "-", (unsigned long long)cli.b.msgs,
	       (unsigned long long)cli.b.bytes, (unsigned long long)cli.b.elapsed_ns);
	if (cli.ret) {
		rdma_counters_diag();
		klog_diag("rdmachan|rxe", 4);
	}
	ktap_diag("%s: %.0f ops/s, %.1f MB/s", what,
	       cli.b.elapsed_ns ? cli.b.msgs * 1e9 / cli.b.elapsed_ns : 0.0,
	       cli.b.elapsed_ns ? cli.b.bytes * 1e3 / cli.b.elapsed_ns : 0.0);
	/* the initiator's close ends the target's run */
	close(p.cli);
	snprintf(desc, sizeof(desc), "%s: the target's run ends at the close, with 0",
		 what);
	ktap_result(!bench_join(ts, &srv, 15) && srv.ret == 0 && srv.b.msgs == 0, desc,
	       "ret %d (%s)", srv.ret, srv.ret ? strerror(srv.err) : "-");
	close(p.srv);
	close(p.lfd);
}

/* The initiator's run fails with @err against what the server end does */
static void rdmabench_fails(struct chan_pair *p, const char *what, int err,
			    unsigned int size, unsigned int batch, double t_max)
{
	struct bench_thread cli = {};
	double t0 = now();
	pthread_t tc;

	cli.b.duration_ms = 20000;
	tc = bench_start(&cli, p->cli, RDMACHAN_BENCH_WRITE, size, batch);
	bench_join(tc, &cli, 30);
	ktap_result(cli.ret < 0 && cli.err == err && now() - t0 < t_max, what,
	       "ret %d (%s) after %.1f s, %llu ops", cli.ret, strerror(cli.err),
	       now() - t0, (unsigned long long)cli.b.msgs);
}

int cmd_rdmabench(SUBCMD_ARGS)
{
	struct bench_thread cli = {}, srv = {};
	struct sigaction sa;
	pthread_t tc, ts;
	struct chan_pair p;
	double t0;

	/* SIGUSR1 ends a bench run: no SA_RESTART */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sigaction(SIGUSR1, &sa, NULL);

	if (pair_open(&p, NULL))
		return 1;
	rdmabench_bad_args(&p);
	chan_pair_close(&p);

	rdmabench_run("WRITE of 4 KiB, batch 16", RDMACHAN_BENCH_WRITE, 4096, 16,
		      scaled(2000), 0, RDMACHAN_POLL_MODE_SOFTIRQ, 0);
	rdmabench_run("READ of 64 KiB, batch 8", RDMACHAN_BENCH_READ, 65536, 8,
		      scaled(1000), 0, RDMACHAN_POLL_MODE_SOFTIRQ, 0);
	rdmabench_run("WRITE for 500 ms, batch 64 x 1 B", RDMACHAN_BENCH_WRITE, 1, 64,
		      0, 500, RDMACHAN_POLL_MODE_SOFTIRQ, 0);
	rdmabench_run("READ 3 x 8 KiB (count below the batch)", RDMACHAN_BENCH_READ, 8192,
		      16, 3, 0, RDMACHAN_POLL_MODE_SOFTIRQ, 0);
	rdmabench_run("busy-polled WRITE for 500 ms", RDMACHAN_BENCH_WRITE, 4096, 16,
		      0, 500, RDMACHAN_POLL_MODE_DIRECT, 0);
	rdmabench_run("busy-polled READ, initiator first", RDMACHAN_BENCH_READ, 4096, 16,
		      scaled(500), 0, RDMACHAN_POLL_MODE_DIRECT, 1);
	rdmabench_run("WRITE, initiator started before the target", RDMACHAN_BENCH_WRITE,
		      4096, 16, scaled(500), 0, RDMACHAN_POLL_MODE_SOFTIRQ, 1);

	/* no target on the other end: the descriptor never comes */
	if (pair_open(&p, NULL))
		return 1;
	rdmabench_fails(&p, "WRITE without a target fails with ETIMEDOUT (within 10 s)",
			ETIMEDOUT, 4096, 16, 15);
	/* something else than a descriptor comes */
	if (write(p.srv, "not a descriptor", 16) != 16)
		ktap_diag("write: %s", strerror(errno));
	rdmabench_fails(&p, "WRITE against a message that is no descriptor fails with EPROTO",
			EPROTO, 4096, 16, 5);
	chan_pair_close(&p);

	/* a target whose region is smaller than batch * msg_size */
	if (pair_open(&p, NULL))
		return 1;
	memset(&srv, 0, sizeof(srv));
	ts = bench_start(&srv, p.srv, RDMACHAN_BENCH_RDMA_TARGET, 4096, 4);
	rdmabench_fails(&p, "WRITE of 16 x 4 KiB against a 16 KiB region fails with EMSGSIZE",
			EMSGSIZE, 4096, 16, 5);
	close(p.cli);
	ktap_result(!bench_join(ts, &srv, 15) && srv.ret == 0,
	       "and that target ends at the close", "ret %d (%s)", srv.ret,
	       strerror(srv.err));
	close(p.srv);
	close(p.lfd);

	/* the target ends (a signal) while the initiator runs */
	if (pair_open(&p, NULL))
		return 1;
	memset(&cli, 0, sizeof(cli));
	memset(&srv, 0, sizeof(srv));
	cli.b.duration_ms = 20000;
	ts = bench_start(&srv, p.srv, RDMACHAN_BENCH_RDMA_TARGET, 4096, 16);
	tc = bench_start(&cli, p.cli, RDMACHAN_BENCH_WRITE, 4096, 16);
	usleep(700000);
	t0 = now();
	pthread_kill(ts, SIGUSR1);
	ktap_result(!bench_join(ts, &srv, 15) && srv.ret == 0,
	       "a target ended by a signal returns 0", "ret %d (%s)", srv.ret,
	       strerror(srv.err));
	bench_join(tc, &cli, 30);
	ktap_result(cli.ret < 0 && cli.err == EPIPE && now() - t0 < 10,
	       "the initiator whose target ended mid-run fails with EPIPE",
	       "ret %d (%s) after %.1f s, %llu ops", cli.ret, strerror(cli.err),
	       now() - t0, (unsigned long long)cli.b.msgs);
	chan_pair_close(&p);

	/* the initiator ended by a signal: its results so far */
	if (pair_open(&p, NULL))
		return 1;
	memset(&cli, 0, sizeof(cli));
	memset(&srv, 0, sizeof(srv));
	ts = bench_start(&srv, p.srv, RDMACHAN_BENCH_RDMA_TARGET, 4096, 16);
	tc = bench_start(&cli, p.cli, RDMACHAN_BENCH_READ, 4096, 16);
	usleep(700000);
	pthread_kill(tc, SIGUSR1);
	ktap_result(!bench_join(tc, &cli, 15) && cli.ret == 0 && cli.b.msgs > 0 &&
	       cli.b.bytes == cli.b.msgs * 4096,
	       "an initiator without limits ends at a signal, with its results",
	       "ret %d (%s) ops %llu bytes %llu", cli.ret, strerror(cli.err),
	       (unsigned long long)cli.b.msgs, (unsigned long long)cli.b.bytes);
	close(p.cli);
	ktap_result(!bench_join(ts, &srv, 15) && srv.ret == 0,
	       "and its target ends at its close", "ret %d (%s)", srv.ret,
	       strerror(srv.err));
	close(p.srv);
	close(p.lfd);
	return ktap_failures() ? 1 : 0;
}
