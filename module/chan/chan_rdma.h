/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rdmachan: a one-sided request and its work requests, shared by the
 * file that builds them (chan_rdma_map.c) and the one that posts and
 * completes them (chan_rdma.c)
 */
#ifndef RDMACHAN_CHAN_RDMA_H
#define RDMACHAN_CHAN_RDMA_H

#include "rdmachan-pri.h"

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

/* chan_rdma.c */
struct rdmachan_rdma_req *rdmachan_rdma_req_alloc_gfp(struct rdmachan *ch,
						      u32 nr, gfp_t gfp);
void rdmachan_rdma_refused(struct rdmachan_op *ops, u32 count);

/* chan_rdma_map.c */
int rdmachan_rdma_prepare(struct rdmachan *ch, struct rdmachan_op *ops,
			  unsigned int count, gfp_t gfp,
			  struct rdmachan_rdma_req **reqp);

#endif /* RDMACHAN_CHAN_RDMA_H */
