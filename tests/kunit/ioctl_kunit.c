// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite for module/chan/ioctl_check.c: the checks of the ioctl argument
 * structs of /dev/rdmachan, of a listener fd and of a channel fd, once
 * they are copied in.
 *
 * Each case starts from a valid struct and changes one to four fields, to
 * and past their bounds; flags are tried bit by bit, and reserved and
 * output fields byte by byte.  Bounds are written out here as the ABI
 * documents them (Documentation/ioctl.rst), not taken from the module, so
 * that a changed limit fails a test.
 *
 * The checks log every rejection (rate-limited) as they do for a real
 * caller: "rdmachan_kunit: CONNECT: kunit_try_catch (pid N): ..." lines
 * in the kernel log are expected.
 */
/* First: it defines pr_fmt before any header does. */
#include "../../module/chan/ioctl_check.c"

#include <kunit/test.h>
#include <linux/bits.h>
#include <linux/limits.h>
#include <linux/sizes.h>
#include <linux/socket.h>
#include <linux/string.h>
#include <linux/stringify.h>

#include <linux/rdmachan_blk.h>
#include <linux/rdmachan_net.h>

/* Bounds of the ABI */
#define ABI_FD_FLAGS	(RDMACHAN_FD_NONBLOCK | RDMACHAN_FD_CLOEXEC)
#define ABI_MAX_DEPTH	16384U
#define ABI_MAX_SIZE	SZ_1M
#define ABI_MAX_TIMEOUT	600000U
#define ABI_MAX_BACKLOG	65536U
#define ABI_MMSG_MAX	1024U

/* A port: any non-zero value (changes are in host byte order) */
#define TEST_PORT	4791

/**
 * struct ioc_set - one change to a valid argument struct
 * @off: byte offset in the struct
 * @len: bytes changed; 0 ends the list
 * @val: the new value of a 1, 2, 4 or 8-byte field, host byte order;
 *	with @fill, the value of every byte
 * @fill: set each of the @len bytes to @val
 */
struct ioc_set {
	unsigned int off;
	unsigned int len;
	u64 val;
	bool fill;
};

#define IOC_SETS	4

/*
 * A member, @tm, is given as "(struct type, member)", the arguments of
 * offsetof() and sizeof_field().
 */
/* Member @tm becomes @v. */
#define IOC_SET(tm, v)		{ offsetof tm, sizeof_field tm, (v), false }
/* Every byte of member @tm becomes @v. */
#define IOC_FILL(tm, v)		{ offsetof tm, sizeof_field tm, (v), true }
/* The @n bytes @add bytes into member @m become @v. */
#define IOC_AT(t, m, add, n, v)	{ offsetof(t, m) + (add), (n), (v), false }

/**
 * struct ioc_case - an argument struct with up to IOC_SETS changes
 * @name: what the case shows
 * @set: the changes to the valid struct
 * @want: the expected return of the check
 */
struct ioc_case {
	const char *name;
	struct ioc_set set[IOC_SETS];
	int want;
};

static void ioc_case_desc(const struct ioc_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

/* Apply the changes @set to the @size bytes at @arg. */
static void ioc_apply(struct kunit *test, void *arg, size_t size,
		      const struct ioc_set *set)
{
	unsigned int i;

	for (i = 0; i < IOC_SETS && set[i].len; i++) {
		const struct ioc_set *s = &set[i];
		u8 *p = (u8 *)arg + s->off;
		u16 v16 = s->val;
		u32 v32 = s->val;
		u64 v64 = s->val;

		KUNIT_ASSERT_LE(test, s->off + s->len, size);
		if (s->fill) {
			memset(p, (u8)s->val, s->len);
			continue;
		}
		switch (s->len) {
		case 1:
			*p = s->val;
			break;
		case 2:
			memcpy(p, &v16, sizeof(v16));
			break;
		case 4:
			memcpy(p, &v32, sizeof(v32));
			break;
		case 8:
			memcpy(p, &v64, sizeof(v64));
			break;
		default:
			KUNIT_FAIL(test, "change %u: %u bytes", i, s->len);
		}
	}
}

/**
 * struct ioc_kind - an argument struct and its check
 * @size: sizeof() the struct
 * @init: fill @arg with a valid struct
 * @check: the check of ioctl_check.c, 0 or a negative errno
 */
struct ioc_kind {
	size_t size;
	void (*init)(void *arg);
	int (*check)(const void *arg);
};

/* Run @k's check on a valid struct with the changes @set. */
static int ioc_run(struct kunit *test, const struct ioc_kind *k,
		   const struct ioc_set *set)
{
	void *arg = kunit_kzalloc(test, k->size, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, arg);
	k->init(arg);
	ioc_apply(test, arg, k->size, set);
	return k->check(arg);
}

/* ---- VERSION ------------------------------------------------------------ */

static void version_init(void *arg)
{
	struct rdmachan_version *v = arg;

	memset(v, 0, sizeof(*v));
	v->size = sizeof(*v);
}

static int version_check(const void *arg)
{
	return rdmachan_check_version(arg);
}

static const struct ioc_kind version_kind = {
	sizeof(struct rdmachan_version), version_init, version_check,
};

#define VER(m, v)	IOC_SET((struct rdmachan_version, m), v)
#define VER_SIZE	sizeof(struct rdmachan_version)

static const struct ioc_case version_cases[] = {
	{ "valid", {}, 0 },
	{ "size 0", { VER(size, 0) }, -EINVAL },
	{ "size - 1", { VER(size, VER_SIZE - 1) }, -EINVAL },
	{ "size + 1", { VER(size, VER_SIZE + 1) }, -EINVAL },
	{ "size U32_MAX", { VER(size, U32_MAX) }, -EINVAL },
	{ "abi_version 1", { VER(abi_version, 1) }, -EINVAL },
	{ "features bit 0", { VER(features, 1) }, -EINVAL },
	{ "features bit 63", { VER(features, BIT_ULL(63)) }, -EINVAL },
	{ "device_count 1", { VER(device_count, 1) }, -EINVAL },
	{ "reserved[0]", { VER(reserved[0], 1) }, -EINVAL },
	{ "reserved[1]", { VER(reserved[1], 1) }, -EINVAL },
	{ "reserved[2]", { VER(reserved[2], 1) }, -EINVAL },
	{ "reserved[3]", { VER(reserved[3], 1) }, -EINVAL },
	{ "reserved[4]", { VER(reserved[4], 1) }, -EINVAL },
	{ "reserved[5]", { VER(reserved[5], 1) }, -EINVAL },
	{ "reserved[6]", { VER(reserved[6], U32_MAX) }, -EINVAL },
};

KUNIT_ARRAY_PARAM(version, version_cases, ioc_case_desc);

static void ioctl_test_version(struct kunit *test)
{
	const struct ioc_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, ioc_run(test, &version_kind, c->set), c->want);
}

/* ---- DEV_LIST ----------------------------------------------------------- */

static void dev_list_init(void *arg)
{
	struct rdmachan_dev_list *l = arg;

	memset(l, 0, sizeof(*l));
	l->size = sizeof(*l);
}

static int dev_list_check(const void *arg)
{
	return rdmachan_check_dev_list(arg);
}

static const struct ioc_kind dev_list_kind = {
	sizeof(struct rdmachan_dev_list), dev_list_init, dev_list_check,
};

#define LST(m, v)	IOC_SET((struct rdmachan_dev_list, m), v)
#define LST_SIZE	sizeof(struct rdmachan_dev_list)

static const struct ioc_case dev_list_cases[] = {
	{ "valid, capacity 0, no array", {}, 0 },
	{ "capacity 4, array", { LST(capacity, 4), LST(entries, 0x1000) }, 0 },
	{ "capacity 0, array", { LST(entries, 0x1000) }, 0 },
	{ "capacity U32_MAX, array", { LST(capacity, U32_MAX),
				       LST(entries, 0x1000) }, 0 },
	{ "capacity 1, no array", { LST(capacity, 1) }, -EINVAL },
	{ "capacity U32_MAX, no array", { LST(capacity, U32_MAX) }, -EINVAL },
	{ "size 0", { LST(size, 0) }, -EINVAL },
	{ "size - 1", { LST(size, LST_SIZE - 1) }, -EINVAL },
	{ "size + 1", { LST(size, LST_SIZE + 1) }, -EINVAL },
	{ "size U32_MAX", { LST(size, U32_MAX) }, -EINVAL },
	{ "count 1", { LST(count, 1) }, -EINVAL },
	{ "count U32_MAX", { LST(count, U32_MAX) }, -EINVAL },
	{ "reserved[0]", { LST(reserved[0], 1) }, -EINVAL },
	{ "reserved[1]", { LST(reserved[1], 1) }, -EINVAL },
	{ "reserved[2]", { LST(reserved[2], 1) }, -EINVAL },
	{ "reserved[3]", { LST(reserved[3], 1) }, -EINVAL },
	{ "reserved[4]", { LST(reserved[4], U32_MAX) }, -EINVAL },
};

KUNIT_ARRAY_PARAM(dev_list, dev_list_cases, ioc_case_desc);

static void ioctl_test_dev_list(struct kunit *test)
{
	const struct ioc_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, ioc_run(test, &dev_list_kind, c->set), c->want);
}

/* ---- DEV_QUERY ---------------------------------------------------------- */

static void dev_query_init(void *arg)
{
	struct rdmachan_dev_query *q = arg;

	memset(q, 0, sizeof(*q));
	q->size = sizeof(*q);
	strscpy(q->name, "rxe0", sizeof(q->name));
}

static int dev_query_check(const void *arg)
{
	return rdmachan_check_dev_query(arg);
}

static const struct ioc_kind dev_query_kind = {
	sizeof(struct rdmachan_dev_query), dev_query_init, dev_query_check,
};

#define QRY(m, v)	IOC_SET((struct rdmachan_dev_query, m), v)
#define QRY_FILL(m, v)	IOC_FILL((struct rdmachan_dev_query, m), v)
#define QRY_SIZE	sizeof(struct rdmachan_dev_query)
#define NAME_LAST	(RDMACHAN_NAME_MAX - 1)

static const struct ioc_case dev_query_cases[] = {
	{ "valid", {}, 0 },
	{ "size 0", { QRY(size, 0) }, -EINVAL },
	{ "size - 1", { QRY(size, QRY_SIZE - 1) }, -EINVAL },
	{ "size + 1", { QRY(size, QRY_SIZE + 1) }, -EINVAL },
	{ "size U32_MAX", { QRY(size, U32_MAX) }, -EINVAL },
	/* name */
	{ "name of 1 byte", { QRY(name[1], 0) }, 0 },
	{ "name of 63 bytes", { QRY_FILL(name, 'a'), QRY(name[NAME_LAST], 0) },
	  0 },
	{ "name of 63 bytes 0xff", { QRY_FILL(name, 0xff),
				     QRY(name[NAME_LAST], 0) }, 0 },
	{ "name of 64 bytes, not terminated", { QRY_FILL(name, 'a') },
	  -EINVAL },
	{ "name not terminated, 0xff", { QRY_FILL(name, 0xff) }, -EINVAL },
	{ "bytes after the terminator", { QRY(name[5], 'x'),
					  QRY(name[NAME_LAST], 'y') }, 0 },
	{ "empty name, bytes after it", { QRY(name[0], 0) }, -EINVAL },
	{ "all-zero name", { QRY_FILL(name, 0) }, -EINVAL },
	/* ports */
	{ "port_capacity 2, array", { QRY(port_capacity, 2),
				      QRY(ports, 0x1000) }, 0 },
	{ "port_capacity 0, array", { QRY(ports, 0x1000) }, 0 },
	{ "port_capacity U32_MAX, array", { QRY(port_capacity, U32_MAX),
					    QRY(ports, 0x1000) }, 0 },
	{ "port_capacity 1, no array", { QRY(port_capacity, 1) }, -EINVAL },
	{ "port_capacity U32_MAX, no array", { QRY(port_capacity, U32_MAX) },
	  -EINVAL },
	/* output and reserved fields */
	{ "port_count 1", { QRY(port_count, 1) }, -EINVAL },
	{ "index 1", { QRY(index, 1) }, -EINVAL },
	{ "node_guid bit 63", { QRY(node_guid, BIT_ULL(63)) }, -EINVAL },
	{ "fw_ver[0]", { QRY(fw_ver[0], '1') }, -EINVAL },
	{ "fw_ver[63]", { QRY(fw_ver[RDMACHAN_FW_VER_MAX - 1], '1') }, -EINVAL },
	{ "max_mr_size 1", { QRY(max_mr_size, 1) }, -EINVAL },
	{ "max_inline_data 1", { QRY(max_inline_data, 1) }, -EINVAL },
	{ "max_pkeys 1", { QRY(max_pkeys, 1) }, -EINVAL },
	{ "local_ca_ack_delay 1", { QRY(local_ca_ack_delay, 1) }, -EINVAL },
	{ "reserved0", { QRY(reserved0, 1) }, -EINVAL },
	{ "reserved[0]", { QRY(reserved[0], 1) }, -EINVAL },
	{ "reserved[7]", { QRY(reserved[7], 1) }, -EINVAL },
};

KUNIT_ARRAY_PARAM(dev_query, dev_query_cases, ioc_case_desc);

static void ioctl_test_dev_query(struct kunit *test)
{
	const struct ioc_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, ioc_run(test, &dev_query_kind, c->set), c->want);
}

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

static const struct ioc_kind connect_kind = {
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

static const struct ioc_kind listen_kind = {
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

static const struct ioc_kind accept_kind = {
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

	KUNIT_EXPECT_EQ(test, ioc_run(test, &accept_kind, c->set), c->want);
}

/* ---- SEND, RECV, SENDMMSG, RECVMMSG ------------------------------------- */

static void mmsg_init(void *arg)
{
	struct rdmachan_mmsg *mm = arg;

	memset(mm, 0, sizeof(*mm));
	mm->size = sizeof(*mm);
	mm->msgs = 0x1000;	/* any non-NULL user pointer */
	mm->count = 1;
}

static int mmsg_check(const void *arg)
{
	return rdmachan_check_mmsg("SENDMMSG", arg, false);
}

static const struct ioc_kind mmsg_kind = {
	sizeof(struct rdmachan_mmsg), mmsg_init, mmsg_check,
};

static int send_check(const void *arg)
{
	return rdmachan_check_mmsg("SEND", arg, true);
}

static const struct ioc_kind send_kind = {
	sizeof(struct rdmachan_mmsg), mmsg_init, send_check,
};

/**
 * struct mmsg_case - one struct rdmachan_mmsg
 * @name: what the case shows
 * @single: SEND or RECV (exactly one message), else SENDMMSG or RECVMMSG
 * @set: the changes to a valid struct (one message)
 * @want: the expected return
 */
struct mmsg_case {
	const char *name;
	bool single;
	struct ioc_set set[IOC_SETS];
	int want;
};

#define MM(m, v)	IOC_SET((struct rdmachan_mmsg, m), v)
#define MM_SIZE		sizeof(struct rdmachan_mmsg)

static const struct mmsg_case mmsg_cases[] = {
	{ "SEND valid", true, {}, 0 },
	{ "SENDMMSG valid", false, {}, 0 },
	/* count */
	{ "SEND count 0", true, { MM(count, 0) }, -EINVAL },
	{ "SEND count 2", true, { MM(count, 2) }, -EINVAL },
	{ "SEND count max", true, { MM(count, ABI_MMSG_MAX) }, -EINVAL },
	{ "SENDMMSG count 0", false, { MM(count, 0) }, -EINVAL },
	{ "SENDMMSG count 2", false, { MM(count, 2) }, 0 },
	{ "SENDMMSG count max", false, { MM(count, ABI_MMSG_MAX) }, 0 },
	{ "SENDMMSG count max + 1", false, { MM(count, ABI_MMSG_MAX + 1) },
	  -EINVAL },
	{ "SENDMMSG count U32_MAX", false, { MM(count, U32_MAX) }, -EINVAL },
	/* array */
	{ "SEND no array", true, { MM(msgs, 0) }, -EINVAL },
	{ "SENDMMSG no array", false, { MM(msgs, 0) }, -EINVAL },
	{ "SENDMMSG no array, count max", false, { MM(msgs, 0),
						   MM(count, ABI_MMSG_MAX) },
	  -EINVAL },
	{ "SENDMMSG array U64_MAX (left to the copy)", false,
	  { MM(msgs, U64_MAX) }, 0 },
	/* flags (each bit: ioctl_test_mmsg_flags) */
	{ "SEND flags DONTWAIT", true, { MM(flags, RDMACHAN_MSG_DONTWAIT) }, 0 },
	{ "SENDMMSG flags DONTWAIT", false, { MM(flags, RDMACHAN_MSG_DONTWAIT) },
	  0 },
	{ "SEND flags IMM (a message flag)", true,
	  { MM(flags, RDMACHAN_MSG_IMM) }, -EINVAL },
	{ "SENDMMSG flags 0x4", false, { MM(flags, 0x4) }, -EINVAL },
	{ "SENDMMSG flags U32_MAX", false, { MM(flags, U32_MAX) }, -EINVAL },
	/* size */
	{ "SEND size 0", true, { MM(size, 0) }, -EINVAL },
	{ "SEND size - 1", true, { MM(size, MM_SIZE - 1) }, -EINVAL },
	{ "SEND size + 1", true, { MM(size, MM_SIZE + 1) }, -EINVAL },
	{ "SENDMMSG size - 1", false, { MM(size, MM_SIZE - 1) }, -EINVAL },
	{ "SENDMMSG size + 1", false, { MM(size, MM_SIZE + 1) }, -EINVAL },
	{ "SENDMMSG size U32_MAX", false, { MM(size, U32_MAX) }, -EINVAL },
	/* output and reserved */
	{ "SEND done 1", true, { MM(done, 1) }, -EINVAL },
	{ "SENDMMSG done U32_MAX", false, { MM(done, U32_MAX) }, -EINVAL },
	{ "SENDMMSG reserved[0]", false, { MM(reserved[0], 1) }, -EINVAL },
	{ "SENDMMSG reserved[1]", false, { MM(reserved[1], 1) }, -EINVAL },
	{ "SENDMMSG reserved[2]", false, { MM(reserved[2], 1) }, -EINVAL },
	{ "SENDMMSG reserved[3]", false, { MM(reserved[3], U32_MAX) }, -EINVAL },
	{ "SEND reserved[3]", true, { MM(reserved[3], 1) }, -EINVAL },
};

static void mmsg_case_desc(const struct mmsg_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(mmsg, mmsg_cases, mmsg_case_desc);

static void ioctl_test_mmsg(struct kunit *test)
{
	const struct mmsg_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, ioc_run(test, c->single ? &send_kind : &mmsg_kind,
				      c->set), c->want);
}

/* ---- one message of SEND, SENDMMSG -------------------------------------- */

static void user_msg_init(void *arg)
{
	struct rdmachan_user_msg *m = arg;

	memset(m, 0, sizeof(*m));
	m->buf = 0x1000;
	m->len = 64;
}

static int user_msg_check(const void *arg)
{
	return rdmachan_check_user_msg("SENDMMSG", arg, 0);
}

static const struct ioc_kind user_msg_kind = {
	sizeof(struct rdmachan_user_msg), user_msg_init, user_msg_check,
};

#define MSG(m, v)	IOC_SET((struct rdmachan_user_msg, m), v)

static const struct ioc_case user_msg_cases[] = {
	{ "valid", {}, 0 },
	{ "flags IMM", { MSG(flags, RDMACHAN_MSG_IMM), MSG(imm, U32_MAX) }, 0 },
	{ "imm without IMM", { MSG(imm, 1) }, 0 },
	{ "flags SOLICITED", { MSG(flags, RDMACHAN_MSG_SOLICITED) }, 0 },
	{ "flags IMM | SOLICITED", { MSG(flags, RDMACHAN_MSG_IMM |
						RDMACHAN_MSG_SOLICITED) }, 0 },
	{ "len 0", { MSG(len, 0) }, 0 },
	{ "len U32_MAX (left to the channel)", { MSG(len, U32_MAX) }, 0 },
	{ "flags DONTWAIT (a call flag)", { MSG(flags, RDMACHAN_MSG_DONTWAIT) },
	  -EINVAL },
	{ "flags U32_MAX", { MSG(flags, U32_MAX) }, -EINVAL },
	{ "reserved 1", { MSG(reserved, 1) }, -EINVAL },
	{ "reserved U32_MAX", { MSG(reserved, U32_MAX) }, -EINVAL },
	{ "IMM and reserved", { MSG(flags, RDMACHAN_MSG_IMM),
				MSG(reserved, 1) }, -EINVAL },
};

KUNIT_ARRAY_PARAM(user_msg, user_msg_cases, ioc_case_desc);

static void ioctl_test_user_msg(struct kunit *test)
{
	const struct ioc_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, ioc_run(test, &user_msg_kind, c->set), c->want);
}

/* ---- CHAN_INFO ---------------------------------------------------------- */

/**
 * struct size_case - one size given to CHAN_INFO
 * @name: what the case shows
 * @size: the size
 * @want: the expected return
 */
struct size_case {
	const char *name;
	u32 size;
	int want;
};

#define INFO_SIZE	sizeof(struct rdmachan_chan_info)

static const struct size_case chan_info_cases[] = {
	{ "size", INFO_SIZE, 0 },
	{ "size 0", 0, -EINVAL },
	{ "size 4 (the size field only)", 4, -EINVAL },
	{ "size - 1", INFO_SIZE - 1, -EINVAL },
	{ "size + 1", INFO_SIZE + 1, -EINVAL },
	{ "size * 2", INFO_SIZE * 2, -EINVAL },
	{ "size U32_MAX", U32_MAX, -EINVAL },
	{ "size of BENCH's struct", sizeof(struct rdmachan_bench), -EINVAL },
};

static void size_case_desc(const struct size_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(chan_info, chan_info_cases, size_case_desc);

static void ioctl_test_chan_info(struct kunit *test)
{
	const struct size_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, rdmachan_check_chan_info(c->size), c->want);
}

/* ---- BENCH -------------------------------------------------------------- */

/* The channel of the bench cases, unless a case says otherwise */
#define BENCH_DEPTH		128U
#define BENCH_MAXMSG		4096U

static void bench_init(void *arg)
{
	struct rdmachan_bench *b = arg;

	memset(b, 0, sizeof(*b));
	b->size = sizeof(*b);
	b->mode = RDMACHAN_BENCH_BLAST;
	b->msg_size = 64;
}

static int bench_check(const void *arg)
{
	return rdmachan_check_bench(arg, BENCH_DEPTH, BENCH_MAXMSG);
}

static const struct ioc_kind bench_kind = {
	sizeof(struct rdmachan_bench), bench_init, bench_check,
};

/**
 * struct bench_case - one struct rdmachan_bench on one channel
 * @name: what the case shows
 * @depth: the channel's queue depth (0: BENCH_DEPTH)
 * @max: the channel's max_msg_size (0: BENCH_MAXMSG)
 * @set: the changes to a valid struct (M_BLAST, 64 bytes, batch 0: BLAST's
 *	default)
 * @want: the expected return
 */
struct bench_case {
	const char *name;
	u32 depth;
	u32 max;
	struct ioc_set set[IOC_SETS];
	int want;
};

#define BEN(m, v)	IOC_SET((struct rdmachan_bench, m), v)
#define BEN_SIZE	sizeof(struct rdmachan_bench)
#define M_BLAST		RDMACHAN_BENCH_BLAST
#define M_PINGPONG	RDMACHAN_BENCH_PINGPONG
#define M_SINK		RDMACHAN_BENCH_SINK
#define M_ECHO		RDMACHAN_BENCH_ECHO
#define M_TARGET	RDMACHAN_BENCH_RDMA_TARGET
#define M_WRITE		RDMACHAN_BENCH_WRITE
#define M_READ		RDMACHAN_BENCH_READ
#define BENCH_REGION	RDMACHAN_BENCH_MAX_REGION

static const struct bench_case bench_cases[] = {
	{ "valid BLAST, default batch", 0, 0, {}, 0 },
	{ "size 0", 0, 0, { BEN(size, 0) }, -EINVAL },
	{ "size - 1", 0, 0, { BEN(size, BEN_SIZE - 1) }, -EINVAL },
	{ "size + 1", 0, 0, { BEN(size, BEN_SIZE + 1) }, -EINVAL },
	{ "size U32_MAX", 0, 0, { BEN(size, U32_MAX) }, -EINVAL },
	/* mode */
	{ "mode PINGPONG", 0, 0, { BEN(mode, M_PINGPONG) }, 0 },
	{ "mode SINK", 0, 0, { BEN(mode, M_SINK) }, 0 },
	{ "mode ECHO", 0, 0, { BEN(mode, M_ECHO) }, 0 },
	{ "mode READ (max)", 0, 0, { BEN(mode, M_READ), BEN(batch, 1) }, 0 },
	{ "mode max + 1", 0, 0, { BEN(mode, M_READ + 1), BEN(batch, 1) }, -EINVAL },
	{ "mode U32_MAX", 0, 0, { BEN(mode, U32_MAX) }, -EINVAL },
	/* batch: M_BLAST only, 0 (default) to the queue depth */
	{ "BLAST batch 1", 0, 0, { BEN(batch, 1) }, 0 },
	{ "BLAST batch = depth", 0, 0, { BEN(batch, BENCH_DEPTH) }, 0 },
	{ "BLAST batch = depth + 1", 0, 0, { BEN(batch, BENCH_DEPTH + 1) }, -EINVAL },
	{ "BLAST batch U32_MAX", 0, 0, { BEN(batch, U32_MAX) }, -EINVAL },
	{ "BLAST default batch, depth 1", 1, 0, {}, 0 },
	{ "BLAST batch 1, depth 1", 1, 0, { BEN(batch, 1) }, 0 },
	{ "BLAST batch 2, depth 1", 1, 0, { BEN(batch, 2) }, -EINVAL },
	{ "BLAST batch = depth, depth max", ABI_MAX_DEPTH, 0,
	  { BEN(batch, ABI_MAX_DEPTH) }, 0 },
	{ "PINGPONG batch U32_MAX (unused)", 0, 0, { BEN(mode, M_PINGPONG),
						     BEN(batch, U32_MAX) }, 0 },
	{ "SINK batch U32_MAX (unused)", 0, 0, { BEN(mode, M_SINK),
						 BEN(batch, U32_MAX) }, 0 },
	{ "ECHO batch U32_MAX (unused)", 0, 0, { BEN(mode, M_ECHO),
						 BEN(batch, U32_MAX) }, 0 },
	/* msg_size: M_BLAST and M_PINGPONG, at most the channel's */
	{ "BLAST msg_size 0", 0, 0, { BEN(msg_size, 0) }, 0 },
	{ "BLAST msg_size max", 0, 0, { BEN(msg_size, BENCH_MAXMSG) }, 0 },
	{ "BLAST msg_size max + 1", 0, 0, { BEN(msg_size, BENCH_MAXMSG + 1) },
	  -EMSGSIZE },
	{ "BLAST msg_size U32_MAX", 0, 0, { BEN(msg_size, U32_MAX) },
	  -EMSGSIZE },
	{ "PINGPONG msg_size max", 0, 0, { BEN(mode, M_PINGPONG),
					   BEN(msg_size, BENCH_MAXMSG) }, 0 },
	{ "PINGPONG msg_size max + 1", 0, 0, { BEN(mode, M_PINGPONG),
					       BEN(msg_size, BENCH_MAXMSG + 1) },
	  -EMSGSIZE },
	{ "PINGPONG msg_size 2, channel max 1", 0, 1, { BEN(mode, M_PINGPONG),
							BEN(msg_size, 2) },
	  -EMSGSIZE },
	{ "SINK msg_size U32_MAX (unused)", 0, 0, { BEN(mode, M_SINK),
						    BEN(msg_size, U32_MAX) },
	  0 },
	{ "ECHO msg_size max + 1 (unused)", 0, 0, { BEN(mode, M_ECHO),
						    BEN(msg_size, BENCH_MAXMSG + 1) },
	  0 },
	/* one-sided: batch 1 to RDMACHAN_MAX_RDMA_OPS, msg_size 1 or more */
	{ "WRITE batch 1, msg_size 1", 0, 0, { BEN(mode, M_WRITE), BEN(batch, 1),
					      BEN(msg_size, 1) }, 0 },
	{ "READ batch 64", 0, 0, { BEN(mode, M_READ), BEN(batch, 64) }, 0 },
	{ "TARGET batch 64", 0, 0, { BEN(mode, M_TARGET), BEN(batch, 64) }, 0 },
	{ "WRITE batch 0 (no default)", 0, 0, { BEN(mode, M_WRITE) }, -EINVAL },
	{ "TARGET batch 0 (no default)", 0, 0, { BEN(mode, M_TARGET) }, -EINVAL },
	{ "READ batch 65", 0, 0, { BEN(mode, M_READ), BEN(batch, 65) }, -EINVAL },
	{ "WRITE batch U32_MAX", 0, 0, { BEN(mode, M_WRITE), BEN(batch, U32_MAX) },
	  -EINVAL },
	{ "WRITE msg_size 0", 0, 0, { BEN(mode, M_WRITE), BEN(batch, 1),
				      BEN(msg_size, 0) }, -EINVAL },
	{ "TARGET msg_size 0", 0, 0, { BEN(mode, M_TARGET), BEN(batch, 1),
				       BEN(msg_size, 0) }, -EINVAL },
	{ "WRITE msg_size over the channel's max (unused)", 0, 0,
	  { BEN(mode, M_WRITE), BEN(batch, 1), BEN(msg_size, BENCH_MAXMSG + 1) }, 0 },
	{ "TARGET region = max", 0, 0, { BEN(mode, M_TARGET), BEN(batch, 1),
					 BEN(msg_size, BENCH_REGION) }, 0 },
	{ "TARGET region = max + 1", 0, 0, { BEN(mode, M_TARGET), BEN(batch, 1),
					     BEN(msg_size, BENCH_REGION + 1) }, -E2BIG },
	{ "READ region 64 x (max / 64 + 1)", 0, 0,
	  { BEN(mode, M_READ), BEN(batch, 64), BEN(msg_size, BENCH_REGION / 64 + 1) },
	  -E2BIG },
	{ "WRITE 64 x U32_MAX (no overflow)", 0, 0,
	  { BEN(mode, M_WRITE), BEN(batch, 64), BEN(msg_size, U32_MAX) }, -E2BIG },
	{ "WRITE batch 0 before the region", 0, 0,
	  { BEN(mode, M_WRITE), BEN(msg_size, U32_MAX) }, -EINVAL },
	/* limits: any */
	{ "duration_ms U32_MAX", 0, 0, { BEN(duration_ms, U32_MAX) }, 0 },
	{ "count U64_MAX", 0, 0, { BEN(count, U64_MAX) }, 0 },
	/* output and reserved fields */
	{ "reserved0", 0, 0, { BEN(reserved0, 1) }, -EINVAL },
	{ "msgs", 0, 0, { BEN(msgs, 1) }, -EINVAL },
	{ "bytes bit 63", 0, 0, { BEN(bytes, BIT_ULL(63)) }, -EINVAL },
	{ "elapsed_ns", 0, 0, { BEN(elapsed_ns, 1) }, -EINVAL },
	{ "lat_min_ns", 0, 0, { BEN(lat_min_ns, 1) }, -EINVAL },
	{ "lat_avg_ns", 0, 0, { BEN(lat_avg_ns, 1) }, -EINVAL },
	{ "lat_p50_ns", 0, 0, { BEN(lat_p50_ns, 1) }, -EINVAL },
	{ "lat_p99_ns", 0, 0, { BEN(lat_p99_ns, 1) }, -EINVAL },
	{ "lat_max_ns U64_MAX", 0, 0, { BEN(lat_max_ns, U64_MAX) }, -EINVAL },
	{ "reserved[0]", 0, 0, { BEN(reserved[0], 1) }, -EINVAL },
	{ "reserved[1]", 0, 0, { BEN(reserved[1], 1) }, -EINVAL },
	{ "reserved[2]", 0, 0, { BEN(reserved[2], 1) }, -EINVAL },
	{ "reserved[3]", 0, 0, { BEN(reserved[3], 1) }, -EINVAL },
	{ "reserved[4]", 0, 0, { BEN(reserved[4], 1) }, -EINVAL },
	{ "reserved[5]", 0, 0, { BEN(reserved[5], 1) }, -EINVAL },
	{ "reserved[6]", 0, 0, { BEN(reserved[6], 1) }, -EINVAL },
	{ "reserved[7]", 0, 0, { BEN(reserved[7], U32_MAX) }, -EINVAL },
	/* the order of the checks decides the errno */
	{ "unknown mode before msg_size", 0, 0, { BEN(mode, M_READ + 1),
						  BEN(msg_size, U32_MAX) },
	  -EINVAL },
	{ "reserved before msg_size", 0, 0, { BEN(reserved[7], 1),
					      BEN(msg_size, U32_MAX) },
	  -EINVAL },
	{ "msg_size before batch", 0, 0, { BEN(msg_size, BENCH_MAXMSG + 1),
					   BEN(batch, BENCH_DEPTH + 1) }, -EMSGSIZE },
};

static void bench_case_desc(const struct bench_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(bench, bench_cases, bench_case_desc);

static void ioctl_test_bench(struct kunit *test)
{
	const struct bench_case *c = test->param_value;
	struct rdmachan_bench b;

	bench_init(&b);
	ioc_apply(test, &b, sizeof(b), c->set);
	KUNIT_EXPECT_EQ(test, rdmachan_check_bench(&b, c->depth ?: BENCH_DEPTH,
						   c->max ?: BENCH_MAXMSG), c->want);
}

/* ---- flags, bit by bit -------------------------------------------------- */

static const unsigned int flag_bits[32] = {
	0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
	16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31,
};

static void flag_bit_desc(const unsigned int *bit, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "bit %u (0x%08lx)", *bit,
		 BIT(*bit));
}

KUNIT_ARRAY_PARAM(flag_bit, flag_bits, flag_bit_desc);

/* The u32 flags at @off of a valid @k get one bit: only @known pass. */
static void flag_bit_run(struct kunit *test, const struct ioc_kind *k,
			 size_t off, u32 known)
{
	const unsigned int *bit = test->param_value;
	struct ioc_set set[IOC_SETS] = {
		{ off, sizeof(u32), BIT(*bit), false },
	};

	KUNIT_EXPECT_EQ(test, ioc_run(test, k, set),
			BIT(*bit) & known ? 0 : -EINVAL);
}

static void ioctl_test_connect_flags(struct kunit *test)
{
	flag_bit_run(test, &connect_kind,
		     offsetof(struct rdmachan_connect, flags), ABI_FD_FLAGS);
}

static void ioctl_test_listen_flags(struct kunit *test)
{
	flag_bit_run(test, &listen_kind,
		     offsetof(struct rdmachan_listen, flags), ABI_FD_FLAGS);
}

static void ioctl_test_accept_flags(struct kunit *test)
{
	flag_bit_run(test, &accept_kind,
		     offsetof(struct rdmachan_accept, flags), ABI_FD_FLAGS);
}

static void ioctl_test_mmsg_flags(struct kunit *test)
{
	flag_bit_run(test, &mmsg_kind, offsetof(struct rdmachan_mmsg, flags),
		     RDMACHAN_MSG_DONTWAIT);
}

static void ioctl_test_user_msg_flags(struct kunit *test)
{
	flag_bit_run(test, &user_msg_kind,
		     offsetof(struct rdmachan_user_msg, flags),
		     RDMACHAN_MSG_IMM | RDMACHAN_MSG_SOLICITED);
}

/* ---- reserved and output fields, byte by byte --------------------------- */

/**
 * struct zero_case - bytes of a struct that must all be zero
 * @name: what the bytes are
 * @kind: the struct and its check
 * @start: the first byte
 * @end: one past the last byte
 */
struct zero_case {
	const char *name;
	const struct ioc_kind *kind;
	size_t start;
	size_t end;
};

#define CON_T	struct rdmachan_connect
#define LSN_T	struct rdmachan_listen
#define BEN_T	struct rdmachan_bench

static const struct zero_case zero_cases[] = {
	{ "VERSION after size", &version_kind,
	  offsetof(struct rdmachan_version, abi_version),
	  sizeof(struct rdmachan_version) },
	{ "DEV_LIST count and reserved", &dev_list_kind,
	  offsetof(struct rdmachan_dev_list, count),
	  sizeof(struct rdmachan_dev_list) },
	{ "DEV_QUERY output and reserved", &dev_query_kind,
	  offsetof(struct rdmachan_dev_query, port_count),
	  sizeof(struct rdmachan_dev_query) },
	{ "CONNECT opts.reserved", &connect_kind,
	  offsetof(CON_T, opts.reserved), offsetofend(CON_T, opts.reserved) },
	{ "CONNECT src, AF_UNSPEC", &connect_kind,
	  offsetof(CON_T, src), offsetofend(CON_T, src) },
	{ "CONNECT fd and reserved", &connect_kind,
	  offsetof(CON_T, fd), sizeof(CON_T) },
	{ "LISTEN opts.reserved", &listen_kind,
	  offsetof(LSN_T, opts.reserved), offsetofend(LSN_T, opts.reserved) },
	{ "LISTEN fd and reserved", &listen_kind,
	  offsetof(LSN_T, fd), sizeof(LSN_T) },
	{ "ACCEPT fd, peer and reserved", &accept_kind,
	  offsetof(struct rdmachan_accept, fd),
	  sizeof(struct rdmachan_accept) },
	{ "SEND done and reserved", &send_kind,
	  offsetof(struct rdmachan_mmsg, done), sizeof(struct rdmachan_mmsg) },
	{ "SENDMMSG done and reserved", &mmsg_kind,
	  offsetof(struct rdmachan_mmsg, done), sizeof(struct rdmachan_mmsg) },
	{ "SENDMMSG message reserved", &user_msg_kind,
	  offsetof(struct rdmachan_user_msg, reserved),
	  sizeof(struct rdmachan_user_msg) },
	{ "BENCH reserved0", &bench_kind,
	  offsetof(BEN_T, reserved0), offsetofend(BEN_T, reserved0) },
	{ "BENCH output and reserved", &bench_kind,
	  offsetof(BEN_T, msgs), sizeof(BEN_T) },
};

static void zero_case_desc(const struct zero_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(zero, zero_cases, zero_case_desc);

static void ioctl_test_zero_bytes(struct kunit *test)
{
	static const u8 vals[] = { 0x01, 0x80, 0xff };
	const struct zero_case *c = test->param_value;
	const struct ioc_kind *k = c->kind;
	unsigned int j;
	size_t i;
	u8 *arg;

	KUNIT_ASSERT_LT(test, c->start, c->end);
	KUNIT_ASSERT_LE(test, c->end, k->size);
	arg = kunit_kzalloc(test, k->size, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, arg);
	k->init(arg);
	KUNIT_ASSERT_EQ(test, k->check(arg), 0);

	for (i = c->start; i < c->end; i++) {
		for (j = 0; j < ARRAY_SIZE(vals); j++) {
			arg[i] = vals[j];
			KUNIT_EXPECT_EQ_MSG(test, k->check(arg), -EINVAL,
					    "byte %zu = 0x%02x", i, vals[j]);
		}
		arg[i] = 0;
	}
	KUNIT_EXPECT_EQ(test, k->check(arg), 0);
}

/*
 * The module alias an ioctl of rdmachan_blk's or rdmachan_net's range asks
 * modprobe for (ioctl_ctl.c) is, for every number of the range, the one
 * the module declares (RDMACHAN_CTL_ALIAS() of its first number); no number
 * below the extensions' asks for any.
 */
static void ioctl_test_ctl_alias(struct kunit *test)
{
	static const struct {
		unsigned int first, last;
		const char *declared;
	} r[] = {
		{ RDMACHAN_IOC_BLK_FIRST, RDMACHAN_IOC_BLK_LAST,
		  "rdmachan-ioc-" __stringify(RDMACHAN_IOC_BLK_FIRST) },
		{ RDMACHAN_IOC_NET_FIRST, RDMACHAN_IOC_NET_LAST,
		  "rdmachan-ioc-" __stringify(RDMACHAN_IOC_NET_FIRST) },
	};
	char alias[32];
	unsigned int i, nr;

	KUNIT_EXPECT_STREQ(test, r[0].declared, "rdmachan-ioc-0x80");
	KUNIT_EXPECT_STREQ(test, r[1].declared, "rdmachan-ioc-0x90");
	for (i = 0; i < ARRAY_SIZE(r); i++) {
		KUNIT_EXPECT_GE(test, r[i].first, RDMACHAN_CTL_NR_EXT);
		KUNIT_EXPECT_EQ(test, r[i].last - r[i].first, 15U);
		for (nr = r[i].first; nr <= r[i].last; nr++) {
			snprintf(alias, sizeof(alias), RDMACHAN_CTL_ALIAS_FMT,
				 RDMACHAN_CTL_ALIAS_BASE(nr));
			KUNIT_EXPECT_STREQ_MSG(test, alias, r[i].declared,
					       "ioctl 0x%02x", nr);
		}
	}
	/* the sixteens meet: 0x8f and 0x90 ask for different modules */
	KUNIT_EXPECT_EQ(test, RDMACHAN_CTL_ALIAS_BASE(0x8fU), 0x80U);
	KUNIT_EXPECT_EQ(test, RDMACHAN_CTL_ALIAS_BASE(0x90U), 0x90U);
	KUNIT_EXPECT_EQ(test, RDMACHAN_CTL_ALIAS_BASE(0xffU), 0xf0U);
}

static struct kunit_case ioctl_cases[] = {
	KUNIT_CASE_PARAM(ioctl_test_version, version_gen_params),
	KUNIT_CASE_PARAM(ioctl_test_dev_list, dev_list_gen_params),
	KUNIT_CASE_PARAM(ioctl_test_dev_query, dev_query_gen_params),
	KUNIT_CASE_PARAM(ioctl_test_addr, addr_gen_params),
	KUNIT_CASE_PARAM(ioctl_test_connect, connect_gen_params),
	KUNIT_CASE_PARAM(ioctl_test_connect_flags, flag_bit_gen_params),
	KUNIT_CASE_PARAM(ioctl_test_listen, listen_gen_params),
	KUNIT_CASE_PARAM(ioctl_test_listen_flags, flag_bit_gen_params),
	KUNIT_CASE_PARAM(ioctl_test_accept, accept_gen_params),
	KUNIT_CASE_PARAM(ioctl_test_accept_flags, flag_bit_gen_params),
	KUNIT_CASE_PARAM(ioctl_test_mmsg, mmsg_gen_params),
	KUNIT_CASE_PARAM(ioctl_test_mmsg_flags, flag_bit_gen_params),
	KUNIT_CASE_PARAM(ioctl_test_user_msg, user_msg_gen_params),
	KUNIT_CASE_PARAM(ioctl_test_user_msg_flags, flag_bit_gen_params),
	KUNIT_CASE_PARAM(ioctl_test_chan_info, chan_info_gen_params),
	KUNIT_CASE_PARAM(ioctl_test_bench, bench_gen_params),
	KUNIT_CASE_PARAM(ioctl_test_zero_bytes, zero_gen_params),
	KUNIT_CASE(ioctl_test_ctl_alias),
	{}
};

static struct kunit_suite ioctl_suite = {
	.name = "rdmachan_ioctl",
	.test_cases = ioctl_cases,
};

kunit_test_suite(ioctl_suite);
