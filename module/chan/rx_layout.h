/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rdmachan: where a split receive buffer's bytes land (pure logic, tested
 * by tests/kunit/rx_layout_kunit.c)
 *
 * A fragment's buffer (RDMACHAN_FRAG_BUF bytes on the wire: an 8-byte
 * header, RDMACHAN_FRAG_PAYLOAD bytes, a 4-byte immediate) does not fit a
 * page, and kmalloc() serves 4108 bytes from its 8 KiB cache, whose slabs
 * are of order 3.  So a channel whose receive buffers hold fragments
 * scatters each receive over an order-0 page and a small "wire" area of
 * its slot, and the wire format stays as it is:
 *
 * - header in band:  [wire 0..8) [page 0..4096) [wire 8..12)
 * - header as the immediate (RDMACHAN_WIRE_F_HDR_IMM):
 *                    [page 0..4096) [wire 8..12)
 *
 * Either way the payload starts the page, whole (a fragment's payload is
 * at most RDMACHAN_FRAG_PAYLOAD), and an in-band immediate follows it at
 * payload offset len: in the page, or across its end into the wire area.
 * A split send buffer (chan_sbuf.c) is gathered from the same pieces, each
 * as long as the message has it.
 * A SEND_WITH_INV's header is in band whatever the format, which the
 * second layout cannot hold: a channel with split buffers does not offer
 * RDMACHAN_WIRE_F_SEND_INV.
 */
#ifndef RDMACHAN_RX_LAYOUT_H
#define RDMACHAN_RX_LAYOUT_H

#include <linux/minmax.h>
#include <linux/string.h>
#include <rdma/ib_verbs.h>

#include "proto.h"

/* the in-band header, then the end of an immediate past the page */
#define RDMACHAN_RX_WIRE_HDR	8
#define RDMACHAN_RX_WIRE	(RDMACHAN_RX_WIRE_HDR + RDMACHAN_IMM_TRAILER)
/* the scatter entries of a split receive, at most */
#define RDMACHAN_RX_SPLIT_SGES	3

static_assert(sizeof(struct rdmachan_wire_hdr) == RDMACHAN_RX_WIRE_HDR);

/**
 * rdmachan_split_sges() - the scatter or gather list of a split buffer
 * @hdr_imm: the header travels as the immediate: no header piece
 * @page_dma: the page's DMA address
 * @page_len: bytes of the page: RDMACHAN_FRAG_PAYLOAD to receive, the
 *	payload's to send (0: no page piece)
 * @wire_dma: the wire area's DMA address (RDMACHAN_RX_WIRE bytes)
 * @trail: bytes of the immediate after the wire area's header (0: none)
 * @lkey: the local DMA key
 * @sge: room for RDMACHAN_RX_SPLIT_SGES entries
 *
 * Context: any.
 * Return: the entries filled in, in wire order.
 */
static inline u32 rdmachan_split_sges(bool hdr_imm, u64 page_dma,
				      u32 page_len, u64 wire_dma, u32 trail,
				      u32 lkey, struct ib_sge *sge)
{
	u32 n = 0;

	if (!hdr_imm) {
		sge[n].addr = wire_dma;
		sge[n].length = RDMACHAN_RX_WIRE_HDR;
		sge[n++].lkey = lkey;
	}
	if (page_len) {
		sge[n].addr = page_dma;
		sge[n].length = page_len;
		sge[n++].lkey = lkey;
	}
	if (trail) {
		sge[n].addr = wire_dma + RDMACHAN_RX_WIRE_HDR;
		sge[n].length = trail;
		sge[n++].lkey = lkey;
	}
	return n;
}

/**
 * rdmachan_rx_split_sges() - the scatter list of a split receive buffer
 * @hdr_imm: the channel's headers travel as immediates
 * @page_dma: the page's DMA address
 * @wire_dma: the wire area's DMA address (RDMACHAN_RX_WIRE bytes)
 * @lkey: the local DMA key
 * @sge: room for RDMACHAN_RX_SPLIT_SGES entries
 *
 * Context: any.
 * Return: the entries filled in: RDMACHAN_FRAG_BUF bytes in band, or
 * RDMACHAN_FRAG_PAYLOAD plus the immediate's with @hdr_imm.
 */
static inline u32 rdmachan_rx_split_sges(bool hdr_imm, u64 page_dma,
					 u64 wire_dma, u32 lkey,
					 struct ib_sge *sge)
{
	return rdmachan_split_sges(hdr_imm, page_dma, RDMACHAN_FRAG_PAYLOAD,
				   wire_dma, RDMACHAN_IMM_TRAILER, lkey, sge);
}

/**
 * rdmachan_rx_split_read() - copy bytes that follow a split buffer's
 *	payload start
 * @dst: where to
 * @page: the page (its first RDMACHAN_FRAG_PAYLOAD bytes received into)
 * @wire: the slot's wire area
 * @off: offset from the payload's start
 * @n: bytes, @off + @n at most RDMACHAN_FRAG_PAYLOAD + RDMACHAN_IMM_TRAILER
 *	(what rdmachan_wire_hdr_check() lets through)
 *
 * Context: any.
 */
static inline void rdmachan_rx_split_read(void *dst, const void *page,
					  const u8 *wire, u32 off, u32 n)
{
	u32 in_page = off < RDMACHAN_FRAG_PAYLOAD ?
		      min(n, RDMACHAN_FRAG_PAYLOAD - off) : 0;

	memcpy(dst, (const u8 *)page + off, in_page);
	if (n > in_page)
		memcpy((u8 *)dst + in_page, wire + RDMACHAN_RX_WIRE_HDR +
		       (off + in_page - RDMACHAN_FRAG_PAYLOAD), n - in_page);
}

#endif /* RDMACHAN_RX_LAYOUT_H */
