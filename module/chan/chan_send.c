// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan: the send side of a channel - the send ring, rdmachan_send*(),
 * send completions
 *
 * Send ring.  A sender reserves a credit and a slot of the data send
 * ring under the channel lock, fills the slot without the lock (copying
 * from user memory may fault), and marks it ready; ready slots are then
 * posted strictly in reservation order, as one chained work request list
 * (chan_post.c).  Only every sig_interval-th send, the one that fills the
 * ring, and every zero-copy send (whose sender waits for its pages) are
 * signalled; a completion frees every slot before it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/scatterlist.h>
#include <linux/uio.h>

#include "rdmachan-pri.h"
#include "chan_trace.h"
#include "chan_frag.h"
#include "chan_send.h"
#include "chan_grant.h"
#include "chan_post.h"
#include "chan_sbuf.h"

/* The slot of the data send ring that carries sequence number @seq */
struct rdmachan_tx *rdmachan_tx_slot(struct rdmachan *ch, u64 seq)
{
	u32 slot;

	div_u64_rem(seq, ch->send.depth, &slot);
	return &ch->send.ring[slot];
}

/* A data slot completed at @now: its latency, from when it was filled */
static void rdmachan_tx_hist_locked(struct rdmachan *ch,
				    struct rdmachan_tx *tx, u64 now)
{
	u64 *t = &ch->send.t_ns[tx - ch->send.ring];

	if (*t && !tx->unposted)
		rdmachan_hist_add(ch->send.hist, now - *t);
	*t = 0;
}

/**
 * rdmachan_tx_retire_locked() - the data slots before @upto completed
 * @ch: the channel
 * @upto: the sequence number after the last slot known complete
 *
 * Their buffers go back to the spare stack.  A zero-copy slot among them
 * ends: its pages are unmapped and its sender's callback runs, here,
 * under the lock (rdmachan_send_sg_zc()).
 *
 * Context: caller holds ch->lock; @upto is after &rdmachan_send_ring.completed.
 */
void rdmachan_tx_retire_locked(struct rdmachan *ch, u64 upto)
{
	/* set under the lock before any slot takes zero-copy pages */
	bool zc = test_bit(RDMACHAN_F_ZC_SENT, &ch->flags);
	u64 now = ch->send.t_ns ? ktime_get_ns() : 0;

	while (ch->send.completed != upto) {
		struct rdmachan_tx *tx = rdmachan_tx_slot(ch,
							  ch->send.completed);

		if (now)
			rdmachan_tx_hist_locked(ch, tx, now);
		/* a slot after a refused post never left */
		if (zc && tx->nr_zc)
			rdmachan_zc_end(ch, tx,
					tx->unposted ? -ECONNRESET : 0);
		rdmachan_sbuf_give_locked(ch, tx);
		ch->send.completed++;
	}
}

/**
 * rdmachan_commit_locked() - post every ready slot at the head of the
 *	ring, in order, as one chain
 * @ch: the channel
 *
 * A slot not ready, or whose fast registrations have not completed on
 * the registration QP (&rdmachan_tx.regs_pending), ends the chain.
 *
 * Context: ch->lock held.
 * Return: 0 or the error of the post.
 */
int rdmachan_commit_locked(struct rdmachan *ch)
{
	struct rdmachan_chain c = {};
	const struct ib_send_wr *bad = NULL;
	int ret;

	while (ch->send.posted != ch->send.reserved) {
		struct rdmachan_tx *tx = rdmachan_tx_slot(ch, ch->send.posted);

		if (!tx->ready || tx->regs_pending)
			break;
		tx->ready = false;
		tx->unposted = false;
		tx->seq = ch->send.posted++;
		trace_rdmachan_chan_send(ch->obj.id, ch->res.qpn,
					 tx->retire ? RDMACHAN_MSG_RETIRE :
					 tx->pad ? RDMACHAN_MSG_PAD :
					 RDMACHAN_MSG_DATA, tx->seq, tx->len,
					 tx->has_imm, ch->credits.avail);
		rdmachan_post_tx_locked(ch, tx, &c);
	}
	if (!c.first)
		return 0;
	ret = rdmachan_post_send_locked(ch, c.first, &bad);
	if (ret) {
		rdmachan_err_rl(ch, "send post failed: %d\n", ret);
		/*
		 * The messages from @bad on never left, although @posted
		 * counts them: a later completion that retires them must not
		 * tell a zero-copy sender its message went (the channel
		 * fails, rdmachan_commit(); its fast registrations from @bad
		 * on stay marked posted, which only the teardown reads).  A
		 * provider that does not say: none of the chain went.
		 */
		for (bad = bad ?: c.first; bad; bad = bad->next)
			if (bad->wr_cqe && bad->wr_cqe->done == rdmachan_tx_done)
				container_of(bad, struct rdmachan_tx,
					     wr)->unposted = true;
	}
	return ret;
}

/* Data send completion (signalled, or an error): free the ring up to it. */
void rdmachan_tx_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct rdmachan_tx *tx = container_of(wc->wr_cqe, struct rdmachan_tx,
					      cqe);
	struct rdmachan *ch = tx->ch;
	unsigned long flags;
	bool writable = false;

	if (!rdmachan_wc_ok(ch, wc, "send"))
		return;
	spin_lock_irqsave(&ch->lock, flags);
	if ((s64)(tx->seq + 1 - ch->send.completed) > 0) {
		rdmachan_tx_retire_locked(ch, tx->seq + 1);
		writable = rdmachan_writable_due_locked(ch);
	}
	spin_unlock_irqrestore(&ch->lock, flags);
	wake_up_all(&ch->wq);
	if (writable)
		rdmachan_call_writable(ch);
}

/* May @n credits and slots be reserved at once now? */
static bool rdmachan_can_reserve_n(struct rdmachan *ch, u32 n)
{
	return ch->credits.avail >= n &&
	       ch->send.reserved - ch->send.completed + n <= ch->send.depth;
}

static bool rdmachan_can_reserve(struct rdmachan *ch)
{
	return rdmachan_can_reserve_n(ch, 1);
}

/* Room for a send, or for the message of fragments refused last */
static bool rdmachan_can_write(struct rdmachan *ch)
{
	return rdmachan_can_reserve_n(ch, max(1U, ch->send.want_least));
}

/**
 * rdmachan_writable_due_locked() - room came back: does a refusal wait
 *	for what there is now?
 * @ch: the channel, its lock held
 *
 * A refused send waits for a credit and a ring slot; a refused one-sided
 * call for the room and credits it asked for (the smallest of those
 * refused).  When one can go, the wants are cleared: the caller calls
 * rdmachan_call_writable() once it has dropped the lock (a user whose
 * retry is refused again is called again when more comes back).
 *
 * Context: ch->lock held.
 * Return: whether to call &rdmachan_ops.writable.
 */
bool rdmachan_writable_due_locked(struct rdmachan *ch)
{
	u32 w = ch->writable_wanted;
	bool due;

	lockdep_assert_held(&ch->lock);
	if (!w)
		return false;
	due = ((w & RDMACHAN_WANT_SEND) && rdmachan_can_write(ch)) ||
	      ((w & RDMACHAN_WANT_RDMA) &&
	       rdmachan_rdma_room(ch, ch->want_rdma_slots,
				  ch->want_rdma_credits));
	if (due)
		ch->writable_wanted = 0;
	return due;
}

/* The errno for a send on a channel that is not CONNECTED */
int rdmachan_send_state_err(struct rdmachan *ch)
{
	return rdmachan_state_send_err(ch->state,
				       test_bit(RDMACHAN_F_IO_STOPPED,
						&ch->flags),
				       ch->err);
}

/**
 * rdmachan_writable() - could a send take a credit and a slot now?
 * @ch: the channel
 *
 * Return: true when both are there now (a later send may still find
 * them gone).
 */
bool rdmachan_writable(struct rdmachan *ch)
{
	unsigned long flags;
	bool ret;

	spin_lock_irqsave(&ch->lock, flags);
	ret = !rdmachan_send_state_err(ch) && rdmachan_can_write(ch);
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

/*
 * Room for @n slots and credits at once, the channel's error, or more
 * credits than @seen (the sender asks again for a grant that did not grow
 * enough: chan_grant.c)?
 */
static bool rdmachan_send_room_n(struct rdmachan *ch, u32 n, u32 seen)
{
	unsigned long flags;
	bool ret;

	spin_lock_irqsave(&ch->lock, flags);
	ret = rdmachan_send_state_err(ch) || rdmachan_can_reserve_n(ch, n) ||
	      ch->credits.avail > seen;
	spin_unlock_irqrestore(&ch->lock, flags);
	return ret;
}

/**
 * rdmachan_send_waiting() - count a sender that waits for several
 *	credits at once in, or out (@d 1 or -1)
 * @ch: the channel
 * @d: the change
 *
 * Context: takes ch->lock.
 */
void rdmachan_send_waiting(struct rdmachan *ch, int d)
{
	unsigned long flags;

	spin_lock_irqsave(&ch->lock, flags);
	ch->send.waiting += d;
	spin_unlock_irqrestore(&ch->lock, flags);
}

/**
 * rdmachan_wait_n() - rdmachan_wait() for a condition of a number (the
 *	fragments of one message), as rdmachan_rdma_post() waits for room
 * @ch: the channel
 * @cond: the condition, also true once the channel failed
 * @n: its number
 * @arg: its other argument
 *
 * Context: process context.
 * Return: 0, or -ERESTARTSYS on a signal.
 */
int rdmachan_wait_n(struct rdmachan *ch,
		    bool (*cond)(struct rdmachan *, u32, u32), u32 n, u32 arg)
{
	while (!cond(ch, n, arg)) {
		if (signal_pending(current))
			return -ERESTARTSYS;
		if (ch->opts.poll_mode == RDMACHAN_POLL_DIRECT) {
			if (!rdmachan_poll(ch, 16))
				rdmachan_poll_relax();
			continue;
		}
		/* credits land on a receive queue that raises no event */
		if (ch->opts.poll_mode == RDMACHAN_POLL_SOLICITED) {
			if (!rdmachan_poll(ch, -1))
				schedule_timeout_interruptible(1);
			continue;
		}
		if (wait_event_interruptible(ch->wq, cond(ch, n, arg)))
			return -ERESTARTSYS;
	}
	return 0;
}

/*
 * Reserve up to @want credits and ring slots, each with a send buffer:
 * spare, or allocated first without the lock (chan_sbuf.c), @least of
 * them at once (the fragments of one message: chan_frag.c).  Waits for
 * them unless @nonblock.  Return: slots reserved, or errno.
 */
static int rdmachan_reserve(struct rdmachan *ch, u32 want, u32 least,
			    bool nonblock, u64 *first)
{
	unsigned long flags;
	bool stalled = false, polled = false, filled = false;
	u32 n, i, seen;
	int ret;

	for (;;) {
		spin_lock_irqsave(&ch->lock, flags);
		ret = rdmachan_send_state_err(ch);
		if (ret) {
			spin_unlock_irqrestore(&ch->lock, flags);
			return ret;
		}
		if (rdmachan_can_reserve_n(ch, least) &&
		    ch->send.nr_spare >= least &&
		    (ch->send.nr_spare >= want || filled ||
		     ch->send.nr_bufs >= ch->send.depth))
			break;
		if (rdmachan_can_reserve_n(ch, least)) {
			/* a fill left fewer than @least: the allocator refused */
			ret = filled && ch->send.nr_spare < least ? -ENOMEM : 0;
			spin_unlock_irqrestore(&ch->lock, flags);
			if (!ret)
				ret = rdmachan_sbuf_fill(ch, want, nonblock ?
							 GFP_NOWAIT : GFP_KERNEL);
			/* refused: -EAGAIN, or wait for those in flight */
			if (ret == -ENOMEM) {
				ret = nonblock ? rdmachan_sbuf_fill_later(ch) :
				      rdmachan_sbuf_wait(ch, least);
				/*
				 * one came back; for several, allocate again
				 * if still short (the idle tick may free some)
				 */
				if (!ret) {
					filled = least == 1;
					continue;
				}
			}
			if (ret)
				return ret;
			filled = true;
			continue;
		}
		/* refused: the next return of room calls ->writable */
		if (nonblock) {
			rdmachan_want_send_locked(ch);
			ch->send.want_least = least;
		}
		seen = ch->credits.avail;
		/*
		 * short of credits: ask for a larger grant where that helps
		 * (chan_grant.c); a message of fragments waits for its slots
		 * and buffers at once too, which unsignalled sends may hold:
		 * a KEEPALIVE's completion retires them
		 */
		rdmachan_ask_grant_locked(ch, least, nonblock);
		if (least > 1 && ch->send.posted != ch->send.completed)
			rdmachan_post_ctrl_locked(ch, RDMACHAN_CTRL_KEEPALIVE);
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
			atomic64_inc(&ch->stats[RDMACHAN_STAT_credit_stalls]);
			stalled = true;
		}
		if (least == 1) {
			ret = rdmachan_wait(ch, rdmachan_send_wait_done);
		} else {
			rdmachan_send_waiting(ch, 1);
			ret = rdmachan_wait_n(ch, rdmachan_send_room_n, least,
					      seen);
			rdmachan_send_waiting(ch, -1);
		}
		if (ret)
			return ret;
	}
	ch->send.want_least = 0;
	n = rdmachan_credits_spend(&ch->credits, want,
				   min_t(u32, ch->send.nr_spare,
					 ch->send.depth - (ch->send.reserved -
							   ch->send.completed)));
	*first = ch->send.reserved;
	for (i = 0; i < n; i++)
		rdmachan_sbuf_take_locked(ch, rdmachan_tx_slot(ch, *first + i));
	ch->send.reserved += n;
	spin_unlock_irqrestore(&ch->lock, flags);
	return n;
}

/**
 * rdmachan_reserve_all() - reserve @n credits and slots at once
 * @ch: the channel
 * @n: at most its depth
 * @nonblock: do not wait
 * @first: the first slot's sequence number
 *
 * Context: process context unless @nonblock.
 * Return: @n, or a negative errno (as rdmachan_send()).
 */
int rdmachan_reserve_all(struct rdmachan *ch, u32 n, bool nonblock,
			 u64 *first)
{
	return rdmachan_reserve(ch, n, n, nonblock, first);
}

/**
 * rdmachan_send_idle_locked() - has the peer answered every message
 *	posted, and is no one-sided request under way?
 * @ch: the channel
 *
 * Then a fence in the send queue waits for no round trip (every send was
 * received, its acknowledgment sent before the answer): a send's fast
 * registrations go in front of it behind a fencing LOCAL_INV
 * (chan_post.c), in one post, rather than on the registration QP, whose
 * completion the send would wait for (a QD1 block request's latency), and
 * a registration's put posts its LOCAL_INV there too, the fence the next
 * send's registrations then need no other.  "Answered" is counted, as
 * request and reply protocols have it: as many messages received as
 * posted.  A guess that only costs time when wrong: either way is safe.
 *
 * Context: ch->lock held.
 * Return: true when idle so.
 */
bool rdmachan_send_idle_locked(struct rdmachan *ch)
{
	return !ch->rdma.slots && ch->send.retired +
	       (u64)atomic64_read(&ch->stats[RDMACHAN_STAT_msgs_rx]) >=
	       ch->send.posted;
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
int rdmachan_commit(struct rdmachan *ch, u64 first, u32 n, u32 good)
{
	bool bh = rdmachan_post_bh_off(ch);
	unsigned long flags;
	bool regq;
	u64 now;
	u32 i;
	int ret;

	spin_lock_irqsave(&ch->lock, flags);
	if (good < n && ch->send.reserved == first + n) {
		rdmachan_credits_refund(&ch->credits, n - good);
		ch->send.reserved = first + good;
		for (i = good; i < n; i++)
			rdmachan_sbuf_give_locked(ch, rdmachan_tx_slot(ch,
								       first + i));
		n = good;
	}
	ret = test_bit(RDMACHAN_F_IO_STOPPED, &ch->flags) ? -ECONNRESET : 0;
	regq = ch->res.reg_qp && !rdmachan_send_idle_locked(ch);
	now = ch->send.t_ns ? ktime_get_ns() : 0;
	for (i = 0; i < n; i++) {
		struct rdmachan_tx *tx = rdmachan_tx_slot(ch, first + i);

		tx->ready = true;
		if (now)
			ch->send.t_ns[tx - ch->send.ring] = i < good ? now : 0;
		if (i >= good) {
			tx->len = 0;
			tx->has_imm = false;
			tx->solicited = false;
			tx->send_inv = false;
			tx->nr_regs = 0;
			tx->pad = true;
		}
		/* its registrations first, on their own QP (chan_post.c) */
		if (!ret && tx->nr_regs && regq)
			ret = rdmachan_regq_post_locked(tx);
	}
	if (!ret)
		ret = rdmachan_commit_locked(ch);
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
 * -EAGAIN (non-blocking: no credit, or no send buffer without waiting,
 * &rdmachan_ops.writable then called when one is there); -ENOTCONN,
 * -ECONNRESET, -ENODEV or the channel's error when it is not connected;
 * -ERESTARTSYS on a signal.
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

/*
 * One message of @len bytes: reserve its slot and set its immediate and
 * flags; the caller copies the payload in and posts it
 * (rdmachan_send_one_post()).  Return: the slot, its sequence number in
 * *first, or an ERR_PTR: -ESTALE where the peer's answer made its buffers
 * small while this waited for the slot (rdmachan_frag_adopt(), before the
 * I/O starts), the slot gone as a PAD: the caller sends the message again
 * as fragments.
 */
struct rdmachan_tx *rdmachan_send_one_slot(struct rdmachan *ch, size_t len,
					   u32 imm, unsigned int flags,
					   u64 *first)
{
	struct rdmachan_tx *tx;
	int ret;

	if (len > ch->conn.params.max_msg_size)
		return ERR_PTR(-EMSGSIZE);
	ret = rdmachan_reserve(ch, 1, 1, flags & RDMACHAN_SEND_NONBLOCK, first);
	if (ret < 0)
		return ERR_PTR(ret);
	if (unlikely(len > rdmachan_sbuf_payload(ch))) {
		rdmachan_commit(ch, *first, 1, 0);
		return ERR_PTR(-ESTALE);
	}
	tx = rdmachan_tx_slot(ch, *first);
	tx->len = len;
	tx->imm = imm;
	tx->has_imm = flags & RDMACHAN_SEND_IMM;
	tx->solicited = flags & RDMACHAN_SEND_SOLICITED;
	tx->send_inv = false;
	tx->nr_regs = 0;
	return tx;
}

/* Post the one message of @len bytes filled in at slot @first; count it. */
static int rdmachan_send_one_post(struct rdmachan *ch, u64 first, size_t len)
{
	int ret;

	ret = rdmachan_commit(ch, first, 1, 1);
	if (ret)
		return ret;
	atomic64_inc(&ch->stats[RDMACHAN_STAT_msgs_tx]);
	atomic64_add(len, &ch->stats[RDMACHAN_STAT_bytes_tx]);
	return 0;
}

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
	u64 first;

	if (rdmachan_frags(ch, len) > 1)
		return rdmachan_send_frags_iter(ch, from, imm, flags);
	tx = rdmachan_send_one_slot(ch, len, imm, flags, &first);
	if (tx == ERR_PTR(-ESTALE))
		return rdmachan_send_iter(ch, from, imm, flags);
	if (IS_ERR(tx))
		return PTR_ERR(tx);
	if (copy_from_iter(rdmachan_tx_data(ch, tx), len, from) != len) {
		rdmachan_commit(ch, first, 1, 0);
		return -EFAULT;
	}
	return rdmachan_send_one_post(ch, first, len);
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
	u32 i, good;
	u64 first;
	int n, ret = 0;

	n = rdmachan_reserve(ch, count, 1, nonblock, &first);
	if (n <= 0)
		return n;
	for (good = 0; good < n; good++) {
		ret = fill(ch, rdmachan_tx_slot(ch, first + good), good, arg);
		if (ret)
			break;
	}
	rdmachan_commit(ch, first, n, good);
	for (i = 0; i < good; i++) {
		atomic64_inc(&ch->stats[RDMACHAN_STAT_msgs_tx]);
		atomic64_add(rdmachan_tx_slot(ch, first + i)->len,
			     &ch->stats[RDMACHAN_STAT_bytes_tx]);
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

	/* the peer's buffers became small meanwhile: rdmachan_send_one_slot() */
	if (unlikely(b->msgs[i].iov_len > rdmachan_sbuf_payload(ch)))
		return -ESTALE;
	tx->len = b->msgs[i].iov_len;
	tx->imm = b->imm;
	tx->has_imm = b->has_imm;
	/* the last message of the batch raises the solicited event */
	tx->solicited = b->solicited && i + 1 == b->count;
	memcpy(rdmachan_tx_data(ch, tx), b->msgs[i].iov_base, tx->len);
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
	int ret;

	if (!count)
		return -EINVAL;
	for (i = 0; i < count; i++)
		if (msgs[i].iov_len > ch->conn.params.max_msg_size)
			return -EMSGSIZE;
	for (i = 0; i < count; i++)
		if (rdmachan_frags(ch, msgs[i].iov_len) > 1)
			return rdmachan_send_each(ch, msgs, count, imm, flags);
	ret = rdmachan_send_batch(ch, rdmachan_fill_kvec, &b, count,
				  flags & RDMACHAN_SEND_NONBLOCK);
	return ret == -ESTALE ? rdmachan_send_msgs(ch, msgs, count, imm, flags) :
	       ret;
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
 * Context: as rdmachan_send().
 * Return: as rdmachan_send().
 */
int rdmachan_send_sg(struct rdmachan *ch, struct scatterlist *sgl,
		     unsigned int nents, u32 imm, unsigned int flags)
{
	struct rdmachan_tx *tx;
	size_t len = 0;
	struct scatterlist *sg;
	unsigned int i;
	u64 first;

	for_each_sg(sgl, sg, nents, i)
		len += sg->length;
	if (rdmachan_frags(ch, len) > 1)
		return rdmachan_send_frags_sg(ch, sgl, nents, len, imm, flags);
	tx = rdmachan_send_one_slot(ch, len, imm, flags, &first);
	if (tx == ERR_PTR(-ESTALE))
		return rdmachan_send_sg(ch, sgl, nents, imm, flags);
	if (IS_ERR(tx))
		return PTR_ERR(tx);
	tx->len = sg_copy_to_buffer(sgl, nents, rdmachan_tx_data(ch, tx),
				    len);
	return rdmachan_send_one_post(ch, first, len);
}
EXPORT_SYMBOL_GPL(rdmachan_send_sg);

/**
 * rdmachan_can_send_inv() - may messages of @ch carry RDMACHAN_SEND_INV?
 * @ch: a channel, connected (before, the answer is false)
 *
 * Both ends' modules and devices do remote invalidation: the wire feature
 * was negotiated at connection time (Documentation/protocol.rst).
 *
 * Context: any.
 * Return: true when rdmachan_send_ext() takes RDMACHAN_SEND_INV.
 */
bool rdmachan_can_send_inv(struct rdmachan *ch)
{
	return READ_ONCE(ch->state) != RDMACHAN_CONNECTING &&
	       (ch->conn.params.features & RDMACHAN_WIRE_F_SEND_INV);
}
EXPORT_SYMBOL_GPL(rdmachan_can_send_inv);

/**
 * rdmachan_can_write_imm() - may rdmachan_rdma_start() post
 *	RDMACHAN_OP_WRITE_IMM on @ch?
 * @ch: a channel
 *
 * iWARP has no RDMA WRITE with immediate (rdmachan_rdma_start() refuses
 * it with -EOPNOTSUPP there); every other transport has it.
 *
 * Context: any.
 * Return: true when RDMACHAN_OP_WRITE_IMM may be posted.
 */
bool rdmachan_can_write_imm(struct rdmachan *ch)
{
	return !ch->res.iwarp;
}
EXPORT_SYMBOL_GPL(rdmachan_can_write_imm);

/**
 * rdmachan_send_ext() - send one message with registrations or a remote
 *	invalidation
 * @ch: a connected channel
 * @vec: the message, gathered from these pieces (copied, as by
 *	rdmachan_send())
 * @nr_vec: number of pieces
 * @imm: immediate value, with RDMACHAN_SEND_IMM
 * @flags: RDMACHAN_SEND_IMM, RDMACHAN_SEND_NONBLOCK,
 *	RDMACHAN_SEND_SOLICITED, RDMACHAN_SEND_INV
 * @ext: what the message adds (NULL: nothing, as rdmachan_send())
 *
 * The fast registrations of @ext->regs (mapped by rdmachan_mr_pool_map(),
 * not yet sent) are posted unsignalled in front of the message, in the
 * same chain: RC executes them before the message, so they are valid
 * when the peer sees it, and stay valid until the peer invalidates one
 * (its SEND_INV) or rdmachan_mr_pool_put() does.  On failure none of
 * them was posted: rdmachan_mr_pool_put() gives each back at once.
 *
 * With RDMACHAN_SEND_INV the message goes as SEND_WITH_INV of
 * @ext->inv_rkey: the peer's registration of that rkey is invalidated as
 * the message arrives, and its receiver sees &rdmachan_msg.invalidated
 * and &rdmachan_msg.inv_rkey.  Its immediate, if any, still arrives
 * (&rdmachan_msg.imm).  Only where rdmachan_can_send_inv().
 *
 * Context: process context; any context with RDMACHAN_SEND_NONBLOCK
 * (then it never sleeps, and a refusal for want of a credit or ring room
 * is -EAGAIN, after which &rdmachan_ops.writable runs once room is back).
 * Return: 0; -EINVAL (a bad flag, a registration not of this channel,
 * not mapped or already sent, more than &rdmachan_opts.max_send_regs);
 * -EOPNOTSUPP (RDMACHAN_SEND_INV where rdmachan_can_send_inv() is
 * false); otherwise as rdmachan_send().
 */
int rdmachan_send_ext(struct rdmachan *ch, const struct kvec *vec,
		      unsigned int nr_vec, u32 imm, unsigned int flags,
		      const struct rdmachan_send_ext *ext)
{
	static const struct rdmachan_send_ext none;
	struct rdmachan_tx *tx;
	struct iov_iter from;
	size_t len = 0;
	unsigned int i;
	u64 first;
	int ret;

	if (!ext)
		ext = &none;
	if (flags & ~(RDMACHAN_SEND_IMM | RDMACHAN_SEND_NONBLOCK |
		      RDMACHAN_SEND_SOLICITED | RDMACHAN_SEND_INV)) {
		rdmachan_info_rl(ch, "send_ext: unknown flags %#x\n", flags);
		return -EINVAL;
	}
	if ((flags & RDMACHAN_SEND_INV) && !rdmachan_can_send_inv(ch))
		return -EOPNOTSUPP;
	if (ext->nr_regs > ch->opts.max_send_regs ||
	    (ext->nr_regs && !ext->regs)) {
		rdmachan_info_rl(ch,
				 "send_ext: %u registrations, at most %u\n",
				 ext->nr_regs, ch->opts.max_send_regs);
		return -EINVAL;
	}
	for (i = 0; i < nr_vec; i++)
		len += vec[i].iov_len;
	if (len > ch->conn.params.max_msg_size)
		return -EMSGSIZE;
	/* a message of fragments carries no registration or invalidation */
	if (rdmachan_frags(ch, len) > 1)
		return ext->nr_regs || (flags & RDMACHAN_SEND_INV) ? -EOPNOTSUPP :
		       rdmachan_send(ch, vec, nr_vec, imm, flags);
	ret = rdmachan_pool_claim(ch, ext);
	if (ret)
		return ret;
	tx = rdmachan_send_one_slot(ch, len, imm, flags, &first);
	if (IS_ERR(tx)) {
		rdmachan_pool_unclaim(ch, ext);
		return tx == ERR_PTR(-ESTALE) ?
		       rdmachan_send_ext(ch, vec, nr_vec, imm, flags, ext) :
		       PTR_ERR(tx);
	}
	iov_iter_kvec(&from, WRITE, vec, nr_vec, len);
	if (copy_from_iter(rdmachan_tx_data(ch, tx), len, &from) != len) {
		/* kernel memory: cannot fault; as rdmachan_send_iter() */
		rdmachan_pool_unclaim(ch, ext);
		rdmachan_commit(ch, first, 1, 0);
		return -EFAULT;
	}
	if (flags & RDMACHAN_SEND_INV) {
		tx->send_inv = true;
		tx->inv_rkey = ext->inv_rkey;
	}
	for (i = 0; i < ext->nr_regs; i++)
		rdmachan_tx_ext(ch, tx)->regs[i] = ext->regs[i];
	tx->nr_regs = ext->nr_regs;
	return rdmachan_send_one_post(ch, first, len);
}
EXPORT_SYMBOL_GPL(rdmachan_send_ext);
