// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan: registration pools - fast registrations for one I/O at a time
 * (the nvme-rdma model)
 *
 * A pool is a set of MRs allocated once (ib_alloc_mr() in the channel's
 * PD), each of them mapped onto one I/O's pages without sleeping
 * (rdmachan_mr_pool_map(): ib_dma_map_sg(), ib_map_mr_sg() and a fresh
 * rkey), made valid by a REG_MR work request that rdmachan_send_ext()
 * posts unsignalled in front of the message naming it, and given back
 * with rdmachan_mr_pool_put(): at once when the peer invalidated it
 * (SEND_WITH_INV), it was never posted or the channel's QP is destroyed,
 * else after a signalled LOCAL_INV completed.
 *
 * "The peer can no longer reach the memory" is what a registration's
 * return promises, and only two events prove it: a LOCAL_INV that
 * completed successfully, and the QP's destruction.  A QP that failed or
 * is being torn down may still be executing a peer's RDMA WRITE into the
 * pages (soft-RoCE's responder copies a packet after checking the key,
 * while its requester flushes or invalidates on the other CPU), so a
 * flushed LOCAL_INV, one that could not be posted, and a put while
 * teardown runs all leave the registration INVALIDATING until teardown
 * has destroyed the QP (@unreachable): rdmachan_pool_end_orphans() then
 * gives it back, its callback getting -ECANCELED.  This is nvme-rdma's
 * rule (drain the queue before cancelling its requests) made a property
 * of the pool, so that no user can get it wrong.
 *
 * Every pool registration's state (enum rdmachan_pool_state) and its
 * pool's free list are under the channel lock, so that mapping, sending
 * and putting back work from any context and order against each other;
 * the pools' list and their count are under mr.mutex, with teardown.
 *
 * What is posted for a registration (its REG_MR in front of the send or
 * the one-sided request naming it, its LOCAL_INV), the room the send
 * queue keeps for it and the registration QP of rxe are chan_post.c's.
 *
 * Teardown, once no completion can come (QP destroyed, CQ freed), ends
 * the invalidations still posted (their callback gets -ECANCELED), then
 * unmaps what is mapped and deregisters every MR of every pool before
 * the PD goes; the pools themselves stay, empty shells, until
 * rdmachan_mr_pool_destroy().  A pool must be destroyed before
 * rdmachan_close(); what is left when the channel is freed is freed with
 * a warning.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/scatterlist.h>
#include <linux/slab.h>

#include "rdmachan-pri.h"
#include "chan_post.h"
#include "device.h"

/**
 * struct rdmachan_mr_pool - a channel's pool of fast registrations
 * @ch: the channel
 * @ibdev: its device, while the pool is not @released
 * @node: entry in rdmachan.pools.list; under the channel's mr.mutex
 * @free: registrations free to map (rdmachan_mr.node); under the
 *	channel's lock
 * @count: registrations, in @mrs
 * @max_pages: pages one of them spans at most
 * @nr_out: registrations not free; under the channel's lock
 * @nr_inv: of those, invalidations posted; under the channel's lock
 * @unreachable: teardown destroyed the QP (set under the channel's lock,
 *	before the invalidations still pending are ended): no access can
 *	reach the registrations any more
 * @released: teardown released the MRs (set under the channel's lock):
 *	nothing maps or posts any more
 * @mrs: the registrations
 */
struct rdmachan_mr_pool {
	struct rdmachan		*ch;
	struct ib_device	*ibdev;
	struct list_head	node;
	struct list_head	free;
	u32			count;
	u32			max_pages;
	u32			nr_out;
	u32			nr_inv;
	bool			unreachable;
	bool			released;
	struct rdmachan_mr	mrs[];
};

/* A REG_MR posted unsignalled completes only when it failed or flushed */
static void rdmachan_pool_reg_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct rdmachan_mr *mr = container_of(wc->wr_cqe, struct rdmachan_mr,
					      preg.reg_cqe);

	rdmachan_wc_ok(mr->ch, wc, "fast registration");
}

/* Back on the free list, unmapped.  Channel lock held. */
static void rdmachan_pool_free_locked(struct rdmachan_mr *mr)
{
	struct rdmachan_mr_pool *pool = mr->preg.pool;

	lockdep_assert_held(&mr->ch->lock);
	/* teardown unmaps under the lock too: once released, none is left */
	if (mr->dma_nents) {
		ib_dma_unmap_sg(pool->ibdev, mr->sgl, mr->nents,
				DMA_BIDIRECTIONAL);
		mr->dma_nents = 0;
	}
	if (mr->preg.state == RDMACHAN_PR_INVALIDATING)
		pool->nr_inv--;
	mr->preg.state = RDMACHAN_PR_FREE;
	mr->sgl = NULL;
	mr->nents = 0;
	mr->length = 0;
	mr->preg.done = NULL;
	mr->preg.done_ctx = NULL;
	list_add_tail(&mr->node, &pool->free);
	pool->nr_out--;
}

/* LOCAL_INV completion: the registration is back; tell its user. */
static void rdmachan_pool_inv_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct rdmachan_mr *mr = container_of(wc->wr_cqe, struct rdmachan_mr,
					      preg.inv_cqe);
	struct rdmachan *ch = mr->ch;
	rdmachan_mr_done_t done;
	unsigned long flags;
	void *ctx;
	int err = 0;

	if (!rdmachan_wc_ok(ch, wc, "local invalidation"))
		err = rdmachan_wc_errno(wc->status) ?: -EIO;
	spin_lock_irqsave(&ch->lock, flags);
	if (err && !mr->preg.pool->unreachable) {
		/*
		 * Failed or flushed: the QP is in error, but a peer's access
		 * under way may still land until it is destroyed.  Teardown
		 * gives the registration back then (see the top of the file).
		 */
		spin_unlock_irqrestore(&ch->lock, flags);
		rdmachan_schedule_teardown(ch);
		return;
	}
	done = mr->preg.done;
	ctx = mr->preg.done_ctx;
	/* failed or flushed: the QP is in error, nothing maps again */
	if (!err)
		mr->preg.hw_valid = false;
	rdmachan_pool_free_locked(mr);
	spin_unlock_irqrestore(&ch->lock, flags);
	wake_up_all(&ch->wq);
	if (done)
		done(ctx, err);
}

/* Deregister the MRs of @pool from @from on (process context) */
static void rdmachan_pool_dereg(struct rdmachan_mr_pool *pool, u32 from)
{
	u32 i;

	for (i = from; i < pool->count; i++) {
		if (pool->mrs[i].ibmr) {
			ib_dereg_mr(pool->mrs[i].ibmr);
			pool->mrs[i].ibmr = NULL;
		}
	}
}

/**
 * rdmachan_mr_pool_create() - a pool of fast registrations for a channel
 * @ch: a connected channel opened with &rdmachan_opts.max_send_regs
 * @count: registrations, at least 1; the channel's pools hold at most
 *	rdmachan_queue_depth() * &rdmachan_opts.max_send_regs in all
 * @max_pages: pages (PAGE_SIZE) one registration may span, 1 to
 *	rdmachan_max_reg_pages()
 * @poolp: the pool
 *
 * Allocates @count MRs in the channel's protection domain.  Destroy the
 * pool with rdmachan_mr_pool_destroy() before rdmachan_close().
 *
 * Context: process context, sleeps.
 * Return: 0; -EINVAL (@count or @max_pages out of range, or over what the
 * channel's pools may still hold); -ENOMEM; -EINTR (killed waiting for
 * the channel's registration lock); -ENOTCONN, -ECONNRESET or the
 * channel's error when it is not connected.
 */
int rdmachan_mr_pool_create(struct rdmachan *ch, u32 count, u32 max_pages,
			    struct rdmachan_mr_pool **poolp)
{
	struct rdmachan_mr_pool *pool;
	u64 limit;
	u32 i;
	int ret;

	might_sleep();
	if (mutex_lock_killable(&ch->mr.mutex))
		return -EINTR;
	ret = rdmachan_mr_usable(ch);
	if (ret)
		goto unlock;
	limit = (u64)ch->conn.params.queue_depth * ch->opts.max_send_regs;
	if (!count || count > limit - ch->pools.regs || !max_pages ||
	    max_pages > ch->res.max_reg_pages) {
		rdmachan_info_rl(ch,
				 "pool of %u registrations of %u pages refused: %u of %llu held, %u pages at most\n",
				 count, max_pages, ch->pools.regs, limit,
				 ch->res.max_reg_pages);
		ret = -EINVAL;
		goto unlock;
	}
	pool = kvzalloc(struct_size(pool, mrs, count), GFP_KERNEL);
	if (!pool) {
		ret = -ENOMEM;
		goto unlock;
	}
	pool->ch = ch;
	pool->ibdev = rdmachan_chan_dev(ch)->ibdev;
	pool->count = count;
	pool->max_pages = max_pages;
	INIT_LIST_HEAD(&pool->free);
	for (i = 0; i < count; i++) {
		struct rdmachan_mr *mr = &pool->mrs[i];
		struct ib_mr *ibmr;

		ibmr = ib_alloc_mr(ch->res.pd, IB_MR_TYPE_MEM_REG, max_pages);
		if (IS_ERR(ibmr)) {
			ret = PTR_ERR(ibmr);
			rdmachan_pool_dereg(pool, 0);
			kvfree(pool);
			goto unlock;
		}
		mr->ibmr = ibmr;
		mr->ch = ch;
		mr->preg.pool = pool;
		mr->preg.state = RDMACHAN_PR_FREE;
		mr->preg.dev_key = ibmr->rkey;
		mr->preg.reg_cqe.done = rdmachan_pool_reg_done;
		mr->preg.inv_cqe.done = rdmachan_pool_inv_done;
		list_add_tail(&mr->node, &pool->free);
	}
	ch->pools.regs += count;
	list_add_tail(&pool->node, &ch->pools.list);
	*poolp = pool;
unlock:
	mutex_unlock(&ch->mr.mutex);
	return ret;
}
EXPORT_SYMBOL_GPL(rdmachan_mr_pool_create);

static bool rdmachan_pool_inv_idle(struct rdmachan_mr_pool *pool)
{
	struct rdmachan *ch = pool->ch;
	unsigned long flags;
	bool idle;

	spin_lock_irqsave(&ch->lock, flags);
	idle = !pool->nr_inv;
	spin_unlock_irqrestore(&ch->lock, flags);
	return idle;
}

/**
 * rdmachan_mr_pool_destroy() - free a pool
 * @pool: from rdmachan_mr_pool_create(); NULL is ignored
 *
 * Call it once every registration is back (rdmachan_mr_pool_put() returned
 * 0 or its callback ran), and before rdmachan_close(): a registration
 * still out is a bug (warned about, then unmapped and deregistered all the
 * same); invalidations still running are waited for (they end within the
 * transport's retry time, or with the channel's teardown).
 *
 * Context: process context, sleeps.
 */
void rdmachan_mr_pool_destroy(struct rdmachan_mr_pool *pool)
{
	struct rdmachan *ch;
	unsigned long flags, next;
	u32 i, out;

	if (!pool)
		return;
	ch = pool->ch;
	might_sleep();
	next = jiffies + 10 * HZ;
	while (!rdmachan_pool_inv_idle(pool)) {
		if (!rdmachan_poll(ch, -1))
			wait_event_timeout(ch->wq, rdmachan_pool_inv_idle(pool),
					   HZ / 10);
		if (time_after(jiffies, next)) {
			rdmachan_warn(ch,
				      "pool destruction still waits for invalidations\n");
			next = jiffies + 10 * HZ;
		}
	}

	mutex_lock(&ch->mr.mutex);
	list_del(&pool->node);
	ch->pools.regs -= pool->count;
	spin_lock_irqsave(&ch->lock, flags);
	out = pool->nr_out;
	for (i = 0; i < pool->count; i++) {
		struct rdmachan_mr *mr = &pool->mrs[i];

		if (mr->preg.state != RDMACHAN_PR_FREE)
			rdmachan_pool_free_locked(mr);
	}
	/* no more posts, maps or unmaps: the MRs go */
	pool->released = true;
	spin_unlock_irqrestore(&ch->lock, flags);
	WARN_ONCE(out, "rdmachan: pool destroyed with %u registration(s) out\n",
		  out);
	rdmachan_pool_dereg(pool, 0);
	mutex_unlock(&ch->mr.mutex);
	kvfree(pool);
}
EXPORT_SYMBOL_GPL(rdmachan_mr_pool_destroy);

/**
 * rdmachan_mr_pool_map() - map a free registration of a pool onto pages
 * @pool: the pool
 * @sgl: the memory (kernel pages, not DMA-mapped); every entry but the
 *	first starts on a page and every entry but the last ends on one
 * @nents: entries of @sgl
 * @access: RDMACHAN_ACCESS_* the peer gets (REMOTE_WRITE and REMOTE_READ
 *	want LOCAL_WRITE as for rdmachan_mr_reg_sg())
 * @mrp: the registration; rdmachan_mr_remote() gives its address, length
 *	and a rkey never used before by this MR
 *
 * The registration is not valid yet: rdmachan_send_ext() makes it valid
 * with the message that tells the peer about it, or the first one-sided
 * call (rdmachan_rdma_start() and the like) that names it as a local
 * segment posts its fast registration in front of its operations (a
 * server's zero copy).  Either way once: a registration already posted
 * can be a local segment again, but not carried by a send.  @sgl stays
 * mapped and must stay valid until rdmachan_mr_pool_put() gave it back,
 * which is to come after every one-sided call using it ended.
 *
 * Context: any; never sleeps.
 * Return: 0; -EAGAIN (every registration of the pool is out); -E2BIG
 * (more than the pool's max_pages); -EINVAL (empty, holes between pages,
 * bad rights); -ENOMEM (DMA mapping failed); -EOPNOTSUPP (atomic rights
 * the device lacks); -EIO (the free registration may still be valid on
 * the device, neither invalidated nor never posted: a bug, warned
 * about); -ENOTCONN, -ECONNRESET or the channel's error when it is not
 * connected.
 */
int rdmachan_mr_pool_map(struct rdmachan_mr_pool *pool,
			 struct scatterlist *sgl, unsigned int nents,
			 u32 access, struct rdmachan_mr **mrp)
{
	struct rdmachan *ch = pool->ch;
	struct scatterlist *sg;
	struct rdmachan_mr *mr;
	unsigned long flags;
	u64 length = 0;
	unsigned int i;
	u32 pages;
	int n, ret;

	if (!sgl || !nents)
		return -EINVAL;
	ret = rdmachan_mr_check_access(ch, access);
	if (ret)
		return ret;
	for_each_sg(sgl, sg, nents, i)
		length += sg->length;
	if (!length)
		return -EINVAL;
	pages = rdmachan_sg_pages(sgl, nents);
	if (pages > pool->max_pages)
		return -E2BIG;

	/* all under the lock: teardown's release orders against it */
	spin_lock_irqsave(&ch->lock, flags);
	ret = rdmachan_send_state_err(ch);
	if (!ret && pool->released)
		ret = -ENOTCONN;
	if (ret)
		goto unlock;
	mr = list_first_entry_or_null(&pool->free, struct rdmachan_mr, node);
	if (!mr) {
		ret = -EAGAIN;
		goto unlock;
	}
	/*
	 * Registering again what the device may still hold valid fails the
	 * REG_MR and with it the QP: a bug of the pool's bookkeeping.  Such a
	 * registration is never handed out: it stays off the free list until
	 * the pool goes.
	 */
	if (WARN_ONCE(mr->preg.hw_valid,
		      "rdmachan: channel %u: pool registration rkey %#x back in its pool without an invalidation\n",
		      ch->obj.id, mr->ibmr->rkey)) {
		list_del_init(&mr->node);
		pool->nr_out++;
		mr->preg.state = RDMACHAN_PR_MAPPED;
		ret = -EIO;
		goto unlock;
	}
	n = ib_dma_map_sg(pool->ibdev, sgl, nents, DMA_BIDIRECTIONAL);
	if (!n) {
		ret = -ENOMEM;
		goto unlock;
	}
	ret = ib_map_mr_sg(mr->ibmr, sgl, n, NULL, PAGE_SIZE);
	if (ret != n) {
		ib_dma_unmap_sg(pool->ibdev, sgl, nents, DMA_BIDIRECTIONAL);
		ret = ret < 0 ? ret : -EINVAL;
		goto unlock;
	}
	ret = 0;
	/* a fresh key each time: an old rkey never comes back to life */
	ib_update_fast_reg_key(mr->ibmr, ib_inc_rkey(mr->ibmr->rkey));
	list_del_init(&mr->node);
	pool->nr_out++;
	mr->preg.state = RDMACHAN_PR_MAPPED;
	mr->sgl = sgl;
	mr->nents = nents;
	mr->dma_nents = n;
	mr->length = length;
	mr->access = access;
	memset(&mr->preg.reg_wr, 0, sizeof(mr->preg.reg_wr));
	mr->preg.reg_wr.wr.opcode = IB_WR_REG_MR;
	mr->preg.reg_wr.wr.wr_cqe = &mr->preg.reg_cqe;
	mr->preg.reg_wr.mr = mr->ibmr;
	mr->preg.reg_wr.key = mr->ibmr->rkey;
	mr->preg.reg_wr.access = rdmachan_ib_access(access);
	*mrp = mr;
unlock:
	spin_unlock_irqrestore(&ch->lock, flags);
	if (ret == -EINVAL)
		rdmachan_info_rl(ch,
				 "pool mapping refused: a scatterlist with holes between its pages\n");
	return ret;
}
EXPORT_SYMBOL_GPL(rdmachan_mr_pool_map);

/**
 * rdmachan_mr_pool_put() - give a pool's registration back
 * @mr: from rdmachan_mr_pool_map()
 * @invalidated: the peer invalidated it: a message of the channel came
 *	with &rdmachan_msg.invalidated and &rdmachan_msg.inv_rkey equal to
 *	this registration's rkey (the caller checks that)
 * @done: called when an invalidation this starts has ended (may be NULL)
 * @ctx: for @done
 *
 * When @invalidated, or the registration was never sent (mapped only, or
 * its rdmachan_send_ext() failed), or the channel's QP is destroyed, it
 * is unmapped and back in its pool on return.  Otherwise a signalled
 * LOCAL_INV is posted, and @done runs from its completion (the channel's
 * completion context) once the registration is unmapped and back: the
 * peer can no longer reach the memory from then on, and not before.  On
 * a channel that failed or is being torn down (the LOCAL_INV flushed or
 * not posted), that moment is the QP's destruction: @done runs from the
 * teardown then (process context), with -ECANCELED; teardown is under
 * way or scheduled, so the wait is bounded by the drain (the transport's
 * retry time at most).
 *
 * Context: any; never sleeps.
 * Return: 0 (back now; @done will not run), -EINPROGRESS (@done will
 * run, with 0 or -ECANCELED, the memory unreachable either way), -EINVAL
 * (not a pool's registration, or not out: a bug, warned about).
 */
int rdmachan_mr_pool_put(struct rdmachan_mr *mr, bool invalidated,
			 rdmachan_mr_done_t done, void *ctx)
{
	struct rdmachan *ch;
	unsigned long flags;
	bool bh;
	int ret;

	if (WARN_ON_ONCE(!mr || !mr->preg.pool))
		return -EINVAL;
	ch = mr->ch;
	bh = rdmachan_bh_off();
	spin_lock_irqsave(&ch->lock, flags);
	if (WARN_ON_ONCE(mr->preg.state == RDMACHAN_PR_FREE ||
			 mr->preg.state == RDMACHAN_PR_INVALIDATING)) {
		ret = -EINVAL;
		goto unlock;
	}
	if (mr->preg.state == RDMACHAN_PR_POSTED && !invalidated &&
	    !mr->preg.pool->unreachable) {
		mr->preg.state = RDMACHAN_PR_INVALIDATING;
		mr->preg.pool->nr_inv++;
		mr->preg.done = done;
		mr->preg.done_ctx = ctx;
		ret = -EINPROGRESS;
		/* teardown under way: back once it destroyed the QP */
		if (test_bit(RDMACHAN_F_IO_STOPPED, &ch->flags))
			goto unlock;
		rdmachan_post_inv_locked(mr);
		goto unlock;
	}
	if (invalidated)
		mr->preg.hw_valid = false;
	rdmachan_pool_free_locked(mr);
	ret = 0;
unlock:
	spin_unlock_irqrestore(&ch->lock, flags);
	rdmachan_bh_on(bh);
	return ret;
}
EXPORT_SYMBOL_GPL(rdmachan_mr_pool_put);

/**
 * rdmachan_pool_claim() - reserve the registrations a send carries
 * @ch: the channel
 * @ext: the send's registrations
 *
 * Each must be a mapped registration of a pool of @ch, not sent yet, and
 * named once.  They stay claimed until the send posts them
 * (rdmachan_post_tx_locked()) or fails (rdmachan_pool_unclaim()).
 *
 * Context: any.
 * Return: 0, or -EINVAL with none claimed.
 */
int rdmachan_pool_claim(struct rdmachan *ch, const struct rdmachan_send_ext *ext)
{
	unsigned long flags;
	u32 i, j;

	spin_lock_irqsave(&ch->lock, flags);
	for (i = 0; i < ext->nr_regs; i++) {
		struct rdmachan_mr *mr = ext->regs[i];

		if (!mr || mr->ch != ch || !mr->preg.pool ||
		    mr->preg.state != RDMACHAN_PR_MAPPED)
			break;
		mr->preg.state = RDMACHAN_PR_CLAIMED;
	}
	if (i < ext->nr_regs) {
		for (j = 0; j < i; j++)
			ext->regs[j]->preg.state = RDMACHAN_PR_MAPPED;
	}
	spin_unlock_irqrestore(&ch->lock, flags);
	if (i < ext->nr_regs) {
		rdmachan_info_rl(ch,
				 "send_ext: registration %u is no mapped pool registration of the channel, or named twice\n",
				 i);
		return -EINVAL;
	}
	return 0;
}

/**
 * rdmachan_pool_unclaim() - a send that claimed registrations failed
 * @ch: the channel
 * @ext: the send's registrations, claimed by rdmachan_pool_claim()
 *
 * Context: any.
 */
void rdmachan_pool_unclaim(struct rdmachan *ch,
			   const struct rdmachan_send_ext *ext)
{
	unsigned long flags;
	u32 i;

	spin_lock_irqsave(&ch->lock, flags);
	for (i = 0; i < ext->nr_regs; i++)
		if (ext->regs[i]->preg.state == RDMACHAN_PR_CLAIMED)
			ext->regs[i]->preg.state = RDMACHAN_PR_MAPPED;
	spin_unlock_irqrestore(&ch->lock, flags);
}

/**
 * rdmachan_pool_end_orphans() - teardown: end the invalidations still
 *	posted
 * @ch: the channel; its QP destroyed and its CQs freed
 *
 * Each one's callback runs with -ECANCELED, its registration back.
 *
 * Context: process context.
 */
void rdmachan_pool_end_orphans(struct rdmachan *ch)
{
	struct rdmachan_mr_pool *pool;
	rdmachan_mr_done_t done;
	unsigned long flags;
	void *ctx;
	u32 i;

	mutex_lock(&ch->mr.mutex);
	list_for_each_entry(pool, &ch->pools.list, node) {
		/* from here on a put gives the registration back at once */
		spin_lock_irqsave(&ch->lock, flags);
		pool->unreachable = true;
		spin_unlock_irqrestore(&ch->lock, flags);
		for (i = 0; i < pool->count; i++) {
			struct rdmachan_mr *mr = &pool->mrs[i];

			spin_lock_irqsave(&ch->lock, flags);
			if (mr->preg.state != RDMACHAN_PR_INVALIDATING) {
				spin_unlock_irqrestore(&ch->lock, flags);
				continue;
			}
			done = mr->preg.done;
			ctx = mr->preg.done_ctx;
			rdmachan_pool_free_locked(mr);
			spin_unlock_irqrestore(&ch->lock, flags);
			if (done)
				done(ctx, -ECANCELED);
		}
	}
	mutex_unlock(&ch->mr.mutex);
	wake_up_all(&ch->wq);
}

/**
 * rdmachan_pool_release_all() - teardown: unmap and deregister the MRs
 *	of every pool, before the PD goes
 * @ch: the channel; rdmachan_pool_end_orphans() done
 *
 * The pools stay, their registrations unusable (mapping fails, putting
 * back only frees), until rdmachan_mr_pool_destroy().
 *
 * Context: process context.
 */
void rdmachan_pool_release_all(struct rdmachan *ch)
{
	struct rdmachan_mr_pool *pool;
	unsigned long flags;
	u32 i;

	mutex_lock(&ch->mr.mutex);
	list_for_each_entry(pool, &ch->pools.list, node) {
		/*
		 * Unmapped under the lock, so that a put racing with this
		 * unmaps each mapping once (rdmachan_pool_free_locked()).
		 */
		spin_lock_irqsave(&ch->lock, flags);
		pool->unreachable = true;
		pool->released = true;
		for (i = 0; i < pool->count; i++) {
			struct rdmachan_mr *mr = &pool->mrs[i];

			if (mr->dma_nents) {
				ib_dma_unmap_sg(pool->ibdev, mr->sgl, mr->nents,
						DMA_BIDIRECTIONAL);
				mr->dma_nents = 0;
			}
		}
		spin_unlock_irqrestore(&ch->lock, flags);
		/* from here on only this touches the MRs */
		rdmachan_pool_dereg(pool, 0);
	}
	mutex_unlock(&ch->mr.mutex);
}

/**
 * rdmachan_pool_free_all() - free the pools left when the channel goes
 * @ch: the channel, last reference gone, torn down
 *
 * A pool is to be destroyed before rdmachan_close(); one left is a bug
 * of its user, warned about.
 *
 * Context: process context.
 */
void rdmachan_pool_free_all(struct rdmachan *ch)
{
	struct rdmachan_mr_pool *pool, *next;

	list_for_each_entry_safe(pool, next, &ch->pools.list, node) {
		WARN_ONCE(1, "rdmachan: channel %u closed with a registration pool\n",
			  ch->obj.id);
		list_del(&pool->node);
		/* torn down: its MRs are gone already */
		rdmachan_pool_dereg(pool, 0);
		kvfree(pool);
	}
}
