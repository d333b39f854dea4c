// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan_net: the device
 *
 * One netdev, one channel.  The model is drivers/net/ntb_netdev.c (a
 * netdev over a queue-pair message API: one packet, one message; carrier
 * follows the link) with IPoIB connected mode's data path
 * (drivers/infiniband/ulp/ipoib/ipoib_cm.c: large MTU, a reliable
 * connection per peer, NAPI on receive).
 *
 * The device's making (net add, ip link add), its netdev operations,
 * its teardown and what net show reads; the data path is net_data.c,
 * the link (connect, accept, reconnect) net_conn.c, the module's
 * parameters net_params.c, as IPoIB splits main, ib and cm.
 *
 * Teardown order (rcnet_teardown(), from rcnet_dellink() under RTNL:
 * net del, ip link del, the device's namespace dying, rmmod):
 *   1. RCNET_F_DELETING: no attempt installs a channel, no pending
 *      callback starts one;
 *   2. rdmachan_reconnect_stop(): waits for an attempt under way (at
 *      most its connect timeout); none runs after;
 *   3. rdmachan_listener_close(): no pending callback after;
 *   4. cancel_work_sync() of pending_work (which may queue loss_work),
 *      then of loss_work;
 *   5. the channel detached (carrier off, TX sees NULL) and closed in
 *      order (rdmachan_close(): what was sent is flushed, the peer sees
 *      DISCONNECTED); no channel callback runs after;
 *   6. unregister_netdevice_queue(): ndo_stop (NAPI off, the receive
 *      queue purged), the sysfs group removed (a read under way ends
 *      first); then the destructor (rdmachan_reconnect_destroy(), the
 *      stats, what is left of the receive queue) and free_netdev() run
 *      at rtnl_unlock().  The reconnect loop lives until the destructor
 *      because every sysfs attribute and NET_LIST read its state: a
 *      reader beside the teardown finds it stopped, never freed.
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

/* Every device of this module, under RTNL */
static LIST_HEAD(rcnet_devs);

/* ---- netdev -------------------------------------------------------- */

static int rcnet_init(struct net_device *ndev)
{
	ndev->tstats = netdev_alloc_pcpu_stats(struct pcpu_sw_netstats);
	return ndev->tstats ? 0 : -ENOMEM;
}

static int rcnet_open(struct net_device *ndev)
{
	struct rcnet *net = netdev_priv(ndev);

	napi_enable(&net->napi);
	netif_start_queue(ndev);
	return 0;
}

static int rcnet_stop(struct net_device *ndev)
{
	struct rcnet *net = netdev_priv(ndev);

	netif_tx_disable(ndev);
	napi_disable(&net->napi);
	skb_queue_purge(&net->rxq);
	return 0;
}

static int rcnet_change_mtu(struct net_device *ndev, int mtu)
{
	struct rcnet *net = netdev_priv(ndev);
	u32 max;

	spin_lock_bh(&net->info_lock);
	max = net->max_msg;
	spin_unlock_bh(&net->info_lock);
	if (READ_ONCE(net->ch) && mtu > max) {
		netdev_err(ndev, "MTU %d is larger than the channel's messages (%u bytes)\n",
			   mtu, max);
		return -EINVAL;
	}
	WRITE_ONCE(ndev->mtu, mtu);
	return 0;
}

static const struct net_device_ops rcnet_netdev_ops = {
	.ndo_init		= rcnet_init,
	.ndo_open		= rcnet_open,
	.ndo_stop		= rcnet_stop,
	.ndo_start_xmit		= rcnet_xmit,
	.ndo_change_mtu		= rcnet_change_mtu,
	.ndo_get_stats64	= dev_get_tstats64,
};

/* The histograms, freed once (the destructor and rcnet_unmake()) */
static void rcnet_hists_free(struct rcnet *net)
{
	rdmachan_hist_free(net->hist_tx);
	rdmachan_hist_free(net->hist_rx);
	net->hist_tx = NULL;
	net->hist_rx = NULL;
}

/* After unregistration, at rtnl_unlock() (or a failed registration) */
static void rcnet_destructor(struct net_device *ndev)
{
	struct rcnet *net = netdev_priv(ndev);

	/*
	 * The loop was stopped at teardown; it is freed only here, after
	 * the sysfs group (whose reads take its state) is gone
	 */
	rdmachan_reconnect_destroy(net->rc);
	net->rc = NULL;
	skb_queue_purge(&net->rxq);
	rcnet_pool_destroy(net);
	rcnet_hists_free(net);
	free_percpu(ndev->tstats);
	ndev->tstats = NULL;
}

/**
 * rcnet_setup() - the netdev's fixed settings (alloc_netdev() and the
 *	rtnl_link_ops kind)
 * @ndev: the new netdev
 *
 * A layer-3 point-to-point device: no link-layer header or address, no
 * ARP.  Checksum "offload" as virtio-net's: a transport checksum left
 * to the hardware travels unfinished, its place in the immediate, and
 * arrives as CHECKSUM_PARTIAL (completed there if the packet leaves the
 * host again); ethtool -K NAME tx off sends every checksum complete.
 *
 * Context: process context.
 */
void rcnet_setup(struct net_device *ndev)
{
	struct rcnet *net = netdev_priv(ndev);

	net->ndev = ndev;
	skb_queue_head_init(&net->rxq);
	spin_lock_init(&net->pool_lock);
	ndev->netdev_ops = &rcnet_netdev_ops;
	ndev->rtnl_link_ops = &rcnet_link_ops;
	ndev->type = ARPHRD_NONE;
	ndev->flags = IFF_POINTOPOINT | IFF_NOARP;
	ndev->hard_header_len = 0;
	ndev->addr_len = 0;
	ndev->tx_queue_len = 1000;	/* as Ethernet */
	ndev->min_mtu = ETH_MIN_MTU;
	ndev->max_mtu = RCNET_MAX_MTU;
	ndev->mtu = ETH_DATA_LEN;
	ndev->features = NETIF_F_SG | NETIF_F_HIGHDMA | NETIF_F_HW_CSUM;
	ndev->hw_features = NETIF_F_SG | NETIF_F_HW_CSUM;
	ndev->needs_free_netdev = true;
	ndev->priv_destructor = rcnet_destructor;
	ndev->sysfs_groups[0] = &rcnet_attr_group;
}

static struct rcnet *rcnet_find(const char *name)
{
	struct rcnet *net;

	ASSERT_RTNL();
	list_for_each_entry(net, &rcnet_devs, node)
		if (!strcmp(net->ndev->name, name))
			return net;
	return NULL;
}

/**
 * rcnet_get_src() - what @net was given as its source (CONNECT) or only
 *	peer (LISTEN, pinned at the first admission when not given)
 * @net: the device
 * @ss: out: the address, AF_UNSPEC for any
 *
 * Context: process or softirq context; takes @net->info_lock.
 */
void rcnet_get_src(struct rcnet *net, struct sockaddr_storage *ss)
{
	spin_lock_bh(&net->info_lock);
	*ss = net->src;
	spin_unlock_bh(&net->info_lock);
}

/*
 * rcnet_make() - @ndev's private part from @a (checked, @max_msg its
 * message size): for LISTEN the listener, and the reconnect loop.  On
 * failure nothing of it is left but @ndev itself, which the caller frees.
 */
static int rcnet_make(struct net_device *ndev,
		      const struct rdmachan_net_add *a, u32 max_msg)
{
	struct rcnet *net = netdev_priv(ndev);
	struct rdmachan_reconnect_policy *p;
	u32 loss;
	int ret;

	net->mode = a->mode;
	memcpy(&net->addr, &a->addr, sizeof(net->addr));
	memcpy(&net->src, &a->src, sizeof(net->src));
	rcnet_default_port(&net->addr);
	net->opts.queue_depth = a->queue_depth;
	net->opts.max_msg_size = max_msg;
	net->opts.timeout_ms = rcnet_param(connect_timeout_ms);
	net->spread = READ_ONCE(rcnet_rx_spread);
	net->opts.poll_mode = net->spread ? RDMACHAN_POLL_UNBOUND :
			      RDMACHAN_POLL_SOFTIRQ;
	/* receive buffers the skbs can take over (rcnet_rx_zc()) */
	net->opts.rx_pages = true;
	/* large packets go from the skb's own pages (rcnet_send()) */
	net->opts.zc_send = true;
	net->max_msg = max_msg;
	ndev->max_mtu = min(max_msg, RCNET_MAX_MTU);
	ndev->mtu = a->mtu ?: ndev->max_mtu;
	mutex_init(&net->lock);
	spin_lock_init(&net->info_lock);
	INIT_WORK(&net->loss_work, rcnet_loss_work);
	INIT_WORK(&net->pending_work, rcnet_pending_work);
	atomic64_set(&net->tx_stopped, 0);
	atomic64_set(&net->reconnects, 0);
	atomic64_set(&net->rx_pool_packets, 0);
	atomic64_set(&net->rx_zc_packets, 0);
	atomic64_set(&net->tx_zc_packets, 0);
	atomic64_set(&net->losses, 0);
	netif_napi_add(ndev, &net->napi, rcnet_poll);
	netif_carrier_off(ndev);
	rcnet_pool_create(net);
	/* without memory for them, the interface keeps none */
	if (rdmachan_hist_enabled()) {
		net->hist_tx = rdmachan_hist_alloc(GFP_KERNEL);
		net->hist_rx = rdmachan_hist_alloc(GFP_KERNEL);
	}

	p = &net->policy;
	loss = a->loss_timeout_ms ?: rcnet_param(loss_timeout_ms);
	p->delay_ms = a->reconnect_delay_ms ?: rcnet_param(reconnect_delay_ms);
	p->max_delay_ms = max(p->delay_ms, rcnet_param(reconnect_max_delay_ms));
	p->loss_timeout_ms = loss == RDMACHAN_NET_TMO_OFF ? 0 : loss;
	p->fast_fail_ms = 0;
	net->rc = rdmachan_reconnect_create(a->name, p, &rcnet_rc_ops, net);
	if (IS_ERR(net->rc)) {
		ret = PTR_ERR(net->rc);
		pr_warn_ratelimited("net add %s: reconnect policy refused: delay %u ms (backoff to %u), loss timeout %u ms\n",
				    a->name, p->delay_ms, p->max_delay_ms,
				    p->loss_timeout_ms);
		goto out_pool;
	}
	if (net->mode == RDMACHAN_NET_LISTEN) {
		/* its pending callback waits for RCNET_F_READY */
		ret = rdmachan_listen_ops((struct sockaddr *)&net->addr,
					  &net->opts, &rcnet_listener_ops, net,
					  &net->listener);
		if (ret) {
			pr_warn_ratelimited("net add %s: cannot listen on %pISpc (%pe)\n",
					    a->name, &net->addr, ERR_PTR(ret));
			goto out_rc;
		}
	}
	return 0;

out_rc:
	rdmachan_reconnect_destroy(net->rc);
out_pool:
	rcnet_pool_destroy(net);
	rcnet_hists_free(net);
	return ret;
}

/*
 * Undoes rcnet_make() of a device that did not register (a registration
 * that failed after ndo_init ran the destructor already: rc and pool
 * are NULL then)
 */
static void rcnet_unmake(struct rcnet *net)
{
	if (net->listener)
		rdmachan_listener_close(net->listener);
	net->listener = NULL;
	cancel_work_sync(&net->pending_work);
	rdmachan_reconnect_destroy(net->rc);
	net->rc = NULL;
	rcnet_pool_destroy(net);
	rcnet_hists_free(net);
}

/*
 * rcnet_register() - register @net's netdev, and start: the loop
 * (CONNECT) or the wait for the peer (LISTEN).  Under RTNL.
 */
static int rcnet_register(struct rcnet *net)
{
	struct net_device *ndev = net->ndev;
	int ret;

	ASSERT_RTNL();
	if (rcnet_find(ndev->name)) {
		pr_warn_ratelimited("net add %s: the name is in use\n",
				    ndev->name);
		return -EEXIST;
	}
	ret = register_netdevice(ndev);
	if (ret)
		return ret;
	list_add_tail(&net->node, &rcnet_devs);
	/* its link's changes as uevents, after the netdev's ADD */
	rdmachan_uevent(&ndev->dev, "RDMACHAN_OBJ=net RDMACHAN_EVENT=added");
	rdmachan_reconnect_set_uevent(net->rc, &ndev->dev);
	/* rx_spread: NAPI in its own kthread (see the top of this file) */
	if (net->spread && dev_set_threaded(ndev, true))
		netdev_warn(ndev, "no NAPI thread: NAPI runs in softirq\n");
	/* under RTNL: a delete (which takes it) waits for this */
	mutex_lock(&net->lock);
	set_bit(RCNET_F_READY, &net->flags);
	if (net->mode == RDMACHAN_NET_CONNECT ||
	    test_and_clear_bit(RCNET_F_MISSED, &net->flags))
		rcnet_start_locked(net);
	mutex_unlock(&net->lock);
	netdev_info(ndev, "added: %s %pISpc, MTU %u, messages of %u bytes\n",
		    net->mode == RDMACHAN_NET_LISTEN ? "listening on" :
		    "connecting to", &net->addr, ndev->mtu, net->max_msg);
	return 0;
}

/* @a checked, or -EINVAL / -EAFNOSUPPORT with a log line */
static int rcnet_check(const struct rdmachan_net_add *a, u32 *max_msg)
{
	int ret = rcnet_check_add(a, max_msg);

	if (ret)
		pr_warn_ratelimited("net add %.*s: invalid arguments (%pe)\n",
				    RDMACHAN_NET_NAME_MAX, a->name,
				    ERR_PTR(ret));
	return ret;
}

/**
 * rcnet_add() - a new device (RDMACHAN_IOC_NET_ADD)
 * @a: what it is: name, mode, addresses, sizes, reconnect policy
 *
 * Makes the netdev (carrier off), for LISTEN the listener, and the
 * reconnect loop; registers the netdev; then starts the loop (CONNECT)
 * or waits for the peer's connection (LISTEN).  The link comes up in the
 * background.
 *
 * Context: process context, takes RTNL.
 * Return: 0; -EINVAL or -EAFNOSUPPORT for bad arguments, -EEXIST for a
 * name in use, the listener's errno (-EADDRINUSE, -EADDRNOTAVAIL, ...),
 * -ENOMEM.
 */
int rcnet_add(const struct rdmachan_net_add *a)
{
	struct net_device *ndev;
	u32 max_msg;
	int ret;

	ret = rcnet_check(a, &max_msg);
	if (ret)
		return ret;
	ndev = alloc_netdev(sizeof(struct rcnet), a->name, NET_NAME_USER,
			    rcnet_setup);
	if (!ndev)
		return -ENOMEM;
	ret = rcnet_make(ndev, a, max_msg);
	if (ret)
		goto out_free;
	rtnl_lock();
	ret = rcnet_register(netdev_priv(ndev));
	rtnl_unlock();
	if (!ret)
		return 0;
	rcnet_unmake(netdev_priv(ndev));
out_free:
	free_netdev(ndev);
	return ret;
}

/**
 * rcnet_add_link() - a new device (ip link add ... type rdmachan)
 * @ndev: the netdev rtnetlink allocated (rcnet_setup()), named
 * @a: what it is, from the netlink attributes (net_link.c)
 *
 * As rcnet_add(), on a netdev rtnetlink made and frees on failure.
 *
 * Context: process context, under RTNL.
 * Return: as rcnet_add().
 */
int rcnet_add_link(struct net_device *ndev, const struct rdmachan_net_add *a)
{
	u32 max_msg;
	int ret;

	ASSERT_RTNL();
	ret = rcnet_check(a, &max_msg);
	if (ret)
		return ret;
	ret = rcnet_make(ndev, a, max_msg);
	if (ret)
		return ret;
	ret = rcnet_register(netdev_priv(ndev));
	if (ret)
		rcnet_unmake(netdev_priv(ndev));
	return ret;
}

/* Steps 1-6 of the teardown order (top of this file); under RTNL */
static void rcnet_teardown(struct rcnet *net)
{
	ASSERT_RTNL();
	set_bit(RCNET_F_DELETING, &net->flags);
	rdmachan_reconnect_stop(net->rc);
	if (net->listener) {
		rdmachan_listener_close(net->listener);
		net->listener = NULL;
	}
	/* the pending work may queue the loss work: first */
	cancel_work_sync(&net->pending_work);
	cancel_work_sync(&net->loss_work);
	mutex_lock(&net->lock);
	rcnet_detach(net, false);
	mutex_unlock(&net->lock);
}

/**
 * rcnet_dellink() - delete a device: its channel, then the netdev
 * @ndev: the device
 * @head: the list to queue its unregistration on (NULL: at once)
 *
 * &rtnl_link_ops.dellink (ip link del, a dying namespace, the module's
 * unload) and net del.  Waits for a connection attempt under way (its
 * connect timeout at most) and for the orderly close of the channel.
 *
 * Context: process context, under RTNL.
 */
void rcnet_dellink(struct net_device *ndev, struct list_head *head)
{
	struct rcnet *net = netdev_priv(ndev);

	rcnet_teardown(net);
	list_del(&net->node);
	/* its last events go before the netdev's REMOVE */
	rdmachan_reconnect_set_uevent(net->rc, NULL);
	rdmachan_uevent(&ndev->dev, "RDMACHAN_OBJ=net RDMACHAN_EVENT=removed");
	rdmachan_uevent_flush();
	netdev_info(ndev, "deleted\n");
	unregister_netdevice_queue(ndev, head);
}

/**
 * rcnet_del() - delete the device named @name (RDMACHAN_IOC_NET_DEL)
 * @name: its name now, in whichever network namespace it is
 *
 * Context: process context, takes RTNL.
 * Return: 0, or -ENODEV when no device of this module has that name.
 */
int rcnet_del(const char *name)
{
	struct rcnet *net;

	rtnl_lock();
	net = rcnet_find(name);
	if (net)
		rcnet_dellink(net->ndev, NULL);
	rtnl_unlock();
	if (!net) {
		pr_warn_ratelimited("net del %.*s: no such device\n",
				    RDMACHAN_NET_NAME_MAX, name);
		return -ENODEV;
	}
	return 0;
}

/**
 * rcnet_get_info() - where a device stands, for net show and sysfs
 * @net: the device
 * @info: filled in, but for @info->name
 *
 * Context: any process context.
 */
void rcnet_get_info(struct rcnet *net, struct rdmachan_net_info *info)
{
	struct rdmachan_reconnect_info rci;
	struct rtnl_link_stats64 s = {};
	struct net_device *ndev = net->ndev;
	bool up = READ_ONCE(net->ch);

	rdmachan_reconnect_get_info(net->rc, &rci);
	info->ifindex = ndev->ifindex;
	info->mode = net->mode;
	if (up)
		info->state = RDMACHAN_NET_UP;
	else if (!test_bit(RCNET_F_WAS_UP, &net->flags) &&
		 (net->mode == RDMACHAN_NET_LISTEN ||
		  rci.state == RDMACHAN_LINK_LIVE))
		info->state = RDMACHAN_NET_WAITING;
	else if (rci.state == RDMACHAN_LINK_DEAD)
		info->state = RDMACHAN_NET_DEAD;
	else
		info->state = RDMACHAN_NET_RECONNECTING;
	info->last_error = rci.last_error;
	memcpy(&info->addr, &net->addr, sizeof(info->addr));
	spin_lock_bh(&net->info_lock);
	memcpy(&info->peer, &net->peer, sizeof(info->peer));
	info->max_msg_size = net->max_msg;
	info->queue_depth = net->depth;
	spin_unlock_bh(&net->info_lock);
	info->mtu = READ_ONCE(ndev->mtu);
	info->carrier = netif_carrier_ok(ndev);
	info->attempt = up ? 0 : rci.attempt;
	info->max_attempts = rci.max_attempts;
	info->next_ms = up ? 0 : min_t(u64, rci.next_ms, U32_MAX);
	info->down_ms = up ? 0 : min_t(u64, rci.down_ms, U32_MAX);
	info->losses = atomic64_read(&net->losses);

	dev_get_tstats64(ndev, &s);
	info->c.rx_packets = s.rx_packets;
	info->c.rx_bytes = s.rx_bytes;
	info->c.tx_packets = s.tx_packets;
	info->c.tx_bytes = s.tx_bytes;
	info->c.rx_dropped = s.rx_dropped;
	info->c.tx_dropped = s.tx_dropped;
	info->c.rx_errors = s.rx_errors;
	info->c.tx_errors = s.tx_errors;
	info->c.tx_stopped = atomic64_read(&net->tx_stopped);
	info->c.reconnects = atomic64_read(&net->reconnects);
}

/**
 * rcnet_list() - every device, for RDMACHAN_IOC_NET_LIST
 * @entries: the user's array
 * @room: entries it has room for
 * @count: out: devices there are (more than copied when @room is short)
 *
 * Context: process context, takes RTNL.
 * Return: 0, -ENOMEM or -EFAULT.
 */
int rcnet_list(struct rdmachan_net_info __user *entries, u32 room,
	       u32 *count)
{
	struct rdmachan_net_info *buf = NULL;
	struct rcnet *net;
	u32 n = 0, k;
	int ret = 0;

	rtnl_lock();
	list_for_each_entry(net, &rcnet_devs, node)
		n++;
	k = min(n, room);
	if (k) {
		buf = kvcalloc(k, sizeof(*buf), GFP_KERNEL);
		if (!buf) {
			rtnl_unlock();
			return -ENOMEM;
		}
	}
	n = 0;
	list_for_each_entry(net, &rcnet_devs, node) {
		if (n < k) {
			strscpy(buf[n].name, net->ndev->name,
				sizeof(buf[n].name));
			rcnet_get_info(net, &buf[n]);
		}
		n++;
	}
	rtnl_unlock();
	if (k && copy_to_user(entries, buf, k * sizeof(*buf)))
		ret = -EFAULT;
	kvfree(buf);
	*count = n;
	return ret;
}

