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
#include <linux/math.h>
#include <linux/mm.h>
#include <linux/overflow.h>
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
 * rdmachan_depth_for_mem() - the largest queue depth whose buffers fit
 * @depth: the depth asked for, at least 1
 * @buf_size: bytes of one message buffer as allocated (kmalloc's
 *	rounding included), at least 1
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

#endif /* RDMACHAN_BOUNDS_H */
