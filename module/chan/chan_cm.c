// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan: connection management of channels through rdma_cm
 *
 * Active side: resolve address, resolve route, build QP and buffers,
 * post receives, connect with our offer as private data; ESTABLISHED
 * carries the negotiated parameters back.  The connecting thread builds
 * (rdmachan_routed()), not the handler, which rdma_cm runs for every
 * connection of the host on one ordered worker.  The passive side is in
 * chan_listen.c.  Every rdma_cm event of an established channel ends here
 * too: disconnection, failures, device removal, address change.
 *
 * The handler never destroys its own rdma_cm_id: teardown is scheduled
 * on a workqueue, and teardown stops the handler (rdma_lock_handler and
 * RDMACHAN_F_DYING) before it destroys anything.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/inet.h>
#include <linux/sched/signal.h>
#include <net/net_namespace.h>

#include "bounds.h"
#include "rdmachan-pri.h"
#include "chan_trace.h"
#include "chan_frag.h"
#include "chan_mem.h"
#include "chan_sbuf.h"
#include "sysfs.h"
#include "device.h"
#include "params.h"

static void rdmachan_cm_fail(struct rdmachan *ch, int err, const char *what,
			     int status)
{
	rdmachan_info_rl_addr(ch, "%s (status %d)\n", what, status);
	rdmachan_set_failed(ch, err);
	complete(&ch->conn.done);
	/*
	 * A passive channel not yet accepted has no rdmachan_connect()
	 * waiting to tear it down: its peer gave up (REJ) or never answered
	 * our REP.  Teardown takes it off its listener.
	 */
	if (!ch->conn.active)
		rdmachan_schedule_teardown(ch);
}

/**
 * rdmachan_conn_param() - connect/accept parameters of a channel
 * @ch: the channel, with a QP
 * @pd: its private data
 * @pd_len: length of @pd
 * @param: the result
 */
static void rdmachan_conn_param(struct rdmachan *ch, const void *pd,
				u8 pd_len, struct rdma_conn_param *param)
{
	const struct ib_device_attr *a = &ch->conn.cm_id->device->attrs;

	memset(param, 0, sizeof(*param));
	param->private_data = pd;
	param->private_data_len = pd_len;
	param->responder_resources = rdmachan_rd_atom_answer(a->max_qp_rd_atom,
							     U8_MAX);
	param->initiator_depth = rdmachan_rd_atom_answer(a->max_qp_init_rd_atom,
							 U8_MAX);
	param->flow_control = 1;
	param->retry_count = RDMACHAN_RETRY_COUNT;
	param->rnr_retry_count = RDMACHAN_RNR_RETRY;
}

/* The route is resolved: build everything and send the connect request. */
static int rdmachan_route_resolved(struct rdmachan *ch)
{
	struct rdmachan_wire_conn req;
	struct rdma_conn_param param;
	int ret;

	ch->conn.params.queue_depth = rdmachan_depth_cap(ch->opts.queue_depth,
							 ch->opts.max_msg_size,
							 ch->opts.rx_pages);
	ch->conn.params.max_msg_size = ch->opts.max_msg_size;
	ch->conn.params.version = RDMACHAN_WIRE_VERSION;
	ch->conn.params.features = (rdmachan_param_imm_header() ?
				    RDMACHAN_WIRE_F_HDR_IMM : 0) |
				   RDMACHAN_WIRE_F_SEND_INV |
				   RDMACHAN_WIRE_F_GROW |
				   RDMACHAN_WIRE_F_IMM_CREDIT;
	ret = rdmachan_setup_resources(ch, ch->conn.cm_id);
	if (ret)
		return ret;
	ch->conn.local = ch->conn.params;
	ret = rdmachan_post_all_recvs(ch);
	if (ret)
		return ret;

	rdmachan_wire_conn_encode(&req, &ch->conn.local);
	rdmachan_conn_param(ch, &req, sizeof(req), &param);
	return rdma_connect_locked(ch->conn.cm_id, &param);
}

/* ESTABLISHED on the active side: adopt what the passive side decided. */
static int rdmachan_active_established(struct rdmachan *ch,
				       struct rdma_cm_event *ev)
{
	struct rdmachan_conn_params p;
	int ret;

	if (rdmachan_wire_conn_decode(ev->param.conn.private_data,
				      ev->param.conn.private_data_len, &p))
		return -EPROTO;
	if (p.queue_depth > ch->conn.local.queue_depth ||
	    p.max_msg_size > ch->conn.local.max_msg_size ||
	    p.version != ch->conn.local.version)
		return -EPROTO;
	/*
	 * Only offered features may come back, and HDR_IMM must: receives
	 * are parsed in the offered format from the moment they complete.
	 * F_FRAG is the passive side's to say (its buffers' size).
	 */
	if ((p.features &
	     ~(ch->conn.local.features | RDMACHAN_WIRE_F_FRAG)) ||
	    ((p.features ^ ch->conn.local.features) &
	     RDMACHAN_WIRE_F_HDR_IMM)) {
		rdmachan_info_rl(ch, "peer answered features %#llx to %#llx\n",
				 p.features, ch->conn.local.features);
		return -EPROTO;
	}
	/* fragments, either way: the depth must hold the largest message's */
	if ((ch->conn.frag_rx || (p.features & RDMACHAN_WIRE_F_FRAG)) &&
	    p.queue_depth < rdmachan_frag_count(p.max_msg_size)) {
		rdmachan_info_rl(ch, "peer answered depth %u for messages of %u in fragments\n",
				 p.queue_depth, p.max_msg_size);
		return -EPROTO;
	}
	ch->conn.params = p;
	ch->conn.grant_tx = p.grant;
	if (p.features & RDMACHAN_WIRE_F_FRAG)
		rdmachan_frag_adopt(ch);
	/*
	 * Now that their size is known (rdmachan_alloc_buffers()): a 4 KiB
	 * fragment's by default; a largest message's where the peer takes
	 * whole ones (kernel users' channels, a few a host)
	 */
	ret = rdmachan_sbuf_reserve(ch);
	if (ret) {
		if (ch->memcg)
			rdmachan_info_rl(ch,
					 "no memory for a send buffer after %ld bytes: its maker's memory cgroup may be at its limit\n",
					 atomic_long_read(&ch->mem));
		return ret;
	}
	rdmachan_start_io(ch);
	return 0;
}

static int rdmachan_rejected(struct rdmachan *ch, struct rdma_cm_event *ev)
{
	const void *data;
	u8 len = 0;
	int reason;

	data = rdma_consumer_reject_data(ch->conn.cm_id, ev, &len);
	reason = rdmachan_wire_rej_decode(data, len);
	rdmachan_info_rl(ch, "connection to %pISpc rejected: %s (%s)\n",
			 &ch->conn.dst, rdmachan_rej_reason_str(reason),
			 rdma_reject_msg(ch->conn.cm_id, ev->status));
	switch (reason) {
	case RDMACHAN_REJ_NO_RESOURCES:
		return -ENOMEM;
	case RDMACHAN_REJ_BAD_VERSION:
		return -EPROTONOSUPPORT;
	case RDMACHAN_REJ_BAD_MAGIC:
	case RDMACHAN_REJ_BAD_PARAMS:
		return -EPROTO;
	case RDMACHAN_REJ_BUSY:
		return -ENOBUFS;
	case RDMACHAN_REJ_REFUSED:
		return -EACCES;
	default:	/* no listener, backlog full, listener closing */
		return -ECONNREFUSED;
	}
}

/**
 * rdmachan_cm_handler() - rdma_cm events of a channel's rdma_cm_id
 * @id: the identifier; id->context is the channel (or, for a listening
 *	identifier, the listener: both start with struct rdmachan_obj)
 * @ev: the event
 *
 * Context: process context, with the identifier's handler mutex held.
 * Return: 0; a channel's identifier is destroyed by teardown, never by
 * returning non-zero.
 */
int rdmachan_cm_handler(struct rdma_cm_id *id, struct rdma_cm_event *ev)
{
	struct rdmachan_obj *obj = id->context;
	struct rdmachan *ch;
	int ret;

	if (obj->kind == RDMACHAN_OBJ_LISTENER)
		return rdmachan_listener_cm_handler(id, ev);
	ch = container_of(obj, struct rdmachan, obj);
	trace_rdmachan_chan_cm(obj->id, READ_ONCE(ch->res.qpn), ev->event,
			       ev->status);
	rdmachan_dbg(ch, "%s (status %d)%s\n", rdma_event_msg(ev->event),
		     ev->status, test_bit(RDMACHAN_F_DYING, &ch->flags) ?
		     ", ignored: closing" : "");
	if (test_bit(RDMACHAN_F_DYING, &ch->flags))
		return 0;

	switch (ev->event) {
	case RDMA_CM_EVENT_ADDR_RESOLVED:
		ret = rdma_resolve_route(id, ch->opts.timeout_ms);
		if (ret)
			rdmachan_cm_fail(ch, ret, "route resolution", ret);
		break;
	case RDMA_CM_EVENT_ROUTE_RESOLVED:
		/*
		 * The connecting thread builds the channel (rdmachan_routed()),
		 * not rdma_cm's one worker, so that connects run side by side
		 */
		set_bit(RDMACHAN_F_ROUTED, &ch->flags);
		wake_up_all(&ch->wq);
		break;
	case RDMA_CM_EVENT_ESTABLISHED:
		if (!ch->conn.active) {
			rdmachan_start_io(ch);
			rdmachan_listener_established(ch->listen.listener, ch);
			break;
		}
		ret = rdmachan_active_established(ch, ev);
		if (ret) {
			rdmachan_cm_fail(ch, ret, ret == -ENOMEM ?
					 "no memory for the connection" :
					 "bad connect reply", ret);
			rdmachan_schedule_teardown(ch);
			break;
		}
		complete(&ch->conn.done);
		break;
	case RDMA_CM_EVENT_REJECTED:
		rdmachan_cm_fail(ch, rdmachan_rejected(ch, ev), "rejected",
				 ev->status);
		break;
	case RDMA_CM_EVENT_ADDR_ERROR:
		rdmachan_cm_fail(ch, ev->status < 0 ? ev->status : -EHOSTUNREACH,
				 "address resolution failed", ev->status);
		break;
	case RDMA_CM_EVENT_ROUTE_ERROR:
		rdmachan_cm_fail(ch, ev->status < 0 ? ev->status : -ENETUNREACH,
				 "route resolution failed", ev->status);
		break;
	case RDMA_CM_EVENT_UNREACHABLE:
		if (rdmachan_get_state(ch) == RDMACHAN_CONNECTED) {
			/* a CM exchange with the connected peer timed out */
			rdmachan_cm_fail(ch, -ECONNRESET, "peer lost",
					 ev->status);
			rdmachan_schedule_teardown(ch);
			break;
		}
		rdmachan_cm_fail(ch, ev->status == -ETIMEDOUT ? -ETIMEDOUT :
				 -EHOSTUNREACH, "peer unreachable", ev->status);
		break;
	case RDMA_CM_EVENT_CONNECT_ERROR:
		rdmachan_cm_fail(ch, -ECONNRESET, "connection error",
				 ev->status);
		rdmachan_schedule_teardown(ch);
		break;
	case RDMA_CM_EVENT_DISCONNECTED:
		/*
		 * A peer that got our accept may send, close and disconnect
		 * before ESTABLISHED reaches us (its RTU overtaken or lost):
		 * the connection was established all the same, and what it
		 * sent is to be read.
		 */
		if (!ch->conn.active && ch->listen.listener &&
		    !test_bit(RDMACHAN_F_ESTABLISHED, &ch->flags)) {
			rdmachan_start_io(ch);
			rdmachan_listener_established(ch->listen.listener, ch);
		}
		/* Teardown drains what arrived first, then says DISCONNECTED */
		set_bit(RDMACHAN_F_PEER_CLOSED, &ch->flags);
		complete(&ch->conn.done);
		rdmachan_schedule_teardown(ch);
		break;
	case RDMA_CM_EVENT_DEVICE_REMOVAL:
		rdmachan_cm_fail(ch, -ENODEV, "device removed", 0);
		rdmachan_schedule_teardown(ch);
		break;
	case RDMA_CM_EVENT_ADDR_CHANGE:
		rdmachan_cm_fail(ch, -ENETRESET, "local address changed", 0);
		rdmachan_schedule_teardown(ch);
		break;
	case RDMA_CM_EVENT_TIMEWAIT_EXIT:
		break;
	default:
		rdmachan_dbg(ch, "ignoring %s\n", rdma_event_msg(ev->event));
		break;
	}
	return 0;
}

static bool rdmachan_connect_ended(struct rdmachan *ch)
{
	return ch->state != RDMACHAN_CONNECTING;
}

static bool rdmachan_connect_routed(struct rdmachan *ch)
{
	return rdmachan_connect_ended(ch) ||
	       test_bit(RDMACHAN_F_ROUTED, &ch->flags);
}

/* The route is resolved: the connecting thread builds (rdmachan_build()) */
static int rdmachan_connect_build(struct rdmachan *ch, struct rdma_cm_id *id)
{
	int ret = rdmachan_route_resolved(ch);

	if (ret)
		rdmachan_cm_fail(ch, ret, "connect", ret);
	return ret;
}

/*
 * The connecting thread, once the route is resolved: build the channel and
 * send the request.  Return: 0, or the error that ends the connect.
 */
static int rdmachan_routed(struct rdmachan *ch)
{
	int ret = rdmachan_build(ch, rdmachan_connect_build);

	/* failed meanwhile (removal, address change): that reason */
	if (ret == 1)
		ret = READ_ONCE(ch->err) ?: -ECONNRESET;
	return ret;
}

/**
 * rdmachan_connect_net() - rdmachan_connect() in a network namespace
 * @net: the namespace addresses are resolved in
 * @account: charge what the channel allocates for itself to the calling
 *	process's memory cgroup (a /dev/rdmachan user's channel)
 * @dst: the peer's address and port
 * @src: a local address to connect from, or NULL
 * @opts: options, or NULL for the module defaults
 * @ops: callbacks, or NULL
 * @priv: the user's pointer, see rdmachan_priv()
 * @chp: the connected channel
 *
 * Return: as rdmachan_connect().
 */
int rdmachan_connect_net(struct net *net, bool account,
			 const struct sockaddr *dst,
			 const struct sockaddr *src,
			 const struct rdmachan_opts *opts,
			 const struct rdmachan_ops *ops, void *priv,
			 struct rdmachan **chp)
{
	struct rdmachan_opts o;
	struct mem_cgroup *memcg;
	struct rdma_cm_id *id;
	unsigned long deadline;
	struct rdmachan *ch;
	long left;
	int ret;

	if (!dst || (dst->sa_family != AF_INET && dst->sa_family != AF_INET6))
		return -EAFNOSUPPORT;
	if (src && src->sa_family != AF_UNSPEC && src->sa_family != dst->sa_family)
		return -EINVAL;
	rdmachan_opts_fill(&o, opts);
	if (o.poll_mode > RDMACHAN_POLL_UNBOUND ||
	    o.max_send_regs > RDMACHAN_MAX_SEND_REGS ||
	    (o.rx_frags && o.rx_pages))
		return -EINVAL;

	memcg = account ? rdmachan_memcg_caller() : NULL;
	ch = rdmachan_alloc(&o, true, memcg);
	mem_cgroup_put(memcg);
	if (!ch)
		return -ENOMEM;
	ch->ops = ops;
	ch->priv = priv;
	memcpy(&ch->conn.dst, dst, dst->sa_family == AF_INET ?
	       sizeof(struct sockaddr_in) : sizeof(struct sockaddr_in6));

	id = rdma_create_id(net, rdmachan_cm_handler, ch, RDMA_PS_TCP,
			    IB_QPT_RC);
	if (IS_ERR(id)) {
		ret = PTR_ERR(id);
		goto out_put;
	}
	ch->conn.cm_id = id;
	rdma_set_ack_timeout(id, rdmachan_param_ack_timeout());

	deadline = jiffies + msecs_to_jiffies(o.timeout_ms);
	ret = rdma_resolve_addr(id, src && src->sa_family ?
				(struct sockaddr *)src : NULL,
				(struct sockaddr *)dst, o.timeout_ms);
	if (ret)
		goto out_close;

	left = wait_event_interruptible_timeout(ch->wq,
						rdmachan_connect_routed(ch),
						msecs_to_jiffies(o.timeout_ms));
	if (left > 0 && !rdmachan_connect_ended(ch)) {
		ret = rdmachan_routed(ch);
		if (ret)
			goto out_close;
		/* what is left of the timeout after the build */
		left = wait_event_interruptible_timeout(ch->wq,
							rdmachan_connect_ended(ch),
							max_t(long, deadline - jiffies, 1));
	}
	if (left < 0) {
		ret = left;
		goto out_close;
	}
	if (!left) {
		rdmachan_info_rl(ch, "connect to %pISpc timed out\n",
				 &ch->conn.dst);
		ret = -ETIMEDOUT;
		goto out_close;
	}
	if (ch->state != RDMACHAN_CONNECTED) {
		ret = ch->err ?: -ECONNRESET;
		goto out_close;
	}
	memcpy(&ch->conn.src, &id->route.addr.src_addr, sizeof(ch->conn.src));
	rdmachan_sysfs_add(&ch->obj);
	*chp = ch;
	return 0;

out_close:
	rdmachan_set_failed(ch, ret);
	rdmachan_teardown(ch);
out_put:
	rdmachan_put(ch);
	return ret;
}

/**
 * rdmachan_connect() - open a channel to a listening peer
 * @dst: the peer's IPv4 or IPv6 address and port
 * @src: a local address to connect from, or NULL for any
 * @opts: options, or NULL for the module defaults
 * @ops: callbacks, or NULL (then pull messages with rdmachan_recv())
 * @priv: the user's pointer, see rdmachan_priv()
 * @chp: the connected channel, to be closed with rdmachan_close()
 *
 * Resolves the address and route, connects and waits, at most
 * @opts->timeout_ms, until the channel is established.  Messages may
 * reach &rdmachan_ops.recv before this returns.
 *
 * Context: process context, sleeps.
 * Return: 0; -ETIMEDOUT; -ECONNREFUSED (no listener, backlog full or
 * listener closing); -ENOBUFS (the listener's budget for connections not
 * yet accepted is spent, try again later); -EHOSTUNREACH or
 * -ENETUNREACH; -ENODEV (no RDMA
 * device for the route); -ENOMEM (also when the peer lacked resources);
 * -ENFILE (soft-RoCE could not make its QP's kernel socket);
 * -EPROTONOSUPPORT (the peer speaks another protocol version); -EPROTO
 * (the peer refused our parameters or is not rdmachan); -EINTR or
 * -ERESTARTSYS on a signal.
 */
int rdmachan_connect(const struct sockaddr *dst, const struct sockaddr *src,
		     const struct rdmachan_opts *opts,
		     const struct rdmachan_ops *ops, void *priv,
		     struct rdmachan **chp)
{
	return rdmachan_connect_net(&init_net, false, dst, src, opts, ops, priv,
				    chp);
}
EXPORT_SYMBOL_GPL(rdmachan_connect);
