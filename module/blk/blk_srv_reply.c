// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan_blk server: sending replies
 *
 * A reply is a zero-length message whose immediate is
 * rcblk_reply_imm(tag, status), sent with RDMACHAN_SEND_NONBLOCK (and
 * RDMACHAN_SEND_INV of the request's rkey when it had remote data and the
 * channel can).  A refusal at the receive callback is answered at once,
 * or queued (&rcblk_srv_queue.rejects) until io_work finds room.
 *
 * Batches (RCBLK_F_REPLY_BATCH, when the client offered it): the replies
 * one pass of io_work has ready go out as one message, the first in its
 * immediate and the others, in order, in its payload, up to
 * &rcblk_srv_queue.batch_cap of them; a reply that invalidates remotely
 * goes alone, as without batches.  Nothing waits to fill a batch: it
 * holds what was ready together, and goes before the pass submits a bio
 * or ends.  One message then takes one credit, one receive buffer, one
 * completion and one acknowledgment of the client's for them all, where
 * nvmet-rdma sends a response per command: at QD32 the client, whose CPU
 * limits the rate, handles that much less per request.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/slab.h>

#include "blk_srv.h"

/**
 * rcblk_srv_send_reply() - send one reply alone
 * @ch: the queue's channel
 * @tag: the request's tag
 * @status: enum rcblk_status
 * @remote: the request named a remote buffer: invalidate @rkey, where
 *	the channel can
 * @rkey: its rkey
 *
 * Context: any (RDMACHAN_SEND_NONBLOCK).
 * Return: 0, -EAGAIN without room, another error when the channel failed.
 */
int rcblk_srv_send_reply(struct rdmachan *ch, u16 tag, u8 status,
			 bool remote, u32 rkey)
{
	struct rdmachan_send_ext ext = { .inv_rkey = rkey };
	unsigned int flags = RDMACHAN_SEND_IMM | RDMACHAN_SEND_NONBLOCK;

	if (remote && rdmachan_can_send_inv(ch))
		flags |= RDMACHAN_SEND_INV;
	return rdmachan_send_ext(ch, NULL, 0, rcblk_reply_imm(tag, status),
				 flags, &ext);
}

/**
 * rcblk_srv_reject() - answer a request refused at its checks, now or,
 *	without room, later from io_work (&rcblk_srv_queue.rejects)
 * @q: the queue
 * @ch: its channel
 * @io: the request
 * @status: why
 *
 * Once the queue is DEAD nothing is queued: its close drained the list
 * already (rcblk_srv_drain()), and the receive callback runs on until the
 * channel's close, so that an entry added now would never be freed; the
 * client's answer is the channel's end.  Refusals past twice the depth
 * waiting for room close the queue (a hostile client).
 *
 * Context: the receive callback (softirq) or io_work.
 */
void rcblk_srv_reject(struct rcblk_srv_queue *q, struct rdmachan *ch,
		      const struct rcblk_io_req *io, u8 status)
{
	struct rcblk_srv_reject *r;
	unsigned long flags;
	int ret;

	if (test_bit(RCBLK_Q_DEAD, &q->flags))
		return;
	ret = rcblk_srv_send_reply(ch, io->tag, status,
				   io->data == RCBLK_DATA_REMOTE, io->rkey);
	if (ret != -EAGAIN)
		return;
	/* more refusals waiting than requests a client may have: hostile */
	r = READ_ONCE(q->nr_rejects) < 2 * q->depth ?
	    kmalloc(sizeof(*r), GFP_ATOMIC) : NULL;
	if (!r) {
		pr_warn_ratelimited("queue %p: %u refusals wait for room: closing it\n",
				    q, READ_ONCE(q->nr_rejects));
		rcblk_srv_queue_close(q);
		return;
	}
	r->tag = io->tag;
	r->status = status;
	r->remote = io->data == RCBLK_DATA_REMOTE;
	r->rkey = io->rkey;
	spin_lock_irqsave(&q->lock, flags);
	if (test_bit(RCBLK_Q_DEAD, &q->flags)) {
		/* drained meanwhile (DEAD is set under this lock) */
		spin_unlock_irqrestore(&q->lock, flags);
		kfree(r);
		return;
	}
	list_add_tail(&r->node, &q->rejects);
	q->nr_rejects++;
	spin_unlock_irqrestore(&q->lock, flags);
}

/**
 * rcblk_srv_send_rejects() - send the refusals that found no room
 * @q: the queue
 * @ch: its channel
 *
 * Context: io_work.
 * Return: false when there still is none.
 */
bool rcblk_srv_send_rejects(struct rcblk_srv_queue *q, struct rdmachan *ch)
{
	struct rcblk_srv_reject *r;
	int ret;

	for (;;) {
		spin_lock_irq(&q->lock);
		r = list_first_entry_or_null(&q->rejects,
					     struct rcblk_srv_reject, node);
		if (r) {
			list_del(&r->node);
			q->nr_rejects--;
		}
		spin_unlock_irq(&q->lock);
		if (!r)
			return true;
		ret = rcblk_srv_send_reply(ch, r->tag, r->status, r->remote,
					   r->rkey);
		if (ret == -EAGAIN) {
			spin_lock_irq(&q->lock);
			list_add(&r->node, &q->rejects);
			q->nr_rejects++;
			spin_unlock_irq(&q->lock);
			return false;
		}
		kfree(r);
	}
}

/**
 * rcblk_srv_batch_add() - take @req's reply into @b, if it may go in a
 *	batch
 * @q: the queue
 * @ch: its channel
 * @b: the pass's batch
 * @req: a slot of io_work's list
 *
 * Context: io_work, bottom halves off.
 * Return: true when @b took it (the caller sends @b once it holds
 * &rcblk_srv_queue.batch_cap replies, and before it submits or ends).
 */
bool rcblk_srv_batch_add(struct rcblk_srv_queue *q, struct rdmachan *ch,
			 struct rcblk_srv_batch *b, struct rcblk_srv_req *req)
{
	if (req->stage != RCBLK_ST_REPLY || q->batch_cap < 2 ||
	    (req->io.data == RCBLK_DATA_REMOTE && rdmachan_can_send_inv(ch)))
		return false;
	list_add_tail(&req->node, &b->reqs);
	b->n++;
	return true;
}

/**
 * rcblk_srv_batch_send() - send the replies of @b as one message
 * @q: the queue
 * @ch: its channel
 * @b: the batch, not empty; empty again on return
 *
 * Context: io_work, bottom halves off.
 * Return: false when the channel had no room: the replies wait on the
 * retry list, in order.
 */
bool rcblk_srv_batch_send(struct rcblk_srv_queue *q, struct rdmachan *ch,
			  struct rcblk_srv_batch *b)
{
	__be32 more[RCBLK_REPLY_BATCH_MAX - 1];
	struct kvec v = { .iov_base = more };
	struct rcblk_srv_req *req, *tmp, *first;
	unsigned int i = 0;
	int ret;

	first = list_first_entry(&b->reqs, struct rcblk_srv_req, node);
	list_for_each_entry(req, &b->reqs, node)
		if (req != first)
			more[i++] = cpu_to_be32(rcblk_reply_imm(req->io.tag,
								req->status));
	v.iov_len = i * sizeof(more[0]);
	ret = rdmachan_send(ch, &v, i ? 1 : 0,
			    rcblk_reply_imm(first->io.tag, first->status),
			    RDMACHAN_SEND_IMM | RDMACHAN_SEND_NONBLOCK);
	b->n = 0;
	if (ret == -EAGAIN) {
		spin_lock_irq(&q->lock);
		list_splice_tail_init(&b->reqs, &q->retry);
		spin_unlock_irq(&q->lock);
		return false;
	}
	/* another error: the channel failed and its close follows */
	list_for_each_entry_safe(req, tmp, &b->reqs, node) {
		list_del_init(&req->node);
		rcblk_srv_replied(q, req);
	}
	return true;
}
