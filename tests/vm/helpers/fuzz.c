// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz: random and boundary-value ioctls and syscalls against rdmachan.
 *
 * Usage: fuzz [--seed N] [--calls N] [--seconds S] [--procs P]
 *             [--alarm-ms MS] [--hang-secs S] [--avoid-known] [--trace]
 *             [--blk-dev PATH]...
 *
 * The first line printed is the seed ("fuzz: seed N ..."): run again with
 * --seed N (and the same --procs) to replay the same sequence of calls in
 * each worker (the interleaving of the workers is up to the scheduler;
 * --procs 1 replays exactly).
 *
 * The parent opens /dev/rdmachan, a listener on 192.0.2.1 and connected
 * channel pairs (192.0.2.2 -> 192.0.2.1, accepted), then forks P workers
 * that share those descriptors and make descriptors of their own.  Each
 * worker draws calls from a weighted table: every ioctl of the ABI with a
 * structure that starts valid (addresses of live listeners, handles and
 * remote keys of live registrations, lengths within the channel's
 * limits) and is then mutated field by field with boundary values
 * (0, 1, -1, 2^31, 2^32 - 1, 2^64 - 1, page sizes and their neighbours,
 * the structure's size +- 1) or replaced by random bytes; pointers in it
 * point to valid buffers, NULL, an unmapped page, a read-only page, a
 * PROT_NONE page, the end of a buffer before a guard page, kernel and
 * non-canonical addresses; the argument itself lies in any of those.
 * Random commands of the driver's ioctl type (any direction, number and
 * size), read, write and writev with random sizes, poll, epoll and select,
 * fcntl, lseek, mmap, close, and new descriptors of every kind.
 *
 * The block channel's ioctls (rdmachan_blk; ENOTTY while it is not
 * loaded) the same way: EXPORT of a --blk-dev device (a real one, free
 * or exported already), of a mapped /dev/rcblkN, or of a bogus path (a
 * character device, a regular file, a directory, nonexistent, empty,
 * relative, 255 characters, unterminated), names from a small set so
 * that MAP and UNEXPORT meet them, or bad ones, allow lists of valid
 * networks and of bad families, prefixes and reserved bytes, nr_allow
 * past 16; MAP of those names on the local server (SRV_IP port
 * BLK_PORT or 0, from CLI_IP) with random queues and depths, other
 * addresses and ports now and then; UNMAP (forced or not) of indexes of
 * mappings the workers made, LIST names, or random ones; UNEXPORT (forced
 * or not); LIST with every what, count, entry_size and entries pointer;
 * and preads and pwrites (O_DIRECT or not) on the mapped disks while
 * the other workers unmap and unexport them.  At most BLK_MAX_LIVE
 * exports and BLK_MAX_LIVE mappings exist at once: a call that could
 * make one more (counted with LIST under a lock the workers share) has
 * its size spoilt or is left out.  CONNECT now and then goes to the
 * block server's listener, so that SEND feeds its OPEN parser.  At the
 * end the parent unmaps and unexports (forced) whatever is left, so that
 * rdmachan_blk can unload (the third KTAP result).
 *
 * The network channel's ioctls (rdmachan_net: NET_ADD, NET_DEL,
 * NET_LIST), reads of its interfaces' sysfs files and their deletion by
 * rtnetlink and ip link del are made by fuzz_net.c (its top comment says
 * how); the parent deletes every interface left at the end (the fifth
 * KTAP result).
 *
 * A call that may wait by design (a blocking descriptor without DONTWAIT,
 * BENCH, a synchronous RDMA call, connect, close) runs under a one-shot
 * ITIMER_REAL of --alarm-ms (jittered), whose SIGALRM interrupts it
 * (BLK_MAP mostly gets 20 s: its OPEN_RSP waits killably, the connection
 * before it interruptibly).
 * The parent watches every worker: one that stays inside one call for
 * --hang-secs is a hang (a call that should not wait did, or a wait was
 * not interruptible): the parent prints that call, the worker's last
 * calls and its kernel stack, kills the workers and exits 3.  A worker
 * killed by a signal (the kernel wrote where it must not) fails the run
 * too (exit 2).  Nothing is printed per call (unless --trace, to replay a
 * seed): at the end one summary line and, per call kind, the count and
 * the histogram of results by errno.
 *
 * --avoid-known skips argument shapes that crash the module as it stands
 * (see KNOWN in fuzz_chan.c), to fuzz past them until the fix lands.
 *
 * Exit status: 0 clean, 1 usage or setup error, a stray descriptor, a
 * block mapping or export or a network interface that could not be
 * removed, or the fuzzer's
 * own counters overwritten (by the kernel: no call may point at them,
 * see ptr_own()), 2 a worker died, 3 hang.
 *
 * This file has the options, the workers and main(); the calls are
 * fuzz_chan.c's, fuzz_blk.c's and fuzz_net.c's, what they share
 * fuzz_core.c's, the report fuzz_report.c's (fuzz.h).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/select.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/rdmachan.h>
#include <linux/rdmachan_blk.h>
#include <linux/rdmachan_net.h>

#include "chanlib.h"
#include "fuzz.h"

/* relative frequency of each call */
static const unsigned int op_weight[NOPS] = {
	[OP_VERSION] = 3, [OP_DEV_LIST] = 3, [OP_DEV_QUERY] = 4,
	[OP_CONNECT] = 3, [OP_LISTEN] = 4, [OP_ACCEPT] = 4,
	[OP_SEND] = 10, [OP_RECV] = 10, [OP_SENDMMSG] = 8, [OP_RECVMMSG] = 8,
	[OP_CHAN_INFO] = 4, [OP_BENCH] = 3, [OP_REG_MR] = 8,
	[OP_DEREG_MR] = 5, [OP_RDMA] = 10, [OP_RDMA_REAP] = 5,
	[OP_RANDCMD] = 8, [OP_READ] = 8, [OP_WRITE] = 8, [OP_WRITEV] = 3,
	[OP_POLL] = 4, [OP_EPOLL_CTL] = 3, [OP_EPOLL_WAIT] = 3,
	[OP_SELECT] = 2, [OP_FCNTL] = 2, [OP_MISC] = 2, [OP_CLOSE] = 2,
	[OP_OPEN_CTL] = 1, [OP_NEW_LISTENER] = 1, [OP_NEW_PAIR] = 2,
	[OP_REMAP] = 1, [OP_BLK_EXPORT] = 3, [OP_BLK_UNEXPORT] = 2,
	[OP_BLK_MAP] = 4, [OP_BLK_UNMAP] = 2, [OP_BLK_LIST] = 2,
	[OP_BLK_OPEN] = 0,	/* made by blk-pread/pwrite */
	[OP_BLK_IO] = 3,
	[OP_NET_ADD] = 4, [OP_NET_DEL] = 2, [OP_NET_LIST] = 2,
	[OP_NET_SYSFS] = 3, [OP_NET_LINK] = 2,
	[OP_DGRAM_OPEN] = 2, [OP_DGRAM_RESOLVE] = 2, [OP_DGRAM_XFER] = 6,
	[OP_DGRAM_INFO] = 1, [OP_DGRAM_JOIN] = 2, [OP_DGRAM_BENCH] = 1,
};

/* ---- options --------------------------------------------------------- */

uint64_t opt_seed;
static uint64_t opt_calls;
static unsigned int opt_seconds;
unsigned int opt_procs = 1;
unsigned int opt_alarm_ms = 200;
static unsigned int opt_hang_secs = 60;
int opt_avoid_known;
int opt_trace;
const char *opt_blk_devs[MAX_BLK_DEVS];	/* --blk-dev */
int opt_nblk_devs;

/* ---- the worker ------------------------------------------------------ */

/*
 * maintain: now and then close a channel that failed, and keep a few
 * live pairs, so that most channel calls reach a working queue pair
 */
static void maintain(void)
{
	int live = 0;

	for (int i = 0; i < NOBJ; i++) {
		if (pool[i].type != T_CHAN)
			continue;
		if (pool[i].dead && chance(30)) {
			close_slot(i);
			continue;
		}
		live += !pool[i].dead;
	}
	if (live < 4)
		new_pair();
}

static void one_call(void)
{
	static unsigned int total;
	unsigned int x;
	int op;

	if (chance(3))
		maintain();
	dirty = chance(35);

	if (!total)
		for (op = 0; op < NOPS; op++)
			total += op_weight[op];
	x = rnd(total);
	for (op = 0; op < NOPS - 1 && x >= op_weight[op]; op++)
		x -= op_weight[op];
	W->gen_op = op;

	switch (op) {
	case OP_VERSION:
		fz_version();
		break;
	case OP_DEV_LIST:
		fz_dev_list();
		break;
	case OP_DEV_QUERY:
		fz_dev_query();
		break;
	case OP_CONNECT:
		fz_connect();
		break;
	case OP_LISTEN:
		fz_listen();
		break;
	case OP_ACCEPT:
		fz_accept();
		break;
	case OP_SEND:
	case OP_RECV:
	case OP_SENDMMSG:
	case OP_RECVMMSG:
		fz_mmsg(op);
		break;
	case OP_CHAN_INFO:
		fz_chan_info();
		break;
	case OP_BENCH:
		fz_bench();
		break;
	case OP_REG_MR:
		fz_reg_mr();
		break;
	case OP_DEREG_MR:
		fz_dereg_mr();
		break;
	case OP_RDMA:
		fz_rdma();
		break;
	case OP_RDMA_REAP:
		fz_reap();
		break;
	case OP_RANDCMD:
		fz_randcmd();
		break;
	case OP_READ:
	case OP_WRITE:
		fz_rw(op);
		break;
	case OP_WRITEV:
		fz_writev();
		break;
	case OP_POLL:
		fz_poll();
		break;
	case OP_EPOLL_CTL:
		fz_epoll_ctl();
		break;
	case OP_EPOLL_WAIT:
		fz_epoll_wait();
		break;
	case OP_SELECT:
		fz_select();
		break;
	case OP_FCNTL:
		fz_fcntl();
		break;
	case OP_MISC:
		fz_misc();
		break;
	case OP_CLOSE:
		fz_close();
		break;
	case OP_OPEN_CTL:
		if (count_type(T_CTL) < 4)
			fz_open_ctl();
		break;
	case OP_NEW_LISTENER:
		new_listener(chance(70));
		break;
	case OP_NEW_PAIR:
		new_pair();
		break;
	case OP_REMAP:
		fz_remap();
		break;
	case OP_BLK_EXPORT:
		fz_blk_export();
		break;
	case OP_BLK_UNEXPORT:
		fz_blk_unexport();
		break;
	case OP_BLK_MAP:
		fz_blk_map();
		break;
	case OP_BLK_UNMAP:
		fz_blk_unmap();
		break;
	case OP_BLK_LIST:
		fz_blk_list();
		break;
	case OP_BLK_OPEN:
	case OP_BLK_IO:
		fz_blk_io();
		break;
	case OP_NET_ADD:
	case OP_NET_DEL:
	case OP_NET_LIST:
	case OP_NET_SYSFS:
	case OP_NET_LINK:
		fz_net(op);
		break;
	case OP_DGRAM_OPEN:
		fz_dgram_open();
		break;
	case OP_DGRAM_RESOLVE:
		fz_dgram_resolve();
		break;
	case OP_DGRAM_XFER:
		fz_dgram_xfer();
		break;
	case OP_DGRAM_INFO:
		fz_dgram_info();
		break;
	case OP_DGRAM_JOIN:
		fz_dgram_join();
		break;
	case OP_DGRAM_BENCH:
		fz_dgram_bench();
		break;
	}
	W->gen_op = -1;
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000ULL + ts.tv_nsec / 1000000;
}

/*
 * stray_scan: close descriptors that no call returned to us (one the
 * kernel installed while the call failed would be a bug): counted.
 */
static void stray_scan(void)
{
	int fds[1024], n = 0;
	struct dirent *d;
	DIR *dir = opendir("/proc/self/fd");

	if (!dir)
		return;
	while ((d = readdir(dir)) && n < 1024) {
		int fd = atoi(d->d_name);

		if (fd > 2 && fd != dirfd(dir) && fd != epfd && slot_of_fd(fd) < 0)
			fds[n++] = fd;
	}
	closedir(dir);
	for (int i = 0; i < n; i++) {
		W->stray_fds++;
		close(fds[i]);
	}
}

/*
 * on_fault: a worker's SIGSEGV or SIGBUS: note where, what it was doing
 * and its mappings for the parent's report, then die of it
 */
static void on_fault(int sig, siginfo_t *si, void *uc)
{
	int fd, n = 0, r;

	(void)uc;
	W->fault_sig = sig;
	W->fault_addr = (uintptr_t)si->si_addr;
	fd = open("/proc/self/maps", O_RDONLY);
	while (fd >= 0 && n < (int)sizeof(W->maps) - 1 &&
	       (r = read(fd, W->maps + n, sizeof(W->maps) - 1 - n)) > 0)
		n += r;
	W->maps[n] = 0;
	if (fd >= 0)
		close(fd);
	/* SA_RESETHAND: returning faults again, fatally */
}

static void worker(int id, uint64_t calls, uint64_t deadline)
{
	struct sigaction sa;

	worker_id = id;
	W = &all_ws[id];
	W->pid = getpid();
	rng_state = opt_seed;
	for (int i = 0; i <= id; i++)
		rng_state = splitmix64(&rng_state) | 1;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;	/* no SA_RESTART: waits end with EINTR */
	sigaction(SIGALRM, &sa, NULL);
	sa.sa_handler = NULL;
	sa.sa_sigaction = on_fault;
	sa.sa_flags = SA_SIGINFO | SA_RESETHAND;
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	W->gen_op = -1;
	setup_memory();
	epfd = epoll_create1(EPOLL_CLOEXEC);
	/* our own descriptors besides the shared ones */
	fz_open_ctl();
	new_listener(1);
	new_pair();

	while (!calls || W->calls < calls) {
		if (deadline && (W->calls & 31) == 0 && now_ms() >= deadline)
			break;
		one_call();
		if ((W->calls & 8191) == 8191)
			stray_scan();
	}
	/* close in random order, channels with traffic still in flight */
	for (int n = NOBJ; n > 0; n--) {
		int i = pick_slot(T_NONE);

		if (i < 0)
			break;
		close_slot(i);
	}
	stray_scan();
	W->finished = 1;
	_exit(0);
}

static void usage(void)
{
	fprintf(stderr,
		"usage: fuzz [--seed N] [--calls N] [--seconds S] [--procs P]\n"
		"            [--alarm-ms MS] [--hang-secs S] [--avoid-known] [--trace]\n"
		"            [--blk-dev PATH]...\n");
	exit(1);
}

int main(int argc, char **argv)
{
	uint64_t start, deadline = 0, per_worker = 0, last_calls[MAX_PROCS] = { 0 };
	uint64_t last_change[MAX_PROCS];
	pid_t pids[MAX_PROCS];
	int seeded = 0, rc = 0, alive;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--avoid-known")) {
			opt_avoid_known = 1;
			continue;
		}
		if (!strcmp(a, "--trace")) {
			opt_trace = 1;
			continue;
		}
		if (!v)
			usage();
		i++;
		if (!strcmp(a, "--seed")) {
			opt_seed = strtoull(v, NULL, 0);
			seeded = 1;
		} else if (!strcmp(a, "--calls")) {
			opt_calls = strtoull(v, NULL, 0);
		} else if (!strcmp(a, "--seconds")) {
			opt_seconds = strtoul(v, NULL, 0);
		} else if (!strcmp(a, "--procs")) {
			opt_procs = strtoul(v, NULL, 0);
		} else if (!strcmp(a, "--alarm-ms")) {
			opt_alarm_ms = strtoul(v, NULL, 0);
		} else if (!strcmp(a, "--hang-secs")) {
			opt_hang_secs = strtoul(v, NULL, 0);
		} else if (!strcmp(a, "--blk-dev") && opt_nblk_devs < MAX_BLK_DEVS) {
			opt_blk_devs[opt_nblk_devs++] = v;
		} else {
			usage();
		}
	}
	if (!opt_procs || opt_procs > MAX_PROCS || opt_alarm_ms < 4 || !opt_hang_secs)
		usage();
	if (!opt_calls && !opt_seconds)
		opt_calls = 10000;
	/*
	 * Descriptors we inherited (the test's results port) are not ours;
	 * stdin is a target of calls on a descriptor that is not ours: not
	 * the console.
	 */
	for (int fd = 3; fd < 1024; fd++)
		close(fd);
	{
		int fd = open("/dev/null", O_RDWR);

		if (fd > 0) {
			dup2(fd, 0);
			close(fd);
		}
	}
	if (!seeded) {
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		opt_seed = ts.tv_sec * 1000000007ULL ^ ts.tv_nsec ^ ((uint64_t)getpid() << 32);
		opt_seed %= 1000000000000ULL;
	}
	printf("KTAP version 1\n");
	printf("# fuzz: seed %" PRIu64 " calls %" PRIu64 " seconds %u procs %u%s, %d block devices\n",
	       opt_seed, opt_calls, opt_seconds, opt_procs,
	       opt_avoid_known ? " avoid-known" : "", opt_nblk_devs);
	fflush(stdout);

	blk_sh = mmap(NULL, sizeof(*blk_sh), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (blk_sh == MAP_FAILED) {
		perror("fuzz: mmap");
		return 1;
	}
	for (int k = 0; k < BLK_RING; k++)
		blk_sh->idx[k] = -1;
	if (net_setup())
		return 1;
	/* a regular file, one of EXPORT's paths that are no block device */
	{
		int fd = open("/tmp/fzb-regular", O_WRONLY | O_CREAT | O_CLOEXEC, 0600);

		if (fd >= 0) {
			if (ftruncate(fd, 1 << 20))
				perror("fuzz: ftruncate");
			close(fd);
		}
	}

	all_ws = mmap(NULL, sizeof(*all_ws) * opt_procs, PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (all_ws == MAP_FAILED) {
		perror("fuzz: mmap");
		return 1;
	}
	/* the parent's calls (the shared descriptors) count as worker 0's */
	W = &all_ws[0];
	rng_state = splitmix64(&(uint64_t){ opt_seed ^ 0x5eed }) | 1;
	for (int i = 0; i < NOBJ; i++)
		obj_clear(i);
	{
		int fd = open(CTL_PATH, O_RDWR);

		if (fd < 0) {
			perror("fuzz: open " CTL_PATH);
			return 1;
		}
		adopt(fd, T_CTL, 0);
	}
	if (new_listener(1) < 0 || new_pair() < 0) {
		fprintf(stderr, "fuzz: cannot set up the shared channel: %s\n",
			strerror(errno));
		return 1;
	}
	new_pair();
	for (int i = 0; i < NOBJ; i++)
		if (pool[i].type != T_NONE)
			pool[i].shared = 1;

	if (opt_calls)
		per_worker = (opt_calls + opt_procs - 1) / opt_procs;
	start = now_ms();
	if (opt_seconds)
		deadline = start + opt_seconds * 1000ULL;
	for (unsigned int i = 0; i < opt_procs; i++) {
		pids[i] = fork();
		if (pids[i] < 0) {
			perror("fuzz: fork");
			return 1;
		}
		if (!pids[i])
			worker(i, per_worker, deadline);
		last_change[i] = start;
	}
	/* the workers hold the shared descriptors now */
	for (int i = 0; i < NOBJ; i++)
		if (pool[i].type != T_NONE)
			close(pool[i].fd);

	alive = opt_procs;
	while (alive) {
		int status;
		pid_t p = waitpid(-1, &status, WNOHANG);
		uint64_t now = now_ms();

		if (p > 0) {
			for (unsigned int i = 0; i < opt_procs; i++) {
				if (pids[i] != p)
					continue;
				pids[i] = 0;
				alive--;
				if (WIFEXITED(status) && !WEXITSTATUS(status) &&
				    all_ws[i].finished)
					break;
				dump_worker(i, WIFSIGNALED(status) ?
					    strsignal(WTERMSIG(status)) : "exited early");
				if (!rc)
					rc = 2;
			}
			continue;
		}
		for (unsigned int i = 0; i < opt_procs; i++) {
			if (!pids[i])
				continue;
			if (all_ws[i].calls != last_calls[i] || !all_ws[i].in_call) {
				last_calls[i] = all_ws[i].calls;
				last_change[i] = now;
				continue;
			}
			if (now - last_change[i] < opt_hang_secs * 1000ULL ||
			    all_ws[i].hung_report)
				continue;
			all_ws[i].hung_report = 1;
			printf("# fuzz: HANG: worker %d has been inside one call for %u s\n",
			       i, opt_hang_secs);
			dump_worker(i, "hung");
			/* does a signal end it now (was the alarm lost)? */
			kill(pids[i], SIGALRM);
			for (int k = 0; k < 30 && all_ws[i].in_call &&
			     all_ws[i].calls == last_calls[i]; k++)
				usleep(100000);
			printf("# fuzz: worker %d: another SIGALRM %s\n", i,
			       all_ws[i].calls != last_calls[i] ?
			       "ended the call: the first one was lost" :
			       "did not end the call within 3 s");
			/* what the others did meanwhile, for a race */
			for (unsigned int j = 0; j < opt_procs; j++)
				if (j != i && pids[j])
					dump_worker(j, "was running");
			rc = 3;
			for (unsigned int j = 0; j < opt_procs; j++)
				if (pids[j])
					kill(pids[j], SIGKILL);
		}
		if (rc == 3) {
			/* the killed ones may never go (stuck in the kernel) */
			return report((now_ms() - start) / 1000.0, rc);
		}
		usleep(200000);
	}
	return report((now_ms() - start) / 1000.0, rc);
}
