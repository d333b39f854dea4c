// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan: the RPING ioctl of /dev/rdmachan
 *
 * Copies the argument in, checks it (ioctl_check.c), runs the rping
 * (rping.c) and copies the counts out, also when a signal or the peer
 * ended it: the caller reports how far it went.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/uaccess.h>

#include <linux/rdmachan_verbs.h>

#include "ioctl.h"

long rdmachan_ioc_rping(void __user *uarg)
{
	struct rdmachan_rping a;
	int ret;

	if (copy_from_user(&a, uarg, sizeof(a)))
		return -EFAULT;
	ret = rdmachan_check_rping(&a);
	if (ret)
		return ret;
	ret = rdmachan_rping_run(&a);
	if (copy_to_user(uarg, &a, sizeof(a)))
		return -EFAULT;
	return ret;
}
