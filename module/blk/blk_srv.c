// SPDX-License-Identifier: GPL-2.0-only
/* rdmachan_blk: the server side (placeholder until it lands) */
#include "blk.h"

static struct attribute *rcblk_srv_ctl_attrs[] = {
	NULL,
};

const struct attribute_group rcblk_srv_ctl_group = {
	.attrs = rcblk_srv_ctl_attrs,
};

int rcblk_srv_init(void)
{
	return 0;
}

void rcblk_srv_exit(void)
{
}

int rcblk_srv_export(const struct rdmachan_blk_export *e)
{
	return -EOPNOTSUPP;
}

int rcblk_srv_unexport(const char *name, u32 flags)
{
	return -ENOENT;
}

int rcblk_srv_list(struct rdmachan_blk_export_info __user *entries,
		   u32 room, u32 *count)
{
	*count = 0;
	return 0;
}
