// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan_net: the user ABI, RDMACHAN_IOC_NET_* of /dev/rdmachan
 *
 * rdmachan.ko hands these ioctls over (rdmachan_ctl_register()); this
 * file copies and checks each argument (size, reserved fields, strings
 * terminated) and calls net_dev.c.  Adding and deleting need
 * CAP_NET_ADMIN, listing does not.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/capability.h>
#include <linux/module.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "net.h"

/* A NUL within @len bytes, and something before it */
static bool rcnet_str_ok(const char *s, size_t len)
{
	return s[0] && memchr(s, '\0', len);
}

static long rcnet_ioc_add(void __user *uarg)
{
	struct rdmachan_net_add *a;
	long ret;

	a = memdup_user(uarg, sizeof(*a));
	if (IS_ERR(a))
		return PTR_ERR(a);
	ret = -EINVAL;
	if (a->size != sizeof(*a) || memchr_inv(a->reserved, 0,
						sizeof(a->reserved)) ||
	    !rcnet_str_ok(a->name, sizeof(a->name))) {
		pr_warn_ratelimited("net add: malformed argument\n");
		goto out;
	}
	ret = rcnet_add(a);
out:
	kfree(a);
	return ret;
}

static long rcnet_ioc_del(void __user *uarg)
{
	struct rdmachan_net_del d;

	if (copy_from_user(&d, uarg, sizeof(d)))
		return -EFAULT;
	if (d.size != sizeof(d) || d.flags ||
	    !rcnet_str_ok(d.name, sizeof(d.name))) {
		pr_warn_ratelimited("net del: malformed argument\n");
		return -EINVAL;
	}
	return rcnet_del(d.name);
}

static long rcnet_ioc_list(void __user *uarg)
{
	struct rdmachan_net_list __user *ul = uarg;
	struct rdmachan_net_list l;
	u32 count = 0;
	int ret;

	if (copy_from_user(&l, uarg, sizeof(l)))
		return -EFAULT;
	if (l.size != sizeof(l) || l.reserved ||
	    l.entry_size != sizeof(struct rdmachan_net_info))
		return -EINVAL;
	if (l.count && !l.entries) {
		pr_warn_ratelimited("NET_LIST: room for %u with a null array (%s[%d])\n",
				    l.count, current->comm,
				    task_pid_nr(current));
		return -EINVAL;
	}
	ret = rcnet_list(u64_to_user_ptr(l.entries), l.count, &count);
	if (ret)
		return ret;
	return put_user(count, &ul->count) ? -EFAULT : 0;
}

static long rcnet_ioctl(struct file *file, unsigned int cmd,
			void __user *uarg)
{
	if (cmd != RDMACHAN_IOC_NET_LIST && !capable(CAP_NET_ADMIN))
		return -EPERM;
	switch (cmd) {
	case RDMACHAN_IOC_NET_ADD:
		return rcnet_ioc_add(uarg);
	case RDMACHAN_IOC_NET_DEL:
		return rcnet_ioc_del(uarg);
	case RDMACHAN_IOC_NET_LIST:
		return rcnet_ioc_list(uarg);
	default:
		return -ENOTTY;
	}
}

static struct rdmachan_ctl_ext rcnet_ctl_ext = {
	.owner		= THIS_MODULE,
	.nr_first	= RDMACHAN_IOC_NET_FIRST,
	.nr_last	= RDMACHAN_IOC_NET_LAST,
	.ioctl		= rcnet_ioctl,
};

/**
 * rcnet_ioctl_init() - take RDMACHAN_IOC_NET_* of /dev/rdmachan
 *
 * Context: process context.
 * Return: 0 or the errno of rdmachan_ctl_register().
 */
int rcnet_ioctl_init(void)
{
	return rdmachan_ctl_register(&rcnet_ctl_ext);
}

/**
 * rcnet_ioctl_exit() - give them back; no call runs after this
 *
 * Context: process context.
 */
void rcnet_ioctl_exit(void)
{
	rdmachan_ctl_unregister(&rcnet_ctl_ext);
}
