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
 * @pd: protection domain of the device's own probe QPs
 *	(rdmachan_device_probe_inline()); every channel allocates a PD of
 *	its own, so that its registrations are reachable through its QP only
 * @event_handler: receives the device's asynchronous events
 * @name: copy of the device name, updated on rename under the list lock
 * @max_inline_data: largest inline send an RC QP accepted when probed
 * @async_events: asynchronous events of the device seen (any kind)
 * @port_events: port events (active, error, GID and address changes)
 * @fatal_events: IB_EVENT_DEVICE_FATAL
 * @qp_events: fatal events of the queue pairs of its channels (QP fatal,
 *	request and access errors, path migration errors)
 * @cq_events: IB_EVENT_CQ_ERR of its channels' completion queues
 * @rx_grown: bytes of the receive buffers its channels were granted beyond
 *	their start grants and hold (chan_grant.c), at most the
 *	grow_budget_kb parameter but for grants a peer asked for
 * @grow_refused: grants that stopped growing at that budget
 * @fatal_work: tells every user of the device after DEVICE_FATAL
 *	(&rdmachan_dev_user_ops.device_fatal)
 * @sysfs_dev: its /sys/class/rdmachan/devN directory, or NULL
 * @users: what holds resources on this device or is bound to it
 *	(struct rdmachan_dev_user.node), under the list lock
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
	atomic64_t		rx_grown;
	atomic_t		grow_refused;
	struct work_struct	fatal_work;
	struct device		*sysfs_dev;
	struct list_head	users;
};

struct rdmachan_dev_user;

/**
 * struct rdmachan_dev_user_ops - what a device does to its users
 * @get: take a reference on the user; called with the device list lock
 *	held, must not sleep
 * @put: drop it; process context, no lock held
 * @device_removed: the device goes away: the user lets go of everything
 *	it holds on the device and calls rdmachan_device_detach() before it
 *	returns.  Process context, no lock held.
 * @device_fatal: optional: the device reported DEVICE_FATAL.  Called with
 *	the device list lock held: must not sleep.
 * @removed_last: removal tells this user after every user without the
 *	flag (a listener after the channels, among them the ones it has not
 *	handed out yet)
 *
 * The device layer knows its users by these callbacks only, as rtrs's
 * device pool knows its users by struct rtrs_rdma_dev_pd_ops: it never
 * calls up into the layers above it by name.
 */
struct rdmachan_dev_user_ops {
	void (*get)(struct rdmachan_dev_user *u);
	void (*put)(struct rdmachan_dev_user *u);
	void (*device_removed)(struct rdmachan_dev_user *u);
	void (*device_fatal)(struct rdmachan_dev_user *u);
	bool removed_last;
};

/**
 * struct rdmachan_dev_user - a user of a device (a channel, a listener)
 * @node: entry in rdmachan_device.users, under the device list lock;
 *	empty while not attached
 * @dev: the device while attached, with a reference; else NULL (written
 *	under the device list lock; read by the user, which attaches and
 *	detaches itself)
 * @ops: its callbacks
 */
struct rdmachan_dev_user {
	struct list_head			node;
	struct rdmachan_device			*dev;
	const struct rdmachan_dev_user_ops	*ops;
};

int rdmachan_device_init(struct workqueue_struct *wq,
			 void (*arrived)(const char *name));
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

void rdmachan_dev_user_init(struct rdmachan_dev_user *u,
			    const struct rdmachan_dev_user_ops *ops);
struct rdmachan_device *rdmachan_device_attach(struct ib_device *ibdev,
					       struct rdmachan_dev_user *u);
void rdmachan_device_detach(struct rdmachan_dev_user *u);
struct rdmachan_dev_user *
rdmachan_device_find_user(bool (*match)(struct rdmachan_dev_user *u,
					void *arg), void *arg);

u32 rdmachan_device_probe_inline(struct ib_device *ibdev, struct ib_pd *pd);

#endif /* RDMACHAN_DEVICE_H */
