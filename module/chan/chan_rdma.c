// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan: one-sided operations - RDMA WRITE (with immediate), READ,
 * atomics - and the posting of every one-sided work request
 *
 * A request is a chain of work requests posted at once.  It takes send
 * queue room (&rdmachan_rdma_inflight.room; and, for each WRITE_WITH_IMM,
 * a message credit: it consumes one of the peer's receive buffers), is
 * posted under the channel lock, and ends with the
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

#include "chan_rdma.h"
#include "chan_trace.h"
#include "chan_post.h"
#include "chan_grant.h"
#include "chan_send.h"
#include "device.h"

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
void rdmachan_rdma_refused(struct rdmachan_op *ops, u32 count)
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
	trace_rdmachan_chan_rdma_done(ch->obj.id, READ_ONCE(ch->res.qpn),
				      req->nr, wc->status);
	spin_lock_irqsave(&ch->lock, flags);
	list_del_init(&req->node);
	spin_unlock_irqrestore(&ch->lock, flags);
	rdmachan_rdma_req_ended(req);
}

/* rdmachan_rdma_req_alloc() with allocation flags @gfp */
struct rdmachan_rdma_req *rdmachan_rdma_req_alloc_gfp(struct rdmachan *ch,
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
	return ch->rdma.slots + nr <= ch->rdma.room &&
	       ch->credits.avail >= credits;
}

/*
 * Room, the channel's error, or more credits than @seen where a request
 * waits for more than it holds: it asks again for a grant that did not
 * grow enough (chan_grant.c)
 */
static bool rdmachan_rdma_can_post(struct rdmachan *ch, u32 nr, u32 credits,
				   u32 seen)
{
	unsigned long flags;
	bool ret;

	spin_lock_irqsave(&ch->lock, flags);
	ret = rdmachan_send_state_err(ch) || rdmachan_rdma_room(ch, nr, credits) ||
	      (ch->credits.avail < credits && ch->credits.avail > seen);
	spin_unlock_irqrestore(&ch->lock, flags);
	return ret;
}

/*
 * RDMACHAN_WIRE_F_IMM_CREDIT: each WRITE_WITH_IMM of @req returns a credit
 * owed in its immediate's top bit, while any is owed.  Under ch->lock,
 * right before the post.
 */
static void rdmachan_rdma_imm_credits_locked(struct rdmachan *ch,
					     struct rdmachan_rdma_req *req)
{
	u32 i;

	if (!req->credits ||
	    !(ch->conn.params.features & RDMACHAN_WIRE_F_IMM_CREDIT))
		return;
	for (i = 0; i < req->nr; i++) {
		struct ib_send_wr *wr = &req->w[i].wr.send;

		if (wr->opcode == IB_WR_RDMA_WRITE_WITH_IMM &&
		    rdmachan_credits_take_one(&ch->credits))
			wr->ex.imm_data |= cpu_to_be32(RDMACHAN_IMM_CREDIT);
	}
}

/* The credits of the WRITE_WITH_IMMs that were not posted are owed again */
static void rdmachan_rdma_imm_untake_locked(struct rdmachan *ch,
					    struct rdmachan_rdma_req *req)
{
	u32 i, n = 0;

	for (i = req->posted; i < req->nr; i++) {
		struct ib_send_wr *wr = &req->w[i].wr.send;

		if (wr->opcode == IB_WR_RDMA_WRITE_WITH_IMM &&
		    (wr->ex.imm_data & cpu_to_be32(RDMACHAN_IMM_CREDIT))) {
			wr->ex.imm_data &= ~cpu_to_be32(RDMACHAN_IMM_CREDIT);
			n++;
		}
	}
	rdmachan_credits_untake(&ch->credits, n);
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
	u32 i, seen;
	bool bh;

	for (;;) {
		bh = rdmachan_bh_off();
		spin_lock_irqsave(&ch->lock, flags);
		ret = rdmachan_send_state_err(ch);
		if (ret || rdmachan_rdma_room(ch, req->nr, req->credits))
			break;
		/* more credits than the grant holds: ask for it to grow */
		if (ch->credits.avail < req->credits)
			rdmachan_want_grant_locked(ch);
		seen = ch->credits.avail;
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
		/* not idle while it waits: its credits stay (chan_grant.c) */
		if (req->credits > 1)
			rdmachan_send_waiting(ch, 1);
		ret = wait_event_interruptible(ch->wq,
					       rdmachan_rdma_can_post(ch, req->nr,
								      req->credits,
								      seen));
		if (req->credits > 1)
			rdmachan_send_waiting(ch, -1);
		if (ret)
			return ret;
	}
	if (!ret)
		ret = rdmachan_rdma_pool_chain_locked(req, &first);
	if (ret)
		goto unlock;
	rdmachan_credits_spend(&ch->credits, req->credits, req->credits);
	/* spending credits is use: not idle (chan_grant.c) */
	if (req->credits)
		ch->send.retire_since = jiffies;
	rdmachan_rdma_imm_credits_locked(ch, req);
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
		rdmachan_rdma_imm_untake_locked(ch, req);
	} else {
		req->posted = req->nr;
	}
	ch->rdma.slots += req->posted;
	trace_rdmachan_chan_rdma(ch->obj.id, ch->res.qpn,
				 req->w[0].wr.send.opcode, req->nr, req->posted,
				 post_err);
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
