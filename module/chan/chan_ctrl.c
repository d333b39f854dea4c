// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan: control messages of a channel - CREDIT, KEEPALIVE, CLOSE
 *
 * Credits.  Each side grants the other queue_depth credits: one per
 * receive buffer for data.  A data send takes a credit; the receiver
 * returns it when the message is released and its buffer reposted,
 * piggybacked on its next data send or, once a threshold is owed and
 * the peer is short of credits, in an explicit CREDIT message (the rule
 * and its arithmetic in credit.h).  Control
 * messages (CREDIT, KEEPALIVE, CLOSE) take no credit: each side keeps
 * RDMACHAN_CTRL_RECV spare receive buffers for them and has at most one
 * of each kind in flight, in its own send slot.
 *
 * KEEPALIVE probes a peer nothing was heard from for a period, and
 * flushes the send ring before a close.  CLOSE tells the peer the end is
 * orderly (the close handshake: rdmachan_say_close()).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/sched/signal.h>

#include "rdmachan-pri.h"
#include "chan_post.h"
#include "chan_grant.h"
#include "params.h"
#include "chan_sbuf.h"

static const u8 rdmachan_ctrl_type[RDMACHAN_CTRL_SLOTS] = {
	[RDMACHAN_CTRL_CREDIT]		= RDMACHAN_MSG_CREDIT,
	[RDMACHAN_CTRL_KEEPALIVE]	= RDMACHAN_MSG_KEEPALIVE,
	[RDMACHAN_CTRL_CLOSE]		= RDMACHAN_MSG_CLOSE,
};

static const char *const rdmachan_ctrl_name[RDMACHAN_CTRL_SLOTS] = {
	[RDMACHAN_CTRL_CREDIT]		= "credit",
	[RDMACHAN_CTRL_KEEPALIVE]	= "keepalive",
	[RDMACHAN_CTRL_CLOSE]		= "close",
};

/* Post one control message of kind @slot.  Caller holds ch->lock. */
void rdmachan_post_ctrl_locked(struct rdmachan *ch, unsigned int slot)
{
	struct rdmachan_tx *tx = &ch->ctrl.slot[slot];
	struct rdmachan_wire_hdr *h = tx->buf;
	struct ib_send_wr wr = {};
	struct ib_sge sge;
	int ret;

	if (test_bit(RDMACHAN_F_IO_STOPPED, &ch->flags) ||
	    ch->state != RDMACHAN_CONNECTED ||
	    (slot == RDMACHAN_CTRL_CLOSE &&
	     test_bit(RDMACHAN_F_CLOSE_SENT, &ch->flags)) ||
	    test_and_set_bit(slot, &ch->ctrl.busy))
		return;

	h->type = rdmachan_ctrl_type[slot];
	h->flags = 0;
	/* a sender short of credits asks for more (chan_grant.c) */
	if (ch->ctrl.want_grant && slot != RDMACHAN_CTRL_CLOSE) {
		h->flags = RDMACHAN_HDR_F_WANT;
		ch->ctrl.want_grant = false;
	}
	h->credits = cpu_to_be16(rdmachan_credits_take_owed(&ch->credits));
	ch->ctrl.flush_owed = false;
	h->len = 0;
	/* RC completes in order: this completion retires every data send */
	tx->covers = ch->send.posted;

	wr.wr_cqe = &tx->cqe;
	wr.send_flags = IB_SEND_SIGNALED;
	if (ch->conn.hdr_imm) {
		/* the header is all there is: an empty SEND_WITH_IMM */
		wr.opcode = IB_WR_SEND_WITH_IMM;
		wr.ex.imm_data = rdmachan_wire_hdr_to_imm(h);
	} else {
		ib_dma_sync_single_for_device(rdmachan_ibdev(ch), tx->dma,
					      RDMACHAN_HDR_LEN, DMA_TO_DEVICE);
		sge.addr = tx->dma;
		sge.length = RDMACHAN_HDR_LEN;
		sge.lkey = ch->res.pd->local_dma_lkey;
		wr.sg_list = &sge;
		wr.num_sge = 1;
		wr.opcode = IB_WR_SEND;
		if (ch->res.max_inline >= RDMACHAN_HDR_LEN)
			wr.send_flags |= IB_SEND_INLINE;
	}

	ret = rdmachan_post_send_locked(ch, &wr, NULL);
	if (ret) {
		clear_bit(slot, &ch->ctrl.busy);
		rdmachan_post_failed_locked(ch, rdmachan_ctrl_name[slot], ret);
		return;
	}
	if (slot == RDMACHAN_CTRL_CREDIT) {
		atomic64_inc(&ch->stats[RDMACHAN_STAT_credit_msgs_tx]);
	} else if (slot == RDMACHAN_CTRL_KEEPALIVE) {
		atomic64_inc(&ch->stats[RDMACHAN_STAT_keepalives_tx]);
		ch->ctrl.keepalive_posted = jiffies;
	} else {
		set_bit(RDMACHAN_F_CLOSE_SENT, &ch->flags);
	}
}

/* Control send completion: the slot is free again. */
void rdmachan_ctrl_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct rdmachan_tx *tx = container_of(wc->wr_cqe, struct rdmachan_tx,
					      cqe);
	struct rdmachan *ch = tx->ch;
	unsigned long flags;
	bool writable = false;

	clear_bit(tx->seq, &ch->ctrl.busy);
	if (!rdmachan_wc_ok(ch, wc, rdmachan_ctrl_name[tx->seq]))
		return;
	spin_lock_irqsave(&ch->lock, flags);
	if ((s64)(tx->covers - ch->send.completed) > 0) {
		rdmachan_tx_retire_locked(ch, tx->covers);
		writable = rdmachan_writable_due_locked(ch);
	}
	if (rdmachan_credits_report_due(&ch->credits) ||
	    (ch->ctrl.flush_owed && ch->credits.owed))
		rdmachan_post_ctrl_locked(ch, RDMACHAN_CTRL_CREDIT);
	/* an ask for credits that found both slots busy goes now */
	if (ch->ctrl.want_grant)
		rdmachan_post_ctrl_locked(ch, RDMACHAN_CTRL_KEEPALIVE);
	spin_unlock_irqrestore(&ch->lock, flags);
	wake_up_all(&ch->wq);
	if (writable)
		rdmachan_call_writable(ch);
}

static bool rdmachan_sends_flushed(struct rdmachan *ch)
{
	unsigned long flags;
	bool ret;

	spin_lock_irqsave(&ch->lock, flags);
	ret = (ch->send.completed == ch->send.posted && !ch->ctrl.busy) ||
	      ch->state != RDMACHAN_CONNECTED ||
	      test_bit(RDMACHAN_F_IO_STOPPED, &ch->flags);
	spin_unlock_irqrestore(&ch->lock, flags);
	return ret;
}

/**
 * rdmachan_flush_sends() - wait until the peer acknowledged every send
 * @ch: the channel
 * @timeout: bound, in jiffies
 *
 * Posts a signalled keepalive behind the last data send (RC completes in
 * order) and waits for the ring to drain, so that closing right after
 * sending loses nothing.
 *
 * Return: 0, -ETIMEDOUT, or -EINTR when the caller was killed.
 */
int rdmachan_flush_sends(struct rdmachan *ch, unsigned long timeout)
{
	unsigned long deadline = jiffies + timeout;
	unsigned long flags;

	while (!rdmachan_sends_flushed(ch)) {
		bool bh = rdmachan_bh_off();

		spin_lock_irqsave(&ch->lock, flags);
		if (ch->send.completed != ch->send.posted)
			rdmachan_post_ctrl_locked(ch, RDMACHAN_CTRL_KEEPALIVE);
		spin_unlock_irqrestore(&ch->lock, flags);
		rdmachan_bh_on(bh);
		if (rdmachan_wait_round(ch, rdmachan_sends_flushed))
			return -EINTR;
		if (time_after(jiffies, deadline))
			return -ETIMEDOUT;
	}
	return 0;
}

static bool rdmachan_close_said(struct rdmachan *ch)
{
	if (READ_ONCE(ch->state) != RDMACHAN_CONNECTED ||
	    test_bit(RDMACHAN_F_IO_STOPPED, &ch->flags))
		return true;
	if (test_bit(RDMACHAN_CTRL_CLOSE, &ch->ctrl.busy))
		return false;
	return !ch->ctrl.close_handshake ||
	       test_bit(RDMACHAN_F_PEER_SAID_CLOSE, &ch->flags);
}

/**
 * rdmachan_say_close() - tell the peer this is an orderly close
 * @ch: the channel, its sends flushed
 * @timeout: bound, in jiffies
 *
 * Sends CLOSE and waits until the peer acknowledged it, so that the
 * peer's receive queue holds it before the disconnect: the peer then
 * reports an orderly end, not a failure.  On iWARP a send completion
 * only means the data left (siw: was queued on the TCP socket, which
 * the disconnect may then reset), so there the peer answers CLOSE with
 * its own CLOSE and this waits for that.
 *
 * Return: 0, -ETIMEDOUT, or -EINTR when the caller was killed.
 */
int rdmachan_say_close(struct rdmachan *ch, unsigned long timeout)
{
	unsigned long deadline = jiffies + timeout;
	unsigned long flags;
	bool bh = rdmachan_bh_off();

	spin_lock_irqsave(&ch->lock, flags);
	rdmachan_post_ctrl_locked(ch, RDMACHAN_CTRL_CLOSE);
	spin_unlock_irqrestore(&ch->lock, flags);
	rdmachan_bh_on(bh);
	while (!rdmachan_close_said(ch)) {
		if (rdmachan_wait_round(ch, rdmachan_close_said))
			return -EINTR;
		if (time_after(jiffies, deadline))
			return -ETIMEDOUT;
	}
	return 0;
}

/* Periodic probe: when nothing arrived for a period, send a keepalive. */
void rdmachan_keepalive_work(struct work_struct *work)
{
	struct rdmachan *ch = container_of(to_delayed_work(work),
					   struct rdmachan,
					   ctrl.keepalive_work);
	unsigned int period = rdmachan_param_keepalive_ms();
	unsigned long flags;
	bool bh = rdmachan_bh_off();
	bool stuck, seen;

	spin_lock_irqsave(&ch->lock, flags);
	if (ch->state != RDMACHAN_CONNECTED ||
	    test_bit(RDMACHAN_F_IO_STOPPED, &ch->flags)) {
		spin_unlock_irqrestore(&ch->lock, flags);
		rdmachan_bh_on(bh);
		return;
	}
	/*
	 * Also when data sends wait, unsignalled, for a completion to retire
	 * them and the channel is idle: the keepalive's retires them, and
	 * the next tick frees their buffers (chan_sbuf.c)
	 */
	seen = test_and_clear_bit(RDMACHAN_F_RX_SEEN, &ch->flags);
	if ((!seen && period) || rdmachan_sbuf_unretired_locked(ch))
		rdmachan_post_ctrl_locked(ch, RDMACHAN_CTRL_KEEPALIVE);
	rdmachan_sbuf_idle_locked(ch);
	rdmachan_retire_idle_locked(ch);
	/* a grant the allocator refused at the last arrival: again */
	rdmachan_grow_check_locked(ch);
	stuck = test_bit(RDMACHAN_CTRL_KEEPALIVE, &ch->ctrl.busy) &&
		time_after(jiffies, ch->ctrl.keepalive_posted +
			   RDMACHAN_KEEPALIVE_STUCK);
	spin_unlock_irqrestore(&ch->lock, flags);
	rdmachan_bh_on(bh);
	rdmachan_rdma_check_stuck(ch);
	if (stuck) {
		/* a probe that neither completed nor failed */
		rdmachan_fail_stuck(ch,
				    "a keepalive probe is unanswered after %u s",
				    RDMACHAN_KEEPALIVE_STUCK / HZ);
		return;
	}
	/* DIRECT: the fallback poll; SOLICITED: credits and keepalives */
	rdmachan_poll(ch, -1);
	queue_delayed_work(rdmachan_wq, &ch->ctrl.keepalive_work,
			   msecs_to_jiffies(period ?: 1000));
}

/**
 * rdmachan_start_io() - a channel became CONNECTED: set credits, start
 *	the keepalive
 * @ch: the channel, with negotiated ch->conn.params
 */
void rdmachan_start_io(struct rdmachan *ch)
{
	u32 mode = ch->opts.poll_mode;
	unsigned long flags;

	spin_lock_irqsave(&ch->lock, flags);
	/* reports wait for the peer to be short where arrivals are seen */
	rdmachan_credits_init(&ch->credits, ch->conn.params.queue_depth,
			      mode != RDMACHAN_POLL_DIRECT &&
			      mode != RDMACHAN_POLL_SOLICITED,
			      ch->conn.grant_tx, ch->conn.grant_rx);
	/* idle from now on until a sender reserves (chan_grant.c) */
	ch->send.retire_mark = ch->send.reserved;
	ch->send.retire_since = jiffies;
	rdmachan_event_locked(ch, RDMACHAN_EV_ESTABLISHED, 0);
	/* what the peer sent before we got here may be owed back already */
	if (rdmachan_credits_report_due(&ch->credits))
		rdmachan_post_ctrl_locked(ch, RDMACHAN_CTRL_CREDIT);
	/* ... and may have used half of its start grant */
	rdmachan_grow_check_locked(ch);
	spin_unlock_irqrestore(&ch->lock, flags);
	queue_delayed_work(rdmachan_wq, &ch->ctrl.keepalive_work,
			   msecs_to_jiffies(rdmachan_param_keepalive_ms() ?: 1000));
	wake_up_all(&ch->wq);
}
