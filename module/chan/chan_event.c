// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan: asynchronous events of a channel's queue pair and completion
 * queues, and their fault injection
 *
 * A fatal QP event (QP_FATAL, QP_REQ_ERR, QP_ACCESS_ERR, PATH_MIG_ERR)
 * or a CQ error means the channel's transport is broken: the channel
 * fails at once with -EIO (its users see EPOLLERR and EIO, a kernel user
 * gets state_change()), the event is logged and counted on the device
 * (/sys/class/rdmachan/devN/qp_events, cq_events).  COMM_EST (a message
 * arrived before the connection's RTU) is passed to rdma_cm, as nvmet
 * does.  Such events come in whatever context the provider raises them
 * (softirq for the software ones): only atomic-safe work here.
 *
 * /sys/kernel/debug/rdmachan/inject takes "N qp_error", "N qp_fatal",
 * "N cq_error", "N keepalive_stuck", "N ctrl_hold" or "N ctrl_release"
 * for channel N (chanN): the first moves the channel's QP to the error
 * state behind its back (its work requests then complete flushed), the
 * next two raise the event, the fourth makes the keepalive tick see a
 * probe that never ended, the last two hold back and give back the
 * receive buffers of the peer's control messages (rdmachan_ctrl_hold()).
 * /sys/kernel/debug/rdmachan/cm_destroy_delay_ms holds every channel's
 * rdma_cm identifier that long before it is destroyed (0, the default:
 * not at all), as ib_cm does when a CM message of it never completes;
 * writing 0 lets the waiting ones go.  For tests; root only.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/uaccess.h>

#include "rdmachan-pri.h"
#include "device.h"
#include "hist.h"

static bool rdmachan_qp_event_fatal(enum ib_event_type type)
{
	switch (type) {
	case IB_EVENT_QP_FATAL:
	case IB_EVENT_QP_REQ_ERR:
	case IB_EVENT_QP_ACCESS_ERR:
	case IB_EVENT_PATH_MIG_ERR:
		return true;
	default:
		return false;
	}
}

/* A fatal event: count it on the device (@counter), log it, fail @ch. */
static void rdmachan_event_fails(struct rdmachan *ch, struct ib_event *ev,
				 atomic_t *counter)
{
	if (counter)
		atomic_inc(counter);
	atomic64_inc(&ch->stats[RDMACHAN_STAT_errors]);
	rdmachan_err_rl_addr(ch, "%s: the channel fails\n",
			     ib_event_msg(ev->event));
	rdmachan_fail_io(ch, -EIO);
}

/**
 * rdmachan_qp_event() - the event handler of a channel's queue pair
 * @ev: the event
 * @ctx: the channel
 *
 * Context: any (the provider's).
 */
void rdmachan_qp_event(struct ib_event *ev, void *ctx)
{
	struct rdmachan *ch = ctx;
	struct rdmachan_device *dev;

	if (ev->event == IB_EVENT_COMM_EST) {
		/* the peer's first message overtook its RTU */
		if (ch->conn.cm_id)
			rdma_notify(ch->conn.cm_id, ev->event);
		return;
	}
	if (!rdmachan_qp_event_fatal(ev->event)) {
		rdmachan_dbg(ch, "QP event %s\n", ib_event_msg(ev->event));
		return;
	}
	dev = rdmachan_chan_dev(ch);
	rdmachan_event_fails(ch, ev, dev ? &dev->qp_events : NULL);
}

/**
 * rdmachan_cq_event() - the event handler of a channel's completion queues
 * @ev: the event (IB_EVENT_CQ_ERR)
 * @ctx: the channel
 *
 * Context: any (the provider's).
 */
void rdmachan_cq_event(struct ib_event *ev, void *ctx)
{
	struct rdmachan *ch = ctx;
	struct rdmachan_device *dev = rdmachan_chan_dev(ch);

	rdmachan_event_fails(ch, ev, dev ? &dev->cq_events : NULL);
}

/* ---- fault injection --------------------------------------------------- */

static struct dentry *rdmachan_debugfs;

/* Inject @what into channel @ch, which holds resources.  Return: 0/errno. */
static int rdmachan_inject_one(struct rdmachan *ch, const char *what)
{
	struct ib_event ev = {};
	struct ib_qp_attr attr = { .qp_state = IB_QPS_ERR };
	unsigned long flags;
	int ret = 0;

	/* teardown_mutex: the QP and CQ stay while we look at them */
	mutex_lock(&ch->teardown_mutex);
	if (test_bit(RDMACHAN_F_TORN_DOWN, &ch->flags) || !ch->res.qp) {
		ret = -ENOTCONN;
	} else if (!strcmp(what, "qp_error")) {
		rdmachan_info(ch, "injected: QP to the error state\n");
		ret = ib_modify_qp(ch->res.qp, &attr, IB_QP_STATE);
	} else if (!strcmp(what, "qp_fatal")) {
		rdmachan_info(ch, "injected: QP fatal event\n");
		ev.device = ch->res.qp->device;
		ev.element.qp = ch->res.qp;
		ev.event = IB_EVENT_QP_FATAL;
		rdmachan_qp_event(&ev, ch);
	} else if (!strcmp(what, "keepalive_stuck")) {
		/* as if a probe had been posted long ago and never ended */
		rdmachan_info(ch, "injected: a keepalive probe stuck\n");
		spin_lock_irqsave(&ch->lock, flags);
		if (test_and_set_bit(RDMACHAN_CTRL_KEEPALIVE, &ch->ctrl.busy))
			ret = -EBUSY;
		else
			ch->ctrl.keepalive_posted =
				jiffies - RDMACHAN_KEEPALIVE_STUCK - 1;
		spin_unlock_irqrestore(&ch->lock, flags);
	} else if (!strcmp(what, "ctrl_hold") ||
		   !strcmp(what, "ctrl_release")) {
		rdmachan_info(ch, "injected: %s\n", what);
		ret = rdmachan_ctrl_hold(ch, !strcmp(what, "ctrl_hold"));
	} else if (!strcmp(what, "cq_error")) {
		rdmachan_info(ch, "injected: CQ error event\n");
		ev.device = ch->res.qp->device;
		ev.element.cq = ch->res.cq;
		ev.event = IB_EVENT_CQ_ERR;
		rdmachan_cq_event(&ev, ch);
	} else {
		ret = -EINVAL;
	}
	mutex_unlock(&ch->teardown_mutex);
	return ret;
}

/* A channel with resources on a device (a listener is no channel) */
static bool rdmachan_inject_match(struct rdmachan_dev_user *u, void *arg)
{
	struct rdmachan_obj *obj = container_of(u, struct rdmachan_obj,
						dev_user);

	return obj->kind == RDMACHAN_OBJ_CHANNEL && obj->id == *(u32 *)arg;
}

static ssize_t rdmachan_inject_write(struct file *file, const char __user *ubuf,
				     size_t count, loff_t *ppos)
{
	char buf[32], what[16];
	struct rdmachan_dev_user *u;
	struct rdmachan *ch;
	u32 id;
	int ret;

	if (count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = 0;
	if (sscanf(buf, "%u %15s", &id, what) != 2) {
		pr_info_ratelimited("inject: expected 'CHANNEL qp_error|qp_fatal|cq_error|keepalive_stuck|ctrl_hold|ctrl_release'\n");
		return -EINVAL;
	}
	u = rdmachan_device_find_user(rdmachan_inject_match, &id);
	if (!u)
		return -ENOENT;
	ch = container_of(u, struct rdmachan, obj.dev_user);
	ret = rdmachan_inject_one(ch, what);
	rdmachan_put(ch);
	return ret ?: count;
}

static const struct file_operations rdmachan_inject_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.write	= rdmachan_inject_write,
};

static u32 rdmachan_cm_destroy_delay_ms;

/**
 * rdmachan_inject_cm_destroy_delay() - hold an identifier's destruction
 *
 * Waits while cm_destroy_delay_ms is set, at most that long since the
 * call (the value read anew every 100 ms).
 *
 * Context: process context (rdmachan_cm_destroy_work()).
 */
void rdmachan_inject_cm_destroy_delay(void)
{
	unsigned long t0 = jiffies;
	u32 ms;

	while ((ms = READ_ONCE(rdmachan_cm_destroy_delay_ms)) &&
	       time_before(jiffies, t0 + msecs_to_jiffies(ms)))
		msleep(100);
}

/**
 * rdmachan_event_init() - create /sys/kernel/debug/rdmachan/inject,
 *	cm_destroy_delay_ms and hist_cost (hist.c)
 */
void rdmachan_event_init(void)
{
	rdmachan_debugfs = debugfs_create_dir("rdmachan", NULL);
	debugfs_create_file("inject", 0200, rdmachan_debugfs, NULL,
			    &rdmachan_inject_fops);
	debugfs_create_u32("cm_destroy_delay_ms", 0600, rdmachan_debugfs,
			   &rdmachan_cm_destroy_delay_ms);
	rdmachan_hist_debugfs(rdmachan_debugfs);
}

/** rdmachan_event_exit() - remove what rdmachan_event_init() created */
void rdmachan_event_exit(void)
{
	debugfs_remove_recursive(rdmachan_debugfs);
}
