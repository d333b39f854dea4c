// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan: checks of ioctl arguments, after they were copied in
 *
 * Every ioctl of /dev/rdmachan, of a listener fd and of a channel fd
 * copies its argument struct in whole and hands it to one of these
 * checks before using any of it: size, flags, reserved and output
 * fields, strings, addresses and option bounds.  They are pure functions
 * of the struct (no user memory, no device or channel), so that
 * tests/kunit/ioctl_*kunit.c can walk every field to and past its bounds.
 * A malformed argument fails with -EINVAL and a rate-limited log line
 * (rdmachan_ioc_inval()).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/build_bug.h>
#include <linux/errno.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/kernel.h>
#include <linux/stddef.h>
#include <linux/string.h>
#include <linux/types.h>

#include <linux/rdmachan.h>
#include <linux/rdmachan_verbs.h>

#include "ioctl.h"
#include "proto.h"
#include "rdmachan.h"

#define RDMACHAN_FD_FLAGS	(RDMACHAN_FD_NONBLOCK | RDMACHAN_FD_CLOEXEC)

/* VERSION: only @size may be set on input. */
int rdmachan_check_version(const struct rdmachan_version *v)
{
	if (v->size != sizeof(*v))
		return rdmachan_ioc_inval("VERSION", "size %u, expected %zu",
					  v->size, sizeof(*v));
	if (v->abi_version || v->features || v->device_count ||
	    memchr_inv(v->reserved, 0, sizeof(v->reserved)))
		return rdmachan_ioc_inval("VERSION", "non-zero reserved field");
	return 0;
}

/* DEV_LIST: output and reserved fields zero, an array when capacity. */
int rdmachan_check_dev_list(const struct rdmachan_dev_list *l)
{
	if (l->size != sizeof(*l))
		return rdmachan_ioc_inval("DEV_LIST", "size %u, expected %zu",
					  l->size, sizeof(*l));
	if (l->count || memchr_inv(l->reserved, 0, sizeof(l->reserved)))
		return rdmachan_ioc_inval("DEV_LIST", "non-zero reserved field");
	if (l->capacity && !l->entries)
		return rdmachan_ioc_inval("DEV_LIST", "capacity %u, no array",
					  l->capacity);
	return 0;
}

/* DEV_QUERY: a terminated, non-empty name; output fields zero. */
int rdmachan_check_dev_query(const struct rdmachan_dev_query *q)
{
	if (q->size != sizeof(*q))
		return rdmachan_ioc_inval("DEV_QUERY", "size %u, expected %zu",
					  q->size, sizeof(*q));
	if (strnlen(q->name, sizeof(q->name)) == sizeof(q->name))
		return rdmachan_ioc_inval("DEV_QUERY", "name not terminated");
	if (!q->name[0])
		return rdmachan_ioc_inval("DEV_QUERY", "empty name");
	if (q->port_capacity && !q->ports)
		return rdmachan_ioc_inval("DEV_QUERY", "port_capacity %u, no array",
					  q->port_capacity);
	if (memchr_inv(&q->port_count, 0,
		       sizeof(*q) - offsetof(struct rdmachan_dev_query,
					     port_count)))
		return rdmachan_ioc_inval("DEV_QUERY", "non-zero output or reserved field");
	return 0;
}

/* Check an address from user space; @any allows AF_UNSPEC. */
static int rdmachan_check_addr(const char *ioc, const char *what,
			       const struct __kernel_sockaddr_storage *ss,
			       bool any, bool need_port)
{
	const struct sockaddr_in *sin = (const struct sockaddr_in *)ss;
	const struct sockaddr_in6 *sin6 = (const struct sockaddr_in6 *)ss;

	switch (ss->ss_family) {
	case AF_UNSPEC:
		if (any && !memchr_inv(ss, 0, sizeof(*ss)))
			return 0;
		break;
	case AF_INET:
		if (!need_port || sin->sin_port)
			return 0;
		return rdmachan_ioc_inval(ioc, "%s: port 0", what);
	case AF_INET6:
		if (!need_port || sin6->sin6_port)
			return 0;
		return rdmachan_ioc_inval(ioc, "%s: port 0", what);
	default:
		break;
	}
	return rdmachan_ioc_inval(ioc, "%s: address family %u", what,
				  ss->ss_family);
}

/* Check channel options from user space and convert them to @out. */
static int rdmachan_check_opts(const char *ioc,
			       const struct rdmachan_chan_opts *o,
			       struct rdmachan_opts *out)
{
	if (o->reserved)
		return rdmachan_ioc_inval(ioc, "non-zero reserved option");
	if (o->poll_mode > RDMACHAN_POLL_MODE_SOLICITED)
		return rdmachan_ioc_inval(ioc, "poll_mode %u", o->poll_mode);
	if (o->queue_depth > RDMACHAN_MAX_DEPTH)
		return rdmachan_ioc_inval(ioc, "queue_depth %u > %u",
					  o->queue_depth, RDMACHAN_MAX_DEPTH);
	if (o->max_msg_size > (1U << 20))
		return rdmachan_ioc_inval(ioc, "max_msg_size %u > 1048576",
					  o->max_msg_size);
	if (o->timeout_ms > 600000)
		return rdmachan_ioc_inval(ioc, "timeout_ms %u > 600000",
					  o->timeout_ms);
	out->queue_depth = o->queue_depth;
	out->max_msg_size = o->max_msg_size;
	out->timeout_ms = o->timeout_ms;
	out->poll_mode = o->poll_mode;
	out->backlog = o->backlog;
	/* registration pools and detachable pages: kernel users only */
	out->max_send_regs = 0;
	out->rx_pages = false;
	/* every reader of the file copies messages out across buffers */
	out->rx_frags = true;
	out->zc_send = false;
	out->post_defer = false;
	return 0;
}

/* CONNECT: flags, reserved, options (to @opts), dst with port, src. */
int rdmachan_check_connect(const struct rdmachan_connect *c,
			   struct rdmachan_opts *opts)
{
	int ret;

	if (c->size != sizeof(*c))
		return rdmachan_ioc_inval("CONNECT", "size %u, expected %zu",
					  c->size, sizeof(*c));
	if (c->flags & ~RDMACHAN_FD_FLAGS)
		return rdmachan_ioc_inval("CONNECT", "unknown flags 0x%x",
					  c->flags);
	if (c->fd || memchr_inv(c->reserved, 0, sizeof(c->reserved)))
		return rdmachan_ioc_inval("CONNECT", "non-zero reserved field");
	ret = rdmachan_check_opts("CONNECT", &c->opts, opts);
	if (!ret)
		ret = rdmachan_check_addr("CONNECT", "dst", &c->dst, false, true);
	if (!ret)
		ret = rdmachan_check_addr("CONNECT", "src", &c->src, true, false);
	return ret;
}

/* LISTEN: flags, reserved, options (to @opts), address, backlog. */
int rdmachan_check_listen(const struct rdmachan_listen *c,
			  struct rdmachan_opts *opts)
{
	int ret;

	if (c->size != sizeof(*c))
		return rdmachan_ioc_inval("LISTEN", "size %u, expected %zu",
					  c->size, sizeof(*c));
	if (c->flags & ~RDMACHAN_FD_FLAGS)
		return rdmachan_ioc_inval("LISTEN", "unknown flags 0x%x",
					  c->flags);
	if (c->fd || memchr_inv(c->reserved, 0, sizeof(c->reserved)))
		return rdmachan_ioc_inval("LISTEN", "non-zero reserved field");
	ret = rdmachan_check_opts("LISTEN", &c->opts, opts);
	if (!ret)
		ret = rdmachan_check_addr("LISTEN", "addr", &c->addr, false,
					  false);
	if (ret)
		return ret;
	if (opts->backlog > 65536)
		return rdmachan_ioc_inval("LISTEN", "backlog %u > 65536",
					  opts->backlog);
	return 0;
}

/* ACCEPT: flags; fd, peer and reserved fields zero. */
int rdmachan_check_accept(const struct rdmachan_accept *a)
{
	if (a->size != sizeof(*a))
		return rdmachan_ioc_inval("ACCEPT", "size %u, expected %zu",
					  a->size, sizeof(*a));
	if (a->flags & ~RDMACHAN_FD_FLAGS)
		return rdmachan_ioc_inval("ACCEPT", "unknown flags 0x%x",
					  a->flags);
	if (a->fd || a->reserved0 || memchr_inv(&a->peer, 0, sizeof(a->peer)) ||
	    memchr_inv(a->reserved, 0, sizeof(a->reserved)))
		return rdmachan_ioc_inval("ACCEPT", "non-zero reserved field");
	return 0;
}

/* SEND, RECV (@single: one message), SENDMMSG, RECVMMSG: the header. */
int rdmachan_check_mmsg(const char *ioc, const struct rdmachan_mmsg *mm,
			bool single)
{
	if (mm->size != sizeof(*mm))
		return rdmachan_ioc_inval(ioc, "size %u, expected %zu",
					  mm->size, sizeof(*mm));
	if (mm->flags & ~RDMACHAN_MSG_DONTWAIT)
		return rdmachan_ioc_inval(ioc, "unknown flags 0x%x", mm->flags);
	if (mm->done || memchr_inv(mm->reserved, 0, sizeof(mm->reserved)))
		return rdmachan_ioc_inval(ioc, "non-zero reserved field");
	if (single ? mm->count != 1 :
		     !mm->count || mm->count > RDMACHAN_MMSG_MAX)
		return rdmachan_ioc_inval(ioc, "count %u", mm->count);
	if (!mm->msgs)
		return rdmachan_ioc_inval(ioc, "no message array");
	return 0;
}

/* SEND, SENDMMSG: flags and reserved field of message @i. */
int rdmachan_check_user_msg(const char *ioc, const struct rdmachan_user_msg *m,
			    u32 i)
{
	if ((m->flags & ~(RDMACHAN_MSG_IMM | RDMACHAN_MSG_SOLICITED)) ||
	    m->reserved)
		return rdmachan_ioc_inval(ioc, "message %u: bad flags", i);
	return 0;
}

/* CHAN_INFO: the size the caller gave (the rest is output only). */
static_assert(offsetof(struct rdmachan_chan_info, solicited_events) ==
	      RDMACHAN_CHAN_INFO_SIZE_V1);

int rdmachan_check_chan_info(u32 size)
{
	if (size != sizeof(struct rdmachan_chan_info) &&
	    size != RDMACHAN_CHAN_INFO_SIZE_V1)
		return rdmachan_ioc_inval("CHAN_INFO", "size %u, expected %zu",
					  size, sizeof(struct rdmachan_chan_info));
	return 0;
}

/*
 * BENCH on a channel of @depth credits and @max_msg_size; BLAST's batch 0
 * passes (the default), the one-sided modes' does not.
 */
int rdmachan_check_bench(const struct rdmachan_bench *b, u32 depth,
			 u32 max_msg_size)
{
	static const char ioc[] = "RDMACHAN_IOC_BENCH";
	unsigned int i;

	if (b->size != sizeof(*b))
		return rdmachan_ioc_inval(ioc, "size %u, expected %zu",
					  b->size, sizeof(*b));
	if (b->reserved0 || b->msgs || b->bytes || b->elapsed_ns ||
	    b->lat_min_ns || b->lat_avg_ns || b->lat_p50_ns || b->lat_p99_ns ||
	    b->lat_max_ns)
		return rdmachan_ioc_inval(ioc, "output or reserved fields set");
	for (i = 0; i < ARRAY_SIZE(b->reserved); i++)
		if (b->reserved[i])
			return rdmachan_ioc_inval(ioc, "reserved[%u] set", i);
	if (b->mode > RDMACHAN_BENCH_READ)
		return rdmachan_ioc_inval(ioc, "unknown mode %u", b->mode);
	if (b->mode >= RDMACHAN_BENCH_RDMA_TARGET) {
		if (!b->msg_size || !b->batch ||
		    b->batch > RDMACHAN_MAX_RDMA_OPS)
			return rdmachan_ioc_inval(ioc, "one-sided: msg_size %u, batch %u (1 to %u)",
						  b->msg_size, b->batch,
						  RDMACHAN_MAX_RDMA_OPS);
		if ((u64)b->batch * b->msg_size > RDMACHAN_BENCH_MAX_REGION)
			return -E2BIG;
	}
	if ((b->mode == RDMACHAN_BENCH_BLAST ||
	     b->mode == RDMACHAN_BENCH_PINGPONG) &&
	    b->msg_size > max_msg_size)
		return -EMSGSIZE;
	if (b->mode == RDMACHAN_BENCH_BLAST && b->batch > depth)
		return rdmachan_ioc_inval(ioc, "batch %u > queue depth %u",
					  b->batch, depth);
	return 0;
}

int rdmachan_check_reg_mr(const struct rdmachan_reg_mr *r)
{
	static const char ioc[] = "RDMACHAN_IOC_REG_MR";
	unsigned int i;

	if (r->size != sizeof(*r))
		return rdmachan_ioc_inval(ioc, "size %u, expected %zu",
					  r->size, sizeof(*r));
	if (r->access & ~RDMACHAN_ACCESS_ALL)
		return rdmachan_ioc_inval(ioc, "unknown access bits %#x",
					  r->access & ~RDMACHAN_ACCESS_ALL);
	if ((r->access & (RDMACHAN_ACCESS_REMOTE_WRITE |
			  RDMACHAN_ACCESS_REMOTE_ATOMIC)) &&
	    !(r->access & RDMACHAN_ACCESS_LOCAL_WRITE))
		return rdmachan_ioc_inval(ioc, "remote write or atomic rights without local write");
	if (!r->length)
		return rdmachan_ioc_inval(ioc, "length 0");
	if (r->addr + r->length < r->addr)
		return rdmachan_ioc_inval(ioc, "address range wraps");
	if (r->handle || r->reserved0 || r->remote.addr || r->remote.length ||
	    r->remote.rkey || r->remote.reserved)
		return rdmachan_ioc_inval(ioc, "output or reserved fields set");
	for (i = 0; i < ARRAY_SIZE(r->reserved); i++)
		if (r->reserved[i])
			return rdmachan_ioc_inval(ioc, "reserved[%u] set", i);
	return 0;
}

int rdmachan_check_dereg_mr(const struct rdmachan_dereg_mr *d)
{
	static const char ioc[] = "RDMACHAN_IOC_DEREG_MR";
	unsigned int i;

	if (d->size != sizeof(*d))
		return rdmachan_ioc_inval(ioc, "size %u, expected %zu",
					  d->size, sizeof(*d));
	for (i = 0; i < ARRAY_SIZE(d->reserved); i++)
		if (d->reserved[i])
			return rdmachan_ioc_inval(ioc, "reserved[%u] set", i);
	return 0;
}

int rdmachan_check_rdma(const struct rdmachan_rdma *r)
{
	static const char ioc[] = "RDMACHAN_IOC_RDMA";
	unsigned int i;

	if (r->size != sizeof(*r))
		return rdmachan_ioc_inval(ioc, "size %u, expected %zu",
					  r->size, sizeof(*r));
	if (r->flags & ~RDMACHAN_RDMA_ASYNC)
		return rdmachan_ioc_inval(ioc, "unknown flags %#x", r->flags);
	if (!r->count || r->count > RDMACHAN_MAX_RDMA_OPS)
		return rdmachan_ioc_inval(ioc, "count %u, not 1 to %u",
					  r->count, RDMACHAN_MAX_RDMA_OPS);
	if (!r->ops)
		return rdmachan_ioc_inval(ioc, "no ops array");
	for (i = 0; i < ARRAY_SIZE(r->reserved); i++)
		if (r->reserved[i])
			return rdmachan_ioc_inval(ioc, "reserved[%u] set", i);
	return 0;
}

int rdmachan_check_rdma_reap(const struct rdmachan_rdma_reap *r)
{
	static const char ioc[] = "RDMACHAN_IOC_RDMA_REAP";

	if (r->size != sizeof(*r))
		return rdmachan_ioc_inval(ioc, "size %u, expected %zu",
					  r->size, sizeof(*r));
	if (r->flags & ~RDMACHAN_REAP_DONTWAIT)
		return rdmachan_ioc_inval(ioc, "unknown flags %#x", r->flags);
	if (!r->count || r->count > RDMACHAN_MAX_ASYNC_OPS)
		return rdmachan_ioc_inval(ioc, "count %u, not 1 to %u",
					  r->count, RDMACHAN_MAX_ASYNC_OPS);
	if (!r->cqes)
		return rdmachan_ioc_inval(ioc, "no cqes array");
	if (memchr_inv(r->reserved, 0, sizeof(r->reserved)))
		return rdmachan_ioc_inval(ioc, "reserved field set");
	return 0;
}

int rdmachan_check_rdma_op(const struct rdmachan_rdma_op *op, u32 i)
{
	static const char ioc[] = "RDMACHAN_IOC_RDMA";
	bool write = op->opcode == RDMACHAN_OP_WRITE ||
		     op->opcode == RDMACHAN_OP_WRITE_IMM;
	bool atomic = op->opcode == RDMACHAN_OP_FETCH_ADD ||
		      op->opcode == RDMACHAN_OP_CMP_SWAP;
	unsigned int k;

	if (op->opcode > RDMACHAN_OP_CMP_SWAP)
		return rdmachan_ioc_inval(ioc, "op %u: unknown opcode %u", i,
					  op->opcode);
	if (op->flags & ~(RDMACHAN_OPF_SIGNALED | RDMACHAN_OPF_SOLICITED |
			  RDMACHAN_OPF_INLINE | RDMACHAN_OPF_FENCE))
		return rdmachan_ioc_inval(ioc, "op %u: unknown flags %#x", i,
					  op->flags);
	if ((op->flags & RDMACHAN_OPF_INLINE) && !write)
		return rdmachan_ioc_inval(ioc, "op %u: inline on a non-write", i);
	if ((op->flags & RDMACHAN_OPF_SOLICITED) &&
	    op->opcode != RDMACHAN_OP_WRITE_IMM)
		return rdmachan_ioc_inval(ioc, "op %u: solicited without an immediate",
					  i);
	if (op->nr_sge > RDMACHAN_MAX_SGE || (!op->nr_sge && !write))
		return rdmachan_ioc_inval(ioc, "op %u: %u segments", i,
					  op->nr_sge);
	if (op->nr_sge && !op->sgl)
		return rdmachan_ioc_inval(ioc, "op %u: no segment array", i);
	if (atomic && op->nr_sge != 1)
		return rdmachan_ioc_inval(ioc, "op %u: an atomic takes one segment",
					  i);
	if (atomic && op->remote_addr % 8)
		return rdmachan_ioc_inval(ioc, "op %u: unaligned atomic address",
					  i);
	if (op->reserved0)
		return rdmachan_ioc_inval(ioc, "op %u: reserved0 set", i);
	for (k = 0; k < ARRAY_SIZE(op->reserved); k++)
		if (op->reserved[k])
			return rdmachan_ioc_inval(ioc, "op %u: reserved[%u] set",
						  i, k);
	return 0;
}

/* The longest step bound RPING takes: 10 min */
#define RDMACHAN_RPING_MAX_TIMEOUT	600000

/*
 * RPING: size, flags, count (a server's zero), size range, step bound,
 * outputs and reserved zero, address (port 0: rping's); fills in the
 * defaults.
 */
int rdmachan_check_rping(struct rdmachan_rping *r)
{
	struct sockaddr_in *sin = (struct sockaddr_in *)&r->addr;
	struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)&r->addr;
	int ret;

	if (r->size != sizeof(*r))
		return rdmachan_ioc_inval("RPING", "size %u, expected %zu",
					  r->size, sizeof(*r));
	if (r->flags & ~RDMACHAN_RPING_FLAGS)
		return rdmachan_ioc_inval("RPING", "unknown flags 0x%x",
					  r->flags);
	if ((r->flags & RDMACHAN_RPING_SERVER) && r->count)
		return rdmachan_ioc_inval("RPING", "a server takes no count");
	if (r->msg_size && (r->msg_size < RDMACHAN_RPING_MIN_SIZE ||
			    r->msg_size > RDMACHAN_RPING_MAX_SIZE))
		return rdmachan_ioc_inval("RPING", "size %u, not %u to %u",
					  r->msg_size, RDMACHAN_RPING_MIN_SIZE,
					  RDMACHAN_RPING_MAX_SIZE);
	if (r->timeout_ms > RDMACHAN_RPING_MAX_TIMEOUT)
		return rdmachan_ioc_inval("RPING", "timeout_ms %u over %u",
					  r->timeout_ms,
					  RDMACHAN_RPING_MAX_TIMEOUT);
	if (r->reserved0 || r->pings || r->rtt_min_ns || r->rtt_max_ns ||
	    r->rtt_sum_ns || r->peer_size ||
	    memchr_inv(r->reserved, 0, sizeof(r->reserved)))
		return rdmachan_ioc_inval("RPING",
					  "non-zero reserved or output field");
	ret = rdmachan_check_addr("RPING", "addr", &r->addr, false, false);
	if (!ret)
		ret = rdmachan_check_addr("RPING", "src", &r->src,
					  true, false);
	if (ret)
		return ret;
	if ((r->flags & RDMACHAN_RPING_SERVER) && r->src.ss_family)
		return rdmachan_ioc_inval("RPING", "a server takes no src");
	r->msg_size = r->msg_size ?: RDMACHAN_RPING_DEFAULT_SIZE;
	r->timeout_ms = r->timeout_ms ?: 5000;
	if (r->addr.ss_family == AF_INET && !sin->sin_port)
		sin->sin_port = htons(RDMACHAN_RPING_PORT);
	if (r->addr.ss_family == AF_INET6 && !sin6->sin6_port)
		sin6->sin6_port = htons(RDMACHAN_RPING_PORT);
	return 0;
}

/*
 * DGRAM_OPEN: size, flags, fd flags, depth, outputs and reserved zero, a
 * local address (not AF_UNSPEC; the port may be 0)
 */
int rdmachan_check_dgram_open(const struct rdmachan_dgram_open *o)
{
	if (o->size != sizeof(*o))
		return rdmachan_ioc_inval("DGRAM_OPEN", "size %u, expected %zu",
					  o->size, sizeof(*o));
	if (o->flags & ~RDMACHAN_DGRAM_OPEN_FLAGS)
		return rdmachan_ioc_inval("DGRAM_OPEN", "unknown flags 0x%x",
					  o->flags);
	if (o->fd_flags & ~RDMACHAN_FD_FLAGS)
		return rdmachan_ioc_inval("DGRAM_OPEN", "unknown fd_flags 0x%x",
					  o->fd_flags);
	if (o->depth > RDMACHAN_DGRAM_MAX_DEPTH)
		return rdmachan_ioc_inval("DGRAM_OPEN", "depth %u over %u",
					  o->depth, RDMACHAN_DGRAM_MAX_DEPTH);
	if (o->fd || o->qpn || o->qkey || o->max_size ||
	    memchr_inv(o->reserved, 0, sizeof(o->reserved)))
		return rdmachan_ioc_inval("DGRAM_OPEN",
					  "non-zero reserved or output field");
	return rdmachan_check_addr("DGRAM_OPEN", "addr", &o->addr, false,
				   false);
}

/* DGRAM_RESOLVE: size, flags, step bound, reserved, a service address */
int rdmachan_check_dgram_resolve(struct rdmachan_dgram_resolve *r)
{
	if (r->size != sizeof(*r))
		return rdmachan_ioc_inval("DGRAM_RESOLVE",
					  "size %u, expected %zu", r->size,
					  sizeof(*r));
	if (r->flags & ~RDMACHAN_DGRAM_CONNECT)
		return rdmachan_ioc_inval("DGRAM_RESOLVE",
					  "unknown flags 0x%x", r->flags);
	if (r->timeout_ms > RDMACHAN_RPING_MAX_TIMEOUT)
		return rdmachan_ioc_inval("DGRAM_RESOLVE",
					  "timeout_ms %u over %u",
					  r->timeout_ms,
					  RDMACHAN_RPING_MAX_TIMEOUT);
	if (r->reserved0 || memchr_inv(&r->peer, 0, sizeof(r->peer)) ||
	    memchr_inv(r->reserved, 0, sizeof(r->reserved)))
		return rdmachan_ioc_inval("DGRAM_RESOLVE",
					  "non-zero reserved or output field");
	r->timeout_ms = r->timeout_ms ?: RDMACHAN_DGRAM_DEFAULT_TIMEOUT;
	return rdmachan_check_addr("DGRAM_RESOLVE", "addr", &r->addr, false,
				   true);
}

/* DGRAM_SEND, DGRAM_RECV: size, flags, count, timeout, array, reserved */
int rdmachan_check_dgram_batch(const struct rdmachan_dgram_batch *b,
			       bool send)
{
	const char *ioc = send ? "DGRAM_SEND" : "DGRAM_RECV";

	if (b->size != sizeof(*b))
		return rdmachan_ioc_inval(ioc, "size %u, expected %zu",
					  b->size, sizeof(*b));
	if (b->flags & ~RDMACHAN_DGRAM_DONTWAIT)
		return rdmachan_ioc_inval(ioc, "unknown flags 0x%x", b->flags);
	if (!b->count || b->count > RDMACHAN_DGRAM_MAX_BATCH)
		return rdmachan_ioc_inval(ioc, "count %u, not 1 to %u",
					  b->count, RDMACHAN_DGRAM_MAX_BATCH);
	if (!b->msgs)
		return rdmachan_ioc_inval(ioc, "no array");
	if ((send && b->timeout_ms) ||
	    b->timeout_ms > RDMACHAN_RPING_MAX_TIMEOUT)
		return rdmachan_ioc_inval(ioc, "timeout_ms %u", b->timeout_ms);
	if (memchr_inv(b->reserved, 0, sizeof(b->reserved)))
		return rdmachan_ioc_inval(ioc, "non-zero reserved field");
	return 0;
}

/*
 * One datagram of DGRAM_SEND (@i: its index): flags, reserved, length
 * (@max: the endpoint's largest), a destination (qpn 0: the connected one)
 */
int rdmachan_check_dgram_msg(const struct rdmachan_dgram_msg *m, u32 i,
			     u32 max)
{
	if (m->flags & ~RDMACHAN_DGRAM_MSG_FLAGS)
		return rdmachan_ioc_inval("DGRAM_SEND", "msg %u: flags 0x%x",
					  i, m->flags);
	if (m->reserved)
		return rdmachan_ioc_inval("DGRAM_SEND",
					  "msg %u: non-zero reserved field", i);
	if (m->len > max) {
		pr_info_ratelimited("DGRAM_SEND: msg %u: %u bytes, more than the %u of the path MTU\n",
				    i, m->len, max);
		return -EMSGSIZE;
	}
	if (m->peer.qpn > 0xffffff)
		return rdmachan_ioc_inval("DGRAM_SEND", "msg %u: qpn 0x%x", i,
					  m->peer.qpn);
	if (!m->peer.qpn)
		return 0;
	return rdmachan_check_addr("DGRAM_SEND", "peer", &m->peer.addr, false,
				   false);
}

/* DGRAM_JOIN, DGRAM_LEAVE: size, flags, bound, reserved, an address */
int rdmachan_check_dgram_join(struct rdmachan_dgram_join *j, bool join)
{
	const char *ioc = join ? "DGRAM_JOIN" : "DGRAM_LEAVE";

	if (j->size != sizeof(*j))
		return rdmachan_ioc_inval(ioc, "size %u, expected %zu",
					  j->size, sizeof(*j));
	if (j->flags & ~(join ? RDMACHAN_DGRAM_SENDONLY : 0))
		return rdmachan_ioc_inval(ioc, "unknown flags 0x%x", j->flags);
	if ((!join && j->timeout_ms) ||
	    j->timeout_ms > RDMACHAN_RPING_MAX_TIMEOUT)
		return rdmachan_ioc_inval(ioc, "timeout_ms %u", j->timeout_ms);
	if (j->reserved0 || memchr_inv(&j->peer, 0, sizeof(j->peer)) ||
	    memchr_inv(j->reserved, 0, sizeof(j->reserved)))
		return rdmachan_ioc_inval(ioc,
					  "non-zero reserved or output field");
	j->timeout_ms = j->timeout_ms ?: RDMACHAN_DGRAM_DEFAULT_TIMEOUT;
	return rdmachan_check_addr(ioc, "addr", &j->addr, false, false);
}

/*
 * DGRAM_BENCH on an endpoint of datagrams up to @max bytes: size, mode,
 * outputs and reserved zero; the senders' size and destination, the
 * receivers' none.  Fills in PINGPONG's reply bound.
 */
int rdmachan_check_dgram_bench(struct rdmachan_dgram_bench *b, u32 max)
{
	static const char ioc[] = "DGRAM_BENCH";
	bool sends = b->mode == RDMACHAN_BENCH_BLAST ||
		     b->mode == RDMACHAN_BENCH_PINGPONG;

	if (b->size != sizeof(*b))
		return rdmachan_ioc_inval(ioc, "size %u, expected %zu",
					  b->size, sizeof(*b));
	if (b->reserved0 || b->msgs || b->bytes || b->elapsed_ns || b->lost ||
	    b->lat_min_ns || b->lat_avg_ns || b->lat_p50_ns || b->lat_p99_ns ||
	    b->lat_max_ns || memchr_inv(b->reserved, 0, sizeof(b->reserved)))
		return rdmachan_ioc_inval(ioc, "non-zero reserved or output field");
	if (!sends && b->mode != RDMACHAN_BENCH_SINK &&
	    b->mode != RDMACHAN_BENCH_ECHO)
		return rdmachan_ioc_inval(ioc, "mode %u", b->mode);
	if (b->wait_ms > RDMACHAN_RPING_MAX_TIMEOUT)
		return rdmachan_ioc_inval(ioc, "wait_ms %u over %u", b->wait_ms,
					  RDMACHAN_RPING_MAX_TIMEOUT);
	if (!sends) {
		if (b->msg_size || memchr_inv(&b->peer, 0, sizeof(b->peer)))
			return rdmachan_ioc_inval(ioc, "msg_size or peer of a receiver");
		return 0;
	}
	if (b->mode == RDMACHAN_BENCH_BLAST && b->wait_ms)
		return rdmachan_ioc_inval(ioc, "wait_ms of BLAST");
	if (!b->msg_size)
		return rdmachan_ioc_inval(ioc, "msg_size 0");
	if (b->msg_size > max) {
		pr_info_ratelimited("DGRAM_BENCH: %u bytes, more than the %u of the path MTU\n",
				    b->msg_size, max);
		return -EMSGSIZE;
	}
	if (!b->peer.qpn || b->peer.qpn > 0xffffff)
		return rdmachan_ioc_inval(ioc, "peer qpn 0x%x", b->peer.qpn);
	if (b->mode == RDMACHAN_BENCH_PINGPONG && !b->wait_ms)
		b->wait_ms = RDMACHAN_DGRAM_BENCH_REPLY_MS;
	return rdmachan_check_addr(ioc, "peer", &b->peer.addr, false, false);
}
