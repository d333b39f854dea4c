// SPDX-License-Identifier: GPL-2.0-only
/*
 * RDMACHAN_HAVE_RTNL_NEWLINK_PARAMS: rtnl_link_ops.newlink takes the
 * device, a struct rtnl_newlink_params and the extack, no longer the
 * source namespace and the attribute tables one by one.
 * Linux 6.15: "rtnetlink: Pack newlink() params into struct".
 */
#include <net/rtnetlink.h>

static int rdmachan_probe_newlink(struct net_device *dev,
				  struct rtnl_newlink_params *params,
				  struct netlink_ext_ack *extack)
{
	return -EOPNOTSUPP;
}

struct rtnl_link_ops rdmachan_probe_ops = {
	.kind		= "rdmachan_probe",
	.newlink	= rdmachan_probe_newlink,
};
