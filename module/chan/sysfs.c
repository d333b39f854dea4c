// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan: the class /sys/class/rdmachan and its directories
 *
 * The mechanism only: the class, and a directory of it with the
 * attribute groups its caller gives.  What the directories show is their
 * layer's: channels and listeners in chan_sysfs.c, RDMA devices in
 * dev_sysfs.c.  Every attribute is read-only but a channel's latency
 * histograms (a write resets one); Documentation/ABI/testing/
 * sysfs-class-rdmachan lists them.  A
 * directory's ADD and REMOVE uevents go in order with the events of
 * uevent.c, with variables that say what it is.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/device.h>
#include <linux/slab.h>

#include "sysfs.h"
#include "uevent.h"

/*
 * Static and registered, not class_create()d: class_create() lost its
 * owner argument in Linux 6.4, class_register() is the same on all.
 */
static struct class rdmachan_class = {
	.name	= "rdmachan",
};

static void rdmachan_sysfs_release(struct device *dev)
{
	kfree(dev);
}

/**
 * rdmachan_sysfs_add_dir() - one directory of the class
 * @groups: its attributes
 * @obj: what they show (the device's drvdata)
 * @name: its name
 * @vars: the variables of its ADD uevent (uevent.c)
 *
 * device_unregister() waits for running attribute reads, so @obj need
 * only live until rdmachan_sysfs_del_dir() has returned; the callers
 * hold a reference on it for the directory, dropped there.
 *
 * Its events can be queued once its owner published it
 * (rdmachan_uevent_publish()).
 *
 * Context: process context.
 * Return: the directory, or NULL when it could not be added.
 */
struct device *rdmachan_sysfs_add_dir(const struct attribute_group **groups,
				      void *obj, const char *name,
				      const char *vars)
{
	struct device *dev;
	int ret;

	dev = kzalloc(sizeof(*dev), GFP_KERNEL);
	if (!dev)
		return NULL;
	device_initialize(dev);
	/* nothing to suspend: no power/ directory, off the PM lists */
	device_set_pm_not_required(dev);
	dev->class = &rdmachan_class;
	dev->groups = groups;
	dev->release = rdmachan_sysfs_release;
	dev_set_drvdata(dev, obj);
	ret = dev_set_name(dev, "%s", name);
	if (!ret)
		ret = rdmachan_uevent_add(dev, vars);
	if (ret) {
		put_device(dev);
		return NULL;
	}
	return dev;
}

/**
 * rdmachan_sysfs_del_dir() - remove a directory of the class
 * @dev: the directory, unpublished by its owner (rdmachan_uevent_unpublish())
 * @vars: the variables of its REMOVE uevent
 *
 * The events queued for it go out before its REMOVE.
 *
 * Context: process context; waits for running attribute reads.
 */
void rdmachan_sysfs_del_dir(struct device *dev, const char *vars)
{
	rdmachan_uevent_del(dev, vars);
	put_device(dev);
}

/**
 * rdmachan_sysfs_init() - register the rdmachan class
 *
 * Return: 0 or a negative errno.
 */
int rdmachan_sysfs_init(void)
{
	return class_register(&rdmachan_class);
}

/**
 * rdmachan_sysfs_exit() - unregister the class; every device is gone
 */
void rdmachan_sysfs_exit(void)
{
	class_unregister(&rdmachan_class);
}
