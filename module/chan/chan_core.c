// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan: channel life cycle - allocation, references, state, failure,
 * teardown, rdmachan_close() and the accessors of the public API
 *
 * A channel lives as long as its references: the user's (dropped by
 * rdmachan_close()), a listener's until accept, and transient ones held by
 * work items and device removal.  Its RDMA resources (rdma_cm_id, QP, CQ,
 * DMA mappings, the device reference) are released earlier, by teardown,
 * which runs once, in process context, when the user closes, the peer
 * disconnects, the connection fails or the device goes away.  Received
 * messages survive teardown: they can still be read.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/delay.h>
#include <linux/idr.h>
#include <linux/slab.h>

#include "rdmachan-pri.h"
#include "chan_trace.h"
#include "chan_grant.h"
#include "chan_rxbuf.h"
#include "chan_mem.h"
#include "device.h"
#include "bounds.h"
#include "params.h"
#include "sysfs.h"
#include "chan_sbuf.h"

struct workqueue_struct *rdmachan_wq;
/*
 * Builds passive channels (rdmachan_accept_work()): not rdmachan_wq, where
 * identifiers are destroyed, which may wait long on a CM message the
 * provider never completes
 */
struct workqueue_struct *rdmachan_accept_wq;
static DEFINE_IDA(rdmachan_chan_ida);

static struct rdmachan *rdmachan_of_dev_user(struct rdmachan_dev_user *u)
{
	return container_of(u, struct rdmachan, obj.dev_user);
}

static void rdmachan_dev_user_get(struct rdmachan_dev_user *u)
{
	rdmachan_get(rdmachan_of_dev_user(u));
}

static void rdmachan_dev_user_put(struct rdmachan_dev_user *u)
{
	rdmachan_put(rdmachan_of_dev_user(u));
}

/*
 * The channel's device goes away, before the device's PD is freed: the
 * channel fails with -ENODEV and releases everything it holds on the
 * device (teardown detaches it).  Process context.
 */
static void rdmachan_device_removed(struct rdmachan_dev_user *u)
{
	struct rdmachan *ch = rdmachan_of_dev_user(u);

	rdmachan_set_failed(ch, -ENODEV);
	rdmachan_teardown(ch);
}

/* DEVICE_FATAL: nothing of the device works any more. */
static void rdmachan_device_fatal(struct rdmachan_dev_user *u)
{
	rdmachan_fail_io(rdmachan_of_dev_user(u), -EIO);
}

/* What the device layer does to a channel that holds resources on it */
static const struct rdmachan_dev_user_ops rdmachan_chan_dev_ops = {
	.get		= rdmachan_dev_user_get,
	.put		= rdmachan_dev_user_put,
	.device_removed	= rdmachan_device_removed,
	.device_fatal	= rdmachan_device_fatal,
};

/**
 * rdmachan_opts_fill() - options with module defaults for what is unset
 * @o: the result
 * @in: what the user asked for (NULL: all defaults)
 */
void rdmachan_opts_fill(struct rdmachan_opts *o, const struct rdmachan_opts *in)
{
	if (in)
		*o = *in;
	else
		memset(o, 0, sizeof(*o));
	if (!o->queue_depth)
		o->queue_depth = rdmachan_param_queue_depth();
	if (!o->max_msg_size)
		o->max_msg_size = rdmachan_param_max_msg_size();
	if (!o->timeout_ms)
		o->timeout_ms = rdmachan_param_connect_timeout_ms();
	if (!o->backlog)
		o->backlog = 128;
}

/**
 * rdmachan_depth_cap() - the queue depth a channel offers
 * @depth: what its options ask for
 * @max_msg_size: its largest message
 * @rx_pages: it receives into pages (&rdmachan_opts.rx_pages)
 *
 * @depth clamped to 1..RDMACHAN_MAX_DEPTH and lowered until the channel's
 * message buffers (a receive and a send buffer per credit, and the
 * control receive buffers, each as rdmachan_chan_buf_bytes() counts it)
 * fit the
 * chan_mem_kb module parameter.  Both ends offer no more than this, and
 * the negotiated depth and size are at most what each offered, so no
 * peer can make a channel allocate more.
 *
 * Context: any.
 * Return: the depth to offer.
 */
u32 rdmachan_depth_cap(u32 depth, u32 max_msg_size, bool rx_pages)
{
	u64 buf = rdmachan_chan_buf_bytes(RDMACHAN_HDR_LEN + (u64)max_msg_size +
					  RDMACHAN_IMM_TRAILER, rx_pages);

	depth = clamp_t(u32, depth, 1, RDMACHAN_MAX_DEPTH);
	return rdmachan_depth_for_mem(depth, buf, RDMACHAN_CTRL_RECV,
				      rdmachan_param_chan_mem());
}

/**
 * rdmachan_call_writable() - tell the user that refused calls may go now
 * @ch: the channel; the caller found rdmachan_writable_due_locked() true
 *	(or teardown found a refusal waiting) and holds no lock of it
 *
 * Context: any; the user's callback must not sleep.
 */
void rdmachan_call_writable(struct rdmachan *ch)
{
	const struct rdmachan_ops *ops = READ_ONCE(ch->ops);

	if (ops && ops->writable)
		ops->writable(ch);
}

/*
 * The rdma_cm identifier goes last, and on its own: rdma_destroy_id()
 * waits for the CM's references to it, and a CM message that the
 * provider never completes keeps one for good (ib_cm then logs
 * "cm_destroy_id_wait_timeout" every 10 s; soft-RoCE does that when its
 * packets are stuck below it).  So that teardown, and a user's recovery
 * waiting on it, stay bounded, teardown hands the identifier to this
 * work with a channel reference (the context of its handler), which the
 * work drops once the identifier is gone.  Module unload waits for it
 * (rdmachan_core_exit()).
 */
static void rdmachan_cm_destroy_work(struct work_struct *work)
{
	struct rdmachan *ch = container_of(work, struct rdmachan,
					   conn.destroy_work);

	rdmachan_inject_cm_destroy_delay();
	rdma_destroy_id(ch->conn.dying_id);
	rdmachan_put(ch);
}

static void rdmachan_work_teardown(struct work_struct *work)
{
	struct rdmachan *ch = container_of(work, struct rdmachan, teardown_work);

	rdmachan_teardown(ch);
	rdmachan_put(ch);
}

/*
 * A channel's latency histograms, where latency_hist says so; without
 * memory it keeps none
 */
static void rdmachan_hist_make(struct rdmachan *ch, struct mem_cgroup *memcg)
{
	gfp_t gfp = memcg ? GFP_KERNEL_ACCOUNT : GFP_KERNEL;
	struct mem_cgroup *old;

	if (!rdmachan_hist_enabled())
		return;
	old = memcg ? set_active_memcg(memcg) : NULL;
	ch->send.hist = rdmachan_hist_alloc(gfp);
	ch->recv.hist = rdmachan_hist_alloc(gfp);
	if (memcg)
		set_active_memcg(old);
	rdmachan_mem_charge(ch, ((ch->send.hist ? 1 : 0) +
				 (ch->recv.hist ? 1 : 0)) *
			    rdmachan_hist_bytes());
}

/**
 * rdmachan_alloc() - a new channel, CONNECTING, with one reference
 * @opts: its options, defaults already filled in
 * @active: we connect (true) or accept (false)
 * @memcg: the memory cgroup to charge (&rdmachan.memcg, which takes a
 *	reference of its own), or NULL
 *
 * Return: the channel or NULL when out of memory or channel numbers.
 */
struct rdmachan *rdmachan_alloc(const struct rdmachan_opts *opts, bool active,
				struct mem_cgroup *memcg)
{
	struct mem_cgroup *old = memcg ? set_active_memcg(memcg) : NULL;
	struct rdmachan *ch;
	int id;

	ch = kzalloc(sizeof(*ch), memcg ? GFP_KERNEL_ACCOUNT : GFP_KERNEL);
	if (memcg)
		set_active_memcg(old);
	if (!ch)
		return NULL;
	id = ida_alloc(&rdmachan_chan_ida, GFP_KERNEL);
	if (id < 0) {
		kfree(ch);
		return NULL;
	}
	ch->obj.kind = RDMACHAN_OBJ_CHANNEL;
	ch->obj.id = id;
	ch->memcg = rdmachan_memcg_get(memcg);
	rdmachan_mem_charge(ch, kmalloc_size_roundup(sizeof(*ch)));
	rdmachan_hist_make(ch, memcg);
	ch->conn.active = active;
	ch->opts = *opts;
	ch->state = RDMACHAN_CONNECTING;
	kref_init(&ch->obj.ref);
	spin_lock_init(&ch->lock);
	rdmachan_dev_user_init(&ch->obj.dev_user, &rdmachan_chan_dev_ops);
	INIT_LIST_HEAD(&ch->recv.ready);
	INIT_LIST_HEAD(&ch->recv.pending);
	INIT_LIST_HEAD(&ch->recv.all);
	INIT_LIST_HEAD(&ch->ctrl.held);
	INIT_WORK(&ch->recv.grow_work, rdmachan_grow_work);
	INIT_LIST_HEAD(&ch->listen.node);
	INIT_WORK(&ch->listen.accept_work, rdmachan_accept_work);
	init_waitqueue_head(&ch->wq);
	init_completion(&ch->conn.done);
	mutex_init(&ch->teardown_mutex);
	mutex_init(&ch->recv.read_mutex);
	mutex_init(&ch->mr.mutex);
	mutex_init(&ch->reap.mutex);
	INIT_LIST_HEAD(&ch->reap.list);
	INIT_LIST_HEAD(&ch->rdma.reqs);
	INIT_LIST_HEAD(&ch->mr.list);
	INIT_LIST_HEAD(&ch->pools.list);
	xa_init_flags(&ch->mr.handles, XA_FLAGS_ALLOC1);
	INIT_WORK(&ch->teardown_work, rdmachan_work_teardown);
	INIT_WORK(&ch->send.fill_work, rdmachan_sbuf_fill_work);
	INIT_WORK(&ch->conn.destroy_work, rdmachan_cm_destroy_work);
	INIT_DELAYED_WORK(&ch->ctrl.keepalive_work, rdmachan_keepalive_work);
	return ch;
}

/**
 * rdmachan_get() - take a reference on a channel
 * @ch: the channel
 */
void rdmachan_get(struct rdmachan *ch)
{
	kref_get(&ch->obj.ref);
}

static void rdmachan_free_buffers(struct rdmachan *ch)
{
	struct rdmachan_rx *rx, *tmp;
	u32 i;

	list_for_each_entry_safe(rx, tmp, &ch->recv.all, link)
		rdmachan_rx_slot_free(ch, rx);
	/* its pages still in the user's hands come back to it later */
	rdmachan_rx_pages_destroy(ch);
	if (ch->send.ring)
		for (i = 0; i < ch->send.depth; i++)
			rdmachan_sbuf_free_slot(ch, &ch->send.ring[i]);
	rdmachan_sbuf_free(ch);
	for (i = 0; i < RDMACHAN_CTRL_SLOTS; i++)
		kfree(ch->ctrl.slot[i].buf);
	kfree(ch->send.retire_hdr);
	kvfree(ch->send.t_ns);
	kvfree(ch->send.ring);
	kvfree(ch->send.zc_sge);
	kvfree(ch->send.ext);
}

static void rdmachan_release(struct kref *ref)
{
	struct rdmachan *ch = container_of(ref, struct rdmachan, obj.ref);

	WARN_ON_ONCE(!test_bit(RDMACHAN_F_TORN_DOWN, &ch->flags) &&
		     ch->conn.cm_id);
	rdmachan_pool_free_all(ch);
	rdmachan_mr_free_all(ch);
	rdmachan_free_buffers(ch);
	ida_free(&rdmachan_chan_ida, ch->obj.id);
	rdmachan_hist_free(ch->send.hist);
	rdmachan_hist_free(ch->recv.hist);
	mem_cgroup_put(ch->memcg);
	kfree(ch);
}

/**
 * rdmachan_put() - drop a reference; the last frees the channel
 * @ch: the channel
 */
void rdmachan_put(struct rdmachan *ch)
{
	kref_put(&ch->obj.ref, rdmachan_release);
}

/**
 * rdmachan_event_locked() - move a channel along its life cycle
 * @ch: the channel, with ch->lock held
 * @ev: what happened
 * @err: for RDMACHAN_EV_FAILED, why (a negative errno)
 *
 * Applies rdmachan_state_next(); a channel entering FAILED keeps @err.
 * A change is traced, and told as a uevent of the channel's directory.
 * Return: whether the state changed.
 */
bool rdmachan_event_locked(struct rdmachan *ch, enum rdmachan_event ev,
			   int err)
{
	enum rdmachan_state next = rdmachan_state_next(ch->state, ev);

	if (next == ch->state)
		return false;
	trace_rdmachan_chan_state(ch->obj.id, READ_ONCE(ch->res.qpn),
				  ch->state, next, ev,
				  next == RDMACHAN_FAILED ? err : 0);
	rdmachan_sysfs_state_event(ch, ch->state, next,
				   next == RDMACHAN_FAILED ? err : 0);
	if (next == RDMACHAN_FAILED)
		ch->err = err;
	ch->state = next;
	return true;
}

/**
 * rdmachan_set_failed() - the channel failed; wake everybody waiting on it
 * @ch: the channel
 * @err: why, a negative errno; the first failure is kept
 *
 * Context: any.
 */
void rdmachan_set_failed(struct rdmachan *ch, int err)
{
	unsigned long flags;
	bool writable = false;

	spin_lock_irqsave(&ch->lock, flags);
	if (rdmachan_event_locked(ch, RDMACHAN_EV_FAILED, err))
		writable = rdmachan_writable_take_locked(ch);
	spin_unlock_irqrestore(&ch->lock, flags);
	wake_up_all(&ch->wq);
	/* a user waiting for room learns that it will not come */
	if (writable)
		rdmachan_call_writable(ch);
}

/**
 * rdmachan_set_disconnected() - orderly end; wake everybody waiting
 * @ch: the channel; a FAILED channel stays FAILED
 *
 * Context: any.
 */
void rdmachan_set_disconnected(struct rdmachan *ch)
{
	unsigned long flags;

	spin_lock_irqsave(&ch->lock, flags);
	rdmachan_event_locked(ch, RDMACHAN_EV_CLOSED, 0);
	spin_unlock_irqrestore(&ch->lock, flags);
	wake_up_all(&ch->wq);
}

void rdmachan_fail_io(struct rdmachan *ch, int err)
{
	rdmachan_set_failed(ch, err);
	rdmachan_schedule_teardown(ch);
}

/*
 * A post failed, with ch->lock held.  After the peer's CLOSE the QP may
 * already be in the error state (iWARP refuses posts then): that is the
 * orderly end under way, not a failure.
 */
void rdmachan_post_failed_locked(struct rdmachan *ch, const char *what,
				 int err)
{
	if (test_bit(RDMACHAN_F_PEER_SAID_CLOSE, &ch->flags))
		return;
	rdmachan_err_rl(ch, "%s post failed: %d\n", what, err);
	rdmachan_event_locked(ch, RDMACHAN_EV_FAILED, -ECONNRESET);
	wake_up_all(&ch->wq);
	rdmachan_schedule_teardown(ch);
}

/*
 * A flushed work request means the QP is in the error state.  Teardown
 * puts it there after it stopped I/O, and the peer's orderly close may
 * (after its CLOSE arrived): those are expected.  Any other flush means
 * the QP broke behind our back (a local error the provider reports only
 * so, a fatal event we did not get): the channel fails.
 */
static bool rdmachan_flush_expected(struct rdmachan *ch)
{
	return test_bit(RDMACHAN_F_IO_STOPPED, &ch->flags) ||
	       test_bit(RDMACHAN_F_PEER_SAID_CLOSE, &ch->flags);
}

bool rdmachan_wc_ok(struct rdmachan *ch, struct ib_wc *wc, const char *what)
{
	if (likely(wc->status == IB_WC_SUCCESS))
		return true;
	if (wc->status != IB_WC_WR_FLUSH_ERR) {
		atomic64_inc(&ch->stats[RDMACHAN_STAT_errors]);
		rdmachan_info_rl(ch, "%s completion: %s (%d)\n", what,
				 ib_wc_status_msg(wc->status), wc->status);
		rdmachan_fail_io(ch, -ECONNRESET);
	} else if (!rdmachan_flush_expected(ch) &&
		   READ_ONCE(ch->state) == RDMACHAN_CONNECTED) {
		/* the first one fails the channel; the rest are its echo */
		atomic64_inc(&ch->stats[RDMACHAN_STAT_errors]);
		rdmachan_info_rl(ch,
				 "%s flushed: the queue pair left the connected state\n",
				 what);
		rdmachan_fail_io(ch, -ECONNRESET);
	}
	return false;
}

/**
 * rdmachan_build() - build a connecting channel as its rdma_cm handler would
 * @ch: the channel, its identifier created
 * @build: makes the queues and buffers and sends the request or accept
 *
 * Runs @build under the teardown mutex, which keeps the identifier, and
 * the identifier's handler mutex, in the order teardown takes them: the
 * identifier's events and teardown see a channel either not built or
 * whole.  A channel torn down, dying or no longer connecting (a reject, a
 * device removal or an address change came first) is not built.
 *
 * Context: process context, may sleep; neither mutex held.
 * Return: 0 once built, 1 if the channel was not built (left to its
 * teardown), or the error @build returned.
 */
int rdmachan_build(struct rdmachan *ch,
		   int (*build)(struct rdmachan *ch, struct rdma_cm_id *id))
{
	struct rdma_cm_id *id;
	int ret = 1;

	mutex_lock(&ch->teardown_mutex);
	id = ch->conn.cm_id;
	if (!test_bit(RDMACHAN_F_TORN_DOWN, &ch->flags) && id) {
		rdma_lock_handler(id);
		if (!test_bit(RDMACHAN_F_DYING, &ch->flags) &&
		    rdmachan_get_state(ch) == RDMACHAN_CONNECTING)
			ret = build(ch, id);
		rdma_unlock_handler(id);
	}
	mutex_unlock(&ch->teardown_mutex);
	return ret;
}

/**
 * rdmachan_schedule_teardown() - have teardown run in process context
 * @ch: the channel
 *
 * Context: any; used by completion handlers and the rdma_cm handler,
 * which must not destroy their own rdma_cm_id.
 */
void rdmachan_schedule_teardown(struct rdmachan *ch)
{
	rdmachan_get(ch);
	if (!queue_work(rdmachan_wq, &ch->teardown_work))
		rdmachan_put(ch);
}

/**
 * rdmachan_teardown() - release the RDMA resources of a channel, once
 * @ch: the channel
 *
 * Stops the channel's builders and rdma_cm handler, disconnects, drains
 * the QP (so every receive that completed is queued for the reader), then
 * frees QP, CQ and DMA mappings, drops the device and hands the
 * rdma_cm_id to rdmachan_cm_destroy_work().  A channel still CONNECTED or
 * CONNECTING ends DISCONNECTED, and its user hears of it (state_change)
 * last, after every message that arrived was handed over.  Bounded: the
 * drain by RDMACHAN_DRAIN_TIMEOUT, the release by the provider.
 *
 * Context: process context; not from the channel's rdma_cm handler.
 */
void rdmachan_teardown(struct rdmachan *ch)
{
	struct rdmachan_listener *l;
	enum rdmachan_state state;
	unsigned long flags, next;
	bool writable, zc;

	mutex_lock(&ch->teardown_mutex);
	if (test_bit(RDMACHAN_F_TORN_DOWN, &ch->flags)) {
		mutex_unlock(&ch->teardown_mutex);
		return;
	}

	if (ch->conn.cm_id) {
		/* Wait out a running handler; later ones see the DYING bit */
		rdma_lock_handler(ch->conn.cm_id);
		set_bit(RDMACHAN_F_DYING, &ch->flags);
		rdma_unlock_handler(ch->conn.cm_id);
	} else {
		set_bit(RDMACHAN_F_DYING, &ch->flags);
	}
	cancel_delayed_work_sync(&ch->ctrl.keepalive_work);

	/* before the disconnect: its flushes are expected (rdmachan_wc_ok()) */
	spin_lock_irqsave(&ch->lock, flags);
	set_bit(RDMACHAN_F_IO_STOPPED, &ch->flags);
	zc = test_bit(RDMACHAN_F_ZC_SENT, &ch->flags);
	spin_unlock_irqrestore(&ch->lock, flags);
	/*
	 * A zero-copy sender that saw the I/O running may still map pages
	 * on the device and claim its slot: wait for it (an RCU read
	 * section), so that the orphans' pass below finds the slot.
	 */
	if (zc)
		synchronize_rcu();
	if (ch->conn.cm_id && ch->res.qp)
		rdma_disconnect(ch->conn.cm_id);
	/*
	 * A DIRECT channel's user may be polling right now: wait for it,
	 * and keep the bit, so that nobody polls during the drain (which
	 * polls a DIRECT CQ itself) or after the CQ is freed.
	 */
	next = jiffies + 10 * HZ;
	while (test_and_set_bit_lock(RDMACHAN_POLLING, &ch->poll.lock)) {
		usleep_range(50, 100);
		/* a poller's recv callback that does not return */
		if (time_after(jiffies, next)) {
			rdmachan_warn(ch,
				      "teardown still waits for a poller of the channel\n");
			next = jiffies + 10 * HZ;
		}
	}
	if (ch->res.qp)
		rdmachan_drain_qp(ch);

	rdmachan_release_resources(ch);
	/* SOLICITED: what arrived is the reader's now */
	rdmachan_rx_hand_over(ch);
	if (ch->conn.cm_id) {
		ch->conn.dying_id = ch->conn.cm_id;
		ch->conn.cm_id = NULL;
		rdmachan_get(ch);
		queue_work(rdmachan_wq, &ch->conn.destroy_work);
	}
	/*
	 * A connection not yet established leaves its listener; one waiting
	 * for accept stays queued, so that what it received before the peer
	 * went away is still read (then end of stream), as with sockets.
	 */
	spin_lock_irqsave(&ch->lock, flags);
	l = test_bit(RDMACHAN_F_ESTABLISHED, &ch->flags) ? NULL :
							   ch->listen.listener;
	if (l)
		rdmachan_listener_get(l);
	spin_unlock_irqrestore(&ch->lock, flags);
	if (l) {
		rdmachan_listener_drop(l, ch);
		rdmachan_listener_put(l);
	}

	/*
	 * The QP is drained, so a CLOSE the peer sent has been seen.  A
	 * disconnect without it means the peer failed (its device went
	 * away, its side of the transport broke), not that it closed.
	 */
	if (test_bit(RDMACHAN_F_PEER_CLOSED, &ch->flags) &&
	    !test_bit(RDMACHAN_F_PEER_SAID_CLOSE, &ch->flags)) {
		rdmachan_info_rl_addr(ch,
				      "peer disconnected without closing\n");
		rdmachan_set_failed(ch, -ECONNRESET);
	}
	rdmachan_set_disconnected(ch);
	set_bit(RDMACHAN_F_TORN_DOWN, &ch->flags);
	spin_lock_irqsave(&ch->lock, flags);
	state = ch->state;
	/* a refusal waiting for room learns that none will come */
	writable = rdmachan_writable_take_locked(ch);
	spin_unlock_irqrestore(&ch->lock, flags);
	mutex_unlock(&ch->teardown_mutex);

	if (writable)
		rdmachan_call_writable(ch);

	if (ch->ops && ch->ops->state_change)
		ch->ops->state_change(ch, state, ch->err);
}

/**
 * rdmachan_close() - disconnect and free a channel
 * @ch: the channel; not to be used after this
 *
 * Waits until the peer has acknowledged every message sent and the
 * CLOSE, at most the channel's timeout (opts.timeout_ms, both waits
 * together; a dead peer fails the channel sooner, at the transport's
 * retry limit; a fatal signal cuts it short), disconnects, and releases
 * everything.
 * No callback runs after this returns.
 *
 * Context: process context, sleeps.
 */
void rdmachan_close(struct rdmachan *ch)
{
	unsigned long deadline = jiffies + msecs_to_jiffies(ch->opts.timeout_ms);
	int ret;

	if (rdmachan_sysfs_del(&ch->obj))
		rdmachan_put(ch);	/* the directory's */
	/* one deadline for both: the flush and the CLOSE handshake */
	ret = rdmachan_flush_sends(ch, msecs_to_jiffies(ch->opts.timeout_ms));
	if (!ret)
		ret = rdmachan_say_close(ch, time_after(deadline, jiffies) ?
					 deadline - jiffies : 0);
	if (ret == -ETIMEDOUT)
		rdmachan_info_rl_addr(ch,
				      "the peer acknowledged nothing within %u ms of the close: tearing down\n",
				      ch->opts.timeout_ms);
	else if (ret)
		rdmachan_info_rl_addr(ch,
				      "closing task killed: tearing down without waiting for the peer\n");
	rdmachan_teardown(ch);
	if (cancel_work_sync(&ch->teardown_work))
		rdmachan_put(ch);
	/* it may be about to call ->writable: after the teardown it will not */
	flush_work(&ch->send.fill_work);
	rdmachan_put(ch);
}
EXPORT_SYMBOL_GPL(rdmachan_close);

/**
 * rdmachan_shutdown() - stop a channel's I/O now, without closing it
 * @ch: the channel
 *
 * Disconnects at once (no flush, no CLOSE handshake: the peer sees a
 * disconnect without a close), drains and destroys the QP, and releases
 * the channel's RDMA resources, as a failure of the channel would.  On
 * return no access of the peer can reach any memory the channel's
 * registrations covered, every pool registration put back before is
 * back (its callback has run), and any put from now on gives it back at
 * once; the state_change callback has run if the channel was connected.
 * What arrived before stays to be read.  The channel is still to be
 * closed with rdmachan_close() (after its pools are destroyed); calling
 * this again, or on a channel already down, does nothing.
 *
 * This is nvme-rdma's queue stop (rdma_disconnect() and ib_drain_qp())
 * for users that must end their requests early: drain first, then end
 * what was in flight.
 *
 * Context: process context, sleeps (bounded by the drain: the
 * transport's retry time at most); not from the channel's callbacks.
 */
void rdmachan_shutdown(struct rdmachan *ch)
{
	might_sleep();
	rdmachan_teardown(ch);
}
EXPORT_SYMBOL_GPL(rdmachan_shutdown);

/** rdmachan_get_state() - the channel's state, see enum rdmachan_state */
enum rdmachan_state rdmachan_get_state(struct rdmachan *ch)
{
	return READ_ONCE(ch->state);
}
EXPORT_SYMBOL_GPL(rdmachan_get_state);

/** rdmachan_get_poll_mode() - where the channel's completions are processed */
enum rdmachan_poll_mode rdmachan_get_poll_mode(struct rdmachan *ch)
{
	return ch->opts.poll_mode;
}
EXPORT_SYMBOL_GPL(rdmachan_get_poll_mode);

/** rdmachan_error() - why a FAILED channel failed (negative errno), or 0 */
int rdmachan_error(struct rdmachan *ch)
{
	return READ_ONCE(ch->err);
}
EXPORT_SYMBOL_GPL(rdmachan_error);

/** rdmachan_priv() - the pointer given at connect or accept */
void *rdmachan_priv(struct rdmachan *ch)
{
	return ch->priv;
}
EXPORT_SYMBOL_GPL(rdmachan_priv);

/**
 * rdmachan_chan_id() - the number of a channel's sysfs name
 * @ch: the channel
 *
 * For a user that shows which channel carries its object (a block
 * mapping's queue, an interface): /sys/class/rdmachan/chanN, and the
 * chanN its tracepoints name.
 *
 * Context: any.
 * Return: N.
 */
u32 rdmachan_chan_id(struct rdmachan *ch)
{
	return ch->obj.id;
}
EXPORT_SYMBOL_GPL(rdmachan_chan_id);

/**
 * rdmachan_qpn() - the number of a channel's RC queue pair
 * @ch: the channel
 *
 * With the channel's device, the lqpn of its line in `rdma res show qp`
 * and of its rdma_cm identifier's in `rdma res show cm_id`.
 *
 * Context: any.
 * Return: the number, 0 before the queue pair exists.
 */
u32 rdmachan_qpn(struct rdmachan *ch)
{
	return READ_ONCE(ch->res.qpn);
}
EXPORT_SYMBOL_GPL(rdmachan_qpn);

/** rdmachan_max_msg_size() - the negotiated largest message, in bytes */
u32 rdmachan_max_msg_size(struct rdmachan *ch)
{
	return ch->conn.params.max_msg_size;
}
EXPORT_SYMBOL_GPL(rdmachan_max_msg_size);

/** rdmachan_queue_depth() - the negotiated credits per direction */
u32 rdmachan_queue_depth(struct rdmachan *ch)
{
	return ch->conn.params.queue_depth;
}
EXPORT_SYMBOL_GPL(rdmachan_queue_depth);

/**
 * rdmachan_peer_addr() - the peer's address and port
 * @ch: the channel
 * @addr: out: the address
 *
 * Context: any.
 * Return: 0, or -ENOTCONN before the address is known (a connecting
 * channel still resolving).
 */
int rdmachan_peer_addr(struct rdmachan *ch, struct sockaddr_storage *addr)
{
	*addr = ch->conn.dst;
	return addr->ss_family == AF_UNSPEC ? -ENOTCONN : 0;
}
EXPORT_SYMBOL_GPL(rdmachan_peer_addr);

/**
 * rdmachan_local_addr() - the channel's own address and port
 * @ch: the channel
 * @addr: out: the address
 *
 * Context: any.
 * Return: 0, or -ENOTCONN before the address is known.
 */
int rdmachan_local_addr(struct rdmachan *ch, struct sockaddr_storage *addr)
{
	*addr = ch->conn.src;
	return addr->ss_family == AF_UNSPEC ? -ENOTCONN : 0;
}
EXPORT_SYMBOL_GPL(rdmachan_local_addr);

/**
 * rdmachan_max_reg_pages() - pages one registration of the channel spans
 *	at most
 * @ch: a connected channel
 *
 * What bounds rdmachan_mr_reg_*() and rdmachan_mr_pool_create(): the
 * device's fast-registration page-list limit and the max_mr_size module
 * parameter.  A block driver derives its largest request from it.
 *
 * Context: any.
 * Return: the number of PAGE_SIZE pages, 0 while the channel has no
 * RDMA resources.
 */
u32 rdmachan_max_reg_pages(struct rdmachan *ch)
{
	return READ_ONCE(ch->res.max_reg_pages);
}
EXPORT_SYMBOL_GPL(rdmachan_max_reg_pages);

/**
 * rdmachan_core_init() - set up what every channel shares
 *
 * Return: 0 or -ENOMEM.
 */
int rdmachan_core_init(void)
{
	rdmachan_wq = alloc_workqueue("rdmachan", WQ_MEM_RECLAIM | WQ_UNBOUND, 0);
	if (!rdmachan_wq)
		return -ENOMEM;
	rdmachan_accept_wq = alloc_workqueue("rdmachan_accept", WQ_UNBOUND, 0);
	if (!rdmachan_accept_wq) {
		destroy_workqueue(rdmachan_wq);
		return -ENOMEM;
	}
	return 0;
}

/**
 * rdmachan_core_exit() - undo rdmachan_core_init()
 */
void rdmachan_core_exit(void)
{
	destroy_workqueue(rdmachan_accept_wq);
	destroy_workqueue(rdmachan_wq);
}
