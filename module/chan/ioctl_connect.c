// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan: CONNECT and LISTEN ioctls of /dev/rdmachan
 *
 * Both return a new file descriptor (rdmachan_ioc_new_fd()).  Arguments
 * are checked by ioctl_check.c; addresses are resolved in the caller's
 * network namespace.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/file.h>
#include <linux/nsproxy.h>
#include <linux/uaccess.h>
#include <net/net_namespace.h>

#include <linux/rdmachan.h>

#include "rdmachan-pri.h"
#include "ioctl.h"

/* A CONNECT call: its argument, and the options checked out of it */
struct rdmachan_connect_args {
	struct rdmachan_connect	c;
	struct rdmachan_opts	opts;
};

/* A LISTEN call: likewise */
struct rdmachan_listen_args {
	struct rdmachan_listen	c;
	struct rdmachan_opts	opts;
};

/* CONNECT: connect, then make the channel's file */
static int rdmachan_connect_open(void *ctx, int fd, struct file **filep)
{
	struct rdmachan_connect_args *a = ctx;
	struct rdmachan *ch;
	int ret;

	ret = rdmachan_connect_net(current->nsproxy->net_ns, true,
				   (struct sockaddr *)&a->c.dst,
				   (struct sockaddr *)&a->c.src, &a->opts, NULL,
				   NULL, &ch);
	if (ret)
		return ret;
	ret = rdmachan_chan_fd_create(ch, a->c.flags, filep);
	if (ret)
		return ret;
	a->c.fd = fd;
	return 0;
}

long rdmachan_ioc_connect(void __user *uarg)
{
	struct rdmachan_connect_args a;
	long ret;

	if (copy_from_user(&a.c, uarg, sizeof(a.c)))
		return -EFAULT;
	ret = rdmachan_check_connect(&a.c, &a.opts);
	if (ret)
		return ret;
	return rdmachan_ioc_new_fd(a.c.flags, rdmachan_connect_open, &a, &a.c,
				   uarg, sizeof(a.c));
}

/* LISTEN: listen, then make the listener's file */
static int rdmachan_listen_open(void *ctx, int fd, struct file **filep)
{
	struct rdmachan_listen_args *a = ctx;
	struct rdmachan_listener *l;
	int ret;

	ret = rdmachan_listen_net(current->nsproxy->net_ns, true,
				  (struct sockaddr *)&a->c.addr, &a->opts, NULL,
				  NULL, &l);
	if (ret)
		return ret;
	ret = rdmachan_listener_fd_create(l, a->c.flags, filep);
	if (ret)
		return ret;
	a->c.fd = fd;
	memcpy(&a->c.addr, &l->addr, sizeof(a->c.addr));
	return 0;
}

long rdmachan_ioc_listen(void __user *uarg)
{
	struct rdmachan_listen_args a;
	long ret;

	if (copy_from_user(&a.c, uarg, sizeof(a.c)))
		return -EFAULT;
	ret = rdmachan_check_listen(&a.c, &a.opts);
	if (ret)
		return ret;
	return rdmachan_ioc_new_fd(a.c.flags, rdmachan_listen_open, &a, &a.c,
				   uarg, sizeof(a.c));
}
