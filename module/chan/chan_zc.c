// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan: zero-copy sends - a message whose payload the device gathers
 * from its sender's pages (rdmachan_send_sg_zc()), and their ends
 *
 * The slot is reserved, and posted, like any other (chan_send.c); its
 * gather list is the slot's row of &rdmachan_send_ring.zc_sge, made for
 * a user that asks for it (&rdmachan_opts.zc_send).  The slot ends when
 * a completion retires it (rdmachan_tx_retire_locked()) or, never
 * completed, at the teardown (rdmachan_send_end_orphans()).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/rcupdate.h>
#include <linux/scatterlist.h>

#include "rdmachan-pri.h"
#include "chan_frag.h"
#include "chan_send.h"

/* Unmap the @n payload entries of zero-copy row @row */
static void rdmachan_zc_unmap(struct ib_device *ibdev, struct ib_sge *row,
			      u32 n)
{
	u32 i;

	for (i = 1; i <= n; i++)
		ib_dma_unmap_page(ibdev, row[i].addr, row[i].length,
				  DMA_TO_DEVICE);
}

/**
 * rdmachan_zc_end() - unmap a zero-copy slot's payload and end it
 * @ch: the channel
 * @tx: the slot, free now
 * @err: what its sender's callback is told
 *
 * Context: ch->lock held.
 */
void rdmachan_zc_end(struct rdmachan *ch, struct rdmachan_tx *tx, int err)
{
	struct rdmachan_tx_ext *te = rdmachan_tx_ext(ch, tx);
	void (*done)(void *ctx, int err) = te->zc_done;
	void *ctx = te->zc_ctx;

	rdmachan_zc_unmap(rdmachan_ibdev(ch), rdmachan_zc_row(ch, tx),
			  tx->nr_zc);
	tx->nr_zc = 0;
	te->zc_done = NULL;
	te->zc_ctx = NULL;
	done(ctx, err);
}

/**
 * rdmachan_send_end_orphans() - end the zero-copy sends that never
 *	completed
 * @ch: the channel, its QP and CQ gone (rdmachan_release_resources())
 *
 * Every slot not retired, posted or not, gives its pages back to its
 * sender with -ECONNRESET.
 *
 * Context: process context; nothing else uses the send ring now.
 */
void rdmachan_send_end_orphans(struct rdmachan *ch)
{
	unsigned long flags;
	u64 seq;

	if (!ch->send.ring || !ch->send.zc_sge)
		return;
	spin_lock_irqsave(&ch->lock, flags);
	for (seq = ch->send.completed; seq != ch->send.reserved; seq++) {
		struct rdmachan_tx *tx = rdmachan_tx_slot(ch, seq);

		if (tx->nr_zc)
			rdmachan_zc_end(ch, tx, -ECONNRESET);
	}
	spin_unlock_irqrestore(&ch->lock, flags);
}

/**
 * rdmachan_send_sg_zc() - send one message from a scatterlist without
 *	copying it
 * @ch: a connected channel
 * @sgl: the message's pages (kernel memory, not DMA-mapped: the channel
 *	maps them); they must stay as they are until @done runs
 * @nents: entries of @sgl: at most rdmachan_send_sg_zc_max()
 * @imm: immediate value, with RDMACHAN_SEND_IMM
 * @flags: RDMACHAN_SEND_IMM, RDMACHAN_SEND_NONBLOCK,
 *	RDMACHAN_SEND_SOLICITED
 * @done: called once when the device has done with the pages: @err 0
 *	after the send completed, -ECONNRESET when the channel ended before
 *	(at its teardown, before rdmachan_close() returns).  Called under
 *	the channel's lock with interrupts off: from the channel's
 *	completion context (which, for RDMACHAN_POLL_DIRECT and
 *	RDMACHAN_POLL_SOLICITED, may be a poll inside the user's own
 *	rdmachan_poll() or rdmachan_send*() call) or from the teardown:
 *	must not sleep or call into the channel
 * @ctx: @done's argument
 *
 * The message goes out as rdmachan_send_sg() sends it, with the same
 * bytes on the wire, but the device reads the payload from @sgl's pages
 * themselves (gather entries with the PD's local DMA key), as a NIC sends
 * an skb: the sender keeps the pages until @done.  A copy is cheaper for
 * small messages; rdmachan_send_sg() is the fallback for any refusal.
 *
 * Context: as rdmachan_send().
 * Return: 0: the message is the channel's, and @done will be called
 * (even when the channel fails before posting it); otherwise @done will
 * not be called: -EOPNOTSUPP when @nents exceeds rdmachan_send_sg_zc_max()
 * or the channel is not connected yet, -ENOMEM when a page could not be
 * mapped, or rdmachan_send()'s errors.
 */
int rdmachan_send_sg_zc(struct rdmachan *ch, struct scatterlist *sgl,
			unsigned int nents, u32 imm, unsigned int flags,
			void (*done)(void *ctx, int err), void *ctx)
{
	struct ib_device *ibdev;
	struct rdmachan_tx *tx;
	struct scatterlist *sg;
	unsigned long lflags;
	struct ib_sge *row;
	size_t len = 0;
	unsigned int i;
	bool stopped;
	u64 first;
	int ret;

	if (!done || !nents)
		return -EINVAL;
	if (nents > rdmachan_send_sg_zc_max(ch))
		return -EOPNOTSUPP;
	for_each_sg(sgl, sg, nents, i)
		len += sg->length;
	/* one send's gather list: rdmachan_send_sg() fragments */
	if (rdmachan_frags(ch, len) > 1)
		return -EOPNOTSUPP;
	tx = rdmachan_send_one_slot(ch, len, imm, flags, &first);
	if (IS_ERR(tx))
		return tx == ERR_PTR(-ESTALE) ? -EOPNOTSUPP : PTR_ERR(tx);
	/*
	 * The device is used from here to the claim below without the
	 * channel's lock, and a teardown may begin meanwhile (a failure's
	 * work): inside an RCU read section, which a teardown that finds
	 * RDMACHAN_F_ZC_SENT waits for after it stopped the I/O and before
	 * it releases the device or looks for orphans.  Both bits go under
	 * the lock: this call sees the stop, or the teardown sees the bit.
	 */
	rcu_read_lock();
	spin_lock_irqsave(&ch->lock, lflags);
	stopped = test_bit(RDMACHAN_F_IO_STOPPED, &ch->flags);
	if (!stopped)
		set_bit(RDMACHAN_F_ZC_SENT, &ch->flags);
	spin_unlock_irqrestore(&ch->lock, lflags);
	if (stopped) {
		ret = -ECONNRESET;
		goto give_back;
	}
	/* the slot is ours until committed: fill its row without the lock */
	ibdev = rdmachan_ibdev(ch);
	row = rdmachan_zc_row(ch, tx);
	for_each_sg(sgl, sg, nents, i) {
		u64 dma = ib_dma_map_page(ibdev, sg_page(sg), sg->offset,
					  sg->length, DMA_TO_DEVICE);

		if (ib_dma_mapping_error(ibdev, dma)) {
			rdmachan_zc_unmap(ibdev, row, i);
			ret = -ENOMEM;
			goto give_back;
		}
		row[1 + i].addr = dma;
		row[1 + i].length = sg->length;
		row[1 + i].lkey = ch->res.pd->local_dma_lkey;
	}
	/*
	 * Claimed: from here @done runs once whatever happens, at the
	 * slot's completion or, when the post is refused or flushed, at
	 * the teardown (rdmachan_send_end_orphans()).
	 */
	spin_lock_irqsave(&ch->lock, lflags);
	tx->nr_zc = nents;
	rdmachan_tx_ext(ch, tx)->zc_done = done;
	rdmachan_tx_ext(ch, tx)->zc_ctx = ctx;
	spin_unlock_irqrestore(&ch->lock, lflags);
	rcu_read_unlock();
	ret = rdmachan_commit(ch, first, 1, 1);
	if (!ret) {
		atomic64_inc(&ch->stats[RDMACHAN_STAT_msgs_tx]);
		atomic64_add(len, &ch->stats[RDMACHAN_STAT_bytes_tx]);
	}
	return 0;

give_back:
	rcu_read_unlock();
	/* given back, or sent as a PAD */
	rdmachan_commit(ch, first, 1, 0);
	return ret;
}
EXPORT_SYMBOL_GPL(rdmachan_send_sg_zc);

/**
 * rdmachan_send_sg_zc_max() - pieces a zero-copy message may have
 * @ch: a channel
 *
 * Context: any.
 * Return: the most scatterlist entries rdmachan_send_sg_zc() takes on
 * @ch: the device's gather limit (at most RDMACHAN_MAX_SGE) less the
 * header and the in-band immediate; 0 before the channel is connected.
 */
unsigned int rdmachan_send_sg_zc_max(struct rdmachan *ch)
{
	u32 width = READ_ONCE(ch->send.zc_width);

	if (READ_ONCE(ch->state) == RDMACHAN_CONNECTING || width < 3)
		return 0;
	return width - 2;
}
EXPORT_SYMBOL_GPL(rdmachan_send_sg_zc_max);
