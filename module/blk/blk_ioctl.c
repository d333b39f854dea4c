// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan_blk: the user ABI, RDMACHAN_IOC_BLK_* of /dev/rdmachan
 *
 * rdmachan.ko hands these ioctls over (rdmachan_ctl_register()); this
 * file copies and checks each argument (size, reserved fields, strings
 * terminated) and calls the side that serves it.  Exporting and mapping
 * need CAP_SYS_ADMIN, listing does not.  Every argument refused with
 * -EINVAL is logged (rate-limited) with the reason, the caller's command
 * name and PID, as rdmachan.ko's own ioctls are.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/capability.h>
#include <linux/module.h>
#include <linux/pid.h>
#include <linux/sched.h>
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

/* Log an argument refused with -EINVAL: the ioctl, the caller, why */
static long rcblk_ioc_inval(const char *ioc, const char *why)
{
	pr_info_ratelimited("%s: %s (pid %d): %s\n", ioc, current->comm,
			    task_pid_nr(current), why);
	return -EINVAL;
}

static long rcblk_ioc_export(void __user *uarg)
{
	struct rdmachan_blk_export *e;
	long ret;

	e = memdup_user(uarg, sizeof(*e));
	if (IS_ERR(e))
		return PTR_ERR(e);
	if (e->size != sizeof(*e))
		ret = rcblk_ioc_inval("BLK_EXPORT", "wrong size");
	else if (e->flags & ~(RDMACHAN_BLK_RO | RDMACHAN_BLK_STABLE_ID))
		ret = rcblk_ioc_inval("BLK_EXPORT", "unknown flags");
	else if (e->reserved)
		ret = rcblk_ioc_inval("BLK_EXPORT", "reserved not zero");
	else if (e->nr_allow > RDMACHAN_BLK_MAX_ALLOW)
		ret = rcblk_ioc_inval("BLK_EXPORT", "nr_allow over 16");
	else if (!rcblk_str_ok(e->name, sizeof(e->name)))
		ret = rcblk_ioc_inval("BLK_EXPORT", "name empty or not terminated");
	else if (!rcblk_str_ok(e->path, sizeof(e->path)))
		ret = rcblk_ioc_inval("BLK_EXPORT", "path empty or not terminated");
	else
		ret = rcblk_srv_export(e);
	kfree(e);
	return ret;
}

static long rcblk_ioc_unexport(void __user *uarg)
{
	struct rdmachan_blk_unexport u;

	if (copy_from_user(&u, uarg, sizeof(u)))
		return -EFAULT;
	if (u.size != sizeof(u))
		return rcblk_ioc_inval("BLK_UNEXPORT", "wrong size");
	if (u.flags & ~RDMACHAN_BLK_FORCE)
		return rcblk_ioc_inval("BLK_UNEXPORT", "unknown flags");
	if (!rcblk_str_ok(u.name, sizeof(u.name)))
		return rcblk_ioc_inval("BLK_UNEXPORT",
				       "name empty or not terminated");
	return rcblk_srv_unexport(u.name, u.flags);
}

/*
 * The disk is made only once its index can be written back: @index (zero
 * on input) is written first, so that an argument in read-only memory
 * fails with -EFAULT before anything exists.  Should the write back still
 * fail (the memory made read-only meanwhile), the disk is unmapped again:
 * no disk stays whose caller was told the map failed.
 */
static long rcblk_ioc_map(void __user *uarg)
{
	struct rdmachan_blk_map __user *um = uarg;
	struct rdmachan_blk_map m;
	int ret;

	if (copy_from_user(&m, uarg, sizeof(m)))
		return -EFAULT;
	if (m.size != sizeof(m))
		return rcblk_ioc_inval("BLK_MAP", "wrong size");
	if (m.flags & ~RDMACHAN_BLK_RO)
		return rcblk_ioc_inval("BLK_MAP", "unknown flags");
	if (m.reserved)
		return rcblk_ioc_inval("BLK_MAP", "reserved not zero");
	if (m.index)
		return rcblk_ioc_inval("BLK_MAP", "output field index not zero");
	if (!rcblk_str_ok(m.name, sizeof(m.name)))
		return rcblk_ioc_inval("BLK_MAP", "name empty or not terminated");
	if (put_user(0U, &um->index))
		return -EFAULT;
	ret = rcblk_clt_map(&m);
	if (ret)
		return ret;
	if (put_user(m.index, &um->index)) {
		pr_info_ratelimited("BLK_MAP: %s (pid %d): the index of rcblk%u cannot be written back: unmapping it\n",
				    current->comm, task_pid_nr(current),
				    m.index);
		rcblk_clt_unmap(m.index, RDMACHAN_BLK_FORCE);
		return -EFAULT;
	}
	return 0;
}

static long rcblk_ioc_unmap(void __user *uarg)
{
	struct rdmachan_blk_unmap u;

	if (copy_from_user(&u, uarg, sizeof(u)))
		return -EFAULT;
	if (u.size != sizeof(u))
		return rcblk_ioc_inval("BLK_UNMAP", "wrong size");
	if (u.flags & ~RDMACHAN_BLK_FORCE)
		return rcblk_ioc_inval("BLK_UNMAP", "unknown flags");
	if (u.reserved)
		return rcblk_ioc_inval("BLK_UNMAP", "reserved not zero");
	return rcblk_clt_unmap(u.index, u.flags);
}

static long rcblk_ioc_remap(void __user *uarg)
{
	struct rdmachan_blk_remap r;

	if (copy_from_user(&r, uarg, sizeof(r)))
		return -EFAULT;
	if (r.size != sizeof(r))
		return rcblk_ioc_inval("BLK_REMAP", "wrong size");
	if (r.flags)
		return rcblk_ioc_inval("BLK_REMAP", "unknown flags");
	if (r.reserved)
		return rcblk_ioc_inval("BLK_REMAP", "reserved not zero");
	return rcblk_clt_remap(r.index);
}

/**
 * rcblk_list_out() - answer a list ioctl without holding its lock across
 *	the copy to user memory
 * @entries: the user's array
 * @room: its entries
 * @count: out: the entries there are (more than copied when @room is
 *	short)
 * @esize: the size of one entry
 * @lock: what @snapshot needs held
 * @snapshot: describes up to @room entries into @buf (which may be NULL
 *	when @room is 0) and returns how many there are
 *
 * The objects are described into kernel memory under @lock, then copied
 * out without it: a user buffer that faults or stalls (userfaultfd, a
 * slow FUSE mapping) holds up nothing that takes @lock.  The buffer is
 * sized by a count taken first; when objects came meanwhile and @room has
 * space for them, it is sized again (a few times at most, then the count
 * says more than were copied).
 *
 * Context: process context, sleeps.
 * Return: 0, -ENOMEM or -EFAULT.
 */
int rcblk_list_out(void __user *entries, u32 room, u32 *count, size_t esize,
		   struct mutex *lock, u32 (*snapshot)(void *buf, u32 room))
{
	void *buf = NULL;
	u32 n, want = 0;
	int tries, ret = 0;

	for (tries = 0; ; tries++) {
		mutex_lock(lock);
		n = snapshot(buf, want);
		mutex_unlock(lock);
		if (n <= want || want == room || tries == 3)
			break;
		want = min(n, room);
		kvfree(buf);
		buf = kvcalloc(want, esize, GFP_KERNEL);
		if (!buf)
			return -ENOMEM;
	}
	want = min(n, want);
	*count = n;
	if (want && copy_to_user(entries, buf, want * esize))
		ret = -EFAULT;
	kvfree(buf);
	return ret;
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
		return rcblk_ioc_inval("BLK_LIST", "wrong size");
	if (l.count && !l.entries)
		return rcblk_ioc_inval("BLK_LIST",
				       "a count with a null entries pointer");
	entries = u64_to_user_ptr(l.entries);
	switch (l.what) {
	case RDMACHAN_BLK_LIST_EXPORTS:
		if (l.entry_size != sizeof(struct rdmachan_blk_export_info))
			return rcblk_ioc_inval("BLK_LIST", "wrong entry_size");
		ret = rcblk_srv_list(entries, l.count, &count);
		break;
	case RDMACHAN_BLK_LIST_MAPS:
		if (l.entry_size != sizeof(struct rdmachan_blk_map_info))
			return rcblk_ioc_inval("BLK_LIST", "wrong entry_size");
		ret = rcblk_clt_list(entries, l.count, &count);
		break;
	default:
		return rcblk_ioc_inval("BLK_LIST", "unknown what");
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
