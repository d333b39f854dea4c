/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rdmachan: /sys/class/rdmachan/ - one directory per channel, listener
 * and RDMA device
 */
#ifndef RDMACHAN_SYSFS_H
#define RDMACHAN_SYSFS_H

#include <linux/device.h>
#include <linux/types.h>

#include "rdmachan.h"

struct rdmachan;
struct rdmachan_device;
struct rdmachan_obj;

/* A counter of a channel (enum rdmachan_stat), or of a device (offset) */
struct rdmachan_stat_attr {
	struct device_attribute attr;
	size_t offset;
};

/* sysfs.c: the class and its directories */
int rdmachan_sysfs_init(void);
void rdmachan_sysfs_exit(void);
struct device *rdmachan_sysfs_add_dir(const struct attribute_group **groups,
				      void *obj, const char *name,
				      const char *vars);
void rdmachan_sysfs_del_dir(struct device *dev, const char *vars);

/* chan_sysfs.c: channels and listeners */
void rdmachan_chan_sysfs_init(void);
void rdmachan_sysfs_add(struct rdmachan_obj *obj);
bool rdmachan_sysfs_del(struct rdmachan_obj *obj);
const char *rdmachan_state_name(enum rdmachan_state s);
void rdmachan_sysfs_state_event(struct rdmachan *ch, enum rdmachan_state old,
				enum rdmachan_state state, int err);

/* dev_sysfs.c: RDMA devices */
void rdmachan_sysfs_add_device(struct rdmachan_device *dev);
void rdmachan_sysfs_del_device(struct rdmachan_device *dev);

#endif /* RDMACHAN_SYSFS_H */
