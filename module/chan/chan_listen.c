// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan: listeners - the passive side of channel setup
 *
 * A connect request is checked (magic, version, parameters, backlog); if
 * it passes, a channel is made for the request's rdma_cm_id with the
 * negotiated parameters and listed, and a worker builds it, posts its
 * receives and accepts (rdmachan_accept_work(): outside ib_cm's
 * workqueue, which runs the requests' handlers one at a time on a CPU, so
 * that requests are built side by side; rdma_cm answers a repeated
 * request with an MRA meanwhile).
 * When the connection is ESTABLISHED the channel moves to the ready list,
 * where rdmachan_accept() takes it.  A refused request gets an rdmachan
 * rejection with a reason and a log line.
 *
 * What a stranger can make a listener hold is bounded, the way rtrs-srv
 * bounds a session (its buffers are sized by module parameters, the cost
 * known before anything is allocated) and nvmet-rdma a queue (the
 * requested size is checked against a limit before the queue is built):
 * before anything is allocated, the memory the channel would take is
 * computed from the negotiated depth and message size, and the request is
 * refused (RDMACHAN_REJ_BUSY) when the channels not yet accepted, pending
 * and ready, would then hold more than the listener's budget
 * (listen_budget_kb), or when listen_max_connecting of them are still
 * being set up.  A peer that never completes its connection (no RTU) has
 * its channel dropped after the listener's timeout_ms.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/idr.h>
#include <linux/slab.h>
#include <net/net_namespace.h>
#include <rdma/ib_cm.h>

#include "rdmachan-pri.h"
#include "chan_mem.h"
#include "sysfs.h"
#include "uevent.h"
#include "bounds.h"
#include "device.h"
#include "params.h"

/*
 * Estimated memory of the provider's queues per work request or
 * completion entry (a send WQE with its gather list, a receive WQE, a CQE)
 */
#define RDMACHAN_WR_COST	256

static DEFINE_IDA(rdmachan_listener_ida);
static const struct rdmachan_dev_user_ops rdmachan_listener_dev_ops;

void rdmachan_listener_get(struct rdmachan_listener *l)
{
	kref_get(&l->obj.ref);
}

static void rdmachan_listener_release(struct kref *ref)
{
	struct rdmachan_listener *l =
		container_of(ref, struct rdmachan_listener, obj.ref);

	ida_free(&rdmachan_listener_ida, l->obj.id);
	mem_cgroup_put(l->memcg);
	kfree(l);
}

void rdmachan_listener_put(struct rdmachan_listener *l)
{
	kref_put(&l->obj.ref, rdmachan_listener_release);
}

static int rdmachan_reject(struct rdmachan_listener *l, struct rdma_cm_id *id,
			   enum rdmachan_rej_reason reason)
{
	struct rdmachan_wire_rej rej;

	atomic64_inc(&l->stats.rejected);
	rdmachan_info_rl(l, "rejecting %pISpc: %s\n", &id->route.addr.dst_addr,
			 rdmachan_rej_reason_str(reason));
	rdmachan_wire_rej_encode(&rej, reason);
	rdma_reject(id, &rej, sizeof(rej), IB_CM_REJ_CONSUMER_DEFINED);
	/* Non-zero: rdma_cm destroys the request's identifier */
	return 1;
}

/**
 * rdmachan_listener_chan_cost() - memory a passive channel will hold
 * @p: its negotiated parameters (the device may only lower the depth)
 * @max_send_regs: its &rdmachan_opts.max_send_regs (the listener's)
 * @rx_pages: its &rdmachan_opts.rx_pages (the listener's)
 * @frag_rx: its receive buffers will hold a fragment, whatever depth the
 *	device leaves (rdmachan_frag_fit() with the peer's F_FRAG)
 * @frag_tx: the peer's do: its send buffers hold one
 *
 * Buffers as rdmachan_chan_buf_bytes() counts them, their descriptors, the
 * channel and an estimate of the provider's queues: the work requests and
 * completion entries rdmachan_qp_sizes() gives them on a device without
 * limits,
 * the registration QP counted whatever the device (the worst case, rxe).
 * Charged to the listener's budget while the channel waits for
 * rdmachan_accept().
 *
 * Return: bytes.
 */
u64 rdmachan_listener_chan_cost(const struct rdmachan_conn_params *p,
				u32 max_send_regs, bool rx_pages, bool frag_rx,
				bool frag_tx)
{
	const struct rdmachan_qp_want want =
		rdmachan_qp_want(p->queue_depth, max_send_regs, true, U32_MAX);
	struct rdmachan_qp_sizes sz;
	u64 buf = rdmachan_chan_buf_bytes(RDMACHAN_HDR_LEN + p->max_msg_size +
					  RDMACHAN_IMM_TRAILER, rx_pages);
	u64 frag = rdmachan_chan_buf_bytes(RDMACHAN_FRAG_BUF, false);
	u64 entries;

	/* cannot fail without a device limit */
	if (WARN_ON_ONCE(rdmachan_qp_sizes(&want, &sz)))
		return U64_MAX;
	entries = (u64)sz.send_wr + sz.recv_wr + sz.cqe + sz.reg_wr +
		  sz.reg_cqe;
	return (u64)sz.recv_bufs * (frag_rx ? frag : buf) +
	       (u64)sz.depth * (frag_tx ? frag : buf) +
	       (u64)sz.recv_bufs * sizeof(struct rdmachan_rx) +
	       (u64)sz.depth * (sizeof(struct rdmachan_tx) +
				sizeof(struct rdmachan_tx_ext)) +
	       (u64)sz.depth * RDMACHAN_MAX_SGE * sizeof(struct ib_sge) +
	       RDMACHAN_CTRL_SLOTS * kmalloc_size_roundup(RDMACHAN_HDR_LEN) +
	       sizeof(struct rdmachan) + entries * RDMACHAN_WR_COST;
}

/* Undo what rdmachan_connect_request() reserved; @l->lock held. */
static void rdmachan_listener_unreserve(struct rdmachan_listener *l, u64 cost)
{
	lockdep_assert_held(&l->lock);
	l->queue.nr_pending--;
	l->queue.charged -= cost;
}

/* Arm the reaper of unfinished connections; @l->lock held. */
static void rdmachan_listener_arm_reaper(struct rdmachan_listener *l)
{
	struct rdmachan *first;
	unsigned long deadline;

	lockdep_assert_held(&l->lock);
	if (l->closing)
		return;
	first = list_first_entry_or_null(&l->queue.pending, struct rdmachan,
					 listen.node);
	if (!first)
		return;
	deadline = first->listen.since + msecs_to_jiffies(l->opts.timeout_ms);
	queue_delayed_work(rdmachan_wq, &l->reap_work,
			   time_after(deadline, jiffies) ? deadline - jiffies : 0);
}

/* CONNECT_REQUEST on the listening identifier: @id is the new one. */
static int rdmachan_connect_request(struct rdmachan_listener *l,
				    struct rdma_cm_id *id,
				    struct rdma_cm_event *ev)
{
	struct rdmachan_conn_params remote, local, params, fit;
	enum rdmachan_rej_reason reason;
	struct rdmachan *ch;
	unsigned long flags;
	bool frag_rx, frag_tx;
	u64 cost;

	reason = rdmachan_wire_conn_decode(ev->param.conn.private_data,
					   ev->param.conn.private_data_len,
					   &remote);
	if (reason)
		return rdmachan_reject(l, id, reason);
	/*
	 * Who the peer is, before anything is held for it: a peer the user
	 * does not admit never gets a channel, so none of its bytes and
	 * none of its connections reach the user.
	 */
	if (l->admit && l->admit(l, (struct sockaddr *)&id->route.addr.dst_addr)) {
		atomic64_inc(&l->stats.rejected_refused);
		return rdmachan_reject(l, id, RDMACHAN_REJ_REFUSED);
	}

	local.queue_depth = rdmachan_depth_cap(l->opts.queue_depth,
					       l->opts.max_msg_size,
					       l->opts.rx_pages);
	local.max_msg_size = l->opts.max_msg_size;
	/*
	 * every feature this side knows; the device may drop some, and
	 * F_FRAG is this side's to say (rdmachan_frag_setup())
	 */
	local.features = RDMACHAN_WIRE_F_KNOWN;
	rdmachan_negotiate(&local, &remote, RDMACHAN_MAX_DEPTH, &params);
	/* a version 5 peer's buffers hold a fragment: send it fragments */
	frag_tx = remote.version >= 5 &&
		  (remote.features & RDMACHAN_WIRE_F_FRAG);
	/*
	 * its buffers as they will be made (rdmachan_frag_setup()): small
	 * for sure where the peer's are, as the largest message then
	 * follows the depth the device leaves; else counted whole, as that
	 * depth may not hold the largest message's fragments
	 */
	fit = params;
	frag_rx = rdmachan_frag_fit(&fit, l->opts.rx_frags, frag_tx) &&
		  frag_tx;
	cost = rdmachan_listener_chan_cost(&fit, l->opts.max_send_regs,
					   l->opts.rx_pages, frag_rx, frag_tx);

	/* Reserve a place and the memory before anything is allocated */
	spin_lock_irqsave(&l->lock, flags);
	if (l->closing) {
		reason = RDMACHAN_REJ_CLOSING;
	} else if (l->queue.nr_pending + l->queue.nr_ready >= l->opts.backlog) {
		reason = RDMACHAN_REJ_BACKLOG;
	} else if (l->queue.nr_pending >= l->queue.max_connecting ||
		   cost > l->queue.budget - l->queue.charged) {
		reason = RDMACHAN_REJ_BUSY;
	} else {
		l->queue.nr_pending++;
		l->queue.charged += cost;
	}
	spin_unlock_irqrestore(&l->lock, flags);
	if (reason == RDMACHAN_REJ_BUSY) {
		atomic64_inc(&l->stats.rejected_busy);
		rdmachan_info_rl(l,
				 "%pISpc: %u connections being set up (max %u), %llu of %llu bytes held for unaccepted ones, %llu more asked\n",
				 &id->route.addr.dst_addr,
				 READ_ONCE(l->queue.nr_pending),
				 l->queue.max_connecting,
				 READ_ONCE(l->queue.charged), l->queue.budget,
				 cost);
	}
	if (reason)
		return rdmachan_reject(l, id, reason);

	ch = rdmachan_alloc(&l->opts, false, l->memcg);
	if (!ch) {
		spin_lock_irqsave(&l->lock, flags);
		rdmachan_listener_unreserve(l, cost);
		spin_unlock_irqrestore(&l->lock, flags);
		return rdmachan_reject(l, id, RDMACHAN_REJ_NO_RESOURCES);
	}
	ch->conn.local = local;
	ch->conn.params = params;
	/* its start grant, or from a version 3 peer the whole depth */
	ch->conn.grant_tx = remote.version >= 4 ? remote.grant :
			    params.queue_depth;
	ch->conn.frag_tx = frag_tx;
	memcpy(&ch->conn.src, &id->route.addr.src_addr, sizeof(ch->conn.src));
	memcpy(&ch->conn.dst, &id->route.addr.dst_addr, sizeof(ch->conn.dst));
	ch->conn.cm_id = id;
	/*
	 * Never more RDMA READs in flight towards the peer than it has
	 * responder resources for, nor more resources than it may use (the
	 * request's figures): a responder that runs out recycles the state
	 * of a READ still in flight, and the retransmission of that READ
	 * then finds nothing and breaks the connection.
	 */
	ch->listen.resp_res =
		rdmachan_rd_atom_answer(id->device->attrs.max_qp_rd_atom,
					ev->param.conn.initiator_depth);
	ch->listen.init_depth =
		rdmachan_rd_atom_answer(id->device->attrs.max_qp_init_rd_atom,
					ev->param.conn.responder_resources);

	/* the accept work's reference, taken before anyone can see it */
	rdmachan_get(ch);
	rdmachan_listener_get(l);
	ch->listen.listener = l;
	ch->listen.charge = cost;
	ch->listen.since = jiffies;
	spin_lock_irqsave(&l->lock, flags);
	list_add_tail(&ch->listen.node, &l->queue.pending);
	rdmachan_listener_arm_reaper(l);
	spin_unlock_irqrestore(&l->lock, flags);
	/* its events are the channel's from here (rdmachan_cm_handler()) */
	id->context = ch;
	/*
	 * The queues, buffers and accept are built by a worker, so that
	 * requests are built side by side and not one after another on
	 * ib_cm's workqueue; rdma_cm answers a repeated request with an MRA
	 * meanwhile.
	 */
	queue_work(rdmachan_accept_wq, &ch->listen.accept_work);
	return 0;
}

/* The queues, buffers and accept of a passive channel (handler mutex held) */
static int rdmachan_accept_build(struct rdmachan *ch, struct rdma_cm_id *id)
{
	struct rdmachan_wire_conn rep;
	struct rdma_conn_param param;
	int ret;

	ret = rdmachan_setup_resources(ch, id);
	if (!ret)
		ret = rdmachan_post_all_recvs(ch);
	if (ret) {
		rdmachan_info_rl(ch, "cannot set up a channel: %d\n", ret);
		rdmachan_reject(ch->listen.listener, id,
				RDMACHAN_REJ_NO_RESOURCES);
		return ret;
	}
	rdmachan_wire_conn_encode(&rep, &ch->conn.params);
	memset(&param, 0, sizeof(param));
	param.private_data = &rep;
	param.private_data_len = sizeof(rep);
	param.responder_resources = ch->listen.resp_res;
	param.initiator_depth = ch->listen.init_depth;
	param.flow_control = 1;
	param.retry_count = RDMACHAN_RETRY_COUNT;
	param.rnr_retry_count = RDMACHAN_RNR_RETRY;
	rdma_set_ack_timeout(id, rdmachan_param_ack_timeout());
	ret = rdma_accept(id, &param);
	if (ret)
		rdmachan_info_rl(ch, "accept failed: %d\n", ret);
	return ret;
}

/**
 * rdmachan_accept_work() - build and accept a passive channel
 * @work: &rdmachan_listen_entry.accept_work
 *
 * Through rdmachan_build(), as if in the rdma_cm handler: teardown, and
 * the identifier's events, wait for it.  A channel failed or torn down
 * meanwhile (its peer gave up, its device went, the listener closed, the
 * reaper dropped it) is left to its teardown; one that cannot be built or
 * accepted is refused and torn down, which takes it off its listener and
 * destroys its identifier.  Drops the reference its queuing took.
 */
void rdmachan_accept_work(struct work_struct *work)
{
	struct rdmachan *ch = container_of(work, struct rdmachan,
					   listen.accept_work);
	int ret = rdmachan_build(ch, rdmachan_accept_build);

	/* 1: failed meanwhile (REJ, removal), its teardown is scheduled */
	if (ret < 0) {
		rdmachan_set_failed(ch, ret);
		rdmachan_schedule_teardown(ch);
	}
	rdmachan_put(ch);
}

/* A listener failed: tell it, as its sysfs state says it; l->lock held */
static void rdmachan_listener_uevent(struct rdmachan_listener *l)
{
	rdmachan_uevent_dir(&l->obj.sysfs_dev,
			    "RDMACHAN_OBJ=listener RDMACHAN_EVENT=state RDMACHAN_STATE=failed RDMACHAN_ERROR=%d",
			    l->err);
}

/*
 * Drop the channels of @l's pending list whose peer did not complete the
 * connection (no RTU) within the listener's timeout_ms, so that a peer
 * that never finishes holds neither memory nor a connecting place for
 * longer.  Destroying the identifier rejects the connection.
 */
static void rdmachan_listener_reap(struct work_struct *work)
{
	struct rdmachan_listener *l = container_of(to_delayed_work(work),
						   struct rdmachan_listener,
						   reap_work);
	unsigned long timeout = msecs_to_jiffies(l->opts.timeout_ms);
	struct rdmachan *ch, *c;
	unsigned long flags;

	for (;;) {
		ch = NULL;
		spin_lock_irqsave(&l->lock, flags);
		list_for_each_entry(c, &l->queue.pending, listen.node) {
			if (time_after_eq(jiffies, c->listen.since + timeout)) {
				ch = c;
				rdmachan_get(ch);
				break;
			}
		}
		spin_unlock_irqrestore(&l->lock, flags);
		if (!ch)
			break;
		atomic64_inc(&l->stats.timed_out);
		rdmachan_info_rl(l,
				 "%pISpc did not complete its connection within %u ms: dropped\n",
				 &ch->conn.dst, l->opts.timeout_ms);
		/* teardown takes it off the list, unless it got established */
		rdmachan_teardown(ch);
		if (!test_bit(RDMACHAN_F_ESTABLISHED, &ch->flags))
			rdmachan_listener_drop(l, ch);
		rdmachan_put(ch);
	}
	spin_lock_irqsave(&l->lock, flags);
	rdmachan_listener_arm_reaper(l);
	spin_unlock_irqrestore(&l->lock, flags);
}

/**
 * rdmachan_listener_cm_handler() - rdma_cm events of a listening identifier
 * @id: the listening identifier, or for CONNECT_REQUEST the new one
 * @ev: the event
 *
 * Return: non-zero to have rdma_cm destroy a refused request's identifier.
 */
int rdmachan_listener_cm_handler(struct rdma_cm_id *id,
				 struct rdma_cm_event *ev)
{
	struct rdmachan_listener *l = id->context;
	unsigned long flags;

	rdmachan_dbg(l, "%s (status %d)\n", rdma_event_msg(ev->event),
		     ev->status);
	switch (ev->event) {
	case RDMA_CM_EVENT_CONNECT_REQUEST:
		return rdmachan_connect_request(l, id, ev);
	case RDMA_CM_EVENT_DEVICE_REMOVAL:
		/*
		 * Not seen in practice: rdmachan's ib_client registered after
		 * rdma_cm's, so it is removed first and stops the listener
		 * (rdmachan_listener_device_removed()) before rdma_cm gets
		 * here.  The identifier cannot be destroyed from its own
		 * handler: fail accept and poll, the user's close cleans up.
		 */
		spin_lock_irqsave(&l->lock, flags);
		if (!l->err) {
			l->err = -ENODEV;
			rdmachan_listener_uevent(l);
		}
		spin_unlock_irqrestore(&l->lock, flags);
		wake_up_all(&l->wq);
		return 0;
	default:
		return 0;
	}
}

/**
 * rdmachan_listener_established() - a pending channel is connected
 * @l: its listener
 * @ch: the channel
 */
void rdmachan_listener_established(struct rdmachan_listener *l,
				   struct rdmachan *ch)
{
	unsigned long flags;
	bool queued = false;

	spin_lock_irqsave(&l->lock, flags);
	if (!l->closing && !list_empty(&ch->listen.node)) {
		set_bit(RDMACHAN_F_ESTABLISHED, &ch->flags);
		list_move_tail(&ch->listen.node, &l->queue.ready);
		l->queue.nr_pending--;
		l->queue.nr_ready++;
		queued = true;
		/* counted before the unlock: close waits for it from here */
		if (l->notify)
			l->notifying++;
	}
	spin_unlock_irqrestore(&l->lock, flags);
	if (!queued)
		return;
	wake_up_all(&l->wq);
	if (!l->notify)
		return;
	/*
	 * The channel may be accepted meanwhile, dropping the reference it
	 * held on @l: @l lives on because close waits for @notifying
	 * to drop to zero, and the wake-up is made under the lock, so that
	 * the closer cannot free @l between the two.
	 */
	l->notify(l);
	spin_lock_irqsave(&l->lock, flags);
	if (!--l->notifying)
		wake_up_all(&l->wq);
	spin_unlock_irqrestore(&l->lock, flags);
}

static bool rdmachan_listener_quiet(struct rdmachan_listener *l)
{
	unsigned long flags;
	bool quiet;

	spin_lock_irqsave(&l->lock, flags);
	quiet = !l->failed_task && !l->notifying;
	spin_unlock_irqrestore(&l->lock, flags);
	return quiet;
}

/**
 * rdmachan_listener_drop() - take a channel off its listener's lists
 * @l: the listener
 * @ch: the channel; the listener's reference on it is dropped if it was
 *	still listed, and the channel's on the listener
 */
void rdmachan_listener_drop(struct rdmachan_listener *l, struct rdmachan *ch)
{
	unsigned long flags;
	bool listed = false;

	spin_lock_irqsave(&l->lock, flags);
	if (!list_empty(&ch->listen.node)) {
		if (test_bit(RDMACHAN_F_ESTABLISHED, &ch->flags))
			l->queue.nr_ready--;
		else
			l->queue.nr_pending--;
		l->queue.charged -= ch->listen.charge;
		list_del_init(&ch->listen.node);
		listed = true;
	}
	spin_unlock_irqrestore(&l->lock, flags);
	if (!listed)
		return;
	spin_lock_irqsave(&ch->lock, flags);
	ch->listen.listener = NULL;
	spin_unlock_irqrestore(&ch->lock, flags);
	rdmachan_listener_put(l);
	rdmachan_put(ch);
}

/**
 * rdmachan_listener_has_ready() - would rdmachan_accept() return at once?
 * @l: the listener
 *
 * Return: true when an established channel waits to be accepted.
 */
bool rdmachan_listener_has_ready(struct rdmachan_listener *l)
{
	unsigned long flags;
	bool ret;

	spin_lock_irqsave(&l->lock, flags);
	ret = l->queue.nr_ready || l->closing || l->err;
	spin_unlock_irqrestore(&l->lock, flags);
	return ret;
}

/**
 * rdmachan_listen_net() - rdmachan_listen() in a network namespace
 * @net: the namespace
 * @account: charge the listener, and what the channels it takes in
 *	allocate for themselves, to the calling process's memory cgroup (a
 *	/dev/rdmachan user's listener)
 * @addr: see rdmachan_listen()
 * @opts: see rdmachan_listen()
 * @ops: see rdmachan_listen_ops(), or NULL
 * @priv: see rdmachan_listen()
 * @lp: see rdmachan_listen()
 *
 * Context: process context.
 * Return: as rdmachan_listen().
 */
int rdmachan_listen_net(struct net *net, bool account,
			const struct sockaddr *addr,
			const struct rdmachan_opts *opts,
			const struct rdmachan_listener_ops *ops,
			void *priv, struct rdmachan_listener **lp)
{
	struct rdmachan_listener *l;
	struct rdma_cm_id *id;
	int ret;

	if (!addr || (addr->sa_family != AF_INET &&
		      addr->sa_family != AF_INET6))
		return -EAFNOSUPPORT;
	l = kzalloc(sizeof(*l), account ? GFP_KERNEL_ACCOUNT : GFP_KERNEL);
	if (!l)
		return -ENOMEM;
	ret = ida_alloc(&rdmachan_listener_ida, GFP_KERNEL);
	if (ret < 0) {
		kfree(l);
		return ret;
	}
	l->memcg = account ? rdmachan_memcg_caller() : NULL;
	l->obj.id = ret;
	l->obj.kind = RDMACHAN_OBJ_LISTENER;
	kref_init(&l->obj.ref);
	spin_lock_init(&l->lock);
	INIT_LIST_HEAD(&l->queue.pending);
	INIT_LIST_HEAD(&l->queue.ready);
	rdmachan_dev_user_init(&l->obj.dev_user, &rdmachan_listener_dev_ops);
	init_waitqueue_head(&l->wq);
	INIT_DELAYED_WORK(&l->reap_work, rdmachan_listener_reap);
	rdmachan_opts_fill(&l->opts, opts);
	l->queue.max_connecting = rdmachan_param_listen_max_connecting();
	l->queue.budget = rdmachan_param_listen_budget();
	if (ops) {
		l->notify = ops->pending;
		l->admit = ops->admit;
		l->failed = ops->failed;
	}
	l->priv = priv;
	ret = -EINVAL;
	if (l->opts.poll_mode > RDMACHAN_POLL_UNBOUND ||
	    l->opts.max_send_regs > RDMACHAN_MAX_SEND_REGS ||
	    (l->opts.rx_frags && l->opts.rx_pages))
		goto out_put;

	id = rdma_create_id(net, rdmachan_cm_handler, l, RDMA_PS_TCP,
			    IB_QPT_RC);
	if (IS_ERR(id)) {
		ret = PTR_ERR(id);
		goto out_put;
	}
	l->cm_id = id;
	rdma_set_ack_timeout(id, rdmachan_param_ack_timeout());
	ret = rdma_bind_addr(id, (struct sockaddr *)addr);
	if (ret)
		goto out_destroy;
	if (id->device && !rdmachan_device_attach(id->device, &l->obj.dev_user)) {
		ret = -ENODEV;
		goto out_destroy;
	}
	ret = rdma_listen(id, l->opts.backlog);
	if (ret)
		goto out_detach;
	memcpy(&l->addr, &id->route.addr.src_addr, sizeof(l->addr));
	rdmachan_sysfs_add(&l->obj);
	*lp = l;
	return 0;

out_detach:
	rdmachan_device_detach(&l->obj.dev_user);
out_destroy:
	rdma_destroy_id(id);
out_put:
	rdmachan_listener_put(l);
	return ret;
}

/**
 * rdmachan_listen() - accept channels on an address
 * @addr: IPv4 or IPv6 address and port; the any address listens on every
 *	RDMA device, a specific one on the device that has it
 * @opts: options for the channels accepted, or NULL for the defaults;
 *	@opts->backlog bounds connections not yet accepted
 * @pending: called (process context) when a connection is ready for
 *	rdmachan_accept(); may be NULL
 * @priv: the user's pointer, see rdmachan_listener_priv()
 * @lp: the listener, to be closed with rdmachan_listener_close()
 *
 * Connections not yet accepted are bounded by @opts->backlog, and what
 * they may hold by the module parameters listen_budget_kb (memory, read
 * now) and listen_max_connecting (being set up at a time): requests
 * beyond are rejected, and the peer's connect fails with -ENOBUFS.
 * A listener bound to a device's address stops when that device goes
 * away; to be told, use rdmachan_listen_ops().
 *
 * Context: process context.
 * Return: 0; -EADDRINUSE; -EADDRNOTAVAIL (no such local address);
 * -EAFNOSUPPORT; -ENODEV; -ENOMEM.
 */
int rdmachan_listen(const struct sockaddr *addr,
		    const struct rdmachan_opts *opts,
		    void (*pending)(struct rdmachan_listener *l),
		    void *priv, struct rdmachan_listener **lp)
{
	const struct rdmachan_listener_ops ops = { .pending = pending };

	return rdmachan_listen_net(&init_net, false, addr, opts, &ops, priv,
				   lp);
}
EXPORT_SYMBOL_GPL(rdmachan_listen);

/**
 * rdmachan_listen_ops() - rdmachan_listen() with every listener callback
 * @addr: see rdmachan_listen()
 * @opts: see rdmachan_listen()
 * @ops: the callbacks (copied), see struct rdmachan_listener_ops; NULL
 *	for none
 * @priv: see rdmachan_listen()
 * @lp: see rdmachan_listen()
 *
 * Context: process context.
 * Return: as rdmachan_listen().
 */
int rdmachan_listen_ops(const struct sockaddr *addr,
			const struct rdmachan_opts *opts,
			const struct rdmachan_listener_ops *ops, void *priv,
			struct rdmachan_listener **lp)
{
	return rdmachan_listen_net(&init_net, false, addr, opts, ops, priv,
				   lp);
}
EXPORT_SYMBOL_GPL(rdmachan_listen_ops);

/**
 * rdmachan_accept() - take an established channel from a listener
 * @l: the listener
 * @ops: the new channel's callbacks, or NULL
 * @priv: the new channel's user pointer
 * @flags: RDMACHAN_ACCEPT_NONBLOCK
 * @chp: the channel, to be closed with rdmachan_close()
 *
 * Messages that arrived before the accept are delivered (or left to
 * rdmachan_recv()) in order.
 *
 * Context: process context.
 * Return: 0; -EAGAIN; -ENODEV when the listener's device went away;
 * -EINVAL when the listener is closing; -ERESTARTSYS on a signal.
 */
int rdmachan_accept(struct rdmachan_listener *l,
		    const struct rdmachan_ops *ops, void *priv,
		    unsigned int flags, struct rdmachan **chp)
{
	struct rdmachan *ch;
	unsigned long irqflags;
	int ret;

	for (;;) {
		spin_lock_irqsave(&l->lock, irqflags);
		ch = list_first_entry_or_null(&l->queue.ready, struct rdmachan,
					      listen.node);
		if (ch) {
			list_del_init(&ch->listen.node);
			l->queue.nr_ready--;
			l->queue.charged -= ch->listen.charge;
		}
		ret = l->err ?: l->closing ? -EINVAL : 0;
		spin_unlock_irqrestore(&l->lock, irqflags);
		if (ch)
			break;
		if (ret)
			return ret;
		if (flags & RDMACHAN_ACCEPT_NONBLOCK)
			return -EAGAIN;
		ret = wait_event_interruptible(l->wq,
					       rdmachan_listener_has_ready(l));
		if (ret)
			return ret;
	}

	/*
	 * The directory before the callbacks: from the first one on, an
	 * in-kernel user may close the channel (a refused OPEN), before
	 * this returns, and rdmachan_close() deletes only a directory
	 * that is there
	 */
	rdmachan_sysfs_add(&ch->obj);
	spin_lock_irqsave(&ch->lock, irqflags);
	ch->ops = ops;
	ch->priv = priv;
	ch->listen.listener = NULL;
	spin_unlock_irqrestore(&ch->lock, irqflags);
	atomic64_inc(&l->stats.accepted);
	rdmachan_listener_put(l);
	rdmachan_deliver(ch);
	*chp = ch;
	return 0;
}
EXPORT_SYMBOL_GPL(rdmachan_accept);

static void rdmachan_listener_stop(struct rdmachan_listener *l, int err)
{
	struct rdmachan *ch;
	unsigned long flags;
	struct rdma_cm_id *id;

	spin_lock_irqsave(&l->lock, flags);
	l->closing = true;
	if (err && !l->err) {
		l->err = err;
		rdmachan_listener_uevent(l);
	}
	id = l->cm_id;
	l->cm_id = NULL;
	spin_unlock_irqrestore(&l->lock, flags);
	wake_up_all(&l->wq);
	if (id)
		rdma_destroy_id(id);
	rdmachan_device_detach(&l->obj.dev_user);
	/* @closing is set: nothing arms the reaper again */
	cancel_delayed_work_sync(&l->reap_work);

	/* Close every channel not yet accepted */
	for (;;) {
		spin_lock_irqsave(&l->lock, flags);
		ch = list_first_entry_or_null(&l->queue.ready, struct rdmachan,
					      listen.node);
		if (!ch)
			ch = list_first_entry_or_null(&l->queue.pending,
						      struct rdmachan,
						      listen.node);
		if (ch)
			rdmachan_get(ch);
		spin_unlock_irqrestore(&l->lock, flags);
		if (!ch)
			break;
		rdmachan_teardown(ch);
		rdmachan_listener_drop(l, ch);
		rdmachan_put(ch);
	}
}

static struct rdmachan_listener *
rdmachan_listener_of_dev_user(struct rdmachan_dev_user *u)
{
	return container_of(u, struct rdmachan_listener, obj.dev_user);
}

static void rdmachan_listener_dev_user_get(struct rdmachan_dev_user *u)
{
	rdmachan_listener_get(rdmachan_listener_of_dev_user(u));
}

static void rdmachan_listener_dev_user_put(struct rdmachan_dev_user *u)
{
	rdmachan_listener_put(rdmachan_listener_of_dev_user(u));
}

/*
 * The device of the listener's address goes away: the listener stops
 * (which detaches it) and tells its user.  Process context.
 */
static void rdmachan_listener_device_removed(struct rdmachan_dev_user *u)
{
	struct rdmachan_listener *l = rdmachan_listener_of_dev_user(u);
	void (*failed)(struct rdmachan_listener *l, int err) = NULL;
	unsigned long flags;
	int err;

	rdmachan_info_addr(l, "device removed\n");
	rdmachan_listener_stop(l, -ENODEV);

	/* Tell the user once, unless it closed the listener meanwhile */
	spin_lock_irqsave(&l->lock, flags);
	if (!l->failure_told && l->failed) {
		l->failure_told = true;
		l->failed_task = current;
		failed = l->failed;
	}
	err = l->err;
	spin_unlock_irqrestore(&l->lock, flags);
	if (!failed)
		return;
	failed(l, err);
	spin_lock_irqsave(&l->lock, flags);
	l->failed_task = NULL;
	spin_unlock_irqrestore(&l->lock, flags);
	wake_up_all(&l->wq);
}

/* What the device layer does to a listener bound to it: after channels */
static const struct rdmachan_dev_user_ops rdmachan_listener_dev_ops = {
	.get		= rdmachan_listener_dev_user_get,
	.put		= rdmachan_listener_dev_user_put,
	.device_removed	= rdmachan_listener_device_removed,
	.removed_last	= true,
};

/**
 * rdmachan_listener_close() - stop listening and free a listener
 * @l: the listener; connections not yet accepted are closed
 *
 * Context: process context.
 */
void rdmachan_listener_close(struct rdmachan_listener *l)
{
	struct task_struct *running;
	unsigned long flags;

	if (rdmachan_sysfs_del(&l->obj))
		rdmachan_listener_put(l);	/* the directory's */
	rdmachan_listener_stop(l, 0);
	/*
	 * No callback after this returns: a later one is off (@closing is
	 * set, and the failure is told), a running one is waited for: a
	 * pending callback (it may be accepting on @l), a failed one (it is
	 * short: it must not block) unless it is this very call.  Both may
	 * be module text of a user that is unloading.
	 */
	spin_lock_irqsave(&l->lock, flags);
	l->failure_told = true;
	running = l->failed_task;
	spin_unlock_irqrestore(&l->lock, flags);
	if (running == current)
		wait_event(l->wq, !READ_ONCE(l->notifying));
	else
		wait_event(l->wq, rdmachan_listener_quiet(l));
	rdmachan_listener_put(l);
}
EXPORT_SYMBOL_GPL(rdmachan_listener_close);

/**
 * rdmachan_listener_priv() - the pointer given to rdmachan_listen()
 * @l: the listener
 *
 * Context: any.
 * Return: that pointer.
 */
void *rdmachan_listener_priv(struct rdmachan_listener *l)
{
	return l->priv;
}
EXPORT_SYMBOL_GPL(rdmachan_listener_priv);
