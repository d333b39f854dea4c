/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ioc.h: the channel ioctls of /dev/rdmachan and of a channel fd, one
 * call each: fill the argument (its size first), make the call, return
 * what the ioctl returned (a new fd or 0; -1 with errno).  Nothing is
 * printed: the tool adds its messages (chan.c, mr.c), the test helpers
 * (tests/vm/helpers, which compile this file too) check the errno.
 */
#ifndef RDMACHAN_IOC_H
#define RDMACHAN_IOC_H

#include <stdint.h>

#include <linux/rdmachan.h>
#include <linux/rdmachan_blk.h>
#include <linux/rdmachan_verbs.h>

/* CONNECT to @dst from @src (sockaddr_storage-sized; @src NULL: any) */
int ioc_connect(int ctl, const void *dst, const void *src,
		const struct rdmachan_chan_opts *opts, unsigned int flags);
/* LISTEN on @addr (sockaddr_storage-sized), which gets the bound address */
int ioc_listen(int ctl, void *addr, const struct rdmachan_chan_opts *opts,
	       unsigned int flags);
/* ACCEPT on listener @lfd; @peer (sockaddr_storage-sized) may be NULL */
int ioc_accept(int lfd, unsigned int flags, void *peer);
int ioc_chan_info(int fd, struct rdmachan_chan_info *ci);
/* REG_MR of @len bytes at @addr; @r gets the handle and the remote key */
int ioc_reg_mr(int fd, void *addr, uint64_t len, uint32_t access,
	       struct rdmachan_reg_mr *r);
int ioc_dereg_mr(int fd, uint32_t handle);

/*
 * The block channel's ioctls of /dev/rdmachan (rdmachan_blk.ko; ENOTTY
 * while it is not loaded).  Strings are copied truncated to their field
 * (the kernel checks them).
 */
/* EXPORT @name backed by @path to the @nr_allow networks of @allow */
int ioc_blk_export(int ctl, const char *name, const char *path, unsigned int flags,
		   const struct rdmachan_blk_cidr *allow, unsigned int nr_allow);
int ioc_blk_unexport(int ctl, const char *name, unsigned int flags);
/*
 * MAP export @name of server @server (sockaddr_storage-sized, port 0:
 * the default) from @src (NULL: any); @index gets the disk's index
 */
int ioc_blk_map(int ctl, struct rdmachan_blk_map *m);
int ioc_blk_unmap(int ctl, uint32_t index, unsigned int flags);
int ioc_blk_remap(int ctl, uint32_t index);
/*
 * LIST into @entries, room for *@count of @entry_size bytes; *@count
 * gets how many there are (more than the room when it was short)
 */
int ioc_blk_list(int ctl, unsigned int what, void *entries, unsigned int entry_size,
		 unsigned int *count);

/*
 * The datagram endpoints (rdmachan_verbs.h).  DGRAM_OPEN on @addr
 * (sockaddr_storage-sized; @flags RDMACHAN_DGRAM_SERVE, @fd_flags
 * RDMACHAN_FD_*, @depth 0: the default): the endpoint's fd; @o gets its
 * queue pair, qkey, largest datagram and address (the port chosen).
 */
int ioc_dgram_open(int ctl, const void *addr, unsigned int flags,
		   unsigned int fd_flags, unsigned int depth,
		   struct rdmachan_dgram_open *o);
/* RESOLVE the service @addr (sockaddr_storage-sized); @peer may be NULL */
int ioc_dgram_resolve(int fd, const void *addr, unsigned int flags,
		      unsigned int timeout_ms, struct rdmachan_dgram_peer *peer);
/*
 * @req RDMACHAN_IOC_DGRAM_SEND or RDMACHAN_IOC_DGRAM_RECV of the @count
 * messages at @msgs (@timeout_ms: a receive's bound, 0 none): how many
 * went or came, or -1 with errno
 */
int ioc_dgram_batch(int fd, unsigned long req, struct rdmachan_dgram_msg *msgs,
		    unsigned int count, unsigned int flags, unsigned int timeout_ms);
int ioc_dgram_info(int fd, struct rdmachan_dgram_info *i);
/* DGRAM_JOIN (@req) or DGRAM_LEAVE of group @addr; JOIN's @peer out */
int ioc_dgram_join(int fd, unsigned long req, const void *addr,
		   unsigned int flags, unsigned int timeout_ms,
		   struct rdmachan_dgram_peer *peer);

#endif /* RDMACHAN_IOC_H */
