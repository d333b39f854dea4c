/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rdmachan_net: a point-to-point IP netdev over one rdmachan channel
 *
 * net_main.c loads the module: the workqueue, the rtnl_link_ops kind
 * "rdmachan" (ip -d link shows it; ip link del and a dying network
 * namespace delete through it) and /dev/rdmachan's ioctls
 * RDMACHAN_IOC_NET_* (net_ioctl.c).  net_dev.c is the device: its netdev
 * ops, the data path (TX as one message per packet, the protocol in the
 * immediate; RX from the receive callback into NAPI), the channel's
 * life (connect or accept, loss, the core's reconnect loop) and its
 * teardown.  net_sysfs.c: /sys/class/net/NAME/rdmachan/.
 */
#ifndef RCNET_H
#define RCNET_H

#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/scatterlist.h>
#include <linux/skbuff.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>

#include <linux/rdmachan_net.h>

#include "rdmachan.h"

/* Flags of struct rcnet */
enum {
	RCNET_F_DELETING,	/* teardown began: no attempt installs a channel */
	RCNET_F_REPLACE,	/* LISTEN: the peer connected anew: drop ours */
	RCNET_F_LISTEN_FAILED,	/* the listener's device went away */
	RCNET_F_READY,		/* registered: the loop may start */
	RCNET_F_MISSED,		/* a connection was pending before READY */
	RCNET_F_WAS_UP,		/* the link was up once */
	RCNET_F_CARRIER,	/* carrier on, as last told (rcnet_carrier()) */
};

/**
 * struct rcnet - one device (netdev_priv())
 * @ndev: the netdev
 * @node: in rcnet_devs (net_dev.c), under RTNL
 * @mode: RDMACHAN_NET_LISTEN or RDMACHAN_NET_CONNECT
 * @addr: listen address, or the peer's
 * @src: CONNECT: source address (AF_UNSPEC: any), set once at net add;
 *	LISTEN: the peer allowed (AF_UNSPEC: the first one admitted, then
 *	kept), written once under @info_lock (rcnet_admit())
 * @opts: what each channel asks for
 * @spread: rx_spread at net add: @opts polls in an unbound workqueue,
 *	NAPI is threaded (net_dev.c)
 * @policy: the reconnect loop's policy
 * @rc: the reconnect loop
 * @listener: LISTEN: the listener (NULL after its device went away,
 *	until an attempt listens again)
 * @lock: serialises what installs or removes @ch: the attempt, the
 *	loss work, the pending work, the teardown.  Held across
 *	rdmachan_connect(), rdmachan_accept() and rdmachan_close(): never
 *	taken in a channel's or listener's callback
 * @ch: the connected channel, or NULL.  Written under @lock and the TX
 *	lock; ndo_start_xmit reads it under the TX lock, the callbacks
 *	compare with READ_ONCE() to ignore a channel that is no more ours
 * @loss_work: a loss or a replacement: detach and close @ch, tell @rc
 * @pending_work: the listener has a connection: start, kick or replace
 * @flags: RCNET_F_*
 * @info_lock: guards @peer, @max_msg and @depth for readers (show,
 *	sysfs), and a LISTEN device's @src as it is pinned
 * @peer: the connected peer's address
 * @max_msg: the channel's message size (negotiated)
 * @depth: the channel's credits (negotiated)
 * @rxq: skbs received, for the NAPI poll
 * @pool: the receive fragments' pages, recycled (NULL: none could be made,
 *	the page allocator alone serves)
 * @pool_lock: one allocation from @pool at a time (it has one consumer)
 * @rx_pool_packets: packets received into pages of @pool (sysfs)
 * @rx_zc_packets: packets received without a copy, on the channel's own
 *	buffer (sysfs)
 * @napi: the receive side's NAPI context
 * @sg: the TX scatterlist (under the TX lock: one queue)
 * @tx_zc_packets: packets sent from their own pages, without a copy (sysfs)
 * @tx_stopped: times the queue stopped for want of credits
 * @reconnects: times the link came back
 * @losses: times the link was lost
 * @hist_tx: from a packet's xmit to its release (a zero-copy send's
 *	completion; at once for a copy), NULL when off; set at creation
 * @hist_rx: from a packet's arrival (the channel's recv callback) to the
 *	stack (NAPI), NULL when off; set at creation
 */
struct rcnet {
	struct net_device *ndev;
	struct list_head node;
	u32 mode;
	struct sockaddr_storage addr;
	struct sockaddr_storage src;
	struct rdmachan_opts opts;
	bool spread;
	struct rdmachan_reconnect_policy policy;
	struct rdmachan_reconnect *rc;
	struct rdmachan_listener *listener;
	struct mutex lock;	/* see @lock above */
	struct rdmachan *ch;
	struct work_struct loss_work;
	struct work_struct pending_work;
	unsigned long flags;
	spinlock_t info_lock;	/* see @info_lock above */
	struct sockaddr_storage peer;
	u32 max_msg;
	u32 depth;
	struct sk_buff_head rxq;
	struct page_pool *pool;
	spinlock_t pool_lock;	/* see @pool_lock above */
	atomic64_t rx_pool_packets;
	atomic64_t rx_zc_packets;
	struct napi_struct napi;
	struct scatterlist sg[MAX_SKB_FRAGS + 2];
	atomic64_t tx_zc_packets;
	atomic64_t tx_stopped;
	atomic64_t reconnects;
	atomic64_t losses;
	struct rdmachan_hist *hist_tx;
	struct rdmachan_hist *hist_rx;
};

/* What rdmachan_net keeps in an skb's control block: when it came */
struct rcnet_skb_cb {
	u64 t_ns;
};

static inline struct rcnet_skb_cb *rcnet_cb(struct sk_buff *skb)
{
	return (struct rcnet_skb_cb *)skb->cb;
}

/* net_main.c */
extern struct rtnl_link_ops rcnet_link_ops;
extern struct workqueue_struct *rcnet_wq;

/* net_params.c: the parameters, read with rcnet_param(NAME) or READ_ONCE() */
#define rcnet_param(name)	rdmachan_param_val(&rcnet_param_##name)
extern struct rdmachan_uint_param rcnet_param_reconnect_delay_ms,
	rcnet_param_reconnect_max_delay_ms, rcnet_param_loss_timeout_ms,
	rcnet_param_connect_timeout_ms, rcnet_param_rx_backlog;
extern bool rcnet_rx_spread;
extern bool rcnet_rx_zero_copy;

/* net_data.c: the data path */
netdev_tx_t rcnet_xmit(struct sk_buff *skb, struct net_device *ndev);
int rcnet_poll(struct napi_struct *napi, int budget);
void rcnet_pool_create(struct rcnet *net);
void rcnet_pool_destroy(struct rcnet *net);
extern const struct rdmachan_ops rcnet_ch_ops;

/* net_conn.c: the link */
void rcnet_carrier(struct rcnet *net, bool on);
void rcnet_detach(struct rcnet *net, bool abrupt);
void rcnet_start_locked(struct rcnet *net);
void rcnet_loss_work(struct work_struct *work);
void rcnet_pending_work(struct work_struct *work);
extern const struct rdmachan_reconnect_ops rcnet_rc_ops;
extern const struct rdmachan_listener_ops rcnet_listener_ops;

/* net_dev.c: the device */
int rcnet_add(const struct rdmachan_net_add *a);
int rcnet_add_link(struct net_device *ndev, const struct rdmachan_net_add *a);
void rcnet_get_src(struct rcnet *net, struct sockaddr_storage *ss);
int rcnet_del(const char *name);
void rcnet_dellink(struct net_device *ndev, struct list_head *head);
void rcnet_setup(struct net_device *ndev);
int rcnet_list(struct rdmachan_net_info __user *entries, u32 room,
	       u32 *count);
void rcnet_get_info(struct rcnet *net, struct rdmachan_net_info *info);

/* net_ioctl.c */
int rcnet_ioctl_init(void);
void rcnet_ioctl_exit(void);

/* net_sysfs.c */
extern const struct attribute_group rcnet_attr_group;

#endif /* RCNET_H */
