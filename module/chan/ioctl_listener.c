// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan: the file descriptor of a listener
 *
 * poll() reports readable when an established connection waits for
 * RDMACHAN_IOC_ACCEPT, which returns it as a new channel descriptor.
 * Closing the listener closes the connections not yet accepted.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/anon_inodes.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/poll.h>
#include <linux/uaccess.h>

#include <linux/rdmachan.h>

#include "rdmachan-pri.h"
#include "ioctl.h"

static int rdmachan_listener_fd_release(struct inode *inode, struct file *file)
{
	rdmachan_listener_close(file->private_data);
	return 0;
}

static __poll_t rdmachan_listener_fd_poll(struct file *file, poll_table *wait)
{
	struct rdmachan_listener *l = file->private_data;
	unsigned long flags;
	__poll_t mask = 0;

	poll_wait(file, &l->wq, wait);
	spin_lock_irqsave(&l->lock, flags);
	if (l->nr_ready)
		mask |= EPOLLIN | EPOLLRDNORM;
	if (l->err)
		mask |= EPOLLERR | EPOLLHUP;
	spin_unlock_irqrestore(&l->lock, flags);
	return mask;
}

static long rdmachan_ioc_accept(struct rdmachan_listener *l, struct file *lf,
				void __user *uarg)
{
	struct rdmachan_accept a;
	struct rdmachan *ch;
	struct file *file;
	int fd, ret;

	if (copy_from_user(&a, uarg, sizeof(a)))
		return -EFAULT;
	ret = rdmachan_check_accept(&a);
	if (ret)
		return ret;

	fd = get_unused_fd_flags(O_RDWR |
				 (a.flags & RDMACHAN_FD_CLOEXEC ? O_CLOEXEC : 0));
	if (fd < 0)
		return fd;
	ret = rdmachan_accept(l, NULL, NULL,
			      (a.flags & RDMACHAN_FD_NONBLOCK) ||
			      (lf->f_flags & O_NONBLOCK) ?
			      RDMACHAN_ACCEPT_NONBLOCK : 0, &ch);
	if (ret)
		goto out_fd;
	ret = rdmachan_chan_fd_create(ch, a.flags, &file);
	if (ret) {
		rdmachan_close(ch);
		goto out_fd;
	}
	a.fd = fd;
	memcpy(&a.peer, &ch->dst, sizeof(a.peer));
	if (copy_to_user(uarg, &a, sizeof(a))) {
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

static long rdmachan_listener_fd_ioctl(struct file *file, unsigned int cmd,
				       unsigned long arg)
{
	switch (cmd) {
	case RDMACHAN_IOC_ACCEPT:
		return rdmachan_ioc_accept(file->private_data, file,
					   (void __user *)arg);
	default:
		return -ENOTTY;
	}
}

static const struct file_operations rdmachan_listener_fops = {
	.owner		= THIS_MODULE,
	.release	= rdmachan_listener_fd_release,
	.poll		= rdmachan_listener_fd_poll,
	.unlocked_ioctl	= rdmachan_listener_fd_ioctl,
	.compat_ioctl	= compat_ptr_ioctl,
	.llseek		= no_llseek,
};

/**
 * rdmachan_listener_fd_create() - a file for a listener
 * @l: the listener; the file takes over the caller's reference
 * @flags: RDMACHAN_FD_NONBLOCK
 * @filep: the file, for fd_install()
 *
 * Return: 0 or a negative errno (the listener is then still the caller's).
 */
int rdmachan_listener_fd_create(struct rdmachan_listener *l,
				unsigned int flags, struct file **filep)
{
	struct file *file;

	file = anon_inode_getfile("[rdmachan-listener]",
				  &rdmachan_listener_fops, l,
				  O_RDWR | (flags & RDMACHAN_FD_NONBLOCK ?
					    O_NONBLOCK : 0));
	if (IS_ERR(file))
		return PTR_ERR(file);
	*filep = file;
	return 0;
}
