// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suites for module/blk/blk_proto.c, the server's block: the OPEN
 * check, the OPEN_RSP encoding, the IO request check with every field at
 * and past its bounds, export names and CIDR allow lists.
 *
 * Wire images are written byte by byte here, big-endian as
 * module/blk/blk_proto.h says, so that a change of layout or byte order
 * fails a test.
 */
#include <kunit/test.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/sizes.h>
#include <linux/string.h>

#include "../../module/compat.h"	/* put_unaligned_be*() */
#include "../../module/blk/blk_proto.c"

#define OPEN_LEN	sizeof(struct rcblk_wire_open)
#define RSP_LEN		sizeof(struct rcblk_wire_open_rsp)
#define IO_LEN		sizeof(struct rcblk_wire_io)

static u32 bget32(const u8 *p)
{
	return (u32)p[0] << 24 | (u32)p[1] << 16 | (u32)p[2] << 8 | p[3];
}

/* ---- layout ------------------------------------------------------------ */

static void blk_test_layout(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, OPEN_LEN, 104);
	KUNIT_EXPECT_EQ(test, RSP_LEN, 72);
	KUNIT_EXPECT_EQ(test, IO_LEN, 32);
	KUNIT_EXPECT_EQ(test, offsetof(struct rcblk_wire_open, gen), 20);
	KUNIT_EXPECT_EQ(test, offsetof(struct rcblk_wire_open, session), 24);
	KUNIT_EXPECT_EQ(test, offsetof(struct rcblk_wire_open, name), 40);
	KUNIT_EXPECT_EQ(test, offsetof(struct rcblk_wire_open_rsp, nr_sectors), 16);
	KUNIT_EXPECT_EQ(test, offsetof(struct rcblk_wire_open_rsp, export_id), 56);
	KUNIT_EXPECT_EQ(test, offsetof(struct rcblk_wire_io, sector), 8);
	KUNIT_EXPECT_EQ(test, offsetof(struct rcblk_wire_io, addr), 24);
	KUNIT_EXPECT_EQ(test, rcblk_reply_imm(0xabcd, 9), 0xabcd0009);
	KUNIT_EXPECT_EQ(test, rcblk_reply_tag(0xabcd0009), 0xabcd);
	KUNIT_EXPECT_EQ(test, rcblk_reply_status(0xabcd0009), 9);
}

/* ---- names --------------------------------------------------------------- */

static void blk_test_name(struct kunit *test)
{
	char name[RCBLK_NAME_MAX];

	KUNIT_EXPECT_TRUE(test, rcblk_name_ok("disk0", RCBLK_NAME_MAX));
	KUNIT_EXPECT_TRUE(test, rcblk_name_ok("a.b_c-D9", RCBLK_NAME_MAX));
	KUNIT_EXPECT_TRUE(test, rcblk_name_ok("...", RCBLK_NAME_MAX));
	KUNIT_EXPECT_FALSE(test, rcblk_name_ok("", RCBLK_NAME_MAX));
	KUNIT_EXPECT_FALSE(test, rcblk_name_ok(".", RCBLK_NAME_MAX));
	KUNIT_EXPECT_FALSE(test, rcblk_name_ok("..", RCBLK_NAME_MAX));
	KUNIT_EXPECT_FALSE(test, rcblk_name_ok("a/b", RCBLK_NAME_MAX));
	KUNIT_EXPECT_FALSE(test, rcblk_name_ok("a b", RCBLK_NAME_MAX));
	KUNIT_EXPECT_FALSE(test, rcblk_name_ok("a\nb", RCBLK_NAME_MAX));
	KUNIT_EXPECT_FALSE(test, rcblk_name_ok("\xc3\xa9", RCBLK_NAME_MAX));
	/* Latin-1 letters, which the kernel's isalnum() counts */
	KUNIT_EXPECT_FALSE(test, rcblk_name_ok("x\xe9", RCBLK_NAME_MAX));
	KUNIT_EXPECT_FALSE(test, rcblk_name_ok("\xc0", RCBLK_NAME_MAX));
	KUNIT_EXPECT_FALSE(test, rcblk_name_ok("\xaa\xb5\xba\xdf", RCBLK_NAME_MAX));
	/* 63 characters and the NUL: the longest */
	memset(name, 'x', sizeof(name));
	name[RCBLK_NAME_MAX - 1] = '\0';
	KUNIT_EXPECT_TRUE(test, rcblk_name_ok(name, sizeof(name)));
	/* 64 characters: no NUL within the room */
	name[RCBLK_NAME_MAX - 1] = 'x';
	KUNIT_EXPECT_FALSE(test, rcblk_name_ok(name, sizeof(name)));
}

/* ---- OPEN ---------------------------------------------------------------- */

/* A valid OPEN: flags RO, features 0x7f | 0x100, max_io 128 KiB, 2/4 */
static void open_image(u8 *b)
{
	int i;

	memset(b, 0, OPEN_LEN);
	put_unaligned_be32(0x52424C4B, b);
	b[4] = 1;		/* type OPEN */
	b[5] = 1;		/* version */
	put_unaligned_be16(1, b + 6);	/* flags: RO */
	put_unaligned_be32(0x17f, b + 8);	/* features: known ones and bit 8 */
	put_unaligned_be32(131072, b + 12);	/* max_io */
	put_unaligned_be16(2, b + 16);	/* queue */
	put_unaligned_be16(4, b + 18);	/* nr_queues */
	for (i = 0; i < RCBLK_SESSION_LEN; i++)
		b[24 + i] = i + 1;
	memcpy(b + 40, "disk0", 6);
}

static void blk_test_open_ok(struct kunit *test)
{
	struct rcblk_open_req req;
	u8 b[OPEN_LEN];
	int i;

	open_image(b);
	KUNIT_ASSERT_EQ(test, rcblk_open_check(b, OPEN_LEN, &req),
			RCBLK_OPEN_OK);
	KUNIT_EXPECT_EQ(test, req.flags, RCBLK_OPEN_RO);
	KUNIT_EXPECT_EQ(test, req.features, 0x17f);
	KUNIT_EXPECT_EQ(test, req.max_io, 131072);
	KUNIT_EXPECT_EQ(test, req.queue, 2);
	KUNIT_EXPECT_EQ(test, req.nr_queues, 4);
	for (i = 0; i < RCBLK_SESSION_LEN; i++)
		KUNIT_EXPECT_EQ(test, req.session[i], i + 1);
	KUNIT_EXPECT_STREQ(test, req.name, "disk0");
}

/**
 * struct open_case - one field of a valid OPEN changed
 * @name: what the case shows
 * @off: the field's offset
 * @size: its size in bytes (1, 2, 4)
 * @val: the value written
 * @len: bytes handed to the check (0: OPEN_LEN)
 * @want: the verdict
 */
struct open_case {
	const char *name;
	u32 off;
	u32 size;
	u32 val;
	size_t len;
	enum rcblk_open_status want;
};

static const struct open_case open_cases[] = {
	{ "valid", 4, 1, 1, 0, RCBLK_OPEN_OK },
	{ "one byte short", 4, 1, 1, OPEN_LEN - 1, RCBLK_OPEN_PROTO },
	{ "one byte long", 4, 1, 1, OPEN_LEN + 1, RCBLK_OPEN_PROTO },
	{ "empty", 4, 1, 1, 1, RCBLK_OPEN_PROTO },
	{ "magic off by one", 0, 4, 0x52424C4C, 0, RCBLK_OPEN_PROTO },
	{ "magic byte-swapped", 0, 4, 0x4B4C4252, 0, RCBLK_OPEN_PROTO },
	{ "type OPEN_RSP", 4, 1, 2, 0, RCBLK_OPEN_PROTO },
	{ "type IO", 4, 1, 3, 0, RCBLK_OPEN_PROTO },
	{ "type 0", 4, 1, 0, 0, RCBLK_OPEN_PROTO },
	{ "version 0", 5, 1, 0, 0, RCBLK_OPEN_PROTO },
	{ "version 2", 5, 1, 2, 0, RCBLK_OPEN_PROTO },
	{ "flags 0 (read-write)", 6, 2, 0, 0, RCBLK_OPEN_OK },
	{ "flags: RO and WRITE_IMM (bit 1)", 6, 2, 3, 0, RCBLK_OPEN_OK },
	{ "flags: WRITE_IMM alone", 6, 2, 2, 0, RCBLK_OPEN_OK },
	{ "flags: FENCE (bit 2) without a generation", 6, 2, 5, 0,
	  RCBLK_OPEN_PROTO },
	{ "flags: unknown bit 3", 6, 2, 9, 0, RCBLK_OPEN_PROTO },
	{ "flags: bit 15", 6, 2, 0x8001, 0, RCBLK_OPEN_PROTO },
	{ "features: all ones (unknown masked later)", 8, 4, 0xffffffff, 0,
	  RCBLK_OPEN_OK },
	{ "features: none", 8, 4, 0, 0, RCBLK_OPEN_OK },
	{ "max_io 512 (the least)", 12, 4, 512, 0, RCBLK_OPEN_OK },
	{ "max_io 511", 12, 4, 511, 0, RCBLK_OPEN_PROTO },
	{ "max_io 0", 12, 4, 0, 0, RCBLK_OPEN_PROTO },
	{ "max_io U32_MAX", 12, 4, 0xffffffff, 0, RCBLK_OPEN_OK },
	{ "queue 3 of 4 (the last)", 16, 2, 3, 0, RCBLK_OPEN_OK },
	{ "queue 4 of 4", 16, 2, 4, 0, RCBLK_OPEN_PROTO },
	{ "queue 0xffff of 4", 16, 2, 0xffff, 0, RCBLK_OPEN_PROTO },
	{ "nr_queues 0", 18, 2, 0, 0, RCBLK_OPEN_PROTO },
	{ "nr_queues 3 (queue 2 the last)", 18, 2, 3, 0, RCBLK_OPEN_OK },
	{ "nr_queues 2 (queue 2 past it)", 18, 2, 2, 0, RCBLK_OPEN_PROTO },
	{ "nr_queues 0xffff", 18, 2, 0xffff, 0, RCBLK_OPEN_OK },
	{ "gen 1 without FENCE", 20, 4, 1, 0, RCBLK_OPEN_PROTO },
	{ "gen high bit without FENCE", 20, 4, 0x80000000, 0,
	  RCBLK_OPEN_PROTO },
	{ "session: any bytes", 24, 4, 0xffffffff, 0, RCBLK_OPEN_OK },
	{ "name empty", 40, 1, 0, 0, RCBLK_OPEN_PROTO },
	{ "name with '/'", 41, 1, '/', 0, RCBLK_OPEN_PROTO },
	{ "name with a space", 41, 1, ' ', 0, RCBLK_OPEN_PROTO },
	{ "name of one character", 41, 1, 0, 0, RCBLK_OPEN_OK },
};

static void open_case_desc(const struct open_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(open, open_cases, open_case_desc);

static void blk_test_open_check(struct kunit *test)
{
	const struct open_case *c = test->param_value;
	struct rcblk_open_req req;
	u8 b[OPEN_LEN + 1];

	open_image(b);
	b[OPEN_LEN] = 0;
	if (c->size == 1)
		b[c->off] = c->val;
	else if (c->size == 2)
		put_unaligned_be16(c->val, b + c->off);
	else
		put_unaligned_be32(c->val, b + c->off);
	KUNIT_EXPECT_EQ(test, rcblk_open_check(b, c->len ?: OPEN_LEN, &req),
			c->want);
}

/* FENCE: a generation, not zero, decoded; none without FENCE */
static void blk_test_open_fence(struct kunit *test)
{
	static const u32 gens[] = { 1, 2, 0x7fffffff, 0x80000000, 0xffffffff };
	struct rcblk_open_req req;
	u8 b[OPEN_LEN];
	int i;

	for (i = 0; i < ARRAY_SIZE(gens); i++) {
		open_image(b);
		put_unaligned_be16(RCBLK_OPEN_FENCE | RCBLK_OPEN_WRITE_IMM, b + 6);
		put_unaligned_be32(gens[i], b + 20);
		KUNIT_ASSERT_EQ_MSG(test, rcblk_open_check(b, OPEN_LEN, &req),
				    RCBLK_OPEN_OK, "gen %u", gens[i]);
		KUNIT_EXPECT_EQ(test, req.gen, gens[i]);
		KUNIT_EXPECT_EQ(test, req.flags,
				RCBLK_OPEN_FENCE | RCBLK_OPEN_WRITE_IMM);
	}
	open_image(b);
	put_unaligned_be16(RCBLK_OPEN_FENCE, b + 6);
	KUNIT_EXPECT_EQ(test, rcblk_open_check(b, OPEN_LEN, &req),
			RCBLK_OPEN_PROTO);
	open_image(b);
	KUNIT_ASSERT_EQ(test, rcblk_open_check(b, OPEN_LEN, &req),
			RCBLK_OPEN_OK);
	KUNIT_EXPECT_EQ(test, req.gen, 0U);
}

/* rcblk_fence_check(): generations as serial numbers, 0 apart */
static void blk_test_fence_check(struct kunit *test)
{
	static const struct {
		u32 have, gen;
		enum rcblk_fence want;
	} cases[] = {
		{ 0, 0, RCBLK_FENCE_JOIN },		/* no fencing */
		{ 1, 1, RCBLK_FENCE_JOIN },
		{ 0xffffffff, 0xffffffff, RCBLK_FENCE_JOIN },
		{ 1, 2, RCBLK_FENCE_OLDER },		/* a reconnect */
		{ 1, 0x80000000, RCBLK_FENCE_OLDER },	/* 2^31 - 1 ahead */
		{ 1, 0x80000001, RCBLK_FENCE_REFUSE },	/* 2^31 ahead: behind */
		{ 0xffffffff, 1, RCBLK_FENCE_OLDER },	/* wrapped past 0 */
		{ 0xfffffff0, 5, RCBLK_FENCE_OLDER },
		{ 2, 1, RCBLK_FENCE_REFUSE },		/* a late OPEN */
		{ 5, 0xfffffff0, RCBLK_FENCE_REFUSE },
		{ 0, 1, RCBLK_FENCE_REFUSE },		/* never mixed */
		{ 1, 0, RCBLK_FENCE_REFUSE },
	};
	int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++)
		KUNIT_EXPECT_EQ_MSG(test,
				    rcblk_fence_check(cases[i].have,
						      cases[i].gen),
				    cases[i].want, "have %u gen %u",
				    cases[i].have, cases[i].gen);
}

static void blk_test_open_name_bounds(struct kunit *test)
{
	struct rcblk_open_req req;
	u8 b[OPEN_LEN];

	/* 63 characters and the NUL */
	open_image(b);
	memset(b + 40, 'n', RCBLK_NAME_MAX - 1);
	b[40 + RCBLK_NAME_MAX - 1] = 0;
	KUNIT_EXPECT_EQ(test, rcblk_open_check(b, OPEN_LEN, &req),
			RCBLK_OPEN_OK);
	KUNIT_EXPECT_EQ(test, strlen(req.name), RCBLK_NAME_MAX - 1);
	/* 64: not terminated */
	b[40 + RCBLK_NAME_MAX - 1] = 'n';
	KUNIT_EXPECT_EQ(test, rcblk_open_check(b, OPEN_LEN, &req),
			RCBLK_OPEN_PROTO);
	/* "." and ".." */
	open_image(b);
	memcpy(b + 40, ".", 2);
	KUNIT_EXPECT_EQ(test, rcblk_open_check(b, OPEN_LEN, &req),
			RCBLK_OPEN_PROTO);
	memcpy(b + 40, "..", 3);
	KUNIT_EXPECT_EQ(test, rcblk_open_check(b, OPEN_LEN, &req),
			RCBLK_OPEN_PROTO);
	/* bytes after the NUL are not looked at */
	open_image(b);
	memset(b + 46, 0xff, RCBLK_NAME_MAX - 6);
	KUNIT_EXPECT_EQ(test, rcblk_open_check(b, OPEN_LEN, &req),
			RCBLK_OPEN_OK);
}

static void blk_test_features(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, rcblk_open_features(0xffffffff, true),
			RCBLK_F_KNOWN | RCBLK_F_CHAN_KNOWN);
	KUNIT_EXPECT_EQ(test, rcblk_open_features(0xffffffff, false),
			(RCBLK_F_KNOWN | RCBLK_F_CHAN_KNOWN) & ~RCBLK_F_NOUNMAP);
	KUNIT_EXPECT_EQ(test, rcblk_open_features(RCBLK_F_FUA | BIT(7), true),
			RCBLK_F_FUA);
	/* a feature of the channel kept, unknown ones of either half not */
	KUNIT_EXPECT_EQ(test, rcblk_open_features(RCBLK_F_REPLY_BATCH |
						  BIT(15) | BIT(18), true),
			RCBLK_F_REPLY_BATCH);
	KUNIT_EXPECT_EQ(test, rcblk_open_features(0, true), 0);
}

/* ---- OPEN_RSP ------------------------------------------------------------ */

static void blk_test_rsp_bytes(struct kunit *test)
{
	static const u8 want[RSP_LEN] = {
		0x52, 0x42, 0x4c, 0x4b,	/* magic */
		2, 1,			/* type, version */
		0x00, 0x00,		/* status OK */
		0x00, 0x00, 0x00, 0x0b,	/* features */
		0x00, 0x02, 0x00, 0x00,	/* max_io 128 KiB */
		0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,	/* sectors */
		0x00, 0x00, 0x02, 0x00,	/* lbs 512 */
		0x00, 0x00, 0x10, 0x00,	/* pbs 4096 */
		0x00, 0x20, 0x00, 0x00,	/* max_discard_sectors */
		0x00, 0x00, 0x10, 0x00,	/* discard_granularity */
		0x00, 0x00, 0x00, 0x08,	/* max_write_zeroes_sectors */
		0x00, 0x00, 0x10, 0x00,	/* inline_max 4096 */
		0x00, 0x0c,		/* export_flags */
		0x00, 0x00,		/* reserved */
		0x00, 0x00, 0x00, 0x00,	/* reserved2 */
		0xa0, 0xa1, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7,
		0xa8, 0xa9, 0xaa, 0xab, 0xac, 0xad, 0xae, 0xaf,
	};
	struct rcblk_geo geo = {
		.features = 0xb, .max_io = 131072,
		.nr_sectors = 0x0102030405060708ULL, .lbs = 512, .pbs = 4096,
		.max_discard_sectors = 0x200000, .discard_granularity = 4096,
		.max_write_zeroes_sectors = 8, .inline_max = 4096,
		.export_flags = RCBLK_EXP_WRITE_CACHE | RCBLK_EXP_FUA,
	};
	struct rcblk_wire_open_rsp rsp;
	const u8 *g = (const u8 *)&rsp;
	size_t i;

	for (i = 0; i < RCBLK_ID_LEN; i++)
		geo.export_id[i] = 0xa0 + i;
	memset(&rsp, 0x5a, sizeof(rsp));
	rcblk_open_rsp_encode(&rsp, RCBLK_OPEN_OK, &geo);
	for (i = 0; i < RSP_LEN; i++)
		KUNIT_EXPECT_EQ_MSG(test, g[i], want[i], "byte %zu", i);
}

static void blk_test_rsp_refused(struct kunit *test)
{
	struct rcblk_geo geo = { .max_io = 4096, .lbs = 512 };
	struct rcblk_wire_open_rsp rsp;
	const u8 *g = (const u8 *)&rsp;
	size_t i;

	memset(&rsp, 0x5a, sizeof(rsp));
	rcblk_open_rsp_encode(&rsp, RCBLK_OPEN_ACCES, &geo);
	KUNIT_EXPECT_EQ(test, bget32(g), 0x52424C4B);
	KUNIT_EXPECT_EQ(test, g[4], 2);
	KUNIT_EXPECT_EQ(test, g[5], 1);
	KUNIT_EXPECT_EQ(test, g[6], 0);
	KUNIT_EXPECT_EQ(test, g[7], RCBLK_OPEN_ACCES);
	/* a refusal tells nothing of the export */
	for (i = 8; i < RSP_LEN; i++)
		KUNIT_EXPECT_EQ_MSG(test, g[i], 0, "byte %zu", i);
	rcblk_open_rsp_encode(&rsp, RCBLK_OPEN_NOENT, NULL);
	KUNIT_EXPECT_EQ(test, g[7], RCBLK_OPEN_NOENT);
}

/* ---- IO ------------------------------------------------------------------ */

/* An export of 1 MiB (2048 sectors), 4 KiB blocks */
static const struct rcblk_io_limits io_lim = {
	.nr_sectors = 2048,
	.lbs = 4096,
	.max_io = 65536,
	.inline_max = 8192,
	.features = RCBLK_F_KNOWN & ~RCBLK_F_IDLE,
	.max_discard_sectors = 256,
	.max_write_zeroes_sectors = 128,
	.ro = false,
};

/**
 * struct io_case - one request
 * @name: what the case shows
 * @type: type field
 * @op: op
 * @flags: flags
 * @data: data kind
 * @reserved: reserved byte
 * @sector: sector
 * @len: len field
 * @rkey: rkey
 * @addr: addr
 * @payload: bytes after the header
 * @ro: check against a read-only queue
 * @want: the verdict
 */
struct io_case {
	const char *name;
	u8 type;
	u8 op;
	u16 flags;
	u8 data;
	u8 reserved;
	u64 sector;
	u32 len;
	u32 rkey;
	u64 addr;
	u32 payload;
	bool ro;
	enum rcblk_status want;
};

#define IO	RCBLK_MSG_IO
#define RD	RCBLK_OP_READ
#define WR	RCBLK_OP_WRITE
#define FL	RCBLK_OP_FLUSH
#define DI	RCBLK_OP_DISCARD
#define WZ	RCBLK_OP_WRITE_ZEROES
#define NONE	RCBLK_DATA_NONE
#define INL	RCBLK_DATA_INLINE
#define REM	RCBLK_DATA_REMOTE

static const struct io_case io_cases[] = {
	/* name, type, op, flags, data, res, sector, len, rkey, addr, payload, ro, want */
	{ "read 4 KiB", IO, RD, 0, REM, 0, 0, 4096, 7, 0x1000, 0, false, RCBLK_S_OK },
	{ "read max_io", IO, RD, 0, REM, 0, 0, 65536, 7, 1, 0, false, RCBLK_S_OK },
	{ "read max_io + 1 block", IO, RD, 0, REM, 0, 0, 69632, 7, 1, 0, false, RCBLK_S_TOOBIG },
	{ "read U32_MAX bytes", IO, RD, 0, REM, 0, 0, 0xffffffff, 7, 1, 0, false, RCBLK_S_TOOBIG },
	{ "read 0 bytes", IO, RD, 0, REM, 0, 0, 0, 7, 1, 0, false, RCBLK_S_INVAL },
	{ "read 512 (under the block)", IO, RD, 0, REM, 0, 0, 512, 7, 1, 0, false, RCBLK_S_INVAL },
	{ "read 4096 + 512", IO, RD, 0, REM, 0, 0, 4608, 7, 1, 0, false, RCBLK_S_INVAL },
	{ "read the last block", IO, RD, 0, REM, 0, 2040, 4096, 7, 1, 0, false, RCBLK_S_OK },
	{ "read past the end by a block", IO, RD, 0, REM, 0, 2048, 4096, 7, 1, 0, false, RCBLK_S_RANGE },
	{ "read straddling the end", IO, RD, 0, REM, 0, 2040, 8192, 7, 1, 0, false, RCBLK_S_RANGE },
	{ "read at the end, sector wraps", IO, RD, 0, REM, 0, 0xfffffffffffffff8ULL, 4096, 7, 1, 0, false, RCBLK_S_RANGE },
	{ "read: sector not block-aligned", IO, RD, 0, REM, 0, 1, 4096, 7, 1, 0, false, RCBLK_S_INVAL },
	{ "read: sector 7 (unaligned)", IO, RD, 0, REM, 0, 7, 4096, 7, 1, 0, false, RCBLK_S_INVAL },
	{ "read inline", IO, RD, 0, INL, 0, 0, 4096, 0, 0, 0, false, RCBLK_S_INVAL },
	{ "read no data", IO, RD, 0, NONE, 0, 0, 4096, 0, 0, 0, false, RCBLK_S_INVAL },
	{ "read data kind 3", IO, RD, 0, 3, 0, 0, 4096, 7, 1, 0, false, RCBLK_S_INVAL },
	{ "read with a payload", IO, RD, 0, REM, 0, 0, 4096, 7, 1, 8, false, RCBLK_S_INVAL },
	{ "read with FUA", IO, RD, RCBLK_F_FUA, REM, 0, 0, 4096, 7, 1, 0, false, RCBLK_S_INVAL },
	{ "read with SYNC|META|PRIO", IO, RD, RCBLK_F_SYNC | RCBLK_F_META | RCBLK_F_PRIO, REM, 0, 0, 4096, 7, 1, 0, false, RCBLK_S_OK },
	{ "read with IDLE (not accepted)", IO, RD, RCBLK_F_IDLE, REM, 0, 0, 4096, 7, 1, 0, false, RCBLK_S_NOTSUPP },
	{ "read with unknown flag bit 7", IO, RD, BIT(7), REM, 0, 0, 4096, 7, 1, 0, false, RCBLK_S_NOTSUPP },
	{ "read with flag bit 15", IO, RD, BIT(15), REM, 0, 0, 4096, 7, 1, 0, false, RCBLK_S_NOTSUPP },
	{ "read from a read-only queue", IO, RD, 0, REM, 0, 0, 4096, 7, 1, 0, true, RCBLK_S_OK },
	{ "type OPEN", RCBLK_MSG_OPEN, RD, 0, REM, 0, 0, 4096, 7, 1, 0, false, RCBLK_S_INVAL },
	{ "type 0", 0, RD, 0, REM, 0, 0, 4096, 7, 1, 0, false, RCBLK_S_INVAL },
	{ "type 4", 4, RD, 0, REM, 0, 0, 4096, 7, 1, 0, false, RCBLK_S_INVAL },
	{ "reserved 1", IO, RD, 0, REM, 1, 0, 4096, 7, 1, 0, false, RCBLK_S_INVAL },
	{ "reserved 0x80", IO, RD, 0, REM, 0x80, 0, 4096, 7, 1, 0, false, RCBLK_S_INVAL },
	{ "op 5", IO, 5, 0, NONE, 0, 0, 0, 0, 0, 0, false, RCBLK_S_NOTSUPP },
	{ "op 255", IO, 255, 0, NONE, 0, 0, 0, 0, 0, 0, false, RCBLK_S_NOTSUPP },

	{ "write remote", IO, WR, 0, REM, 0, 8, 8192, 9, 2, 0, false, RCBLK_S_OK },
	{ "write remote FUA|PREFLUSH", IO, WR, RCBLK_F_FUA | RCBLK_F_PREFLUSH, REM, 0, 8, 8192, 9, 2, 0, false, RCBLK_S_OK },
	{ "write remote NOUNMAP", IO, WR, RCBLK_F_NOUNMAP, REM, 0, 8, 8192, 9, 2, 0, false, RCBLK_S_INVAL },
	{ "write remote with a payload", IO, WR, 0, REM, 0, 8, 8192, 9, 2, 4096, false, RCBLK_S_INVAL },
	{ "write inline 4 KiB", IO, WR, 0, INL, 0, 8, 4096, 0, 0, 4096, false, RCBLK_S_OK },
	{ "write inline inline_max", IO, WR, 0, INL, 0, 8, 8192, 0, 0, 8192, false, RCBLK_S_OK },
	{ "write inline past inline_max", IO, WR, 0, INL, 0, 8, 12288, 0, 0, 12288, false, RCBLK_S_TOOBIG },
	{ "write inline payload one short", IO, WR, 0, INL, 0, 8, 4096, 0, 0, 4095, false, RCBLK_S_INVAL },
	{ "write inline payload one long", IO, WR, 0, INL, 0, 8, 4096, 0, 0, 4097, false, RCBLK_S_INVAL },
	{ "write inline no payload", IO, WR, 0, INL, 0, 8, 4096, 0, 0, 0, false, RCBLK_S_INVAL },
	{ "write inline with an rkey", IO, WR, 0, INL, 0, 8, 4096, 1, 0, 4096, false, RCBLK_S_INVAL },
	{ "write inline with an addr", IO, WR, 0, INL, 0, 8, 4096, 0, 1, 4096, false, RCBLK_S_INVAL },
	{ "write inline 0 bytes", IO, WR, 0, INL, 0, 8, 0, 0, 0, 0, false, RCBLK_S_INVAL },
	{ "write no data", IO, WR, 0, NONE, 0, 8, 4096, 0, 0, 0, false, RCBLK_S_INVAL },
	{ "write to a read-only queue", IO, WR, 0, REM, 0, 8, 4096, 9, 2, 0, true, RCBLK_S_RO },
	{ "write to a read-only queue, too big", IO, WR, 0, REM, 0, 8, 1 << 30, 9, 2, 0, true, RCBLK_S_RO },
	{ "write past the end", IO, WR, 0, REM, 0, 2048, 4096, 9, 2, 0, false, RCBLK_S_RANGE },
	{ "write max_io + 1 block", IO, WR, 0, REM, 0, 0, 69632, 9, 2, 0, false, RCBLK_S_TOOBIG },

	{ "flush", IO, FL, 0, NONE, 0, 0, 0, 0, 0, 0, false, RCBLK_S_OK },
	{ "flush: sector ignored", IO, FL, 0, NONE, 0, U64_MAX, 0, 0, 0, 0, false, RCBLK_S_OK },
	{ "flush FUA|PREFLUSH", IO, FL, RCBLK_F_FUA | RCBLK_F_PREFLUSH, NONE, 0, 0, 0, 0, 0, 0, false, RCBLK_S_OK },
	{ "flush NOUNMAP", IO, FL, RCBLK_F_NOUNMAP, NONE, 0, 0, 0, 0, 0, 0, false, RCBLK_S_INVAL },
	{ "flush with len", IO, FL, 0, NONE, 0, 0, 4096, 0, 0, 0, false, RCBLK_S_INVAL },
	{ "flush remote", IO, FL, 0, REM, 0, 0, 0, 9, 2, 0, false, RCBLK_S_INVAL },
	{ "flush with an rkey", IO, FL, 0, NONE, 0, 0, 0, 9, 0, 0, false, RCBLK_S_INVAL },
	{ "flush with a payload", IO, FL, 0, NONE, 0, 0, 0, 0, 0, 1, false, RCBLK_S_INVAL },
	{ "flush on a read-only queue", IO, FL, 0, NONE, 0, 0, 0, 0, 0, 0, true, RCBLK_S_OK },

	{ "discard its limit", IO, DI, 0, NONE, 0, 0, 131072, 0, 0, 0, false, RCBLK_S_OK },
	{ "discard past its limit", IO, DI, 0, NONE, 0, 0, 135168, 0, 0, 0, false, RCBLK_S_TOOBIG },
	{ "discard 0", IO, DI, 0, NONE, 0, 0, 0, 0, 0, 0, false, RCBLK_S_INVAL },
	{ "discard unaligned len", IO, DI, 0, NONE, 0, 0, 4608, 0, 0, 0, false, RCBLK_S_INVAL },
	{ "discard past the end", IO, DI, 0, NONE, 0, 2040, 8192, 0, 0, 0, false, RCBLK_S_RANGE },
	{ "discard FUA", IO, DI, RCBLK_F_FUA, NONE, 0, 0, 4096, 0, 0, 0, false, RCBLK_S_INVAL },
	{ "discard remote", IO, DI, 0, REM, 0, 0, 4096, 9, 2, 0, false, RCBLK_S_INVAL },
	{ "discard on a read-only queue", IO, DI, 0, NONE, 0, 0, 4096, 0, 0, 0, true, RCBLK_S_RO },

	{ "write zeroes its limit", IO, WZ, 0, NONE, 0, 0, 65536, 0, 0, 0, false, RCBLK_S_OK },
	{ "write zeroes past its limit", IO, WZ, 0, NONE, 0, 0, 69632, 0, 0, 0, false, RCBLK_S_TOOBIG },
	{ "write zeroes NOUNMAP|FUA", IO, WZ, RCBLK_F_NOUNMAP | RCBLK_F_FUA, NONE, 0, 0, 4096, 0, 0, 0, false, RCBLK_S_OK },
	{ "write zeroes inline", IO, WZ, 0, INL, 0, 0, 4096, 0, 0, 4096, false, RCBLK_S_INVAL },
	{ "write zeroes with an addr", IO, WZ, 0, NONE, 0, 0, 4096, 0, 8, 0, false, RCBLK_S_INVAL },
	{ "write zeroes on a read-only queue", IO, WZ, 0, NONE, 0, 0, 4096, 0, 0, 0, true, RCBLK_S_RO },
	{ "write zeroes, read-only, past the end", IO, WZ, 0, NONE, 0, 2048, 4096, 0, 0, 0, true, RCBLK_S_RO },
};

static void io_case_desc(const struct io_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(io, io_cases, io_case_desc);

static void blk_test_io_check(struct kunit *test)
{
	const struct io_case *c = test->param_value;
	struct rcblk_io_limits lim = io_lim;
	struct rcblk_io_req req;
	size_t len = IO_LEN + c->payload;
	u8 *b;

	b = kunit_kzalloc(test, len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, b);
	b[0] = c->type;
	b[1] = c->op;
	put_unaligned_be16(c->flags, b + 2);
	put_unaligned_be16(0xbeef, b + 4);
	b[6] = c->data;
	b[7] = c->reserved;
	put_unaligned_be64(c->sector, b + 8);
	put_unaligned_be32(c->len, b + 16);
	put_unaligned_be32(c->rkey, b + 20);
	put_unaligned_be64(c->addr, b + 24);
	lim.ro = c->ro;
	memset(&req, 0, sizeof(req));
	KUNIT_EXPECT_EQ(test, rcblk_io_check(&lim, b, len, &req), c->want);
	/* the tag is decoded even for a refusal: the reply needs it */
	KUNIT_EXPECT_EQ(test, req.tag, 0xbeef);
	/* another type or a reserved bit: the refusal invalidates nothing */
	if (c->type != RCBLK_MSG_IO || c->reserved)
		KUNIT_EXPECT_EQ(test, req.data, RCBLK_DATA_NONE);
	if (c->want != RCBLK_S_OK)
		return;
	KUNIT_EXPECT_EQ(test, req.op, c->op);
	KUNIT_EXPECT_EQ(test, req.flags, c->flags);
	KUNIT_EXPECT_EQ(test, req.data, c->data);
	KUNIT_EXPECT_EQ(test, req.sector, c->sector);
	KUNIT_EXPECT_EQ(test, req.len, c->len);
	KUNIT_EXPECT_EQ(test, req.rkey, c->rkey);
	KUNIT_EXPECT_EQ(test, req.addr, c->addr);
}

static void blk_test_io_short(struct kunit *test)
{
	struct rcblk_io_req req = { .tag = 0x1234 };
	u8 b[IO_LEN] = { IO, RD };

	KUNIT_EXPECT_EQ(test, rcblk_io_check(&io_lim, b, IO_LEN - 1, &req),
			RCBLK_S_INVAL);
	KUNIT_EXPECT_EQ(test, req.tag, 0x1234);	/* untouched */
	KUNIT_EXPECT_EQ(test, rcblk_io_check(&io_lim, b, 0, &req),
			RCBLK_S_INVAL);
}

static void blk_test_io_limits(struct kunit *test)
{
	struct rcblk_io_limits lim = io_lim;
	struct rcblk_io_req req;
	u8 b[IO_LEN] = { IO, DI };
	u8 *w;

	put_unaligned_be32(4096, b + 16);
	/* DISCARD and WRITE_ZEROES not offered */
	lim.max_discard_sectors = 0;
	KUNIT_EXPECT_EQ(test, rcblk_io_check(&lim, b, IO_LEN, &req),
			RCBLK_S_NOTSUPP);
	b[1] = WZ;
	lim.max_write_zeroes_sectors = 0;
	KUNIT_EXPECT_EQ(test, rcblk_io_check(&lim, b, IO_LEN, &req),
			RCBLK_S_NOTSUPP);
	/* ... but on a read-only queue the answer is RO */
	lim.ro = true;
	KUNIT_EXPECT_EQ(test, rcblk_io_check(&lim, b, IO_LEN, &req),
			RCBLK_S_RO);
	b[1] = DI;
	KUNIT_EXPECT_EQ(test, rcblk_io_check(&lim, b, IO_LEN, &req),
			RCBLK_S_RO);
	lim.ro = false;
	/* a 512-byte-block export of the largest size: the last sector */
	lim = io_lim;
	lim.lbs = 512;
	lim.nr_sectors = U64_MAX;
	b[1] = RD;
	b[6] = REM;
	put_unaligned_be32(512, b + 16);
	put_unaligned_be64(U64_MAX - 1, b + 8);
	KUNIT_EXPECT_EQ(test, rcblk_io_check(&lim, b, IO_LEN, &req),
			RCBLK_S_OK);
	put_unaligned_be64(U64_MAX, b + 8);
	KUNIT_EXPECT_EQ(test, rcblk_io_check(&lim, b, IO_LEN, &req),
			RCBLK_S_RANGE);
	/* an empty export */
	lim.nr_sectors = 0;
	put_unaligned_be64(0, b + 8);
	KUNIT_EXPECT_EQ(test, rcblk_io_check(&lim, b, IO_LEN, &req),
			RCBLK_S_RANGE);
	/* inline_max 0: no inline WRITE */
	lim = io_lim;
	lim.inline_max = 0;
	w = kunit_kzalloc(test, IO_LEN + 4096, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, w);
	w[0] = IO;
	w[1] = WR;
	w[6] = INL;
	put_unaligned_be32(4096, w + 16);
	KUNIT_EXPECT_EQ(test, rcblk_io_check(&lim, w, IO_LEN + 4096, &req),
			RCBLK_S_TOOBIG);
}

/* ---- CIDR ---------------------------------------------------------------- */

static void blk_test_cidr_parse(struct kunit *test)
{
	struct rdmachan_blk_cidr c;

	KUNIT_ASSERT_EQ(test, rcblk_cidr_parse("192.0.2.0/24", 12, &c), 0);
	KUNIT_EXPECT_EQ(test, c.family, AF_INET);
	KUNIT_EXPECT_EQ(test, c.prefix, 24);
	KUNIT_EXPECT_EQ(test, bget32(c.addr), 0xc0000200);
	KUNIT_ASSERT_EQ(test, rcblk_cidr_parse("192.0.2.7", 9, &c), 0);
	KUNIT_EXPECT_EQ(test, c.prefix, 32);
	KUNIT_EXPECT_EQ(test, rcblk_cidr_parse("0.0.0.0/0", 9, &c), 0);
	KUNIT_EXPECT_EQ(test, c.prefix, 0);
	KUNIT_EXPECT_EQ(test, rcblk_cidr_parse("10.0.0.0/32", 11, &c), 0);
	KUNIT_EXPECT_EQ(test, rcblk_cidr_parse("10.0.0.0/33", 11, &c), -EINVAL);
	KUNIT_EXPECT_EQ(test, rcblk_cidr_parse("10.0.0.0/", 9, &c), -EINVAL);
	KUNIT_EXPECT_EQ(test, rcblk_cidr_parse("10.0.0.0/-1", 11, &c), -EINVAL);
	KUNIT_EXPECT_EQ(test, rcblk_cidr_parse("10.0.0.0/+8", 11, &c), -EINVAL);
	KUNIT_EXPECT_EQ(test, rcblk_cidr_parse("10.0.0.0/1000", 13, &c), -EINVAL);
	KUNIT_EXPECT_EQ(test, rcblk_cidr_parse("10.0.0/8", 8, &c), -EINVAL);
	KUNIT_EXPECT_EQ(test, rcblk_cidr_parse("10.0.0.256", 10, &c), -EINVAL);
	KUNIT_EXPECT_EQ(test, rcblk_cidr_parse("/8", 2, &c), -EINVAL);
	KUNIT_EXPECT_EQ(test, rcblk_cidr_parse("", 0, &c), -EINVAL);
	KUNIT_EXPECT_EQ(test, rcblk_cidr_parse("host", 4, &c), -EINVAL);
	/* the length bounds the text: "10.0.0.1" of "10.0.0.12" */
	KUNIT_ASSERT_EQ(test, rcblk_cidr_parse("10.0.0.12", 8, &c), 0);
	KUNIT_EXPECT_EQ(test, c.addr[3], 1);
	KUNIT_ASSERT_EQ(test, rcblk_cidr_parse("fd00::/8", 8, &c), 0);
	KUNIT_EXPECT_EQ(test, c.family, AF_INET6);
	KUNIT_EXPECT_EQ(test, c.prefix, 8);
	KUNIT_EXPECT_EQ(test, c.addr[0], 0xfd);
	KUNIT_ASSERT_EQ(test, rcblk_cidr_parse("::1", 3, &c), 0);
	KUNIT_EXPECT_EQ(test, c.prefix, 128);
	KUNIT_EXPECT_EQ(test, rcblk_cidr_parse("::1/128", 7, &c), 0);
	KUNIT_EXPECT_EQ(test, rcblk_cidr_parse("::1/129", 7, &c), -EINVAL);
	KUNIT_EXPECT_EQ(test, rcblk_cidr_parse("fd00:::1", 8, &c), -EINVAL);
}

static void blk_test_cidr_check(struct kunit *test)
{
	struct rdmachan_blk_cidr c = { .family = AF_INET, .prefix = 32 };

	KUNIT_EXPECT_EQ(test, rcblk_cidr_check(&c), 0);
	c.prefix = 33;
	KUNIT_EXPECT_EQ(test, rcblk_cidr_check(&c), -EINVAL);
	c.family = AF_INET6;
	KUNIT_EXPECT_EQ(test, rcblk_cidr_check(&c), 0);
	c.prefix = 128;
	KUNIT_EXPECT_EQ(test, rcblk_cidr_check(&c), 0);
	c.prefix = 129;
	KUNIT_EXPECT_EQ(test, rcblk_cidr_check(&c), -EINVAL);
	c.prefix = 0;
	c.reserved = 1;
	KUNIT_EXPECT_EQ(test, rcblk_cidr_check(&c), -EINVAL);
	c.reserved = 0;
	c.family = AF_UNSPEC;
	KUNIT_EXPECT_EQ(test, rcblk_cidr_check(&c), -EINVAL);
	c.family = AF_INET + 1000;
	KUNIT_EXPECT_EQ(test, rcblk_cidr_check(&c), -EINVAL);
}

static void blk_test_cidr_match(struct kunit *test)
{
	struct rdmachan_blk_cidr allow[3];
	struct sockaddr_in sin = { .sin_family = AF_INET };
	struct sockaddr_in6 sin6 = { .sin6_family = AF_INET6 };
	struct sockaddr *sa = (struct sockaddr *)&sin;
	struct sockaddr *sa6 = (struct sockaddr *)&sin6;

	KUNIT_ASSERT_EQ(test, rcblk_cidr_parse("192.0.2.0/25", 12, &allow[0]), 0);
	KUNIT_ASSERT_EQ(test, rcblk_cidr_parse("10.1.2.3", 8, &allow[1]), 0);
	KUNIT_ASSERT_EQ(test, rcblk_cidr_parse("fd00::/9", 8, &allow[2]), 0);

	sin.sin_addr.s_addr = htonl(0xc0000202);		/* 192.0.2.2 */
	KUNIT_EXPECT_TRUE(test, rcblk_cidr_match(allow, 3, sa));
	KUNIT_EXPECT_FALSE(test, rcblk_cidr_match(allow, 0, sa));	/* none */
	sin.sin_addr.s_addr = htonl(0xc000027f);		/* last of /25 */
	KUNIT_EXPECT_TRUE(test, rcblk_cidr_match(allow, 1, sa));
	sin.sin_addr.s_addr = htonl(0xc0000280);		/* first past */
	KUNIT_EXPECT_FALSE(test, rcblk_cidr_match(allow, 3, sa));
	sin.sin_addr.s_addr = htonl(0x0a010203);
	KUNIT_EXPECT_TRUE(test, rcblk_cidr_match(allow, 2, sa));
	KUNIT_EXPECT_FALSE(test, rcblk_cidr_match(allow, 1, sa));
	sin.sin_addr.s_addr = htonl(0x0a010204);
	KUNIT_EXPECT_FALSE(test, rcblk_cidr_match(allow, 3, sa));

	/* IPv4-mapped IPv6 against the IPv4 entries */
	sin6.sin6_addr.s6_addr[10] = 0xff;
	sin6.sin6_addr.s6_addr[11] = 0xff;
	sin6.sin6_addr.s6_addr[12] = 192;
	sin6.sin6_addr.s6_addr[13] = 0;
	sin6.sin6_addr.s6_addr[14] = 2;
	sin6.sin6_addr.s6_addr[15] = 1;
	KUNIT_EXPECT_TRUE(test, rcblk_cidr_match(allow, 3, sa6));
	memset(&sin6.sin6_addr, 0, sizeof(sin6.sin6_addr));
	sin6.sin6_addr.s6_addr[0] = 0xfd;
	sin6.sin6_addr.s6_addr[1] = 0x7f;			/* in fd00::/9 */
	KUNIT_EXPECT_TRUE(test, rcblk_cidr_match(allow, 3, sa6));
	sin6.sin6_addr.s6_addr[1] = 0x80;			/* past it */
	KUNIT_EXPECT_FALSE(test, rcblk_cidr_match(allow, 3, sa6));
	/* 0.0.0.0/0 admits every IPv4 address, no IPv6 one */
	KUNIT_ASSERT_EQ(test, rcblk_cidr_parse("0.0.0.0/0", 9, &allow[0]), 0);
	KUNIT_EXPECT_TRUE(test, rcblk_cidr_match(allow, 1, sa));
	KUNIT_EXPECT_FALSE(test, rcblk_cidr_match(allow, 1, sa6));
	/* another family, a malformed entry: no match */
	sin.sin_family = AF_UNSPEC;
	KUNIT_EXPECT_FALSE(test, rcblk_cidr_match(allow, 1, sa));
	sin.sin_family = AF_INET;
	allow[0].prefix = 40;
	KUNIT_EXPECT_FALSE(test, rcblk_cidr_match(allow, 1, sa));
}

/*
 * One host's addresses: any port, an IPv4-mapped IPv6 address is its IPv4
 * one, a family without addresses is nobody's
 */
static void blk_test_same_host(struct kunit *test)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(1) };
	struct sockaddr_in b = { .sin_family = AF_INET, .sin_port = htons(2) };
	struct sockaddr_in6 m = { .sin6_family = AF_INET6 };
	struct sockaddr_in6 v6 = { .sin6_family = AF_INET6 };
	struct sockaddr *sa = (struct sockaddr *)&a, *sb = (struct sockaddr *)&b;
	struct sockaddr *sm = (struct sockaddr *)&m, *s6 = (struct sockaddr *)&v6;

	a.sin_addr.s_addr = htonl(0xc0000202);			/* 192.0.2.2 */
	b.sin_addr.s_addr = htonl(0xc0000202);
	KUNIT_EXPECT_TRUE(test, rcblk_same_host(sa, sb));	/* ports aside */
	b.sin_addr.s_addr = htonl(0xc0000203);
	KUNIT_EXPECT_FALSE(test, rcblk_same_host(sa, sb));
	m.sin6_addr.s6_addr[10] = 0xff;				/* ::ffff:192.0.2.2 */
	m.sin6_addr.s6_addr[11] = 0xff;
	m.sin6_addr.s6_addr[12] = 192;
	m.sin6_addr.s6_addr[14] = 2;
	m.sin6_addr.s6_addr[15] = 2;
	KUNIT_EXPECT_TRUE(test, rcblk_same_host(sm, sa));
	KUNIT_EXPECT_TRUE(test, rcblk_same_host(sa, sm));
	KUNIT_EXPECT_FALSE(test, rcblk_same_host(sm, sb));
	v6.sin6_addr.s6_addr[0] = 0xfd;
	v6.sin6_addr.s6_addr[15] = 2;
	KUNIT_EXPECT_TRUE(test, rcblk_same_host(s6, s6));
	KUNIT_EXPECT_FALSE(test, rcblk_same_host(s6, sa));
	KUNIT_EXPECT_FALSE(test, rcblk_same_host(sa, s6));
	v6.sin6_addr.s6_addr[15] = 3;
	KUNIT_EXPECT_FALSE(test, rcblk_same_host(s6, (struct sockaddr *)&m));
	a.sin_family = AF_UNSPEC;
	KUNIT_EXPECT_FALSE(test, rcblk_same_host(sa, sa));
}

/*
 * An export's identity: the same for the same name, device, disk and
 * size (an export made again, a server reloaded); another when any of
 * them differs; never all zero; a stable one of name and size only; and
 * the reply's notice tag above any request's.
 */
/* An identity computed from these, and whether it equals the reference */
struct blk_export_id_case {
	const char *name;
	u64 dev;
	u64 seq;
	u64 size;
	bool stable;
	bool same;
};

/* Against ("vol0", 0x10300000, 7, 262144), not stable: any field counts */
static const struct blk_export_id_case blk_export_id_cases[] = {
	{ "vol0", 0x10300000, 7, 262144, false, true },
	{ "vol1", 0x10300000, 7, 262144, false, false },
	{ "vol0", 0x10300001, 7, 262144, false, false },
	{ "vol0", 0x10300000, 8, 262144, false, false },
	{ "vol0", 0x10300000, 7, 262145, false, false },
};

/*
 * Against the same, stable (RDMACHAN_BLK_STABLE_ID): the same whatever
 * the disk's dev_t and sequence number (the server rebooted), another
 * for another name or size, and never the identity without it
 */
static const struct blk_export_id_case blk_stable_id_cases[] = {
	{ "vol0", 0x800010, 93, 262144, true, true },
	{ "vol1", 0x10300000, 7, 262144, true, false },
	{ "vol0", 0x10300000, 7, 262145, true, false },
	{ "vol0", 0x10300000, 7, 262144, false, false },
	{ "vol0", ~0ULL, ~0ULL, 262144, true, true },
};

static void blk_test_export_id(struct kunit *test)
{
	u8 a[RCBLK_ID_LEN], b[RCBLK_ID_LEN], zero[RCBLK_ID_LEN] = {};
	unsigned int i;

	rcblk_export_id("vol0", 0x10300000, 7, 262144, false, a);
	KUNIT_EXPECT_NE(test, memcmp(a, zero, sizeof(a)), 0);
	for (i = 0; i < ARRAY_SIZE(blk_export_id_cases); i++) {
		const struct blk_export_id_case *t = &blk_export_id_cases[i];

		rcblk_export_id(t->name, t->dev, t->seq, t->size, t->stable, b);
		KUNIT_EXPECT_EQ_MSG(test, !memcmp(a, b, sizeof(a)), (int)t->same,
				    "case %u", i);
	}
	/* the two halves are not one value twice */
	KUNIT_EXPECT_NE(test, memcmp(a, a + 8, 8), 0);
	/* a name of the largest size, unterminated within the field: bounded */
	{
		char name[RDMACHAN_BLK_NAME_MAX + 8];

		memset(name, 'x', sizeof(name) - 1);
		name[sizeof(name) - 1] = '\0';
		rcblk_export_id(name, 1, 1, 1, false, b);
		rcblk_export_id(name, 1, 1, 1, false, a);
		KUNIT_EXPECT_EQ(test, memcmp(a, b, sizeof(a)), 0);
	}
	/* the stable identity, which blk_stable_id_cases compare with */
	rcblk_export_id("vol0", 0x10300000, 7, 262144, true, a);
	for (i = 0; i < ARRAY_SIZE(blk_stable_id_cases); i++) {
		const struct blk_export_id_case *t = &blk_stable_id_cases[i];

		rcblk_export_id(t->name, t->dev, t->seq, t->size, t->stable, b);
		KUNIT_EXPECT_EQ_MSG(test, !memcmp(a, b, sizeof(a)), (int)t->same,
				    "stable case %u", i);
	}
	KUNIT_EXPECT_EQ(test, rcblk_reply_tag(rcblk_reply_imm(RCBLK_TAG_NOTICE,
							      RCBLK_S_GONE)),
			(u16)RCBLK_TAG_NOTICE);
	KUNIT_EXPECT_EQ(test, rcblk_reply_status(rcblk_reply_imm(RCBLK_TAG_NOTICE,
								 RCBLK_S_GONE)),
			(u8)RCBLK_S_GONE);
}

/* rcblk_window_fits(), rcblk_pull_piece(): their kernel-doc's rules */
static void blk_test_pull_window(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, rcblk_window_fits(0, SZ_1M, SZ_64K));
	KUNIT_EXPECT_TRUE(test, rcblk_window_fits(SZ_32K, SZ_32K, SZ_64K));
	KUNIT_EXPECT_FALSE(test, rcblk_window_fits(SZ_32K + 1, SZ_32K,
						   SZ_64K));
	KUNIT_EXPECT_FALSE(test, rcblk_window_fits(512, SZ_64K, SZ_64K));
	KUNIT_EXPECT_TRUE(test, rcblk_window_fits(U32_MAX, U32_MAX, 0));
	KUNIT_EXPECT_FALSE(test, rcblk_window_fits(U32_MAX, U32_MAX,
						   U32_MAX));
	KUNIT_EXPECT_EQ(test, rcblk_pull_piece(SZ_128K, SZ_64K), SZ_32K);
	KUNIT_EXPECT_EQ(test, rcblk_pull_piece(SZ_8K + 512, SZ_64K),
			SZ_8K + 512);
	KUNIT_EXPECT_EQ(test, rcblk_pull_piece(SZ_128K, 12 * SZ_1K), SZ_4K);
	KUNIT_EXPECT_EQ(test, rcblk_pull_piece(SZ_128K, SZ_4K), SZ_4K);
	KUNIT_EXPECT_EQ(test, rcblk_pull_piece(SZ_1M, 0), SZ_1M);
	KUNIT_EXPECT_EQ(test, rcblk_pull_piece(SZ_1M, 65536 * SZ_1K), SZ_1M);
}

static struct kunit_case blk_proto_cases[] = {
	KUNIT_CASE(blk_test_layout),
	KUNIT_CASE(blk_test_name),
	KUNIT_CASE(blk_test_open_ok),
	KUNIT_CASE_PARAM(blk_test_open_check, open_gen_params),
	KUNIT_CASE(blk_test_open_fence),
	KUNIT_CASE(blk_test_fence_check),
	KUNIT_CASE(blk_test_open_name_bounds),
	KUNIT_CASE(blk_test_features),
	KUNIT_CASE(blk_test_rsp_bytes),
	KUNIT_CASE(blk_test_rsp_refused),
	KUNIT_CASE_PARAM(blk_test_io_check, io_gen_params),
	KUNIT_CASE(blk_test_io_short),
	KUNIT_CASE(blk_test_io_limits),
	KUNIT_CASE(blk_test_cidr_parse),
	KUNIT_CASE(blk_test_cidr_check),
	KUNIT_CASE(blk_test_cidr_match),
	KUNIT_CASE(blk_test_same_host),
	KUNIT_CASE(blk_test_export_id),
	KUNIT_CASE(blk_test_pull_window),
	{}
};

static struct kunit_suite blk_proto_suite = {
	.name = "rdmachan_blk_proto_srv",
	.test_cases = blk_proto_cases,
};

kunit_test_suites(&blk_proto_suite);
