// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdma_test: one-sided RDMA checks, both ends in one process, so every
 * byte can be checked where it landed.
 *
 * The listener binds 192.0.2.1, the client connects from 192.0.2.2.
 * Each subcommand reports its checks in KTAP (ktap.h).  The commands
 * are in a file per concern (rdma_test_args.c, _data.c, _proc.c); the
 * table at the end of this file names them, and subcmd.c runs the one asked
 * for.
 *
 *   rdma_test args [direct]  bad arguments of REG_MR, DEREG_MR and RDMA;
 *                            a call refused in part ran nothing (done 0)
 *   rdma_test data [direct]  WRITE and READ integrity, 1 B to 4 MiB,
 *                            unaligned, multi-SGE; WRITE_WITH_IMM; fence;
 *                            atomics; unsignalled batches
 *   rdma_test access         writes without rights, past the end, with a
 *                            stale rkey: refused, memory untouched
 *   rdma_test fadd T N       T channels fetch-add N times each at once
 *   rdma_test kill           a process killed with registrations and
 *                            operations in flight leaves no pinned page
 *   rdma_test memlock        registrations are charged to RLIMIT_MEMLOCK
 *                            of a process without CAP_IPC_LOCK
 */
#define _GNU_SOURCE
#include "rdma_test.h"

int iwarp;

/* the commands args and data: "direct" after them busy-polls both ends */
unsigned int poll_mode_arg(int argc, char **argv)
{
	return argc > 1 && !strcmp(argv[1], "direct") ?
	       RDMACHAN_POLL_MODE_DIRECT : 0;
}

/* both ends in @poll_mode */
int pair_open(struct chan_pair *p, unsigned int poll_mode)
{
	struct rdmachan_chan_opts o = { .poll_mode = poll_mode };

	return chan_pair_open(ctl, p, &o, &o);
}

int rdma(int fd, struct rdmachan_rdma_op *ops, uint32_t count,
	 uint32_t *done)
{
	struct rdmachan_rdma r = {
		.size = sizeof(r), .ops = (uintptr_t)ops, .count = count,
	};
	int ret = ioctl(fd, RDMACHAN_IOC_RDMA, &r);

	if (done)
		*done = r.done;
	return ret;
}

/*
 * The client's WRITEs are in the server's memory once the server has
 * received a message the client sent after them.  On InfiniBand and RoCE
 * their completion says so already; iWARP completes a WRITE when the
 * transport takes it.
 */
int peer_sync(struct chan_pair *p)
{
	char c = 's';

	if (write(p->cli, &c, 1) != 1 || read(p->srv, &c, 1) != 1) {
		ktap_diag("sync message: %s", strerror(errno));
		return -1;
	}
	return 0;
}

void fill(unsigned char *b, size_t n, uint32_t seed)
{
	size_t i;

	for (i = 0; i < n; i++)
		b[i] = (unsigned char)(seed * 131 + i * 7 + (i >> 9));
}

void *map(size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		perror("mmap");
		exit(1);
	}
	return p;
}

int expect_errno(int ret, int err)
{
	return ret < 0 && errno == err;
}


/*
 * A call refused at its checks ran nothing: it fails with @err, done is
 * 0, op @bad has its own errno, every other op -ECANCELED, each one's
 * wc_status WR_FLUSH_ERR; @remote is untouched (0x33).  @n ops of
 * @ops; @bad -1: the call as a whole was refused (every op -ECANCELED).
 */
void refused_case(const char *what, int fd, struct rdmachan_rdma_op *ops,
		  unsigned int n, int bad, int err, int bad_status,
		  const unsigned char *remote, size_t rlen)
{
	char detail[256];
	uint32_t done = STATUS_UNSET;
	unsigned int i;
	size_t k;
	int ret, e, ok, untouched = 1;

	for (i = 0; i < n; i++) {
		ops[i].status = STATUS_UNSET;
		ops[i].wc_status = STATUS_UNSET;
	}
	ret = rdma(fd, ops, n, &done);
	e = errno;
	ok = ret < 0 && (!err || e == err) && done == 0;
	snprintf(detail, sizeof(detail), "ret %d (%s) done %u; status/wc:", ret,
		 strerror(e), done);
	for (i = 0; i < n; i++) {
		int want = (int)i == bad ? bad_status : -ECANCELED;

		if (ops[i].status != want || ops[i].wc_status != WC_WR_FLUSH_ERR)
			ok = 0;
		snprintf(detail + strlen(detail), sizeof(detail) - strlen(detail),
			 " %d/%u", ops[i].status, ops[i].wc_status);
	}
	for (k = 0; remote && k < rlen; k++)
		if (remote[k] != 0x33)
			untouched = 0;
	ktap_result(ok && untouched, what, "%s; remote untouched %d", detail, untouched);
}


/*
 * The largest registration the device takes: its fast-registration page
 * list (rxe 2 MiB, siw 1 MiB); found by trying.
 */
uint64_t max_reg(int fd, void *buf)
{
	struct rdmachan_reg_mr r;
	uint64_t len;

	for (len = DATA_MAX; len >= 4096; len /= 2)
		if (!ioc_reg_mr(fd, buf, len, RDMACHAN_ACCESS_LOCAL_WRITE, &r)) {
			ioc_dereg_mr(fd, r.handle);
			return len;
		}
	return 0;
}

static void setup(void)
{
	const char *dev = getenv("DEV0");

	iwarp = dev && !strncmp(dev, "siw", 3);
}

static const struct subcmd cmds[] = {
	{ "args", cmd_args, "[direct]",
	  "bad arguments of REG_MR, DEREG_MR and RDMA: refused, nothing ran", 0 },
	{ "data", cmd_data, "[direct]",
	  "WRITE and READ integrity, WRITE_WITH_IMM, fence, atomics", 0 },
	{ "access", cmd_access, NULL,
	  "writes without rights, past the end, stale rkey: refused", 0 },
	{ "fadd", cmd_fadd, "[T] [N]",
	  "T (8) channels fetch-add N (1000) times each at once", 0 },
	{ "kill", cmd_kill, NULL,
	  "a process killed with operations in flight leaves no pinned page", 0 },
	{ "memlock", cmd_memlock, NULL,
	  "registrations are charged to RLIMIT_MEMLOCK", 0 },
	{ }
};

int main(int argc, char **argv)
{
	return subcmd_main(argc, argv, cmds, setup);
}
