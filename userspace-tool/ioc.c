// SPDX-License-Identifier: GPL-2.0-only
/*
 * ioc.c: the channel ioctls, one call each (ioc.h).  Shared by the tool
 * and the test helpers of tests/vm/helpers.
 */
#include <string.h>
#include <sys/ioctl.h>

#include "ioc.h"

int ioc_connect(int ctl, const void *dst, const void *src,
		const struct rdmachan_chan_opts *opts, unsigned int flags)
{
	struct rdmachan_connect c;

	memset(&c, 0, sizeof(c));
	c.size = sizeof(c);
	c.flags = flags;
	if (opts)
		c.opts = *opts;
	memcpy(&c.dst, dst, sizeof(c.dst));
	if (src)
		memcpy(&c.src, src, sizeof(c.src));
	return ioctl(ctl, RDMACHAN_IOC_CONNECT, &c);
}

int ioc_listen(int ctl, void *addr, const struct rdmachan_chan_opts *opts,
	       unsigned int flags)
{
	struct rdmachan_listen l;
	int fd;

	memset(&l, 0, sizeof(l));
	l.size = sizeof(l);
	l.flags = flags;
	if (opts)
		l.opts = *opts;
	memcpy(&l.addr, addr, sizeof(l.addr));
	fd = ioctl(ctl, RDMACHAN_IOC_LISTEN, &l);
	if (fd >= 0)
		memcpy(addr, &l.addr, sizeof(l.addr));
	return fd;
}

int ioc_accept(int lfd, unsigned int flags, void *peer)
{
	struct rdmachan_accept a;
	int fd;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.flags = flags;
	fd = ioctl(lfd, RDMACHAN_IOC_ACCEPT, &a);
	if (fd >= 0 && peer)
		memcpy(peer, &a.peer, sizeof(a.peer));
	return fd;
}

int ioc_chan_info(int fd, struct rdmachan_chan_info *ci)
{
	memset(ci, 0, sizeof(*ci));
	ci->size = sizeof(*ci);
	return ioctl(fd, RDMACHAN_IOC_CHAN_INFO, ci) < 0 ? -1 : 0;
}

int ioc_reg_mr(int fd, void *addr, uint64_t len, uint32_t access,
	       struct rdmachan_reg_mr *r)
{
	memset(r, 0, sizeof(*r));
	r->size = sizeof(*r);
	r->access = access;
	r->addr = (uintptr_t)addr;
	r->length = len;
	return ioctl(fd, RDMACHAN_IOC_REG_MR, r);
}

int ioc_dereg_mr(int fd, uint32_t handle)
{
	struct rdmachan_dereg_mr d = { .size = sizeof(d), .handle = handle };

	return ioctl(fd, RDMACHAN_IOC_DEREG_MR, &d);
}
