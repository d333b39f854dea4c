/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rdmachan: a channel's message buffers - its receive buffers and the
 * slots of its data send ring (struct rdmachan keeps them: rdmachan-pri.h)
 */
#ifndef RDMACHAN_CHAN_RING_H
#define RDMACHAN_CHAN_RING_H

#include <linux/cache.h>
#include <rdma/ib_verbs.h>

#include "rdmachan.h"
#include "rx_layout.h"

struct rdmachan;
struct rdmachan_mr;

/**
 * struct rdmachan_rx - a receive buffer
 * @cqe: completion entry, done = rdmachan_rx_done
 * @ch: the channel
 * @buf: the buffer: header, then payload; with &rdmachan_res.rx_split an
 *	order-0 page, the payload alone (rx_layout.h)
 * @page: &rdmachan_opts.rx_pages: the compound page @buf starts; it
 *	changes when rdmachan_msg_detach() gives it away
 * @dma: its DMA address
 * @size: the bytes @buf holds: &rdmachan_res.buf_size, the page's with
 *	&rdmachan_opts.rx_pages, RDMACHAN_FRAG_PAYLOAD split; under
 *	rdmachan.lock once posted
 * @node: entry in rdmachan.recv.ready while the message waits for a reader
 * @link: entry in rdmachan.recv.all while the slot exists: made and freed
 *	with its buffer (chan_grant.c)
 * @next: F_FRAG: the buffer of the message's next fragment, NULL after
 *	the last (chan_frag.c)
 * @msg: what the receiver sees: the first fragment's is the message's;
 *	each fragment's @msg.data and @msg.frag_len say where its payload is
 * @wire_dma: &rdmachan_res.rx_split: @wire's DMA address, mapped with @dma
 * @t_ns: with &rdmachan.recv.hist, when the message was queued for its
 *	reader (0: not queued); under rdmachan.lock until the reader has it
 * @wire: &rdmachan_res.rx_split: the in-band header and the end of an
 *	immediate past the page; last, in a DMA-aligned chunk of its own
 */
struct rdmachan_rx {
	struct ib_cqe		cqe;
	struct rdmachan		*ch;
	void			*buf;
	struct page		*page;
	u64			dma;
	u32			size;
	struct list_head	node;
	struct list_head	link;
	struct rdmachan_rx	*next;
	struct rdmachan_msg	msg;
	u64			t_ns;
	u64			wire_dma;
	u8			wire[RDMACHAN_RX_WIRE] __aligned(ARCH_DMA_MINALIGN);
};

/**
 * struct rdmachan_tx_wire - a split send buffer (&rdmachan_res.tx_split):
 *	what a data send slot's @buf is then
 * @bytes: the in-band header, then the in-band immediate; mapped to the
 *	device, at &rdmachan_tx.dma
 * @sge: the send's gather list: header, payload, immediate (rx_layout.h's
 *	pieces, gathered), each as the message has it
 * @page: an order-0 page, the payload
 * @page_dma: its DMA address
 */
struct rdmachan_tx_wire {
	u8			bytes[RDMACHAN_RX_WIRE];
	struct ib_sge		sge[RDMACHAN_RX_SPLIT_SGES];
	void			*page;
	u64			page_dma;
};

/**
 * struct rdmachan_tx - a send buffer
 * @cqe: completion entry, done = rdmachan_tx_done
 * @ch: the channel
 * @buf: the buffer: header, then payload (and an in-band immediate); a
 *	&struct rdmachan_tx_wire with &rdmachan_res.tx_split
 *	(rdmachan_tx_data() finds the payload)
 * @dma: its DMA address (of the wire bytes when split)
 * @seq: for data slots, the data sequence number it carries
 * @covers: for control slots, data slots posted before it (RC completes
 *	in order, so its completion retires them all)
 * @len: payload length
 * @imm: immediate value, when @has_imm
 * @has_imm: send as SEND_WITH_IMM
 * @solicited: send with IB_SEND_SOLICITED
 * @pad: the sender failed to fill this reserved slot: it goes out as a
 *	PAD message, which takes its credit but is not delivered
 * @more: F_FRAG: the message continues in the next slot (chan_frag.c)
 * @retire: a RETIRE message (chan_grant.c): a credit retired, no buffer
 * @ready: filled and waiting to be posted in order
 * @unposted: posted in a chain the provider refused from this request
 *	on (rdmachan_commit_locked()): it never left
 * @send_inv: send as SEND_WITH_INV of @inv_rkey, the header in band
 *	(rdmachan_send_ext())
 * @regs_pending: its fast registrations were posted on
 *	&rdmachan_res.reg_qp and have not completed: it waits, and the
 *	slots after it with it (rdmachan_regq_post_locked())
 * @nr_regs: pool registrations whose fast registrations go in front of
 *	the message (rdmachan_send_ext(), &rdmachan_tx_ext.regs); 0 once
 *	posted
 * @nr_zc: gather entries of a zero-copy payload (rdmachan_send_sg_zc()),
 *	in the slot's row of &rdmachan_send_ring.zc_sge from index 1; 0 for
 *	a payload copied into @buf.  Set by the sender with
 *	&rdmachan_tx_ext.zc_done, cleared when the slot is retired
 * @inv_rkey: the peer's rkey to invalidate, with @send_inv
 * @wr: the work request
 * @sge: its one gather entry (a copied payload)
 *
 * A data slot is 128 bytes, so that a ring of a default depth is 16 KiB:
 * what only some users need is in &rdmachan_send_ring.ext.
 */
struct rdmachan_tx {
	struct ib_cqe		cqe;
	struct rdmachan		*ch;
	void			*buf;
	u64			dma;
	u64			seq;
	u64			covers;
	u32			len;
	u32			imm;
	bool			has_imm;
	bool			solicited;
	bool			pad;
	bool			more;
	bool			retire;
	bool			ready;
	bool			unposted;
	bool			send_inv;
	bool			regs_pending;
	u8			nr_regs;
	u8			nr_zc;
	u32			inv_rkey;
	struct ib_send_wr	wr;
	struct ib_sge		sge;
};

/**
 * struct rdmachan_tx_ext - what a data send slot holds for the users that
 *	send registrations or zero-copy pages
 * @tx: the slot
 * @reg_cqe: the completion entry of the last of the slot's fast
 *	registrations on the registration QP (rdmachan_regq_post_locked())
 * @regs: the slot's registrations, &rdmachan_tx.nr_regs of them
 * @zc_done: the zero-copy sender's callback, called once when the slot
 *	is retired (rdmachan_tx_retire_locked()) or orphaned
 *	(rdmachan_send_end_orphans())
 * @zc_ctx: its argument
 */
struct rdmachan_tx_ext {
	struct rdmachan_tx	*tx;
	struct ib_cqe		reg_cqe;
	struct rdmachan_mr	*regs[RDMACHAN_MAX_SEND_REGS];
	void			(*zc_done)(void *ctx, int err);
	void			*zc_ctx;
};

#endif /* RDMACHAN_CHAN_RING_H */
