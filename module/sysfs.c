// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan: /sys/class/rdmachan/chanN and listenerN
 *
 * A channel appears once handed to its user (connect returned, or
 * accepted) and stays, with its final state and counters, until its
 * user closes it.  A listener appears while it listens.  Every attribute
 * is read-only; Documentation/ABI/testing/sysfs-class-rdmachan has them.
 *
 * Lifetime: the class device holds a reference on its object, dropped by
 * the device's release; device_unregister() waits out running show()
 * calls, so the object's fields stay valid while they are read.
 */
#include <linux/device.h>
#include <linux/slab.h>

#include "chan.h"
#include "sysfs.h"

static struct class *rdmachan_class;

static const char *const rdmachan_state_names[] = {
	[RDMACHAN_CONNECTING]	= "connecting",
	[RDMACHAN_CONNECTED]	= "connected",
	[RDMACHAN_DISCONNECTED]	= "disconnected",
	[RDMACHAN_FAILED]	= "failed",
};

static const char *const rdmachan_poll_names[] = {
	[RDMACHAN_POLL_SOFTIRQ]		= "softirq",
	[RDMACHAN_POLL_WORKQUEUE]	= "workqueue",
	[RDMACHAN_POLL_DIRECT]		= "direct",
	[RDMACHAN_POLL_SOLICITED]	= "solicited",
};

/* ---- channels -------------------------------------------------------- */

static struct rdmachan *to_chan(struct device *dev)
{
	return dev_get_drvdata(dev);
}

static ssize_t state_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	enum rdmachan_state s = READ_ONCE(to_chan(dev)->state);

	return sysfs_emit(buf, "%s\n", s < ARRAY_SIZE(rdmachan_state_names) ?
			  rdmachan_state_names[s] : "unknown");
}
static DEVICE_ATTR_RO(state);

static ssize_t error_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	return sysfs_emit(buf, "%d\n", READ_ONCE(to_chan(dev)->err));
}
static DEVICE_ATTR_RO(error);

static ssize_t role_show(struct device *dev, struct device_attribute *attr,
			 char *buf)
{
	return sysfs_emit(buf, "%s\n", to_chan(dev)->active ? "active" : "passive");
}
static DEVICE_ATTR_RO(role);

static ssize_t src_addr_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	return sysfs_emit(buf, "%pISpc\n", &to_chan(dev)->src);
}
static DEVICE_ATTR_RO(src_addr);

static ssize_t dst_addr_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	return sysfs_emit(buf, "%pISpc\n", &to_chan(dev)->dst);
}
static DEVICE_ATTR_RO(dst_addr);

/* The RDMA device and port; empty and 0 once the channel was torn down. */
static ssize_t dev_name_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	char name[IB_DEVICE_NAME_MAX];

	rdmachan_dev_port(to_chan(dev), name, sizeof(name));
	return sysfs_emit(buf, "%s\n", name);
}
static DEVICE_ATTR_RO(dev_name);

static ssize_t port_num_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	char name[IB_DEVICE_NAME_MAX];

	return sysfs_emit(buf, "%u\n",
			  rdmachan_dev_port(to_chan(dev), name, sizeof(name)));
}
static DEVICE_ATTR_RO(port_num);

static ssize_t poll_mode_show(struct device *dev, struct device_attribute *attr,
			      char *buf)
{
	u32 m = to_chan(dev)->opts.poll_mode;

	return sysfs_emit(buf, "%s\n", m < ARRAY_SIZE(rdmachan_poll_names) ?
			  rdmachan_poll_names[m] : "unknown");
}
static DEVICE_ATTR_RO(poll_mode);

#define RDMACHAN_CHAN_U32_ATTR(name, expr)				\
static ssize_t name##_show(struct device *dev,				\
			   struct device_attribute *attr, char *buf)	\
{									\
	struct rdmachan *ch = to_chan(dev);				\
	unsigned long flags;						\
	u32 v;								\
									\
	spin_lock_irqsave(&ch->lock, flags);				\
	v = (expr);							\
	spin_unlock_irqrestore(&ch->lock, flags);			\
	return sysfs_emit(buf, "%u\n", v);				\
}									\
static DEVICE_ATTR_RO(name)

RDMACHAN_CHAN_U32_ATTR(queue_depth, ch->params.queue_depth);
RDMACHAN_CHAN_U32_ATTR(max_msg_size, ch->params.max_msg_size);
RDMACHAN_CHAN_U32_ATTR(max_inline, ch->max_inline);
RDMACHAN_CHAN_U32_ATTR(send_credits, ch->credits.avail);
RDMACHAN_CHAN_U32_ATTR(credits_to_return, ch->credits.owed);
RDMACHAN_CHAN_U32_ATTR(rx_queued, ch->rx_ready_count);

static ssize_t wire_header_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%s\n", to_chan(dev)->hdr_imm ? "immediate" :
							      "in-band");
}
static DEVICE_ATTR_RO(wire_header);

static struct attribute *rdmachan_chan_attrs[] = {
	&dev_attr_state.attr,
	&dev_attr_error.attr,
	&dev_attr_role.attr,
	&dev_attr_src_addr.attr,
	&dev_attr_dst_addr.attr,
	&dev_attr_dev_name.attr,
	&dev_attr_port_num.attr,
	&dev_attr_poll_mode.attr,
	&dev_attr_queue_depth.attr,
	&dev_attr_max_msg_size.attr,
	&dev_attr_max_inline.attr,
	&dev_attr_send_credits.attr,
	&dev_attr_credits_to_return.attr,
	&dev_attr_rx_queued.attr,
	&dev_attr_wire_header.attr,
	NULL
};

static const struct attribute_group rdmachan_chan_group = {
	.attrs = rdmachan_chan_attrs,
};

/* A counter of struct rdmachan_stats, found by its offset */
struct rdmachan_stat_attr {
	struct device_attribute attr;
	size_t offset;
};

static ssize_t rdmachan_stat_show(struct device *dev,
				  struct device_attribute *attr, char *buf)
{
	struct rdmachan_stat_attr *sa = container_of(attr, struct rdmachan_stat_attr,
						     attr);
	atomic64_t *v = (void *)&to_chan(dev)->stats + sa->offset;

	return sysfs_emit(buf, "%lld\n", atomic64_read(v));
}

#define RDMACHAN_STAT_ATTR(_name)					\
	struct rdmachan_stat_attr rdmachan_stat_##_name = {		\
		.attr = {						\
			.attr = { .name = __stringify(_name), .mode = 0444 }, \
			.show = rdmachan_stat_show,			\
		},							\
		.offset = offsetof(struct rdmachan_stats, _name),	\
	}

static RDMACHAN_STAT_ATTR(msgs_tx);
static RDMACHAN_STAT_ATTR(bytes_tx);
static RDMACHAN_STAT_ATTR(msgs_rx);
static RDMACHAN_STAT_ATTR(bytes_rx);
static RDMACHAN_STAT_ATTR(credit_stalls);
static RDMACHAN_STAT_ATTR(credit_msgs_tx);
static RDMACHAN_STAT_ATTR(keepalives_tx);
static RDMACHAN_STAT_ATTR(errors);
static RDMACHAN_STAT_ATTR(solicited_events);

static struct attribute *rdmachan_stats_attrs[] = {
	&rdmachan_stat_msgs_tx.attr.attr,
	&rdmachan_stat_bytes_tx.attr.attr,
	&rdmachan_stat_msgs_rx.attr.attr,
	&rdmachan_stat_bytes_rx.attr.attr,
	&rdmachan_stat_credit_stalls.attr.attr,
	&rdmachan_stat_credit_msgs_tx.attr.attr,
	&rdmachan_stat_keepalives_tx.attr.attr,
	&rdmachan_stat_errors.attr.attr,
	&rdmachan_stat_solicited_events.attr.attr,
	NULL
};

static const struct attribute_group rdmachan_stats_group = {
	.name = "stats",
	.attrs = rdmachan_stats_attrs,
};

static const struct attribute_group *rdmachan_chan_groups[] = {
	&rdmachan_chan_group,
	&rdmachan_stats_group,
	NULL
};

static void rdmachan_chan_dev_release(struct device *dev)
{
	struct rdmachan *ch = dev_get_drvdata(dev);

	kfree(dev);
	rdmachan_put(ch);
}

/**
 * rdmachan_sysfs_add_channel() - show a channel in /sys/class/rdmachan
 * @ch: the channel, just handed to its user
 *
 * A failure is logged and otherwise ignored: the channel works without.
 *
 * Context: process context.
 */
void rdmachan_sysfs_add_channel(struct rdmachan *ch)
{
	struct device *dev;
	int ret;

	dev = kzalloc(sizeof(*dev), GFP_KERNEL);
	if (!dev)
		goto fail;
	device_initialize(dev);
	dev->class = rdmachan_class;
	dev->groups = rdmachan_chan_groups;
	dev->release = rdmachan_chan_dev_release;
	rdmachan_get(ch);
	dev_set_drvdata(dev, ch);
	ret = dev_set_name(dev, "chan%u", ch->id);
	if (!ret)
		ret = device_add(dev);
	if (ret) {
		put_device(dev);	/* drops the channel reference too */
		goto fail;
	}
	ch->sysfs_dev = dev;
	return;
fail:
	pr_warn("channel %u: no sysfs directory\n", ch->id);
}

/**
 * rdmachan_sysfs_del_channel() - remove a channel's sysfs directory
 * @ch: the channel
 *
 * Context: process context; waits for running attribute reads.
 */
void rdmachan_sysfs_del_channel(struct rdmachan *ch)
{
	struct device *dev = ch->sysfs_dev;

	if (!dev)
		return;
	ch->sysfs_dev = NULL;
	device_unregister(dev);
}

/* ---- listeners ------------------------------------------------------- */

static struct rdmachan_listener *to_listener(struct device *dev)
{
	return dev_get_drvdata(dev);
}

static ssize_t listener_state_show(struct device *dev,
				   struct device_attribute *attr, char *buf)
{
	struct rdmachan_listener *l = to_listener(dev);

	return sysfs_emit(buf, "%s\n", READ_ONCE(l->closing) ?
			  (READ_ONCE(l->err) ? "failed" : "closed") : "listening");
}

static ssize_t listener_error_show(struct device *dev,
				   struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%d\n", READ_ONCE(to_listener(dev)->err));
}

static ssize_t listener_src_addr_show(struct device *dev,
				      struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%pISpc\n", &to_listener(dev)->addr);
}

#define RDMACHAN_LISTENER_ATTR(name, fmt, expr)				\
static ssize_t listener_##name##_show(struct device *dev,		\
				      struct device_attribute *attr,	\
				      char *buf)			\
{									\
	struct rdmachan_listener *l = to_listener(dev);			\
									\
	return sysfs_emit(buf, fmt "\n", expr);				\
}

RDMACHAN_LISTENER_ATTR(backlog, "%u", l->opts.backlog)
RDMACHAN_LISTENER_ATTR(queue_depth, "%u", l->opts.queue_depth)
RDMACHAN_LISTENER_ATTR(max_msg_size, "%u", l->opts.max_msg_size)
RDMACHAN_LISTENER_ATTR(pending, "%u",
		       READ_ONCE(l->nr_pending) + READ_ONCE(l->nr_ready))
RDMACHAN_LISTENER_ATTR(accepted, "%lld", atomic64_read(&l->accepted))
RDMACHAN_LISTENER_ATTR(rejected, "%lld", atomic64_read(&l->rejected))

#define RDMACHAN_LISTENER_DEV_ATTR(name) \
	struct device_attribute dev_attr_listener_##name = \
		__ATTR(name, 0444, listener_##name##_show, NULL)

static RDMACHAN_LISTENER_DEV_ATTR(state);
static RDMACHAN_LISTENER_DEV_ATTR(error);
static RDMACHAN_LISTENER_DEV_ATTR(src_addr);
static RDMACHAN_LISTENER_DEV_ATTR(backlog);
static RDMACHAN_LISTENER_DEV_ATTR(queue_depth);
static RDMACHAN_LISTENER_DEV_ATTR(max_msg_size);
static RDMACHAN_LISTENER_DEV_ATTR(pending);
static RDMACHAN_LISTENER_DEV_ATTR(accepted);
static RDMACHAN_LISTENER_DEV_ATTR(rejected);

static struct attribute *rdmachan_listener_attrs[] = {
	&dev_attr_listener_state.attr,
	&dev_attr_listener_error.attr,
	&dev_attr_listener_src_addr.attr,
	&dev_attr_listener_backlog.attr,
	&dev_attr_listener_queue_depth.attr,
	&dev_attr_listener_max_msg_size.attr,
	&dev_attr_listener_pending.attr,
	&dev_attr_listener_accepted.attr,
	&dev_attr_listener_rejected.attr,
	NULL
};
ATTRIBUTE_GROUPS(rdmachan_listener);

static void rdmachan_listener_dev_release(struct device *dev)
{
	struct rdmachan_listener *l = dev_get_drvdata(dev);

	kfree(dev);
	rdmachan_listener_put(l);
}

/**
 * rdmachan_sysfs_add_listener() - show a listener in /sys/class/rdmachan
 * @l: the listener, now listening
 *
 * Context: process context.
 */
void rdmachan_sysfs_add_listener(struct rdmachan_listener *l)
{
	struct device *dev;
	int ret;

	dev = kzalloc(sizeof(*dev), GFP_KERNEL);
	if (!dev)
		goto fail;
	device_initialize(dev);
	dev->class = rdmachan_class;
	dev->groups = rdmachan_listener_groups;
	dev->release = rdmachan_listener_dev_release;
	rdmachan_listener_get(l);
	dev_set_drvdata(dev, l);
	ret = dev_set_name(dev, "listener%u", l->id);
	if (!ret)
		ret = device_add(dev);
	if (ret) {
		put_device(dev);
		goto fail;
	}
	l->sysfs_dev = dev;
	return;
fail:
	pr_warn("listener %u: no sysfs directory\n", l->id);
}

/**
 * rdmachan_sysfs_del_listener() - remove a listener's sysfs directory
 * @l: the listener
 *
 * Context: process context.
 */
void rdmachan_sysfs_del_listener(struct rdmachan_listener *l)
{
	struct device *dev = l->sysfs_dev;

	if (!dev)
		return;
	l->sysfs_dev = NULL;
	device_unregister(dev);
}

/**
 * rdmachan_sysfs_init() - register the rdmachan class
 *
 * Return: 0 or a negative errno.
 */
int rdmachan_sysfs_init(void)
{
	rdmachan_class = class_create(THIS_MODULE, "rdmachan");
	return PTR_ERR_OR_ZERO(rdmachan_class);
}

/**
 * rdmachan_sysfs_exit() - unregister the class; every device is gone
 */
void rdmachan_sysfs_exit(void)
{
	class_destroy(rdmachan_class);
}
