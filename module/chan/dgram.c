// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan: datagram endpoints (UD)
 *
 * An endpoint is one UD queue pair made by rdma_cm on the RDMA device of
 * its bound address (rdma_create_qp() moves it to RTS with rdma_cm's UDP
 * qkey), a completion queue polled in softirq (or, BUSY_POLL, by the
 * calls that wait: dgram_poll.c), @depth receive buffers and
 * RDMACHAN_DGRAM_TX send buffers.  A receive buffer is two pieces: the
 * GRH the device writes first (40 bytes of one array for all) and an
 * order-0 page for the datagram, which any RoCE MTU fits.  A received
 * buffer waits in arrival order for a reader, who gets it without a copy
 * (struct rdmachan_dgram_rx) and gives it back to be posted again; a
 * sender copies into a free send buffer and posts it with the peer's
 * address handle (dgram_cm.c).  As in IPoIB's UD path, nothing is
 * acknowledged: a datagram that finds every buffer taken is dropped by the
 * device (rx_empty counts the times that could happen).
 *
 * Teardown (close, device removal) takes @rwsem for writing: the QP to
 * the error state, its requests flushed (bounded), then the QP, address
 * handles, CQ, mappings, PD and identifier go; the pages stay until the
 * last reference, as a reader may still hold a datagram.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": dgram: " fmt

#include <linux/bottom_half.h>
#include <linux/memcontrol.h>
#include <linux/nsproxy.h>
#include <linux/poll.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <net/net_namespace.h>
#include <rdma/rdma_cm.h>

#include "dgram.h"

#define RDMACHAN_DGRAM_DRAIN	(5 * HZ)

static void rdmachan_dgram_free(struct kref *ref)
{
	struct rdmachan_dgram *d = container_of(ref, struct rdmachan_dgram,
						ref);

	rdmachan_dgram_bufs_free(d);
	mem_cgroup_put(d->memcg);
	if (d->net)
		put_net(d->net);
	kfree(d);
}

void rdmachan_dgram_put(struct rdmachan_dgram *d)
{
	kref_put(&d->ref, rdmachan_dgram_free);
}

/* ---- completions ---------------------------------------------------------- */

void rdmachan_dgram_send_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct rdmachan_dgram_slot *s =
		container_of(wc->wr_cqe, struct rdmachan_dgram_slot, cqe);
	struct rdmachan_dgram *d = s->d;
	unsigned long flags;

	spin_lock_irqsave(&d->lock, flags);
	d->posted--;
	s->ah->inflight--;
	set_bit(s - d->tx, d->tx_free);
	if (wc->status != IB_WC_SUCCESS && wc->status != IB_WC_WR_FLUSH_ERR) {
		d->stats.tx_errors++;
		pr_info_ratelimited("qpn %u: a send failed: %s\n", d->qpn,
				    ib_wc_status_msg(wc->status));
	}
	spin_unlock_irqrestore(&d->lock, flags);
	wake_up_all(&d->wq);
}

/* ---- waits ---------------------------------------------------------------- */

/*
 * Wait for @cond(@d) at most @timeout jiffies (MAX_SCHEDULE_TIMEOUT: no
 * bound), interruptibly with @intr: on @d->wq, or polling the completion
 * queue of a BUSY_POLL endpoint (dgram_poll.c).  Return: as
 * wait_event_interruptible_timeout().
 */
static long rdmachan_dgram_wait(struct rdmachan_dgram *d,
				bool (*cond)(struct rdmachan_dgram *d),
				long timeout, bool intr)
{
	if (rdmachan_dgram_busy(d))
		return rdmachan_dgram_busy_wait(d, cond, timeout, intr);
	if (intr)
		return wait_event_interruptible_timeout(d->wq, cond(d), timeout);
	return wait_event_timeout(d->wq, cond(d), timeout);
}

/* Every request posted has completed (flushed, at teardown) */
static bool rdmachan_dgram_flushed(struct rdmachan_dgram *d)
{
	return !READ_ONCE(d->posted);
}

/* ---- teardown ------------------------------------------------------------- */

/*
 * End the endpoint with @err: flush and free everything on the device.
 * Context: process context, no lock held; idempotent.
 */
static void rdmachan_dgram_teardown(struct rdmachan_dgram *d, int err)
{
	struct ib_qp_attr attr = { .qp_state = IB_QPS_ERR };
	unsigned long flags;

	spin_lock_irqsave(&d->lock, flags);
	if (!d->dead)
		d->dead = err;
	spin_unlock_irqrestore(&d->lock, flags);
	wake_up_all(&d->wq);
	/* before the lock it takes: dead, it queues itself no more */
	cancel_delayed_work_sync(&d->idle_work);
	down_write(&d->rwsem);
	if (!d->id)
		goto out;
	if (d->id->qp) {
		rdmachan_dgram_groups_free(d);
		ib_modify_qp(d->id->qp, &attr, IB_QP_STATE);
		if (!rdmachan_dgram_wait(d, rdmachan_dgram_flushed,
					 RDMACHAN_DGRAM_DRAIN, false))
			pr_err("qpn %u: the device flushed %u requests within %u s: tearing down without them\n",
			       d->qpn, READ_ONCE(d->posted),
			       RDMACHAN_DGRAM_DRAIN / HZ);
		rdma_destroy_qp(d->id);
	}
	if (d->pd)
		rdmachan_dgram_ahs_free(d);
	if (d->cq) {
		rdmachan_dgram_poll_stop(d);
		rdmachan_free_cq(d->cq);
	}
	if (d->pd) {
		rdmachan_dgram_unmap(d);
		ib_dealloc_pd(d->pd);
	}
	rdma_destroy_id(d->id);
	d->id = NULL;
	d->cq = NULL;
	d->pd = NULL;
	rdmachan_device_detach(&d->dev_user);
out:
	up_write(&d->rwsem);
}

static void rdmachan_dgram_dev_get(struct rdmachan_dev_user *u)
{
	kref_get(&container_of(u, struct rdmachan_dgram, dev_user)->ref);
}

static void rdmachan_dgram_dev_put(struct rdmachan_dev_user *u)
{
	rdmachan_dgram_put(container_of(u, struct rdmachan_dgram, dev_user));
}

static void rdmachan_dgram_device_removed(struct rdmachan_dev_user *u)
{
	struct rdmachan_dgram *d = container_of(u, struct rdmachan_dgram,
						dev_user);

	pr_info("qpn %u: its device went away\n", d->qpn);
	rdmachan_dgram_teardown(d, -ENODEV);
}

static const struct rdmachan_dev_user_ops rdmachan_dgram_dev_ops = {
	.get		= rdmachan_dgram_dev_get,
	.put		= rdmachan_dgram_dev_put,
	.device_removed	= rdmachan_dgram_device_removed,
};

/* ---- open and close ------------------------------------------------------- */

static int rdmachan_dgram_qp(struct rdmachan_dgram *d)
{
	struct ib_device *dev = d->id->device;
	struct ib_qp_init_attr attr = {
		.qp_type = IB_QPT_UD,
		.sq_sig_type = IB_SIGNAL_ALL_WR,
		.cap = {
			.max_send_wr = RDMACHAN_DGRAM_TX,
			.max_recv_wr = d->depth,
			.max_send_sge = 1,
			.max_recv_sge = 2,
		},
		.qp_context = d,
	};
	struct ib_port_attr pa;
	int ret;

	ret = ib_query_port(dev, d->id->port_num, &pa);
	if (ret)
		return ret;
	d->max_size = min_t(u32, ib_mtu_enum_to_int(pa.active_mtu),
			    PAGE_SIZE);
	d->pd = ib_alloc_pd(dev, 0);
	if (IS_ERR(d->pd)) {
		ret = PTR_ERR(d->pd);
		d->pd = NULL;
		return ret;
	}
	d->cq = ib_alloc_cq(dev, d, d->depth + RDMACHAN_DGRAM_TX, 0,
			    rdmachan_dgram_busy(d) ? IB_POLL_DIRECT :
			    IB_POLL_SOFTIRQ);
	if (IS_ERR(d->cq)) {
		ret = PTR_ERR(d->cq);
		d->cq = NULL;
		return ret;
	}
	/* BUSY_POLL: the core's handler of a DIRECT CQ warns; ours wakes */
	if (rdmachan_dgram_busy(d))
		d->cq->comp_handler = rdmachan_dgram_comp;
	attr.send_cq = d->cq;
	attr.recv_cq = d->cq;
	ret = rdmachan_dgram_buffers(d);
	if (ret)
		return ret;
	ret = rdma_create_qp(d->id, d->pd, &attr);
	if (ret)
		return ret;
	d->qpn = d->id->qp->qp_num;
	return 0;
}

static int rdmachan_dgram_start(struct rdmachan_dgram *d,
				const struct sockaddr *addr)
{
	u32 i;
	int ret;

	ret = rdma_bind_addr(d->id, (struct sockaddr *)addr);
	if (ret)
		return ret;
	if (!d->id->device) {
		pr_info_ratelimited("an endpoint needs a local address of an RDMA device, not %pISc\n",
				    addr);
		return -EADDRNOTAVAIL;
	}
	if (!rdmachan_device_attach(d->id->device, &d->dev_user))
		return -ENODEV;
	d->ibdev = d->id->device;
	if (rdma_protocol_iwarp(d->id->device, d->id->port_num)) {
		pr_info_ratelimited("%s is iWARP, which has no datagrams\n",
				    dev_name(&d->id->device->dev));
		return -EOPNOTSUPP;
	}
	ret = rdmachan_dgram_qp(d);
	if (ret)
		return ret;
	down_read(&d->rwsem);
	for (i = 0; !ret && i < d->depth; i++)
		ret = rdmachan_dgram_post_recv(d, i);
	up_read(&d->rwsem);
	if (!ret && (d->flags & RDMACHAN_DGRAM_SERVE))
		ret = rdma_listen(d->id, 64);
	if (!ret) {
		memcpy(&d->addr, &d->id->route.addr.src_addr, sizeof(d->addr));
		rdmachan_dgram_idle_start(d);
	}
	return ret;
}

/**
 * rdmachan_dgram_open_net() - rdmachan_dgram_open() in a network namespace
 * @net: the namespace of @addr
 * @addr: as rdmachan_dgram_open()
 * @depth: likewise
 * @flags: likewise
 * @dp: likewise
 *
 * Context: process context; sleeps.
 * Return: as rdmachan_dgram_open().
 */
int rdmachan_dgram_open_net(struct net *net, const struct sockaddr *addr,
			    u32 depth, u32 flags, struct rdmachan_dgram **dp)
{
	struct rdmachan_dgram *d;
	int ret;

	if (flags & ~RDMACHAN_DGRAM_OPEN_FLAGS)
		return -EINVAL;
	if (!depth)
		depth = RDMACHAN_DGRAM_DEFAULT_DEPTH;
	if (depth > RDMACHAN_DGRAM_MAX_DEPTH)
		return -EINVAL;
	d = kzalloc(sizeof(*d), GFP_KERNEL_ACCOUNT);
	if (!d)
		return -ENOMEM;
	kref_init(&d->ref);
	init_rwsem(&d->rwsem);
	spin_lock_init(&d->lock);
	init_waitqueue_head(&d->wq);
	mutex_init(&d->ah_mutex);
	INIT_LIST_HEAD(&d->groups);
	rdmachan_dgram_idle_init(d);
	d->retire_imm = (__force __be32)get_random_u32();
	if (current->mm)
		d->memcg = get_mem_cgroup_from_mm(current->mm);
	rdmachan_dev_user_init(&d->dev_user, &rdmachan_dgram_dev_ops);
	d->depth = depth;
	d->flags = flags;
	d->net = get_net(net);
	d->id = rdma_create_id(net, rdmachan_dgram_cm_handler, d, RDMA_PS_UDP,
			       IB_QPT_UD);
	if (IS_ERR(d->id)) {
		ret = PTR_ERR(d->id);
		d->id = NULL;
		goto fail;
	}
	ret = rdmachan_dgram_start(d, addr);
	if (ret)
		goto fail;
	*dp = d;
	return 0;
fail:
	rdmachan_dgram_teardown(d, ret);
	rdmachan_dgram_put(d);
	return ret;
}

/**
 * rdmachan_dgram_open() - open a datagram endpoint
 * @addr: the local address (AF_INET or AF_INET6 of an RDMA device, not a
 *	wildcard); its port is the one served (0: a free one)
 * @depth: receive buffers, 0 for RDMACHAN_DGRAM_DEFAULT_DEPTH, at most
 *	RDMACHAN_DGRAM_MAX_DEPTH
 * @flags: RDMACHAN_DGRAM_BUSY_POLL: the waits of its receives, sends and
 *	close poll its completion queue themselves (spinning a while before
 *	they sleep), for the lowest latency; RDMACHAN_DGRAM_SERVE: answer
 *	rdmachan_dgram_resolve() (and
 *	udaddy's client) for @addr's port
 * @dp: the endpoint
 *
 * Context: process context; sleeps.
 * Return: 0, -EINVAL (flags, depth), -EADDRNOTAVAIL (no RDMA device has
 * @addr), -EADDRINUSE (the port is taken), -EOPNOTSUPP (an iWARP device:
 * no UD), -ENOMEM, or the device's error.
 */
int rdmachan_dgram_open(const struct sockaddr *addr, u32 depth, u32 flags,
			struct rdmachan_dgram **dp)
{
	return rdmachan_dgram_open_net(&init_net, addr, depth, flags, dp);
}
EXPORT_SYMBOL_GPL(rdmachan_dgram_open);

static bool rdmachan_dgram_sent(struct rdmachan_dgram *d)
{
	return bitmap_full(d->tx_free, RDMACHAN_DGRAM_TX) ||
	       READ_ONCE(d->dead);
}

/**
 * rdmachan_dgram_close() - close a datagram endpoint
 * @d: the endpoint; every datagram received from it released
 *
 * Datagrams posted go out first, as a UDP socket's do: close waits for
 * their sends to complete (RDMACHAN_DGRAM_DRAIN at most; a UD send needs
 * no answer, so only a stuck device takes that long).  Device removal
 * does not wait.
 *
 * Context: process context; sleeps.
 */
void rdmachan_dgram_close(struct rdmachan_dgram *d)
{
	if (!rdmachan_dgram_wait(d, rdmachan_dgram_sent, RDMACHAN_DGRAM_DRAIN,
				 false))
		pr_info("qpn %u: closing with sends not done after %u s: they are flushed\n",
			d->qpn, RDMACHAN_DGRAM_DRAIN / HZ);
	rdmachan_dgram_teardown(d, -ESHUTDOWN);
	rdmachan_dgram_put(d);
}
EXPORT_SYMBOL_GPL(rdmachan_dgram_close);

/* ---- receive -------------------------------------------------------------- */

static bool rdmachan_dgram_readable(struct rdmachan_dgram *d)
{
	return READ_ONCE(d->rx_count) || READ_ONCE(d->dead);
}

/**
 * rdmachan_dgram_recv() - take the next received datagram
 * @d: the endpoint
 * @rxp: the datagram, the caller's until rdmachan_dgram_rx_release()
 * @timeout: jiffies to wait for one: 0 not at all,
 *	MAX_SCHEDULE_TIMEOUT until one comes
 *
 * Context: process context; sleeps, interruptible.
 * Return: 0, -EAGAIN (none within @timeout), -ERESTARTSYS, or the
 * endpoint's death (-ENODEV: its device went away).
 */
int rdmachan_dgram_recv(struct rdmachan_dgram *d,
			struct rdmachan_dgram_rx **rxp, long timeout)
{
	unsigned long flags;
	long left;
	u32 i;

	for (;;) {
		rdmachan_dgram_process(d);
		spin_lock_irqsave(&d->lock, flags);
		if (d->rx_count) {
			i = d->rx_ring[d->rx_head];
			d->rx_head = (d->rx_head + 1) % d->depth;
			d->rx_count--;
			spin_unlock_irqrestore(&d->lock, flags);
			*rxp = &d->rx[i].rx;
			return 0;
		}
		spin_unlock_irqrestore(&d->lock, flags);
		if (READ_ONCE(d->dead))
			return READ_ONCE(d->dead);
		if (!timeout)
			return -EAGAIN;
		left = rdmachan_dgram_wait(d, rdmachan_dgram_readable, timeout,
					   true);
		if (left < 0)
			return left;
		if (!left)
			return -EAGAIN;
		timeout = left;
	}
}
EXPORT_SYMBOL_GPL(rdmachan_dgram_recv);

/**
 * rdmachan_dgram_rx_release() - give a received datagram back
 * @d: its endpoint
 * @rx: the datagram; its buffer is posted to receive again
 *
 * Context: process context.
 */
void rdmachan_dgram_rx_release(struct rdmachan_dgram *d,
			       struct rdmachan_dgram_rx *rx)
{
	struct rdmachan_dgram_slot *s =
		container_of(rx, struct rdmachan_dgram_slot, rx);

	down_read(&d->rwsem);
	if (!READ_ONCE(d->dead))
		rdmachan_dgram_post_recv(d, s - d->rx);
	up_read(&d->rwsem);
}
EXPORT_SYMBOL_GPL(rdmachan_dgram_rx_release);

/* ---- send ----------------------------------------------------------------- */

/* A free send buffer, taken, or -1; under @d->lock */
int rdmachan_dgram_tx_take(struct rdmachan_dgram *d)
{
	unsigned long i = find_first_bit(d->tx_free, RDMACHAN_DGRAM_TX);

	if (i >= RDMACHAN_DGRAM_TX)
		return -1;
	clear_bit(i, d->tx_free);
	return i;
}

static bool rdmachan_dgram_writable(struct rdmachan_dgram *d)
{
	return !bitmap_empty(d->tx_free, RDMACHAN_DGRAM_TX) ||
	       READ_ONCE(d->dead);
}

/*
 * Post send buffer @s (@s->len bytes, none: no page needed) to @qpn
 * through @ah, which holds it; a refused post frees both.  Context:
 * @d->rwsem held.
 */
int rdmachan_dgram_post_send(struct rdmachan_dgram *d,
			     struct rdmachan_dgram_slot *s,
			     struct rdmachan_dgram_ah *ah, u32 qpn, u32 qkey,
			     const __be32 *imm)
{
	struct ib_sge sge = {
		.addr = s->dma, .length = s->len,
		.lkey = d->pd->local_dma_lkey,
	};
	struct ib_ud_wr wr = {
		.wr = {
			.wr_cqe = &s->cqe, .sg_list = &sge,
			.num_sge = s->len ? 1 : 0,
			.opcode = imm ? IB_WR_SEND_WITH_IMM : IB_WR_SEND,
			.send_flags = IB_SEND_SIGNALED,
			.ex.imm_data = imm ? *imm : 0,
		},
		.ah = ah->ah,
		.remote_qpn = qpn,
		.remote_qkey = qkey ?: RDMACHAN_DGRAM_QKEY,
	};
	bool busy = rdmachan_dgram_busy(d);
	unsigned long flags;
	int ret;

	if (s->len)
		ib_dma_sync_single_for_device(d->pd->device, s->dma, s->len,
					      DMA_TO_DEVICE);
	s->ah = ah;
	spin_lock_irqsave(&d->lock, flags);
	d->posted++;
	spin_unlock_irqrestore(&d->lock, flags);
	/*
	 * soft-RoCE defers a kernel QP's send to a tasklet.  A BUSY_POLL
	 * endpoint raises it with the bottom halves off: it wakes no
	 * ksoftirqd and runs here, at their enabling, as a user QP's send
	 * runs in its system call (the channel's sends do the same,
	 * rdmachan_bh_off()).  Others leave it to batch their sends.
	 */
	if (busy)
		local_bh_disable();
	ret = ib_post_send(d->id->qp, &wr.wr, NULL);
	if (busy)
		local_bh_enable();
	if (ret) {
		spin_lock_irqsave(&d->lock, flags);
		d->posted--;
		ah->inflight--;
		set_bit(s - d->tx, d->tx_free);
		spin_unlock_irqrestore(&d->lock, flags);
	}
	return ret;
}

/* Wait for a free send buffer and take it.  Return: its index or errno. */
static int rdmachan_dgram_tx_wait(struct rdmachan_dgram *d, bool nonblock)
{
	unsigned long flags;
	int i, ret;

	for (;;) {
		rdmachan_dgram_process(d);
		spin_lock_irqsave(&d->lock, flags);
		ret = d->dead;
		i = ret ? 0 : rdmachan_dgram_tx_take(d);
		spin_unlock_irqrestore(&d->lock, flags);
		if (ret)
			return ret;
		if (i >= 0)
			return i;
		if (nonblock)
			return -EAGAIN;
		if (rdmachan_dgram_wait(d, rdmachan_dgram_writable,
					MAX_SCHEDULE_TIMEOUT, true) < 0)
			return -ERESTARTSYS;
	}
}

/**
 * rdmachan_dgram_send() - send one datagram
 * @d: the endpoint
 * @to: the peer's host (AF_INET or AF_INET6; the port is not used)
 * @qpn: its queue pair (from rdmachan_dgram_resolve() or a datagram it
 *	sent)
 * @qkey: its qkey; 0 for RDMACHAN_DGRAM_QKEY
 * @from: the datagram's bytes, at most rdmachan_dgram_max_size()
 * @imm: immediate data to send with it, or NULL
 * @nonblock: fail with -EAGAIN rather than wait for a send buffer
 *
 * Returns once the datagram is posted; it may still be lost.  The first
 * send to a host resolves its address (bounded, 5 s).
 *
 * Context: process context; sleeps, interruptible.
 * Return: 0, -EMSGSIZE, -EINVAL (@qpn out of range), -EAGAIN,
 * -ERESTARTSYS, -EFAULT (copying @from), -EHOSTUNREACH or -ETIMEDOUT (no
 * address for @to), -ENOSPC (every address handle in use), or the
 * endpoint's death.
 */
int rdmachan_dgram_send(struct rdmachan_dgram *d, const struct sockaddr *to,
			u32 qpn, u32 qkey, struct iov_iter *from,
			const __be32 *imm, bool nonblock)
{
	struct sockaddr_storage ss;
	struct rdmachan_dgram_ah *ah;
	struct rdmachan_dgram_slot *s;
	size_t len = iov_iter_count(from);
	unsigned long flags;
	int i, ret;

	if (len > d->max_size)
		return -EMSGSIZE;
	if (!qpn || qpn > 0xffffff)
		return -EINVAL;
	ret = rdmachan_dgram_host(to, &ss);
	if (ret)
		return ret;
	ah = rdmachan_dgram_ah_get(d, &ss, RDMACHAN_DGRAM_DEFAULT_TIMEOUT);
	if (IS_ERR(ah))
		return PTR_ERR(ah);
	i = rdmachan_dgram_tx_wait(d, nonblock);
	if (i < 0) {
		ret = i;
		goto put_ah;
	}
	s = &d->tx[i];
	s->len = len;
	if (len) {
		down_read(&d->rwsem);
		ret = READ_ONCE(d->dead) ?: rdmachan_dgram_tx_page(d, s);
		up_read(&d->rwsem);
	}
	/* not under the rwsem: a user's page fault must not hold teardown */
	if (!ret && len &&
	    copy_from_iter(page_address(s->page), len, from) != len)
		ret = -EFAULT;
	down_read(&d->rwsem);
	if (!ret)
		ret = READ_ONCE(d->dead);
	if (!ret) {
		ret = rdmachan_dgram_post_send(d, s, ah, qpn, qkey, imm);
		up_read(&d->rwsem);
		if (!ret) {
			spin_lock_irqsave(&d->lock, flags);
			d->stats.tx++;
			d->stats.tx_bytes += len;
			spin_unlock_irqrestore(&d->lock, flags);
		}
		return ret;
	}
	up_read(&d->rwsem);
	spin_lock_irqsave(&d->lock, flags);
	set_bit(i, d->tx_free);
	spin_unlock_irqrestore(&d->lock, flags);
put_ah:
	rdmachan_dgram_ah_put(d, ah);
	return ret;
}
EXPORT_SYMBOL_GPL(rdmachan_dgram_send);

/* ---- state ---------------------------------------------------------------- */

/**
 * rdmachan_dgram_qpn() - an endpoint's queue pair number
 * @d: the endpoint
 *
 * Context: any.
 * Return: the number peers send to.
 */
u32 rdmachan_dgram_qpn(struct rdmachan_dgram *d)
{
	return d->qpn;
}
EXPORT_SYMBOL_GPL(rdmachan_dgram_qpn);

/**
 * rdmachan_dgram_max_size() - the largest datagram an endpoint sends
 * @d: the endpoint
 *
 * Context: any.
 * Return: bytes: its port's active MTU, at most a page.
 */
u32 rdmachan_dgram_max_size(struct rdmachan_dgram *d)
{
	return d->max_size;
}
EXPORT_SYMBOL_GPL(rdmachan_dgram_max_size);

/**
 * rdmachan_dgram_local_addr() - an endpoint's address and port
 * @d: the endpoint
 * @addr: filled in
 *
 * Context: any.
 * Return: 0.
 */
int rdmachan_dgram_local_addr(struct rdmachan_dgram *d,
			      struct sockaddr_storage *addr)
{
	memcpy(addr, &d->addr, sizeof(*addr));
	return 0;
}
EXPORT_SYMBOL_GPL(rdmachan_dgram_local_addr);

__poll_t rdmachan_dgram_poll(struct rdmachan_dgram *d, struct file *file,
			     poll_table *wait)
{
	__poll_t mask = 0;

	poll_wait(file, &d->wq, wait);
	/* BUSY_POLL: what completed, then the next completion wakes */
	if (rdmachan_dgram_busy(d)) {
		do {
			rdmachan_dgram_process(d);
		} while (!READ_ONCE(d->dead) && rdmachan_dgram_arm(d));
	}
	if (READ_ONCE(d->rx_count))
		mask |= EPOLLIN | EPOLLRDNORM;
	if (!bitmap_empty(d->tx_free, RDMACHAN_DGRAM_TX))
		mask |= EPOLLOUT | EPOLLWRNORM;
	if (READ_ONCE(d->dead))
		mask |= EPOLLERR | EPOLLHUP;
	return mask;
}

void rdmachan_dgram_stats(struct rdmachan_dgram *d,
			  struct rdmachan_dgram_info *info)
{
	unsigned long flags;

	spin_lock_irqsave(&d->lock, flags);
	info->qpn = d->qpn;
	info->qkey = RDMACHAN_DGRAM_QKEY;
	info->max_size = d->max_size;
	info->depth = d->depth;
	info->posted = d->rx_posted;
	info->error = d->dead == -ESHUTDOWN ? 0 : -d->dead;
	info->tx = d->stats.tx;
	info->rx = d->stats.rx;
	info->tx_bytes = d->stats.tx_bytes;
	info->rx_bytes = d->stats.rx_bytes;
	info->rx_trunc = d->stats.rx_trunc;
	info->rx_empty = d->stats.rx_empty;
	info->tx_errors = d->stats.tx_errors;
	info->resolved = d->stats.resolved;
	info->served = d->stats.served;
	info->buffers = d->rx_made;
	info->mem_bytes = rdmachan_dgram_mem_bytes(d);
	info->grown = d->stats.grown;
	info->retired = d->stats.retired;
	spin_unlock_irqrestore(&d->lock, flags);
	memcpy(&info->addr, &d->addr, sizeof(info->addr));
}
