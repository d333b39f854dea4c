// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan: the /dev/rdmachan control device
 *
 * A misc device; its mode comes from the dev_mode parameter (root only by
 * default).  The file operations name this module as owner, so the module
 * cannot be unloaded while the device is open.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/anon_inodes.h>
#include <linux/fcntl.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/uaccess.h>

#include <linux/rdmachan.h>
#include <linux/rdmachan_verbs.h>

#include "ioctl.h"
#include "params.h"

/**
 * rdmachan_ioc_new_fd() - the end of every ioctl that makes a descriptor
 * @fd_flags: RDMACHAN_FD_* of the call (RDMACHAN_FD_CLOEXEC is used here)
 * @open: makes the object and its file, and fills in @karg (its @fd
 *	among the rest); on failure it leaves nothing behind
 * @ctx: for @open
 * @karg: the ioctl's argument, copied out to @uarg once @open succeeded
 * @uarg: the caller's argument
 * @len: bytes of @karg
 *
 * Reserves the descriptor first (a caller out of descriptors fails before
 * anything is built), has @open build the object, copies the argument
 * out and only then installs the file: a fault copying out releases the
 * file (which closes the object) and the descriptor, so the caller never
 * sees a descriptor it was not told about.
 *
 * Context: process context.
 * Return: the new descriptor, or a negative errno.
 */
long rdmachan_ioc_new_fd(u32 fd_flags,
			 int (*open)(void *ctx, int fd, struct file **filep),
			 void *ctx, const void *karg, void __user *uarg,
			 size_t len)
{
	struct file *file;
	int fd, ret;

	fd = get_unused_fd_flags(O_RDWR |
				 (fd_flags & RDMACHAN_FD_CLOEXEC ? O_CLOEXEC : 0));
	if (fd < 0)
		return fd;
	ret = open(ctx, fd, &file);
	if (ret)
		goto out_fd;
	if (copy_to_user(uarg, karg, len)) {
		fput(file);
		ret = -EFAULT;
		goto out_fd;
	}
	fd_install(fd, file);
	return fd;

out_fd:
	put_unused_fd(fd);
	return ret;
}

/**
 * rdmachan_ioc_anon_file() - the file of a channel or a listener
 * @name: its anonymous inode's name
 * @fops: its file operations
 * @priv: the object; the file takes over the caller's reference
 * @flags: RDMACHAN_FD_NONBLOCK
 * @filep: the file, for fd_install() once the caller commits
 *
 * Context: process context.
 * Return: 0, or a negative errno (@priv is then still the caller's).
 */
int rdmachan_ioc_anon_file(const char *name,
			   const struct file_operations *fops, void *priv,
			   unsigned int flags, struct file **filep)
{
	struct file *file;

	file = anon_inode_getfile(name, fops, priv,
				  O_RDWR | (flags & RDMACHAN_FD_NONBLOCK ?
					    O_NONBLOCK : 0));
	if (IS_ERR(file))
		return PTR_ERR(file);
	*filep = file;
	return 0;
}

/* ioctl ranges other modules serve (rdmachan_ctl_register()) */
static LIST_HEAD(rdmachan_ctl_exts);
static DEFINE_MUTEX(rdmachan_ctl_exts_mutex);

/**
 * rdmachan_ctl_register() - serve a range of /dev/rdmachan's ioctls
 * @ext: the range and its handler; stays the caller's, unchanged, until
 *	rdmachan_ctl_unregister()
 *
 * Lets a module built on rdmachan (rdmachan_blk, rdmachan_net) take
 * ioctls of RDMACHAN_IOC_MAGIC in [@ext->nr_first, @ext->nr_last],
 * which must be at least RDMACHAN_CTL_NR_EXT (the numbers below belong
 * to rdmachan).  Each call holds a reference on @ext->owner, so the
 * module cannot go away under it.  A module that also declares
 * RDMACHAN_CTL_ALIAS(@ext->nr_first), with a range that starts at a
 * multiple of 16, is loaded by the first ioctl of that range.
 *
 * Context: process context.
 * Return: 0, -EINVAL for a range below 0x80 or upside down, -EBUSY when
 * it overlaps one registered.
 */
int rdmachan_ctl_register(struct rdmachan_ctl_ext *ext)
{
	struct rdmachan_ctl_ext *e;
	int ret = 0;

	if (ext->nr_first < RDMACHAN_CTL_NR_EXT || ext->nr_last > 0xff ||
	    ext->nr_first > ext->nr_last || !ext->ioctl)
		return -EINVAL;
	mutex_lock(&rdmachan_ctl_exts_mutex);
	list_for_each_entry(e, &rdmachan_ctl_exts, node) {
		if (ext->nr_first <= e->nr_last && e->nr_first <= ext->nr_last) {
			ret = -EBUSY;
			goto out;
		}
	}
	list_add_tail(&ext->node, &rdmachan_ctl_exts);
out:
	mutex_unlock(&rdmachan_ctl_exts_mutex);
	return ret;
}
EXPORT_SYMBOL_GPL(rdmachan_ctl_register);

/**
 * rdmachan_ctl_unregister() - stop serving a range of ioctls
 * @ext: as given to rdmachan_ctl_register()
 *
 * No call of @ext->ioctl is running or starts once this returns: a
 * running call holds its module, so the module exit that calls this
 * cannot run before it ends.
 *
 * Context: process context.
 */
void rdmachan_ctl_unregister(struct rdmachan_ctl_ext *ext)
{
	mutex_lock(&rdmachan_ctl_exts_mutex);
	list_del(&ext->node);
	mutex_unlock(&rdmachan_ctl_exts_mutex);
}
EXPORT_SYMBOL_GPL(rdmachan_ctl_unregister);

/* The extension serving @nr, with its module held, or NULL */
static struct rdmachan_ctl_ext *rdmachan_ctl_ext_get(unsigned int nr)
{
	struct rdmachan_ctl_ext *e, *found = NULL;

	mutex_lock(&rdmachan_ctl_exts_mutex);
	list_for_each_entry(e, &rdmachan_ctl_exts, node) {
		if (nr >= e->nr_first && nr <= e->nr_last &&
		    try_module_get(e->owner)) {
			found = e;
			break;
		}
	}
	mutex_unlock(&rdmachan_ctl_exts_mutex);
	return found;
}

/*
 * An ioctl of a module that registered its range, or -ENOTTY.  A range
 * nobody serves yet loads the module whose RDMACHAN_CTL_ALIAS() names it
 * (as nvme-fabrics loads "nvme-<transport>"): "rdmachan blk map" works
 * without a modprobe first, and "blacklist" in modprobe.d stops it.
 */
static long rdmachan_ctl_ext_ioctl(struct file *file, unsigned int cmd,
				   void __user *uarg)
{
	struct rdmachan_ctl_ext *found;
	unsigned int nr = _IOC_NR(cmd);
	char alias[32];
	int err;
	long ret;

	if (_IOC_TYPE(cmd) != RDMACHAN_IOC_MAGIC || nr < RDMACHAN_CTL_NR_EXT)
		return -ENOTTY;
	found = rdmachan_ctl_ext_get(nr);
	if (!found) {
		snprintf(alias, sizeof(alias), RDMACHAN_CTL_ALIAS_FMT,
			 RDMACHAN_CTL_ALIAS_BASE(nr));
		err = request_module("%s", alias);
		found = rdmachan_ctl_ext_get(nr);
		if (!found) {
			pr_info_ratelimited("no module serves ioctl 0x%02x (modprobe %s: %d)\n",
					    nr, alias, err);
			return -ENOTTY;
		}
	}
	ret = found->ioctl(file, cmd, uarg);
	module_put(found->owner);
	return ret;
}

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
	case RDMACHAN_IOC_RPING:
		return rdmachan_ioc_rping(uarg);
	case RDMACHAN_IOC_DGRAM_OPEN:
		return rdmachan_ioc_dgram_open(uarg);
	default:
		return rdmachan_ctl_ext_ioctl(file, cmd, uarg);
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
