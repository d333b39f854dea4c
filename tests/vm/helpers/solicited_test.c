// SPDX-License-Identifier: GPL-2.0-only
/*
 * solicited_test: channels in RDMACHAN_POLL_MODE_SOLICITED (waking for
 * solicited messages only), as a list of checks in KTAP (ktap.h).
 *
 * The server's channel is SOLICITED, the client's is not.  The client
 * sends bursts whose last message is solicited (RDMACHAN_MSG_SOLICITED);
 * the server's waiters (poll, a blocking read) must sleep through the
 * unsolicited messages and wake for the solicited one, which brings the
 * whole burst, in order.  A read takes what has arrived without waiting
 * for the event.  Credits keep flowing both ways, and an RDMA
 * WRITE_WITH_IMM with RDMACHAN_OPF_SOLICITED wakes the server too.
 *
 * Over siw (DEV0=siw...), which raises no solicited event for receives,
 * a SOLICITED channel must be refused with EOPNOTSUPP instead.
 *
 *   solicited_test
 */
#define _GNU_SOURCE
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <sys/mman.h>

#include "chanlib.h"

/* long enough for a message to arrive; waiters must still sleep */
#define QUIET_MS	300
#define DEPTH		16

static int ctl;

static int pair_open(struct chan_pair *p)
{
	struct rdmachan_chan_opts so = {
		.poll_mode = RDMACHAN_POLL_MODE_SOLICITED, .queue_depth = DEPTH,
	};
	struct rdmachan_chan_opts co = { .queue_depth = DEPTH };

	return chan_pair_open(ctl, p, &so, &co);
}

/* Send message number @i (4 bytes) with @flags; 0 or -1/errno. */
static int send_num(int fd, uint32_t i, unsigned int flags)
{
	struct rdmachan_user_msg m = {
		.buf = (uintptr_t)&i, .len = sizeof(i), .flags = flags,
	};
	struct rdmachan_mmsg mm = {
		.size = sizeof(mm), .msgs = (uintptr_t)&m, .count = 1,
	};

	return ioctl(fd, RDMACHAN_IOC_SEND, &mm) < 0 ? -1 : 0;
}

static int readable_within(int fd, int ms)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	return poll(&pfd, 1, ms) == 1 && (pfd.revents & POLLIN);
}

static ssize_t recv_nb(int fd, uint32_t *v)
{
	unsigned int imm;
	int has_imm;

	return chan_recv_msg(fd, v, sizeof(*v), &imm, &has_imm, 1);
}

/* Read messages until EAGAIN; each must be the next number. */
static int read_in_order(int fd, uint32_t *next)
{
	int n = 0;

	for (;;) {
		uint32_t v;
		ssize_t r = recv_nb(fd, &v);

		if (r < 0)
			return errno == EAGAIN ? n : -1;
		if (r != sizeof(v) || v != *next)
			return -1;
		(*next)++;
		n++;
	}
}

struct blocked_read {
	int fd;
	ssize_t ret;
	uint32_t v;
	volatile int done;
};

static void *blocked_read(void *arg)
{
	struct blocked_read *b = arg;

	b->ret = read(b->fd, &b->v, sizeof(b->v));
	b->done = 1;
	return NULL;
}

static void check_waiters(struct chan_pair *p)
{
	struct rdmachan_chan_info si = {};
	struct blocked_read b = { .fd = p->srv };
	pthread_t t;
	uint32_t next = 0, i;
	int ok, n;

	ktap_result(!ioc_chan_info(p->srv, &si) &&
	       si.poll_mode == RDMACHAN_POLL_MODE_SOLICITED,
	       "the accepted channel is in poll mode solicited", "poll_mode %u",
	       si.poll_mode);

	/* a burst of three, then its solicited end */
	ok = 1;
	for (i = 0; i < 3; i++)
		ok &= !send_num(p->cli, i, 0);
	ktap_result(ok, "three unsolicited messages are sent", "%s",
	       strerror(errno));
	ktap_result(!readable_within(p->srv, QUIET_MS),
	       "poll sleeps through unsolicited messages", "POLLIN");
	ktap_result(!ioc_chan_info(p->srv, &si) && si.rx_queued == 0,
	       "they are not handed over before the event", "rx_queued %u",
	       si.rx_queued);
	ktap_result(!send_num(p->cli, 3, RDMACHAN_MSG_SOLICITED),
	       "a solicited message is sent", "%s", strerror(errno));
	ktap_result(readable_within(p->srv, 5000),
	       "the solicited message wakes poll", "no POLLIN");
	n = read_in_order(p->srv, &next);
	ktap_result(n == 4, "the burst arrives whole and in order, the solicited message last",
	       "read %d, next %u", n, next);

	/* a blocking read sleeps through unsolicited messages */
	pthread_create(&t, NULL, blocked_read, &b);
	usleep(QUIET_MS * 1000);
	ok = !send_num(p->cli, 4, 0) && !send_num(p->cli, 5, 0);
	usleep(QUIET_MS * 1000);
	ktap_result(ok && !b.done, "a blocking read sleeps through unsolicited messages",
	       "done %d ret %zd", b.done, b.ret);
	send_num(p->cli, 6, RDMACHAN_MSG_SOLICITED);
	pthread_join(t, NULL);
	ktap_result(b.ret == sizeof(b.v) && b.v == 4,
	       "the solicited message wakes it with the first of the burst",
	       "ret %zd value %u", b.ret, b.v);
	next = 5;
	n = read_in_order(p->srv, &next);
	ktap_result(n == 2, "the rest of the burst follows in order", "read %d", n);

	/* a read takes what has arrived, solicited or not */
	send_num(p->cli, 7, 0);
	usleep(QUIET_MS * 1000);
	ktap_result(!readable_within(p->srv, 0), "nothing is readable for poll", "POLLIN");
	n = read_in_order(p->srv, &next);
	ktap_result(n == 1, "a non-blocking read takes what has arrived", "read %d", n);
}

struct stream {
	int fd;
	uint32_t count;
	int err;
};

/* Send @count numbers; every 8th and the last one solicited. */
static void *stream_send(void *arg)
{
	struct stream *s = arg;
	uint32_t i;

	for (i = 0; i < s->count; i++) {
		unsigned int f = (i % 8 == 7 || i + 1 == s->count) ?
				 RDMACHAN_MSG_SOLICITED : 0;

		if (send_num(s->fd, i, f)) {
			s->err = errno;
			break;
		}
	}
	return NULL;
}

/* Stream 50x the depth from @from to @to; 0 when all arrive in order. */
static int stream_through(int from, int to, char *why, size_t room)
{
	struct stream s = { .fd = from, .count = DEPTH * 50 };
	uint32_t next = 0, got = 0;
	pthread_t t;
	int n = 0;

	pthread_create(&t, NULL, stream_send, &s);
	while (got < s.count && readable_within(to, 5000)) {
		n = read_in_order(to, &next);
		if (n < 0)
			break;
		got += n;
	}
	pthread_join(t, NULL);
	snprintf(why, room, "%u of %u (%s)%s", got, s.count, strerror(s.err),
		 n < 0 ? ", out of order" : "");
	return s.err || n < 0 || got != s.count ? -1 : 0;
}

static void check_credits(struct chan_pair *p)
{
	char why[128];

	/* into the SOLICITED side: the reader wakes on solicited ends */
	ktap_result(!stream_through(p->cli, p->srv, why, sizeof(why)),
	       "a stream of 50x the queue depth reaches a solicited reader in order",
	       "%s", why);
	/* out of the SOLICITED side: its credits come back without events */
	ktap_result(!stream_through(p->srv, p->cli, why, sizeof(why)),
	       "a solicited channel's sends get their credits back (50x the depth)",
	       "%s", why);
}

static int write_imm(struct chan_pair *p, const struct rdmachan_reg_mr *cr,
		     const struct rdmachan_reg_mr *sr, uint32_t imm,
		     unsigned int flags)
{
	struct rdmachan_sge sg = { .handle = cr->handle, .length = 64 };
	struct rdmachan_rdma_op op = {
		.opcode = RDMACHAN_OP_WRITE_IMM, .flags = flags,
		.sgl = (uintptr_t)&sg, .nr_sge = 1, .imm = imm,
		.remote_addr = sr->remote.addr, .rkey = sr->remote.rkey,
	};
	struct rdmachan_rdma r = {
		.size = sizeof(r), .ops = (uintptr_t)&op, .count = 1,
	};

	return ioctl(p->cli, RDMACHAN_IOC_RDMA, &r) < 0 || op.status ? -1 : 0;
}

static void check_write_imm(struct chan_pair *p)
{
	struct rdmachan_reg_mr cr, sr;
	unsigned char *buf = mmap(NULL, 8192, PROT_READ | PROT_WRITE,
				  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	unsigned int imm = 0;
	int has_imm = 0, r1, r2;
	uint32_t v;

	if (buf == MAP_FAILED ||
	    ioc_reg_mr(p->cli, buf, 4096, 0, &cr) ||
	    ioc_reg_mr(p->srv, buf + 4096, 4096, RDMACHAN_ACCESS_LOCAL_WRITE |
		RDMACHAN_ACCESS_REMOTE_WRITE, &sr)) {
		ktap_result(0, "registrations for WRITE_WITH_IMM", "%s",
		       strerror(errno));
		return;
	}
	r1 = write_imm(p, &cr, &sr, 0x1111, 0);
	ktap_result(!r1 && !readable_within(p->srv, QUIET_MS),
	       "an unsolicited WRITE_WITH_IMM wakes no waiter", "ret %d", r1);
	r2 = write_imm(p, &cr, &sr, 0x2222, RDMACHAN_OPF_SOLICITED);
	ktap_result(!r2 && readable_within(p->srv, 5000),
	       "a solicited WRITE_WITH_IMM wakes poll", "ret %d", r2);
	r1 = chan_recv_msg(p->srv, &v, sizeof(v), &imm, &has_imm, 1);
	ktap_result(r1 == 0 && has_imm && imm == 0x1111,
	       "the unsolicited immediate comes first", "ret %d imm %#x", r1, imm);
	r1 = chan_recv_msg(p->srv, &v, sizeof(v), &imm, &has_imm, 1);
	ktap_result(r1 == 0 && has_imm && imm == 0x2222,
	       "then the solicited one", "ret %d imm %#x", r1, imm);
	munmap(buf, 8192);
}

/* the in-kernel bench sends unsolicited messages: refused */
static void check_bench_refused(struct chan_pair *p)
{
	struct rdmachan_bench b = {
		.size = sizeof(b), .mode = RDMACHAN_BENCH_SINK,
	};
	int ret = ioctl(p->srv, RDMACHAN_IOC_BENCH, &b);

	ktap_result(ret < 0 && errno == EOPNOTSUPP,
	       "RDMACHAN_IOC_BENCH on a solicited channel fails with EOPNOTSUPP",
	       "ret %d (%s)", ret, strerror(errno));
}

static int check_siw_refuses(void)
{
	struct rdmachan_chan_opts so = {
		.poll_mode = RDMACHAN_POLL_MODE_SOLICITED,
	};
	struct rdmachan_chan_opts co = {};
	int port, lfd, cli;

	lfd = chan_listen(ctl, CHAN_SRV_IP, 0, &co, 0, &port);
	cli = chan_connect(ctl, CHAN_SRV_IP, port, CHAN_CLI_IP, &so, 0);
	ktap_result(lfd >= 0 && cli < 0 && errno == EOPNOTSUPP,
	       "siw: a SOLICITED channel is refused with EOPNOTSUPP",
	       "connect %d (%s)", cli, strerror(errno));
	if (cli >= 0)
		close(cli);
	close(lfd);
	return ktap_failures() ? 1 : 0;
}

static int run(void)
{
	const char *dev = getenv("DEV0");
	struct chan_pair p;

	signal(SIGPIPE, SIG_IGN);
	ctl = ctl_open();
	if (dev && !strncmp(dev, "siw", 3))
		return check_siw_refuses();
	if (pair_open(&p)) {
		ktap_result(0, "a solicited channel pair connects", "%s",
		       strerror(errno));
		return 1;
	}
	check_waiters(&p);
	check_credits(&p);
	check_write_imm(&p);
	check_bench_refused(&p);
	chan_pair_close(&p);
	return ktap_failures() ? 1 : 0;
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	ktap_header();
	return ktap_plan(run());
}
