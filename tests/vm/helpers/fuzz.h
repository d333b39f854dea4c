/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fuzz.h: what the ioctl fuzzer's files share.  fuzz.c has the options,
 * the workers and main(); fuzz_core.c the random numbers, the memory
 * calls point at, the descriptor pool, the recording of calls and the
 * making of arguments; fuzz_chan.c the message channel's calls,
 * fuzz_blk.c the block channel's (rdmachan_blk), fuzz_net.c the network
 * channel's (rdmachan_net), fuzz_dgram.c the datagram endpoints', which
 * fuzz.c's one_call() dispatches to;
 * fuzz_report.c the parent's report.
 */
#ifndef RDMACHAN_TEST_FUZZ_H
#define RDMACHAN_TEST_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <linux/types.h>
#include <linux/rdmachan.h>
#include <linux/rdmachan_blk.h>

#define CTL_PATH	"/dev/" RDMACHAN_DEVICE_NAME
#define SRV_IP		"192.0.2.1"
#define CLI_IP		"192.0.2.2"
#define PAGE		4096UL
#define SCRATCH_LEN	(1UL << 20)	/* buffers the kernel may read and write */
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* ---- calls: the kinds the summary counts ----------------------------- */

enum op {
	OP_VERSION, OP_DEV_LIST, OP_DEV_QUERY, OP_CONNECT, OP_LISTEN,
	OP_ACCEPT, OP_SEND, OP_RECV, OP_SENDMMSG, OP_RECVMMSG, OP_CHAN_INFO,
	OP_BENCH, OP_REG_MR, OP_DEREG_MR, OP_RDMA, OP_RDMA_REAP, OP_RANDCMD,
	OP_READ, OP_WRITE, OP_WRITEV, OP_POLL, OP_EPOLL_CTL, OP_EPOLL_WAIT,
	OP_SELECT, OP_FCNTL, OP_MISC, OP_CLOSE, OP_OPEN_CTL, OP_NEW_LISTENER,
	OP_NEW_PAIR, OP_REMAP, OP_BLK_EXPORT, OP_BLK_UNEXPORT, OP_BLK_MAP,
	OP_BLK_UNMAP, OP_BLK_LIST, OP_BLK_OPEN, OP_BLK_IO,
	OP_NET_ADD, OP_NET_DEL, OP_NET_LIST, OP_NET_SYSFS, OP_NET_LINK,
	OP_DGRAM_OPEN, OP_DGRAM_RESOLVE, OP_DGRAM_XFER, OP_DGRAM_INFO,
	OP_DGRAM_JOIN, OP_DGRAM_BENCH,
	NOPS
};

/* descriptors of the pool; T_SYSFS: an attribute file of an interface */
enum otype { T_NONE, T_CTL, T_LISTENER, T_CHAN, T_OTHER, T_BLK, T_SYSFS,
	     T_DGRAM };

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

/* ---- fuzz.c ----------------------------------------------------------- */

extern uint64_t opt_seed;
extern unsigned int opt_procs, opt_alarm_ms;
extern int opt_avoid_known, opt_trace;
extern const char *opt_blk_devs[MAX_BLK_DEVS];	/* --blk-dev */
extern int opt_nblk_devs;

/* ---- fuzz_core.c ------------------------------------------------------ */

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

extern struct obj pool[NOBJ];
extern int epfd;
extern struct wshared *W;	/* this worker's shared state */
extern struct wshared *all_ws;
extern int worker_id;
extern struct rec *cur_rec;	/* the call begin() recorded last */

extern uint64_t rng_state;
extern uint8_t *scratch, *argpage, *unmapped;
extern uint8_t *volatile_map;	/* VOLATILE_LEN, unmapped and remapped */
#define VOLATILE_LEN	(64 * PAGE)

uint64_t splitmix64(uint64_t *x);
void *map_or_die(size_t len, int prot);
void setup_memory(void);
void obj_clear(int i);
int slot_of_fd(int fd);
void drop_slot(int i);
void on_alarm(int sig);
void note_err(int slot, int e);
void chan_opts(struct rdmachan_chan_opts *o);

uint64_t rnd64(void);
uint32_t rnd(uint32_t n);
int chance(unsigned int pct);
uint64_t bval(void);
int bad(unsigned int pct);

uint64_t ptr_pick(uint64_t len);
void *place_arg(const void *src, size_t len);
void mutate(void *s, size_t len, const uint16_t *ptrs, int nptr);
uint32_t pick_size(uint32_t size);

/*
 * MAYBE_MUTATE: with @pct % chance mutate the structure @s (the offsets
 * after @pct are those of its __u64 user pointers), and now and then
 * spoil its size field
 */
#define MAYBE_MUTATE(s, pct, ...) do {					\
	static const uint16_t _p[] = { 0, ##__VA_ARGS__ };		\
	if (chance(pct))						\
		mutate(&(s), sizeof(s), _p + 1,				\
		       (int)ARRAY_SIZE(_p) - 1);			\
	if (chance(3))							\
		(s).size = pick_size(sizeof(s));			\
} while (0)

struct rec;
struct rec *begin(int op, int slot, int fd, uint64_t cmd, uint64_t argp,
		  const void *arg, size_t alen, int may_block);
long end(long ret);
long do_ioctl(int op, int slot, int fd, unsigned long cmd, void *arg,
	      const void *copy, size_t alen, int may_block);

int target(int type, int *slot);
int pick_slot(int type);
int slot_fd(int slot);
int count_type(int type);
int adopt(int fd, int type, int port);
int pick_port(void);
void addr_pick(struct __kernel_sockaddr_storage *ss, const char *ip,
	       int port);

/* ---- fuzz_chan.c ------------------------------------------------------ */

extern int dirty;	/* this call's fields may be spoilt: bad() */

void close_slot(int i);
int new_pair(void);
int new_listener(int nonblock);
void fz_version(void);
void fz_dev_list(void);
void fz_dev_query(void);
void fz_connect(void);
void fz_listen(void);
void fz_accept(void);
void fz_mmsg(int op);
void fz_chan_info(void);
void fz_bench(void);
void fz_reg_mr(void);
void fz_dereg_mr(void);
void fz_rdma(void);
void fz_reap(void);
void fz_randcmd(void);
void fz_rw(int op);
void fz_writev(void);
void fz_poll(void);
void fz_epoll_ctl(void);
void fz_epoll_wait(void);
void fz_select(void);
void fz_fcntl(void);
void fz_misc(void);
void fz_close(void);
void fz_open_ctl(void);
void fz_remap(void);

/* ---- fuzz_blk.c ------------------------------------------------------- */

extern struct blkshared *blk_sh;

void fz_blk_export(void);
void fz_blk_unexport(void);
void fz_blk_map(void);
void fz_blk_unmap(void);
void fz_blk_list(void);
void fz_blk_io(void);
int blk_cleanup(char *done, size_t n);

/* ---- fuzz_report.c ---------------------------------------------------- */

void fmt_rec(char *out, size_t n, const struct rec *r);
void dump_worker(int id, const char *why);
int report(double secs, int rc);

/* ---- fuzz_net.c ------------------------------------------------------- */

int net_setup(void);
void fz_net(int op);
int net_port(void);
int net_cleanup(char *done, size_t n);

/* ---- fuzz_dgram.c ----------------------------------------------------- */

void fz_dgram_open(void);
void fz_dgram_resolve(void);
void fz_dgram_xfer(void);
void fz_dgram_info(void);
void fz_dgram_join(void);
void fz_dgram_bench(void);

#endif /* RDMACHAN_TEST_FUZZ_H */
