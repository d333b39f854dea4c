// SPDX-License-Identifier: GPL-2.0-only
/*
 * RDMACHAN_HAVE_BLK_RQ_MAP_SG_RQ: blk_rq_map_sg() takes the request and
 * the scatterlist, no longer the queue first.
 * Linux 6.15 (the unused queue parameter removed).
 */
#include <linux/blk-mq.h>
#include <linux/scatterlist.h>

int rdmachan_probe(struct request *rq, struct scatterlist *sgl);
int rdmachan_probe(struct request *rq, struct scatterlist *sgl)
{
	return blk_rq_map_sg(rq, sgl);
}
