// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan: the /dev/rdmachan control device
 *
 * A misc device; its mode comes from the dev_mode parameter (root only by
 * default).  The file operations name this module as owner, so the module
 * cannot be unloaded while the device is open.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>

#include <linux/rdmachan.h>

#include "ioctl.h"
#include "params.h"

static long rdmachan_ctl_ioctl(struct file *file, unsigned int cmd,
			       unsigned long arg)
{
	void __user *uarg = (void __user *)arg;

	switch (cmd) {
	case RDMACHAN_IOC_VERSION:
		return rdmachan_ioc_version(uarg);
	case RDMACHAN_IOC_DEV_LIST:
		return rdmachan_ioc_dev_list(uarg);
	case RDMACHAN_IOC_DEV_QUERY:
		return rdmachan_ioc_dev_query(uarg);
	case RDMACHAN_IOC_CONNECT:
		return rdmachan_ioc_connect(uarg);
	case RDMACHAN_IOC_LISTEN:
		return rdmachan_ioc_listen(uarg);
	default:
		return -ENOTTY;
	}
}

static const struct file_operations rdmachan_ctl_fops = {
	.owner		= THIS_MODULE,
	.unlocked_ioctl	= rdmachan_ctl_ioctl,
	.compat_ioctl	= compat_ptr_ioctl,
	.llseek		= noop_llseek,
};

static struct miscdevice rdmachan_miscdev = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= RDMACHAN_DEVICE_NAME,
	.fops	= &rdmachan_ctl_fops,
};

/**
 * rdmachan_ctl_init() - create /dev/rdmachan
 *
 * Return: 0 or a negative errno from misc_register().
 */
int rdmachan_ctl_init(void)
{
	int ret;

	rdmachan_miscdev.mode = rdmachan_param_dev_mode();
	ret = misc_register(&rdmachan_miscdev);
	if (ret)
		pr_err("cannot register /dev/%s: %d\n", RDMACHAN_DEVICE_NAME,
		       ret);
	return ret;
}

/**
 * rdmachan_ctl_exit() - remove /dev/rdmachan
 */
void rdmachan_ctl_exit(void)
{
	misc_deregister(&rdmachan_miscdev);
}
