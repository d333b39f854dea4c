// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_chan.c: the fuzzer's calls on the message channel: every ioctl of
 * /dev/rdmachan and of its listener and channel descriptors, random
 * commands, read, write, poll, epoll, select, fcntl, mmap and close, and
 * the making of new descriptors (new_listener(), new_pair()).
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

/* ---- the calls ------------------------------------------------------- */

/*
 * A third of the calls are "dirty": bad() may spoil their fields.  The
 * others stay valid where many fields must all be right for a call to
 * reach the queue pair (message arrays, RDMA operations).
 */
int dirty;

int bad(unsigned int pct)
{
	return dirty && chance(pct);
}


void fz_version(void)
{
	struct rdmachan_version v = { .size = sizeof(v) };
	int slot, fd = target(T_CTL, &slot);

	MAYBE_MUTATE(v, 20);
	do_ioctl(OP_VERSION, slot, fd, RDMACHAN_IOC_VERSION,
		 place_arg(&v, sizeof(v)), &v, sizeof(v), 0);
}

void fz_dev_list(void)
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

void fz_dev_query(void)
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

void fz_connect(void)
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

void fz_listen(void)
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

void fz_accept(void)
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

void fz_mmsg(int op)
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

void fz_chan_info(void)
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

void fz_bench(void)
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

void fz_reg_mr(void)
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

void fz_dereg_mr(void)
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

void fz_rdma(void)
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

void fz_reap(void)
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

void fz_randcmd(void)
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

void fz_rw(int op)
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

void fz_writev(void)
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

void fz_poll(void)
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

void fz_epoll_ctl(void)
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

void fz_epoll_wait(void)
{
	struct epoll_event ev[8];
	int timeout = chance(70) ? 0 : (int)rnd(20);
	uint64_t a[1] = { timeout };

	begin(OP_EPOLL_WAIT, -1, epfd, 0, 0, a, sizeof(a), timeout > 0);
	end(epoll_wait(epfd, ev, 8, timeout));
}

void fz_select(void)
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

void fz_fcntl(void)
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

void fz_misc(void)
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

void close_slot(int i)
{
	int fd = pool[i].fd;
	uint64_t a[1] = { pool[i].type };

	begin(OP_CLOSE, i, fd, 0, 0, a, sizeof(a), pool[i].type == T_CHAN);
	end(close(fd));
	drop_slot(i);
}

void fz_close(void)
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

void fz_open_ctl(void)
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
int new_listener(int nonblock)
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
int new_pair(void)
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

void fz_remap(void)
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
