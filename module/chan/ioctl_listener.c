// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan: the file descriptor of a listener
 *
 * poll() reports readable when an established connection waits for
 * RDMACHAN_IOC_ACCEPT, which returns it as a new channel descriptor.
 * Closing the listener closes the connections not yet accepted.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

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
	if (l->queue.nr_ready)
		mask |= EPOLLIN | EPOLLRDNORM;
	if (l->err)
		mask |= EPOLLERR | EPOLLHUP;
	spin_unlock_irqrestore(&l->lock, flags);
	return mask;
}

/* An ACCEPT call: the listener, its file and the argument */
struct rdmachan_accept_args {
	struct rdmachan_listener	*l;
	struct file			*lf;
	struct rdmachan_accept		a;
};

/* ACCEPT: take a connection, then make the channel's file */
static int rdmachan_accept_open(void *ctx, int fd, struct file **filep)
{
	struct rdmachan_accept_args *x = ctx;
	struct rdmachan *ch;
	int ret;

	ret = rdmachan_accept(x->l, NULL, NULL,
			      (x->a.flags & RDMACHAN_FD_NONBLOCK) ||
			      (x->lf->f_flags & O_NONBLOCK) ?
			      RDMACHAN_ACCEPT_NONBLOCK : 0, &ch);
	if (ret)
		return ret;
	ret = rdmachan_chan_fd_create(ch, x->a.flags, filep);
	if (ret)
		return ret;
	x->a.fd = fd;
	memcpy(&x->a.peer, &ch->conn.dst, sizeof(x->a.peer));
	return 0;
}

static long rdmachan_ioc_accept(struct rdmachan_listener *l, struct file *lf,
				void __user *uarg)
{
	struct rdmachan_accept_args x = { .l = l, .lf = lf };
	int ret;

	if (copy_from_user(&x.a, uarg, sizeof(x.a)))
		return -EFAULT;
	ret = rdmachan_check_accept(&x.a);
	if (ret)
		return ret;
	return rdmachan_ioc_new_fd(x.a.flags, rdmachan_accept_open, &x, &x.a,
				   uarg, sizeof(x.a));
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
};

/**
 * rdmachan_listener_fd_create() - a file for a listener
 * @l: the listener; the file takes over the caller's reference
 * @flags: RDMACHAN_FD_NONBLOCK
 * @filep: the file, for fd_install()
 *
 * Context: process context.
 * Return: 0, or a negative errno after the listener was closed.
 */
int rdmachan_listener_fd_create(struct rdmachan_listener *l,
				unsigned int flags, struct file **filep)
{
	int ret;

	ret = rdmachan_ioc_anon_file("[rdmachan-listener]",
				     &rdmachan_listener_fops, l, flags, filep);
	if (ret)
		rdmachan_listener_close(l);
	return ret;
}
