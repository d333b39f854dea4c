// SPDX-License-Identifier: GPL-2.0-only
/*
 * RDMACHAN_HAVE_BDOPS_OPEN_GENDISK: block_device_operations.open takes
 * the gendisk and a blk_mode_t, not a block_device and an fmode_t.
 * Linux 6.5: "block: pass a gendisk to ->open", "block: replace fmode_t
 * with a block-specific type for block open flags".
 */
#include <linux/blkdev.h>

static int rdmachan_probe_open(struct gendisk *disk, blk_mode_t mode)
{
	return 0;
}

const struct block_device_operations rdmachan_probe_fops = {
	.open	= rdmachan_probe_open,
};
