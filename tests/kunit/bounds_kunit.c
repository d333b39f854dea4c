// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite for module/chan/bounds.h: the sizes and counts rdmachan computes
 * from user or peer input, at and around their wrap points.  Two defects
 * it pins down: a registration of length ~0 at an address below 4096
 * whose page count wrapped to 0 (REG_MR crashed the kernel), and inline
 * segments whose u32 sum wrapped to 0 (a 1-byte buffer then overrun).
 */
#include "../../module/chan/bounds.h"

#include <kunit/test.h>
#include <linux/kernel.h>

struct span_case {
	const char *desc;
	u64 addr;
	u64 length;
	u64 max;
	int ret;
	unsigned long npages;
};

#define MAX_MR	(1ULL << 30)

static const struct span_case span_cases[] = {
	{ "one byte", 0x1000, 1, MAX_MR, 0, 1 },
	{ "one page, aligned", 0x1000, PAGE_SIZE, MAX_MR, 0, 1 },
	{ "one page, unaligned", 0x1001, PAGE_SIZE, MAX_MR, 0, 2 },
	{ "last byte of a page", 0x1fff, 1, MAX_MR, 0, 1 },
	{ "two bytes across a page end", 0x1fff, 2, MAX_MR, 0, 2 },
	{ "length 0", 0x1000, 0, MAX_MR, -EINVAL, 0 },
	{ "exactly the maximum", 0, MAX_MR, MAX_MR, 0, MAX_MR / PAGE_SIZE },
	{ "maximum, unaligned", 1, MAX_MR, MAX_MR, 0, MAX_MR / PAGE_SIZE + 1 },
	{ "one byte over the maximum", 0, MAX_MR + 1, MAX_MR, -E2BIG, 0 },
	/* the page count of these wrapped to 0 before the fix */
	{ "addr 0, length ~0", 0, U64_MAX, MAX_MR, -E2BIG, 0 },
	{ "addr 1, length 2^64 - 4096", 1, U64_MAX - PAGE_SIZE + 1, MAX_MR,
	  -E2BIG, 0 },
	{ "addr 4095, length 2^64 - 4096", 4095, U64_MAX - PAGE_SIZE + 1,
	  MAX_MR, -E2BIG, 0 },
	{ "range wraps", U64_MAX, 2, MAX_MR, -EINVAL, 0 },
	{ "range ends at 2^64", U64_MAX - 9, 10, MAX_MR, -EINVAL, 0 },
	{ "range ends just below 2^64", U64_MAX - 10, 10, MAX_MR, 0, 1 },
};

static void span_desc(const struct span_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(span, span_cases, span_desc);

static void bounds_test_span_pages(struct kunit *test)
{
	const struct span_case *c = test->param_value;
	unsigned long npages = 0xdead;
	int ret;

	ret = rdmachan_span_pages(c->addr, c->length, c->max, &npages);
	KUNIT_EXPECT_EQ(test, ret, c->ret);
	if (!c->ret) {
		KUNIT_EXPECT_EQ(test, npages, c->npages);
		KUNIT_EXPECT_GT(test, npages, 0UL);
	} else {
		KUNIT_EXPECT_EQ(test, npages, 0xdeadUL);
	}
}

/* Every range the maximum allows spans at least one and at most max/4K+1 pages */
static void bounds_test_span_pages_sweep(struct kunit *test)
{
	static const u64 lens[] = { 1, 2, PAGE_SIZE - 1, PAGE_SIZE,
				    PAGE_SIZE + 1, MAX_MR - 1, MAX_MR };
	unsigned long npages;
	unsigned int i, off;

	for (i = 0; i < ARRAY_SIZE(lens); i++)
		for (off = 0; off < PAGE_SIZE; off += 511) {
			KUNIT_ASSERT_EQ(test, rdmachan_span_pages(off, lens[i],
								  MAX_MR,
								  &npages), 0);
			KUNIT_EXPECT_GE(test, (u64)npages * PAGE_SIZE,
					(u64)off % PAGE_SIZE + lens[i]);
			KUNIT_EXPECT_LT(test, (u64)(npages - 1) * PAGE_SIZE,
					(u64)off % PAGE_SIZE + lens[i]);
		}
}

static void bounds_test_segs_len(struct kunit *test)
{
	struct rdmachan_seg segs[RDMACHAN_MAX_SGE] = {};
	unsigned int i;
	u32 len = 0xdead;

	/* sixteen segments of 256 MiB: 2^32, which a u32 sum wraps to 0 */
	for (i = 0; i < ARRAY_SIZE(segs); i++)
		segs[i].length = 256U << 20;
	KUNIT_EXPECT_EQ(test, rdmachan_segs_len(segs, ARRAY_SIZE(segs), 256,
						&len), -EINVAL);
	KUNIT_EXPECT_EQ(test, len, 0xdeadU);
	/* ... and even with no limit the sum is refused, not wrapped */
	KUNIT_EXPECT_EQ(test, rdmachan_segs_len(segs, ARRAY_SIZE(segs),
						U32_MAX, &len), -EINVAL);

	/* two of 2^31: exactly 2^32 */
	segs[0].length = 1U << 31;
	segs[1].length = 1U << 31;
	KUNIT_EXPECT_EQ(test, rdmachan_segs_len(segs, 2, U32_MAX, &len),
			-EINVAL);
	/* U32_MAX and 1: wraps to 0 in a u32 */
	segs[0].length = U32_MAX;
	segs[1].length = 1;
	KUNIT_EXPECT_EQ(test, rdmachan_segs_len(segs, 2, U32_MAX, &len),
			-EINVAL);
	/* U32_MAX alone fits a limit of U32_MAX */
	KUNIT_EXPECT_EQ(test, rdmachan_segs_len(segs, 1, U32_MAX, &len), 0);
	KUNIT_EXPECT_EQ(test, len, U32_MAX);

	/* at and one past an inline limit */
	segs[0].length = 100;
	segs[1].length = 156;
	KUNIT_EXPECT_EQ(test, rdmachan_segs_len(segs, 2, 256, &len), 0);
	KUNIT_EXPECT_EQ(test, len, 256U);
	segs[1].length = 157;
	KUNIT_EXPECT_EQ(test, rdmachan_segs_len(segs, 2, 256, &len), -EINVAL);
	/* no segments: zero bytes */
	KUNIT_EXPECT_EQ(test, rdmachan_segs_len(segs, 0, 256, &len), 0);
	KUNIT_EXPECT_EQ(test, len, 0U);
}

/*
 * What a message buffer takes: kmalloc()'s rounding up to its largest
 * cache, whole pages beyond (the default 64 KiB message: 17 pages)
 */
static void bounds_test_buf_bytes(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, rdmachan_buf_bytes(1), kmalloc_size_roundup(1));
	KUNIT_EXPECT_EQ(test, rdmachan_buf_bytes(76), kmalloc_size_roundup(76));
	KUNIT_EXPECT_EQ(test, rdmachan_buf_bytes(KMALLOC_MAX_CACHE_SIZE),
			(size_t)KMALLOC_MAX_CACHE_SIZE);
	KUNIT_EXPECT_EQ(test, rdmachan_buf_bytes(KMALLOC_MAX_CACHE_SIZE + 1),
			PAGE_ALIGN(KMALLOC_MAX_CACHE_SIZE + 1));
	KUNIT_EXPECT_EQ(test, rdmachan_buf_bytes(8 + 65536 + 4),
			(size_t)17 * PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, rdmachan_buf_bytes(8 + (1 << 20) + 4),
			(size_t)(1 << 20) + PAGE_SIZE);
	/* receiving into pages: a power of two pages, or the send buffer */
	KUNIT_EXPECT_EQ(test, rdmachan_chan_buf_bytes(8 + 65536 + 4, true),
			(size_t)128 << 10);
	KUNIT_EXPECT_EQ(test, rdmachan_chan_buf_bytes(65536, true),
			(size_t)64 << 10);
	KUNIT_EXPECT_EQ(test, rdmachan_chan_buf_bytes(8 + 65536 + 4, false),
			(size_t)17 * PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, rdmachan_chan_buf_bytes(100, true),
			(size_t)PAGE_SIZE);
}

/*
 * The depth a channel offers under its buffer budget: two buffers a credit
 * plus the control ones must fit, and a single credit is always allowed.
 */
static void bounds_test_depth_for_mem(struct kunit *test)
{
	const u64 mib = 1 << 20;

	/* the defaults: 128 credits of 128 KiB buffers fit 64 MiB */
	KUNIT_EXPECT_EQ(test, rdmachan_depth_for_mem(128, 128 << 10, 3, 64 * mib),
			128U);
	/* (2 * 126 + 3) * 128 KiB = 31.875 MiB: 126 fits 32 MiB, 127 not */
	KUNIT_EXPECT_EQ(test, rdmachan_depth_for_mem(16384, 128 << 10, 3,
						     32 * mib), 126U);
	KUNIT_EXPECT_EQ(test, rdmachan_depth_for_mem(126, 128 << 10, 3,
						     32 * mib), 126U);
	/* the largest ask: 16384 credits of 1 MiB messages (2 MiB buffers) */
	KUNIT_EXPECT_EQ(test, rdmachan_depth_for_mem(16384, 2 * mib, 3,
						     64 * mib), 14U);
	/* exactly at the edge: 2 * 14 + 3 = 31 buffers, 32 fit */
	KUNIT_EXPECT_EQ(test, rdmachan_depth_for_mem(16384, 2 * mib, 3,
						     31 * 2 * mib), 14U);
	KUNIT_EXPECT_EQ(test, rdmachan_depth_for_mem(16384, 2 * mib, 3,
						     31 * 2 * mib - 1), 13U);
	/* a budget below the control buffers still allows one credit */
	KUNIT_EXPECT_EQ(test, rdmachan_depth_for_mem(16384, 2 * mib, 3, mib),
			1U);
	KUNIT_EXPECT_EQ(test, rdmachan_depth_for_mem(16384, 2 * mib, 3, 0), 1U);
	/* a huge budget never raises the depth asked for */
	KUNIT_EXPECT_EQ(test, rdmachan_depth_for_mem(7, 64, 3, U64_MAX), 7U);
	/* huge buffers: no overflow in the product */
	KUNIT_EXPECT_EQ(test, rdmachan_depth_for_mem(16384, U64_MAX, 3, U64_MAX),
			1U);
}

static void bounds_test_rd_atom_answer(struct kunit *test)
{
	/* rxe to rxe: 128 allowed, 16 offered, 16 asked: 16 */
	KUNIT_EXPECT_EQ(test, rdmachan_rd_atom_answer(128, 16), 16);
	/* a peer with 4 responder resources: never more than 4 READs */
	KUNIT_EXPECT_EQ(test, rdmachan_rd_atom_answer(128, 4), 4);
	/* our device allows fewer than the peer asks */
	KUNIT_EXPECT_EQ(test, rdmachan_rd_atom_answer(8, 16), 8);
	/* the active side: only the device and the cap limit it */
	KUNIT_EXPECT_EQ(test, rdmachan_rd_atom_answer(128, U8_MAX), 16);
	/* a peer that does no READs: no resources for it */
	KUNIT_EXPECT_EQ(test, rdmachan_rd_atom_answer(128, 0), 0);
	/* a device reporting nonsense */
	KUNIT_EXPECT_EQ(test, rdmachan_rd_atom_answer(-1, 16), 0);
}

/* The fixed room of a channel: rdmachan-pri.h's and proto.h's figures */
#define QP_WANT(d, r, f, max)						\
	((struct rdmachan_qp_want){ .depth = (d), .regs = (r),		\
				    .reg_fence = (f), .dev_max_wr = (max), \
				    .ctrl_recv = 3, .ctrl_send = 3,	\
				    .rdma_slots = 64 })

static void bounds_test_qp_sizes(struct kunit *test)
{
	struct rdmachan_qp_want w;
	struct rdmachan_qp_sizes s;

	/* rxe, no registrations: no fence, no registration QP */
	w = QP_WANT(128, 0, true, 16383);
	KUNIT_ASSERT_EQ(test, rdmachan_qp_sizes(&w, &s), 0);
	KUNIT_EXPECT_EQ(test, s.depth, 128);
	KUNIT_EXPECT_EQ(test, s.per_send, 1);
	KUNIT_EXPECT_EQ(test, s.rdma_fence, 0);
	KUNIT_EXPECT_EQ(test, s.recv_bufs, 131);
	/* 196 entries ask for 255: the one-sided room takes the rest */
	KUNIT_EXPECT_EQ(test, s.rdma_slots, 64 + 59);
	KUNIT_EXPECT_EQ(test, s.send_wr, 128 + 3 + 1 + 123);
	KUNIT_EXPECT_EQ(test, s.send_wr, 255);
	KUNIT_EXPECT_EQ(test, s.recv_wr, 132);
	KUNIT_EXPECT_EQ(test, s.cqe, 131 + 128 + 3 + 2 + 123);
	KUNIT_EXPECT_EQ(test, s.recv_cqe, 132);
	KUNIT_EXPECT_EQ(test, s.reg_wr, 0);
	KUNIT_EXPECT_EQ(test, s.reg_cqe, 0);

	/* rxe, two registrations a send (a block channel): fenced */
	w = QP_WANT(128, 2, true, 16383);
	KUNIT_ASSERT_EQ(test, rdmachan_qp_sizes(&w, &s), 0);
	KUNIT_EXPECT_EQ(test, s.per_send, 1 + 2 * 2 + 1);
	/* 900 entries ask for 1023: two a slot, one left unused */
	KUNIT_EXPECT_EQ(test, s.rdma_slots, 64 + 61);
	KUNIT_EXPECT_EQ(test, s.rdma_fence, 125);
	KUNIT_EXPECT_EQ(test, s.send_wr, 128 * 6 + 3 + 1 + 125 + 125);
	KUNIT_EXPECT_EQ(test, s.reg_wr, 2 * 128 * 2 + 1);
	KUNIT_EXPECT_EQ(test, s.reg_cqe, s.reg_wr + 1);

	/* siw or hardware: registrations without fence or registration QP */
	w = QP_WANT(128, 2, false, 16383);
	KUNIT_ASSERT_EQ(test, rdmachan_qp_sizes(&w, &s), 0);
	KUNIT_EXPECT_EQ(test, s.per_send, 1 + 2 * 2);
	KUNIT_EXPECT_EQ(test, s.rdma_fence, 0);
	KUNIT_EXPECT_EQ(test, s.reg_wr, 0);

	/*
	 * a small device lowers the depth: 300 - 72 - 64 = 164 = 27 * 6 + 2,
	 * and the one-sided room fills the device's limit
	 */
	w = QP_WANT(128, 2, true, 300);
	KUNIT_ASSERT_EQ(test, rdmachan_qp_sizes(&w, &s), 0);
	KUNIT_EXPECT_EQ(test, s.depth, 27);
	KUNIT_EXPECT_EQ(test, s.rdma_slots, 67);
	KUNIT_EXPECT_EQ(test, s.send_wr, 300);

	/* one credit's send and the fixed room, or nothing */
	w = QP_WANT(128, 0, true, 3 + 3 + 64 + 2 + 1);
	KUNIT_EXPECT_EQ(test, rdmachan_qp_sizes(&w, &s), -EOPNOTSUPP);
	w = QP_WANT(128, 0, true, 3 + 3 + 64 + 2 + 2);
	KUNIT_ASSERT_EQ(test, rdmachan_qp_sizes(&w, &s), 0);
	KUNIT_EXPECT_EQ(test, s.depth, 2);
	/* ... and room for the one-sided fence and one send's 4 entries */
	w = QP_WANT(128, 1, true, 3 + 3 + 64 + 2 + 64 + 3);
	KUNIT_EXPECT_EQ(test, rdmachan_qp_sizes(&w, &s), -EOPNOTSUPP);
	w = QP_WANT(128, 1, true, 3 + 3 + 64 + 2 + 64 + 4);
	KUNIT_ASSERT_EQ(test, rdmachan_qp_sizes(&w, &s), 0);
	KUNIT_EXPECT_EQ(test, s.depth, 1);
	/* no registration QP's send queue without room for a send's */
	w = QP_WANT(128, 4, false, 3 + 3 + 64 + 2 + 8);
	KUNIT_EXPECT_EQ(test, rdmachan_qp_sizes(&w, &s), -EOPNOTSUPP);

	/* the listener's estimate: no device limit, the largest depth */
	w = QP_WANT(16384, 4, true, U32_MAX);
	KUNIT_ASSERT_EQ(test, rdmachan_qp_sizes(&w, &s), 0);
	KUNIT_EXPECT_EQ(test, s.depth, 16384);
	KUNIT_EXPECT_EQ(test, s.reg_wr, 2 * 16384 * 4 + 1);
}

/* The one-sided room fills a send queue of 2^k - 1 entries */
static void bounds_test_rdma_fill(struct kunit *test)
{
	/* 132 + 64 = 196 entries: a queue of 255 */
	KUNIT_EXPECT_EQ(test, rdmachan_rdma_fill(132, 64, 1, 16383), 123);
	/* already 2^k - 1: nothing to fill */
	KUNIT_EXPECT_EQ(test, rdmachan_rdma_fill(191, 64, 1, 16383), 64);
	/* one over: the next power of two */
	KUNIT_EXPECT_EQ(test, rdmachan_rdma_fill(192, 64, 1, 16383), 319);
	/* two entries a slot: the odd one left over */
	KUNIT_EXPECT_EQ(test, rdmachan_rdma_fill(132, 64, 2, 16383), 189);
	/* the device's limit bounds it */
	KUNIT_EXPECT_EQ(test, rdmachan_rdma_fill(132, 64, 1, 200), 68);
	KUNIT_EXPECT_EQ(test, rdmachan_rdma_fill(132, 64, 1, 196), 64);
	/* no limit to speak of, or a huge queue: no rounding */
	KUNIT_EXPECT_EQ(test, rdmachan_rdma_fill(132, 64, 1, U32_MAX), 123);
	KUNIT_EXPECT_EQ(test, rdmachan_rdma_fill(SZ_1G, 64, 1, U32_MAX), 64);
}

/*
 * Over every device limit from too small to roomy, every registration
 * count and both fences: a granted depth is at least 1 and at most the
 * one wanted, the send queue fits the device, and the CQ holds a
 * completion for every entry of both queues (and fits the device's
 * max_cqe, of which dev_max_wr is half).
 */
static void bounds_test_qp_sizes_sweep(struct kunit *test)
{
	u32 max, regs, fence, per;

	for (max = 1; max <= 2048; max++)
		for (regs = 0; regs <= 4; regs++)
			for (fence = 0; fence <= 1; fence++) {
				struct rdmachan_qp_want w =
					QP_WANT(128, regs, fence, max);
				struct rdmachan_qp_sizes s;

				if (rdmachan_qp_sizes(&w, &s))
					continue;
				KUNIT_ASSERT_GE(test, s.depth, 1);
				KUNIT_ASSERT_LE(test, s.depth, 128);
				KUNIT_ASSERT_LE(test, s.send_wr, max);
				KUNIT_ASSERT_EQ(test, s.cqe,
						s.send_wr + s.recv_wr);
				KUNIT_ASSERT_LE(test, s.cqe, 2 * max);
				KUNIT_ASSERT_EQ(test, s.recv_wr,
						s.depth + 3 + 1);
				if (s.reg_wr)
					KUNIT_ASSERT_EQ(test, s.reg_wr,
							2 * s.depth * regs + 1);
				if (max >= 128 * s.per_send + 3 + 3 + 64 + 2 +
					   (fence && regs ? 64 : 0))
					KUNIT_ASSERT_EQ(test, s.depth, 128);
				/* the room, filled up to 2^k - 1 or the limit */
				per = s.rdma_fence ? 2 : 1;
				KUNIT_ASSERT_GE(test, s.rdma_slots, 64);
				KUNIT_ASSERT_EQ(test, s.rdma_fence,
						per == 2 ? s.rdma_slots : 0);
				KUNIT_ASSERT_TRUE(test, s.send_wr + per > max ||
						  s.send_wr + per >
						  roundup_pow_of_two(s.send_wr +
								     1) - 1);
			}
}

static struct kunit_case bounds_cases[] = {
	KUNIT_CASE_PARAM(bounds_test_span_pages, span_gen_params),
	KUNIT_CASE(bounds_test_span_pages_sweep),
	KUNIT_CASE(bounds_test_segs_len),
	KUNIT_CASE(bounds_test_buf_bytes),
	KUNIT_CASE(bounds_test_depth_for_mem),
	KUNIT_CASE(bounds_test_rd_atom_answer),
	KUNIT_CASE(bounds_test_qp_sizes),
	KUNIT_CASE(bounds_test_rdma_fill),
	KUNIT_CASE(bounds_test_qp_sizes_sweep),
	{}
};

static struct kunit_suite bounds_suite = {
	.name = "rdmachan_bounds",
	.test_cases = bounds_cases,
};
kunit_test_suite(bounds_suite);
