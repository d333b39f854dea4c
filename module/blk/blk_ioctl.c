// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan_blk: the user ABI, RDMACHAN_IOC_BLK_* of /dev/rdmachan
 *
 * rdmachan.ko hands these ioctls over (rdmachan_ctl_register()); this
 * file copies and checks each argument (size, reserved fields, strings
 * terminated) and calls the side that serves it.  Exporting and mapping
 * need CAP_SYS_ADMIN, listing does not.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/capability.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "blk.h"
#include "blk_ioctl.h"

/* A NUL within @len bytes: the string is terminated */
static bool rcblk_str_ok(const char *s, size_t len)
{
	return s[0] && memchr(s, '\0', len);
}

static bool rcblk_zero(const void *p, size_t len)
{
	return !memchr_inv(p, 0, len);
}

static long rcblk_ioc_export(void __user *uarg)
{
	struct rdmachan_blk_export *e;
	long ret;

	e = memdup_user(uarg, sizeof(*e));
	if (IS_ERR(e))
		return PTR_ERR(e);
	ret = -EINVAL;
	if (e->size != sizeof(*e) ||
	    e->flags & ~(RDMACHAN_BLK_RO | RDMACHAN_BLK_STABLE_ID) ||
	    e->reserved || e->nr_allow > RDMACHAN_BLK_MAX_ALLOW ||
	    !rcblk_str_ok(e->name, sizeof(e->name)) ||
	    !rcblk_str_ok(e->path, sizeof(e->path)))
		goto out;
	ret = rcblk_srv_export(e);
out:
	kfree(e);
	return ret;
}

static long rcblk_ioc_unexport(void __user *uarg)
{
	struct rdmachan_blk_unexport u;

	if (copy_from_user(&u, uarg, sizeof(u)))
		return -EFAULT;
	if (u.size != sizeof(u) || u.flags & ~RDMACHAN_BLK_FORCE ||
	    !rcblk_str_ok(u.name, sizeof(u.name)))
		return -EINVAL;
	return rcblk_srv_unexport(u.name, u.flags);
}

static long rcblk_ioc_map(void __user *uarg)
{
	struct rdmachan_blk_map m;
	int ret;

	if (copy_from_user(&m, uarg, sizeof(m)))
		return -EFAULT;
	if (m.size != sizeof(m) || m.flags & ~RDMACHAN_BLK_RO ||
	    !rcblk_zero(m.reserved, sizeof(m.reserved)) ||
	    !rcblk_str_ok(m.name, sizeof(m.name)))
		return -EINVAL;
	ret = rcblk_clt_map(&m);
	if (ret)
		return ret;
	if (put_user(m.index, &((struct rdmachan_blk_map __user *)uarg)->index))
		return -EFAULT;
	return 0;
}

static long rcblk_ioc_unmap(void __user *uarg)
{
	struct rdmachan_blk_unmap u;

	if (copy_from_user(&u, uarg, sizeof(u)))
		return -EFAULT;
	if (u.size != sizeof(u) || u.flags & ~RDMACHAN_BLK_FORCE || u.reserved)
		return -EINVAL;
	return rcblk_clt_unmap(u.index, u.flags);
}

static long rcblk_ioc_remap(void __user *uarg)
{
	struct rdmachan_blk_remap r;

	if (copy_from_user(&r, uarg, sizeof(r)))
		return -EFAULT;
	if (r.size != sizeof(r) || r.flags || r.reserved)
		return -EINVAL;
	return rcblk_clt_remap(r.index);
}

static long rcblk_ioc_list(void __user *uarg)
{
	struct rdmachan_blk_list __user *ul = uarg;
	struct rdmachan_blk_list l;
	void __user *entries;
	u32 count = 0;
	int ret;

	if (copy_from_user(&l, uarg, sizeof(l)))
		return -EFAULT;
	if (l.size != sizeof(l))
		return -EINVAL;
	entries = u64_to_user_ptr(l.entries);
	switch (l.what) {
	case RDMACHAN_BLK_LIST_EXPORTS:
		if (l.entry_size != sizeof(struct rdmachan_blk_export_info))
			return -EINVAL;
		ret = rcblk_srv_list(entries, l.count, &count);
		break;
	case RDMACHAN_BLK_LIST_MAPS:
		if (l.entry_size != sizeof(struct rdmachan_blk_map_info))
			return -EINVAL;
		ret = rcblk_clt_list(entries, l.count, &count);
		break;
	default:
		return -EINVAL;
	}
	if (ret)
		return ret;
	return put_user(count, &ul->count) ? -EFAULT : 0;
}

static long rcblk_ioctl(struct file *file, unsigned int cmd,
			void __user *uarg)
{
	if (cmd != RDMACHAN_IOC_BLK_LIST && !capable(CAP_SYS_ADMIN))
		return -EPERM;
	switch (cmd) {
	case RDMACHAN_IOC_BLK_EXPORT:
		return rcblk_ioc_export(uarg);
	case RDMACHAN_IOC_BLK_UNEXPORT:
		return rcblk_ioc_unexport(uarg);
	case RDMACHAN_IOC_BLK_MAP:
		return rcblk_ioc_map(uarg);
	case RDMACHAN_IOC_BLK_UNMAP:
		return rcblk_ioc_unmap(uarg);
	case RDMACHAN_IOC_BLK_LIST:
		return rcblk_ioc_list(uarg);
	case RDMACHAN_IOC_BLK_REMAP:
		return rcblk_ioc_remap(uarg);
	default:
		return -ENOTTY;
	}
}

static struct rdmachan_ctl_ext rcblk_ctl_ext = {
	.owner		= THIS_MODULE,
	.nr_first	= RDMACHAN_IOC_BLK_FIRST,
	.nr_last	= RDMACHAN_IOC_BLK_LAST,
	.ioctl		= rcblk_ioctl,
};

/**
 * rcblk_ioctl_init() - take RDMACHAN_IOC_BLK_* of /dev/rdmachan
 *
 * Context: process context.
 * Return: 0 or the errno of rdmachan_ctl_register().
 */
int rcblk_ioctl_init(void)
{
	return rdmachan_ctl_register(&rcblk_ctl_ext);
}

/**
 * rcblk_ioctl_exit() - give them back; no call runs after this
 *
 * Context: process context.
 */
void rcblk_ioctl_exit(void)
{
	rdmachan_ctl_unregister(&rcblk_ctl_ext);
}
