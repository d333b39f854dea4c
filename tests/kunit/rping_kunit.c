// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite for the in-kernel rping: rping's data as module/chan/rping.h
 * makes and checks it (byte for byte what rdma-core's rping.c makes), and
 * the checks of RDMACHAN_IOC_RPING's argument (rdmachan_check_rping(), in
 * module/chan/ioctl_check.c, which ioctl_conn_kunit.c includes).
 */
#include "../../module/chan/rping.h"

#include <linux/in.h>
#include <linux/socket.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/rdmachan_verbs.h>

#include "ioctl_kunit.h"

/* rping.c's client loop, as it is written there */
static void rping_c_fill(char *buf, int size, int ping)
{
	int start = 65 + ping % 58, i, cc;
	unsigned char c;

	cc = snprintf(buf, size, "rdma-ping-%d: ", ping);
	for (i = cc, c = start; i < size; i++) {
		buf[i] = c;
		c++;
		if (c > 122)
			c = 65;
	}
	buf[size - 1] = 0;
}

static const u32 sizes[] = { 26, 27, 64, 100, 4096, 65535 };

static void rping_test_fill(struct kunit *test)
{
	char *want = kunit_kzalloc(test, 65535, GFP_KERNEL);
	u8 *got = kunit_kzalloc(test, 65535, GFP_KERNEL);
	unsigned int i;
	u64 ping;

	KUNIT_ASSERT_NOT_NULL(test, want);
	KUNIT_ASSERT_NOT_NULL(test, got);
	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		for (ping = 0; ping < 130; ping += 7) {
			rping_c_fill(want, sizes[i], ping);
			rdmachan_rping_fill(got, sizes[i], ping);
			KUNIT_EXPECT_EQ_MSG(test, memcmp(want, got, sizes[i]), 0,
					    "size %u ping %llu", sizes[i], ping);
			KUNIT_EXPECT_EQ(test, rdmachan_rping_check(got, sizes[i],
								   ping), -1L);
			/* another ping's data is not this one's */
			KUNIT_EXPECT_GE(test, rdmachan_rping_check(got, sizes[i],
								   ping + 1), 0L);
		}
	}
}

static void rping_test_check_offset(struct kunit *test)
{
	u8 buf[100];

	rdmachan_rping_fill(buf, sizeof(buf), 3);
	buf[50] ^= 1;
	KUNIT_EXPECT_EQ(test, rdmachan_rping_check(buf, sizeof(buf), 3), 50L);
	rdmachan_rping_fill(buf, sizeof(buf), 3);
	buf[99] = 'x';
	KUNIT_EXPECT_EQ(test, rdmachan_rping_check(buf, sizeof(buf), 3), 99L);
	rdmachan_rping_fill(buf, sizeof(buf), 3);
	buf[0] = 'R';
	KUNIT_EXPECT_EQ(test, rdmachan_rping_check(buf, sizeof(buf), 3), 0L);
}

/* The server writes back strlen + 1, within what it read and the sink */
static void rping_test_echo_len(struct kunit *test)
{
	u8 buf[64];

	rdmachan_rping_fill(buf, sizeof(buf), 0);
	KUNIT_EXPECT_EQ(test, rdmachan_rping_echo_len(buf, 64, 64), 64U);
	KUNIT_EXPECT_EQ(test, rdmachan_rping_echo_len(buf, 64, 30), 30U);
	buf[20] = 0;
	KUNIT_EXPECT_EQ(test, rdmachan_rping_echo_len(buf, 64, 64), 21U);
	memset(buf, 'a', sizeof(buf));	/* no NUL: what was read */
	KUNIT_EXPECT_EQ(test, rdmachan_rping_echo_len(buf, 64, 100), 64U);
}

/* ---- RPING's argument --------------------------------------------------- */

static void rping_init(void *arg)
{
	struct rdmachan_rping *r = arg;
	struct sockaddr_in *sin = (struct sockaddr_in *)&r->addr;

	memset(r, 0, sizeof(*r));
	r->size = sizeof(*r);
	sin->sin_family = AF_INET;
	sin->sin_addr.s_addr = cpu_to_be32(0xc0000201);	/* 192.0.2.1 */
}

static int rping_check(const void *arg)
{
	struct rdmachan_rping r;

	memcpy(&r, arg, sizeof(r));
	return rdmachan_check_rping(&r);
}

static const struct ioc_kind ioc_rping_kind = {
	sizeof(struct rdmachan_rping), rping_init, rping_check,
};

#define RP(m, v)	IOC_SET((struct rdmachan_rping, m), v)
#define RP_SIZE		sizeof(struct rdmachan_rping)

static const struct ioc_case rping_cases[] = {
	{ "valid client", {}, 0 },
	{ "size - 1", { RP(size, RP_SIZE - 1) }, -EINVAL },
	{ "size + 1", { RP(size, RP_SIZE + 1) }, -EINVAL },
	{ "flags SERVER|VERBOSE|VALIDATE", { RP(flags, 7) }, 0 },
	{ "flags 0x8", { RP(flags, 8) }, -EINVAL },
	{ "count 1000000", { RP(count, 1000000) }, 0 },
	{ "a server's count", { RP(flags, RDMACHAN_RPING_SERVER),
				RP(count, 1) }, -EINVAL },
	{ "size 25 (under rping's)", { RP(msg_size, 25) }, -EINVAL },
	{ "size 26", { RP(msg_size, 26) }, 0 },
	{ "size 65535", { RP(msg_size, 65535) }, 0 },
	{ "size 65536", { RP(msg_size, 65536) }, -EINVAL },
	{ "timeout_ms 600000", { RP(timeout_ms, 600000) }, 0 },
	{ "timeout_ms 600001", { RP(timeout_ms, 600001) }, -EINVAL },
	{ "reserved0", { RP(reserved0, 1) }, -EINVAL },
	{ "pings (output)", { RP(pings, 1) }, -EINVAL },
	{ "rtt_sum_ns (output)", { RP(rtt_sum_ns, 1) }, -EINVAL },
	{ "peer_size (output)", { RP(peer_size, 1) }, -EINVAL },
	{ "reserved[6]", { RP(reserved[6], 1) }, -EINVAL },
	{ "addr AF_UNSPEC", { RP(addr.ss_family, AF_UNSPEC) }, -EINVAL },
	{ "addr family 99", { RP(addr.ss_family, 99) }, -EINVAL },
	{ "src AF_INET", { RP(src.ss_family, AF_INET) }, 0 },
	{ "src family 99", { RP(src.ss_family, 99) }, -EINVAL },
	{ "a server's src", { RP(flags, RDMACHAN_RPING_SERVER),
			      RP(src.ss_family, AF_INET) }, -EINVAL },
};

KUNIT_ARRAY_PARAM(rping, rping_cases, ioc_case_desc);

static void rping_test_arg(struct kunit *test)
{
	const struct ioc_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, ioc_run(test, &ioc_rping_kind, c->set), c->want);
}

/* The defaults filled in: rping's size and port, a 5 s step */
static void rping_test_arg_defaults(struct kunit *test)
{
	struct rdmachan_rping r;
	struct sockaddr_in *sin = (struct sockaddr_in *)&r.addr;

	rping_init(&r);
	KUNIT_ASSERT_EQ(test, rdmachan_check_rping(&r), 0);
	KUNIT_EXPECT_EQ(test, r.msg_size, (u32)RDMACHAN_RPING_DEFAULT_SIZE);
	KUNIT_EXPECT_EQ(test, r.timeout_ms, 5000U);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(sin->sin_port), RDMACHAN_RPING_PORT);
	sin->sin_port = cpu_to_be16(9);
	KUNIT_ASSERT_EQ(test, rdmachan_check_rping(&r), 0);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(sin->sin_port), 9);
}

static struct kunit_case rping_kunit_cases[] = {
	KUNIT_CASE(rping_test_fill),
	KUNIT_CASE(rping_test_check_offset),
	KUNIT_CASE(rping_test_echo_len),
	KUNIT_CASE_PARAM(rping_test_arg, rping_gen_params),
	KUNIT_CASE(rping_test_arg_defaults),
	{}
};

static struct kunit_suite rping_suite = {
	.name = "rdmachan_rping",
	.test_cases = rping_kunit_cases,
};

kunit_test_suite(rping_suite);
