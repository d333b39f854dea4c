/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rdmachan: per-RDMA-device context, kept for every device the RDMA core
 * reports to our ib_client.
 */
#ifndef RDMACHAN_DEVICE_H
#define RDMACHAN_DEVICE_H

#include <linux/completion.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/workqueue.h>
#include <rdma/ib_verbs.h>

/**
 * struct rdmachan_device - what rdmachan keeps per RDMA device
 * @list: entry in the device list, under rdmachan_devices_lock
 * @ref: references; the list holds one, every user one more
 * @released: completed when the last reference is dropped
 * @ibdev: the RDMA device; valid until our ib_client remove returns,
 *	which waits for every reference to be dropped
 * @pd: protection domain every channel on this device uses (no
 *	unsafe global rkey)
 * @event_handler: receives the device's asynchronous events
 * @name: copy of the device name, updated on rename under the list lock
 * @max_inline_data: largest inline send an RC QP accepted when probed
 * @async_events: asynchronous events of the device seen (any kind)
 * @port_events: port events (active, error, GID and address changes)
 * @fatal_events: IB_EVENT_DEVICE_FATAL
 * @qp_events: fatal events of the queue pairs of its channels (QP fatal,
 *	request and access errors, path migration errors)
 * @cq_events: IB_EVENT_CQ_ERR of its channels' completion queues
 * @fatal_work: fails every channel of the device after DEVICE_FATAL
 * @sysfs_dev: its /sys/class/rdmachan/devN directory, or NULL
 * @channels: channels with resources on this device, under the list lock
 * @listeners: listeners bound to this device, under the list lock
 */
struct rdmachan_device {
	struct list_head	list;
	struct kref		ref;
	struct completion	released;
	struct ib_device	*ibdev;
	struct ib_pd		*pd;
	struct ib_event_handler	event_handler;
	char			name[IB_DEVICE_NAME_MAX];
	u32			max_inline_data;
	atomic_t		async_events;
	atomic_t		port_events;
	atomic_t		fatal_events;
	atomic_t		qp_events;
	atomic_t		cq_events;
	struct work_struct	fatal_work;
	struct device		*sysfs_dev;
	struct list_head	channels;
	struct list_head	listeners;
};

int rdmachan_device_init(void);
void rdmachan_device_exit(void);

struct rdmachan_device *rdmachan_device_get_by_name(const char *name);
void rdmachan_device_put(struct rdmachan_device *dev);
unsigned int rdmachan_device_count(void);

/**
 * typedef rdmachan_device_visit_t - callback of rdmachan_device_for_each()
 * @dev: the device, valid for the duration of the call
 * @arg: the caller's argument
 *
 * Called with the device list lock held: must not sleep for long and must
 * not touch user memory.  Return non-zero to stop the walk.
 */
typedef int (*rdmachan_device_visit_t)(struct rdmachan_device *dev,
				       void *arg);
void rdmachan_device_for_each(rdmachan_device_visit_t visit, void *arg);

struct rdmachan;
struct rdmachan_listener;
struct rdmachan_device *rdmachan_device_attach_channel(struct ib_device *ibdev,
						       struct rdmachan *ch);
void rdmachan_device_detach_channel(struct rdmachan *ch);
bool rdmachan_device_attach_listener(struct ib_device *ibdev,
				     struct rdmachan_listener *l);
void rdmachan_device_detach_listener(struct rdmachan_listener *l);

/* Called for each user of a device being removed, from process context */
void rdmachan_channel_device_removed(struct rdmachan *ch);
void rdmachan_listener_device_removed(struct rdmachan_listener *l);

struct rdmachan *rdmachan_device_get_channel(u32 id);

u32 rdmachan_device_probe_inline(struct ib_device *ibdev, struct ib_pd *pd);

#endif /* RDMACHAN_DEVICE_H */
