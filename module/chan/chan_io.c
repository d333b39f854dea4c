// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan: the data path of a channel - sends, receives, credits,
 * keepalive
 *
 * Credits.  Each side grants the other queue_depth credits: one per
 * receive buffer for data.  A data send takes a credit; the receiver
 * returns it when the message is released and its buffer reposted,
 * piggybacked on its next data send or, once a threshold is owed,
 * in an explicit CREDIT message (arithmetic in credit.h).  Control
 * messages (CREDIT, KEEPALIVE, CLOSE) take no credit: each side keeps
 * RDMACHAN_CTRL_RECV spare receive buffers for them and has at most one
 * of each kind in flight.
 *
 * Send ring.  A sender reserves a credit and a slot of the data send
 * ring under the channel lock, fills the slot without the lock (copying
 * from user memory may fault), and marks it ready; ready slots are then
 * posted strictly in reservation order, as one chained work request list.
 * Only every sig_interval-th send, and the one that fills the ring, is
 * signalled; its completion frees every slot before it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/scatterlist.h>
#include <linux/sched/signal.h>
#include <linux/uio.h>

#include "rdmachan-pri.h"
#include "device.h"
#include "params.h"

static struct ib_device *rdmachan_ibdev(struct rdmachan *ch)
{
	return ch->cm_id->device;
}

void rdmachan_fail_io(struct rdmachan *ch, int err)
{
	rdmachan_set_failed(ch, err);
	rdmachan_schedule_teardown(ch);
}

/*
 * A post failed, with ch->lock held.  After the peer's CLOSE the QP may
 * already be in the error state (iWARP refuses posts then): that is the
 * orderly end under way, not a failure.
 */
static void rdmachan_post_failed_locked(struct rdmachan *ch, const char *what,
					int err)
{
	if (ch->peer_said_close)
		return;
	pr_err_ratelimited("channel %u: %s post failed: %d\n", ch->id, what,
			   err);
	rdmachan_event_locked(ch, RDMACHAN_EV_FAILED, -ECONNRESET);
	wake_up_all(&ch->wq);
	rdmachan_schedule_teardown(ch);
}

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
static void rdmachan_post_ctrl_locked(struct rdmachan *ch, unsigned int slot)
{
	struct rdmachan_tx *tx = &ch->ctrl[slot];
	struct rdmachan_wire_hdr *h = tx->buf;
	struct ib_send_wr wr = {};
	struct ib_sge sge;
	int ret;

	if (ch->io_stopped || ch->state != RDMACHAN_CONNECTED ||
	    (slot == RDMACHAN_CTRL_CLOSE && ch->close_sent) ||
	    test_and_set_bit(slot, &ch->ctrl_busy))
		return;

	h->type = rdmachan_ctrl_type[slot];
	h->flags = 0;
	h->credits = cpu_to_be16(rdmachan_credits_take_owed(&ch->credits));
	h->len = 0;
	/* RC completes in order: this completion retires every data send */
	tx->covers = ch->tx_posted;

	wr.wr_cqe = &tx->cqe;
	wr.send_flags = IB_SEND_SIGNALED;
	if (ch->hdr_imm) {
		/* the header is all there is: an empty SEND_WITH_IMM */
		wr.opcode = IB_WR_SEND_WITH_IMM;
		wr.ex.imm_data = rdmachan_wire_hdr_to_imm(h);
	} else {
		ib_dma_sync_single_for_device(rdmachan_ibdev(ch), tx->dma,
					      RDMACHAN_HDR_LEN, DMA_TO_DEVICE);
		sge.addr = tx->dma;
		sge.length = RDMACHAN_HDR_LEN;
		sge.lkey = ch->pd->local_dma_lkey;
		wr.sg_list = &sge;
		wr.num_sge = 1;
		wr.opcode = IB_WR_SEND;
		if (ch->max_inline >= RDMACHAN_HDR_LEN)
			wr.send_flags |= IB_SEND_INLINE;
	}

	ret = ib_post_send(ch->qp, &wr, NULL);
	if (ret) {
		clear_bit(slot, &ch->ctrl_busy);
		rdmachan_post_failed_locked(ch, rdmachan_ctrl_name[slot], ret);
		return;
	}
	if (slot == RDMACHAN_CTRL_CREDIT) {
		atomic64_inc(&ch->stats.credit_msgs_tx);
	} else if (slot == RDMACHAN_CTRL_KEEPALIVE) {
		atomic64_inc(&ch->stats.keepalives_tx);
		ch->keepalive_posted = jiffies;
	} else {
		ch->close_sent = true;
	}
}

static void rdmachan_post_recv_locked(struct rdmachan *ch,
				      struct rdmachan_rx *rx)
{
	struct ib_recv_wr wr = {};
	struct ib_sge sge;
	int ret;

	sge.addr = rx->dma;
	sge.length = ch->buf_size;
	sge.lkey = ch->pd->local_dma_lkey;
	wr.wr_cqe = &rx->cqe;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	ret = ib_post_recv(ch->qp, &wr, NULL);
	if (ret)
		rdmachan_post_failed_locked(ch, "receive", ret);
}

/**
 * rdmachan_msg_release() - give a received message's buffer back
 * @ch: the channel
 * @msg: a message from &rdmachan_ops.recv or rdmachan_recv()
 *
 * The buffer is reposted and its credit returned to the sender.
 *
 * Context: any.
 */
void rdmachan_msg_release(struct rdmachan *ch, struct rdmachan_msg *msg)
{
	struct rdmachan_rx *rx = container_of(msg, struct rdmachan_rx, msg);
	bool bh = rdmachan_bh_off();
	unsigned long flags;

	spin_lock_irqsave(&ch->lock, flags);
	if (!ch->io_stopped) {
		rdmachan_post_recv_locked(ch, rx);
		if (rdmachan_credits_owe_one(&ch->credits))
			rdmachan_post_ctrl_locked(ch, RDMACHAN_CTRL_CREDIT);
	}
	spin_unlock_irqrestore(&ch->lock, flags);
	rdmachan_bh_on(bh);
}
EXPORT_SYMBOL_GPL(rdmachan_msg_release);

/**
 * rdmachan_deliver() - push queued messages to the user's recv callback
 * @ch: the channel
 *
 * One deliverer at a time, so messages are delivered in order.
 *
 * Context: any that the user's callback allows.
 */
void rdmachan_deliver(struct rdmachan *ch)
{
	struct rdmachan_rx *rx;
	unsigned long flags;

	spin_lock_irqsave(&ch->lock, flags);
	if (ch->delivering || !ch->ops || !ch->ops->recv || ch->listener) {
		spin_unlock_irqrestore(&ch->lock, flags);
		return;
	}
	ch->delivering = true;
	while ((rx = list_first_entry_or_null(&ch->rx_ready,
					      struct rdmachan_rx, node))) {
		list_del_init(&rx->node);
		ch->rx_ready_count--;
		spin_unlock_irqrestore(&ch->lock, flags);
		ch->ops->recv(ch, &rx->msg);
		spin_lock_irqsave(&ch->lock, flags);
	}
	ch->delivering = false;
	spin_unlock_irqrestore(&ch->lock, flags);
}

/*
 * A flushed work request means the QP is in the error state.  Teardown
 * puts it there after it stopped I/O, and the peer's orderly close may
 * (after its CLOSE arrived): those are expected.  Any other flush means
 * the QP broke behind our back (a local error the provider reports only
 * so, a fatal event we did not get): the channel fails.
 */
static bool rdmachan_flush_expected(struct rdmachan *ch)
{
	return READ_ONCE(ch->io_stopped) || READ_ONCE(ch->peer_said_close);
}

static bool rdmachan_wc_ok(struct rdmachan *ch, struct ib_wc *wc,
			   const char *what)
{
	if (likely(wc->status == IB_WC_SUCCESS))
		return true;
	if (wc->status != IB_WC_WR_FLUSH_ERR) {
		atomic64_inc(&ch->stats.errors);
		pr_info_ratelimited("channel %u: %s completion: %s (%d)\n",
				    ch->id, what, ib_wc_status_msg(wc->status),
				    wc->status);
		rdmachan_fail_io(ch, -ECONNRESET);
	} else if (!rdmachan_flush_expected(ch) &&
		   READ_ONCE(ch->state) == RDMACHAN_CONNECTED) {
		/* the first one fails the channel; the rest are its echo */
		atomic64_inc(&ch->stats.errors);
		pr_info_ratelimited("channel %u: %s flushed: the queue pair left the connected state\n",
				    ch->id, what);
		rdmachan_fail_io(ch, -ECONNRESET);
	}
	return false;
}

static void rdmachan_protocol_error(struct rdmachan *ch, const char *why)
{
	pr_err_ratelimited("channel %u: protocol error from peer: %s\n",
			   ch->id, why);
	atomic64_inc(&ch->stats.errors);
	rdmachan_fail_io(ch, -EPROTO);
}

/*
 * Queue a received message for the reader.  Caller holds ch->lock and
 * calls rdmachan_rx_queued() once it has dropped it.
 */
static void rdmachan_rx_queue_locked(struct rdmachan *ch,
				     struct rdmachan_rx *rx)
{
	ch->rx_seen = true;
	if (ch->rcq) {
		/* SOLICITED: parked until a solicited event or a read */
		list_add_tail(&rx->node, &ch->rx_pending);
		ch->rx_pending_count++;
	} else {
		list_add_tail(&rx->node, &ch->rx_ready);
		ch->rx_ready_count++;
	}
}

/* A message of @len bytes was queued: count it, push it to the user. */
static void rdmachan_rx_queued(struct rdmachan *ch, u32 len)
{
	atomic64_inc(&ch->stats.msgs_rx);
	atomic64_add(len, &ch->stats.bytes_rx);
	if (ch->rcq)
		return;
	if (ch->ops && ch->ops->recv)
		rdmachan_deliver(ch);
	wake_up_all(&ch->wq);
}

/*
 * The peer's RDMA WRITE_WITH_IMM took a receive buffer (and a credit,
 * returned when it is released) but carries no header: it reaches the
 * reader as an empty message flagged rdma_imm.
 */
static void rdmachan_rx_rdma_imm(struct rdmachan *ch, struct rdmachan_rx *rx,
				 u32 imm)
{
	unsigned long flags;

	rx->msg.data = rx->buf;
	rx->msg.len = 0;
	rx->msg.imm = imm;
	rx->msg.has_imm = true;
	rx->msg.rdma_imm = true;
	spin_lock_irqsave(&ch->lock, flags);
	rdmachan_rx_queue_locked(ch, rx);
	spin_unlock_irqrestore(&ch->lock, flags);
	rdmachan_rx_queued(ch, 0);
}

/* Receive completion: validate, take credits, queue or repost. */
void rdmachan_rx_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct rdmachan_rx *rx = container_of(wc->wr_cqe, struct rdmachan_rx,
					      cqe);
	struct rdmachan *ch = rx->ch;
	struct rdmachan_wire_hdr hdr, *h = &hdr;
	unsigned long flags;
	u32 credits, len, start;
	bool wake;
	int ret;

	if (!rdmachan_wc_ok(ch, wc, "receive"))
		return;
	if (wc->opcode == IB_WC_RECV_RDMA_WITH_IMM) {
		rdmachan_rx_rdma_imm(ch, rx, be32_to_cpu(wc->ex.imm_data));
		return;
	}
	ib_dma_sync_single_for_cpu(rdmachan_ibdev(ch), rx->dma, ch->buf_size,
				   DMA_FROM_DEVICE);
	if (ch->hdr_imm) {
		/* the header is the immediate, the payload starts the buffer */
		start = 0;
		ret = -EPROTO;
		if (wc->wc_flags & IB_WC_WITH_IMM)
			ret = rdmachan_wire_imm_check(wc->ex.imm_data,
						      wc->byte_len,
						      ch->params.max_msg_size,
						      h);
	} else {
		start = RDMACHAN_HDR_LEN;
		memcpy(h, rx->buf, sizeof(*h));
		ret = rdmachan_wire_hdr_check(h, wc->byte_len,
					      ch->params.max_msg_size);
	}
	if (ret) {
		rdmachan_protocol_error(ch, "malformed header");
		return;
	}
	credits = be16_to_cpu(h->credits);
	len = be32_to_cpu(h->len);

	spin_lock_irqsave(&ch->lock, flags);
	if (rdmachan_credits_grant(&ch->credits, credits)) {
		spin_unlock_irqrestore(&ch->lock, flags);
		rdmachan_protocol_error(ch, "more credits than granted");
		return;
	}
	wake = credits;
	ch->rx_seen = true;

	if (h->type != RDMACHAN_MSG_DATA) {
		if (h->type == RDMACHAN_MSG_CLOSE) {
			ch->peer_said_close = true;
			wake = true;
			/* iWARP: the closing side waits for our CLOSE */
			if (ch->close_handshake)
				rdmachan_post_ctrl_locked(ch,
							  RDMACHAN_CTRL_CLOSE);
		}
		if (!ch->io_stopped) {
			rdmachan_post_recv_locked(ch, rx);
			/* a PAD took a credit like DATA: return it */
			if (h->type == RDMACHAN_MSG_PAD &&
			    rdmachan_credits_owe_one(&ch->credits))
				rdmachan_post_ctrl_locked(ch,
							  RDMACHAN_CTRL_CREDIT);
		}
		spin_unlock_irqrestore(&ch->lock, flags);
		if (wake)
			wake_up_all(&ch->wq);
		return;
	}

	rx->msg.data = rx->buf + start;
	rx->msg.len = len;
	if (h->flags & RDMACHAN_HDR_F_IMM) {
		__be32 imm;

		memcpy(&imm, rx->buf + start + len, sizeof(imm));
		rx->msg.has_imm = true;
		rx->msg.imm = be32_to_cpu(imm);
	} else {
		/* under HDR_IMM the immediate was the header */
		rx->msg.has_imm = !ch->hdr_imm &&
				  (wc->wc_flags & IB_WC_WITH_IMM);
		rx->msg.imm = rx->msg.has_imm ?
			      be32_to_cpu(wc->ex.imm_data) : 0;
	}
	rx->msg.rdma_imm = false;
	rdmachan_rx_queue_locked(ch, rx);
	spin_unlock_irqrestore(&ch->lock, flags);
	rdmachan_rx_queued(ch, len);
}

/* Data send completion (signalled, or an error): free the ring up to it. */
void rdmachan_tx_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct rdmachan_tx *tx = container_of(wc->wr_cqe, struct rdmachan_tx,
					      cqe);
	struct rdmachan *ch = tx->ch;
	unsigned long flags;

	if (!rdmachan_wc_ok(ch, wc, "send"))
		return;
	spin_lock_irqsave(&ch->lock, flags);
	if ((s32)(tx->seq + 1 - ch->tx_completed) > 0)
		ch->tx_completed = tx->seq + 1;
	spin_unlock_irqrestore(&ch->lock, flags);
	wake_up_all(&ch->wq);
}

/* Control send completion: the slot is free again. */
void rdmachan_ctrl_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct rdmachan_tx *tx = container_of(wc->wr_cqe, struct rdmachan_tx,
					      cqe);
	struct rdmachan *ch = tx->ch;
	unsigned long flags;

	clear_bit(tx->seq, &ch->ctrl_busy);
	if (!rdmachan_wc_ok(ch, wc, rdmachan_ctrl_name[tx->seq]))
		return;
	spin_lock_irqsave(&ch->lock, flags);
	if ((s32)(tx->covers - ch->tx_completed) > 0)
		ch->tx_completed = tx->covers;
	if (rdmachan_credits_report_due(&ch->credits))
		rdmachan_post_ctrl_locked(ch, RDMACHAN_CTRL_CREDIT);
	spin_unlock_irqrestore(&ch->lock, flags);
	wake_up_all(&ch->wq);
}

/*
 * Post every ready slot at the head of the ring, in order, as one chain.
 * Caller holds ch->lock.
 */
static int rdmachan_commit_locked(struct rdmachan *ch)
{
	struct ib_send_wr *first = NULL, *last = NULL;
	struct ib_device *ibdev = rdmachan_ibdev(ch);
	int ret;

	while (ch->tx_posted != ch->tx_reserved) {
		struct rdmachan_tx *tx = &ch->tx[ch->tx_posted % ch->tx_depth];
		struct rdmachan_wire_hdr *h = tx->buf;
		/* the message starts after the header unless it is in the imm */
		u32 start = ch->hdr_imm ? RDMACHAN_HDR_LEN : 0;
		u32 bytes = RDMACHAN_HDR_LEN + tx->len - start;

		if (!tx->ready)
			break;
		tx->ready = false;
		tx->seq = ch->tx_posted++;

		h->type = tx->pad ? RDMACHAN_MSG_PAD : RDMACHAN_MSG_DATA;
		tx->pad = false;
		h->flags = 0;
		h->credits = cpu_to_be16(rdmachan_credits_take_owed(&ch->credits));
		h->len = cpu_to_be32(tx->len);
		if (tx->has_imm && ch->imm_inband) {
			__be32 imm = cpu_to_be32(tx->imm);

			h->flags = RDMACHAN_HDR_F_IMM;
			memcpy(tx->buf + start + bytes, &imm, sizeof(imm));
			bytes += sizeof(imm);
		}
		ib_dma_sync_single_for_device(ibdev, tx->dma, start + bytes,
					      DMA_TO_DEVICE);

		tx->sge.addr = tx->dma + start;
		tx->sge.length = bytes;
		tx->sge.lkey = ch->pd->local_dma_lkey;
		memset(&tx->wr, 0, sizeof(tx->wr));
		tx->wr.wr_cqe = &tx->cqe;
		tx->wr.sg_list = &tx->sge;
		tx->wr.num_sge = bytes ? 1 : 0;
		if (ch->hdr_imm) {
			tx->wr.opcode = IB_WR_SEND_WITH_IMM;
			tx->wr.ex.imm_data = rdmachan_wire_hdr_to_imm(h);
		} else if (tx->has_imm && !ch->imm_inband) {
			tx->wr.opcode = IB_WR_SEND_WITH_IMM;
			tx->wr.ex.imm_data = cpu_to_be32(tx->imm);
		} else {
			tx->wr.opcode = IB_WR_SEND;
		}
		if (bytes && bytes <= ch->max_inline)
			tx->wr.send_flags |= IB_SEND_INLINE;
		if (tx->solicited)
			tx->wr.send_flags |= IB_SEND_SOLICITED;
		tx->solicited = false;
		if ((tx->seq + 1) % ch->sig_interval == 0 ||
		    tx->seq + 1 - ch->tx_completed >= ch->tx_depth)
			tx->wr.send_flags |= IB_SEND_SIGNALED;

		if (last)
			last->next = &tx->wr;
		else
			first = &tx->wr;
		last = &tx->wr;
	}
	if (!first)
		return 0;
	ret = ib_post_send(ch->qp, first, NULL);
	if (ret)
		pr_err_ratelimited("channel %u: send post failed: %d\n", ch->id,
				   ret);
	return ret;
}

static bool rdmachan_can_reserve(struct rdmachan *ch)
{
	return ch->credits.avail &&
	       ch->tx_reserved - ch->tx_completed < ch->tx_depth;
}

/* The errno for a send on a channel that is not CONNECTED */
int rdmachan_send_state_err(struct rdmachan *ch)
{
	return rdmachan_state_send_err(ch->state, ch->io_stopped, ch->err);
}

/**
 * rdmachan_writable() - could a send take a credit and a slot now?
 * @ch: the channel
 */
bool rdmachan_writable(struct rdmachan *ch)
{
	unsigned long flags;
	bool ret;

	spin_lock_irqsave(&ch->lock, flags);
	ret = !rdmachan_send_state_err(ch) && rdmachan_can_reserve(ch);
	spin_unlock_irqrestore(&ch->lock, flags);
	return ret;
}

static bool rdmachan_send_wait_done(struct rdmachan *ch)
{
	unsigned long flags;
	bool ret;

	spin_lock_irqsave(&ch->lock, flags);
	ret = rdmachan_send_state_err(ch) || rdmachan_can_reserve(ch);
	spin_unlock_irqrestore(&ch->lock, flags);
	return ret;
}

/**
 * rdmachan_poll() - process completions of a channel now
 * @ch: the channel
 * @budget: most completions to process, -1 for all
 *
 * For RDMACHAN_POLL_DIRECT channels this is how completions are seen.  On
 * RDMACHAN_POLL_SOLICITED channels it processes the receive queue: the
 * peer's credits are taken at once, its messages wait for a solicited
 * event or rdmachan_recv().  On the others it returns 0 and does
 * nothing.  One thread polls a channel
 * at a time: a caller that finds another one polling (a blocking call
 * busy-polling, the keepalive's fallback poll) returns 0 at once, as it
 * does once teardown has begun.
 *
 * Context: any context that may run the channel's recv callback.
 * Return: completions processed.
 */
int rdmachan_poll(struct rdmachan *ch, int budget)
{
	struct ib_cq *cq;
	int n = 0;

	if ((ch->opts.poll_mode != RDMACHAN_POLL_DIRECT &&
	     ch->opts.poll_mode != RDMACHAN_POLL_SOLICITED) ||
	    test_and_set_bit_lock(RDMACHAN_POLLING, &ch->poll_lock))
		return 0;
	/* teardown takes the bit before it drains and frees the CQ */
	cq = ch->opts.poll_mode == RDMACHAN_POLL_DIRECT ? READ_ONCE(ch->cq) :
							 READ_ONCE(ch->rcq);
	if (cq && !READ_ONCE(ch->io_stopped))
		n = ib_process_cq_direct(cq, budget);
	clear_bit_unlock(RDMACHAN_POLLING, &ch->poll_lock);
	return n;
}
EXPORT_SYMBOL_GPL(rdmachan_poll);

/**
 * rdmachan_poll_arm() - have the next completion of a DIRECT channel wake
 *	its waiters
 * @ch: a RDMACHAN_POLL_DIRECT channel
 *
 * For poll(), select() and epoll on the channel's file: nobody busy-polls
 * while they sleep, so the completion queue is armed, and its completion
 * handler (rdmachan_direct_comp()) wakes ch->wq; the waiter's next look
 * polls the queue.
 *
 * Context: process context.
 * Return: true when completions may have arrived between the caller's
 * last poll and the arming (look again), false otherwise.
 */
bool rdmachan_poll_arm(struct rdmachan *ch)
{
	int ret = 0;

	/* the bit keeps the CQ alive; teardown keeps it for good */
	while (test_and_set_bit_lock(RDMACHAN_POLLING, &ch->poll_lock)) {
		if (READ_ONCE(ch->io_stopped))
			return false;
		cond_resched();
	}
	if (ch->cq && !READ_ONCE(ch->io_stopped))
		ret = ib_req_notify_cq(ch->cq, IB_CQ_NEXT_COMP |
				       IB_CQ_REPORT_MISSED_EVENTS);
	clear_bit_unlock(RDMACHAN_POLLING, &ch->poll_lock);
	return ret > 0;
}

/**
 * rdmachan_direct_comp() - completion handler of a DIRECT channel's CQ
 * @cq: the CQ, armed by rdmachan_poll_arm()
 * @ctx: the channel
 *
 * Context: the provider's (softirq or hard interrupt).
 */
void rdmachan_direct_comp(struct ib_cq *cq, void *ctx)
{
	struct rdmachan *ch = ctx;

	wake_up_all(&ch->wq);
}

/**
 * rdmachan_poll_relax() - a busy-poll round found nothing: let others run
 *
 * What a busy poller waits for may be queued on its own CPU: soft-RoCE
 * does the protocol work of a post and of every arriving packet in
 * softirq context, and hands it to ksoftirqd once softirqs ran long.
 * Spinning over that work only delays it.  This runs softirqs pending
 * on this CPU now, and gives the CPU up when another task (ksoftirqd)
 * should have it.  Call it between rdmachan_poll() calls that found
 * nothing, as every busy-polling wait of rdmachan does.
 *
 * Context: process context, may sleep.
 */
void rdmachan_poll_relax(void)
{
	/* local_bh_enable() runs what is pending, unless ksoftirqd has it */
	local_bh_disable();
	local_bh_enable();
	cond_resched();
}
EXPORT_SYMBOL_GPL(rdmachan_poll_relax);

/*
 * Wait until @cond(ch) holds: sleep, or busy-poll a DIRECT channel.
 * Return: 0, or -ERESTARTSYS on a signal.
 */
static int rdmachan_wait(struct rdmachan *ch, bool (*cond)(struct rdmachan *))
{
	if (ch->opts.poll_mode == RDMACHAN_POLL_SOLICITED &&
	    cond != rdmachan_readable) {
		/* credits come in on the receive queue, which raises no event */
		while (!cond(ch)) {
			if (signal_pending(current))
				return -ERESTARTSYS;
			rdmachan_poll(ch, -1);
			wait_event_interruptible_timeout(ch->wq, cond(ch), 1);
		}
		return 0;
	}
	if (ch->opts.poll_mode != RDMACHAN_POLL_DIRECT)
		return wait_event_interruptible(ch->wq, cond(ch));
	while (!cond(ch)) {
		if (signal_pending(current))
			return -ERESTARTSYS;
		if (!rdmachan_poll(ch, 16))
			rdmachan_poll_relax();
	}
	return 0;
}

/*
 * Reserve up to @want credits and ring slots.  Waits for at least one
 * unless @nonblock.  Return: slots reserved (first is *first), or errno.
 */
static int rdmachan_reserve(struct rdmachan *ch, u32 want, bool nonblock,
			    u32 *first)
{
	unsigned long flags;
	bool stalled = false, polled = false;
	u32 n;
	int ret;

	for (;;) {
		spin_lock_irqsave(&ch->lock, flags);
		ret = rdmachan_send_state_err(ch);
		if (ret) {
			spin_unlock_irqrestore(&ch->lock, flags);
			return ret;
		}
		if (rdmachan_can_reserve(ch))
			break;
		spin_unlock_irqrestore(&ch->lock, flags);
		if (nonblock) {
			/* SOLICITED: credits may wait in the receive queue */
			if (!polled &&
			    ch->opts.poll_mode == RDMACHAN_POLL_SOLICITED &&
			    rdmachan_poll(ch, -1)) {
				polled = true;
				continue;
			}
			return -EAGAIN;
		}
		if (!stalled) {
			atomic64_inc(&ch->stats.credit_stalls);
			stalled = true;
		}
		ret = rdmachan_wait(ch, rdmachan_send_wait_done);
		if (ret)
			return ret;
	}
	n = rdmachan_credits_spend(&ch->credits, want,
				   ch->tx_depth -
				   (ch->tx_reserved - ch->tx_completed));
	*first = ch->tx_reserved;
	ch->tx_reserved += n;
	spin_unlock_irqrestore(&ch->lock, flags);
	return n;
}

/*
 * Mark reserved slots [first, first + n) ready and post what can go.  A
 * slot whose fill failed (a fault copying from user memory) is given back
 * when it is the newest reservation.  Otherwise a later sender's slot
 * follows it in the ring, so it goes out in its place as a PAD message:
 * that takes the slot's credit and a receive buffer like a DATA message,
 * and the peer reposts the buffer and returns the credit without
 * delivering anything.  (Refunding the credit instead would let the peer
 * see more messages than it has buffers for, which iWARP, having no RNR
 * retry, answers by terminating the connection.)
 */
static int rdmachan_commit(struct rdmachan *ch, u32 first, u32 n, u32 good)
{
	bool bh = rdmachan_bh_off();
	unsigned long flags;
	u32 i;
	int ret;

	spin_lock_irqsave(&ch->lock, flags);
	if (good < n && ch->tx_reserved == first + n) {
		rdmachan_credits_refund(&ch->credits, n - good);
		ch->tx_reserved = first + good;
		n = good;
	}
	for (i = 0; i < n; i++) {
		struct rdmachan_tx *tx = &ch->tx[(first + i) % ch->tx_depth];

		tx->ready = true;
		if (i >= good) {
			tx->len = 0;
			tx->has_imm = false;
			tx->solicited = false;
			tx->pad = true;
		}
	}
	ret = ch->io_stopped ? -ECONNRESET : rdmachan_commit_locked(ch);
	spin_unlock_irqrestore(&ch->lock, flags);
	rdmachan_bh_on(bh);
	if (ret && ret != -ECONNRESET) {
		/* the QP refused the post: it is broken or already closing */
		rdmachan_fail_io(ch, -ECONNRESET);
		ret = -ECONNRESET;
	}
	return ret;
}

/**
 * rdmachan_send() - send one message from kernel memory
 * @ch: a connected channel
 * @vec: the message, gathered from these pieces
 * @nr_vec: number of pieces
 * @imm: immediate value, with RDMACHAN_SEND_IMM
 * @flags: RDMACHAN_SEND_IMM, RDMACHAN_SEND_NONBLOCK
 *
 * The message is copied into a registered buffer and posted; on return
 * the caller may reuse its memory.  Waits for a credit unless
 * RDMACHAN_SEND_NONBLOCK.
 *
 * Context: process context; any context with RDMACHAN_SEND_NONBLOCK.
 * Return: 0; -EMSGSIZE when larger than rdmachan_max_msg_size();
 * -EAGAIN (non-blocking, no credit); -ENOTCONN, -ECONNRESET, -ENODEV or
 * the channel's error when it is not connected; -ERESTARTSYS on a signal.
 */
int rdmachan_send(struct rdmachan *ch, const struct kvec *vec,
		  unsigned int nr_vec, u32 imm, unsigned int flags)
{
	struct iov_iter from;
	size_t len = 0;
	unsigned int i;

	for (i = 0; i < nr_vec; i++)
		len += vec[i].iov_len;
	iov_iter_kvec(&from, WRITE, vec, nr_vec, len);
	return rdmachan_send_iter(ch, &from, imm, flags);
}
EXPORT_SYMBOL_GPL(rdmachan_send);

/**
 * rdmachan_send_iter() - send one message from an iov_iter
 * @ch: a connected channel
 * @from: the message (user or kernel memory)
 * @imm: immediate value, with RDMACHAN_SEND_IMM
 * @flags: RDMACHAN_SEND_IMM, RDMACHAN_SEND_NONBLOCK
 *
 * Return: as rdmachan_send(); -EFAULT when user memory faults.
 */
int rdmachan_send_iter(struct rdmachan *ch, struct iov_iter *from, u32 imm,
		       unsigned int flags)
{
	size_t len = iov_iter_count(from);
	struct rdmachan_tx *tx;
	u32 first;
	int ret;

	if (len > ch->params.max_msg_size)
		return -EMSGSIZE;
	ret = rdmachan_reserve(ch, 1, flags & RDMACHAN_SEND_NONBLOCK, &first);
	if (ret < 0)
		return ret;

	tx = &ch->tx[first % ch->tx_depth];
	tx->len = len;
	tx->imm = imm;
	tx->has_imm = flags & RDMACHAN_SEND_IMM;
	tx->solicited = flags & RDMACHAN_SEND_SOLICITED;
	if (copy_from_iter(tx->buf + RDMACHAN_HDR_LEN, len, from) != len) {
		rdmachan_commit(ch, first, 1, 0);
		return -EFAULT;
	}
	ret = rdmachan_commit(ch, first, 1, 1);
	if (ret)
		return ret;
	atomic64_inc(&ch->stats.msgs_tx);
	atomic64_add(len, &ch->stats.bytes_tx);
	return 0;
}

/**
 * rdmachan_send_batch() - send several messages as one chained post
 * @ch: a connected channel
 * @fill: fills slot @i (sets len/imm/has_imm, copies the payload);
 *	returns 0 or a negative errno
 * @arg: passed to @fill
 * @count: messages wanted
 * @nonblock: do not wait for the first credit
 *
 * Return: messages sent (maybe fewer than @count when credits run out),
 * or a negative errno when none could be.
 */
int rdmachan_send_batch(struct rdmachan *ch,
			int (*fill)(struct rdmachan *ch, struct rdmachan_tx *tx,
				    u32 i, void *arg),
			void *arg, u32 count, bool nonblock)
{
	u32 first, i, good;
	int n, ret = 0;

	n = rdmachan_reserve(ch, count, nonblock, &first);
	if (n <= 0)
		return n;
	for (good = 0; good < n; good++) {
		ret = fill(ch, &ch->tx[(first + good) % ch->tx_depth], good,
			   arg);
		if (ret)
			break;
	}
	rdmachan_commit(ch, first, n, good);
	for (i = 0; i < good; i++) {
		atomic64_inc(&ch->stats.msgs_tx);
		atomic64_add(ch->tx[(first + i) % ch->tx_depth].len,
			     &ch->stats.bytes_tx);
	}
	return good ? good : ret;
}

struct rdmachan_kvec_batch {
	const struct kvec *msgs;
	u32 count;
	u32 imm;
	bool has_imm;
	bool solicited;
};

static int rdmachan_fill_kvec(struct rdmachan *ch, struct rdmachan_tx *tx,
			      u32 i, void *arg)
{
	const struct rdmachan_kvec_batch *b = arg;

	tx->len = b->msgs[i].iov_len;
	tx->imm = b->imm;
	tx->has_imm = b->has_imm;
	/* the last message of the batch raises the solicited event */
	tx->solicited = b->solicited && i + 1 == b->count;
	memcpy(tx->buf + RDMACHAN_HDR_LEN, b->msgs[i].iov_base, tx->len);
	return 0;
}

/**
 * rdmachan_send_msgs() - send several messages as one chained post
 * @ch: a connected channel
 * @msgs: the messages, one contiguous kernel buffer each
 * @count: number of messages
 * @imm: immediate value of every message, with RDMACHAN_SEND_IMM
 * @flags: RDMACHAN_SEND_IMM, RDMACHAN_SEND_NONBLOCK
 *
 * Posts as many of the messages as there are credits for, in order, as
 * one chained work request list.  Waits for the first credit only, unless
 * RDMACHAN_SEND_NONBLOCK.
 *
 * Context: process context; any context with RDMACHAN_SEND_NONBLOCK.
 * Return: messages sent (1 to @count), or a negative errno as
 * rdmachan_send() when none could be.
 */
int rdmachan_send_msgs(struct rdmachan *ch, const struct kvec *msgs,
		       unsigned int count, u32 imm, unsigned int flags)
{
	struct rdmachan_kvec_batch b = {
		.msgs = msgs, .count = count, .imm = imm,
		.has_imm = flags & RDMACHAN_SEND_IMM,
		.solicited = flags & RDMACHAN_SEND_SOLICITED,
	};
	unsigned int i;

	if (!count)
		return -EINVAL;
	for (i = 0; i < count; i++)
		if (msgs[i].iov_len > ch->params.max_msg_size)
			return -EMSGSIZE;
	return rdmachan_send_batch(ch, rdmachan_fill_kvec, &b, count,
				   flags & RDMACHAN_SEND_NONBLOCK);
}
EXPORT_SYMBOL_GPL(rdmachan_send_msgs);

/**
 * rdmachan_send_sg() - send one message gathered from a scatterlist
 * @ch: a connected channel
 * @sgl: the message's pages (kernel memory; need not be DMA-mapped)
 * @nents: entries of @sgl
 * @imm: immediate value, with RDMACHAN_SEND_IMM
 * @flags: RDMACHAN_SEND_IMM, RDMACHAN_SEND_NONBLOCK
 *
 * Context and return: as rdmachan_send().
 */
int rdmachan_send_sg(struct rdmachan *ch, struct scatterlist *sgl,
		     unsigned int nents, u32 imm, unsigned int flags)
{
	struct rdmachan_tx *tx;
	size_t len = 0;
	struct scatterlist *sg;
	unsigned int i;
	u32 first;
	int ret;

	for_each_sg(sgl, sg, nents, i)
		len += sg->length;
	if (len > ch->params.max_msg_size)
		return -EMSGSIZE;
	ret = rdmachan_reserve(ch, 1, flags & RDMACHAN_SEND_NONBLOCK, &first);
	if (ret < 0)
		return ret;
	tx = &ch->tx[first % ch->tx_depth];
	tx->len = sg_copy_to_buffer(sgl, nents, tx->buf + RDMACHAN_HDR_LEN,
				    len);
	tx->imm = imm;
	tx->has_imm = flags & RDMACHAN_SEND_IMM;
	tx->solicited = flags & RDMACHAN_SEND_SOLICITED;
	ret = rdmachan_commit(ch, first, 1, 1);
	if (ret)
		return ret;
	atomic64_inc(&ch->stats.msgs_tx);
	atomic64_add(len, &ch->stats.bytes_tx);
	return 0;
}
EXPORT_SYMBOL_GPL(rdmachan_send_sg);

/**
 * rdmachan_readable() - is a message waiting, or will none ever come?
 * @ch: the channel
 *
 * A hint, read without the channel lock: it is what a busy poller checks
 * between two polls, and under TCG every interrupts-off lock round trip
 * is dear.  Callers take the message, or the end, under the lock
 * (rdmachan_wait_readable()), and every change wakes ch->wq.
 */
bool rdmachan_readable(struct rdmachan *ch)
{
	return !list_empty(&ch->rx_ready) ||
	       rdmachan_state_read_end(READ_ONCE(ch->state),
				       READ_ONCE(ch->torn_down),
				       READ_ONCE(ch->err)) != -EAGAIN;
}

/**
 * rdmachan_rx_take() - dequeue the oldest queued message, without waiting
 * @ch: the channel
 *
 * The message is the caller's alone from here: it gives it back with
 * rdmachan_msg_release(), or, when it could not deliver it (a user buffer
 * too small or faulting), puts it back at the head with
 * rdmachan_rx_untake().  Taking happens under the channel lock, so two
 * consumers can never get the same message, whatever their context.
 *
 * Context: any.
 * Return: the message's buffer, or NULL when none is queued.
 */
struct rdmachan_rx *rdmachan_rx_take(struct rdmachan *ch)
{
	struct rdmachan_rx *rx;
	unsigned long flags;

	spin_lock_irqsave(&ch->lock, flags);
	rx = list_first_entry_or_null(&ch->rx_ready, struct rdmachan_rx, node);
	if (rx) {
		list_del_init(&rx->node);
		ch->rx_ready_count--;
	}
	spin_unlock_irqrestore(&ch->lock, flags);
	return rx;
}

/**
 * rdmachan_rx_untake() - put a taken message back at the head of the queue
 * @ch: the channel
 * @rx: from rdmachan_rx_take() or rdmachan_rx_wait_take(), not released
 *
 * The next consumer gets it first.  Order among several consumers holds
 * only when they serialise (the channel file's readers hold read_mutex).
 *
 * Context: any.
 */
void rdmachan_rx_untake(struct rdmachan *ch, struct rdmachan_rx *rx)
{
	unsigned long flags;

	spin_lock_irqsave(&ch->lock, flags);
	list_add(&rx->node, &ch->rx_ready);
	ch->rx_ready_count++;
	spin_unlock_irqrestore(&ch->lock, flags);
	/* a poller may have looked while it was taken */
	wake_up_all(&ch->wq);
}

/*
 * Wait for a message or the end, and dequeue it in the same lock round
 * trip that finds it.  Return: as rdmachan_rx_wait_take().
 */
static int rdmachan_wait_take(struct rdmachan *ch, bool nonblock,
			      bool may_sleep, struct rdmachan_rx **take)
{
	struct rdmachan_rx *rx;
	unsigned long flags;
	int ret;

	for (;;) {
		rdmachan_rx_take_arrived(ch, may_sleep);
		spin_lock_irqsave(&ch->lock, flags);
		rx = list_first_entry_or_null(&ch->rx_ready, struct rdmachan_rx,
					      node);
		if (rx) {
			list_del_init(&rx->node);
			ch->rx_ready_count--;
			*take = rx;
		}
		ret = rx ? 1 : rdmachan_state_read_end(ch->state,
						       ch->torn_down, ch->err);
		spin_unlock_irqrestore(&ch->lock, flags);
		if (ret != -EAGAIN || nonblock)
			return ret;
		ret = rdmachan_wait(ch, rdmachan_readable);
		if (ret)
			return ret;
	}
}

/**
 * rdmachan_rx_wait_take() - wait for a message or the end, and take it
 * @ch: the channel
 * @nonblock: return -EAGAIN instead of waiting
 * @rxp: the message, dequeued as by rdmachan_rx_take(), when 1 is returned
 *
 * Context: process context (it may sleep unless @nonblock).
 * Return: 1 and a message; 0 at the end of an orderly shutdown; the
 * channel's error when it failed; -EAGAIN; -ERESTARTSYS.
 */
int rdmachan_rx_wait_take(struct rdmachan *ch, bool nonblock,
			  struct rdmachan_rx **rxp)
{
	return rdmachan_wait_take(ch, nonblock, true, rxp);
}

/**
 * rdmachan_recv() - take the next message of a channel without recv callback
 * @ch: the channel
 * @msgp: the message, to be given back with rdmachan_msg_release()
 * @flags: RDMACHAN_RECV_NONBLOCK
 *
 * Context: process context (any with RDMACHAN_RECV_NONBLOCK).
 * Return: 0 and a message; -EPIPE after an orderly shutdown when every
 * message has been taken; the channel's error (-ECONNRESET, -ENODEV, ...)
 * when it failed; -EAGAIN; -ERESTARTSYS.
 */
int rdmachan_recv(struct rdmachan *ch, struct rdmachan_msg **msgp,
		  unsigned int flags)
{
	bool nonblock = flags & RDMACHAN_RECV_NONBLOCK;
	struct rdmachan_rx *rx;
	int ret;

	ret = rdmachan_wait_take(ch, nonblock, !nonblock, &rx);
	if (ret <= 0)
		return ret ?: -EPIPE;
	*msgp = &rx->msg;
	return 0;
}
EXPORT_SYMBOL_GPL(rdmachan_recv);

/*
 * One round of a bounded wait for @cond: busy-poll a DIRECT channel
 * (yielding when idle, so that a provider's deferred work can run), or
 * sleep up to 100 ms.  Killable: a close may wait up to the channel's
 * timeout (600 s at most), which a killed process cuts short, and which
 * the hung-task detector then leaves alone.  Return: -EINTR when killed.
 */
static int rdmachan_wait_round(struct rdmachan *ch,
			       bool (*cond)(struct rdmachan *))
{
	if (fatal_signal_pending(current))
		return -EINTR;
	if (ch->opts.poll_mode == RDMACHAN_POLL_DIRECT) {
		if (!rdmachan_poll(ch, -1))
			rdmachan_poll_relax();
	} else if (ch->opts.poll_mode == RDMACHAN_POLL_SOLICITED) {
		/* the peer's answer lands on a queue that raises no event */
		rdmachan_poll(ch, -1);
		wait_event_killable_timeout(ch->wq, cond(ch), 1);
	} else {
		wait_event_killable_timeout(ch->wq, cond(ch), HZ / 10);
	}
	return 0;
}

static bool rdmachan_sends_flushed(struct rdmachan *ch)
{
	unsigned long flags;
	bool ret;

	spin_lock_irqsave(&ch->lock, flags);
	ret = (ch->tx_completed == ch->tx_posted && !ch->ctrl_busy) ||
	      ch->state != RDMACHAN_CONNECTED || ch->io_stopped;
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
		if (ch->tx_completed != ch->tx_posted)
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
	    READ_ONCE(ch->io_stopped))
		return true;
	if (test_bit(RDMACHAN_CTRL_CLOSE, &ch->ctrl_busy))
		return false;
	return !ch->close_handshake || READ_ONCE(ch->peer_said_close);
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
					   struct rdmachan, keepalive_work);
	unsigned int period = rdmachan_param_keepalive_ms();
	unsigned long flags;
	bool bh = rdmachan_bh_off();
	bool stuck;

	spin_lock_irqsave(&ch->lock, flags);
	if (ch->state != RDMACHAN_CONNECTED || ch->io_stopped) {
		spin_unlock_irqrestore(&ch->lock, flags);
		rdmachan_bh_on(bh);
		return;
	}
	if (!ch->rx_seen && period)
		rdmachan_post_ctrl_locked(ch, RDMACHAN_CTRL_KEEPALIVE);
	ch->rx_seen = false;
	stuck = test_bit(RDMACHAN_CTRL_KEEPALIVE, &ch->ctrl_busy) &&
		time_after(jiffies, ch->keepalive_posted +
			   RDMACHAN_KEEPALIVE_STUCK);
	spin_unlock_irqrestore(&ch->lock, flags);
	rdmachan_bh_on(bh);
	rdmachan_rdma_check_stuck(ch);
	if (stuck) {
		/*
		 * RC ends every send within its retry time, with a completion
		 * or an error: a probe that neither completed nor failed means
		 * the transport is stuck, and so would be everything waiting
		 * on it.  Fail the channel: its teardown ends what is left.
		 */
		pr_err_ratelimited("channel %u (%pISpc): a keepalive probe is unanswered after %u s: the transport is stuck\n",
				   ch->id, &ch->dst, RDMACHAN_KEEPALIVE_STUCK / HZ);
		atomic64_inc(&ch->stats.errors);
		rdmachan_fail_io(ch, -ETIMEDOUT);
		return;
	}
	/* DIRECT: the fallback poll; SOLICITED: credits and keepalives */
	rdmachan_poll(ch, -1);
	queue_delayed_work(rdmachan_wq, &ch->keepalive_work,
			   msecs_to_jiffies(period ?: 1000));
}

/**
 * rdmachan_start_io() - a channel became CONNECTED: set credits, start
 *	the keepalive
 * @ch: the channel, with negotiated ch->params
 */
void rdmachan_start_io(struct rdmachan *ch)
{
	unsigned long flags;

	spin_lock_irqsave(&ch->lock, flags);
	rdmachan_credits_init(&ch->credits, ch->params.queue_depth);
	rdmachan_event_locked(ch, RDMACHAN_EV_ESTABLISHED, 0);
	spin_unlock_irqrestore(&ch->lock, flags);
	queue_delayed_work(rdmachan_wq, &ch->keepalive_work,
			   msecs_to_jiffies(rdmachan_param_keepalive_ms() ?: 1000));
	wake_up_all(&ch->wq);
}
