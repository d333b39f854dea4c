// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan_net: a point-to-point IP netdev over an rdmachan channel
 *
 * Module entry points.  Load order: the workqueue (loss work), the
 * rtnl_link_ops kind "rdmachan" (net_link.c), then the ioctls that add
 * devices.
 * Unload in reverse: no ioctl runs after rcnet_ioctl_exit(), so no
 * device is added any more; rtnl_link_unregister() deletes every device
 * left, in every namespace, through rcnet_dellink() (the teardown order
 * of net_dev.c); then the workqueue goes.  A device holds no reference
 * on the module: rmmod under traffic deletes the devices.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/netlink.h>
#include <net/rtnetlink.h>

#include "net.h"

struct workqueue_struct *rcnet_wq;

static int __init rcnet_module_init(void)
{
	int ret;

	rcnet_wq = alloc_workqueue("rdmachan_net", WQ_UNBOUND, 0);
	if (!rcnet_wq)
		return -ENOMEM;
	ret = rtnl_link_register(&rcnet_link_ops);
	if (ret)
		goto out_wq;
	ret = rcnet_ioctl_init();
	if (ret)
		goto out_link;
	pr_info("loaded\n");
	return 0;

out_link:
	rtnl_link_unregister(&rcnet_link_ops);
out_wq:
	destroy_workqueue(rcnet_wq);
	return ret;
}

static void __exit rcnet_module_exit(void)
{
	rcnet_ioctl_exit();
	/* every device left, through rcnet_dellink() */
	rtnl_link_unregister(&rcnet_link_ops);
	destroy_workqueue(rcnet_wq);
	pr_info("unloaded\n");
}

module_init(rcnet_module_init);
module_exit(rcnet_module_exit);

MODULE_DESCRIPTION("rdmachan_net: a point-to-point IP netdev over an rdmachan channel");
MODULE_AUTHOR("rdmachan developers");
MODULE_VERSION(RDMACHAN_VERSION);
MODULE_LICENSE("GPL");
MODULE_ALIAS_RTNL_LINK("rdmachan");
RDMACHAN_CTL_ALIAS(RDMACHAN_IOC_NET_FIRST);
static_assert(!(RDMACHAN_IOC_NET_FIRST & 0xf));	/* the alias's range */
