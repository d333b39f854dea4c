// SPDX-License-Identifier: GPL-2.0-only
/* rdmachan_blk: the client side (placeholder until it lands) */
#include "blk.h"

static struct attribute *rcblk_clt_ctl_attrs[] = {
	NULL,
};

const struct attribute_group rcblk_clt_ctl_group = {
	.attrs = rcblk_clt_ctl_attrs,
};

int rcblk_clt_init(void)
{
	return 0;
}

void rcblk_clt_exit(void)
{
}

int rcblk_clt_map(struct rdmachan_blk_map *m)
{
	return -EOPNOTSUPP;
}

int rcblk_clt_unmap(u32 index, u32 flags)
{
	return -ENOENT;
}

int rcblk_clt_list(struct rdmachan_blk_map_info __user *entries, u32 room,
		   u32 *count)
{
	*count = 0;
	return 0;
}
