// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz: random and boundary-value ioctls and syscalls against rdmachan.
 *
 * Usage: fuzz [--seed N] [--calls N] [--seconds S] [--procs P]
 *             [--alarm-ms MS] [--hang-secs S] [--avoid-known] [--trace]
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
 * A call that may wait by design (a blocking descriptor without DONTWAIT,
 * BENCH, a synchronous RDMA call, connect, close) runs under a one-shot
 * ITIMER_REAL of --alarm-ms (jittered), whose SIGALRM interrupts it.
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
 * (see KNOWN below), to fuzz past them until the fix lands.
 *
 * Exit status: 0 clean, 1 usage or setup error, 2 a worker died, 3 hang.
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

#include "chanlib.h"

#define CTL_PATH	"/dev/" RDMACHAN_DEVICE_NAME
#define SRV_IP		"192.0.2.1"
#define CLI_IP		"192.0.2.2"
#define PAGE		4096UL
#define SCRATCH_LEN	(1UL << 20)	/* buffers the kernel may read and write */
#define RING		32		/* calls remembered per worker */
#define REC_ARG		96		/* bytes of each call's argument kept */
#define NOBJ		24		/* descriptors per worker */
#define MAX_CHANS	8		/* live channels a worker may hold */
#define MAX_LISTENERS	4
#define MAXMR		16		/* registrations remembered per channel */
#define NERR		134		/* errno 1..133 counted by name */
#define MAX_PROCS	64
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define max(a, b)	((a) > (b) ? (a) : (b))

/* Pool channels ask for little: the VM has 1 GiB and many channels */
#define POOL_DEPTH	16
#define POOL_MSG	4096

/* ---- calls ----------------------------------------------------------- */

enum op {
	OP_VERSION, OP_DEV_LIST, OP_DEV_QUERY, OP_CONNECT, OP_LISTEN,
	OP_ACCEPT, OP_SEND, OP_RECV, OP_SENDMMSG, OP_RECVMMSG, OP_CHAN_INFO,
	OP_BENCH, OP_REG_MR, OP_DEREG_MR, OP_RDMA, OP_RDMA_REAP, OP_RANDCMD,
	OP_READ, OP_WRITE, OP_WRITEV, OP_POLL, OP_EPOLL_CTL, OP_EPOLL_WAIT,
	OP_SELECT, OP_FCNTL, OP_MISC, OP_CLOSE, OP_OPEN_CTL, OP_NEW_LISTENER,
	OP_NEW_PAIR, OP_REMAP,
	NOPS
};

static const char *const op_names[NOPS] = {
	"VERSION", "DEV_LIST", "DEV_QUERY", "CONNECT", "LISTEN", "ACCEPT",
	"SEND", "RECV", "SENDMMSG", "RECVMMSG", "CHAN_INFO", "BENCH",
	"REG_MR", "DEREG_MR", "RDMA", "RDMA_REAP", "random-ioctl", "read",
	"write", "writev", "poll", "epoll_ctl", "epoll_wait", "select",
	"fcntl", "lseek/mmap/fstat", "close", "open", "new-listener",
	"new-pair", "remap",
};

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
	[OP_REMAP] = 1,
};

/* one call as the worker made it, kept in shared memory for the report */
struct rec {
	uint64_t seq;
	uint16_t op;
	int16_t slot;
	int32_t fd;
	uint64_t cmd;
	uint64_t argp;
	uint32_t arglen;
	int32_t ret;
	int32_t err;
	uint16_t done;
	uint16_t nonblock;	/* the descriptor was O_NONBLOCK (pool's view) */
	uint8_t arg[REC_ARG];
};

/* what a worker shares with the parent */
struct wshared {
	volatile pid_t pid;
	volatile uint64_t calls;
	volatile uint32_t in_call;	/* 1 while inside a recorded call */
	volatile uint32_t finished;
	volatile uint32_t hung_report;	/* parent saw this one hang */
	uint64_t stray_fds;		/* descriptors nobody returned */
	volatile int32_t gen_op;	/* the call being built, or -1 */
	volatile int32_t fault_sig;	/* a fatal signal the worker caught */
	volatile uint64_t fault_addr;	/* its si_addr */
	char maps[8192];		/* /proc/self/maps at the fault */
	struct rec ring[RING];
	uint64_t hist[NOPS][NERR + 2];	/* [0] success, [e] errno e, [NERR+1] other */
};

/* ---- options --------------------------------------------------------- */

static uint64_t opt_seed;
static uint64_t opt_calls;
static unsigned int opt_seconds;
static unsigned int opt_procs = 1;
static unsigned int opt_alarm_ms = 200;
static unsigned int opt_hang_secs = 60;
static int opt_avoid_known;
static int opt_trace;

/* ---- random numbers (xorshift64*, seeded by splitmix64) -------------- */

static uint64_t rng_state;

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint64_t rnd64(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dULL;
}

/* rnd: uniform in [0, n), n > 0 */
static uint32_t rnd(uint32_t n)
{
	return (uint32_t)(((rnd64() >> 32) * (uint64_t)n) >> 32);
}

/* chance: true with probability pct / 100 */
static int chance(unsigned int pct)
{
	return rnd(100) < pct;
}

static const uint64_t boundary[] = {
	0, 1, 2, 3, 4, 7, 8, 15, 16, 31, 32, 63, 64, 65, 127, 128, 255, 256,
	511, 512, 1023, 1024, 1025, 2047, 2048, 4095, 4096, 4097, 8191, 8192,
	16383, 16384, 16385, 65535, 65536, 65537, 1048575, 1048576, 1048577,
	(64U << 20) - 1, 64U << 20, (64U << 20) + 1,
	0x7fffffffULL, 0x80000000ULL, 0x80000001ULL, 0xfffffffeULL,
	0xffffffffULL, 0x100000000ULL, 0x100000001ULL, 0x1000000000ULL,
	0x7fffffffffffffffULL, 0x8000000000000000ULL,
	0xfffffffffffff000ULL, 0xfffffffffffff001ULL, 0xffffffffffffefffULL,
	0xfffffffffffffffeULL, 0xffffffffffffffffULL,
};

/* bval: a boundary value, or a random one of a random width */
static uint64_t bval(void)
{
	switch (rnd(8)) {
	case 0:
		return rnd64();
	case 1:
		return rnd64() & 0xffffffff;
	case 2:
		return rnd(4096);
	case 3:
		return boundary[rnd(ARRAY_SIZE(boundary))] +
			(int)rnd(3) - 1;
	default:
		return boundary[rnd(ARRAY_SIZE(boundary))];
	}
}

/* ---- memory the calls point at --------------------------------------- */

static uint8_t *scratch;	/* SCRATCH_LEN bytes, then a PROT_NONE page */
static uint8_t *ro_rw, *ro_view;	/* one page: writable view, read-only view */
static uint8_t *none_page;	/* PROT_NONE */
static uint8_t *unmapped;	/* a page nobody maps */
static uint8_t *argpage;	/* one page for arguments, then PROT_NONE */
static uint8_t *volatile_map;	/* SCRATCH-like, unmapped and remapped */
#define VOLATILE_LEN	(64 * PAGE)

static const uint64_t kernel_addrs[] = {
	0xffff888000000000ULL, 0xffffffff81000000ULL, 0xffffc90000000000ULL,
	0xffffea0000000000ULL, 0xfffffffffffff000ULL, 0x8000000000000000ULL,
	0x0000800000000000ULL, 0x00007ffffffff000ULL,
};

static void *map_or_die(size_t len, int prot)
{
	void *p = mmap(NULL, len, prot, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		perror("fuzz: mmap");
		exit(1);
	}
	return p;
}

/* setup_memory: per process, after the fork */
static void setup_memory(void)
{
	int mfd;

	scratch = map_or_die(SCRATCH_LEN + PAGE, PROT_READ | PROT_WRITE);
	mprotect(scratch + SCRATCH_LEN, PAGE, PROT_NONE);
	for (size_t i = 0; i < SCRATCH_LEN; i += 8)
		*(uint64_t *)(scratch + i) = rnd64();
	argpage = map_or_die(2 * PAGE, PROT_READ | PROT_WRITE);
	mprotect(argpage + PAGE, PAGE, PROT_NONE);
	none_page = map_or_die(PAGE, PROT_NONE);
	unmapped = map_or_die(PAGE, PROT_READ);
	munmap(unmapped, PAGE);
	volatile_map = map_or_die(VOLATILE_LEN, PROT_READ | PROT_WRITE);
	mfd = memfd_create("fuzz-ro", 0);
	if (mfd < 0 || ftruncate(mfd, PAGE)) {
		perror("fuzz: memfd");
		exit(1);
	}
	ro_rw = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, mfd, 0);
	ro_view = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, mfd, 0);
	if (ro_rw == MAP_FAILED || ro_view == MAP_FAILED) {
		perror("fuzz: mmap memfd");
		exit(1);
	}
	close(mfd);
}

/*
 * ptr_pick: a user pointer for @len bytes the kernel may read or write:
 * mostly a valid one in scratch, else one of the bad kinds.  Never one
 * into the fuzzer's own state.
 */
static uint64_t ptr_pick(uint64_t len)
{
	uint32_t r = rnd(100);

	if (len > SCRATCH_LEN)
		len = SCRATCH_LEN;
	if (r < 60)
		return (uintptr_t)scratch + rnd(SCRATCH_LEN - len + 1);
	if (r < 68)	/* straddles the guard page */
		return (uintptr_t)scratch + SCRATCH_LEN - (len ? rnd(len) : 0) -
			(chance(50) ? 0 : 1);
	if (r < 74)
		return 0;
	if (r < 79)
		return (uintptr_t)unmapped + rnd(PAGE);
	if (r < 84)
		return (uintptr_t)ro_view + rnd(PAGE);
	if (r < 88)
		return (uintptr_t)none_page;
	if (r < 92)
		return kernel_addrs[rnd(ARRAY_SIZE(kernel_addrs))];
	if (r < 95)
		return (uintptr_t)volatile_map + rnd(VOLATILE_LEN);
	return chance(50) ? bval() : rnd64();
}

/* ---- descriptors ----------------------------------------------------- */

enum otype { T_NONE, T_CTL, T_LISTENER, T_CHAN, T_OTHER };

struct mrrec {
	uint32_t handle;
	uint64_t addr, len;
	struct rdmachan_remote_mr remote;
};

struct obj {
	int fd;
	int type;
	int shared;		/* opened before the fork */
	int port;		/* listener: bound port */
	int peer;		/* channel: slot of the other end, or -1 */
	int nonblock;
	int dead;		/* a call said the channel is gone */
	uint32_t max_msg;
	int nmr;
	struct mrrec mr[MAXMR];
};

static struct obj pool[NOBJ];
static int epfd = -1;
static struct wshared *W;	/* this worker's shared state */
static struct wshared *all_ws;
static int worker_id;

static void obj_clear(int i)
{
	memset(&pool[i], 0, sizeof(pool[i]));
	pool[i].fd = -1;
	pool[i].peer = -1;
}

static int count_type(int type)
{
	int n = 0;

	for (int i = 0; i < NOBJ; i++)
		n += pool[i].type == type;
	return n;
}

/* pick_slot: a slot of @type (T_NONE: any open one), or -1 */
static int pick_slot(int type)
{
	int cand[NOBJ], n = 0;

	for (int i = 0; i < NOBJ; i++)
		if (pool[i].type != T_NONE && (type == T_NONE || pool[i].type == type))
			cand[n++] = i;
	return n ? cand[rnd(n)] : -1;
}

static int free_slot(void)
{
	for (int i = 0; i < NOBJ; i++)
		if (pool[i].type == T_NONE)
			return i;
	return -1;
}

static int slot_of_fd(int fd)
{
	for (int i = 0; i < NOBJ; i++)
		if (pool[i].type != T_NONE && pool[i].fd == fd)
			return i;
	return -1;
}

/* adopt: keep a descriptor a call returned, or close it if there is no room */
static int adopt(int fd, int type, int port)
{
	int i;

	if (fd < 0)
		return -1;
	i = slot_of_fd(fd);
	if (i >= 0)	/* the kernel handed out a number we hold?! */
		return i;
	i = free_slot();
	if ((type == T_CHAN && count_type(T_CHAN) >= MAX_CHANS) ||
	    (type == T_LISTENER && count_type(T_LISTENER) >= MAX_LISTENERS) ||
	    i < 0) {
		close(fd);
		return -1;
	}
	obj_clear(i);
	pool[i].fd = fd;
	pool[i].type = type;
	pool[i].port = port;
	pool[i].max_msg = POOL_MSG;
	pool[i].nonblock = !!(fcntl(fd, F_GETFL) & O_NONBLOCK);
	return i;
}

static void drop_slot(int i)
{
	for (int j = 0; j < NOBJ; j++)
		if (pool[j].peer == i)
			pool[j].peer = -1;
	obj_clear(i);
}

/* ---- recording calls ------------------------------------------------- */

static volatile sig_atomic_t alarms;

static void on_alarm(int sig)
{
	(void)sig;
	alarms++;
}

/* arm: SIGALRM after @ms, or (1) a jittered --alarm-ms */
static void arm(unsigned int ms)
{
	struct itimerval it = { 0 };

	if (ms == 1)
		ms = opt_alarm_ms / 4 + rnd(opt_alarm_ms - opt_alarm_ms / 4 + 1);

	it.it_value.tv_sec = ms / 1000;
	it.it_value.tv_usec = (ms % 1000) * 1000 + 1;
	setitimer(ITIMER_REAL, &it, NULL);
}

static void disarm(void)
{
	struct itimerval it = { 0 };

	setitimer(ITIMER_REAL, &it, NULL);
}

static void fmt_rec(char *out, size_t n, const struct rec *r);

static struct rec *cur_rec;
static int cur_armed;

/*
 * begin: record a call before making it.  @arg/@alen: a copy of the
 * argument as we built it (not read back through @argp, which may fault).
 * @may_block: 0, or the call may wait: 1 for an alarm after a jittered
 * --alarm-ms, more for one after that many ms.
 */
static struct rec *begin(int op, int slot, int fd, uint64_t cmd,
			 uint64_t argp, const void *arg, size_t alen,
			 int may_block)
{
	struct rec *r = &W->ring[W->calls % RING];

	r->seq = W->calls;
	r->op = op;
	r->slot = slot;
	r->fd = fd;
	r->cmd = cmd;
	r->argp = argp;
	r->arglen = alen;
	r->ret = 0;
	r->err = 0;
	r->done = 0;
	r->nonblock = slot >= 0 && pool[slot].nonblock;
	if (alen > REC_ARG)
		alen = REC_ARG;
	if (arg && alen)
		memcpy(r->arg, arg, alen);
	cur_rec = r;
	if (opt_trace) {
		char buf[512];

		fmt_rec(buf, sizeof(buf), r);
		fprintf(stderr, "w%d %s\n", worker_id, buf);
	}
	__atomic_store_n(&W->in_call, 1, __ATOMIC_RELEASE);
	cur_armed = may_block;
	if (may_block)
		arm(may_block);
	return r;
}

/* end: the call returned @ret (errno in errno when negative) */
static long end(long ret)
{
	int e = ret < 0 ? errno : 0;
	struct rec *r = cur_rec;

	if (cur_armed)
		disarm();
	r->ret = ret;
	r->err = e;
	r->done = 1;
	__atomic_store_n(&W->in_call, 0, __ATOMIC_RELEASE);
	W->hist[r->op][e <= 0 ? 0 : e <= NERR ? e : NERR + 1]++;
	__atomic_store_n(&W->calls, W->calls + 1, __ATOMIC_RELEASE);
	errno = e;
	return ret;
}

/* a channel that failed stays in the pool (its calls are worth making) */
static void note_err(int slot, int e)
{
	if (slot >= 0 && pool[slot].type == T_CHAN &&
	    (e == ECONNRESET || e == EPIPE || e == ENODEV || e == EPROTO ||
	     e == ENETRESET))
		pool[slot].dead = 1;
}

static long do_ioctl(int op, int slot, int fd, unsigned long cmd,
		     void *arg, const void *copy, size_t alen, int may_block)
{
	long ret;

	begin(op, slot, fd, cmd, (uintptr_t)arg, copy, alen, may_block);
	ret = end(ioctl(fd, cmd, arg));
	if (ret < 0)
		note_err(slot, errno);
	return ret;
}

/* ---- arguments ------------------------------------------------------- */

/*
 * place_arg: where the argument of @len bytes built in @src is passed:
 * mostly at the start of the argument page, sometimes at its end (so
 * that a structure read past its size faults), straddling the guard
 * page, in the read-only page (copy_to_user fails after the work is
 * done), NULL, unmapped, PROT_NONE or a kernel address.
 */
static void *place_arg(const void *src, size_t len)
{
	uint32_t r = rnd(100);
	uint8_t *p;

	if (r < 80) {
		p = argpage;
	} else if (r < 86) {
		p = argpage + PAGE - len;
	} else if (r < 89) {
		p = argpage + PAGE - len + 1 + rnd(len);
	} else if (r < 95) {
		memcpy(ro_rw, src, len < PAGE ? len : PAGE);
		return ro_view;
	} else if (r < 96) {
		return NULL;
	} else if (r < 97) {
		return unmapped;
	} else if (r < 98) {
		return none_page;
	} else {
		return (void *)(uintptr_t)kernel_addrs[rnd(sizeof(kernel_addrs) /
							  sizeof(kernel_addrs[0]))];
	}
	/* the part before the guard page */
	memcpy(p, src, (size_t)(argpage + PAGE - p) < len ?
	       (size_t)(argpage + PAGE - p) : len);
	return p;
}

/*
 * mutate: change 1 to 3 fields of the structure at @s (@len bytes): a
 * boundary or random value of width 1, 2, 4 or 8 at an aligned offset;
 * a field at one of @ptrs (offsets of __u64 user pointers) gets a
 * pointer from ptr_pick().  Or, rarely, random bytes throughout.
 */
static void mutate(void *s, size_t len, const uint16_t *ptrs, int nptr)
{
	uint8_t *b = s;
	int n = 1 + rnd(3);

	if (chance(4)) {
		for (size_t i = 0; i < len; i++)
			b[i] = rnd64();
		if (chance(50))	/* mostly keep the size, to get past it */
			*(uint32_t *)b = len;
		return;
	}
	while (n--) {
		unsigned int w = 1U << rnd(4);
		size_t off;
		uint64_t v;

		if (nptr && chance(25)) {
			v = ptr_pick(rnd(8192));
			memcpy(b + ptrs[rnd(nptr)], &v, 8);
			continue;
		}
		if (w > len)
			w = 4;
		off = rnd(len / w) * w;
		v = bval();
		memcpy(b + off, &v, w);	/* little-endian: the low bytes */
	}
}

/* size field: sizeof, or off by one, or another struct's, or random */
static uint32_t pick_size(uint32_t size)
{
	switch (rnd(40)) {
	case 0: return 0;
	case 1: return size - 1;
	case 2: return size + 1;
	case 3: return size + 8;
	case 4: return (uint32_t)bval();
	case 5: return size / 2;
	default: return size;
	}
}

#define MAYBE_MUTATE(s, pct, ...) do {					\
	static const uint16_t _p[] = { 0, ##__VA_ARGS__ };		\
	if (chance(pct))						\
		mutate(&(s), sizeof(s), _p + 1,				\
		       (int)ARRAY_SIZE(_p) - 1);			\
	if (chance(3))							\
		(s).size = pick_size(sizeof(s));			\
} while (0)

/* the fd a call goes to: mostly one of @type, sometimes any or a bad one */
static int target(int type, int *slot)
{
	uint32_t r = rnd(100);
	int i;

	if (r < 85)
		i = pick_slot(type);
	else if (r < 97)
		i = pick_slot(T_NONE);
	else
		i = -1;
	if (i < 0) {
		*slot = -1;
		switch (rnd(4)) {
		case 0: return -1;
		case 1: return 1023;
		case 2: return 0;	/* stdin: not ours */
		default: return epfd;
		}
	}
	*slot = i;
	return pool[i].fd;
}

/* a listener's port to connect to: a live one, or not */
static int pick_port(void)
{
	int i = pick_slot(T_LISTENER);

	if (i >= 0 && chance(85))
		return pool[i].port;
	return chance(50) ? (int)rnd(65536) : (int)(bval() & 0xffff);
}

/* addr_pick: the fixture's addresses mostly, else weird families */
static void addr_pick(struct __kernel_sockaddr_storage *ss, const char *ip,
		      int port)
{
	uint32_t r = rnd(100);

	set_in4(ss, ip, port);
	if (r < 80)
		return;
	if (r < 84) {
		struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)ss;

		memset(ss, 0, sizeof(*ss));
		s6->sin6_family = AF_INET6;
		s6->sin6_port = htons(port);
		if (chance(50))
			s6->sin6_addr.s6_addr[15] = 1;	/* ::1 */
		else	/* ::ffff:192.0.2.1 */
			inet_pton(AF_INET6, "::ffff:192.0.2.1", &s6->sin6_addr);
	} else if (r < 87) {
		memset(ss, 0, sizeof(*ss));
	} else if (r < 92) {
		inet_pton(AF_INET, chance(50) ? "127.0.0.1" : "10.9.8.7",
			  &((struct sockaddr_in *)ss)->sin_addr);
	} else if (r < 95) {
		ss->ss_family = (uint16_t)bval();
	} else {
		for (size_t i = 0; i < sizeof(*ss); i++)
			((uint8_t *)ss)[i] = rnd64();
	}
}

/*
 * chan_opts: small valid options mostly, else random and boundary
 * values.  What the kernel would accept stays within what the VM's
 * 1 GiB can hold, many channels at once: depth times message size at
 * most 1 MiB (0 counts as the module's default, 128 and 65536), and a
 * backlog of at most 16 (each connection waiting in it is a channel with
 * its buffers).  Values past the ABI's limits pass through: they are
 * refused before anything is allocated.
 */
static void chan_opts(struct rdmachan_chan_opts *o)
{
	uint32_t d, m;

	memset(o, 0, sizeof(*o));
	if (chance(70)) {
		o->queue_depth = POOL_DEPTH;
		o->max_msg_size = POOL_MSG;
		o->timeout_ms = 2000;
		o->poll_mode = rnd(4);
		o->backlog = rnd(4) ? 4 : 0;
	} else if (chance(70)) {
		o->queue_depth = rnd(3) ? rnd(64) : (uint32_t)bval();
		o->max_msg_size = rnd(3) ? rnd(16384) : (uint32_t)bval();
		o->timeout_ms = rnd(3) ? rnd(3000) : (uint32_t)bval();
		o->poll_mode = rnd(3) ? rnd(5) : (uint32_t)bval();
		o->backlog = rnd(3) ? rnd(8) : (uint32_t)bval();
		if (chance(5))
			o->reserved = bval();
	}
	d = o->queue_depth ? o->queue_depth : 128;
	m = o->max_msg_size ? o->max_msg_size : 65536;
	if (d <= 16384 && m <= (1U << 20) && (uint64_t)d * m > (1U << 20)) {
		/* keep the boundary value given, shrink the other one */
		if (o->max_msg_size)
			o->queue_depth = max(2U, (1U << 20) / m);
		else
			o->max_msg_size = max(64U, (1U << 20) / d);
	}
	if (!o->backlog || (o->backlog > 16 && o->backlog <= 65536))
		o->backlog = 16;
	/* the connect bound: keep it short so that hangs stay hangs */
	if (o->timeout_ms > 3000 && o->timeout_ms <= 600000)
		o->timeout_ms = 3000;
}

/* ---- the calls ------------------------------------------------------- */

/*
 * A third of the calls are "dirty": bad() may spoil their fields.  The
 * others stay valid where many fields must all be right for a call to
 * reach the queue pair (message arrays, RDMA operations).
 */
static int dirty;

static int bad(unsigned int pct)
{
	return dirty && chance(pct);
}

static void close_slot(int i);
static int new_pair(void);

static void fz_version(void)
{
	struct rdmachan_version v = { .size = sizeof(v) };
	int slot, fd = target(T_CTL, &slot);

	MAYBE_MUTATE(v, 20);
	do_ioctl(OP_VERSION, slot, fd, RDMACHAN_IOC_VERSION,
		 place_arg(&v, sizeof(v)), &v, sizeof(v), 0);
}

static void fz_dev_list(void)
{
	struct rdmachan_dev_list l = { .size = sizeof(l) };
	int slot, fd = target(T_CTL, &slot);

	l.capacity = chance(80) ? rnd(4) : (uint32_t)bval();
	l.entries = ptr_pick((uint64_t)l.capacity *
			     sizeof(struct rdmachan_dev_entry));
	MAYBE_MUTATE(l, 25, 8);
	do_ioctl(OP_DEV_LIST, slot, fd, RDMACHAN_IOC_DEV_LIST,
		 place_arg(&l, sizeof(l)), &l, sizeof(l), 0);
}

static void fz_dev_query(void)
{
	static const char *const names[] = { "rxe0", "rxe1", "siw0", "", "rxe",
					      "rxe00", "nosuch" };
	struct rdmachan_dev_query q = { .size = sizeof(q) };
	int slot, fd = target(T_CTL, &slot);
	const char *dev = getenv(chance(50) ? "DEV0" : "DEV1");

	if (chance(70) && dev)
		snprintf(q.name, sizeof(q.name), "%s", dev);
	else
		snprintf(q.name, sizeof(q.name), "%s", names[rnd(7)]);
	if (chance(3))
		memset(q.name, 'x', sizeof(q.name));	/* not terminated */
	q.port_capacity = chance(80) ? rnd(3) : (uint32_t)bval();
	q.ports = ptr_pick((uint64_t)q.port_capacity *
			   sizeof(struct rdmachan_port_attr));
	MAYBE_MUTATE(q, 25, 72);
	do_ioctl(OP_DEV_QUERY, slot, fd, RDMACHAN_IOC_DEV_QUERY,
		 place_arg(&q, sizeof(q)), &q, sizeof(q), 0);
}

static void fz_connect(void)
{
	struct rdmachan_connect c = { .size = sizeof(c) };
	int slot, fd = target(T_CTL, &slot);
	void *arg;
	long ret;

	if (count_type(T_CHAN) >= MAX_CHANS)
		return;
	c.flags = chance(85) ? rnd(4) : (uint32_t)bval();
	chan_opts(&c.opts);
	addr_pick(&c.dst, SRV_IP, pick_port());
	if (chance(70))
		addr_pick(&c.src, CLI_IP, chance(90) ? 0 : (int)rnd(65536));
	MAYBE_MUTATE(c, 15);
	arg = place_arg(&c, sizeof(c));
	/* interrupted early at times, mostly left to finish */
	ret = do_ioctl(OP_CONNECT, slot, fd, RDMACHAN_IOC_CONNECT, arg, &c,
		       sizeof(c), chance(30) ? 1 : 4000);
	if (ret >= 0)
		adopt(ret, T_CHAN, 0);
}

static void fz_listen(void)
{
	struct rdmachan_listen l = { .size = sizeof(l) };
	int slot, fd = target(T_CTL, &slot);
	void *arg;
	long ret;

	if (count_type(T_LISTENER) >= MAX_LISTENERS)
		return;
	l.flags = chance(85) ? rnd(4) : (uint32_t)bval();
	chan_opts(&l.opts);
	addr_pick(&l.addr, chance(85) ? SRV_IP : CLI_IP,
		  chance(70) ? 0 : pick_port());
	MAYBE_MUTATE(l, 15);
	arg = place_arg(&l, sizeof(l));
	ret = do_ioctl(OP_LISTEN, slot, fd, RDMACHAN_IOC_LISTEN, arg, &l,
		       sizeof(l), 0);
	if (ret >= 0) {
		int port = 0;

		if (arg == argpage)
			port = ntohs(((struct sockaddr_in *)&((struct rdmachan_listen *)argpage)->addr)->sin_port);
		adopt(ret, T_LISTENER, port);
	}
}

static void fz_accept(void)
{
	struct rdmachan_accept a = { .size = sizeof(a) };
	int slot, fd = target(T_LISTENER, &slot);
	int block;
	long ret;

	a.flags = chance(85) ? RDMACHAN_FD_NONBLOCK | rnd(3) : rnd(4);
	MAYBE_MUTATE(a, 15);
	block = !(a.flags & RDMACHAN_FD_NONBLOCK) &&
		!(slot >= 0 && pool[slot].nonblock);
	if (count_type(T_CHAN) >= MAX_CHANS && block)
		return;
	ret = do_ioctl(OP_ACCEPT, slot, fd, RDMACHAN_IOC_ACCEPT,
		       place_arg(&a, sizeof(a)), &a, sizeof(a), block);
	if (ret >= 0)
		adopt(ret, T_CHAN, 0);
}

/* msg_len: a payload length for channel @slot */
static uint32_t msg_len(int slot)
{
	uint32_t max = slot >= 0 && pool[slot].max_msg ? pool[slot].max_msg : POOL_MSG;

	switch (rnd(10)) {
	case 0: return 0;
	case 1: return max;
	case 2: return max + 1;
	case 3: return (uint32_t)bval();
	default: return rnd(max + 1);
	}
}

/* fill_msgs: @n rdmachan_user_msg in scratch; returns the array */
static struct rdmachan_user_msg *fill_msgs(int slot, uint32_t n, int send)
{
	struct rdmachan_user_msg *m;
	size_t bytes = (size_t)n * sizeof(*m);

	if (bytes > 64 * 1024)
		bytes = 64 * 1024;
	m = (void *)(scratch + SCRATCH_LEN - 128 * 1024 - bytes);
	for (size_t i = 0; i < bytes / sizeof(*m); i++) {
		memset(&m[i], 0, sizeof(m[i]));
		m[i].len = msg_len(slot);
		/* payloads in the first half of scratch */
		m[i].buf = !bad(15) ?
			(uintptr_t)scratch + rnd(SCRATCH_LEN / 2) :
			ptr_pick(m[i].len);
		if (send) {
			m[i].flags = !bad(20) ? rnd(2) | (rnd(4) ? 0 : RDMACHAN_MSG_SOLICITED) :
				(uint32_t)bval();
			m[i].imm = rnd64();
		}
		if (bad(5))
			mutate(&m[i], sizeof(m[i]), (const uint16_t []){ 0 }, 1);
	}
	return m;
}

static void fz_mmsg(int op)
{
	static const unsigned long cmds[] = {
		[OP_SEND] = RDMACHAN_IOC_SEND, [OP_RECV] = RDMACHAN_IOC_RECV,
		[OP_SENDMMSG] = RDMACHAN_IOC_SENDMMSG,
		[OP_RECVMMSG] = RDMACHAN_IOC_RECVMMSG,
	};
	struct rdmachan_mmsg mm = { .size = sizeof(mm) };
	int slot, fd = target(T_CHAN, &slot);
	int single = op == OP_SEND || op == OP_RECV;
	int send = op == OP_SEND || op == OP_SENDMMSG;
	int block;

	mm.count = single ? (!bad(5) ? 1 : rnd(3)) :
		(!bad(15) ? 1 + rnd(8) : (uint32_t)bval());
	mm.flags = !bad(15) ? RDMACHAN_MSG_DONTWAIT : (chance(50) ? 0 : (uint32_t)bval());
	mm.msgs = !bad(10) ? (uintptr_t)fill_msgs(slot, mm.count, send) :
		ptr_pick((uint64_t)mm.count * sizeof(struct rdmachan_user_msg));
	MAYBE_MUTATE(mm, 15, 8);
	block = !(mm.flags & RDMACHAN_MSG_DONTWAIT) &&
		!(slot >= 0 && pool[slot].nonblock);
	do_ioctl(op, slot, fd, cmds[op], place_arg(&mm, sizeof(mm)), &mm,
		 sizeof(mm), block);
}

static void fz_chan_info(void)
{
	struct rdmachan_chan_info ci = { .size = sizeof(ci) };
	int slot, fd = target(T_CHAN, &slot);
	void *arg;

	MAYBE_MUTATE(ci, 15);
	arg = place_arg(&ci, sizeof(ci));
	if (do_ioctl(OP_CHAN_INFO, slot, fd, RDMACHAN_IOC_CHAN_INFO, arg, &ci,
		     sizeof(ci), 0) == 0 && arg == argpage && slot >= 0 &&
	    pool[slot].type == T_CHAN) {
		struct rdmachan_chan_info *out = arg;

		pool[slot].max_msg = out->max_msg_size;
		if (out->state >= RDMACHAN_STATE_DISCONNECTED)
			pool[slot].dead = 1;
	}
}

static void fz_bench(void)
{
	struct rdmachan_bench b = { .size = sizeof(b) };
	int slot, fd = target(T_CHAN, &slot);

	b.mode = chance(90) ? rnd(7) : (uint32_t)bval();
	b.msg_size = chance(70) ? 1 + rnd(4096) : (uint32_t)bval();
	b.batch = chance(80) ? rnd(17) : (uint32_t)bval();
	b.duration_ms = chance(80) ? 1 + rnd(30) : (chance(50) ? 0 : (uint32_t)bval());
	b.count = chance(70) ? rnd(64) : bval();
	MAYBE_MUTATE(b, 15);
	do_ioctl(OP_BENCH, slot, fd, RDMACHAN_IOC_BENCH,
		 place_arg(&b, sizeof(b)), &b, sizeof(b), 1);
}

/*
 * KNOWN: argument shapes that crashed the module, skipped with
 * --avoid-known while a fix is pending (to fuzz past them).  REG_MR of
 * an address below 4096 with a length within a page of 2^64: the page
 * count wrapped to 0 and the oops panicked the VM (fixed by "mr, rdma:
 * sizes from user input cannot wrap"); kept for fuzzing older modules.
 */
static int known_bad_reg(const struct rdmachan_reg_mr *r)
{
	return r->addr < 4096 && r->length >= 0xfffffffffffff000ULL;
}

static void fz_reg_mr(void)
{
	struct rdmachan_reg_mr r = { .size = sizeof(r) };
	int slot, fd = target(T_CHAN, &slot);
	struct obj *o = slot >= 0 ? &pool[slot] : NULL;
	uint32_t x = rnd(100);
	void *arg;

	if (x < 70) {	/* a valid buffer in scratch */
		r.length = chance(80) ? 1 + rnd(64 * 1024) : 1 + rnd(SCRATCH_LEN);
		r.addr = (uintptr_t)scratch + rnd(SCRATCH_LEN - r.length + 1);
	} else if (x < 80) {
		r.length = 1 + rnd(VOLATILE_LEN);
		r.addr = (uintptr_t)volatile_map + rnd(VOLATILE_LEN - r.length + 1);
	} else {
		r.length = chance(50) ? bval() : 1 + rnd(3 * PAGE);
		r.addr = ptr_pick(r.length);
	}
	r.access = chance(85) ? (rnd(16) | (chance(70) ? RDMACHAN_ACCESS_LOCAL_WRITE : 0)) :
		(uint32_t)bval();
	MAYBE_MUTATE(r, 15, 8);
	if (opt_avoid_known && known_bad_reg(&r))
		return;
	arg = place_arg(&r, sizeof(r));
	if (do_ioctl(OP_REG_MR, slot, fd, RDMACHAN_IOC_REG_MR, arg, &r,
		     sizeof(r), 1) == 0 && o && o->type == T_CHAN &&
	    arg == argpage) {
		struct rdmachan_reg_mr *out = arg;
		int k;

		if (o->nmr < MAXMR) {
			k = o->nmr++;
		} else {
			/*
			 * No room to remember it: let the one it replaces go,
			 * or registrations (and their pinned pages) pile up
			 */
			struct rdmachan_dereg_mr d = { .size = sizeof(d) };

			k = rnd(MAXMR);
			d.handle = o->mr[k].handle;
			do_ioctl(OP_DEREG_MR, slot, fd, RDMACHAN_IOC_DEREG_MR,
				 &d, &d, sizeof(d), 1);
		}

		o->mr[k].handle = out->handle;
		o->mr[k].addr = out->addr;
		o->mr[k].len = out->length;
		o->mr[k].remote = out->remote;
	}
}

static void fz_dereg_mr(void)
{
	struct rdmachan_dereg_mr d = { .size = sizeof(d) };
	int slot, fd = target(T_CHAN, &slot);
	struct obj *o = slot >= 0 ? &pool[slot] : NULL;
	int k = -1;

	if (o && o->nmr && chance(85)) {
		k = rnd(o->nmr);
		d.handle = o->mr[k].handle;
	} else {
		d.handle = chance(50) ? rnd(8) : (uint32_t)bval();
	}
	MAYBE_MUTATE(d, 10);
	if (do_ioctl(OP_DEREG_MR, slot, fd, RDMACHAN_IOC_DEREG_MR,
		     place_arg(&d, sizeof(d)), &d, sizeof(d), 1) == 0 && k >= 0)
		o->mr[k] = o->mr[--o->nmr];
}

/* a registration of channel @slot, or NULL */
static struct mrrec *pick_mr(int slot)
{
	if (slot < 0 || pool[slot].type != T_CHAN || !pool[slot].nmr)
		return NULL;
	return &pool[slot].mr[rnd(pool[slot].nmr)];
}

/* op_flags: flags that suit @opcode, mostly */
static uint32_t op_flags(uint32_t opcode)
{
	uint32_t f = rnd(2) ? RDMACHAN_OPF_SIGNALED : 0;

	if (chance(20))
		f |= RDMACHAN_OPF_FENCE;
	if (opcode <= RDMACHAN_OP_WRITE_IMM && chance(25))
		f |= RDMACHAN_OPF_INLINE;
	if (opcode == RDMACHAN_OP_WRITE_IMM && chance(30))
		f |= RDMACHAN_OPF_SOLICITED;
	if (bad(3))
		f |= 1U << rnd(5);
	return f;
}

static void fz_rdma(void)
{
	struct rdmachan_rdma rd = { .size = sizeof(rd) };
	int slot, fd = target(T_CHAN, &slot);
	int peer = slot >= 0 ? pool[slot].peer : -1;
	struct rdmachan_rdma_op *ops;
	struct rdmachan_sge *sg;
	uint32_t n = !bad(15) ? 1 + rnd(4) : (uint32_t)bval();
	uint32_t nfill = n > 64 ? 64 : n;
	int block;

	/* the op and segment arrays sit in scratch, below the messages */
	ops = (void *)(scratch + SCRATCH_LEN - 256 * 1024);
	sg = (void *)(scratch + SCRATCH_LEN - 192 * 1024);
	for (uint32_t i = 0; i < nfill; i++) {
		struct rdmachan_rdma_op *op = &ops[i];
		struct mrrec *rem = pick_mr(peer);
		uint32_t nsge = !bad(8) ? rnd(4) + (!bad(10) ? 1 : 0) :
			(uint32_t)bval();
		uint32_t nfs = nsge > 16 ? 16 : nsge;
		uint64_t total = 0;

		memset(op, 0, sizeof(*op));
		op->opcode = !bad(5) ? rnd(5) : (uint32_t)bval();
		op->flags = !bad(10) ? op_flags(op->opcode) : (uint32_t)bval();
		if (op->opcode >= RDMACHAN_OP_FETCH_ADD && op->opcode <= RDMACHAN_OP_CMP_SWAP &&
		    chance(95))
			nsge = nfs = 1;
		else if (op->opcode == RDMACHAN_OP_READ && !nsge && chance(90))
			nsge = nfs = 1;
		op->sgl = !bad(5) ? (uintptr_t)(sg + 16 * (i % 8)) :
			ptr_pick(nsge * sizeof(*sg));
		op->nr_sge = nsge;
		op->imm = rnd64();
		op->user_data = rnd64();
		for (uint32_t j = 0; j < nfs && op->sgl == (uintptr_t)(sg + 16 * (i % 8)); j++) {
			struct rdmachan_sge *s = &sg[16 * (i % 8) + j];
			struct mrrec *loc = pick_mr(slot);

			if (loc && !bad(10)) {
				s->handle = loc->handle;
				s->offset = loc->len ? rnd(loc->len) : 0;
				s->length = rnd(loc->len - s->offset + 1);
				if (op->opcode >= RDMACHAN_OP_FETCH_ADD) {
					s->offset &= ~7ULL;
					s->length = 8;
				}
			} else {
				s->handle = rnd(8);
				s->offset = bval();
				s->length = (uint32_t)bval();
			}
			if ((op->flags & RDMACHAN_OPF_INLINE) && !bad(10))
				s->length %= 129;
			if (bad(5))
				s->length = (uint32_t)bval();
			if (bad(3))
				s->offset = bval();
			total += s->length;
		}
		if (rem && !bad(10)) {
			uint64_t off = total < rem->remote.length ?
				rnd(rem->remote.length - total + 1) : 0;

			if (op->opcode >= RDMACHAN_OP_FETCH_ADD)
				off &= ~7ULL;
			op->remote_addr = rem->remote.addr + off;
			op->rkey = rem->remote.rkey;
			if (bad(5))
				op->remote_addr += bval();
		} else {
			op->remote_addr = bval();
			op->rkey = rnd64();
		}
		op->compare_add = rnd64();
		op->swap = rnd64();
		if (bad(5))
			mutate(op, sizeof(*op), (const uint16_t []){ 8 }, 1);
	}
	rd.ops = !bad(8) ? (uintptr_t)ops : ptr_pick(n * sizeof(*ops));
	rd.count = n;
	rd.flags = !bad(10) ? (chance(40) ? RDMACHAN_RDMA_ASYNC : 0) : (uint32_t)bval();
	MAYBE_MUTATE(rd, 10, 8);
	/*
	 * Both kinds wait for send queue room and, for WRITE_WITH_IMM, a
	 * credit (Documentation/rdma.rst), also on an O_NONBLOCK channel:
	 * the peer's reader may be this very worker.
	 */
	block = 1;
	do_ioctl(OP_RDMA, slot, fd, RDMACHAN_IOC_RDMA,
		 place_arg(&rd, sizeof(rd)), &rd, sizeof(rd), block);
}

static void fz_reap(void)
{
	struct rdmachan_rdma_reap r = { .size = sizeof(r) };
	int slot, fd = target(T_CHAN, &slot);

	r.count = chance(85) ? 1 + rnd(64) : (uint32_t)bval();
	r.flags = chance(80) ? RDMACHAN_REAP_DONTWAIT : (chance(50) ? 0 : (uint32_t)bval());
	r.cqes = ptr_pick((uint64_t)r.count * sizeof(struct rdmachan_rdma_cqe));
	MAYBE_MUTATE(r, 10, 8);
	do_ioctl(OP_RDMA_REAP, slot, fd, RDMACHAN_IOC_RDMA_REAP,
		 place_arg(&r, sizeof(r)), &r, sizeof(r),
		 !(r.flags & RDMACHAN_REAP_DONTWAIT));
}

static void fz_randcmd(void)
{
	static const unsigned int sizes[] = {
		sizeof(struct rdmachan_version), sizeof(struct rdmachan_dev_list),
		sizeof(struct rdmachan_dev_query), sizeof(struct rdmachan_connect),
		sizeof(struct rdmachan_listen), sizeof(struct rdmachan_accept),
		sizeof(struct rdmachan_mmsg), sizeof(struct rdmachan_chan_info),
		sizeof(struct rdmachan_bench), sizeof(struct rdmachan_reg_mr),
		sizeof(struct rdmachan_dereg_mr), sizeof(struct rdmachan_rdma),
		sizeof(struct rdmachan_rdma_reap),
	};
	static const unsigned int nrs[] = {
		0x00, 0x01, 0x02, 0x10, 0x11, 0x20, 0x30, 0x31, 0x32, 0x33,
		0x34, 0x35, 0x40, 0x41, 0x42, 0x43,
	};
	unsigned int dir = rnd(4), type, nr, size;
	int slot, fd = target(T_NONE, &slot);
	unsigned long cmd;
	uint64_t argp;
	int in_scratch;
	long ret;

	type = chance(90) ? RDMACHAN_IOC_MAGIC : rnd(256);
	nr = chance(60) ? nrs[rnd(ARRAY_SIZE(nrs))] + (chance(80) ? 0 : rnd(3) - 1) :
		rnd(256);
	size = chance(60) ? sizes[rnd(ARRAY_SIZE(sizes))] + rnd(3) - 1 :
		rnd(1 << 14);
	cmd = _IOC(dir, type, nr & 0xff, size & 0x3fff);
	if (chance(3))
		cmd = (unsigned int)rnd64();
	/* random bytes for it to read, in scratch (it may write them) */
	argp = ptr_pick(size);
	if (argp >= (uintptr_t)scratch && argp < (uintptr_t)scratch + SCRATCH_LEN &&
	    chance(50)) {
		uint64_t room = (uintptr_t)scratch + SCRATCH_LEN - argp;

		for (uint64_t i = 0; i + 4 <= room && i < size; i += 4)
			*(uint32_t *)(argp + i) = chance(30) ? (uint32_t)bval() : 0;
		if (room >= 4)
			*(uint32_t *)argp = chance(80) ? size : (uint32_t)bval();
	}
	/* cmd and its argument: may block (e.g. a blocking RECV) */
	in_scratch = argp >= (uintptr_t)scratch &&
		argp < (uintptr_t)scratch + SCRATCH_LEN &&
		(uintptr_t)scratch + SCRATCH_LEN - argp >= REC_ARG;
	ret = do_ioctl(OP_RANDCMD, slot, fd, cmd, (void *)(uintptr_t)argp,
		       in_scratch ? (void *)(uintptr_t)argp : NULL,
		       in_scratch ? REC_ARG : 0, 1);
	if (ret > 2 && ret < 4096 && fcntl(ret, F_GETFD) >= 0)
		adopt(ret, T_OTHER, 0);
}

static size_t io_len(int slot)
{
	switch (rnd(8)) {
	case 0: return 0;
	case 1: return (uint32_t)bval() & (SCRATCH_LEN - 1);
	case 2: return bval();
	default: return msg_len(slot) & (2 * SCRATCH_LEN - 1);
	}
}

static void fz_rw(int op)
{
	int slot, fd = target(T_CHAN, &slot);
	size_t len = io_len(slot);
	uint64_t p = ptr_pick(len);
	uint64_t a[3] = { p, len, 0 };
	int block = !(slot >= 0 && pool[slot].nonblock);

	begin(op, slot, fd, 0, p, a, sizeof(a), block);
	if (op == OP_READ)
		end(read(fd, (void *)(uintptr_t)p, len));
	else
		end(write(fd, (void *)(uintptr_t)p, len));
	if (cur_rec->ret < 0)
		note_err(slot, cur_rec->err);
}

static void fz_writev(void)
{
	struct iovec *iov = (void *)(scratch + SCRATCH_LEN - 320 * 1024);
	int slot, fd = target(T_CHAN, &slot);
	int n = chance(90) ? 1 + (int)rnd(4) : (int)rnd(1100);
	int block = !(slot >= 0 && pool[slot].nonblock);

	for (int i = 0; i < n && i < 1100; i++) {
		iov[i].iov_len = chance(80) ? rnd(POOL_MSG / 2 + 1) : io_len(slot);
		iov[i].iov_base = (void *)(uintptr_t)ptr_pick(iov[i].iov_len);
	}
	begin(OP_WRITEV, slot, fd, 0, (uintptr_t)iov, iov,
	      (n < 6 ? n : 6) * sizeof(*iov), block);
	if (chance(50))
		end(writev(fd, iov, n));
	else
		end(readv(fd, iov, n));
}

static void fz_poll(void)
{
	struct pollfd pfd[4];
	int n = 1 + rnd(4), slot, timeout = chance(70) ? 0 : (int)rnd(20);

	for (int i = 0; i < n; i++) {
		pfd[i].fd = target(T_NONE, &slot);
		pfd[i].events = chance(80) ? (short)((POLLIN | POLLOUT | POLLPRI) & rnd64()) :
			(short)rnd64();
		pfd[i].revents = 0;
	}
	begin(OP_POLL, -1, pfd[0].fd, timeout, 0, pfd, n * sizeof(pfd[0]),
	      timeout > 0);
	end(poll(pfd, n, timeout));
}

static void fz_epoll_ctl(void)
{
	struct epoll_event ev;
	int slot, fd = target(T_NONE, &slot);
	int opn = 1 + rnd(3);
	uint64_t a[3];

	ev.events = chance(85) ? (uint32_t)(rnd64() & (EPOLLIN | EPOLLOUT | EPOLLPRI |
		EPOLLERR | EPOLLHUP | EPOLLRDHUP | EPOLLET | EPOLLONESHOT)) :
		(uint32_t)rnd64();
	ev.data.u64 = rnd64();
	a[0] = opn;
	a[1] = ev.events;
	a[2] = 0;
	begin(OP_EPOLL_CTL, slot, fd, opn, 0, a, sizeof(a), 0);
	end(epoll_ctl(epfd, opn, fd, &ev));
}

static void fz_epoll_wait(void)
{
	struct epoll_event ev[8];
	int timeout = chance(70) ? 0 : (int)rnd(20);
	uint64_t a[1] = { timeout };

	begin(OP_EPOLL_WAIT, -1, epfd, 0, 0, a, sizeof(a), timeout > 0);
	end(epoll_wait(epfd, ev, 8, timeout));
}

static void fz_select(void)
{
	fd_set r, w, x;
	struct timeval tv = { 0, chance(70) ? 0 : rnd(20000) };
	int maxfd = -1, slot;

	FD_ZERO(&r);
	FD_ZERO(&w);
	FD_ZERO(&x);
	for (int i = 0; i < 4; i++) {
		int fd = target(T_NONE, &slot);

		if (fd < 0 || fd >= FD_SETSIZE || slot < 0)
			continue;
		if (chance(70))
			FD_SET(fd, &r);
		if (chance(50))
			FD_SET(fd, &w);
		if (chance(30))
			FD_SET(fd, &x);
		if (fd > maxfd)
			maxfd = fd;
	}
	begin(OP_SELECT, -1, maxfd, 0, 0, &tv, sizeof(tv), tv.tv_usec > 0);
	end(select(maxfd + 1, &r, &w, &x, &tv));
}

static void fz_fcntl(void)
{
	int slot, fd = target(T_NONE, &slot);
	int fl = fcntl(fd, F_GETFL);
	uint64_t a[1];

	/*
	 * O_NONBLOCK belongs to the open file: a shared one's would change
	 * under the other workers, who decide by it whether a call may wait
	 */
	if (fl < 0 || (slot >= 0 && pool[slot].shared))
		return;
	fl ^= O_NONBLOCK;
	a[0] = fl;
	begin(OP_FCNTL, slot, fd, F_SETFL, 0, a, sizeof(a), 0);
	if (end(fcntl(fd, F_SETFL, fl)) == 0 && slot >= 0)
		pool[slot].nonblock = !!(fl & O_NONBLOCK);
}

static void fz_misc(void)
{
	int slot, fd = target(T_NONE, &slot);
	uint64_t a[2] = { rnd(3), bval() };
	struct stat st;
	void *p;

	begin(OP_MISC, slot, fd, a[0], 0, a, sizeof(a), 0);
	switch (a[0]) {
	case 0:
		end(lseek(fd, a[1], rnd(3)));
		break;
	case 1:
		p = mmap(NULL, PAGE, PROT_READ | (chance(50) ? PROT_WRITE : 0),
			 MAP_SHARED, fd, 0);
		end(p == MAP_FAILED ? -1 : 0);
		if (p != MAP_FAILED)
			munmap(p, PAGE);
		break;
	default:
		end(fstat(fd, &st));
		break;
	}
}

static void close_slot(int i)
{
	int fd = pool[i].fd;
	uint64_t a[1] = { pool[i].type };

	begin(OP_CLOSE, i, fd, 0, 0, a, sizeof(a), pool[i].type == T_CHAN);
	end(close(fd));
	drop_slot(i);
}

static void fz_close(void)
{
	int i = pick_slot(T_NONE);

	/* keep one control descriptor most of the time */
	if (i < 0 || (pool[i].type == T_CTL && count_type(T_CTL) == 1 && chance(90)))
		return;
	/* a channel that failed goes first */
	for (int j = 0; j < NOBJ; j++)
		if (pool[j].type == T_CHAN && pool[j].dead && chance(50))
			i = j;
	close_slot(i);
}

static void fz_open_ctl(void)
{
	int fl = O_RDWR | (chance(50) ? O_CLOEXEC : 0) | (chance(20) ? O_NONBLOCK : 0);
	uint64_t a[1] = { fl };
	long fd;

	if (chance(10))
		fl = (fl & ~O_ACCMODE) | rnd(3);
	begin(OP_OPEN_CTL, -1, -1, fl, 0, a, sizeof(a), 0);
	fd = end(open(CTL_PATH, fl));
	if (fd >= 0)
		adopt(fd, T_CTL, 0);
}

/* new_listener: a listener on SRV_IP with small options; its slot or -1 */
static int new_listener(int nonblock)
{
	struct rdmachan_listen l = { .size = sizeof(l) };
	int ctl = pick_slot(T_CTL);
	long fd;

	if (ctl < 0 || count_type(T_LISTENER) >= MAX_LISTENERS)
		return -1;
	l.flags = nonblock ? RDMACHAN_FD_NONBLOCK : 0;
	l.opts.queue_depth = POOL_DEPTH;
	l.opts.max_msg_size = POOL_MSG;
	l.opts.poll_mode = rnd(4);
	l.opts.backlog = 8;
	set_in4(&l.addr, SRV_IP, 0);
	fd = do_ioctl(OP_NEW_LISTENER, ctl, pool[ctl].fd, RDMACHAN_IOC_LISTEN,
		      &l, &l, sizeof(l), 0);
	if (fd < 0)
		return -1;
	return adopt(fd, T_LISTENER, ntohs(((struct sockaddr_in *)&l.addr)->sin_port));
}

/*
 * new_pair: connect from CLI_IP to a pool listener (a new one at times)
 * and accept: two channel slots, each the other's peer.
 */
static int new_pair(void)
{
	struct rdmachan_connect c = { .size = sizeof(c) };
	struct rdmachan_accept a = { .size = sizeof(a) };
	int ctl = pick_slot(T_CTL), li = pick_slot(T_LISTENER);
	int ci, si;
	long fd;

	if (ctl < 0 || count_type(T_CHAN) + 2 > MAX_CHANS)
		return -1;
	if (li < 0 || chance(20))
		li = new_listener(1);
	if (li < 0 || !pool[li].port)
		return -1;
	c.flags = chance(50) ? RDMACHAN_FD_NONBLOCK : 0;
	c.opts.queue_depth = POOL_DEPTH;
	c.opts.max_msg_size = POOL_MSG;
	c.opts.timeout_ms = 3000;
	c.opts.poll_mode = rnd(4);
	set_in4(&c.dst, SRV_IP, pool[li].port);
	set_in4(&c.src, CLI_IP, 0);
	fd = do_ioctl(OP_NEW_PAIR, ctl, pool[ctl].fd, RDMACHAN_IOC_CONNECT,
		      &c, &c, sizeof(c), 5000);
	if (fd < 0)
		return -1;
	ci = adopt(fd, T_CHAN, 0);
	if (ci < 0)
		return -1;
	/*
	 * The connecting end is established; the listening end may be a
	 * moment later: wait until the listener is readable.
	 */
	{
		struct pollfd pfd = { .fd = pool[li].fd, .events = POLLIN };
		uint64_t a2[1] = { 2000 };

		begin(OP_NEW_PAIR, li, pfd.fd, 0, 0, a2, sizeof(a2), 5000);
		end(poll(&pfd, 1, 2000));
	}
	a.flags = RDMACHAN_FD_NONBLOCK | (chance(50) ? RDMACHAN_FD_CLOEXEC : 0);
	if (chance(50))
		a.flags &= ~RDMACHAN_FD_NONBLOCK;
	fd = do_ioctl(OP_NEW_PAIR, li, pool[li].fd, RDMACHAN_IOC_ACCEPT,
		      &a, &a, sizeof(a), 5000);
	if (fd < 0)
		return -1;
	si = adopt(fd, T_CHAN, 0);
	if (si < 0)
		return -1;
	pool[ci].peer = si;
	pool[si].peer = ci;
	return ci;
}

static void fz_remap(void)
{
	void *p;

	/* registrations of the old pages keep them pinned */
	begin(OP_REMAP, -1, -1, 0, (uintptr_t)volatile_map, NULL, 0, 0);
	munmap(volatile_map, VOLATILE_LEN);
	p = mmap(volatile_map, VOLATILE_LEN, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	if (p == MAP_FAILED)
		p = map_or_die(VOLATILE_LEN, PROT_READ | PROT_WRITE);
	volatile_map = p;
	end(0);
}

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

/* ---- reporting ------------------------------------------------------- */

static const char *errname(int e)
{
	static char buf[16];

	switch (e) {
	case 0: return "ok";
	case EPERM: return "EPERM";
	case ENOENT: return "ENOENT";
	case EINTR: return "EINTR";
	case EIO: return "EIO";
	case E2BIG: return "E2BIG";
	case EBADF: return "EBADF";
	case EAGAIN: return "EAGAIN";
	case ENOMEM: return "ENOMEM";
	case EACCES: return "EACCES";
	case EFAULT: return "EFAULT";
	case EBUSY: return "EBUSY";
	case EEXIST: return "EEXIST";
	case ENODEV: return "ENODEV";
	case EINVAL: return "EINVAL";
	case EMFILE: return "EMFILE";
	case ENOTTY: return "ENOTTY";
	case ENOSPC: return "ENOSPC";
	case ESPIPE: return "ESPIPE";
	case EPIPE: return "EPIPE";
	case ERANGE: return "ERANGE";
	case ENOSYS: return "ENOSYS";
	case EPROTO: return "EPROTO";
	case EOVERFLOW: return "EOVERFLOW";
	case EMSGSIZE: return "EMSGSIZE";
	case EPROTONOSUPPORT: return "EPROTONOSUPPORT";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	case EAFNOSUPPORT: return "EAFNOSUPPORT";
	case EADDRINUSE: return "EADDRINUSE";
	case EADDRNOTAVAIL: return "EADDRNOTAVAIL";
	case ENETUNREACH: return "ENETUNREACH";
	case ENETRESET: return "ENETRESET";
	case ECONNRESET: return "ECONNRESET";
	case ENOBUFS: return "ENOBUFS";
	case ETIMEDOUT: return "ETIMEDOUT";
	case ECONNREFUSED: return "ECONNREFUSED";
	case EHOSTUNREACH: return "EHOSTUNREACH";
	case ECANCELED: return "ECANCELED";
	case EREMOTEIO: return "EREMOTEIO";
	case ENOTCONN: return "ENOTCONN";
	}
	snprintf(buf, sizeof(buf), "E%d", e);
	return buf;
}

static void fmt_rec(char *out, size_t n, const struct rec *r)
{
	int k = snprintf(out, n, "#%" PRIu64 " %s slot %d fd %d%s cmd %#" PRIx64
			 " argp %#" PRIx64 " len %u", r->seq,
			 r->op < NOPS ? op_names[r->op] : "?", r->slot, r->fd,
			 r->nonblock ? " (O_NONBLOCK)" : "", r->cmd, r->argp,
			 r->arglen);

	if (r->done)
		k += snprintf(out + k, n - k, " -> %d (%s)", r->ret,
			      r->ret < 0 ? errname(r->err) : "ok");
	else
		k += snprintf(out + k, n - k, " -> (still inside)");
	if (r->arglen && (size_t)k + 8 < n) {
		unsigned int m = r->arglen < REC_ARG ? r->arglen : REC_ARG;

		k += snprintf(out + k, n - k, "\n      arg:");
		for (unsigned int i = 0; i + 4 <= m && (size_t)k + 12 < n; i += 4)
			k += snprintf(out + k, n - k, " %08x",
				      *(const uint32_t *)(r->arg + i));
	}
}

/* Print @text, a block of lines, as KTAP diagnostic lines */
static void diag_lines(const char *text)
{
	const char *p = text, *nl;

	while (*p) {
		nl = strchr(p, '\n');
		if (!nl)
			nl = p + strlen(p);
		printf("#   %.*s\n", (int)(nl - p), p);
		p = *nl ? nl + 1 : nl;
	}
}

static void dump_worker(int id, const char *why)
{
	struct wshared *w = &all_ws[id];
	char buf[1024], path[64];
	uint64_t c = w->calls;
	FILE *f;

	printf("# fuzz: worker %d (pid %d) %s after %" PRIu64 " calls; its last calls:\n",
	       id, w->pid, why, c);
	if (w->fault_sig)
		printf("# fuzz: worker %d: %s at %#" PRIx64 " while making a %s call%s\n",
		       id, strsignal(w->fault_sig), w->fault_addr,
		       w->gen_op >= 0 && w->gen_op < NOPS ? op_names[w->gen_op] : "(none)",
		       w->in_call ? " (inside it)" : "");
	for (uint64_t s = c >= RING ? c - RING + 1 : 0; s <= c; s++) {
		const struct rec *r = &w->ring[s % RING];

		if (r->seq != s || (s == c && !w->in_call && !r->done))
			continue;
		fmt_rec(buf, sizeof(buf), r);
		printf("#   %s\n", buf);
	}
	if (w->fault_sig) {
		printf("# fuzz: worker %d's mappings:\n", id);
		diag_lines(w->maps);
	}
	/* its state and signals: is the alarm pending, blocked, caught? */
	snprintf(path, sizeof(path), "/proc/%d/status", w->pid);
	f = fopen(path, "r");
	if (f) {
		while (fgets(buf, sizeof(buf), f))
			if (!strncmp(buf, "State:", 6) || !strncmp(buf, "Sig", 3) ||
			    !strncmp(buf, "ShdPnd:", 7))
				printf("#   %s", buf);
		fclose(f);
	}
	snprintf(path, sizeof(path), "/proc/%d/stack", w->pid);
	f = fopen(path, "r");
	if (f) {
		printf("# fuzz: worker %d kernel stack:\n", id);
		while (fgets(buf, sizeof(buf), f))
			printf("#   %s", buf);
		fclose(f);
	}
	fflush(stdout);
}

static uint64_t summary(double secs)
{
	uint64_t calls = 0, stray = 0;

	for (unsigned int i = 0; i < opt_procs; i++) {
		calls += all_ws[i].calls;
		stray += all_ws[i].stray_fds;
	}
	printf("# fuzz: %" PRIu64 " calls in %.1f s (%.0f/s), %u procs, seed %" PRIu64
	       ", %" PRIu64 " stray descriptors\n", calls, secs,
	       secs > 0 ? calls / secs : 0.0, opt_procs, opt_seed, stray);
	for (int op = 0; op < NOPS; op++) {
		uint64_t tot = 0, h[NERR + 2] = { 0 };
		char line[2048];
		int k;

		for (unsigned int i = 0; i < opt_procs; i++)
			for (int e = 0; e < NERR + 2; e++) {
				h[e] += all_ws[i].hist[op][e];
				tot += all_ws[i].hist[op][e];
			}
		if (!tot)
			continue;
		k = snprintf(line, sizeof(line), "#   %-16s %9" PRIu64 ":", op_names[op], tot);
		for (int e = 0; e < NERR + 2 && k < (int)sizeof(line) - 32; e++)
			if (h[e])
				k += snprintf(line + k, sizeof(line) - k, " %s %" PRIu64,
					      e == NERR + 1 ? "other" : errname(e), h[e]);
		printf("%s\n", line);
	}
	fflush(stdout);
	return stray;
}

/*
 * The end, in KTAP: the summary as diagnostics, then the two results the
 * VM case reports (tests/vm/cases/fuzz.sh).  @rc: 0, 2 (a worker was
 * killed or exited early), 3 (a call hung).  Return: @rc, or 1 when only
 * the descriptor check failed.
 */
static int report(double secs, int rc)
{
	uint64_t stray = summary(secs);

	if (rc)
		printf("not ok 1 - workers end cleanly: none killed, no call stuck # %s\n",
		       rc == 3 ? "a call hung" : "a worker was killed or exited early");
	else
		printf("ok 1 - workers end cleanly: none killed, no call stuck\n");
	printf("%sok 2 - no descriptor installed without being returned",
	       stray ? "not " : "");
	if (stray)
		printf(" # %" PRIu64 " stray descriptors", stray);
	printf("\n1..2\n");
	fflush(stdout);
	return rc ?: (stray ? 1 : 0);
}

static void usage(void)
{
	fprintf(stderr,
		"usage: fuzz [--seed N] [--calls N] [--seconds S] [--procs P]\n"
		"            [--alarm-ms MS] [--hang-secs S] [--avoid-known] [--trace]\n");
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
	printf("# fuzz: seed %" PRIu64 " calls %" PRIu64 " seconds %u procs %u%s\n",
	       opt_seed, opt_calls, opt_seconds, opt_procs,
	       opt_avoid_known ? " avoid-known" : "");
	fflush(stdout);

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
