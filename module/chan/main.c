// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan: RDMA message channels over in-kernel verbs
 *
 * Module entry points: device tracking first, so that the control device
 * never answers before the device list exists; torn down in reverse.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>

#include <linux/rdmachan.h>

#include "rdmachan-pri.h"
#include "device.h"
#include "sysfs.h"
#include "uevent.h"
#include "ioctl.h"
#include "params.h"

static int __init rdmachan_init(void)
{
	int ret;

	ret = rdmachan_core_init();
	if (ret)
		return ret;
	ret = rdmachan_reconnect_init();
	if (ret)
		goto out_core;
	rdmachan_chan_sysfs_init();
	ret = rdmachan_sysfs_init();
	if (ret)
		goto out_reconnect;
	/* a device added, a port active: reconnecting links try at once */
	ret = rdmachan_device_init(rdmachan_wq, rdmachan_reconnect_kick_all);
	if (ret) {
		pr_err("cannot register RDMA client: %d\n", ret);
		goto out_sysfs;
	}
	ret = rdmachan_ctl_init();
	if (ret)
		goto out_device;
	rdmachan_event_init();
	pr_info("loaded, ABI %d, %u RDMA device(s)\n", RDMACHAN_ABI_VERSION,
		rdmachan_device_count());
	return 0;

out_device:
	rdmachan_device_exit();
out_sysfs:
	rdmachan_uevent_exit();
	rdmachan_sysfs_exit();
out_reconnect:
	rdmachan_reconnect_exit();
out_core:
	rdmachan_core_exit();
	return ret;
}

static void __exit rdmachan_exit(void)
{
	rdmachan_event_exit();
	rdmachan_ctl_exit();
	rdmachan_device_exit();
	/* the last directory is gone: send what it left queued */
	rdmachan_uevent_exit();
	rdmachan_sysfs_exit();
	rdmachan_reconnect_exit();
	rdmachan_core_exit();
	pr_info("unloaded\n");
}

module_init(rdmachan_init);
module_exit(rdmachan_exit);

/* Defined in params.c, which tests/kunit/ includes: exported here */
EXPORT_SYMBOL_GPL(rdmachan_uint_param_ops);

MODULE_DESCRIPTION("rdmachan: RDMA message channels over in-kernel verbs");
MODULE_AUTHOR("rdmachan developers");
MODULE_VERSION(RDMACHAN_VERSION);
MODULE_LICENSE("GPL");
