/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rdmachan: the send ring's own calls, between chan_send.c and the files
 * that send through it (chan_frag.c, chan_zc.c)
 */
#ifndef RDMACHAN_CHAN_SEND_H
#define RDMACHAN_CHAN_SEND_H

#include "rdmachan-pri.h"

/*
 * The payload a data send buffer holds: as large as the peer's receive
 * buffers (&rdmachan_res.sbuf_size), header and in-band immediate aside
 */
static inline size_t rdmachan_sbuf_payload(const struct rdmachan *ch)
{
	return ch->res.sbuf_size - RDMACHAN_HDR_LEN - RDMACHAN_IMM_TRAILER;
}

/**
 * rdmachan_tx_data() - where a data send slot's payload goes
 * @ch: the channel
 * @tx: the slot, holding a buffer (rdmachan_sbuf_take_locked())
 *
 * Context: any; the slot reserved by the caller.
 * Return: the payload's first byte: after the header, or a split
 * buffer's page.
 */
static inline void *rdmachan_tx_data(const struct rdmachan *ch,
				     const struct rdmachan_tx *tx)
{
	if (ch->res.tx_split)
		return ((struct rdmachan_tx_wire *)tx->buf)->page;
	return tx->buf + RDMACHAN_HDR_LEN;
}

/* chan_zc.c */
void rdmachan_zc_end(struct rdmachan *ch, struct rdmachan_tx *tx, int err);

/* chan_send.c */
struct rdmachan_tx *rdmachan_send_one_slot(struct rdmachan *ch, size_t len,
					   u32 imm, unsigned int flags,
					   u64 *first);
int rdmachan_reserve_all(struct rdmachan *ch, u32 n, bool nonblock,
			 u64 *first);
int rdmachan_commit(struct rdmachan *ch, u64 first, u32 n, u32 good);
void rdmachan_send_waiting(struct rdmachan *ch, int d);
int rdmachan_wait_n(struct rdmachan *ch,
		    bool (*cond)(struct rdmachan *, u32, u32), u32 n, u32 arg);

#endif /* RDMACHAN_CHAN_SEND_H */
