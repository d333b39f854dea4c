// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite "rdmachan_ioctl" for module/chan/ioctl_check.c: the checks
 * of the ioctl argument structs of /dev/rdmachan, of a listener fd and of
 * a channel fd, once they are copied in.  This file has the harness the
 * rdmachan_ioctl* suites share (ioctl_kunit.h), the device ioctls
 * (VERSION, DEV_LIST, DEV_QUERY), the reserved and output fields of
 * every struct byte by byte, and the module aliases of the extensions'
 * ioctl ranges; ioctl_conn_kunit.c has the connection ioctls,
 * ioctl_chan_kunit.c those of a channel fd.
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
#include <linux/bits.h>
#include <linux/limits.h>
#include <linux/string.h>
#include <linux/stringify.h>

#include <linux/rdmachan_blk.h>
#include <linux/rdmachan_net.h>

#include "ioctl_kunit.h"

/* A case's parameter description: its name */
void ioc_case_desc(const struct ioc_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

/* Apply the changes @set to the @size bytes at @arg. */
void ioc_apply(struct kunit *test, void *arg, size_t size,
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

/* Run @k's check on a valid struct with the changes @set. */
int ioc_run(struct kunit *test, const struct ioc_kind *k,
	    const struct ioc_set *set)
{
	void *arg = kunit_kzalloc(test, k->size, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, arg);
	k->init(arg);
	ioc_apply(test, arg, k->size, set);
	return k->check(arg);
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

/* The parameters of a test of flags bit by bit: bits 0 to 31 */
const void *ioc_flag_bit_gen_params(const void *prev, char *desc)
{
	return flag_bit_gen_params(prev, desc);
}

/* The u32 flags at @off of a valid @k get one bit: only @known pass. */
void ioc_flag_bit_run(struct kunit *test, const struct ioc_kind *k,
		      size_t off, u32 known)
{
	const unsigned int *bit = test->param_value;
	struct ioc_set set[IOC_SETS] = {
		{ off, sizeof(u32), BIT(*bit), false },
	};

	KUNIT_EXPECT_EQ(test, ioc_run(test, k, set),
			BIT(*bit) & known ? 0 : -EINVAL);
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

const struct ioc_kind ioc_version_kind = {
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

	KUNIT_EXPECT_EQ(test, ioc_run(test, &ioc_version_kind, c->set), c->want);
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

const struct ioc_kind ioc_dev_list_kind = {
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

	KUNIT_EXPECT_EQ(test, ioc_run(test, &ioc_dev_list_kind, c->set), c->want);
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

const struct ioc_kind ioc_dev_query_kind = {
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

	KUNIT_EXPECT_EQ(test, ioc_run(test, &ioc_dev_query_kind, c->set), c->want);
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
	{ "VERSION after size", &ioc_version_kind,
	  offsetof(struct rdmachan_version, abi_version),
	  sizeof(struct rdmachan_version) },
	{ "DEV_LIST count and reserved", &ioc_dev_list_kind,
	  offsetof(struct rdmachan_dev_list, count),
	  sizeof(struct rdmachan_dev_list) },
	{ "DEV_QUERY output and reserved", &ioc_dev_query_kind,
	  offsetof(struct rdmachan_dev_query, port_count),
	  sizeof(struct rdmachan_dev_query) },
	{ "CONNECT opts.reserved", &ioc_connect_kind,
	  offsetof(CON_T, opts.reserved), offsetofend(CON_T, opts.reserved) },
	{ "CONNECT src, AF_UNSPEC", &ioc_connect_kind,
	  offsetof(CON_T, src), offsetofend(CON_T, src) },
	{ "CONNECT fd and reserved", &ioc_connect_kind,
	  offsetof(CON_T, fd), sizeof(CON_T) },
	{ "LISTEN opts.reserved", &ioc_listen_kind,
	  offsetof(LSN_T, opts.reserved), offsetofend(LSN_T, opts.reserved) },
	{ "LISTEN fd and reserved", &ioc_listen_kind,
	  offsetof(LSN_T, fd), sizeof(LSN_T) },
	{ "ACCEPT fd, peer and reserved", &ioc_accept_kind,
	  offsetof(struct rdmachan_accept, fd),
	  sizeof(struct rdmachan_accept) },
	{ "SEND done and reserved", &ioc_send_kind,
	  offsetof(struct rdmachan_mmsg, done), sizeof(struct rdmachan_mmsg) },
	{ "SENDMMSG done and reserved", &ioc_mmsg_kind,
	  offsetof(struct rdmachan_mmsg, done), sizeof(struct rdmachan_mmsg) },
	{ "SENDMMSG message reserved", &ioc_user_msg_kind,
	  offsetof(struct rdmachan_user_msg, reserved),
	  sizeof(struct rdmachan_user_msg) },
	{ "BENCH reserved0", &ioc_bench_kind,
	  offsetof(BEN_T, reserved0), offsetofend(BEN_T, reserved0) },
	{ "BENCH output and reserved", &ioc_bench_kind,
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
	KUNIT_CASE_PARAM(ioctl_test_zero_bytes, zero_gen_params),
	KUNIT_CASE(ioctl_test_ctl_alias),
	{}
};

static struct kunit_suite ioctl_suite = {
	.name = "rdmachan_ioctl",
	.test_cases = ioctl_cases,
};

kunit_test_suite(ioctl_suite);
