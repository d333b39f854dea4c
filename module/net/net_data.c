// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan_net: the data path (transmit, receive, NAPI)
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
#include "net_trace.h"

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
	struct rcnet *net = netdev_priv(skb->dev);

	if (err) {
		DEV_STATS_INC(skb->dev, tx_errors);
		dev_kfree_skb_any(skb);
	} else {
		/* the packets tx_packets counts, no other */
		if (rcnet_cb(skb)->t_ns)
			rdmachan_hist_add(net->hist_tx, ktime_get_ns() -
					  rcnet_cb(skb)->t_ns);
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

netdev_tx_t rcnet_xmit(struct sk_buff *skb, struct net_device *ndev)
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
	/* the control block is the driver's here: when the packet came */
	rcnet_cb(skb)->t_ns = net->hist_tx ? ktime_get_ns() : 0;
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
		trace_rcnet_queue(ndev->name, true);
		ret = rcnet_send(net, ch, skb, nents, imm, flags, &zc);
		if (ret == -EAGAIN) {
			trace_rcnet_xmit(ndev->name, len, pkt.proto, zc, ret);
			return NETDEV_TX_BUSY;
		}
		netif_start_queue(ndev);
		trace_rcnet_queue(ndev->name, false);
	}
	/* the skb may be gone (zero copy): its length and protocol are kept */
	trace_rcnet_xmit(ndev->name, len, pkt.proto, zc, ret);
	if (ret) {
		DEV_STATS_INC(ndev, tx_errors);
		goto drop;
	}
	/* without a copy the skb may be gone already: counted at its end */
	if (!zc) {
		if (rcnet_cb(skb)->t_ns)
			rdmachan_hist_add(net->hist_tx,
					  ktime_get_ns() - rcnet_cb(skb)->t_ns);
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

	if (!READ_ONCE(rcnet_rx_zero_copy) || len <= RCNET_RX_LINEAR ||
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
				    struct rdmachan_msg *msg, bool *zc)
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
	*zc = rcnet_rx_zc(net, ch, msg, skb);
	if (*zc)
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
	u64 t_ns = net->hist_rx ? ktime_get_ns() : 0;
	struct net_device *ndev = net->ndev;
	struct rcnet_pkt pkt;
	struct sk_buff *skb;
	bool zc;

	if (rcnet_rx_check(msg, &pkt)) {
		rdmachan_msg_release(ch, msg);
		DEV_STATS_INC(ndev, rx_errors);
		return;
	}
	if (!netif_running(ndev) ||
	    skb_queue_len(&net->rxq) >= rcnet_param(rx_backlog)) {
		rdmachan_msg_release(ch, msg);
		DEV_STATS_INC(ndev, rx_dropped);
		return;
	}
	skb = rcnet_rx_skb(net, ch, msg, &zc);
	if (!skb) {
		DEV_STATS_INC(ndev, rx_dropped);
		return;
	}
	trace_rcnet_recv(ndev->name, skb->len, pkt.proto, zc);
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
	rcnet_cb(skb)->t_ns = t_ns;
	skb_queue_tail(&net->rxq, skb);
	/* in process context the softirq it raises runs at the enable */
	local_bh_disable();
	napi_schedule(&net->napi);
	local_bh_enable();
}

int rcnet_poll(struct napi_struct *napi, int budget)
{
	struct rcnet *net = container_of(napi, struct rcnet, napi);
	struct sk_buff *skb;
	int done = 0;

	while (done < budget && (skb = skb_dequeue(&net->rxq))) {
		if (rcnet_cb(skb)->t_ns)
			rdmachan_hist_add(net->hist_rx, ktime_get_ns() -
					  rcnet_cb(skb)->t_ns);
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
		if (netif_queue_stopped(net->ndev))
			trace_rcnet_queue(net->ndev->name, false);
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
	rcnet_carrier(net, false);
	queue_work(rcnet_wq, &net->loss_work);
}

const struct rdmachan_ops rcnet_ch_ops = {
	.recv		= rcnet_ch_recv,
	.state_change	= rcnet_ch_state,
	.writable	= rcnet_ch_writable,
};

/*
 * The receive fragments' page pool: pages of RCNET_RX_ORDER, no DMA
 * mapping (the copy is the CPU's).  Without one (no memory, or a kernel
 * without CONFIG_PAGE_POOL, which no option selects in the debug tier's
 * kernel), every fragment comes from the page allocator: slower, not
 * broken; so a failure is logged, not returned.
 */
void rcnet_pool_create(struct rcnet *net)
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
void rcnet_pool_destroy(struct rcnet *net)
{
	if (net->pool)
		page_pool_destroy(net->pool);
	net->pool = NULL;
}

