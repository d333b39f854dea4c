// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan: receive buffers that follow use (RDMACHAN_WIRE_F_GROW)
 *
 * A channel starts as every channel does: each side grants the other the
 * whole depth, a receive buffer posted for each credit.  Under F_GROW the
 * grant then follows what the peer uses:
 *
 * - a sender that reserved nothing for shrink_idle_ms hands back the
 *   credits it holds beyond RDMACHAN_GRANT_KEEP: a RETIRE message for
 *   each, through the data ring like any message (so the send queue has
 *   room for it), takes the credit and one receive buffer, and the
 *   receiver frees that buffer instead of reposting it;
 * - a receiver whose peer holds at most half of its grant when one of its
 *   messages arrives grants as many again, up to the depth: a work item
 *   allocates the buffers, posts them and only then returns them as
 *   credits, as if that many messages had come and been released.
 *
 * So an idle channel keeps RDMACHAN_GRANT_KEEP buffers for the peer's data
 * (and the control reserve), and a busy one grows back in a few round
 * trips to what its traffic needs.  Credits stay exact: a receiver never
 * grants a credit without its buffer posted, nor more than the depth; a
 * RETIRE the peer had no credit for is a protocol error.  This is the
 * first half of a shared receive queue's model (buffers for the messages
 * in flight, not for the connections), on the channel's own queue.
 *
 * The grown buffers come out of a budget per RDMA device, as a shared
 * receive queue's buffers would (grow_budget_kb; &rdmachan_device.rx_grown
 * counts them): where the device's channels hold it all, a grant stops
 * growing, its sender waits for credits as it would for a slow reader
 * (no RNR, no error), and the keepalive tick tries again once retired or
 * closed channels gave buffers back.  A grant the peer asked for
 * (RDMACHAN_HDR_F_WANT: a request waits for more credits than the grant
 * holds, or a sender that may not wait was refused one:
 * rdmachan_ask_grant_locked()) grows past the budget rather than leave it
 * waiting; it counts in the budget all the same.  Past the budget only
 * for a peer stuck: an ask first grows the grant within the budget, and
 * one that stands a whole keepalive interval (from the ask, or from the
 * last part of it granted) with nothing of the peer's arriving, while
 * this side's reader holds less than half of the grant, is a peer waiting
 * for several credits at once that it would never get
 * (rdmachan_grow_past_budget()).  A peer whose messages keep coming gets
 * its credits back as they are read (a block queue asking at its depth);
 * a reader that holds half of the grant is slow: the budget bounds both.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/dma-mapping.h>
#include <linux/jiffies.h>
#include <linux/sched/mm.h>

#include "rdmachan-pri.h"
#include "chan_post.h"
#include "chan_grant.h"
#include "chan_trace.h"
#include "chan_mem.h"
#include "chan_rxbuf.h"
#include "params.h"

/*
 * What a grant the peer asked for grows by: to the depth, or under F_FRAG
 * by a largest message's fragments at least (credit.h)
 */
static u32 rdmachan_grow_asked_n(const struct rdmachan *ch)
{
	const struct rdmachan_conn_params *p = &ch->conn.params;

	return rdmachan_credits_grow_asked(&ch->credits,
					   ch->conn.frag_rx ?
					   rdmachan_frag_count(p->max_msg_size) :
					   p->queue_depth);
}

/*
 * May a grant the peer asked for grow past the device's budget?  Only for
 * a peer stuck (see the top of this file): its ask stood a keepalive
 * interval with nothing of its arriving, and this side's reader does not
 * hold half of the grant.  Under ch->lock.
 */
static bool rdmachan_grow_past_budget(const struct rdmachan *ch)
{
	return rdmachan_ask_past_budget(&ch->recv.ask, &ch->credits);
}

/**
 * rdmachan_credits_due() - would a message sent now return credits the
 *	peer is about to need?
 * @ch: a channel
 *
 * For a user that answers its peer's messages with RDMA WRITE_WITH_IMM,
 * which carries no header: the credits the peer spent come back in the
 * header of this side's next message, or in an explicit CREDIT message
 * once the peer has used half of its grant.  True when credits are owed
 * and the peer's next message would make that CREDIT message due: an
 * answer sent as a message now returns them with no message of its own.
 *
 * Context: any; takes the channel's lock.
 * Return: true when a message sent now would spare a CREDIT message.
 */
bool rdmachan_credits_due(struct rdmachan *ch)
{
	unsigned long flags;
	bool due;

	spin_lock_irqsave(&ch->lock, flags);
	due = rdmachan_credits_return_due(&ch->credits);
	spin_unlock_irqrestore(&ch->lock, flags);
	return due;
}
EXPORT_SYMBOL_GPL(rdmachan_credits_due);

/**
 * rdmachan_grow_ask_tick_locked() - the keepalive tick of a standing ask
 * @ch: the channel
 *
 * An ask seen by a tick before, with nothing of the peer's arriving
 * since, is stuck (&struct rdmachan_grant_ask).
 *
 * Context: ch->lock held.
 */
void rdmachan_grow_ask_tick_locked(struct rdmachan *ch)
{
	lockdep_assert_held(&ch->lock);
	rdmachan_ask_tick(&ch->recv.ask);
}

static bool rdmachan_grows(const struct rdmachan *ch)
{
	return ch->conn.params.features & RDMACHAN_WIRE_F_GROW;
}

/**
 * rdmachan_grant_follows() - may this side's grant follow use?
 * @ch: the channel, its wire version and options known
 *
 * Not where the user takes the receive buffers' pages (rx_pages), nor
 * where arrivals wait for the user to poll (DIRECT, SOLICITED): a peer
 * short of credits would wait for a grant that only the user's next poll
 * makes.  Nor with a peer of wire version 3, which knows no grants.
 *
 * Return: true when it starts small, grows with use and offers
 * RDMACHAN_WIRE_F_GROW.
 */
bool rdmachan_grant_follows(const struct rdmachan *ch)
{
	u32 mode = ch->opts.poll_mode;

	return ch->conn.params.version >= 4 && !ch->opts.rx_pages &&
	       mode != RDMACHAN_POLL_DIRECT && mode != RDMACHAN_POLL_SOLICITED;
}

/**
 * rdmachan_grant_floor() - credits a grant that follows use keeps
 * @ch: the channel, its depth known
 *
 * Context: any.
 * Return: RDMACHAN_GRANT_START or the user's &rdmachan_opts.min_grant,
 * at most the depth.
 */
u32 rdmachan_grant_floor(const struct rdmachan *ch)
{
	return min(ch->conn.params.queue_depth,
		   max_t(u32, RDMACHAN_GRANT_START, ch->opts.min_grant));
}

/**
 * rdmachan_grant_start() - data receive buffers to post for the peer at
 *	the start
 * @ch: the channel, its depth known (rdmachan_setup_resources())
 *
 * Return: RDMACHAN_GRANT_START where the grant follows use, else the
 * whole depth.
 */
u32 rdmachan_grant_start(const struct rdmachan *ch)
{
	u32 depth = ch->conn.params.queue_depth;

	return rdmachan_grant_follows(ch) ? rdmachan_grant_floor(ch) : depth;
}

static void rdmachan_grow_queue_locked(struct rdmachan *ch)
{
	ch->recv.grow_queued = true;
	rdmachan_get(ch);
	if (!queue_work(rdmachan_wq, &ch->recv.grow_work)) {
		ch->recv.grow_queued = false;
		rdmachan_put(ch);
	}
}

/**
 * rdmachan_grow_check_locked() - one of the peer's messages took a
 *	buffer: grant more if it is running short
 * @ch: the channel
 *
 * Context: ch->lock held; any context.
 */
void rdmachan_grow_check_locked(struct rdmachan *ch)
{
	lockdep_assert_held(&ch->lock);
	if (!rdmachan_grant_follows(ch) || ch->recv.grow_queued ||
	    test_bit(RDMACHAN_F_IO_STOPPED, &ch->flags) ||
	    (!rdmachan_credits_grow_want(&ch->credits) &&
	     !(ch->recv.ask.asked &&
	       rdmachan_grow_asked_n(ch))))
		return;
	rdmachan_grow_queue_locked(ch);
}

/**
 * rdmachan_grow_asked_locked() - the peer asked for more credits
 *	(RDMACHAN_HDR_F_WANT): grant more, whatever it has out
 * @ch: the channel
 *
 * A one-sided request whose WRITE_WITH_IMMs take more credits than the
 * grant holds, or under F_FRAG a message of fragments, waits for them all
 * at once: no arrival would make the grant grow, and the peer does not
 * say how many it waits for.  The whole depth; under F_FRAG a largest
 * message's worth or the grant's again, and the peer asks again when
 * that is not enough (rdmachan_grow_asked_n()).
 *
 * Context: ch->lock held; any context.
 */
void rdmachan_grow_asked_locked(struct rdmachan *ch)
{
	lockdep_assert_held(&ch->lock);
	/*
	 * What is owed goes back now, below the thresholds too: a grant that
	 * cannot grow (at the depth, or not following use) may hold enough
	 */
	if (ch->credits.owed) {
		ch->ctrl.flush_owed = true;
		rdmachan_post_ctrl_locked(ch, RDMACHAN_CTRL_CREDIT);
	}
	if (!rdmachan_grant_follows(ch) ||
	    test_bit(RDMACHAN_F_IO_STOPPED, &ch->flags) ||
	    !rdmachan_grow_asked_n(ch))
		return;
	rdmachan_ask_raise(&ch->recv.ask);
	if (!ch->recv.grow_queued)
		rdmachan_grow_queue_locked(ch);
}

/**
 * rdmachan_ask_grant_locked() - a send was refused for want of credits:
 *	ask for a larger grant if that is the remedy
 * @ch: the channel
 * @least: credits the message takes (its fragments)
 * @nonblock: the sender may not wait (RDMACHAN_SEND_NONBLOCK)
 *
 * Asks (rdmachan_want_grant_locked()) as rdmachan_credits_ask() decides:
 * for a message of several credits, and for a sender of one that may not
 * wait where the peer's grant follows use.  Such a sender, a block queue
 * at its depth, has its credits on the wire: the peer answers each
 * message and returns its credit at once, so it never holds half of its
 * grant, the mark at which it would grow by itself; each refusal costs
 * the sender a retry.  A sender that waits leaves the grant to its
 * peer's reader and the budget.
 *
 * Context: ch->lock held; any context.
 */
void rdmachan_ask_grant_locked(struct rdmachan *ch, u32 least, bool nonblock)
{
	lockdep_assert_held(&ch->lock);
	if (rdmachan_credits_ask(&ch->credits, least, nonblock,
				 rdmachan_grows(ch)))
		rdmachan_want_grant_locked(ch);
}

/**
 * rdmachan_want_grant_locked() - this side waits for more credits than it
 *	holds: ask the peer to grow its grant
 * @ch: the channel
 *
 * The next KEEPALIVE or CREDIT carries RDMACHAN_HDR_F_WANT; one goes now
 * unless both are in flight (then the first to complete sends it).
 *
 * Context: ch->lock held; any context.
 */
void rdmachan_want_grant_locked(struct rdmachan *ch)
{
	lockdep_assert_held(&ch->lock);
	if (ch->conn.params.version < 4 ||
	    ch->credits.avail >= ch->credits.depth)
		return;
	ch->ctrl.want_grant = true;
	rdmachan_post_ctrl_locked(ch, RDMACHAN_CTRL_KEEPALIVE);
}

/*
 * Count @bytes of grown buffers in the device's budget, @asked past it.
 * Under ch->lock, the I/O not stopped: the device is the channel's.
 */
static bool rdmachan_grow_budget_take(struct rdmachan *ch, u64 bytes,
				      bool asked)
{
	struct rdmachan_device *dev = rdmachan_chan_dev(ch);
	u64 budget = rdmachan_param_grow_budget();

	if (atomic64_add_return(bytes, &dev->rx_grown) <= budget || asked)
		return true;
	atomic64_sub(bytes, &dev->rx_grown);
	atomic_inc(&dev->grow_refused);
	rdmachan_info_rl(ch,
			 "receive buffers granted beyond the start on %s reach grow_budget_kb (%llu KiB): the grant stops growing\n",
			 dev->name, budget >> 10);
	return false;
}

/* Give @n grown buffers back to the device's budget; under ch->lock */
static void rdmachan_grow_budget_put_locked(struct rdmachan *ch, u32 n)
{
	lockdep_assert_held(&ch->lock);
	n = min(n, ch->recv.grown);
	if (!n)
		return;
	ch->recv.grown -= n;
	atomic64_sub((u64)n * rdmachan_rx_buf_bytes(ch),
		     &rdmachan_chan_dev(ch)->rx_grown);
}

/**
 * rdmachan_grow_release() - give the device's budget back every grown
 *	buffer the channel holds
 * @ch: the channel, its I/O stopped, its device still its own
 *
 * Context: process context (the teardown).
 */
void rdmachan_grow_release(struct rdmachan *ch)
{
	unsigned long flags;

	spin_lock_irqsave(&ch->lock, flags);
	rdmachan_grow_budget_put_locked(ch, ch->recv.grown);
	spin_unlock_irqrestore(&ch->lock, flags);
}

/*
 * Post the new slot @rx with its buffer for the peer, unless the I/O
 * stopped, every slot is made, or the device's budget is spent (not for a
 * stuck peer's ask, rdmachan_grow_past_budget(): @asked).
 * Return: whether it was posted (else the caller frees it).
 */
static bool rdmachan_grow_post_locked(struct rdmachan *ch,
				      struct rdmachan_rx *rx, bool asked)
{
	lockdep_assert_held(&ch->lock);
	if (test_bit(RDMACHAN_F_IO_STOPPED, &ch->flags) ||
	    ch->recv.nr_slots >= ch->recv.nr_bufs)
		return false;
	if (!rdmachan_grow_budget_take(ch, rdmachan_rx_buf_bytes(ch), asked))
		return false;
	/* the device stays until the resources go, after the stop */
	ch->recv.grown++;
	if (rdmachan_rx_map(ch, rx)) {
		rdmachan_grow_budget_put_locked(ch, 1);
		return false;
	}
	list_add_tail(&rx->link, &ch->recv.all);
	ch->recv.nr_slots++;
	rdmachan_post_recv_locked(ch, rx);
	return true;
}

/**
 * rdmachan_grow_work() - allocate, post and grant more receive buffers
 * @work: &rdmachan_recv_queue.grow_work
 *
 * Each buffer is posted as soon as it is made; the credits go once all
 * are, in one CREDIT message.  What the allocator refuses is not granted:
 * the next arrival or keepalive tick asks again.  No I/O from reclaim: a
 * block device's writeback may wait for these credits.
 *
 * Context: process context (rdmachan_wq); holds a reference to the channel.
 */
void rdmachan_grow_work(struct work_struct *work)
{
	struct rdmachan *ch = container_of(work, struct rdmachan,
					   recv.grow_work);
	struct rdmachan_rx *rx;
	unsigned long flags;
	u32 want, n = 0;
	unsigned int noio;
	bool bh, asked, past;

	spin_lock_irqsave(&ch->lock, flags);
	asked = ch->recv.ask.asked;
	want = asked ? rdmachan_grow_asked_n(ch) :
	       rdmachan_credits_grow_want(&ch->credits);
	past = rdmachan_grow_past_budget(ch);
	spin_unlock_irqrestore(&ch->lock, flags);

	noio = memalloc_noio_save();
	while (n < want) {
		rx = rdmachan_rx_slot_new(ch, GFP_KERNEL | __GFP_NOWARN);
		if (!rx)
			break;
		bh = rdmachan_bh_off();
		spin_lock_irqsave(&ch->lock, flags);
		if (!rdmachan_grow_post_locked(ch, rx, past)) {
			spin_unlock_irqrestore(&ch->lock, flags);
			rdmachan_bh_on(bh);
			rdmachan_rx_slot_free(ch, rx);
			break;
		}
		spin_unlock_irqrestore(&ch->lock, flags);
		rdmachan_bh_on(bh);
		n++;
	}
	memalloc_noio_restore(noio);

	bh = rdmachan_bh_off();
	spin_lock_irqsave(&ch->lock, flags);
	ch->recv.grow_queued = false;
	/*
	 * An ask stands until granted whole (the keepalive tick retries);
	 * granted in part, the peer gets a whole interval to use what came
	 * before it counts as stuck
	 */
	if (asked)
		rdmachan_ask_granted(&ch->recv.ask, n, want);
	if (n && !test_bit(RDMACHAN_F_IO_STOPPED, &ch->flags)) {
		rdmachan_credits_grow(&ch->credits, n);
		trace_rdmachan_chan_grant(ch->obj.id, ch->res.qpn, true, n,
					  ch->credits.granted);
		/* the peer may be waiting for them: say so now */
		rdmachan_post_ctrl_locked(ch, RDMACHAN_CTRL_CREDIT);
	}
	/* an ask that came while this ran: its own run */
	if (!asked && ch->recv.ask.asked)
		rdmachan_grow_check_locked(ch);
	spin_unlock_irqrestore(&ch->lock, flags);
	rdmachan_bh_on(bh);
	rdmachan_put(ch);
}

/**
 * rdmachan_rx_retired_locked() - the peer retired a credit with the
 *	RETIRE message in @rx: free it and its buffer
 * @ch: the channel, its I/O not stopped
 * @rx: the receive slot
 *
 * Context: ch->lock held; the credit already counted
 * (rdmachan_credits_retired()).
 */
void rdmachan_rx_retired_locked(struct rdmachan *ch, struct rdmachan_rx *rx)
{
	lockdep_assert_held(&ch->lock);
	rdmachan_grow_budget_put_locked(ch, 1);
	rdmachan_rx_unmap(ch, rx);
	list_del(&rx->link);
	ch->recv.nr_slots--;
	rdmachan_rx_slot_free(ch, rx);
}

/**
 * rdmachan_retire_idle_locked() - the keepalive tick: retire the credits
 *	of a sender idle for shrink_idle_ms
 * @ch: the channel, connected, its I/O not stopped
 *
 * Context: ch->lock held.
 */
void rdmachan_retire_idle_locked(struct rdmachan *ch)
{
	unsigned int idle_ms = rdmachan_param_shrink_idle_ms();
	u64 first;
	u32 n, i;
	int ret;

	lockdep_assert_held(&ch->lock);
	/* a sender waits for several credits: retiring some would starve it */
	if (ch->send.reserved != ch->send.retire_mark || ch->send.waiting) {
		ch->send.retire_mark = ch->send.reserved;
		ch->send.retire_since = jiffies;
		return;
	}
	if (!rdmachan_grows(ch) || !idle_ms ||
	    time_before(jiffies, ch->send.retire_since +
			msecs_to_jiffies(idle_ms)))
		return;
	n = rdmachan_credits_retire(&ch->credits,
				    max_t(u32, RDMACHAN_GRANT_KEEP,
					  ch->opts.min_grant),
				    ch->send.depth - (u32)(ch->send.reserved -
							   ch->send.completed));
	if (!n)
		return;
	trace_rdmachan_chan_grant(ch->obj.id, ch->res.qpn, false, n,
				  ch->credits.avail);
	first = ch->send.reserved;
	for (i = 0; i < n; i++) {
		struct rdmachan_tx *tx = rdmachan_tx_slot(ch, first + i);

		tx->retire = true;
		tx->ready = true;
	}
	ch->send.reserved += n;
	ch->send.retired += n;
	/* not a sender's: the channel stays idle */
	if (ch->send.idle_mark == first)
		ch->send.idle_mark = ch->send.reserved;
	/* what comes back before the next idle period stays */
	ch->send.retire_mark = ch->send.reserved;
	ch->send.retire_since = jiffies;
	ret = rdmachan_commit_locked(ch);
	if (ret)
		rdmachan_post_failed_locked(ch, "retire", ret);
}

/**
 * rdmachan_post_retire_locked() - chain the RETIRE message of slot @tx
 * @ch: the channel
 * @tx: a slot marked &rdmachan_tx.retire; it holds no buffer
 * @c: the chain being built (rdmachan_commit_locked())
 *
 * An empty SEND_WITH_IMM whose immediate is the header, or a SEND of
 * the shared header; signalled as a data send of its place would be.
 *
 * Context: ch->lock held.
 */
void rdmachan_post_retire_locked(struct rdmachan *ch, struct rdmachan_tx *tx,
				 struct rdmachan_chain *c)
{
	struct rdmachan_wire_hdr h = { .type = RDMACHAN_MSG_RETIRE };

	lockdep_assert_held(&ch->lock);
	tx->retire = false;
	memset(&tx->wr, 0, sizeof(tx->wr));
	tx->wr.wr_cqe = &tx->cqe;
	if (ch->conn.hdr_imm) {
		tx->wr.opcode = IB_WR_SEND_WITH_IMM;
		tx->wr.ex.imm_data = rdmachan_wire_hdr_to_imm(&h);
	} else {
		tx->sge.addr = ch->send.retire_dma;
		tx->sge.length = RDMACHAN_HDR_LEN;
		tx->sge.lkey = ch->res.pd->local_dma_lkey;
		tx->wr.sg_list = &tx->sge;
		tx->wr.num_sge = 1;
		tx->wr.opcode = IB_WR_SEND;
		if (ch->res.max_inline >= RDMACHAN_HDR_LEN)
			tx->wr.send_flags |= IB_SEND_INLINE;
	}
	if ((u32)(tx->seq + 1) % ch->send.sig_interval == 0 ||
	    tx->seq + 1 - ch->send.completed >= ch->send.depth)
		tx->wr.send_flags |= IB_SEND_SIGNALED;
	rdmachan_chain_add(c, &tx->wr);
}

/**
 * rdmachan_grant_init() - write the shared header of RETIRE messages
 * @ch: the channel, &rdmachan_send_ring.retire_hdr allocated (zeroed) and
 *	mapped, its I/O not started
 *
 * Context: process context.
 */
void rdmachan_grant_init(struct rdmachan *ch)
{
	struct rdmachan_wire_hdr *h = ch->send.retire_hdr;

	h->type = RDMACHAN_MSG_RETIRE;
	ib_dma_sync_single_for_device(rdmachan_ibdev(ch), ch->send.retire_dma,
				      RDMACHAN_HDR_LEN, DMA_TO_DEVICE);
}
