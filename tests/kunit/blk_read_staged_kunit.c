// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite for a READ into the client's staging pages
 * (RCBLK_F_READ_STAGED, RCBLK_DATA_STAGED; blk_proto.h): the server's
 * check of such a request (rcblk_io_check()) on a queue that took the
 * feature and on one that did not, at the bounds every READ has and
 * with a payload; what a refusal of it leaves for the reply (its data
 * kind, so that the reply invalidates nothing); the client's encoding
 * of its place (rcblk_clt_encode_io()); and the feature's
 * negotiation (kept by the server where offered, a channel's feature
 * for the client: granted where offered only, never the disk's).
 *
 * blk_proto_kunit.c compiles blk_proto.c into this module; this file
 * only calls its functions.
 */
#include <kunit/test.h>
#include <linux/string.h>

#include "../../module/compat.h"	/* put_unaligned_be*() */
#include "../../module/blk/blk_proto_clt.h"
#include "../../module/blk/blk_proto_srv.h"

/* A read-only queue of 1 MiB in 512-byte blocks that took staged READs */
static const struct rcblk_io_limits st_lim = {
	.nr_sectors = 2048,
	.lbs = 512,
	.max_io = 65536,
	.inline_max = 4096,
	.features = RCBLK_F_KNOWN | RCBLK_F_READ_STAGED,
	.max_discard_sectors = 0,
	.max_write_zeroes_sectors = 0,
	.ro = true,
};

/**
 * struct st_case - one request to check
 * @op: enum rcblk_op
 * @data: enum rcblk_data
 * @sector: first sector
 * @len: bytes
 * @payload: bytes after the header
 * @want: on a queue that took RCBLK_F_READ_STAGED
 * @want_off: on one that did not
 */
struct st_case {
	u8 op;
	u8 data;
	u64 sector;
	u32 len;
	u32 payload;
	u8 want;
	u8 want_off;
};

#define RD	RCBLK_OP_READ
#define WR	RCBLK_OP_WRITE
#define STG	RCBLK_DATA_STAGED

static const struct st_case st_cases[] = {
	/* op, data, sector, len, payload, want, want_off */
	{ RD, STG, 0, 4096, 0, RCBLK_S_OK, RCBLK_S_INVAL },
	{ RD, STG, 0, 512, 0, RCBLK_S_OK, RCBLK_S_INVAL },
	/* the server holds it to max_io only: the layout is the client's */
	{ RD, STG, 0, 65536, 0, RCBLK_S_OK, RCBLK_S_INVAL },
	{ RD, STG, 0, 66048, 0, RCBLK_S_TOOBIG, RCBLK_S_INVAL },
	{ RD, STG, 2040, 4096, 0, RCBLK_S_OK, RCBLK_S_INVAL },
	{ RD, STG, 2048, 512, 0, RCBLK_S_RANGE, RCBLK_S_INVAL },
	{ RD, STG, 0, 0, 0, RCBLK_S_INVAL, RCBLK_S_INVAL },
	{ RD, STG, 0, 1000, 0, RCBLK_S_INVAL, RCBLK_S_INVAL },
	{ RD, STG, 0, 4096, 8, RCBLK_S_INVAL, RCBLK_S_INVAL },
	/* the other kinds of READ are as they were */
	{ RD, RCBLK_DATA_REMOTE, 0, 4096, 0, RCBLK_S_OK, RCBLK_S_OK },
	{ RD, RCBLK_DATA_INLINE, 0, 4096, 0, RCBLK_S_INVAL, RCBLK_S_INVAL },
	{ RD, 4, 0, 4096, 0, RCBLK_S_INVAL, RCBLK_S_INVAL },
	/* only a READ may be staged */
	{ WR, STG, 0, 4096, 0, RCBLK_S_INVAL, RCBLK_S_INVAL },
	{ RCBLK_OP_FLUSH, STG, 0, 0, 0, RCBLK_S_INVAL, RCBLK_S_INVAL },
};

static void st_test_io_check(struct kunit *test)
{
	size_t room = sizeof(struct rcblk_wire_io) + 8;
	struct rcblk_io_limits off = st_lim;
	struct rcblk_io_req req;
	unsigned int i;
	u8 *b;

	off.features &= ~RCBLK_F_READ_STAGED;
	b = kunit_kzalloc(test, room, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, b);
	for (i = 0; i < ARRAY_SIZE(st_cases); i++) {
		const struct st_case *c = &st_cases[i];
		size_t len = sizeof(struct rcblk_wire_io) + c->payload;

		memset(b, 0, room);
		b[0] = RCBLK_MSG_IO;
		b[1] = c->op;
		put_unaligned_be16(0x4321, b + 4);
		b[6] = c->data;
		put_unaligned_be64(c->sector, b + 8);
		put_unaligned_be32(c->len, b + 16);
		put_unaligned_be32(0x1234, b + 20);
		put_unaligned_be64(0x10000 + 4096 * i, b + 24);
		KUNIT_EXPECT_EQ_MSG(test, rcblk_io_check(&st_lim, b, len, &req),
				    c->want, "case %u", i);
		KUNIT_EXPECT_EQ_MSG(test, req.tag, 0x4321, "case %u", i);
		KUNIT_EXPECT_EQ_MSG(test, rcblk_io_check(&off, b, len, &req),
				    c->want_off, "case %u, not taken", i);
		if (c->want != RCBLK_S_OK || c->data != STG)
			continue;
		/* the place is taken as sent, for the RDMA WRITE */
		rcblk_io_check(&st_lim, b, len, &req);
		KUNIT_EXPECT_EQ_MSG(test, req.rkey, 0x1234, "case %u", i);
		KUNIT_EXPECT_EQ_MSG(test, req.addr, 0x10000 + 4096 * i,
				    "case %u", i);
	}
}

/*
 * A refused staged READ keeps its data kind: the reply, which
 * invalidates only for RCBLK_DATA_REMOTE, leaves the staging
 * registration alone
 */
static void st_test_refusal(struct kunit *test)
{
	u8 b[sizeof(struct rcblk_wire_io)] = {};
	struct rcblk_io_req req;

	b[0] = RCBLK_MSG_IO;
	b[1] = RD;
	b[6] = STG;
	put_unaligned_be32(1 << 20, b + 16);
	put_unaligned_be32(0x77, b + 20);
	KUNIT_EXPECT_EQ(test, rcblk_io_check(&st_lim, b, sizeof(b), &req),
			RCBLK_S_TOOBIG);
	KUNIT_EXPECT_EQ(test, req.data, RCBLK_DATA_STAGED);
	KUNIT_EXPECT_NE(test, req.data, RCBLK_DATA_REMOTE);
}

/* The client's header of a staged READ carries the place */
static void st_test_encode(struct kunit *test)
{
	struct rcblk_wire_io io;
	struct rcblk_io_req req;

	rcblk_clt_encode_io(&io, RD, 0, 8, 4096, 7, STG, 0xabcd, 0x123000);
	KUNIT_EXPECT_EQ(test, io.data, RCBLK_DATA_STAGED);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(io.rkey), 0xabcd);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(io.addr), 0x123000);
	/* and the server takes it so */
	KUNIT_ASSERT_EQ(test, rcblk_io_check(&st_lim, &io, sizeof(io), &req),
			RCBLK_S_OK);
	KUNIT_EXPECT_EQ(test, req.rkey, 0xabcd);
	KUNIT_EXPECT_EQ(test, req.addr, 0x123000);
	/* inline and none still carry no place */
	rcblk_clt_encode_io(&io, WR, 0, 8, 4096, 7, RCBLK_DATA_INLINE, 1, 2);
	KUNIT_EXPECT_EQ(test, io.rkey, 0);
	KUNIT_EXPECT_EQ(test, io.addr, 0);
}

/* An OPEN_RSP granting @features, otherwise as a server answers */
static void st_rsp(u8 *r, u32 features)
{
	memset(r, 0, sizeof(struct rcblk_wire_open_rsp));
	put_unaligned_be32(RCBLK_WIRE_MAGIC, r);
	r[4] = RCBLK_MSG_OPEN_RSP;
	r[5] = RCBLK_WIRE_VERSION;
	put_unaligned_be16(RCBLK_OPEN_OK, r + 6);
	put_unaligned_be32(features, r + 8);
	put_unaligned_be32(131072, r + 12);
	put_unaligned_be64(2048, r + 16);
	put_unaligned_be32(512, r + 24);
	put_unaligned_be32(512, r + 28);
	put_unaligned_be32(4096, r + 44);
	r[56] = 1;
}

static void st_test_features(struct kunit *test)
{
	u8 r[sizeof(struct rcblk_wire_open_rsp)];
	struct rcblk_geo geo, geo2;
	const char *why;

	/* the server keeps it with what it knows, and only if offered */
	KUNIT_EXPECT_EQ(test, rcblk_open_features(RCBLK_F_READ_STAGED |
						  RCBLK_F_FUA, true),
			RCBLK_F_READ_STAGED | RCBLK_F_FUA);
	KUNIT_EXPECT_EQ(test, rcblk_open_features(RCBLK_F_FUA, true),
			RCBLK_F_FUA);
	KUNIT_EXPECT_TRUE(test, RCBLK_F_READ_STAGED & RCBLK_F_CHAN_KNOWN);
	KUNIT_EXPECT_FALSE(test, RCBLK_F_READ_STAGED & RCBLK_F_KNOWN);

	/* the client takes it where it offered it */
	st_rsp(r, RCBLK_F_READ_STAGED);
	KUNIT_EXPECT_EQ(test, rcblk_clt_check_open_rsp(r, sizeof(r),
			RCBLK_F_KNOWN | RCBLK_F_READ_STAGED, 1 << 20, &geo,
			&why), 0);
	KUNIT_EXPECT_EQ(test, geo.features, RCBLK_F_READ_STAGED);
	/* and refuses the answer that grants it unasked */
	KUNIT_EXPECT_EQ(test, rcblk_clt_check_open_rsp(r, sizeof(r),
			RCBLK_F_KNOWN | RCBLK_F_REPLY_BATCH, 1 << 20, &geo2,
			&why), -EPROTO);
	/* a queue's own: queues that differ in it map the same disk */
	st_rsp(r, 0);
	KUNIT_ASSERT_EQ(test, rcblk_clt_check_open_rsp(r, sizeof(r),
			RCBLK_F_KNOWN | RCBLK_F_READ_STAGED, 1 << 20, &geo2,
			&why), 0);
	KUNIT_EXPECT_TRUE(test, rcblk_clt_geo_same(&geo, &geo2));
}

static struct kunit_case blk_read_staged_cases[] = {
	KUNIT_CASE(st_test_io_check),
	KUNIT_CASE(st_test_refusal),
	KUNIT_CASE(st_test_encode),
	KUNIT_CASE(st_test_features),
	{}
};

static struct kunit_suite blk_read_staged_suite = {
	.name = "rdmachan_blk_read_staged",
	.test_cases = blk_read_staged_cases,
};

kunit_test_suites(&blk_read_staged_suite);
