// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite for module/chan/rx_layout.h: how a split receive buffer (an
 * order-0 page and its slot's wire area) is scattered into, in both
 * header formats, and where an in-band immediate that follows a payload
 * of each length is read from: in the page, across its end, past it.
 * The scatter list is replayed over a byte stream as a device would, so
 * that a wrong entry shows as a wrong byte; a send's gather list from the
 * same pieces leaves out the empty ones.
 */
#include "../../module/chan/rx_layout.h"

#include <kunit/test.h>
#include <linux/slab.h>

#define PAGE_DMA	0x100000ULL
#define WIRE_DMA	0x200000ULL

struct split_buf {
	u8 page[RDMACHAN_FRAG_PAYLOAD];
	u8 wire[RDMACHAN_RX_WIRE];
};

/* Scatter @len bytes of @wire_bytes over @sge as the device would */
static int scatter(struct split_buf *b, const struct ib_sge *sge, u32 n,
		   const u8 *wire_bytes, u32 len)
{
	u32 i, done = 0;

	for (i = 0; i < n && done < len; i++) {
		u32 chunk = min(len - done, sge[i].length);
		u8 *to;

		if (sge[i].addr >= WIRE_DMA)
			to = b->wire + (sge[i].addr - WIRE_DMA);
		else
			to = b->page + (sge[i].addr - PAGE_DMA);
		memcpy(to, wire_bytes + done, chunk);
		done += chunk;
	}
	return done == len ? 0 : -EMSGSIZE;
}

/* The scatter lists hold exactly the buffer's bytes, in wire order */
static void rx_layout_test_sges(struct kunit *test)
{
	struct ib_sge sge[RDMACHAN_RX_SPLIT_SGES];
	u32 n, total, i;

	n = rdmachan_rx_split_sges(false, PAGE_DMA, WIRE_DMA, 7, sge);
	KUNIT_ASSERT_EQ(test, n, 3U);
	KUNIT_EXPECT_EQ(test, sge[0].addr, WIRE_DMA);
	KUNIT_EXPECT_EQ(test, sge[0].length, 8U);
	KUNIT_EXPECT_EQ(test, sge[1].addr, PAGE_DMA);
	KUNIT_EXPECT_EQ(test, sge[1].length, (u32)RDMACHAN_FRAG_PAYLOAD);
	KUNIT_EXPECT_EQ(test, sge[2].addr, WIRE_DMA + 8);
	KUNIT_EXPECT_EQ(test, sge[2].length, 4U);
	for (i = 0, total = 0; i < n; i++) {
		KUNIT_EXPECT_EQ(test, sge[i].lkey, 7U);
		total += sge[i].length;
	}
	KUNIT_EXPECT_EQ(test, total, (u32)RDMACHAN_FRAG_BUF);

	n = rdmachan_rx_split_sges(true, PAGE_DMA, WIRE_DMA, 7, sge);
	KUNIT_ASSERT_EQ(test, n, 2U);
	KUNIT_EXPECT_EQ(test, sge[0].addr, PAGE_DMA);
	KUNIT_EXPECT_EQ(test, sge[1].addr, WIRE_DMA + 8);
	KUNIT_EXPECT_EQ(test, sge[0].length + sge[1].length,
			(u32)(RDMACHAN_FRAG_BUF - 8));
}

/*
 * Every payload length from 4080 to the largest, in both formats: the
 * header reads back from the wire area, the payload whole from the
 * page's start, the immediate from wherever it fell.
 */
static void rx_layout_test_read(struct kunit *test)
{
	struct ib_sge sge[RDMACHAN_RX_SPLIT_SGES];
	struct split_buf *b;
	u8 *msg;
	u32 len, n;
	int hdr_imm;

	b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	msg = kunit_kzalloc(test, RDMACHAN_FRAG_BUF, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, b);
	KUNIT_ASSERT_NOT_NULL(test, msg);
	for (hdr_imm = 0; hdr_imm < 2; hdr_imm++) {
		u32 hdr = hdr_imm ? 0 : 8;

		n = rdmachan_rx_split_sges(hdr_imm, PAGE_DMA, WIRE_DMA, 0, sge);
		for (len = 4080; len <= RDMACHAN_FRAG_PAYLOAD; len++) {
			u32 i, imm = 0xa1b2c3d4 ^ len, got;

			memset(b, 0, sizeof(*b));
			for (i = 0; i < hdr; i++)
				msg[i] = 0xe0 + i;
			for (i = 0; i < len; i++)
				msg[hdr + i] = (u8)(i * 7 + len);
			memcpy(msg + hdr + len, &imm, sizeof(imm));
			KUNIT_ASSERT_EQ(test, scatter(b, sge, n, msg,
						      hdr + len + 4), 0);
			KUNIT_EXPECT_EQ(test, memcmp(b->wire, msg, hdr), 0);
			KUNIT_EXPECT_EQ(test, memcmp(b->page, msg + hdr, len),
					0);
			rdmachan_rx_split_read(&got, b->page, b->wire, len,
					       sizeof(got));
			KUNIT_EXPECT_EQ_MSG(test, got, imm, "len %u hdr_imm %d",
					    len, hdr_imm);
		}
	}
}

/*
 * A send's gather list from the same pieces: the header unless it is the
 * immediate, the payload only when there is one, the immediate only when
 * it travels in band; every byte in wire order
 */
static void rx_layout_test_gather(struct kunit *test)
{
	struct ib_sge sge[RDMACHAN_RX_SPLIT_SGES];
	u32 n;

	n = rdmachan_split_sges(false, PAGE_DMA, 100, WIRE_DMA, 4, 7, sge);
	KUNIT_ASSERT_EQ(test, n, 3U);
	KUNIT_EXPECT_EQ(test, sge[0].addr, WIRE_DMA);
	KUNIT_EXPECT_EQ(test, sge[0].length, 8U);
	KUNIT_EXPECT_EQ(test, sge[1].addr, PAGE_DMA);
	KUNIT_EXPECT_EQ(test, sge[1].length, 100U);
	KUNIT_EXPECT_EQ(test, sge[2].addr, WIRE_DMA + 8);
	KUNIT_EXPECT_EQ(test, sge[2].length, 4U);
	/* an empty DATA with its header in band: the header alone */
	n = rdmachan_split_sges(false, PAGE_DMA, 0, WIRE_DMA, 0, 7, sge);
	KUNIT_ASSERT_EQ(test, n, 1U);
	KUNIT_EXPECT_EQ(test, sge[0].addr, WIRE_DMA);
	/* header as the immediate, no payload: the in-band immediate alone */
	n = rdmachan_split_sges(true, PAGE_DMA, 0, WIRE_DMA, 4, 7, sge);
	KUNIT_ASSERT_EQ(test, n, 1U);
	KUNIT_EXPECT_EQ(test, sge[0].addr, WIRE_DMA + 8);
	KUNIT_EXPECT_EQ(test, sge[0].length, 4U);
	/* header as the immediate, payload, no immediate: the page alone */
	n = rdmachan_split_sges(true, PAGE_DMA, 4096, WIRE_DMA, 0, 7, sge);
	KUNIT_ASSERT_EQ(test, n, 1U);
	KUNIT_EXPECT_EQ(test, sge[0].addr, PAGE_DMA);
	KUNIT_EXPECT_EQ(test, sge[0].length, 4096U);
	/* nothing at all: no entry (a send of no bytes) */
	KUNIT_EXPECT_EQ(test, rdmachan_split_sges(true, PAGE_DMA, 0, WIRE_DMA,
						  0, 7, sge), 0U);
}

/* More than the buffer holds does not fit the scatter list */
static void rx_layout_test_overrun(struct kunit *test)
{
	struct ib_sge sge[RDMACHAN_RX_SPLIT_SGES];
	struct split_buf *b;
	u8 *msg;
	u32 n;

	b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	msg = kunit_kzalloc(test, RDMACHAN_FRAG_BUF + 1, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, b);
	KUNIT_ASSERT_NOT_NULL(test, msg);
	n = rdmachan_rx_split_sges(false, PAGE_DMA, WIRE_DMA, 0, sge);
	KUNIT_EXPECT_EQ(test, scatter(b, sge, n, msg, RDMACHAN_FRAG_BUF), 0);
	KUNIT_EXPECT_EQ(test, scatter(b, sge, n, msg, RDMACHAN_FRAG_BUF + 1),
			-EMSGSIZE);
	n = rdmachan_rx_split_sges(true, PAGE_DMA, WIRE_DMA, 0, sge);
	KUNIT_EXPECT_EQ(test, scatter(b, sge, n, msg, RDMACHAN_FRAG_BUF - 7),
			-EMSGSIZE);
}

static struct kunit_case rx_layout_cases[] = {
	KUNIT_CASE(rx_layout_test_sges),
	KUNIT_CASE(rx_layout_test_read),
	KUNIT_CASE(rx_layout_test_gather),
	KUNIT_CASE(rx_layout_test_overrun),
	{}
};

static struct kunit_suite rx_layout_suite = {
	.name = "rdmachan_rx_layout",
	.test_cases = rx_layout_cases,
};

kunit_test_suite(rx_layout_suite);
