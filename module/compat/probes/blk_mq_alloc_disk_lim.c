// SPDX-License-Identifier: GPL-2.0-only
/*
 * RDMACHAN_HAVE_BLK_MQ_ALLOC_DISK_LIM: blk_mq_alloc_disk() takes the
 * struct queue_limits the queue starts with; the blk_queue_*() limit
 * setters (logical/physical block size, io_min, max_hw_sectors,
 * virt_boundary, max_segments, max discard/write-zeroes sectors) are on
 * their way out (gone in 6.11).
 * Linux 6.9: "block: pass a queue_limits argument to blk_mq_alloc_disk".
 */
#include <linux/blk-mq.h>

struct gendisk *rdmachan_probe(struct blk_mq_tag_set *set, void *data);
struct gendisk *rdmachan_probe(struct blk_mq_tag_set *set, void *data)
{
	struct queue_limits lim = {
		.logical_block_size	= 512,
		.max_hw_discard_sectors	= 8,
	};

	return blk_mq_alloc_disk(set, &lim, data);
}
