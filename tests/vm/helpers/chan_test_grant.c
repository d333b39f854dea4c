// SPDX-License-Identifier: GPL-2.0-only
/*
 * chan_test_grant.c: receive buffers that follow use (wire version 4's
 * start grants and feature GROW, module/chan/chan_grant.c), on a pair of
 * depth 32.  The case sets shrink_idle_ms low first.
 *
 *   - a new channel grants one credit each way;
 *   - a reader that holds every message still lets its sender fill the
 *     whole depth, no more: the grant grows as the messages arrive; they
 *     are read in order;
 *   - both ends idle: each keeps one credit of the other's, and each
 *     receiver frees the buffers of the credits retired (credits_granted
 *     1, mem_bytes down by 31 buffers);
 *   - idle, on its one credit, a request of four WRITE_WITH_IMMs (which
 *     waits for its four credits at once) asks the peer for a larger
 *     grant and goes; the four immediates arrive in order (not over
 *     iWARP, which has no WRITE_WITH_IMM);
 *   - a slow reader and a blocking writer: 2000 checksummed messages in
 *     order, nothing lost;
 *   - idle again, the grant shrinks again; nobody saw an error.
 */
#define _GNU_SOURCE
#include <sys/wait.h>

#include "chan_test.h"

#define GRANT_DEPTH	32
#define GRANT_SIZE	4096

static long attr_num(int fd, const char *name)
{
	char buf[64];

	return strtol(sysfs_attr(fd, name, buf, sizeof(buf)), NULL, 0);
}

/* Wait up to @secs for both ends' grants to fall to 1 */
static int wait_shrunk(struct chan_pair *p, int secs)
{
	int i;

	for (i = 0; i < secs * 10; i++) {
		if (attr_num(p->srv, "credits_granted") == 1 &&
		    attr_num(p->cli, "credits_granted") == 1)
			return 1;
		usleep(100 * 1000);
	}
	return 0;
}

/* Send until no credit comes back for 2 s; return how many went */
static int fill_unread(int fd)
{
	struct pollfd pfd = { .fd = fd, .events = POLLOUT };
	int sent = 0;

	for (;;) {
		if (!chan_send_imm(fd, &sent, 4, sent, 1)) {
			sent++;
			continue;
		}
		if (errno != EAGAIN || poll(&pfd, 1, 2000) != 1)
			return sent;
	}
}

static void check_shrunk(struct chan_pair *p, long mem_before,
			 const char *when)
{
	struct rdmachan_chan_info ci;
	char desc[160];
	long mem;

	snprintf(desc, sizeof(desc),
		 "%s: both ends keep one credit of the other's", when);
	ktap_result(wait_shrunk(p, 20), desc, "granted %ld and %ld",
		    attr_num(p->srv, "credits_granted"),
		    attr_num(p->cli, "credits_granted"));
	ioc_chan_info(p->cli, &ci);
	snprintf(desc, sizeof(desc), "%s: the sender's credits follow", when);
	ktap_result(ci.send_credits == 1, desc, "send_credits %u",
		    ci.send_credits);
	mem = attr_num(p->srv, "mem_bytes");
	snprintf(desc, sizeof(desc),
		 "%s: the receiver freed the retired credits' buffers", when);
	ktap_result(mem_before - mem >= (GRANT_DEPTH - 1) * GRANT_SIZE, desc,
		    "mem_bytes %ld -> %ld", mem_before, mem);
}

/* Four WRITE_WITH_IMMs in one request, from one credit */
static void check_write_imm_batch(struct chan_pair *p)
{
	static unsigned char cbuf[4096] __attribute__((aligned(4096)));
	static unsigned char sbuf[4096] __attribute__((aligned(4096)));
	struct rdmachan_rdma_op op[4];
	struct rdmachan_sge sg[4];
	struct rdmachan_reg_mr cr, sr;
	struct rdmachan_rdma r = { .size = sizeof(r), .ops = (uintptr_t)op,
				   .count = 4 };
	unsigned int imm;
	int i, ret, ok = 1, has;

	if (ioc_reg_mr(p->cli, cbuf, sizeof(cbuf), RDMACHAN_ACCESS_LOCAL_WRITE,
		       &cr) ||
	    ioc_reg_mr(p->srv, sbuf, sizeof(sbuf), RDMACHAN_ACCESS_LOCAL_WRITE |
		       RDMACHAN_ACCESS_REMOTE_WRITE, &sr)) {
		ktap_result(0, "registrations for the WRITE_WITH_IMMs", "%s",
			    strerror(errno));
		return;
	}
	fill(cbuf, sizeof(cbuf), 5);
	for (i = 0; i < 4; i++) {
		sg[i] = (struct rdmachan_sge){ .handle = cr.handle,
					       .length = 64, .offset = 64 * i };
		rdma_op_set(&op[i], RDMACHAN_OP_WRITE_IMM, &sg[i], 1, &sr,
			    64 * i);
		op[i].imm = 100 + i;
	}
	alarm(30);	/* a request that waits for good fails the case */
	ret = ioctl(p->cli, RDMACHAN_IOC_RDMA, &r);
	alarm(0);
	for (i = 0; i < 4; i++)
		if (op[i].status)
			ok = 0;
	ktap_result(!ret && r.done == 4 && ok,
		    "four WRITE_WITH_IMMs on one credit ask for the grant they need",
		    "ret %d (%s) done %u", ret, strerror(errno), r.done);
	for (i = 0; i < 4; i++) {
		ret = chan_recv_msg(p->srv, sbuf + 2048, 64, &imm, &has, 0);
		if (ret || !has || imm != 100u + i)
			ok = 0;
	}
	ktap_result(ok && !memcmp(sbuf, cbuf, 256),
		    "the four land, their immediates in order", "mismatch");
	ioc_dereg_mr(p->cli, cr.handle);
	ioc_dereg_mr(p->srv, sr.handle);
}

int cmd_grant(SUBCMD_ARGS)
{
	struct rdmachan_chan_opts o = { .queue_depth = GRANT_DEPTH,
					.max_msg_size = GRANT_SIZE };
	unsigned char buf[GRANT_SIZE];
	struct rdmachan_chan_info ci;
	struct chan_pair p;
	long mem_full;
	int i, r, ok, sent;

	if (module_param("shrink_idle_ms") <= 0 ||
	    module_param("shrink_idle_ms") > 2000) {
		ktap_result(0, "shrink_idle_ms is set low for this test",
			    "%ld", module_param("shrink_idle_ms"));
		return 1;
	}
	if (pair_open(&p, &o))
		return 1;
	ioc_chan_info(p.cli, &ci);
	ktap_result(ci.queue_depth == GRANT_DEPTH && ci.send_credits == 1 &&
		    attr_num(p.srv, "credits_granted") == 1 &&
		    attr_num(p.cli, "credits_granted") == 1,
		    "a new channel grants one credit each way",
		    "depth %u credits %u granted %ld", ci.queue_depth,
		    ci.send_credits, attr_num(p.srv, "credits_granted"));
	for (i = 0; i < 10; i++) {
		fill(buf, 100, i);
		if (write(p.cli, buf, 100) != 100 ||
		    read(p.srv, buf, sizeof(buf)) != 100)
			break;
	}
	ktap_result(i == 10, "ten messages go one by one", "%d: %s", i,
		    strerror(errno));

	/* nobody reads: the grant grows with what arrives, to the depth */
	sent = fill_unread(p.cli);
	ktap_result(sent == GRANT_DEPTH,
		    "an unread peer grows its grant to the depth, and no more",
		    "sent %d, granted %ld", sent,
		    attr_num(p.srv, "credits_granted"));
	/*
	 * Every buffer holds a message now.  Once they are read, the idle
	 * sender retires the credits they come back as, at its next tick:
	 * on a slow host before the last read, so the full size is taken
	 * before.
	 */
	mem_full = attr_num(p.srv, "mem_bytes");
	ok = 1;
	for (i = 0; i < sent; i++) {
		unsigned int imm;
		int has;

		r = chan_recv_msg(p.srv, buf, sizeof(buf), &imm, &has, 0);
		if (r != 4 || !has || imm != (unsigned int)i)
			ok = 0;
	}
	ktap_result(ok, "the held messages are read in order", "mismatch");
	check_shrunk(&p, mem_full, "idle");
	ioc_chan_info(p.cli, &ci);
	if (strncmp(ci.dev_name, "siw", 3))
		check_write_imm_batch(&p);

	/* a blocking writer and a slow reader: nothing lost, in order */
	if (fork() == 0) {
		for (i = 0; i < 2000; i++) {
			fill(buf, 200, i);
			memcpy(buf, &i, 4);
			if (write(p.cli, buf, 200) != 200)
				_exit(1);
		}
		_exit(0);
	}
	ok = 1;
	for (i = 0; i < 2000; i++) {
		unsigned char want[200];
		int v;

		if (i % 400 == 0)
			usleep(20000);
		fill(want, 200, i);
		memcpy(want, &i, 4);
		r = read(p.srv, buf, sizeof(buf));
		memcpy(&v, buf, 4);
		if (r != 200 || v != i || memcmp(buf, want, 200))
			ok = 0;
	}
	wait(&r);
	ktap_result(ok && WIFEXITED(r) && !WEXITSTATUS(r),
		    "2000 messages to a slow reader arrive in order and intact",
		    "status %d", r);

	check_shrunk(&p, mem_full, "idle again");
	ioc_chan_info(p.srv, &ci);
	ktap_result(ci.state == RDMACHAN_STATE_CONNECTED && !ci.errors,
		    "the receiver saw no error", "state %u errors %llu",
		    ci.state, (unsigned long long)ci.errors);
	ioc_chan_info(p.cli, &ci);
	ktap_result(ci.state == RDMACHAN_STATE_CONNECTED && !ci.errors,
		    "the sender saw no error", "state %u errors %llu",
		    ci.state, (unsigned long long)ci.errors);
	chan_pair_close(&p);
	return ktap_failures() ? 1 : 0;
}
