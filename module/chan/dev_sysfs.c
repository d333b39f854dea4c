// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan: /sys/class/rdmachan/devN - an RDMA device's event counters
 *
 * A directory for each RDMA device while rdmachan knows it (device.c),
 * named after the ib_device's index, which a rename keeps.  It holds no
 * reference: the device's removal deletes it first thing.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/device.h>

#include "device.h"
#include "sysfs.h"
#include "uevent.h"

static struct rdmachan_device *to_rdev(struct device *dev)
{
	return dev_get_drvdata(dev);
}

static ssize_t rdev_name_show(struct device *dev, struct device_attribute *attr,
			      char *buf)
{
	/* dev_name() of the ib_device follows renames */
	return sysfs_emit(buf, "%s\n", dev_name(&to_rdev(dev)->ibdev->dev));
}

static struct device_attribute dev_attr_rdev_name =
	__ATTR(name, 0444, rdev_name_show, NULL);

/* An event counter of struct rdmachan_device, found by its offset */
static ssize_t rdmachan_rdev_counter_show(struct device *dev,
					  struct device_attribute *attr,
					  char *buf)
{
	struct rdmachan_stat_attr *sa = container_of(attr, struct rdmachan_stat_attr,
						     attr);
	atomic_t *v = (void *)to_rdev(dev) + sa->offset;

	return sysfs_emit(buf, "%d\n", atomic_read(v));
}

#define RDMACHAN_RDEV_ATTR(_name)					\
	struct rdmachan_stat_attr rdmachan_rdev_##_name = {		\
		.attr = {						\
			.attr = { .name = __stringify(_name), .mode = 0444 }, \
			.show = rdmachan_rdev_counter_show,		\
		},							\
		.offset = offsetof(struct rdmachan_device, _name),	\
	}

static RDMACHAN_RDEV_ATTR(async_events);
static RDMACHAN_RDEV_ATTR(port_events);
static RDMACHAN_RDEV_ATTR(fatal_events);
static RDMACHAN_RDEV_ATTR(qp_events);
static RDMACHAN_RDEV_ATTR(cq_events);
static RDMACHAN_RDEV_ATTR(grow_refused);

static ssize_t rx_grown_bytes_show(struct device *dev,
				   struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%lld\n",
			  (long long)atomic64_read(&to_rdev(dev)->rx_grown));
}

static struct device_attribute dev_attr_rx_grown_bytes =
	__ATTR(rx_grown_bytes, 0444, rx_grown_bytes_show, NULL);

static struct attribute *rdmachan_rdev_attrs[] = {
	&dev_attr_rdev_name.attr,
	&rdmachan_rdev_async_events.attr.attr,
	&rdmachan_rdev_port_events.attr.attr,
	&rdmachan_rdev_fatal_events.attr.attr,
	&rdmachan_rdev_qp_events.attr.attr,
	&rdmachan_rdev_cq_events.attr.attr,
	&rdmachan_rdev_grow_refused.attr.attr,
	&dev_attr_rx_grown_bytes.attr,
	NULL,
};
ATTRIBUTE_GROUPS(rdmachan_rdev);

/* The variables of a device directory's ADD and REMOVE uevents */
static void rdmachan_sysfs_dev_vars(struct rdmachan_device *dev, char *buf,
				    size_t size)
{
	snprintf(buf, size, "RDMACHAN_OBJ=dev RDMACHAN_DEV=%s", dev->name);
}

/**
 * rdmachan_sysfs_add_device() - show an RDMA device's event counters
 * @dev: the device, just added; its directory is devN, N the ib_device's
 *	index, which a rename keeps
 *
 * A failure is logged and otherwise ignored.
 *
 * Context: process context.
 */
void rdmachan_sysfs_add_device(struct rdmachan_device *dev)
{
	char name[32], vars[RDMACHAN_UEV_LEN];
	struct device *sdev;

	snprintf(name, sizeof(name), "dev%u", dev->ibdev->index);
	rdmachan_sysfs_dev_vars(dev, vars, sizeof(vars));
	/* no reference: removal deletes the directory before the device */
	sdev = rdmachan_sysfs_add_dir(rdmachan_rdev_groups, dev, name, vars);
	if (sdev)
		rdmachan_uevent_publish(&dev->sysfs_dev, sdev);
	else
		pr_warn("%s: no sysfs directory\n", dev->name);
}

/**
 * rdmachan_sysfs_del_device() - remove an RDMA device's directory
 * @dev: the device, going away
 *
 * Context: process context; waits for running attribute reads.
 */
void rdmachan_sysfs_del_device(struct rdmachan_device *dev)
{
	struct device *sdev = rdmachan_uevent_unpublish(&dev->sysfs_dev);
	char vars[RDMACHAN_UEV_LEN];

	if (!sdev)
		return;
	rdmachan_sysfs_dev_vars(dev, vars, sizeof(vars));
	rdmachan_sysfs_del_dir(sdev, vars);
}
