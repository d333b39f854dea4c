// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan_blk server: queues and their OPEN, load and unload
 *
 * An export (blk_srv_export.c) opens a local block device exclusively
 * and lets the clients its allow list admits map it.  The listener
 * (blk_srv_listen.c) accepts every channel; a channel is a queue of a
 * client session and must open with OPEN, which names the export: the
 * answer OPEN_RSP carries the geometry, or the reason of the refusal
 * (the channel is then closed).  Requests are served by blk_srv_io.c.
 *
 * Locking: rcblk_srv_mutex guards the export list, the queue list and
 * the listener; an export's @lock its queues and sessions; a queue's
 * @lock its slot lists.  Order: rcblk_srv_mutex, then an export's lock;
 * a queue's lock is never held with another.
 *
 * A queue's teardown (rcblk_srv_close_work(), in this order):
 *  1. RCBLK_Q_DEAD under its lock: the receive callback starts no
 *     OPEN, io_work makes no channel call once the runs in progress
 *     (waited for) are over;
 *  2. open_work and io_work waited for;
 *  3. parked messages released (before the channel's close), the
 *     registrations of slots without RDMA in flight undone;
 *  4. rdmachan_close(): no callback after it; every RDMA started has
 *     ended (flushed), its slot freed by io_work;
 *  5. detached from its export (session count, wakes an unexport);
 *  6. off the queue list, the channel's reference put.  Bios in flight
 *     hold the rest; the last put frees slots and pages from a work item
 *     (rcblk_srv_release_work()) and unpins the session and the export
 *     (blk_srv_fence.c: an unexport releases the device only then).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/blkdev.h>
#include <linux/delay.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/wait_bit.h>

#include "blk_srv.h"

/*
 * Three workqueues: the I/O work runs on rcblk_srv_wq (high priority)
 * or rcblk_srv_yield_wq (blk_srv_io.c says which when), both
 * WQ_MEM_RECLAIM as they submit bios; open, close, release and the
 * listener's restart on rcblk_srv_ctl_wq, without a rescuer, so that a
 * close may wait for an open (flush_work()) of the same queue.
 */
struct workqueue_struct *rcblk_srv_wq;
struct workqueue_struct *rcblk_srv_yield_wq;
struct workqueue_struct *rcblk_srv_ctl_wq;
/* guards the export list, the listener and the exports directory */
DEFINE_MUTEX(rcblk_srv_mutex);
LIST_HEAD(rcblk_srv_exports);
/* every queue, for unload; under rcblk_srv_qlock (listener callbacks) */
static LIST_HEAD(rcblk_srv_queues);
static DEFINE_SPINLOCK(rcblk_srv_qlock);
static atomic_t rcblk_srv_nr_queues = ATOMIC_INIT(0);
bool rcblk_srv_stopping;

/* ---- queues ---- */

/**
 * rcblk_srv_queue_close() - start a queue's teardown (once)
 * @q: the queue
 *
 * Context: any.
 */
void rcblk_srv_queue_close(struct rcblk_srv_queue *q)
{
	if (!test_and_set_bit(RCBLK_Q_CLOSING, &q->flags))
		queue_work(rcblk_srv_ctl_wq, &q->close_work);
}

static void rcblk_srv_queue_free(struct rcblk_srv_queue *q)
{
	kfree(q);
	if (atomic_dec_and_test(&rcblk_srv_nr_queues))
		wake_up_var(&rcblk_srv_nr_queues);
}

static void rcblk_srv_release(struct kref *ref)
{
	struct rcblk_srv_queue *q = container_of(ref, struct rcblk_srv_queue,
						 ref);

	queue_work(rcblk_srv_ctl_wq, &q->release_work);
}

/**
 * rcblk_srv_queue_put() - put a queue reference
 * @q: the queue
 *
 * Context: any.
 */
void rcblk_srv_queue_put(struct rcblk_srv_queue *q)
{
	kref_put(&q->ref, rcblk_srv_release);
}

/* The last reference is gone: every bio ended, the channel closed */
static void rcblk_srv_release_work(struct work_struct *work)
{
	struct rcblk_srv_queue *q = container_of(work, struct rcblk_srv_queue,
						 release_work);

	timer_delete_sync(&q->open_timer);
	rcblk_srv_io_flush(q, true);
	/* the close drained both lists and nothing may add after it */
	if (WARN_ON_ONCE(!list_empty(&q->rejects) || !list_empty(&q->parked)))
		rcblk_srv_drain(q);
	rcblk_srv_slots_free(q);
	if (q->exp) {
		rcblk_srv_unpin(q);	/* no bio of it can reach the device */
		kobject_put(&q->exp->kobj);
	}
	rcblk_srv_queue_free(q);
}

/* Detach @q from its export: its session count, the unexport's wait */
static void rcblk_srv_detach(struct rcblk_srv_queue *q)
{
	struct rcblk_export *exp = q->exp;
	struct rcblk_srv_sess *sess = q->sess;

	if (!test_and_clear_bit(RCBLK_Q_ATTACHED, &q->flags))
		return;
	spin_lock(&exp->lock);
	list_del_init(&q->exp_node);
	/* the session stays, pinned, until the queue's bios ended */
	if (!--sess->nr_queues)
		WRITE_ONCE(exp->nr_sessions, exp->nr_sessions - 1);
	WRITE_ONCE(exp->nr_queues, exp->nr_queues - 1);
	spin_unlock(&exp->lock);
	wake_up_var(&exp->nr_queues);
}

/* The teardown of a queue: see the head comment for the order */
static void rcblk_srv_close_work(struct work_struct *work)
{
	struct rcblk_srv_queue *q = container_of(work, struct rcblk_srv_queue,
						 close_work);

	spin_lock_irq(&q->lock);
	set_bit(RCBLK_Q_DEAD, &q->flags);
	spin_unlock_irq(&q->lock);
	timer_delete_sync(&q->open_timer);
	flush_work(&q->open_work);
	rcblk_srv_io_flush(q, false);
	rcblk_srv_drain(q);
	rcblk_srv_unreg(q);
	/*
	 * A forced unexport: the client gives the mapping up on this notice
	 * instead of reconnecting (rdmachan_close() flushes it first).
	 */
	if (q->ch && q->exp && READ_ONCE(q->exp->gone) &&
	    rdmachan_send(q->ch, NULL, 0,
			  rcblk_reply_imm(RCBLK_TAG_NOTICE, RCBLK_S_GONE),
			  RDMACHAN_SEND_IMM | RDMACHAN_SEND_NONBLOCK))
		pr_info_ratelimited("%s: queue %p: the export-gone notice could not be sent\n",
				    q->exp->name, q);
	if (q->ch)
		rdmachan_close(q->ch);
	/* RDMA ends flushed by the close queued io_work: free those slots */
	rcblk_srv_io_flush(q, false);
	rcblk_srv_detach(q);
	spin_lock(&rcblk_srv_qlock);
	list_del_init(&q->node);
	spin_unlock(&rcblk_srv_qlock);
	rcblk_srv_queue_put(q);		/* the channel's */
}

/* Send OPEN_RSP; on a refusal, close the queue after it */
static void rcblk_srv_open_answer(struct rcblk_srv_queue *q, u16 status,
				  const struct rcblk_geo *geo)
{
	struct rcblk_wire_open_rsp rsp;
	struct kvec vec = { .iov_base = &rsp, .iov_len = sizeof(rsp) };
	int ret;

	rcblk_open_rsp_encode(&rsp, status, geo);
	ret = rdmachan_send(q->ch, &vec, 1, 0, 0);
	if (ret)
		pr_info_ratelimited("queue %p: OPEN_RSP not sent: %d\n", q,
				    ret);
	if (ret || status != RCBLK_OPEN_OK)
		rcblk_srv_queue_close(q);
}

/* OPEN: check it, find the export, allocate the slots, answer */
static void rcblk_srv_open_work(struct work_struct *work)
{
	struct rcblk_srv_queue *q = container_of(work, struct rcblk_srv_queue,
						 open_work);
	struct rcblk_srv_sess *spare = NULL;
	struct rcblk_open_req req;
	struct rcblk_export *exp;
	struct rcblk_geo geo;
	u32 max_io, inline_max, msg_max;
	u16 status;
	int ret;

	status = rcblk_open_check(q->open_msg->data, q->open_msg->len, &req);
	rdmachan_msg_release(q->ch, q->open_msg);
	q->open_msg = NULL;
	if (status) {
		pr_info_ratelimited("queue %p: malformed OPEN: refused\n", q);
		goto refuse;
	}
	if (rdmachan_peer_addr(q->ch, &q->peer)) {
		status = RCBLK_OPEN_ACCES;
		goto refuse;
	}

	mutex_lock(&rcblk_srv_mutex);
	exp = rcblk_srv_find(req.name);
	if (!exp)
		status = RCBLK_OPEN_NOENT;
	else if (READ_ONCE(exp->gone))
		status = RCBLK_OPEN_BUSY;
	else if (!rcblk_cidr_match(exp->allow, exp->nr_allow,
				   (struct sockaddr *)&q->peer))
		status = RCBLK_OPEN_ACCES;
	else if (!(req.flags & RCBLK_OPEN_RO) &&
		 exp->flags & RDMACHAN_BLK_RO)
		status = RCBLK_OPEN_ROFS;
	else if (rcblk_clt_loop_check(exp->dev.bdev, req.session))
		status = RCBLK_OPEN_LOOP;
	else
		kobject_get(&exp->kobj);
	mutex_unlock(&rcblk_srv_mutex);
	if (status) {
		pr_info_ratelimited("OPEN of %s from %pISc refused: %u\n",
				    req.name, &q->peer, status);
		goto refuse;
	}
	q->exp = exp;	/* its reference put at release */

	/* the largest request: the client's, ours, the registration's */
	max_io = min3(req.max_io, rcblk_param(max_io_kb) * 1024,
		      rdmachan_max_reg_pages(q->ch) * (u32)PAGE_SIZE);
	max_io = round_down(max_io, exp->geo.lbs);
	msg_max = rdmachan_max_msg_size(q->ch);
	inline_max = msg_max > sizeof(struct rcblk_wire_io) ?
		     msg_max - sizeof(struct rcblk_wire_io) : 0;
	inline_max = min3(inline_max, rcblk_param(inline_kb) * 1024, max_io);
	inline_max = round_down(inline_max, exp->geo.lbs);
	if (!max_io) {
		status = RCBLK_OPEN_PROTO;
		goto refuse;
	}
	ret = rcblk_srv_slots_alloc(q, max_io);
	spare = kzalloc(sizeof(*spare), GFP_KERNEL);
	if (ret || !spare) {
		pr_info_ratelimited("OPEN of %s: no memory for %u slots of %u bytes: %d\n",
				    exp->name, q->depth, max_io, ret);
		status = RCBLK_OPEN_NOMEM;
		goto refuse;
	}

	geo = exp->geo;
	geo.features = rcblk_open_features(req.features,
					   geo.max_write_zeroes_sectors);
	geo.max_io = max_io;
	geo.inline_max = inline_max;
	q->lim = (struct rcblk_io_limits) {
		.nr_sectors = geo.nr_sectors,
		.lbs = geo.lbs,
		.max_io = max_io,
		.inline_max = inline_max,
		.features = geo.features,
		.max_discard_sectors = geo.max_discard_sectors,
		.max_write_zeroes_sectors = geo.max_write_zeroes_sectors,
		.ro = (exp->flags & RDMACHAN_BLK_RO) ||
		      (req.flags & RCBLK_OPEN_RO),
	};

	spin_lock(&exp->lock);
	if (READ_ONCE(exp->gone))
		status = RCBLK_OPEN_BUSY;
	else
		status = rcblk_srv_attach(q, exp, &req, &spare);
	spin_unlock(&exp->lock);
	if (status)
		goto refuse;	/* frees @spare */
	kfree(spare);		/* unused: the session was there */
	if (req.flags & RCBLK_OPEN_WRITE_IMM && rdmachan_can_write_imm(q->ch))
		set_bit(RCBLK_Q_WRITE_IMM, &q->flags);
	q->batch_cap = geo.features & RCBLK_F_REPLY_BATCH ?
		       rcblk_reply_batch_cap(msg_max) : 1;
	/*
	 * Live before the answer: the client sends requests once it has it.
	 * The barrier publishes the limits, the slots and the free list
	 * before the bit (the receive callback's test_bit_acquire()).
	 */
	smp_mb__before_atomic();
	set_bit(RCBLK_Q_LIVE, &q->flags);
	pr_debug("queue %p: %pISc opened %s (queue %u/%u, max_io %u, inline %u, depth %u)\n",
		 q, &q->peer, exp->name, req.queue, req.nr_queues, max_io,
		 inline_max, q->depth);
	rcblk_srv_open_answer(q, RCBLK_OPEN_OK, &geo);
	return;

refuse:
	kfree(spare);
	rcblk_srv_open_answer(q, status, NULL);
}

/* No OPEN within open_timeout_ms of the accept: close the channel */
static void rcblk_srv_open_timeout(struct timer_list *t)
{
	struct rcblk_srv_queue *q = timer_container_of(q, t, open_timer);
	struct sockaddr_storage peer;

	/*
	 * A queue closing (its channel may be closed already: the timer is
	 * armed after accept returns, and a channel that failed in between
	 * was closed before it) or opening: nothing to do.  A close that
	 * begins after this check waits for this handler (timer_delete_sync())
	 * before it closes the channel.
	 */
	if (test_bit(RCBLK_Q_CLOSING, &q->flags) ||
	    test_bit(RCBLK_Q_OPENING, &q->flags))
		return;
	rdmachan_peer_addr(q->ch, &peer);
	pr_info_ratelimited("%pISc: no OPEN within %u ms of the connection: closing it\n",
			    &peer, rcblk_param(open_timeout_ms));
	rcblk_srv_queue_close(q);
}

static struct rcblk_srv_queue *rcblk_srv_queue_alloc(void)
{
	struct rcblk_srv_queue *q = kzalloc(sizeof(*q), GFP_KERNEL);

	if (!q)
		return NULL;
	atomic_inc(&rcblk_srv_nr_queues);
	kref_init(&q->ref);
	spin_lock_init(&q->lock);
	INIT_LIST_HEAD(&q->exp_node);
	INIT_LIST_HEAD(&q->node);
	INIT_LIST_HEAD(&q->free);
	INIT_LIST_HEAD(&q->work_list);
	INIT_LIST_HEAD(&q->retry);
	INIT_LIST_HEAD(&q->parked);
	INIT_LIST_HEAD(&q->pull_wait);
	INIT_LIST_HEAD(&q->rejects);
	INIT_WORK(&q->open_work, rcblk_srv_open_work);
	INIT_WORK(&q->io_work, rcblk_srv_io_work);
	INIT_WORK(&q->io_yield_work, rcblk_srv_io_yield_work);
	INIT_WORK(&q->close_work, rcblk_srv_close_work);
	INIT_WORK(&q->release_work, rcblk_srv_release_work);
	timer_setup(&q->open_timer, rcblk_srv_open_timeout, 0);
	return q;
}

/**
 * rcblk_srv_count_queues_locked() - the queues there are, and a host's
 * @peer: the host's address, or NULL (then @mine is 0)
 * @all: out: every queue
 * @mine: out: those accepted from @peer's address (any port)
 *
 * A queue counts from its accept (its peer set) to the end of its close.
 *
 * Context: rcblk_srv_qlock held.
 */
static void rcblk_srv_count_queues_locked(const struct sockaddr *peer,
					  u32 *all, u32 *mine)
{
	struct rcblk_srv_queue *q;

	lockdep_assert_held(&rcblk_srv_qlock);
	*all = 0;
	*mine = 0;
	list_for_each_entry(q, &rcblk_srv_queues, node) {
		/*
		 * Not one whose accept has not returned: listed before it (the
		 * channel may fail inside), it is none when the accept finds
		 * no connection ready, and the admission of a request beside
		 * it would count it as one.
		 */
		if (q->peer.ss_family == AF_UNSPEC)
			continue;
		(*all)++;
		if (peer && rcblk_same_host((struct sockaddr *)&q->peer, peer))
			(*mine)++;
	}
}

/**
 * rcblk_srv_count_queues() - rcblk_srv_count_queues_locked(), locking
 * @peer: see there
 * @all: see there
 * @mine: see there
 *
 * Context: process context; takes rcblk_srv_qlock.
 */
void rcblk_srv_count_queues(const struct sockaddr *peer, u32 *all, u32 *mine)
{
	spin_lock(&rcblk_srv_qlock);
	rcblk_srv_count_queues_locked(peer, all, mine);
	spin_unlock(&rcblk_srv_qlock);
}

/**
 * rcblk_srv_queues_held() - the queues the server holds
 *
 * Every queue from its accept to the end of its close, opened or not:
 * what max_queues bounds.
 *
 * Context: process context; takes rcblk_srv_qlock.
 * Return: their number.
 */
u32 rcblk_srv_queues_held(void)
{
	u32 all, mine;

	rcblk_srv_count_queues(NULL, &all, &mine);
	return all;
}

/* ---- the listener's connections ---- */

/*
 * After the accept of @q's channel @ch: the channel, and the timer for
 * its OPEN, unless its close began (DEAD is set under @q->lock before the
 * close's timer_delete_sync(): a timer armed here before is cancelled, none
 * is armed after).
 */
static void rcblk_srv_accepted(struct rcblk_srv_queue *q, struct rdmachan *ch)
{
	unsigned long flags;

	spin_lock_irqsave(&q->lock, flags);
	if (!test_bit(RCBLK_Q_DEAD, &q->flags)) {
		WRITE_ONCE(q->ch, ch);
		mod_timer(&q->open_timer, jiffies +
			  msecs_to_jiffies(rcblk_param(open_timeout_ms)));
	}
	spin_unlock_irqrestore(&q->lock, flags);
}

/* Accept every connection ready; each becomes a queue */
void rcblk_srv_pending(struct rdmachan_listener *l)
{
	struct rcblk_srv_queue *q;
	struct rdmachan *ch;
	u32 all, mine;
	bool ok;
	int ret;

	for (;;) {
		q = rcblk_srv_queue_alloc();
		if (!q)
			return;
		spin_lock(&rcblk_srv_qlock);
		list_add_tail(&q->node, &rcblk_srv_queues);
		spin_unlock(&rcblk_srv_qlock);
		/*
		 * Ours until the accept returns: the channel may fail before
		 * that, and its close work put the channel's reference.
		 */
		kref_get(&q->ref);
		ret = rdmachan_accept(l, &rcblk_srv_chan_ops, q,
				      RDMACHAN_ACCEPT_NONBLOCK, &ch);
		if (ret) {
			spin_lock(&rcblk_srv_qlock);
			list_del(&q->node);
			spin_unlock(&rcblk_srv_qlock);
			rcblk_srv_queue_free(q);
			if (ret != -EAGAIN)
				pr_info_ratelimited("accept: %d\n", ret);
			return;
		}
		/*
		 * Counted against its address from here, and checked once
		 * more (blk_srv_limits.c): the admission did not see the
		 * connections set up beside it
		 */
		spin_lock(&rcblk_srv_qlock);
		rdmachan_peer_addr(ch, &q->peer);
		rcblk_srv_count_queues_locked((struct sockaddr *)&q->peer,
					      &all, &mine);
		spin_unlock(&rcblk_srv_qlock);
		ok = rcblk_srv_queue_limits_ok((struct sockaddr *)&q->peer,
					       all - 1, mine - 1, "closed");
		rcblk_srv_accepted(q, ch);
		if (!ok)
			rcblk_srv_queue_close(q);
		rcblk_srv_queue_put(q);		/* ours */
	}
}

/* ---- load and unload ---- */

/**
 * rcblk_srv_init() - the server's state, before the ctl device exists
 *
 * Context: process context (module load).
 * Return: 0 or -ENOMEM.
 */
int rcblk_srv_init(void)
{
	/*
	 * The I/O work: high priority, as ib_comp_wq, where nvmet-rdma does
	 * the same work, so that it does not queue behind ordinary tasks of
	 * the CPU its softirq work raised it on; at normal priority when
	 * that softirq work was a user task's (blk_srv_io.c).
	 */
	rcblk_srv_wq = alloc_workqueue("rcblk_srv", WQ_MEM_RECLAIM | WQ_HIGHPRI,
				       0);
	if (!rcblk_srv_wq)
		return -ENOMEM;
	rcblk_srv_yield_wq = alloc_workqueue("rcblk_srv_yield", WQ_MEM_RECLAIM,
					     0);
	if (!rcblk_srv_yield_wq)
		goto out_wq;
	rcblk_srv_ctl_wq = alloc_workqueue("rcblk_srv_ctl", 0, 0);
	if (!rcblk_srv_ctl_wq)
		goto out_yield;
	return 0;

out_yield:
	destroy_workqueue(rcblk_srv_yield_wq);
out_wq:
	destroy_workqueue(rcblk_srv_wq);
	return -ENOMEM;
}

/**
 * rcblk_srv_start() - the parts that need the ctl device: the exports
 *	directory, the exports of the parameter
 *
 * The listener starts with the first export (rcblk_srv_listen_update()):
 * without the parameter, not at load.
 *
 * Context: process context (module load), after rcblk_srv_init().
 * Return: 0, or the error of the directory or of an export of the
 * parameter exports (what was made is undone).
 */
int rcblk_srv_start(void)
{
	char *list, *p, *entry;
	int ret;

	ret = rcblk_srv_sysfs_init();
	if (ret)
		return ret;
	if (rcblk_param_exports && *rcblk_param_exports) {
		list = kstrdup(rcblk_param_exports, GFP_KERNEL);
		if (!list) {
			ret = -ENOMEM;
			goto fail;
		}
		p = list;
		while ((entry = strsep(&p, ";"))) {
			if (!*strim(entry))
				continue;
			ret = rcblk_srv_export_text(entry, strlen(entry), true);
			if (ret) {
				pr_err("exports: \"%s\": %d\n", entry, ret);
				break;
			}
		}
		kfree(list);
		if (ret)
			goto fail;
	}
	return 0;

fail:
	rcblk_srv_unexport_all();
	rcblk_srv_sysfs_exit();
	return ret;
}

/**
 * rcblk_srv_stop() - undo rcblk_srv_start(): the listener, the queues
 *	(closed and freed), the exports directory
 *
 * Context: process context (module unload: no export is left, each
 * holds the module).
 */
void rcblk_srv_stop(void)
{
	struct rcblk_srv_queue *q;

	mutex_lock(&rcblk_srv_mutex);
	rcblk_srv_stopping = true;
	mutex_unlock(&rcblk_srv_mutex);
	rcblk_srv_listen_stop();	/* no pending() after it */
	spin_lock(&rcblk_srv_qlock);
	list_for_each_entry(q, &rcblk_srv_queues, node)
		rcblk_srv_queue_close(q);
	spin_unlock(&rcblk_srv_qlock);
	/* each close is bounded by its channel's timeout */
	while (!wait_var_event_timeout(&rcblk_srv_nr_queues,
				       !atomic_read(&rcblk_srv_nr_queues),
				       10 * HZ))
		pr_warn("unload: %d queues still closing\n",
			atomic_read(&rcblk_srv_nr_queues));
	flush_workqueue(rcblk_srv_ctl_wq);
	flush_workqueue(rcblk_srv_wq);
	flush_workqueue(rcblk_srv_yield_wq);
	rcblk_srv_unexport_all();
	rcblk_srv_sysfs_exit();
}

/**
 * rcblk_srv_exit() - undo rcblk_srv_init()
 *
 * Context: process context (module unload).
 */
void rcblk_srv_exit(void)
{
	destroy_workqueue(rcblk_srv_ctl_wq);
	destroy_workqueue(rcblk_srv_yield_wq);
	destroy_workqueue(rcblk_srv_wq);
}
