// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suites for module/chan/proto.c: the wire format of the connect and
 * reject private data and of the message header, parameter negotiation,
 * and the header check with every field at and past its bounds.
 *
 * Wire images are written byte by byte here, big-endian as the protocol
 * says, so that a change of layout or byte order fails a test.
 */
#include <kunit/test.h>
#include <linux/string.h>

#include "../../module/chan/proto.c"

#define HDR_LEN		sizeof(struct rdmachan_wire_hdr)
#define CONN_LEN	sizeof(struct rdmachan_wire_conn)
#define REJ_LEN		sizeof(struct rdmachan_wire_rej)

static void put_be16(u8 *p, u16 v)
{
	p[0] = v >> 8;
	p[1] = v;
}

static void put_be32(u8 *p, u32 v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

/* Compare a wire image with the expected bytes, byte by byte. */
static void expect_bytes(struct kunit *test, const void *got, const u8 *want,
			 size_t len)
{
	const u8 *g = got;
	size_t i;

	for (i = 0; i < len; i++)
		KUNIT_EXPECT_EQ_MSG(test, g[i], want[i], "byte %zu", i);
}

/* ---- layout ------------------------------------------------------------ */

static void proto_test_sizes(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, HDR_LEN, 8);
	KUNIT_EXPECT_EQ(test, CONN_LEN, 32);
	KUNIT_EXPECT_EQ(test, REJ_LEN, 8);
	KUNIT_EXPECT_EQ(test, offsetof(struct rdmachan_wire_hdr, credits), 2);
	KUNIT_EXPECT_EQ(test, offsetof(struct rdmachan_wire_hdr, len), 4);
	KUNIT_EXPECT_EQ(test, offsetof(struct rdmachan_wire_conn, queue_depth), 8);
	KUNIT_EXPECT_EQ(test, offsetof(struct rdmachan_wire_conn, max_msg_size), 12);
	KUNIT_EXPECT_EQ(test, offsetof(struct rdmachan_wire_conn, features), 16);
	KUNIT_EXPECT_EQ(test, offsetof(struct rdmachan_wire_conn, grant), 24);
	KUNIT_EXPECT_EQ(test, offsetof(struct rdmachan_wire_rej, reason), 6);
}

/* ---- connect private data ---------------------------------------------- */

static void proto_test_conn_encode_bytes(struct kunit *test)
{
	static const u8 want[32] = {
		'R', 'C', 'H', '1',	/* magic */
		0x00, 0x06,		/* version */
		0x00, 0x00,		/* flags */
		0x00, 0x00, 0x01, 0x00,	/* queue_depth 256 */
		0x00, 0x01, 0x02, 0x03,	/* max_msg_size 0x10203 */
		0x80, 0x00, 0x00, 0x00,	/* features, high word */
		0x00, 0x00, 0x00, 0x01,	/* features, low word: HDR_IMM */
		0x00, 0x00, 0x00, 0x11,	/* grant 17 */
		/* reserved: zero */
	};
	struct rdmachan_conn_params p = {
		.queue_depth = 256, .max_msg_size = 0x10203,
		.features = BIT_ULL(63) | RDMACHAN_WIRE_F_HDR_IMM,
		.grant = 17,
	};
	struct rdmachan_wire_conn w;

	memset(&w, 0xa5, sizeof(w));
	rdmachan_wire_conn_encode(&w, &p);
	expect_bytes(test, &w, want, sizeof(want));
}

/* The feature bits are wire format: their values never change */
static void proto_test_feature_bits(struct kunit *test)
{
	static const u8 want[8] = { 0, 0, 0, 0, 0, 0, 0, 0x1f };
	struct rdmachan_conn_params p = { 1, 1, RDMACHAN_WIRE_F_KNOWN };
	struct rdmachan_wire_conn w;

	KUNIT_EXPECT_EQ(test, RDMACHAN_WIRE_F_HDR_IMM, BIT_ULL(0));
	KUNIT_EXPECT_EQ(test, RDMACHAN_WIRE_F_SEND_INV, BIT_ULL(1));
	KUNIT_EXPECT_EQ(test, RDMACHAN_WIRE_F_GROW, BIT_ULL(2));
	KUNIT_EXPECT_EQ(test, RDMACHAN_WIRE_F_FRAG, BIT_ULL(3));
	KUNIT_EXPECT_EQ(test, RDMACHAN_WIRE_F_IMM_CREDIT, BIT_ULL(4));
	KUNIT_EXPECT_EQ(test, RDMACHAN_WIRE_F_KNOWN, 31ULL);
	KUNIT_EXPECT_EQ(test, RDMACHAN_IMM_CREDIT, BIT(31));
	rdmachan_wire_conn_encode(&w, &p);
	expect_bytes(test, &w.features, want, sizeof(want));
}

static void proto_test_conn_roundtrip(struct kunit *test)
{
	static const struct rdmachan_conn_params in[] = {
		{ 1, 1, 0, 0, 1 },
		{ 128, 65536, RDMACHAN_WIRE_F_HDR_IMM, 4, 1 },
		{ 128, 65536, RDMACHAN_WIRE_F_HDR_IMM, 3, 0 },
		{ RDMACHAN_MAX_DEPTH, U32_MAX, U64_MAX, 0, RDMACHAN_MAX_DEPTH },
	};
	struct rdmachan_conn_params out;
	struct rdmachan_wire_conn w;
	int i;

	for (i = 0; i < ARRAY_SIZE(in); i++) {
		rdmachan_wire_conn_encode(&w, &in[i]);
		memset(&out, 0, sizeof(out));
		KUNIT_EXPECT_EQ(test, rdmachan_wire_conn_decode(&w, sizeof(w), &out),
				RDMACHAN_REJ_NONE);
		KUNIT_EXPECT_EQ(test, out.queue_depth, in[i].queue_depth);
		KUNIT_EXPECT_EQ(test, out.max_msg_size, in[i].max_msg_size);
		KUNIT_EXPECT_EQ(test, out.features, in[i].features);
		KUNIT_EXPECT_EQ(test, out.version,
				in[i].version ?: RDMACHAN_WIRE_VERSION);
		KUNIT_EXPECT_EQ(test, out.grant, in[i].grant);
	}
}

/*
 * Version 4's start grant: 1 to the depth; a version 3 image has none
 * (its grant field is not read: the whole depth is granted)
 */
static void proto_test_conn_grant(struct kunit *test)
{
	struct rdmachan_conn_params p = { 64, 4096, 0, 4, 1 }, out;
	struct rdmachan_wire_conn w;

	p.grant = 0;
	rdmachan_wire_conn_encode(&w, &p);
	KUNIT_EXPECT_EQ(test, rdmachan_wire_conn_decode(&w, sizeof(w), &out),
			RDMACHAN_REJ_BAD_PARAMS);
	p.grant = 65;
	rdmachan_wire_conn_encode(&w, &p);
	KUNIT_EXPECT_EQ(test, rdmachan_wire_conn_decode(&w, sizeof(w), &out),
			RDMACHAN_REJ_BAD_PARAMS);
	p.grant = 64;
	rdmachan_wire_conn_encode(&w, &p);
	KUNIT_EXPECT_EQ(test, rdmachan_wire_conn_decode(&w, sizeof(w), &out),
			RDMACHAN_REJ_NONE);
	KUNIT_EXPECT_EQ(test, out.grant, 64U);
	/* version 3: whatever the field holds, no grant */
	p.version = 3;
	rdmachan_wire_conn_encode(&w, &p);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(w.grant), 0U);
	w.grant = cpu_to_be32(0xdead);
	KUNIT_EXPECT_EQ(test, rdmachan_wire_conn_decode(&w, sizeof(w), &out),
			RDMACHAN_REJ_NONE);
	KUNIT_EXPECT_EQ(test, out.version, 3);
	KUNIT_EXPECT_EQ(test, out.grant, 0U);
}

static void proto_test_conn_decode_null(struct kunit *test)
{
	struct rdmachan_conn_params out;

	KUNIT_EXPECT_EQ(test, rdmachan_wire_conn_decode(NULL, CONN_LEN, &out),
			RDMACHAN_REJ_BAD_MAGIC);
	KUNIT_EXPECT_EQ(test, rdmachan_wire_conn_decode(NULL, 0, &out),
			RDMACHAN_REJ_BAD_MAGIC);
}

/**
 * struct conn_case - one received connect private data image
 * @name: what the case shows
 * @magic: magic field
 * @version: version field
 * @flags: flags field
 * @depth: queue_depth field
 * @size: max_msg_size field
 * @len: bytes handed to the decoder (the image is 40 zero-padded bytes)
 * @want: the expected verdict
 */
struct conn_case {
	const char *name;
	u32 magic;
	u16 version;
	u16 flags;
	u32 depth;
	u32 size;
	size_t len;
	enum rdmachan_rej_reason want;
};

#define MAGIC	RDMACHAN_WIRE_MAGIC
#define VER	RDMACHAN_WIRE_VERSION
#define MAXD	RDMACHAN_MAX_DEPTH
#define FK	RDMACHAN_WIRE_F_KNOWN
#define HI	RDMACHAN_WIRE_F_HDR_IMM
#define SI	RDMACHAN_WIRE_F_SEND_INV

static const struct conn_case conn_cases[] = {
	{ "valid", MAGIC, VER, 0, 128, 65536, 32, RDMACHAN_REJ_NONE },
	{ "length 0", MAGIC, VER, 0, 128, 65536, 0, RDMACHAN_REJ_BAD_MAGIC },
	{ "length 8", MAGIC, VER, 0, 128, 65536, 8, RDMACHAN_REJ_BAD_MAGIC },
	{ "length 31", MAGIC, VER, 0, 128, 65536, 31, RDMACHAN_REJ_BAD_MAGIC },
	{ "length 33 (padded)", MAGIC, VER, 0, 128, 65536, 33, RDMACHAN_REJ_NONE },
	{ "length 40 (padded)", MAGIC, VER, 0, 128, 65536, 40, RDMACHAN_REJ_NONE },
	{ "magic 0", 0, VER, 0, 128, 65536, 32, RDMACHAN_REJ_BAD_MAGIC },
	{ "magic byte-swapped", 0x31484352, VER, 0, 128, 65536, 32,
	  RDMACHAN_REJ_BAD_MAGIC },
	{ "magic + 1", MAGIC + 1, VER, 0, 128, 65536, 32, RDMACHAN_REJ_BAD_MAGIC },
	{ "bad magic wins over bad version", 0, 0, 0, 128, 65536, 32,
	  RDMACHAN_REJ_BAD_MAGIC },
	{ "version 0", MAGIC, 0, 0, 128, 65536, 32, RDMACHAN_REJ_BAD_VERSION },
	{ "version 1 (no PAD)", MAGIC, 1, 0, 128, 65536, 32,
	  RDMACHAN_REJ_BAD_VERSION },
	{ "version 2 (no features)", MAGIC, 2, 0, 128, 65536, 32,
	  RDMACHAN_REJ_BAD_VERSION },
	{ "version 3 (no grants)", MAGIC, 3, 0, 128, 65536, 32,
	  RDMACHAN_REJ_NONE },
	{ "version 4 (F_FRAG both ways)", MAGIC, 4, 0, 128, 65536, 32,
	  RDMACHAN_REJ_NONE },
	{ "version 5 (no control credits)", MAGIC, 5, 0, 128, 65536, 32,
	  RDMACHAN_REJ_NONE },
	{ "version 7", MAGIC, 7, 0, 128, 65536, 32, RDMACHAN_REJ_BAD_VERSION },
	{ "version 0x0300 (3 byte-swapped)", MAGIC, 0x0300, 0, 128, 65536, 32,
	  RDMACHAN_REJ_BAD_VERSION },
	{ "version 0xffff", MAGIC, 0xffff, 0, 128, 65536, 32,
	  RDMACHAN_REJ_BAD_VERSION },
	{ "bad version wins over bad params", MAGIC, 7, 1, 0, 0, 32,
	  RDMACHAN_REJ_BAD_VERSION },
	{ "flags 0x0001", MAGIC, VER, 0x0001, 128, 65536, 32,
	  RDMACHAN_REJ_BAD_PARAMS },
	{ "flags 0x8000", MAGIC, VER, 0x8000, 128, 65536, 32,
	  RDMACHAN_REJ_BAD_PARAMS },
	{ "queue_depth 0", MAGIC, VER, 0, 0, 65536, 32, RDMACHAN_REJ_BAD_PARAMS },
	{ "queue_depth 1", MAGIC, VER, 0, 1, 65536, 32, RDMACHAN_REJ_NONE },
	{ "queue_depth max", MAGIC, VER, 0, MAXD, 65536, 32, RDMACHAN_REJ_NONE },
	{ "queue_depth max + 1", MAGIC, VER, 0, MAXD + 1, 65536, 32,
	  RDMACHAN_REJ_BAD_PARAMS },
	{ "queue_depth max << 16", MAGIC, VER, 0, MAXD << 16, 65536, 32,
	  RDMACHAN_REJ_BAD_PARAMS },
	{ "queue_depth U32_MAX", MAGIC, VER, 0, U32_MAX, 65536, 32,
	  RDMACHAN_REJ_BAD_PARAMS },
	{ "max_msg_size 0", MAGIC, VER, 0, 128, 0, 32, RDMACHAN_REJ_BAD_PARAMS },
	{ "max_msg_size 1", MAGIC, VER, 0, 128, 1, 32, RDMACHAN_REJ_NONE },
	{ "max_msg_size U32_MAX", MAGIC, VER, 0, 128, U32_MAX, 32,
	  RDMACHAN_REJ_NONE },
};

static void conn_case_desc(const struct conn_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(conn, conn_cases, conn_case_desc);

static void proto_test_conn_decode(struct kunit *test)
{
	const struct conn_case *c = test->param_value;
	struct rdmachan_conn_params out = { 0, 0 };
	u8 buf[40] = { 0 };

	put_be32(buf + 0, c->magic);
	put_be16(buf + 4, c->version);
	put_be16(buf + 6, c->flags);
	put_be32(buf + 8, c->depth);
	put_be32(buf + 12, c->size);
	put_be32(buf + 16, 0x80000000);	/* unknown feature: passed on */
	put_be32(buf + 20, 0x00000001);	/* HDR_IMM */
	put_be32(buf + 24, 1);		/* grant: one credit */
	KUNIT_ASSERT_LE(test, c->len, sizeof(buf));

	KUNIT_EXPECT_EQ(test, rdmachan_wire_conn_decode(buf, c->len, &out),
			c->want);
	if (c->want == RDMACHAN_REJ_NONE) {
		KUNIT_EXPECT_EQ(test, out.queue_depth, c->depth);
		KUNIT_EXPECT_EQ(test, out.max_msg_size, c->size);
		KUNIT_EXPECT_EQ(test, out.features,
				BIT_ULL(63) | RDMACHAN_WIRE_F_HDR_IMM);
	}
}

/* ---- rejection private data -------------------------------------------- */

static void proto_test_rej_encode_bytes(struct kunit *test)
{
	static const u8 want[8] = {
		'R', 'C', 'H', '1', 0x00, 0x06, 0x00, RDMACHAN_REJ_BACKLOG,
	};
	struct rdmachan_wire_rej w;

	memset(&w, 0xa5, sizeof(w));
	rdmachan_wire_rej_encode(&w, RDMACHAN_REJ_BACKLOG);
	expect_bytes(test, &w, want, sizeof(want));
}

static void proto_test_rej_roundtrip(struct kunit *test)
{
	struct rdmachan_wire_rej w;
	u8 padded[REJ_LEN + 4] = { 0 };
	int r;

	for (r = RDMACHAN_REJ_NONE; r <= RDMACHAN_REJ_REFUSED; r++) {
		rdmachan_wire_rej_encode(&w, r);
		KUNIT_EXPECT_EQ(test, rdmachan_wire_rej_decode(&w, sizeof(w)), r);
		memcpy(padded, &w, sizeof(w));
		KUNIT_EXPECT_EQ(test, rdmachan_wire_rej_decode(padded, sizeof(padded)), r);
	}
	/* A reason this version does not know still comes through. */
	rdmachan_wire_rej_encode(&w, 0xffff);
	KUNIT_EXPECT_EQ(test, rdmachan_wire_rej_decode(&w, sizeof(w)), 0xffff);
}

static void proto_test_rej_decode_foreign(struct kunit *test)
{
	struct rdmachan_wire_rej w;

	rdmachan_wire_rej_encode(&w, RDMACHAN_REJ_BACKLOG);
	KUNIT_EXPECT_EQ(test, rdmachan_wire_rej_decode(NULL, 0), -1);
	KUNIT_EXPECT_EQ(test, rdmachan_wire_rej_decode(NULL, sizeof(w)), -1);
	KUNIT_EXPECT_EQ(test, rdmachan_wire_rej_decode(&w, 0), -1);
	KUNIT_EXPECT_EQ(test, rdmachan_wire_rej_decode(&w, sizeof(w) - 1), -1);
	w.magic = cpu_to_be32(RDMACHAN_WIRE_MAGIC + 1);
	KUNIT_EXPECT_EQ(test, rdmachan_wire_rej_decode(&w, sizeof(w)), -1);
	w.magic = (__force __be32)RDMACHAN_WIRE_MAGIC;	/* host order */
	KUNIT_EXPECT_EQ(test, rdmachan_wire_rej_decode(&w, sizeof(w)), -1);
}

static void proto_test_rej_reason_str(struct kunit *test)
{
	const char *s[RDMACHAN_REJ_REFUSED + 2];
	int i, j;

	/* s[0] is -1 (no rdmachan listener), s[i] is reason i */
	s[0] = rdmachan_rej_reason_str(-1);
	for (i = RDMACHAN_REJ_BAD_MAGIC; i <= RDMACHAN_REJ_REFUSED; i++)
		s[i] = rdmachan_rej_reason_str(i);
	s[RDMACHAN_REJ_REFUSED + 1] = rdmachan_rej_reason_str(RDMACHAN_REJ_REFUSED + 1);

	for (i = 0; i < ARRAY_SIZE(s); i++) {
		if (i == RDMACHAN_REJ_NONE)
			continue;
		KUNIT_ASSERT_NOT_NULL(test, s[i]);
		KUNIT_EXPECT_GT(test, strlen(s[i]), 0);
		for (j = 0; j < i; j++) {
			if (j == RDMACHAN_REJ_NONE)
				continue;
			KUNIT_EXPECT_STRNEQ_MSG(test, s[i], s[j],
						"reasons %d and %d", i, j);
		}
	}
	KUNIT_EXPECT_STREQ(test, rdmachan_rej_reason_str(0xffff),
			   s[RDMACHAN_REJ_REFUSED + 1]);
	KUNIT_EXPECT_STREQ(test, rdmachan_rej_reason_str(-2),
			   s[RDMACHAN_REJ_REFUSED + 1]);
}

/* ---- negotiation ------------------------------------------------------- */

/**
 * struct nego_case - one negotiation
 * @name: what the case shows
 * @local: this side's offer
 * @remote: the peer's offer
 * @dev_max: the device's deepest queue
 * @want: the expected outcome
 */
struct nego_case {
	const char *name;
	struct rdmachan_conn_params local;
	struct rdmachan_conn_params remote;
	u32 dev_max;
	struct rdmachan_conn_params want;
};

static const struct nego_case nego_cases[] = {
	{ "remote smaller", { 128, 65536 }, { 64, 4096 }, 1024, { 64, 4096 } },
	{ "local smaller", { 64, 4096 }, { 128, 65536 }, 1024, { 64, 4096 } },
	{ "device smallest", { 128, 4096 }, { 256, 4096 }, 100, { 100, 4096 } },
	{ "mixed minima", { 16, 65536 }, { 512, 64 }, 1024, { 16, 64 } },
	{ "device max 0 clamps to 1", { 128, 64 }, { 128, 64 }, 0, { 1, 64 } },
	{ "offers 0 clamp to 1", { 0, 64 }, { 0, 64 }, 1024, { 1, 64 } },
	{ "all at max depth", { MAXD, 1 }, { MAXD, 1 }, MAXD, { MAXD, 1 } },
	{ "all past max depth clamp", { MAXD + 1, 1 }, { MAXD + 1, 1 }, MAXD + 1,
	  { MAXD, 1 } },
	{ "all U32_MAX", { U32_MAX, U32_MAX }, { U32_MAX, U32_MAX }, U32_MAX,
	  { MAXD, U32_MAX } },
	{ "size 1 and U32_MAX", { 8, 1 }, { 8, U32_MAX }, 8, { 8, 1 } },
	{ "features both offer", { 8, 64, 3 }, { 8, 64, 1 }, 8, { 8, 64, 1 } },
	{ "a feature one side lacks", { 8, 64, 1 }, { 8, 64, 0 }, 8,
	  { 8, 64, 0 } },
	{ "unknown features stay out", { 8, 64, FK }, { 8, 64, U64_MAX }, 8,
	  { 8, 64, FK } },
	{ "SEND_INV both offer", { 8, 64, FK }, { 8, 64, FK }, 8,
	  { 8, 64, FK } },
	{ "SEND_INV to an old peer", { 8, 64, FK }, { 8, 64, HI }, 8,
	  { 8, 64, HI } },
	{ "SEND_INV, a device without (not offered)", { 8, 64, HI },
	  { 8, 64, FK }, 8, { 8, 64, HI } },
	{ "SEND_INV without HDR_IMM", { 8, 64, SI }, { 8, 64, FK }, 8,
	  { 8, 64, SI } },
};

static void nego_case_desc(const struct nego_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(nego, nego_cases, nego_case_desc);

static void proto_test_negotiate(struct kunit *test)
{
	const struct nego_case *c = test->param_value;
	struct rdmachan_conn_params out, swapped;

	rdmachan_negotiate(&c->local, &c->remote, c->dev_max, &out);
	KUNIT_EXPECT_EQ(test, out.queue_depth, c->want.queue_depth);
	KUNIT_EXPECT_EQ(test, out.max_msg_size, c->want.max_msg_size);
	KUNIT_EXPECT_EQ(test, out.features, c->want.features);

	/* Both ends must arrive at the same parameters. */
	rdmachan_negotiate(&c->remote, &c->local, c->dev_max, &swapped);
	KUNIT_EXPECT_EQ(test, swapped.queue_depth, out.queue_depth);
	KUNIT_EXPECT_EQ(test, swapped.max_msg_size, out.max_msg_size);
	KUNIT_EXPECT_EQ(test, swapped.features, out.features);

	/* The outcome is always a valid connect request. */
	KUNIT_EXPECT_GE(test, out.queue_depth, 1);
	KUNIT_EXPECT_LE(test, out.queue_depth, MAXD);
}

/* ---- message header ---------------------------------------------------- */

/**
 * struct hdr_case - one received message
 * @name: what the case shows
 * @type: type field
 * @flags: flags field
 * @credits: credits field
 * @len: len field
 * @byte_len: bytes the receive completion reports
 * @max: the negotiated max_msg_size
 * @want: the expected verdict of rdmachan_wire_hdr_check()
 */
struct hdr_case {
	const char *name;
	u8 type;
	u8 flags;
	u16 credits;
	u32 len;
	u32 byte_len;
	u32 max;
	int want;
};

#define DATA	RDMACHAN_MSG_DATA
#define CREDIT	RDMACHAN_MSG_CREDIT
#define KALIVE	RDMACHAN_MSG_KEEPALIVE
#define H	((u32)HDR_LEN)

static const struct hdr_case hdr_cases[] = {
	/* byte_len against the header size */
	{ "byte_len 0", CREDIT, 0, 0, 0, 0, 4096, -EPROTO },
	{ "byte_len 0, len U32_MAX - 7", DATA, 0, 0, U32_MAX - 7, 0, U32_MAX,
	  -EPROTO },
	{ "byte_len header - 1", CREDIT, 0, 0, 0, H - 1, 4096, -EPROTO },
	{ "byte_len header", CREDIT, 0, 0, 0, H, 4096, 0 },
	/* type */
	{ "type 0", 0, 0, 0, 0, H, 4096, -EPROTO },
	{ "type DATA", DATA, 0, 0, 0, H, 4096, 0 },
	{ "type CREDIT", CREDIT, 0, 0, 0, H, 4096, 0 },
	{ "type KEEPALIVE", KALIVE, 0, 0, 0, H, 4096, 0 },
	{ "type CLOSE", RDMACHAN_MSG_CLOSE, 0, 0, 0, H, 4096, 0 },
	{ "type CLOSE with a payload", RDMACHAN_MSG_CLOSE, 0, 0, 1, H + 1, 4096,
	  -EPROTO },
	{ "type PAD", RDMACHAN_MSG_PAD, 0, 0, 0, H, 4096, 0 },
	{ "type PAD with a payload", RDMACHAN_MSG_PAD, 0, 0, 1, H + 1, 4096,
	  -EPROTO },
	{ "flags F_IMM on PAD", RDMACHAN_MSG_PAD, 0x01, 0, 0, H + 4, 4096,
	  -EPROTO },
	{ "type RETIRE", RDMACHAN_MSG_RETIRE, 0, 0, 0, H, 4096, 0 },
	/* F_WANT: a KEEPALIVE or CREDIT asking for a larger grant */
	{ "F_WANT on KEEPALIVE", KALIVE, 0x02, 0, 0, H, 4096, 0 },
	{ "F_WANT on CREDIT", CREDIT, 0x02, 3, 0, H, 4096, 0 },
	{ "F_WANT on DATA", DATA, 0x02, 0, 0, H, 4096, -EPROTO },
	{ "F_WANT on CLOSE", RDMACHAN_MSG_CLOSE, 0x02, 0, 0, H, 4096,
	  -EPROTO },
	{ "F_WANT on RETIRE", RDMACHAN_MSG_RETIRE, 0x02, 0, 0, H, 4096,
	  -EPROTO },
	{ "F_WANT | F_IMM on KEEPALIVE", KALIVE, 0x03, 0, 0, H, 4096,
	  -EPROTO },
	{ "F_WANT with a payload", KALIVE, 0x02, 0, 1, H + 1, 4096, -EPROTO },
	{ "type RETIRE with a payload", RDMACHAN_MSG_RETIRE, 0, 0, 1, H + 1,
	  4096, -EPROTO },
	{ "flags F_IMM on RETIRE", RDMACHAN_MSG_RETIRE, 0x01, 0, 0, H + 4, 4096,
	  -EPROTO },
	{ "type RETIRE + 1", RDMACHAN_MSG_RETIRE + 1, 0, 0, 0, H, 4096,
	  -EPROTO },
	{ "type 0x81", 0x81, 0, 0, 0, H, 4096, -EPROTO },
	{ "type 0xff", 0xff, 0, 0, 0, H, 4096, -EPROTO },
	/* flags; F_IMM: a 4-byte immediate after a DATA payload */
	{ "flags F_IMM without the trailer", DATA, 0x01, 0, 0, H, 4096, -EPROTO },
	{ "flags F_IMM, trailer - 1", DATA, 0x01, 0, 0, H + 3, 4096, -EPROTO },
	{ "flags F_IMM, empty DATA", DATA, 0x01, 0, 0, H + 4, 4096, 0 },
	/* a SEND_WITH_INV reply: header in band, its immediate a trailer */
	{ "SEND_INV reply: empty DATA, F_IMM, max 0", DATA, 0x01, 3, 0, H + 4,
	  0, 0 },
	{ "flags F_IMM, DATA len 100", DATA, 0x01, 0, 100, H + 104, 4096, 0 },
	{ "flags F_IMM, len counts the trailer", DATA, 0x01, 0, 104, H + 104, 4096,
	  -EPROTO },
	{ "flags F_IMM, largest DATA", DATA, 0x01, 0, 4096, H + 4100, 4096, 0 },
	{ "flags F_IMM, DATA over the largest", DATA, 0x01, 0, 4097, H + 4101, 4096,
	  -EPROTO },
	{ "flags F_IMM on CREDIT", CREDIT, 0x01, 0, 0, H + 4, 4096, -EPROTO },
	{ "flags 0x02 on DATA", DATA, 0x02, 0, 0, H, 4096, -EPROTO },
	/* F_MORE: a full fragment of a message that continues (F_FRAG) */
	{ "F_MORE, a full fragment", DATA, 0x04, 0, 4096, H + 4096, 65536, 0 },
	{ "F_MORE, a fragment - 1", DATA, 0x04, 0, 4095, H + 4095, 65536,
	  -EPROTO },
	{ "F_MORE, a fragment + 1", DATA, 0x04, 0, 4097, H + 4097, 65536,
	  -EPROTO },
	{ "F_MORE, empty", DATA, 0x04, 0, 0, H, 65536, -EPROTO },
	{ "F_MORE where a fragment is the largest", DATA, 0x04, 0, 4096,
	  H + 4096, 4096, -EPROTO },
	{ "F_MORE | F_IMM", DATA, 0x05, 0, 4096, H + 4100, 65536, -EPROTO },
	{ "F_MORE on CREDIT", CREDIT, 0x04, 0, 0, H, 4096, -EPROTO },
	{ "F_MORE on PAD", RDMACHAN_MSG_PAD, 0x04, 0, 0, H, 4096, -EPROTO },
	{ "F_MORE on RETIRE", RDMACHAN_MSG_RETIRE, 0x04, 0, 0, H, 4096,
	  -EPROTO },
	/* control credits returned (CACK, 0x18), beside the other flags */
	{ "CACK 1 on DATA", DATA, 0x08, 0, 0, H, 4096, 0 },
	{ "CACK 3 on DATA | F_IMM", DATA, 0x19, 0, 0, H + 4, 4096, 0 },
	{ "CACK 2 on DATA | F_MORE", DATA, 0x14, 0, 4096, H + 4096, 65536, 0 },
	{ "CACK 3 on CREDIT | F_WANT", CREDIT, 0x1a, 0, 0, H, 4096, 0 },
	{ "CACK 1 on CLOSE", RDMACHAN_MSG_CLOSE, 0x08, 0, 0, H, 4096, 0 },
	{ "CACK with F_IMM on CREDIT", CREDIT, 0x09, 0, 0, H, 4096, -EPROTO },
	{ "flags 0x20 on DATA", DATA, 0x20, 0, 0, H, 4096, -EPROTO },
	{ "flags 0x80", CREDIT, 0x80, 0, 0, H, 4096, -EPROTO },
	{ "flags 0xff", KALIVE, 0xff, 0, 0, H, 4096, -EPROTO },
	/* credits: any value is well-formed */
	{ "credits 1", CREDIT, 0, 1, 0, H, 4096, 0 },
	{ "credits 0xffff", CREDIT, 0, 0xffff, 0, H, 4096, 0 },
	{ "credits 0xffff on DATA", DATA, 0, 0xffff, 16, H + 16, 4096, 0 },
	/* len against byte_len */
	{ "DATA len 1", DATA, 0, 0, 1, H + 1, 4096, 0 },
	{ "DATA len < byte_len - header", DATA, 0, 0, 99, H + 100, 4096, -EPROTO },
	{ "DATA len > byte_len - header", DATA, 0, 0, 101, H + 100, 4096, -EPROTO },
	{ "DATA len U32_MAX, byte_len header", DATA, 0, 0, U32_MAX, H, U32_MAX,
	  -EPROTO },
	{ "DATA len byte-swapped", DATA, 0, 0, 0x64000000, H + 100, U32_MAX,
	  -EPROTO },
	/* len against max_msg_size */
	{ "DATA len max", DATA, 0, 0, 4096, H + 4096, 4096, 0 },
	{ "DATA len max + 1", DATA, 0, 0, 4097, H + 4097, 4096, -EPROTO },
	{ "DATA len 0, max 0", DATA, 0, 0, 0, H, 0, 0 },
	{ "DATA len 1, max 0", DATA, 0, 0, 1, H + 1, 0, -EPROTO },
	{ "DATA len U32_MAX - header, max U32_MAX", DATA, 0, 0, U32_MAX - H,
	  U32_MAX, U32_MAX, 0 },
	/* control messages carry no payload */
	{ "CREDIT len 1", CREDIT, 0, 0, 1, H + 1, 4096, -EPROTO },
	{ "CREDIT len 1, byte_len header", CREDIT, 0, 0, 1, H, 4096, -EPROTO },
	{ "KEEPALIVE len 1", KALIVE, 0, 0, 1, H + 1, 4096, -EPROTO },
	{ "KEEPALIVE len 4096", KALIVE, 0, 0, 4096, H + 4096, 4096, -EPROTO },
};

/* A message's fragments under F_FRAG: one per 4 KiB or part of it */
static void proto_test_frag_count(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, rdmachan_frag_count(0), 1);
	KUNIT_EXPECT_EQ(test, rdmachan_frag_count(1), 1);
	KUNIT_EXPECT_EQ(test, rdmachan_frag_count(4096), 1);
	KUNIT_EXPECT_EQ(test, rdmachan_frag_count(4097), 2);
	KUNIT_EXPECT_EQ(test, rdmachan_frag_count(65536), 16);
	KUNIT_EXPECT_EQ(test, rdmachan_frag_count(1 << 20), 256);
	/* the last fragment's immediate fits its buffer */
	KUNIT_EXPECT_EQ(test, RDMACHAN_FRAG_BUF,
			HDR_LEN + RDMACHAN_FRAG_PAYLOAD + RDMACHAN_IMM_TRAILER);
}

/**
 * struct frag_case - one side settling F_FRAG (rdmachan_frag_fit())
 * @name: description
 * @version: the wire version in force
 * @depth: the negotiated depth
 * @max: the negotiated largest message
 * @rx_frags: this side's user reads messages that span buffers
 * @frag_tx: the peer's buffers hold a fragment
 * @want_rx: small buffers here
 * @want_max: the largest message after
 */
struct frag_case {
	const char *name;
	u16 version;
	u32 depth;
	u32 max;
	bool rx_frags;
	bool frag_tx;
	bool want_rx;
	u32 want_max;
};

static const struct frag_case frag_cases[] = {
	{ "default /dev pair", 5, 128, 65536, true, true, true, 65536 },
	{ "kernel user serving a /dev peer", 5, 128, 65536, false, true, false,
	  65536 },
	{ "/dev user serving a kernel peer", 5, 128, 65536, true, false, true,
	  65536 },
	{ "kernel pair", 5, 128, 65536, false, false, false, 65536 },
	{ "largest message one fragment", 5, 128, 4096, true, true, false,
	  4096 },
	{ "4097 bytes: two fragments", 5, 2, 4097, true, false, true, 4097 },
	{ "depth 8 for 16 fragments, no peer's", 5, 8, 65536, true, false,
	  false, 65536 },
	{ "depth 8, the peer's small: 32 KiB", 5, 8, 65536, true, true, true,
	  32768 },
	{ "depth 1, the peer's small: one fragment", 5, 1, 65536, false, true,
	  false, 4096 },
	{ "depth 16384 of 1 MiB, no overflow", 5, 16384, 1 << 20, true, true,
	  true, 1 << 20 },
	{ "version 4: never", 4, 128, 65536, true, false, false, 65536 },
	{ "version 3: never", 3, 128, 65536, true, false, false, 65536 },
};

static void frag_case_desc(const struct frag_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(frag, frag_cases, frag_case_desc);

static void proto_test_frag_fit(struct kunit *test)
{
	const struct frag_case *c = test->param_value;
	struct rdmachan_conn_params p = {
		.version = c->version, .queue_depth = c->depth,
		.max_msg_size = c->max,
		/* the intersection may hold it; the fit decides */
		.features = RDMACHAN_WIRE_F_FRAG | RDMACHAN_WIRE_F_GROW,
	};
	bool rx = rdmachan_frag_fit(&p, c->rx_frags, c->frag_tx);

	KUNIT_EXPECT_EQ(test, rx, c->want_rx);
	KUNIT_EXPECT_EQ(test, !!(p.features & RDMACHAN_WIRE_F_FRAG), c->want_rx);
	KUNIT_EXPECT_TRUE(test, p.features & RDMACHAN_WIRE_F_GROW);
	KUNIT_EXPECT_EQ(test, p.max_msg_size, c->want_max);
	/* whichever side is small, the depth holds a largest message */
	if (rx || c->frag_tx)
		KUNIT_EXPECT_LE(test, rdmachan_frag_count(p.max_msg_size),
				p.queue_depth);
}

static void hdr_case_desc(const struct hdr_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(hdr, hdr_cases, hdr_case_desc);

static void proto_test_hdr_check(struct kunit *test)
{
	const struct hdr_case *c = test->param_value;
	struct rdmachan_wire_hdr h;
	u8 *b = (u8 *)&h;

	b[0] = c->type;
	b[1] = c->flags;
	put_be16(b + 2, c->credits);
	put_be32(b + 4, c->len);
	KUNIT_EXPECT_EQ(test, rdmachan_wire_hdr_check(&h, c->byte_len, c->max),
			c->want);
}

/* ---- message header in the immediate (RDMACHAN_WIRE_F_HDR_IMM) ----------- */

static void proto_test_hdr_to_imm_bytes(struct kunit *test)
{
	static const u8 want[4] = { RDMACHAN_MSG_DATA, 0x01, 0x12, 0x34 };
	struct rdmachan_wire_hdr h;
	__be32 imm;
	u8 *b = (u8 *)&h;

	b[0] = RDMACHAN_MSG_DATA;
	b[1] = RDMACHAN_HDR_F_IMM;
	put_be16(b + 2, 0x1234);
	put_be32(b + 4, 0xdeadbeef);	/* len does not travel */
	imm = rdmachan_wire_hdr_to_imm(&h);
	expect_bytes(test, &imm, want, sizeof(want));
}

/**
 * struct imm_case - one received SEND_WITH_IMM carrying the header
 * @name: what the case shows
 * @type: type byte of the immediate
 * @flags: flags byte of the immediate
 * @credits: credits of the immediate
 * @byte_len: bytes the receive completion reports
 * @max: the negotiated max_msg_size
 * @want: the expected verdict of rdmachan_wire_imm_check()
 * @len: on success, the payload length rebuilt into the header
 */
struct imm_case {
	const char *name;
	u8 type;
	u8 flags;
	u16 credits;
	u32 byte_len;
	u32 max;
	int want;
	u32 len;
};

static const struct imm_case imm_cases[] = {
	{ "CREDIT, empty", CREDIT, 0, 7, 0, 4096, 0, 0 },
	{ "CREDIT with a byte", CREDIT, 0, 0, 1, 4096, -EPROTO },
	{ "KEEPALIVE, empty", KALIVE, 0, 0, 0, 4096, 0, 0 },
	{ "CLOSE, empty", RDMACHAN_MSG_CLOSE, 0, 0, 0, 4096, 0, 0 },
	{ "PAD, empty", RDMACHAN_MSG_PAD, 0, 1, 0, 4096, 0, 0 },
	{ "PAD with F_IMM", RDMACHAN_MSG_PAD, 0x01, 0, 4, 4096, -EPROTO },
	{ "type 0", 0, 0, 0, 0, 4096, -EPROTO },
	{ "RETIRE, empty", RDMACHAN_MSG_RETIRE, 0, 0, 0, 4096, 0 },
	{ "type RETIRE + 1", RDMACHAN_MSG_RETIRE + 1, 0, 0, 0, 4096, -EPROTO },
	{ "type 0xff", 0xff, 0, 0, 0, 4096, -EPROTO },
	{ "DATA, empty", DATA, 0, 0, 0, 4096, 0, 0 },
	{ "DATA, 1 byte", DATA, 0, 0, 1, 4096, 0, 1 },
	{ "DATA, largest", DATA, 0, 0xffff, 4096, 4096, 0, 4096 },
	{ "DATA, largest + 1", DATA, 0, 0, 4097, 4096, -EPROTO },
	{ "DATA F_IMM, empty", DATA, 0x01, 0, 4, 4096, 0, 0 },
	{ "DATA F_IMM, trailer - 1", DATA, 0x01, 0, 3, 4096, -EPROTO },
	{ "DATA F_IMM, nothing", DATA, 0x01, 0, 0, 4096, -EPROTO },
	{ "DATA F_IMM, largest", DATA, 0x01, 0, 4100, 4096, 0, 4096 },
	{ "DATA F_IMM, largest + 1", DATA, 0x01, 0, 4101, 4096, -EPROTO },
	{ "DATA flags 0x02", DATA, 0x02, 0, 8, 4096, -EPROTO },
	{ "DATA F_MORE, a full fragment", DATA, 0x04, 0, 4096, 8192, 0, 4096 },
	{ "DATA F_MORE, short", DATA, 0x04, 0, 4000, 8192, -EPROTO },
	{ "DATA F_MORE | F_IMM", DATA, 0x05, 0, 4100, 8192, -EPROTO },
	{ "CREDIT F_IMM", CREDIT, 0x01, 0, 4, 4096, -EPROTO },
	{ "DATA F_IMM | CACK 3, largest", DATA, 0x19, 0, 4100, 4096, 0, 4096 },
	{ "DATA CACK 2, 4 bytes: no trailer", DATA, 0x10, 0, 4, 4096, 0, 4 },
	{ "KEEPALIVE CACK 1", KALIVE, 0x08, 0, 0, 4096, 0, 0 },
	{ "byte_len U32_MAX", DATA, 0, 0, U32_MAX, U32_MAX, -EPROTO },
	{ "byte_len U32_MAX - header", DATA, 0, 0, U32_MAX - H, U32_MAX, 0,
	  U32_MAX - H },
};

static void imm_case_desc(const struct imm_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(imm, imm_cases, imm_case_desc);

static void proto_test_imm_check(struct kunit *test)
{
	const struct imm_case *c = test->param_value;
	struct rdmachan_wire_hdr h;
	u8 b[4];
	__be32 imm;

	b[0] = c->type;
	b[1] = c->flags;
	put_be16(b + 2, c->credits);
	memcpy(&imm, b, sizeof(imm));
	KUNIT_EXPECT_EQ(test, rdmachan_wire_imm_check(imm, c->byte_len, c->max,
						      &h), c->want);
	if (c->want)
		return;
	KUNIT_EXPECT_EQ(test, h.type, c->type);
	KUNIT_EXPECT_EQ(test, h.flags, c->flags);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(h.credits), c->credits);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(h.len), c->len);
	/* what goes out comes back */
	KUNIT_EXPECT_EQ(test, rdmachan_wire_hdr_to_imm(&h), imm);
}

static struct kunit_case proto_wire_cases[] = {
	KUNIT_CASE(proto_test_sizes),
	KUNIT_CASE(proto_test_conn_encode_bytes),
	KUNIT_CASE(proto_test_conn_grant),
	KUNIT_CASE(proto_test_conn_roundtrip),
	KUNIT_CASE(proto_test_feature_bits),
	KUNIT_CASE(proto_test_conn_decode_null),
	KUNIT_CASE_PARAM(proto_test_conn_decode, conn_gen_params),
	KUNIT_CASE(proto_test_rej_encode_bytes),
	KUNIT_CASE(proto_test_rej_roundtrip),
	KUNIT_CASE(proto_test_rej_decode_foreign),
	KUNIT_CASE(proto_test_rej_reason_str),
	{}
};

static struct kunit_suite proto_wire_suite = {
	.name = "rdmachan_proto_wire",
	.test_cases = proto_wire_cases,
};

static struct kunit_case proto_negotiate_cases[] = {
	KUNIT_CASE_PARAM(proto_test_negotiate, nego_gen_params),
	{}
};

static struct kunit_suite proto_negotiate_suite = {
	.name = "rdmachan_proto_negotiate",
	.test_cases = proto_negotiate_cases,
};

static struct kunit_case proto_hdr_cases[] = {
	KUNIT_CASE_PARAM(proto_test_hdr_check, hdr_gen_params),
	KUNIT_CASE(proto_test_frag_count),
	KUNIT_CASE_PARAM(proto_test_frag_fit, frag_gen_params),
	{}
};

static struct kunit_case proto_imm_cases[] = {
	KUNIT_CASE(proto_test_hdr_to_imm_bytes),
	KUNIT_CASE_PARAM(proto_test_imm_check, imm_gen_params),
	{}
};

static struct kunit_suite proto_imm_suite = {
	.name = "rdmachan_proto_imm",
	.test_cases = proto_imm_cases,
};

static struct kunit_suite proto_hdr_suite = {
	.name = "rdmachan_proto_hdr",
	.test_cases = proto_hdr_cases,
};

kunit_test_suites(&proto_wire_suite, &proto_negotiate_suite, &proto_hdr_suite,
		  &proto_imm_suite);

MODULE_DESCRIPTION("KUnit tests of rdmachan's pure logic");
MODULE_LICENSE("GPL");
