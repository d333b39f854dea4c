/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rdmachan: memory registrations of a channel - user and kernel ones
 * (chan_mr.c) and the registration pools (chan_pool.c) - and its
 * one-sided requests in flight (chan_rdma.c, ioctl_rdma_async.c)
 *
 * Included by rdmachan-pri.h, before struct rdmachan, which embeds the
 * sets and queues.
 */
#ifndef RDMACHAN_MR_H
#define RDMACHAN_MR_H

#include <linux/mutex.h>
#include <linux/refcount.h>
#include <linux/scatterlist.h>
#include <linux/xarray.h>
#include <rdma/ib_verbs.h>

#include "rdmachan.h"

struct rdmachan;
struct rdmachan_mr_pool;
struct mm_struct;

/**
 * struct rdmachan_mr_set - the registrations of a channel (chan_mr.c)
 * @mutex: protects @list and changes to @handles
 * @list: every registration of the channel (struct rdmachan_mr.node)
 * @handles: user registrations by handle; changed under @mutex, looked
 *	up under the xarray's own lock
 */
struct rdmachan_mr_set {
	struct mutex		mutex;	/* list, handles */
	struct list_head	list;
	struct xarray		handles;
};

/**
 * struct rdmachan_pool_set - the registration pools of a channel
 *	(chan_pool.c)
 * @list: the pools (struct rdmachan_mr_pool.node); under rdmachan.mr.mutex
 * @regs: registrations of all of them, at most queue_depth *
 *	opts.max_send_regs (the send queue has room for as many fast
 *	registrations and local invalidations); under rdmachan.mr.mutex
 */
struct rdmachan_pool_set {
	struct list_head	list;
	u32			regs;
};

/**
 * struct rdmachan_mr_pin - the user memory a registration pinned
 *	(chan_mr.c); set once before the registration is listed, released
 *	with its RDMA resources
 * @pages: the pinned pages
 * @npages: their number
 * @mm: whose RLIMIT_MEMLOCK the pages are charged to
 */
struct rdmachan_mr_pin {
	struct page		**pages;
	unsigned long		npages;
	struct mm_struct	*mm;
};

/**
 * enum rdmachan_pool_state - where a pool registration is (chan_pool.c)
 * @RDMACHAN_PR_FREE: on its pool's free list
 * @RDMACHAN_PR_MAPPED: mapped onto the user's pages, its user's
 * @RDMACHAN_PR_CLAIMED: named by a rdmachan_send_ext() under way
 * @RDMACHAN_PR_POSTED: its fast registration was posted: valid on the
 *	wire until the peer or a local invalidation ends it
 * @RDMACHAN_PR_INVALIDATING: its local invalidation is posted
 */
enum rdmachan_pool_state {
	RDMACHAN_PR_FREE,
	RDMACHAN_PR_MAPPED,
	RDMACHAN_PR_CLAIMED,
	RDMACHAN_PR_POSTED,
	RDMACHAN_PR_INVALIDATING,
};

/**
 * struct rdmachan_mr_preg - a pool registration's own part of struct
 *	rdmachan_mr (chan_pool.c; posted by chan_post.c)
 * @pool: its pool; set once.  Such a registration is never on
 *	rdmachan.mr.list: &rdmachan_mr.node links it on its pool's free
 *	list while free, and every field below is under the channel's lock
 * @state: its enum rdmachan_pool_state
 * @hw_valid: its fast registration was posted and has not been
 *	invalidated since (by the peer's SEND_WITH_INV that
 *	rdmachan_mr_pool_put() was told of, or by a completed LOCAL_INV):
 *	the device may hold it valid, so it must not be registered again
 * @reg_wr: its fast registration, posted by rdmachan_send_ext()
 * @dev_key: the key of its last fast registration posted (at first the
 *	MR's own): the one the device holds, which a mapping never sent
 *	leaves behind
 * @fence_wr: where &rdmachan_res.reg_fence: the LOCAL_INV of its previous
 *	key posted in front of @reg_wr (of the first registration of a
 *	send), unsignalled like it
 * @reg_cqe: the completion entry of @reg_wr (an error or flush only:
 *	it is posted unsignalled)
 * @inv_cqe: the completion entry of its local invalidation
 * @done: rdmachan_mr_pool_put()'s callback while invalidating
 * @done_ctx: for @done
 */
struct rdmachan_mr_preg {
	struct rdmachan_mr_pool	*pool;
	u32			state;
	bool			hw_valid;
	struct ib_reg_wr	reg_wr;
	u32			dev_key;
	struct ib_send_wr	fence_wr;
	struct ib_cqe		reg_cqe;
	struct ib_cqe		inv_cqe;
	rdmachan_mr_done_t	done;
	void			*done_ctx;
};

/**
 * struct rdmachan_mr - a memory registration of a channel
 *
 * Unless said, a field is set once before the registration is listed
 * (rdmachan.mr.list, and rdmachan.mr.handles for a user one), and read
 * by whoever holds the channel's mr.mutex or one of @users.
 *
 * @ch: the channel (its PD and QP)
 * @node: entry in rdmachan.mr.list; under the channel's mr.mutex
 * @handle: user registrations: the handle; 0 for kernel ones
 * @access: RDMACHAN_ACCESS_*
 * @length: bytes
 * @ibmr: the fast-registration MR; NULL once released (under the
 *	channel's mr.mutex, once no operation holds it)
 * @sgt: the table of the pages (user registrations, kernel pages); freed
 *	when released
 * @sgl: the memory (@sgt's or the kernel caller's)
 * @nents: entries of @sgl
 * @dma_nents: entries mapped; 0 once released
 * @pin: user registrations: the pinned pages
 * @users: operations in flight on it, plus one from the registration on
 *	(0 before: nothing may take it); taken under the channel's lock
 *	(rdmachan_mr_hold()), dropped anywhere (rdmachan_mr_put())
 * @dying: being deregistered: no new operation may take it (under the
 *	channel's lock, see rdmachan_mr_hold())
 * @released: the RDMA resources are gone (deregistered, or the
 *	channel was torn down); under the channel's mr.mutex
 * @preg: what a pool registration has besides (chan_pool.c): zeroed,
 *	its @preg.pool NULL, for the others
 */
struct rdmachan_mr {
	struct rdmachan		*ch;
	struct list_head	node;
	u32			handle;
	u32			access;
	u64			length;
	struct ib_mr		*ibmr;
	struct sg_table		sgt;
	struct scatterlist	*sgl;
	int			nents;
	int			dma_nents;
	struct rdmachan_mr_pin	pin;
	refcount_t		users;
	bool			dying;
	bool			released;
	struct rdmachan_mr_preg	preg;
};

/* chan_mr.c */
int rdmachan_ib_access(u32 access);
int rdmachan_mr_check_access(struct rdmachan *ch, u32 access);
u32 rdmachan_sg_pages(struct scatterlist *sgl, int nents);
int rdmachan_mr_usable(struct rdmachan *ch);
struct rdmachan_mr *rdmachan_mr_get_user(struct rdmachan *ch, u32 handle);
bool rdmachan_mr_hold(struct rdmachan_mr *mr);
void rdmachan_mr_put(struct rdmachan_mr *mr);
int rdmachan_mr_reg_user(struct rdmachan *ch, u64 addr, u64 length,
			 u32 access, struct rdmachan_mr **mrp);
int rdmachan_mr_dereg_user(struct rdmachan *ch, u32 handle);
void rdmachan_mr_dereg_all(struct rdmachan *ch);
void rdmachan_mr_release_all(struct rdmachan *ch);
void rdmachan_mr_free_all(struct rdmachan *ch);
int rdmachan_mr_read(struct rdmachan_mr *mr, u64 offset, void *buf, u32 len);

/* chan_pool.c */
void rdmachan_pool_release_all(struct rdmachan *ch);
void rdmachan_pool_end_orphans(struct rdmachan *ch);
void rdmachan_pool_free_all(struct rdmachan *ch);
int rdmachan_pool_claim(struct rdmachan *ch, const struct rdmachan_send_ext *ext);
void rdmachan_pool_unclaim(struct rdmachan *ch,
			   const struct rdmachan_send_ext *ext);

/**
 * struct rdmachan_rdma_inflight - one-sided requests (chan_rdma.c)
 * @slots: send queue slots taken by one-sided work requests; under
 *	rdmachan.lock
 * @room: the send queue's slots for them (rdmachan_qp_sizes()); set once
 * @reqs: one-sided requests posted and not ended; under rdmachan.lock
 */
struct rdmachan_rdma_inflight {
	u32			slots;
	u32			room;
	struct list_head	reqs;
};

/**
 * struct rdmachan_reap_queue - outcomes of asynchronous RDMACHAN_IOC_RDMA
 *	calls (ioctl_rdma_async.c)
 * @list: outcomes waiting to be reaped (struct rdmachan_rdma_async, in
 *	submission order); under rdmachan.lock
 * @ready: operations whose outcome is on @list; under rdmachan.lock
 * @async_ops: asynchronous operations running or not reaped; under
 *	rdmachan.lock
 * @mutex: serialises reapers, so one may copy out without rdmachan.lock
 */
struct rdmachan_reap_queue {
	struct list_head	list;
	u32			ready;
	u32			async_ops;
	struct mutex		mutex;	/* reapers of list */
};

#endif /* RDMACHAN_MR_H */
