// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan: the receive side of a channel - receive completions, the
 * reader's queue, reposting, rdmachan_recv()
 *
 * A receive completion is checked (header, credits) and queued for the
 * reader in order; a DATA message is pushed to the user's recv callback
 * or waits for rdmachan_recv().  Releasing a message reposts its buffer
 * and owes the peer its credit back (chan_ctrl.c).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/dma-mapping.h>
#include <linux/gfp.h>
#include <linux/mm.h>

#include "compat.h"
#include "rdmachan-pri.h"
#include "chan_trace.h"
#include "chan_frag.h"
#include "chan_grant.h"
#include "chan_rxbuf.h"

/* The reader is done with a message: its latency, from its arrival */
static void rdmachan_rx_consumed(struct rdmachan *ch, struct rdmachan_rx *rx)
{
	if (rx->t_ns) {
		rdmachan_hist_add(ch->recv.hist, ktime_get_ns() - rx->t_ns);
		rx->t_ns = 0;
	}
}

/**
 * rdmachan_msg_release() - give a received message's buffer back
 * @ch: the channel
 * @msg: a message from &rdmachan_ops.recv or rdmachan_recv()
 *
 * The buffer is reposted and its credit returned to the sender: each
 * buffer and credit of a message that spans several (chan_frag.c).
 *
 * Context: any.
 */
void rdmachan_msg_release(struct rdmachan *ch, struct rdmachan_msg *msg)
{
	struct rdmachan_rx *rx = container_of(msg, struct rdmachan_rx, msg);
	bool bh = rdmachan_bh_off();
	struct rdmachan_rx *next;
	unsigned long flags;
	bool report = false;

	rdmachan_rx_consumed(ch, rx);
	spin_lock_irqsave(&ch->lock, flags);
	for (; rx; rx = next) {
		next = rx->next;
		rx->next = NULL;
		if (test_bit(RDMACHAN_F_IO_STOPPED, &ch->flags))
			continue;
		rdmachan_post_recv_locked(ch, rx);
		report |= rdmachan_credits_owe_one(&ch->credits);
	}
	if (report)
		rdmachan_post_ctrl_locked(ch, RDMACHAN_CTRL_CREDIT);
	spin_unlock_irqrestore(&ch->lock, flags);
	rdmachan_bh_on(bh);
}
EXPORT_SYMBOL_GPL(rdmachan_msg_release);

/*
 * Receive buffers in pages (&rdmachan_opts.rx_pages).  Each buffer is a
 * compound page of its own, so that rdmachan_msg_detach() can give it
 * away whole, as a NIC driver gives its receive pages to the stack.  The
 * pages come from a page pool of the channel where the kernel has one
 * (Debian's does): pages the user gives back, freeing its skbs, go back
 * to the pool and are reused, where a fresh allocation would be zeroed
 * again (init_on_alloc) at the cost of the copy it replaces.  The pool
 * maps nothing: the buffers are mapped with ib_dma_* like the others.
 */

/**
 * rdmachan_rx_pages_init() - the page order and pool of the receive buffers
 * @ch: a channel with &rdmachan_opts.rx_pages, res.buf_size known, no
 *	buffer allocated yet
 *
 * Context: process context.
 * Return: 0 (no pool where the kernel has none: the allocator serves),
 * or the pool's error.
 */
int rdmachan_rx_pages_init(struct rdmachan *ch)
{
	struct page_pool_params pp = {
		.order		= get_order(ch->res.buf_size),
		/* what comes back while the ring is full: every buffer */
		.pool_size	= ch->recv.nr_bufs,
		.nid		= NUMA_NO_NODE,
	};
	struct page_pool *pool;

	ch->recv.order = pp.order;
	if (!IS_ENABLED(CONFIG_PAGE_POOL))
		return 0;
	pool = page_pool_create(&pp);
	if (IS_ERR(pool))
		return PTR_ERR(pool);
	ch->recv.pool = pool;
	return 0;
}

/**
 * rdmachan_rx_page_alloc() - a page for a receive buffer
 * @ch: a channel with &rdmachan_opts.rx_pages
 * @gfp: GFP_KERNEL before I/O; GFP_NOWAIT under ch->lock after
 *
 * One allocation at a time: the pool's cache has a single consumer.
 *
 * Return: a compound page of order ch->recv.order, or NULL.
 */
struct page *rdmachan_rx_page_alloc(struct rdmachan *ch, gfp_t gfp)
{
	if (IS_ENABLED(CONFIG_PAGE_POOL) && ch->recv.pool)
		return page_pool_alloc_pages(ch->recv.pool, gfp);
	return alloc_pages(gfp | __GFP_COMP, ch->recv.order);
}

/**
 * rdmachan_rx_pages_destroy() - the channel's page pool goes
 * @ch: the channel, its own buffers given back (rdmachan_release())
 *
 * Pages still in the user's hands keep the pool's memory until they come
 * back (the page pool frees itself then).
 *
 * Context: process context.
 */
void rdmachan_rx_pages_destroy(struct rdmachan *ch)
{
	if (IS_ENABLED(CONFIG_PAGE_POOL) && ch->recv.pool)
		page_pool_destroy(ch->recv.pool);
	ch->recv.pool = NULL;
}

/**
 * rdmachan_rx_page_put() - give back a page rdmachan_msg_detach() returned
 * @page: the page (any page of it)
 *
 * A page of a channel's pool goes back to it, another to the allocator.
 * An skb that holds such pages as fragments gives them back itself when
 * it is marked with skb_mark_for_recycle() before it is freed; this is
 * for the pages that never made it into one.
 *
 * Context: process or softirq context with interrupts on.
 */
void rdmachan_rx_page_put(struct page *page)
{
	if (IS_ENABLED(CONFIG_PAGE_POOL) && rc_page_pool_put_page(page))
		return;
	put_page(page);
}
EXPORT_SYMBOL_GPL(rdmachan_rx_page_put);

/**
 * rdmachan_rx_truesize() - the memory one receive buffer takes
 * @ch: the channel
 *
 * What an skb built on a buffer that rdmachan_msg_detach() hands over is
 * charged (its truesize): a user decides from it which messages are
 * worth taking over rather than copying.
 *
 * Context: any.
 * Return: bytes; 0 for a channel without &rdmachan_opts.rx_pages.
 */
unsigned int rdmachan_rx_truesize(struct rdmachan *ch)
{
	return ch->opts.rx_pages ? PAGE_SIZE << ch->recv.order : 0;
}
EXPORT_SYMBOL_GPL(rdmachan_rx_truesize);

/**
 * rdmachan_msg_detach() - take a received message's buffer instead of
 *	copying it out
 * @ch: a channel opened with &rdmachan_opts.rx_pages
 * @msg: a message from &rdmachan_ops.recv or rdmachan_recv()
 * @offset: where @msg->data starts in the page
 * @truesize: the bytes of memory the page takes (for an skb's truesize)
 *
 * For a receiver that passes the bytes on without copying them, as a
 * network driver builds an skb on them: the channel gives up the buffer,
 * puts a new one in its place, reposts it and owes the peer its credit
 * back, as rdmachan_msg_release() would.  The caller owns the page from
 * here, @msg->len bytes of the message at @offset, and gives it back with
 * rdmachan_rx_page_put(), or in an skb marked with skb_mark_for_recycle().
 *
 * When the buffer cannot be detached (a channel without
 * &rdmachan_opts.rx_pages, an RDMA WRITE_WITH_IMM's message, no page for
 * the new buffer at once, the channel stopping), nothing changes: the
 * caller still owns @msg, copies what it needs and releases it.
 *
 * Context: process or softirq context with interrupts on (a page given
 * back to a page pool takes a lock with bottom halves off).
 * Return: the compound page that holds the message, or NULL.
 */
struct page *rdmachan_msg_detach(struct rdmachan *ch, struct rdmachan_msg *msg,
				 unsigned int *offset, unsigned int *truesize)
{
	struct rdmachan_rx *rx = container_of(msg, struct rdmachan_rx, msg);
	struct page *old = rx->page, *page = NULL;
	bool bh = rdmachan_bh_off();
	struct ib_device *ibdev;
	unsigned long flags;
	u64 dma;

	if (!old || msg->rdma_imm)
		goto out;
	spin_lock_irqsave(&ch->lock, flags);
	/* once I/O stopped the teardown may unmap the buffers at any time */
	if (test_bit(RDMACHAN_F_IO_STOPPED, &ch->flags))
		goto unlock;
	/* no reserves: the caller copies when there is no page at once */
	page = rdmachan_rx_page_alloc(ch, GFP_NOWAIT | __GFP_NOWARN |
				      __GFP_NORETRY);
	if (!page)
		goto unlock;
	ibdev = rdmachan_ibdev(ch);
	dma = ib_dma_map_single(ibdev, page_address(page), ch->res.buf_size,
				DMA_FROM_DEVICE);
	if (ib_dma_mapping_error(ibdev, dma))
		goto unlock;
	/* rdmachan_rx_done() synced it for the CPU already */
	if (!ib_uses_virt_dma(ibdev))
		dma_unmap_single_attrs(ibdev->dma_device, rx->dma,
				       ch->res.buf_size, DMA_FROM_DEVICE,
				       DMA_ATTR_SKIP_CPU_SYNC);
	*offset = (const u8 *)msg->data - (const u8 *)rx->buf;
	*truesize = PAGE_SIZE << ch->recv.order;
	rdmachan_rx_consumed(ch, rx);
	rx->page = page;
	rx->buf = page_address(page);
	rx->dma = dma;
	page = NULL;
	rdmachan_post_recv_locked(ch, rx);
	if (rdmachan_credits_owe_one(&ch->credits))
		rdmachan_post_ctrl_locked(ch, RDMACHAN_CTRL_CREDIT);
	spin_unlock_irqrestore(&ch->lock, flags);
	rdmachan_bh_on(bh);
	return old;

unlock:
	spin_unlock_irqrestore(&ch->lock, flags);
	if (page)
		rdmachan_rx_page_put(page);
out:
	rdmachan_bh_on(bh);
	return NULL;
}
EXPORT_SYMBOL_GPL(rdmachan_msg_detach);

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
	if (!ch->ops || !ch->ops->recv || ch->listen.listener ||
	    test_and_set_bit(RDMACHAN_F_DELIVERING, &ch->flags)) {
		spin_unlock_irqrestore(&ch->lock, flags);
		return;
	}
	while ((rx = list_first_entry_or_null(&ch->recv.ready,
					      struct rdmachan_rx, node))) {
		list_del_init(&rx->node);
		ch->recv.nr_ready--;
		spin_unlock_irqrestore(&ch->lock, flags);
		ch->ops->recv(ch, &rx->msg);
		spin_lock_irqsave(&ch->lock, flags);
	}
	clear_bit(RDMACHAN_F_DELIVERING, &ch->flags);
	spin_unlock_irqrestore(&ch->lock, flags);
}

static void rdmachan_protocol_error(struct rdmachan *ch, const char *why)
{
	rdmachan_err_rl(ch, "protocol error from peer: %s\n", why);
	atomic64_inc(&ch->stats[RDMACHAN_STAT_errors]);
	rdmachan_fail_io(ch, -EPROTO);
}

/*
 * Queue a received message for the reader.  Caller holds ch->lock and
 * calls rdmachan_rx_queued() once it has dropped it.
 */
static void rdmachan_rx_queue_locked(struct rdmachan *ch,
				     struct rdmachan_rx *rx)
{
	set_bit(RDMACHAN_F_RX_SEEN, &ch->flags);
	if (ch->recv.hist)
		rx->t_ns = ktime_get_ns();
	if (ch->poll.rcq) {
		/* SOLICITED: parked until a solicited event or a read */
		list_add_tail(&rx->node, &ch->recv.pending);
		ch->recv.nr_pending++;
	} else {
		list_add_tail(&rx->node, &ch->recv.ready);
		ch->recv.nr_ready++;
	}
}

/* A message of @len bytes was queued: count it, push it to the user. */
static void rdmachan_rx_queued(struct rdmachan *ch, u32 len)
{
	atomic64_inc(&ch->stats[RDMACHAN_STAT_msgs_rx]);
	atomic64_add(len, &ch->stats[RDMACHAN_STAT_bytes_rx]);
	if (ch->poll.rcq)
		return;
	if (ch->ops && ch->ops->recv)
		rdmachan_deliver(ch);
	wake_up_all(&ch->wq);
}

/*
 * The peer's RDMA WRITE_WITH_IMM took a receive buffer (and a credit,
 * returned when it is released) but carries no header: it reaches the
 * reader as an empty message flagged rdma_imm.  Under
 * RDMACHAN_WIRE_F_IMM_CREDIT the immediate's top bit returned a credit.
 */
static void rdmachan_rx_rdma_imm(struct rdmachan *ch, struct rdmachan_rx *rx,
				 u32 imm)
{
	bool credit = (ch->conn.params.features & RDMACHAN_WIRE_F_IMM_CREDIT) &&
		      (imm & RDMACHAN_IMM_CREDIT);
	bool writable = false;
	unsigned long flags;
	bool report;

	rx->msg.data = rx->buf;
	rx->msg.len = 0;
	rx->msg.frag_len = 0;
	rx->next = NULL;
	rx->msg.imm = imm & ~(credit ? RDMACHAN_IMM_CREDIT : 0);
	rx->msg.has_imm = true;
	rx->msg.rdma_imm = true;
	rx->msg.invalidated = false;
	rx->msg.inv_rkey = 0;
	spin_lock_irqsave(&ch->lock, flags);
	/* never between a message's fragments (chan_frag.c) */
	if (ch->recv.asm_first) {
		spin_unlock_irqrestore(&ch->lock, flags);
		rdmachan_protocol_error(ch, "WRITE_WITH_IMM between fragments");
		return;
	}
	if (credit) {
		if (rdmachan_credits_grant(&ch->credits, 1)) {
			spin_unlock_irqrestore(&ch->lock, flags);
			rdmachan_protocol_error(ch, "more credits than granted");
			return;
		}
		writable = rdmachan_writable_due_locked(ch);
	}
	report = rdmachan_credits_took_one(&ch->credits);
	rdmachan_ask_data(&ch->recv.ask);
	/* before the report: what the peer has out with us, owed included */
	rdmachan_grow_check_locked(ch);
	if (report)
		rdmachan_post_ctrl_locked(ch, RDMACHAN_CTRL_CREDIT);
	rdmachan_rx_queue_locked(ch, rx);
	spin_unlock_irqrestore(&ch->lock, flags);
	/* before the message, as for a header's credits (rdmachan_rx_done()) */
	if (writable)
		rdmachan_call_writable(ch);
	rdmachan_rx_queued(ch, 0);
}

/* Receive completion: validate, take credits, queue or repost. */
void rdmachan_rx_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct rdmachan_rx *rx = container_of(wc->wr_cqe, struct rdmachan_rx,
					      cqe);
	struct rdmachan *ch = rx->ch;
	struct rdmachan_wire_hdr hdr, *h = &hdr;
	const char *why;
	unsigned long flags;
	u32 credits, len, start;
	bool wake, inv, writable = false;
	int ret;

	if (!rdmachan_wc_ok(ch, wc, "receive"))
		return;
	if (wc->opcode == IB_WC_RECV_RDMA_WITH_IMM) {
		rdmachan_rx_rdma_imm(ch, rx, be32_to_cpu(wc->ex.imm_data));
		return;
	}
	rdmachan_rx_sync_for_cpu(ch, rx);
	/* a SEND_WITH_INV: negotiated, and its header is in band */
	inv = wc->wc_flags & IB_WC_WITH_INVALIDATE;
	if (inv && !(ch->conn.params.features & RDMACHAN_WIRE_F_SEND_INV)) {
		rdmachan_protocol_error(ch, "SEND_WITH_INV not negotiated");
		return;
	}
	if (ch->conn.hdr_imm && !inv) {
		/* the header is the immediate, the payload starts the buffer */
		start = 0;
		ret = -EPROTO;
		if (wc->wc_flags & IB_WC_WITH_IMM)
			ret = rdmachan_wire_imm_check(wc->ex.imm_data,
						      wc->byte_len,
						      ch->conn.params.max_msg_size,
						      h);
	} else {
		rdmachan_rx_header(ch, rx, h, &start);
		ret = rdmachan_wire_hdr_check(h, wc->byte_len,
					      ch->conn.params.max_msg_size);
	}
	if (ret) {
		rdmachan_protocol_error(ch, "malformed header");
		return;
	}
	if (inv && h->type != RDMACHAN_MSG_DATA) {
		rdmachan_protocol_error(ch, "SEND_WITH_INV of a control message");
		return;
	}
	credits = be16_to_cpu(h->credits);
	len = be32_to_cpu(h->len);
	trace_rdmachan_chan_recv(ch->obj.id, ch->res.qpn, h->type, len, credits);

	spin_lock_irqsave(&ch->lock, flags);
	if (rdmachan_credits_grant(&ch->credits, credits)) {
		spin_unlock_irqrestore(&ch->lock, flags);
		rdmachan_protocol_error(ch, "more credits than granted");
		return;
	}
	why = rdmachan_ctrl_rx_locked(ch, h);
	if (why) {
		spin_unlock_irqrestore(&ch->lock, flags);
		rdmachan_protocol_error(ch, why);
		return;
	}
	/* nothing that takes a credit comes between fragments but DATA */
	if (ch->recv.asm_first && (h->type == RDMACHAN_MSG_PAD ||
				   h->type == RDMACHAN_MSG_RETIRE)) {
		spin_unlock_irqrestore(&ch->lock, flags);
		rdmachan_protocol_error(ch, "PAD or RETIRE between fragments");
		return;
	}
	/* a RETIRE gives a credit back for good: one the peer held */
	if (h->type == RDMACHAN_MSG_RETIRE &&
	    (!(ch->conn.params.features & RDMACHAN_WIRE_F_GROW) ||
	     rdmachan_credits_retired(&ch->credits))) {
		spin_unlock_irqrestore(&ch->lock, flags);
		rdmachan_protocol_error(ch, "RETIRE of a credit not held");
		return;
	}
	/* a KEEPALIVE or CREDIT asking for more credits (chan_grant.c) */
	if (h->flags & RDMACHAN_HDR_F_WANT) {
		if (ch->conn.params.version < 4) {
			spin_unlock_irqrestore(&ch->lock, flags);
			rdmachan_protocol_error(ch, "a credit request before version 4");
			return;
		}
		rdmachan_grow_asked_locked(ch);
	}
	wake = credits;
	if (credits)
		writable = rdmachan_writable_due_locked(ch);
	set_bit(RDMACHAN_F_RX_SEEN, &ch->flags);
	/* DATA and PAD spent a credit of the peer's, control messages not */
	if (h->type == RDMACHAN_MSG_DATA || h->type == RDMACHAN_MSG_PAD) {
		bool report = rdmachan_credits_took_one(&ch->credits);

		rdmachan_ask_data(&ch->recv.ask);

		/*
		 * Before the report: the peer has used half of its grant
		 * since the last one, owed credits included (credit.h)
		 */
		rdmachan_grow_check_locked(ch);
		if (report)
			rdmachan_post_ctrl_locked(ch, RDMACHAN_CTRL_CREDIT);
	}

	if (h->type != RDMACHAN_MSG_DATA) {
		if (h->type == RDMACHAN_MSG_CLOSE) {
			set_bit(RDMACHAN_F_PEER_SAID_CLOSE, &ch->flags);
			wake = true;
			/* iWARP: the closing side waits for our CLOSE */
			if (ch->ctrl.close_handshake)
				rdmachan_post_ctrl_locked(ch,
							  RDMACHAN_CTRL_CLOSE);
		}
		if (h->type == RDMACHAN_MSG_RETIRE) {
			/* stopped: the teardown frees it with the others */
			if (!test_bit(RDMACHAN_F_IO_STOPPED, &ch->flags))
				rdmachan_rx_retired_locked(ch, rx);
			/*
			 * the thresholds fell with the grant: credits owed
			 * may be due now, and the peer may be waiting for them
			 */
			if (rdmachan_credits_report_due(&ch->credits))
				rdmachan_post_ctrl_locked(ch,
							  RDMACHAN_CTRL_CREDIT);
		} else if (!test_bit(RDMACHAN_F_IO_STOPPED, &ch->flags)) {
			why = rdmachan_ctrl_repost_locked(ch, rx, h->type);
			/* a PAD took a credit like DATA: return it */
			if (h->type == RDMACHAN_MSG_PAD &&
			    rdmachan_credits_owe_one(&ch->credits))
				rdmachan_post_ctrl_locked(ch,
							  RDMACHAN_CTRL_CREDIT);
		}
		spin_unlock_irqrestore(&ch->lock, flags);
		if (why) {
			rdmachan_protocol_error(ch, why);
			return;
		}
		if (wake)
			wake_up_all(&ch->wq);
		if (writable)
			rdmachan_call_writable(ch);
		return;
	}

	rx->msg.data = rx->buf + start;
	rx->msg.len = len;
	if (h->flags & RDMACHAN_HDR_F_IMM) {
		rx->msg.has_imm = true;
		rx->msg.imm = rdmachan_rx_trailer(ch, rx, start, len);
	} else {
		/* under HDR_IMM the immediate was the header */
		rx->msg.has_imm = !ch->conn.hdr_imm &&
				  (wc->wc_flags & IB_WC_WITH_IMM);
		rx->msg.imm = rx->msg.has_imm ?
			      be32_to_cpu(wc->ex.imm_data) : 0;
	}
	rx->msg.rdma_imm = false;
	rx->msg.invalidated = inv;
	rx->msg.inv_rkey = inv ? wc->ex.invalidate_rkey : 0;
	rx->msg.frag_len = len;
	rx->next = NULL;
	/* a fragment: chained until the message is whole (chan_frag.c) */
	if ((h->flags & RDMACHAN_HDR_F_MORE) || ch->recv.asm_first) {
		ret = rdmachan_frag_rx_locked(ch, rx,
					      h->flags & RDMACHAN_HDR_F_MORE,
					      &rx);
		if (ret) {
			spin_unlock_irqrestore(&ch->lock, flags);
			if (ret < 0) {
				rdmachan_protocol_error(ch, "bad fragment");
				return;
			}
			if (wake)
				wake_up_all(&ch->wq);
			if (writable)
				rdmachan_call_writable(ch);
			return;
		}
		len = rx->msg.len;
	}
	rdmachan_rx_queue_locked(ch, rx);
	spin_unlock_irqrestore(&ch->lock, flags);
	/* before the message: a writable user may be the one who replies */
	if (writable)
		rdmachan_call_writable(ch);
	rdmachan_rx_queued(ch, len);
}

/**
 * rdmachan_readable() - is a message waiting, or will none ever come?
 * @ch: the channel
 *
 * A hint, read without the channel lock: it is what a busy poller checks
 * between two polls, and under TCG every interrupts-off lock round trip
 * is dear.  Callers take the message, or the end, under the lock
 * (rdmachan_wait_take()), and every change wakes ch->wq.
 *
 * Context: any.
 * Return: true when a message is queued or the channel reached its end.
 */
bool rdmachan_readable(struct rdmachan *ch)
{
	return !list_empty(&ch->recv.ready) ||
	       rdmachan_state_read_end(READ_ONCE(ch->state),
				       test_bit(RDMACHAN_F_TORN_DOWN,
						&ch->flags),
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
	rx = list_first_entry_or_null(&ch->recv.ready, struct rdmachan_rx,
				      node);
	if (rx) {
		list_del_init(&rx->node);
		ch->recv.nr_ready--;
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
 * only when they serialise (the channel file's readers hold recv.read_mutex).
 *
 * Context: any.
 */
void rdmachan_rx_untake(struct rdmachan *ch, struct rdmachan_rx *rx)
{
	unsigned long flags;

	spin_lock_irqsave(&ch->lock, flags);
	list_add(&rx->node, &ch->recv.ready);
	ch->recv.nr_ready++;
	spin_unlock_irqrestore(&ch->lock, flags);
	/* a poller may have looked while it was taken */
	wake_up_all(&ch->wq);
}

/*
 * Wait for a message or the end, until jiffies @end (0: no end), and
 * dequeue it in the same lock round trip that finds it.  Return: as
 * rdmachan_rx_wait_take(), and -ETIMEDOUT at @end.
 */
static int rdmachan_wait_take(struct rdmachan *ch, bool nonblock,
			      bool may_sleep, unsigned long end,
			      struct rdmachan_rx **take)
{
	struct rdmachan_rx *rx;
	unsigned long flags;
	int ret;

	for (;;) {
		rdmachan_rx_take_arrived(ch, may_sleep);
		spin_lock_irqsave(&ch->lock, flags);
		rx = list_first_entry_or_null(&ch->recv.ready,
					      struct rdmachan_rx, node);
		if (rx) {
			list_del_init(&rx->node);
			ch->recv.nr_ready--;
			*take = rx;
		}
		ret = rx ? 1 :
		      rdmachan_state_read_end(ch->state,
					      test_bit(RDMACHAN_F_TORN_DOWN,
						       &ch->flags),
					      ch->err);
		spin_unlock_irqrestore(&ch->lock, flags);
		if (ret != -EAGAIN || nonblock)
			return ret;
		ret = rdmachan_wait_until(ch, rdmachan_readable, end);
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
	return rdmachan_wait_take(ch, nonblock, true, 0, rxp);
}

/* rdmachan_recv() and rdmachan_recv_timeout(): the message, or why none */
static int rdmachan_recv_until(struct rdmachan *ch, struct rdmachan_msg **msgp,
			       bool nonblock, bool may_sleep, unsigned long end)
{
	struct rdmachan_rx *rx;
	int ret;

	ret = rdmachan_wait_take(ch, nonblock, may_sleep, end, &rx);
	if (ret <= 0)
		return ret ?: -EPIPE;
	*msgp = &rx->msg;
	return 0;
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

	return rdmachan_recv_until(ch, msgp, nonblock, !nonblock, 0);
}
EXPORT_SYMBOL_GPL(rdmachan_recv);

/**
 * rdmachan_recv_timeout() - rdmachan_recv(), waiting at most @timeout_ms
 * @ch: the channel (without recv callback)
 * @msgp: the message, to be given back with rdmachan_msg_release()
 * @timeout_ms: how long to wait for a message; 0 does not wait
 *
 * For a consumer that must not outlive a deadline of its own, such as a
 * benchmark run of a fixed length, however long the peer stays silent.
 *
 * Context: process context; sleeps at most @timeout_ms (interruptible).
 * Return: as rdmachan_recv(), and -ETIMEDOUT when no message came within
 * @timeout_ms (-EAGAIN when @timeout_ms is 0).
 */
int rdmachan_recv_timeout(struct rdmachan *ch, struct rdmachan_msg **msgp,
			  unsigned int timeout_ms)
{
	unsigned long end = jiffies + msecs_to_jiffies(timeout_ms);

	/* 0 is "no end" to rdmachan_wait_take() */
	return rdmachan_recv_until(ch, msgp, !timeout_ms, true, end ?: 1);
}
EXPORT_SYMBOL_GPL(rdmachan_recv_timeout);
