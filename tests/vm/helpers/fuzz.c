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
 * (see KNOWN below), to fuzz past them until the fix lands.
 *
 * Exit status: 0 clean, 1 usage or setup error, a stray descriptor, a
 * block mapping or export or a network interface that could not be
 * removed, or the fuzzer's
 * own counters overwritten (by the kernel: no call may point at them,
 * see ptr_own()), 2 a worker died, 3 hang.
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

#define RING		32		/* calls remembered per worker */
#define REC_ARG		96		/* bytes of each call's argument kept */
#define NOBJ		24		/* descriptors per worker */
#define MAX_CHANS	8		/* live channels a worker may hold */
#define MAX_LISTENERS	4
#define MAXMR		16		/* registrations remembered per channel */
#define NERR		134		/* errno 1..133 counted by name */
#define MAX_PROCS	64
#define max(a, b)	((a) > (b) ? (a) : (b))

/* Pool channels ask for little: the VM has 1 GiB and many channels */
#define POOL_DEPTH	16
#define POOL_MSG	4096

/*
 * The block channel (rdmachan_blk): the server's port on SRV_IP, at most
 * BLK_MAX_LIVE exports and BLK_MAX_LIVE mappings at once (each mapping
 * is up to two channels a side with their registration pools), depths a
 * mapping may ask for up to BLK_MAX_DEPTH, I/O within the first
 * BLK_IO_SPAN bytes of a disk (fuzz.sh's null_blk devices are 16 MiB)
 */
#define BLK_PORT	7471
#define BLK_MAX_LIVE	4
#define BLK_MAX_DEPTH	256
#define BLK_RING	8		/* map indexes and export names kept */
#define MAX_BLK_DEVS	4
#define BLK_IO_SPAN	(16UL << 20)

/* ---- calls (enum op: fuzz.h) ---------------------------------------- */

static const char *const op_names[NOPS] = {
	"VERSION", "DEV_LIST", "DEV_QUERY", "CONNECT", "LISTEN", "ACCEPT",
	"SEND", "RECV", "SENDMMSG", "RECVMMSG", "CHAN_INFO", "BENCH",
	"REG_MR", "DEREG_MR", "RDMA", "RDMA_REAP", "random-ioctl", "read",
	"write", "writev", "poll", "epoll_ctl", "epoll_wait", "select",
	"fcntl", "lseek/mmap/fstat", "close", "open", "new-listener",
	"new-pair", "remap", "BLK_EXPORT", "BLK_UNEXPORT", "BLK_MAP",
	"BLK_UNMAP", "BLK_LIST", "blk-open/close", "blk-pread/pwrite",
	"NET_ADD", "NET_DEL", "NET_LIST", "net-sysfs", "net-link",
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
	[OP_REMAP] = 1, [OP_BLK_EXPORT] = 3, [OP_BLK_UNEXPORT] = 2,
	[OP_BLK_MAP] = 4, [OP_BLK_UNMAP] = 2, [OP_BLK_LIST] = 2,
	[OP_BLK_OPEN] = 0,	/* made by blk-pread/pwrite */
	[OP_BLK_IO] = 3,
	[OP_NET_ADD] = 4, [OP_NET_DEL] = 2, [OP_NET_LIST] = 2,
	[OP_NET_SYSFS] = 3, [OP_NET_LINK] = 2,
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
	uint64_t own_ptrs;		/* mutated pointers ptr_own() caught */
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
int opt_avoid_known;
static int opt_trace;
static const char *opt_blk_devs[MAX_BLK_DEVS];	/* --blk-dev */
static int opt_nblk_devs;

/*
 * What the workers share about the block channel: a lock each for the
 * calls that may make an export or a mapping (held while counting the
 * live ones and making the call, so that the bound holds across
 * workers), the indexes of mappings made and the names of exports made
 * (for UNMAP, UNEXPORT and I/O to hit live ones; -1 / "" when free)
 */
struct blkshared {
	uint32_t export_lock, map_lock;
	int32_t idx[BLK_RING];
	uint32_t idx_next, name_next;
	char names[BLK_RING][RDMACHAN_BLK_NAME_MAX];
};

static struct blkshared *blk_sh;

/* ---- random numbers (xorshift64*, seeded by splitmix64) -------------- */

static uint64_t rng_state;

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

uint64_t rnd64(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dULL;
}

/* rnd: uniform in [0, n), n > 0 */
uint32_t rnd(uint32_t n)
{
	return (uint32_t)(((rnd64() >> 32) * (uint64_t)n) >> 32);
}

/* chance: true with probability pct / 100 */
int chance(unsigned int pct)
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
uint64_t bval(void)
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

uint8_t *scratch;	/* SCRATCH_LEN bytes, then a PROT_NONE page */
static uint8_t *ro_rw, *ro_view;	/* one page: writable view, read-only view */
static uint8_t *none_page;	/* PROT_NONE */
static uint8_t *unmapped;	/* a page nobody maps */
uint8_t *argpage;	/* one page for arguments, then PROT_NONE */
static uint8_t *volatile_map;	/* SCRATCH-like, unmapped and remapped; a
				 * PROT_NONE page after it */
#define VOLATILE_LEN	(64 * PAGE)

/*
 * The fuzzer's own writable memory: every writable mapping of the worker
 * once its memory is set up (the shared counters, blk_sh, the heap with
 * room to grow, the stack, the libraries' data) but the buffers calls
 * point at.  A pointer that mutate() moved there (a byte or two of a
 * scratch pointer changed lands past the guard page, in the mapping the
 * kernel put above scratch: the shared counters) is replaced: the kernel
 * must not be told to write the fuzzer's state, which it would do as it
 * is told (LIST's export names in the CONNECT row of a histogram).
 */
#define OWN_MAX		64
static struct { uintptr_t lo, hi; } own[OWN_MAX];
static int nown;

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

/* in_target: @p is in a buffer calls point at, which a guard page ends */
static int in_target(uintptr_t p)
{
	return (p >= (uintptr_t)scratch && p < (uintptr_t)scratch + SCRATCH_LEN) ||
	       (p >= (uintptr_t)argpage && p < (uintptr_t)argpage + PAGE) ||
	       (p >= (uintptr_t)volatile_map &&
		p < (uintptr_t)volatile_map + VOLATILE_LEN);
}

/* own_read: the fuzzer's own writable memory, from /proc/self/maps */
static void own_read(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512], perms[8];
	unsigned long lo, hi;

	nown = 0;
	if (!f) {
		perror("fuzz: /proc/self/maps");
		exit(1);
	}
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx %7s", &lo, &hi, perms) != 3 ||
		    perms[1] != 'w' || in_target(lo))
			continue;
		if (strstr(line, "[heap]"))
			hi += 256UL << 20;	/* room for the heap to grow */
		if (nown == OWN_MAX) {
			fprintf(stderr, "fuzz: more than %d writable mappings\n", OWN_MAX);
			exit(1);
		}
		own[nown].lo = lo;
		own[nown].hi = hi;
		nown++;
	}
	fclose(f);
}

/*
 * ptr_own: would the kernel, told to write at @p, write the fuzzer's own
 * memory?  It writes from @p on and stops at the first page it may not
 * write: a target ends with a guard page, and every other writable
 * mapping (when own_read() ran) is the fuzzer's own, so only a pointer
 * that starts in one of those does.
 */
static int ptr_own(uint64_t p)
{
	for (int i = 0; i < nown; i++)
		if (p >= own[i].lo && p < own[i].hi)
			return 1;
	return 0;
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
	volatile_map = map_or_die(VOLATILE_LEN + PAGE, PROT_READ | PROT_WRITE);
	mprotect(volatile_map + VOLATILE_LEN, PAGE, PROT_NONE);
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
	own_read();
}

/*
 * ptr_pick: a user pointer for @len bytes the kernel may read or write:
 * mostly a valid one in scratch, else one of the bad kinds.  Never one
 * into the fuzzer's own state.
 */
uint64_t ptr_pick(uint64_t len)
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

int count_type(int type)
{
	int n = 0;

	for (int i = 0; i < NOBJ; i++)
		n += pool[i].type == type;
	return n;
}

/* pick_slot: a slot of @type (T_NONE: any open one), or -1 */
int pick_slot(int type)
{
	int cand[NOBJ], n = 0;

	for (int i = 0; i < NOBJ; i++)
		if (pool[i].type != T_NONE && (type == T_NONE || pool[i].type == type))
			cand[n++] = i;
	return n ? cand[rnd(n)] : -1;
}

int slot_fd(int slot)
{
	return pool[slot].fd;
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
int adopt(int fd, int type, int port)
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

/*
 * arm: SIGALRM after @ms, or (1) a jittered --alarm-ms, and again every
 * as long until disarm(): a worker preempted between arm() and its call
 * (three workers on a slow VM) takes the first signal before the call
 * blocks, and only a second one ends the wait
 */
static void arm(unsigned int ms)
{
	struct itimerval it = { 0 };

	if (ms == 1)
		ms = opt_alarm_ms / 4 + rnd(opt_alarm_ms - opt_alarm_ms / 4 + 1);

	it.it_value.tv_sec = ms / 1000;
	it.it_value.tv_usec = (ms % 1000) * 1000 + 1;
	it.it_interval = it.it_value;
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
struct rec *begin(int op, int slot, int fd, uint64_t cmd,
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
long end(long ret)
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

long do_ioctl(int op, int slot, int fd, unsigned long cmd,
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
void *place_arg(const void *src, size_t len)
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
void mutate(void *s, size_t len, const uint16_t *ptrs, int nptr)
{
	uint8_t *b = s;
	int n = 1 + rnd(3);

	if (chance(4)) {
		for (size_t i = 0; i < len; i++)
			b[i] = rnd64();
		if (chance(50))	/* mostly keep the size, to get past it */
			*(uint32_t *)b = len;
		n = 0;
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
	/* a pointer moved into the fuzzer's own memory: a valid one instead */
	for (int i = 0; i < nptr; i++) {
		uint64_t v;

		if ((size_t)ptrs[i] + 8 > len)
			continue;
		memcpy(&v, b + ptrs[i], 8);
		if (ptr_own(v)) {
			W->own_ptrs++;
			v = ptr_pick(rnd(8192));
			memcpy(b + ptrs[i], &v, 8);
		}
	}
}

/* size field: sizeof, or off by one, or another struct's, or random */
uint32_t pick_size(uint32_t size)
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


/* the fd a call goes to: mostly one of @type, sometimes any or a bad one */
int target(int type, int *slot)
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

/*
 * a listener's port to connect to: a live one, or not, now and then the
 * block server's (rdmachan_blk's listener: the channel's messages then
 * reach its parser of OPEN and requests) or a network device's
 * (rdmachan_net's: they reach its receive path as packets)
 */
int pick_port(void)
{
	int i = pick_slot(T_LISTENER);

	if (chance(3))
		return BLK_PORT;
	if (chance(3))
		return net_port();
	if (i >= 0 && chance(85))
		return pool[i].port;
	return chance(50) ? (int)rnd(65536) : (int)(bval() & 0xffff);
}

/* addr_pick: the fixture's addresses mostly, else weird families */
void addr_pick(struct __kernel_sockaddr_storage *ss, const char *ip,
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

int bad(unsigned int pct)
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
		sizeof(struct rdmachan_blk_export), sizeof(struct rdmachan_blk_unexport),
		sizeof(struct rdmachan_blk_map), sizeof(struct rdmachan_blk_unmap),
		sizeof(struct rdmachan_blk_list),
		sizeof(struct rdmachan_net_add), sizeof(struct rdmachan_net_del),
		sizeof(struct rdmachan_net_list),
	};
	static const unsigned int nrs[] = {
		0x00, 0x01, 0x02, 0x10, 0x11, 0x20, 0x30, 0x31, 0x32, 0x33,
		0x34, 0x35, 0x40, 0x41, 0x42, 0x43, 0x80, 0x81, 0x82, 0x83,
		0x84, 0x8f, 0x90, 0x91, 0x92, 0x9f,
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
	if (p == MAP_FAILED) {
		/* elsewhere, with a guard page of its own (the old one stays) */
		p = map_or_die(VOLATILE_LEN + PAGE, PROT_READ | PROT_WRITE);
		mprotect((uint8_t *)p + VOLATILE_LEN, PAGE, PROT_NONE);
	}
	volatile_map = p;
	end(0);
}

/* ---- the block channel (rdmachan_blk) -------------------------------- */

static const char *const blk_names[] = { "fz0", "fz1", "fz2", "fz3" };

static int blk_trylock(uint32_t *l)
{
	uint32_t free = 0;

	return __atomic_compare_exchange_n(l, &free, 1, 0, __ATOMIC_ACQUIRE,
					   __ATOMIC_RELAXED);
}

static void blk_unlock(uint32_t *l)
{
	__atomic_store_n(l, 0, __ATOMIC_RELEASE);
}

static uint32_t blk_entry_size(uint32_t what)
{
	return what == RDMACHAN_BLK_LIST_MAPS ?
		sizeof(struct rdmachan_blk_map_info) :
		sizeof(struct rdmachan_blk_export_info);
}

/*
 * blk_list: LIST @what into @entries (room for @room), as a recorded
 * call on a control descriptor; the count, or -1 (errno set)
 */
static int blk_list(uint32_t what, void *entries, uint32_t room)
{
	struct rdmachan_blk_list l = {
		.size = sizeof(l), .what = what, .count = room,
		.entry_size = blk_entry_size(what), .entries = (uintptr_t)entries,
	};
	int slot = pick_slot(T_CTL);

	if (slot < 0) {
		errno = EBADF;
		return -1;
	}
	if (do_ioctl(OP_BLK_LIST, slot, pool[slot].fd, RDMACHAN_IOC_BLK_LIST,
		     &l, &l, sizeof(l), 0) < 0)
		return -1;
	return l.count;
}

/*
 * blk_room: may a call make one more of @what (LIST_EXPORTS or
 * LIST_MAPS)?  Asked with its lock held: fewer than BLK_MAX_LIVE there,
 * or the module is not loaded (nothing can be made).
 */
static int blk_room(uint32_t what)
{
	int n = blk_list(what, NULL, 0);

	return n < 0 ? errno == ENOTTY : n < BLK_MAX_LIVE;
}

/* blk_note_index: remember a mapping made (or forget one, @gone) */
static void blk_note_index(int32_t index, int gone)
{
	if (!gone) {
		uint32_t k = __atomic_fetch_add(&blk_sh->idx_next, 1, __ATOMIC_RELAXED);

		__atomic_store_n(&blk_sh->idx[k % BLK_RING], index, __ATOMIC_RELAXED);
		return;
	}
	for (int k = 0; k < BLK_RING; k++) {
		int32_t v = index;

		if (__atomic_compare_exchange_n(&blk_sh->idx[k], &v, -1, 0,
						__ATOMIC_RELAXED, __ATOMIC_RELAXED))
			return;
	}
}

/*
 * blk_pick_index: the index of a mapping that is likely live: one made
 * by a worker, or one LIST names; -1 when none is known
 */
static int32_t blk_pick_index(void)
{
	struct rdmachan_blk_map_info *mi =
		(void *)(scratch + SCRATCH_LEN - 448 * 1024);
	int32_t cand[BLK_RING];
	int n = 0;

	if (chance(50)) {
		for (int k = 0; k < BLK_RING; k++) {
			int32_t v = __atomic_load_n(&blk_sh->idx[k], __ATOMIC_RELAXED);

			if (v >= 0)
				cand[n++] = v;
		}
		if (n)
			return cand[rnd(n)];
	}
	n = blk_list(RDMACHAN_BLK_LIST_MAPS, mi, BLK_RING);
	if (n <= 0)
		return -1;
	return mi[rnd(n < BLK_RING ? n : BLK_RING)].index;
}

/* blk_note_name: remember an export made, or forget one (@gone) */
static void blk_note_name(const char *name, int gone)
{
	if (!gone) {
		uint32_t k = __atomic_fetch_add(&blk_sh->name_next, 1, __ATOMIC_RELAXED);

		memcpy(blk_sh->names[k % BLK_RING], name, RDMACHAN_BLK_NAME_MAX);
		blk_sh->names[k % BLK_RING][RDMACHAN_BLK_NAME_MAX - 1] = 0;
		return;
	}
	for (int k = 0; k < BLK_RING; k++)
		if (!strncmp(blk_sh->names[k], name, RDMACHAN_BLK_NAME_MAX))
			blk_sh->names[k][0] = 0;
}

/* blk_live_name: the name of an export LIST names now, in @n; 0 or -1 */
static int blk_live_name(char *n)
{
	struct rdmachan_blk_export_info *ei =
		(void *)(scratch + SCRATCH_LEN - 440 * 1024);
	int k = blk_list(RDMACHAN_BLK_LIST_EXPORTS, ei, BLK_RING);

	if (k <= 0)
		return -1;
	memcpy(n, ei[rnd(k < BLK_RING ? k : BLK_RING)].name, RDMACHAN_BLK_NAME_MAX);
	n[RDMACHAN_BLK_NAME_MAX - 1] = 0;
	return 0;
}

/*
 * blk_name: an export name: mostly one of blk_names (what EXPORT makes,
 * so MAP and UNEXPORT find it) or one an EXPORT made; else valid names
 * nobody exports, and bad ones: empty, ".", "..", a slash, a space or
 * a control character, unterminated, random bytes
 */
static void blk_name(char *n)
{
	static const char *const odd[] = {
		"nosuch", "a", "fz-x.y_Z9", "FZ0", "fz0.", "-", "_",
	};
	static const char *const bad_names[] = {
		"", ".", "..", "a/b", "/", "fz0 ", " fz0", "fz\n0", "fz0\x7f",
		"\xff\xfe", "../fz0", "fz%s%n",
	};
	uint32_t r = rnd(100);

	memset(n, 0, RDMACHAN_BLK_NAME_MAX);
	if (r < 70) {
		strcpy(n, blk_names[rnd(ARRAY_SIZE(blk_names))]);
	} else if (r < 82) {
		const char *s = blk_sh->names[rnd(BLK_RING)];

		memcpy(n, s, RDMACHAN_BLK_NAME_MAX);
		n[RDMACHAN_BLK_NAME_MAX - 1] = 0;
		if (!n[0])
			strcpy(n, blk_names[rnd(ARRAY_SIZE(blk_names))]);
	} else if (r < 88) {
		strcpy(n, odd[rnd(ARRAY_SIZE(odd))]);
	} else if (r < 91) {
		/* the longest valid name, 63 characters */
		for (int i = 0; i < RDMACHAN_BLK_NAME_MAX - 1; i++)
			n[i] = "abcdefghijklmnopqrstuvwxyz0123456789._-"[rnd(39)];
	} else if (r < 94) {
		memset(n, chance(50) ? 'x' : 0xff, RDMACHAN_BLK_NAME_MAX);
	} else if (r < 96) {
		for (int i = 0; i < RDMACHAN_BLK_NAME_MAX; i++)
			n[i] = rnd64();
	} else {
		strcpy(n, bad_names[rnd(ARRAY_SIZE(bad_names))]);
	}
}

/*
 * blk_path: a backing device for EXPORT: one of --blk-dev's mostly (a
 * real device, free or exported already), a mapped /dev/rcblkN at times
 * (a disk of this very client), else what is no block device or no path
 */
static void blk_path(char *p)
{
	static const char *const bogus[] = {
		"/dev/null", "/dev/zero", "/dev/" RDMACHAN_DEVICE_NAME,
		"/tmp/fzb-regular", "/tmp", "/dev", "/", "/nonexistent",
		"/dev/nonexistent/x", "", "nullb0", "dev/nullb_fz0",
		"/proc/self/fd/0", "/sys/block", "/dev/nullb_fz0/..",
		"/dev/./nullb_fz0", "//dev//nullb_fz1",
	};
	uint32_t r = rnd(100);

	memset(p, 0, RDMACHAN_BLK_PATH_MAX);
	if (r < 60 && opt_nblk_devs) {
		snprintf(p, RDMACHAN_BLK_PATH_MAX, "%s",
			 opt_blk_devs[rnd(opt_nblk_devs)]);
	} else if (r < 64) {
		int32_t i = blk_pick_index();

		snprintf(p, RDMACHAN_BLK_PATH_MAX, "/dev/rcblk%d",
			 i >= 0 ? i : (int)rnd(4));
	} else if (r < 90) {
		snprintf(p, RDMACHAN_BLK_PATH_MAX, "%s", bogus[rnd(ARRAY_SIZE(bogus))]);
	} else if (r < 94) {
		/* very long: 255 characters, terminated, a directory chain */
		for (int i = 0; i < RDMACHAN_BLK_PATH_MAX - 1; i++)
			p[i] = i % 8 ? 'a' + rnd(26) : '/';
	} else if (r < 97) {
		/* unterminated */
		memset(p, '/', RDMACHAN_BLK_PATH_MAX);
		if (chance(50) && opt_nblk_devs)
			memcpy(p, opt_blk_devs[0], strlen(opt_blk_devs[0]));
	} else {
		for (int i = 0; i < RDMACHAN_BLK_PATH_MAX; i++)
			p[i] = rnd64();
	}
}

/*
 * blk_cidr: an allow entry: mostly the fixture's network (so that the
 * client at CLI_IP may map), others that do not admit it, then bad
 * families, prefixes past the family's width, reserved bits, host bits
 */
static void blk_cidr(struct rdmachan_blk_cidr *c)
{
	static const uint8_t net[4] = { 192, 0, 2, 0 };
	static const uint8_t doc6[16] = { 0x20, 0x01, 0x0d, 0xb8 };

	memset(c, 0, sizeof(*c));
	c->family = AF_INET;
	memcpy(c->addr, net, 4);
	switch (rnd(dirty ? 12 : 7)) {
	case 0:
	case 1:
	case 2:
		c->prefix = 24;
		break;
	case 3:
		c->prefix = 32;
		c->addr[3] = chance(80) ? 2 : 1;
		break;
	case 4:
		memset(c->addr, 0, 4);	/* 0.0.0.0/0: anyone */
		break;
	case 5:
		c->family = AF_INET6;
		memcpy(c->addr, doc6, sizeof(doc6));
		c->prefix = 32;
		break;
	case 6:
		c->addr[0] = 198;
		c->addr[1] = 51;
		c->addr[2] = 100;
		c->prefix = 24;
		break;
	case 7:
		c->family = (uint16_t)bval();
		c->prefix = rnd(33);
		break;
	case 8:
		c->family = chance(50) ? AF_INET : AF_INET6;
		c->prefix = c->family == AF_INET ? 33 + rnd(223) : 129 + rnd(127);
		break;
	case 9:
		c->prefix = 24;
		c->reserved = 1 + rnd(255);
		break;
	case 10:
		c->prefix = 24;
		c->addr[3] = 1;		/* host bits set */
		break;
	default:
		for (size_t i = 0; i < sizeof(*c); i++)
			((uint8_t *)c)[i] = rnd64();
		break;
	}
}

/*
 * spoil: the call could make one more export or mapping than the bound
 * allows: make its size wrong instead (or skip it, return 1)
 */
static int spoil(uint32_t *size, uint32_t good)
{
	if (chance(75))
		return 1;
	*size = good ^ (1U << rnd(12));
	return 0;
}

static void fz_blk_export(void)
{
	struct rdmachan_blk_export e;
	int slot, fd = target(T_CTL, &slot);
	int locked = blk_trylock(&blk_sh->export_lock);
	uint32_t n;

	memset(&e, 0, sizeof(e));
	e.size = sizeof(e);
	e.flags = chance(85) ? (chance(25) ? RDMACHAN_BLK_RO : 0) : (uint32_t)bval();
	blk_name(e.name);
	blk_path(e.path);
	if (chance(80))
		n = 1 + rnd(3);
	else if (chance(40))
		n = 0;		/* refuses every client */
	else
		n = chance(50) ? RDMACHAN_BLK_MAX_ALLOW + rnd(2) : (uint32_t)bval();
	e.nr_allow = n;
	for (uint32_t i = 0; i < n && i < RDMACHAN_BLK_MAX_ALLOW; i++)
		blk_cidr(&e.allow[i]);
	if (bad(5))
		e.reserved = bval();
	MAYBE_MUTATE(e, 10);
	if (!locked || !blk_room(RDMACHAN_BLK_LIST_EXPORTS)) {
		if (spoil(&e.size, sizeof(e)))
			goto out;
	}
	if (do_ioctl(OP_BLK_EXPORT, slot, fd, RDMACHAN_IOC_BLK_EXPORT,
		     place_arg(&e, sizeof(e)), &e, sizeof(e), 0) == 0)
		blk_note_name(e.name, 0);
out:
	if (locked)
		blk_unlock(&blk_sh->export_lock);
}

static void fz_blk_unexport(void)
{
	struct rdmachan_blk_unexport u = { .size = sizeof(u) };
	int slot, fd = target(T_CTL, &slot);

	u.flags = chance(90) ? (chance(50) ? RDMACHAN_BLK_FORCE : 0) : (uint32_t)bval();
	if (!chance(30) || blk_live_name(u.name))
		blk_name(u.name);
	MAYBE_MUTATE(u, 10);
	if (do_ioctl(OP_BLK_UNEXPORT, slot, fd, RDMACHAN_IOC_BLK_UNEXPORT,
		     place_arg(&u, sizeof(u)), &u, sizeof(u), 0) == 0)
		blk_note_name(u.name, 1);
}

static void fz_blk_map(void)
{
	struct rdmachan_blk_map m = { .size = sizeof(m) };
	int slot, fd = target(T_CTL, &slot);
	int locked = blk_trylock(&blk_sh->map_lock);
	uint32_t r = rnd(100);
	uint8_t *arg;

	m.flags = chance(85) ? (chance(20) ? RDMACHAN_BLK_RO : 0) : (uint32_t)bval();
	/* port 0 is the default, BLK_PORT */
	if (chance(85))
		set_in4(&m.server, SRV_IP, chance(30) ? 0 : BLK_PORT);
	else
		addr_pick(&m.server, SRV_IP, chance(50) ? BLK_PORT : pick_port());
	if (r < 80)
		set_in4(&m.src, CLI_IP, 0);
	else if (r >= 90)	/* else AF_UNSPEC: any */
		addr_pick(&m.src, CLI_IP, chance(80) ? 0 : (int)rnd(65536));
	/* mostly a live export, so that maps reach a disk */
	if (!chance(60) || blk_live_name(m.name))
		blk_name(m.name);
	m.nr_queues = chance(80) ? rnd(4) : (uint32_t)bval();
	if (chance(40))
		m.queue_depth = 0;	/* the module's default */
	else
		m.queue_depth = chance(80) ? 2 + rnd(63) : (uint32_t)bval();
	if (bad(5))
		m.reserved[rnd(5)] = bval();
	if (bad(3))
		m.index = bval();	/* out only: EINVAL when set */
	MAYBE_MUTATE(m, 10);
	/* depths the module takes (2..4096) stay within the VM's memory */
	if (m.queue_depth > BLK_MAX_DEPTH && m.queue_depth <= 4096)
		m.queue_depth = BLK_MAX_DEPTH;
	if (!locked || !blk_room(RDMACHAN_BLK_LIST_MAPS)) {
		if (spoil(&m.size, sizeof(m)))
			goto out;
	}
	arg = place_arg(&m, sizeof(m));
	/*
	 * Connecting waits (interruptibly; the OPEN_RSP then killably, up
	 * to clt_timeout_ms a queue): now and then interrupted early
	 */
	if (do_ioctl(OP_BLK_MAP, slot, fd, RDMACHAN_IOC_BLK_MAP, arg, &m,
		     sizeof(m), chance(25) ? 1 : 20000) == 0 &&
	    arg >= argpage && arg < argpage + PAGE)
		blk_note_index(((struct rdmachan_blk_map *)arg)->index, 0);
out:
	if (locked)
		blk_unlock(&blk_sh->map_lock);
}

static void fz_blk_unmap(void)
{
	struct rdmachan_blk_unmap u = { .size = sizeof(u) };
	int slot, fd = target(T_CTL, &slot);
	int32_t i = chance(90) ? blk_pick_index() : -1;

	u.index = i >= 0 ? (uint32_t)i : chance(60) ? rnd(16) : (uint32_t)bval();
	u.flags = chance(90) ? (chance(50) ? RDMACHAN_BLK_FORCE : 0) : (uint32_t)bval();
	if (bad(5))
		u.reserved = bval();
	MAYBE_MUTATE(u, 10);
	if (do_ioctl(OP_BLK_UNMAP, slot, fd, RDMACHAN_IOC_BLK_UNMAP,
		     place_arg(&u, sizeof(u)), &u, sizeof(u), 0) == 0)
		blk_note_index(u.index, 1);
}

static void fz_blk_list(void)
{
	struct rdmachan_blk_list l = { .size = sizeof(l) };
	int slot, fd = target(T_CTL, &slot);
	uint32_t r = rnd(100);

	l.what = r < 45 ? RDMACHAN_BLK_LIST_EXPORTS : r < 90 ?
		RDMACHAN_BLK_LIST_MAPS : (chance(50) ? rnd(4) : (uint32_t)bval());
	r = rnd(100);
	if (r < 85)
		l.entry_size = blk_entry_size(l.what);
	else if (r < 90)
		l.entry_size = blk_entry_size(l.what == RDMACHAN_BLK_LIST_MAPS ?
					      RDMACHAN_BLK_LIST_EXPORTS :
					      RDMACHAN_BLK_LIST_MAPS);
	else if (r < 95)
		l.entry_size = blk_entry_size(l.what) + rnd(3) - 1;
	else
		l.entry_size = (uint32_t)bval();
	l.count = chance(80) ? rnd(7) : (uint32_t)bval();
	l.entries = ptr_pick((uint64_t)l.count * blk_entry_size(l.what));
	MAYBE_MUTATE(l, 15, 16);
	do_ioctl(OP_BLK_LIST, slot, fd, RDMACHAN_IOC_BLK_LIST,
		 place_arg(&l, sizeof(l)), &l, sizeof(l), 0);
}

/*
 * fz_blk_io: open a mapped disk (mostly one made here, maybe unmapped
 * or dying under another worker's forced UNMAP or UNEXPORT), a few
 * small preads and pwrites, O_DIRECT or through the page cache, then
 * close it, or keep it open a while (a non-forced UNMAP meets EBUSY;
 * the other calls may pick it too)
 */
static void fz_blk_io(void)
{
	int32_t i = blk_pick_index();
	char path[32];
	uint64_t a[3];
	int fl, n;
	long fd;

	snprintf(path, sizeof(path), "/dev/rcblk%d", i >= 0 ? i : (int)rnd(8));
	fl = (chance(70) ? O_RDWR : O_RDONLY) | O_CLOEXEC |
		(chance(50) ? O_DIRECT : 0) | (chance(10) ? O_NONBLOCK : 0) |
		(chance(5) ? O_EXCL : 0);
	a[0] = fl;
	begin(OP_BLK_OPEN, -1, -1, fl, 0, a, sizeof(a[0]), 0);
	fd = end(open(path, fl));
	if (fd < 0)
		return;
	n = 1 + rnd(3);
	while (n--) {
		int wr = (fl & O_ACCMODE) == O_RDWR && chance(50);
		uint64_t len, off, buf;

		if (chance(90)) {
			len = (chance(50) ? 512 : 4096) * (1 + rnd(8));
			off = (uint64_t)rnd(BLK_IO_SPAN / 512) * 512;
			buf = (uintptr_t)scratch + rnd(SCRATCH_LEN / 2 / PAGE) * PAGE;
		} else {
			len = chance(50) ? rnd(8192) : bval() & (SCRATCH_LEN - 1);
			off = chance(50) ? rnd(BLK_IO_SPAN + 8192) : bval();
			buf = ptr_pick(len);
		}
		a[0] = off;
		a[1] = len;
		a[2] = wr;
		begin(OP_BLK_IO, -1, fd, wr, buf, a, sizeof(a), 0);
		if (wr)
			end(pwrite(fd, (void *)(uintptr_t)buf, len, (off_t)off));
		else
			end(pread(fd, (void *)(uintptr_t)buf, len, (off_t)off));
	}
	if (count_type(T_BLK) < 2 && chance(25) && adopt(fd, T_BLK, 0) >= 0)
		return;
	begin(OP_BLK_OPEN, -1, fd, 0, 0, NULL, 0, 0);
	end(close(fd));
}

/*
 * blk_cleanup: in the parent, after the workers: remove every mapping
 * and export (forced), so that rdmachan_blk can unload.  Return: how
 * many are left (-1: LIST failed), with what was removed in @done.
 */
static int blk_cleanup(char *done, size_t n)
{
	static struct rdmachan_blk_map_info mi[64];
	static struct rdmachan_blk_export_info ei[64];
	int fd = open(CTL_PATH, O_RDWR), nm = 0, ne = 0, left = -1;
	int unmapped = 0, unexported = 0, failed = 0;

	snprintf(done, n, "nothing to remove");
	if (fd < 0)
		return -1;
	for (int pass = 0; pass < 5; pass++) {
		struct rdmachan_blk_list l = { .size = sizeof(l) };
		struct rdmachan_blk_unmap um = { .size = sizeof(um) };
		struct rdmachan_blk_unexport ue = { .size = sizeof(ue) };

		l.what = RDMACHAN_BLK_LIST_MAPS;
		l.count = ARRAY_SIZE(mi);
		l.entry_size = sizeof(mi[0]);
		l.entries = (uintptr_t)mi;
		if (ioctl(fd, RDMACHAN_IOC_BLK_LIST, &l) < 0) {
			if (errno == ENOTTY)	/* not loaded */
				left = 0;
			break;
		}
		nm = l.count;
		for (int i = 0; i < nm && i < (int)ARRAY_SIZE(mi); i++) {
			um.index = mi[i].index;
			um.flags = RDMACHAN_BLK_FORCE;
			if (ioctl(fd, RDMACHAN_IOC_BLK_UNMAP, &um) == 0)
				unmapped++;
			else
				failed++;
		}
		l.what = RDMACHAN_BLK_LIST_EXPORTS;
		l.count = ARRAY_SIZE(ei);
		l.entry_size = sizeof(ei[0]);
		l.entries = (uintptr_t)ei;
		if (ioctl(fd, RDMACHAN_IOC_BLK_LIST, &l) < 0)
			break;
		ne = l.count;
		for (int i = 0; i < ne && i < (int)ARRAY_SIZE(ei); i++) {
			memcpy(ue.name, ei[i].name, sizeof(ue.name));
			ue.flags = RDMACHAN_BLK_FORCE;
			if (ioctl(fd, RDMACHAN_IOC_BLK_UNEXPORT, &ue) == 0)
				unexported++;
			else
				failed++;
		}
		if (!nm && !ne) {
			left = 0;
			break;
		}
		left = nm + ne;
	}
	close(fd);
	snprintf(done, n, "%d mappings and %d exports removed, %d refused, %d left",
		 unmapped, unexported, failed, left);
	return left;
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
	case ENXIO: return "ENXIO";
	case ENOTBLK: return "ENOTBLK";
	case ENOTDIR: return "ENOTDIR";
	case EISDIR: return "EISDIR";
	case EROFS: return "EROFS";
	case ENAMETOOLONG: return "ENAMETOOLONG";
	case ELOOP: return "ELOOP";
	case EFBIG: return "EFBIG";
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
	uint64_t calls = 0, stray = 0, own_ptrs = 0;

	for (unsigned int i = 0; i < opt_procs; i++) {
		calls += all_ws[i].calls;
		stray += all_ws[i].stray_fds;
		own_ptrs += all_ws[i].own_ptrs;
	}
	printf("# fuzz: %" PRIu64 " calls in %.1f s (%.0f/s), %u procs, seed %" PRIu64
	       ", %" PRIu64 " stray descriptors\n", calls, secs,
	       secs > 0 ? calls / secs : 0.0, opt_procs, opt_seed, stray);
	printf("# fuzz: %" PRIu64 " mutated pointers into the fuzzer's own memory replaced\n",
	       own_ptrs);
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
 * The end, in KTAP: the summary as diagnostics, then the five results
 * the VM case reports (tests/vm/cases/fuzz.sh).  @rc: 0, 2 (a worker was
 * killed or exited early), 3 (a call hung: the block and network
 * channels are left as they are, their teardown could hang too).
 * Return: @rc, or 1 when only the descriptor check, the counters or the
 * block or network channel's teardown failed.
 */
static int report(double secs, int rc)
{
	uint64_t stray = summary(secs);
	char blk_done[128] = "skipped: a call hung";
	int blk_left = rc == 3 ? -1 : blk_cleanup(blk_done, sizeof(blk_done));
	char net_done[192] = "skipped: a call hung";
	int net_left = rc == 3 ? -1 : net_cleanup(net_done, sizeof(net_done));
	unsigned int torn = 0;

	/*
	 * Each call counted adds one to its worker's histogram and calls:
	 * sums that differ mean something wrote into the fuzzer's own
	 * (shared) memory, which no call points at: the kernel, through a
	 * stale page (a registration's or a request's)
	 */
	for (unsigned int i = 0; i < opt_procs; i++) {
		uint64_t sum = 0;

		for (int op = 0; op < NOPS; op++)
			for (int e = 0; e < NERR + 2; e++)
				sum += all_ws[i].hist[op][e];
		if (sum != all_ws[i].calls) {
			printf("# fuzz: worker %u's counts were overwritten: %" PRIu64
			       " calls, histogram sum %" PRIu64 "\n", i,
			       all_ws[i].calls, sum);
			torn++;
		}
	}

	if (rc)
		printf("not ok 1 - workers end cleanly: none killed, no call stuck # %s\n",
		       rc == 3 ? "a call hung" : "a worker was killed or exited early");
	else
		printf("ok 1 - workers end cleanly: none killed, no call stuck\n");
	printf("%sok 2 - no descriptor installed without being returned",
	       stray ? "not " : "");
	if (stray)
		printf(" # %" PRIu64 " stray descriptors", stray);
	printf("\n%sok 3 - every block mapping and export removed at the end # %s\n",
	       blk_left ? "not " : "", blk_done);
	printf("%sok 4 - the fuzzer's own memory is intact (call counts match)\n",
	       torn ? "not " : "");
	printf("%sok 5 - every network device removed at the end # %s\n",
	       net_left ? "not " : "", net_done);
	printf("1..5\n");
	fflush(stdout);
	return rc ?: (stray || blk_left || torn || net_left ? 1 : 0);
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
