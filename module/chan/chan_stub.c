// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan: placeholders of the storage user's API (issue 16), so that
 * rdmachan_blk builds while the core implements them.  Each fails with
 * -EOPNOTSUPP.  Removed when the real ones land.
 */
#include "rdmachan-pri.h"

int rdmachan_send_ext(struct rdmachan *ch, const struct kvec *vec,
		      unsigned int nr_vec, u32 imm, unsigned int flags,
		      const struct rdmachan_send_ext *ext)
{
	return -EOPNOTSUPP;
}
EXPORT_SYMBOL_GPL(rdmachan_send_ext);

bool rdmachan_can_send_inv(struct rdmachan *ch)
{
	return false;
}
EXPORT_SYMBOL_GPL(rdmachan_can_send_inv);

int rdmachan_rdma_start(struct rdmachan *ch, struct rdmachan_op *ops,
			unsigned int count, rdmachan_rdma_end_t end, void *ctx)
{
	return -EOPNOTSUPP;
}
EXPORT_SYMBOL_GPL(rdmachan_rdma_start);

int rdmachan_mr_pool_create(struct rdmachan *ch, u32 count, u32 max_pages,
			    struct rdmachan_mr_pool **poolp)
{
	return -EOPNOTSUPP;
}
EXPORT_SYMBOL_GPL(rdmachan_mr_pool_create);

void rdmachan_mr_pool_destroy(struct rdmachan_mr_pool *pool)
{
}
EXPORT_SYMBOL_GPL(rdmachan_mr_pool_destroy);

int rdmachan_mr_pool_map(struct rdmachan_mr_pool *pool,
			 struct scatterlist *sgl, unsigned int nents,
			 u32 access, struct rdmachan_mr **mrp)
{
	return -EOPNOTSUPP;
}
EXPORT_SYMBOL_GPL(rdmachan_mr_pool_map);

int rdmachan_mr_pool_put(struct rdmachan_mr *mr, bool invalidated,
			 rdmachan_mr_done_t done, void *ctx)
{
	return 0;
}
EXPORT_SYMBOL_GPL(rdmachan_mr_pool_put);
