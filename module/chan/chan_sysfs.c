// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan: /sys/class/rdmachan/chanN and listenerN
 *
 * A channel appears once handed to its user (connect returned, or
 * accepted) and stays, with its final state and counters, until its
 * user closes it.  A listener appears while it listens.  The class and
 * its directories are sysfs.c's; what they show is read here, from the
 * objects' fields (a core file for that).
 *
 * Lifetime: a channel's or listener's directory holds a reference on its
 * object, which rdmachan_sysfs_add() takes and whoever deletes the
 * directory (rdmachan_sysfs_del() says whether there was one) drops; the
 * attributes only read fields, calling nothing of the core.
 * device_unregister() waits out running show() calls, so the object's
 * fields stay valid while they are read.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/device.h>
#include <linux/slab.h>

#include "rdmachan-pri.h"
#include "sysfs.h"
#include "uevent.h"
#include "chan_rxbuf.h"

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
	[RDMACHAN_POLL_UNBOUND]		= "unbound",
};

/* ---- channels -------------------------------------------------------- */

static struct rdmachan *to_chan(struct device *dev)
{
	struct rdmachan_obj *obj = dev_get_drvdata(dev);

	return container_of(obj, struct rdmachan, obj);
}

/**
 * rdmachan_state_name() - a channel state as sysfs and the events say it
 * @s: the state
 *
 * Context: any.
 * Return: its name, "unknown" for none.
 */
const char *rdmachan_state_name(enum rdmachan_state s)
{
	return s < ARRAY_SIZE(rdmachan_state_names) ?
		rdmachan_state_names[s] : "unknown";
}

static ssize_t state_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	return sysfs_emit(buf, "%s\n",
			  rdmachan_state_name(READ_ONCE(to_chan(dev)->state)));
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
	return sysfs_emit(buf, "%s\n",
			  to_chan(dev)->conn.active ? "active" : "passive");
}
static DEVICE_ATTR_RO(role);

static ssize_t src_addr_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	return sysfs_emit(buf, "%pISpc\n", &to_chan(dev)->conn.src);
}
static DEVICE_ATTR_RO(src_addr);

static ssize_t dst_addr_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	return sysfs_emit(buf, "%pISpc\n", &to_chan(dev)->conn.dst);
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

RDMACHAN_CHAN_U32_ATTR(queue_depth, ch->conn.params.queue_depth);
RDMACHAN_CHAN_U32_ATTR(max_msg_size, ch->conn.params.max_msg_size);
RDMACHAN_CHAN_U32_ATTR(max_inline, ch->res.max_inline);
RDMACHAN_CHAN_U32_ATTR(send_credits, ch->credits.avail);
RDMACHAN_CHAN_U32_ATTR(credits_to_return, ch->credits.owed);
RDMACHAN_CHAN_U32_ATTR(credits_granted, ch->credits.granted);
RDMACHAN_CHAN_U32_ATTR(ctrl_credits, ch->ctrl.credits.avail);
RDMACHAN_CHAN_U32_ATTR(ctrl_waits, ch->ctrl.credits.waits);
RDMACHAN_CHAN_U32_ATTR(rx_queued, ch->recv.nr_ready);
RDMACHAN_CHAN_U32_ATTR(qpn, ch->res.qpn);
RDMACHAN_CHAN_U32_ATTR(reg_qpn, ch->res.reg_qpn);

static ssize_t wire_header_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%s\n",
			  to_chan(dev)->conn.hdr_imm ? "immediate" : "in-band");
}
static DEVICE_ATTR_RO(wire_header);
RDMACHAN_CHAN_U32_ATTR(msg_buf_bytes, ch->res.buf_size);
/* the memory a receive buffer takes: 0 before the buffers' size is known */
RDMACHAN_CHAN_U32_ATTR(rx_buf_mem,
		       ch->res.buf_size ? rdmachan_rx_buf_bytes(ch) : 0);

static ssize_t mem_bytes_show(struct device *dev,
			      struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%ld\n", atomic_long_read(&to_chan(dev)->mem));
}
static DEVICE_ATTR_RO(mem_bytes);

/*
 * The latency histograms (hist.c): "LO_US COUNT" a bucket; a write
 * resets one.  Empty for a channel made with latency_hist off.
 */
#define RDMACHAN_CHAN_HIST_ATTR(name, expr)				\
static struct rdmachan_hist *name##_of(struct device *dev)		\
{									\
	struct rdmachan *ch = to_chan(dev);				\
									\
	return expr;							\
}									\
static ssize_t name##_show(struct device *dev,				\
			   struct device_attribute *attr, char *buf)	\
{									\
	return rdmachan_hist_show(name##_of(dev), buf);			\
}									\
static ssize_t name##_store(struct device *dev,				\
			    struct device_attribute *attr,		\
			    const char *buf, size_t count)		\
{									\
	rdmachan_hist_reset(name##_of(dev));				\
	return count;							\
}									\
static DEVICE_ATTR_RW(name)

RDMACHAN_CHAN_HIST_ATTR(hist_send, ch->send.hist);
RDMACHAN_CHAN_HIST_ATTR(hist_recv, ch->recv.hist);

static struct attribute *rdmachan_chan_attrs[] = {
	&dev_attr_state.attr,
	&dev_attr_error.attr,
	&dev_attr_role.attr,
	&dev_attr_src_addr.attr,
	&dev_attr_dst_addr.attr,
	&dev_attr_dev_name.attr,
	&dev_attr_port_num.attr,
	&dev_attr_poll_mode.attr,
	&dev_attr_qpn.attr,
	&dev_attr_reg_qpn.attr,
	&dev_attr_queue_depth.attr,
	&dev_attr_max_msg_size.attr,
	&dev_attr_max_inline.attr,
	&dev_attr_send_credits.attr,
	&dev_attr_credits_to_return.attr,
	&dev_attr_credits_granted.attr,
	&dev_attr_ctrl_credits.attr,
	&dev_attr_ctrl_waits.attr,
	&dev_attr_rx_queued.attr,
	&dev_attr_wire_header.attr,
	&dev_attr_msg_buf_bytes.attr,
	&dev_attr_rx_buf_mem.attr,
	&dev_attr_mem_bytes.attr,
	&dev_attr_hist_send.attr,
	&dev_attr_hist_recv.attr,
	NULL
};

static const struct attribute_group rdmachan_chan_group = {
	.attrs = rdmachan_chan_attrs,
};

static ssize_t rdmachan_stat_show(struct device *dev,
				  struct device_attribute *attr, char *buf)
{
	struct rdmachan_stat_attr *sa = container_of(attr, struct rdmachan_stat_attr,
						     attr);

	return sysfs_emit(buf, "%lld\n",
			  atomic64_read(&to_chan(dev)->stats[sa->offset]));
}

/* The names of the counters, in the order of enum rdmachan_stat */
static const char *const rdmachan_stat_names[RDMACHAN_NR_STATS] = {
#define RDMACHAN_STAT(name)	__stringify(name),
#include "chan_stats.h"
#undef RDMACHAN_STAT
};

/* Filled in by rdmachan_chan_sysfs_init() from rdmachan_stat_names */
static struct rdmachan_stat_attr rdmachan_stat_attrs[RDMACHAN_NR_STATS];
static struct attribute *rdmachan_stats_attrs[RDMACHAN_NR_STATS + 1];

static const struct attribute_group rdmachan_stats_group = {
	.name = "stats",
	.attrs = rdmachan_stats_attrs,
};

static const struct attribute_group *rdmachan_chan_groups[] = {
	&rdmachan_chan_group,
	&rdmachan_stats_group,
	NULL
};

/* ---- listeners ------------------------------------------------------- */

static struct rdmachan_listener *to_listener(struct device *dev)
{
	struct rdmachan_obj *obj = dev_get_drvdata(dev);

	return container_of(obj, struct rdmachan_listener, obj);
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
		       READ_ONCE(l->queue.nr_pending) +
		       READ_ONCE(l->queue.nr_ready))
RDMACHAN_LISTENER_ATTR(accepted, "%lld", atomic64_read(&l->stats.accepted))
RDMACHAN_LISTENER_ATTR(rejected, "%lld", atomic64_read(&l->stats.rejected))
RDMACHAN_LISTENER_ATTR(connecting, "%u", READ_ONCE(l->queue.nr_pending))
RDMACHAN_LISTENER_ATTR(max_connecting, "%u", l->queue.max_connecting)
RDMACHAN_LISTENER_ATTR(mem_pending, "%llu", READ_ONCE(l->queue.charged))
RDMACHAN_LISTENER_ATTR(mem_budget, "%llu", l->queue.budget)
RDMACHAN_LISTENER_ATTR(rejected_busy, "%lld",
		       atomic64_read(&l->stats.rejected_busy))
RDMACHAN_LISTENER_ATTR(rejected_refused, "%lld",
		       atomic64_read(&l->stats.rejected_refused))
RDMACHAN_LISTENER_ATTR(timed_out, "%lld", atomic64_read(&l->stats.timed_out))

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
static RDMACHAN_LISTENER_DEV_ATTR(connecting);
static RDMACHAN_LISTENER_DEV_ATTR(max_connecting);
static RDMACHAN_LISTENER_DEV_ATTR(mem_pending);
static RDMACHAN_LISTENER_DEV_ATTR(mem_budget);
static RDMACHAN_LISTENER_DEV_ATTR(rejected_busy);
static RDMACHAN_LISTENER_DEV_ATTR(rejected_refused);
static RDMACHAN_LISTENER_DEV_ATTR(timed_out);

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
	&dev_attr_listener_connecting.attr,
	&dev_attr_listener_max_connecting.attr,
	&dev_attr_listener_mem_pending.attr,
	&dev_attr_listener_mem_budget.attr,
	&dev_attr_listener_rejected_busy.attr,
	&dev_attr_listener_rejected_refused.attr,
	&dev_attr_listener_timed_out.attr,
	NULL
};
ATTRIBUTE_GROUPS(rdmachan_listener);

/* The variables of a channel's or listener's ADD and REMOVE uevents */
static void rdmachan_sysfs_vars(struct rdmachan_obj *obj,
				enum rdmachan_state state, char *buf,
				size_t size)
{
	char dev[IB_DEVICE_NAME_MAX];
	struct rdmachan_listener *l;
	struct rdmachan *ch;

	if (obj->kind != RDMACHAN_OBJ_CHANNEL) {
		l = container_of(obj, struct rdmachan_listener, obj);
		snprintf(buf, size,
			 "RDMACHAN_OBJ=listener RDMACHAN_ADDR=%pISpc RDMACHAN_ERROR=%d",
			 &l->addr, READ_ONCE(l->err));
		return;
	}
	ch = container_of(obj, struct rdmachan, obj);
	rdmachan_dev_port(ch, dev, sizeof(dev));
	snprintf(buf, size,
		 "RDMACHAN_OBJ=chan RDMACHAN_STATE=%s RDMACHAN_ERROR=%d RDMACHAN_DEV=%s RDMACHAN_QPN=%u RDMACHAN_PEER=%pISpc",
		 rdmachan_state_name(state), READ_ONCE(ch->err),
		 dev[0] ? dev : "-", READ_ONCE(ch->res.qpn), &ch->conn.dst);
}

/**
 * rdmachan_sysfs_state_event() - tell a channel's state change as a uevent
 * @ch: the channel, its directory published (else nothing is told)
 * @old: the state it leaves
 * @state: the state it enters
 * @err: why, for FAILED; else 0
 *
 * Context: ch->lock held, which orders the changes and the publish.
 */
void rdmachan_sysfs_state_event(struct rdmachan *ch, enum rdmachan_state old,
				enum rdmachan_state state, int err)
{
	lockdep_assert_held(&ch->lock);
	rdmachan_uevent_dir(&ch->obj.sysfs_dev,
			    "RDMACHAN_OBJ=chan RDMACHAN_EVENT=state RDMACHAN_STATE=%s RDMACHAN_OLD_STATE=%s RDMACHAN_ERROR=%d RDMACHAN_QPN=%u",
			    rdmachan_state_name(state), rdmachan_state_name(old),
			    err, READ_ONCE(ch->res.qpn));
}

/*
 * Publish a channel's directory for its events.  Its state may have
 * changed since its ADD said @added (changes are told only once it is
 * published): under the lock that orders them, a change from @added is
 * told first, so that the events make one chain from the ADD on.
 */
static void rdmachan_sysfs_publish_chan(struct rdmachan *ch,
					struct device *dev,
					enum rdmachan_state added)
{
	unsigned long flags;

	spin_lock_irqsave(&ch->lock, flags);
	rdmachan_uevent_publish(&ch->obj.sysfs_dev, dev);
	if (ch->state != added)
		rdmachan_sysfs_state_event(ch, added, ch->state, ch->err);
	spin_unlock_irqrestore(&ch->lock, flags);
}

/**
 * rdmachan_sysfs_add() - show a channel or listener in /sys/class/rdmachan
 * @obj: a channel just handed to its user (connected, or accepted), or a
 *	listener now listening
 *
 * Its directory is chanN or listenerN, and holds a reference on the
 * object.  Its ADD uevent says what it is (uevent.c).  A failure is
 * logged and otherwise ignored: the object works without.
 *
 * Context: process context.
 */
void rdmachan_sysfs_add(struct rdmachan_obj *obj)
{
	bool chan = obj->kind == RDMACHAN_OBJ_CHANNEL;
	struct rdmachan *ch = container_of(obj, struct rdmachan, obj);
	char name[32], vars[RDMACHAN_UEV_LEN];
	enum rdmachan_state state = chan ? READ_ONCE(ch->state) : 0;
	struct device *dev;

	snprintf(name, sizeof(name), "%s%u", chan ? "chan" : "listener",
		 obj->id);
	rdmachan_sysfs_vars(obj, state, vars, sizeof(vars));
	dev = rdmachan_sysfs_add_dir(chan ? rdmachan_chan_groups :
				     rdmachan_listener_groups, obj, name, vars);
	if (!dev) {
		rdmachan_obj_log(pr_warn, obj, "no sysfs directory\n");
		return;
	}
	kref_get(&obj->ref);	/* the directory's */
	if (chan)
		rdmachan_sysfs_publish_chan(ch, dev, state);
	else
		rdmachan_uevent_publish(&obj->sysfs_dev, dev);
}

/**
 * rdmachan_sysfs_del() - remove a channel's or listener's directory
 * @obj: the channel or listener
 *
 * Its REMOVE uevent follows the events of its changes.
 *
 * Context: process context; waits for running attribute reads.
 * Return: whether it had one: the caller then drops the directory's
 * reference.
 */
bool rdmachan_sysfs_del(struct rdmachan_obj *obj)
{
	struct rdmachan *ch = container_of(obj, struct rdmachan, obj);
	enum rdmachan_state state = 0;
	char vars[RDMACHAN_UEV_LEN];
	unsigned long flags;
	struct device *dev;

	if (obj->kind == RDMACHAN_OBJ_CHANNEL) {
		/* the state the REMOVE says is the last one told */
		spin_lock_irqsave(&ch->lock, flags);
		state = ch->state;
		dev = rdmachan_uevent_unpublish(&obj->sysfs_dev);
		spin_unlock_irqrestore(&ch->lock, flags);
	} else {
		dev = rdmachan_uevent_unpublish(&obj->sysfs_dev);
	}
	if (!dev)
		return false;
	rdmachan_sysfs_vars(obj, state, vars, sizeof(vars));
	rdmachan_sysfs_del_dir(dev, vars);
	return true;
}

/**
 * rdmachan_chan_sysfs_init() - name the counter attributes of channels
 *
 * Context: module init, before any channel exists.
 */
void rdmachan_chan_sysfs_init(void)
{
	unsigned int i;

	for (i = 0; i < RDMACHAN_NR_STATS; i++) {
		struct rdmachan_stat_attr *sa = &rdmachan_stat_attrs[i];

		sa->attr.attr.name = rdmachan_stat_names[i];
		sa->attr.attr.mode = 0444;
		sa->attr.show = rdmachan_stat_show;
		sa->offset = i;
		rdmachan_stats_attrs[i] = &sa->attr.attr;
	}
}
