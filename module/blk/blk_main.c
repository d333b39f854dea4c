// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan_blk: the block channel over rdmachan
 *
 * Module entry points.  Load order: the ctl device (its control files
 * answer only once both sides are up), the server, the client, then the
 * ioctls; unload in reverse.  A mapping or an export holds a reference
 * on the module, so rmmod with either is refused ("in use") before the
 * exit below can run.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/kdev_t.h>

#include "blk.h"
#include "blk_ioctl.h"

/*
 * Static and registered, not class_create()d: class_create() lost its
 * owner argument in Linux 6.4, class_register() is the same on all.
 */
static struct class rcblk_class = {
	.name	= "rdmachan_blk",
};

struct device *rcblk_ctl_dev;

static const struct attribute_group *rcblk_ctl_groups[] = {
	&rcblk_srv_ctl_group,
	&rcblk_clt_ctl_group,
	NULL,
};

static int __init rcblk_init(void)
{
	int ret;

	ret = class_register(&rcblk_class);
	if (ret)
		return ret;
	ret = rcblk_srv_init();
	if (ret)
		goto out_class;
	ret = rcblk_clt_init();
	if (ret)
		goto out_srv;
	rcblk_ctl_dev = device_create_with_groups(&rcblk_class, NULL,
						  MKDEV(0, 0),
						  NULL, rcblk_ctl_groups,
						  "ctl");
	if (IS_ERR(rcblk_ctl_dev)) {
		ret = PTR_ERR(rcblk_ctl_dev);
		goto out_clt;
	}
	/* the server's exports directory, exports parameter and listener */
	ret = rcblk_srv_start();
	if (ret)
		goto out_dev;
	ret = rcblk_ioctl_init();
	if (ret)
		goto out_srv_stop;
	pr_info("loaded\n");
	return 0;

out_srv_stop:
	rcblk_srv_stop();
out_dev:
	device_unregister(rcblk_ctl_dev);
out_clt:
	rcblk_clt_exit();
out_srv:
	rcblk_srv_exit();
out_class:
	class_unregister(&rcblk_class);
	return ret;
}

static void __exit rcblk_exit(void)
{
	rcblk_ioctl_exit();
	rcblk_srv_stop();
	device_unregister(rcblk_ctl_dev);
	rcblk_clt_exit();
	rcblk_srv_exit();
	class_unregister(&rcblk_class);
	pr_info("unloaded\n");
}

module_init(rcblk_init);
module_exit(rcblk_exit);

MODULE_DESCRIPTION("rdmachan_blk: block devices over rdmachan channels");
MODULE_AUTHOR("rdmachan developers");
MODULE_VERSION(RDMACHAN_VERSION);
MODULE_LICENSE("GPL");
RDMACHAN_CTL_ALIAS(RDMACHAN_IOC_BLK_FIRST);
static_assert(!(RDMACHAN_IOC_BLK_FIRST & 0xf));	/* the alias's range */
