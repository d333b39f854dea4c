// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdma_async_test: asynchronous one-sided calls (RDMACHAN_IOC_RDMA with
 * RDMACHAN_RDMA_ASYNC, RDMACHAN_IOC_RDMA_REAP), as a list of checks in
 * KTAP (ktap.h).
 *
 * The client submits calls without waiting, then reaps one outcome per
 * operation, in order, each with its user_data: the data written and
 * read must be right, an atomic's old value must come back, poll must
 * report EPOLLPRI exactly while an outcome waits.  Bad reap arguments,
 * a refused asynchronous call (nothing to reap afterwards) and the
 * RDMACHAN_MAX_ASYNC_OPS bound (ENOBUFS, then room again after reaping)
 * are checked, and a channel closed with calls unreaped must go without
 * a trace (the debug tier's kmemleak scan sees to that).
 *
 *   rdma_async_test [direct]
 */
#define _GNU_SOURCE
#include <poll.h>
#include <stdint.h>
#include <sys/mman.h>

#include "chanlib.h"

static int ctl;
static int iwarp;

static int submit(int fd, struct rdmachan_rdma_op *ops, uint32_t count)
{
	struct rdmachan_rdma r = {
		.size = sizeof(r), .flags = RDMACHAN_RDMA_ASYNC,
		.ops = (uintptr_t)ops, .count = count,
	};
	int ret = ioctl(fd, RDMACHAN_IOC_RDMA, &r);

	return ret ? ret : (int)r.done;
}

static int reap(int fd, struct rdmachan_rdma_cqe *cqes, uint32_t count,
		uint32_t flags, uint32_t *pending)
{
	struct rdmachan_rdma_reap r = {
		.size = sizeof(r), .flags = flags, .cqes = (uintptr_t)cqes,
		.count = count,
	};
	int ret = ioctl(fd, RDMACHAN_IOC_RDMA_REAP, &r);

	if (pending)
		*pending = r.pending;
	return ret ? ret : (int)r.done;
}

/* Reap until @want outcomes arrived or a reap returns none. */
static int reap_all(int fd, struct rdmachan_rdma_cqe *cqes, int want)
{
	int got = 0, n;

	while (got < want) {
		n = reap(fd, cqes + got, want - got, 0, NULL);
		if (n <= 0)
			break;
		got += n;
	}
	return got;
}

static int prio_within(int fd, int ms)
{
	struct pollfd pfd = { .fd = fd, .events = POLLPRI };

	return poll(&pfd, 1, ms) == 1 && (pfd.revents & POLLPRI);
}

static void *map(size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

/* WRITE, READ back, FETCH_ADD: outcomes in order, with their user_data */
static void check_basic(struct chan_pair *p, unsigned char *cli,
			unsigned char *srv)
{
	struct rdmachan_reg_mr cr, sr;
	struct rdmachan_sge sw = { .length = 4096 };
	struct rdmachan_sge sr_ = { .length = 4096, .offset = 4096 };
	struct rdmachan_sge sa = { .length = 8, .offset = 8192 };
	struct rdmachan_rdma_op ops[3];
	struct rdmachan_rdma_cqe cqes[4] = {};
	uint64_t *counter = (uint64_t *)(srv + 8192);
	uint32_t pending = 99;
	int i, n, ok;

	for (i = 0; i < 4096; i++)
		cli[i] = (unsigned char)(i * 7 + 3);
	*counter = 1000;
	if (ioc_reg_mr(p->cli, cli, 3 * 4096, RDMACHAN_ACCESS_LOCAL_WRITE |
		   (iwarp ? RDMACHAN_ACCESS_REMOTE_WRITE : 0), &cr) ||
	    ioc_reg_mr(p->srv, srv, 3 * 4096, RDMACHAN_ACCESS_ALL &
		   ~(iwarp ? RDMACHAN_ACCESS_REMOTE_ATOMIC : 0), &sr)) {
		ktap_result(0, "registrations", "%s", strerror(errno));
		return;
	}
	sw.handle = sr_.handle = sa.handle = cr.handle;
	rdma_op_set(&ops[0], RDMACHAN_OP_WRITE, &sw, 1, &sr, 0);
	rdma_op_set(&ops[1], RDMACHAN_OP_READ, &sr_, 1, &sr, 0);
	rdma_op_set(&ops[2], RDMACHAN_OP_FETCH_ADD, &sa, 1, &sr, 8192);
	ops[2].compare_add = 5;
	for (i = 0; i < 3; i++)
		ops[i].user_data = 0xa000 + i;
	n = iwarp ? 2 : 3;	/* siw has no atomics */

	ktap_result(!prio_within(p->cli, 0), "nothing to reap before a call",
	       "POLLPRI");
	ktap_result(submit(p->cli, ops, n) == n,
	       "an asynchronous call returns once posted, done = count",
	       "%s", strerror(errno));
	ktap_result(prio_within(p->cli, 5000), "poll reports EPOLLPRI when it ended",
	       "no POLLPRI");
	ktap_result(reap_all(p->cli, cqes, n) == n,
	       "one outcome per operation is reaped", "%s", strerror(errno));
	ok = 1;
	for (i = 0; i < n; i++)
		ok &= cqes[i].user_data == 0xa000u + i && !cqes[i].status &&
		      !cqes[i].wc_status && cqes[i].opcode == ops[i].opcode;
	ktap_result(ok, "in order, each with its user_data, opcode and success",
	       "%#llx/%d %#llx/%d %#llx/%d",
	       (unsigned long long)cqes[0].user_data, cqes[0].status,
	       (unsigned long long)cqes[1].user_data, cqes[1].status,
	       (unsigned long long)cqes[2].user_data, cqes[2].status);
	ktap_result(!memcmp(cli, cli + 4096, 4096) && !memcmp(srv, cli, 4096),
	       "the WRITE landed and the READ behind it brought it back",
	       "mismatch");
	if (!iwarp)
		ktap_result(cqes[2].result == 1000 && *counter == 1005,
		       "the FETCH_ADD's old value is in its outcome",
		       "result %llu counter %llu",
		       (unsigned long long)cqes[2].result,
		       (unsigned long long)*counter);
	ktap_result(!prio_within(p->cli, 0), "no EPOLLPRI once reaped", "POLLPRI");
	ktap_result(reap(p->cli, cqes, 4, 0, &pending) == 0 && pending == 0,
	       "a reap with nothing running returns at once, none",
	       "%s pending %u", strerror(errno), pending);
	errno = 0;
	ktap_result(reap(p->cli, cqes, 4, RDMACHAN_REAP_DONTWAIT, NULL) == 0,
	       "so does a DONTWAIT reap", "%s", strerror(errno));

	/* a refused asynchronous call leaves nothing to reap */
	sw.length = 3 * 4096 + 1;
	rdma_op_set(&ops[0], RDMACHAN_OP_WRITE, &sw, 1, &sr, 0);
	ops[0].user_data = 1;
	errno = 0;
	n = submit(p->cli, ops, 1);
	ktap_result(n < 0 && errno == EINVAL && ops[0].status == -EINVAL,
	       "an asynchronous call past the local registration fails with EINVAL",
	       "ret %d %s status %d", n, strerror(errno), ops[0].status);
	ktap_result(reap(p->cli, cqes, 4, RDMACHAN_REAP_DONTWAIT, &pending) == 0 &&
	       pending == 0, "the refused call left nothing to reap",
	       "%s pending %u", strerror(errno), pending);
	ioc_dereg_mr(p->cli, cr.handle);
	ioc_dereg_mr(p->srv, sr.handle);
}

/* Bad arguments of REAP, and the bound on unreaped operations */
static void check_limits(struct chan_pair *p, unsigned char *cli,
			 unsigned char *srv)
{
	struct rdmachan_rdma_cqe *cqes;
	struct rdmachan_rdma_reap r;
	struct rdmachan_reg_mr cr, sr;
	struct rdmachan_sge sg = { .length = 64 };
	struct rdmachan_rdma_op ops[RDMACHAN_MAX_RDMA_OPS];
	int i, calls, n, ok = 1;
	uint32_t pending = 0;

	cqes = calloc(RDMACHAN_MAX_ASYNC_OPS + 1, sizeof(*cqes));
	memset(&r, 0, sizeof(r));
	r.size = sizeof(r) - 1;
	r.count = 1;
	r.cqes = (uintptr_t)cqes;
	ktap_result(ioctl(p->cli, RDMACHAN_IOC_RDMA_REAP, &r) < 0 && errno == EINVAL,
	       "REAP with a wrong size fails with EINVAL", "%s", strerror(errno));
	r.size = sizeof(r);
	r.count = 0;
	ktap_result(ioctl(p->cli, RDMACHAN_IOC_RDMA_REAP, &r) < 0 && errno == EINVAL,
	       "REAP of 0 outcomes fails with EINVAL", "%s", strerror(errno));
	r.count = RDMACHAN_MAX_ASYNC_OPS + 1;
	ktap_result(ioctl(p->cli, RDMACHAN_IOC_RDMA_REAP, &r) < 0 && errno == EINVAL,
	       "REAP of more than RDMACHAN_MAX_ASYNC_OPS fails with EINVAL",
	       "%s", strerror(errno));
	r.count = 1;
	r.flags = 0x80;
	ktap_result(ioctl(p->cli, RDMACHAN_IOC_RDMA_REAP, &r) < 0 && errno == EINVAL,
	       "REAP with an unknown flag fails with EINVAL", "%s",
	       strerror(errno));
	r.flags = 0;
	r.reserved[1] = 1;
	ktap_result(ioctl(p->cli, RDMACHAN_IOC_RDMA_REAP, &r) < 0 && errno == EINVAL,
	       "REAP with a reserved field set fails with EINVAL", "%s",
	       strerror(errno));

	if (ioc_reg_mr(p->cli, cli, 4096, 0, &cr) ||
	    ioc_reg_mr(p->srv, srv, 4096, RDMACHAN_ACCESS_LOCAL_WRITE |
		   RDMACHAN_ACCESS_REMOTE_WRITE, &sr)) {
		ktap_result(0, "registrations", "%s", strerror(errno));
		free(cqes);
		return;
	}
	sg.handle = cr.handle;
	for (i = 0; i < RDMACHAN_MAX_RDMA_OPS; i++) {
		rdma_op_set(&ops[i], RDMACHAN_OP_WRITE, &sg, 1, &sr, 64 * i);
		ops[i].user_data = i;
	}
	/* fill the bound without reaping: 16 calls of 64 */
	calls = RDMACHAN_MAX_ASYNC_OPS / RDMACHAN_MAX_RDMA_OPS;
	for (i = 0; i < calls; i++)
		ok &= submit(p->cli, ops, RDMACHAN_MAX_RDMA_OPS) ==
		      RDMACHAN_MAX_RDMA_OPS;
	ktap_result(ok, "RDMACHAN_MAX_ASYNC_OPS operations go out unreaped",
	       "%s", strerror(errno));
	errno = 0;
	ktap_result(submit(p->cli, ops, 1) < 0 && errno == ENOBUFS,
	       "one more fails with ENOBUFS", "%s", strerror(errno));
	n = reap(p->cli, cqes, 10, 0, &pending);
	ktap_result(n > 0 && n <= 10 && pending == (uint32_t)(RDMACHAN_MAX_ASYNC_OPS - n),
	       "a partial reap says how many are pending", "%d, pending %u",
	       n, pending);
	ktap_result(submit(p->cli, ops, 1) == 1,
	       "reaping made room for another call", "%s", strerror(errno));
	n += reap_all(p->cli, cqes + n, RDMACHAN_MAX_ASYNC_OPS + 1 - n);
	ok = n == RDMACHAN_MAX_ASYNC_OPS + 1;
	for (i = 0; ok && i < n; i++)
		ok = !cqes[i].status &&
		     cqes[i].user_data == (uint64_t)(i % RDMACHAN_MAX_RDMA_OPS);
	ktap_result(ok, "every outcome comes back once, in submission order",
	       "%d reaped", n);

	/* leave calls unreaped (and some still running) at close */
	for (i = 0; i < 4; i++)
		submit(p->cli, ops, RDMACHAN_MAX_RDMA_OPS);
	ioc_dereg_mr(p->srv, sr.handle);
	free(cqes);
}

static int run(int argc, char **argv)
{
	const char *dev = getenv("DEV0");
	struct rdmachan_chan_opts o = {};
	unsigned char *cli, *srv;
	struct chan_pair p;

	iwarp = dev && !strncmp(dev, "siw", 3);
	if (argc > 1 && !strcmp(argv[1], "direct"))
		o.poll_mode = RDMACHAN_POLL_MODE_DIRECT;
	ctl = ctl_open();
	cli = map(3 * 4096);
	srv = map(3 * 4096);
	if (!cli || !srv || chan_pair_open(ctl, &p, &o, &o)) {
		ktap_result(0, "a channel pair", "%s", strerror(errno));
		return 1;
	}
	check_basic(&p, cli, srv);
	check_limits(&p, cli, srv);
	chan_pair_close(&p);
	ktap_result(1, "the channel closes with calls unreaped", "-");
	return ktap_failures() ? 1 : 0;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	ktap_header();
	return ktap_plan(run(argc, argv));
}
