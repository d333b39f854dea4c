// SPDX-License-Identifier: GPL-2.0-only
/*
 * chan_test_msg.c: messages on a healthy channel: sizes and immediates
 * (basic), a long stream, credits and backpressure, the ends' close,
 * bad arguments (errors), many channels at once, and the waits of
 * poll(), select() and epoll on a busy-polled channel (pollwake).
 */
#define _GNU_SOURCE
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/select.h>

#include "chan_test.h"

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

int cmd_basic(SUBCMD_ARGS)
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
	ktap_result(ci.send_credits == 1,
	       "the client starts with the server's start grant, one credit",
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
		/*
		 * As many as there are credits for, in one chained post: the
		 * grant starts at one credit and grows as messages arrive
		 * (chan_grant.c), so the 64 take a few calls
		 */
		for (i = 0, total = 0; i < 64 && total < 64; i++) {
			mm.msgs = (unsigned long)&m[total];
			mm.count = 64 - total;
			mm.done = 0;
			r = ioctl(p.cli, RDMACHAN_IOC_SENDMMSG, &mm);
			if (r || !mm.done)
				break;
			total += mm.done;
		}
		ktap_result(total == 64 && i < 16,
		       "SENDMMSG posts 64 messages in as many calls as the grant takes to grow",
		       "ret %d: %d sent in %d calls", r, total, i);
		total = 0;
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

int cmd_stream(SUBCMD_ARGS)
{
	long n = argc > 1 ? atol(argv[1]) : 100000;
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

int cmd_backpressure(SUBCMD_ARGS)
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

	/*
	 * Nobody reads: exactly queue_depth messages go, then EAGAIN.  The
	 * grant starts at one credit and grows as messages arrive: on EAGAIN
	 * wait for more to come, as long as they do.
	 */
	for (i = 0; i < 100; i++) {
		r = chan_send_imm(p.cli, &i, 4, i, 1);
		if (r) {
			pfd = (struct pollfd){ .fd = p.cli, .events = POLLOUT };
			if (errno == EAGAIN && poll(&pfd, 1, 2000) == 1) {
				i--;
				continue;
			}
			errno = EAGAIN;
			break;
		}
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

int cmd_close(SUBCMD_ARGS)
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

int cmd_errors(SUBCMD_ARGS)
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

int cmd_many(SUBCMD_ARGS)
{
	int n = argc > 1 ? atoi(argv[1]) : 64;
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
	pairs_close(lfd, cli, srv, opened);
	return ktap_failures() ? 1 : 0;
}


/* ---- poll, select, epoll ---------------------------------------------- */

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

int cmd_pollwake(SUBCMD_ARGS)
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
