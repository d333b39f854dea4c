// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan_net: the rtnetlink kind "rdmachan"
 *
 *   ip link add NAME type rdmachan mode listen|connect addr ADDR
 *	[port PORT] [src ADDR] [msg-size N] [depth N]
 *	[reconnect-delay MS] [loss-timeout MS|off] [mtu N]
 *
 * (iproute2 reads those words with link_rdmachan.so, which the tool's
 * tree builds: userspace-tool/iproute2/) makes the device that
 * RDMACHAN_IOC_NET_ADD makes: the attributes IFLA_RDMACHAN_*
 * (uapi/linux/rdmachan_net.h) become a struct rdmachan_net_add, checked
 * as the ioctl's is (rcnet_check_add()), and "ip -d link show" reports
 * them (rcnet_fill_info()).  As vxlan and geneve do, the kind's
 * attributes are what the device was made with; the state (peer,
 * carrier, reconnects) is in sysfs and "rdmachan net show".  "ip link
 * del", a namespace going away and the module's unload delete through
 * rcnet_dellink() (net_dev.c).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/in.h>
#include <linux/in6.h>
#include <linux/netdevice.h>
#include <net/netlink.h>
#include <net/rtnetlink.h>

#include "compat.h"
#include "net.h"

static const struct nla_policy rcnet_policy[IFLA_RDMACHAN_MAX + 1] = {
	[IFLA_RDMACHAN_MODE]	= NLA_POLICY_RANGE(NLA_U32, RDMACHAN_NET_LISTEN,
						   RDMACHAN_NET_CONNECT),
	[IFLA_RDMACHAN_ADDR]	= { .type = NLA_BINARY,
				    .len = sizeof(struct in6_addr) },
	[IFLA_RDMACHAN_PORT]	= { .type = NLA_U16 },
	[IFLA_RDMACHAN_SRC]	= { .type = NLA_BINARY,
				    .len = sizeof(struct in6_addr) },
	[IFLA_RDMACHAN_SCOPE_ID] = { .type = NLA_U32 },
	[IFLA_RDMACHAN_MSG_SIZE] = { .type = NLA_U32 },
	[IFLA_RDMACHAN_QUEUE_DEPTH] = { .type = NLA_U32 },
	[IFLA_RDMACHAN_RECONNECT_DELAY_MS] = { .type = NLA_U32 },
	[IFLA_RDMACHAN_LOSS_TIMEOUT_MS] = { .type = NLA_U32 },
};

/* an address attribute (4 bytes: IPv4, 16: IPv6) into @ss */
static int rcnet_link_addr(const struct nlattr *nla, u16 port, u32 scope,
			   struct sockaddr_storage *ss)
{
	struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)ss;
	struct sockaddr_in *sin = (struct sockaddr_in *)ss;

	memset(ss, 0, sizeof(*ss));
	switch (nla_len(nla)) {
	case sizeof(struct in_addr):
		sin->sin_family = AF_INET;
		sin->sin_port = htons(port);
		memcpy(&sin->sin_addr, nla_data(nla), sizeof(sin->sin_addr));
		return 0;
	case sizeof(struct in6_addr):
		sin6->sin6_family = AF_INET6;
		sin6->sin6_port = htons(port);
		sin6->sin6_scope_id = scope;
		memcpy(&sin6->sin6_addr, nla_data(nla), sizeof(sin6->sin6_addr));
		return 0;
	default:
		return -EINVAL;
	}
}

static u32 rcnet_link_u32(struct nlattr *data[], int type)
{
	return data[type] ? nla_get_u32(data[type]) : 0;
}

/* The attributes into @a; what is wrong named in @extack */
static int rcnet_link_parse(const struct net_device *dev, struct nlattr *tb[],
			    struct nlattr *data[], struct rdmachan_net_add *a,
			    struct netlink_ext_ack *extack)
{
	u16 port;
	u32 scope;

	if (!data || !data[IFLA_RDMACHAN_MODE] || !data[IFLA_RDMACHAN_ADDR]) {
		NL_SET_ERR_MSG(extack, "mode and addr are needed (or: rdmachan net add)");
		return -EINVAL;
	}
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	strscpy(a->name, dev->name, sizeof(a->name));
	a->mode = nla_get_u32(data[IFLA_RDMACHAN_MODE]);
	port = data[IFLA_RDMACHAN_PORT] ?
	       nla_get_u16(data[IFLA_RDMACHAN_PORT]) : 0;
	scope = rcnet_link_u32(data, IFLA_RDMACHAN_SCOPE_ID);
	if (rcnet_link_addr(data[IFLA_RDMACHAN_ADDR], port, scope, &a->addr)) {
		NL_SET_ERR_MSG_ATTR(extack, data[IFLA_RDMACHAN_ADDR],
				    "addr is 4 bytes (IPv4) or 16 (IPv6)");
		return -EINVAL;
	}
	if (data[IFLA_RDMACHAN_SRC] &&
	    (rcnet_link_addr(data[IFLA_RDMACHAN_SRC], 0, scope, &a->src) ||
	     a->src.ss_family != a->addr.ss_family)) {
		NL_SET_ERR_MSG_ATTR(extack, data[IFLA_RDMACHAN_SRC],
				    "src is an address of addr's family");
		return -EINVAL;
	}
	/* rtnetlink checked IFLA_MTU against the kind's bounds already */
	a->mtu = tb[IFLA_MTU] ? nla_get_u32(tb[IFLA_MTU]) : 0;
	a->max_msg_size = rcnet_link_u32(data, IFLA_RDMACHAN_MSG_SIZE);
	a->queue_depth = rcnet_link_u32(data, IFLA_RDMACHAN_QUEUE_DEPTH);
	a->reconnect_delay_ms =
		rcnet_link_u32(data, IFLA_RDMACHAN_RECONNECT_DELAY_MS);
	a->loss_timeout_ms = rcnet_link_u32(data, IFLA_RDMACHAN_LOSS_TIMEOUT_MS);
	return 0;
}

static int rcnet_newlink_dev(struct net_device *dev, struct nlattr *tb[],
			     struct nlattr *data[],
			     struct netlink_ext_ack *extack)
{
	struct rdmachan_net_add a;
	int ret;

	/* "ip link add type rdmachan" without a name: rdmachan%d, now */
	if (strchr(dev->name, '%')) {
		ret = dev_alloc_name(dev, dev->name);
		if (ret < 0)
			return ret;
	}
	ret = rcnet_link_parse(dev, tb, data, &a, extack);
	if (ret)
		return ret;
	ret = rcnet_add_link(dev, &a);
	if (ret == -EINVAL || ret == -EAFNOSUPPORT)
		NL_SET_ERR_MSG(extack, "rdmachan refused the arguments: the kernel log says which");
	else if (ret == -EEXIST)
		NL_SET_ERR_MSG(extack, "an rdmachan interface of that name exists");
	return ret;
}

RC_DEFINE_NEWLINK(rcnet)

static size_t rcnet_get_size(const struct net_device *dev)
{
	return nla_total_size(sizeof(u32)) +		/* MODE */
	       2 * nla_total_size(sizeof(struct in6_addr)) + /* ADDR, SRC */
	       nla_total_size(sizeof(u16)) +		/* PORT */
	       5 * nla_total_size(sizeof(u32));	/* the others */
}

static int rcnet_put_addr(struct sk_buff *skb, int type,
			  const struct sockaddr_storage *ss)
{
	const struct sockaddr_in6 *sin6 = (const struct sockaddr_in6 *)ss;
	const struct sockaddr_in *sin = (const struct sockaddr_in *)ss;

	if (ss->ss_family == AF_INET)
		return nla_put_in_addr(skb, type, sin->sin_addr.s_addr);
	if (ss->ss_family == AF_INET6)
		return nla_put_in6_addr(skb, type, &sin6->sin6_addr);
	return 0;
}

/* What the device was made with, as ip link add gives it */
static int rcnet_fill_info(struct sk_buff *skb, const struct net_device *dev)
{
	struct rcnet *net = netdev_priv(dev);
	const struct sockaddr_in6 *a6 = (const struct sockaddr_in6 *)&net->addr;
	struct sockaddr_storage src;
	u32 loss = net->policy.loss_timeout_ms;

	rcnet_get_src(net, &src);
	if (nla_put_u32(skb, IFLA_RDMACHAN_MODE, net->mode) ||
	    rcnet_put_addr(skb, IFLA_RDMACHAN_ADDR, &net->addr) ||
	    nla_put_u16(skb, IFLA_RDMACHAN_PORT, ntohs(a6->sin6_port)) ||
	    rcnet_put_addr(skb, IFLA_RDMACHAN_SRC, &src) ||
	    (net->addr.ss_family == AF_INET6 && a6->sin6_scope_id &&
	     nla_put_u32(skb, IFLA_RDMACHAN_SCOPE_ID, a6->sin6_scope_id)) ||
	    nla_put_u32(skb, IFLA_RDMACHAN_MSG_SIZE, net->opts.max_msg_size) ||
	    nla_put_u32(skb, IFLA_RDMACHAN_QUEUE_DEPTH, net->opts.queue_depth) ||
	    nla_put_u32(skb, IFLA_RDMACHAN_RECONNECT_DELAY_MS,
			net->policy.delay_ms) ||
	    nla_put_u32(skb, IFLA_RDMACHAN_LOSS_TIMEOUT_MS,
			loss ? loss : RDMACHAN_NET_TMO_OFF))
		return -EMSGSIZE;
	return 0;
}

struct rtnl_link_ops rcnet_link_ops = {
	.kind		= "rdmachan",
	.maxtype	= IFLA_RDMACHAN_MAX,
	.policy		= rcnet_policy,
	.priv_size	= sizeof(struct rcnet),
	.setup		= rcnet_setup,
	.newlink	= rcnet_newlink,
	.dellink	= rcnet_dellink,
	.get_size	= rcnet_get_size,
	.fill_info	= rcnet_fill_info,
};
