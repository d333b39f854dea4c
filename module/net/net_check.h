/* SPDX-License-Identifier: GPL-2.0-only */
/* rdmachan_net: the pure checks (net_check.c) */
#ifndef RCNET_CHECK_H
#define RCNET_CHECK_H

#include <linux/bits.h>
#include <linux/ip.h>
#include <linux/socket.h>
#include <linux/types.h>

#include <linux/rdmachan_net.h>

#include "rdmachan.h"

/* Largest IP packet; also the largest MTU whatever the channel carries */
#define RCNET_MAX_MTU		IP_MAX_MTU
#define RCNET_DEFAULT_MSG	65536	/* &rdmachan_net_add.max_msg_size 0 */
#define RCNET_MIN_MSG		1280	/* IPv6's minimum MTU fits */
#define RCNET_MAX_MSG		BIT(20)

int rcnet_check_add(const struct rdmachan_net_add *a, u32 *max_msg);
int rcnet_default_port(struct sockaddr_storage *ss);
bool rcnet_same_host(const struct sockaddr_storage *a,
		     const struct sockaddr_storage *b);
int rcnet_tx_imm(__be16 proto, u32 *imm);
int rcnet_rx_check(const struct rdmachan_msg *msg);

#endif /* RCNET_CHECK_H */
