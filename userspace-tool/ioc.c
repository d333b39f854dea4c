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

int ioc_blk_export(int ctl, const char *name, const char *path, unsigned int flags,
		   const struct rdmachan_blk_cidr *allow, unsigned int nr_allow)
{
	struct rdmachan_blk_export e;

	memset(&e, 0, sizeof(e));
	e.size = sizeof(e);
	e.flags = flags;
	strncpy(e.name, name, sizeof(e.name) - 1);
	strncpy(e.path, path, sizeof(e.path) - 1);
	if (nr_allow > RDMACHAN_BLK_MAX_ALLOW)
		nr_allow = RDMACHAN_BLK_MAX_ALLOW;
	e.nr_allow = nr_allow;
	if (nr_allow)
		memcpy(e.allow, allow, nr_allow * sizeof(*allow));
	return ioctl(ctl, RDMACHAN_IOC_BLK_EXPORT, &e);
}

int ioc_blk_unexport(int ctl, const char *name, unsigned int flags)
{
	struct rdmachan_blk_unexport u;

	memset(&u, 0, sizeof(u));
	u.size = sizeof(u);
	u.flags = flags;
	strncpy(u.name, name, sizeof(u.name) - 1);
	return ioctl(ctl, RDMACHAN_IOC_BLK_UNEXPORT, &u);
}

int ioc_blk_map(int ctl, struct rdmachan_blk_map *m)
{
	m->size = sizeof(*m);
	return ioctl(ctl, RDMACHAN_IOC_BLK_MAP, m);
}

int ioc_blk_unmap(int ctl, uint32_t index, unsigned int flags)
{
	struct rdmachan_blk_unmap u;

	memset(&u, 0, sizeof(u));
	u.size = sizeof(u);
	u.flags = flags;
	u.index = index;
	return ioctl(ctl, RDMACHAN_IOC_BLK_UNMAP, &u);
}

int ioc_blk_remap(int ctl, uint32_t index)
{
	struct rdmachan_blk_remap r;

	memset(&r, 0, sizeof(r));
	r.size = sizeof(r);
	r.index = index;
	return ioctl(ctl, RDMACHAN_IOC_BLK_REMAP, &r);
}

int ioc_blk_list(int ctl, unsigned int what, void *entries, unsigned int entry_size,
		 unsigned int *count)
{
	struct rdmachan_blk_list l;
	int ret;

	memset(&l, 0, sizeof(l));
	l.size = sizeof(l);
	l.what = what;
	l.count = *count;
	l.entry_size = entry_size;
	l.entries = (uintptr_t)entries;
	ret = ioctl(ctl, RDMACHAN_IOC_BLK_LIST, &l);
	if (ret >= 0)
		*count = l.count;
	return ret;
}

int ioc_dgram_open(int ctl, const void *addr, unsigned int flags,
		   unsigned int fd_flags, unsigned int depth,
		   struct rdmachan_dgram_open *o)
{
	memset(o, 0, sizeof(*o));
	o->size = sizeof(*o);
	o->flags = flags;
	o->fd_flags = fd_flags;
	o->depth = depth;
	memcpy(&o->addr, addr, sizeof(o->addr));
	return ioctl(ctl, RDMACHAN_IOC_DGRAM_OPEN, o);
}

int ioc_dgram_resolve(int fd, const void *addr, unsigned int flags,
		      unsigned int timeout_ms, struct rdmachan_dgram_peer *peer)
{
	struct rdmachan_dgram_resolve r;
	int ret;

	memset(&r, 0, sizeof(r));
	r.size = sizeof(r);
	r.flags = flags;
	r.timeout_ms = timeout_ms;
	memcpy(&r.addr, addr, sizeof(r.addr));
	ret = ioctl(fd, RDMACHAN_IOC_DGRAM_RESOLVE, &r);
	if (ret >= 0 && peer)
		*peer = r.peer;
	return ret;
}

int ioc_dgram_batch(int fd, unsigned long req, struct rdmachan_dgram_msg *msgs,
		    unsigned int count, unsigned int flags, unsigned int timeout_ms)
{
	struct rdmachan_dgram_batch b;
	int ret;

	memset(&b, 0, sizeof(b));
	b.size = sizeof(b);
	b.flags = flags;
	b.count = count;
	b.timeout_ms = timeout_ms;
	b.msgs = (uintptr_t)msgs;
	ret = ioctl(fd, req, &b);
	return ret < 0 ? ret : (int)b.count;
}

int ioc_dgram_info(int fd, struct rdmachan_dgram_info *i)
{
	memset(i, 0, sizeof(*i));
	i->size = sizeof(*i);
	return ioctl(fd, RDMACHAN_IOC_DGRAM_INFO, i) < 0 ? -1 : 0;
}

int ioc_dgram_join(int fd, unsigned long req, const void *addr,
		   unsigned int flags, unsigned int timeout_ms,
		   struct rdmachan_dgram_peer *peer)
{
	struct rdmachan_dgram_join j;
	int ret;

	memset(&j, 0, sizeof(j));
	j.size = sizeof(j);
	j.flags = flags;
	j.timeout_ms = timeout_ms;
	memcpy(&j.addr, addr, sizeof(j.addr));
	ret = ioctl(fd, req, &j);
	if (ret >= 0 && peer)
		*peer = j.peer;
	return ret;
}
