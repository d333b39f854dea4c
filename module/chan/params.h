/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rdmachan: module parameters (defaults for new channels, device node mode)
 */
#ifndef RDMACHAN_PARAMS_H
#define RDMACHAN_PARAMS_H

#include <linux/types.h>

#include "rdmachan.h"

int rdmachan_uint_param_parse(const struct rdmachan_uint_param *p,
			      const char *str, unsigned int *out);

unsigned int rdmachan_param_dev_mode(void);
unsigned int rdmachan_param_queue_depth(void);
unsigned int rdmachan_param_max_msg_size(void);
unsigned int rdmachan_param_connect_timeout_ms(void);
unsigned int rdmachan_param_keepalive_ms(void);
u8 rdmachan_param_ack_timeout(void);
unsigned int rdmachan_param_shrink_idle_ms(void);
bool rdmachan_param_imm_header(void);
bool rdmachan_param_imm_credit(void);
bool rdmachan_param_latency_hist(void);
unsigned int rdmachan_param_max_mr_size(void);
u64 rdmachan_param_chan_mem(void);
u64 rdmachan_param_grow_budget(void);
u64 rdmachan_param_listen_budget(void);
unsigned int rdmachan_param_listen_max_connecting(void);

#endif /* RDMACHAN_PARAMS_H */
