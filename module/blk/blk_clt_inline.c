// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan_blk client: a small WRITE's data in its request's message
 *
 * A WRITE of at most inline_max bytes travels behind its header
 * (RCBLK_DATA_INLINE), in one of three ways, the first that applies:
 *
 *  1. zero-copy: the header and the request's own pages, each a gather
 *     entry of the send (rdmachan_send_sg_zc()), as nvme-rdma sends
 *     in-capsule data.  Nothing is copied on this host but by the
 *     device; the device may read the pages until the send completes,
 *     so the request ends once both its reply and its send's completion
 *     came, whichever is last (rcblk_clt_req.ends);
 *  2. the pages as pieces of the message (rdmachan_send_ext()): the
 *     channel copies them into its send slot (more segments than the
 *     device gathers);
 *  3. a copy into the request's inline_buf first (pages the kernel may
 *     not map: highmem).
 *
 * The send's completion comes under the channel's lock with interrupts
 * off, where a request may not end (its bio's end may submit to this
 * very channel): when it is the last of the two, the request goes on its
 * queue's zc_ends list, which zc_work ends.  A channel that stops
 * (rdmachan_shutdown()) has called every zero-copy send's callback when
 * it returns; rcblk_clt_zc_flush() then waits for the ends it queued, so
 * that a recovery or a teardown that follows finds every such request
 * replied and ended, or still to be replied (its send's part done).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/blkdev.h>
#include <linux/bvec.h>
#include <linux/llist.h>
#include <linux/scatterlist.h>

#include "blk_clt.h"

/**
 * rcblk_clt_inline_vecs() - an inline WRITE's data as pieces of its message
 * @rq: the request
 * @vec: out: its segments
 * @max: room in @vec
 *
 * Context: any.
 * Return: the pieces in @vec, or 0 (more segments than @max, or pages
 * the kernel may not map: copy them with rcblk_clt_copy_inline()).
 */
unsigned int rcblk_clt_inline_vecs(struct request *rq, struct kvec *vec,
				   unsigned int max)
{
	struct req_iterator iter;
	struct bio_vec bv;
	unsigned int n = 0;

	if (IS_ENABLED(CONFIG_HIGHMEM))
		return 0;
	rq_for_each_segment(bv, rq, iter) {
		if (n == max)
			return 0;
		vec[n].iov_base = bvec_virt(&bv);
		vec[n].iov_len = bv.bv_len;
		n++;
	}
	return n;
}

/**
 * rcblk_clt_copy_inline() - copy an inline WRITE's data into @buf
 * @rq: the request
 * @buf: at least blk_rq_bytes(@rq) bytes
 *
 * Context: any.
 */
void rcblk_clt_copy_inline(struct request *rq, void *buf)
{
	struct req_iterator iter;
	struct bio_vec bv;
	size_t off = 0;

	rq_for_each_segment(bv, rq, iter) {
		memcpy_from_bvec(buf + off, &bv);
		off += bv.bv_len;
	}
}

/* rdmachan_send_sg_zc()'s callback: the device is done with the pages */
static void rcblk_clt_zc_done(void *ctx, int err)
{
	struct request *rq = ctx;
	struct rcblk_clt_req *req = blk_mq_rq_to_pdu(rq);
	struct rcblk_clt_queue *q = rq->mq_hctx->driver_data;

	if (err)
		pr_debug("rcblk%d: queue %u: the send of tag %d ended with %d\n",
			 q->map->index, q->qid, rq->tag, err);
	if (!atomic_dec_and_test(&req->ends))
		return;		/* the reply, still to come, ends it */
	if (llist_add(&req->zc_node, &q->zc_ends))
		queue_work(rcblk_clt_wq, &q->zc_work);
}

/**
 * rcblk_clt_zc_work() - end the requests whose send completed last
 * @work: &rcblk_clt_queue.zc_work
 *
 * Context: process context (rcblk_clt_wq).
 */
void rcblk_clt_zc_work(struct work_struct *work)
{
	struct rcblk_clt_queue *q = container_of(work, struct rcblk_clt_queue,
						 zc_work);
	struct llist_node *first = llist_del_all(&q->zc_ends);
	struct rcblk_clt_req *req, *next;

	first = llist_reverse_order(first);
	llist_for_each_entry_safe(req, next, first, zc_node)
		rcblk_clt_reply_done(blk_mq_rq_from_pdu(req));
}

/**
 * rcblk_clt_zc_flush() - wait for the ends a queue's sends queued
 * @map: a mapping whose channels are stopped or closed
 *
 * Context: process context.
 */
void rcblk_clt_zc_flush(struct rcblk_clt_map *map)
{
	u32 i;

	for (i = 0; i < map->nr_queues; i++)
		flush_work(&map->queues[i].zc_work);
}

/**
 * rcblk_clt_reply_end() - a request's reply came: end it, unless its
 *	zero-copy send has not completed yet (rcblk_clt_zc_done() then does)
 * @rq: the request, in state RCBLK_RQ_REPLY, its registration back
 *
 * Context: any but under a channel's lock.
 */
void rcblk_clt_reply_end(struct request *rq)
{
	struct rcblk_clt_req *req = blk_mq_rq_to_pdu(rq);

	if (req->zc && !atomic_dec_and_test(&req->ends))
		return;
	rcblk_clt_reply_done(rq);
}

/**
 * rcblk_clt_zc_sg() - an inline WRITE as a zero-copy message, if it can be
 * @q: its queue
 * @rq: the request
 *
 * Fills the request's scatterlist with its header and its pages.
 *
 * Context: queue_rq.
 * Return: the entries to send with rcblk_clt_zc_send(), or 0: the
 * channel cannot gather that many pieces (or the pages may be highmem):
 * send it another way.
 */
unsigned int rcblk_clt_zc_sg(struct rcblk_clt_queue *q, struct request *rq)
{
	struct rcblk_clt_req *req = blk_mq_rq_to_pdu(rq);
	unsigned int max = min(rdmachan_send_sg_zc_max(q->ch),
			       q->map->max_segs);
	struct scatterlist *sg = req->sgl;
	struct req_iterator iter;
	struct bio_vec bv;
	unsigned int n = 1;

	if (IS_ENABLED(CONFIG_HIGHMEM))
		return 0;
	rq_for_each_segment(bv, rq, iter)
		if (++n > max)
			return 0;
	sg_init_table(sg, n);
	sg_set_buf(&sg[0], &req->hdr, sizeof(req->hdr));
	n = 1;
	rq_for_each_segment(bv, rq, iter)
		sg_set_page(&sg[n++], bv.bv_page, bv.bv_len, bv.bv_offset);
	return n;
}

/**
 * rcblk_clt_zc_send() - send what rcblk_clt_zc_sg() made
 * @q: its queue
 * @rq: the request, its header encoded, in state RCBLK_RQ_SENT
 * @n: the entries
 *
 * Context: queue_rq.
 * Return: 0 (the request ends on its reply and its send's completion),
 * or rdmachan_send_sg_zc()'s error: not sent, the send's part of its end
 * left to the caller (rcblk_clt_reply_end() if a reply took it).
 */
int rcblk_clt_zc_send(struct rcblk_clt_queue *q, struct request *rq,
		      unsigned int n)
{
	struct rcblk_clt_req *req = blk_mq_rq_to_pdu(rq);

	return rdmachan_send_sg_zc(q->ch, req->sgl, n, 0,
				   RDMACHAN_SEND_NONBLOCK, rcblk_clt_zc_done,
				   rq);
}
