// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan: memory registrations of a channel
 *
 * Memory is registered through fast registration (FRWR): an MR from
 * ib_alloc_mr() in the channel's own protection domain, mapped with
 * ib_map_mr_sg() and made valid by an IB_WR_REG_MR work request on the
 * channel's QP with exactly the rights asked for.  Nothing else of the
 * host is reachable: there is no global rkey, and a registration of one
 * channel cannot be reached through another channel's QP.
 *
 * Deregistration waits for the operations in flight on it, posts
 * IB_WR_LOCAL_INV (the rkey is dead before anything else happens), then
 * deregisters the MR, unmaps and unpins.  When the channel is torn down
 * the QP is gone: ib_dereg_mr() alone invalidates then.
 *
 * User memory is pinned with pin_user_pages_fast(FOLL_LONGTERM) and
 * charged to the caller's RLIMIT_MEMLOCK (account_locked_vm(), which
 * CAP_IPC_LOCK bypasses).
 *
 * Registrations hold the channel's mr.mutex from the fast registration's
 * post to its end (user memory is pinned before, without it), and
 * deregistrations throughout; teardown takes it to release what is left,
 * after the QP drained and every one-sided request ended, so neither
 * sees the PD or QP go away under it.  Operations take a registration
 * with rdmachan_mr_hold(), under the channel lock and no mutex, and
 * nothing on the way to ending an operation waits for mr.mutex: so a
 * deregistration may wait for the operations holding its registration
 * while it holds mr.mutex.  The fuzzer found the deadlock of the other
 * way: an RDMA call holding one registration and waiting for mr.mutex to
 * look up the next, while a deregistration of the first held mr.mutex
 * and waited for the call.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/mm.h>
#include <linux/scatterlist.h>
#include <linux/sched/signal.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "bounds.h"
#include "rdmachan-pri.h"
#include "chan_mem.h"
#include "device.h"
#include "params.h"

/* Registrations a channel holds at most */
#define RDMACHAN_MAX_MRS	4096

/* The verbs access flags of RDMACHAN_ACCESS_* @access */
int rdmachan_ib_access(u32 access)
{
	int ib = 0;

	if (access & RDMACHAN_ACCESS_LOCAL_WRITE)
		ib |= IB_ACCESS_LOCAL_WRITE;
	if (access & RDMACHAN_ACCESS_REMOTE_WRITE)
		ib |= IB_ACCESS_REMOTE_WRITE;
	if (access & RDMACHAN_ACCESS_REMOTE_READ)
		ib |= IB_ACCESS_REMOTE_READ;
	if (access & RDMACHAN_ACCESS_REMOTE_ATOMIC)
		ib |= IB_ACCESS_REMOTE_ATOMIC;
	return ib;
}

/* What the device and the verbs rules allow: 0, -EINVAL or -EOPNOTSUPP */
int rdmachan_mr_check_access(struct rdmachan *ch, u32 access)
{
	if (access & ~RDMACHAN_ACCESS_ALL)
		return -EINVAL;
	/* remote writes and atomics store into local memory */
	if ((access & (RDMACHAN_ACCESS_REMOTE_WRITE |
		       RDMACHAN_ACCESS_REMOTE_ATOMIC)) &&
	    !(access & RDMACHAN_ACCESS_LOCAL_WRITE))
		return -EINVAL;
	if ((access & RDMACHAN_ACCESS_REMOTE_ATOMIC) && !ch->res.has_atomics)
		return -EOPNOTSUPP;
	return 0;
}

/* Pages of PAGE_SIZE that @sgl spans: what ib_alloc_mr() must allow */
u32 rdmachan_sg_pages(struct scatterlist *sgl, int nents)
{
	struct scatterlist *sg;
	u32 n = 0;
	int i;

	for_each_sg(sgl, sg, nents, i)
		n += DIV_ROUND_UP(offset_in_page(sg->offset) + sg->length,
				  PAGE_SIZE);
	return n;
}

/**
 * rdmachan_mr_usable() - may the channel's QP and PD be used?
 * @ch: the channel
 *
 * Return: 0, or the errno a send would get.
 */
int rdmachan_mr_usable(struct rdmachan *ch)
{
	unsigned long flags;
	int ret;

	spin_lock_irqsave(&ch->lock, flags);
	ret = rdmachan_send_state_err(ch);
	spin_unlock_irqrestore(&ch->lock, flags);
	return ret ?: (ch->res.pd ? 0 : -ENOTCONN);
}

/*
 * Start a registration: take mr.mutex (teardown then keeps the PD and
 * device until it is dropped) and check the channel and @access.
 */
static int rdmachan_mr_begin(struct rdmachan *ch, u32 access)
{
	int ret;

	/* killable: a registration may hold it across its post's wait */
	if (mutex_lock_killable(&ch->mr.mutex))
		return -EINTR;
	ret = rdmachan_mr_usable(ch) ?: rdmachan_mr_check_access(ch, access);
	if (ret)
		mutex_unlock(&ch->mr.mutex);
	return ret;
}

/* Post one work request built by @fill and wait for it. */
static int rdmachan_mr_post_one(struct rdmachan *ch,
				void (*fill)(struct ib_send_wr *wr,
					     struct rdmachan_mr *mr),
				struct rdmachan_mr *mr)
{
	struct rdmachan_rdma_req *req;
	int ret;

	req = rdmachan_rdma_req_alloc(ch, 1);
	if (!req)
		return -ENOMEM;
	fill(rdmachan_rdma_req_wr(req, 0), mr);
	/* not killable: the MR must outlive the work request that names it */
	ret = rdmachan_rdma_post_wait(req, false);
	if (!ret)
		ret = rdmachan_rdma_req_status(req, 0);
	rdmachan_rdma_req_put(req);
	return ret;
}

static void rdmachan_fill_reg(struct ib_send_wr *wr, struct rdmachan_mr *mr)
{
	struct ib_reg_wr *reg = container_of(wr, struct ib_reg_wr, wr);

	wr->opcode = IB_WR_REG_MR;
	reg->mr = mr->ibmr;
	reg->key = mr->ibmr->rkey;
	reg->access = rdmachan_ib_access(mr->access);
}

static void rdmachan_fill_inv(struct ib_send_wr *wr, struct rdmachan_mr *mr)
{
	wr->opcode = IB_WR_LOCAL_INV;
	wr->ex.invalidate_rkey = mr->ibmr->rkey;
}

/*
 * Post @mr's REG_MR and wait for it.  Where &rdmachan_res.reg_fence (rxe)
 * it goes behind a LOCAL_INV of @dev_key, the key the device holds for
 * the MR, free as it is (the LOCAL_INV changes nothing): rxe runs a
 * LOCAL_INV only once every work request before it completed, and runs
 * again the local operations behind a send it retransmits, so a REG_MR
 * posted right behind an unacknowledged send (a message, a credit
 * return) would run twice on a lossy wire, fail ("rxe_reg_fast_mr: ...
 * not free") and fail the channel.  The pools' registrations are fenced
 * the same way (chan_post.c, rdmachan_post_reg_locked()).
 */
static int rdmachan_mr_post_reg(struct rdmachan *ch, struct rdmachan_mr *mr,
				u32 dev_key)
{
	u32 fence = ch->res.reg_fence ? 1 : 0;
	struct rdmachan_rdma_req *req;
	struct ib_send_wr *wr;
	int ret;

	req = rdmachan_rdma_req_alloc(ch, 1 + fence);
	if (!req)
		return -ENOMEM;
	if (fence) {
		wr = rdmachan_rdma_req_wr(req, 0);
		wr->opcode = IB_WR_LOCAL_INV;
		wr->ex.invalidate_rkey = dev_key;
	}
	rdmachan_fill_reg(rdmachan_rdma_req_wr(req, fence), mr);
	/* not killable: the MR must outlive the work requests that name it */
	ret = rdmachan_rdma_post_wait(req, false);
	if (!ret && fence)
		ret = rdmachan_rdma_req_status(req, 0);
	if (!ret)
		ret = rdmachan_rdma_req_status(req, fence);
	rdmachan_rdma_req_put(req);
	return ret;
}

/* Map @mr->sgl, build its MR and make it valid.  mr.mutex held. */
static int rdmachan_mr_register(struct rdmachan_mr *mr)
{
	struct rdmachan *ch = mr->ch;
	struct ib_device *ibdev;
	u32 pages;
	u32 dev_key;
	int n, ret;

	ibdev = rdmachan_chan_dev(ch)->ibdev;
	pages = rdmachan_sg_pages(mr->sgl, mr->nents);
	if (pages > ch->res.max_reg_pages) {
		rdmachan_info_rl(ch,
				 "registration of %u pages is over %s's limit of %u\n",
				 pages, dev_name(&ibdev->dev),
				 ch->res.max_reg_pages);
		return -E2BIG;
	}
	mr->dma_nents = ib_dma_map_sg(ibdev, mr->sgl, mr->nents,
				      DMA_BIDIRECTIONAL);
	if (!mr->dma_nents)
		return -ENOMEM;
	mr->ibmr = ib_alloc_mr(ch->res.pd, IB_MR_TYPE_MEM_REG, pages);
	if (IS_ERR(mr->ibmr)) {
		ret = PTR_ERR(mr->ibmr);
		mr->ibmr = NULL;
		goto unmap;
	}
	n = ib_map_mr_sg(mr->ibmr, mr->sgl, mr->dma_nents, NULL, PAGE_SIZE);
	if (n != mr->dma_nents) {
		/* a kernel scatterlist with holes between its pages */
		ret = n < 0 ? n : -EINVAL;
		goto dereg;
	}
	/* a fresh key each time: an old rkey never comes back to life */
	dev_key = mr->ibmr->rkey;
	ib_update_fast_reg_key(mr->ibmr, ib_inc_rkey(mr->ibmr->rkey));
	ret = rdmachan_mr_post_reg(ch, mr, dev_key);
	if (ret)
		goto dereg;
	refcount_set(&mr->users, 1);
	return 0;

dereg:
	ib_dereg_mr(mr->ibmr);
	mr->ibmr = NULL;
unmap:
	ib_dma_unmap_sg(ibdev, mr->sgl, mr->nents, DMA_BIDIRECTIONAL);
	mr->dma_nents = 0;
	return ret;
}

static void rdmachan_mr_unpin(struct rdmachan_mr *mr)
{
	bool dirty = mr->access & (RDMACHAN_ACCESS_LOCAL_WRITE |
				   RDMACHAN_ACCESS_REMOTE_WRITE |
				   RDMACHAN_ACCESS_REMOTE_ATOMIC);

	if (mr->pin.pages) {
		unpin_user_pages_dirty_lock(mr->pin.pages, mr->pin.npages, dirty);
		kvfree(mr->pin.pages);
		mr->pin.pages = NULL;
	}
	if (mr->pin.mm) {
		account_locked_vm(mr->pin.mm, mr->pin.npages, false);
		mmdrop(mr->pin.mm);
		mr->pin.mm = NULL;
	}
}

/*
 * Wait until no operation holds @mr.  An operation lets go when its
 * request ends: at its completion, which comes within the transport's
 * retry time, or at the channel's teardown, which ends whatever the
 * transport did not complete before it releases registrations (chan_rdma.c).
 * What holds it then is a thread returning from its call.  So this ends;
 * should it not within 10 s, it says so in the log, every 10 s; posted
 * operations that never end fail the channel (rdmachan_rdma_check_stuck())
 * and are ended by its teardown, which needs no mr.mutex for that.
 */
static int rdmachan_mr_wait_idle(struct rdmachan_mr *mr, bool killable)
{
	struct rdmachan *ch = mr->ch;
	unsigned long next = jiffies + 10 * HZ;

	while (refcount_read(&mr->users) > 1) {
		/* an operation still waiting for send queue room or a credit */
		if (killable && fatal_signal_pending(current))
			return -EINTR;
		if (!rdmachan_poll(ch, -1))
			wait_var_event_timeout(&mr->users,
					       refcount_read(&mr->users) <= 1,
					       HZ / 10);
		if (time_after(jiffies, next)) {
			rdmachan_warn(ch,
				      "registration of %llu bytes still has %d operation(s) in flight\n",
				      mr->length, refcount_read(&mr->users) - 1);
			next = jiffies + 10 * HZ;
		}
		/* posted ones that old mean a stuck transport (chan_rdma.c) */
		rdmachan_rdma_check_stuck(ch);
	}
	return 0;
}

/**
 * rdmachan_mr_hold() - take @mr for an operation, unless it is going
 * @mr: the registration
 *
 * Taking it and rdmachan_mr_unregister() marking it dying are ordered by
 * the channel lock: either the operation holds it before, and the
 * unregistration waits for it, or the operation is refused.  No mutex:
 * a thread holding one registration never waits for mr.mutex, which an
 * unregistration holds while it waits for that thread's hold.
 *
 * Context: any.
 * Return: whether it was taken; rdmachan_mr_put() gives it back.
 */
bool rdmachan_mr_hold(struct rdmachan_mr *mr)
{
	struct rdmachan *ch = mr->ch;
	unsigned long flags;
	bool ok;

	spin_lock_irqsave(&ch->lock, flags);
	/* 0: not registered (yet) */
	ok = !mr->dying && refcount_inc_not_zero(&mr->users);
	spin_unlock_irqrestore(&ch->lock, flags);
	return ok;
}

/* No operation may take @mr from now on (rdmachan_mr_hold()). */
static void rdmachan_mr_set_dying(struct rdmachan_mr *mr)
{
	struct rdmachan *ch = mr->ch;
	unsigned long flags;

	spin_lock_irqsave(&ch->lock, flags);
	mr->dying = true;
	spin_unlock_irqrestore(&ch->lock, flags);
}

/*
 * Undo the registration: refuse new operations, wait out those on it
 * (@killable: a fatal signal ends the wait, -EINTR, and the registration
 * stays dying for teardown to release), invalidate the rkey (when the QP
 * still works), deregister, unmap, unpin.  mr.mutex held.
 */
static int rdmachan_mr_unregister(struct rdmachan_mr *mr, bool invalidate,
				  bool killable)
{
	struct rdmachan *ch = mr->ch;
	int ret;

	if (mr->released)
		return 0;
	rdmachan_mr_set_dying(mr);
	ret = rdmachan_mr_wait_idle(mr, killable);
	if (ret)
		return ret;
	if (invalidate && !rdmachan_mr_usable(ch)) {
		ret = rdmachan_mr_post_one(ch, rdmachan_fill_inv, mr);
		if (ret && ret != -ECONNRESET)
			rdmachan_info_rl(ch,
					 "invalidating rkey %#x failed: %d\n",
					 mr->ibmr->rkey, ret);
	}
	ib_dereg_mr(mr->ibmr);
	mr->ibmr = NULL;
	ib_dma_unmap_sg(rdmachan_chan_dev(ch)->ibdev, mr->sgl, mr->nents,
			DMA_BIDIRECTIONAL);
	mr->dma_nents = 0;
	rdmachan_mr_unpin(mr);
	sg_free_table(&mr->sgt);
	mr->released = true;
	return 0;
}

static struct rdmachan_mr *rdmachan_mr_alloc(struct rdmachan *ch, u32 access)
{
	struct rdmachan_mr *mr;

	mr = kzalloc(sizeof(*mr), rdmachan_gfp(ch, GFP_KERNEL));
	if (!mr)
		return NULL;
	mr->ch = ch;
	mr->access = access;
	INIT_LIST_HEAD(&mr->node);
	return mr;
}

/*
 * Register @mr (its sgl set up) and list it; drops the mr.mutex taken by
 * rdmachan_mr_begin().  Return: 0 or errno.
 */
static int rdmachan_mr_add(struct rdmachan *ch, struct rdmachan_mr *mr,
			   bool user)
{
	int ret;

	ret = rdmachan_mr_register(mr);
	if (!ret && user) {
		ret = xa_alloc(&ch->mr.handles, &mr->handle, mr,
			       XA_LIMIT(1, RDMACHAN_MAX_MRS), GFP_KERNEL);
		if (ret) {
			rdmachan_mr_unregister(mr, true, false);
			ret = ret == -EBUSY ? -ENOSPC : ret;
		}
	}
	if (!ret)
		list_add_tail(&mr->node, &ch->mr.list);
	mutex_unlock(&ch->mr.mutex);
	return ret;
}

/**
 * rdmachan_mr_reg_user() - pin and register user memory
 * @ch: a connected channel
 * @addr: user address, any alignment
 * @length: bytes, not 0
 * @access: RDMACHAN_ACCESS_*
 * @mrp: the registration, with its handle
 *
 * Context: process context of the memory's owner.
 * Return: 0; -EINVAL (bad rights, length), -E2BIG (over the device's
 * fast-registration limit), -ENOMEM (also over RLIMIT_MEMLOCK), -EFAULT
 * (memory not there or not writable), -ENOSPC (too many registrations),
 * -EOPNOTSUPP (atomics on a device without), -ENOTCONN, -ECONNRESET.
 */
int rdmachan_mr_reg_user(struct rdmachan *ch, u64 addr, u64 length,
			 u32 access, struct rdmachan_mr **mrp)
{
	const unsigned int gup = FOLL_LONGTERM;
	struct rdmachan_mr *mr;
	unsigned long npages;
	long pinned;
	int ret;

	ret = rdmachan_span_pages(addr, length, rdmachan_param_max_mr_size(),
				  &npages);
	if (ret) {
		rdmachan_info_rl(ch,
				 "registration of %llu bytes at %#llx refused (max_mr_size %u): %d\n",
				 length, addr, rdmachan_param_max_mr_size(),
				 ret);
		return ret;
	}
	/*
	 * Pin without mr.mutex: faulting the pages in may take as long as
	 * the memory's owner likes (userfaultfd, FUSE), and nothing else of
	 * the channel is to wait for that.
	 */
	ret = rdmachan_mr_usable(ch) ?: rdmachan_mr_check_access(ch, access);
	if (ret)
		return ret;
	if (npages > READ_ONCE(ch->res.max_reg_pages))
		return -E2BIG;
	mr = rdmachan_mr_alloc(ch, access);
	if (!mr)
		return -ENOMEM;
	mr->length = length;
	mr->pin.npages = npages;

	ret = account_locked_vm(current->mm, npages, true);
	if (ret)
		goto free;
	mr->pin.mm = current->mm;
	mmgrab(mr->pin.mm);

	mr->pin.pages = kvmalloc_array(npages, sizeof(*mr->pin.pages),
				       GFP_KERNEL_ACCOUNT);
	if (!mr->pin.pages) {
		ret = -ENOMEM;
		goto unpin;
	}
	/*
	 * Pin for writing even when only reading: a read-only pin of memory
	 * not yet written pins the shared zero page (or a page about to be
	 * copied on write), and the caller's later writes would never reach
	 * the registration.  Memory that cannot be written (a read-only
	 * mapping) is pinned read-only, for WRITE sources and remote reads.
	 */
	pinned = pin_user_pages_fast(addr & PAGE_MASK, npages,
				     gup | FOLL_WRITE, mr->pin.pages);
	if (pinned == -EFAULT && !(access & ~RDMACHAN_ACCESS_REMOTE_READ))
		pinned = pin_user_pages_fast(addr & PAGE_MASK, npages, gup,
					     mr->pin.pages);
	if (pinned != npages) {
		if (pinned > 0)
			unpin_user_pages(mr->pin.pages, pinned);
		kvfree(mr->pin.pages);
		mr->pin.pages = NULL;
		ret = pinned < 0 ? pinned : -EFAULT;
		goto unpin;
	}
	ret = sg_alloc_table_from_pages(&mr->sgt, mr->pin.pages, npages,
					offset_in_page(addr), length,
					GFP_KERNEL);
	if (ret)
		goto unpin;
	mr->sgl = mr->sgt.sgl;
	mr->nents = mr->sgt.orig_nents;

	ret = rdmachan_mr_begin(ch, access);
	if (ret)
		goto free_table;
	ret = rdmachan_mr_add(ch, mr, true);
	if (ret)
		goto free_table;
	*mrp = mr;
	return 0;

free_table:
	sg_free_table(&mr->sgt);
unpin:
	rdmachan_mr_unpin(mr);
free:
	kfree(mr);
	return ret;
}

/**
 * rdmachan_mr_reg_sg() - register kernel memory described by a scatterlist
 * @ch: a connected channel
 * @sgl: the memory, not yet DMA-mapped; every entry but the first starts
 *	on a page and every entry but the last ends on one
 * @nents: entries of @sgl
 * @access: RDMACHAN_ACCESS_*
 * @mrp: the registration
 *
 * @sgl must stay valid until rdmachan_mr_dereg().  Deregister every
 * registration before rdmachan_close(); the close releases what is left.
 *
 * Context: process context, sleeps.
 * Return: 0 or a negative errno (see rdmachan_mr_reg_user()).
 */
int rdmachan_mr_reg_sg(struct rdmachan *ch, struct scatterlist *sgl,
		       unsigned int nents, u32 access,
		       struct rdmachan_mr **mrp)
{
	struct rdmachan_mr *mr;
	struct scatterlist *sg;
	u64 length = 0;
	unsigned int i;
	int ret;

	if (!nents)
		return -EINVAL;
	for_each_sg(sgl, sg, nents, i)
		length += sg->length;
	if (!length)
		return -EINVAL;
	ret = rdmachan_mr_begin(ch, access);
	if (ret)
		return ret;
	mr = rdmachan_mr_alloc(ch, access);
	if (!mr) {
		mutex_unlock(&ch->mr.mutex);
		return -ENOMEM;
	}
	mr->length = length;
	mr->sgl = sgl;
	mr->nents = nents;
	ret = rdmachan_mr_add(ch, mr, false);
	if (ret) {
		kfree(mr);
		return ret;
	}
	*mrp = mr;
	return 0;
}
EXPORT_SYMBOL_GPL(rdmachan_mr_reg_sg);

/**
 * rdmachan_mr_reg_kbuf() - register a kernel buffer
 * @ch: a connected channel
 * @buf: kmalloc()ed, page-allocator or vmalloc()ed memory
 * @len: bytes, not 0
 * @access: RDMACHAN_ACCESS_*
 * @mrp: the registration
 *
 * Context: process context, sleeps.
 * Return: 0 or a negative errno (see rdmachan_mr_reg_user()).
 */
int rdmachan_mr_reg_kbuf(struct rdmachan *ch, void *buf, size_t len,
			 u32 access, struct rdmachan_mr **mrp)
{
	unsigned long i, npages, start = (unsigned long)buf & PAGE_MASK;
	struct rdmachan_mr *mr;
	struct page **pages;
	int ret;

	if (!is_vmalloc_addr(buf) && !virt_addr_valid(buf))
		return -EINVAL;
	ret = rdmachan_span_pages((unsigned long)buf, len, U32_MAX, &npages);
	if (ret)
		return ret;
	pages = kvmalloc_array(npages, sizeof(*pages), GFP_KERNEL);
	if (!pages)
		return -ENOMEM;
	for (i = 0; i < npages; i++) {
		void *p = (void *)(start + i * PAGE_SIZE);

		pages[i] = is_vmalloc_addr(buf) ? vmalloc_to_page(p) :
						  virt_to_page(p);
	}
	mr = rdmachan_mr_alloc(ch, access);
	if (!mr) {
		kvfree(pages);
		return -ENOMEM;
	}
	mr->length = len;
	ret = sg_alloc_table_from_pages(&mr->sgt, pages, npages,
					offset_in_page(buf), len, GFP_KERNEL);
	kvfree(pages);
	if (ret)
		goto free;
	mr->sgl = mr->sgt.sgl;
	mr->nents = mr->sgt.orig_nents;
	ret = rdmachan_mr_begin(ch, access);
	if (!ret)
		ret = rdmachan_mr_add(ch, mr, false);
	if (ret) {
		sg_free_table(&mr->sgt);
		goto free;
	}
	*mrp = mr;
	return 0;
free:
	kfree(mr);
	return ret;
}
EXPORT_SYMBOL_GPL(rdmachan_mr_reg_kbuf);

/**
 * rdmachan_mr_dereg() - invalidate and release a kernel registration
 * @mr: from rdmachan_mr_reg_sg() or rdmachan_mr_reg_kbuf()
 *
 * Waits for operations in flight on @mr, then invalidates its rkey: the
 * peer's later accesses fail.  Call it before rdmachan_close().
 *
 * Context: process context, sleeps.
 */
void rdmachan_mr_dereg(struct rdmachan_mr *mr)
{
	struct rdmachan *ch = mr->ch;

	mutex_lock(&ch->mr.mutex);
	rdmachan_mr_unregister(mr, true, false);
	list_del(&mr->node);
	mutex_unlock(&ch->mr.mutex);
	kfree(mr);
}
EXPORT_SYMBOL_GPL(rdmachan_mr_dereg);

/**
 * rdmachan_mr_remote() - what the peer needs to access a registration
 * @mr: the registration
 * @desc: filled with its address, length and rkey
 */
void rdmachan_mr_remote(const struct rdmachan_mr *mr,
			struct rdmachan_remote_mr *desc)
{
	memset(desc, 0, sizeof(*desc));
	if (!mr->ibmr)
		return;
	desc->addr = mr->ibmr->iova;
	desc->length = mr->length;
	desc->rkey = mr->ibmr->rkey;
}
EXPORT_SYMBOL_GPL(rdmachan_mr_remote);

/**
 * rdmachan_mr_get_user() - look up a user registration for an operation
 * @ch: the channel
 * @handle: its handle
 *
 * Context: any; takes no mutex.
 * Return: the registration, which stays registered until
 * rdmachan_mr_put(); NULL when there is none (or it is being
 * deregistered).
 */
struct rdmachan_mr *rdmachan_mr_get_user(struct rdmachan *ch, u32 handle)
{
	struct rdmachan_mr *mr;

	/*
	 * Under the xarray's lock: a deregistration erases the handle
	 * under it before it frees anything, so what is found here is
	 * alive, and either held before the deregistration looks or
	 * refused (rdmachan_mr_hold()).
	 */
	xa_lock(&ch->mr.handles);
	mr = xa_load(&ch->mr.handles, handle);
	if (mr && !rdmachan_mr_hold(mr))
		mr = NULL;
	xa_unlock(&ch->mr.handles);
	return mr;
}

/**
 * rdmachan_mr_put() - an operation on @mr ended
 * @mr: the registration
 *
 * Context: any.
 */
void rdmachan_mr_put(struct rdmachan_mr *mr)
{
	int old;

	/* never the last: the registration's own stays until it is freed */
	__refcount_dec(&mr->users, &old);
	/* release ordering only; wake_up_var() wants a full barrier */
	smp_mb__after_atomic();
	if (old - 1 <= 1)
		wake_up_var(&mr->users);
}

/**
 * rdmachan_mr_dereg_user() - RDMACHAN_IOC_DEREG_MR
 * @ch: the channel
 * @handle: the registration
 *
 * Return: 0, -ENOENT when there is no such registration, -EINTR when
 * killed waiting for mr.mutex or for the operations on the registration
 * (the handle is gone then; the channel's teardown releases the rest).
 */
int rdmachan_mr_dereg_user(struct rdmachan *ch, u32 handle)
{
	struct rdmachan_mr *mr;

	int ret = 0;

	if (mutex_lock_killable(&ch->mr.mutex))
		return -EINTR;
	mr = xa_erase(&ch->mr.handles, handle);
	if (mr)
		ret = rdmachan_mr_unregister(mr, true, true);
	if (mr && !ret)
		list_del(&mr->node);
	mutex_unlock(&ch->mr.mutex);
	if (!mr)
		return -ENOENT;
	if (ret) {
		/* killed: the handle is gone, teardown releases the rest */
		rdmachan_info_rl(ch,
				 "deregistration killed while operations held the registration\n");
		return ret;
	}
	kfree(mr);
	return 0;
}

/**
 * rdmachan_mr_dereg_all() - deregister every user registration
 * @ch: the channel, whose file is being released
 */
void rdmachan_mr_dereg_all(struct rdmachan *ch)
{
	struct rdmachan_mr *mr;
	unsigned long handle;

	mutex_lock(&ch->mr.mutex);
	xa_for_each(&ch->mr.handles, handle, mr) {
		xa_erase(&ch->mr.handles, handle);
		rdmachan_mr_unregister(mr, true, false);
		list_del(&mr->node);
		kfree(mr);
	}
	mutex_unlock(&ch->mr.mutex);
}

/**
 * rdmachan_mr_release_all() - teardown: release every registration's
 *	RDMA resources and pages; the objects stay until the channel goes
 * @ch: the channel, its QP drained and destroyed
 */
void rdmachan_mr_release_all(struct rdmachan *ch)
{
	struct rdmachan_mr *mr;

	mutex_lock(&ch->mr.mutex);
	list_for_each_entry(mr, &ch->mr.list, node)
		rdmachan_mr_unregister(mr, false, false);
	mutex_unlock(&ch->mr.mutex);
}

/**
 * rdmachan_mr_free_all() - free what rdmachan_mr_release_all() left
 * @ch: the channel, last reference gone
 */
void rdmachan_mr_free_all(struct rdmachan *ch)
{
	struct rdmachan_mr *mr, *next;

	list_for_each_entry_safe(mr, next, &ch->mr.list, node) {
		if (!mr->handle)
			rdmachan_warn(ch,
				      "a kernel registration was not deregistered before close\n");
		rdmachan_mr_unregister(mr, false, false);
		kfree(mr);
	}
	xa_destroy(&ch->mr.handles);
}

/**
 * rdmachan_mr_read() - copy bytes out of a registration
 * @mr: the registration, held by the caller
 * @offset: from its first byte
 * @buf: destination
 * @len: bytes
 *
 * Return: 0, or -EINVAL outside the registration or once released.
 */
int rdmachan_mr_read(struct rdmachan_mr *mr, u64 offset, void *buf, u32 len)
{
	if (mr->released || offset > mr->length || len > mr->length - offset)
		return -EINVAL;
	if (sg_pcopy_to_buffer(mr->sgl, mr->nents, buf, len, offset) != len)
		return -EINVAL;
	return 0;
}
