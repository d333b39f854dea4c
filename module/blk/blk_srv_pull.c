// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan_blk server: pulling a WRITE's data, in pieces under a window
 *
 * A WRITE whose data stays with the client (RCBLK_DATA_REMOTE) has it
 * read into its slot with RDMA READ.  A queue keeps the bytes of its
 * READs in flight under its pull window (the parameter pull_window_kb,
 * read at each piece), and reads a request's data in pieces of half the
 * window (rcblk_pull_piece()), at most RCBLK_SRV_PULL_OPS of one request
 * at a time: with the default window of 64 KiB, two READs of 32 KiB are
 * in flight on the queue, of one request or of two.  A piece that does
 * not fit waits, its request on the queue's window list in order, until
 * a READ in flight ends; one piece always goes (rcblk_window_fits()).
 *
 * Why (Documentation/blk-server.rst, "Pulls"): soft-RoCE's responder
 * sends a READ's whole response at once, unpaced; where the link drops
 * some of a burst, the reader goes back to the lost packet, or waits out
 * the retransmission timer for one lost at the tail.  Bursts of 32
 * packets, two at a time, lose none on the two-VM fixture's link; on
 * lossless hardware the window costs its bandwidth-delay product.
 * pull_window_kb=0 reads each request's data in one READ, as nvmet-rdma
 * does.  The server's pushes (RDMA WRITE) are not windowed: soft-RoCE's
 * requester paces them.
 *
 * State: a request's pull state and the queue's window are under the
 * queue's lock.  One caller at a time posts a request's pieces
 * (&rcblk_srv_req.pull_busy): a piece's end that finds another posting
 * leaves the next ones to it, which takes again after each post, so a
 * failed post can be taken back.  A piece is taken after checking that
 * the queue is not DEAD, with &rcblk_srv_req.rdma set (rcblk_srv_unreg()
 * leaves its registration to the channel's close), and posted after.
 * Whoever finds nothing of the request in flight and nothing more to
 * start moves it on: to its bio, to an error reply, or to the window
 * list.
 */
#include "blk_srv.h"
#include "blk_trace.h"

/*
 * Take @req's next piece under @q's lock: its bytes, offset and op.
 * Return: the piece's bytes, or 0 when none may start now (all posted,
 * RCBLK_SRV_PULL_OPS in flight, a piece failed, the queue DEAD, or the
 * window full: then with nothing of @req in flight it goes on the window
 * list).
 */
static u32 rcblk_srv_pull_take(struct rcblk_srv_queue *q,
			       struct rcblk_srv_req *req, u32 *off,
			       struct rdmachan_op **op)
{
	u32 window = rcblk_param(pull_window_kb) * 1024;
	u32 left = req->io.len - req->pull_next;
	u32 piece = rcblk_pull_piece(left, window);

	lockdep_assert_held(&q->lock);
	if (!left || req->pulls == RCBLK_SRV_PULL_OPS || req->pull_err ||
	    test_bit(RCBLK_Q_DEAD, &q->flags))
		return 0;
	if (!rcblk_window_fits(q->pull_bytes, piece, window)) {
		if (!req->pulls) {
			req->stage = RCBLK_ST_PULL;
			list_add_tail(&req->node, &q->pull_wait);
		}
		return 0;
	}
	q->pull_bytes += piece;
	*off = req->pull_next;
	*op = &req->op[req->pull_seq++ % RCBLK_SRV_PULL_OPS];
	req->pull_next += piece;
	req->pulls++;
	WRITE_ONCE(req->rdma, true);
	return piece;
}

/*
 * Give @len bytes of @q's window back (a piece ended or was not posted),
 * under its lock.  Return: requests waited on the window list (now moved
 * to io_work's list, ahead of what it has not taken yet; the caller
 * kicks it once the lock is dropped).
 */
static bool rcblk_srv_pull_give(struct rcblk_srv_queue *q, u32 len)
{
	lockdep_assert_held(&q->lock);
	q->pull_bytes -= len;
	if (list_empty(&q->pull_wait))
		return false;
	list_splice_init(&q->pull_wait, &q->work_list);
	return true;
}

static void rcblk_srv_pull_end(struct rdmachan_op *ops, unsigned int count,
			       int err, void *ctx);

/* Post the piece of @req at @off, @len bytes, with @op */
static int rcblk_srv_pull_post(struct rcblk_srv_queue *q, struct rdmachan *ch,
			       struct rcblk_srv_req *req,
			       struct rdmachan_op *op, u32 off, u32 len)
{
	struct rdmachan_seg *seg = &req->seg[op - req->op];

	seg->mr = req->mr;
	seg->offset = off;
	seg->length = len;
	memset(op, 0, sizeof(*op));
	op->opcode = RDMACHAN_OP_READ;
	op->flags = RDMACHAN_OPF_SIGNALED;
	op->segs = seg;
	op->nr_segs = 1;
	op->remote_addr = req->io.addr + off;
	op->rkey = req->io.rkey;
	/* before the post: its end may run before the post returns */
	trace_rcblk_srv_rdma(q->exp->name, req->io.tag, req->io.op,
			     req->io.sector + (off >> SECTOR_SHIFT), len,
			     req->status);
	return rdmachan_rdma_start(ch, op, 1, rcblk_srv_pull_end, req);
}

/*
 * A post of @len bytes at @op failed with @err: take the piece back
 * (@req's poster, under @q's lock).  Return: the window's waiters went
 * to io_work's list.
 */
static bool rcblk_srv_pull_untake(struct rcblk_srv_queue *q,
				  struct rcblk_srv_req *req, u32 len, int err)
{
	lockdep_assert_held(&q->lock);
	req->pull_seq--;
	req->pull_next -= len;
	req->pulls--;
	if (err != -EAGAIN) {
		req->pull_err = true;
		if (req->status == RCBLK_S_OK)
			req->status = err == -ENOMEM ? RCBLK_S_RESOURCE :
						       RCBLK_S_REMOTE;
	}
	return rcblk_srv_pull_give(q, len);
}

/**
 * rcblk_srv_pull() - start the pieces of @req's RDMA READ that may start,
 *	or move @req on once none is in flight and none may start
 * @q: the queue
 * @ch: its channel
 * @req: a WRITE of remote data at stage PULL: just begun, from a list of
 *	io_work's, or at the end of one of its pieces
 *
 * With nothing of @req in flight and nothing left to read, @req goes to
 * io_work to be submitted; after a failed piece, a failed post or on a
 * DEAD queue, to be answered REMOTE (or RESOURCE: no memory to post).
 *
 * Context: any (the receive callback, io_work, a piece's end); never
 * sleeps.
 * Return: 0; -EAGAIN when a post found no room with nothing of @req in
 * flight (the caller puts it on the retry list, run on writable).
 */
int rcblk_srv_pull(struct rcblk_srv_queue *q, struct rdmachan *ch,
		   struct rcblk_srv_req *req)
{
	struct rdmachan_op *op;
	unsigned long flags;
	bool kick = false;
	u8 next = 0;
	u32 off, len;
	int ret = 0;

	spin_lock_irqsave(&q->lock, flags);
	if (req->pull_busy) {
		/* its poster takes again after its post */
		spin_unlock_irqrestore(&q->lock, flags);
		return 0;
	}
	req->pull_busy = true;
	while ((len = rcblk_srv_pull_take(q, req, &off, &op))) {
		spin_unlock_irqrestore(&q->lock, flags);
		ret = rcblk_srv_pull_post(q, ch, req, op, off, len);
		spin_lock_irqsave(&q->lock, flags);
		if (ret) {
			kick = rcblk_srv_pull_untake(q, req, len, ret);
			break;
		}
	}
	if (!req->pulls) {
		WRITE_ONCE(req->rdma, false);
		if (req->pull_err || test_bit(RCBLK_Q_DEAD, &q->flags))
			next = RCBLK_ST_REPLY;
		else if (req->pull_next == req->io.len)
			next = RCBLK_ST_SUBMIT;
		else if (ret != -EAGAIN)
			ret = 0;	/* on the window list */
	} else {
		ret = 0;	/* a piece's end calls again */
	}
	req->pull_busy = false;
	spin_unlock_irqrestore(&q->lock, flags);
	if (kick)
		rcblk_srv_io_kick(q);
	if (!next)
		return ret;
	if (next == RCBLK_ST_REPLY && req->status == RCBLK_S_OK)
		req->status = RCBLK_S_REMOTE;
	rcblk_srv_to_work(req, next);
	return 0;
}

/**
 * rcblk_srv_pull_retry() - put @req, whose pull found no room with
 *	nothing of it in flight, on its queue's retry list
 * @q: the queue
 * @req: the request, at stage PULL
 *
 * Context: any; never sleeps.
 */
void rcblk_srv_pull_retry(struct rcblk_srv_queue *q, struct rcblk_srv_req *req)
{
	unsigned long flags;

	spin_lock_irqsave(&q->lock, flags);
	req->stage = RCBLK_ST_PULL;
	list_add_tail(&req->node, &q->retry);
	spin_unlock_irqrestore(&q->lock, flags);
}

/* A piece's RDMA READ ended (completion context): on with the request */
static void rcblk_srv_pull_end(struct rdmachan_op *ops, unsigned int count,
			       int err, void *ctx)
{
	struct rcblk_srv_req *req = ctx;
	struct rcblk_srv_queue *q = req->q;
	unsigned long flags;
	bool kick;

	spin_lock_irqsave(&q->lock, flags);
	kick = rcblk_srv_pull_give(q, ops->segs->length);
	req->pulls--;
	if (err)
		req->pull_err = true;
	spin_unlock_irqrestore(&q->lock, flags);
	if (kick)
		rcblk_srv_io_kick(q);
	if (rcblk_srv_pull(q, READ_ONCE(q->ch), req) == -EAGAIN)
		rcblk_srv_pull_retry(q, req);
}
