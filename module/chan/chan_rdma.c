// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan: one-sided operations - RDMA WRITE (with immediate), READ,
 * atomics - and the posting of every one-sided work request
 *
 * A request is a chain of work requests posted at once.  It takes send
 * queue room from the channel's RDMACHAN_RDMA_SLOTS (and, for each
 * WRITE_WITH_IMM, a message credit: it consumes one of the peer's receive
 * buffers), is posted under the channel lock, and ends with the
 * completion of its last work request, which is always signalled: RC
 * completes in order, so that one retires every unsignalled one before
 * it, and a failure completes with an error even when unsignalled (the
 * ones after it are flushed).
 *
 * The waiter and the posted chain each hold a reference, so a waiter
 * killed by a signal leaves the request to the completion, which then
 * frees it and drops its registrations.
 *
 * A posted request stays on ch->rdma.reqs until it ends.  Teardown, once
 * the QP is drained and destroyed and the CQ freed (no completion can
 * come any more), ends whatever is still listed there as cancelled
 * (rdmachan_rdma_end_orphans()): a chain cut short by a failed post, or a
 * work request whose flush the provider never delivered (siw, after a
 * remote access error, has been seen to leave one).  Nobody waits for a
 * completion that cannot come, and every registration a request held is
 * let go before teardown releases the registrations.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/sched/signal.h>
#include <linux/slab.h>

#include "bounds.h"
#include "rdmachan-pri.h"
#include "device.h"

/**
 * struct rdmachan_rdma_wr - one work request of a request
 * @cqe: its completion entry
 * @req: the request
 * @wr: the work request, of the kind of its opcode
 * @sge: its gather/scatter list
 * @mr: registrations it holds (rdmachan_mr_put() when the request ends)
 * @nr_mr: entries of @mr
 * @pmr: pool registrations among its segments (not held: their user
 *	keeps them until the request ended); their fast registration goes
 *	in front of the request when not posted yet
 * @nr_pmr: entries of @pmr
 * @inline_buf: an INLINE write's data, gathered here
 * @status: 0, or the errno of its completion
 * @wc_status: the verbs status of its completion
 * @completed: a completion came for it
 */
struct rdmachan_rdma_wr {
	struct ib_cqe		cqe;
	struct rdmachan_rdma_req *req;
	union {
		struct ib_send_wr	send;
		struct ib_rdma_wr	rdma;
		struct ib_atomic_wr	atomic;
		struct ib_reg_wr	reg;
	} wr;
	struct ib_sge		sge[RDMACHAN_MAX_SGE];
	struct rdmachan_mr	*mr[RDMACHAN_MAX_SGE];
	u32			nr_mr;
	struct rdmachan_mr	*pmr[RDMACHAN_MAX_SGE];
	u32			nr_pmr;
	void			*inline_buf;
	int			status;
	u32			wc_status;
	bool			completed;
};

/**
 * struct rdmachan_rdma_req - a chain of one-sided work requests
 * @ch: the channel
 * @done: completed by the last work request's completion
 * @ref: the waiter's and the posted chain's
 * @nr: work requests
 * @posted: work requests that reached the send queue
 * @credits: message credits taken (WRITE_WITH_IMM)
 * @ops: rdmachan_rdma_submit(): the operations, told their outcome at
 *	the end
 * @end: rdmachan_rdma_submit(): called once at the end
 * @ctx: for @end
 * @node: entry in ch->rdma.reqs from its post until it ends
 * @posted_at: jiffies of its post
 * @w: the work requests
 */
struct rdmachan_rdma_req {
	struct rdmachan		*ch;
	struct list_head	node;
	unsigned long		posted_at;
	struct completion	done;
	refcount_t		ref;
	u32			nr;
	u32			posted;
	u32			credits;
	struct rdmachan_op	*ops;
	rdmachan_rdma_end_t	end;
	void			*ctx;
	struct rdmachan_rdma_wr	w[];
};

/**
 * rdmachan_wc_errno() - the errno of a work completion status
 * @status: the verbs status
 *
 * Return: 0 for success; -EACCES for protection and access errors (bad
 * rkey, missing rights, out of bounds), -ECANCELED for flushed work,
 * -ETIMEDOUT for retries exhausted, -EREMOTEIO for other remote errors,
 * -EIO otherwise.
 */
int rdmachan_wc_errno(enum ib_wc_status status)
{
	switch (status) {
	case IB_WC_SUCCESS:
		return 0;
	case IB_WC_LOC_PROT_ERR:
	case IB_WC_LOC_ACCESS_ERR:
	case IB_WC_REM_ACCESS_ERR:
	case IB_WC_MW_BIND_ERR:
		return -EACCES;
	case IB_WC_LOC_LEN_ERR:
		return -EMSGSIZE;
	case IB_WC_WR_FLUSH_ERR:
		return -ECANCELED;
	case IB_WC_RETRY_EXC_ERR:
	case IB_WC_RNR_RETRY_EXC_ERR:
	case IB_WC_RESP_TIMEOUT_ERR:
		return -ETIMEDOUT;
	case IB_WC_REM_INV_REQ_ERR:
	case IB_WC_REM_OP_ERR:
	case IB_WC_REM_ABORT_ERR:
	case IB_WC_REM_INV_RD_REQ_ERR:
	case IB_WC_BAD_RESP_ERR:
		return -EREMOTEIO;
	default:
		return -EIO;
	}
}

static void rdmachan_rdma_req_free(struct rdmachan_rdma_req *req)
{
	u32 i, j;

	for (i = 0; i < req->nr; i++) {
		for (j = 0; j < req->w[i].nr_mr; j++)
			rdmachan_mr_put(req->w[i].mr[j]);
		kfree(req->w[i].inline_buf);
	}
	rdmachan_put(req->ch);
	kvfree(req);
}

/**
 * rdmachan_rdma_req_put() - drop a reference to a request
 * @req: the request
 *
 * Context: any.
 */
void rdmachan_rdma_req_put(struct rdmachan_rdma_req *req)
{
	if (refcount_dec_and_test(&req->ref))
		rdmachan_rdma_req_free(req);
}

/*
 * The outcome of each operation of an ended request: its status, verbs
 * status and an atomic's old value.  Return: the first error, or 0.
 */
static int rdmachan_rdma_results(struct rdmachan_rdma_req *req,
				 struct rdmachan_op *ops, u32 count)
{
	int first = 0;
	u32 i;

	for (i = 0; i < count; i++) {
		ops[i].status = rdmachan_rdma_req_status(req, i);
		ops[i].wc_status = req->w[i].completed ? req->w[i].wc_status :
				   ops[i].status ? IB_WC_WR_FLUSH_ERR :
				   IB_WC_SUCCESS;
		if (!ops[i].status && (ops[i].opcode == RDMACHAN_OP_FETCH_ADD ||
				       ops[i].opcode == RDMACHAN_OP_CMP_SWAP))
			rdmachan_mr_read(ops[i].segs[0].mr, ops[i].segs[0].offset,
					 &ops[i].result, sizeof(u64));
		if (ops[i].status && !first)
			first = ops[i].status;
	}
	return first;
}

/* Nothing of the call ran: no operation may look done. */
static void rdmachan_rdma_refused(struct rdmachan_op *ops, u32 count)
{
	u32 i;

	for (i = 0; i < count; i++) {
		if (!ops[i].status)
			ops[i].status = -ECANCELED;
		ops[i].wc_status = IB_WC_WR_FLUSH_ERR;
	}
}

/* rdmachan_rdma_submit(): tell the submitter, once */
static void rdmachan_rdma_end(struct rdmachan_rdma_req *req)
{
	int err = rdmachan_rdma_results(req, req->ops, req->nr);

	req->end(req->ops, req->nr, err, req->ctx);
}

/*
 * A request ended, taken off ch->rdma.reqs by the caller: give back its
 * send queue slots, tell the submitter and the waiter, drop the chain's
 * reference.
 */
static void rdmachan_rdma_req_ended(struct rdmachan_rdma_req *req)
{
	struct rdmachan *ch = req->ch;
	unsigned long flags;
	bool writable = false;

	spin_lock_irqsave(&ch->lock, flags);
	ch->rdma.slots -= req->posted;
	if (req->posted)
		writable = rdmachan_writable_due_locked(ch);
	spin_unlock_irqrestore(&ch->lock, flags);
	wake_up_all(&ch->wq);
	if (writable)
		rdmachan_call_writable(ch);
	if (req->end)
		rdmachan_rdma_end(req);
	complete(&req->done);
	rdmachan_rdma_req_put(req);
}

static void rdmachan_rdma_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct rdmachan_rdma_wr *w = container_of(wc->wr_cqe,
						  struct rdmachan_rdma_wr, cqe);
	struct rdmachan_rdma_req *req = w->req;
	struct rdmachan *ch = req->ch;
	unsigned long flags;

	w->completed = true;
	w->wc_status = wc->status;
	w->status = rdmachan_wc_errno(wc->status);
	if (wc->status != IB_WC_SUCCESS && wc->status != IB_WC_WR_FLUSH_ERR) {
		/* the QP is in the error state now: the channel is lost */
		atomic64_inc(&ch->stats[RDMACHAN_STAT_errors]);
		rdmachan_info_rl(ch,
				 "one-sided operation (opcode %d) failed: %s (%d)\n",
				 w->wr.send.opcode,
				 ib_wc_status_msg(wc->status), wc->status);
		rdmachan_fail_io(ch, -ECONNRESET);
	}
	if (w != &req->w[req->nr - 1])
		return;
	spin_lock_irqsave(&ch->lock, flags);
	list_del_init(&req->node);
	spin_unlock_irqrestore(&ch->lock, flags);
	rdmachan_rdma_req_ended(req);
}

/* rdmachan_rdma_req_alloc() with allocation flags @gfp */
static struct rdmachan_rdma_req *rdmachan_rdma_req_alloc_gfp(struct rdmachan *ch,
							     u32 nr, gfp_t gfp)
{
	struct rdmachan_rdma_req *req;
	u32 i;

	/* kvzalloc() falls back to kmalloc() for what may not sleep */
	req = kvzalloc(struct_size(req, w, nr), gfp);
	if (!req)
		return NULL;
	rdmachan_get(ch);
	req->ch = ch;
	req->nr = nr;
	INIT_LIST_HEAD(&req->node);
	init_completion(&req->done);
	refcount_set(&req->ref, 1);
	for (i = 0; i < nr; i++) {
		struct rdmachan_rdma_wr *w = &req->w[i];

		w->req = req;
		w->cqe.done = rdmachan_rdma_done;
		w->wr.send.wr_cqe = &w->cqe;
		w->wr.send.sg_list = w->sge;
		if (i + 1 < nr)
			w->wr.send.next = &req->w[i + 1].wr.send;
	}
	req->w[nr - 1].wr.send.send_flags |= IB_SEND_SIGNALED;
	return req;
}

/**
 * rdmachan_rdma_req_alloc() - a request of @nr work requests
 * @ch: the channel
 * @nr: 1 to RDMACHAN_MAX_RDMA_OPS
 *
 * Each work request's wr_cqe is set; the caller fills in the rest,
 * through rdmachan_rdma_req_wr().
 *
 * Return: the request, or NULL without memory.
 */
struct rdmachan_rdma_req *rdmachan_rdma_req_alloc(struct rdmachan *ch, u32 nr)
{
	return rdmachan_rdma_req_alloc_gfp(ch, nr, GFP_KERNEL);
}

/** rdmachan_rdma_req_wr() - work request @i of @req, to be filled in */
struct ib_send_wr *rdmachan_rdma_req_wr(struct rdmachan_rdma_req *req, u32 i)
{
	return &req->w[i].wr.send;
}

/**
 * rdmachan_rdma_req_status() - how work request @i ended
 * @req: a request that ended
 * @i: which
 *
 * Return: 0, its completion's errno, or -ECANCELED when it never ran
 * (not posted, or flushed without a completion of its own).
 */
int rdmachan_rdma_req_status(struct rdmachan_rdma_req *req, u32 i)
{
	u32 k;

	if (req->w[i].completed)
		return req->w[i].status;
	if (i >= req->posted)
		return -ECANCELED;
	/* unsignalled: it ran if the chain ended and nothing before failed */
	if (!req->w[req->nr - 1].completed)
		return -ECANCELED;
	for (k = 0; k < i; k++)
		if (req->w[k].status)
			return -ECANCELED;
	return 0;
}

/*
 * Pool registrations among the request's segments: each must be mapped
 * (its fast registration then goes in front of the request, once) or
 * already posted.  The send queue has room for those registrations
 * beside the one-sided room (chan_post.c).  Caller holds ch->lock.
 * Return: 0 and the chain's first work request in *@first, or -EINVAL
 * (a registration given back, or in a send not posted yet) with nothing
 * changed.
 */
static int rdmachan_rdma_pool_chain_locked(struct rdmachan_rdma_req *req,
					   struct ib_send_wr **first)
{
	struct rdmachan_chain c = {};
	/* right behind a LOCAL_INV the REG_MRs need no fence of their own */
	bool fence = !req->ch->send.inv_tail;
	u32 i, j;

	for (i = 0; i < req->nr; i++)
		for (j = 0; j < req->w[i].nr_pmr; j++)
			if (req->w[i].pmr[j]->preg.state != RDMACHAN_PR_MAPPED &&
			    req->w[i].pmr[j]->preg.state != RDMACHAN_PR_POSTED)
				return -EINVAL;
	for (i = 0; i < req->nr; i++) {
		for (j = 0; j < req->w[i].nr_pmr; j++) {
			struct rdmachan_mr *mr = req->w[i].pmr[j];

			if (mr->preg.state == RDMACHAN_PR_MAPPED)
				rdmachan_post_reg_locked(mr, &fence, &c);
		}
	}
	*first = &req->w[0].wr.send;
	if (c.last) {
		c.last->next = *first;
		*first = c.first;
	}
	return 0;
}

/**
 * rdmachan_rdma_room() - may a one-sided request go now?
 * @ch: the channel, its lock held
 * @nr: the request's work requests (send queue room)
 * @credits: the message credits it takes (WRITE_WITH_IMM)
 *
 * Context: ch->lock held.
 * Return: whether there is room and there are credits for it.
 */
bool rdmachan_rdma_room(struct rdmachan *ch, u32 nr, u32 credits)
{
	return ch->rdma.slots + nr <= RDMACHAN_RDMA_SLOTS &&
	       ch->credits.avail >= credits;
}

static bool rdmachan_rdma_can_post(struct rdmachan *ch, u32 nr, u32 credits)
{
	unsigned long flags;
	bool ret;

	spin_lock_irqsave(&ch->lock, flags);
	ret = rdmachan_send_state_err(ch) || rdmachan_rdma_room(ch, nr, credits);
	spin_unlock_irqrestore(&ch->lock, flags);
	return ret;
}

/*
 * Wait for room (unless @nowait: -EAGAIN, and ->writable runs once room is
 * back) and post.  Return: 0, or errno with nothing posted.
 */
static int rdmachan_rdma_post(struct rdmachan_rdma_req *req, bool nowait)
{
	struct rdmachan *ch = req->ch;
	const struct ib_send_wr *bad = NULL;
	struct ib_send_wr *first;
	unsigned long flags;
	int ret, post_err = 0;
	bool bh;
	u32 i;

	for (;;) {
		bh = rdmachan_bh_off();
		spin_lock_irqsave(&ch->lock, flags);
		ret = rdmachan_send_state_err(ch);
		if (ret || rdmachan_rdma_room(ch, req->nr, req->credits))
			break;
		if (nowait) {
			rdmachan_want_rdma_locked(ch, req->nr, req->credits);
			spin_unlock_irqrestore(&ch->lock, flags);
			rdmachan_bh_on(bh);
			return -EAGAIN;
		}
		spin_unlock_irqrestore(&ch->lock, flags);
		rdmachan_bh_on(bh);
		if (ch->opts.poll_mode == RDMACHAN_POLL_DIRECT) {
			if (signal_pending(current))
				return -ERESTARTSYS;
			if (!rdmachan_poll(ch, -1))
				rdmachan_poll_relax();
			continue;
		}
		if (ch->opts.poll_mode == RDMACHAN_POLL_SOLICITED) {
			/* credits land on a receive queue that raises no event */
			if (signal_pending(current))
				return -ERESTARTSYS;
			if (!rdmachan_poll(ch, -1))
				schedule_timeout_interruptible(1);
			continue;
		}
		ret = wait_event_interruptible(ch->wq,
					       rdmachan_rdma_can_post(ch, req->nr,
								      req->credits));
		if (ret)
			return ret;
	}
	if (!ret)
		ret = rdmachan_rdma_pool_chain_locked(req, &first);
	if (ret)
		goto unlock;
	rdmachan_credits_spend(&ch->credits, req->credits, req->credits);
	ret = rdmachan_post_send_locked(ch, first, &bad);
	post_err = ret;
	if (ret) {
		/* what was posted before @bad completes; the rest never runs */
		for (i = 0; i < req->nr && &req->w[i].wr.send != bad; i++)
			;
		/* a fast registration in front failed: none of the request */
		if (i == req->nr && bad)
			i = 0;
		req->posted = i;
		rdmachan_credits_refund(&ch->credits, req->credits);
	} else {
		req->posted = req->nr;
	}
	ch->rdma.slots += req->posted;
	if (req->posted) {
		req->posted_at = jiffies;
		list_add_tail(&req->node, &ch->rdma.reqs);
	}
unlock:
	spin_unlock_irqrestore(&ch->lock, flags);
	rdmachan_bh_on(bh);
	if (post_err) {
		/*
		 * Every operation was checked against the device's limits,
		 * so the provider refusing one is a bug, and what it left
		 * behind is not to be trusted (siw keeps the refused slot
		 * busy: its send queue is full from then on).  A chain cut
		 * short never completes either.  Fail the channel.
		 */
		rdmachan_err_rl(ch,
				"one-sided post failed after %u of %u: %d\n",
				req->posted, req->nr, ret);
		rdmachan_fail_io(ch, -ECONNRESET);
	}
	return ret;
}

/**
 * rdmachan_rdma_end_orphans() - teardown: end the requests still posted
 * @ch: the channel; its QP destroyed and its CQs freed, so that no
 *	completion handler runs any more
 *
 * Each work request without a completion of its own ends -ECANCELED
 * (flushed), as if the provider had delivered its flush.
 *
 * Context: process context.
 */
void rdmachan_rdma_end_orphans(struct rdmachan *ch)
{
	struct rdmachan_rdma_req *req;
	unsigned long flags;
	u32 n = 0;

	for (;;) {
		spin_lock_irqsave(&ch->lock, flags);
		req = list_first_entry_or_null(&ch->rdma.reqs,
					       struct rdmachan_rdma_req, node);
		if (req)
			list_del_init(&req->node);
		spin_unlock_irqrestore(&ch->lock, flags);
		if (!req)
			break;
		n++;
		rdmachan_rdma_req_ended(req);
	}
	if (n)
		rdmachan_info_rl(ch,
				 "%u one-sided request(s) ended without a completion: cancelled\n",
				 n);
}

/**
 * rdmachan_rdma_check_stuck() - fail a channel whose oldest one-sided
 *	request has run RDMACHAN_REQ_STUCK
 * @ch: the channel
 *
 * RC ends every work request within its retry time, with a completion or
 * an error: a request that old means the transport is stuck, and so is
 * whoever waits for it (a caller, a deregistration, a registration).  The
 * channel fails with -ETIMEDOUT; its teardown ends the request.  Called
 * by the keepalive tick (every channel, every second or more often) and
 * by the waits for a request.
 *
 * Context: any.
 */
void rdmachan_rdma_check_stuck(struct rdmachan *ch)
{
	struct rdmachan_rdma_req *req;
	unsigned long flags;
	bool stuck = false;

	spin_lock_irqsave(&ch->lock, flags);
	req = list_first_entry_or_null(&ch->rdma.reqs, struct rdmachan_rdma_req,
				       node);
	if (req && time_after(jiffies, req->posted_at + RDMACHAN_REQ_STUCK) &&
	    ch->state == RDMACHAN_CONNECTED)
		stuck = true;
	spin_unlock_irqrestore(&ch->lock, flags);
	if (!stuck)
		return;
	rdmachan_fail_stuck(ch,
			    "a one-sided request has not ended %u s after its post",
			    RDMACHAN_REQ_STUCK / HZ);
}

/**
 * rdmachan_rdma_post_wait() - post a request and wait for its end
 * @req: a request, filled in
 * @killable: a fatal signal ends the wait (the request then ends on its
 *	own); registrations pass false, as their MR must not go while the
 *	work request is posted
 *
 * The end comes within the transport's retry time, or from the channel's
 * teardown, which the failure of the transport starts (a chain cut short
 * by a failed post fails the channel at once).  Should neither come
 * within RDMACHAN_REQ_STUCK, the channel is failed
 * (rdmachan_rdma_check_stuck()), and its teardown (with its bounded
 * drain) ends the request: the wait is bounded either way.
 *
 * Return: 0 when it ran (each work request's own status then says how
 * it ended), or an errno with nothing posted, or -EINTR when killed
 * (the request then ends on its own).
 */
int rdmachan_rdma_post_wait(struct rdmachan_rdma_req *req, bool killable)
{
	struct rdmachan *ch = req->ch;
	unsigned long next;
	long left;
	int ret;

	refcount_inc(&req->ref);	/* the chain's */
	ret = rdmachan_rdma_post(req, false);
	if (ret && !req->posted) {
		refcount_dec(&req->ref);
		return ret;
	}
	/* cut short: the channel failed, its teardown ends the chain */
	if (ch->opts.poll_mode == RDMACHAN_POLL_DIRECT) {
		next = jiffies + HZ;
		while (!completion_done(&req->done)) {
			if (killable && fatal_signal_pending(current))
				return -EINTR;
			if (!rdmachan_poll(ch, -1))
				rdmachan_poll_relax();
			if (time_after(jiffies, next)) {
				rdmachan_rdma_check_stuck(ch);
				next = jiffies + HZ;
			}
		}
		return 0;
	}
	for (;;) {
		left = killable ?
		       wait_for_completion_killable_timeout(&req->done, HZ) :
		       wait_for_completion_timeout(&req->done, HZ);
		if (left > 0)
			return 0;
		if (left < 0)
			return -EINTR;
		rdmachan_rdma_check_stuck(ch);
	}
}

/* Check a local segment and fill its ib_sge. */
static int rdmachan_rdma_seg(struct rdmachan *ch, struct rdmachan_rdma_wr *w,
			     const struct rdmachan_seg *seg, u32 need,
			     struct ib_sge *sge)
{
	struct rdmachan_mr *mr = seg->mr;

	if (!mr || mr->ch != ch)
		return -EINVAL;
	if (seg->offset > mr->length || seg->length > mr->length - seg->offset)
		return -EINVAL;
	if ((mr->access & need) != need)
		return -EACCES;
	if (mr->preg.pool) {
		/* its state is checked, and its registration chained, at post */
		w->pmr[w->nr_pmr++] = mr;
		sge->addr = mr->ibmr->iova + seg->offset;
		sge->length = seg->length;
		sge->lkey = mr->ibmr->lkey;
		return 0;
	}
	/* held, its MR stays until the request ends */
	if (!rdmachan_mr_hold(mr))
		return -ECONNRESET;
	w->mr[w->nr_mr++] = mr;
	sge->addr = mr->ibmr->iova + seg->offset;
	sge->length = seg->length;
	sge->lkey = mr->ibmr->lkey;
	return 0;
}

/* INLINE: the provider copies from kernel addresses, so gather here */
static int rdmachan_rdma_inline(struct rdmachan *ch, struct rdmachan_rdma_wr *w,
				const struct rdmachan_op *op, gfp_t gfp)
{
	u32 i, len;
	int ret;

	ret = rdmachan_segs_len(op->segs, op->nr_segs, ch->res.max_inline,
				&len);
	if (ret)
		return ret;
	w->inline_buf = kmalloc(max(len, 1U), gfp);
	if (!w->inline_buf)
		return -ENOMEM;
	len = 0;
	for (i = 0; i < op->nr_segs; i++) {
		ret = rdmachan_mr_read(op->segs[i].mr, op->segs[i].offset,
				       w->inline_buf + len,
				       op->segs[i].length);
		if (ret)
			return ret;
		len += op->segs[i].length;
	}
	w->sge[0].addr = (uintptr_t)w->inline_buf;
	w->sge[0].length = len;
	w->sge[0].lkey = 0;
	w->wr.send.num_sge = len ? 1 : 0;
	return 0;
}

/* What the local segments of @op must allow */
static u32 rdmachan_rdma_local_need(struct rdmachan *ch, u32 opcode)
{
	switch (opcode) {
	case RDMACHAN_OP_READ:
		/* iWARP: a READ's sink is written by the peer's response */
		return RDMACHAN_ACCESS_LOCAL_WRITE |
		       (ch->res.iwarp ? RDMACHAN_ACCESS_REMOTE_WRITE : 0);
	case RDMACHAN_OP_FETCH_ADD:
	case RDMACHAN_OP_CMP_SWAP:
		return RDMACHAN_ACCESS_LOCAL_WRITE;
	default:
		return 0;
	}
}

/* Check @op against the channel and device, and build its work request. */
static int rdmachan_rdma_build(struct rdmachan *ch, struct rdmachan_rdma_wr *w,
			       const struct rdmachan_op *op, gfp_t gfp)
{
	struct ib_send_wr *wr = &w->wr.send;
	bool atomic = op->opcode == RDMACHAN_OP_FETCH_ADD ||
		      op->opcode == RDMACHAN_OP_CMP_SWAP;
	u32 need = rdmachan_rdma_local_need(ch, op->opcode);
	u32 i;
	int ret;

	if (op->opcode > RDMACHAN_OP_CMP_SWAP ||
	    op->flags & ~(RDMACHAN_OPF_SIGNALED | RDMACHAN_OPF_SOLICITED |
			  RDMACHAN_OPF_INLINE | RDMACHAN_OPF_FENCE))
		return -EINVAL;
	if (op->nr_segs > ch->res.max_send_sge ||
	    (op->opcode == RDMACHAN_OP_READ &&
	     op->nr_segs > ch->res.max_sge_rd) ||
	    (!op->nr_segs && op->opcode != RDMACHAN_OP_WRITE &&
	     op->opcode != RDMACHAN_OP_WRITE_IMM))
		return -EINVAL;
	if ((op->flags & RDMACHAN_OPF_INLINE) &&
	    op->opcode != RDMACHAN_OP_WRITE && op->opcode != RDMACHAN_OP_WRITE_IMM)
		return -EINVAL;
	if ((op->flags & RDMACHAN_OPF_SOLICITED) &&
	    op->opcode != RDMACHAN_OP_WRITE_IMM)
		return -EINVAL;
	if (atomic) {
		if (!ch->res.has_atomics)
			return -EOPNOTSUPP;
		if (op->nr_segs != 1 || op->segs[0].length != sizeof(u64) ||
		    !IS_ALIGNED(op->remote_addr, sizeof(u64)))
			return -EINVAL;
	}
	if (op->opcode == RDMACHAN_OP_WRITE_IMM && ch->res.iwarp)
		return -EOPNOTSUPP;

	for (i = 0; i < op->nr_segs; i++) {
		ret = rdmachan_rdma_seg(ch, w, &op->segs[i], need, &w->sge[i]);
		if (ret)
			return ret;
		if (atomic && !IS_ALIGNED(w->sge[i].addr, sizeof(u64)))
			return -EINVAL;
	}
	wr->num_sge = op->nr_segs;
	if (op->flags & RDMACHAN_OPF_INLINE) {
		ret = rdmachan_rdma_inline(ch, w, op, gfp);
		if (ret)
			return ret;
		wr->send_flags |= IB_SEND_INLINE;
	}
	if (op->flags & RDMACHAN_OPF_SIGNALED)
		wr->send_flags |= IB_SEND_SIGNALED;
	if (op->flags & RDMACHAN_OPF_SOLICITED)
		wr->send_flags |= IB_SEND_SOLICITED;
	if (op->flags & RDMACHAN_OPF_FENCE)
		wr->send_flags |= IB_SEND_FENCE;

	switch (op->opcode) {
	case RDMACHAN_OP_WRITE:
		wr->opcode = IB_WR_RDMA_WRITE;
		break;
	case RDMACHAN_OP_WRITE_IMM:
		wr->opcode = IB_WR_RDMA_WRITE_WITH_IMM;
		wr->ex.imm_data = cpu_to_be32(op->imm);
		break;
	case RDMACHAN_OP_READ:
		wr->opcode = IB_WR_RDMA_READ;
		break;
	case RDMACHAN_OP_FETCH_ADD:
		wr->opcode = IB_WR_ATOMIC_FETCH_AND_ADD;
		w->wr.atomic.compare_add = op->compare_add;
		break;
	default:
		wr->opcode = IB_WR_ATOMIC_CMP_AND_SWP;
		w->wr.atomic.compare_add = op->compare_add;
		w->wr.atomic.swap = op->swap;
		break;
	}
	if (atomic) {
		w->wr.atomic.remote_addr = op->remote_addr;
		w->wr.atomic.rkey = op->rkey;
	} else {
		w->wr.rdma.remote_addr = op->remote_addr;
		w->wr.rdma.rkey = op->rkey;
	}
	return 0;
}

/*
 * Check every operation and build the request of @count operations.
 * Return: 0 and *@reqp, or the errno of the first bad operation (in its
 * status, the others -ECANCELED), nothing posted.
 */
static int rdmachan_rdma_prepare(struct rdmachan *ch, struct rdmachan_op *ops,
				 unsigned int count, gfp_t gfp,
				 struct rdmachan_rdma_req **reqp)
{
	struct rdmachan_rdma_req *req;
	u32 i, credits = 0;
	int ret;

	if (!count || count > RDMACHAN_MAX_RDMA_OPS)
		return -EINVAL;
	for (i = 0; i < count; i++) {
		ops[i].status = 0;
		ops[i].wc_status = IB_WC_SUCCESS;
	}
	req = rdmachan_rdma_req_alloc_gfp(ch, count, gfp);
	if (!req) {
		rdmachan_rdma_refused(ops, count);
		return -ENOMEM;
	}
	/*
	 * No mr.mutex: each registration is held (rdmachan_mr_hold()) while
	 * it is looked at and until the request ends, and a thread holding
	 * one must not wait for mr.mutex, which a deregistration holds
	 * while it waits for the holds to go.
	 */
	ret = rdmachan_mr_usable(ch);
	for (i = 0; i < count && !ret; i++) {
		ret = rdmachan_rdma_build(ch, &req->w[i], &ops[i], gfp);
		if (ret)
			ops[i].status = ret;
		credits += ops[i].opcode == RDMACHAN_OP_WRITE_IMM;
	}
	if (ret) {
		rdmachan_rdma_refused(ops, count);
		rdmachan_rdma_req_put(req);
		return ret;
	}
	req->credits = credits;
	*reqp = req;
	return 0;
}

/**
 * rdmachan_rdma() - run one-sided operations
 * @ch: a connected channel
 * @ops: the operations; each one's @status and @wc_status are set, and
 *	an atomic's @result (the old value, also stored in its segment)
 * @count: 1 to RDMACHAN_MAX_RDMA_OPS
 *
 * Every operation is checked first; then all are posted as one chain
 * (the last one always signalled), and the call waits for them.  A call
 * refused at its checks (or before anything was posted) runs nothing:
 * the refused operation's @status is its errno, every other's
 * -ECANCELED.  A
 * WRITE_WITH_IMM takes a message credit (the peer receives it), waiting
 * for one like rdmachan_send().  A remote access error breaks the
 * connection (RC semantics): the channel fails after reporting it.
 *
 * A WRITE's completion means the peer has it on InfiniBand and RoCE; on
 * iWARP only that the transport took it: there, the peer sees the data
 * once it receives a message sent after the WRITE (or after a later READ
 * completed).  A READ scatters into at most the device's max_sge_rd
 * segments (1 on iWARP).
 *
 * Context: process context, sleeps.
 * Return: 0 when every operation succeeded, else the errno of the first
 * that failed: -EINVAL (a bad operation: nothing was posted), -EACCES
 * (local rights, or the peer refused: bad rkey, rights, bounds),
 * -EOPNOTSUPP (atomics or WRITE_WITH_IMM the transport lacks),
 * -ECANCELED, -ETIMEDOUT, -EREMOTEIO, -ENOTCONN, -ECONNRESET,
 * -ERESTARTSYS (a signal while waiting for room: nothing posted),
 * -EINTR (killed while they run).
 */
int rdmachan_rdma(struct rdmachan *ch, struct rdmachan_op *ops,
		  unsigned int count)
{
	struct rdmachan_rdma_req *req;
	int ret;

	ret = rdmachan_rdma_prepare(ch, ops, count, GFP_KERNEL, &req);
	if (ret)
		return ret;
	ret = rdmachan_rdma_post_wait(req, true);
	if (ret && ret != -EINTR)
		rdmachan_rdma_refused(ops, count);
	else if (!ret)
		ret = rdmachan_rdma_results(req, ops, count);
	rdmachan_rdma_req_put(req);
	return ret;
}
EXPORT_SYMBOL_GPL(rdmachan_rdma);

/* rdmachan_rdma_submit() and rdmachan_rdma_start() */
static int rdmachan_rdma_go(struct rdmachan *ch, struct rdmachan_op *ops,
			    unsigned int count, rdmachan_rdma_end_t end,
			    void *ctx, bool nowait)
{
	struct rdmachan_rdma_req *req;
	int ret;

	ret = rdmachan_rdma_prepare(ch, ops, count,
				    nowait ? GFP_ATOMIC : GFP_KERNEL, &req);
	if (ret)
		return ret;
	req->ops = ops;
	req->end = end;
	req->ctx = ctx;
	refcount_inc(&req->ref);	/* the chain's */
	ret = rdmachan_rdma_post(req, nowait);
	if (ret && req->posted) {
		/* cut short: the channel failed, its teardown ends the chain */
		ret = 0;
	} else if (ret) {
		refcount_dec(&req->ref);
		rdmachan_rdma_refused(ops, count);
	}
	rdmachan_rdma_req_put(req);
	return ret;
}

/**
 * rdmachan_rdma_submit() - start one-sided operations, learn their end later
 * @ch: a connected channel
 * @ops: the operations, as for rdmachan_rdma(); they must stay valid
 *	until @end has run, which fills in their outcome
 * @count: 1 to RDMACHAN_MAX_RDMA_OPS
 * @end: called once when every operation has ended, with @ops, @count,
 *	the first error (0 when all succeeded) and @ctx
 * @ctx: for @end
 *
 * The asynchronous rdmachan_rdma(): checks and posts as it does (waiting
 * for send queue room and WRITE_WITH_IMM credits), then returns.  @end
 * runs in the channel's completion context (softirq, a workqueue, or
 * the thread polling a RDMACHAN_POLL_DIRECT channel; the teardown's
 * process context for what the transport never completed) and must not
 * sleep; it may run before this returns.  A channel's teardown flushes
 * what is still posted, so @end runs for every call that returned 0, at
 * the latest when the channel is torn down.  Several calls may be in
 * flight at once; each one's operations run in order, and calls in the
 * order submitted.
 *
 * Context: process context, sleeps.
 * Return: 0 (@end will run), or the errno of rdmachan_rdma() for a call
 * refused with nothing posted (@end will not run; each operation's
 * @status says why, -ECANCELED for those that were fine).
 */
int rdmachan_rdma_submit(struct rdmachan *ch, struct rdmachan_op *ops,
			 unsigned int count, rdmachan_rdma_end_t end,
			 void *ctx)
{
	return rdmachan_rdma_go(ch, ops, count, end, ctx, false);
}
EXPORT_SYMBOL_GPL(rdmachan_rdma_submit);

/**
 * rdmachan_rdma_start() - rdmachan_rdma_submit() that never sleeps
 * @ch: a connected channel
 * @ops: the operations, as for rdmachan_rdma_submit()
 * @count: 1 to RDMACHAN_MAX_RDMA_OPS
 * @end: as for rdmachan_rdma_submit(): runs once in the channel's
 *	completion context (or the teardown's), may run before this returns
 * @ctx: for @end
 *
 * Checks and posts as rdmachan_rdma_submit() does, with atomic
 * allocations and no mutex (registrations are taken with
 * rdmachan_mr_hold()), and never waits: when the one-sided send queue
 * room (or a credit for a WRITE_WITH_IMM) is not there it refuses with
 * -EAGAIN, and &rdmachan_ops.writable runs once room is back (or the
 * channel failed).  On a RDMACHAN_POLL_SOLICITED channel credits that
 * arrived wait in the receive queue until it is polled: rdmachan_poll()
 * before retrying.
 *
 * Context: any, hardirq included (a bio's end_io); never sleeps.
 * Return: 0 (@end will run); -EAGAIN (no room: nothing posted, @end will
 * not run, ->writable will); -ENOMEM (atomic allocation failed); or the
 * errno of rdmachan_rdma_submit() for a refused call (@end will not run;
 * each operation's @status says why).
 */
int rdmachan_rdma_start(struct rdmachan *ch, struct rdmachan_op *ops,
			unsigned int count, rdmachan_rdma_end_t end, void *ctx)
{
	return rdmachan_rdma_go(ch, ops, count, end, ctx, true);
}
EXPORT_SYMBOL_GPL(rdmachan_rdma_start);
