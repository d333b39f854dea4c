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
 * of each kind in flight, in its own send slot.  From wire version 6 a
 * control message also takes one of RDMACHAN_CTRL_RECV control credits,
 * which the peer returns in the header of a later message once it
 * reposted the buffer (credit.h has the rules): a send slot is free once
 * its send completes, but the buffer the message took is not until the
 * peer's receive completion ran, and an iWARP send completes as soon as
 * it is on the socket.  A message without a control credit waits in
 * ctrl.pending until returns come; one that waits for RDMACHAN_KEEPALIVE_STUCK
 * fails the channel, as a probe that never completes does.
 *
 * KEEPALIVE probes a peer nothing was heard from for five keepalive
 * ticks (keepalive.h), and flushes the send ring before a close.  CLOSE
 * tells the peer the end is orderly (the close handshake:
 * rdmachan_say_close()).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/sched/signal.h>

#include "rdmachan-pri.h"
#include "chan_trace.h"
#include "chan_post.h"
#include "chan_grant.h"
#include "params.h"
#include "chan_sbuf.h"
#include "keepalive.h"

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

/*
 * No control credit for a message of kind @slot: it waits in
 * ctrl.pending for the peer's returns (rdmachan_ctrl_kick_locked()).
 */
static void rdmachan_ctrl_wait_locked(struct rdmachan *ch, unsigned int slot)
{
	if (!ch->ctrl.pending)
		ch->ctrl.pending_since = jiffies;
	if (!__test_and_set_bit(slot, &ch->ctrl.pending))
		ch->ctrl.credits.waits++;
}

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
	     test_bit(RDMACHAN_F_CLOSE_SENT, &ch->flags)))
		return;
	if (!rdmachan_ctrl_may_send(&ch->ctrl.credits)) {
		rdmachan_ctrl_wait_locked(ch, slot);
		return;
	}
	if (test_and_set_bit(slot, &ch->ctrl.busy))
		return;
	/* the rest of ctrl.pending is timed from now (the starved bound) */
	if (__test_and_clear_bit(slot, &ch->ctrl.pending))
		ch->ctrl.pending_since = jiffies;

	h->type = rdmachan_ctrl_type[slot];
	h->flags = rdmachan_ctrl_take(&ch->ctrl.credits, true) <<
		   RDMACHAN_HDR_CACK_SHIFT;
	/* a sender short of credits asks for more (chan_grant.c) */
	if (ch->ctrl.want_grant && slot != RDMACHAN_CTRL_CLOSE) {
		h->flags |= RDMACHAN_HDR_F_WANT;
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

/**
 * rdmachan_ctrl_kick_locked() - send what waits on the control credits
 * @ch: the channel
 *
 * After control credits came back or a control slot came free: the
 * messages that waited for a credit, and a CREDIT for the peer's returns
 * where they are due (it may hold its last credit, owing none).
 *
 * Context: ch->lock held.
 */
void rdmachan_ctrl_kick_locked(struct rdmachan *ch)
{
	unsigned int slot;

	lockdep_assert_held(&ch->lock);
	if (rdmachan_ctrl_ack_due(&ch->ctrl.credits))
		rdmachan_post_ctrl_locked(ch, RDMACHAN_CTRL_CREDIT);
	for_each_set_bit(slot, &ch->ctrl.pending, RDMACHAN_CTRL_SLOTS) {
		if (!rdmachan_ctrl_may_send(&ch->ctrl.credits))
			break;
		rdmachan_post_ctrl_locked(ch, slot);
	}
}

/**
 * rdmachan_ctrl_rx_locked() - the control credits a received header
 *	returns
 * @ch: the channel
 * @h: the header
 *
 * Context: ch->lock held.
 * Return: NULL, or why the header breaks the protocol.
 */
const char *rdmachan_ctrl_rx_locked(struct rdmachan *ch,
				    const struct rdmachan_wire_hdr *h)
{
	u32 n = (h->flags & RDMACHAN_HDR_CACK_MASK) >> RDMACHAN_HDR_CACK_SHIFT;

	lockdep_assert_held(&ch->lock);
	if (!n)
		return NULL;
	if (ch->conn.params.version < 6)
		return "control credits returned before version 6";
	if (rdmachan_ctrl_returned(&ch->ctrl.credits, n))
		return "more control credits returned than taken";
	rdmachan_ctrl_kick_locked(ch);
	return NULL;
}

static bool rdmachan_msg_is_ctrl(u8 type)
{
	return type == RDMACHAN_MSG_CREDIT || type == RDMACHAN_MSG_KEEPALIVE ||
	       type == RDMACHAN_MSG_CLOSE;
}

/**
 * rdmachan_ctrl_repost_locked() - repost the buffer of a message that
 *	carried no data
 * @ch: the channel, its I/O not stopped
 * @rx: the buffer
 * @type: the message's type (a control message's buffer is one the peer
 *	holds a control credit for from version 6)
 *
 * For a control message this side then owes a return, and sends a
 * CREDIT for the returns where they are due.  Under the injection
 * "ctrl_hold" a control message's buffer waits in ctrl.held instead.
 *
 * Context: ch->lock held.
 * Return: NULL, or why the message breaks the protocol.
 */
const char *rdmachan_ctrl_repost_locked(struct rdmachan *ch,
					struct rdmachan_rx *rx, u8 type)
{
	bool v6 = ch->conn.params.version >= 6;

	lockdep_assert_held(&ch->lock);
	if (!rdmachan_msg_is_ctrl(type) || !v6) {
		rdmachan_post_recv_locked(ch, rx);
		return NULL;
	}
	if (ch->ctrl.hold) {
		list_add_tail(&rx->node, &ch->ctrl.held);
		return NULL;
	}
	if (rdmachan_ctrl_reposted(&ch->ctrl.credits) < 0)
		return "a control message beyond its control credits";
	rdmachan_post_recv_locked(ch, rx);
	/* a return owed lets a message waiting for the last credit go */
	if (rdmachan_ctrl_ack_due(&ch->ctrl.credits) ||
	    (ch->ctrl.pending && rdmachan_ctrl_may_send(&ch->ctrl.credits)))
		rdmachan_ctrl_kick_locked(ch);
	return NULL;
}

/**
 * rdmachan_ctrl_hold() - hold back, or give back, the receive buffers of
 *	the peer's control messages (fault injection)
 * @ch: the channel
 * @hold: hold from now on; false: repost those held and stop holding
 *
 * As a receiver whose completions lag would: the peer's control
 * messages take buffers that do not come back, so its control credits
 * run out and its control messages wait (version 6 only).
 *
 * Context: process context.
 * Return: 0, or -EOPNOTSUPP before version 6.
 */
int rdmachan_ctrl_hold(struct rdmachan *ch, bool hold)
{
	/* what the held buffers took: control messages */
	const u8 type = RDMACHAN_MSG_CREDIT;
	struct rdmachan_rx *rx, *tmp;
	const char *why = NULL;
	unsigned long flags;
	bool bh;

	if (ch->conn.params.version < 6)
		return -EOPNOTSUPP;
	bh = rdmachan_bh_off();
	spin_lock_irqsave(&ch->lock, flags);
	ch->ctrl.hold = hold;
	if (!hold) {
		list_for_each_entry_safe(rx, tmp, &ch->ctrl.held, node) {
			list_del_init(&rx->node);
			if (why || test_bit(RDMACHAN_F_IO_STOPPED, &ch->flags))
				continue;
			why = rdmachan_ctrl_repost_locked(ch, rx, type);
		}
	}
	spin_unlock_irqrestore(&ch->lock, flags);
	rdmachan_bh_on(bh);
	if (why) {
		rdmachan_err_rl(ch, "protocol error from peer: %s\n", why);
		rdmachan_fail_io(ch, -EPROTO);
	}
	return 0;
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
	rdmachan_ctrl_kick_locked(ch);
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
	if (test_bit(RDMACHAN_CTRL_CLOSE, &ch->ctrl.busy) ||
	    test_bit(RDMACHAN_CTRL_CLOSE, &ch->ctrl.pending))
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

/*
 * The keepalive tick, every keepalive_ms: a probe once nothing arrived
 * for RDMACHAN_KEEPALIVE_QUIET_TICKS ticks (keepalive.h), the idle
 * channel's housekeeping, the stuck-transport checks.
 */
void rdmachan_keepalive_work(struct work_struct *work)
{
	struct rdmachan *ch = container_of(to_delayed_work(work),
					   struct rdmachan,
					   ctrl.keepalive_work);
	unsigned int period = rdmachan_param_keepalive_ms();
	unsigned long flags;
	bool bh = rdmachan_bh_off();
	bool stuck, starved, seen, probe;

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
	probe = rdmachan_keepalive_probe_due(&ch->ctrl.quiet_ticks, seen);
	if ((probe && period) || rdmachan_sbuf_unretired_locked(ch))
		rdmachan_post_ctrl_locked(ch, RDMACHAN_CTRL_KEEPALIVE);
	rdmachan_sbuf_idle_locked(ch);
	rdmachan_retire_idle_locked(ch);
	/* a grant the allocator or the budget refused: again */
	rdmachan_grow_ask_tick_locked(ch);
	rdmachan_grow_check_locked(ch);
	stuck = test_bit(RDMACHAN_CTRL_KEEPALIVE, &ch->ctrl.busy) &&
		time_after(jiffies, ch->ctrl.keepalive_posted +
			   RDMACHAN_KEEPALIVE_STUCK);
	/* a peer that takes control messages and never reposts for them */
	starved = ch->ctrl.pending &&
		  time_after(jiffies, ch->ctrl.pending_since +
			     RDMACHAN_KEEPALIVE_STUCK);
	spin_unlock_irqrestore(&ch->lock, flags);
	rdmachan_bh_on(bh);
	rdmachan_rdma_check_stuck(ch);
	if (stuck) {
		/* a probe that neither completed nor failed */
		trace_rdmachan_chan_keepalive_miss(ch->obj.id,
						   READ_ONCE(ch->res.qpn),
						   RDMACHAN_KEEPALIVE_STUCK / HZ);
		rdmachan_fail_stuck(ch,
				    "a keepalive probe is unanswered after %u s",
				    RDMACHAN_KEEPALIVE_STUCK / HZ);
		return;
	}
	if (starved) {
		rdmachan_fail_stuck(ch,
				    "the peer returned no control credit for %u s",
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
	rdmachan_ctrl_init(&ch->ctrl.credits, ch->conn.params.version >= 6);
	ch->ctrl.pending = 0;
	/* what the peer sent before we got here may be owed back already */
	if (rdmachan_credits_report_due(&ch->credits) ||
	    rdmachan_ctrl_ack_due(&ch->ctrl.credits))
		rdmachan_post_ctrl_locked(ch, RDMACHAN_CTRL_CREDIT);
	/* ... and may have used half of its start grant */
	rdmachan_grow_check_locked(ch);
	spin_unlock_irqrestore(&ch->lock, flags);
	rdmachan_dbg(ch, "%s: wire version %u features %#llx depth %u max_msg %u, grants %u/%u, receive buffers of %u bytes%s, send buffers of %u%s, header %s, qpn %u\n",
		     ch->conn.active ? "connected" : "accepted",
		     ch->conn.params.version, ch->conn.params.features,
		     ch->conn.params.queue_depth, ch->conn.params.max_msg_size,
		     ch->conn.grant_tx, ch->conn.grant_rx, ch->res.buf_size,
		     ch->res.rx_split ? " (split)" : "", ch->res.sbuf_size,
		     ch->res.tx_split ? " (split)" : "",
		     ch->conn.hdr_imm ? "immediate" : "in band", ch->res.qpn);
	queue_delayed_work(rdmachan_wq, &ch->ctrl.keepalive_work,
			   msecs_to_jiffies(rdmachan_param_keepalive_ms() ?: 1000));
	wake_up_all(&ch->wq);
}
