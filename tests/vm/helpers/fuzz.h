/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fuzz.h: what the ioctl fuzzer's files share.  fuzz.c has the workers,
 * the random numbers, the memory calls point at, the descriptor pool,
 * the recording of calls and the report; fuzz_net.c the network
 * channel's calls (rdmachan_net), which fuzz.c's one_call() dispatches
 * to fz_net().
 */
#ifndef RDMACHAN_TEST_FUZZ_H
#define RDMACHAN_TEST_FUZZ_H

#include <stddef.h>
#include <stdint.h>

#include <linux/types.h>

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
	NOPS
};

/* descriptors of the pool; T_SYSFS: an attribute file of an interface */
enum otype { T_NONE, T_CTL, T_LISTENER, T_CHAN, T_OTHER, T_BLK, T_SYSFS };

/* ---- fuzz.c ----------------------------------------------------------- */

extern uint8_t *scratch, *argpage;
extern int opt_avoid_known;

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

/* ---- fuzz_net.c ------------------------------------------------------- */

int net_setup(void);
void fz_net(int op);
int net_port(void);
int net_cleanup(char *done, size_t n);

#endif /* RDMACHAN_TEST_FUZZ_H */
