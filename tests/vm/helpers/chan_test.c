// SPDX-License-Identifier: GPL-2.0-only
/*
 * chan_test: message channel checks, both ends in one process.
 *
 * The listener binds 192.0.2.1 ($DEV0, rxe0 by default); the client
 * connects from 192.0.2.2 ($DEV1, rxe1).  Each subcommand reports its
 * checks in KTAP (ktap.h) for the guest test library's run_checks.
 *
 *   chan_test basic        sizes, immediates, EMSGSIZE, batches, info
 *   chan_test stream N     N sequenced, checksummed messages, one way
 *   chan_test backpressure credits, EAGAIN, slow reader, poll
 *   chan_test close        peer close, listener close with pending
 *   chan_test errors       no listener, unreachable, bad arguments
 *   chan_test many N       N concurrent channels
 *   chan_test devremove    rdma link delete under live channels
 *   chan_test deadpeer     the peer vanishes silently: keepalive notices
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
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <sys/wait.h>
#include <time.h>

#include "chanlib.h"

#define SRV_IP	CHAN_SRV_IP
#define CLI_IP	CHAN_CLI_IP

static int ctl;

/* the RDMA devices of the fixture (tests/vm/lib.sh exports them) */
static const char *dev_name_env(const char *var, const char *dflt)
{
	const char *v = getenv(var);

	return v && *v ? v : dflt;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * @n on Debian's kernel, a quarter of it on the debug kernel: the counted
 * runs of bench and rdmabench move their data through KASAN and kmemleak
 * there, several times slower under TCG, and what they check (every
 * message, every byte, the counters) does not depend on how many.
 * kmemleak's file tells the kernels apart, as it does for the cases.
 */
static unsigned long long scaled(unsigned long long n)
{
	static int debug = -1;

	if (debug < 0)
		debug = !access("/sys/kernel/debug/kmemleak", F_OK);
	return debug ? n / 4 : n;
}

/* both ends with @opts; a failure is reported */
static int pair_open(struct chan_pair *p, const struct rdmachan_chan_opts *opts)
{
	if (!chan_pair_open(ctl, p, opts, opts))
		return 0;
	ktap_result(0, p->failed, "%s", strerror(errno));
	return -1;
}

static uint32_t csum(const unsigned char *b, size_t n)
{
	uint32_t h = 2166136261u;

	while (n--)
		h = (h ^ *b++) * 16777619u;
	return h;
}

static void fill(unsigned char *b, size_t n, uint32_t seed)
{
	size_t i;

	for (i = 0; i < n; i++)
		b[i] = (unsigned char)(seed * 31 + i * 7);
}

/* A channel's sysfs attribute @name as text, without the newline */
static const char *sysfs_attr(int fd, const char *name, char *buf, size_t n)
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

/* /sys/module/rdmachan/parameters/@name as a number, -1 if unreadable */
static long module_param(const char *name)
{
	char path[128], buf[32];
	long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/module/rdmachan/parameters/%s", name);
	f = fopen(path, "r");
	if (f) {
		if (fgets(buf, sizeof(buf), f))
			v = strtol(buf, NULL, 0);
		fclose(f);
	}
	return v;
}

static void check_size(struct chan_pair *p, unsigned int len, const char *what)
{
	unsigned char *out = malloc(len + 1), *in = malloc(len + 16);
	char desc[128];
	ssize_t w, r;

	fill(out, len, len);
	memset(in, 0, len + 16);
	w = write(p->cli, out, len);
	r = read(p->srv, in, len + 16);
	snprintf(desc, sizeof(desc), "a %u-byte message (%s) arrives intact", len,
		 what);
	ktap_result(w == (ssize_t)len && r == (ssize_t)len && !memcmp(in, out, len),
	       desc, "write %zd read %zd (%s)", w, r, strerror(errno));
	free(out);
	free(in);
}

static int cmd_basic(void)
{
	struct rdmachan_chan_info ci, si;
	unsigned char buf[256], big[70000];
	unsigned int imm = 0;
	struct chan_pair p;
	int has_imm = 0, r, i, ok, want_hdr_imm;
	unsigned int inl;
	char attr[32];

	if (pair_open(&p, NULL))
		return 1;
	ktap_result(p.port > 0, "listen on port 0 binds a free port", "port %d", p.port);
	ktap_result(!ioc_chan_info(p.cli, &ci) && !ioc_chan_info(p.srv, &si),
	       "CHAN_INFO answers on both ends", "%s", strerror(errno));
	ktap_result(ci.state == RDMACHAN_STATE_CONNECTED &&
	       si.state == RDMACHAN_STATE_CONNECTED,
	       "both ends are CONNECTED", "states %u %u", ci.state, si.state);
	ktap_result(ci.active == 1 && si.active == 0, "active/passive ends are told apart",
	       "%u %u", ci.active, si.active);
	ktap_result(ci.queue_depth == 128 && si.queue_depth == 128 &&
	       ci.max_msg_size == 65536 && si.max_msg_size == 65536,
	       "default depth 128 and size 65536 are negotiated",
	       "%u/%u %u/%u", ci.queue_depth, si.queue_depth,
	       ci.max_msg_size, si.max_msg_size);
	ktap_result(!strcmp(ci.dev_name, dev_name_env("DEV1", "rxe1")) &&
	       !strcmp(si.dev_name, dev_name_env("DEV0", "rxe0")),
	       "client runs on DEV1, server on DEV0", "%s %s", ci.dev_name,
	       si.dev_name);
	ktap_result(ci.send_credits == 128, "the client starts with all credits",
	       "%u", ci.send_credits);

	/*
	 * The header rides in the immediate unless the transport has none
	 * (iWARP) or the connecting side was told not to offer it.
	 */
	want_hdr_imm = strncmp(ci.dev_name, "siw", 3) &&
		       module_param("imm_header") == 1;
	ktap_result(ci.wire_flags == si.wire_flags &&
	       !!(ci.wire_flags & RDMACHAN_WIRE_HDR_IMM) == want_hdr_imm,
	       want_hdr_imm ? "both ends carry the header in the immediate" :
			      "both ends carry the header in band",
	       "wire_flags %#x %#x", ci.wire_flags, si.wire_flags);
	ktap_result(!strcmp(sysfs_attr(p.cli, "wire_header", attr, sizeof(attr)),
		       want_hdr_imm ? "immediate" : "in-band") &&
	       !strcmp(sysfs_attr(p.srv, "wire_header", attr, sizeof(attr)),
		       want_hdr_imm ? "immediate" : "in-band"),
	       "sysfs wire_header says so on both ends", "'%s'", attr);
	if (ci.wire_flags & RDMACHAN_WIRE_HDR_IMM)
		inl = ci.max_inline;
	else
		inl = ci.max_inline > 8 ? ci.max_inline - 8 : 0;
	check_size(&p, 1, "one byte");
	if (inl) {
		check_size(&p, inl - 1, "inline limit - 1");
		check_size(&p, inl, "inline limit");
		check_size(&p, inl + 1, "inline limit + 1");
	}
	check_size(&p, 4096, "a page");
	check_size(&p, 65536, "the largest");
	memset(big, 1, sizeof(big));
	errno = 0;
	r = write(p.cli, big, 65537);
	ktap_result(r < 0 && errno == EMSGSIZE, "a message over the largest fails with EMSGSIZE",
	       "write %d %s", r, strerror(errno));

	/* Too small a read buffer: EMSGSIZE, the message stays queued */
	fill(big, 1000, 9);
	write(p.cli, big, 1000);
	errno = 0;
	r = read(p.srv, buf, 100);
	ktap_result(r < 0 && errno == EMSGSIZE, "reading into too small a buffer fails with EMSGSIZE",
	       "read %d %s", r, strerror(errno));
	{
		unsigned char in[1000];

		r = read(p.srv, in, sizeof(in));
		ktap_result(r == 1000 && !memcmp(in, big, 1000),
		       "the message is kept after EMSGSIZE and read whole later",
		       "read %d", r);
	}

	/* Immediate data */
	r = chan_send_imm(p.cli, "imm", 3, 0xdeadbeef, 0);
	ktap_result(!r, "SEND with an immediate succeeds", "%s", strerror(errno));
	r = chan_recv_msg(p.srv, buf, sizeof(buf), &imm, &has_imm, 0);
	ktap_result(r == 3 && has_imm && imm == 0xdeadbeef && !memcmp(buf, "imm", 3),
	       "RECV reports the immediate 0xdeadbeef",
	       "len %d has_imm %d imm 0x%x", r, has_imm, imm);
	write(p.cli, "x", 1);
	r = chan_recv_msg(p.srv, buf, sizeof(buf), &imm, &has_imm, 0);
	ktap_result(r == 1 && !has_imm, "a plain message has no immediate",
	       "len %d has_imm %d", r, has_imm);
	r = chan_send_imm(p.srv, NULL, 0, 7, 0);
	r = chan_recv_msg(p.cli, buf, sizeof(buf), &imm, &has_imm, 0);
	ktap_result(r == 0 && has_imm && imm == 7,
	       "an empty message with an immediate goes server to client",
	       "len %d imm %u", r, imm);

	/* Batches */
	{
		struct rdmachan_user_msg m[64];
		uint32_t vals[64];
		struct rdmachan_mmsg mm = { .size = sizeof(mm),
			.msgs = (unsigned long)m, .count = 64 };
		uint32_t got[64];
		int total = 0;

		for (i = 0; i < 64; i++) {
			vals[i] = 1000 + i;
			m[i] = (struct rdmachan_user_msg){
				.buf = (unsigned long)&vals[i], .len = 4,
				.imm = i, .flags = RDMACHAN_MSG_IMM };
		}
		r = ioctl(p.cli, RDMACHAN_IOC_SENDMMSG, &mm);
		ktap_result(!r && mm.done == 64, "SENDMMSG posts 64 messages in one call",
		       "ret %d done %u", r, mm.done);
		ok = 1;
		while (total < 64) {
			struct rdmachan_mmsg rm = { .size = sizeof(rm),
				.msgs = (unsigned long)m, .count = 64 };

			for (i = 0; i < 64; i++)
				m[i] = (struct rdmachan_user_msg){
					.buf = (unsigned long)&got[total + i < 64 ? total + i : 0],
					.len = 4 };
			r = ioctl(p.srv, RDMACHAN_IOC_RECVMMSG, &rm);
			if (r || !rm.done) {
				ok = 0;
				break;
			}
			for (i = 0; i < (int)rm.done; i++)
				if (m[i].imm != (unsigned int)(total + i))
					ok = 0;
			total += rm.done;
		}
		for (i = 0; i < 64; i++)
			if (got[i] != 1000u + i)
				ok = 0;
		ktap_result(ok && total == 64, "RECVMMSG returns the 64 in order with their immediates",
		       "received %d", total);
	}

	ktap_result(!ioc_chan_info(p.cli, &ci) && ci.msgs_tx >= 72 && ci.errors == 0,
	       "CHAN_INFO counts the messages sent", "msgs_tx %llu errors %llu",
	       (unsigned long long)ci.msgs_tx, (unsigned long long)ci.errors);
	chan_pair_close(&p);
	return ktap_failures() ? 1 : 0;
}

struct stream_arg {
	int fd;
	long n;
	long bad;
	long got;
};

static void *stream_reader(void *arg)
{
	struct stream_arg *a = arg;
	unsigned char buf[4096];
	long expect = 0;

	while (expect < a->n) {
		ssize_t r = read(a->fd, buf, sizeof(buf));
		uint32_t seq, sum, len;

		if (r < 12) {
			a->bad++;
			break;
		}
		memcpy(&seq, buf, 4);
		memcpy(&len, buf + 4, 4);
		memcpy(&sum, buf + 8, 4);
		if (seq != expect || len != r - 12 || csum(buf + 12, len) != sum)
			a->bad++;
		expect++;
		a->got++;
	}
	return NULL;
}

static int cmd_stream(long n)
{
	struct rdmachan_chan_info ci, si;
	struct stream_arg a = {};
	unsigned char buf[4096];
	pthread_t t;
	struct chan_pair p;
	long i, werr = 0;
	char desc[128];

	if (pair_open(&p, NULL))
		return 1;
	a.fd = p.srv;
	a.n = n;
	pthread_create(&t, NULL, stream_reader, &a);
	for (i = 0; i < n; i++) {
		uint32_t seq = i, len = 1 + (i * 131) % 1000, sum;

		fill(buf + 12, len, i);
		sum = csum(buf + 12, len);
		memcpy(buf, &seq, 4);
		memcpy(buf + 4, &len, 4);
		memcpy(buf + 8, &sum, 4);
		if (write(p.cli, buf, 12 + len) != (ssize_t)(12 + len))
			werr++;
	}
	pthread_join(t, NULL);
	snprintf(desc, sizeof(desc),
		 "%ld messages arrive once each, in order, uncorrupted", n);
	ktap_result(!werr && !a.bad && a.got == n, desc,
	       "write errors %ld, bad %ld, received %ld", werr, a.bad, a.got);
	ioc_chan_info(p.cli, &ci);
	ioc_chan_info(p.srv, &si);
	ktap_result(ci.msgs_tx == (unsigned long long)n &&
	       si.msgs_rx == (unsigned long long)n,
	       "counters agree with the traffic", "tx %llu rx %llu",
	       (unsigned long long)ci.msgs_tx, (unsigned long long)si.msgs_rx);
	ktap_result(si.credit_msgs_tx > 0,
	       "one-way traffic returns credits in explicit credit messages",
	       "credit messages %llu", (unsigned long long)si.credit_msgs_tx);
	chan_pair_close(&p);
	return ktap_failures() ? 1 : 0;
}

static int cmd_backpressure(void)
{
	struct rdmachan_chan_opts o = { .queue_depth = 16, .max_msg_size = 1024 };
	struct rdmachan_chan_info ci;
	unsigned char buf[1024];
	struct pollfd pfd;
	struct chan_pair p;
	int sent = 0, r, i, ok;

	if (pair_open(&p, &o))
		return 1;
	ioc_chan_info(p.cli, &ci);
	ktap_result(ci.queue_depth == 16 && ci.max_msg_size == 1024,
	       "requested depth 16 and size 1024 are negotiated", "%u %u",
	       ci.queue_depth, ci.max_msg_size);

	/* Nobody reads: exactly queue_depth messages go, then EAGAIN */
	for (i = 0; i < 100; i++) {
		r = chan_send_imm(p.cli, &i, 4, i, 1);
		if (r)
			break;
		sent++;
	}
	ktap_result(sent == 16 && errno == EAGAIN,
	       "an unread peer stops the sender after queue_depth messages with EAGAIN",
	       "sent %d (%s)", sent, strerror(errno));
	pfd = (struct pollfd){ .fd = p.cli, .events = POLLOUT };
	ktap_result(poll(&pfd, 1, 0) == 0, "poll says not writable without credits",
	       "revents 0x%x", pfd.revents);
	pfd = (struct pollfd){ .fd = p.srv, .events = POLLIN };
	ktap_result(poll(&pfd, 1, 1000) == 1 && (pfd.revents & POLLIN),
	       "poll says readable on the receiver", "revents 0x%x", pfd.revents);

	/* Read everything: credits come back and the sender may go on */
	ok = 1;
	for (i = 0; i < 16; i++) {
		unsigned int imm;
		int has;

		r = chan_recv_msg(p.srv, buf, sizeof(buf), &imm, &has, 0);
		if (r != 4 || imm != (unsigned int)i)
			ok = 0;
	}
	ktap_result(ok, "the 16 queued messages are read in order", "mismatch");
	pfd = (struct pollfd){ .fd = p.cli, .events = POLLOUT };
	ktap_result(poll(&pfd, 1, 2000) == 1 && (pfd.revents & POLLOUT),
	       "returned credits make the sender writable again",
	       "revents 0x%x", pfd.revents);

	/* A blocking sender waits for a slow reader; nothing is lost */
	if (fork() == 0) {
		for (i = 0; i < 2000; i++) {
			memset(buf, i & 0xff, 100);
			memcpy(buf, &i, 4);
			if (write(p.cli, buf, 100) != 100)
				_exit(1);
		}
		_exit(0);
	}
	ok = 1;
	for (i = 0; i < 2000; i++) {
		int v;

		if (i % 200 == 0)
			usleep(50000);
		r = read(p.srv, buf, sizeof(buf));
		memcpy(&v, buf, 4);
		if (r != 100 || v != i)
			ok = 0;
	}
	wait(&r);
	ktap_result(ok && WIFEXITED(r) && !WEXITSTATUS(r),
	       "2000 messages to a slow reader all arrive in order", "status %d", r);
	ioc_chan_info(p.cli, &ci);
	ktap_result(ci.credit_stalls > 0, "the sender stalled on credits",
	       "stalls %llu", (unsigned long long)ci.credit_stalls);
	chan_pair_close(&p);
	return ktap_failures() ? 1 : 0;
}

static int cmd_close(void)
{
	struct rdmachan_chan_info info;
	unsigned char buf[64];
	struct pollfd pfd;
	struct chan_pair p;
	int i, r, ok, cli2, cli3, port;

	/* Messages sent just before close are all delivered, then EOF */
	if (pair_open(&p, NULL))
		return 1;
	for (i = 0; i < 10; i++)
		write(p.cli, &i, sizeof(i));
	close(p.cli);
	ok = 1;
	for (i = 0; i < 10; i++) {
		int v = -1;

		r = read(p.srv, &v, sizeof(v));
		if (r != sizeof(v) || v != i)
			ok = 0;
	}
	ktap_result(ok, "messages sent right before close all arrive", "lost some");
	r = read(p.srv, buf, sizeof(buf));
	ktap_result(r == 0, "then read returns 0 (orderly end)", "read %d %s", r,
	       strerror(errno));
	pfd = (struct pollfd){ .fd = p.srv, .events = POLLIN | POLLOUT };
	poll(&pfd, 1, 0);
	ktap_result(pfd.revents & POLLHUP, "poll reports POLLHUP", "revents 0x%x",
	       pfd.revents);
	errno = 0;
	r = write(p.srv, "x", 1);
	ktap_result(r < 0 && errno == ECONNRESET, "write to a closed peer fails with ECONNRESET",
	       "write %d %s", r, strerror(errno));
	ioc_chan_info(p.srv, &info);
	ktap_result(info.state == RDMACHAN_STATE_DISCONNECTED, "the state is DISCONNECTED",
	       "state %u", info.state);
	close(p.srv);

	/* Listener closed with connections not yet accepted */
	cli2 = chan_connect(ctl, SRV_IP, p.port, CLI_IP, NULL, 0);
	cli3 = chan_connect(ctl, SRV_IP, p.port, CLI_IP, NULL, 0);
	ktap_result(cli2 >= 0 && cli3 >= 0, "two connections wait in the accept queue",
	       "%s", strerror(errno));
	pfd = (struct pollfd){ .fd = p.lfd, .events = POLLIN };
	ktap_result(poll(&pfd, 1, 2000) == 1, "the listener polls readable", "revents 0x%x",
	       pfd.revents);
	close(p.lfd);
	pfd = (struct pollfd){ .fd = cli2, .events = POLLIN };
	poll(&pfd, 1, 5000);
	r = read(cli2, buf, sizeof(buf));
	ktap_result(r == 0 || (r < 0 && errno == ECONNRESET),
	       "closing the listener ends its unaccepted connections",
	       "read %d %s", r, strerror(errno));
	close(cli2);
	close(cli3);

	/* A new listener on the same port works again */
	r = chan_listen(ctl, SRV_IP, p.port, NULL, 0, &port);
	ktap_result(r >= 0 && port == p.port, "the port can be listened on again",
	       "%s", strerror(errno));
	close(r);
	return ktap_failures() ? 1 : 0;
}

static int cmd_errors(void)
{
	struct rdmachan_chan_opts o = { .timeout_ms = 2000 };
	struct rdmachan_connect c;
	double t0, dt;
	int fd, lfd, lfd2;

	t0 = now();
	errno = 0;
	fd = chan_connect(ctl, SRV_IP, 4999, CLI_IP, &o, 0);
	dt = now() - t0;
	ktap_result(fd < 0 && errno == ECONNREFUSED,
	       "connect to a port with no listener fails with ECONNREFUSED",
	       "fd %d %s after %.1fs", fd, strerror(errno), dt);
	t0 = now();
	errno = 0;
	fd = chan_connect(ctl, "192.0.2.99", 5000, NULL, &o, 0);
	dt = now() - t0;
	ktap_result(fd < 0 && (errno == EHOSTUNREACH || errno == ETIMEDOUT ||
			  errno == ENETUNREACH),
	       "connect to an unreachable address fails with EHOSTUNREACH/ETIMEDOUT",
	       "fd %d %s", fd, strerror(errno));
	ktap_result(dt < 2.0 * 3 + 5, "and gives up within its bound", "took %.1fs", dt);
	errno = 0;
	fd = chan_connect(ctl, "198.51.100.1", 5000, NULL, &o, 0);
	ktap_result(fd < 0 && (errno == ENETUNREACH || errno == EHOSTUNREACH ||
			  errno == ETIMEDOUT || errno == ENODEV),
	       "connect to a network with no route fails", "fd %d %s", fd,
	       strerror(errno));

	lfd = chan_listen(ctl, SRV_IP, 0, NULL, 0, &fd);
	lfd2 = chan_listen(ctl, SRV_IP, fd, NULL, 0, NULL);
	ktap_result(lfd >= 0 && lfd2 < 0 && errno == EADDRINUSE,
	       "a second listener on the same port fails with EADDRINUSE",
	       "%d %d %s", lfd, lfd2, strerror(errno));
	close(lfd);
	errno = 0;
	fd = chan_listen(ctl, "192.0.2.77", 0, NULL, 0, NULL);
	ktap_result(fd < 0 && errno == EADDRNOTAVAIL,
	       "listening on an address nobody has fails with EADDRNOTAVAIL",
	       "%d %s", fd, strerror(errno));

	memset(&c, 0, sizeof(c));
	c.size = sizeof(c);
	set_in4(&c.dst, SRV_IP, 0);
	errno = 0;
	ktap_result(ioctl(ctl, RDMACHAN_IOC_CONNECT, &c) < 0 && errno == EINVAL,
	       "CONNECT to port 0 fails with EINVAL", "%s", strerror(errno));
	set_in4(&c.dst, SRV_IP, 5000);
	c.opts.poll_mode = 9;
	errno = 0;
	ktap_result(ioctl(ctl, RDMACHAN_IOC_CONNECT, &c) < 0 && errno == EINVAL,
	       "CONNECT with a bad poll mode fails with EINVAL", "%s", strerror(errno));
	c.opts.poll_mode = 0;
	c.reserved[3] = 1;
	errno = 0;
	ktap_result(ioctl(ctl, RDMACHAN_IOC_CONNECT, &c) < 0 && errno == EINVAL,
	       "CONNECT with non-zero reserved fails with EINVAL", "%s", strerror(errno));
	c.reserved[3] = 0;
	c.dst.ss_family = 77;
	errno = 0;
	ktap_result(ioctl(ctl, RDMACHAN_IOC_CONNECT, &c) < 0 && errno == EINVAL,
	       "CONNECT to an unknown address family fails with EINVAL", "%s",
	       strerror(errno));
	errno = 0;
	ktap_result(ioctl(ctl, RDMACHAN_IOC_CONNECT, (void *)8) < 0 && errno == EFAULT,
	       "CONNECT with a bad pointer fails with EFAULT", "%s", strerror(errno));
	return ktap_failures() ? 1 : 0;
}

static int cmd_many(int n)
{
	struct rdmachan_chan_opts o = { .queue_depth = 16, .max_msg_size = 4096 };
	int *cli = calloc(n, sizeof(int)), *srv = calloc(n, sizeof(int));
	int lfd, port, i, ok = 1, opened = 0;
	char desc[96];

	lfd = chan_listen(ctl, SRV_IP, 0, &o, 0, &port);
	for (i = 0; i < n; i++) {
		cli[i] = chan_connect(ctl, SRV_IP, port, CLI_IP, &o, 0);
		srv[i] = cli[i] >= 0 ? chan_accept(lfd, 0) : -1;
		if (cli[i] < 0 || srv[i] < 0)
			break;
		opened++;
	}
	snprintf(desc, sizeof(desc), "%d channels open at once", n);
	ktap_result(opened == n, desc, "only %d (%s)", opened, strerror(errno));
	for (i = 0; i < opened; i++)
		if (write(cli[i], &i, sizeof(i)) != sizeof(i))
			ok = 0;
	for (i = opened - 1; i >= 0; i--) {
		int v = -1;

		if (read(srv[i], &v, sizeof(v)) != sizeof(v) || v != i)
			ok = 0;
	}
	snprintf(desc, sizeof(desc), "each of the %d channels carries its own message", n);
	ktap_result(ok, desc, "mismatch");
	for (i = 0; i < opened; i++) {
		close(cli[i]);
		close(srv[i]);
	}
	close(lfd);
	free(cli);
	free(srv);
	return ktap_failures() ? 1 : 0;
}

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

static int cmd_devremove(void)
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
 * must learn ECONNRESET.  The case script restores the neighbours.
 */
static int cmd_deadpeer(void)
{
	struct blocked bs = {}, bc = {};
	pthread_t ts, tc;
	struct chan_pair p;
	double t0;
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
	ktap_result(bs.ret < 0 && bs.err == ECONNRESET,
	       "the server's blocked reader learns the peer is gone (ECONNRESET)",
	       "read %d %s after %.1fs", bs.ret, strerror(bs.err), now() - t0);
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

static int cmd_bench(void)
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

static int cmd_rdmabench(void)
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
	static const int clean[] = {
		ENOMEM, ECONNREFUSED, ETIMEDOUT, ECONNRESET, EAGAIN, EPROTO,
		ENOTCONN, EHOSTUNREACH, ENETUNREACH, EINTR, ENOBUFS, EPIPE,
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

static int cmd_faultloop(int n)
{
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

static int cmd_hold(void)
{
	struct chan_pair p;

	if (pair_open(&p, NULL))
		return 1;
	printf("READY\n");
	fflush(stdout);
	pause();
	return 0;
}

/*
 * efault: a message whose user buffer faults is not sent and nothing
 * takes its place - alone, and while another thread's sends follow it in
 * the send ring (its slot then goes out as a PAD message).  Every
 * message carries its sender's tag and index; the reader checks that
 * none is missing, repeated, reordered or empty, and that afterwards
 * the sender's credits plus the receiver's owed credits make the depth.
 */
#define EFAULT_ROUNDS	3000
#define EFAULT_BAD_PTR	((uintptr_t)8)

/* volatile: the compiler must not see that it points nowhere */
static void *volatile efault_bad_ptr = (void *)EFAULT_BAD_PTR;

struct efault_sender {
	int fd;
	int bad;			/* sends batches with a faulting message */
	unsigned long sent;
	unsigned long partial;		/* batches that stopped at the fault */
	int err;
};

static unsigned int efault_msg(unsigned char *b, uint32_t tag, uint32_t i)
{
	unsigned int len = 16 + i % 48;

	memcpy(b, &tag, 4);
	memcpy(b + 4, &i, 4);
	fill(b + 8, len - 8, i ^ tag);
	return len;
}

static void *efault_send(void *arg)
{
	struct efault_sender *c = arg;
	unsigned char b0[64], b2[64];
	uint32_t tag = c->bad ? 0xbad0 : 0x600d;
	int i;

	for (i = 0; i < EFAULT_ROUNDS; i++) {
		struct rdmachan_user_msg m[3] = {};
		struct rdmachan_mmsg mm = {
			.size = sizeof(mm), .msgs = (uintptr_t)m,
		};

		m[0].buf = (uintptr_t)b0;
		m[0].len = efault_msg(b0, tag, c->sent);
		mm.count = 1;
		if (c->bad) {
			m[1].buf = EFAULT_BAD_PTR;
			m[1].len = 16;
			m[2].buf = (uintptr_t)b2;
			m[2].len = efault_msg(b2, tag, c->sent + 1);
			mm.count = 3;
		}
		if (ioctl(c->fd, RDMACHAN_IOC_SENDMMSG, &mm) < 0) {
			c->err = errno;
			break;
		}
		c->sent += mm.done;
		if (c->bad && mm.done == 1)
			c->partial++;
		if (mm.done != 1) {
			c->err = EPROTO;
			break;
		}
	}
	return NULL;
}

/* Read everything; check tags, order and contents.  Returns messages read. */
static unsigned long efault_read_all(int fd, unsigned long *per_tag, int *bad)
{
	unsigned char in[128], want[64];
	unsigned long n = 0;
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	for (;;) {
		uint32_t tag, i;
		unsigned int wlen;
		ssize_t r;
		int slot;

		r = read(fd, in, sizeof(in));
		if (r < 0 && errno == EAGAIN) {
			if (poll(&pfd, 1, 3000) <= 0)
				return n;
			continue;
		}
		if (r < 16) {
			ktap_result(0, "every message read is a whole message",
			       "read %zd (%s) after %lu messages", r,
			       strerror(errno), n);
			*bad = 1;
			return n;
		}
		memcpy(&tag, in, 4);
		memcpy(&i, in + 4, 4);
		slot = tag == 0xbad0 ? 0 : tag == 0x600d ? 1 : -1;
		wlen = slot < 0 ? 0 : efault_msg(want, tag, i);
		if (slot < 0 || i != per_tag[slot] || r != (ssize_t)wlen ||
		    memcmp(in, want, wlen)) {
			if (!*bad)
				ktap_result(0, "messages arrive whole and in order",
				       "message %lu: tag %#x index %u len %zd, expected index %lu",
				       n, tag, i, r,
				       slot < 0 ? 0 : per_tag[slot]);
			*bad = 1;
		}
		if (slot >= 0)
			per_tag[slot] = i + 1;
		n++;
	}
}

static int efault_credits_add_up(struct chan_pair *p, unsigned int depth)
{
	struct rdmachan_chan_info ci, si;

	if (ioc_chan_info(p->cli, &ci) || ioc_chan_info(p->srv, &si))
		return 0;
	return ci.state == RDMACHAN_STATE_CONNECTED &&
	       si.state == RDMACHAN_STATE_CONNECTED &&
	       ci.send_credits + si.credits_to_return == depth;
}

static int cmd_efault(void)
{
	struct rdmachan_chan_opts opts = { .queue_depth = 32 };
	struct efault_sender bad = { .bad = 1 }, good = {};
	unsigned long per_tag[2] = {}, got;
	struct rdmachan_chan_info ci;
	pthread_t tb, tg;
	struct chan_pair p;
	int flags, broken = 0, r;
	char buf[64];

	if (pair_open(&p, &opts))
		return 1;
	flags = fcntl(p.srv, F_GETFL);
	fcntl(p.srv, F_SETFL, flags | O_NONBLOCK);

	/* alone: nothing is sent, the reservation is given back */
	r = write(p.cli, efault_bad_ptr, 16);
	ktap_result(r < 0 && errno == EFAULT, "a write from a bad pointer fails with EFAULT",
	       "write %d (%s)", r, strerror(errno));
	usleep(200000);
	r = read(p.srv, buf, sizeof(buf));
	ktap_result(r < 0 && errno == EAGAIN, "nothing arrives for the faulting write",
	       "read %d (%s)", r, strerror(errno));
	ktap_result(!ioc_chan_info(p.cli, &ci) && ci.send_credits == ci.queue_depth,
	       "the faulting write took no credit", "%u of %u credits",
	       ci.send_credits, ci.queue_depth);

	/* two senders; one's batches fault in the middle */
	bad.fd = good.fd = p.cli;
	pthread_create(&tb, NULL, efault_send, &bad);
	pthread_create(&tg, NULL, efault_send, &good);
	got = efault_read_all(p.srv, per_tag, &broken);
	pthread_join(tb, NULL);
	pthread_join(tg, NULL);
	got += efault_read_all(p.srv, per_tag, &broken);

	ktap_result(!bad.err && bad.partial == EFAULT_ROUNDS,
	       "every faulting batch sends the messages before the fault only",
	       "%lu of %d partial (%s)", bad.partial, EFAULT_ROUNDS,
	       strerror(bad.err));
	ktap_result(!good.err && good.sent == EFAULT_ROUNDS,
	       "the other sender's messages all go out", "%lu sent (%s)",
	       good.sent, strerror(good.err));
	ktap_result(!broken && per_tag[0] == bad.sent && per_tag[1] == good.sent &&
	       got == bad.sent + good.sent,
	       "every message sent arrives once, in order, intact, and nothing else",
	       "read %lu; faulting sender %lu sent, %lu read; other %lu sent, %lu read",
	       got, bad.sent, per_tag[0], good.sent, per_tag[1]);
	ktap_result(efault_credits_add_up(&p, ci.queue_depth),
	       "no credit was created or lost: sender's plus receiver's owed make the depth",
	       "see CHAN_INFO");
	r = write(p.cli, "after", 5);
	usleep(100000);
	memset(buf, 0, sizeof(buf));
	ktap_result(r == 5 && read(p.srv, buf, sizeof(buf)) == 5 && !memcmp(buf, "after", 5),
	       "the channel still works afterwards", "write %d, read '%s'", r, buf);
	chan_pair_close(&p);
	return ktap_failures() ? 1 : 0;
}

/* ---- concurrent consumers ------------------------------------------- */

/*
 * Every kind of writer on the client fd and every kind of reader on the
 * server fd at once.  Writers tag their messages (kind, index) and fill
 * them from the tag; the BENCH blast's are 8 bytes of 0xa5; the BENCH
 * sink counts what it takes without looking.  Once the writers are done
 * and everything was consumed, the counts must add up, no message may
 * have come twice, and the credits must add up to the depth.  (The BENCH
 * receive path once bypassed the readers' lock: a message was handed to
 * two readers and its buffer reposted twice.)
 */
#define CC_KINDS	3	/* write, SEND, SENDMMSG */
#define CC_BLAST_SIZE	8

struct cc_state {
	struct chan_pair p;
	unsigned long per_kind;
	unsigned char *seen[CC_KINDS];	/* one byte per message: times read */
	pthread_mutex_t lock;
	unsigned long consumed;		/* by the readers and the sink */
	unsigned long blast_read;	/* blast messages the readers got */
	unsigned long dups, corrupt;
	unsigned long sent[CC_KINDS + 1];
	int werr[CC_KINDS + 1];
	int rerr[4];
	unsigned long got[4];
};

struct cc_thread {
	struct cc_state *st;
	int kind;
};

static unsigned int cc_msg(unsigned char *b, uint32_t kind, uint32_t i)
{
	unsigned int len = 16 + (i * 7 + kind) % 240;

	memcpy(b, &kind, 4);
	memcpy(b + 4, &i, 4);
	fill(b + 8, len - 8, kind * 1000003 + i);
	return len;
}

static void *cc_writer(void *arg)
{
	struct cc_thread *t = arg;
	struct cc_state *st = t->st;
	unsigned char b[4][256];
	unsigned long i = 0;

	while (i < st->per_kind) {
		struct rdmachan_user_msg m[4] = {};
		struct rdmachan_mmsg mm = {
			.size = sizeof(mm), .msgs = (uintptr_t)m, .count = 1,
		};
		unsigned int k, n = t->kind == 2 ? 4 : 1;
		ssize_t r;

		if (n > st->per_kind - i)
			n = st->per_kind - i;
		for (k = 0; k < n; k++) {
			m[k].buf = (uintptr_t)b[k];
			m[k].len = cc_msg(b[k], t->kind, i + k);
		}
		switch (t->kind) {
		case 0:
			r = write(st->p.cli, b[0], m[0].len);
			r = r == (ssize_t)m[0].len ? 1 : -1;
			break;
		case 1:
			r = ioctl(st->p.cli, RDMACHAN_IOC_SEND, &mm) < 0 ? -1 : (ssize_t)mm.done;
			break;
		default:
			mm.count = n;
			r = ioctl(st->p.cli, RDMACHAN_IOC_SENDMMSG, &mm) < 0 ? -1 : (ssize_t)mm.done;
			break;
		}
		if (r <= 0) {
			st->werr[t->kind] = r < 0 ? errno : EPROTO;
			break;
		}
		i += r;
	}
	st->sent[t->kind] = i;
	return NULL;
}

static void *cc_blaster(void *arg)
{
	struct cc_state *st = arg;
	struct rdmachan_bench b = {
		.size = sizeof(b), .mode = RDMACHAN_BENCH_BLAST,
		.msg_size = CC_BLAST_SIZE, .count = st->per_kind, .batch = 4,
	};

	if (ioctl(st->p.cli, RDMACHAN_IOC_BENCH, &b) < 0)
		st->werr[CC_KINDS] = errno;
	st->sent[CC_KINDS] = b.msgs;
	return NULL;
}

/* One message a reader got: check it and mark it seen. */
static void cc_got(struct cc_state *st, const unsigned char *b, size_t len)
{
	unsigned char want[256];
	uint32_t kind, i;
	size_t k;

	pthread_mutex_lock(&st->lock);
	st->consumed++;
	if (len == CC_BLAST_SIZE) {
		for (k = 0; k < len && b[k] == 0xa5; k++)
			;
		if (k == len)
			st->blast_read++;
		else
			st->corrupt++;
	} else if (len < 16) {
		st->corrupt++;
	} else {
		memcpy(&kind, b, 4);
		memcpy(&i, b + 4, 4);
		if (kind >= CC_KINDS || i >= st->per_kind ||
		    cc_msg(want, kind, i) != len || memcmp(b, want, len))
			st->corrupt++;
		else if (st->seen[kind][i]++)
			st->dups++;
	}
	pthread_mutex_unlock(&st->lock);
}

static void *cc_reader(void *arg)
{
	struct cc_thread *t = arg;
	struct cc_state *st = t->st;
	unsigned char b[8][512];
	int fd = st->p.srv;

	for (;;) {
		struct rdmachan_user_msg m[8] = {};
		struct rdmachan_mmsg mm = {
			.size = sizeof(mm), .msgs = (uintptr_t)m, .count = 1,
		};
		unsigned int k;
		ssize_t r;

		for (k = 0; k < 8; k++) {
			m[k].buf = (uintptr_t)b[k];
			m[k].len = sizeof(b[k]);
		}
		switch (t->kind) {
		case 0:
			r = read(fd, b[0], sizeof(b[0]));
			if (r > 0) {
				m[0].len = r;
				r = 1;
			}
			break;
		case 1:
			r = ioctl(fd, RDMACHAN_IOC_RECV, &mm) < 0 ? -1 : (ssize_t)mm.done;
			break;
		default:
			mm.count = 8;
			r = ioctl(fd, RDMACHAN_IOC_RECVMMSG, &mm) < 0 ? -1 : (ssize_t)mm.done;
			break;
		}
		if (r < 0)
			st->rerr[t->kind] = errno;
		if (r <= 0)
			break;		/* 0: the orderly end */
		for (k = 0; k < r; k++)
			cc_got(st, b[k], m[k].len);
		st->got[t->kind] += r;
	}
	return NULL;
}

static void *cc_sink(void *arg)
{
	struct cc_state *st = arg;
	struct rdmachan_chan_info ci;

	for (;;) {
		struct rdmachan_bench b = {
			.size = sizeof(b), .mode = RDMACHAN_BENCH_SINK,
			.duration_ms = 20,
		};

		if (ioctl(st->p.srv, RDMACHAN_IOC_BENCH, &b) < 0) {
			st->rerr[3] = errno;
			break;
		}
		pthread_mutex_lock(&st->lock);
		st->consumed += b.msgs;
		pthread_mutex_unlock(&st->lock);
		st->got[3] += b.msgs;
		if (!b.msgs && (ioc_chan_info(st->p.srv, &ci) ||
				ci.state != RDMACHAN_STATE_CONNECTED))
			break;
	}
	return NULL;
}

static int cmd_concurrent(long per_kind, const char *mode)
{
	struct rdmachan_chan_opts opts = { .queue_depth = 16 };
	pthread_t wt[CC_KINDS + 1], rt[4];
	struct cc_thread wa[CC_KINDS], ra[3];
	struct rdmachan_chan_info ci;
	static struct cc_state st;
	unsigned long total = 0, seen_once = 0, i;
	double deadline;
	int k, credits_ok;

	if (mode && !strcmp(mode, "workqueue"))
		opts.poll_mode = RDMACHAN_POLL_MODE_WORKQUEUE;
	else if (mode && !strcmp(mode, "direct"))
		opts.poll_mode = RDMACHAN_POLL_MODE_DIRECT;
	st.per_kind = per_kind;
	pthread_mutex_init(&st.lock, NULL);
	for (k = 0; k < CC_KINDS; k++)
		st.seen[k] = calloc(per_kind, 1);
	if (pair_open(&st.p, &opts))
		return 1;
	alarm(300);	/* a lost wake-up kills the helper: its checks go missing */

	for (k = 0; k < 3; k++) {
		ra[k] = (struct cc_thread){ .st = &st, .kind = k };
		pthread_create(&rt[k], NULL, cc_reader, &ra[k]);
	}
	pthread_create(&rt[3], NULL, cc_sink, &st);
	for (k = 0; k < CC_KINDS; k++) {
		wa[k] = (struct cc_thread){ .st = &st, .kind = k };
		pthread_create(&wt[k], NULL, cc_writer, &wa[k]);
	}
	pthread_create(&wt[CC_KINDS], NULL, cc_blaster, &st);
	for (k = 0; k <= CC_KINDS; k++) {
		pthread_join(wt[k], NULL);
		total += st.sent[k];
	}
	ktap_result(!st.werr[0] && !st.werr[1] && !st.werr[2] && !st.werr[3] &&
	       st.sent[0] == (unsigned long)per_kind &&
	       st.sent[1] == (unsigned long)per_kind &&
	       st.sent[2] == (unsigned long)per_kind &&
	       st.sent[3] == (unsigned long)per_kind,
	       "concurrent writers of every kind send everything",
	       "write %lu (%s), SEND %lu (%s), SENDMMSG %lu (%s), BENCH %lu (%s) of %ld",
	       st.sent[0], strerror(st.werr[0]), st.sent[1],
	       strerror(st.werr[1]), st.sent[2], strerror(st.werr[2]),
	       st.sent[3], strerror(st.werr[3]), per_kind);

	/*
	 * wait until the readers consumed everything sent: the sink's runs
	 * of 20 ms end on time even when no message comes (a run that
	 * waited for the next message kept what it had counted until the
	 * close)
	 */
	deadline = now() + 60;
	for (;;) {
		unsigned long c;

		pthread_mutex_lock(&st.lock);
		c = st.consumed;
		pthread_mutex_unlock(&st.lock);
		if (c >= total || now() > deadline) {
			ioc_chan_info(st.p.srv, &ci);
			ktap_result(c >= total,
			       "the readers (a timed BENCH sink among them) account for every message while the channel is open",
			       "consumed %lu of %lu; rx_queued %u; read %lu RECV %lu RECVMMSG %lu sink %lu",
			       c, total, ci.rx_queued, st.got[0], st.got[1],
			       st.got[2], st.got[3]);
			break;
		}
		usleep(20000);
	}
	usleep(200000);		/* let the last credit returns land */
	{
		/* busy-polled ends see their completions only when polled */
		struct pollfd pf[2] = {
			{ .fd = st.p.cli, .events = POLLOUT },
			{ .fd = st.p.srv, .events = POLLOUT },
		};

		poll(pf, 2, 0);
	}
	credits_ok = efault_credits_add_up(&st.p, opts.queue_depth);
	ktap_result(!ioc_chan_info(st.p.srv, &ci) && ci.rx_queued == 0 && credits_ok,
	       "no credit is created or lost, nothing left queued",
	       "rx_queued %u, credits add up %d", ci.rx_queued, credits_ok);

	/* the orderly end stops every reader */
	close(st.p.cli);
	st.p.cli = -1;
	for (k = 0; k < 4; k++)
		pthread_join(rt[k], NULL);
	alarm(0);
	for (k = 0; k < CC_KINDS; k++)
		for (i = 0; i < (unsigned long)per_kind; i++)
			seen_once += st.seen[k][i] >= 1;
	ktap_result(!st.rerr[0] && !st.rerr[1] && !st.rerr[2] && !st.rerr[3],
	       "concurrent readers of every kind end cleanly at the orderly close",
	       "read %s, RECV %s, RECVMMSG %s, BENCH %s", strerror(st.rerr[0]),
	       strerror(st.rerr[1]), strerror(st.rerr[2]), strerror(st.rerr[3]));
	ktap_result(st.got[0] && st.got[1] && st.got[2] && st.got[3],
	       "every kind of reader took messages",
	       "read %lu, RECV %lu, RECVMMSG %lu, BENCH %lu", st.got[0],
	       st.got[1], st.got[2], st.got[3]);
	ktap_result(!st.dups && !st.corrupt && st.consumed == total &&
	       seen_once + st.blast_read + st.got[3] == total,
	       "every message arrives once and intact, and nothing else",
	       "sent %lu, consumed %lu (sink %lu), distinct %lu, blast read %lu, duplicates %lu, corrupt %lu",
	       total, st.consumed, st.got[3], seen_once, st.blast_read,
	       st.dups, st.corrupt);
	chan_pair_close(&st.p);
	return ktap_failures() ? 1 : 0;
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

static int cmd_qperror(void)
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

static int cmd_unplug(int cycles, double bound)
{
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

/* ---- poll, select, epoll ---------------------------------------------- */

#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/select.h>

enum waiter { W_POLL, W_SELECT, W_EPOLL };
static const char *const waiter_name[] = { "poll", "select", "epoll" };

/*
 * Wait up to @ms for @fd to be readable (@out: writable) through @how.
 * Return: 1 ready, 0 timed out, -1 error.
 */
static int wait_ready(enum waiter how, int fd, int out, int ms)
{
	struct pollfd pfd = { .fd = fd, .events = out ? POLLOUT : POLLIN };
	struct epoll_event ev = { .events = out ? EPOLLOUT : EPOLLIN };
	struct timeval tv = { .tv_sec = ms / 1000, .tv_usec = ms % 1000 * 1000 };
	fd_set set;
	int ep, r;

	switch (how) {
	case W_POLL:
		return poll(&pfd, 1, ms);
	case W_SELECT:
		FD_ZERO(&set);
		FD_SET(fd, &set);
		return select(fd + 1, out ? NULL : &set, out ? &set : NULL,
			      NULL, &tv);
	default:
		ep = epoll_create1(0);
		if (ep < 0 || epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev))
			return -1;
		r = epoll_wait(ep, &ev, 1, ms);
		close(ep);
		return r;
	}
}

struct delayed_send {
	int fd;
	int delay_ms;
	int close_it;
};

static void *delayed_send(void *arg)
{
	struct delayed_send *d = arg;

	usleep(d->delay_ms * 1000);
	if (d->close_it)
		close(d->fd);
	else if (write(d->fd, "wake", 4) != 4)
		perror("delayed write");
	return NULL;
}

static double thread_cpu(void)
{
	struct rusage ru;

	getrusage(RUSAGE_THREAD, &ru);
	return ru.ru_utime.tv_sec + ru.ru_stime.tv_sec +
	       (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

static int cmd_pollwake(void)
{
	struct rdmachan_chan_opts opts = {
		.poll_mode = RDMACHAN_POLL_MODE_DIRECT, .queue_depth = 4,
	};
	char title[160], buf[16];
	struct chan_pair p;
	enum waiter how;
	int i;

	for (how = W_POLL; how <= W_EPOLL; how++) {
		struct delayed_send d;
		pthread_t t;
		double t0, cpu0, took, cpu;
		int r;

		if (pair_open(&p, &opts))
			return 1;
		/* idle: nothing arrives, and waiting costs no CPU */
		cpu0 = thread_cpu();
		r = wait_ready(how, p.srv, 0, 1000);
		cpu = thread_cpu() - cpu0;
		snprintf(title, sizeof(title), "%s on an idle busy-polled channel times out without spinning",
			 waiter_name[how]);
		ktap_result(r == 0 && cpu < 0.5, title, "returned %d, %.2f s of CPU in 1 s",
		       r, cpu);

		/*
		 * A message sent later wakes the waiter: later than 1 s,
		 * past the busy spin poll() once did, so that only a wake-up
		 * can end the wait (none came under epoll).
		 */
		d = (struct delayed_send){ .fd = p.cli, .delay_ms = 1500 };
		pthread_create(&t, NULL, delayed_send, &d);
		t0 = now();
		r = wait_ready(how, p.srv, 0, 5000);
		took = now() - t0;
		pthread_join(t, NULL);
		snprintf(title, sizeof(title), "%s wakes for a message sent later (no keepalive tick to help)",
			 waiter_name[how]);
		ktap_result(r == 1 && took < 4, title, "returned %d after %.2f s", r, took);
		ktap_result(read(p.srv, buf, sizeof(buf)) == 4, "and the message is there",
		       "%s", strerror(errno));

		/* a credit returned later wakes a writer */
		for (i = 0; i < 4; i++)
			if (write(p.cli, "fill", 4) != 4)
				break;
		r = wait_ready(how, p.cli, 1, 200);
		snprintf(title, sizeof(title), "%s: no credit left, the sender is not writable",
			 waiter_name[how]);
		ktap_result(i == 4 && r == 0, title, "%d sent, returned %d", i, r);
		for (i = 0; i < 4; i++)
			if (read(p.srv, buf, sizeof(buf)) != 4)
				break;
		t0 = now();
		r = wait_ready(how, p.cli, 1, 5000);
		took = now() - t0;
		snprintf(title, sizeof(title), "%s wakes the sender when its credits come back",
			 waiter_name[how]);
		ktap_result(r == 1 && took < 4, title, "returned %d after %.2f s", r, took);

		/* the peer's close wakes a reader */
		d = (struct delayed_send){ .fd = p.cli, .delay_ms = 1500, .close_it = 1 };
		pthread_create(&t, NULL, delayed_send, &d);
		t0 = now();
		r = wait_ready(how, p.srv, 0, 5000);
		took = now() - t0;
		pthread_join(t, NULL);
		p.cli = -1;
		snprintf(title, sizeof(title), "%s wakes a reader at the peer's close",
			 waiter_name[how]);
		ktap_result(r == 1 && took < 4 && read(p.srv, buf, sizeof(buf)) == 0,
		       title, "returned %d after %.2f s", r, took);
		chan_pair_close(&p);
	}
	return ktap_failures() ? 1 : 0;
}

static int run(int argc, char **argv)
{
	signal(SIGPIPE, SIG_IGN);
	if (argc < 2) {
		fprintf(stderr, "usage: see the comment at the top of chan_test.c\n");
		return 2;
	}
	ctl = ctl_open();
	if (!strcmp(argv[1], "basic"))
		return cmd_basic();
	if (!strcmp(argv[1], "stream"))
		return cmd_stream(argc > 2 ? atol(argv[2]) : 100000);
	if (!strcmp(argv[1], "backpressure"))
		return cmd_backpressure();
	if (!strcmp(argv[1], "close"))
		return cmd_close();
	if (!strcmp(argv[1], "errors"))
		return cmd_errors();
	if (!strcmp(argv[1], "many"))
		return cmd_many(argc > 2 ? atoi(argv[2]) : 64);
	if (!strcmp(argv[1], "devremove"))
		return cmd_devremove();
	if (!strcmp(argv[1], "deadpeer"))
		return cmd_deadpeer();
	if (!strcmp(argv[1], "bench"))
		return cmd_bench();
	if (!strcmp(argv[1], "rdmabench"))
		return cmd_rdmabench();
	if (!strcmp(argv[1], "faultloop"))
		return cmd_faultloop(argc > 2 ? atoi(argv[2]) : 20);
	if (!strcmp(argv[1], "hold"))
		return cmd_hold();
	if (!strcmp(argv[1], "efault"))
		return cmd_efault();
	if (!strcmp(argv[1], "unplug"))
		return cmd_unplug(argc > 2 ? atoi(argv[2]) : 100,
				  argc > 3 ? atof(argv[3]) : 2);
	if (!strcmp(argv[1], "pollwake"))
		return cmd_pollwake();
	if (!strcmp(argv[1], "qperror"))
		return cmd_qperror();
	if (!strcmp(argv[1], "concurrent"))
		return cmd_concurrent(argc > 2 ? atol(argv[2]) : 3000,
				      argc > 3 ? argv[3] : NULL);
	fprintf(stderr, "unknown subcommand %s\n", argv[1]);
	return 2;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	ktap_header();
	return ktap_plan(run(argc, argv));
}
