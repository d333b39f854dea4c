// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite for the client's block of module/blk/blk_proto.c: the OPEN
 * and IO encodings byte by byte (big-endian, blk_proto.h), the OPEN_RSP
 * check with every refusal and every malformed field, the
 * same-answer comparison of a mapping's queues, the bounds of a batch of
 * replies (blk_proto.h), which refusals of a
 * channel mean a lost link, how many queues (and polled queues) a
 * mapping gets, and when a queue's post runs its provider work at once.
 *
 * blk_proto_kunit.c compiles blk_proto.c into this module; this file
 * only calls the client's functions (blk_proto_clt.h).
 */
#include <kunit/test.h>
#include <linux/string.h>

#include "../../module/compat.h"	/* put_unaligned_be*() */
#include "../../module/blk/blk_proto_clt.h"

static void clt_test_encode_open(struct kunit *test)
{
	u8 session[RCBLK_SESSION_LEN];
	struct rcblk_wire_open o;
	const u8 *b = (const u8 *)&o;
	u8 want[sizeof(o)] = {};
	int i;

	for (i = 0; i < RCBLK_SESSION_LEN; i++)
		session[i] = 0xa0 + i;
	memset(&o, 0xff, sizeof(o));
	rcblk_clt_encode_open(&o, RCBLK_OPEN_RO | RCBLK_OPEN_FENCE,
			      RCBLK_F_KNOWN, 131072, 3, 4, 0x01020304,
			      session, "disk0");
	put_unaligned_be32(RCBLK_WIRE_MAGIC, want);
	want[4] = RCBLK_MSG_OPEN;
	want[5] = RCBLK_WIRE_VERSION;
	put_unaligned_be16(RCBLK_OPEN_RO | RCBLK_OPEN_FENCE, want + 6);
	put_unaligned_be32(RCBLK_F_KNOWN, want + 8);
	put_unaligned_be32(131072, want + 12);
	put_unaligned_be16(3, want + 16);
	put_unaligned_be16(4, want + 18);
	put_unaligned_be32(0x01020304, want + 20);	/* gen */
	memcpy(want + 24, session, RCBLK_SESSION_LEN);
	memcpy(want + 40, "disk0", 5);
	KUNIT_EXPECT_EQ(test, memcmp(b, want, sizeof(want)), 0);
}

static void clt_test_encode_open_long_name(struct kunit *test)
{
	char name[RCBLK_NAME_MAX + 8];
	u8 session[RCBLK_SESSION_LEN] = {};
	struct rcblk_wire_open o;

	memset(name, 'x', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	rcblk_clt_encode_open(&o, 0, 0, 4096, 0, 1, 0, session, name);
	KUNIT_EXPECT_EQ(test, o.name[RCBLK_NAME_MAX - 1], '\0');
	KUNIT_EXPECT_EQ(test, strlen(o.name), (size_t)RCBLK_NAME_MAX - 1);
}

static void clt_test_encode_io(struct kunit *test)
{
	struct rcblk_wire_io io;
	u8 want[sizeof(io)] = {};

	memset(&io, 0xff, sizeof(io));
	rcblk_clt_encode_io(&io, RCBLK_OP_WRITE, RCBLK_F_FUA | RCBLK_F_SYNC,
			    0x123456789aULL, 65536, 0x1234, RCBLK_DATA_REMOTE,
			    0xdeadbeef, 0x1122334455667788ULL);
	want[0] = RCBLK_MSG_IO;
	want[1] = RCBLK_OP_WRITE;
	put_unaligned_be16(RCBLK_F_FUA | RCBLK_F_SYNC, want + 2);
	put_unaligned_be16(0x1234, want + 4);
	want[6] = RCBLK_DATA_REMOTE;
	put_unaligned_be64(0x123456789aULL, want + 8);
	put_unaligned_be32(65536, want + 16);
	put_unaligned_be32(0xdeadbeef, want + 20);
	put_unaligned_be64(0x1122334455667788ULL, want + 24);
	KUNIT_EXPECT_EQ(test, memcmp(&io, want, sizeof(want)), 0);

	/* rkey and addr are zero unless the data is remote */
	rcblk_clt_encode_io(&io, RCBLK_OP_WRITE, 0, 8, 4096, 7,
			    RCBLK_DATA_INLINE, 0xdeadbeef, 0x1000);
	KUNIT_EXPECT_EQ(test, io.rkey, 0U);
	KUNIT_EXPECT_EQ(test, io.addr, 0ULL);
	KUNIT_EXPECT_EQ(test, io.data, RCBLK_DATA_INLINE);
}

/* A good OPEN_RSP image: 2 GiB of 4 KiB blocks */
static void rsp_good(u8 *r)
{
	int i;

	memset(r, 0, sizeof(struct rcblk_wire_open_rsp));
	put_unaligned_be32(RCBLK_WIRE_MAGIC, r);
	r[4] = RCBLK_MSG_OPEN_RSP;
	r[5] = RCBLK_WIRE_VERSION;
	put_unaligned_be16(RCBLK_OPEN_OK, r + 6);
	put_unaligned_be32(RCBLK_F_FUA | RCBLK_F_PREFLUSH, r + 8);
	put_unaligned_be32(131072, r + 12);
	put_unaligned_be64(4194304, r + 16);
	put_unaligned_be32(4096, r + 24);
	put_unaligned_be32(4096, r + 28);
	put_unaligned_be32(8192, r + 32);
	put_unaligned_be32(4096, r + 36);
	put_unaligned_be32(16384, r + 40);
	put_unaligned_be32(4096, r + 44);
	put_unaligned_be16(RCBLK_EXP_WRITE_CACHE | RCBLK_EXP_FUA, r + 48);
	for (i = 0; i < RCBLK_ID_LEN; i++)
		r[56 + i] = i + 1;
}

static void clt_test_rsp_ok(struct kunit *test)
{
	u8 r[sizeof(struct rcblk_wire_open_rsp)];
	struct rcblk_geo geo, geo2;
	const char *why;

	rsp_good(r);
	KUNIT_ASSERT_EQ(test, rcblk_clt_check_open_rsp(r, sizeof(r),
			RCBLK_F_KNOWN, 1 << 20, &geo, &why), 0);
	KUNIT_EXPECT_EQ(test, geo.features, RCBLK_F_FUA | RCBLK_F_PREFLUSH);
	KUNIT_EXPECT_EQ(test, geo.max_io, 131072U);
	KUNIT_EXPECT_EQ(test, geo.nr_sectors, 4194304ULL);
	KUNIT_EXPECT_EQ(test, geo.lbs, 4096U);
	KUNIT_EXPECT_EQ(test, geo.pbs, 4096U);
	KUNIT_EXPECT_EQ(test, geo.max_discard_sectors, 8192U);
	KUNIT_EXPECT_EQ(test, geo.discard_granularity, 4096U);
	KUNIT_EXPECT_EQ(test, geo.max_write_zeroes_sectors, 16384U);
	KUNIT_EXPECT_EQ(test, geo.inline_max, 4096U);
	KUNIT_EXPECT_EQ(test, geo.export_flags,
			RCBLK_EXP_WRITE_CACHE | RCBLK_EXP_FUA);
	KUNIT_EXPECT_EQ(test, geo.export_id[0], 1);
	KUNIT_EXPECT_EQ(test, geo.export_id[RCBLK_ID_LEN - 1], RCBLK_ID_LEN);

	/* the same answer twice is the same; another export id is not */
	KUNIT_ASSERT_EQ(test, rcblk_clt_check_open_rsp(r, sizeof(r),
			RCBLK_F_KNOWN, 1 << 20, &geo2, &why), 0);
	KUNIT_EXPECT_TRUE(test, rcblk_clt_geo_same(&geo, &geo2));
	r[60] ^= 1;
	KUNIT_ASSERT_EQ(test, rcblk_clt_check_open_rsp(r, sizeof(r),
			RCBLK_F_KNOWN, 1 << 20, &geo2, &why), 0);
	KUNIT_EXPECT_FALSE(test, rcblk_clt_geo_same(&geo, &geo2));

	/* max_io is rounded down to the logical block */
	rsp_good(r);
	put_unaligned_be32(131072 + 100, r + 12);
	KUNIT_ASSERT_EQ(test, rcblk_clt_check_open_rsp(r, sizeof(r),
			RCBLK_F_KNOWN, 1 << 20, &geo, &why), 0);
	KUNIT_EXPECT_EQ(test, geo.max_io, 131072U);

	/* unknown export flags and reserved fields are ignored */
	rsp_good(r);
	put_unaligned_be16(0xfff0, r + 48);
	put_unaligned_be16(0xffff, r + 50);
	put_unaligned_be32(0xffffffff, r + 52);
	KUNIT_EXPECT_EQ(test, rcblk_clt_check_open_rsp(r, sizeof(r),
			RCBLK_F_KNOWN, 1 << 20, &geo, &why), 0);
}

static void clt_test_rsp_refused(struct kunit *test)
{
	static const struct {
		u16 status;
		int err;
	} cases[] = {
		{ RCBLK_OPEN_NOENT, -ENOENT },
		{ RCBLK_OPEN_ACCES, -EACCES },
		{ RCBLK_OPEN_ROFS, -EROFS },
		{ RCBLK_OPEN_PROTO, -EPROTO },
		{ RCBLK_OPEN_BUSY, -EBUSY },
		{ RCBLK_OPEN_NOMEM, -ENOMEM },
		{ RCBLK_OPEN_FENCED, -EAGAIN },
		{ RCBLK_OPEN_LOOP, -ELOOP },
		{ RCBLK_OPEN_LIMIT, -EUSERS },
		{ 10, -EPROTO },
		{ 0xffff, -EPROTO },
	};
	u8 r[sizeof(struct rcblk_wire_open_rsp)];
	struct rcblk_geo geo;
	const char *why;
	int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		rsp_good(r);
		put_unaligned_be16(cases[i].status, r + 6);
		KUNIT_EXPECT_EQ_MSG(test, rcblk_clt_check_open_rsp(r,
				    sizeof(r), RCBLK_F_KNOWN, 1 << 20, &geo,
				    &why), cases[i].err, "status %u",
				    cases[i].status);
	}
}

static void clt_test_rsp_bad(struct kunit *test)
{
	u8 r[sizeof(struct rcblk_wire_open_rsp)];
	struct rcblk_geo geo;
	const char *why;

#define BAD(what, stmt, offered, max)					\
	do {								\
		rsp_good(r);						\
		stmt;							\
		KUNIT_EXPECT_EQ_MSG(test, rcblk_clt_check_open_rsp(r,	\
				    sizeof(r), offered, max, &geo, &why),\
				    -EPROTO, what);			\
	} while (0)

	BAD("magic", r[0] ^= 1, RCBLK_F_KNOWN, 1 << 20);
	BAD("type", r[4] = RCBLK_MSG_OPEN, RCBLK_F_KNOWN, 1 << 20);
	BAD("version", r[5] = 2, RCBLK_F_KNOWN, 1 << 20);
	BAD("features not offered", (void)0, RCBLK_F_FUA, 1 << 20);
	BAD("features unknown", put_unaligned_be32(BIT(9), r + 8), RCBLK_F_KNOWN, 1 << 20);
	BAD("max_io over the offer", (void)0, RCBLK_F_KNOWN, 65536);
	BAD("max_io zero", put_unaligned_be32(0, r + 12), RCBLK_F_KNOWN, 1 << 20);
	BAD("max_io under a block", put_unaligned_be32(2048, r + 12), RCBLK_F_KNOWN,
	    1 << 20);
	BAD("no sectors", put_unaligned_be64(0, r + 16), RCBLK_F_KNOWN, 1 << 20);
	BAD("size not whole blocks", put_unaligned_be64(4194305, r + 16), RCBLK_F_KNOWN,
	    1 << 20);
	BAD("size huge", put_unaligned_be64(~0ULL & ~7ULL, r + 16), RCBLK_F_KNOWN,
	    1 << 20);
	BAD("lbs 256", put_unaligned_be32(256, r + 24), RCBLK_F_KNOWN, 1 << 20);
	BAD("lbs 3000", put_unaligned_be32(3000, r + 24), RCBLK_F_KNOWN, 1 << 20);
	BAD("lbs 8192", (put_unaligned_be32(8192, r + 24), put_unaligned_be32(8192, r + 28)),
	    RCBLK_F_KNOWN, 1 << 20);
	BAD("pbs under lbs", put_unaligned_be32(512, r + 28), RCBLK_F_KNOWN, 1 << 20);
	BAD("pbs not a power of 2", put_unaligned_be32(12288, r + 28), RCBLK_F_KNOWN,
	    1 << 20);
	BAD("discard granularity 0", put_unaligned_be32(0, r + 36), RCBLK_F_KNOWN,
	    1 << 20);
	BAD("discard granularity not blocks", put_unaligned_be32(6144, r + 36),
	    RCBLK_F_KNOWN, 1 << 20);
#undef BAD

	/* short */
	rsp_good(r);
	KUNIT_EXPECT_EQ(test, rcblk_clt_check_open_rsp(r, sizeof(r) - 1,
			RCBLK_F_KNOWN, 1 << 20, &geo, &why), -EPROTO);
	KUNIT_EXPECT_EQ(test, rcblk_clt_check_open_rsp(r, 0, RCBLK_F_KNOWN,
			1 << 20, &geo, &why), -EPROTO);
	/* no discard: the granularity does not matter */
	put_unaligned_be32(0, r + 32);
	put_unaligned_be32(0, r + 36);
	KUNIT_EXPECT_EQ(test, rcblk_clt_check_open_rsp(r, sizeof(r),
			RCBLK_F_KNOWN, 1 << 20, &geo, &why), 0);
}

/*
 * A failing channel says so in its refusal before its state does: a
 * registration refused with -ECONNRESET while the state still read
 * CONNECTED once ended a WRITE with an I/O error (6.12, lossy wire)
 */
/*
 * Replies in one message (RCBLK_F_REPLY_BATCH): granted only where
 * offered; a payload of whole replies, at most a batch's less the
 * immediate's; a server's batch within the client's receive buffers
 */
static void clt_test_reply_batch(struct kunit *test)
{
	u8 r[sizeof(struct rcblk_wire_open_rsp)];
	struct rcblk_geo geo, geo2;
	const char *why;

	/* a queue's answer may grant it where another's did not */
	rsp_good(r);
	KUNIT_ASSERT_EQ(test, rcblk_clt_check_open_rsp(r, sizeof(r),
			RCBLK_F_KNOWN | RCBLK_F_REPLY_BATCH, 1 << 20, &geo2,
			&why), 0);
	put_unaligned_be32(RCBLK_F_FUA | RCBLK_F_PREFLUSH | RCBLK_F_REPLY_BATCH, r + 8);
	KUNIT_ASSERT_EQ(test, rcblk_clt_check_open_rsp(r, sizeof(r),
			RCBLK_F_KNOWN | RCBLK_F_REPLY_BATCH, 1 << 20, &geo,
			&why), 0);
	KUNIT_EXPECT_TRUE(test, rcblk_clt_geo_same(&geo, &geo2));
	/* a request flag is the disk's: not so */
	put_unaligned_be32(RCBLK_F_FUA | RCBLK_F_REPLY_BATCH, r + 8);
	KUNIT_ASSERT_EQ(test, rcblk_clt_check_open_rsp(r, sizeof(r),
			RCBLK_F_KNOWN | RCBLK_F_REPLY_BATCH, 1 << 20, &geo,
			&why), 0);
	KUNIT_EXPECT_FALSE(test, rcblk_clt_geo_same(&geo, &geo2));

	rsp_good(r);
	put_unaligned_be32(RCBLK_F_FUA | RCBLK_F_REPLY_BATCH, r + 8);
	KUNIT_EXPECT_EQ(test, rcblk_clt_check_open_rsp(r, sizeof(r),
			RCBLK_F_KNOWN | RCBLK_F_REPLY_BATCH, 1 << 20, &geo,
			&why), 0);
	KUNIT_EXPECT_EQ(test, geo.features, RCBLK_F_FUA | RCBLK_F_REPLY_BATCH);
	KUNIT_EXPECT_EQ(test, rcblk_clt_check_open_rsp(r, sizeof(r),
			RCBLK_F_KNOWN, 1 << 20, &geo, &why), -EPROTO);
	KUNIT_EXPECT_STREQ(test, why, "features not offered");

	KUNIT_EXPECT_EQ(test, rcblk_reply_batch_more(0), 0);
	KUNIT_EXPECT_EQ(test, rcblk_reply_batch_more(4), 1);
	KUNIT_EXPECT_EQ(test, rcblk_reply_batch_more(4 * 31), 31);
	KUNIT_EXPECT_EQ(test, rcblk_reply_batch_more(4 * 32), -EPROTO);
	KUNIT_EXPECT_EQ(test, rcblk_reply_batch_more(6), -EPROTO);
	KUNIT_EXPECT_EQ(test, rcblk_reply_batch_more(1), -EPROTO);
	KUNIT_EXPECT_EQ(test, rcblk_reply_batch_more(U32_MAX), -EPROTO);
	KUNIT_EXPECT_EQ(test, rcblk_reply_batch_more(U32_MAX - 3), -EPROTO);

	KUNIT_EXPECT_EQ(test, rcblk_reply_batch_cap(4096 + 32), 32U);
	KUNIT_EXPECT_EQ(test, rcblk_reply_batch_cap(124), 32U);
	KUNIT_EXPECT_EQ(test, rcblk_reply_batch_cap(123), 31U);
	KUNIT_EXPECT_EQ(test, rcblk_reply_batch_cap(104), 27U);
	KUNIT_EXPECT_EQ(test, rcblk_reply_batch_cap(3), 1U);
	KUNIT_EXPECT_EQ(test, rcblk_reply_batch_cap(0), 1U);
	KUNIT_EXPECT_EQ(test, rcblk_reply_batch_cap(U32_MAX), 32U);
}

static void clt_test_refusal_lost(struct kunit *test)
{
	static const int link_errs[] = { -ECONNRESET, -ENOTCONN };
	static const enum rdmachan_state down[] = {
		RDMACHAN_CONNECTING, RDMACHAN_DISCONNECTED, RDMACHAN_FAILED,
	};
	static const int own_errs[] = { -EINVAL, -E2BIG, -ENOMEM, -EIO };
	int i, j;

	for (i = 0; i < ARRAY_SIZE(link_errs); i++)
		KUNIT_EXPECT_TRUE(test, rcblk_clt_refusal_lost(link_errs[i],
							       RDMACHAN_CONNECTED));
	for (i = 0; i < ARRAY_SIZE(own_errs); i++) {
		KUNIT_EXPECT_FALSE(test, rcblk_clt_refusal_lost(own_errs[i],
								RDMACHAN_CONNECTED));
		for (j = 0; j < ARRAY_SIZE(down); j++)
			KUNIT_EXPECT_TRUE(test,
					  rcblk_clt_refusal_lost(own_errs[i],
								 down[j]));
	}
}

/* A mapping's queues: asked for, capped by the CPU ids and the maximum */
static void clt_test_queue_counts(struct kunit *test)
{
	static const struct {
		u32 want, want_poll, cpus, cpu_ids, max;
		u32 all, poll;
	} t[] = {
		{ 0, 0, 2, 2, 64, 2, 0 },	/* one per CPU, none polled */
		{ 3, 0, 2, 8, 64, 3, 0 },	/* as asked */
		{ 3, 0, 2, 2, 64, 2, 0 },	/* at most one per CPU id */
		{ 0, 1, 2, 2, 64, 3, 1 },	/* the polled ones beyond */
		{ 1, 2, 4, 4, 64, 3, 2 },
		{ 1, 9, 4, 4, 64, 5, 4 },	/* polled: one per CPU id too */
		{ 64, 0, 99, 99, 64, 64, 0 },	/* at most max in all */
		{ 64, 8, 99, 99, 64, 64, 8 },	/* the polled ones kept */
		{ 1, 64, 99, 99, 64, 64, 63 },	/* one unpolled at least */
		{ 0, 0, 0, 1, 64, 1, 0 },	/* never none */
	};
	unsigned int i;
	u32 poll;

	for (i = 0; i < ARRAY_SIZE(t); i++) {
		KUNIT_EXPECT_EQ_MSG(test, t[i].all,
				    rcblk_clt_queue_counts(t[i].want,
							   t[i].want_poll,
							   t[i].cpus,
							   t[i].cpu_ids,
							   t[i].max, &poll),
				    "case %u", i);
		KUNIT_EXPECT_EQ_MSG(test, t[i].poll, poll, "case %u", i);
	}
}

/*
 * When a post runs its provider work at once: after RCBLK_CLT_IDLE_POSTS
 * idle posts in a row, until a busy one; the count saturates
 */
static void clt_test_post_now(struct kunit *test)
{
	u8 n = 0;
	int i;

	for (i = 1; i < RCBLK_CLT_IDLE_POSTS; i++)
		KUNIT_EXPECT_FALSE_MSG(test, rcblk_clt_post_now(&n, true),
				       "idle post %d", i);
	for (i = 0; i < 300; i++)	/* past the u8's range: saturates */
		KUNIT_EXPECT_TRUE(test, rcblk_clt_post_now(&n, true));
	KUNIT_EXPECT_EQ(test, n, RCBLK_CLT_IDLE_POSTS);
	/* one busy post switches back, and the count starts again */
	KUNIT_EXPECT_FALSE(test, rcblk_clt_post_now(&n, false));
	KUNIT_EXPECT_EQ(test, n, 0);
	for (i = 1; i < RCBLK_CLT_IDLE_POSTS; i++)
		KUNIT_EXPECT_FALSE(test, rcblk_clt_post_now(&n, true));
	KUNIT_EXPECT_FALSE(test, rcblk_clt_post_now(&n, false));
	/* a stray idle post among busy ones never switches */
	for (i = 0; i < 100; i++)
		KUNIT_EXPECT_FALSE(test, rcblk_clt_post_now(&n, i % 3 == 0));
}

static struct kunit_case blk_proto_clt_cases[] = {
	KUNIT_CASE(clt_test_refusal_lost),
	KUNIT_CASE(clt_test_queue_counts),
	KUNIT_CASE(clt_test_post_now),
	KUNIT_CASE(clt_test_encode_open),
	KUNIT_CASE(clt_test_encode_open_long_name),
	KUNIT_CASE(clt_test_encode_io),
	KUNIT_CASE(clt_test_rsp_ok),
	KUNIT_CASE(clt_test_rsp_refused),
	KUNIT_CASE(clt_test_rsp_bad),
	KUNIT_CASE(clt_test_reply_batch),
	{}
};

static struct kunit_suite blk_proto_clt_suite = {
	.name = "rdmachan_blk_proto_clt",
	.test_cases = blk_proto_clt_cases,
};

kunit_test_suites(&blk_proto_clt_suite);
