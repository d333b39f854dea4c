/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rdmachan: /sys/class/rdmachan/ - one directory per channel, listener
 * and RDMA device
 */
#ifndef RDMACHAN_SYSFS_H
#define RDMACHAN_SYSFS_H

struct rdmachan;
struct rdmachan_device;
struct rdmachan_listener;

int rdmachan_sysfs_init(void);
void rdmachan_sysfs_exit(void);
void rdmachan_sysfs_add_channel(struct rdmachan *ch);
void rdmachan_sysfs_del_channel(struct rdmachan *ch);
void rdmachan_sysfs_add_listener(struct rdmachan_listener *l);
void rdmachan_sysfs_del_listener(struct rdmachan_listener *l);
void rdmachan_sysfs_add_device(struct rdmachan_device *dev);
void rdmachan_sysfs_del_device(struct rdmachan_device *dev);

#endif /* RDMACHAN_SYSFS_H */
