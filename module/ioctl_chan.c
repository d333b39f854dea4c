// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan: CONNECT and LISTEN ioctls of /dev/rdmachan
 *
 * Both return a new file descriptor.  Addresses are resolved in the
 * caller's network namespace.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/file.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/nsproxy.h>
#include <linux/uaccess.h>
#include <net/net_namespace.h>

#include <linux/rdmachan.h>

#include "chan.h"
#include "ioctl.h"

#define RDMACHAN_FD_FLAGS	(RDMACHAN_FD_NONBLOCK | RDMACHAN_FD_CLOEXEC)

/* Check an address from user space; @any allows AF_UNSPEC. */
static int rdmachan_check_addr(const char *ioc, const char *what,
			       const struct __kernel_sockaddr_storage *ss,
			       bool any, bool need_port)
{
	const struct sockaddr_in *sin = (const struct sockaddr_in *)ss;
	const struct sockaddr_in6 *sin6 = (const struct sockaddr_in6 *)ss;

	switch (ss->ss_family) {
	case AF_UNSPEC:
		if (any && !memchr_inv(ss, 0, sizeof(*ss)))
			return 0;
		break;
	case AF_INET:
		if (!need_port || sin->sin_port)
			return 0;
		return rdmachan_ioc_inval(ioc, "%s: port 0", what);
	case AF_INET6:
		if (!need_port || sin6->sin6_port)
			return 0;
		return rdmachan_ioc_inval(ioc, "%s: port 0", what);
	default:
		break;
	}
	return rdmachan_ioc_inval(ioc, "%s: address family %u", what,
				  ss->ss_family);
}

static int rdmachan_check_opts(const char *ioc,
			       const struct rdmachan_chan_opts *o,
			       struct rdmachan_opts *out)
{
	if (o->reserved)
		return rdmachan_ioc_inval(ioc, "non-zero reserved option");
	if (o->poll_mode > RDMACHAN_POLL_MODE_DIRECT)
		return rdmachan_ioc_inval(ioc, "poll_mode %u", o->poll_mode);
	if (o->queue_depth > RDMACHAN_MAX_DEPTH)
		return rdmachan_ioc_inval(ioc, "queue_depth %u > %u",
					  o->queue_depth, RDMACHAN_MAX_DEPTH);
	if (o->max_msg_size > (1U << 20))
		return rdmachan_ioc_inval(ioc, "max_msg_size %u > 1048576",
					  o->max_msg_size);
	if (o->timeout_ms > 600000)
		return rdmachan_ioc_inval(ioc, "timeout_ms %u > 600000",
					  o->timeout_ms);
	out->queue_depth = o->queue_depth;
	out->max_msg_size = o->max_msg_size;
	out->timeout_ms = o->timeout_ms;
	out->poll_mode = o->poll_mode;
	out->backlog = o->backlog;
	return 0;
}

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
	if (c.size != sizeof(c))
		return rdmachan_ioc_inval("CONNECT", "size %u, expected %zu",
					  c.size, sizeof(c));
	if (c.flags & ~RDMACHAN_FD_FLAGS)
		return rdmachan_ioc_inval("CONNECT", "unknown flags 0x%x",
					  c.flags);
	if (c.fd || memchr_inv(c.reserved, 0, sizeof(c.reserved)))
		return rdmachan_ioc_inval("CONNECT", "non-zero reserved field");
	ret = rdmachan_check_opts("CONNECT", &c.opts, &opts);
	if (!ret)
		ret = rdmachan_check_addr("CONNECT", "dst", &c.dst, false, true);
	if (!ret)
		ret = rdmachan_check_addr("CONNECT", "src", &c.src, true, false);
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
	if (c.size != sizeof(c))
		return rdmachan_ioc_inval("LISTEN", "size %u, expected %zu",
					  c.size, sizeof(c));
	if (c.flags & ~RDMACHAN_FD_FLAGS)
		return rdmachan_ioc_inval("LISTEN", "unknown flags 0x%x",
					  c.flags);
	if (c.fd || memchr_inv(c.reserved, 0, sizeof(c.reserved)))
		return rdmachan_ioc_inval("LISTEN", "non-zero reserved field");
	ret = rdmachan_check_opts("LISTEN", &c.opts, &opts);
	if (!ret)
		ret = rdmachan_check_addr("LISTEN", "addr", &c.addr, false,
					  false);
	if (ret)
		return ret;
	if (opts.backlog > 65536)
		return rdmachan_ioc_inval("LISTEN", "backlog %u > 65536",
					  opts.backlog);

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
