/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rdmachan: credit accounting of a channel
 *
 * Each side grants the other queue_depth credits, one per receive buffer
 * it keeps posted for data.  A data send spends a credit.  The receiver
 * owes a credit back for every buffer it reposts and pays the debt in the
 * header of its next send (piggybacked) or, once threshold credits are
 * owed, in an explicit CREDIT message.  A peer that returns more credits
 * than were spent is broken or malicious.
 *
 * Pure arithmetic on one struct, so it can be unit-tested; the channel
 * calls these with its lock held.
 */
#ifndef RDMACHAN_CREDIT_H
#define RDMACHAN_CREDIT_H

#include <linux/errno.h>
#include <linux/minmax.h>
#include <linux/types.h>

/**
 * struct rdmachan_credits - both directions of a channel's credits
 * @depth: credits granted per direction (the negotiated queue depth)
 * @avail: data messages we may still send
 * @owed: buffers reposted but not yet reported to the peer
 * @threshold: report explicitly once this many are owed
 */
struct rdmachan_credits {
	u32 depth;
	u32 avail;
	u32 owed;
	u32 threshold;
};

/* A new connection: all of the peer's buffers are free, nothing owed. */
static inline void rdmachan_credits_init(struct rdmachan_credits *c,
					 u32 depth)
{
	c->depth = depth;
	c->avail = depth;
	c->owed = 0;
	c->threshold = max_t(u32, 1, depth / 8);
}

/*
 * Spend up to @want credits, at most @room (free send slots).
 * Return: credits spent, 0 when none are available.
 */
static inline u32 rdmachan_credits_spend(struct rdmachan_credits *c,
					 u32 want, u32 room)
{
	u32 n = min3(want, c->avail, room);

	c->avail -= n;
	return n;
}

/* Give back @n credits spent on messages that were never posted. */
static inline void rdmachan_credits_refund(struct rdmachan_credits *c, u32 n)
{
	c->avail += min(n, c->depth - c->avail);
}

/*
 * The peer returned @n credits.  Return: 0, or -EPROTO when it returns
 * more than we have spent (the count is left unchanged then).
 */
static inline int rdmachan_credits_grant(struct rdmachan_credits *c, u32 n)
{
	if (n > c->depth - c->avail)
		return -EPROTO;
	c->avail += n;
	return 0;
}

/*
 * A receive buffer was reposted: one more credit owed.  Return: whether
 * enough are owed to send them in an explicit CREDIT message.
 */
static inline bool rdmachan_credits_owe_one(struct rdmachan_credits *c)
{
	c->owed++;
	return c->owed >= c->threshold;
}

/* Enough credits owed for an explicit CREDIT message? */
static inline bool rdmachan_credits_report_due(const struct rdmachan_credits *c)
{
	return c->owed >= c->threshold;
}

/*
 * Take every credit owed, for the header of a message about to be
 * posted.  Never more than depth, so it fits the 16-bit wire field.
 */
static inline u16 rdmachan_credits_take_owed(struct rdmachan_credits *c)
{
	u32 n = min(c->owed, c->depth);

	c->owed -= n;
	return n;
}

#endif /* RDMACHAN_CREDIT_H */
