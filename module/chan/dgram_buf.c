// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan: a datagram endpoint's buffers, which follow use
 *
 * An endpoint opens as IPoIB's UD ring does, with a receive buffer posted
 * for each of its @depth, so that a burst finds them; from then on its
 * buffers follow what it receives, as a channel's grant does
 * (chan_grant.c), on its own receive queue:
 *
 * - a completion that leaves at most half of the buffers posted (the rest
 *   hold datagrams nobody has read yet) adds up to
 *   RDMACHAN_DGRAM_GROW_STEP more, up to the depth, in the completion
 *   handler itself (atomic allocations, charged to the maker's memory
 *   cgroup), as IPoIB refills its ring: a work item would come after the
 *   burst it is for;
 * - an endpoint that received nothing for shrink_idle_ms, its buffers all
 *   posted, gives back what it holds beyond RDMACHAN_DGRAM_RX_KEEP (room
 *   for one full batch).  A posted receive cannot be taken back short of
 *   resetting the queue pair (which drops what comes meanwhile), so the
 *   endpoint sends itself an empty datagram for each, as a channel's peer
 *   sends RETIRE messages: each takes one posted buffer, and the handler
 *   frees that buffer instead of handing it to a reader.  A datagram is
 *   taken for one only while some are on their way, when it is empty,
 *   comes from the endpoint's own queue pair and host, and carries the
 *   endpoint's random immediate data: a peer cannot make buffers go;
 * - its send buffers are made at a datagram's first use of them and,
 *   once nothing was sent for shrink_idle_ms, freed but
 *   RDMACHAN_DGRAM_TX_KEEP (a retire datagram is empty: it needs none).
 *
 * A datagram that finds no buffer posted is dropped by the device, as
 * ever (rx_empty); an idle endpoint's first burst larger than its kept
 * buffers may so lose datagrams until it has grown, where one keeping its
 * depth would not (shrink_idle_ms 0 keeps it).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": dgram: " fmt

#include <linux/memcontrol.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>

#include "dgram.h"
#include "params.h"

/* The tick's period while shrink_idle_ms is 0 (never): to see it change */
#define RDMACHAN_DGRAM_IDLE_OFF		HZ
/* How soon a tick that had more to give back than send buffers returns */
#define RDMACHAN_DGRAM_IDLE_MORE	(HZ / 50)

/* Make slot @s's page, charged to @d's maker, and map it */
static int rdmachan_dgram_map(struct rdmachan_dgram *d,
			      struct rdmachan_dgram_slot *s,
			      enum dma_data_direction dir, gfp_t gfp)
{
	struct ib_device *dev = d->pd->device;
	struct mem_cgroup *old = d->memcg ? set_active_memcg(d->memcg) : NULL;

	s->page = alloc_page(gfp | __GFP_ACCOUNT);
	if (d->memcg)
		set_active_memcg(old);
	if (!s->page)
		return -ENOMEM;
	s->dma = ib_dma_map_page(dev, s->page, 0, PAGE_SIZE, dir);
	if (ib_dma_mapping_error(dev, s->dma)) {
		s->dma = 0;
		__free_page(s->page);
		s->page = NULL;
		return -ENOMEM;
	}
	return 0;
}

/* Unmap and free slot @s's page.  Context: @d->pd exists. */
static void rdmachan_dgram_unmake(struct rdmachan_dgram *d,
				  struct rdmachan_dgram_slot *s,
				  enum dma_data_direction dir)
{
	if (s->dma)
		ib_dma_unmap_page(d->pd->device, s->dma, PAGE_SIZE, dir);
	s->dma = 0;
	__free_page(s->page);
	s->page = NULL;
}

/*
 * Free receive slot @i's buffer: neither posted nor held, its completion
 * handled.  Context: a completion handler of @d, or @d->rwsem held.
 */
static void rdmachan_dgram_rx_drop(struct rdmachan_dgram *d, u32 i)
{
	unsigned long flags;

	d->rx[i].rx.data = NULL;
	rdmachan_dgram_unmake(d, &d->rx[i], DMA_FROM_DEVICE);
	spin_lock_irqsave(&d->lock, flags);
	d->rx_made--;
	d->rx_free[d->rx_nfree++] = i;
	spin_unlock_irqrestore(&d->lock, flags);
}

/*
 * Post receive slot @i, already counted in @posted and @rx_posted; a slot
 * the device refuses loses its buffer.  Context: @d->rwsem held, or a
 * completion handler of @d (the queue pair lives while @posted counts).
 */
static int rdmachan_dgram_rx_post(struct rdmachan_dgram *d, u32 i)
{
	struct rdmachan_dgram_slot *s = &d->rx[i];
	struct ib_sge sge[2] = {
		{ .addr = d->grh_dma + i * RDMACHAN_DGRAM_GRH,
		  .length = RDMACHAN_DGRAM_GRH,
		  .lkey = d->pd->local_dma_lkey },
		{ .addr = s->dma, .length = d->max_size,
		  .lkey = d->pd->local_dma_lkey },
	};
	struct ib_recv_wr wr = {
		.wr_cqe = &s->cqe, .sg_list = sge, .num_sge = 2,
	};
	unsigned long flags;
	int ret;

	ib_dma_sync_single_for_device(d->pd->device, s->dma, PAGE_SIZE,
				      DMA_FROM_DEVICE);
	ret = ib_post_recv(d->id->qp, &wr, NULL);
	if (ret) {
		pr_info_ratelimited("qpn %u: posting a receive failed: %d\n",
				    d->qpn, ret);
		rdmachan_dgram_rx_drop(d, i);
		spin_lock_irqsave(&d->lock, flags);
		d->posted--;
		d->rx_posted--;
		spin_unlock_irqrestore(&d->lock, flags);
	}
	return ret;
}

/**
 * rdmachan_dgram_post_recv() - post a receive buffer
 * @d: the endpoint
 * @i: the slot, with its buffer
 *
 * Context: @d->rwsem held, @d not dead.
 * Return: 0 or the device's error (the buffer is freed then).
 */
int rdmachan_dgram_post_recv(struct rdmachan_dgram *d, u32 i)
{
	unsigned long flags;

	spin_lock_irqsave(&d->lock, flags);
	d->posted++;
	d->rx_posted++;
	spin_unlock_irqrestore(&d->lock, flags);
	return rdmachan_dgram_rx_post(d, i);
}

/* Make a buffer for slot @i, counted as made and posted, and post it */
static void rdmachan_dgram_rx_grow(struct rdmachan_dgram *d, u32 i)
{
	unsigned long flags;

	/* not GFP_ATOMIC: its __GFP_HIGH would charge past the cgroup's max */
	if (!rdmachan_dgram_map(d, &d->rx[i], DMA_FROM_DEVICE,
				GFP_NOWAIT | __GFP_NOWARN)) {
		d->rx[i].rx.data = page_address(d->rx[i].page);
		rdmachan_dgram_rx_post(d, i);
		return;
	}
	spin_lock_irqsave(&d->lock, flags);
	d->rx_made--;
	d->rx_free[d->rx_nfree++] = i;
	d->stats.grown--;
	d->posted--;
	d->rx_posted--;
	spin_unlock_irqrestore(&d->lock, flags);
}

/* Queue received slot @i for a reader.  Context: under @d->lock. */
static void rdmachan_dgram_rx_queue(struct rdmachan_dgram *d, u32 i)
{
	d->rx_ring[(d->rx_head + d->rx_count) % d->depth] = i;
	d->rx_count++;
	d->stats.rx++;
	d->stats.rx_bytes += d->rx[i].rx.len;
	if (!d->rx_posted)
		d->stats.rx_empty++;
}

/*
 * A receive of slot @i completed with @status (success: its
 * &rdmachan_dgram_slot.rx filled in): queue the datagram for a reader, or
 * free the buffer a retire datagram took (repost it when the endpoint
 * holds no more than it keeps), and grow the buffers when at most half of
 * them are posted.  A receive that failed but was not flushed reposts its
 * buffer.
 */
static void rdmachan_dgram_rx_done(struct rdmachan_dgram *d, u32 i,
				   enum ib_wc_status status)
{
	u32 grow[RDMACHAN_DGRAM_GROW_STEP];
	bool retire = false, repost = false;
	unsigned long flags;
	u32 n = 0, k;

	spin_lock_irqsave(&d->lock, flags);
	d->posted--;
	d->rx_posted--;
	if (status != IB_WC_SUCCESS && status != IB_WC_WR_FLUSH_ERR &&
	    !d->dead) {
		repost = true;
		d->posted++;
		d->rx_posted++;
	}
	if (status == IB_WC_SUCCESS && !d->dead && d->rx_retiring &&
	    rdmachan_dgram_is_retire(&d->rx[i].rx, d->qpn, d->retire_imm,
				     &d->addr)) {
		d->rx_retiring--;
		retire = d->rx_made > rdmachan_dgram_keep(d->depth);
		repost = !retire;
		d->stats.retired += retire;
		d->posted += repost;
		d->rx_posted += repost;
	} else if (status == IB_WC_SUCCESS && !d->dead) {
		rdmachan_dgram_rx_queue(d, i);
		n = min(rdmachan_dgram_grow_n(d->rx_made, d->rx_posted,
					      d->depth), d->rx_nfree);
		for (k = 0; k < n; k++)
			grow[k] = d->rx_free[--d->rx_nfree];
		d->rx_made += n;
		d->stats.grown += n;
		d->posted += n;
		d->rx_posted += n;
	}
	spin_unlock_irqrestore(&d->lock, flags);
	if (retire)
		rdmachan_dgram_rx_drop(d, i);
	if (repost)
		rdmachan_dgram_rx_post(d, i);
	for (k = 0; k < n; k++)
		rdmachan_dgram_rx_grow(d, grow[k]);
}

static void rdmachan_dgram_recv_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct rdmachan_dgram_slot *s =
		container_of(wc->wr_cqe, struct rdmachan_dgram_slot, cqe);
	struct rdmachan_dgram *d = s->d;
	u32 i = s - d->rx;
	bool ipv4;

	if (wc->status == IB_WC_SUCCESS) {
		ib_dma_sync_single_for_cpu(d->pd->device,
					   d->grh_dma + i * RDMACHAN_DGRAM_GRH,
					   RDMACHAN_DGRAM_GRH, DMA_FROM_DEVICE);
		ib_dma_sync_single_for_cpu(d->pd->device, s->dma, PAGE_SIZE,
					   DMA_FROM_DEVICE);
		ipv4 = (wc->wc_flags & IB_WC_WITH_NETWORK_HDR_TYPE) &&
		       wc->network_hdr_type == RDMA_NETWORK_IPV4;
		s->rx.len = wc->byte_len > RDMACHAN_DGRAM_GRH ?
			    wc->byte_len - RDMACHAN_DGRAM_GRH : 0;
		s->rx.qpn = wc->src_qp;
		s->rx.has_imm = wc->wc_flags & IB_WC_WITH_IMM;
		s->rx.imm = s->rx.has_imm ? wc->ex.imm_data : 0;
		/* no GRH (an InfiniBand subnet's own): no address known */
		if (!(wc->wc_flags & IB_WC_GRH) ||
		    rdmachan_dgram_grh_source(d->grh + i * RDMACHAN_DGRAM_GRH,
					      ipv4, &s->rx.from))
			s->rx.from.ss_family = AF_UNSPEC;
	} else if (wc->status != IB_WC_WR_FLUSH_ERR) {
		pr_info_ratelimited("qpn %u: a receive failed: %s\n", d->qpn,
				    ib_wc_status_msg(wc->status));
	}
	rdmachan_dgram_rx_done(d, i, wc->status);
	wake_up_all(&d->wq);
}

/**
 * rdmachan_dgram_tx_page() - give a taken send slot its page
 * @d: the endpoint
 * @s: the slot
 *
 * Context: process context, @d->rwsem held, @d not dead.
 * Return: 0 or -ENOMEM.
 */
int rdmachan_dgram_tx_page(struct rdmachan_dgram *d,
			   struct rdmachan_dgram_slot *s)
{
	unsigned long flags;
	int ret;

	if (s->page)
		return 0;
	ret = rdmachan_dgram_map(d, s, DMA_TO_DEVICE, GFP_KERNEL);
	if (ret)
		return ret;
	spin_lock_irqsave(&d->lock, flags);
	d->tx_pages++;
	spin_unlock_irqrestore(&d->lock, flags);
	return 0;
}

/**
 * rdmachan_dgram_buffers() - make an endpoint's buffers at open
 * @d: the endpoint, its PD made
 *
 * A receive buffer for each of @depth; send buffers come with use.
 *
 * Context: process context.
 * Return: 0 or -ENOMEM.
 */
int rdmachan_dgram_buffers(struct rdmachan_dgram *d)
{
	struct ib_device *dev = d->pd->device;
	u32 i;

	d->rx = kvcalloc(d->depth, sizeof(*d->rx), GFP_KERNEL_ACCOUNT);
	d->rx_ring = kvcalloc(d->depth, sizeof(*d->rx_ring),
			      GFP_KERNEL_ACCOUNT);
	d->rx_free = kvcalloc(d->depth, sizeof(*d->rx_free),
			      GFP_KERNEL_ACCOUNT);
	d->grh = kcalloc(d->depth, RDMACHAN_DGRAM_GRH, GFP_KERNEL_ACCOUNT);
	d->ahs = kcalloc(RDMACHAN_DGRAM_MAX_AH, sizeof(*d->ahs),
			 GFP_KERNEL_ACCOUNT);
	if (!d->rx || !d->rx_ring || !d->rx_free || !d->grh || !d->ahs)
		return -ENOMEM;
	d->grh_dma = ib_dma_map_single(dev, d->grh,
				       d->depth * RDMACHAN_DGRAM_GRH,
				       DMA_FROM_DEVICE);
	if (ib_dma_mapping_error(dev, d->grh_dma)) {
		d->grh_dma = 0;
		return -ENOMEM;
	}
	for (i = 0; i < d->depth; i++) {
		d->rx[i].d = d;
		d->rx[i].cqe.done = rdmachan_dgram_recv_done;
		if (rdmachan_dgram_map(d, &d->rx[i], DMA_FROM_DEVICE,
				       GFP_KERNEL))
			return -ENOMEM;
		d->rx[i].rx.data = page_address(d->rx[i].page);
		d->rx_made++;
	}
	for (i = 0; i < RDMACHAN_DGRAM_TX; i++) {
		d->tx[i].d = d;
		d->tx[i].cqe.done = rdmachan_dgram_send_done;
		set_bit(i, d->tx_free);
	}
	return 0;
}

/**
 * rdmachan_dgram_unmap() - unmap every buffer at teardown
 * @d: the endpoint, its queue pair gone; the pages stay until the last
 *	reference (rdmachan_dgram_bufs_free()), a reader may hold one
 *
 * Context: process context, @d->rwsem held for writing.
 */
void rdmachan_dgram_unmap(struct rdmachan_dgram *d)
{
	struct ib_device *dev = d->pd->device;
	u32 i;

	for (i = 0; d->rx && i < d->depth; i++)
		if (d->rx[i].dma)
			ib_dma_unmap_page(dev, d->rx[i].dma, PAGE_SIZE,
					  DMA_FROM_DEVICE);
	for (i = 0; i < RDMACHAN_DGRAM_TX; i++)
		if (d->tx[i].dma)
			ib_dma_unmap_page(dev, d->tx[i].dma, PAGE_SIZE,
					  DMA_TO_DEVICE);
	if (d->grh_dma)
		ib_dma_unmap_single(dev, d->grh_dma,
				    d->depth * RDMACHAN_DGRAM_GRH,
				    DMA_FROM_DEVICE);
}

/**
 * rdmachan_dgram_bufs_free() - free the buffers at the last reference
 * @d: the endpoint
 *
 * Context: any that may free pages.
 */
void rdmachan_dgram_bufs_free(struct rdmachan_dgram *d)
{
	u32 i;

	for (i = 0; d->rx && i < d->depth; i++)
		if (d->rx[i].page)
			__free_page(d->rx[i].page);
	for (i = 0; i < RDMACHAN_DGRAM_TX; i++)
		if (d->tx[i].page)
			__free_page(d->tx[i].page);
	kvfree(d->rx);
	kvfree(d->rx_ring);
	kvfree(d->rx_free);
	kfree(d->grh);
	kfree(d->ahs);
}

/**
 * rdmachan_dgram_mem_bytes() - what an endpoint holds
 * @d: the endpoint
 *
 * Context: under @d->lock.
 * Return: bytes: its pages, its arrays and itself.
 */
u64 rdmachan_dgram_mem_bytes(const struct rdmachan_dgram *d)
{
	return sizeof(*d) + (u64)(d->rx_made + d->tx_pages) * PAGE_SIZE +
	       (u64)d->depth * (sizeof(*d->rx) + sizeof(*d->rx_ring) +
				sizeof(*d->rx_free) + RDMACHAN_DGRAM_GRH) +
	       RDMACHAN_DGRAM_MAX_AH * sizeof(*d->ahs);
}

/* ---- the idle tick -------------------------------------------------------- */

/*
 * Send @n retire datagrams to the endpoint itself, as many as send slots
 * are free (*@more: they ran out first).  Context: the idle tick.
 * Return: how many went.
 */
static u32 rdmachan_dgram_retire(struct rdmachan_dgram *d, u32 n, bool *more)
{
	struct rdmachan_dgram_ah *ah = rdmachan_dgram_ah_self(d);
	unsigned long flags;
	u32 sent;
	int i;

	if (IS_ERR(ah)) {
		if (PTR_ERR(ah) != -EBUSY)
			pr_info_ratelimited("qpn %u: no address handle to itself (%ld): its receive buffers stay\n",
					    d->qpn, PTR_ERR(ah));
		return 0;
	}
	down_read(&d->rwsem);
	for (sent = 0; sent < n; sent++) {
		spin_lock_irqsave(&d->lock, flags);
		i = d->dead ? -1 : rdmachan_dgram_tx_take(d);
		if (i >= 0) {
			d->rx_retiring++;
			ah->inflight++;		/* the send's hold */
		}
		spin_unlock_irqrestore(&d->lock, flags);
		if (i < 0) {
			*more = !READ_ONCE(d->dead);
			break;
		}
		d->tx[i].len = 0;
		if (rdmachan_dgram_post_send(d, &d->tx[i], ah, d->qpn, 0,
					     &d->retire_imm)) {
			spin_lock_irqsave(&d->lock, flags);
			d->rx_retiring--;
			spin_unlock_irqrestore(&d->lock, flags);
			break;
		}
	}
	up_read(&d->rwsem);
	return sent;
}

/* Free the pages of the free send slots but RDMACHAN_DGRAM_TX_KEEP */
static void rdmachan_dgram_tx_trim(struct rdmachan_dgram *d)
{
	DECLARE_BITMAP(trim, RDMACHAN_DGRAM_TX);
	unsigned long flags;
	u32 i, kept = 0;

	bitmap_zero(trim, RDMACHAN_DGRAM_TX);
	down_read(&d->rwsem);
	spin_lock_irqsave(&d->lock, flags);
	for (i = 0; !d->dead && i < RDMACHAN_DGRAM_TX; i++) {
		/* a taken slot's page is its sender's */
		if (!test_bit(i, d->tx_free) || !d->tx[i].page ||
		    kept++ < RDMACHAN_DGRAM_TX_KEEP)
			continue;
		clear_bit(i, d->tx_free);	/* taken while it goes */
		set_bit(i, trim);
	}
	spin_unlock_irqrestore(&d->lock, flags);
	for_each_set_bit(i, trim, RDMACHAN_DGRAM_TX) {
		rdmachan_dgram_unmake(d, &d->tx[i], DMA_TO_DEVICE);
		spin_lock_irqsave(&d->lock, flags);
		d->tx_pages--;
		set_bit(i, d->tx_free);
		spin_unlock_irqrestore(&d->lock, flags);
	}
	up_read(&d->rwsem);
	if (!bitmap_empty(trim, RDMACHAN_DGRAM_TX))
		wake_up_all(&d->wq);
}

/*
 * The idle tick, every shrink_idle_ms: an endpoint that received nothing
 * since the last, and whose buffers are all posted (none unread, none
 * held by a reader), gives them back but what it keeps; one that sent
 * nothing, its send pages.  It processes a BUSY_POLL endpoint's queue
 * first, which nobody may be polling.  A retire datagram lost (only a
 * burst taking every buffer at once drops one) leaves its buffer made.
 */
static void rdmachan_dgram_idle(struct work_struct *work)
{
	struct rdmachan_dgram *d = container_of(to_delayed_work(work),
						struct rdmachan_dgram,
						idle_work);
	unsigned int ms = rdmachan_param_shrink_idle_ms();
	bool rx_idle, tx_idle, more = false;
	unsigned long flags, delay;
	u32 n = 0;

	rdmachan_dgram_process(d);
	spin_lock_irqsave(&d->lock, flags);
	rx_idle = ms && d->stats.rx == d->idle_rx &&
		  d->rx_posted == d->rx_made;
	tx_idle = ms && d->stats.tx == d->idle_tx;
	d->idle_rx = d->stats.rx;
	d->idle_tx = d->stats.tx;
	if (rx_idle && !d->dead)
		n = rdmachan_dgram_retire_n(d->rx_made, d->rx_retiring,
					    d->depth);
	spin_unlock_irqrestore(&d->lock, flags);
	if (n)
		rdmachan_dgram_retire(d, n, &more);
	if (tx_idle)
		rdmachan_dgram_tx_trim(d);
	if (READ_ONCE(d->dead))
		return;
	if (!ms)
		delay = RDMACHAN_DGRAM_IDLE_OFF;
	else if (more)
		delay = RDMACHAN_DGRAM_IDLE_MORE;
	else
		delay = msecs_to_jiffies(ms);
	queue_delayed_work(system_wq, &d->idle_work, delay);
}

/**
 * rdmachan_dgram_idle_start() - start an open endpoint's idle tick
 * @d: the endpoint; teardown cancels the tick
 *
 * Context: process context.
 */
void rdmachan_dgram_idle_start(struct rdmachan_dgram *d)
{
	unsigned int ms = rdmachan_param_shrink_idle_ms();

	queue_delayed_work(system_wq, &d->idle_work,
			   ms ? msecs_to_jiffies(ms) : RDMACHAN_DGRAM_IDLE_OFF);
}

/**
 * rdmachan_dgram_idle_init() - set an endpoint's idle tick up
 * @d: the endpoint, being made
 *
 * Context: any.
 */
void rdmachan_dgram_idle_init(struct rdmachan_dgram *d)
{
	INIT_DELAYED_WORK(&d->idle_work, rdmachan_dgram_idle);
}
