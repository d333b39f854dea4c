/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rdmachan: a channel's receive slots and their buffers (chan_rxbuf.c)
 */
#ifndef RDMACHAN_CHAN_RXBUF_H
#define RDMACHAN_CHAN_RXBUF_H

#include "rdmachan-pri.h"

void rdmachan_rx_split_setup(struct rdmachan *ch, struct ib_device *ibdev);
u64 rdmachan_rx_buf_bytes(const struct rdmachan *ch);
struct rdmachan_rx *rdmachan_rx_slot_new(struct rdmachan *ch, gfp_t gfp);
void rdmachan_rx_slot_free(struct rdmachan *ch, struct rdmachan_rx *rx);
int rdmachan_rx_map(struct rdmachan *ch, struct rdmachan_rx *rx);
void rdmachan_rx_unmap(struct rdmachan *ch, struct rdmachan_rx *rx);
void rdmachan_rx_sync_for_cpu(struct rdmachan *ch, struct rdmachan_rx *rx);
u32 rdmachan_rx_sges(struct rdmachan *ch, struct rdmachan_rx *rx,
		     struct ib_sge *sge);
void rdmachan_rx_header(struct rdmachan *ch, struct rdmachan_rx *rx,
			struct rdmachan_wire_hdr *h, u32 *start);
u32 rdmachan_rx_trailer(struct rdmachan *ch, struct rdmachan_rx *rx,
			u32 start, u32 len);

#endif /* RDMACHAN_CHAN_RXBUF_H */
