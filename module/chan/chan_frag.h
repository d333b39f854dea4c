/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rdmachan: messages that span receive buffers (RDMACHAN_WIRE_F_FRAG,
 * chan_frag.c)
 */
#ifndef RDMACHAN_CHAN_FRAG_H
#define RDMACHAN_CHAN_FRAG_H

#include "rdmachan-pri.h"

struct scatterlist;

/* The DATA messages a message of @len bytes goes as on @ch */
static inline u32 rdmachan_frags(const struct rdmachan *ch, size_t len)
{
	/* over the largest: the caller's -EMSGSIZE */
	if (!ch->conn.frag_tx ||
	    len <= RDMACHAN_FRAG_PAYLOAD || len > ch->conn.params.max_msg_size)
		return 1;
	return rdmachan_frag_count(len);
}

u32 rdmachan_frag_setup(struct rdmachan *ch);
void rdmachan_frag_adopt(struct rdmachan *ch);
int rdmachan_frag_rx_locked(struct rdmachan *ch, struct rdmachan_rx *rx,
			    bool more, struct rdmachan_rx **first);
int rdmachan_send_frags_iter(struct rdmachan *ch, struct iov_iter *from,
			     u32 imm, unsigned int flags);
int rdmachan_send_frags_sg(struct rdmachan *ch, struct scatterlist *sgl,
			   unsigned int nents, size_t len, u32 imm,
			   unsigned int flags);
int rdmachan_send_each(struct rdmachan *ch, const struct kvec *msgs,
		       unsigned int count, u32 imm, unsigned int flags);

#endif /* RDMACHAN_CHAN_FRAG_H */
