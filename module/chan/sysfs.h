/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rdmachan: /sys/class/rdmachan/ - one directory per channel, listener
 * and RDMA device
 */
#ifndef RDMACHAN_SYSFS_H
#define RDMACHAN_SYSFS_H

#include <linux/types.h>

struct rdmachan_device;
struct rdmachan_obj;

int rdmachan_sysfs_init(void);
void rdmachan_sysfs_exit(void);
void rdmachan_sysfs_add(struct rdmachan_obj *obj);
bool rdmachan_sysfs_del(struct rdmachan_obj *obj);
void rdmachan_sysfs_add_device(struct rdmachan_device *dev);
void rdmachan_sysfs_del_device(struct rdmachan_device *dev);

#endif /* RDMACHAN_SYSFS_H */
