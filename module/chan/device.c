// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan: tracking of RDMA devices through an ib_client
 *
 * The RDMA core calls rdmachan_add_one() for every device present when the
 * client registers and for every device registered later, and
 * rdmachan_remove_one() when a device goes away (e.g. "rdma link delete")
 * or the client unregisters.  Each device gets a struct rdmachan_device
 * holding a PD.  Users take references; removal unlinks the device so no
 * new reference can be taken, then waits for the existing ones to be
 * dropped before the PD is freed and the ib_device may go.
 *
 * Channels and listeners attach to their device as a struct
 * rdmachan_dev_user: removal and DEVICE_FATAL reach them through its
 * callbacks, so this layer never calls up into the channel core.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "device.h"
#include "sysfs.h"
#include "uevent.h"

static LIST_HEAD(rdmachan_devices);
static DEFINE_MUTEX(rdmachan_devices_lock);
/* runs the DEVICE_FATAL work: rdmachan_wq, given to rdmachan_device_init() */
static struct workqueue_struct *rdmachan_device_wq;
/* rdmachan_device_init()'s @arrived */
static void (*rdmachan_device_arrived)(const char *name);

static int rdmachan_add_one(struct ib_device *ibdev);
static void rdmachan_remove_one(struct ib_device *ibdev, void *client_data);
static void rdmachan_rename_one(struct ib_device *ibdev, void *client_data);

static struct ib_client rdmachan_ib_client = {
	.name	= "rdmachan",
	.add	= rdmachan_add_one,
	.remove	= rdmachan_remove_one,
	.rename	= rdmachan_rename_one,
};

static void rdmachan_device_release(struct kref *ref)
{
	struct rdmachan_device *dev =
		container_of(ref, struct rdmachan_device, ref);

	complete(&dev->released);
}

/**
 * rdmachan_device_put() - drop a reference taken on a device
 * @dev: the device
 *
 * Context: any context that may call complete().
 */
void rdmachan_device_put(struct rdmachan_device *dev)
{
	kref_put(&dev->ref, rdmachan_device_release);
}

/**
 * rdmachan_device_get_by_name() - find a device and take a reference
 * @name: RDMA device name, e.g. "rxe0"
 *
 * Context: process context, may sleep.
 * Return: the device with a reference the caller must drop with
 * rdmachan_device_put(), or NULL when no such device is known.
 */
struct rdmachan_device *rdmachan_device_get_by_name(const char *name)
{
	struct rdmachan_device *dev, *found = NULL;

	mutex_lock(&rdmachan_devices_lock);
	list_for_each_entry(dev, &rdmachan_devices, list) {
		if (!strcmp(dev->name, name)) {
			kref_get(&dev->ref);
			found = dev;
			break;
		}
	}
	mutex_unlock(&rdmachan_devices_lock);
	return found;
}

/**
 * rdmachan_device_for_each() - visit every known device in order of arrival
 * @visit: called for each device with the list lock held
 * @arg: passed to @visit
 *
 * Context: process context, may sleep.
 */
void rdmachan_device_for_each(rdmachan_device_visit_t visit, void *arg)
{
	struct rdmachan_device *dev;

	mutex_lock(&rdmachan_devices_lock);
	list_for_each_entry(dev, &rdmachan_devices, list)
		if (visit(dev, arg))
			break;
	mutex_unlock(&rdmachan_devices_lock);
}

/**
 * rdmachan_device_count() - number of devices known
 *
 * Context: process context, may sleep.
 * Return: that number.
 */
unsigned int rdmachan_device_count(void)
{
	struct rdmachan_device *dev;
	unsigned int n = 0;

	mutex_lock(&rdmachan_devices_lock);
	list_for_each_entry(dev, &rdmachan_devices, list)
		n++;
	mutex_unlock(&rdmachan_devices_lock);
	return n;
}

/* A port's or the device's event, as a uevent of the device's directory */
static void rdmachan_device_uevent(struct rdmachan_device *dev,
				   struct ib_event *event)
{
	const char *what;

	switch (event->event) {
	case IB_EVENT_PORT_ACTIVE:
		what = "port_up";
		break;
	case IB_EVENT_PORT_ERR:
		what = "port_down";
		break;
	case IB_EVENT_DEVICE_FATAL:
		what = "fatal";
		break;
	case IB_EVENT_GID_CHANGE:
		what = "gid_change";
		break;
	default:
		what = "port_change";
		break;
	}
	rdmachan_uevent_dir(&dev->sysfs_dev,
			    "RDMACHAN_OBJ=dev RDMACHAN_EVENT=%s RDMACHAN_DEV=%s RDMACHAN_PORT=%u",
			    what, dev->name,
			    event->event == IB_EVENT_DEVICE_FATAL ? 0 :
			    event->element.port_num);
}

static void rdmachan_event(struct ib_event_handler *handler,
			   struct ib_event *event)
{
	struct rdmachan_device *dev =
		container_of(handler, struct rdmachan_device, event_handler);

	atomic_inc(&dev->async_events);
	switch (event->event) {
	case IB_EVENT_PORT_ACTIVE:
	case IB_EVENT_PORT_ERR:
	case IB_EVENT_LID_CHANGE:
	case IB_EVENT_PKEY_CHANGE:
	case IB_EVENT_SM_CHANGE:
	case IB_EVENT_CLIENT_REREGISTER:
	case IB_EVENT_GID_CHANGE:
		atomic_inc(&dev->port_events);
		rdmachan_device_uevent(dev, event);
		dev_info_ratelimited(&handler->device->dev,
				     "rdmachan: port %u: %s\n",
				     event->element.port_num,
				     ib_event_msg(event->event));
		if (event->event == IB_EVENT_PORT_ACTIVE)
			rdmachan_device_arrived(dev->name);
		break;
	case IB_EVENT_DEVICE_FATAL:
		atomic_inc(&dev->fatal_events);
		rdmachan_device_uevent(dev, event);
		dev_err(&handler->device->dev, "rdmachan: %s: failing its channels\n",
			ib_event_msg(event->event));
		queue_work(rdmachan_device_wq, &dev->fatal_work);
		break;
	default:
		dev_dbg(&handler->device->dev, "rdmachan: event %s\n",
			ib_event_msg(event->event));
		break;
	}
}

/* DEVICE_FATAL: nothing of the device works any more; tell its users. */
static void rdmachan_device_fatal_work(struct work_struct *work)
{
	struct rdmachan_device *dev =
		container_of(work, struct rdmachan_device, fatal_work);
	struct rdmachan_dev_user *u;

	mutex_lock(&rdmachan_devices_lock);
	list_for_each_entry(u, &dev->users, node)
		if (u->ops->device_fatal)
			u->ops->device_fatal(u);
	mutex_unlock(&rdmachan_devices_lock);
}

/* The first of @users @match takes, with a reference; the list lock held */
static struct rdmachan_dev_user *
rdmachan_users_take(struct list_head *users,
		    bool (*match)(struct rdmachan_dev_user *u, void *arg),
		    void *arg)
{
	struct rdmachan_dev_user *u;

	lockdep_assert_held(&rdmachan_devices_lock);
	list_for_each_entry(u, users, node)
		if (match(u, arg)) {
			u->ops->get(u);
			return u;
		}
	return NULL;
}

/**
 * rdmachan_device_find_user() - find a user of any device
 * @match: called for each attached user, with the device list lock held
 *	(must not sleep); true for the one wanted
 * @arg: passed to @match
 *
 * Context: process context.
 * Return: the first user @match took, with a reference
 * (&rdmachan_dev_user_ops.put), or NULL.
 */
struct rdmachan_dev_user *
rdmachan_device_find_user(bool (*match)(struct rdmachan_dev_user *u,
					void *arg), void *arg)
{
	struct rdmachan_dev_user *u = NULL;
	struct rdmachan_device *dev;

	mutex_lock(&rdmachan_devices_lock);
	list_for_each_entry(dev, &rdmachan_devices, list) {
		u = rdmachan_users_take(&dev->users, match, arg);
		if (u)
			break;
	}
	mutex_unlock(&rdmachan_devices_lock);
	return u;
}

static int rdmachan_add_one(struct ib_device *ibdev)
{
	struct rdmachan_device *dev;
	int ret;

	dev = kzalloc(sizeof(*dev), GFP_KERNEL);
	if (!dev)
		return -ENOMEM;

	dev->ibdev = ibdev;
	kref_init(&dev->ref);
	init_completion(&dev->released);
	atomic_set(&dev->async_events, 0);
	INIT_WORK(&dev->fatal_work, rdmachan_device_fatal_work);
	INIT_LIST_HEAD(&dev->users);
	strscpy(dev->name, dev_name(&ibdev->dev), sizeof(dev->name));

	dev->pd = ib_alloc_pd(ibdev, 0);
	if (IS_ERR(dev->pd)) {
		ret = PTR_ERR(dev->pd);
		dev_err(&ibdev->dev, "rdmachan: cannot allocate PD: %d\n", ret);
		kfree(dev);
		return ret;
	}
	dev->max_inline_data = rdmachan_device_probe_inline(ibdev, dev->pd);

	INIT_IB_EVENT_HANDLER(&dev->event_handler, ibdev, rdmachan_event);
	ib_register_event_handler(&dev->event_handler);

	mutex_lock(&rdmachan_devices_lock);
	list_add_tail(&dev->list, &rdmachan_devices);
	mutex_unlock(&rdmachan_devices_lock);
	ib_set_client_data(ibdev, &rdmachan_ib_client, dev);
	rdmachan_sysfs_add_device(dev);

	dev_info(&ibdev->dev, "rdmachan: added, %u port(s), max inline %u\n",
		 rdma_end_port(ibdev), dev->max_inline_data);
	/* a link lost with a device may come back with this one */
	rdmachan_device_arrived(dev->name);
	return 0;
}

/* Is @u told in removal pass *@arg (&rdmachan_dev_user_ops.removed_last)? */
static bool rdmachan_user_of_pass(struct rdmachan_dev_user *u, void *arg)
{
	return u->ops->removed_last == *(bool *)arg;
}

/* The first user of @dev of removal pass @last, with a reference, or NULL */
static struct rdmachan_dev_user *
rdmachan_device_next_user(struct rdmachan_device *dev, bool last)
{
	struct rdmachan_dev_user *u;

	mutex_lock(&rdmachan_devices_lock);
	u = rdmachan_users_take(&dev->users, rdmachan_user_of_pass, &last);
	mutex_unlock(&rdmachan_devices_lock);
	return u;
}

/*
 * Tell every user still on a device that goes away: the channels first,
 * then the listeners (&rdmachan_dev_user_ops.removed_last).  Each one
 * detaches itself from the device, under the list lock, so the loops end.
 */
static void rdmachan_device_kill_users(struct rdmachan_device *dev)
{
	struct rdmachan_dev_user *u;
	int last;

	for (last = 0; last <= 1; last++) {
		while ((u = rdmachan_device_next_user(dev, last))) {
			u->ops->device_removed(u);
			u->ops->put(u);
		}
	}
}

static void rdmachan_remove_one(struct ib_device *ibdev, void *client_data)
{
	struct rdmachan_device *dev = client_data;

	unsigned int waited = 0;

	rdmachan_sysfs_del_device(dev);
	mutex_lock(&rdmachan_devices_lock);
	list_del_init(&dev->list);
	mutex_unlock(&rdmachan_devices_lock);

	rdmachan_device_kill_users(dev);

	/*
	 * Every user let go of the device above; what may
	 * hold it now is a device query copying its attributes out.  The
	 * ib_device may not go before: wait, and say so every 10 s.
	 */
	rdmachan_device_put(dev);
	while (!wait_for_completion_timeout(&dev->released, 10 * HZ))
		dev_warn(&ibdev->dev, "rdmachan: removal waits for %u reference(s) (%u s)\n",
			 kref_read(&dev->ref), waited += 10);

	ib_unregister_event_handler(&dev->event_handler);
	cancel_work_sync(&dev->fatal_work);
	ib_dealloc_pd(dev->pd);
	dev_info(&ibdev->dev, "rdmachan: removed\n");
	kfree(dev);
}

static struct rdmachan_device *rdmachan_device_find(struct ib_device *ibdev)
{
	struct rdmachan_device *dev;

	lockdep_assert_held(&rdmachan_devices_lock);
	list_for_each_entry(dev, &rdmachan_devices, list)
		if (dev->ibdev == ibdev)
			return dev;
	return NULL;
}

/**
 * rdmachan_dev_user_init() - prepare a user of a device, not attached
 * @u: the user
 * @ops: its callbacks
 */
void rdmachan_dev_user_init(struct rdmachan_dev_user *u,
			    const struct rdmachan_dev_user_ops *ops)
{
	INIT_LIST_HEAD(&u->node);
	u->dev = NULL;
	u->ops = ops;
}

/**
 * rdmachan_device_attach() - reference a device for a user
 * @ibdev: the device the user's rdma_cm_id is bound to
 * @u: the user, not attached; put on the device's list of users
 *
 * Taking the reference and joining the list is atomic with respect to
 * device removal: either removal will tell this user
 * (&rdmachan_dev_user_ops.device_removed), or this returns NULL because
 * removal has begun.
 *
 * Context: process context.
 * Return: the device, also in @u->dev, or NULL when rdmachan does not
 * know @ibdev (any more).  Undo with rdmachan_device_detach().
 */
struct rdmachan_device *rdmachan_device_attach(struct ib_device *ibdev,
					       struct rdmachan_dev_user *u)
{
	struct rdmachan_device *dev;

	mutex_lock(&rdmachan_devices_lock);
	dev = rdmachan_device_find(ibdev);
	if (dev) {
		kref_get(&dev->ref);
		list_add_tail(&u->node, &dev->users);
		u->dev = dev;
	}
	mutex_unlock(&rdmachan_devices_lock);
	return dev;
}

/**
 * rdmachan_device_detach() - undo rdmachan_device_attach()
 * @u: the user; a no-op when it is not attached
 *
 * Context: process context.
 */
void rdmachan_device_detach(struct rdmachan_dev_user *u)
{
	struct rdmachan_device *dev;

	mutex_lock(&rdmachan_devices_lock);
	dev = u->dev;
	list_del_init(&u->node);
	u->dev = NULL;
	mutex_unlock(&rdmachan_devices_lock);
	if (dev)
		rdmachan_device_put(dev);
}

static void rdmachan_rename_one(struct ib_device *ibdev, void *client_data)
{
	struct rdmachan_device *dev = client_data;

	mutex_lock(&rdmachan_devices_lock);
	strscpy(dev->name, dev_name(&ibdev->dev), sizeof(dev->name));
	mutex_unlock(&rdmachan_devices_lock);
}

/**
 * rdmachan_device_init() - start tracking RDMA devices
 * @wq: runs the work of DEVICE_FATAL events; outlives the devices
 * @arrived: told, with the device's name, when a device is added or one
 *	of its ports becomes active (a way to a lost peer may be open again);
 *	any context.  The device layer knows the layers above it by such
 *	callbacks only.
 *
 * Context: process context (module init).
 * Return: 0 or a negative errno from ib_register_client().
 */
int rdmachan_device_init(struct workqueue_struct *wq,
			 void (*arrived)(const char *name))
{
	rdmachan_device_wq = wq;
	rdmachan_device_arrived = arrived;
	return ib_register_client(&rdmachan_ib_client);
}

/**
 * rdmachan_device_exit() - stop tracking; removes every device context
 */
void rdmachan_device_exit(void)
{
	ib_unregister_client(&rdmachan_ib_client);
}
