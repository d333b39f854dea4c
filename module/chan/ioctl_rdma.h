/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rdmachan: one-sided ioctls of a channel file
 */
#ifndef RDMACHAN_IOCTL_RDMA_H
#define RDMACHAN_IOCTL_RDMA_H

#include <linux/compiler.h>

#include <linux/rdmachan.h>

#include "rdmachan.h"

struct rdmachan;

/* Everything one RDMACHAN_IOC_RDMA call needs, allocated at once */
struct rdmachan_rdma_call {
	struct rdmachan_rdma_op uops[RDMACHAN_MAX_RDMA_OPS];
	struct rdmachan_op ops[RDMACHAN_MAX_RDMA_OPS];
	struct rdmachan_sge usges[RDMACHAN_MAX_SGE];
	struct rdmachan_seg segs[RDMACHAN_MAX_RDMA_OPS][RDMACHAN_MAX_SGE];
};

/* RDMACHAN_IOC_REG_MR: pin and register, return the handle and remote */
long rdmachan_ioc_reg_mr(struct rdmachan *ch, void __user *uarg);
/* RDMACHAN_IOC_DEREG_MR: invalidate and release a registration */
long rdmachan_ioc_dereg_mr(struct rdmachan *ch, void __user *uarg);
/* RDMACHAN_IOC_RDMA: run one-sided operations, report each one's status */
long rdmachan_ioc_rdma(struct rdmachan *ch, void __user *uarg);

/* ioctl_rdma_async.c: RDMACHAN_RDMA_ASYNC and RDMACHAN_IOC_RDMA_REAP */
int rdmachan_ioc_rdma_async(struct rdmachan *ch,
			    struct rdmachan_rdma_call *c, u32 count);
long rdmachan_ioc_rdma_reap(struct rdmachan *ch, void __user *uarg);
bool rdmachan_rdma_reapable(struct rdmachan *ch);
void rdmachan_rdma_reap_release(struct rdmachan *ch);

#endif /* RDMACHAN_IOCTL_RDMA_H */
