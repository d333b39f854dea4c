// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan_blk client: moving requests
 *
 * queue_rq turns a request into one message: a header, with the data of
 * a small WRITE behind it (inline), or with the key and address of a
 * one-I/O registration from the queue's pool (remote; the server READs a
 * WRITE's data from it, WRITEs a READ's data into it), or for a READ of
 * a page or less of its tag's staging page (staged: blk_clt_stage.c;
 * copied out once replied).  The server's
 * reply is an empty message whose immediate carries the tag and the
 * status, or for a READ that succeeded the immediate of the RDMA
 * WRITE_WITH_IMM of its data (RCBLK_OPEN_WRITE_IMM: rdmachan's server
 * sends it for a STAGED READ, and for a REMOTE one where it cannot send
 * with invalidate; a registration is then invalidated here).  A reply,
 * the timeout handler and the teardown race to end a request:
 * rcblk_clt_req.state decides (atomic_cmpxchg()), so a request ends once,
 * and a hostile server's replies (a tag never sent, sent twice, a bogus
 * invalidation) are logged and ignored.
 *
 * Reply status to blk_status_t:
 *   OK -> OK; IOERR, INVAL, TOOBIG, GONE, unknown -> IOERR;
 *   RANGE -> TARGET; RO -> MEDIUM (as nvme's READ_ONLY); NOTSUPP ->
 *   NOTSUPP; NOSPC -> NOSPC; REMOTE -> TRANSPORT; RESOURCE -> requeued
 *   after 10 ms, up to 5 times, then RESOURCE.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/blkdev.h>
#include <linux/bvec.h>
#include <linux/slab.h>

#include "blk_clt.h"
#include "blk_trace.h"
#include "compat.h"

#define RCBLK_CLT_RETRIES	5
#define RCBLK_CLT_RETRY_MS	10
#define RCBLK_CLT_MAX_TIMEOUTS	4	/* expiries before the link is recovered */

static struct rcblk_clt_map *rq_map(struct request *rq)
{
	return rq->q->queuedata;
}

static blk_status_t rcblk_clt_status(struct rcblk_clt_map *map, u8 wire)
{
	switch (wire) {
	case RCBLK_S_OK:
		return BLK_STS_OK;
	case RCBLK_S_RANGE:
		return BLK_STS_TARGET;
	case RCBLK_S_RO:
		return BLK_STS_MEDIUM;
	case RCBLK_S_NOTSUPP:
		return BLK_STS_NOTSUPP;
	case RCBLK_S_NOSPC:
		return BLK_STS_NOSPC;
	case RCBLK_S_RESOURCE:
		return BLK_STS_RESOURCE;
	case RCBLK_S_REMOTE:
		return BLK_STS_TRANSPORT;
	case RCBLK_S_IOERR:
	case RCBLK_S_INVAL:
	case RCBLK_S_TOOBIG:
	case RCBLK_S_GONE:
		return BLK_STS_IOERR;
	default:
		pr_warn_ratelimited("rcblk%d: unknown reply status %u\n",
				    map->index, wire);
		return BLK_STS_IOERR;
	}
}

/* Count and end a request whose registration is back (or gone) */
static void rcblk_clt_end(struct request *rq, blk_status_t sts)
{
	struct rcblk_clt_map *map = rq_map(rq);
	struct rcblk_clt_req *req = blk_mq_rq_to_pdu(rq);
	struct rcblk_clt_stats *st = &map->st;
	u32 len = be32_to_cpu(req->hdr.len);

	atomic_dec(&st->inflight);
	trace_rcblk_clt_done(map->index, rq->tag, req->hdr.op,
			     be64_to_cpu(req->hdr.sector), len,
			     blk_status_to_errno(sts), RCBLK_TR_ENDED);
	if (req->t_ns)
		rdmachan_hist_add(map->hist[rcblk_hist_class(req->hdr.op)],
				  ktime_get_ns() - req->t_ns);
	if (sts != BLK_STS_OK) {
		atomic64_inc(&st->errors);
	} else {
		switch (req->hdr.op) {
		case RCBLK_OP_READ:
			atomic64_inc(&st->reads);
			atomic64_add(len, &st->read_bytes);
			if (req->hdr.data == RCBLK_DATA_STAGED)
				atomic64_inc(&st->staged_reads);
			break;
		case RCBLK_OP_WRITE:
			atomic64_inc(&st->writes);
			atomic64_add(len, &st->write_bytes);
			if (req->hdr.data == RCBLK_DATA_INLINE)
				atomic64_inc(&st->inline_writes);
			break;
		case RCBLK_OP_FLUSH:
			atomic64_inc(&st->flushes);
			break;
		case RCBLK_OP_DISCARD:
			atomic64_inc(&st->discards);
			break;
		case RCBLK_OP_WRITE_ZEROES:
			atomic64_inc(&st->write_zeroes);
			break;
		}
		if (be16_to_cpu(req->hdr.flags) & RCBLK_F_FUA)
			atomic64_inc(&st->fua);
		if (be16_to_cpu(req->hdr.flags) & RCBLK_F_PREFLUSH)
			atomic64_inc(&st->flushes);
	}
	blk_mq_end_request(rq, sts);
}

/* blk_mq_ops.complete: the reply's status, after blk_mq_complete_request() */
static void rcblk_clt_complete_rq(struct request *rq)
{
	struct rcblk_clt_map *map = rq_map(rq);
	struct rcblk_clt_req *req = blk_mq_rq_to_pdu(rq);

	switch (req->wire) {
	case RCBLK_S_OK:
		break;
	case RCBLK_S_INVAL:
	case RCBLK_S_RANGE:
	case RCBLK_S_RO:
	case RCBLK_S_NOTSUPP:
	case RCBLK_S_TOOBIG:
		atomic64_inc(&map->st.rejected);
		pr_warn_ratelimited("rcblk%d: server refused op %u sector %llu len %u: status %u\n",
				    map->index, req->hdr.op,
				    be64_to_cpu(req->hdr.sector),
				    be32_to_cpu(req->hdr.len), req->wire);
		break;
	case RCBLK_S_RESOURCE:
		if (req->retries < RCBLK_CLT_RETRIES &&
		    !test_bit(RCBLK_M_DEAD, &map->flags)) {
			req->retries++;
			atomic_dec(&map->st.inflight);
			trace_rcblk_clt_done(map->index, rq->tag, req->hdr.op,
					     be64_to_cpu(req->hdr.sector),
					     be32_to_cpu(req->hdr.len), 0,
					     RCBLK_TR_RESUBMIT);
			blk_mq_requeue_request(rq, false);
			blk_mq_delay_kick_requeue_list(rq->q,
						       RCBLK_CLT_RETRY_MS);
			return;
		}
		break;
	}
	rcblk_clt_end(rq, rcblk_clt_status(map, req->wire));
}

/* The request's registration is back: queues starved of it may run */
static void rcblk_clt_pool_back(struct rcblk_clt_queue *q)
{
	struct blk_mq_hw_ctx *hctx = READ_ONCE(q->hctx);

	if (test_and_clear_bit(RCBLK_Q_STARVED, &q->flags) && hctx)
		blk_mq_run_hw_queue(hctx, true);
}

/**
 * rcblk_clt_reply_done() - end a replied request (state RCBLK_RQ_REPLY)
 *	once nothing of the device reaches its pages
 * @rq: the request
 *
 * A polled request ends in task context (its bio goes back to a per-CPU
 * cache that interrupts may not touch): from interrupt context it is
 * left to its poller (rcblk_clt_poll_defer()).
 *
 * Context: any but under a channel's lock.
 */
void rcblk_clt_reply_done(struct request *rq)
{
	struct rcblk_clt_req *req = blk_mq_rq_to_pdu(rq);
	struct rcblk_clt_queue *q = rq->mq_hctx->driver_data;

	if (rcblk_clt_poll_defer(rq))
		return;
	if (atomic_cmpxchg(&req->state, RCBLK_RQ_REPLY, RCBLK_RQ_DONE) !=
	    RCBLK_RQ_REPLY)
		return;		/* the teardown ended it */
	req->mr = NULL;
	rcblk_clt_pool_back(q);
	blk_mq_complete_request(rq);
}

/* rdmachan_mr_done_t of a request's local invalidation */
static void rcblk_clt_inv_done(void *ctx, int err)
{
	struct request *rq = ctx;

	if (err)
		pr_debug("rcblk%d: invalidation of tag %d ended with %d\n",
			 rq_map(rq)->index, rq->tag, err);
	rcblk_clt_reply_done(rq);
}

/* rdmachan_mr_done_t of an undone mapping: nothing waits for it */
static void rcblk_clt_undo_done(void *ctx, int err)
{
	rcblk_clt_pool_back(ctx);
}

static void rcblk_clt_open_rsp(struct rcblk_clt_queue *q,
			       struct rdmachan_msg *msg)
{
	if (q->open_len || completion_done(&q->open_done)) {
		atomic64_inc(&q->map->st.bogus);
		pr_warn_ratelimited("rcblk%d: queue %u: unexpected message of %u bytes from the server\n",
				    q->map->index, q->qid, msg->len);
		return;
	}
	memcpy(&q->rsp, msg->data, min_t(u32, msg->len, sizeof(q->rsp)));
	q->open_len = msg->len ? msg->len : 1;
	complete(&q->open_done);
}

static void rcblk_clt_reply(struct rcblk_clt_queue *q, u32 imm, u32 len,
			    bool write_imm, bool invalidated, u32 inv_rkey)
{
	struct rcblk_clt_map *map = q->map;
	u16 tag = rcblk_reply_tag(imm);
	struct rcblk_clt_req *req;
	struct request *rq;
	bool inv = false;
	int ret;

	if (!test_bit(RCBLK_M_READY, &map->flags) || len)
		goto bogus;
	if (tag == RCBLK_TAG_NOTICE && !write_imm &&
	    rcblk_reply_status(imm) == RCBLK_S_GONE) {
		rcblk_clt_export_gone(map);
		return;
	}
	smp_rmb();	/* the tag set, after RCBLK_M_READY */
	if (tag >= map->tag_set.queue_depth)
		goto bogus;
	rq = blk_mq_tag_to_rq(map->tag_set.tags[q->qid], tag);
	if (!rq)
		goto bogus;
	req = blk_mq_rq_to_pdu(rq);
	/* by RDMA WRITE_WITH_IMM: only a READ's data, only a success */
	if (write_imm && (req->hdr.op != RCBLK_OP_READ ||
			  !rcblk_data_placed(req->hdr.data) ||
			  rcblk_reply_status(imm) != RCBLK_S_OK))
		goto bogus;
	if (atomic_cmpxchg(&req->state, RCBLK_RQ_SENT, RCBLK_RQ_REPLY) !=
	    RCBLK_RQ_SENT)
		goto bogus;
	req->wire = rcblk_reply_status(imm);
	trace_rcblk_clt_reply(map->index, q->qid, tag, req->wire, write_imm,
			      invalidated);
	if (!req->mr) {
		if (invalidated) {
			atomic64_inc(&map->st.bogus);
			pr_warn_ratelimited("rcblk%d: bogus remote invalidation of rkey %#x for tag %u without a registration\n",
					    map->index, inv_rkey, tag);
		}
		/* claimed: its staging page is read once, here */
		if (req->hdr.data == RCBLK_DATA_STAGED &&
		    req->wire == RCBLK_S_OK)
			rcblk_clt_stage_copy(q, rq);
		rcblk_clt_reply_end(rq);
		return;
	}
	if (invalidated) {
		if (inv_rkey == req->rkey) {
			inv = true;
		} else {
			atomic64_inc(&map->st.bogus);
			pr_warn_ratelimited("rcblk%d: bogus remote invalidation: rkey %#x, tag %u has %#x\n",
					    map->index, inv_rkey, tag,
					    req->rkey);
		}
	}
	if (inv)
		atomic64_inc(&map->st.remote_inv);
	ret = rdmachan_mr_pool_put(req->mr, inv, rcblk_clt_inv_done, rq);
	if (ret == -EINPROGRESS) {
		atomic64_inc(&map->st.local_inv);
		return;
	}
	if (ret)
		pr_warn_ratelimited("rcblk%d: putting tag %u's registration: %d\n",
				    map->index, tag, ret);
	rcblk_clt_reply_done(rq);
	return;

bogus:
	atomic64_inc(&map->st.bogus);
	pr_warn_ratelimited("rcblk%d: queue %u: ignored reply %#x (len %u): no such request in flight\n",
			    map->index, q->qid, imm, len);
}

/*
 * rdmachan_ops.recv: softirq.  A reply is the message's immediate, or
 * the immediate of the RDMA WRITE_WITH_IMM of a READ's data (nothing
 * invalidated remotely then: the registration is invalidated here); with
 * RCBLK_F_REPLY_BATCH the payload holds the replies answered with it, in
 * order, a malformed payload voiding the whole message.
 */
static void rcblk_clt_recv(struct rdmachan *ch, struct rdmachan_msg *msg)
{
	struct rcblk_clt_queue *q = rdmachan_priv(ch);
	__be32 more[RCBLK_REPLY_BATCH_MAX - 1];
	bool invalidated = msg->invalidated;
	bool write_imm = msg->rdma_imm;
	u32 inv_rkey = msg->inv_rkey;
	u32 imm = msg->imm;
	u32 len = msg->len;
	int i, n = 0;

	if (!msg->has_imm && !msg->rdma_imm) {
		rcblk_clt_open_rsp(q, msg);
		rdmachan_msg_release(ch, msg);
		return;
	}
	if (len && !write_imm && test_bit(RCBLK_Q_BATCHES, &q->flags)) {
		n = rcblk_reply_batch_more(len);
		if (n > 0) {
			memcpy(more, msg->data, len);
			len = 0;
		}
	}
	rdmachan_msg_release(ch, msg);
	if (n < 0) {
		atomic64_inc(&q->map->st.bogus);
		pr_warn_ratelimited("rcblk%d: queue %u: ignored a batch of replies of %u bytes\n",
				    q->map->index, q->qid, len);
		return;
	}
	rcblk_clt_reply(q, imm, len, write_imm, invalidated, inv_rkey);
	for (i = 0; i < n; i++)
		rcblk_clt_reply(q, be32_to_cpu(more[i]), 0, false, false, 0);
	if (n)
		atomic64_add(n, &q->map->st.batched);
}

/* rdmachan_ops.state_change: process context */
static void rcblk_clt_state_change(struct rdmachan *ch,
				   enum rdmachan_state state, int err)
{
	struct rcblk_clt_queue *q = rdmachan_priv(ch);

	if (!err)
		err = state == RDMACHAN_FAILED ? -EIO : -ECONNRESET;
	q->open_err = err;
	complete(&q->open_done);
	rcblk_clt_fail(q->map, err);
}

/* rdmachan_ops.writable: credits or send queue room came back */
static void rcblk_clt_writable(struct rdmachan *ch)
{
	struct rcblk_clt_queue *q = rdmachan_priv(ch);
	struct blk_mq_hw_ctx *hctx = READ_ONCE(q->hctx);

	if (hctx)
		blk_mq_run_hw_queue(hctx, true);
}

const struct rdmachan_ops rcblk_clt_chan_ops = {
	.recv		= rcblk_clt_recv,
	.state_change	= rcblk_clt_state_change,
	.writable	= rcblk_clt_writable,
};

static u16 rcblk_clt_flags(struct rcblk_clt_map *map, struct request *rq)
{
	static const struct {
		blk_opf_t req;
		u16 wire;
	} map_flags[] = {
		{ REQ_FUA, RCBLK_F_FUA },
		{ REQ_PREFLUSH, RCBLK_F_PREFLUSH },
		{ REQ_NOUNMAP, RCBLK_F_NOUNMAP },
		{ REQ_SYNC, RCBLK_F_SYNC },
		{ REQ_META, RCBLK_F_META },
		{ REQ_PRIO, RCBLK_F_PRIO },
		{ REQ_IDLE, RCBLK_F_IDLE },
	};
	u16 flags = 0;
	int i;

	for (i = 0; i < ARRAY_SIZE(map_flags); i++)
		if (rq->cmd_flags & map_flags[i].req)
			flags |= map_flags[i].wire;
	/* blk-flush's FLUSH requests carry REQ_PREFLUSH: the op says it */
	if (req_op(rq) == REQ_OP_FLUSH)
		flags &= ~RCBLK_F_PREFLUSH;
	/*
	 * Only accepted bits travel.  FUA and PREFLUSH reach a driver only
	 * as the queue's write cache settings allow (blk-flush), and those
	 * follow what the export offered (rcblk_clt_limits()).
	 */
	return flags & map->geo.features;
}

/*
 * A registration or a send refused because the channel is down: the link
 * is lost, and its recovery may not have begun yet.  Start it; the
 * request goes back to blk-mq (BLK_STS_RESOURCE) and is sent again once
 * the link is back, or failed if it never comes back
 * (rcblk_clt_refusal_lost() says which refusals mean a lost link).
 */
static bool rcblk_clt_chan_lost(struct rcblk_clt_queue *q, int err)
{
	if (!rcblk_clt_refusal_lost(err, rdmachan_get_state(q->ch)))
		return false;
	rcblk_clt_fail(q->map, err);
	return !test_bit(RCBLK_M_DEAD, &q->map->flags);
}

static blk_status_t rcblk_clt_map_data(struct rcblk_clt_queue *q,
				       struct request *rq, u32 access,
				       struct rdmachan_remote_mr *desc)
{
	struct rcblk_clt_map *map = q->map;
	struct rcblk_clt_req *req = blk_mq_rq_to_pdu(rq);
	unsigned short segs = blk_rq_nr_phys_segments(rq);
	int nents, ret;

	/* the queue's max_segments bound it: only what it needs is cleared */
	if (WARN_ON_ONCE(!segs || segs > map->max_segs))
		return BLK_STS_IOERR;
	sg_init_table(req->sgl, segs);
	nents = rc_blk_rq_map_sg(rq, req->sgl);
	if (nents <= 0)
		return BLK_STS_IOERR;
	ret = rdmachan_mr_pool_map(q->pool, req->sgl, nents, access, &req->mr);
	if (ret == -EAGAIN) {
		/* flag first, then retry: a put in between reruns us */
		set_bit(RCBLK_Q_STARVED, &q->flags);
		smp_mb__after_atomic();	/* the flag before the retry */
		ret = rdmachan_mr_pool_map(q->pool, req->sgl, nents, access,
					   &req->mr);
		if (ret == -EAGAIN) {
			atomic64_inc(&map->st.starved);
			return BLK_STS_DEV_RESOURCE;
		}
	}
	if (ret) {
		req->mr = NULL;
		if (rcblk_clt_chan_lost(q, ret))
			return BLK_STS_RESOURCE;
		pr_warn_ratelimited("rcblk%d: registering %u bytes: %d\n",
				    map->index, blk_rq_bytes(rq), ret);
		return BLK_STS_IOERR;
	}
	rdmachan_mr_remote(req->mr, desc);
	req->rkey = desc->rkey;
	if (desc->length < blk_rq_bytes(rq)) {
		rdmachan_mr_pool_put(req->mr, false, rcblk_clt_undo_done, q);
		req->mr = NULL;
		pr_warn_ratelimited("rcblk%d: registration of %llu bytes for %u\n",
				    map->index, desc->length,
				    blk_rq_bytes(rq));
		return BLK_STS_IOERR;
	}
	return BLK_STS_OK;
}

static blk_status_t rcblk_clt_send_rq(struct blk_mq_hw_ctx *hctx,
				      const struct blk_mq_queue_data *bd)
{
	struct rcblk_clt_queue *q = hctx->driver_data;
	struct rcblk_clt_map *map = q->map;
	struct request *rq = bd->rq;
	struct rcblk_clt_req *req = blk_mq_rq_to_pdu(rq);
	struct rdmachan_remote_mr desc = {};
	struct rdmachan_send_ext ext = {};
	u32 len = blk_rq_bytes(rq);
	u8 data = RCBLK_DATA_NONE;
	struct kvec vec[1 + RCBLK_CLT_INLINE_VECS];
	unsigned int nr_vec = 1, nr_zc = 0;
	blk_status_t sts;
	u32 access = 0;
	u8 op;
	int ret;

	if (test_bit(RCBLK_M_DEAD, &map->flags))
		return BLK_STS_IOERR;
	/*
	 * Link lost: dispatch is quiesced while the requests are held, and
	 * runs again only to fail them (fast_io_fail) or once the channels
	 * are back (the flag cleared after them: the barrier pairs with
	 * rcblk_clt_attempt()'s).
	 */
	if (unlikely(test_bit_acquire(RCBLK_M_RECOVERING, &map->flags)))
		return test_bit(RCBLK_M_FAILFAST, &map->flags) ?
		       BLK_STS_IOERR : BLK_STS_RESOURCE;
	if (!(rq->rq_flags & RQF_DONTPREP)) {
		req->retries = 0;
		req->t_ns = map->hist[0] ? ktime_get_ns() : 0;
		rq->rq_flags |= RQF_DONTPREP;
	}
	req->timeouts = 0;
	req->mr = NULL;
	req->zc = false;
	atomic_set(&req->state, RCBLK_RQ_IDLE);
	blk_mq_start_request(rq);

	switch (req_op(rq)) {
	case REQ_OP_READ:
		op = RCBLK_OP_READ;
		/* a page or less: through its tag's staging page */
		if (rcblk_clt_stage_desc(q, rq, &desc)) {
			data = RCBLK_DATA_STAGED;
			break;
		}
		data = RCBLK_DATA_REMOTE;
		access = RDMACHAN_ACCESS_LOCAL_WRITE |
			 RDMACHAN_ACCESS_REMOTE_WRITE;
		break;
	case REQ_OP_WRITE:
		op = RCBLK_OP_WRITE;
		if (len <= map->inline_max) {
			data = RCBLK_DATA_INLINE;
		} else {
			data = RCBLK_DATA_REMOTE;
			access = RDMACHAN_ACCESS_LOCAL_WRITE |
				 RDMACHAN_ACCESS_REMOTE_READ;
		}
		break;
	case REQ_OP_FLUSH:
		op = RCBLK_OP_FLUSH;
		len = 0;
		break;
	case REQ_OP_DISCARD:
		op = RCBLK_OP_DISCARD;
		break;
	case REQ_OP_WRITE_ZEROES:
		op = RCBLK_OP_WRITE_ZEROES;
		break;
	default:
		return BLK_STS_NOTSUPP;
	}

	vec[0].iov_base = &req->hdr;
	vec[0].iov_len = sizeof(req->hdr);
	if (data == RCBLK_DATA_REMOTE) {
		sts = rcblk_clt_map_data(q, rq, access, &desc);
		if (sts)
			return sts;
		ext.regs = &req->mr;
		ext.nr_regs = 1;
	} else if (data == RCBLK_DATA_INLINE) {
		/* from its pages, else in pieces, else copied: blk_clt_inline.c */
		nr_zc = rcblk_clt_zc_sg(q, rq);
		if (!nr_zc)
			nr_vec += rcblk_clt_inline_vecs(rq, vec + 1,
							RCBLK_CLT_INLINE_VECS);
		if (!nr_zc && nr_vec == 1) {
			rcblk_clt_copy_inline(rq, req->inline_buf);
			vec[1].iov_base = req->inline_buf;
			vec[1].iov_len = len;
			nr_vec = 2;
		}
	}
	rcblk_clt_encode_io(&req->hdr, op, rcblk_clt_flags(map, rq),
			    blk_rq_pos(rq), len, rq->tag, data, desc.rkey,
			    desc.addr);

	if (nr_zc) {
		/* it ends on its reply and its send's completion */
		req->zc = true;
		atomic_set(&req->ends, 2);
	}
	atomic_inc(&map->st.inflight);
	atomic_set(&req->state, RCBLK_RQ_SENT);
	/* before the post: its reply may end it before the post returns */
	trace_rcblk_clt_send(map->index, q->qid, rq->tag, op, blk_rq_pos(rq),
			     len, data);
	if (nr_zc)
		ret = rcblk_clt_zc_send(q, rq, nr_zc);
	else
		ret = rdmachan_send_ext(q->ch, vec, nr_vec, 0,
					RDMACHAN_SEND_NONBLOCK, &ext);
	if (!ret)
		return BLK_STS_OK;
	trace_rcblk_clt_unsent(map->index, q->qid, rq->tag, ret);

	if (atomic_cmpxchg(&req->state, RCBLK_RQ_SENT, RCBLK_RQ_IDLE) !=
	    RCBLK_RQ_SENT) {
		/* a bogus reply took it: it ends there (its send never will) */
		if (req->zc)
			rcblk_clt_reply_end(rq);
		return BLK_STS_OK;
	}
	req->zc = false;
	atomic_dec(&map->st.inflight);
	if (req->mr) {
		/* never posted: back in the pool at once */
		rdmachan_mr_pool_put(req->mr, false, rcblk_clt_undo_done, q);
		req->mr = NULL;
	}
	if (ret == -EAGAIN) {
		atomic64_inc(&map->st.busy);
		return BLK_STS_DEV_RESOURCE;	/* rcblk_clt_writable() reruns */
	}
	if (rcblk_clt_chan_lost(q, ret))
		return BLK_STS_RESOURCE;
	pr_warn_ratelimited("rcblk%d: queue %u: send: %d\n", map->index,
			    q->qid, ret);
	return BLK_STS_IOERR;
}

/*
 * End a request still on the wire as if the server had failed it: its
 * registration goes back first (rdmachan_mr_pool_put(); the channels are
 * stopped by then, rcblk_clt_shutdown()), so the request ends only once
 * the peer can no longer reach its pages.
 */
static bool rcblk_clt_cancel_rq(struct request *rq, void *data)
{
	struct rcblk_clt_req *req = blk_mq_rq_to_pdu(rq);
	int ret;

	if (atomic_cmpxchg(&req->state, RCBLK_RQ_SENT, RCBLK_RQ_REPLY) !=
	    RCBLK_RQ_SENT)
		return true;	/* not sent, or its reply is being handled */
	req->wire = RCBLK_S_IOERR;
	if (req->mr) {
		ret = rdmachan_mr_pool_put(req->mr, false, rcblk_clt_inv_done,
					   rq);
		if (ret == -EINPROGRESS)
			return true;
	}
	rcblk_clt_reply_end(rq);
	return true;
}

/* After the pools are gone no registration can reach a request's pages */
static bool rcblk_clt_end_closed(struct request *rq, void *data)
{
	struct rcblk_clt_req *req = blk_mq_rq_to_pdu(rq);
	int state = atomic_read(&req->state);

	if (state != RCBLK_RQ_SENT && state != RCBLK_RQ_REPLY)
		return true;
	if (atomic_cmpxchg(&req->state, state, RCBLK_RQ_DONE) != state)
		return true;
	req->mr = NULL;
	rcblk_clt_end(rq, BLK_STS_IOERR);
	return true;
}

static blk_status_t rcblk_clt_queue_rq(struct blk_mq_hw_ctx *hctx,
				       const struct blk_mq_queue_data *bd)
{
	struct rcblk_clt_queue *q = hctx->driver_data;
	struct rcblk_clt_map *map = q->map;
	bool now = !map->server_local &&
		   !rcblk_clt_queue_polled(map, q->qid) &&
		   rcblk_clt_post_now(&q->idle_posts,
				      !atomic_read(&map->st.inflight));
	blk_status_t sts;

	/*
	 * Alone on the wire: the provider's work goes before we return
	 * (blk-client.rst, "Where a post's work runs"); never with the
	 * server on this host, whose receive work would run here too.
	 */
	if (now) {
		local_bh_disable();
		atomic64_inc(&map->st.posts_now);
	}
	sts = rcblk_clt_send_rq(hctx, bd);
	if (now)
		local_bh_enable();

	/* failed before the wire: blk-mq ends it with @sts (not requeued) */
	if (sts != BLK_STS_OK && sts != BLK_STS_DEV_RESOURCE &&
	    sts != BLK_STS_RESOURCE)
		atomic64_inc(&map->st.errors);
	return sts;
}

/*
 * A request on the wire timed out.  Once the pools are destroyed no DMA
 * can reach its pages and it ends here.  While the link is being
 * recovered the recovery holds it.  On a live link the server is alive:
 * the channel's keepalive fails a channel whose peer stops answering,
 * and that starts the recovery without waiting for this timer.  So the
 * timer is reset and counted a few times (the server may be slow), then
 * the link is recovered all the same (reconnect, resubmit), which also
 * ends a request a server lost.
 */
static enum blk_eh_timer_return rcblk_clt_timeout(struct request *rq)
{
	struct rcblk_clt_map *map = rq_map(rq);
	struct rcblk_clt_req *req = blk_mq_rq_to_pdu(rq);
	int state = atomic_read(&req->state);
	const char *waits;

	if (test_bit(RCBLK_M_CLOSED, &map->flags)) {
		rcblk_clt_end_closed(rq, NULL);
		return BLK_EH_DONE;
	}
	if (test_bit(RCBLK_M_DEAD, &map->flags) ||
	    test_bit(RCBLK_M_RECOVERING, &map->flags))
		return BLK_EH_RESET_TIMER;
	atomic64_inc(&map->st.timeouts);
	/* what ends it: the server's reply, or after it the invalidation */
	if (state == RCBLK_RQ_REPLY && req->zc)
		waits = "the completion of its send (replied)";
	else if (state == RCBLK_RQ_REPLY)
		waits = "the local invalidation of its registration (replied)";
	else if (req->mr)
		waits = "the server's reply (its data registered for the server's RDMA)";
	else
		waits = "the server's reply";
	if (++req->timeouts < RCBLK_CLT_MAX_TIMEOUTS) {
		pr_warn_ratelimited("rcblk%d: queue %u tag %d (op %u sector %llu, %u bytes) timed out on a live link (%u of %u), waiting on %s\n",
				    map->index, rq->mq_hctx->queue_num, rq->tag,
				    req->hdr.op, be64_to_cpu(req->hdr.sector),
				    blk_rq_bytes(rq), req->timeouts,
				    RCBLK_CLT_MAX_TIMEOUTS, waits);
		return BLK_EH_RESET_TIMER;
	}
	pr_warn_ratelimited("rcblk%d: queue %u tag %d (op %u sector %llu) timed out %u times waiting on %s: recovering the link\n",
			    map->index, rq->mq_hctx->queue_num, rq->tag,
			    req->hdr.op, be64_to_cpu(req->hdr.sector),
			    req->timeouts, waits);
	rcblk_clt_fail(map, -ETIMEDOUT);
	return BLK_EH_RESET_TIMER;
}

/**
 * rcblk_clt_cancel_all() - end every request still on the wire
 * @map: a dead mapping whose dispatch is quiesced
 *
 * Each request with a registration ends once its local invalidation
 * completed (at the latest when rdmachan_mr_pool_destroy() returns: it
 * waits for them), the others at once, with BLK_STS_IOERR.
 *
 * Context: process context.
 */
void rcblk_clt_cancel_all(struct rcblk_clt_map *map)
{
	blk_mq_tagset_busy_iter(&map->tag_set, rcblk_clt_cancel_rq, NULL);
}

/*
 * Take a request off a stopped link, to be sent again once it is back:
 * its registration goes back at once (the channel's QP is destroyed, so
 * the server reaches its pages no more), and blk-mq keeps it on the
 * requeue list until dispatch runs again.  A request whose reply came is
 * left to end with that reply (its invalidation's callback has run or
 * runs from the teardown).  Block I/O is idempotent: a request the
 * server executed before the loss runs twice at most, and completes once.
 */
static bool rcblk_clt_hold_rq(struct request *rq, void *data)
{
	struct rcblk_clt_req *req = blk_mq_rq_to_pdu(rq);
	struct rcblk_clt_map *map = rq_map(rq);
	u32 *held = data;
	int ret;

	if (atomic_cmpxchg(&req->state, RCBLK_RQ_SENT, RCBLK_RQ_DONE) !=
	    RCBLK_RQ_SENT)
		return true;
	if (req->mr) {
		ret = rdmachan_mr_pool_put(req->mr, false, NULL, NULL);
		/* not back: the QP may reach the pages; never resubmit them */
		if (WARN_ON_ONCE(ret)) {
			atomic_set(&req->state, RCBLK_RQ_SENT);
			return true;
		}
		req->mr = NULL;
	}
	atomic_dec(&map->st.inflight);
	atomic64_inc(&map->st.held);
	trace_rcblk_clt_done(map->index, rq->tag, req->hdr.op,
			     be64_to_cpu(req->hdr.sector),
			     be32_to_cpu(req->hdr.len), 0, RCBLK_TR_HELD);
	(*held)++;
	blk_mq_requeue_request(rq, false);
	return true;
}

/**
 * rcblk_clt_hold_all() - take every request on the wire off a stopped link
 * @map: a mapping whose dispatch is quiesced and whose channels are
 *	stopped (rdmachan_shutdown())
 *
 * Context: process context.
 * Return: the requests held, on blk-mq's requeue list until it is kicked.
 */
u32 rcblk_clt_hold_all(struct rcblk_clt_map *map)
{
	u32 held = 0;

	blk_mq_tagset_busy_iter(&map->tag_set, rcblk_clt_hold_rq, &held);
	return held;
}

/**
 * rcblk_clt_end_all() - end the requests whose invalidation never ended
 * @map: a mapping whose pools are destroyed (RCBLK_M_CLOSED)
 *
 * Context: process context.
 */
void rcblk_clt_end_all(struct rcblk_clt_map *map)
{
	/* none of them left on a list of a queue's */
	rcblk_clt_poll_flush(map);
	blk_mq_tagset_busy_iter(&map->tag_set, rcblk_clt_end_closed, NULL);
}

static int rcblk_clt_init_hctx(struct blk_mq_hw_ctx *hctx, void *data,
			       unsigned int idx)
{
	struct rcblk_clt_map *map = data;
	struct rcblk_clt_queue *q = &map->queues[idx];

	hctx->driver_data = q;
	WRITE_ONCE(q->hctx, hctx);
	return 0;
}

static void rcblk_clt_exit_hctx(struct blk_mq_hw_ctx *hctx, unsigned int idx)
{
	struct rcblk_clt_queue *q = hctx->driver_data;

	WRITE_ONCE(q->hctx, NULL);
}

static int rcblk_clt_init_request(struct blk_mq_tag_set *set,
				  struct request *rq, unsigned int hctx_idx,
				  unsigned int numa_node)
{
	struct rcblk_clt_map *map = set->driver_data;
	struct rcblk_clt_req *req = blk_mq_rq_to_pdu(rq);

	req->sgl = kcalloc_node(map->max_segs, sizeof(*req->sgl), GFP_KERNEL,
				numa_node);
	if (!req->sgl)
		return -ENOMEM;
	if (map->inline_max) {
		req->inline_buf = kmalloc_node(map->inline_max, GFP_KERNEL,
					       numa_node);
		if (!req->inline_buf) {
			kfree(req->sgl);
			req->sgl = NULL;
			return -ENOMEM;
		}
	}
	atomic_set(&req->state, RCBLK_RQ_IDLE);
	return 0;
}

static void rcblk_clt_exit_request(struct blk_mq_tag_set *set,
				   struct request *rq, unsigned int hctx_idx)
{
	struct rcblk_clt_req *req = blk_mq_rq_to_pdu(rq);

	kfree(req->inline_buf);
	kfree(req->sgl);
}

const struct blk_mq_ops rcblk_clt_mq_ops = {
	.queue_rq	= rcblk_clt_queue_rq,
	.complete	= rcblk_clt_complete_rq,
	.timeout	= rcblk_clt_timeout,
	.init_hctx	= rcblk_clt_init_hctx,
	.exit_hctx	= rcblk_clt_exit_hctx,
	.init_request	= rcblk_clt_init_request,
	.exit_request	= rcblk_clt_exit_request,
	.map_queues	= rcblk_clt_map_queues,
	.poll		= rcblk_clt_poll,
};
