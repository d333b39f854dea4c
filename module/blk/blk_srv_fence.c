// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan_blk server: no bio reaches a device the server no longer
 * claims
 *
 * A queue attached to an export pins its session and the export
 * (rcblk_srv_sess.pins, rcblk_export.pins) from the OPEN until the
 * queue's last reference is put: its channel closed and every bio it
 * submitted ended (each bio holds a queue reference).  So while an
 * export has pins a bio may still reach its device, and once it has
 * none and is gone (no OPEN is admitted) none can.
 *
 * An unexport waits, bounded (RCBLK_UNEXPORT_WAIT_MS), for the pins to
 * go.  If they do not (a device that holds its bios: a suspended
 * device-mapper table, a dead path), the device is not released: the
 * export stays, its name taken, in state DRAINING (sysfs "state",
 * RDMACHAN_IOC_BLK_LIST), the unexport fails with -EINPROGRESS, and the
 * release of the last pin (a queue's release work, process context)
 * queues the export's drain work, which releases the device then.
 * Nobody can open the device exclusively in between: the export still
 * holds it.
 *
 * The same pins fence a client's reconnect: a mapping that offers
 * RCBLK_OPEN_FENCE keeps its session id for life and counts its
 * connections in the OPEN's generation.  A connection is admitted to an
 * export only while no other connection of the same session id is
 * there - with queues attached, or with queues closed whose bios have
 * not all ended (a write stuck on the device past the client's timeout,
 * which the client holds and will send again).  Until then its OPEN gets
 * RCBLK_OPEN_FENCED, which the client's reconnect loop retries, and the
 * older connection's queues still attached are closed (the client left
 * them: it reconnects only after stopping its channels).  So the old
 * copy of a held write has ended before the client resubmits it, and it
 * cannot land over anything written after.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/blkdev.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/wait_bit.h>

#include "blk_srv.h"

/* Bound of an unexport's wait for its queues to close and bios to end */
#define RCBLK_UNEXPORT_WAIT_MS	30000

/**
 * rcblk_srv_state_name() - an export's state for sysfs and the log
 * @state: rcblk_export.state
 *
 * Context: any.
 * Return: "exported", "unexporting", "draining" or "released".
 */
const char *rcblk_srv_state_name(u32 state)
{
	switch (state) {
	case RDMACHAN_BLK_EXPORTED:
		return "exported";
	case RDMACHAN_BLK_UNEXPORTING:
		return "unexporting";
	case RDMACHAN_BLK_DRAINING:
		return "draining";
	default:
		return "released";
	}
}

/*
 * Release @exp's device and take it off the list; its directory first,
 * so that the name is free in sysfs before it is free on the list.
 */
static void rcblk_srv_export_release(struct rcblk_export *exp,
				     const char *how)
{
	rcblk_srv_sysfs_del(exp);
	rc_bdev_close(&exp->dev);
	mutex_lock(&rcblk_srv_mutex);
	spin_lock(&rcblk_srv_exp_lock);
	list_del_init(&exp->node);
	spin_unlock(&rcblk_srv_exp_lock);
	rcblk_srv_listen_update();	/* the last export: stop listening */
	mutex_unlock(&rcblk_srv_mutex);
	spin_lock(&exp->lock);
	WRITE_ONCE(exp->state, RCBLK_EXP_RELEASED);
	spin_unlock(&exp->lock);
	wake_up_var(&exp->state);
	pr_info("unexported %s%s\n", exp->name, how);
	kobject_put(&exp->kobj);	/* the list's */
	module_put(THIS_MODULE);
}

/**
 * rcblk_srv_drain_work() - release a draining export's device once its
 *	last queue is released
 * @work: &rcblk_export.drain_work, queued once, by rcblk_srv_unpin()
 *
 * Context: process context (rcblk_srv_ctl_wq); the list's reference
 * keeps the export until the release puts it.
 */
void rcblk_srv_drain_work(struct work_struct *work)
{
	struct rcblk_export *exp = container_of(work, struct rcblk_export,
						drain_work);

	pr_info("unexport %s: the last bio ended: releasing %s\n", exp->name,
		exp->path);
	rcblk_srv_export_release(exp, " (forced, drained)");
}

/**
 * rcblk_srv_unpin() - a queue attached to an export is released: no bio
 *	of it can reach the device any more
 * @q: the queue, from its release work; q->exp set
 *
 * Its session is freed with its last pin; a draining export's last pin
 * queues its release.
 *
 * Context: process context.
 */
void rcblk_srv_unpin(struct rcblk_srv_queue *q)
{
	struct rcblk_export *exp = q->exp;
	struct rcblk_srv_sess *sess = q->sess;
	bool drained;

	if (!sess)		/* never attached */
		return;
	spin_lock(&exp->lock);
	if (!--sess->pins)
		list_del(&sess->node);
	else
		sess = NULL;
	WRITE_ONCE(exp->pins, exp->pins - 1);
	/* once: an export that is gone gains no pin */
	drained = !exp->pins && exp->state == RDMACHAN_BLK_DRAINING;
	spin_unlock(&exp->lock);
	kfree(sess);
	q->sess = NULL;
	wake_up_var(&exp->pins);
	if (drained)
		queue_work(rcblk_srv_ctl_wq, &exp->drain_work);
}

/**
 * rcblk_srv_attach() - attach a queue to its session on an export, or
 *	fence it
 * @q: the queue, its OPEN accepted so far
 * @exp: the export, not gone
 * @req: the OPEN
 * @spare: a session to use when the session is new (taken: set NULL)
 *
 * A session is a connection: session id and generation (0 without
 * fencing).  Another connection of the same session id on @exp, live or
 * with a bio not yet ended, refuses the OPEN (rcblk_fence_check()); one
 * older than the OPEN's is closed.
 *
 * Context: @exp->lock held.
 * Return: RCBLK_OPEN_OK (attached, pinned), RCBLK_OPEN_FENCED or
 * RCBLK_OPEN_LIMIT (rcblk_srv_open_limits()).
 */
u16 rcblk_srv_attach(struct rcblk_srv_queue *q, struct rcblk_export *exp,
		     const struct rcblk_open_req *req,
		     struct rcblk_srv_sess **spare)
{
	struct rcblk_srv_sess *sess, *found = NULL, *older = NULL;
	struct rcblk_srv_queue *oq;
	u32 other = 0;
	u16 status;

	lockdep_assert_held(&exp->lock);
	status = rcblk_srv_open_limits(q, exp, req);
	if (status)
		return status;
	list_for_each_entry(sess, &exp->sessions, node) {
		if (memcmp(sess->id, req->session, RCBLK_SESSION_LEN))
			continue;
		switch (rcblk_fence_check(sess->gen, req->gen)) {
		case RCBLK_FENCE_JOIN:
			found = sess;
			break;
		case RCBLK_FENCE_OLDER:
			older = sess;
			fallthrough;
		default:
			other = sess->gen ?: 1;
			break;
		}
	}
	if (other) {
		if (older)	/* its client moved on: what is left goes */
			list_for_each_entry(oq, &exp->queues, exp_node)
				if (oq->sess == older)
					rcblk_srv_queue_close(oq);
		pr_info_ratelimited("%s: OPEN of connection %u from %pISc fenced: connection %u of its session may still write (%u queues attached): retry\n",
				    exp->name, req->gen, &q->peer, other,
				    older ? older->nr_queues : 0);
		return RCBLK_OPEN_FENCED;
	}
	sess = found;
	if (!sess) {
		sess = *spare;
		*spare = NULL;
		memcpy(sess->id, req->session, RCBLK_SESSION_LEN);
		sess->gen = req->gen;
		sess->nr_queues = 0;
		sess->pins = 0;
		list_add_tail(&sess->node, &exp->sessions);
	}
	if (!sess->nr_queues++)
		exp->nr_sessions++;
	sess->pins++;
	WRITE_ONCE(exp->pins, exp->pins + 1);
	q->sess = sess;
	list_add_tail(&q->exp_node, &exp->queues);
	WRITE_ONCE(exp->nr_queues, exp->nr_queues + 1);
	set_bit(RCBLK_Q_ATTACHED, &q->flags);
	return RCBLK_OPEN_OK;
}

/**
 * rcblk_srv_unexport_end() - the end of an unexport: wait for the
 *	export's queues to be released, then release the device
 * @exp: the export, gone, its queues' close started; on the list
 * @flags: the unexport's RDMACHAN_BLK_FORCE (for the log)
 *
 * Waits RCBLK_UNEXPORT_WAIT_MS at most.  Then, with a queue still
 * pinning the export (its close, or a bio of it, not ended), the device
 * stays claimed: the export is DRAINING and the last unpin releases it.
 *
 * Context: process context, sleeps.
 * Return: 0 (released), -EINPROGRESS (draining).
 */
int rcblk_srv_unexport_end(struct rcblk_export *exp, u32 flags)
{
	unsigned long tmo = msecs_to_jiffies(RCBLK_UNEXPORT_WAIT_MS);
	u32 pins, queues;
	bool idle;

	wait_var_event_timeout(&exp->pins, !READ_ONCE(exp->pins), tmo);
	spin_lock(&exp->lock);
	pins = exp->pins;
	queues = exp->nr_queues;
	idle = !pins;
	if (!idle)
		WRITE_ONCE(exp->state, RDMACHAN_BLK_DRAINING);
	spin_unlock(&exp->lock);
	if (idle) {
		rcblk_srv_export_release(exp, flags & RDMACHAN_BLK_FORCE ?
					 " (forced)" : "");
		return 0;
	}
	pr_warn("unexport %s: after %u ms %u queues (%u not closed) may still reach %s, %d bios in flight: it stays claimed, the export draining, until they end\n",
		exp->name, RCBLK_UNEXPORT_WAIT_MS, pins, queues, exp->path,
		atomic_read(&exp->bios));
	return -EINPROGRESS;
}

/**
 * rcblk_srv_unexport_wait() - an unexport of an export already being
 *	unexported or draining: wait for its release
 * @exp: the export, a reference held
 *
 * Context: process context, sleeps (RCBLK_UNEXPORT_WAIT_MS at most).
 * Return: 0 once released; -EINPROGRESS while still being unexported or
 * draining (logged).
 */
int rcblk_srv_unexport_wait(struct rcblk_export *exp)
{
	unsigned long tmo = msecs_to_jiffies(RCBLK_UNEXPORT_WAIT_MS);

	if (wait_var_event_timeout(&exp->state,
				   READ_ONCE(exp->state) == RCBLK_EXP_RELEASED,
				   tmo))
		return 0;
	pr_info("unexport %s: still %s (%d bios in flight on %s)\n",
		exp->name, rcblk_srv_state_name(READ_ONCE(exp->state)),
		atomic_read(&exp->bios), exp->path);
	return -EINPROGRESS;
}
