/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rdmachan: sizes and counts computed from user or peer input
 *
 * Every length, page count and sum that comes from an ioctl argument or a
 * peer's message is computed here, with its overflow checked, so that a
 * value near a wrap point is refused instead of wrapping into a small
 * allocation that is then overrun.  Pure functions: tests/kunit/ tests
 * them at the wrap points.
 */
#ifndef RDMACHAN_BOUNDS_H
#define RDMACHAN_BOUNDS_H

#include <linux/errno.h>
#include <linux/log2.h>
#include <linux/math.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/types.h>

#include "rdmachan.h"

/**
 * rdmachan_span_pages() - pages of PAGE_SIZE that a byte range touches
 * @addr: first byte (any alignment)
 * @length: bytes
 * @max_length: the largest @length allowed
 * @npages: the result
 *
 * Context: any.
 * Return: 0; -EINVAL for a zero length or a range that wraps the address
 * space; -E2BIG for a length over @max_length.
 */
static inline int rdmachan_span_pages(u64 addr, u64 length, u64 max_length,
				      unsigned long *npages)
{
	u64 end;

	if (!length || check_add_overflow(addr, length, &end))
		return -EINVAL;
	if (length > max_length)
		return -E2BIG;
	/* max_length is far below 2^64: neither sum can wrap now */
	*npages = (offset_in_page(addr) + length + PAGE_SIZE - 1) >> PAGE_SHIFT;
	return 0;
}

/**
 * rdmachan_segs_len() - the bytes of @n segments, refusing to wrap
 * @segs: the segments (their lengths come from the caller: user input)
 * @n: how many
 * @max: the largest total allowed
 * @len: the result
 *
 * Context: any.
 * Return: 0, or -EINVAL when the total is over @max (wrapping included).
 */
static inline int rdmachan_segs_len(const struct rdmachan_seg *segs,
				    unsigned int n, u32 max, u32 *len)
{
	u64 total = 0;
	unsigned int i;

	/* fewer than 2^32 terms below 2^32 each: a u64 cannot wrap */
	for (i = 0; i < n; i++)
		total += segs[i].length;
	if (total > max)
		return -EINVAL;
	*len = total;
	return 0;
}

/**
 * rdmachan_buf_bytes() - the memory a message buffer of @size bytes takes
 * @size: header, largest payload and in-band immediate
 *
 * Up to KMALLOC_MAX_CACHE_SIZE a buffer comes from kmalloc()'s caches,
 * as they round it; a larger one is whole pages (alloc_pages_exact(),
 * chan_qp.c), so that a 64 KiB message with its header and trailer takes
 * 17 pages where kmalloc() would take 32.
 *
 * Context: any.
 * Return: bytes.
 */
static inline size_t rdmachan_buf_bytes(size_t size)
{
	return size <= KMALLOC_MAX_CACHE_SIZE ? kmalloc_size_roundup(size) :
						PAGE_ALIGN(size);
}

/**
 * rdmachan_chan_buf_bytes() - what each message buffer of a channel is
 *	counted as
 * @size: header, largest payload and in-band immediate
 * @rx_pages: the channel receives into pages (&rdmachan_opts.rx_pages):
 *	a compound page of a power of two pages each (chan_recv.c)
 *
 * The larger of a send and a receive buffer: what the depth's memory cap
 * and a listener's budget count each buffer as.
 *
 * Context: any.
 * Return: bytes.
 */
static inline size_t rdmachan_chan_buf_bytes(size_t size, bool rx_pages)
{
	return rx_pages ? max(rdmachan_buf_bytes(size),
			      (size_t)PAGE_SIZE << get_order(size)) :
			  rdmachan_buf_bytes(size);
}

/**
 * rdmachan_depth_for_mem() - the largest queue depth whose buffers fit
 * @depth: the depth asked for, at least 1
 * @buf_size: bytes of one message buffer as allocated
 *	(rdmachan_buf_bytes()), at least 1
 * @extra: buffers a channel holds besides two per credit (one to receive,
 *	one to send)
 * @budget: bytes the buffers may take
 *
 * Context: any.
 * Return: @depth, or less so that (2 * depth + @extra) * @buf_size fits
 * @budget; never below 1 (a channel of one credit is allowed whatever
 * its message size: the message size is bounded on its own).
 */
static inline u32 rdmachan_depth_for_mem(u32 depth, u64 buf_size, u32 extra,
					 u64 budget)
{
	u64 bufs = budget / buf_size;
	u64 fit = bufs > extra ? (bufs - extra) / 2 : 0;

	return max_t(u64, 1, min_t(u64, depth, fit));
}

/* rdma_cm's figures of RDMA READs in flight are u8; we offer at most 16 */
#define RDMACHAN_MAX_RD_ATOM	16

/**
 * rdmachan_rd_atom_answer() - the passive side's RDMA READ figures
 * @dev_max: what the local device allows (max_qp_rd_atom for responder
 *	resources, max_qp_init_rd_atom for the initiator depth)
 * @peer: the request's matching figure: the active side's initiator
 *	depth for our responder resources, its responder resources for our
 *	initiator depth
 *
 * An end must never have more READs in flight than its peer has
 * responder resources for (the peer's responder would recycle the state
 * of one still in flight, and its retransmission would break the
 * connection), and offering resources the peer will never use is waste.
 *
 * Context: any.
 * Return: min(@dev_max, @peer, RDMACHAN_MAX_RD_ATOM), never negative.
 */
static inline u8 rdmachan_rd_atom_answer(int dev_max, u8 peer)
{
	return clamp_t(int, min_t(int, dev_max, peer), 0, RDMACHAN_MAX_RD_ATOM);
}

/**
 * struct rdmachan_qp_want - what a channel's queues are sized for
 * @depth: the queue depth (credits) wanted
 * @regs: fast registrations one send may carry (&rdmachan_opts.max_send_regs)
 * @reg_fence: the device must not find a fast registration behind a send
 *	not yet acknowledged (rxe: &rdmachan_res.reg_fence)
 * @dev_max_wr: the device's limit of work requests a queue, and of
 *	entries over two (min(max_qp_wr, max_cqe / 2))
 * @ctrl_recv: receive buffers of control messages
 * @ctrl_send: control send slots
 * @rdma_slots: the least send queue room of one-sided requests: one
 *	request's work requests
 */
struct rdmachan_qp_want {
	u32	depth;
	u32	regs;
	bool	reg_fence;
	u32	dev_max_wr;
	u32	ctrl_recv;
	u32	ctrl_send;
	u32	rdma_slots;
};

/**
 * struct rdmachan_qp_sizes - a channel's queues, sized
 * @depth: the queue depth granted: @depth wanted, or less to fit the device
 * @per_send: send queue entries of one credit's send: the SEND, a REG_MR
 *	and a LOCAL_INV for each registration, and where @reg_fence one
 *	LOCAL_INV fencing them (chan_post.c)
 * @rdma_slots: send queue room of one-sided requests: at least the room
 *	wanted, and what rounding the send queue up leaves
 * @rdma_fence: entries for the LOCAL_INVs fencing one-sided requests'
 *	registrations (@reg_fence with registrations), else 0
 * @recv_bufs: receive buffers: data and control
 * @send_wr: the QP's send queue: every credit's send, the control sends,
 *	the one-sided room and the drain marker
 * @recv_wr: its receive queue: every buffer and the drain marker
 * @cqe: the channel's CQ: every entry of both queues that completes
 * @recv_cqe: a receive-only CQ (the SOLICITED poll mode)
 * @reg_wr: the registration QP's send queue (@reg_fence with
 *	registrations: a REG_MR and a LOCAL_INV per registration the pools
 *	may hold, and one more), else 0: no registration QP
 * @reg_cqe: its CQ, else 0
 */
struct rdmachan_qp_sizes {
	u32	depth;
	u32	per_send;
	u32	rdma_slots;
	u32	rdma_fence;
	u32	recv_bufs;
	u32	send_wr;
	u32	recv_wr;
	u32	cqe;
	u32	recv_cqe;
	u32	reg_wr;
	u32	reg_cqe;
};

/**
 * rdmachan_rdma_fill() - the one-sided room of a send queue
 * @base: the send queue's entries besides the one-sided room
 * @least: the one-sided room wanted
 * @per: entries per slot of one-sided room (2 with its fencing LOCAL_INV)
 * @max: the device's limit of entries (@base + @least * @per at most)
 *
 * Context: any.
 * Return: @least, and as much more as fits a send queue of 2^k - 1
 * entries, the least that holds @base + @least * @per, and @max.
 */
static inline u32 rdmachan_rdma_fill(u32 base, u32 least, u32 per, u32 max)
{
	u64 used = (u64)base + (u64)least * per;
	u64 top;

	if (used >= max || used >= SZ_1G)
		return least;
	top = min_t(u64, roundup_pow_of_two(used + 1) - 1, max);
	return least + (u32)(top - used) / per;
}

/**
 * rdmachan_qp_sizes() - size a channel's queues
 * @w: what they are for
 * @s: the sizes
 *
 * The one derivation of a channel's queue sizes: chan_qp.c builds its
 * queues with them, and a listener charges its pending channels for them
 * (rdmachan_listener_chan_cost()).  Every post finds room, none waits
 * (chan_post.c): the depth is lowered until the send queue holds every
 * credit's send with its registrations beside the fixed room.  All of
 * @w is the module's or the device's, none the peer's: the depth is
 * bounded (RDMACHAN_MAX_DEPTH) and a send queue within @dev_max_wr, so
 * nothing overflows.  Providers round a queue up to a power of two
 * entries (rxe and siw, counting one more than asked), and size every
 * entry alike: a send queue of 260 entries costs rxe as much as one of
 * 511.  So the send queue asks for 2^k - 1 entries, the least that hold
 * the rest and @w's one-sided room, and the one-sided room takes what is
 * left over.
 *
 * Context: any.
 * Return: 0; -EOPNOTSUPP when the device cannot hold even one credit's
 * send, with its registrations, beside the fixed room.
 */
static inline int rdmachan_qp_sizes(const struct rdmachan_qp_want *w,
				    struct rdmachan_qp_sizes *s)
{
	u32 fixed = w->ctrl_recv + w->ctrl_send + w->rdma_slots + 2;
	u32 max_wr = w->dev_max_wr;
	u32 regs = w->regs;

	/* room for the control sends and the drain markers, and one send */
	if (max_wr < fixed + 2)
		return -EOPNOTSUPP;
	max_wr -= fixed;
	s->per_send = 1 + 2 * regs + (w->reg_fence && regs ? 1 : 0);
	s->rdma_fence = w->reg_fence && regs ? w->rdma_slots : 0;
	if (max_wr < s->rdma_fence + s->per_send)
		return -EOPNOTSUPP;
	max_wr -= s->rdma_fence;
	s->depth = min(w->depth, max_wr / s->per_send);

	s->rdma_slots = rdmachan_rdma_fill(s->depth * s->per_send +
					   w->ctrl_send + 1, w->rdma_slots,
					   s->rdma_fence ? 2 : 1,
					   w->dev_max_wr);
	if (s->rdma_fence)
		s->rdma_fence = s->rdma_slots;

	s->recv_bufs = s->depth + w->ctrl_recv;
	s->send_wr = s->depth * s->per_send + w->ctrl_send + 1 +
		     s->rdma_slots + s->rdma_fence;
	s->recv_wr = s->recv_bufs + 1;
	s->cqe = s->recv_bufs + s->depth + w->ctrl_send + 2 + s->rdma_slots +
		 s->rdma_fence + (s->per_send - 1) * s->depth;
	s->recv_cqe = s->recv_bufs + 1;
	s->reg_wr = w->reg_fence && regs ? 2 * s->depth * regs + 1 : 0;
	s->reg_cqe = s->reg_wr ? s->reg_wr + 1 : 0;
	return 0;
}

#endif /* RDMACHAN_BOUNDS_H */
