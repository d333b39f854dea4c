// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan: a channel's queue pair, completion queue and buffers
 *
 * Each side posts queue_depth receive buffers for data plus
 * RDMACHAN_CTRL_RECV for control messages, and keeps one send buffer per
 * control message kind; the data send buffers come and go with the
 * messages in flight (chan_sbuf.c).  Message buffers are kmalloc'ed, or
 * whole pages when larger than kmalloc()'s caches (rdmachan_buf_alloc();
 * the receive buffers of an rx_pages channel are pages of their own,
 * chan_recv.c), and mapped with the ib_dma_* helpers (software devices
 * have no DMA device).
 * The send queue has room for every data and control send plus the drain
 * marker, so posting never overflows it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/slab.h>

#include "rdmachan-pri.h"
#include "chan_post.h"
#include "chan_frag.h"
#include "chan_grant.h"
#include "chan_mem.h"
#include "device.h"
#include "chan_sbuf.h"
#include "chan_rxbuf.h"
#include "params.h"

static int rdmachan_map(struct ib_device *ibdev, void *buf, size_t len,
			enum dma_data_direction dir, u64 *dma)
{
	*dma = ib_dma_map_single(ibdev, buf, len, dir);
	if (ib_dma_mapping_error(ibdev, *dma)) {
		*dma = 0;
		return -ENOMEM;
	}
	return 0;
}

/**
 * rdmachan_buf_alloc() - a message buffer of @size bytes
 * @size: &rdmachan_res.buf_size
 * @gfp: the allocation's flags
 *
 * rdmachan_buf_bytes() says what it takes: whole pages beyond
 * KMALLOC_MAX_CACHE_SIZE, physically contiguous as kmalloc()'s are.
 *
 * Context: as @gfp allows.
 * Return: the buffer, or NULL.
 */
void *rdmachan_buf_alloc(size_t size, gfp_t gfp)
{
	if (size <= KMALLOC_MAX_CACHE_SIZE)
		return kmalloc(size, gfp);
	return alloc_pages_exact(size, gfp);
}

/**
 * rdmachan_buf_free() - free what rdmachan_buf_alloc() gave
 * @buf: the buffer, or NULL
 * @size: the size it was allocated with
 *
 * Context: any.
 */
void rdmachan_buf_free(void *buf, size_t size)
{
	if (!buf)
		return;
	if (size <= KMALLOC_MAX_CACHE_SIZE)
		kfree(buf);
	else
		free_pages_exact(buf, size);
}

/* kmalloc() for the channel itself, counted in ch->mem */
static void *rdmachan_own_kmalloc(struct rdmachan *ch, size_t size, gfp_t gfp)
{
	void *p = kmalloc(size, rdmachan_gfp(ch, gfp));

	if (p)
		rdmachan_mem_charge(ch, kmalloc_size_roundup(size));
	return p;
}

/* kvcalloc() for the channel itself, counted in ch->mem */
static void *rdmachan_own_kvcalloc(struct rdmachan *ch, size_t n, size_t size)
{
	void *p = kvcalloc(n, size, rdmachan_gfp(ch, GFP_KERNEL));

	if (p)
		rdmachan_mem_charge(ch, is_vmalloc_addr(p) ?
				    PAGE_ALIGN(n * size) :
				    kmalloc_size_roundup(n * size));
	return p;
}

/* a default depth's data send ring in 16 KiB (chan_ring.h) */
static_assert(sizeof(struct rdmachan_tx) <= 128);

static int rdmachan_alloc_buffers(struct rdmachan *ch)
{
	struct ib_device *ibdev = rdmachan_chan_dev(ch)->ibdev;
	u32 i, n;
	int ret;

	ch->send.ring = rdmachan_own_kvcalloc(ch, ch->send.depth,
					      sizeof(*ch->send.ring));
	if (!ch->send.ring)
		return -ENOMEM;
	if (ch->send.hist) {
		ch->send.t_ns = rdmachan_own_kvcalloc(ch, ch->send.depth,
						      sizeof(*ch->send.t_ns));
		if (!ch->send.t_ns)
			return -ENOMEM;
	}
	/* no message half-arrived, none refused (a reconnect starts anew) */
	ch->recv.asm_first = NULL;
	ch->recv.asm_last = NULL;
	ch->send.want_least = 0;
	/*
	 * The gather lists of zero-copy sends (rdmachan_send_sg_zc()), for a
	 * user that makes them; the provider may grant more entries than
	 * asked for
	 */
	if (ch->opts.zc_send) {
		ch->send.zc_width = min_t(u32, ch->res.max_send_sge,
					  RDMACHAN_MAX_SGE);
		ch->send.zc_sge = rdmachan_own_kvcalloc(ch, ch->send.depth *
							ch->send.zc_width,
							sizeof(*ch->send.zc_sge));
		if (!ch->send.zc_sge)
			return -ENOMEM;
	}
	/* registrations and zero-copy callbacks, for the users that send them */
	if (ch->opts.max_send_regs || ch->opts.zc_send) {
		ch->send.ext = rdmachan_own_kvcalloc(ch, ch->send.depth,
						     sizeof(*ch->send.ext));
		if (!ch->send.ext)
			return -ENOMEM;
		for (i = 0; i < ch->send.depth; i++)
			ch->send.ext[i].tx = &ch->send.ring[i];
	}
	if (ch->opts.rx_pages) {
		ret = rdmachan_rx_pages_init(ch);
		if (ret)
			return ret;
	}

	/* the start grant and the control reserve; the rest as granted */
	n = min(ch->recv.nr_bufs, ch->conn.grant_rx + RDMACHAN_CTRL_RECV);
	for (i = 0; i < n; i++) {
		struct rdmachan_rx *rx = rdmachan_rx_slot_new(ch, GFP_KERNEL);

		if (!rx)
			return -ENOMEM;
		list_add_tail(&rx->link, &ch->recv.all);
		ch->recv.nr_slots++;
		if (ch->opts.rx_pages) {
			rx->page = rdmachan_rx_page_alloc(ch, GFP_KERNEL);
			if (!rx->page)
				return -ENOMEM;
			rdmachan_mem_charge(ch, PAGE_SIZE << ch->recv.order);
			rx->buf = page_address(rx->page);
			rx->size = ch->res.buf_size;
		}
		ret = rdmachan_rx_map(ch, rx);
		if (ret)
			return ret;
	}
	/* their buffers come as messages go (chan_sbuf.c) */
	for (i = 0; i < ch->send.depth; i++) {
		struct rdmachan_tx *tx = &ch->send.ring[i];

		tx->ch = ch;
		tx->cqe.done = rdmachan_tx_done;
	}
	ch->send.spare = rdmachan_own_kvcalloc(ch, ch->send.depth,
					       sizeof(*ch->send.spare));
	if (!ch->send.spare)
		return -ENOMEM;
	for (i = 0; i < RDMACHAN_CTRL_SLOTS; i++) {
		struct rdmachan_tx *tx = &ch->ctrl.slot[i];

		tx->ch = ch;
		tx->seq = i;
		tx->cqe.done = rdmachan_ctrl_done;
		tx->buf = rdmachan_own_kmalloc(ch, RDMACHAN_HDR_LEN,
					       GFP_KERNEL | __GFP_ZERO);
		if (!tx->buf)
			return -ENOMEM;
		ret = rdmachan_map(ibdev, tx->buf, RDMACHAN_HDR_LEN,
				   DMA_TO_DEVICE, &tx->dma);
		if (ret)
			return ret;
	}
	/* the header of RETIRE messages (chan_grant.c) */
	ch->send.retire_hdr = rdmachan_own_kmalloc(ch, RDMACHAN_HDR_LEN,
						   GFP_KERNEL | __GFP_ZERO);
	if (!ch->send.retire_hdr)
		return -ENOMEM;
	ret = rdmachan_map(ibdev, ch->send.retire_hdr, RDMACHAN_HDR_LEN,
			   DMA_TO_DEVICE, &ch->send.retire_dma);
	if (ret)
		return ret;
	rdmachan_grant_init(ch);
	/*
	 * The active side's send buffers wait for the answer: the passive
	 * side may take fragments (rdmachan_frag_adopt()), and a buffer of
	 * the largest message made now would go at once
	 */
	return ch->conn.active ? 0 : rdmachan_sbuf_reserve(ch);
}

static void rdmachan_unmap_buffers(struct rdmachan *ch)
{
	struct ib_device *ibdev = rdmachan_chan_dev(ch)->ibdev;
	struct rdmachan_rx *rx;
	u32 i;

	list_for_each_entry(rx, &ch->recv.all, link)
		rdmachan_rx_unmap(ch, rx);
	rdmachan_sbuf_unmap(ch);
	if (ch->send.retire_dma)
		ib_dma_unmap_single(ibdev, ch->send.retire_dma,
				    RDMACHAN_HDR_LEN, DMA_TO_DEVICE);
	ch->send.retire_dma = 0;
	for (i = 0; i < RDMACHAN_CTRL_SLOTS; i++)
		if (ch->ctrl.slot[i].dma)
			ib_dma_unmap_single(ibdev, ch->ctrl.slot[i].dma,
					    sizeof(struct rdmachan_wire_hdr),
					    DMA_TO_DEVICE);
}

static enum ib_poll_context rdmachan_poll_ctx(u32 mode)
{
	switch (mode) {
	case RDMACHAN_POLL_WORKQUEUE:
		return IB_POLL_WORKQUEUE;
	case RDMACHAN_POLL_UNBOUND:
		return IB_POLL_UNBOUND_WORKQUEUE;
	case RDMACHAN_POLL_DIRECT:
		return IB_POLL_DIRECT;
	default:	/* SOFTIRQ; SOLICITED: its sends */
		return IB_POLL_SOFTIRQ;
	}
}

/**
 * rdmachan_setup_resources() - build CQ, QP and buffers for a channel
 * @ch: the channel; ch->conn.params holds the depth, size and features wanted,
 *	which are lowered to what the device allows
 * @cm_id: the rdma_cm_id, bound to a device
 *
 * Context: process context, the cm_id's handler mutex held (the
 * connecting thread, or the accept work).
 * Return: 0, -ENODEV when the device is unknown or going away, or another
 * negative errno; on failure what was built is released by
 * rdmachan_release_resources().
 */
int rdmachan_setup_resources(struct rdmachan *ch, struct rdma_cm_id *cm_id)
{
	struct rdmachan_qp_want want;
	struct ib_qp_init_attr attr = {};
	struct rdmachan_qp_sizes sz;
	struct rdmachan_device *dev;
	struct mem_cgroup *memcg;
	struct ib_device *ibdev;
	unsigned long flags;
	struct ib_cq *cq;
	int ret;

	dev = rdmachan_device_attach(cm_id->device, &ch->obj.dev_user);
	if (!dev)
		return -ENODEV;
	ibdev = dev->ibdev;
	spin_lock_irqsave(&ch->lock, flags);
	strscpy(ch->res.dev_name, dev_name(&ibdev->dev),
		sizeof(ch->res.dev_name));
	ch->res.port_num = cm_id->port_num;
	spin_unlock_irqrestore(&ch->lock, flags);

	/* every queue sized in one place: bounds.h */
	ch->res.reg_fence = ibdev->ops.driver_id == RDMA_DRIVER_RXE;
	want = rdmachan_qp_want(ch->conn.params.queue_depth,
				ch->opts.max_send_regs, ch->res.reg_fence,
				min_t(u32, ibdev->attrs.max_qp_wr,
				      ibdev->attrs.max_cqe / 2));
	ret = rdmachan_qp_sizes(&want, &sz);
	if (ret)
		return ret;
	ch->conn.params.queue_depth = sz.depth;

	ch->recv.nr_bufs = sz.recv_bufs;
	ch->send.depth = sz.depth;
	ch->rdma.room = sz.rdma_slots;
	/* room for an in-band immediate after the largest payload */
	BUILD_BUG_ON(RDMACHAN_RX_OVERHEAD !=
		     sizeof(struct rdmachan_wire_hdr) + RDMACHAN_IMM_TRAILER);
	/* the largest message's, or a fragment's (chan_frag.c) */
	ch->res.buf_size = rdmachan_frag_setup(ch);
	rdmachan_rx_split_setup(ch, ibdev);
	ch->res.iwarp = rdma_protocol_iwarp(ibdev, cm_id->port_num);
	ch->res.has_atomics = ibdev->attrs.atomic_cap != IB_ATOMIC_NONE;
	/* SEND_WITH_INV, sent or received, needs remote invalidation */
	if (!(ibdev->attrs.device_cap_flags & IB_DEVICE_MEM_MGT_EXTENSIONS))
		ch->conn.params.features &= ~RDMACHAN_WIRE_F_SEND_INV;
	/* what it grants at the start, and whether it retires (chan_grant.c) */
	ch->conn.grant_rx = rdmachan_grant_start(ch);
	ch->conn.params.grant = ch->conn.grant_rx;
	if (!rdmachan_grant_follows(ch))
		ch->conn.params.features &= ~RDMACHAN_WIRE_F_GROW;
	/* iWARP has no SEND_WITH_IMM: immediates go in band */
	if (ch->res.iwarp)
		ch->conn.params.features &= ~RDMACHAN_WIRE_F_HDR_IMM;
	/* ... nor WRITE_WITH_IMM; elsewhere where the user's fit 31 bits */
	if (ch->res.iwarp || !ch->opts.imm_credit ||
	    !rdmachan_param_imm_credit())
		ch->conn.params.features &= ~RDMACHAN_WIRE_F_IMM_CREDIT;
	ch->conn.hdr_imm = ch->conn.params.features & RDMACHAN_WIRE_F_HDR_IMM;
	/* ... and so do they when the immediate carries the header */
	ch->send.imm_inband = ch->res.iwarp || ch->conn.hdr_imm;
	/* ... nor a send completion that means delivery */
	ch->ctrl.close_handshake = ch->res.iwarp;
	ch->send.sig_interval = max_t(u32, 1, ch->send.depth / 4);

	/*
	 * A protection domain of its own: what is registered on this
	 * channel is reachable through this channel's QP only, never from
	 * another connection on the same device.
	 */
	ch->res.pd = ib_alloc_pd(ibdev, 0);
	if (IS_ERR(ch->res.pd)) {
		ret = PTR_ERR(ch->res.pd);
		ch->res.pd = NULL;
		return ret;
	}

	cq = ib_alloc_cq(ibdev, ch, sz.cqe,
			 ch->obj.id % ibdev->num_comp_vectors,
			 rdmachan_poll_ctx(ch->opts.poll_mode));
	if (IS_ERR(cq))
		return PTR_ERR(cq);
	/* ib_alloc_cq() takes no event handler; the provider calls this one */
	cq->event_handler = rdmachan_cq_event;
	/*
	 * DIRECT: the core's handler of such a CQ warns, as it is never
	 * armed; ours is armed by poll() on the channel's file, and wakes.
	 */
	if (ch->opts.poll_mode == RDMACHAN_POLL_DIRECT)
		cq->comp_handler = rdmachan_direct_comp;
	/* published whole: rdmachan_poll() may look at it any time */
	WRITE_ONCE(ch->res.cq, cq);
	if (ch->opts.poll_mode == RDMACHAN_POLL_SOLICITED) {
		ret = rdmachan_rcq_create(ch, ibdev, sz.recv_cqe,
					  ch->obj.id % ibdev->num_comp_vectors);
		if (ret)
			return ret;
	}

	attr.event_handler = rdmachan_qp_event;
	attr.qp_context = ch;
	attr.send_cq = ch->res.cq;
	attr.recv_cq = ch->poll.rcq ?: ch->res.cq;
	attr.qp_type = IB_QPT_RC;
	attr.sq_sig_type = IB_SIGNAL_REQ_WR;
	attr.cap.max_send_wr = sz.send_wr;
	attr.cap.max_recv_wr = sz.recv_wr;
	attr.cap.max_send_sge = min_t(u32, RDMACHAN_MAX_SGE,
				      ibdev->attrs.max_send_sge);
	attr.cap.max_recv_sge = ch->res.rx_split ? RDMACHAN_RX_SPLIT_SGES : 1;
	/*
	 * Providers size every send queue entry for the larger of its gather
	 * list and its inline data: no more inline data than a full gather
	 * list takes (rxe: entries of 512 bytes, not of 1 KiB for 512)
	 */
	attr.cap.max_inline_data = min_t(u32, min(dev->max_inline_data,
						  ch->res.sbuf_size),
					 RDMACHAN_MAX_SGE *
					 sizeof(struct ib_sge));
	ret = rdma_create_qp(cm_id, ch->res.pd, &attr);
	if (ret)
		return ret;
	ch->res.qp = cm_id->qp;
	WRITE_ONCE(ch->res.qpn, cm_id->qp->qp_num);
	ch->res.max_inline = attr.cap.max_inline_data;
	ch->res.max_send_sge = attr.cap.max_send_sge;
	/* a READ's sink: one segment on iWARP (RFC 5040: one sink STag) */
	ch->res.max_sge_rd = clamp_t(u32, ibdev->attrs.max_sge_rd, 1,
				     ch->res.max_send_sge);
	ch->res.max_reg_pages = ibdev->attrs.max_fast_reg_page_list_len;
	if (sz.reg_wr) {
		ret = rdmachan_regq_create(ch, cm_id, &sz);
		if (ret)
			return ret;
	}

	rdmachan_dbg(ch, "queues on %s: send %u, receive %u (%u buffers), cqe %u, registration %u, inline %u, gather %u\n",
		     dev_name(&ibdev->dev), sz.send_wr, sz.recv_wr, sz.recv_bufs,
		     sz.cqe, sz.reg_wr, ch->res.max_inline,
		     ch->res.max_send_sge);
	/* the provider's queues are its own; our buffers are the maker's */
	memcg = rdmachan_mem_begin(ch);
	ret = rdmachan_alloc_buffers(ch);
	rdmachan_mem_end(ch, memcg);
	if (ret == -ENOMEM && ch->memcg)
		rdmachan_info_rl(ch,
				 "no memory for the channel's buffers after %ld bytes: its maker's memory cgroup may be at its limit\n",
				 atomic_long_read(&ch->mem));
	return ret;
}

/**
 * rdmachan_free_cq() - ib_free_cq(), once no poll of the CQ runs
 * @cq: a CQ of ib_alloc_cq(), whose queue pairs are destroyed
 *
 * ib_poll_handler() gives up its poll (irq_poll_complete(), which clears
 * IRQ_POLL_F_SCHED) before it re-arms the CQ, so ib_free_cq()'s
 * irq_poll_disable() can return while the handler still touches the CQ,
 * which is then freed under it: KASAN reported that use-after-free (in
 * rxe_req_notify_cq(), from ib_poll_handler()) when the fuzzer tore
 * channels down while their CQ was being polled, and a stock kernel
 * oopsed on it when an interrupted kernel rping client freed its CQ.
 * With the queue pairs destroyed no completion comes any more: for an
 * IB_POLL_SOFTIRQ CQ this waits until no poll is scheduled and none
 * still runs (a softirq handler is an RCU reader), and only then lets
 * ib_free_cq() have it.  The handler re-schedules itself only while
 * completions are left, so this ends; a wait of over 10 s is logged,
 * every 10 s, as the teardown's wait for a poller is.
 *
 * Context: process context.
 */
void rdmachan_free_cq(struct ib_cq *cq)
{
	unsigned long next = jiffies + 10 * HZ;

	while (cq->poll_ctx == IB_POLL_SOFTIRQ) {
		while (test_bit(IRQ_POLL_F_SCHED, &cq->iop.state)) {
			usleep_range(100, 200);
			/* completions that never stop: a QP left on it */
			if (time_after(jiffies, next)) {
				pr_warn("%s: freeing a completion queue still waits for its poll to end\n",
					dev_name(&cq->device->dev));
				next = jiffies + 10 * HZ;
			}
		}
		synchronize_rcu();
		if (!test_bit(IRQ_POLL_F_SCHED, &cq->iop.state))
			break;
	}
	ib_free_cq(cq);
}
EXPORT_SYMBOL_GPL(rdmachan_free_cq);

/**
 * rdmachan_release_resources() - undo rdmachan_setup_resources()
 * @ch: the channel; its QP must be drained (or never used)
 *
 * Order: QP, registration QP and its CQ, receive CQ, CQ (no completion
 * handler runs after this),
 * one-sided requests still posted (ended cancelled), zero-copy sends not
 * completed (their pages given back), registrations, DMA mappings, PD,
 * device reference.  Buffers stay allocated (a reader may still hold
 * received messages); only their DMA mappings go.
 *
 * Context: process context.
 */
void rdmachan_release_resources(struct rdmachan *ch)
{
	unsigned long flags;

	if (ch->res.qp) {
		rdma_destroy_qp(ch->conn.cm_id);
		ch->res.qp = NULL;
	}
	/* the registration QP after the channel's (chan_post.c) */
	rdmachan_regq_destroy(ch);
	rdmachan_rcq_destroy(ch);
	if (ch->res.cq) {
		rdmachan_free_cq(ch->res.cq);
		ch->res.cq = NULL;
	}
	/*
	 * No completion can come now: what the provider left posted ends
	 * cancelled, and lets go of the registrations it held, which go
	 * next (rdmachan_mr_release_all() waits for their last user).
	 */
	rdmachan_rdma_end_orphans(ch);
	rdmachan_pool_end_orphans(ch);
	/* zero-copy sends never completed: their pages go back to the user */
	rdmachan_send_end_orphans(ch);
	rdmachan_mr_release_all(ch);
	rdmachan_pool_release_all(ch);
	if (rdmachan_chan_dev(ch)) {
		spin_lock_irqsave(&ch->lock, flags);
		ch->res.dev_name[0] = 0;
		ch->res.port_num = 0;
		spin_unlock_irqrestore(&ch->lock, flags);
		rdmachan_grow_release(ch);
		rdmachan_unmap_buffers(ch);
		if (ch->res.pd) {
			ib_dealloc_pd(ch->res.pd);
			ch->res.pd = NULL;
		}
		rdmachan_device_detach(&ch->obj.dev_user);
	}
}

/**
 * rdmachan_post_all_recvs() - post every receive buffer, in one chain
 * @ch: the channel, with resources set up and nothing posted yet
 *
 * Return: 0 or the error of ib_post_recv().
 */
int rdmachan_post_all_recvs(struct rdmachan *ch)
{
	/* the start grant and the control reserve: every slot made */
	u32 n = ch->recv.nr_slots;
	struct ib_recv_wr *wrs;
	struct rdmachan_rx *rx;
	struct ib_sge *sges;
	u32 i = 0;
	int ret;

	wrs = kcalloc(n, sizeof(*wrs), GFP_KERNEL);
	sges = kcalloc(n, RDMACHAN_RX_SPLIT_SGES * sizeof(*sges), GFP_KERNEL);
	if (!wrs || !sges) {
		ret = -ENOMEM;
		goto out;
	}
	spin_lock_irq(&ch->lock);
	rdmachan_credits_rx_reset(&ch->credits);
	rdmachan_ctrl_rx_reset(&ch->ctrl.credits);
	/* the buffers are all posted here: none is held (chan_event.c) */
	INIT_LIST_HEAD(&ch->ctrl.held);
	spin_unlock_irq(&ch->lock);
	list_for_each_entry(rx, &ch->recv.all, link) {
		wrs[i].wr_cqe = &rx->cqe;
		wrs[i].sg_list = &sges[i * RDMACHAN_RX_SPLIT_SGES];
		wrs[i].num_sge = rdmachan_rx_sges(ch, rx, wrs[i].sg_list);
		wrs[i].next = i + 1 < n ? &wrs[i + 1] : NULL;
		i++;
	}
	ret = ib_post_recv(ch->res.qp, wrs, NULL);
out:
	kfree(sges);
	kfree(wrs);
	return ret;
}

static void rdmachan_drain_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct rdmachan_drain *d = container_of(wc->wr_cqe,
						struct rdmachan_drain, cqe);

	complete(&d->done);
}

/* Wait for marker @d on @cq until @deadline.  Return: it completed. */
static bool rdmachan_drain_wait(struct ib_cq *cq, struct rdmachan_drain *d,
				unsigned long deadline)
{
	long left;

	for (;;) {
		left = (long)(deadline - jiffies);
		if (left <= 0)
			return completion_done(&d->done);
		if (cq->poll_ctx != IB_POLL_DIRECT)
			return wait_for_completion_timeout(&d->done, left) > 0;
		/* nobody else polls it: teardown holds the poll bit */
		if (wait_for_completion_timeout(&d->done, min_t(long, left,
								HZ / 10)))
			return true;
		ib_process_cq_direct(cq, -1);
	}
}

/* Post marker @d on the send (@send) or receive queue.  Return: errno. */
static int rdmachan_drain_post(struct rdmachan *ch, struct rdmachan_drain *d,
			       bool send)
{
	struct ib_rdma_wr swr = {
		.wr = { .wr_cqe = &d->cqe, .opcode = IB_WR_RDMA_WRITE },
	};
	struct ib_recv_wr rwr = { .wr_cqe = &d->cqe };

	d->cqe.done = rdmachan_drain_done;
	init_completion(&d->done);
	return send ? ib_post_send(ch->res.qp, &swr.wr, NULL) :
		      ib_post_recv(ch->res.qp, &rwr, NULL);
}

/**
 * rdmachan_drain_qp() - flush every work request of the channel's QP
 * @ch: the channel, its I/O stopped, holding the poll bit
 *
 * ib_drain_qp() with a bound: the QP goes to the error state, a marker is
 * posted on each queue, and their flushed completions, which come after
 * every work request posted before them, are waited for, at most
 * RDMACHAN_DRAIN_TIMEOUT together.  A provider that loses completions
 * (soft-RoCE in 6.1 has been seen to stop completing a send queue after
 * remote access errors) would keep ib_drain_qp() waiting for good; here
 * the loss is logged and teardown goes on: destroying the QP stops the
 * provider, and what it never completed teardown ends itself (one-sided
 * requests: rdmachan_rdma_end_orphans()).
 *
 * Context: process context.
 */
void rdmachan_drain_qp(struct rdmachan *ch)
{
	struct ib_qp_attr attr = { .qp_state = IB_QPS_ERR };
	unsigned long deadline = jiffies + RDMACHAN_DRAIN_TIMEOUT;
	int sret, rret;

	rret = ib_modify_qp(ch->res.qp, &attr, IB_QP_STATE);
	if (rret) {
		rdmachan_warn_rl(ch,
				 "moving the QP to the error state failed: %d; not draining\n",
				 rret);
		return;
	}
	sret = rdmachan_drain_post(ch, &ch->res.drain_sq, true);
	rret = rdmachan_drain_post(ch, &ch->res.drain_rq, false);
	if (sret || rret)
		rdmachan_warn_rl(ch,
				 "posting the drain markers failed: %d, %d\n",
				 sret, rret);
	if (!sret && !rdmachan_drain_wait(ch->res.qp->send_cq,
					  &ch->res.drain_sq, deadline))
		rdmachan_err_rl(ch,
				"the provider flushed no send queue within %u s: tearing down without its completions\n",
				RDMACHAN_DRAIN_TIMEOUT / HZ);
	if (!rret && !rdmachan_drain_wait(ch->res.qp->recv_cq,
					  &ch->res.drain_rq, deadline))
		rdmachan_err_rl(ch,
				"the provider flushed no receive queue within %u s: tearing down without its completions\n",
				RDMACHAN_DRAIN_TIMEOUT / HZ);
	rdmachan_dbg(ch, "queue pair %u drained in %u ms\n", ch->res.qpn,
		     jiffies_to_msecs(jiffies - deadline +
				      RDMACHAN_DRAIN_TIMEOUT));
}
