// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite "rdmachan_ioctl_chan" for module/chan/ioctl_check.c (harness:
 * ioctl_kunit.h): the checks of the ioctls of a channel fd, SEND, RECV,
 * SENDMMSG and RECVMMSG and their messages, CHAN_INFO and BENCH.  Their
 * rejections are logged, as ioctl_kunit.c says.
 */
#include <linux/bits.h>
#include <linux/limits.h>
#include <linux/string.h>

#include "ioctl_kunit.h"

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

const struct ioc_kind ioc_mmsg_kind = {
	sizeof(struct rdmachan_mmsg), mmsg_init, mmsg_check,
};

static int send_check(const void *arg)
{
	return rdmachan_check_mmsg("SEND", arg, true);
}

const struct ioc_kind ioc_send_kind = {
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

	KUNIT_EXPECT_EQ(test, ioc_run(test, c->single ? &ioc_send_kind : &ioc_mmsg_kind,
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

const struct ioc_kind ioc_user_msg_kind = {
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

	KUNIT_EXPECT_EQ(test, ioc_run(test, &ioc_user_msg_kind, c->set), c->want);
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

const struct ioc_kind ioc_bench_kind = {
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

static void ioctl_test_mmsg_flags(struct kunit *test)
{
	ioc_flag_bit_run(test, &ioc_mmsg_kind,
			 offsetof(struct rdmachan_mmsg, flags),
			 RDMACHAN_MSG_DONTWAIT);
}

static void ioctl_test_user_msg_flags(struct kunit *test)
{
	ioc_flag_bit_run(test, &ioc_user_msg_kind,
			 offsetof(struct rdmachan_user_msg, flags),
			 RDMACHAN_MSG_IMM | RDMACHAN_MSG_SOLICITED);
}

static struct kunit_case ioctl_chan_cases[] = {
	KUNIT_CASE_PARAM(ioctl_test_mmsg, mmsg_gen_params),
	KUNIT_CASE_PARAM(ioctl_test_mmsg_flags, ioc_flag_bit_gen_params),
	KUNIT_CASE_PARAM(ioctl_test_user_msg, user_msg_gen_params),
	KUNIT_CASE_PARAM(ioctl_test_user_msg_flags, ioc_flag_bit_gen_params),
	KUNIT_CASE_PARAM(ioctl_test_chan_info, chan_info_gen_params),
	KUNIT_CASE_PARAM(ioctl_test_bench, bench_gen_params),
	{}
};

static struct kunit_suite ioctl_chan_suite = {
	.name = "rdmachan_ioctl_chan",
	.test_cases = ioctl_chan_cases,
};

kunit_test_suite(ioctl_chan_suite);
