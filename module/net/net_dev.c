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
 * TX (ndo_start_xmit): a packet is one message; the protocol (ETH_P_IP,
 * ETH_P_IPV6) is its 32-bit immediate, there is no header.  A packet
 * whose transport checksum is left to the device (CHECKSUM_PARTIAL)
 * says so in the immediate too, with where the checksum goes
 * (net_check.h): the receiver's stack takes it as CHECKSUM_PARTIAL, as
 * virtio-net's NEEDS_CSUM.  The skb's
 * pages are handed to rdmachan_send_sg(), which copies them once into
 * the channel's registered send buffer; the skb is freed at once.  Out
 * of credits (-EAGAIN): stop the queue, try once more (the credit may
 * have come back in between: the &rdmachan_ops.writable call of a
 * refusal comes once, after that refusal) and requeue the packet
 * (NETDEV_TX_BUSY); writable wakes the queue.
 *
 * RX: the channel's receive callback copies the message into an skb
 * (linear when small, page fragments when large), releases the message
 * at once (its credit goes back to the peer), queues the skb and
 * schedules NAPI; the poll hands at most its budget to the stack, through
 * GRO unless the packet is too large to merge.  The channel has no
 * "notify, then poll with a budget", so the copy happens in the callback
 * and NAPI only paces the stack.  The large fragments come from a page
 * pool (the skb recycles them when it is freed), as a NIC driver's
 * receive pages do: a page from the allocator is zeroed first where
 * init_on_alloc is on (Debian's default), which costs as much as the
 * copy itself.
 *
 * Where the work runs: by default the channel's completions, so the
 * receive copy, and NAPI run in the softirq of the CPU that took the
 * completion: the lowest latency.  With rx_spread (a module parameter,
 * read at net add) the channel polls in an unbound workqueue
 * (RDMACHAN_POLL_UNBOUND) and NAPI is threaded (a kthread per device;
 * /sys/class/net/NAME/threaded turns it off): the device's own work
 * (soft-RoCE's, a NIC's interrupt) stays on that CPU, and the receive
 * copy and the stack above run where the scheduler finds room, with the
 * receiving task beside them.  More throughput where that one CPU is
 * the bottleneck, at the cost of two wakeups per packet received
 * (Documentation/net.rst, "Where the work runs").
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

/* Received packets up to this many bytes are copied into a linear skb */
#define RCNET_RX_LINEAR		1536
/* Of larger ones, this many bytes go linear (headers, for GRO) */
#define RCNET_RX_HEAD		256
/*
 * The rest goes into fragments of up to 2^this pages (32 KiB, the largest
 * order the page allocator calls cheap and the one page_frag caches use):
 * two allocations for a 64 KiB packet, not sixteen.  A fragment of at
 * least half that size takes a page of the device's pool; a smaller one,
 * or one the pool has no page for, a compound page of the order it needs,
 * or a single page when there is none at once.
 */
#define RCNET_RX_ORDER		PAGE_ALLOC_COSTLY_ORDER
#define RCNET_RX_POOL_MIN	((PAGE_SIZE << RCNET_RX_ORDER) / 2)
/*
 * Pages the pool keeps for reuse (its ring): two per packet of a full
 * window of 128 credits.  Pages given back beyond it go to the allocator.
 */
#define RCNET_RX_POOL_SIZE	256
/*
 * A packet larger than this goes up without GRO: GRO merges packets into
 * one of at most 64 KiB, so such a packet can only be merged with a
 * smaller one, which a stream at this MTU hardly sends, and GRO would
 * hold it until the poll ends for nothing.
 */
#define RCNET_RX_NO_GRO		(GRO_LEGACY_MAX_SIZE / 2)
/*
 * A packet of at least this many bytes goes out without a copy: the
 * device reads the skb's own pages (rdmachan_send_sg_zc()), and the skb
 * is freed when its send completed.  Below, a copy costs less than
 * mapping each piece and a completion for each packet.
 */
#define RCNET_TX_ZC_MIN		8192

static unsigned int reconnect_delay_ms = 1000;
module_param(reconnect_delay_ms, uint, 0644);
MODULE_PARM_DESC(reconnect_delay_ms,
		 "wait before the first reconnect attempt after a link loss, in ms, when the device does not say (100..3600000, default 1000)");

static unsigned int reconnect_max_delay_ms = 8000;
module_param(reconnect_max_delay_ms, uint, 0644);
MODULE_PARM_DESC(reconnect_max_delay_ms,
		 "each wait between reconnect attempts doubles up to this, in ms (default 8000)");

static unsigned int loss_timeout_ms;
module_param(loss_timeout_ms, uint, 0644);
MODULE_PARM_DESC(loss_timeout_ms,
		 "give up reconnecting this long after a link loss, in ms, when the device does not say (0: never, the default)");

static unsigned int connect_timeout_ms = 3000;
module_param(connect_timeout_ms, uint, 0644);
MODULE_PARM_DESC(connect_timeout_ms,
		 "bound on one connection attempt and on the orderly close, in ms (100..600000, default 3000)");

static bool rx_spread;
module_param(rx_spread, bool, 0644);
MODULE_PARM_DESC(rx_spread,
		 "devices added from now on take their channel's completions in an unbound workqueue and run NAPI in a kthread: more throughput where one CPU's softirq is the bottleneck, higher latency (default off)");

static bool rx_zero_copy = true;
module_param(rx_zero_copy, bool, 0644);
MODULE_PARM_DESC(rx_zero_copy,
		 "large received packets go up in the channel's own receive buffer, which the channel replaces, rather than copied (default on)");

static unsigned int rx_backlog = 1024;
module_param(rx_backlog, uint, 0644);
MODULE_PARM_DESC(rx_backlog,
		 "received packets queued for NAPI per device before new ones are dropped (default 1024)");

/* Every device of this module, under RTNL */
static LIST_HEAD(rcnet_devs);

/* ---- data path ----------------------------------------------------- */

/*
 * A zero-copy packet's send is done (@err 0: counted as sent now) or the
 * channel ended before it left (@err < 0: a tx_error).  Under the
 * channel's lock with interrupts off: the skb's free is deferred.  The
 * device's statistics outlive every such call (rdmachan_close() in the
 * teardown's step 5, the destructor after it).
 */
static void rcnet_tx_done(void *ctx, int err)
{
	struct sk_buff *skb = ctx;

	if (err) {
		DEV_STATS_INC(skb->dev, tx_errors);
		dev_kfree_skb_any(skb);
	} else {
		dev_sw_netstats_tx_add(skb->dev, 1, skb->len);
		dev_consume_skb_any(skb);
	}
}

/*
 * Send @skb, gathered in @net->sg (@nents entries): from its own pages
 * when it is large and the channel takes that many pieces, else copied.
 * Return: as rdmachan_send_sg(); 0 with *@zc set: the skb is the
 * channel's now (rcnet_tx_done() frees it).
 */
static int rcnet_send(struct rcnet *net, struct rdmachan *ch,
		      struct sk_buff *skb, int nents, u32 imm,
		      unsigned int flags, bool *zc)
{
	int ret;

	*zc = false;
	if (skb->len >= RCNET_TX_ZC_MIN &&
	    nents <= rdmachan_send_sg_zc_max(ch)) {
		ret = rdmachan_send_sg_zc(ch, net->sg, nents, imm, flags,
					  rcnet_tx_done, skb);
		if (!ret) {
			*zc = true;
			atomic64_inc(&net->tx_zc_packets);
			return 0;
		}
		/* -EAGAIN: no credit for either; else the copy may do */
		if (ret == -EAGAIN)
			return ret;
	}
	return rdmachan_send_sg(ch, net->sg, nents, imm, flags);
}

static netdev_tx_t rcnet_xmit(struct sk_buff *skb, struct net_device *ndev)
{
	struct rcnet *net = netdev_priv(ndev);
	struct rdmachan *ch = net->ch;	/* stable under the TX lock */
	unsigned int flags = RDMACHAN_SEND_IMM | RDMACHAN_SEND_NONBLOCK;
	unsigned int len = skb->len;
	struct rcnet_pkt pkt = {};
	int nents, ret;
	bool zc;
	u32 imm;

	if (!ch) {
		DEV_STATS_INC(ndev, tx_dropped);
		goto drop;
	}
	if (rcnet_proto(skb->protocol, &pkt.proto)) {
		DEV_STATS_INC(ndev, tx_errors);
		goto drop;
	}
	if (skb->ip_summed == CHECKSUM_PARTIAL) {
		/* the peer's stack finishes it, or its device (forwarded) */
		pkt.partial = true;
		pkt.csum_start = skb_checksum_start_offset(skb);
		pkt.csum_offset = skb->csum_offset;
	}
	if (rcnet_imm_encode(&pkt, &imm)) {
		/* a checksum the immediate cannot say: complete it here */
		if (skb_checksum_help(skb)) {
			DEV_STATS_INC(ndev, tx_errors);
			goto drop;
		}
		pkt.partial = false;
		rcnet_imm_encode(&pkt, &imm);
	}
	if (!len || len > rdmachan_max_msg_size(ch)) {
		DEV_STATS_INC(ndev, tx_errors);
		goto drop;
	}
	if ((skb_has_frag_list(skb) ||
	     skb_shinfo(skb)->nr_frags + 1 > ARRAY_SIZE(net->sg)) &&
	    skb_linearize(skb)) {
		DEV_STATS_INC(ndev, tx_dropped);
		goto drop;
	}
	sg_init_table(net->sg, skb_shinfo(skb)->nr_frags + 1);
	nents = skb_to_sgvec(skb, net->sg, 0, len);
	if (nents <= 0) {
		DEV_STATS_INC(ndev, tx_errors);
		goto drop;
	}
	ret = rcnet_send(net, ch, skb, nents, imm, flags, &zc);
	if (ret == -EAGAIN) {
		/*
		 * Stop first, then try again: a credit that came back before
		 * the stop would find the queue running and wake nothing; a
		 * refusal after the stop is followed by its writable call.
		 */
		netif_stop_queue(ndev);
		atomic64_inc(&net->tx_stopped);
		ret = rcnet_send(net, ch, skb, nents, imm, flags, &zc);
		if (ret == -EAGAIN)
			return NETDEV_TX_BUSY;
		netif_start_queue(ndev);
	}
	if (ret) {
		DEV_STATS_INC(ndev, tx_errors);
		goto drop;
	}
	/* without a copy the skb may be gone already: counted at its end */
	if (!zc) {
		dev_sw_netstats_tx_add(ndev, 1, len);
		dev_consume_skb_any(skb);
	}
	return NETDEV_TX_OK;

drop:
	dev_kfree_skb_any(skb);
	return NETDEV_TX_OK;
}

/*
 * A fragment for @want bytes: a page of the pool (@*pooled set), or a
 * compound page of up to RCNET_RX_ORDER.  A pool has one consumer, and
 * the callbacks of an old and a new channel could overlap: one
 * allocation from it at a time, under the device's pool_lock.
 */
static struct page *rcnet_rx_page(struct rcnet *net, u32 want,
				  unsigned int *order, bool *pooled)
{
	struct page *page;

	if (IS_ENABLED(CONFIG_PAGE_POOL) && net->pool &&
	    want >= RCNET_RX_POOL_MIN) {
		spin_lock_bh(&net->pool_lock);
		page = page_pool_alloc_pages(net->pool,
					     GFP_ATOMIC | __GFP_NOWARN);
		spin_unlock_bh(&net->pool_lock);
		if (page) {
			*order = RCNET_RX_ORDER;
			*pooled = true;
			return page;
		}
	}
	*order = min_t(unsigned int, get_order(want), RCNET_RX_ORDER);
	if (*order) {
		page = alloc_pages(GFP_ATOMIC | __GFP_COMP | __GFP_NOWARN |
				   __GFP_NORETRY, *order);
		if (page)
			return page;
		*order = 0;
	}
	return alloc_page(GFP_ATOMIC | __GFP_NOWARN);
}

/* Freeing @skb gives its pool pages back to their pool */
static void rcnet_rx_recycle(struct sk_buff *skb)
{
#ifdef CONFIG_PAGE_POOL
	skb_mark_for_recycle(skb);
#endif
}

/*
 * A large message without a copy: its headers copied into @skb's linear
 * part, the rest a fragment of the channel's receive buffer, which the
 * channel replaces (rdmachan_msg_detach(): @msg is released then).  Only
 * for a message of at least half the buffer: the skb is charged for the
 * whole buffer (truesize), and a smaller packet would weigh on its
 * socket's receive memory for more than it carries.  The buffer is what
 * this end asked for, which the peer's smaller messages may not fill.
 * Return: whether @skb now holds the message.
 */
static bool rcnet_rx_zc(struct rcnet *net, struct rdmachan *ch,
			struct rdmachan_msg *msg, struct sk_buff *skb)
{
	u32 len = msg->len;	/* @msg is reused once detached */
	unsigned int off, truesize;
	struct page *page;
	u8 *data;

	if (!READ_ONCE(rx_zero_copy) || len <= RCNET_RX_LINEAR ||
	    len < rdmachan_rx_truesize(ch) / 2)
		return false;
	page = rdmachan_msg_detach(ch, msg, &off, &truesize);
	if (!page)
		return false;
	data = page_address(page) + off;
	skb_put_data(skb, data, RCNET_RX_HEAD);
	skb_add_rx_frag(skb, 0, page, off + RCNET_RX_HEAD,
			len - RCNET_RX_HEAD, truesize);
	/* the page goes back to the channel's pool with the skb */
	rcnet_rx_recycle(skb);
	atomic64_inc(&net->rx_zc_packets);
	return true;
}

/*
 * A message's bytes in a new skb: without a copy when large enough
 * (rcnet_rx_zc()), else copied, linear when small, else into page
 * fragments.  An skb with a pool's page is marked for recycling: freeing
 * it gives those pages back to their pool (and the others to the
 * allocator).  @msg is released (the credit goes back) before the return.
 */
static struct sk_buff *rcnet_rx_skb(struct rcnet *net, struct rdmachan *ch,
				    struct rdmachan_msg *msg)
{
	const u8 *data = msg->data;
	u32 len = msg->len;
	u32 head = len <= RCNET_RX_LINEAR ? len : RCNET_RX_HEAD;
	bool pooled = false;
	struct sk_buff *skb;
	u32 off;
	int i;

	skb = netdev_alloc_skb(net->ndev, head);
	if (!skb)
		goto release;
	if (rcnet_rx_zc(net, ch, msg, skb))
		return skb;
	skb_put_data(skb, data, head);
	for (off = head, i = 0; off < len; i++) {
		unsigned int order;
		struct page *page;
		u32 n;

		if (i >= MAX_SKB_FRAGS)
			goto fail;
		page = rcnet_rx_page(net, len - off, &order, &pooled);
		if (!page)
			goto fail;
		n = min_t(u32, len - off, PAGE_SIZE << order);
		memcpy(page_address(page), data + off, n);
		skb_add_rx_frag(skb, i, page, 0, n, PAGE_SIZE << order);
		off += n;
	}
	/* the bytes are in the skb: the credit goes back now */
	rdmachan_msg_release(ch, msg);
	if (pooled) {
		rcnet_rx_recycle(skb);
		atomic64_inc(&net->rx_pool_packets);
	}
	return skb;

fail:
	if (pooled)
		rcnet_rx_recycle(skb);
	kfree_skb(skb);
release:
	rdmachan_msg_release(ch, msg);
	return NULL;
}

/*
 * &rdmachan_ops.recv: softirq, or with rx_spread the channel's unbound
 * workqueue (or the accepting thread): never sleeps
 */
static void rcnet_ch_recv(struct rdmachan *ch, struct rdmachan_msg *msg)
{
	struct rcnet *net = rdmachan_priv(ch);
	struct net_device *ndev = net->ndev;
	struct rcnet_pkt pkt;
	struct sk_buff *skb;

	if (rcnet_rx_check(msg, &pkt)) {
		rdmachan_msg_release(ch, msg);
		DEV_STATS_INC(ndev, rx_errors);
		return;
	}
	if (!netif_running(ndev) ||
	    skb_queue_len(&net->rxq) >= READ_ONCE(rx_backlog)) {
		rdmachan_msg_release(ch, msg);
		DEV_STATS_INC(ndev, rx_dropped);
		return;
	}
	skb = rcnet_rx_skb(net, ch, msg);
	if (!skb) {
		DEV_STATS_INC(ndev, rx_dropped);
		return;
	}
	skb->protocol = htons(pkt.proto);
	skb->pkt_type = PACKET_HOST;
	skb_reset_mac_header(skb);
	skb_reset_network_header(skb);
	/* the checksum field is within the linear head (RCNET_RX_HEAD) */
	if (pkt.partial &&
	    !skb_partial_csum_set(skb, pkt.csum_start, pkt.csum_offset)) {
		DEV_STATS_INC(ndev, rx_errors);
		kfree_skb(skb);
		return;
	}
	skb_queue_tail(&net->rxq, skb);
	/* in process context the softirq it raises runs at the enable */
	local_bh_disable();
	napi_schedule(&net->napi);
	local_bh_enable();
}

static int rcnet_poll(struct napi_struct *napi, int budget)
{
	struct rcnet *net = container_of(napi, struct rcnet, napi);
	struct sk_buff *skb;
	int done = 0;

	while (done < budget && (skb = skb_dequeue(&net->rxq))) {
		dev_sw_netstats_rx_add(net->ndev, skb->len);
		if (skb->len > RCNET_RX_NO_GRO)
			netif_receive_skb(skb);
		else
			napi_gro_receive(napi, skb);
		done++;
	}
	if (done < budget)
		napi_complete_done(napi, done);
	return done;
}

/* &rdmachan_ops.writable: credits are back (or the channel ended) */
static void rcnet_ch_writable(struct rdmachan *ch)
{
	struct rcnet *net = rdmachan_priv(ch);

	if (READ_ONCE(net->ch) == ch && netif_running(net->ndev)) {
		/* as in rcnet_ch_recv(): the TX softirq runs at the enable */
		local_bh_disable();
		netif_wake_queue(net->ndev);
		local_bh_enable();
	}
}

/* &rdmachan_ops.state_change: process context; must not close @ch */
static void rcnet_ch_state(struct rdmachan *ch, enum rdmachan_state state,
			   int err)
{
	struct rcnet *net = rdmachan_priv(ch);

	smp_mb();	/* the channel's state before net->ch: rcnet_install() */
	if (READ_ONCE(net->ch) != ch)
		return;	/* not installed yet (the attempt checks), or gone */
	netif_carrier_off(net->ndev);
	queue_work(rcnet_wq, &net->loss_work);
}

static const struct rdmachan_ops rcnet_ch_ops = {
	.recv		= rcnet_ch_recv,
	.state_change	= rcnet_ch_state,
	.writable	= rcnet_ch_writable,
};

/* ---- the link ------------------------------------------------------ */

/*
 * Take the channel away from the data path and close it; @abrupt: it
 * failed (or is replaced), do not flush.  Under net->lock.
 */
static void rcnet_detach(struct rcnet *net, bool abrupt)
{
	struct rdmachan *ch = net->ch;

	lockdep_assert_held(&net->lock);
	if (!ch)
		return;
	netif_carrier_off(net->ndev);
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
	netif_carrier_on(ndev);
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

static const struct rdmachan_listener_ops rcnet_listener_ops;

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

static const struct rdmachan_reconnect_ops rcnet_rc_ops = {
	.attempt	= rcnet_attempt,
	.state_change	= rcnet_link_state,
};

/* A channel failed, or the peer connected anew: detach, reconnect */
static void rcnet_loss_work(struct work_struct *work)
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
static void rcnet_start_locked(struct rcnet *net)
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
static void rcnet_pending_work(struct work_struct *work)
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

static const struct rdmachan_listener_ops rcnet_listener_ops = {
	.pending	= rcnet_pending,
	.admit		= rcnet_admit,
	.failed		= rcnet_listener_failed,
};

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

/*
 * The receive fragments' page pool: pages of RCNET_RX_ORDER, no DMA
 * mapping (the copy is the CPU's).  Without one (no memory, or a kernel
 * without CONFIG_PAGE_POOL, which no option selects in the debug tier's
 * kernel), every fragment comes from the page allocator: slower, not
 * broken; so a failure is logged, not returned.
 */
static void rcnet_pool_create(struct rcnet *net)
{
	struct page_pool_params pp = {
		.order = RCNET_RX_ORDER,
		.pool_size = RCNET_RX_POOL_SIZE,
		.nid = NUMA_NO_NODE,
	};
	struct page_pool *pool;

	net->pool = NULL;
	if (!IS_ENABLED(CONFIG_PAGE_POOL))
		return;
	pool = page_pool_create(&pp);
	if (IS_ERR(pool)) {
		pr_warn("net add %s: no page pool for received packets (%pe): pages come from the allocator\n",
			net->ndev->name, pool);
		pool = NULL;
	}
	net->pool = pool;
}

/*
 * Once nothing allocates from it (the device's channels closed, NAPI
 * gone): pages still in skbs come back to it, and are freed, later.
 * Twice is harmless: a failed register_netdevice() may already have run
 * the destructor.
 */
static void rcnet_pool_destroy(struct rcnet *net)
{
	if (net->pool)
		page_pool_destroy(net->pool);
	net->pool = NULL;
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
	net->opts.timeout_ms = READ_ONCE(connect_timeout_ms);
	net->spread = READ_ONCE(rx_spread);
	net->opts.poll_mode = net->spread ? RDMACHAN_POLL_UNBOUND :
			      RDMACHAN_POLL_SOFTIRQ;
	/* receive buffers the skbs can take over (rcnet_rx_zc()) */
	net->opts.rx_pages = true;
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

	p = &net->policy;
	loss = a->loss_timeout_ms ?: READ_ONCE(loss_timeout_ms);
	p->delay_ms = a->reconnect_delay_ms ?: READ_ONCE(reconnect_delay_ms);
	p->max_delay_ms = max(p->delay_ms, READ_ONCE(reconnect_max_delay_ms));
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
