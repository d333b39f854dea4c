/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rdmachan: the data send buffers (chan_sbuf.c)
 */
#ifndef RDMACHAN_CHAN_SBUF_H
#define RDMACHAN_CHAN_SBUF_H

#include "rdmachan-pri.h"

/**
 * struct rdmachan_sbuf - a data send buffer that no slot holds
 * @buf: the buffer (&rdmachan_res.sbuf_size bytes), or a
 *	&struct rdmachan_tx_wire with &rdmachan_res.tx_split
 * @dma: its DMA address (of the wire bytes when split)
 */
struct rdmachan_sbuf {
	void	*buf;
	u64	dma;
};

void rdmachan_sbuf_size_set(struct rdmachan *ch, u32 size);
void rdmachan_sbuf_free_slot(struct rdmachan *ch, struct rdmachan_tx *tx);
int rdmachan_sbuf_reserve(struct rdmachan *ch);
int rdmachan_sbuf_fill(struct rdmachan *ch, u32 want, gfp_t gfp);
int rdmachan_sbuf_fill_later(struct rdmachan *ch);
bool rdmachan_sbuf_wait_done(struct rdmachan *ch);
int rdmachan_sbuf_wait(struct rdmachan *ch, u32 n);
void rdmachan_sbuf_fill_work(struct work_struct *work);
void rdmachan_sbuf_take_locked(struct rdmachan *ch, struct rdmachan_tx *tx);
void rdmachan_sbuf_give_locked(struct rdmachan *ch, struct rdmachan_tx *tx);
void rdmachan_sbuf_idle_locked(struct rdmachan *ch);
bool rdmachan_sbuf_unretired_locked(struct rdmachan *ch);
void rdmachan_sbuf_unmap(struct rdmachan *ch);
void rdmachan_sbuf_free(struct rdmachan *ch);

#endif /* RDMACHAN_CHAN_SBUF_H */
