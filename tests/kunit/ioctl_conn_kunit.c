// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite "rdmachan_ioctl_conn" for module/chan/ioctl_check.c (harness:
 * ioctl_kunit.h): the checks of the ioctls that make connections, CONNECT
 * and LISTEN of /dev/rdmachan and ACCEPT of a listener fd, and of the
 * socket addresses they carry.  Their rejections are logged, as
 * ioctl_kunit.c says.
 */
/* First: it defines pr_fmt before any header does. */
#include "../../module/chan/ioctl_check.c"

#include <linux/socket.h>
#include <linux/string.h>

#include "ioctl_kunit.h"

/* ---- addresses ---------------------------------------------------------- */

/**
 * struct addr_case - one address given to rdmachan_check_addr()
 * @name: what the case shows
 * @family: ss_family
 * @port: the port (bytes 2 and 3, network byte order)
 * @byte: offset of one more byte set to @val (0: none)
 * @val: that byte's value
 * @any: AF_UNSPEC (all zero) is allowed
 * @need_port: port 0 is refused
 * @want: the expected return
 */
struct addr_case {
	const char *name;
	u16 family;
	u16 port;
	unsigned int byte;
	u8 val;
	bool any;
	bool need_port;
	int want;
};

static const struct addr_case addr_cases[] = {
	{ "AF_INET, port", AF_INET, TEST_PORT, 0, 0, false, true, 0 },
	{ "AF_INET, port 65535", AF_INET, 65535, 0, 0, false, true, 0 },
	{ "AF_INET, port 0, port needed", AF_INET, 0, 0, 0, false, true,
	  -EINVAL },
	{ "AF_INET, port 0, no port needed", AF_INET, 0, 0, 0, false, false, 0 },
	{ "AF_INET, port 0, AF_UNSPEC allowed", AF_INET, 0, 0, 0, true, false,
	  0 },
	{ "AF_INET6, port", AF_INET6, TEST_PORT, 0, 0, false, true, 0 },
	{ "AF_INET6, port 0, port needed", AF_INET6, 0, 0, 0, false, true,
	  -EINVAL },
	{ "AF_INET6, port 0, no port needed", AF_INET6, 0, 0, 0, false, false,
	  0 },
	{ "AF_UNSPEC, all zero, allowed", AF_UNSPEC, 0, 0, 0, true, false, 0 },
	{ "AF_UNSPEC, all zero, not allowed", AF_UNSPEC, 0, 0, 0, false, false,
	  -EINVAL },
	{ "AF_UNSPEC, all zero, not allowed, port needed", AF_UNSPEC, 0, 0, 0,
	  false, true, -EINVAL },
	{ "AF_UNSPEC with a port", AF_UNSPEC, TEST_PORT, 0, 0, true, false, -EINVAL },
	{ "AF_UNSPEC, byte 2", AF_UNSPEC, 0, 2, 0x01, true, false, -EINVAL },
	{ "AF_UNSPEC, byte 4 (IPv4 address)", AF_UNSPEC, 0, 4, 0x01, true, false,
	  -EINVAL },
	{ "AF_UNSPEC, byte 127 (last)", AF_UNSPEC, 0, 127, 0x80, true, false,
	  -EINVAL },
	{ "AF_UNIX", AF_UNIX, 0, 0, 0, true, false, -EINVAL },
	{ "AF_UNIX with a port", AF_UNIX, TEST_PORT, 0, 0, true, true, -EINVAL },
	{ "family 11 (AF_INET6 + 1)", AF_INET6 + 1, TEST_PORT, 0, 0, true, false,
	  -EINVAL },
	{ "AF_PACKET", AF_PACKET, TEST_PORT, 0, 0, true, false, -EINVAL },
	{ "AF_IB", AF_IB, TEST_PORT, 0, 0, true, false, -EINVAL },
	{ "family 0x0200 (AF_INET byte-swapped)", 0x0200, TEST_PORT, 0, 0, true,
	  false, -EINVAL },
	{ "family 0x0a00 (AF_INET6 byte-swapped)", 0x0a00, TEST_PORT, 0, 0, true,
	  false, -EINVAL },
	{ "family 0xffff", 0xffff, TEST_PORT, 0, 0, true, false, -EINVAL },
};

static void addr_case_desc(const struct addr_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(addr, addr_cases, addr_case_desc);

static void ioctl_test_addr(struct kunit *test)
{
	const struct addr_case *c = test->param_value;
	struct __kernel_sockaddr_storage ss;
	struct sockaddr_in *sin = (struct sockaddr_in *)&ss;

	/* The port is at the same place in sockaddr_in and sockaddr_in6. */
	BUILD_BUG_ON(offsetof(struct sockaddr_in, sin_port) !=
		     offsetof(struct sockaddr_in6, sin6_port));
	memset(&ss, 0, sizeof(ss));
	ss.ss_family = c->family;
	sin->sin_port = cpu_to_be16(c->port);
	KUNIT_ASSERT_LT(test, c->byte, sizeof(ss));
	if (c->byte)
		((u8 *)&ss)[c->byte] = c->val;

	KUNIT_EXPECT_EQ(test, rdmachan_check_addr("KUNIT", "addr", &ss, c->any,
						  c->need_port), c->want);
}

/* ---- CONNECT ------------------------------------------------------------ */

static void connect_init(void *arg)
{
	struct rdmachan_connect *c = arg;
	struct sockaddr_in *dst = (struct sockaddr_in *)&c->dst;

	memset(c, 0, sizeof(*c));
	c->size = sizeof(*c);
	dst->sin_family = AF_INET;
	dst->sin_port = cpu_to_be16(TEST_PORT);
	dst->sin_addr.s_addr = cpu_to_be32(0xc0000201);	/* 192.0.2.1 */
}

static int connect_check(const void *arg)
{
	struct rdmachan_opts opts;

	return rdmachan_check_connect(arg, &opts);
}

const struct ioc_kind ioc_connect_kind = {
	sizeof(struct rdmachan_connect), connect_init, connect_check,
};

#define CON(m, v)	IOC_SET((struct rdmachan_connect, m), v)
#define CON_FILL(m, v)	IOC_FILL((struct rdmachan_connect, m), v)
/* The port of address @m (either family) becomes @v. */
#define CON_PORT(m, v)	IOC_AT(struct rdmachan_connect, m,			\
			   offsetof(struct sockaddr_in, sin_port), 2, v)
#define CON_SIZE	sizeof(struct rdmachan_connect)
#define CON_SS_LAST	(sizeof(struct __kernel_sockaddr_storage) - 1)

static const struct ioc_case connect_cases[] = {
	{ "valid", {}, 0 },
	{ "size 0", { CON(size, 0) }, -EINVAL },
	{ "size - 1", { CON(size, CON_SIZE - 1) }, -EINVAL },
	{ "size + 1", { CON(size, CON_SIZE + 1) }, -EINVAL },
	{ "size U32_MAX", { CON(size, U32_MAX) }, -EINVAL },
	{ "size of LISTEN's struct", { CON(size, sizeof(struct rdmachan_listen)) },
	  -EINVAL },
	/* flags (each bit: ioctl_test_connect_flags) */
	{ "flags NONBLOCK", { CON(flags, RDMACHAN_FD_NONBLOCK) }, 0 },
	{ "flags CLOEXEC", { CON(flags, RDMACHAN_FD_CLOEXEC) }, 0 },
	{ "flags NONBLOCK|CLOEXEC", { CON(flags, ABI_FD_FLAGS) }, 0 },
	{ "flags 0x4", { CON(flags, 0x4) }, -EINVAL },
	{ "flags U32_MAX", { CON(flags, U32_MAX) }, -EINVAL },
	/* fd and reserved */
	{ "fd 1", { CON(fd, 1) }, -EINVAL },
	{ "fd -1", { CON(fd, -1) }, -EINVAL },
	{ "reserved[0]", { CON(reserved[0], 1) }, -EINVAL },
	{ "reserved[1]", { CON(reserved[1], 1) }, -EINVAL },
	{ "reserved[2]", { CON(reserved[2], 1) }, -EINVAL },
	{ "reserved[3]", { CON(reserved[3], 1) }, -EINVAL },
	{ "reserved[4]", { CON(reserved[4], 1) }, -EINVAL },
	{ "reserved[5]", { CON(reserved[5], 1) }, -EINVAL },
	{ "reserved[6]", { CON(reserved[6], U32_MAX) }, -EINVAL },
	/* options */
	{ "opts.reserved 1", { CON(opts.reserved, 1) }, -EINVAL },
	{ "opts.reserved bit 31", { CON(opts.reserved, BIT(31)) }, -EINVAL },
	{ "poll_mode WORKQUEUE", { CON(opts.poll_mode,
				       RDMACHAN_POLL_MODE_WORKQUEUE) }, 0 },
	{ "poll_mode DIRECT", { CON(opts.poll_mode,
				    RDMACHAN_POLL_MODE_DIRECT) }, 0 },
	{ "poll_mode SOLICITED (max)", { CON(opts.poll_mode,
					     RDMACHAN_POLL_MODE_SOLICITED) }, 0 },
	{ "poll_mode max + 1", { CON(opts.poll_mode, 4) }, -EINVAL },
	{ "poll_mode U32_MAX", { CON(opts.poll_mode, U32_MAX) }, -EINVAL },
	{ "queue_depth 1", { CON(opts.queue_depth, 1) }, 0 },
	{ "queue_depth max", { CON(opts.queue_depth, ABI_MAX_DEPTH) }, 0 },
	{ "queue_depth max + 1", { CON(opts.queue_depth, ABI_MAX_DEPTH + 1) },
	  -EINVAL },
	{ "queue_depth U32_MAX", { CON(opts.queue_depth, U32_MAX) }, -EINVAL },
	{ "max_msg_size 1", { CON(opts.max_msg_size, 1) }, 0 },
	{ "max_msg_size max", { CON(opts.max_msg_size, ABI_MAX_SIZE) }, 0 },
	{ "max_msg_size max + 1", { CON(opts.max_msg_size, ABI_MAX_SIZE + 1) },
	  -EINVAL },
	{ "max_msg_size U32_MAX", { CON(opts.max_msg_size, U32_MAX) }, -EINVAL },
	{ "timeout_ms 1", { CON(opts.timeout_ms, 1) }, 0 },
	{ "timeout_ms max", { CON(opts.timeout_ms, ABI_MAX_TIMEOUT) }, 0 },
	{ "timeout_ms max + 1", { CON(opts.timeout_ms, ABI_MAX_TIMEOUT + 1) },
	  -EINVAL },
	{ "timeout_ms U32_MAX", { CON(opts.timeout_ms, U32_MAX) }, -EINVAL },
	{ "backlog U32_MAX (listeners only)", { CON(opts.backlog, U32_MAX) },
	  0 },
	{ "every option at its max", { CON(opts.poll_mode, 3),
				       CON(opts.queue_depth, ABI_MAX_DEPTH),
				       CON(opts.max_msg_size, ABI_MAX_SIZE),
				       CON(opts.timeout_ms, ABI_MAX_TIMEOUT) }, 0 },
	/* dst */
	{ "dst AF_INET6 with a port", { CON(dst.ss_family, AF_INET6) }, 0 },
	{ "dst port 0", { CON_PORT(dst, 0) }, -EINVAL },
	{ "dst AF_INET6, port 0", { CON(dst.ss_family, AF_INET6),
				    CON_PORT(dst, 0) }, -EINVAL },
	{ "dst AF_UNSPEC, all zero", { CON_FILL(dst, 0) }, -EINVAL },
	{ "dst AF_UNSPEC with a port", { CON(dst.ss_family, AF_UNSPEC) },
	  -EINVAL },
	{ "dst AF_UNIX", { CON(dst.ss_family, AF_UNIX) }, -EINVAL },
	{ "dst AF_IB", { CON(dst.ss_family, AF_IB) }, -EINVAL },
	{ "dst family 0xffff", { CON(dst.ss_family, 0xffff) }, -EINVAL },
	/* src */
	{ "src AF_INET, port 0", { CON(src.ss_family, AF_INET) }, 0 },
	{ "src AF_INET with a port", { CON(src.ss_family, AF_INET),
				       CON_PORT(src, TEST_PORT) }, 0 },
	{ "src AF_INET6, port 0", { CON(src.ss_family, AF_INET6) }, 0 },
	{ "src AF_UNSPEC with a port", { CON_PORT(src, TEST_PORT) }, -EINVAL },
	{ "src AF_UNSPEC, last byte", { IOC_AT(struct rdmachan_connect, src,
					       CON_SS_LAST, 1, 1) }, -EINVAL },
	{ "src AF_UNIX", { CON(src.ss_family, AF_UNIX) }, -EINVAL },
	{ "src AF_IB", { CON(src.ss_family, AF_IB) }, -EINVAL },
};

KUNIT_ARRAY_PARAM(connect, connect_cases, ioc_case_desc);

/* The options of a valid struct come out in @opts. */
static void expect_opts(struct kunit *test, const struct rdmachan_chan_opts *in,
			const struct rdmachan_opts *out)
{
	KUNIT_EXPECT_EQ(test, out->queue_depth, in->queue_depth);
	KUNIT_EXPECT_EQ(test, out->max_msg_size, in->max_msg_size);
	KUNIT_EXPECT_EQ(test, out->timeout_ms, in->timeout_ms);
	KUNIT_EXPECT_EQ(test, out->poll_mode, in->poll_mode);
	KUNIT_EXPECT_EQ(test, out->backlog, in->backlog);
}

static void ioctl_test_connect(struct kunit *test)
{
	const struct ioc_case *c = test->param_value;
	struct rdmachan_connect arg;
	struct rdmachan_opts opts;

	connect_init(&arg);
	ioc_apply(test, &arg, sizeof(arg), c->set);
	memset(&opts, 0xa5, sizeof(opts));
	KUNIT_EXPECT_EQ(test, rdmachan_check_connect(&arg, &opts), c->want);
	if (!c->want)
		expect_opts(test, &arg.opts, &opts);
}

/* ---- LISTEN ------------------------------------------------------------- */

static void listen_init(void *arg)
{
	struct rdmachan_listen *l = arg;
	struct sockaddr_in *addr = (struct sockaddr_in *)&l->addr;

	memset(l, 0, sizeof(*l));
	l->size = sizeof(*l);
	addr->sin_family = AF_INET;	/* port 0: any free port */
	addr->sin_addr.s_addr = cpu_to_be32(0xc0000201);	/* 192.0.2.1 */
}

static int listen_check(const void *arg)
{
	struct rdmachan_opts opts;

	return rdmachan_check_listen(arg, &opts);
}

const struct ioc_kind ioc_listen_kind = {
	sizeof(struct rdmachan_listen), listen_init, listen_check,
};

#define LSN(m, v)	IOC_SET((struct rdmachan_listen, m), v)
#define LSN_FILL(m, v)	IOC_FILL((struct rdmachan_listen, m), v)
#define LSN_PORT(m, v)	IOC_AT(struct rdmachan_listen, m,			\
			   offsetof(struct sockaddr_in, sin_port), 2, v)
#define LSN_SIZE	sizeof(struct rdmachan_listen)

static const struct ioc_case listen_cases[] = {
	{ "valid", {}, 0 },
	{ "size 0", { LSN(size, 0) }, -EINVAL },
	{ "size - 1", { LSN(size, LSN_SIZE - 1) }, -EINVAL },
	{ "size + 1", { LSN(size, LSN_SIZE + 1) }, -EINVAL },
	{ "size U32_MAX", { LSN(size, U32_MAX) }, -EINVAL },
	{ "size of CONNECT's struct",
	  { LSN(size, sizeof(struct rdmachan_connect)) }, -EINVAL },
	/* flags (each bit: ioctl_test_listen_flags) */
	{ "flags NONBLOCK|CLOEXEC", { LSN(flags, ABI_FD_FLAGS) }, 0 },
	{ "flags 0x4", { LSN(flags, 0x4) }, -EINVAL },
	{ "flags U32_MAX", { LSN(flags, U32_MAX) }, -EINVAL },
	/* fd and reserved */
	{ "fd 1", { LSN(fd, 1) }, -EINVAL },
	{ "fd -1", { LSN(fd, -1) }, -EINVAL },
	{ "reserved[0]", { LSN(reserved[0], 1) }, -EINVAL },
	{ "reserved[1]", { LSN(reserved[1], 1) }, -EINVAL },
	{ "reserved[2]", { LSN(reserved[2], 1) }, -EINVAL },
	{ "reserved[3]", { LSN(reserved[3], 1) }, -EINVAL },
	{ "reserved[4]", { LSN(reserved[4], 1) }, -EINVAL },
	{ "reserved[5]", { LSN(reserved[5], 1) }, -EINVAL },
	{ "reserved[6]", { LSN(reserved[6], U32_MAX) }, -EINVAL },
	/* options */
	{ "opts.reserved 1", { LSN(opts.reserved, 1) }, -EINVAL },
	{ "poll_mode DIRECT", { LSN(opts.poll_mode,
				    RDMACHAN_POLL_MODE_DIRECT) }, 0 },
	{ "poll_mode SOLICITED (max)", { LSN(opts.poll_mode,
					     RDMACHAN_POLL_MODE_SOLICITED) }, 0 },
	{ "poll_mode max + 1", { LSN(opts.poll_mode, 4) }, -EINVAL },
	{ "queue_depth max", { LSN(opts.queue_depth, ABI_MAX_DEPTH) }, 0 },
	{ "queue_depth max + 1", { LSN(opts.queue_depth, ABI_MAX_DEPTH + 1) },
	  -EINVAL },
	{ "max_msg_size max", { LSN(opts.max_msg_size, ABI_MAX_SIZE) }, 0 },
	{ "max_msg_size max + 1", { LSN(opts.max_msg_size, ABI_MAX_SIZE + 1) },
	  -EINVAL },
	{ "timeout_ms max", { LSN(opts.timeout_ms, ABI_MAX_TIMEOUT) }, 0 },
	{ "timeout_ms max + 1", { LSN(opts.timeout_ms, ABI_MAX_TIMEOUT + 1) },
	  -EINVAL },
	{ "backlog 1", { LSN(opts.backlog, 1) }, 0 },
	{ "backlog max", { LSN(opts.backlog, ABI_MAX_BACKLOG) }, 0 },
	{ "backlog max + 1", { LSN(opts.backlog, ABI_MAX_BACKLOG + 1) }, -EINVAL },
	{ "backlog U32_MAX", { LSN(opts.backlog, U32_MAX) }, -EINVAL },
	{ "every option at its max", { LSN(opts.poll_mode, 3),
				       LSN(opts.queue_depth, ABI_MAX_DEPTH),
				       LSN(opts.max_msg_size, ABI_MAX_SIZE),
				       LSN(opts.backlog, ABI_MAX_BACKLOG) }, 0 },
	/* addr: any port, not AF_UNSPEC */
	{ "addr with a port", { LSN_PORT(addr, TEST_PORT) }, 0 },
	{ "addr AF_INET6, port 0", { LSN(addr.ss_family, AF_INET6) }, 0 },
	{ "addr AF_INET6 with a port", { LSN(addr.ss_family, AF_INET6),
					 LSN_PORT(addr, TEST_PORT) }, 0 },
	{ "addr AF_UNSPEC, all zero", { LSN_FILL(addr, 0) }, -EINVAL },
	{ "addr AF_UNSPEC with an address", { LSN(addr.ss_family, AF_UNSPEC) },
	  -EINVAL },
	{ "addr AF_UNIX", { LSN(addr.ss_family, AF_UNIX) }, -EINVAL },
	{ "addr AF_IB", { LSN(addr.ss_family, AF_IB) }, -EINVAL },
	{ "addr family 0xffff", { LSN(addr.ss_family, 0xffff) }, -EINVAL },
	/* the backlog is checked after the address */
	{ "bad addr and backlog max + 1", { LSN_FILL(addr, 0),
					    LSN(opts.backlog,
						ABI_MAX_BACKLOG + 1) }, -EINVAL },
};

KUNIT_ARRAY_PARAM(listen, listen_cases, ioc_case_desc);

static void ioctl_test_listen(struct kunit *test)
{
	const struct ioc_case *c = test->param_value;
	struct rdmachan_listen arg;
	struct rdmachan_opts opts;

	listen_init(&arg);
	ioc_apply(test, &arg, sizeof(arg), c->set);
	memset(&opts, 0xa5, sizeof(opts));
	KUNIT_EXPECT_EQ(test, rdmachan_check_listen(&arg, &opts), c->want);
	if (!c->want)
		expect_opts(test, &arg.opts, &opts);
}

/* ---- ACCEPT ------------------------------------------------------------- */

static void accept_init(void *arg)
{
	struct rdmachan_accept *a = arg;

	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
}

static int accept_check(const void *arg)
{
	return rdmachan_check_accept(arg);
}

const struct ioc_kind ioc_accept_kind = {
	sizeof(struct rdmachan_accept), accept_init, accept_check,
};

#define ACC(m, v)	IOC_SET((struct rdmachan_accept, m), v)
#define ACC_SIZE	sizeof(struct rdmachan_accept)

static const struct ioc_case accept_cases[] = {
	{ "valid", {}, 0 },
	{ "size 0", { ACC(size, 0) }, -EINVAL },
	{ "size - 1", { ACC(size, ACC_SIZE - 1) }, -EINVAL },
	{ "size + 1", { ACC(size, ACC_SIZE + 1) }, -EINVAL },
	{ "size U32_MAX", { ACC(size, U32_MAX) }, -EINVAL },
	{ "flags NONBLOCK", { ACC(flags, RDMACHAN_FD_NONBLOCK) }, 0 },
	{ "flags NONBLOCK|CLOEXEC", { ACC(flags, ABI_FD_FLAGS) }, 0 },
	{ "flags 0x4", { ACC(flags, 0x4) }, -EINVAL },
	{ "flags U32_MAX", { ACC(flags, U32_MAX) }, -EINVAL },
	{ "fd 1", { ACC(fd, 1) }, -EINVAL },
	{ "fd -1", { ACC(fd, -1) }, -EINVAL },
	{ "reserved0", { ACC(reserved0, 1) }, -EINVAL },
	{ "peer AF_INET", { ACC(peer.ss_family, AF_INET) }, -EINVAL },
	{ "peer, last byte", { IOC_AT(struct rdmachan_accept, peer, CON_SS_LAST,
				      1, 1) }, -EINVAL },
	{ "reserved[0]", { ACC(reserved[0], 1) }, -EINVAL },
	{ "reserved[1]", { ACC(reserved[1], 1) }, -EINVAL },
	{ "reserved[2]", { ACC(reserved[2], 1) }, -EINVAL },
	{ "reserved[3]", { ACC(reserved[3], 1) }, -EINVAL },
	{ "reserved[4]", { ACC(reserved[4], 1) }, -EINVAL },
	{ "reserved[5]", { ACC(reserved[5], 1) }, -EINVAL },
	{ "reserved[6]", { ACC(reserved[6], 1) }, -EINVAL },
	{ "reserved[7]", { ACC(reserved[7], U32_MAX) }, -EINVAL },
};

KUNIT_ARRAY_PARAM(accept, accept_cases, ioc_case_desc);

static void ioctl_test_accept(struct kunit *test)
{
	const struct ioc_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, ioc_run(test, &ioc_accept_kind, c->set), c->want);
}

static void ioctl_test_connect_flags(struct kunit *test)
{
	ioc_flag_bit_run(test, &ioc_connect_kind,
			 offsetof(struct rdmachan_connect, flags), ABI_FD_FLAGS);
}

static void ioctl_test_listen_flags(struct kunit *test)
{
	ioc_flag_bit_run(test, &ioc_listen_kind,
			 offsetof(struct rdmachan_listen, flags), ABI_FD_FLAGS);
}

static void ioctl_test_accept_flags(struct kunit *test)
{
	ioc_flag_bit_run(test, &ioc_accept_kind,
			 offsetof(struct rdmachan_accept, flags), ABI_FD_FLAGS);
}

static struct kunit_case ioctl_conn_cases[] = {
	KUNIT_CASE_PARAM(ioctl_test_addr, addr_gen_params),
	KUNIT_CASE_PARAM(ioctl_test_connect, connect_gen_params),
	KUNIT_CASE_PARAM(ioctl_test_connect_flags, ioc_flag_bit_gen_params),
	KUNIT_CASE_PARAM(ioctl_test_listen, listen_gen_params),
	KUNIT_CASE_PARAM(ioctl_test_listen_flags, ioc_flag_bit_gen_params),
	KUNIT_CASE_PARAM(ioctl_test_accept, accept_gen_params),
	KUNIT_CASE_PARAM(ioctl_test_accept_flags, ioc_flag_bit_gen_params),
	{}
};

static struct kunit_suite ioctl_conn_suite = {
	.name = "rdmachan_ioctl_conn",
	.test_cases = ioctl_conn_cases,
};

kunit_test_suite(ioctl_conn_suite);
