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
/* &rdmachan_net_add.max_msg_size 0: receive buffers of 64 KiB (rx_pages) */
#define RCNET_DEFAULT_MSG	RDMACHAN_NET_DEFAULT_MSG
static_assert(RCNET_DEFAULT_MSG + RDMACHAN_RX_OVERHEAD == 65536);
#define RCNET_MIN_MSG		1280	/* IPv6's minimum MTU fits */
#define RCNET_MAX_MSG		BIT(20)

/*
 * The 32-bit immediate of a packet's message.  ETH_P_IP or ETH_P_IPV6:
 * a packet whose checksums are complete.  With RCNET_IMM_PARTIAL (bit
 * 31): a packet whose transport checksum is left to be filled in
 * (CHECKSUM_PARTIAL at both ends, virtio-net's NEEDS_CSUM): bit 30 says
 * IPv6, bits 16-21 hold the checksum field's offset from its start in
 * 16-bit words (csum_offset / 2), bits 0-15 the checksummed region's
 * start (csum_start) from the packet's first byte; bits 22-29 are zero.
 */
#define RCNET_IMM_PARTIAL	BIT(31)
#define RCNET_IMM_V6		BIT(30)
#define RCNET_IMM_OFF_SHIFT	16
#define RCNET_IMM_OFF_MAX	0x3fU		/* in 16-bit words */
#define RCNET_IMM_START_MAX	0xffffU
#define RCNET_IMM_RESERVED	GENMASK(29, 22)

/**
 * struct rcnet_pkt - what the immediate says of a packet
 * @proto: ETH_P_IP or ETH_P_IPV6
 * @partial: its transport checksum is to be filled in
 * @csum_start: with @partial: where the checksummed region starts
 * @csum_offset: with @partial: the checksum field, from @csum_start
 */
struct rcnet_pkt {
	u16 proto;
	bool partial;
	u16 csum_start;
	u16 csum_offset;
};

int rcnet_check_add(const struct rdmachan_net_add *a, u32 *max_msg);
int rcnet_default_port(struct sockaddr_storage *ss);
bool rcnet_same_host(const struct sockaddr_storage *a,
		     const struct sockaddr_storage *b);
int rcnet_proto(__be16 proto, u16 *eth_p);
int rcnet_imm_encode(const struct rcnet_pkt *pkt, u32 *imm);
int rcnet_imm_decode(u32 imm, struct rcnet_pkt *pkt);
int rcnet_rx_check(const struct rdmachan_msg *msg, struct rcnet_pkt *pkt);

#endif /* RCNET_CHECK_H */
