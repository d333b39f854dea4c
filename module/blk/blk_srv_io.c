// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan_blk server: a queue's requests, from the message to the reply
 *
 * Each queue (an accepted channel) owns @depth slots, allocated and
 * registered once at OPEN (local write access only: the client never
 * reaches them; the server moves data with RDMA READ and WRITE).  A
 * request takes a free slot - never the slot of its tag: a client may
 * reuse tags - and goes through these stages (enum rcblk_srv_stage):
 *
 *   WRITE, remote data:  PULL (RDMA READs into the slot, in pieces:
 *                        blk_srv_pull.c) -> SUBMIT -> BIO -> REPLY
 *   WRITE, inline data:  copied into the slot in the receive callback ->
 *                        SUBMIT -> BIO -> REPLY
 *   READ:                SUBMIT -> BIO -> PUSH (RDMA WRITE from the slot)
 *                        -> REPLY; or, on a queue with RCBLK_Q_WRITE_IMM,
 *                        SUBMIT -> BIO -> PUSH, the reply in the
 *                        immediate of an RDMA WRITE_WITH_IMM (a STAGED
 *                        READ; a REMOTE one only where the channel cannot
 *                        send with invalidate: rcblk_srv_read_imm())
 *   FLUSH, DISCARD, WRITE_ZEROES: SUBMIT -> BIO -> REPLY
 *
 * The receive callback (softirq, must not sleep) checks the request
 * (rcblk_io_check()), answers a bad one at once, copies what it needs
 * and releases the message; a request finding no free slot is parked
 * with its message (holding the client's credit) until a slot frees.
 * What may sleep (bio allocation and submission) or must wait for room
 * runs in the queue's io_work; the RDMA ends and the bio's end_io only
 * move the slot to io_work's list (a pull piece's end may post the
 * request's next pieces first, as the receive callback posts its
 * first).  Replies (blk_srv_reply.c): a
 * zero-length message whose immediate is rcblk_reply_imm(tag, status),
 * or several in one message (RCBLK_F_REPLY_BATCH); -EAGAIN puts the slot
 * on the retry list, which io_work runs again when the channel calls
 * ->writable.  A slot is freed when its reply is posted, and for a READ
 * once its RDMA WRITE completed too: the reply is posted right behind
 * the WRITE, in the same io_work step, as nvmet-rdma chains its
 * response behind the data.  On the one queue pair the peer sees the
 * reply only after the data is in place, and a failed WRITE fails
 * the queue pair, so its reply is never delivered.  Whichever of the two
 * ends last (&rcblk_srv_req.holds) frees the slot: io_work after the
 * post, or the WRITE's completion directly.  A WRITE_WITH_IMM is the
 * reply too: its completion alone frees the slot (one hold).
 *
 * io_work posts with bottom halves off (on again only to submit a bio,
 * which may sleep), so that the softirq work its posts raise runs once
 * after a batch of them rather than in between.  Once a submission has
 * slept (a backing device short of tags), it posts what reached its list
 * before each further submission: no reply waits behind them.
 *
 * Once the queue is DEAD (its close work set it under @lock and waited
 * for io_work), io_work makes no channel call: whatever reaches it - RDMA
 * ends flushed by the channel's close, bios ending later - only frees
 * its slot.  A bio in flight holds a queue reference, so its end never
 * touches freed memory.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bio.h>
#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/slab.h>

#include "blk_srv.h"
#include "blk_trace.h"

/*
 * Does a READ's reply ride its data's RDMA WRITE_WITH_IMM?  Where the
 * client asked (RCBLK_Q_WRITE_IMM), for a READ into its tag's staging
 * page; a READ into a registration of its own gets the reply that
 * invalidates it remotely where the channel can send with invalidate, as
 * nvmet-rdma's: the client then has no local invalidation to post and
 * wait for.  Nor when the client's credits are due back
 * (rdmachan_credits_due()): a reply message returns them in its header,
 * where the WRITE_WITH_IMM would leave them to a CREDIT message of their
 * own, posted as the client's next request arrives.  Where both ends set
 * &rdmachan_opts.imm_credit, each WRITE_WITH_IMM returns the credit its
 * request took, and they are seldom due.
 */
static bool rcblk_srv_read_imm(const struct rcblk_srv_queue *q,
			       struct rdmachan *ch,
			       const struct rcblk_srv_req *req)
{
	if (!test_bit(RCBLK_Q_WRITE_IMM, &q->flags) ||
	    (req->io.data == RCBLK_DATA_REMOTE && rdmachan_can_send_inv(ch)))
		return false;
	/* last: it takes the channel's lock */
	return !rdmachan_credits_due(ch);
}

/*
 * Which worker a kick wakes.  rcblk_srv_wq's, of high priority, preempts
 * whatever task runs on the CPU, as soon as it is woken.  When the kick
 * comes from a user task's softirq work, that task may be the client
 * whose own post delivered the request on this CPU (a host that maps its
 * own export, the bench's one-CPU row): preempted before it can post its
 * next request, at every request, it would keep one request in flight
 * whatever its queue depth.  So from there rcblk_srv_yield_wq's worker, of
 * normal priority, takes its turn with the task instead.  From a kernel
 * thread's softirq work (ksoftirqd's, an idle CPU's interrupt) or process
 * context, the high-priority one.
 */
static bool rcblk_srv_io_yields(void)
{
	return in_serving_softirq() && !(current->flags & PF_KTHREAD);
}

/* Run @q's io_work (again); any context */
void rcblk_srv_io_kick(struct rcblk_srv_queue *q)
{
	set_bit(RCBLK_Q_IO_AGAIN, &q->flags);
	/* pairs with the barrier after rcblk_srv_io_run()'s clear of RUN */
	smp_mb__after_atomic();
	if (test_bit(RCBLK_Q_IO_RUN, &q->flags))
		return;		/* the run under way goes round again */
	if (rcblk_srv_io_yields())
		queue_work(rcblk_srv_yield_wq, &q->io_yield_work);
	else
		queue_work(rcblk_srv_wq, &q->io_work);
}

/* Put @req on io_work's list at @stage; any context (blk_srv_bio.c too) */
void rcblk_srv_to_work(struct rcblk_srv_req *req, u8 stage)
{
	struct rcblk_srv_queue *q = req->q;
	unsigned long flags;

	spin_lock_irqsave(&q->lock, flags);
	req->stage = stage;
	list_add_tail(&req->node, &q->work_list);
	spin_unlock_irqrestore(&q->lock, flags);
	rcblk_srv_io_kick(q);
}

static void rcblk_srv_done(struct rcblk_srv_queue *q,
			   struct rcblk_srv_req *req, bool kick);

/*
 * The RDMA WRITE of a READ's data ended (completion context).  Its reply
 * was posted behind it or waits on the retry list; the last of the two
 * frees the slot.  A WRITE_WITH_IMM carried the reply: it holds alone.
 */
static void rcblk_srv_push_end(struct rdmachan_op *ops, unsigned int count,
			       int err, void *ctx)
{
	struct rcblk_srv_req *req = ctx;

	if (err)
		req->push_err = true;
	WRITE_ONCE(req->rdma, false);
	if (atomic_dec_and_test(&req->holds))
		rcblk_srv_done(req->q, req, true);
}

/*
 * Start the RDMA WRITE that pushes a READ's data (@opcode
 * RDMACHAN_OP_WRITE, or RDMACHAN_OP_WRITE_IMM: with its reply of status
 * OK in the immediate).  Never sleeps.  -EAGAIN: retry on writable;
 * other errors: the transfer failed.  A WRITE's data is pulled by
 * rcblk_srv_pull() (blk_srv_pull.c).
 */
static int rcblk_srv_rdma(struct rcblk_srv_queue *q, struct rdmachan *ch,
			  struct rcblk_srv_req *req, u32 opcode)
{
	int ret;

	req->seg[0].mr = req->mr;
	req->seg[0].offset = 0;
	req->seg[0].length = req->io.len;
	memset(&req->op[0], 0, sizeof(req->op[0]));
	req->op[0].opcode = opcode;
	req->op[0].flags = RDMACHAN_OPF_SIGNALED;
	req->op[0].segs = &req->seg[0];
	req->op[0].nr_segs = 1;
	req->op[0].remote_addr = req->io.addr;
	req->op[0].rkey = req->io.rkey;
	if (opcode == RDMACHAN_OP_WRITE_IMM)
		req->op[0].imm = rcblk_reply_imm(req->io.tag, RCBLK_S_OK);
	WRITE_ONCE(req->rdma, true);
	/* before the post: its end may run before the post returns */
	trace_rcblk_srv_rdma(q->exp->name, req->io.tag, req->io.op,
			     req->io.sector, req->io.len, req->status);
	ret = rdmachan_rdma_start(ch, &req->op[0], 1, rcblk_srv_push_end, req);
	if (ret)
		WRITE_ONCE(req->rdma, false);
	return ret;
}

/* Copy an inline WRITE's payload into the slot */
static void rcblk_srv_copy_inline(struct rcblk_srv_req *req, const void *src)
{
	u32 done = 0, i = 0;

	while (done < req->io.len) {
		u32 n = min_t(u32, PAGE_SIZE, req->io.len - done);

		memcpy_to_page(req->buf.pages[i++], 0, src + done, n);
		done += n;
	}
}

/*
 * Start a checked request in slot @req; @data is its inline payload
 * (copied here).  Any context (receive callback or io_work), never
 * sleeps.
 */
static void rcblk_srv_begin(struct rcblk_srv_queue *q, struct rdmachan *ch,
			    struct rcblk_srv_req *req,
			    const struct rcblk_io_req *io, const void *data)
{
	req->io = *io;
	req->status = RCBLK_S_OK;
	req->push_err = false;
	atomic_set(&req->holds, 1);	/* the reply's post */
	rcblk_srv_count(q->exp, RCBLK_C_INFLIGHT, 1);
	if (io->op == RCBLK_OP_WRITE && io->data == RCBLK_DATA_INLINE)
		rcblk_srv_copy_inline(req, data);
	if (io->op != RCBLK_OP_WRITE || io->data != RCBLK_DATA_REMOTE) {
		rcblk_srv_to_work(req, RCBLK_ST_SUBMIT);
		return;
	}
	req->pull_next = 0;
	req->pulls = 0;
	req->pull_seq = 0;
	req->pull_err = false;
	req->pull_busy = false;
	if (rcblk_srv_pull(q, ch, req) == -EAGAIN)
		rcblk_srv_pull_retry(q, req);
}

/*
 * Give a checked request a slot and start it, or park it.  @p: the
 * request comes from the parked list (NULL: fresh, from a message, whose
 * caller releases the message after this returns: everything needed is
 * copied).  A parked request holds no message, so no credit: a client
 * whose requests wait still gets its credits back, and with them room
 * for the credit returns that let the replies go.  The request joins
 * the parked list under the same hold of the queue lock that found no
 * free slot (io_work frees slots and unparks under it).  Parked
 * requests are at most the queue depth; beyond: RCBLK_S_RESOURCE.
 */
static void rcblk_srv_dispatch(struct rcblk_srv_queue *q, struct rdmachan *ch,
			       const struct rcblk_io_req *io, const void *data,
			       struct rcblk_srv_parked *p, u64 t_ns)
{
	bool from_park = p;
	struct rcblk_srv_req *req;
	unsigned long flags;
	u32 extra;

again:
	spin_lock_irqsave(&q->lock, flags);
	if (test_bit(RCBLK_Q_DEAD, &q->flags)) {
		/* closing: the channel goes, nobody waits for the answer */
		spin_unlock_irqrestore(&q->lock, flags);
		kfree(p);
		return;
	}
	req = NULL;
	if (from_park || list_empty(&q->parked))
		req = list_first_entry_or_null(&q->free, struct rcblk_srv_req,
					       node);
	if (!req && !p) {
		bool full = q->nr_parked >= q->depth;

		spin_unlock_irqrestore(&q->lock, flags);
		extra = io->data == RCBLK_DATA_INLINE ? io->len : 0;
		p = full ? NULL : kmalloc(sizeof(*p) + extra, GFP_ATOMIC);
		if (!p) {
			rcblk_srv_count(q->exp, RCBLK_C_ERRORS, 1);
			pr_info_ratelimited("%s: request tag %u refused with RESOURCE: %s\n",
					    q->exp->name, io->tag,
					    full ? "queue-depth requests wait for a slot" :
						   "no memory to hold it");
			rcblk_srv_reject(q, ch, io, RCBLK_S_RESOURCE);
			return;
		}
		p->io = *io;
		p->t_ns = t_ns;
		memcpy(p->data, data, extra);
		io = &p->io;
		data = p->data;
		goto again;
	}
	if (req) {
		list_del_init(&req->node);
		req->stage = RCBLK_ST_SUBMIT;
		req->t_ns = t_ns;
		/* its RDMA READ may start after this: see rcblk_srv_unreg() */
		req->rdma = io->op == RCBLK_OP_WRITE &&
			    io->data == RCBLK_DATA_REMOTE;
	} else {
		/* no free slot: wait for one */
		if (from_park)
			list_add(&p->node, &q->parked);
		else
			list_add_tail(&p->node, &q->parked);
		q->nr_parked++;
	}
	spin_unlock_irqrestore(&q->lock, flags);
	if (req) {
		rcblk_srv_begin(q, ch, req, io, data);
		kfree(p);
	}
}

/* An IO message on a live queue (receive callback) */
static void rcblk_srv_handle(struct rcblk_srv_queue *q, struct rdmachan *ch,
			     struct rdmachan_msg *msg)
{
	u64 t_ns = q->exp->hist[0] ? ktime_get_ns() : 0;
	struct rcblk_io_req io;
	u8 status;

	if (msg->len < sizeof(struct rcblk_wire_io) || msg->has_imm ||
	    msg->rdma_imm) {
		u32 len = msg->len;

		rdmachan_msg_release(ch, msg);
		pr_warn_ratelimited("queue %p: a message that is no request (%u bytes): closing the queue\n",
				    q, len);
		rcblk_srv_queue_close(q);
		return;
	}
	status = rcblk_io_check(&q->lim, msg->data, msg->len, &io);
	if (status == RCBLK_S_OK && READ_ONCE(q->exp->gone))
		status = RCBLK_S_GONE;
	trace_rcblk_srv_arrive(q->exp->name, io.tag, io.op, io.sector, io.len,
			       status);
	if (status != RCBLK_S_OK) {
		rdmachan_msg_release(ch, msg);
		if (status == RCBLK_S_GONE) {
			rcblk_srv_count(q->exp, RCBLK_C_ERRORS, 1);
		} else {
			rcblk_srv_count(q->exp, RCBLK_C_REJECTED, 1);
			pr_info_ratelimited("%s: refused request tag %u op %u sector %llu len %u: status %u\n",
					    q->exp->name, io.tag, io.op,
					    io.sector, io.len, status);
		}
		rcblk_srv_reject(q, ch, &io, status);
		return;
	}

	rcblk_srv_dispatch(q, ch, &io, msg->data + sizeof(struct rcblk_wire_io),
			   NULL, t_ns);
	rdmachan_msg_release(ch, msg);
}

static void rcblk_srv_recv(struct rdmachan *ch, struct rdmachan_msg *msg)
{
	struct rcblk_srv_queue *q = rdmachan_priv(ch);
	unsigned long flags;

	/* pairs with open_work's barrier: limits, slots, free list seen */
	if (test_bit_acquire(RCBLK_Q_LIVE, &q->flags)) {
		rcblk_srv_handle(q, ch, msg);
		return;
	}
	/* the first message must be OPEN; nothing may follow before OPEN_RSP */
	spin_lock_irqsave(&q->lock, flags);
	if (!test_bit(RCBLK_Q_DEAD, &q->flags) &&
	    !test_and_set_bit(RCBLK_Q_OPENING, &q->flags)) {
		q->ch = ch;
		q->open_msg = msg;
		queue_work(rcblk_srv_ctl_wq, &q->open_work);
		msg = NULL;
	}
	spin_unlock_irqrestore(&q->lock, flags);
	if (msg) {
		rdmachan_msg_release(ch, msg);
		pr_warn_ratelimited("queue %p: a message before the OPEN was answered: closing the queue\n",
				    q);
		rcblk_srv_queue_close(q);
	}
}

static void rcblk_srv_state_change(struct rdmachan *ch,
				   enum rdmachan_state state, int err)
{
	struct rcblk_srv_queue *q = rdmachan_priv(ch);

	/* may come before rdmachan_accept() returned: the close needs it */
	WRITE_ONCE(q->ch, ch);
	pr_debug("queue %p: channel %s (%d): closing the queue\n", q,
		 state == RDMACHAN_FAILED ? "failed" : "disconnected", err);
	rcblk_srv_queue_close(q);
}

static void rcblk_srv_writable(struct rdmachan *ch)
{
	rcblk_srv_io_kick(rdmachan_priv(ch));
}

/* The callbacks of every accepted channel */
const struct rdmachan_ops rcblk_srv_chan_ops = {
	.recv		= rcblk_srv_recv,
	.state_change	= rcblk_srv_state_change,
	.writable	= rcblk_srv_writable,
};

/*
 * Return @req's slot to the free list, uncounted (a DEAD queue's io_work
 * frees slots so).  Any context.  Return: requests are parked waiting
 * for a slot.
 */
static bool rcblk_srv_free_slot(struct rcblk_srv_queue *q,
				struct rcblk_srv_req *req)
{
	unsigned long flags;
	bool parked;

	spin_lock_irqsave(&q->lock, flags);
	req->stage = RCBLK_ST_FREE;
	list_add_tail(&req->node, &q->free);
	parked = q->nr_parked;
	spin_unlock_irqrestore(&q->lock, flags);
	rcblk_srv_count(q->exp, RCBLK_C_INFLIGHT, -1);
	return parked;
}

/*
 * Count @req and free its slot.  Any context: io_work after the reply's
 * post, or a pushed READ's WRITE completion, which @kick-s io_work when
 * requests are parked waiting for the slot (io_work itself unparks after
 * each run).
 */
static void rcblk_srv_done(struct rcblk_srv_queue *q,
			   struct rcblk_srv_req *req, bool kick)
{
	if (req->push_err)
		req->status = RCBLK_S_REMOTE;
	rcblk_srv_account(q->exp, req);
	if (rcblk_srv_free_slot(q, req) && kick)
		rcblk_srv_io_kick(q);
}

/* A request's reply is posted: its latency, from its arrival */
static void rcblk_srv_hist(struct rcblk_srv_queue *q, struct rcblk_srv_req *req)
{
	if (req->t_ns)
		rdmachan_hist_add(q->exp->hist[rcblk_hist_class(req->io.op)],
				  ktime_get_ns() - req->t_ns);
}

/**
 * rcblk_srv_replied() - @req's reply is posted (or its channel failed):
 *	trace and time it, and free the slot unless its RDMA WRITE still
 *	holds it
 * @q: the queue
 * @req: the request
 *
 * Context: io_work (rcblk_srv_step(), rcblk_srv_batch_send()).
 */
void rcblk_srv_replied(struct rcblk_srv_queue *q, struct rcblk_srv_req *req)
{
	trace_rcblk_srv_reply(q->exp->name, req->io.tag, req->io.op,
			      req->io.sector, req->io.len, req->status);
	rcblk_srv_hist(q, req);
	if (atomic_dec_and_test(&req->holds))
		rcblk_srv_done(q, req, false);
}

/*
 * Run one slot of io_work's list on a live queue.  Return: false when
 * the channel had no room (the caller puts the slot on the retry list).
 */
static bool rcblk_srv_step(struct rcblk_srv_queue *q, struct rdmachan *ch,
			   struct rcblk_srv_req *req)
{
	bool imm;
	int ret;

	switch (req->stage) {
	case RCBLK_ST_SUBMIT:
		rcblk_srv_submit(q, req);
		return true;
	case RCBLK_ST_PULL:
		if (rcblk_srv_pull(q, ch, req) == -EAGAIN)
			break;
		return true;
	case RCBLK_ST_PUSH:
		/* the reply rides the WRITE: its completion alone frees */
		imm = rcblk_srv_read_imm(q, ch, req);
		if (!imm)
			atomic_inc(&req->holds);	/* the WRITE's */
		ret = rcblk_srv_rdma(q, ch, req, imm ? RDMACHAN_OP_WRITE_IMM :
						       RDMACHAN_OP_WRITE);
		if (ret && !imm)
			atomic_dec(&req->holds);	/* not posted */
		if (ret == -EAGAIN)
			break;
		if (ret) {
			req->status = ret == -ENOMEM ? RCBLK_S_RESOURCE :
						       RCBLK_S_REMOTE;
			rcblk_srv_to_work(req, RCBLK_ST_REPLY);
			return true;
		}
		if (imm) {	/* the WRITE_WITH_IMM is the reply */
			rcblk_srv_hist(q, req);
			return true;
		}
		/* the reply goes right behind the data (see the top) */
		req->stage = RCBLK_ST_REPLY;
		fallthrough;
	case RCBLK_ST_REPLY:
		ret = rcblk_srv_send_reply(ch, req->io.tag, req->status,
					   req->io.data == RCBLK_DATA_REMOTE,
					   req->io.rkey);
		if (ret == -EAGAIN)
			break;
		/* another error: the channel failed and its close follows */
		rcblk_srv_replied(q, req);
		return true;
	default:
		WARN_ON_ONCE(1);
		return true;
	}
	return false;
}

/* Start parked requests while slots are free */
static void rcblk_srv_unpark(struct rcblk_srv_queue *q, struct rdmachan *ch)
{
	struct rcblk_srv_parked *p;

	for (;;) {
		spin_lock_irq(&q->lock);
		p = NULL;
		if (!list_empty(&q->free))
			p = list_first_entry_or_null(&q->parked,
						     struct rcblk_srv_parked,
						     node);
		if (p) {
			list_del(&p->node);
			q->nr_parked--;
		}
		spin_unlock_irq(&q->lock);
		if (!p)
			return;
		rcblk_srv_dispatch(q, ch, &p->io, p->data, p, p->t_ns);
	}
}

/* Submit @req's bio (io_work); return whether the submission slept */
static bool rcblk_srv_submit_slept(struct rcblk_srv_queue *q,
				   struct rcblk_srv_req *req)
{
	unsigned long nvcsw = current->nvcsw;	/* voluntary switches */

	rcblk_srv_submit(q, req);
	return current->nvcsw != nvcsw;
}

/*
 * Run what @todo holds, in order: posts (RDMA, replies) with bottom halves
 * off, bio submissions with them on; the replies that may share a
 * message gathered into one until the next submission or the end
 * (blk_srv_reply.c).  Once a submission has slept (for a
 * tag of a backing device with fewer than the queue's slots: *@slow set),
 * the further ones go to @subs instead, for io_work to take one at a time
 * after the posts.  On a DEAD queue only free the slots.  Return: @room,
 * false once the channel had none.
 */
static bool rcblk_srv_run(struct rcblk_srv_queue *q, struct list_head *todo,
			  struct list_head *subs, bool dead, bool room,
			  bool *slow)
{
	struct rcblk_srv_batch b = { .reqs = LIST_HEAD_INIT(b.reqs) };
	struct rcblk_srv_req *req, *tmp;
	bool bh = false;

	list_for_each_entry_safe(req, tmp, todo, node) {
		list_del_init(&req->node);
		if (dead) {
			rcblk_srv_free_slot(q, req);
			continue;
		}
		if (req->stage == RCBLK_ST_SUBMIT) {
			if (*slow) {
				list_add_tail(&req->node, subs);
				continue;
			}
			/* no reply waits behind a submission */
			if (b.n && !rcblk_srv_batch_send(q, q->ch, &b))
				room = false;
			if (bh) {
				local_bh_enable();
				bh = false;
			}
			*slow = rcblk_srv_submit_slept(q, req);
			continue;
		}
		if (!room) {
			/* keep the order of what waits for room */
			spin_lock_irq(&q->lock);
			list_add_tail(&req->node, &q->retry);
			spin_unlock_irq(&q->lock);
			continue;
		}
		/*
		 * The posts go out with bottom halves off, so that the softirq
		 * work they raise (the transport's, then the completions) runs
		 * once after a batch of them, not after each one.
		 */
		if (!bh) {
			local_bh_disable();
			bh = true;
		}
		if (rcblk_srv_batch_add(q, q->ch, &b, req)) {
			if (b.n == q->batch_cap &&
			    !rcblk_srv_batch_send(q, q->ch, &b))
				room = false;
			continue;
		}
		if (!rcblk_srv_step(q, q->ch, req)) {
			/* no room for the batch either: it waits first */
			spin_lock_irq(&q->lock);
			list_splice_tail_init(&b.reqs, &q->retry);
			b.n = 0;
			list_add_tail(&req->node, &q->retry);
			spin_unlock_irq(&q->lock);
			room = false;
		}
	}
	if (b.n && !rcblk_srv_batch_send(q, q->ch, &b))
		room = false;
	if (bh)
		local_bh_enable();
	return room;
}

/*
 * One pass of a queue's process-context work: submit bios, start RDMA,
 * send replies, retry what found no room, start parked requests; on a
 * DEAD queue only free slots.
 *
 * A bio's submission may sleep (a backing device with fewer tags than
 * the queue has slots).  Once one has, the run takes the submissions
 * left one at a time, each after posting what reached the list in the
 * meantime (the ends of the bios that freed those tags), so that no
 * reply waits behind submissions; until then it keeps its list's order,
 * which batches the posts best.  The run's bios go out under one plug, as
 * nvmet's do: the backing device gets them at the run's end, or before
 * the run sleeps, or every BLK_MAX_REQUEST_COUNT of them.
 *
 * Process context (rcblk_srv_io_run()).
 */
static void rcblk_srv_io_pass(struct rcblk_srv_queue *q)
{
	struct rcblk_srv_req *req, *tmp;
	bool dead, room = true, slow = false;
	struct blk_plug plug;
	LIST_HEAD(todo);
	LIST_HEAD(subs);

	spin_lock_irq(&q->lock);
	dead = test_bit(RCBLK_Q_DEAD, &q->flags);
	list_splice_init(&q->retry, &todo);
	list_splice_tail_init(&q->work_list, &todo);
	if (dead)
		list_splice_tail_init(&q->pull_wait, &todo);
	spin_unlock_irq(&q->lock);

	/* the run's submissions reach the backing device as one batch */
	blk_start_plug(&plug);
	for (;;) {
		room = rcblk_srv_run(q, &todo, &subs, dead, room, &slow);
		req = list_first_entry_or_null(&subs, struct rcblk_srv_req,
					       node);
		if (!req || dead)
			break;
		list_del_init(&req->node);
		slow = rcblk_srv_submit_slept(q, req);
		cond_resched();
		spin_lock_irq(&q->lock);
		dead = test_bit(RCBLK_Q_DEAD, &q->flags);
		list_splice_tail_init(&q->work_list, &todo);
		spin_unlock_irq(&q->lock);
		/* the device kept up again: the rest in order */
		if (!slow)
			list_splice_tail_init(&subs, &todo);
	}
	blk_finish_plug(&plug);
	if (dead) {
		list_for_each_entry_safe(req, tmp, &subs, node) {
			list_del_init(&req->node);
			rcblk_srv_free_slot(q, req);
		}
		return;
	}
	if (room)
		room = rcblk_srv_send_rejects(q, q->ch);
	if (room)
		rcblk_srv_unpark(q, q->ch);
}

/*
 * The passes of either work item, one at a time: a kick while a run is
 * under way only sets RCBLK_Q_IO_AGAIN (rcblk_srv_io_kick()), and the run
 * goes round until a pass starts with nothing new.  What a kick brings is
 * on a list before its bit is set, and a pass clears the bit before it
 * takes the lists.
 */
static void rcblk_srv_io_run(struct rcblk_srv_queue *q)
{
	if (test_and_set_bit(RCBLK_Q_IO_RUN, &q->flags))
		return;		/* the run under way goes round again */
	for (;;) {
		clear_bit(RCBLK_Q_IO_AGAIN, &q->flags);
		/* the clear before the pass takes the lists */
		smp_mb__after_atomic();
		rcblk_srv_io_pass(q);
		clear_bit(RCBLK_Q_IO_RUN, &q->flags);
		/* pairs with the barrier in rcblk_srv_io_kick() */
		smp_mb__after_atomic();
		if (!test_bit(RCBLK_Q_IO_AGAIN, &q->flags) ||
		    test_and_set_bit(RCBLK_Q_IO_RUN, &q->flags))
			return;
		cond_resched();
	}
}

/**
 * rcblk_srv_io_work() - a queue's I/O work, woken at high priority
 * @work: &rcblk_srv_queue.io_work
 *
 * Context: process context (rcblk_srv_wq); one run at a time per queue,
 * with rcblk_srv_io_yield_work().
 */
void rcblk_srv_io_work(struct work_struct *work)
{
	rcblk_srv_io_run(container_of(work, struct rcblk_srv_queue, io_work));
}

/**
 * rcblk_srv_io_yield_work() - a queue's I/O work, woken from a user
 *	task's softirq work (rcblk_srv_io_kick())
 * @work: &rcblk_srv_queue.io_yield_work
 *
 * Context: process context (rcblk_srv_yield_wq); one run at a time per
 * queue, with rcblk_srv_io_work().
 */
void rcblk_srv_io_yield_work(struct work_struct *work)
{
	rcblk_srv_io_run(container_of(work, struct rcblk_srv_queue,
				      io_yield_work));
}

/**
 * rcblk_srv_io_flush() - wait for the queue's I/O work
 * @q: the queue
 * @cancel: cancel what is queued rather than let it run
 *
 * Whichever of the two items runs the passes, the run ends before this
 * returns; a kick after it queues a new one (the close's second flush
 * waits for those of the channel's close).
 *
 * Context: process context, not the I/O work itself.
 */
void rcblk_srv_io_flush(struct rcblk_srv_queue *q, bool cancel)
{
	if (cancel) {
		cancel_work_sync(&q->io_yield_work);
		cancel_work_sync(&q->io_work);
	} else {
		flush_work(&q->io_yield_work);
		flush_work(&q->io_work);
	}
}

/**
 * rcblk_srv_drain() - let go of the messages a closing queue holds
 * @q: the queue, DEAD, io_work and open_work flushed, the channel not
 *	yet closed
 *
 * Parked requests' messages are released (they must be before the
 * channel's close) and pending refusals dropped: the channel closes.
 *
 * Context: process context.
 */
void rcblk_srv_drain(struct rcblk_srv_queue *q)
{
	struct rcblk_srv_parked *p, *pt;
	struct rcblk_srv_reject *r, *rt;
	LIST_HEAD(parked);
	LIST_HEAD(rejects);

	spin_lock_irq(&q->lock);
	list_splice_init(&q->parked, &parked);
	q->nr_parked = 0;
	list_splice_init(&q->rejects, &rejects);
	q->nr_rejects = 0;
	spin_unlock_irq(&q->lock);
	list_for_each_entry_safe(p, pt, &parked, node)
		kfree(p);
	list_for_each_entry_safe(r, rt, &rejects, node)
		kfree(r);
}

/**
 * rcblk_srv_unreg() - deregister the slots no RDMA runs on
 * @q: the queue, DEAD, its work items flushed, the channel not yet closed
 *
 * Nothing starts an RDMA on a DEAD queue (the receive callback takes no
 * slot, io_work makes no channel call), so a slot without one in flight
 * now never gets one: its registration can go before the close.  Those
 * with one in flight are left to rdmachan_close(), which ends the
 * transfer first and then releases them.
 *
 * Context: process context, sleeps.
 */
void rcblk_srv_unreg(struct rcblk_srv_queue *q)
{
	struct rdmachan_mr *mr;
	u32 i;

	if (!q->slots)
		return;
	for (i = 0; i < q->depth; i++) {
		struct rcblk_srv_req *req = &q->slots[i];

		spin_lock_irq(&q->lock);
		mr = READ_ONCE(req->rdma) ? NULL : req->mr;
		if (mr)
			req->mr = NULL;
		spin_unlock_irq(&q->lock);
		if (mr)
			rdmachan_mr_dereg(mr);
	}
}
