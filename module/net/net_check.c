// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan_net: the pure checks, no device or channel needed
 *
 * What an add request may ask for, what a packet's immediate says (its
 * protocol and checksum state), whether a received message is a packet,
 * whether a
 * connection comes from the interface's peer.  KUnit suite
 * rdmachan_net_check (tests/kunit/net_check_kunit.c) includes this file.
 */
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/ip.h>
#include <linux/netdevice.h>
#include <linux/string.h>
#include <net/ipv6.h>

#include "net_check.h"

/**
 * rcnet_check_add() - the arguments of an add request, checked
 * @a: the request (its size, reserved fields and name terminated are the
 *	ioctl's checks)
 * @max_msg: out: the message size it asks for (the default for 0)
 *
 * Context: any.
 * Return: 0; -EINVAL for a bad mode, name, source family, message size
 * or MTU; -EAFNOSUPPORT for an address neither IPv4 nor IPv6.
 */
int rcnet_check_add(const struct rdmachan_net_add *a, u32 *max_msg)
{
	u32 msg = a->max_msg_size ?: RCNET_DEFAULT_MSG;

	if (a->mode != RDMACHAN_NET_LISTEN && a->mode != RDMACHAN_NET_CONNECT)
		return -EINVAL;
	if (!dev_valid_name(a->name))
		return -EINVAL;
	if (a->addr.ss_family != AF_INET && a->addr.ss_family != AF_INET6)
		return -EAFNOSUPPORT;
	if (a->src.ss_family != AF_UNSPEC &&
	    a->src.ss_family != a->addr.ss_family)
		return -EINVAL;
	if (msg < RCNET_MIN_MSG || msg > RCNET_MAX_MSG)
		return -EINVAL;
	if (a->mtu && (a->mtu < ETH_MIN_MTU ||
		       a->mtu > min_t(u32, msg, RCNET_MAX_MTU)))
		return -EINVAL;
	*max_msg = msg;
	return 0;
}

/**
 * rcnet_default_port() - RDMACHAN_NET_DEFAULT_PORT where @ss has none
 * @ss: an IPv4 or IPv6 address
 *
 * Context: any.
 * Return: 0, or -EAFNOSUPPORT for another family.
 */
int rcnet_default_port(struct sockaddr_storage *ss)
{
	switch (ss->ss_family) {
	case AF_INET:
		if (!((struct sockaddr_in *)ss)->sin_port)
			((struct sockaddr_in *)ss)->sin_port =
				htons(RDMACHAN_NET_DEFAULT_PORT);
		return 0;
	case AF_INET6:
		if (!((struct sockaddr_in6 *)ss)->sin6_port)
			((struct sockaddr_in6 *)ss)->sin6_port =
				htons(RDMACHAN_NET_DEFAULT_PORT);
		return 0;
	default:
		return -EAFNOSUPPORT;
	}
}

/**
 * rcnet_same_host() - are @a and @b the same IP address (ports aside)?
 * @a: an address
 * @b: another
 *
 * Context: any.
 * Return: true when both are IPv4 or both IPv6, with the same address.
 */
bool rcnet_same_host(const struct sockaddr_storage *a,
		     const struct sockaddr_storage *b)
{
	if (a->ss_family != b->ss_family)
		return false;
	if (a->ss_family == AF_INET)
		return ((const struct sockaddr_in *)a)->sin_addr.s_addr ==
		       ((const struct sockaddr_in *)b)->sin_addr.s_addr;
	if (a->ss_family == AF_INET6)
		return ipv6_addr_equal(&((const struct sockaddr_in6 *)a)->sin6_addr,
				       &((const struct sockaddr_in6 *)b)->sin6_addr);
	return false;
}

/**
 * rcnet_proto() - the protocol a packet's message may carry
 * @proto: skb->protocol
 * @eth_p: out: ETH_P_IP or ETH_P_IPV6
 *
 * Context: any.
 * Return: 0, or -EPROTONOSUPPORT for anything but IPv4 and IPv6.
 */
int rcnet_proto(__be16 proto, u16 *eth_p)
{
	if (proto == htons(ETH_P_IP))
		*eth_p = ETH_P_IP;
	else if (proto == htons(ETH_P_IPV6))
		*eth_p = ETH_P_IPV6;
	else
		return -EPROTONOSUPPORT;
	return 0;
}

/**
 * rcnet_imm_encode() - the immediate of a packet (net_check.h says how)
 * @pkt: the packet's protocol and checksum state
 * @imm: out: the immediate
 *
 * Context: any.
 * Return: 0; -EPROTONOSUPPORT for another protocol; -ERANGE for a
 * partial checksum the immediate cannot say (an odd offset, or a start
 * or offset too large): the caller completes the checksum and sends the
 * packet plain.
 */
int rcnet_imm_encode(const struct rcnet_pkt *pkt, u32 *imm)
{
	if (pkt->proto != ETH_P_IP && pkt->proto != ETH_P_IPV6)
		return -EPROTONOSUPPORT;
	if (!pkt->partial) {
		*imm = pkt->proto;
		return 0;
	}
	if ((pkt->csum_offset & 1) ||
	    pkt->csum_offset / 2 > RCNET_IMM_OFF_MAX ||
	    pkt->csum_start > RCNET_IMM_START_MAX)
		return -ERANGE;
	*imm = RCNET_IMM_PARTIAL |
	       (pkt->proto == ETH_P_IPV6 ? RCNET_IMM_V6 : 0) |
	       (u32)(pkt->csum_offset / 2) << RCNET_IMM_OFF_SHIFT |
	       pkt->csum_start;
	return 0;
}

/**
 * rcnet_imm_decode() - what an immediate says of its packet
 * @imm: the immediate
 * @pkt: out: the protocol and checksum state
 *
 * Context: any.
 * Return: 0, or -EPROTO for an immediate no sender makes.
 */
int rcnet_imm_decode(u32 imm, struct rcnet_pkt *pkt)
{
	memset(pkt, 0, sizeof(*pkt));
	if (!(imm & RCNET_IMM_PARTIAL)) {
		if (imm != ETH_P_IP && imm != ETH_P_IPV6)
			return -EPROTO;
		pkt->proto = imm;
		return 0;
	}
	if (imm & RCNET_IMM_RESERVED)
		return -EPROTO;
	pkt->proto = imm & RCNET_IMM_V6 ? ETH_P_IPV6 : ETH_P_IP;
	pkt->partial = true;
	pkt->csum_offset = ((imm >> RCNET_IMM_OFF_SHIFT) & RCNET_IMM_OFF_MAX) * 2;
	pkt->csum_start = imm & RCNET_IMM_START_MAX;
	return 0;
}

/**
 * rcnet_rx_check() - is a received message a packet, and which?
 * @msg: the message
 * @pkt: out: what its immediate says
 *
 * A packet is a message with an immediate (not a peer's RDMA WRITE)
 * that rcnet_imm_decode() takes, of 1 to 65535 bytes, whose checksum
 * field, when partial, lies within it.
 *
 * Context: any.
 * Return: 0, or -EPROTO.
 */
int rcnet_rx_check(const struct rdmachan_msg *msg, struct rcnet_pkt *pkt)
{
	if (msg->rdma_imm || !msg->has_imm || !msg->len ||
	    msg->len > RCNET_MAX_MTU)
		return -EPROTO;
	if (rcnet_imm_decode(msg->imm, pkt))
		return -EPROTO;
	if (pkt->partial &&
	    (u32)pkt->csum_start + pkt->csum_offset + 2 > msg->len)
		return -EPROTO;
	return 0;
}
