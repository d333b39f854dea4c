/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rdmachan: posting to a channel's send queue and its registration QP
 * (chan_post.c)
 */
#ifndef RDMACHAN_CHAN_POST_H
#define RDMACHAN_CHAN_POST_H

#include "rdmachan-pri.h"

/**
 * struct rdmachan_chain - work requests chained for one post (chan_post.c)
 * @first: the first, NULL while the chain is empty
 * @last: the last
 */
struct rdmachan_chain {
	struct ib_send_wr	*first;
	struct ib_send_wr	*last;
};

/* chan_post.c */
int rdmachan_post_send_locked(struct rdmachan *ch,
			      const struct ib_send_wr *first,
			      const struct ib_send_wr **bad);
void rdmachan_post_reg_locked(struct rdmachan_mr *mr, bool *fence,
			      struct rdmachan_chain *c);
void rdmachan_post_tx_locked(struct rdmachan *ch, struct rdmachan_tx *tx,
			     struct rdmachan_chain *c);
void rdmachan_chain_add(struct rdmachan_chain *c, struct ib_send_wr *wr);
int rdmachan_regq_post_locked(struct rdmachan_tx *tx);
void rdmachan_post_inv_locked(struct rdmachan_mr *mr);
struct rdmachan_qp_sizes;
int rdmachan_regq_create(struct rdmachan *ch, struct rdma_cm_id *cm_id,
			 const struct rdmachan_qp_sizes *sz);
void rdmachan_regq_destroy(struct rdmachan *ch);

#endif /* RDMACHAN_CHAN_POST_H */
