/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rdmachan: credit accounting of a channel
 *
 * Each side grants the other queue_depth credits, one per receive buffer
 * it keeps posted for data.  A data send spends a credit.  The receiver
 * owes a credit back for every buffer it reposts and pays the debt in the
 * header of its next send (piggybacked) or in an explicit CREDIT message.
 * The CREDIT message waits until the peer is short: until threshold
 * credits are owed *and* the peer has report_at (half the depth) of its
 * credits out with us, held or owed (on a channel whose arrivals are seen
 * as they come; elsewhere report_at is threshold).  A receiver whose
 * replies carry no header (a block server answering reads with RDMA
 * WRITE_WITH_IMM) then sends one CREDIT for every depth/2 requests, not
 * every depth/8, while the peer keeps at least half its credits in hand;
 * under RDMACHAN_WIRE_F_IMM_CREDIT none, each WRITE_WITH_IMM returning
 * one credit owed in its immediate.
 * A peer that returns more credits than were spent is broken or
 * malicious.
 *
 * Under RDMACHAN_WIRE_F_GROW the grant follows use (chan_grant.c): a
 * sender idle for a while retires the credits it holds beyond a few, each
 * with a RETIRE message that takes its buffer for good, and a receiver
 * whose peer holds at most half of its grant grants more, up to the
 * depth, returning credits for buffers it just posted as if messages had
 * come and gone.  The thresholds follow the grant.
 *
 * Pure arithmetic on one struct, so it can be unit-tested; the channel
 * calls these with its lock held.
 */
#ifndef RDMACHAN_CREDIT_H
#define RDMACHAN_CREDIT_H

#include <linux/errno.h>
#include <linux/minmax.h>
#include <linux/types.h>

#include "proto.h"

/**
 * struct rdmachan_credits - both directions of a channel's credits
 * @depth: credits granted per direction (the negotiated queue depth)
 * @avail: data messages we may still send
 * @owed: buffers reposted but not yet reported to the peer
 * @out: the peer's credits we have not returned: messages received into
 *	a buffer, still held by the reader or reposted and owed (>= @owed)
 * @granted: credits granted to the peer in all, each a posted receive
 *	buffer for its data: @depth, less what it retired, plus what we
 *	granted since (at most @depth)
 * @threshold: report explicitly once this many are owed ...
 * @report_at: ... and at least this many of the peer's credits are @out
 * @defer: reports wait for the peer to be short (rdmachan_credits_init())
 */
struct rdmachan_credits {
	u32 depth;
	u32 avail;
	u32 owed;
	u32 out;
	u32 granted;
	u32 threshold;
	u32 report_at;
	bool defer;
};

/* The report thresholds, from the grant */
static inline void rdmachan_credits_limits(struct rdmachan_credits *c)
{
	c->threshold = max_t(u32, 1, c->granted / 8);
	c->report_at = c->defer ? max(c->threshold, c->granted / 2) :
		       c->threshold;
}

/*
 * A connection's receive buffers are about to be posted: nothing of the
 * peer's is with us, nothing owed.  The receive half is counted from here,
 * not from rdmachan_credits_init(): the peer may send as soon as it is
 * connected, before our side learns it is, and those messages may be
 * received and even released before init runs.
 */
static inline void rdmachan_credits_rx_reset(struct rdmachan_credits *c)
{
	c->owed = 0;
	c->out = 0;
}

/*
 * The connection is up, @depth negotiated: the peer's start grant, @avail
 * buffers, is free for us, and we granted it @granted (each the whole
 * depth from a peer of wire version 3).  Keeps @owed and @out
 * (rdmachan_credits_rx_reset()).
 * @defer: wait with a report until the peer is short (report_at half the
 * depth).  Only for a channel whose receive completions are processed as
 * they come: where they wait for the user to poll, a report that waits
 * for the next arrival could wait for good while the peer, short of
 * credits, waits for it (report_at is then threshold, so owed alone
 * decides).
 */
static inline void rdmachan_credits_init(struct rdmachan_credits *c,
					 u32 depth, bool defer, u32 avail,
					 u32 granted)
{
	c->depth = depth;
	c->avail = clamp_t(u32, avail, 1, depth);
	c->granted = clamp_t(u32, granted, 1, depth);
	c->defer = defer;
	rdmachan_credits_limits(c);
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

/* Is an explicit CREDIT message due? */
static inline bool rdmachan_credits_report_due(const struct rdmachan_credits *c)
{
	return c->owed >= c->threshold && c->out >= c->report_at;
}

/*
 * Would a message posted now return credits the peer is about to need?
 * Credits are owed, and the peer's next arrival would make the explicit
 * report due (rdmachan_credits_report_due(), the reposting of its buffer
 * counted): a user whose answers carry no header (RDMA WRITE_WITH_IMM)
 * may answer with a message instead, whose header returns them, and no
 * CREDIT message follows.
 */
static inline bool rdmachan_credits_return_due(const struct rdmachan_credits *c)
{
	return c->owed && c->owed + 1 >= c->threshold &&
	       c->out + 1 >= c->report_at;
}

/*
 * A message that spent one of the peer's credits (DATA, PAD, an RDMA
 * WRITE_WITH_IMM) took a receive buffer; rdmachan_credits_owe_one()
 * follows once the buffer is reposted.  Return: whether an explicit
 * CREDIT message is due: credits owed for buffers reposted earlier must
 * go back now that the peer is short, even while our reader holds this
 * one (it may be waiting for the peer's next message).
 */
static inline bool rdmachan_credits_took_one(struct rdmachan_credits *c)
{
	c->out++;	/* at most the receive buffers: each takes one */
	return rdmachan_credits_report_due(c);
}

/*
 * A receive buffer was reposted: one more credit owed.  Return: whether
 * an explicit CREDIT message is due.
 */
static inline bool rdmachan_credits_owe_one(struct rdmachan_credits *c)
{
	c->owed++;
	return rdmachan_credits_report_due(c);
}

/*
 * Take every credit owed, for the header of a message about to be
 * posted.  Never more than depth, so it fits the 16-bit wire field.
 */
static inline u16 rdmachan_credits_take_owed(struct rdmachan_credits *c)
{
	u32 n = min(c->owed, c->depth);

	c->owed -= n;
	c->out -= min(n, c->out);
	return n;
}

/*
 * RDMACHAN_WIRE_F_IMM_CREDIT: take one credit owed, for the immediate of
 * an RDMA WRITE_WITH_IMM about to be posted.  Return: whether one was
 * owed.
 */
static inline bool rdmachan_credits_take_one(struct rdmachan_credits *c)
{
	if (!c->owed)
		return false;
	c->owed--;
	c->out--;	/* >= owed */
	return true;
}

/* Put back @n credits taken for immediates whose WRITEs were not posted */
static inline void rdmachan_credits_untake(struct rdmachan_credits *c, u32 n)
{
	c->owed += n;
	c->out += n;
}

/*
 * Sender, RDMACHAN_WIRE_F_GROW: retire the credits held beyond @keep, at
 * most @room (free send slots: each goes in a RETIRE message).
 * Return: credits retired.
 */
static inline u32 rdmachan_credits_retire(struct rdmachan_credits *c,
					  u32 keep, u32 room)
{
	u32 n = c->avail > keep ? min(c->avail - keep, room) : 0;

	c->avail -= n;
	return n;
}

/*
 * Receiver: a RETIRE arrived; its buffer is not reposted.  Return: 0, or
 * -EPROTO when the peer held no credit to retire (nothing changes then).
 */
static inline int rdmachan_credits_retired(struct rdmachan_credits *c)
{
	if (c->granted <= c->out)
		return -EPROTO;
	c->granted--;
	rdmachan_credits_limits(c);
	return 0;
}

/*
 * Receiver: how many more to grant, now that one of the peer's messages
 * arrived: as many again as granted (at least one, at most up to the
 * depth) once the peer holds at most half of its grant, else 0.
 */
static inline u32 rdmachan_credits_grow_want(const struct rdmachan_credits *c)
{
	if (c->granted >= c->depth || c->out * 2 < c->granted)
		return 0;
	return min(max_t(u32, c->granted, 1), c->depth - c->granted);
}

/*
 * Sender: a send was refused for want of credits (it holds fewer than
 * @least, the message's).  Does it ask the peer for a larger grant
 * (RDMACHAN_HDR_F_WANT)?  A message of several credits waits for them all
 * at once, which no arrival at the peer would grow the grant for: it
 * asks.  A sender of one that may not wait (@nonblock) asks where the
 * peer's grant follows use (@grows): a peer that releases each message at
 * once and answers it holds almost none of them, and sees no reason to
 * grow a grant whose credits are on the wire, coming and going.  A sender
 * that waits does not: its peer's reader, holding the credits, grows the
 * grant by itself as far as the budget allows (chan_grant.c).
 */
static inline bool rdmachan_credits_ask(const struct rdmachan_credits *c,
					u32 least, bool nonblock, bool grows)
{
	if (c->avail >= least || c->avail >= c->depth)
		return false;
	return least > 1 || (nonblock && grows);
}

/*
 * Receiver: does this side's reader hold half of the grant or more
 * (messages received and not yet released; @out less @owed)?  Then a peer
 * short of credits waits for a slow reader, whose buffers the device's
 * budget bounds, even when it asks (RDMACHAN_HDR_F_WANT); else its
 * credits are on the wire or it waits for several at once, and a grant
 * it asks for may grow past the budget once it is stuck (chan_grant.c,
 * rdmachan_grow_past_budget()).
 */
static inline bool rdmachan_credits_reader_holds(const struct rdmachan_credits *c)
{
	return (c->out - min(c->owed, c->out)) * 2 >= c->granted;
}

/**
 * struct rdmachan_grant_ask - a peer's standing ask for more credits
 *	(RDMACHAN_HDR_F_WANT), receiver side; all under the channel's lock
 * @asked: the peer asked, and the ask is not yet granted whole
 * @data: a DATA, PAD or WRITE_WITH_IMM of the peer's arrived since the
 *	last keepalive tick
 * @ticked: a keepalive tick has seen the ask since it was made or last
 *	granted in part
 * @stuck: a whole tick's interval passed with the ask standing and
 *	nothing of the peer's arriving: it waits for credits it cannot get
 *	within the device's budget (chan_grant.c)
 *
 * The stuck clock restarts at every part of the ask that is granted: a
 * peer given some credits is not judged stuck before it had a whole
 * interval to use them, however slowly its sender runs.
 */
struct rdmachan_grant_ask {
	bool asked;
	bool data;
	bool ticked;
	bool stuck;
};

/* The peer asked: a new ask starts its clock, a standing one keeps it */
static inline void rdmachan_ask_raise(struct rdmachan_grant_ask *a)
{
	if (!a->asked)
		*a = (struct rdmachan_grant_ask){ .asked = true };
}

/* Something of the peer's that spends a credit arrived */
static inline void rdmachan_ask_data(struct rdmachan_grant_ask *a)
{
	a->data = true;
}

/*
 * The keepalive tick: an ask a tick saw before, with nothing of the
 * peer's arriving since, is stuck
 */
static inline void rdmachan_ask_tick(struct rdmachan_grant_ask *a)
{
	if (!a->asked)
		return;
	if (a->ticked && !a->data)
		a->stuck = true;
	a->ticked = true;
	a->data = false;
}

/*
 * @n of the @want credits the ask is worth were granted: whole, the ask
 * ends; in part, it stands and its clock restarts
 */
static inline void rdmachan_ask_granted(struct rdmachan_grant_ask *a,
					u32 n, u32 want)
{
	if (n >= want)
		a->asked = false;
	if (n) {
		a->ticked = false;
		a->stuck = false;
	}
}

/*
 * May the grant grow past the device's budget for this ask?  Only for a
 * peer stuck whose credits this side's reader does not hold
 * (rdmachan_credits_reader_holds())
 */
static inline bool rdmachan_ask_past_budget(const struct rdmachan_grant_ask *a,
					    const struct rdmachan_credits *c)
{
	return a->asked && a->stuck && !rdmachan_credits_reader_holds(c);
}

/*
 * Receiver: how many more to grant when the peer asked
 * (RDMACHAN_HDR_F_WANT): the peer does not say how many it waits for, and
 * it waits for them all at once.  At least @step more, and at least as
 * many again as granted, up to the depth: @step the depth, all of it in
 * one go; under F_FRAG a largest message's fragments, and a peer that
 * waits for more asks again when these arrive.
 */
static inline u32 rdmachan_credits_grow_asked(const struct rdmachan_credits *c,
					      u32 step)
{
	u32 target = c->granted + max(c->granted, step);

	if (c->granted >= c->depth)
		return 0;
	return min(target, c->depth) - c->granted;
}

/*
 * Receiver: @n more buffers were posted: they go back as credits owed, as
 * if @n messages had come and been released.  Return: whether an explicit
 * CREDIT message is due.
 */
static inline bool rdmachan_credits_grow(struct rdmachan_credits *c, u32 n)
{
	n = min(n, c->depth - c->granted);
	c->granted += n;
	c->owed += n;
	c->out += n;
	rdmachan_credits_limits(c);
	return rdmachan_credits_report_due(c);
}

/**
 * struct rdmachan_ctrl_credits - the control credits of a channel (wire
 *	version 6)
 * @on: the peer counts them (version 6); else control messages go as
 *	before, unbounded by the peer's reposts
 * @avail: control messages we may send: RDMACHAN_CTRL_RECV, less those
 *	sent whose buffers the peer has not said it reposted
 * @owed: the peer's control messages whose buffers we reposted and have
 *	not said so (at most RDMACHAN_CTRL_RECV)
 * @waits: control messages that waited for a control credit (a counter)
 *
 * The peer keeps RDMACHAN_CTRL_RECV receive buffers for our control
 * messages.  A control message takes one of @avail; every message either
 * side sends returns what it @owed in its header.  Two rules keep both
 * sides going without a message of their own for the returns: the last
 * control credit goes only with a message that returns at least one of
 * the peer's (so two sides cannot both hold none with nothing under
 * way), and a side that owes RDMACHAN_CTRL_ACK_DUE sends a CREDIT for
 * them (the peer may be down to its last, owing nothing).  Under
 * ch->lock; @owed is the receive half (rdmachan_ctrl_rx_reset()), only
 * ever counted with a peer of version 6.
 */
struct rdmachan_ctrl_credits {
	bool on;
	u8 avail;
	u8 owed;
	u32 waits;
};

/* Owed returns that make a CREDIT of their own: the peer may hold one */
#define RDMACHAN_CTRL_ACK_DUE	(RDMACHAN_CTRL_RECV - 1)

/* Receive buffers are about to be posted: nothing of the peer's owed */
static inline void rdmachan_ctrl_rx_reset(struct rdmachan_ctrl_credits *c)
{
	c->owed = 0;
}

/* The connection is up: all of the peer's control buffers are free */
static inline void rdmachan_ctrl_init(struct rdmachan_ctrl_credits *c,
				      bool on)
{
	c->on = on;
	c->avail = RDMACHAN_CTRL_RECV;
}

/* May a control message go now (it returns what is owed)? */
static inline bool rdmachan_ctrl_may_send(const struct rdmachan_ctrl_credits *c)
{
	return !c->on || c->avail > 1 || (c->avail == 1 && c->owed);
}

/*
 * A message goes: take what is owed for its header, and for a @ctrl
 * message a control credit (rdmachan_ctrl_may_send() said yes).
 * Return: the returns to write into RDMACHAN_HDR_CACK_MASK.
 */
static inline u8 rdmachan_ctrl_take(struct rdmachan_ctrl_credits *c,
				    bool ctrl)
{
	u8 n = c->owed;

	c->owed = 0;
	if (ctrl && c->on && c->avail)
		c->avail--;
	return n;
}

/*
 * The peer returned @n control credits.  Return: 0, or -EPROTO when it
 * returns any before version 6 or more than we sent (left unchanged).
 */
static inline int rdmachan_ctrl_returned(struct rdmachan_ctrl_credits *c,
					 u32 n)
{
	if (!n)
		return 0;
	if (!c->on || c->avail + n > RDMACHAN_CTRL_RECV)
		return -EPROTO;
	c->avail += n;
	return 0;
}

/*
 * One of the peer's control messages came and its buffer is reposted;
 * version 6 only, counted from rdmachan_ctrl_rx_reset() (@on is the send
 * half's: it may come before rdmachan_ctrl_init()).
 * Return: 1 when the returns owed make a CREDIT of their own, 0 when
 * they can wait, -EPROTO when the peer sent more than its control
 * credits (left unchanged).
 */
static inline int rdmachan_ctrl_reposted(struct rdmachan_ctrl_credits *c)
{
	if (c->owed >= RDMACHAN_CTRL_RECV)
		return -EPROTO;
	c->owed++;
	return c->owed >= RDMACHAN_CTRL_ACK_DUE;
}

/* Do the returns owed make a CREDIT of their own? */
static inline bool rdmachan_ctrl_ack_due(const struct rdmachan_ctrl_credits *c)
{
	return c->owed >= RDMACHAN_CTRL_ACK_DUE;
}

#endif /* RDMACHAN_CREDIT_H */
