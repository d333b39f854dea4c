// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite for module/net/net_check.c, the network channel's pure
 * checks: the add request's arguments at and past their bounds, the
 * default port, the peer's address match, the protocol and partial
 * checksum of a packet in the immediate, both ways and at their bounds.
 */
#include <kunit/test.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/string.h>

#include "../../module/net/net_check.c"

static void good_add(struct rdmachan_net_add *a)
{
	struct sockaddr_in *sin = (struct sockaddr_in *)&a->addr;

	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->mode = RDMACHAN_NET_CONNECT;
	strscpy(a->name, "rcn0", sizeof(a->name));
	sin->sin_family = AF_INET;
	sin->sin_addr.s_addr = htonl(0xc0000201);
}

static void net_check_add_ok(struct kunit *test)
{
	struct rdmachan_net_add a;
	u32 msg = 0;

	good_add(&a);
	KUNIT_EXPECT_EQ(test, rcnet_check_add(&a, &msg), 0);
	KUNIT_EXPECT_EQ(test, msg, (u32)RCNET_DEFAULT_MSG);
	/* the default's receive buffer is 64 KiB exactly */
	KUNIT_EXPECT_EQ(test, msg + RDMACHAN_RX_OVERHEAD, 65536U);
	a.mtu = RCNET_DEFAULT_MSG;
	KUNIT_EXPECT_EQ(test, rcnet_check_add(&a, &msg), 0);
	a.mtu = 0;
	a.mode = RDMACHAN_NET_LISTEN;
	a.max_msg_size = RCNET_MIN_MSG;
	a.mtu = RCNET_MIN_MSG;
	KUNIT_EXPECT_EQ(test, rcnet_check_add(&a, &msg), 0);
	KUNIT_EXPECT_EQ(test, msg, (u32)RCNET_MIN_MSG);
	a.max_msg_size = RCNET_MAX_MSG;
	a.mtu = RCNET_MAX_MTU;
	KUNIT_EXPECT_EQ(test, rcnet_check_add(&a, &msg), 0);
	a.mtu = ETH_MIN_MTU;
	KUNIT_EXPECT_EQ(test, rcnet_check_add(&a, &msg), 0);
}

static void net_check_add_bad(struct kunit *test)
{
	struct rdmachan_net_add a;
	u32 msg = 0;

	good_add(&a);
	a.mode = 0;
	KUNIT_EXPECT_EQ(test, rcnet_check_add(&a, &msg), -EINVAL);
	a.mode = 3;
	KUNIT_EXPECT_EQ(test, rcnet_check_add(&a, &msg), -EINVAL);
	good_add(&a);
	strscpy(a.name, "a/b", sizeof(a.name));
	KUNIT_EXPECT_EQ(test, rcnet_check_add(&a, &msg), -EINVAL);
	strscpy(a.name, "..", sizeof(a.name));
	KUNIT_EXPECT_EQ(test, rcnet_check_add(&a, &msg), -EINVAL);
	strscpy(a.name, "a b", sizeof(a.name));
	KUNIT_EXPECT_EQ(test, rcnet_check_add(&a, &msg), -EINVAL);
	good_add(&a);
	a.addr.ss_family = AF_UNIX;
	KUNIT_EXPECT_EQ(test, rcnet_check_add(&a, &msg), -EAFNOSUPPORT);
	good_add(&a);
	a.src.ss_family = AF_INET6;
	KUNIT_EXPECT_EQ(test, rcnet_check_add(&a, &msg), -EINVAL);
	good_add(&a);
	a.max_msg_size = RCNET_MIN_MSG - 1;
	KUNIT_EXPECT_EQ(test, rcnet_check_add(&a, &msg), -EINVAL);
	a.max_msg_size = RCNET_MAX_MSG + 1;
	KUNIT_EXPECT_EQ(test, rcnet_check_add(&a, &msg), -EINVAL);
	good_add(&a);
	a.mtu = ETH_MIN_MTU - 1;
	KUNIT_EXPECT_EQ(test, rcnet_check_add(&a, &msg), -EINVAL);
	a.mtu = RCNET_MAX_MTU + 1;
	KUNIT_EXPECT_EQ(test, rcnet_check_add(&a, &msg), -EINVAL);
	a.max_msg_size = 4096;
	a.mtu = 4097;
	KUNIT_EXPECT_EQ(test, rcnet_check_add(&a, &msg), -EINVAL);
	/* no MTU beyond the default message size either */
	good_add(&a);
	a.mtu = RCNET_DEFAULT_MSG + 1;
	KUNIT_EXPECT_EQ(test, rcnet_check_add(&a, &msg), -EINVAL);
}

static void net_check_port(struct kunit *test)
{
	struct sockaddr_storage ss = {};
	struct sockaddr_in *sin = (struct sockaddr_in *)&ss;
	struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)&ss;

	sin->sin_family = AF_INET;
	KUNIT_EXPECT_EQ(test, rcnet_default_port(&ss), 0);
	KUNIT_EXPECT_EQ(test, ntohs(sin->sin_port), RDMACHAN_NET_DEFAULT_PORT);
	sin->sin_port = htons(9);
	KUNIT_EXPECT_EQ(test, rcnet_default_port(&ss), 0);
	KUNIT_EXPECT_EQ(test, ntohs(sin->sin_port), 9);
	memset(&ss, 0, sizeof(ss));
	sin6->sin6_family = AF_INET6;
	KUNIT_EXPECT_EQ(test, rcnet_default_port(&ss), 0);
	KUNIT_EXPECT_EQ(test, ntohs(sin6->sin6_port), RDMACHAN_NET_DEFAULT_PORT);
	ss.ss_family = AF_UNSPEC;
	KUNIT_EXPECT_EQ(test, rcnet_default_port(&ss), -EAFNOSUPPORT);
}

static void net_check_same_host(struct kunit *test)
{
	struct sockaddr_storage a = {}, b = {};
	struct sockaddr_in *a4 = (struct sockaddr_in *)&a;
	struct sockaddr_in *b4 = (struct sockaddr_in *)&b;
	struct sockaddr_in6 *a6 = (struct sockaddr_in6 *)&a;
	struct sockaddr_in6 *b6 = (struct sockaddr_in6 *)&b;

	a4->sin_family = AF_INET;
	b4->sin_family = AF_INET;
	a4->sin_addr.s_addr = htonl(0xc0000202);
	b4->sin_addr.s_addr = htonl(0xc0000202);
	a4->sin_port = htons(40000);
	b4->sin_port = htons(41000);
	KUNIT_EXPECT_TRUE(test, rcnet_same_host(&a, &b));
	b4->sin_addr.s_addr = htonl(0xc0000203);
	KUNIT_EXPECT_FALSE(test, rcnet_same_host(&a, &b));

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	a6->sin6_family = AF_INET6;
	b6->sin6_family = AF_INET6;
	a6->sin6_addr.s6_addr[15] = 1;
	b6->sin6_addr.s6_addr[15] = 1;
	KUNIT_EXPECT_TRUE(test, rcnet_same_host(&a, &b));
	b6->sin6_addr.s6_addr[0] = 0xfd;
	KUNIT_EXPECT_FALSE(test, rcnet_same_host(&a, &b));
	b.ss_family = AF_INET;
	KUNIT_EXPECT_FALSE(test, rcnet_same_host(&a, &b));
	a.ss_family = AF_UNSPEC;
	b.ss_family = AF_UNSPEC;
	KUNIT_EXPECT_FALSE(test, rcnet_same_host(&a, &b));
}

static void net_check_protocols(struct kunit *test)
{
	struct rdmachan_msg m = { .len = 84, .imm = ETH_P_IP, .has_imm = true };
	struct rcnet_pkt p;
	u16 eth_p = 0;

	KUNIT_EXPECT_EQ(test, rcnet_proto(htons(ETH_P_IP), &eth_p), 0);
	KUNIT_EXPECT_EQ(test, eth_p, ETH_P_IP);
	KUNIT_EXPECT_EQ(test, rcnet_proto(htons(ETH_P_IPV6), &eth_p), 0);
	KUNIT_EXPECT_EQ(test, eth_p, ETH_P_IPV6);
	KUNIT_EXPECT_EQ(test, rcnet_proto(htons(ETH_P_ARP), &eth_p),
			-EPROTONOSUPPORT);

	KUNIT_EXPECT_EQ(test, rcnet_rx_check(&m, &p), 0);
	KUNIT_EXPECT_EQ(test, p.proto, ETH_P_IP);
	KUNIT_EXPECT_FALSE(test, p.partial);
	m.imm = ETH_P_IPV6;
	m.len = RCNET_MAX_MTU;
	KUNIT_EXPECT_EQ(test, rcnet_rx_check(&m, &p), 0);
	m.len = RCNET_MAX_MTU + 1;
	KUNIT_EXPECT_EQ(test, rcnet_rx_check(&m, &p), -EPROTO);
	m.len = 0;
	KUNIT_EXPECT_EQ(test, rcnet_rx_check(&m, &p), -EPROTO);
	m.len = 84;
	m.imm = ETH_P_ARP;
	KUNIT_EXPECT_EQ(test, rcnet_rx_check(&m, &p), -EPROTO);
	m.imm = ETH_P_IP;
	m.has_imm = false;
	KUNIT_EXPECT_EQ(test, rcnet_rx_check(&m, &p), -EPROTO);
	m.has_imm = true;
	m.rdma_imm = true;
	KUNIT_EXPECT_EQ(test, rcnet_rx_check(&m, &p), -EPROTO);
}

/* the immediate of a partial checksum: both ways, and at its bounds */
static void net_check_partial(struct kunit *test)
{
	struct rcnet_pkt in = { .proto = ETH_P_IPV6, .partial = true,
				.csum_start = 40, .csum_offset = 16 };
	struct rdmachan_msg m = { .len = 1000, .has_imm = true };
	struct rcnet_pkt out;
	u32 imm = 0;

	KUNIT_EXPECT_EQ(test, rcnet_imm_encode(&in, &imm), 0);
	KUNIT_EXPECT_EQ(test, imm, RCNET_IMM_PARTIAL | RCNET_IMM_V6 | 8 << 16 | 40);
	KUNIT_EXPECT_EQ(test, rcnet_imm_decode(imm, &out), 0);
	KUNIT_EXPECT_TRUE(test, out.partial);
	KUNIT_EXPECT_EQ(test, out.proto, ETH_P_IPV6);
	KUNIT_EXPECT_EQ(test, out.csum_start, 40);
	KUNIT_EXPECT_EQ(test, out.csum_offset, 16);

	/* IPv4, UDP's offset, the largest start and offset */
	in.proto = ETH_P_IP;
	in.csum_start = RCNET_IMM_START_MAX;
	in.csum_offset = RCNET_IMM_OFF_MAX * 2;
	KUNIT_EXPECT_EQ(test, rcnet_imm_encode(&in, &imm), 0);
	KUNIT_EXPECT_EQ(test, rcnet_imm_decode(imm, &out), 0);
	KUNIT_EXPECT_EQ(test, out.proto, ETH_P_IP);
	KUNIT_EXPECT_EQ(test, out.csum_start, RCNET_IMM_START_MAX);
	KUNIT_EXPECT_EQ(test, out.csum_offset, RCNET_IMM_OFF_MAX * 2);

	/* what the immediate cannot say: the sender completes the checksum */
	in.csum_offset = RCNET_IMM_OFF_MAX * 2 + 2;
	KUNIT_EXPECT_EQ(test, rcnet_imm_encode(&in, &imm), -ERANGE);
	in.csum_offset = 7;
	KUNIT_EXPECT_EQ(test, rcnet_imm_encode(&in, &imm), -ERANGE);
	in.proto = ETH_P_ARP;
	KUNIT_EXPECT_EQ(test, rcnet_imm_encode(&in, &imm), -EPROTONOSUPPORT);
	in.proto = ETH_P_IP;
	in.partial = false;
	KUNIT_EXPECT_EQ(test, rcnet_imm_encode(&in, &imm), 0);
	KUNIT_EXPECT_EQ(test, imm, (u32)ETH_P_IP);

	/* reserved bits set: no sender makes that */
	KUNIT_EXPECT_EQ(test, rcnet_imm_decode(RCNET_IMM_PARTIAL | BIT(22), &out),
			-EPROTO);
	KUNIT_EXPECT_EQ(test, rcnet_imm_decode(0x0801, &out), -EPROTO);

	/* the checksum field must lie within the packet */
	m.imm = RCNET_IMM_PARTIAL | 8 << 16 | 20;	/* TCP over IPv4 */
	KUNIT_EXPECT_EQ(test, rcnet_rx_check(&m, &out), 0);
	m.len = 20 + 16 + 2;
	KUNIT_EXPECT_EQ(test, rcnet_rx_check(&m, &out), 0);
	m.len = 20 + 16 + 1;
	KUNIT_EXPECT_EQ(test, rcnet_rx_check(&m, &out), -EPROTO);
}

static struct kunit_case net_check_cases[] = {
	KUNIT_CASE(net_check_add_ok),
	KUNIT_CASE(net_check_add_bad),
	KUNIT_CASE(net_check_port),
	KUNIT_CASE(net_check_same_host),
	KUNIT_CASE(net_check_protocols),
	KUNIT_CASE(net_check_partial),
	{}
};

static struct kunit_suite net_check_suite = {
	.name = "rdmachan_net_check",
	.test_cases = net_check_cases,
};

kunit_test_suite(net_check_suite);
