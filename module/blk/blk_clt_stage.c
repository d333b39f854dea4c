// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan_blk client: small READs through the queue's staging pages
 *
 * A queue keeps one page per tag, for the tags below the pages of one
 * registration: allocated with the mapping (rcblk_clt_stage_alloc()),
 * registered with remote write once per connection of the queue's
 * channel, beside its registration pool (rcblk_clt_stage_reg()).  Where
 * the channel's server granted RCBLK_F_READ_STAGED, a READ of at most a
 * page names its tag's page (RCBLK_DATA_STAGED) instead of a
 * registration of its own pages: nothing is registered before it, nothing
 * invalidated after it.  The server writes the data there as into any
 * remote buffer, its reply invalidates nothing, and once the reply has
 * claimed the request the data is copied into the request's pages
 * (rcblk_clt_stage_copy()) and the request ends.
 *
 * A REMOTE READ, like each of nvme-rdma's, registers the request's pages
 * for the server's RDMA WRITE and has them invalidated after it: a fast
 * registration, a work request with its completion, then the server's
 * reply that invalidates remotely (or, the reply riding the data, a
 * local invalidation).  On soft-RoCE those are the host CPU's work, with
 * tasklet runs and completion polls, and they cost more than a copy of a
 * page.  The data still arrives by RDMA
 * WRITE, so a 4 KiB READ is no more packets than before (a reply message
 * carrying the data would be: its in-band immediate makes it 4100
 * bytes, five packets at soft-RoCE's 1024-byte MTU instead of four).
 *
 * The staging registration lives as long as the channel's connection,
 * but it is the driver's own memory, never a page of the block layer's,
 * on the channel's own protection domain: only this channel's server can
 * reach it.  What that server may write into it at any time is data it
 * serves anyway; a request's data is copied out only after its reply
 * claimed it, and a tag's page serves one request at a time.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/blkdev.h>
#include <linux/bvec.h>
#include <linux/mm.h>

#include "blk_clt.h"

/**
 * rcblk_clt_stage_free() - free a queue's staging pages
 * @q: the queue, its staging registration gone
 *
 * Context: process context.
 */
void rcblk_clt_stage_free(struct rcblk_clt_queue *q)
{
	if (WARN_ON_ONCE(q->stage.mr))
		return;		/* still reachable: leak rather than reuse */
	rcblk_pages_free(&q->stage.buf);
}

/**
 * rcblk_clt_stage_alloc() - allocate a queue's staging pages
 * @q: the queue
 * @nr: pages, one per tag below it; 0 for none
 *
 * Context: process context (the mapping's first setup).
 * Return: 0, or -ENOMEM with nothing left allocated.
 */
int rcblk_clt_stage_alloc(struct rcblk_clt_queue *q, u32 nr)
{
	return rcblk_pages_alloc(&q->stage.buf, nr);
}

/**
 * rcblk_clt_stage_reg() - register a queue's staging pages on its channel
 * @q: the queue, its channel connected, dispatch quiesced
 *
 * A registration that fails leaves the queue without staging: its READs
 * register their own pages, as without RCBLK_F_READ_STAGED (logged).
 *
 * Context: process context.
 */
void rcblk_clt_stage_reg(struct rcblk_clt_queue *q)
{
	struct rcblk_clt_stage *st = &q->stage;
	struct rdmachan_remote_mr desc;
	int ret;

	if (!st->buf.nr || st->mr)
		return;
	ret = rdmachan_mr_reg_sg(q->ch, st->buf.sgl, st->buf.nr,
				 RDMACHAN_ACCESS_LOCAL_WRITE |
				 RDMACHAN_ACCESS_REMOTE_WRITE, &st->mr);
	if (ret) {
		st->mr = NULL;
		pr_warn("rcblk%d: queue %u: registering %u staging pages: %d: its READs register their own pages\n",
			q->map->index, q->qid, st->buf.nr, ret);
		return;
	}
	rdmachan_mr_remote(st->mr, &desc);
	st->rkey = desc.rkey;
	st->addr = desc.addr;
}

/**
 * rcblk_clt_stage_dereg() - deregister a queue's staging pages
 * @q: the queue, its channel stopped (no RDMA reaches the pages) or
 *	never connected
 *
 * Context: process context.
 */
void rcblk_clt_stage_dereg(struct rcblk_clt_queue *q)
{
	if (q->stage.mr) {
		rdmachan_mr_dereg(q->stage.mr);
		q->stage.mr = NULL;
	}
}

/**
 * rcblk_clt_stage_desc() - the staging page a READ may name
 * @q: its queue
 * @rq: the READ
 * @desc: out: the page's key and address
 *
 * Context: queue_rq.
 * Return: true when @rq goes as RCBLK_DATA_STAGED: at most a page, its
 * tag has a page, the queue's registration is there and its server
 * granted RCBLK_F_READ_STAGED.
 */
bool rcblk_clt_stage_desc(struct rcblk_clt_queue *q, struct request *rq,
			  struct rdmachan_remote_mr *desc)
{
	struct rcblk_clt_stage *st = &q->stage;

	if (blk_rq_bytes(rq) > PAGE_SIZE || rq->tag >= st->buf.nr || !st->mr ||
	    !test_bit(RCBLK_Q_STAGED, &q->flags))
		return false;
	desc->rkey = st->rkey;
	desc->addr = st->addr + (u64)rq->tag * PAGE_SIZE;
	desc->length = PAGE_SIZE;
	return true;
}

/**
 * rcblk_clt_stage_copy() - copy a staged READ's data into its pages
 * @q: its queue
 * @rq: the READ, claimed by its successful reply (RCBLK_RQ_REPLY)
 *
 * Context: the channel's receive callback.
 */
void rcblk_clt_stage_copy(struct rcblk_clt_queue *q, struct request *rq)
{
	const void *src = page_address(q->stage.buf.pages[rq->tag]);
	struct req_iterator iter;
	struct bio_vec bv;
	size_t off = 0;

	rq_for_each_segment(bv, rq, iter) {
		memcpy_to_bvec(&bv, src + off);
		off += bv.bv_len;
	}
}
