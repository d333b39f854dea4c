// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan_net: the link (connect, accept, reconnect)
 *
 * Link: carrier on only while a channel is installed and connected.  A
 * failed channel (state_change) or, on a LISTEN device, a new connection
 * from the peer while ours still looks alive (it reconnected: ours is
 * dead and does not know yet) queues loss_work: carrier off, the channel
 * detached and closed, rdmachan_reconnect_lost().  The core's loop then
 * runs rcnet_attempt() with backoff: CONNECT connects again; LISTEN
 * accepts what is pending (the listener's pending callback kicks the
 * loop, from a work item), listening again first when the listener's
 * device went away.
 * The first connection is made the same way: a new device reports
 * itself lost (-ENOTCONN) and kicks the loop.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/etherdevice.h>
#include <linux/if_arp.h>
#include <linux/inet.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/ip.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "compat.h"
#include "net.h"
#include "net_check.h"

/* ---- the link ------------------------------------------------------ */

/**
 * rcnet_carrier() - carrier on or off, each change told once
 * @net: the device
 * @on: the new carrier
 *
 * The channel's failure and the detach that follows both turn the
 * carrier off; the flag makes one uevent of it (RDMACHAN_EVENT=carrier,
 * Documentation/debugging.rst, "Events").
 *
 * Context: any.
 */
void rcnet_carrier(struct rcnet *net, bool on)
{
	if (on) {
		netif_carrier_on(net->ndev);
		if (test_and_set_bit(RCNET_F_CARRIER, &net->flags))
			return;
	} else {
		netif_carrier_off(net->ndev);
		if (!test_and_clear_bit(RCNET_F_CARRIER, &net->flags))
			return;
	}
	rdmachan_uevent(&net->ndev->dev,
			"RDMACHAN_OBJ=net RDMACHAN_EVENT=carrier RDMACHAN_CARRIER=%s",
			on ? "on" : "off");
}

/*
 * Take the channel away from the data path and close it; @abrupt: it
 * failed (or is replaced), do not flush.  Under net->lock.
 */
void rcnet_detach(struct rcnet *net, bool abrupt)
{
	struct rdmachan *ch = net->ch;

	lockdep_assert_held(&net->lock);
	if (!ch)
		return;
	rcnet_carrier(net, false);
	netif_tx_lock_bh(net->ndev);
	WRITE_ONCE(net->ch, NULL);
	netif_tx_unlock_bh(net->ndev);
	spin_lock_bh(&net->info_lock);
	memset(&net->peer, 0, sizeof(net->peer));
	spin_unlock_bh(&net->info_lock);
	/* its callbacks see net->ch != ch from here: they do nothing */
	if (abrupt)
		rdmachan_shutdown(ch);
	rdmachan_close(ch);
}

/*
 * Put a new channel on the data path, carrier on.  Under net->lock.
 * Return: 0, or why the channel is not usable (it is closed then).
 */
static int rcnet_install(struct rcnet *net, struct rdmachan *ch)
{
	struct net_device *ndev = net->ndev;
	u32 max = rdmachan_max_msg_size(ch);
	struct sockaddr_storage peer = {};
	int err;

	lockdep_assert_held(&net->lock);
	if (test_bit(RCNET_F_DELETING, &net->flags)) {
		rdmachan_shutdown(ch);
		rdmachan_close(ch);
		return -ESHUTDOWN;
	}
	if (max < RCNET_MIN_MSG) {
		netdev_err(ndev, "the channel's messages are too small for IP (%u bytes)\n",
			   max);
		rdmachan_shutdown(ch);
		rdmachan_close(ch);
		return -EPROTO;
	}
	if (max < READ_ONCE(ndev->mtu))
		netdev_warn(ndev, "the peer's messages are smaller than the MTU: packets over %u bytes are dropped (lower the MTU)\n",
			    max);
	rdmachan_peer_addr(ch, &peer);
	spin_lock_bh(&net->info_lock);
	net->peer = peer;
	net->max_msg = max;
	net->depth = rdmachan_queue_depth(ch);
	spin_unlock_bh(&net->info_lock);

	netif_tx_lock_bh(ndev);
	WRITE_ONCE(net->ch, ch);
	netif_tx_unlock_bh(ndev);
	smp_mb();	/* net->ch before the state: rcnet_ch_state() */
	if (rdmachan_get_state(ch) != RDMACHAN_CONNECTED) {
		err = rdmachan_error(ch) ?: -ECONNRESET;
		rcnet_detach(net, true);
		return err;
	}
	if (test_and_set_bit(RCNET_F_WAS_UP, &net->flags))
		atomic64_inc(&net->reconnects);
	rcnet_carrier(net, true);
	if (netif_running(ndev))
		netif_wake_queue(ndev);
	netdev_info(ndev, "connected to %pISpc: messages of %u bytes, depth %u\n",
		    &peer, max, net->depth);
	return 0;
}

/*
 * LISTEN: is @peer this device's peer?  Without --peer the first one
 * admitted is pinned, here, so that two hosts never both get a channel.
 */
static bool rcnet_peer_pin(struct rcnet *net,
			   const struct sockaddr_storage *peer)
{
	bool ok;

	spin_lock_bh(&net->info_lock);
	if (net->src.ss_family == AF_UNSPEC)
		net->src = *peer;
	ok = rcnet_same_host(peer, &net->src);
	spin_unlock_bh(&net->info_lock);
	return ok;
}

/* A second check of an accepted channel (admission made the first) */
static bool rcnet_peer_ok(struct rcnet *net, struct rdmachan *ch)
{
	struct sockaddr_storage peer = {};

	if (rdmachan_peer_addr(ch, &peer))
		return false;
	return rcnet_peer_pin(net, &peer);
}

/*
 * &rdmachan_listener_ops.admit: refuse every host but the peer before
 * the listener sets anything up for it, so that a stranger's packets
 * never reach the stack and its connection never replaces the peer's
 * (rdma_cm's handler: no sleeping lock).
 */
static int rcnet_admit(struct rdmachan_listener *l,
		       const struct sockaddr *addr)
{
	struct rcnet *net = rdmachan_listener_priv(l);
	struct sockaddr_storage peer = {};
	size_t len = addr->sa_family == AF_INET6 ?
		     sizeof(struct sockaddr_in6) : sizeof(struct sockaddr_in);

	memcpy(&peer, addr, len);
	if (rcnet_peer_pin(net, &peer))
		return 0;
	spin_lock_bh(&net->info_lock);
	net_warn_ratelimited("%s: connection from %pISc refused: the peer is %pISc\n",
			     net->ndev->name, &peer, &net->src);
	spin_unlock_bh(&net->info_lock);
	return -EACCES;
}

/*
 * LISTEN: one connection pending from the peer, listening again first
 * when the listener's device went away.  Under net->lock (dropped to
 * close a failed listener, which waits for its callbacks: nothing that
 * rdmachan runs for it then waits for net->lock).
 */
static int rcnet_accept(struct rcnet *net, struct rdmachan **chp)
{
	struct sockaddr_storage peer;
	struct rdmachan *ch;
	int ret, i;

	if (test_and_clear_bit(RCNET_F_LISTEN_FAILED, &net->flags) &&
	    net->listener) {
		struct rdmachan_listener *l = net->listener;

		net->listener = NULL;
		mutex_unlock(&net->lock);
		rdmachan_listener_close(l);
		mutex_lock(&net->lock);
		if (test_bit(RCNET_F_DELETING, &net->flags))
			return -ESHUTDOWN;
	}
	if (!net->listener) {
		ret = rdmachan_listen_ops((struct sockaddr *)&net->addr,
					  &net->opts, &rcnet_listener_ops, net,
					  &net->listener);
		if (ret) {
			net->listener = NULL;
			return ret;
		}
		netdev_info(net->ndev, "listening on %pISpc again\n",
			    &net->addr);
	}
	/* bounded: the backlog of the listener */
	for (i = 0; i < 1024; i++) {
		ret = rdmachan_accept(net->listener, &rcnet_ch_ops, net,
				      RDMACHAN_ACCEPT_NONBLOCK, &ch);
		if (ret == -EAGAIN)
			return -ENOTCONN;	/* no peer yet: pending kicks */
		if (ret) {
			if (ret == -ENODEV)
				set_bit(RCNET_F_LISTEN_FAILED, &net->flags);
			return ret;
		}
		if (rcnet_peer_ok(net, ch)) {
			*chp = ch;
			return 0;
		}
		memset(&peer, 0, sizeof(peer));
		rdmachan_peer_addr(ch, &peer);
		net_warn_ratelimited("%s: connection from %pISc refused: the peer is %pISc\n",
				     net->ndev->name, &peer, &net->src);
		rdmachan_shutdown(ch);
		rdmachan_close(ch);
	}
	return -ENOTCONN;
}

/*
 * &rdmachan_reconnect_ops.attempt: one try at bringing the link back
 * (the core's reconnect work, process context, never two at once).
 */
static int rcnet_attempt(void *priv)
{
	struct rcnet *net = priv;
	struct rdmachan *ch;
	int ret;

	mutex_lock(&net->lock);
	if (test_bit(RCNET_F_DELETING, &net->flags)) {
		ret = -ESHUTDOWN;
		goto out;
	}
	if (net->ch) {
		/* a loss not yet handled by loss_work counts as a failure */
		ret = rdmachan_get_state(net->ch) == RDMACHAN_CONNECTED ?
		      0 : -ECONNRESET;
		goto out;
	}
	if (net->mode == RDMACHAN_NET_CONNECT)
		ret = rdmachan_connect((struct sockaddr *)&net->addr,
				       net->src.ss_family == AF_UNSPEC ? NULL :
				       (struct sockaddr *)&net->src,
				       &net->opts, &rcnet_ch_ops, net, &ch);
	else
		ret = rcnet_accept(net, &ch);
	if (!ret)
		ret = rcnet_install(net, ch);
out:
	mutex_unlock(&net->lock);
	return ret;
}

/* &rdmachan_reconnect_ops.state_change: back, or given up */
static void rcnet_link_state(void *priv, enum rdmachan_link_state state,
			     int err)
{
	struct rcnet *net = priv;

	if (state == RDMACHAN_LINK_DEAD)
		netdev_warn(net->ndev, "link to %pISpc not back within loss_timeout_ms (%u, last error %pe): carrier stays off%s\n",
			    &net->addr, net->policy.loss_timeout_ms,
			    ERR_PTR(err),
			    net->mode == RDMACHAN_NET_LISTEN ?
			    " until the peer connects again" : "");
}

const struct rdmachan_reconnect_ops rcnet_rc_ops = {
	.attempt	= rcnet_attempt,
	.state_change	= rcnet_link_state,
};

/* A channel failed, or the peer connected anew: detach, reconnect */
void rcnet_loss_work(struct work_struct *work)
{
	struct rcnet *net = container_of(work, struct rcnet, loss_work);
	bool replace = test_and_clear_bit(RCNET_F_REPLACE, &net->flags);
	int err;

	mutex_lock(&net->lock);
	if (!net->ch || test_bit(RCNET_F_DELETING, &net->flags))
		goto out;
	if (!replace && rdmachan_get_state(net->ch) == RDMACHAN_CONNECTED)
		goto out;
	err = replace ? -ECONNRESET : rdmachan_error(net->ch) ?: -ECONNRESET;
	rcnet_detach(net, true);
	atomic64_inc(&net->losses);
	netdev_info(net->ndev, "link to %pISpc lost (%pe)%s: carrier off, reconnecting\n",
		    &net->addr, ERR_PTR(err),
		    replace ? ", the peer connected anew" : "");
	rdmachan_reconnect_lost(net->rc, err);
	if (replace)
		rdmachan_reconnect_kick(net->rc);
out:
	mutex_unlock(&net->lock);
}

/* Start the loop towards the peer, or kick it (under net->lock) */
void rcnet_start_locked(struct rcnet *net)
{
	struct rdmachan_reconnect_info info;

	rdmachan_reconnect_get_info(net->rc, &info);
	if (info.state != RDMACHAN_LINK_RECONNECTING)
		rdmachan_reconnect_lost(net->rc, -ENOTCONN);
	rdmachan_reconnect_kick(net->rc);
}

/*
 * A connection is pending on the listener: start or kick the loop, or,
 * while a channel is installed, replace it (the peer reconnected: ours is
 * dead and does not know yet).  A work item, not the pending callback:
 * that runs under the rdma_cm handler's mutex of the new connection, and
 * net->lock is held across rdmachan_close(), which takes such mutexes.
 */
void rcnet_pending_work(struct work_struct *work)
{
	struct rcnet *net = container_of(work, struct rcnet, pending_work);

	mutex_lock(&net->lock);
	if (test_bit(RCNET_F_DELETING, &net->flags))
		goto out;
	if (!test_bit(RCNET_F_READY, &net->flags)) {
		set_bit(RCNET_F_MISSED, &net->flags);
		goto out;
	}
	if (net->ch) {
		set_bit(RCNET_F_REPLACE, &net->flags);
		queue_work(rcnet_wq, &net->loss_work);
		goto out;
	}
	rcnet_start_locked(net);
out:
	mutex_unlock(&net->lock);
}

/* &rdmachan_listener_ops.pending: a connection waits (rdma_cm handler) */
static void rcnet_pending(struct rdmachan_listener *l)
{
	struct rcnet *net = rdmachan_listener_priv(l);

	queue_work(rcnet_wq, &net->pending_work);
}

/*
 * &rdmachan_listener_ops.failed: the listener's device went away.  No
 * net->lock here (an attempt holding it may wait on the device's
 * removal); the next attempt listens again.
 */
static void rcnet_listener_failed(struct rdmachan_listener *l, int err)
{
	struct rcnet *net = rdmachan_listener_priv(l);

	set_bit(RCNET_F_LISTEN_FAILED, &net->flags);
	netdev_info(net->ndev, "listener on %pISpc stopped (%pe): listening again when an attempt can\n",
		    &net->addr, ERR_PTR(err));
	if (!READ_ONCE(net->ch) && test_bit(RCNET_F_READY, &net->flags) &&
	    !test_bit(RCNET_F_DELETING, &net->flags))
		rdmachan_reconnect_lost(net->rc, err);
}

const struct rdmachan_listener_ops rcnet_listener_ops = {
	.pending	= rcnet_pending,
	.admit		= rcnet_admit,
	.failed		= rcnet_listener_failed,
};

