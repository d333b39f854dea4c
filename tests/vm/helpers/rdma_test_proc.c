// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdma_test_proc.c: several threads and processes: fetch-adds from many
 * channels at once (fadd), a process killed with registrations and
 * operations in flight (kill), RLIMIT_MEMLOCK of a process without
 * CAP_IPC_LOCK (memlock).
 */
#define _GNU_SOURCE
#include "rdma_test.h"

/* ---- fadd ------------------------------------------------------------ */

struct adder {
	int fd;
	uint32_t rkey;
	uint64_t raddr;
	unsigned int n;
	uint64_t *olds;
	int err;
};

static void *adder_run(void *arg)
{
	struct adder *a = arg;
	struct rdmachan_rdma_op ops[RDMACHAN_MAX_RDMA_OPS];
	struct rdmachan_sge sg[RDMACHAN_MAX_RDMA_OPS];
	uint64_t *res = map(4096);
	struct rdmachan_reg_mr cr;
	unsigned int done = 0, i, k;

	if (ioc_reg_mr(a->fd, res, 4096, RDMACHAN_ACCESS_LOCAL_WRITE, &cr)) {
		a->err = errno;
		return NULL;
	}
	while (done < a->n) {
		k = a->n - done < 16 ? a->n - done : 16;
		for (i = 0; i < k; i++) {
			sg[i] = (struct rdmachan_sge){ .handle = cr.handle,
						       .offset = 8 * i,
						       .length = 8 };
			memset(&ops[i], 0, sizeof(ops[i]));
			ops[i].opcode = RDMACHAN_OP_FETCH_ADD;
			ops[i].sgl = (uintptr_t)&sg[i];
			ops[i].nr_sge = 1;
			ops[i].remote_addr = a->raddr;
			ops[i].rkey = a->rkey;
			ops[i].compare_add = 1;
		}
		if (rdma(a->fd, ops, k, NULL)) {
			a->err = errno;
			break;
		}
		for (i = 0; i < k; i++)
			a->olds[done + i] = ops[i].result;
		done += k;
	}
	ioc_dereg_mr(a->fd, cr.handle);
	return NULL;
}

static int cmp_u64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;

	return a < b ? -1 : a > b;
}

int cmd_fadd(SUBCMD_ARGS)
{
	int t = argc > 1 ? atoi(argv[1]) : 8, n = argc > 2 ? atoi(argv[2]) : 1000;
	struct rdmachan_chan_opts o = { 0 };
	uint64_t *counter = map(4096), *all;
	struct rdmachan_reg_mr sr[16];
	struct adder a[16];
	pthread_t th[16];
	int lfd, port, cli[16], srv[16], i, dup = 0, err = 0;

	if (t > 16)
		t = 16;
	lfd = chan_listen(ctl, SRV_IP, 0, &o, 0, &port);
	all = calloc((size_t)t * n, sizeof(*all));
	for (i = 0; i < t; i++) {
		cli[i] = chan_connect(ctl, SRV_IP, port, CLI_IP, &o, 0);
		srv[i] = chan_accept(lfd, 0);
		if (cli[i] < 0 || srv[i] < 0 ||
		    ioc_reg_mr(srv[i], counter, 4096, RDMACHAN_ACCESS_LOCAL_WRITE |
			RDMACHAN_ACCESS_REMOTE_ATOMIC, &sr[i])) {
			ktap_result(iwarp && errno == EOPNOTSUPP,
			       "atomics: EOPNOTSUPP over iWARP", "channel %d: %s",
			       i, strerror(errno));
			return ktap_failures() ? 1 : 0;
		}
		a[i] = (struct adder){ .fd = cli[i], .rkey = sr[i].remote.rkey,
				       .raddr = sr[i].remote.addr, .n = n,
				       .olds = all + (size_t)i * n };
	}
	for (i = 0; i < t; i++)
		pthread_create(&th[i], NULL, adder_run, &a[i]);
	for (i = 0; i < t; i++) {
		pthread_join(th[i], NULL);
		if (a[i].err)
			err = a[i].err;
	}
	qsort(all, (size_t)t * n, sizeof(*all), cmp_u64);
	for (i = 0; i < t * n; i++)
		if (all[i] != (uint64_t)i)
			dup++;
	ktap_result(!err && counter[0] == (uint64_t)t * n,
	       "concurrent FETCH_ADDs from every channel end on the exact sum",
	       "%s: counter %llu, expected %llu", strerror(err),
	       (unsigned long long)counter[0], (unsigned long long)t * n);
	ktap_result(!err && !dup,
	       "every FETCH_ADD saw a different old value, 0 to the sum - 1",
	       "%d old values out of place", dup);
	for (i = 0; i < t; i++) {
		ioc_dereg_mr(srv[i], sr[i].handle);
		close(cli[i]);
		close(srv[i]);
	}
	close(lfd);
	free(all);
	return ktap_failures() ? 1 : 0;
}

/* ---- kill ------------------------------------------------------------ */

static long vmstat(const char *name)
{
	char line[128];
	size_t n = strlen(name);
	long v = -1;
	FILE *f = fopen("/proc/vmstat", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, name, n) && line[n] == ' ')
			v = atol(line + n + 1);
	fclose(f);
	return v;
}

/*
 * Pages pinned (FOLL_PIN) now, or LONG_MIN without the counters.  They
 * are counted per CPU and folded in batches, so /proc/vmstat alone may be
 * off by a batch per CPU, the difference even negative: fold them first
 * (vm.stat_refresh).
 */
static long pins_held(void)
{
	long acquired, released;
	int fd = open("/proc/sys/vm/stat_refresh", O_WRONLY);

	if (fd >= 0) {
		if (write(fd, "1", 1) < 0)
			perror("vm.stat_refresh");
		close(fd);
	}
	acquired = vmstat("nr_foll_pin_acquired");
	released = vmstat("nr_foll_pin_released");
	if (acquired < 0 || released < 0)
		return LONG_MIN;
	return acquired - released;
}

/* The child: register, then write in a loop until killed. */
static void kill_child(int ready)
{
	unsigned char *cli = map(1 << 20), *srv = map(1 << 20);
	struct rdmachan_reg_mr cr, sr;
	struct rdmachan_rdma_op op;
	struct rdmachan_sge sg;
	struct chan_pair p;
	int i;

	if (pair_open(&p, 0))
		_exit(1);
	memset(cli, 1, 1 << 20);
	memset(srv, 2, 1 << 20);
	for (i = 0; i < 8; i++)
		if (ioc_reg_mr(p.cli, cli + i * 65536, 65536, 0, &cr) ||
		    ioc_reg_mr(p.srv, srv + i * 65536, 65536,
			RDMACHAN_ACCESS_LOCAL_WRITE |
			RDMACHAN_ACCESS_REMOTE_WRITE, &sr))
			_exit(1);
	if (write(ready, "r", 1) != 1)
		_exit(1);
	sg = (struct rdmachan_sge){ .handle = cr.handle, .length = 65536 };
	for (;;) {
		rdma_op_set(&op, RDMACHAN_OP_WRITE, &sg, 1, &sr, 0);
		if (rdma(p.cli, &op, 1, NULL))
			_exit(1);
	}
}

int cmd_kill(SUBCMD_ARGS)
{
	long before = pins_held(), during, after = 0;
	int fds[2], status, i;
	pid_t pid;
	char c;

	if (before == LONG_MIN) {
		ktap_result(0, "pin counters in /proc/vmstat", "none");
		return 1;
	}
	if (pipe(fds))
		return 1;
	pid = fork();
	if (!pid) {
		close(fds[0]);
		kill_child(fds[1]);
	}
	close(fds[1]);
	if (read(fds[0], &c, 1) != 1) {
		ktap_result(0, "a child registers 16 buffers", "it failed");
		return 1;
	}
	usleep(300000);
	during = pins_held();
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	for (i = 0; i < 100; i++) {
		after = pins_held();
		if (after == before)
			break;
		usleep(100000);
	}
	ktap_result(during - before >= 200,
	       "a child holding 16 registrations of 64 KiB pins their pages",
	       "pins %ld before, %ld during", before, during);
	ktap_result(WIFSIGNALED(status) && after <= before,
	       "killed while writing, it leaves no page pinned",
	       "pins %ld before, %ld after", before, after);
	return ktap_failures() ? 1 : 0;
}

/* ---- memlock --------------------------------------------------------- */

/*
 * Pinned pages are charged to RLIMIT_MEMLOCK: a process without
 * CAP_IPC_LOCK (here: root's channels, handed to a child that became
 * "nobody") registers up to its limit and gets ENOMEM past it; a
 * deregistration gives the room back.
 */
static int memlock_child(struct chan_pair *p, char *buf)
{
	struct rlimit rl = { .rlim_cur = 256 << 10, .rlim_max = 256 << 10 };
	struct rdmachan_reg_mr a, b, c;
	int ret;

	if (setrlimit(RLIMIT_MEMLOCK, &rl) || setgid(65534) || setuid(65534)) {
		ktap_result(0, "the child drops to nobody with a 256 KiB RLIMIT_MEMLOCK",
		       "%s", strerror(errno));
		return 1;
	}
	ret = ioc_reg_mr(p->cli, buf, 192 << 10, RDMACHAN_ACCESS_LOCAL_WRITE, &a);
	ktap_result(!ret, "without CAP_IPC_LOCK, 192 KiB of a 256 KiB limit registers",
	       "%s", strerror(errno));
	ret = ioc_reg_mr(p->cli, buf + (192 << 10), 128 << 10,
		  RDMACHAN_ACCESS_LOCAL_WRITE, &b);
	ktap_result(expect_errno(ret, ENOMEM),
	       "128 KiB more, over RLIMIT_MEMLOCK, fails with ENOMEM",
	       "ret %d %s", ret, strerror(errno));
	ret = ioc_reg_mr(p->cli, buf + (192 << 10), 64 << 10,
		  RDMACHAN_ACCESS_LOCAL_WRITE, &c);
	ktap_result(!ret, "64 KiB more, up to the limit exactly, registers", "%s",
	       strerror(errno));
	ret = ioc_dereg_mr(p->cli, a.handle);
	if (!ret)
		ret = ioc_reg_mr(p->cli, buf, 128 << 10, RDMACHAN_ACCESS_LOCAL_WRITE,
			  &b);
	ktap_result(!ret, "a deregistration gives its pages back to the limit", "%s",
	       strerror(errno));
	return ktap_failures() ? 1 : 0;
}

int cmd_memlock(SUBCMD_ARGS)
{
	char *buf = map(1 << 20);
	struct chan_pair p;
	int status;
	pid_t pid;

	if (pair_open(&p, 0)) {
		ktap_result(0, "channel pair", "%s", strerror(errno));
		return 1;
	}
	memset(buf, 1, 1 << 20);
	pid = fork();
	if (!pid)
		exit(memlock_child(&p, buf));
	waitpid(pid, &status, 0);
	chan_pair_close(&p);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
