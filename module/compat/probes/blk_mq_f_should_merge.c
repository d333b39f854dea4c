// SPDX-License-Identifier: GPL-2.0-only
/*
 * RDMACHAN_HAVE_BLK_MQ_F_SHOULD_MERGE: a tag set asks for bio merging
 * with BLK_MQ_F_SHOULD_MERGE.  Removed in Linux 6.14 ("block: remove
 * BLK_MQ_F_SHOULD_MERGE"): merging is then what every queue does.
 */
#include <linux/blk-mq.h>

void rdmachan_probe(struct blk_mq_tag_set *set);
void rdmachan_probe(struct blk_mq_tag_set *set)
{
	set->flags = BLK_MQ_F_SHOULD_MERGE;
}
