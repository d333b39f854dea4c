// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan: a channel's receive slots and their buffers - made, mapped,
 * posted, read and freed
 *
 * A slot lives as long as its buffer (chan_grant.c makes and retires them
 * as the grant follows use).  Its buffer is one of three kinds:
 *
 * - the largest message's, header and payload in one piece of
 *   rdmachan_buf_alloc() (a kernel user that reads whole messages);
 * - a page of the channel's page pool (&rdmachan_opts.rx_pages, whose
 *   user takes the pages: chan_recv.c);
 * - split (&rdmachan_res.rx_split): a fragment's buffer as an order-0
 *   page for the payload and the slot's own wire area for the header and
 *   the end of an immediate, one receive scattered over both
 *   (rx_layout.h).  Where receive buffers hold fragments (/dev/rdmachan's
 *   channels) nothing above order 0 is allocated for them, on the data
 *   path or at setup, and a buffer takes a page rather than an 8 KiB
 *   kmalloc() object.  Anchor: IPoIB connected mode, whose receive
 *   buffers are a head and a list of pages scattered into
 *   (ipoib_cm_alloc_rx_skb()); here the wire format decides the pieces.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/sched/mm.h>

#include "rdmachan-pri.h"
#include "chan_frag.h"
#include "chan_grant.h"
#include "chan_mem.h"
#include "chan_rxbuf.h"

/**
 * rdmachan_rx_split_setup() - are this channel's receive buffers split?
 * @ch: the channel, &rdmachan_conn.frag_rx settled (rdmachan_frag_setup())
 * @ibdev: its device
 *
 * They are where they hold fragments, the user does not take their pages,
 * and the device scatters a receive over three entries.  A split channel
 * does not offer SEND_WITH_INV, whose header is in band whatever the
 * format (rx_layout.h).
 *
 * Context: process context, before the buffers are made.
 */
void rdmachan_rx_split_setup(struct rdmachan *ch, struct ib_device *ibdev)
{
	/* a page holds a fragment's payload: pages are of 4 KiB at least */
	ch->res.rx_split = ch->conn.frag_rx && !ch->opts.rx_pages &&
			   ibdev->attrs.max_recv_sge >= RDMACHAN_RX_SPLIT_SGES;
	if (ch->res.rx_split)
		ch->conn.params.features &= ~RDMACHAN_WIRE_F_SEND_INV;
}

/**
 * rdmachan_rx_buf_bytes() - the memory one receive buffer takes
 * @ch: the channel, its resources set up
 *
 * Context: any.
 * Return: bytes, what the device's grow budget, the channel's memory and
 * sysfs rx_buf_mem count it as.
 */
u64 rdmachan_rx_buf_bytes(const struct rdmachan *ch)
{
	if (ch->opts.rx_pages)
		return PAGE_SIZE << ch->recv.order;
	return ch->res.rx_split ? PAGE_SIZE :
				  rdmachan_buf_bytes(ch->res.buf_size);
}

/**
 * rdmachan_rx_slot_new() - make a receive slot and its buffer
 * @ch: the channel, &rdmachan_res.buf_size known
 * @gfp: GFP_KERNEL at setup, or with the grow work's restrictions
 *
 * A slot lives as long as its buffer: made with it, freed with it when
 * the peer retires it (rdmachan_rx_retired_locked()) or with the channel,
 * so an idle channel holds slots for the buffers it posted only.  With
 * &rdmachan_opts.rx_pages the caller gives it its page.  Both counted in
 * the channel's memory, not mapped (rdmachan_rx_map()); the caller links
 * it in &rdmachan_recv_queue.all, or gives it to rdmachan_rx_slot_free().
 *
 * Context: process context.
 * Return: the slot, or NULL.
 */
struct rdmachan_rx *rdmachan_rx_slot_new(struct rdmachan *ch, gfp_t gfp)
{
	struct mem_cgroup *memcg = rdmachan_mem_begin(ch);
	gfp_t flags = rdmachan_gfp(ch, gfp);
	struct rdmachan_rx *rx;

	rx = kzalloc(sizeof(*rx), flags);
	if (rx && ch->res.rx_split) {
		rx->size = RDMACHAN_FRAG_PAYLOAD;
		rx->buf = (void *)__get_free_page(flags);
	} else if (rx && !ch->opts.rx_pages) {
		rx->size = ch->res.buf_size;
		rx->buf = rdmachan_buf_alloc(rx->size, flags);
	}
	if (rx && !rx->buf && !ch->opts.rx_pages) {
		kfree(rx);
		rx = NULL;
	}
	rdmachan_mem_end(ch, memcg);
	if (!rx)
		return NULL;
	rdmachan_mem_charge(ch, kmalloc_size_roundup(sizeof(*rx)) +
			    (rx->buf ? rdmachan_rx_buf_bytes(ch) : 0));
	rx->ch = ch;
	rx->cqe.done = rdmachan_rx_done;
	INIT_LIST_HEAD(&rx->node);
	INIT_LIST_HEAD(&rx->link);
	return rx;
}

/**
 * rdmachan_rx_slot_free() - free a slot, unlinked, and its buffer
 * @ch: the channel
 * @rx: the slot; its buffer unmapped (or none)
 *
 * Context: any (ch->lock held once the I/O started).
 */
void rdmachan_rx_slot_free(struct rdmachan *ch, struct rdmachan_rx *rx)
{
	long bytes = kmalloc_size_roundup(sizeof(*rx));

	if (rx->page) {
		rdmachan_rx_page_put(rx->page);
	} else if (rx->buf && !ch->opts.rx_pages) {
		if (ch->res.rx_split)
			free_page((unsigned long)rx->buf);
		else
			rdmachan_buf_free(rx->buf, rx->size);
		bytes += rdmachan_rx_buf_bytes(ch);
	}
	kfree(rx);
	rdmachan_mem_charge(ch, -bytes);
}

/**
 * rdmachan_rx_map() - map a slot's buffer for the device to receive into
 * @ch: the channel
 * @rx: the slot, its buffer made, not mapped
 *
 * Context: any; the device stays until the channel's resources go.
 * Return: 0, or -ENOMEM with nothing mapped.
 */
int rdmachan_rx_map(struct rdmachan *ch, struct rdmachan_rx *rx)
{
	struct ib_device *ibdev = rdmachan_ibdev(ch);
	u64 dma, wire;

	if (!ch->res.rx_split) {
		dma = ib_dma_map_single(ibdev, rx->buf, rx->size,
					DMA_FROM_DEVICE);
		if (ib_dma_mapping_error(ibdev, dma))
			return -ENOMEM;
		rx->dma = dma;
		return 0;
	}
	dma = ib_dma_map_page(ibdev, virt_to_page(rx->buf), 0, rx->size,
			      DMA_FROM_DEVICE);
	if (ib_dma_mapping_error(ibdev, dma))
		return -ENOMEM;
	wire = ib_dma_map_single(ibdev, rx->wire, sizeof(rx->wire),
				 DMA_FROM_DEVICE);
	if (ib_dma_mapping_error(ibdev, wire)) {
		ib_dma_unmap_page(ibdev, dma, rx->size, DMA_FROM_DEVICE);
		return -ENOMEM;
	}
	rx->dma = dma;
	rx->wire_dma = wire;
	return 0;
}

/**
 * rdmachan_rx_unmap() - undo rdmachan_rx_map()
 * @ch: the channel
 * @rx: the slot, mapped or not (then nothing happens)
 *
 * Context: any.
 */
void rdmachan_rx_unmap(struct rdmachan *ch, struct rdmachan_rx *rx)
{
	struct ib_device *ibdev = rdmachan_ibdev(ch);

	if (!rx->dma)
		return;
	if (ch->res.rx_split) {
		ib_dma_unmap_page(ibdev, rx->dma, rx->size, DMA_FROM_DEVICE);
		ib_dma_unmap_single(ibdev, rx->wire_dma, sizeof(rx->wire),
				    DMA_FROM_DEVICE);
		rx->wire_dma = 0;
	} else {
		ib_dma_unmap_single(ibdev, rx->dma, rx->size, DMA_FROM_DEVICE);
	}
	rx->dma = 0;
}

/**
 * rdmachan_rx_sync_for_cpu() - a receive into @rx completed: its bytes
 *	are the CPU's to read
 * @ch: the channel
 * @rx: the slot
 *
 * Context: any.
 */
void rdmachan_rx_sync_for_cpu(struct rdmachan *ch, struct rdmachan_rx *rx)
{
	struct ib_device *ibdev = rdmachan_ibdev(ch);

	ib_dma_sync_single_for_cpu(ibdev, rx->dma, rx->size, DMA_FROM_DEVICE);
	if (ch->res.rx_split)
		ib_dma_sync_single_for_cpu(ibdev, rx->wire_dma,
					   sizeof(rx->wire), DMA_FROM_DEVICE);
}

/**
 * rdmachan_rx_sges() - a slot's scatter list
 * @ch: the channel
 * @rx: the slot, mapped
 * @sge: room for RDMACHAN_RX_SPLIT_SGES entries
 *
 * Context: any.
 * Return: the entries filled in.
 */
u32 rdmachan_rx_sges(struct rdmachan *ch, struct rdmachan_rx *rx,
		     struct ib_sge *sge)
{
	u32 lkey = ch->res.pd->local_dma_lkey;

	if (ch->res.rx_split)
		return rdmachan_rx_split_sges(ch->conn.hdr_imm, rx->dma,
					      rx->wire_dma, lkey, sge);
	sge->addr = rx->dma;
	sge->length = rx->size;
	sge->lkey = lkey;
	return 1;
}

/* Post receive buffer @rx.  Caller holds ch->lock. */
void rdmachan_post_recv_locked(struct rdmachan *ch, struct rdmachan_rx *rx)
{
	struct ib_sge sge[RDMACHAN_RX_SPLIT_SGES];
	struct ib_recv_wr wr = {};
	int ret;

	wr.wr_cqe = &rx->cqe;
	wr.sg_list = sge;
	wr.num_sge = rdmachan_rx_sges(ch, rx, sge);
	ret = ib_post_recv(ch->res.qp, &wr, NULL);
	if (ret)
		rdmachan_post_failed_locked(ch, "receive", ret);
}

/**
 * rdmachan_rx_header() - the in-band header of a completed receive
 * @ch: the channel
 * @rx: the slot, synced for the CPU
 * @h: where to
 * @start: set to the payload's offset in @rx->buf
 *
 * Context: any.
 */
void rdmachan_rx_header(struct rdmachan *ch, struct rdmachan_rx *rx,
			struct rdmachan_wire_hdr *h, u32 *start)
{
	if (ch->res.rx_split) {
		memcpy(h, rx->wire, sizeof(*h));
		*start = 0;
	} else {
		memcpy(h, rx->buf, sizeof(*h));
		*start = RDMACHAN_HDR_LEN;
	}
}

/**
 * rdmachan_rx_trailer() - the in-band immediate after a received payload
 * @ch: the channel
 * @rx: the slot, synced for the CPU, its header checked
 *	(rdmachan_wire_hdr_check(): the immediate was received whole)
 * @start: the payload's offset in @rx->buf
 * @len: the payload's length
 *
 * Context: any.
 * Return: the immediate, in host order.
 */
u32 rdmachan_rx_trailer(struct rdmachan *ch, struct rdmachan_rx *rx,
			u32 start, u32 len)
{
	__be32 imm;

	if (ch->res.rx_split)
		rdmachan_rx_split_read(&imm, rx->buf, rx->wire, len,
				       sizeof(imm));
	else
		memcpy(&imm, rx->buf + start + len, sizeof(imm));
	return be32_to_cpu(imm);
}
