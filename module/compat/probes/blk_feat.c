// SPDX-License-Identifier: GPL-2.0-only
/*
 * RDMACHAN_HAVE_BLK_FEAT: the volatile write cache, FUA and rotational
 * settings are bits of queue_limits.features (BLK_FEAT_WRITE_CACHE,
 * BLK_FEAT_FUA, BLK_FEAT_ROTATIONAL), no longer blk_queue_write_cache()
 * and QUEUE_FLAG_NONROT; and a queue is non-rotational unless it says
 * BLK_FEAT_ROTATIONAL (the default flipped).
 * Linux 6.11: "block: move cache control settings out of queue->flags",
 * "block: move the nonrot flag to queue_limits".
 */
#include <linux/blkdev.h>

void rdmachan_probe(struct queue_limits *lim);
void rdmachan_probe(struct queue_limits *lim)
{
	lim->features |= BLK_FEAT_WRITE_CACHE | BLK_FEAT_FUA |
			 BLK_FEAT_ROTATIONAL;
}
