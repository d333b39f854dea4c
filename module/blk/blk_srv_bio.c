// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan_blk server: a request's backing-device side
 *
 * A queue's slots (the pages every request of the queue moves its data
 * through, registered once for the RDMA READ and WRITE of the wire
 * side), a request's bio (built from its slot, submitted from io_work,
 * ended in any context, its status mapped onto the wire's), and the
 * export's counters of the requests completed.  blk_srv_io.c runs the
 * request from the message to the reply, and calls here for the bio.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bio.h>
#include <linux/mm.h>
#include <linux/slab.h>

#include "blk_srv.h"
#include "blk_trace.h"

static u8 rcblk_srv_blk_status(blk_status_t st)
{
	switch (st) {
	case BLK_STS_OK:
		return RCBLK_S_OK;
	case BLK_STS_NOSPC:
		return RCBLK_S_NOSPC;
	case BLK_STS_NOTSUPP:
		return RCBLK_S_NOTSUPP;
	case BLK_STS_RESOURCE:
	case BLK_STS_AGAIN:
		return RCBLK_S_RESOURCE;
	default:
		return RCBLK_S_IOERR;
	}
}

/* bio end_io: any context, possibly hard interrupt */
static void rcblk_srv_bio_end(struct bio *bio)
{
	struct rcblk_srv_req *req = bio->bi_private;
	struct rcblk_srv_queue *q = req->q;
	struct rcblk_export *exp = q->exp;

	req->status = rcblk_srv_blk_status(bio->bi_status);
	req->bio = NULL;
	trace_rcblk_srv_bio_end(exp->name, req->io.tag, req->io.op,
				req->io.sector, req->io.len, req->status);
	bio_put(bio);
	if (atomic_dec_and_test(&exp->bios))
		wake_up_var(&exp->bios);
	rcblk_srv_to_work(req, req->io.op == RCBLK_OP_READ &&
			  req->status == RCBLK_S_OK ?
			  RCBLK_ST_PUSH : RCBLK_ST_REPLY);
	rcblk_srv_queue_put(q);		/* the bio's */
}

static blk_opf_t rcblk_srv_opf(const struct rcblk_io_req *io)
{
	static const blk_opf_t ops[] = {
		[RCBLK_OP_READ]		= REQ_OP_READ,
		[RCBLK_OP_WRITE]	= REQ_OP_WRITE,
		[RCBLK_OP_FLUSH]	= REQ_OP_WRITE | REQ_PREFLUSH,
		[RCBLK_OP_DISCARD]	= REQ_OP_DISCARD,
		[RCBLK_OP_WRITE_ZEROES]	= REQ_OP_WRITE_ZEROES,
	};
	blk_opf_t opf = ops[io->op];

	if (io->flags & RCBLK_F_FUA)
		opf |= REQ_FUA;
	if (io->flags & RCBLK_F_PREFLUSH)
		opf |= REQ_PREFLUSH;
	if (io->flags & RCBLK_F_NOUNMAP)
		opf |= REQ_NOUNMAP;
	if (io->flags & RCBLK_F_SYNC)
		opf |= REQ_SYNC;
	if (io->flags & RCBLK_F_META)
		opf |= REQ_META;
	if (io->flags & RCBLK_F_PRIO)
		opf |= REQ_PRIO;
	if (io->flags & RCBLK_F_IDLE)
		opf |= REQ_IDLE;
	return opf;
}

/* Submit @req's bio: io_work, process context */
void rcblk_srv_submit(struct rcblk_srv_queue *q, struct rcblk_srv_req *req)
{
	struct rcblk_export *exp = q->exp;
	const struct rcblk_io_req *io = &req->io;
	unsigned short nr_vecs = 0;
	struct bio *bio;
	u32 done, i;

	trace_rcblk_srv_submit(exp->name, io->tag, io->op, io->sector, io->len,
			       req->status);
	/* a read-only export writes nothing: its FLUSH has nothing to do */
	if (io->op == RCBLK_OP_FLUSH && exp->flags & RDMACHAN_BLK_RO) {
		rcblk_srv_to_work(req, RCBLK_ST_REPLY);
		return;
	}
	if (io->op == RCBLK_OP_READ || io->op == RCBLK_OP_WRITE)
		nr_vecs = DIV_ROUND_UP(io->len, PAGE_SIZE);
	bio = bio_alloc(exp->dev.bdev, nr_vecs, rcblk_srv_opf(io), GFP_NOIO);
	bio->bi_iter.bi_sector = io->op == RCBLK_OP_FLUSH ? 0 : io->sector;
	if (nr_vecs) {
		for (done = 0, i = 0; done < io->len; i++) {
			u32 n = min_t(u32, PAGE_SIZE, io->len - done);

			__bio_add_page(bio, req->buf.pages[i], n, 0);
			done += n;
		}
	} else if (io->op != RCBLK_OP_FLUSH) {
		bio->bi_iter.bi_size = io->len;
	}
	bio->bi_private = req;
	bio->bi_end_io = rcblk_srv_bio_end;
	req->bio = bio;
	req->stage = RCBLK_ST_BIO;
	kref_get(&q->ref);		/* the bio's, put by its end */
	atomic_inc(&exp->bios);
	submit_bio(bio);
}

/* Count a completed request */
void rcblk_srv_account(struct rcblk_export *exp,
		       const struct rcblk_srv_req *req)
{
	const struct rcblk_io_req *io = &req->io;

	if (req->status != RCBLK_S_OK) {
		rcblk_srv_count(exp, RCBLK_C_ERRORS, 1);
		return;
	}
	switch (io->op) {
	case RCBLK_OP_READ:
		rcblk_srv_count(exp, RCBLK_C_READS, 1);
		rcblk_srv_count(exp, RCBLK_C_READ_BYTES, io->len);
		break;
	case RCBLK_OP_WRITE:
		rcblk_srv_count(exp, RCBLK_C_WRITES, 1);
		rcblk_srv_count(exp, RCBLK_C_WRITE_BYTES, io->len);
		if (io->data == RCBLK_DATA_INLINE)
			rcblk_srv_count(exp, RCBLK_C_INLINE_WRITES, 1);
		break;
	case RCBLK_OP_FLUSH:
		rcblk_srv_count(exp, RCBLK_C_FLUSHES, 1);
		break;
	case RCBLK_OP_DISCARD:
		rcblk_srv_count(exp, RCBLK_C_DISCARDS, 1);
		break;
	case RCBLK_OP_WRITE_ZEROES:
		rcblk_srv_count(exp, RCBLK_C_WRITE_ZEROES, 1);
		break;
	}
	if (io->flags & RCBLK_F_PREFLUSH)
		rcblk_srv_count(exp, RCBLK_C_FLUSHES, 1);
	if (io->flags & RCBLK_F_FUA)
		rcblk_srv_count(exp, RCBLK_C_FUA, 1);
}

/**
 * rcblk_srv_slots_alloc() - allocate and register a queue's slots
 * @q: the queue, its channel accepted
 * @max_io: bytes of each slot
 *
 * One registration per slot (rdmachan_mr_reg_sg(), local write only) of
 * DIV_ROUND_UP(@max_io, PAGE_SIZE) pages, which the caller has kept
 * within rdmachan_max_reg_pages().  On failure what was allocated is
 * freed (rcblk_srv_slots_free() with the registrations undone).
 *
 * Context: process context, sleeps.
 * Return: 0, -ENOMEM, or the error of rdmachan_mr_reg_sg().
 */
int rcblk_srv_slots_alloc(struct rcblk_srv_queue *q, u32 max_io)
{
	u32 nr_pages = DIV_ROUND_UP(max_io, PAGE_SIZE);
	u32 i;
	int ret;

	q->depth = rdmachan_queue_depth(q->ch);
	q->slots = kvcalloc(q->depth, sizeof(*q->slots), GFP_KERNEL);
	if (!q->slots)
		return -ENOMEM;
	for (i = 0; i < q->depth; i++) {
		struct rcblk_srv_req *req = &q->slots[i];

		req->q = q;
		INIT_LIST_HEAD(&req->node);
		ret = rcblk_pages_alloc(&req->buf, nr_pages);
		if (ret)
			goto fail;
		ret = rdmachan_mr_reg_sg(q->ch, req->buf.sgl, nr_pages,
					 RDMACHAN_ACCESS_LOCAL_WRITE,
					 &req->mr);
		if (ret)
			goto fail;
		list_add_tail(&req->node, &q->free);
	}
	return 0;

fail:
	for (i = 0; i < q->depth; i++) {
		if (q->slots[i].mr)
			rdmachan_mr_dereg(q->slots[i].mr);
		q->slots[i].mr = NULL;
	}
	rcblk_srv_slots_free(q);
	return ret;
}

/**
 * rcblk_srv_slots_free() - free a queue's slots and their pages
 * @q: the queue; its channel closed (which released the registrations)
 *	or the registrations undone
 *
 * Context: process context.
 */
void rcblk_srv_slots_free(struct rcblk_srv_queue *q)
{
	u32 i;

	if (!q->slots)
		return;
	for (i = 0; i < q->depth; i++)
		rcblk_pages_free(&q->slots[i].buf);
	kvfree(q->slots);
	q->slots = NULL;
	INIT_LIST_HEAD(&q->free);
}
