/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rdmachan: one-sided ioctls of a channel file
 */
#ifndef RDMACHAN_IOCTL_RDMA_H
#define RDMACHAN_IOCTL_RDMA_H

#include <linux/compiler.h>

struct rdmachan;

/* RDMACHAN_IOC_REG_MR: pin and register, return the handle and remote */
long rdmachan_ioc_reg_mr(struct rdmachan *ch, void __user *uarg);
/* RDMACHAN_IOC_DEREG_MR: invalidate and release a registration */
long rdmachan_ioc_dereg_mr(struct rdmachan *ch, void __user *uarg);
/* RDMACHAN_IOC_RDMA: run one-sided operations, report each one's status */
long rdmachan_ioc_rdma(struct rdmachan *ch, void __user *uarg);

#endif /* RDMACHAN_IOCTL_RDMA_H */
