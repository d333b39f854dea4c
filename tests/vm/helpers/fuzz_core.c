// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_core.c: what the fuzzer's calls share: the random numbers, the
 * memory calls point at, the pool of descriptors, the record of each
 * call (begin(), end(), do_ioctl()) and the arguments' making and
 * mutation.
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

/* ---- random numbers (xorshift64*, seeded by splitmix64) -------------- */

uint64_t rng_state;

uint64_t splitmix64(uint64_t *x)
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
uint8_t *unmapped;	/* a page nobody maps */
uint8_t *argpage;	/* one page for arguments, then PROT_NONE */
uint8_t *volatile_map;	/* SCRATCH-like, unmapped and remapped; a
				 * PROT_NONE page after it */

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

void *map_or_die(size_t len, int prot)
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
void setup_memory(void)
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


struct obj pool[NOBJ];
int epfd = -1;
struct wshared *W;	/* this worker's shared state */
struct wshared *all_ws;
int worker_id;

void obj_clear(int i)
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

int slot_of_fd(int fd)
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

void drop_slot(int i)
{
	for (int j = 0; j < NOBJ; j++)
		if (pool[j].peer == i)
			pool[j].peer = -1;
	obj_clear(i);
}

/* ---- recording calls ------------------------------------------------- */

static volatile sig_atomic_t alarms;

void on_alarm(int sig)
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


struct rec *cur_rec;
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
void note_err(int slot, int e)
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
void chan_opts(struct rdmachan_chan_opts *o)
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
