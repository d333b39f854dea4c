/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rdmachan: receive buffers that follow use (chan_grant.c)
 */
#ifndef RDMACHAN_CHAN_GRANT_H
#define RDMACHAN_CHAN_GRANT_H

#include "rdmachan-pri.h"

struct rdmachan_chain;

/*
 * chan_grant.c: credits granted at the start, and left to the peer when
 * idle (RDMACHAN_WIRE_F_GROW)
 */
#define RDMACHAN_GRANT_START	1
#define RDMACHAN_GRANT_KEEP	1
bool rdmachan_grant_follows(const struct rdmachan *ch);
u32 rdmachan_grant_floor(const struct rdmachan *ch);
u32 rdmachan_grant_start(const struct rdmachan *ch);
void rdmachan_grow_check_locked(struct rdmachan *ch);
void rdmachan_grow_asked_locked(struct rdmachan *ch);
void rdmachan_grow_ask_tick_locked(struct rdmachan *ch);
void rdmachan_ask_grant_locked(struct rdmachan *ch, u32 least, bool nonblock);
void rdmachan_want_grant_locked(struct rdmachan *ch);
void rdmachan_grow_work(struct work_struct *work);
void rdmachan_grow_release(struct rdmachan *ch);
void rdmachan_rx_retired_locked(struct rdmachan *ch, struct rdmachan_rx *rx);
void rdmachan_retire_idle_locked(struct rdmachan *ch);
void rdmachan_post_retire_locked(struct rdmachan *ch, struct rdmachan_tx *tx,
				 struct rdmachan_chain *c);
void rdmachan_grant_init(struct rdmachan *ch);

#endif /* RDMACHAN_CHAN_GRANT_H */
