// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan: an in-kernel rping (RDMACHAN_IOC_RPING)
 *
 * Speaks rdma-core's rping (librdmacm/examples/rping.c) on the wire, as
 * the kernel's krping does: an RC connection of RDMA_PS_TCP without
 * private data, responder resources and initiator depth 1, retry and RNR
 * retry 7.  Per ping the client SENDs the address, rkey and size of its
 * source buffer; the server READs it and SENDs a go-ahead; the client
 * SENDs its sink; the server WRITEs the data back and SENDs a go-ahead
 * (rping.h has the message and the data).  A user program on either end
 * (rping -s, rping -c) is the peer it is tested against.
 *
 * Unlike a channel, an rping owns a plain QP and CQ for the call's length:
 * one ioctl runs one client or one served client in the caller's thread,
 * every wait bounded by the step timeout or, for a server's next ping
 * and its client, interruptible.  Its buffers are order-0 pages mapped
 * into one virtually contiguous range by a fast registration (FRWR), as
 * krping registers them; the peer reaches them through the MR's rkey.
 * A peer that sends a message of another size, advertises more than the
 * server's size, or writes back other data (with VALIDATE) ends the call
 * with a clear errno and a log line; nothing it sends reaches the user
 * but the counts.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": rping: " fmt

#include <linux/dma-mapping.h>
#include <linux/ktime.h>
#include <linux/nsproxy.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <net/net_namespace.h>
#include <rdma/ib_cm.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_cm.h>

#include <linux/rdmachan_verbs.h>

#include "ioctl.h"
#include "rping.h"

#define RPING_SQ_DEPTH		16	/* rping's */
#define RPING_RX_BYTES		64	/* room to see a message of another size */
#define RPING_DRAIN_TIMEOUT	(5 * HZ)

enum rping_cm {
	RPING_IDLE,
	RPING_ADDR,
	RPING_ROUTE,
	RPING_REQUEST,
	RPING_CONNECTED,
	RPING_DISCONNECTED,
};

/**
 * struct rping_buf - a buffer the peer reaches
 * @pages: its order-0 pages
 * @nr: how many
 * @va: their kernel mapping, contiguous (vmap)
 * @sgt: the pages, DMA-mapped when @mapped
 * @mapped: @sgt is mapped
 * @mr: the fast registration that makes them one range (mr->iova, rkey)
 * @len: bytes
 */
struct rping_buf {
	struct page **pages;
	unsigned int nr;
	void *va;
	struct sg_table sgt;
	bool mapped;
	struct ib_mr *mr;
	u32 len;
};

/**
 * struct rping - one RDMACHAN_IOC_RPING call
 * @a: the caller's argument, checked
 * @lock: guards @cm, @cm_err, @req and the completion counts
 * @wq: woken by every event and completion
 * @cm: enum rping_cm, the last event; under @lock
 * @cm_err: an event that ends the call (negative errno); under @lock
 * @wc_err: a failed work request: -EIO, -ECONNRESET after the peer's
 *	disconnect; under @lock
 * @flushed: a work request completed flushed: the QP left the connected
 *	state (the peer disconnected); under @lock
 * @listen_id: the server's listening identifier, or NULL
 * @id: the connection's identifier; a server's from its connect request
 * @req: a connect request not yet taken by the server; under @lock
 * @pd: protection domain
 * @cq: the completion queue of both queues
 * @recv_cqe: completion callback of receives
 * @send_cqe: of SENDs
 * @rdma_cqe: of READs and WRITEs
 * @reg_cqe: of registrations
 * @recvs: receives completed; under @lock
 * @sends: SENDs completed; under @lock
 * @rdmas: READs and WRITEs completed; under @lock
 * @regs: registrations completed; under @lock
 * @posted: work requests posted and not completed; under @lock
 * @rx_len: the byte count of the last receive; under @lock
 * @rx: the receive buffer (RPING_RX_BYTES)
 * @rx_dma: its mapping
 * @tx: the send buffer
 * @tx_dma: its mapping
 * @src: the client's source buffer (unused on a server)
 * @sink: the client's sink, the server's READ target
 * @step: the bound of each wait, in jiffies
 * @peer: the peer's address, for the log
 */
struct rping {
	struct rdmachan_rping *a;
	spinlock_t lock;	/* the event and completion state below */
	wait_queue_head_t wq;
	enum rping_cm cm;
	int cm_err;
	int wc_err;
	bool flushed;
	struct rdma_cm_id *listen_id;
	struct rdma_cm_id *id;
	struct rdma_cm_id *req;
	struct ib_pd *pd;
	struct ib_cq *cq;
	struct ib_cqe recv_cqe, send_cqe, rdma_cqe, reg_cqe;
	u32 recvs, sends, rdmas, regs;
	u32 posted;
	u32 rx_len;
	void *rx;
	dma_addr_t rx_dma;
	struct rdmachan_rping_info *tx;
	dma_addr_t tx_dma;
	struct rping_buf src, sink;
	unsigned long step;
	struct sockaddr_storage peer;
};

/* ---- events and completions --------------------------------------------- */

static int rping_cm_handler(struct rdma_cm_id *id, struct rdma_cm_event *ev)
{
	struct rping *rp = id->context;
	unsigned long flags;
	int ret = 0, err = 0;

	spin_lock_irqsave(&rp->lock, flags);
	switch (ev->event) {
	case RDMA_CM_EVENT_ADDR_RESOLVED:
		rp->cm = RPING_ADDR;
		break;
	case RDMA_CM_EVENT_ROUTE_RESOLVED:
		rp->cm = RPING_ROUTE;
		break;
	case RDMA_CM_EVENT_CONNECT_REQUEST:
		/* one client per call, as rping -s serves one */
		if (rp->req || rp->id) {
			ret = -EBUSY;
			break;
		}
		rp->req = id;
		rp->cm = RPING_REQUEST;
		break;
	case RDMA_CM_EVENT_ESTABLISHED:
		rp->cm = RPING_CONNECTED;
		break;
	case RDMA_CM_EVENT_DISCONNECTED:
	case RDMA_CM_EVENT_TIMEWAIT_EXIT:
		rp->cm = RPING_DISCONNECTED;
		break;
	case RDMA_CM_EVENT_REJECTED:
		err = -ECONNREFUSED;
		break;
	case RDMA_CM_EVENT_DEVICE_REMOVAL:
		err = -ENODEV;
		break;
	case RDMA_CM_EVENT_ADDR_ERROR:
	case RDMA_CM_EVENT_ROUTE_ERROR:
	case RDMA_CM_EVENT_UNREACHABLE:
		err = ev->status < 0 ? ev->status : -EHOSTUNREACH;
		break;
	case RDMA_CM_EVENT_CONNECT_ERROR:
		err = -ECONNRESET;
		break;
	default:
		break;
	}
	if (err && !rp->cm_err)
		rp->cm_err = err;
	spin_unlock_irqrestore(&rp->lock, flags);
	if (err)
		pr_info_ratelimited("%s (status %d)\n",
				    rdma_event_msg(ev->event), ev->status);
	wake_up_all(&rp->wq);
	return ret;
}

/* One completion of @what: count it, or the failure. */
static void rping_wc(struct ib_cq *cq, struct ib_wc *wc, u32 *count,
		     const char *what)
{
	struct rping *rp = cq->cq_context;
	unsigned long flags;

	spin_lock_irqsave(&rp->lock, flags);
	rp->posted--;
	if (wc->status == IB_WC_WR_FLUSH_ERR) {
		rp->flushed = true;
	} else if (wc->status != IB_WC_SUCCESS) {
		/* one that fails after the peer disconnected failed for that */
		if (!rp->wc_err)
			rp->wc_err = rp->cm == RPING_DISCONNECTED ?
				     -ECONNRESET : -EIO;
		pr_info_ratelimited("%s failed: %s (%d)\n", what,
				    ib_wc_status_msg(wc->status), wc->status);
	} else {
		if (count == &rp->recvs)
			rp->rx_len = wc->byte_len;
		(*count)++;
	}
	spin_unlock_irqrestore(&rp->lock, flags);
	wake_up_all(&rp->wq);
}

static void rping_recv_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct rping *rp = cq->cq_context;

	rping_wc(cq, wc, &rp->recvs, "receive");
}

static void rping_send_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct rping *rp = cq->cq_context;

	rping_wc(cq, wc, &rp->sends, "send");
}

static void rping_rdma_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct rping *rp = cq->cq_context;

	rping_wc(cq, wc, &rp->rdmas, "RDMA operation");
}

static void rping_reg_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct rping *rp = cq->cq_context;

	rping_wc(cq, wc, &rp->regs, "registration");
}

/* ---- waiting ------------------------------------------------------------- */

/* Under rp->lock: has *@count reached @want, or has the call failed? */
static bool rping_reached(struct rping *rp, const u32 *count, u32 want,
			  enum rping_cm cm)
{
	unsigned long flags;
	bool ret;

	spin_lock_irqsave(&rp->lock, flags);
	ret = rp->cm_err || rp->wc_err ||
	      (count ? (s32)(*count - want) >= 0 : rp->cm >= cm) ||
	      rp->cm == RPING_DISCONNECTED || (count && rp->flushed);
	spin_unlock_irqrestore(&rp->lock, flags);
	return ret;
}

/*
 * Wait until *@count reaches @want (or, @count NULL, the CM state @cm),
 * @what for the log.  @bounded: at most rp->step; else until a signal.
 * Return: 0, or why not: the call's error, -ECONNRESET when the peer
 * disconnected first, -ETIMEDOUT, -EINTR.
 */
static int rping_wait(struct rping *rp, const u32 *count, u32 want,
		      enum rping_cm cm, bool bounded, const char *what)
{
#define RPING_DONE rping_reached(rp, count, want, cm)
	long left;

	if (bounded)
		left = wait_event_interruptible_timeout(rp->wq, RPING_DONE,
							rp->step);
	else
		left = wait_event_interruptible(rp->wq, RPING_DONE) ?: 1;
#undef RPING_DONE
	if (left < 0)
		return -EINTR;
	if (rp->cm_err)
		return rp->cm_err;
	if (rp->wc_err)
		return rp->wc_err;
	if (count ? (s32)(READ_ONCE(*count) - want) >= 0 :
	    READ_ONCE(rp->cm) == cm ||
	    (cm < RPING_DISCONNECTED && READ_ONCE(rp->cm) > cm &&
	     READ_ONCE(rp->cm) < RPING_DISCONNECTED))
		return 0;
	/* the peer went away before what was waited for */
	if (READ_ONCE(rp->cm) == RPING_DISCONNECTED ||
	    (count && READ_ONCE(rp->flushed)))
		return -ECONNRESET;
	pr_info_ratelimited("no %s from %pISpc within %u ms\n", what,
			    &rp->peer, rp->a->timeout_ms);
	return -ETIMEDOUT;
}

/* ---- work requests ------------------------------------------------------- */

static void rping_posted(struct rping *rp, int n)
{
	unsigned long flags;

	spin_lock_irqsave(&rp->lock, flags);
	rp->posted += n;
	spin_unlock_irqrestore(&rp->lock, flags);
}

static int rping_post_recv(struct rping *rp)
{
	struct ib_sge sge = {
		.addr = rp->rx_dma, .length = RPING_RX_BYTES,
		.lkey = rp->pd->local_dma_lkey,
	};
	struct ib_recv_wr wr = {
		.wr_cqe = &rp->recv_cqe, .sg_list = &sge, .num_sge = 1,
	};
	int ret;

	rping_posted(rp, 1);
	ret = ib_post_recv(rp->id->qp, &wr, NULL);
	if (ret)
		rping_posted(rp, -1);
	return ret;
}

/* Post @wr to the send queue and wait (bounded) until *@count counts it */
static int rping_post_wait(struct rping *rp, const struct ib_send_wr *wr,
			   u32 *count, const char *what)
{
	u32 want = READ_ONCE(*count) + 1;
	int ret;

	rping_posted(rp, 1);
	ret = ib_post_send(rp->id->qp, wr, NULL);
	if (ret) {
		rping_posted(rp, -1);
		return ret;
	}
	return rping_wait(rp, count, want, 0, true, what);
}

/* SEND the 16-byte message naming @b, or a go-ahead (@b NULL: zeros). */
static int rping_send(struct rping *rp, const struct rping_buf *b)
{
	struct ib_sge sge = {
		.addr = rp->tx_dma, .length = sizeof(*rp->tx),
		.lkey = rp->pd->local_dma_lkey,
	};
	struct ib_send_wr wr = {
		.wr_cqe = &rp->send_cqe, .sg_list = &sge, .num_sge = 1,
		.opcode = IB_WR_SEND, .send_flags = IB_SEND_SIGNALED,
	};

	/* one SEND at a time (each waited for): the buffer is the next's */
	memset(rp->tx, 0, sizeof(*rp->tx));
	if (b) {
		rp->tx->buf = cpu_to_be64(b->mr->iova);
		rp->tx->rkey = cpu_to_be32(b->mr->rkey);
		rp->tx->size = cpu_to_be32(b->len);
	}
	ib_dma_sync_single_for_device(rp->pd->device, rp->tx_dma,
				      sizeof(*rp->tx), DMA_TO_DEVICE);
	return rping_post_wait(rp, &wr, &rp->sends, "send completion");
}

/*
 * The next message, the @nth this call receives: exactly rping's 16 bytes,
 * the receive reposted.  @bounded as rping_wait().  Return: 0 or errno.
 */
static int rping_recv(struct rping *rp, u32 nth, bool bounded,
		      struct rdmachan_rping_info *info)
{
	int ret = rping_wait(rp, &rp->recvs, nth, 0, bounded, "message");

	if (ret)
		return ret;
	ib_dma_sync_single_for_cpu(rp->pd->device, rp->rx_dma,
				   RPING_RX_BYTES, DMA_FROM_DEVICE);
	if (READ_ONCE(rp->rx_len) != sizeof(*info)) {
		pr_info_ratelimited("%pISpc sent a message of %u bytes, not rping's %zu\n",
				    &rp->peer, READ_ONCE(rp->rx_len),
				    sizeof(*info));
		return -EPROTO;
	}
	memcpy(info, rp->rx, sizeof(*info));
	ib_dma_sync_single_for_device(rp->pd->device, rp->rx_dma,
				      RPING_RX_BYTES, DMA_FROM_DEVICE);
	return rping_post_recv(rp);
}

/* READ (@write false) the peer's @info into the sink, or WRITE @len back */
static int rping_rdma(struct rping *rp, const struct rdmachan_rping_info *info,
		      bool write, u32 len)
{
	struct ib_sge sge = {
		.addr = rp->sink.mr->iova, .length = len,
		.lkey = rp->sink.mr->lkey,
	};
	struct ib_rdma_wr wr = {
		.wr = {
			.wr_cqe = &rp->rdma_cqe, .sg_list = &sge,
			.num_sge = 1, .send_flags = IB_SEND_SIGNALED,
			.opcode = write ? IB_WR_RDMA_WRITE : IB_WR_RDMA_READ,
		},
		.remote_addr = be64_to_cpu(info->buf),
		.rkey = be32_to_cpu(info->rkey),
	};

	return rping_post_wait(rp, &wr.wr, &rp->rdmas,
			       write ? "RDMA WRITE completion" :
			       "RDMA READ completion");
}

/* ---- buffers ------------------------------------------------------------- */

static int rping_buf_make(struct rping *rp, struct rping_buf *b, u32 len,
			  int access)
{
	struct ib_device *dev = rp->pd->device;
	struct ib_reg_wr wr = {
		.wr = {
			.wr_cqe = &rp->reg_cqe, .opcode = IB_WR_REG_MR,
			.send_flags = IB_SEND_SIGNALED,
		},
		.access = access,
	};
	unsigned int i;
	int ret;

	b->len = len;
	b->nr = DIV_ROUND_UP(len, PAGE_SIZE);
	b->pages = kcalloc(b->nr, sizeof(*b->pages), GFP_KERNEL);
	if (!b->pages)
		return -ENOMEM;
	for (i = 0; i < b->nr; i++) {
		b->pages[i] = alloc_page(GFP_KERNEL | __GFP_ZERO);
		if (!b->pages[i])
			return -ENOMEM;
	}
	b->va = vmap(b->pages, b->nr, VM_MAP, PAGE_KERNEL);
	if (!b->va)
		return -ENOMEM;
	ret = sg_alloc_table_from_pages(&b->sgt, b->pages, b->nr, 0, len,
					GFP_KERNEL);
	if (ret)
		return ret;
	ret = ib_dma_map_sgtable_attrs(dev, &b->sgt, DMA_BIDIRECTIONAL, 0);
	if (ret)
		return ret;
	b->mapped = true;
	b->mr = ib_alloc_mr(rp->pd, IB_MR_TYPE_MEM_REG, b->nr);
	if (IS_ERR(b->mr)) {
		ret = PTR_ERR(b->mr);
		b->mr = NULL;
		return ret;
	}
	/*
	 * the pages, one range, zero-based (as RDS registers): the peer
	 * learns no kernel address, only the range from 0
	 */
	ret = ib_map_mr_sg_zbva(b->mr, b->sgt.sgl, b->sgt.nents, NULL,
				PAGE_SIZE);
	if (ret != b->sgt.nents)
		return ret < 0 ? ret : -EINVAL;
	wr.mr = b->mr;
	wr.key = b->mr->rkey;
	return rping_post_wait(rp, &wr.wr, &rp->regs, "registration");
}

static void rping_buf_free(struct rping *rp, struct rping_buf *b)
{
	unsigned int i;

	if (b->mr)
		ib_dereg_mr(b->mr);
	if (b->mapped)
		ib_dma_unmap_sgtable_attrs(rp->pd->device, &b->sgt,
					   DMA_BIDIRECTIONAL, 0);
	sg_free_table(&b->sgt);
	if (b->va)
		vunmap(b->va);
	for (i = 0; b->pages && i < b->nr; i++)
		if (b->pages[i])
			__free_page(b->pages[i]);
	kfree(b->pages);
}

/* The CPU wrote @b: the device reads it next */
static void rping_buf_for_device(struct rping *rp, struct rping_buf *b)
{
	struct ib_device *dev = rp->pd->device;

	flush_kernel_vmap_range(b->va, b->len);
	if (!ib_uses_virt_dma(dev))
		dma_sync_sgtable_for_device(dev->dma_device, &b->sgt,
					    DMA_BIDIRECTIONAL);
}

/* The device wrote @b: the CPU reads it next */
static void rping_buf_for_cpu(struct rping *rp, struct rping_buf *b)
{
	struct ib_device *dev = rp->pd->device;

	if (!ib_uses_virt_dma(dev))
		dma_sync_sgtable_for_cpu(dev->dma_device, &b->sgt,
					 DMA_BIDIRECTIONAL);
	invalidate_kernel_vmap_range(b->va, b->len);
}

/* A QP event: a message that overtook the RTU starts the connection */
static void rping_qp_event(struct ib_event *ev, void *ctx)
{
	struct rping *rp = ctx;

	if (ev->event == IB_EVENT_COMM_EST && rp->id)
		rdma_notify(rp->id, ev->event);
}

/* The PD, CQ, QP, message buffers and first receive of rp->id */
static int rping_setup(struct rping *rp)
{
	struct ib_device *dev = rp->id->device;
	struct ib_qp_init_attr attr = {
		.cap = {
			.max_send_wr = RPING_SQ_DEPTH, .max_recv_wr = 2,
			.max_send_sge = 1, .max_recv_sge = 1,
		},
		.sq_sig_type = IB_SIGNAL_REQ_WR,
		.qp_type = IB_QPT_RC,
		.event_handler = rping_qp_event,
	};
	int ret;

	rp->pd = ib_alloc_pd(dev, 0);
	if (IS_ERR(rp->pd)) {
		ret = PTR_ERR(rp->pd);
		rp->pd = NULL;
		return ret;
	}
	rp->cq = ib_alloc_cq(dev, rp, 2 * RPING_SQ_DEPTH + 4, 0,
			     IB_POLL_SOFTIRQ);
	if (IS_ERR(rp->cq)) {
		ret = PTR_ERR(rp->cq);
		rp->cq = NULL;
		return ret;
	}
	attr.send_cq = rp->cq;
	attr.recv_cq = rp->cq;
	attr.qp_context = rp;
	ret = rdma_create_qp(rp->id, rp->pd, &attr);
	if (ret)
		return ret;
	rp->rx = kzalloc(RPING_RX_BYTES, GFP_KERNEL);
	rp->tx = kzalloc(sizeof(*rp->tx), GFP_KERNEL);
	if (!rp->rx || !rp->tx)
		return -ENOMEM;
	rp->rx_dma = ib_dma_map_single(dev, rp->rx, RPING_RX_BYTES,
				       DMA_FROM_DEVICE);
	if (ib_dma_mapping_error(dev, rp->rx_dma)) {
		rp->rx_dma = 0;
		return -ENOMEM;
	}
	rp->tx_dma = ib_dma_map_single(dev, rp->tx, sizeof(*rp->tx),
				       DMA_TO_DEVICE);
	if (ib_dma_mapping_error(dev, rp->tx_dma)) {
		rp->tx_dma = 0;
		return -ENOMEM;
	}
	return rping_post_recv(rp);
}

static void rping_conn_param(struct rdma_conn_param *p)
{
	memset(p, 0, sizeof(*p));
	p->responder_resources = 1;
	p->initiator_depth = 1;
	p->retry_count = 7;
	p->rnr_retry_count = 7;
}

/* Flush what is posted (bounded) and free everything of the call */
static void rping_teardown(struct rping *rp)
{
	struct ib_device *dev = rp->pd ? rp->pd->device : NULL;
	unsigned long flags;

	if (rp->id && rp->id->qp) {
		struct ib_qp_attr attr = { .qp_state = IB_QPS_ERR };

		/* the QP to the error state: every request completes flushed */
		rdma_disconnect(rp->id);
		ib_modify_qp(rp->id->qp, &attr, IB_QP_STATE);
		if (!wait_event_timeout(rp->wq, !READ_ONCE(rp->posted),
					RPING_DRAIN_TIMEOUT))
			pr_err_ratelimited("the provider flushed %u work requests of the queue pair within %u s: tearing down without them\n",
					   READ_ONCE(rp->posted),
					   RPING_DRAIN_TIMEOUT / HZ);
		rdma_destroy_qp(rp->id);
	}
	if (rp->cq)
		rdmachan_free_cq(rp->cq);
	if (rp->pd) {
		rping_buf_free(rp, &rp->src);
		rping_buf_free(rp, &rp->sink);
	}
	if (rp->rx_dma)
		ib_dma_unmap_single(dev, rp->rx_dma, RPING_RX_BYTES,
				    DMA_FROM_DEVICE);
	if (rp->tx_dma)
		ib_dma_unmap_single(dev, rp->tx_dma, sizeof(*rp->tx),
				    DMA_TO_DEVICE);
	kfree(rp->rx);
	kfree(rp->tx);
	if (rp->pd)
		ib_dealloc_pd(rp->pd);
	if (rp->id)
		rdma_destroy_id(rp->id);
	if (rp->listen_id)
		rdma_destroy_id(rp->listen_id);
	/* a request that came and was never taken */
	spin_lock_irqsave(&rp->lock, flags);
	rp->id = rp->req;
	rp->req = NULL;
	spin_unlock_irqrestore(&rp->lock, flags);
	if (rp->id) {
		rdma_reject(rp->id, NULL, 0, IB_CM_REJ_CONSUMER_DEFINED);
		rdma_destroy_id(rp->id);
	}
}

/* ---- the two ends -------------------------------------------------------- */

static void rping_rtt(struct rdmachan_rping *a, u64 ns)
{
	if (!a->rtt_min_ns || ns < a->rtt_min_ns)
		a->rtt_min_ns = ns;
	a->rtt_max_ns = max(a->rtt_max_ns, ns);
	a->rtt_sum_ns += ns;
}

static int rping_client_ping(struct rping *rp, u64 ping)
{
	struct rdmachan_rping *a = rp->a;
	struct rdmachan_rping_info info;
	u64 t0 = ktime_get_ns();
	long bad;
	int ret;

	rdmachan_rping_fill(rp->src.va, a->msg_size, ping);
	rping_buf_for_device(rp, &rp->src);
	rping_buf_for_device(rp, &rp->sink);
	ret = rping_send(rp, &rp->src);
	if (!ret)
		ret = rping_recv(rp, 2 * ping + 1, true, &info);
	if (!ret)
		ret = rping_send(rp, &rp->sink);
	if (!ret)
		ret = rping_recv(rp, 2 * ping + 2, true, &info);
	if (ret)
		return ret;
	rping_rtt(a, ktime_get_ns() - t0);
	rping_buf_for_cpu(rp, &rp->sink);
	/* the peer's bytes, escaped */
	if (a->flags & RDMACHAN_RPING_VERBOSE)
		pr_info("ping data: %*pE\n", (int)min_t(u32, a->msg_size - 1, 96),
			rp->sink.va);
	bad = memcmp(rp->src.va, rp->sink.va, a->msg_size) ?
	      rdmachan_rping_check(rp->sink.va, a->msg_size, ping) : -1;
	if ((a->flags & RDMACHAN_RPING_VALIDATE) && bad >= 0) {
		pr_info_ratelimited("ping %llu: the data written back by %pISpc differs at byte %ld\n",
				    ping, &rp->peer, bad);
		return -EBADMSG;
	}
	return 0;
}

static int rping_client(struct rping *rp, struct net *net)
{
	struct rdmachan_rping *a = rp->a;
	struct rdma_conn_param param;
	u64 ping;
	int ret;

	rp->id = rdma_create_id(net, rping_cm_handler, rp, RDMA_PS_TCP,
				IB_QPT_RC);
	if (IS_ERR(rp->id)) {
		ret = PTR_ERR(rp->id);
		rp->id = NULL;
		return ret;
	}
	ret = rdma_resolve_addr(rp->id, a->src.ss_family ?
				(struct sockaddr *)&a->src : NULL,
				(struct sockaddr *)&rp->peer, a->timeout_ms);
	if (!ret)
		ret = rping_wait(rp, NULL, 0, RPING_ADDR, true, "address");
	if (!ret)
		ret = rdma_resolve_route(rp->id, a->timeout_ms);
	if (!ret)
		ret = rping_wait(rp, NULL, 0, RPING_ROUTE, true, "route");
	if (!ret)
		ret = rping_setup(rp);
	if (ret)
		return ret;
	rping_conn_param(&param);
	ret = rdma_connect(rp->id, &param);
	if (!ret)
		ret = rping_wait(rp, NULL, 0, RPING_CONNECTED, true,
				 "connection");
	if (!ret)
		ret = rping_buf_make(rp, &rp->src, a->msg_size,
				     IB_ACCESS_REMOTE_READ);
	/* remote write needs local write */
	if (!ret)
		ret = rping_buf_make(rp, &rp->sink, a->msg_size,
				     IB_ACCESS_LOCAL_WRITE |
				     IB_ACCESS_REMOTE_WRITE);
	for (ping = 0; !ret && (!a->count || ping < a->count); ping++) {
		if (signal_pending(current))
			return -EINTR;
		ret = rping_client_ping(rp, ping);
		if (!ret)
			a->pings++;
	}
	return ret;
}

/*
 * One ping served; @ping counts from 0.  It counts once its data is
 * written back: the client cannot end before that WRITE completes, but
 * its disconnect after its last ping may overtake the completion of the
 * go-ahead that follows, and that ends the run as cleanly as a disconnect
 * before the next ping.  Return: 0, 1 at the end, errno.
 */
static int rping_serve_one(struct rping *rp, u64 ping)
{
	struct rdmachan_rping *a = rp->a;
	struct rdmachan_rping_info src, sink;
	u32 len;
	long bad;
	int ret;

	/* the client's next ping, or its disconnect: no bound */
	ret = rping_recv(rp, 2 * ping + 1, false, &src);
	if (ret == -ECONNRESET)
		return 1;
	if (ret)
		return ret;
	len = be32_to_cpu(src.size);
	a->peer_size = len;
	if (!len || len > a->msg_size) {
		pr_info_ratelimited("%pISpc advertised %u bytes; this server takes 1 to %u (-S)\n",
				    &rp->peer, len, a->msg_size);
		return -EPROTO;
	}
	rping_buf_for_device(rp, &rp->sink);
	ret = rping_rdma(rp, &src, false, len);
	if (ret)
		return ret;
	rping_buf_for_cpu(rp, &rp->sink);
	if (a->flags & RDMACHAN_RPING_VERBOSE)
		pr_info("server ping data: %*pE\n",
			(int)strnlen(rp->sink.va, min_t(u32, len, 96)),
			rp->sink.va);
	bad = rdmachan_rping_check(rp->sink.va, len, ping);
	if ((a->flags & RDMACHAN_RPING_VALIDATE) && bad >= 0) {
		pr_info_ratelimited("ping %llu: the data read from %pISpc differs at byte %ld\n",
				    ping, &rp->peer, bad);
		return -EBADMSG;
	}
	ret = rping_send(rp, NULL);
	if (!ret)
		ret = rping_recv(rp, 2 * ping + 2, true, &sink);
	if (ret)
		return ret;
	len = rdmachan_rping_echo_len(rp->sink.va, len, be32_to_cpu(sink.size));
	rping_buf_for_device(rp, &rp->sink);
	ret = rping_rdma(rp, &sink, true, len);
	if (ret)
		return ret;
	a->pings++;
	ret = rping_send(rp, NULL);
	return ret == -ECONNRESET ? 1 : ret;
}

/*
 * The server's sink: written by its READs, read by its WRITEs, never
 * named to the peer; an iWARP READ's sink needs remote write all the same
 */
static int rping_sink_access(struct rping *rp)
{
	return IB_ACCESS_LOCAL_WRITE |
	       (rdma_protocol_iwarp(rp->id->device, rp->id->port_num) ?
		IB_ACCESS_REMOTE_WRITE : 0);
}

static int rping_server(struct rping *rp, struct net *net)
{
	struct rdmachan_rping *a = rp->a;
	struct rdma_conn_param param;
	unsigned long flags;
	u64 ping;
	int ret;

	rp->listen_id = rdma_create_id(net, rping_cm_handler, rp, RDMA_PS_TCP,
				       IB_QPT_RC);
	if (IS_ERR(rp->listen_id)) {
		ret = PTR_ERR(rp->listen_id);
		rp->listen_id = NULL;
		return ret;
	}
	ret = rdma_bind_addr(rp->listen_id, (struct sockaddr *)&rp->peer);
	if (!ret)
		ret = rdma_listen(rp->listen_id, 1);
	if (!ret)
		ret = rping_wait(rp, NULL, 0, RPING_REQUEST, false,
				 "connect request");
	if (ret)
		return ret;
	spin_lock_irqsave(&rp->lock, flags);
	rp->id = rp->req;
	rp->req = NULL;
	spin_unlock_irqrestore(&rp->lock, flags);
	memcpy(&rp->peer, &rp->id->route.addr.dst_addr, sizeof(rp->peer));
	ret = rping_setup(rp);
	if (ret)
		return ret;
	rping_conn_param(&param);
	/* outside the event handler: its mutex, as rdma_accept() asks */
	rdma_lock_handler(rp->id);
	ret = rdma_accept(rp->id, &param);
	rdma_unlock_handler(rp->id);
	if (!ret)
		ret = rping_wait(rp, NULL, 0, RPING_CONNECTED, true,
				 "connection");
	if (!ret)
		ret = rping_buf_make(rp, &rp->sink, a->msg_size,
				     rping_sink_access(rp));
	for (ping = 0; !ret; ping++)
		ret = rping_serve_one(rp, ping);
	return ret == 1 ? 0 : ret;
}

/**
 * rdmachan_rping_run() - run one rping client or server
 * @a: the call's argument, checked (rdmachan_check_rping()); its counts
 *	filled in
 *
 * Context: process context; may sleep, interruptible.
 * Return: 0, or a negative errno (struct rdmachan_rping says which).
 */
int rdmachan_rping_run(struct rdmachan_rping *a)
{
	struct net *net = current->nsproxy->net_ns;
	struct rping *rp;
	int ret;

	rp = kzalloc(sizeof(*rp), GFP_KERNEL);
	if (!rp)
		return -ENOMEM;
	rp->a = a;
	spin_lock_init(&rp->lock);
	init_waitqueue_head(&rp->wq);
	rp->recv_cqe.done = rping_recv_done;
	rp->send_cqe.done = rping_send_done;
	rp->rdma_cqe.done = rping_rdma_done;
	rp->reg_cqe.done = rping_reg_done;
	rp->step = msecs_to_jiffies(a->timeout_ms);
	memcpy(&rp->peer, &a->addr, sizeof(rp->peer));
	if (a->flags & RDMACHAN_RPING_SERVER)
		ret = rping_server(rp, net);
	else
		ret = rping_client(rp, net);
	if (ret && ret != -EINTR)
		pr_info_ratelimited("%s %pISpc ends after %llu pings: %d\n",
				    a->flags & RDMACHAN_RPING_SERVER ?
				    "serving" : "pinging", &rp->peer,
				    a->pings, ret);
	rping_teardown(rp);
	kfree(rp);
	return ret;
}
