// SPDX-License-Identifier: GPL-2.0-only
/*
 * chan_test_fault.c: channels meeting trouble: the device removed under
 * them (devremove, and over and over under traffic: unplug), a peer that
 * vanishes (deadpeer), an idle pair's keepalive probes (idleprobe),
 * allocations that fail (faultloop), QP and CQ
 * failures (qperror), a peer slow to repost for control messages
 * (ctrlhold), and a pair held open for the case (hold).
 */
#define _GNU_SOURCE
#include <limits.h>

#include "chan_test.h"

struct blocked {
	int fd;
	int ret;
	int err;
};

static void *blocked_read(void *arg)
{
	struct blocked *b = arg;
	char buf[64];

	b->ret = read(b->fd, buf, sizeof(buf));
	b->err = errno;
	return NULL;
}

int cmd_devremove(SUBCMD_ARGS)
{
	struct blocked bc = {}, bs = {};
	struct rdmachan_chan_info info;
	pthread_t tc, ts;
	struct chan_pair p;
	int r;

	if (pair_open(&p, NULL))
		return 1;
	write(p.cli, "queued", 6);
	usleep(200000);
	bc.fd = p.cli;
	pthread_create(&tc, NULL, blocked_read, &bc);
	usleep(200000);
	{
		char cmd[96];

		snprintf(cmd, sizeof(cmd), "/usr/bin/rdma link delete %s",
			 dev_name_env("DEV1", "rxe1"));
		r = system(cmd);
	}
	ktap_result(r == 0, "rdma link delete DEV1 under live channels", "status %d", r);
	pthread_join(tc, NULL);
	ktap_result(bc.ret < 0 && bc.err == ENODEV,
	       "a reader blocked on the removed device wakes with ENODEV",
	       "read %d %s", bc.ret, strerror(bc.err));
	errno = 0;
	r = write(p.cli, "x", 1);
	ktap_result(r < 0 && errno == ENODEV, "writes on the removed device fail with ENODEV",
	       "write %d %s", r, strerror(errno));
	ioc_chan_info(p.cli, &info);
	ktap_result(info.state == RDMACHAN_STATE_FAILED && info.error == -ENODEV &&
	       !info.dev_name[0],
	       "the channel is FAILED with ENODEV and holds no device",
	       "state %u error %d dev '%s'", info.state, info.error, info.dev_name);

	/* The other end: the message sent before is still readable, then the end */
	{
		char buf[64];

		r = read(p.srv, buf, sizeof(buf));
		ktap_result(r == 6 && !memcmp(buf, "queued", 6),
		       "the peer still reads what arrived before", "read %d", r);
		bs.fd = p.srv;
		pthread_create(&ts, NULL, blocked_read, &bs);
		pthread_join(ts, NULL);
		ktap_result(bs.ret == 0 || (bs.ret < 0 && bs.err == ECONNRESET),
		       "then the peer sees the end", "read %d %s", bs.ret,
		       strerror(bs.err));
	}
	chan_pair_close(&p);
	ktap_result(1, "channel fds on a removed device close cleanly", "-");
	return ktap_failures() ? 1 : 0;
}

/*
 * A peer that vanishes without a word: both neighbour entries point at a
 * MAC nobody has, so every packet between the ends is silently dropped
 * (links stay up, as when the far host dies or the network partitions).
 * Only the keepalive's unanswered retries can tell; both blocked readers
 * must learn ECONNRESET.  With MIN and MAX (seconds) the server's must
 * learn it between MIN and MAX seconds after the drop: the case script
 * sets the RC ACK timeout (module parameter ack_timeout) that bounds it.
 * The case script restores the neighbours.
 */
int cmd_deadpeer(SUBCMD_ARGS)
{
	double lo = argc > 2 ? atof(argv[1]) : 0, hi = argc > 2 ? atof(argv[2]) : 0;
	struct blocked bs = {}, bc = {};
	pthread_t ts, tc;
	struct chan_pair p;
	double t0, t;
	int r;

	if (pair_open(&p, NULL))
		return 1;
	bs.fd = p.srv;
	bc.fd = p.cli;
	pthread_create(&ts, NULL, blocked_read, &bs);
	pthread_create(&tc, NULL, blocked_read, &bc);
	usleep(200000);
	t0 = now();
	r = system("/usr/sbin/ip neigh replace 192.0.2.2 lladdr 02:00:00:00:00:01 dev veth0 nud permanent && "
		   "/usr/sbin/ip neigh replace 192.0.2.1 lladdr 02:00:00:00:00:02 dev veth1 nud permanent");
	ktap_result(r == 0, "every packet between the ends is dropped from now on", "status %d", r);
	pthread_join(ts, NULL);
	t = now() - t0;
	ktap_result(bs.ret < 0 && bs.err == ECONNRESET,
	       "the server's blocked reader learns the peer is gone (ECONNRESET)",
	       "read %d %s after %.1fs", bs.ret, strerror(bs.err), t);
	if (hi > 0)
		ktap_result(t >= lo && t <= hi,
			    "it learns it as the ACK timeout says",
			    "after %.1f s, not within %.1f..%.1f s", t, lo, hi);
	pthread_join(tc, NULL);
	ktap_result(bc.ret < 0 && bc.err == ECONNRESET,
	       "the client's blocked reader learns the peer is gone (ECONNRESET)",
	       "read %d %s after %.1fs", bc.ret, strerror(bc.err), now() - t0);
	ktap_diag("detected after %.1f s", now() - t0);
	errno = 0;
	r = write(p.srv, "x", 1);
	ktap_result(r < 0 && errno == ECONNRESET, "a write after the loss fails with ECONNRESET",
	       "write %d %s", r, strerror(errno));
	chan_pair_close(&p);
	return ktap_failures() ? 1 : 0;
}

/*
 * idleprobe TICK_MS SECS: the ends of an idle channel pair, their
 * keepalive ticking every TICK_MS (the case's keepalive_ms), send a probe
 * once nothing arrived for five ticks, a probe arriving counting
 * (module/chan/keepalive.h): both together about SECS * 1000 /
 * (5 * TICK_MS) probes in SECS seconds, two more at most (what the setup
 * left unretired, the two ends' first ticks); a probe every tick would be
 * five times as many.
 */
int cmd_idleprobe(SUBCMD_ARGS)
{
	unsigned int tick = argc > 2 ? atoi(argv[1]) : 200;
	unsigned int secs = argc > 2 ? atoi(argv[2]) : 4;
	struct rdmachan_chan_info s0, c0, s1, c1;
	unsigned long long ns, nc, want;
	struct chan_pair p;

	if (!tick || !secs)
		return 2;
	want = secs * 1000ULL / (5ULL * tick);
	if (pair_open(&p, NULL))
		return 1;
	ioc_chan_info(p.srv, &s0);
	ioc_chan_info(p.cli, &c0);
	sleep(secs);
	ioc_chan_info(p.srv, &s1);
	ioc_chan_info(p.cli, &c1);
	ns = s1.keepalives_tx - s0.keepalives_tx;
	nc = c1.keepalives_tx - c0.keepalives_tx;
	ktap_result(ns + nc >= 1 && ns + nc <= want + 2,
		    "an idle channel pair probes once per five keepalive ticks, both ends together",
		    "%llu probes in %u s of %u ms ticks (%llu expected, +2 at most)",
		    ns + nc, secs, tick, want);
	ktap_diag("idle pair: server %llu probes, client %llu", ns, nc);
	chan_pair_close(&p);
	return ktap_failures() ? 1 : 0;
}

/*
 * faultloop N: N cycles of listen, connect, accept, one message and
 * close while failslab fails some of this process's kernel allocations
 * (fault_on/fault_off switch /proc/self/make-it-fail; the case script
 * sets the probability).  Every call must succeed or fail with a clean
 * errno, nothing may hang; the injection must have hit at least once.
 */
static int fail_fd = -1;

static void fault_set(int on)
{
	if (fail_fd >= 0 && pwrite(fail_fd, on ? "1" : "0", 1, 0) != 1)
		perror("make-it-fail");
}

struct fault_stats {
	unsigned int calls, ok, errs[256];
	int unexpected;
	char first_unexpected[96];
};

static void fault_note(struct fault_stats *st, const char *what, int ret)
{
	/*
	 * ENFILE: the connecting process builds its channel, and rxe makes
	 * a kernel socket for each QP, whose inode failslab may refuse
	 * (sock_alloc(), as for socket(2))
	 */
	static const int clean[] = {
		ENOMEM, ECONNREFUSED, ETIMEDOUT, ECONNRESET, EAGAIN, EPROTO,
		ENOTCONN, EHOSTUNREACH, ENETUNREACH, EINTR, ENOBUFS, EPIPE,
		ENFILE,
	};
	int e = errno;
	size_t i;

	st->calls++;
	if (ret >= 0) {
		st->ok++;
		return;
	}
	st->errs[e & 255]++;
	for (i = 0; i < sizeof(clean) / sizeof(clean[0]); i++)
		if (clean[i] == e)
			return;
	if (!st->unexpected++)
		snprintf(st->first_unexpected, sizeof(st->first_unexpected),
			 "%s: %s", what, strerror(e));
}

int cmd_faultloop(SUBCMD_ARGS)
{
	int n = argc > 1 ? atoi(argv[1]) : 20;
	struct rdmachan_chan_opts opts = { .timeout_ms = 2000 };
	struct fault_stats st = {};
	struct rdmachan_bench b;
	int i, lfd, cli, srv, port, r, failed = 0;
	char buf[8];

	fail_fd = open("/proc/self/make-it-fail", O_WRONLY);
	if (fail_fd < 0) {
		ktap_result(0, "open /proc/self/make-it-fail", "%s", strerror(errno));
		return 1;
	}
	for (i = 0; i < n; i++) {
		struct pollfd pfd;

		cli = srv = -1;
		/* every other listener is set up without injection, so that
		 * the later steps are reached at high probabilities too */
		fault_set(i & 1);
		lfd = chan_listen(ctl, SRV_IP, 0, &opts, 0, &port);
		fault_note(&st, "listen", lfd);
		fault_set(1);
		if (lfd < 0)
			goto next;
		cli = chan_connect(ctl, SRV_IP, port, CLI_IP, &opts, 0);
		fault_note(&st, "connect", cli);
		pfd.fd = lfd;
		pfd.events = POLLIN;
		if (cli >= 0 && poll(&pfd, 1, 2000) == 1) {
			srv = chan_accept(lfd, RDMACHAN_FD_NONBLOCK);
			fault_note(&st, "accept", srv);
		}
		if (cli >= 0 && srv >= 0) {
			r = write(cli, "fault", 5);
			fault_note(&st, "write", r);
			pfd.fd = srv;
			if (r == 5 && poll(&pfd, 1, 2000) == 1) {
				r = read(srv, buf, sizeof(buf));
				fault_note(&st, "read", r);
			}
			/* 64 KiB payloads: page allocations in this task */
			memset(&b, 0, sizeof(b));
			b.size = sizeof(b);
			b.mode = RDMACHAN_BENCH_BLAST;
			b.msg_size = 65536;
			b.count = 2;
			r = ioctl(cli, RDMACHAN_IOC_BENCH, &b);
			fault_note(&st, "bench", r);
		}
next:
		if (srv >= 0)
			close(srv);
		if (cli >= 0)
			close(cli);
		if (lfd >= 0)
			close(lfd);
		fault_set(0);
	}
	for (i = 0; i < 256; i++)
		if (st.errs[i]) {
			ktap_diag("errno %s: %u", strerror(i), st.errs[i]);
			failed += st.errs[i];
		}
	ktap_diag("%u calls, %u succeeded", st.calls, st.ok);
	ktap_result(!st.unexpected,
	       "every call under failslab succeeded or failed with a clean errno",
	       "%d unexpected, first %s", st.unexpected, st.first_unexpected);
	ktap_result(failed > 0, "the injected failures reached rdmachan's calls",
	       "%u calls, none failed", st.calls);
	close(fail_fd);
	fail_fd = -1;
	return ktap_failures() ? 1 : 0;
}

int cmd_hold(SUBCMD_ARGS)
{
	struct chan_pair p;

	if (pair_open(&p, NULL))
		return 1;
	printf("READY\n");
	fflush(stdout);
	pause();
	return 0;
}

/* ---- QP and CQ failures ------------------------------------------------ */

#define INJECT "/sys/kernel/debug/rdmachan/inject"

static int inject(unsigned int id, const char *what)
{
	char cmd[64];
	int fd, n, ret = 0;

	fd = open(INJECT, O_WRONLY);
	if (fd < 0)
		return -errno;
	n = snprintf(cmd, sizeof(cmd), "%u %s\n", id, what);
	if (write(fd, cmd, n) != n)
		ret = -errno;
	close(fd);
	return ret;
}

/* The event counter @name of the rdmachan device directory of @dev. */
static long dev_counter(const char *dev, const char *name)
{
	char path[160], buf[64];
	long val = -1;
	int i;

	for (i = 0; i < 64 && val < 0; i++) {
		FILE *f;

		snprintf(path, sizeof(path), "/sys/class/rdmachan/dev%d/name", i);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(buf, sizeof(buf), f) && !strncmp(buf, dev, strlen(dev)) &&
		    buf[strlen(dev)] == '\n') {
			fclose(f);
			snprintf(path, sizeof(path), "/sys/class/rdmachan/dev%d/%s",
				 i, name);
			f = fopen(path, "r");
			if (!f)
				return -1;
			val = fgets(buf, sizeof(buf), f) ? atol(buf) : -1;
		}
		fclose(f);
	}
	return val;
}

/* Wait up to @secs for @fd to poll EPOLLERR; return the seconds it took or -1 */
static double wait_pollerr(int fd, double secs)
{
	double t0 = now();
	struct pollfd pfd = { .fd = fd, .events = POLLIN | POLLOUT };

	while (now() - t0 < secs) {
		pfd.revents = 0;
		if (poll(&pfd, 1, 100) > 0 && (pfd.revents & POLLERR))
			return now() - t0;
		usleep(20000);
	}
	return -1;
}

static void qperror_one(const char *what, int want_err, const char *counter)
{
	struct rdmachan_chan_info si, ci;
	struct chan_pair p;
	char title[160], buf[16], dev[RDMACHAN_NAME_MAX];
	long before, after;
	double t_srv, t_cli;
	ssize_t r;
	int e, ret;

	if (pair_open(&p, NULL))
		return;
	ioc_chan_info(p.srv, &si);
	/* the channel forgets its device when it is torn down */
	snprintf(dev, sizeof(dev), "%s", si.dev_name);
	before = counter ? dev_counter(dev, counter) : 0;
	ret = inject(si.id, what);
	snprintf(title, sizeof(title), "injecting %s into a live channel works", what);
	ktap_result(!ret, title, "%s", strerror(-ret));
	t_srv = wait_pollerr(p.srv, 5);
	t_cli = wait_pollerr(p.cli, 5);
	snprintf(title, sizeof(title), "%s: both ends poll EPOLLERR within 5 s", what);
	ktap_result(t_srv >= 0 && t_cli >= 0, title, "this end %.2f s, peer %.2f s",
	       t_srv, t_cli);
	ioc_chan_info(p.srv, &si);
	ioc_chan_info(p.cli, &ci);
	snprintf(title, sizeof(title), "%s: this end FAILED with %s, the peer FAILED with ECONNRESET",
		 what, strerror(want_err));
	ktap_result(si.state == RDMACHAN_STATE_FAILED && si.error == -want_err &&
	       ci.state == RDMACHAN_STATE_FAILED && ci.error == -ECONNRESET,
	       title, "this end state %u error %d, peer state %u error %d",
	       si.state, si.error, ci.state, ci.error);
	r = read(p.srv, buf, sizeof(buf));
	e = errno;
	snprintf(title, sizeof(title), "%s: read on this end fails with %s", what,
		 strerror(want_err));
	ktap_result(r < 0 && e == want_err, title, "read %zd (%s)", r, strerror(e));
	r = write(p.cli, "x", 1);
	e = errno;
	snprintf(title, sizeof(title), "%s: write on the peer fails with ECONNRESET", what);
	ktap_result(r < 0 && e == ECONNRESET, title, "write %zd (%s)", r, strerror(e));
	if (counter) {
		after = dev_counter(dev, counter);
		snprintf(title, sizeof(title), "%s: counted in devN/%s", what, counter);
		ktap_result(after == before + 1, title, "%s %ld -> %ld", counter,
		       before, after);
	}
	chan_pair_close(&p);
}

int cmd_qperror(SUBCMD_ARGS)
{
	qperror_one("qp_error", ECONNRESET, NULL);
	qperror_one("qp_fatal", EIO, "qp_events");
	qperror_one("cq_error", EIO, "cq_events");
	qperror_one("keepalive_stuck", ETIMEDOUT, NULL);
	ktap_result(inject(99999, "qp_fatal") == -ENOENT,
	       "injecting into a channel that does not exist fails with ENOENT",
	       "see the kernel log");
	return ktap_failures() ? 1 : 0;
}

/* ---- a peer slow to repost for control messages ------------------------ */

/*
 * ctrlhold: the client's receive completions lag for the server's
 * control messages - their buffers held back (the injection ctrl_hold)
 * - so the server's control credits run out: its credit updates wait
 * (ctrl_waits), the client's writes stall on data credits, and neither
 * end fails (before wire version 6 the server's credit updates took the
 * client's data buffers and, over siw, the QP failed for want of a
 * buffer).  Released, every message arrives, once and in order.
 */
#define CH_LEN		64

/* Write what the credits allow, read what came; both counts advance. */
static int ctrlhold_move(struct chan_pair *p, unsigned long *sent,
			 unsigned long *got, unsigned long limit, int *bad)
{
	unsigned char b[CH_LEN], in[CH_LEN * 2];
	int moved = 0;
	ssize_t r;

	while (*sent < limit) {
		uint32_t i = *sent;

		memset(b, 0, sizeof(b));
		memcpy(b, &i, 4);
		fill(b + 4, CH_LEN - 4, i);
		if (write(p->cli, b, CH_LEN) != CH_LEN)
			break;
		(*sent)++;
		moved = 1;
	}
	while ((r = read(p->srv, in, sizeof(in))) > 0) {
		uint32_t i, want = *got;

		memcpy(&i, in, 4);
		memset(b, 0, sizeof(b));
		memcpy(b, &want, 4);
		fill(b + 4, CH_LEN - 4, want);
		if (r != CH_LEN || memcmp(in, b, CH_LEN))
			*bad = 1;
		(*got)++;
		moved = 1;
	}
	return moved;
}

static unsigned long chan_attr(int fd, const char *name)
{
	char buf[32];

	return strtoul(sysfs_attr(fd, name, buf, sizeof(buf)), NULL, 0);
}

int cmd_ctrlhold(SUBCMD_ARGS)
{
	struct rdmachan_chan_opts opts = { .queue_depth = 32 };
	struct rdmachan_chan_info ci = {}, si = {};
	unsigned long sent = 0, got = 0, waits, credits, target;
	int bad = 0, idle = 0, ret, i;
	struct chan_pair p;

	if (pair_open(&p, &opts))
		return 1;
	fcntl(p.cli, F_SETFL, fcntl(p.cli, F_GETFL) | O_NONBLOCK);
	fcntl(p.srv, F_SETFL, fcntl(p.srv, F_GETFL) | O_NONBLOCK);
	ioc_chan_info(p.cli, &ci);
	ret = inject(ci.id, "ctrl_hold");
	ktap_result(!ret, "holding back the client's buffers for control messages works",
		    "%s", strerror(-ret));

	/* until nothing moves for a second: the sender stalled */
	for (i = 0; i < 200000 && idle < 100; i++) {
		if (ctrlhold_move(&p, &sent, &got, ULONG_MAX, &bad))
			idle = 0;
		else
			idle++;
		usleep(idle ? 10000 : 0);
	}
	ktap_result(idle >= 100 && sent > 0 && got == sent,
		    "the client's writes stall once the server's control credits are out",
		    "%lu sent, %lu read, idle %d", sent, got, idle);
	waits = chan_attr(p.srv, "ctrl_waits");
	credits = chan_attr(p.srv, "ctrl_credits");
	ktap_result(waits > 0 && credits <= 1,
		    "the server's credit update waits for a control credit",
		    "ctrl_waits %lu, ctrl_credits %lu", waits, credits);
	ktap_result(!ioc_chan_info(p.cli, &ci) && !ioc_chan_info(p.srv, &si) &&
		    ci.state == RDMACHAN_STATE_CONNECTED &&
		    si.state == RDMACHAN_STATE_CONNECTED && !ci.errors && !si.errors,
		    "neither end failed while held",
		    "states %u %u, errors %llu %llu", ci.state, si.state,
		    (unsigned long long)ci.errors, (unsigned long long)si.errors);

	ret = inject(ci.id, "ctrl_release");
	ktap_result(!ret, "giving the buffers back works", "%s", strerror(-ret));
	target = sent + 3000;
	for (i = 0, idle = 0; i < 200000 && idle < 500 && got < target; i++) {
		if (ctrlhold_move(&p, &sent, &got, target, &bad))
			idle = 0;
		else
			idle++;
		usleep(idle ? 10000 : 0);
	}
	ktap_result(!bad && got == target && sent == target,
		    "every message arrives once, in order, intact after the release",
		    "%lu of %lu sent, %lu read%s", sent, target, got,
		    bad ? ", some out of order or damaged" : "");
	for (i = 0; i < 50 && chan_attr(p.srv, "ctrl_credits") < 2; i++)
		usleep(100000);
	credits = chan_attr(p.srv, "ctrl_credits");
	ktap_result(credits >= 2 && !ioc_chan_info(p.srv, &si) && !si.errors &&
		    si.state == RDMACHAN_STATE_CONNECTED,
		    "the server's control credits came back, no error",
		    "ctrl_credits %lu, errors %llu", credits,
		    (unsigned long long)si.errors);
	chan_pair_close(&p);
	return ktap_failures() ? 1 : 0;
}

/* ---- device removal under traffic, over and over ------------------------ */

struct unplug_end {
	int fd;
	int bench;		/* in-kernel BLAST/SINK instead of write/read */
	int sender;
	double t_err;		/* when the call failed (now()) */
	int err;
};

static void *unplug_traffic(void *arg)
{
	struct unplug_end *e = arg;
	char buf[4096];
	sigset_t all;
	ssize_t r;

	/*
	 * A signal ends a BENCH run early with a result of 0, like the
	 * orderly end.  The SIGCHLD of `rdma link delete` is one: system()
	 * blocks it in the main thread only, so it is queued and wakes this
	 * thread, though nobody handles it.  Signals go to the main thread.
	 */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	memset(buf, 0x5a, sizeof(buf));
	for (;;) {
		if (e->bench) {
			struct rdmachan_bench b = {
				.size = sizeof(b), .msg_size = 1024,
				.mode = e->sender ? RDMACHAN_BENCH_BLAST :
						    RDMACHAN_BENCH_SINK,
			};

			r = ioctl(e->fd, RDMACHAN_IOC_BENCH, &b) < 0 ? -1 : 0;
			if (!r && !e->sender) {
				e->err = 0;	/* orderly end: not expected */
				break;
			}
		} else if (e->sender) {
			r = write(e->fd, buf, 1024);
		} else {
			r = read(e->fd, buf, sizeof(buf));
			if (!r) {
				e->err = 0;
				break;
			}
		}
		if (r < 0) {
			e->err = errno;
			break;
		}
	}
	e->t_err = now();
	return NULL;
}

static int run_cmd(const char *fmt, const char *a, const char *b)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), fmt, a, b);
	return system(cmd);
}

static int port_active(const char *dev)
{
	char path[128], buf[64] = "";
	FILE *f;

	snprintf(path, sizeof(path), "/sys/class/infiniband/%s/ports/1/state", dev);
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = 0;
	fclose(f);
	return strstr(buf, "ACTIVE") != NULL;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int cmd_unplug(SUBCMD_ARGS)
{
	int cycles = argc > 1 ? atoi(argv[1]) : 100;
	double bound = argc > 2 ? atof(argv[2]) : 2;
	const char *dev[2] = { dev_name_env("DEV0", "rxe0"), dev_name_env("DEV1", "rxe1") };
	const char *netdev[2] = { "veth0", "veth1" };
	const char *driver = dev_name_env("RDMA_DRIVER", "rxe");
	double *lat = calloc(2 * cycles, sizeof(*lat));
	int bad_err = 0, late = 0, stuck = 0, readd = 0, fresh = 0;
	int hist[6] = {}, nlat = 0, i, k;
	char title[160];

	for (i = 0; i < cycles; i++) {
		int side = i % 2;	/* 0: the server's device, 1: the client's */
		struct unplug_end ends[2] = {};
		struct chan_pair p;
		pthread_t th[2];
		double t0;

		if (pair_open(&p, NULL))
			return 1;
		ends[0] = (struct unplug_end){ .fd = p.srv, .bench = i % 4 >= 2 };
		ends[1] = (struct unplug_end){ .fd = p.cli, .bench = i % 4 >= 2,
					       .sender = 1 };
		for (k = 0; k < 2; k++)
			pthread_create(&th[k], NULL, unplug_traffic, &ends[k]);
		usleep(150000);		/* traffic flowing */
		t0 = now();
		if (run_cmd("/usr/bin/rdma link delete %s%s", dev[side], "")) {
			ktap_result(0, "rdma link delete under traffic", "%s", dev[side]);
			return 1;
		}
		/* both ends must end; a stuck thread is reported, not waited for */
		for (k = 0; k < 2; k++) {
			double deadline = t0 + 30;

			while (!ends[k].t_err && now() < deadline)
				usleep(10000);
			if (!ends[k].t_err) {
				stuck++;
				ktap_diag("cycle %d (%s removed): the %s end is still running after 30 s",
				       i, dev[side], k ? "client" : "server");
				continue;
			}
			pthread_join(th[k], NULL);
			lat[nlat] = ends[k].t_err - t0;
			hist[lat[nlat] < 0.25 ? 0 : lat[nlat] < 0.5 ? 1 :
			     lat[nlat] < 1 ? 2 : lat[nlat] < 1.5 ? 3 :
			     lat[nlat] < 2 ? 4 : 5]++;
			if (lat[nlat] > bound)
				late++;
			if (lat[nlat] > 1)
				ktap_diag("cycle %d (%s removed, %s): the %s end failed after %.2f s (%s)",
				       i, dev[side], ends[k].bench ? "BENCH" : "write/read",
				       k ? "client" : "server", lat[nlat],
				       strerror(ends[k].err));
			nlat++;
			if (ends[k].err != ENODEV && ends[k].err != ECONNRESET) {
				bad_err++;
				ktap_diag("cycle %d (%s removed): the %s end ended with %s",
				       i, dev[side], k ? "client" : "server",
				       ends[k].err ? strerror(ends[k].err) : "an orderly end");
			}
		}
		if (stuck) {
			ktap_result(0, "every end of every cycle ends", "%d stuck", stuck);
			return 1;
		}
		chan_pair_close(&p);
		{
			char cmd[160];
			int w;

			snprintf(cmd, sizeof(cmd), "/usr/bin/rdma link add %s type %s netdev %s",
				 dev[side], driver, netdev[side]);
			if (system(cmd))
				readd++;
			for (w = 0; w < 100 && !port_active(dev[side]); w++)
				usleep(100000);
		}
		/* a new channel works on the device that came back */
		{
			char buf[16];
			int r = -1;

			if (!pair_open(&p, NULL)) {
				if (write(p.cli, "again", 5) == 5)
					r = read(p.srv, buf, sizeof(buf));
				chan_pair_close(&p);
			}
			if (r != 5) {
				fresh++;
				ktap_diag("cycle %d: a new channel after re-adding %s failed",
				       i, dev[side]);
			}
		}
	}
	qsort(lat, nlat, sizeof(*lat), cmp_double);
	ktap_diag("%d cycles, %d ends: time to the error after the delete: min %.3f s, median %.3f s, p90 %.3f s, max %.3f s",
	       cycles, nlat, nlat ? lat[0] : 0, nlat ? lat[nlat / 2] : 0,
	       nlat ? lat[nlat * 9 / 10] : 0, nlat ? lat[nlat - 1] : 0);
	ktap_diag("distribution: <0.25 s %d, <0.5 s %d, <1 s %d, <1.5 s %d, <2 s %d, >=2 s %d",
	       hist[0], hist[1], hist[2], hist[3], hist[4], hist[5]);
	snprintf(title, sizeof(title), "%d device removals under traffic: every end fails with ENODEV or ECONNRESET",
		 cycles);
	ktap_result(!bad_err, title, "%d ends otherwise", bad_err);
	snprintf(title, sizeof(title), "%d device removals under traffic: every end fails within %g s",
		 cycles, bound);
	ktap_result(!late, title, "%d ends later", late);
	ktap_result(!readd, "every removed device comes back with rdma link add", "%d failed", readd);
	ktap_result(!fresh, "a new channel works after every re-add", "%d failed", fresh);
	free(lat);
	return ktap_failures() ? 1 : 0;
}
