// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan: CONNECT and LISTEN ioctls of /dev/rdmachan
 *
 * Both return a new file descriptor.  Arguments are checked by
 * ioctl_check.c; addresses are resolved in the caller's network namespace.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/file.h>
#include <linux/nsproxy.h>
#include <linux/uaccess.h>
#include <net/net_namespace.h>

#include <linux/rdmachan.h>

#include "rdmachan-pri.h"
#include "ioctl.h"

long rdmachan_ioc_connect(void __user *uarg)
{
	struct rdmachan_connect c;
	struct rdmachan_opts opts;
	struct rdmachan *ch;
	struct file *file;
	int fd;
	long ret;

	if (copy_from_user(&c, uarg, sizeof(c)))
		return -EFAULT;
	ret = rdmachan_check_connect(&c, &opts);
	if (ret)
		return ret;

	fd = get_unused_fd_flags(O_RDWR |
				 (c.flags & RDMACHAN_FD_CLOEXEC ? O_CLOEXEC : 0));
	if (fd < 0)
		return fd;
	ret = rdmachan_connect_net(current->nsproxy->net_ns,
				   (struct sockaddr *)&c.dst,
				   (struct sockaddr *)&c.src, &opts, NULL, NULL,
				   &ch);
	if (ret)
		goto out_fd;
	ret = rdmachan_chan_fd_create(ch, c.flags, &file);
	if (ret) {
		rdmachan_close(ch);
		goto out_fd;
	}
	c.fd = fd;
	if (copy_to_user(uarg, &c, sizeof(c))) {
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

long rdmachan_ioc_listen(void __user *uarg)
{
	struct rdmachan_listener *l;
	struct rdmachan_listen c;
	struct rdmachan_opts opts;
	struct file *file;
	int fd;
	long ret;

	if (copy_from_user(&c, uarg, sizeof(c)))
		return -EFAULT;
	ret = rdmachan_check_listen(&c, &opts);
	if (ret)
		return ret;

	fd = get_unused_fd_flags(O_RDWR |
				 (c.flags & RDMACHAN_FD_CLOEXEC ? O_CLOEXEC : 0));
	if (fd < 0)
		return fd;
	ret = rdmachan_listen_net(current->nsproxy->net_ns,
				  (struct sockaddr *)&c.addr, &opts, NULL,
				  NULL, &l);
	if (ret)
		goto out_fd;
	ret = rdmachan_listener_fd_create(l, c.flags, &file);
	if (ret) {
		rdmachan_listener_close(l);
		goto out_fd;
	}
	c.fd = fd;
	memcpy(&c.addr, &l->addr, sizeof(c.addr));
	if (copy_to_user(uarg, &c, sizeof(c))) {
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
