// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan: one-sided operations checked and turned into work requests
 *
 * Every operation of a request is checked against the channel, the
 * device and its registrations before anything is posted: its opcode
 * and flags, its segments (registrations of the channel, in bounds, with
 * the rights the operation needs, held until the request ends), an
 * atomic's alignment, an INLINE write's length.  The request is posted
 * and completed by chan_rdma.c, as nvme-rdma maps a request's data
 * before it posts it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/slab.h>

#include "bounds.h"
#include "chan_rdma.h"

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
	/* its top bit is the channel's (&rdmachan_opts.imm_credit) */
	if (op->opcode == RDMACHAN_OP_WRITE_IMM && ch->opts.imm_credit &&
	    (op->imm & RDMACHAN_IMM_CREDIT))
		return -EINVAL;

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

/**
 * rdmachan_rdma_prepare() - check operations and build their request
 * @ch: the channel
 * @ops: the operations; each one's status is reset, or set when refused
 * @count: how many
 * @gfp: for the request and INLINE data
 * @reqp: the request built, holding the registrations it names
 *
 * Context: any context @gfp allows.
 * Return: 0 and *@reqp, or the errno of the first bad operation (in its
 * status, the others -ECANCELED), nothing posted.
 */
int rdmachan_rdma_prepare(struct rdmachan *ch, struct rdmachan_op *ops,
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
