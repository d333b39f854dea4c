// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan_net: /sys/class/net/NAME/rdmachan/, read-only
 *
 * What net show prints of one device, a file a value
 * (Documentation/ABI/testing/sysfs-class-net-rdmachan).  Each read takes
 * a fresh snapshot (rcnet_get_info()).
 */
#include <linux/device.h>
#include <linux/netdevice.h>
#include <linux/slab.h>
#include <linux/sysfs.h>

#include "net.h"

static const char *const rcnet_state_names[] = {
	[RDMACHAN_NET_UP]		= "up",
	[RDMACHAN_NET_RECONNECTING]	= "reconnecting",
	[RDMACHAN_NET_DEAD]		= "dead",
	[RDMACHAN_NET_WAITING]		= "waiting",
};

/* One snapshot per read: struct rdmachan_net_info is large for a stack */
static ssize_t rcnet_show(struct device *d, char *buf,
			  ssize_t (*fmt)(const struct rdmachan_net_info *i,
					 char *buf))
{
	struct rcnet *net = netdev_priv(to_net_dev(d));
	struct rdmachan_net_info *info;
	ssize_t ret;

	info = kzalloc(sizeof(*info), GFP_KERNEL);
	if (!info)
		return -ENOMEM;
	rcnet_get_info(net, info);
	ret = fmt(info, buf);
	kfree(info);
	return ret;
}

#define RCNET_ATTR(_name, _f, _val)					\
static ssize_t _name##_fmt(const struct rdmachan_net_info *i, char *buf) \
{									\
	return sysfs_emit(buf, _f "\n", _val);			\
}									\
static ssize_t _name##_show(struct device *d,				\
			    struct device_attribute *attr, char *buf)	\
{									\
	return rcnet_show(d, buf, _name##_fmt);				\
}									\
static DEVICE_ATTR_RO(_name)

RCNET_ATTR(mode, "%s", i->mode == RDMACHAN_NET_LISTEN ? "listen" : "connect");
RCNET_ATTR(state, "%s", i->state < ARRAY_SIZE(rcnet_state_names) ?
	   rcnet_state_names[i->state] : "unknown");
RCNET_ATTR(addr, "%pISpc", &i->addr);
/* the peer: empty while not connected (%pIS wants a family) */
static ssize_t peer_fmt(const struct rdmachan_net_info *i, char *buf)
{
	if (i->peer.ss_family != AF_INET && i->peer.ss_family != AF_INET6)
		return sysfs_emit(buf, "\n");
	return sysfs_emit(buf, "%pISpc\n", &i->peer);
}

static ssize_t peer_show(struct device *d, struct device_attribute *attr,
			 char *buf)
{
	return rcnet_show(d, buf, peer_fmt);
}
static DEVICE_ATTR_RO(peer);

/*
 * What net add was given and "rdmachan config save" writes back: the
 * source (CONNECT) or the one peer allowed (LISTEN), empty for any, and
 * the reconnect policy (set once at net add; @src pinned under
 * @info_lock).
 */
static ssize_t src_show(struct device *d, struct device_attribute *attr,
			char *buf)
{
	struct rcnet *net = netdev_priv(to_net_dev(d));
	struct sockaddr_storage ss;

	rcnet_get_src(net, &ss);
	if (ss.ss_family != AF_INET && ss.ss_family != AF_INET6)
		return sysfs_emit(buf, "\n");
	return sysfs_emit(buf, "%pISc\n", &ss);
}
static DEVICE_ATTR_RO(src);

static ssize_t reconnect_delay_ms_show(struct device *d,
				       struct device_attribute *attr,
				       char *buf)
{
	struct rcnet *net = netdev_priv(to_net_dev(d));

	return sysfs_emit(buf, "%u\n", net->policy.delay_ms);
}
static DEVICE_ATTR_RO(reconnect_delay_ms);

static ssize_t loss_timeout_ms_show(struct device *d,
				    struct device_attribute *attr, char *buf)
{
	struct rcnet *net = netdev_priv(to_net_dev(d));

	if (!net->policy.loss_timeout_ms)
		return sysfs_emit(buf, "off\n");
	return sysfs_emit(buf, "%u\n", net->policy.loss_timeout_ms);
}
static DEVICE_ATTR_RO(loss_timeout_ms);

RCNET_ATTR(max_msg_size, "%u", i->max_msg_size);
RCNET_ATTR(queue_depth, "%u", i->queue_depth);
RCNET_ATTR(attempt, "%u", i->attempt);
RCNET_ATTR(losses, "%u", i->losses);
RCNET_ATTR(last_error, "%d", i->last_error);
RCNET_ATTR(reconnects, "%llu", i->c.reconnects);
RCNET_ATTR(tx_stopped, "%llu", i->c.tx_stopped);

/* not in struct rdmachan_net_counters: how the copy is done, not traffic */
static ssize_t rx_pool_packets_show(struct device *d,
				    struct device_attribute *attr, char *buf)
{
	struct rcnet *net = netdev_priv(to_net_dev(d));

	return sysfs_emit(buf, "%lld\n", atomic64_read(&net->rx_pool_packets));
}
static DEVICE_ATTR_RO(rx_pool_packets);

static ssize_t rx_zc_packets_show(struct device *d,
				  struct device_attribute *attr, char *buf)
{
	struct rcnet *net = netdev_priv(to_net_dev(d));

	return sysfs_emit(buf, "%lld\n", atomic64_read(&net->rx_zc_packets));
}
static DEVICE_ATTR_RO(rx_zc_packets);

static ssize_t tx_zc_packets_show(struct device *d,
				  struct device_attribute *attr, char *buf)
{
	struct rcnet *net = netdev_priv(to_net_dev(d));

	return sysfs_emit(buf, "%lld\n", atomic64_read(&net->tx_zc_packets));
}
static DEVICE_ATTR_RO(tx_zc_packets);

/*
 * The channel that carries the interface: its sysfs name (chanN), "-"
 * while there is none; the pointer is stable under the TX lock, which
 * the detach takes to clear it before the channel is closed
 */
static ssize_t channel_show(struct device *d, struct device_attribute *attr,
			    char *buf)
{
	struct net_device *ndev = to_net_dev(d);
	struct rcnet *net = netdev_priv(ndev);
	struct rdmachan *ch;
	u32 id = 0;

	netif_tx_lock_bh(ndev);
	ch = READ_ONCE(net->ch);
	if (ch)
		id = rdmachan_chan_id(ch);
	netif_tx_unlock_bh(ndev);
	return ch ? sysfs_emit(buf, "chan%u\n", id) : sysfs_emit(buf, "-\n");
}
static DEVICE_ATTR_RO(channel);

/* The latency histograms (hist.c's lines); a write resets one */
#define RCNET_HIST_ATTR(_name, _expr)					\
static struct rdmachan_hist *_name##_of(struct device *d)		\
{									\
	struct rcnet *net = netdev_priv(to_net_dev(d));			\
									\
	return _expr;							\
}									\
static ssize_t _name##_show(struct device *d,				\
			    struct device_attribute *attr, char *buf)	\
{									\
	return rdmachan_hist_show(_name##_of(d), buf);			\
}									\
static ssize_t _name##_store(struct device *d,				\
			     struct device_attribute *attr,		\
			     const char *buf, size_t count)		\
{									\
	rdmachan_hist_reset(_name##_of(d));				\
	return count;							\
}									\
static DEVICE_ATTR_RW(_name)

RCNET_HIST_ATTR(hist_tx, net->hist_tx);
RCNET_HIST_ATTR(hist_rx, net->hist_rx);

static struct attribute *rcnet_attrs[] = {
	&dev_attr_channel.attr,
	&dev_attr_mode.attr,
	&dev_attr_state.attr,
	&dev_attr_addr.attr,
	&dev_attr_peer.attr,
	&dev_attr_src.attr,
	&dev_attr_reconnect_delay_ms.attr,
	&dev_attr_loss_timeout_ms.attr,
	&dev_attr_max_msg_size.attr,
	&dev_attr_queue_depth.attr,
	&dev_attr_attempt.attr,
	&dev_attr_losses.attr,
	&dev_attr_last_error.attr,
	&dev_attr_reconnects.attr,
	&dev_attr_tx_stopped.attr,
	&dev_attr_rx_pool_packets.attr,
	&dev_attr_rx_zc_packets.attr,
	&dev_attr_tx_zc_packets.attr,
	&dev_attr_hist_tx.attr,
	&dev_attr_hist_rx.attr,
	NULL,
};

const struct attribute_group rcnet_attr_group = {
	.name	= "rdmachan",
	.attrs	= rcnet_attrs,
};
