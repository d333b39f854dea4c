// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite for datagram endpoints: where a received datagram came from
 * (its GRH: RoCEv2 over IPv4, over IPv6, an IPv4-mapped GID), which
 * addresses name one host, when receive buffers grow and are given back
 * and which datagram gives one back (module/chan/dgram.h), and the checks of the
 * DGRAM_* ioctls' arguments, JOIN and LEAVE among them (module/chan/ioctl_check.c, which
 * ioctl_conn_kunit.c includes).
 */
#include "../../module/chan/dgram.h"

#include <linux/in.h>
#include <linux/in6.h>
#include <linux/socket.h>
#include <linux/string.h>
#include <linux/rdmachan_verbs.h>

#include "ioctl_kunit.h"

#define IP4(a, b, c, d)	cpu_to_be32((a) << 24 | (b) << 16 | (c) << 8 | (d))

/* RoCEv2 over IPv4: the IPv4 header in the last 20 of the 40 bytes */
static void dgram_test_grh_ipv4(struct kunit *test)
{
	u8 grh[RDMACHAN_DGRAM_GRH] = {};
	struct iphdr *ip = (struct iphdr *)(grh + 20);
	struct sockaddr_storage ss;
	struct sockaddr_in *sin = (struct sockaddr_in *)&ss;

	ip->version = 4;
	ip->ihl = 5;
	ip->saddr = IP4(192, 0, 2, 2);
	ip->daddr = IP4(192, 0, 2, 1);
	KUNIT_ASSERT_EQ(test, rdmachan_dgram_grh_source(grh, true, &ss), 0);
	KUNIT_EXPECT_EQ(test, ss.ss_family, AF_INET);
	KUNIT_EXPECT_EQ(test, sin->sin_addr.s_addr, IP4(192, 0, 2, 2));
	KUNIT_EXPECT_EQ(test, sin->sin_port, 0);
	/* not an IPv4 header: refused */
	ip->version = 6;
	KUNIT_EXPECT_EQ(test, rdmachan_dgram_grh_source(grh, true, &ss),
			-EPROTO);
	ip->version = 4;
	ip->ihl = 6;
	KUNIT_EXPECT_EQ(test, rdmachan_dgram_grh_source(grh, true, &ss),
			-EPROTO);
}

/* A GRH: its source GID, IPv4-mapped or IPv6 */
static void dgram_test_grh_gid(struct kunit *test)
{
	u8 grh[RDMACHAN_DGRAM_GRH] = {};
	struct sockaddr_storage ss;
	struct sockaddr_in *sin = (struct sockaddr_in *)&ss;
	struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)&ss;
	struct in6_addr gid;

	ipv6_addr_set_v4mapped(IP4(198, 51, 100, 7), &gid);
	memcpy(grh + 8, &gid, sizeof(gid));
	memset(grh + 24, 0xaa, 16);	/* the destination: not read */
	KUNIT_ASSERT_EQ(test, rdmachan_dgram_grh_source(grh, false, &ss), 0);
	KUNIT_EXPECT_EQ(test, ss.ss_family, AF_INET);
	KUNIT_EXPECT_EQ(test, sin->sin_addr.s_addr, IP4(198, 51, 100, 7));

	memset(&gid, 0, sizeof(gid));
	gid.s6_addr32[0] = cpu_to_be32(0x20010db8);
	gid.s6_addr32[3] = cpu_to_be32(5);
	memcpy(grh + 8, &gid, sizeof(gid));
	KUNIT_ASSERT_EQ(test, rdmachan_dgram_grh_source(grh, false, &ss), 0);
	KUNIT_EXPECT_EQ(test, ss.ss_family, AF_INET6);
	KUNIT_EXPECT_TRUE(test, ipv6_addr_equal(&sin6->sin6_addr, &gid));
	KUNIT_EXPECT_EQ(test, sin6->sin6_port, 0);
}

static void dgram_set4(struct sockaddr_storage *ss, __be32 a, u16 port)
{
	struct sockaddr_in *sin = (struct sockaddr_in *)ss;

	memset(ss, 0, sizeof(*ss));
	sin->sin_family = AF_INET;
	sin->sin_addr.s_addr = a;
	sin->sin_port = cpu_to_be16(port);
}

/* One host: ports do not matter, IPv4 and its mapped IPv6 form are one */
static void dgram_test_same_ip(struct kunit *test)
{
	struct sockaddr_storage a, b;
	struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)&b;

	dgram_set4(&a, IP4(192, 0, 2, 1), 7174);
	dgram_set4(&b, IP4(192, 0, 2, 1), 0);
	KUNIT_EXPECT_TRUE(test, rdmachan_dgram_same_ip(&a, &b));
	dgram_set4(&b, IP4(192, 0, 2, 2), 7174);
	KUNIT_EXPECT_FALSE(test, rdmachan_dgram_same_ip(&a, &b));
	memset(&b, 0, sizeof(b));
	sin6->sin6_family = AF_INET6;
	ipv6_addr_set_v4mapped(IP4(192, 0, 2, 1), &sin6->sin6_addr);
	KUNIT_EXPECT_TRUE(test, rdmachan_dgram_same_ip(&a, &b));
	sin6->sin6_addr.s6_addr32[2] = 0;
	KUNIT_EXPECT_FALSE(test, rdmachan_dgram_same_ip(&a, &b));
	b.ss_family = AF_UNSPEC;
	KUNIT_EXPECT_FALSE(test, rdmachan_dgram_same_ip(&a, &b));
}

/* ---- buffers that follow use (dgram_buf.c) ------------------------------ */

/* Growth: at most half posted, by a step, never past the depth */
static void dgram_test_grow(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, rdmachan_dgram_grow_n(64, 33, 256), 0);
	KUNIT_EXPECT_EQ(test, rdmachan_dgram_grow_n(64, 32, 256),
			RDMACHAN_DGRAM_GROW_STEP);
	KUNIT_EXPECT_EQ(test, rdmachan_dgram_grow_n(64, 0, 256),
			RDMACHAN_DGRAM_GROW_STEP);
	/* the step cut to what the depth leaves; none at the depth */
	KUNIT_EXPECT_EQ(test, rdmachan_dgram_grow_n(250, 0, 256), 6);
	KUNIT_EXPECT_EQ(test, rdmachan_dgram_grow_n(256, 0, 256), 0);
	KUNIT_EXPECT_EQ(test, rdmachan_dgram_grow_n(8, 0, 8), 0);
	/* a depth below the kept count: one buffer, none posted */
	KUNIT_EXPECT_EQ(test, rdmachan_dgram_grow_n(1, 0, 4), 3);
}

/* Giving back: all beyond the kept count, less those on their way */
static void dgram_test_retire(struct kunit *test)
{
	u32 keep = RDMACHAN_DGRAM_RX_KEEP;

	KUNIT_EXPECT_EQ(test, rdmachan_dgram_keep(256), keep);
	KUNIT_EXPECT_EQ(test, rdmachan_dgram_keep(8), 8);
	KUNIT_EXPECT_EQ(test, rdmachan_dgram_retire_n(256, 0, 256), 256 - keep);
	KUNIT_EXPECT_EQ(test, rdmachan_dgram_retire_n(256, 100, 256),
			256 - keep - 100);
	KUNIT_EXPECT_EQ(test, rdmachan_dgram_retire_n(256, 256 - keep, 256), 0);
	KUNIT_EXPECT_EQ(test, rdmachan_dgram_retire_n(256, 300, 256), 0);
	KUNIT_EXPECT_EQ(test, rdmachan_dgram_retire_n(keep, 0, 256), 0);
	KUNIT_EXPECT_EQ(test, rdmachan_dgram_retire_n(8, 0, 8), 0);
}

/* A retire datagram: empty, the immediate, from the endpoint's own QP */
static void dgram_test_is_retire(struct kunit *test)
{
	const __be32 imm = cpu_to_be32(0x1234abcd);
	struct sockaddr_storage self;
	struct rdmachan_dgram_rx rx = {
		.qpn = 17, .len = 0, .has_imm = true, .imm = imm,
	};

	dgram_set4(&self, IP4(192, 0, 2, 1), 7330);
	dgram_set4(&rx.from, IP4(192, 0, 2, 1), 0);
	KUNIT_EXPECT_TRUE(test, rdmachan_dgram_is_retire(&rx, 17, imm, &self));
	/* another queue pair of the host, another host: a peer's datagram */
	KUNIT_EXPECT_FALSE(test, rdmachan_dgram_is_retire(&rx, 18, imm, &self));
	dgram_set4(&rx.from, IP4(192, 0, 2, 2), 0);
	KUNIT_EXPECT_FALSE(test, rdmachan_dgram_is_retire(&rx, 17, imm, &self));
	/* no GRH, no source address: the queue pair and immediate decide */
	rx.from.ss_family = AF_UNSPEC;
	KUNIT_EXPECT_TRUE(test, rdmachan_dgram_is_retire(&rx, 17, imm, &self));
	dgram_set4(&rx.from, IP4(192, 0, 2, 1), 0);
	rx.len = 1;
	KUNIT_EXPECT_FALSE(test, rdmachan_dgram_is_retire(&rx, 17, imm, &self));
	rx.len = 0;
	rx.imm = cpu_to_be32(0x1234abce);
	KUNIT_EXPECT_FALSE(test, rdmachan_dgram_is_retire(&rx, 17, imm, &self));
	rx.imm = imm;
	rx.has_imm = false;
	KUNIT_EXPECT_FALSE(test, rdmachan_dgram_is_retire(&rx, 17, imm, &self));
}

/* ---- DGRAM_OPEN's, DGRAM_RESOLVE's and the batches' arguments ---------- */

static void dgram_open_init(void *arg)
{
	struct rdmachan_dgram_open *o = arg;

	memset(o, 0, sizeof(*o));
	o->size = sizeof(*o);
	dgram_set4((struct sockaddr_storage *)&o->addr, IP4(192, 0, 2, 1), 0);
}

static int dgram_open_check(const void *arg)
{
	return rdmachan_check_dgram_open(arg);
}

static const struct ioc_kind ioc_dgram_open_kind = {
	sizeof(struct rdmachan_dgram_open), dgram_open_init, dgram_open_check,
};

#define DO(m, v)	IOC_SET((struct rdmachan_dgram_open, m), v)
#define DO_SIZE		sizeof(struct rdmachan_dgram_open)

static const struct ioc_case dgram_open_cases[] = {
	{ "valid, port 0", {}, 0 },
	{ "size - 1", { DO(size, DO_SIZE - 1) }, -EINVAL },
	{ "flags SERVE", { DO(flags, RDMACHAN_DGRAM_SERVE) }, 0 },
	{ "flags BUSY_POLL", { DO(flags, RDMACHAN_DGRAM_BUSY_POLL) }, 0 },
	{ "flags SERVE|BUSY_POLL", { DO(flags, 3) }, 0 },
	{ "flags 0x4", { DO(flags, 4) }, -EINVAL },
	{ "fd_flags NONBLOCK|CLOEXEC", { DO(fd_flags, ABI_FD_FLAGS) }, 0 },
	{ "fd_flags 0x4", { DO(fd_flags, 4) }, -EINVAL },
	{ "depth 4096", { DO(depth, 4096) }, 0 },
	{ "depth 4097", { DO(depth, 4097) }, -EINVAL },
	{ "fd (output)", { DO(fd, 3) }, -EINVAL },
	{ "qpn (output)", { DO(qpn, 3) }, -EINVAL },
	{ "max_size (output)", { DO(max_size, 1) }, -EINVAL },
	{ "reserved[3]", { DO(reserved[3], 1) }, -EINVAL },
	{ "addr AF_UNSPEC (a wildcard names no device)",
	  { DO(addr.ss_family, AF_UNSPEC) }, -EINVAL },
	{ "addr AF_INET6", { DO(addr.ss_family, AF_INET6) }, 0 },
	{ "addr family 99", { DO(addr.ss_family, 99) }, -EINVAL },
};

KUNIT_ARRAY_PARAM(dgram_open, dgram_open_cases, ioc_case_desc);

static void dgram_test_open_arg(struct kunit *test)
{
	const struct ioc_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, ioc_run(test, &ioc_dgram_open_kind, c->set),
			c->want);
}

static void dgram_resolve_init(void *arg)
{
	struct rdmachan_dgram_resolve *r = arg;

	memset(r, 0, sizeof(*r));
	r->size = sizeof(*r);
	dgram_set4((struct sockaddr_storage *)&r->addr, IP4(192, 0, 2, 1),
		   7174);
}

static int dgram_resolve_check(const void *arg)
{
	struct rdmachan_dgram_resolve r;

	memcpy(&r, arg, sizeof(r));
	return rdmachan_check_dgram_resolve(&r);
}

static const struct ioc_kind ioc_dgram_resolve_kind = {
	sizeof(struct rdmachan_dgram_resolve), dgram_resolve_init,
	dgram_resolve_check,
};

#define DR(m, v)	IOC_SET((struct rdmachan_dgram_resolve, m), v)

static const struct ioc_case dgram_resolve_cases[] = {
	{ "valid", {}, 0 },
	{ "size + 1", { DR(size, sizeof(struct rdmachan_dgram_resolve) + 1) },
	  -EINVAL },
	{ "flags CONNECT", { DR(flags, RDMACHAN_DGRAM_CONNECT) }, 0 },
	{ "flags 0x2", { DR(flags, 2) }, -EINVAL },
	{ "timeout_ms 600000", { DR(timeout_ms, ABI_MAX_TIMEOUT) }, 0 },
	{ "timeout_ms 600001", { DR(timeout_ms, ABI_MAX_TIMEOUT + 1) },
	  -EINVAL },
	{ "reserved0", { DR(reserved0, 1) }, -EINVAL },
	{ "peer.qpn (output)", { DR(peer.qpn, 1) }, -EINVAL },
	{ "reserved[1]", { DR(reserved[1], 1) }, -EINVAL },
	{ "port 0 (the service is a port)", { DR(addr.__data[0], 0),
					      DR(addr.__data[1], 0) }, -EINVAL },
	{ "addr AF_UNSPEC", { DR(addr.ss_family, AF_UNSPEC) }, -EINVAL },
};

KUNIT_ARRAY_PARAM(dgram_resolve, dgram_resolve_cases, ioc_case_desc);

static void dgram_test_resolve_arg(struct kunit *test)
{
	const struct ioc_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, ioc_run(test, &ioc_dgram_resolve_kind, c->set),
			c->want);
}

static void dgram_test_resolve_default(struct kunit *test)
{
	struct rdmachan_dgram_resolve r;

	dgram_resolve_init(&r);
	KUNIT_ASSERT_EQ(test, rdmachan_check_dgram_resolve(&r), 0);
	KUNIT_EXPECT_EQ(test, r.timeout_ms,
			(u32)RDMACHAN_DGRAM_DEFAULT_TIMEOUT);
}

/* The batches: count 1 to 64, an array, a send's timeout 0 */
static void dgram_test_batch(struct kunit *test)
{
	struct rdmachan_dgram_batch b = {
		.size = sizeof(b), .count = 1, .msgs = 0x1000,
	};

	KUNIT_EXPECT_EQ(test, rdmachan_check_dgram_batch(&b, true), 0);
	b.count = RDMACHAN_DGRAM_MAX_BATCH;
	KUNIT_EXPECT_EQ(test, rdmachan_check_dgram_batch(&b, false), 0);
	b.count++;
	KUNIT_EXPECT_EQ(test, rdmachan_check_dgram_batch(&b, false), -EINVAL);
	b.count = 0;
	KUNIT_EXPECT_EQ(test, rdmachan_check_dgram_batch(&b, false), -EINVAL);
	b.count = 1;
	b.timeout_ms = 10;
	KUNIT_EXPECT_EQ(test, rdmachan_check_dgram_batch(&b, false), 0);
	KUNIT_EXPECT_EQ(test, rdmachan_check_dgram_batch(&b, true), -EINVAL);
	b.timeout_ms = 0;
	b.flags = RDMACHAN_DGRAM_DONTWAIT;
	KUNIT_EXPECT_EQ(test, rdmachan_check_dgram_batch(&b, true), 0);
	b.flags = 2;
	KUNIT_EXPECT_EQ(test, rdmachan_check_dgram_batch(&b, true), -EINVAL);
	b.flags = 0;
	b.msgs = 0;
	KUNIT_EXPECT_EQ(test, rdmachan_check_dgram_batch(&b, true), -EINVAL);
	b.msgs = 0x1000;
	b.reserved[1] = 1;
	KUNIT_EXPECT_EQ(test, rdmachan_check_dgram_batch(&b, true), -EINVAL);
}

/* One datagram to send: the MTU bounds it (EMSGSIZE), qpn 24 bits */
static void dgram_test_msg(struct kunit *test)
{
	struct rdmachan_dgram_msg m = { .len = 1024 };

	/* qpn 0: the connected peer, no address needed */
	KUNIT_EXPECT_EQ(test, rdmachan_check_dgram_msg(&m, 0, 1024), 0);
	m.len = 1025;
	KUNIT_EXPECT_EQ(test, rdmachan_check_dgram_msg(&m, 0, 1024),
			-EMSGSIZE);
	m.len = 0;
	m.peer.qpn = 17;
	KUNIT_EXPECT_EQ(test, rdmachan_check_dgram_msg(&m, 0, 1024), -EINVAL);
	dgram_set4((struct sockaddr_storage *)&m.peer.addr, IP4(192, 0, 2, 2),
		   0);
	KUNIT_EXPECT_EQ(test, rdmachan_check_dgram_msg(&m, 0, 1024), 0);
	m.peer.qpn = 0x1000000;
	KUNIT_EXPECT_EQ(test, rdmachan_check_dgram_msg(&m, 0, 1024), -EINVAL);
	m.peer.qpn = 17;
	m.flags = RDMACHAN_DGRAM_MSG_IMM;
	KUNIT_EXPECT_EQ(test, rdmachan_check_dgram_msg(&m, 0, 1024), 0);
	m.flags = RDMACHAN_DGRAM_MSG_TRUNC;	/* an output flag */
	KUNIT_EXPECT_EQ(test, rdmachan_check_dgram_msg(&m, 0, 1024), -EINVAL);
	m.flags = 0;
	m.reserved = 1;
	KUNIT_EXPECT_EQ(test, rdmachan_check_dgram_msg(&m, 0, 1024), -EINVAL);
}

/* JOIN: SENDONLY its one flag, the default bound; LEAVE: no flags, bound */
static void dgram_test_join(struct kunit *test)
{
	struct rdmachan_dgram_join j = { .size = sizeof(j) };

	dgram_set4((struct sockaddr_storage *)&j.addr, IP4(224, 0, 1, 1), 0);
	KUNIT_EXPECT_EQ(test, rdmachan_check_dgram_join(&j, true), 0);
	KUNIT_EXPECT_EQ(test, j.timeout_ms,
			(u32)RDMACHAN_DGRAM_DEFAULT_TIMEOUT);
	j.flags = RDMACHAN_DGRAM_SENDONLY;
	KUNIT_EXPECT_EQ(test, rdmachan_check_dgram_join(&j, true), 0);
	KUNIT_EXPECT_EQ(test, rdmachan_check_dgram_join(&j, false), -EINVAL);
	j.flags = 2;
	KUNIT_EXPECT_EQ(test, rdmachan_check_dgram_join(&j, true), -EINVAL);
	j.flags = 0;
	KUNIT_EXPECT_EQ(test, rdmachan_check_dgram_join(&j, false), -EINVAL);
	j.timeout_ms = 0;
	KUNIT_EXPECT_EQ(test, rdmachan_check_dgram_join(&j, false), 0);
	j.peer.qpn = 1;
	KUNIT_EXPECT_EQ(test, rdmachan_check_dgram_join(&j, true), -EINVAL);
	j.peer.qpn = 0;
	j.size--;
	KUNIT_EXPECT_EQ(test, rdmachan_check_dgram_join(&j, true), -EINVAL);
	j.size++;
	j.addr.ss_family = AF_UNSPEC;
	KUNIT_EXPECT_EQ(test, rdmachan_check_dgram_join(&j, true), -EINVAL);
}

/*
 * BENCH: the senders need a size of 1 to the MTU and a destination, and
 * PINGPONG gets its reply bound; the receivers take neither
 */
static void dgram_test_bench(struct kunit *test)
{
	struct rdmachan_dgram_bench b = {
		.size = sizeof(b), .mode = RDMACHAN_BENCH_PINGPONG,
		.msg_size = 64, .peer.qpn = 17,
	};

	dgram_set4((struct sockaddr_storage *)&b.peer.addr, IP4(192, 0, 2, 1), 0);
	KUNIT_EXPECT_EQ(test, rdmachan_check_dgram_bench(&b, 1024), 0);
	KUNIT_EXPECT_EQ(test, b.wait_ms, (u32)RDMACHAN_DGRAM_BENCH_REPLY_MS);
	b.msg_size = 1025;
	KUNIT_EXPECT_EQ(test, rdmachan_check_dgram_bench(&b, 1024), -EMSGSIZE);
	b.msg_size = 0;
	KUNIT_EXPECT_EQ(test, rdmachan_check_dgram_bench(&b, 1024), -EINVAL);
	b.msg_size = 1024;
	b.peer.qpn = 0x1000000;
	KUNIT_EXPECT_EQ(test, rdmachan_check_dgram_bench(&b, 1024), -EINVAL);
	b.peer.qpn = 17;
	b.wait_ms = 600001;
	KUNIT_EXPECT_EQ(test, rdmachan_check_dgram_bench(&b, 1024), -EINVAL);
	/* BLAST has no reply to wait for */
	b.wait_ms = 5;
	b.mode = RDMACHAN_BENCH_BLAST;
	KUNIT_EXPECT_EQ(test, rdmachan_check_dgram_bench(&b, 1024), -EINVAL);
	b.wait_ms = 0;
	KUNIT_EXPECT_EQ(test, rdmachan_check_dgram_bench(&b, 1024), 0);
	KUNIT_EXPECT_EQ(test, b.wait_ms, 0U);
	b.lost = 1;
	KUNIT_EXPECT_EQ(test, rdmachan_check_dgram_bench(&b, 1024), -EINVAL);
	b.lost = 0;
	b.peer.addr.ss_family = AF_UNSPEC;
	KUNIT_EXPECT_EQ(test, rdmachan_check_dgram_bench(&b, 1024), -EINVAL);
	/* a receiver: no size, no destination; the one-sided modes are not */
	memset(&b.peer, 0, sizeof(b.peer));
	b.mode = RDMACHAN_BENCH_SINK;
	KUNIT_EXPECT_EQ(test, rdmachan_check_dgram_bench(&b, 1024), -EINVAL);
	b.msg_size = 0;
	b.wait_ms = 500;
	KUNIT_EXPECT_EQ(test, rdmachan_check_dgram_bench(&b, 1024), 0);
	b.mode = RDMACHAN_BENCH_ECHO;
	KUNIT_EXPECT_EQ(test, rdmachan_check_dgram_bench(&b, 1024), 0);
	b.peer.qpn = 17;
	KUNIT_EXPECT_EQ(test, rdmachan_check_dgram_bench(&b, 1024), -EINVAL);
	b.peer.qpn = 0;
	b.mode = RDMACHAN_BENCH_WRITE;
	KUNIT_EXPECT_EQ(test, rdmachan_check_dgram_bench(&b, 1024), -EINVAL);
	b.mode = RDMACHAN_BENCH_ECHO;
	b.size++;
	KUNIT_EXPECT_EQ(test, rdmachan_check_dgram_bench(&b, 1024), -EINVAL);
}

static struct kunit_case dgram_kunit_cases[] = {
	KUNIT_CASE(dgram_test_bench),
	KUNIT_CASE(dgram_test_join),
	KUNIT_CASE(dgram_test_grh_ipv4),
	KUNIT_CASE(dgram_test_grh_gid),
	KUNIT_CASE(dgram_test_same_ip),
	KUNIT_CASE(dgram_test_grow),
	KUNIT_CASE(dgram_test_retire),
	KUNIT_CASE(dgram_test_is_retire),
	KUNIT_CASE_PARAM(dgram_test_open_arg, dgram_open_gen_params),
	KUNIT_CASE_PARAM(dgram_test_resolve_arg, dgram_resolve_gen_params),
	KUNIT_CASE(dgram_test_resolve_default),
	KUNIT_CASE(dgram_test_batch),
	KUNIT_CASE(dgram_test_msg),
	{}
};

static struct kunit_suite dgram_suite = {
	.name = "rdmachan_dgram",
	.test_cases = dgram_kunit_cases,
};

kunit_test_suite(dgram_suite);
