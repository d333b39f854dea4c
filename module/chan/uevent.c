// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan: events as uevents, for "rdmachan monitor", udev and systemd
 *
 * What changes (a channel's state, a device's port, a link's reconnect,
 * a block mapping, a network interface's carrier) is told as a KOBJ_CHANGE
 * uevent of the object's sysfs directory, with RDMACHAN_* variables
 * (Documentation/debugging.rst, "Events").  The changes happen under
 * spinlocks and in softirq, where a uevent cannot be sent (it allocates
 * and sleeps): rdmachan_uevent() formats the event into a GFP_ATOMIC
 * allocation holding a reference on the directory, and one work item
 * sends the queue in order.
 *
 * Order: one mutex, rdmachan_uev_mutex, is held to send the queue and to
 * add and remove the class's directories, which send their own ADD and
 * REMOVE (with RDMACHAN_* variables too) after what was queued before.
 * So a listener sees every event once, in the order it happened: a
 * channel's ADD before its changes, its changes before its REMOVE.  A user
 * of the API that removes a directory of its own (a disk, a netdev) calls
 * rdmachan_uevent_flush() first, once nothing makes events for it.
 *
 * An event that finds no memory is lost, with a log line.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/device.h>
#include <linux/kobject.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>

#include "rdmachan.h"
#include "uevent.h"

/* One queued event: its directory (a reference) and its variables */
struct rdmachan_uev {
	struct list_head node;
	struct device *dev;
	char buf[RDMACHAN_UEV_LEN];
};

/* the queue, and the directory pointers of rdmachan_uevent_publish() */
static DEFINE_SPINLOCK(rdmachan_uev_queue_lock);
static LIST_HEAD(rdmachan_uev_queue);
/* held while sending, and while adding or removing a directory */
static DEFINE_MUTEX(rdmachan_uev_mutex);
static atomic_t rdmachan_uev_lost = ATOMIC_INIT(0);

static void rdmachan_uev_work_fn(struct work_struct *work);
static DECLARE_WORK(rdmachan_uev_work, rdmachan_uev_work_fn);

static void rdmachan_uev_send(struct device *dev, enum kobject_action action,
			      char *vars)
{
	char *envp[RDMACHAN_UEV_VARS + 1];

	rdmachan_uev_split(vars, envp, RDMACHAN_UEV_VARS);
	kobject_uevent_env(&dev->kobj, action, envp);
}

/* Send what is queued, in order */
static void rdmachan_uev_drain(void)
{
	struct rdmachan_uev *e;

	lockdep_assert_held(&rdmachan_uev_mutex);
	for (;;) {
		spin_lock_irq(&rdmachan_uev_queue_lock);
		e = list_first_entry_or_null(&rdmachan_uev_queue,
					     struct rdmachan_uev, node);
		if (e)
			list_del(&e->node);
		spin_unlock_irq(&rdmachan_uev_queue_lock);
		if (!e)
			return;
		/* a directory its owner removed without a flush: too late */
		if (device_is_registered(e->dev))
			rdmachan_uev_send(e->dev, KOBJ_CHANGE, e->buf);
		put_device(e->dev);
		kfree(e);
	}
}

static void rdmachan_uev_work_fn(struct work_struct *work)
{
	mutex_lock(&rdmachan_uev_mutex);
	rdmachan_uev_drain();
	mutex_unlock(&rdmachan_uev_mutex);
}

static __printf(1, 0) struct rdmachan_uev *
rdmachan_uev_make(const char *fmt, va_list args)
{
	struct rdmachan_uev *e;

	e = kmalloc(sizeof(*e), GFP_ATOMIC | __GFP_NOWARN);
	if (!e) {
		pr_warn_ratelimited("no memory for an event: %d lost so far\n",
				    atomic_inc_return(&rdmachan_uev_lost));
		return NULL;
	}
	if (vsnprintf(e->buf, sizeof(e->buf), fmt, args) >= sizeof(e->buf))
		pr_warn_once("an event was cut short: %s\n", e->buf);
	return e;
}

/* Queue @e for @dev, under rdmachan_uev_queue_lock */
static void rdmachan_uev_queue_locked(struct rdmachan_uev *e,
				      struct device *dev)
{
	e->dev = get_device(dev);
	list_add_tail(&e->node, &rdmachan_uev_queue);
	queue_work(system_unbound_wq, &rdmachan_uev_work);
}

/*
 * Queue an event of @dev, or of the directory published at @devp (none:
 * nothing is queued)
 */
static __printf(3, 0) void rdmachan_uev_vqueue(struct device *dev,
					       struct device **devp,
					       const char *fmt, va_list args)
{
	struct rdmachan_uev *e = rdmachan_uev_make(fmt, args);
	unsigned long flags;

	if (!e)
		return;
	spin_lock_irqsave(&rdmachan_uev_queue_lock, flags);
	if (devp)
		dev = *devp;
	if (dev) {
		rdmachan_uev_queue_locked(e, dev);
		e = NULL;
	}
	spin_unlock_irqrestore(&rdmachan_uev_queue_lock, flags);
	kfree(e);
}

/**
 * rdmachan_uevent() - tell a change as a KOBJ_CHANGE uevent of @dev
 * @dev: the sysfs directory the change is of (a disk, a netdev); it must
 *	stay registered until the caller's rdmachan_uevent_flush()
 * @fmt: the variables, "RDMACHAN_KEY=VALUE" separated by spaces (no value
 *	holds a space), printf-style, at most RDMACHAN_UEV_VARS of them
 *
 * The event is sent from a work item, after every event queued before it
 * (Documentation/debugging.rst, "Events").  Without memory it is lost,
 * with a log line.
 *
 * Context: any.
 */
__printf(2, 3) void rdmachan_uevent(struct device *dev, const char *fmt, ...)
{
	va_list args;

	if (!dev)
		return;
	va_start(args, fmt);
	rdmachan_uev_vqueue(dev, NULL, fmt, args);
	va_end(args);
}
EXPORT_SYMBOL_GPL(rdmachan_uevent);

/**
 * rdmachan_uevent_flush() - send every event queued so far
 *
 * For a user about to remove a directory it made events of: called after
 * the last event and before the removal, so that they go out before its
 * REMOVE.
 *
 * Context: process context, sleeps; not under a lock taken by a sysfs
 * attribute of rdmachan's class.
 */
void rdmachan_uevent_flush(void)
{
	mutex_lock(&rdmachan_uev_mutex);
	rdmachan_uev_drain();
	mutex_unlock(&rdmachan_uev_mutex);
}
EXPORT_SYMBOL_GPL(rdmachan_uevent_flush);

/**
 * rdmachan_uevent_dir() - rdmachan_uevent() of a class directory
 * @devp: where the directory is published (rdmachan_uevent_publish());
 *	nothing when there is none (not yet made, or removed)
 * @fmt: as rdmachan_uevent()'s
 *
 * Context: any.
 */
__printf(2, 3) void rdmachan_uevent_dir(struct device **devp,
					const char *fmt, ...)
{
	va_list args;

	if (!READ_ONCE(*devp))
		return;
	va_start(args, fmt);
	rdmachan_uev_vqueue(NULL, devp, fmt, args);
	va_end(args);
}

/**
 * rdmachan_uevent_publish() - events of a directory may now be queued
 * @devp: where its owner keeps it
 * @dev: the directory, added (rdmachan_uevent_add()), or NULL
 *
 * Context: any.
 */
void rdmachan_uevent_publish(struct device **devp, struct device *dev)
{
	unsigned long flags;

	spin_lock_irqsave(&rdmachan_uev_queue_lock, flags);
	*devp = dev;
	spin_unlock_irqrestore(&rdmachan_uev_queue_lock, flags);
}

/**
 * rdmachan_uevent_unpublish() - no more events of a directory
 * @devp: where its owner keeps it; cleared
 *
 * After it, rdmachan_uevent_dir() queues nothing for the directory: the
 * owner may remove it (rdmachan_uevent_del()).
 *
 * Context: any.
 * Return: the directory, or NULL.
 */
struct device *rdmachan_uevent_unpublish(struct device **devp)
{
	struct device *dev;
	unsigned long flags;

	spin_lock_irqsave(&rdmachan_uev_queue_lock, flags);
	dev = *devp;
	*devp = NULL;
	spin_unlock_irqrestore(&rdmachan_uev_queue_lock, flags);
	return dev;
}

/**
 * rdmachan_uevent_add() - device_add() a class directory, its ADD in order
 * @dev: the directory, initialized
 * @vars: the ADD's variables, as rdmachan_uevent()'s (cut in place)
 *
 * Context: process context, sleeps.
 * Return: device_add()'s.
 */
int rdmachan_uevent_add(struct device *dev, const char *vars)
{
	char buf[RDMACHAN_UEV_LEN];
	int ret;

	strscpy(buf, vars, sizeof(buf));
	mutex_lock(&rdmachan_uev_mutex);
	rdmachan_uev_drain();
	/* its own ADD, with the variables, after what was queued */
	dev_set_uevent_suppress(dev, true);
	ret = device_add(dev);
	dev_set_uevent_suppress(dev, false);
	if (!ret)
		rdmachan_uev_send(dev, KOBJ_ADD, buf);
	mutex_unlock(&rdmachan_uev_mutex);
	return ret;
}

/**
 * rdmachan_uevent_del() - device_del() a class directory, its REMOVE in order
 * @dev: the directory, unpublished (rdmachan_uevent_unpublish())
 * @vars: the REMOVE's variables, as rdmachan_uevent()'s
 *
 * Context: process context, sleeps; waits for running attribute reads.
 */
void rdmachan_uevent_del(struct device *dev, const char *vars)
{
	char buf[RDMACHAN_UEV_LEN];

	strscpy(buf, vars, sizeof(buf));
	mutex_lock(&rdmachan_uev_mutex);
	rdmachan_uev_drain();
	rdmachan_uev_send(dev, KOBJ_REMOVE, buf);
	dev_set_uevent_suppress(dev, true);
	device_del(dev);
	mutex_unlock(&rdmachan_uev_mutex);
}

/**
 * rdmachan_uevent_exit() - module exit: send what is left
 *
 * Context: module exit, after the last directory is removed.
 */
void rdmachan_uevent_exit(void)
{
	flush_work(&rdmachan_uev_work);
	rdmachan_uevent_flush();
}
