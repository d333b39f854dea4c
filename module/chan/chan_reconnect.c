// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan: the reconnect loop of a link (rdmachan.h, "Reconnecting")
 *
 * A link is LIVE until its user reports a loss (rdmachan_reconnect_lost()),
 * then RECONNECTING: one delayed work item makes the attempts, the first
 * @delay_ms after the loss, each later one twice the wait before it at
 * most @max_delay_ms, until one works (LIVE) or the loss timeout passes
 * (DEAD).  The same work item wakes at the fast-fail time and at the
 * deadline, whichever comes first.  nvme-rdma's reconnect loop
 * (nvme_rdma_reconnect_or_remove(), ctrl_loss_tmo, fast_io_fail_tmo) is
 * the model; it differs in keeping the count, the last error and the
 * times where the user can show them (rdmachan_reconnect_get_info()),
 * and in a backoff.
 *
 * The work runs on rdmachan_rc_wq (WQ_MEM_RECLAIM: block I/O waits for
 * it), one run at a time per link; an attempt sleeps only as long as the
 * user's own connect timeout.  @lock guards the state; callbacks run
 * without it.  rdmachan_reconnect_stop() sets @stopping and cancels the
 * work, waiting for an attempt under way: no callback after it returns.
 * Every link is on rdmachan_rc_all, so that an RDMA device coming back
 * kicks them all (rdmachan_reconnect_kick_all(), from device.c).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/jiffies.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/workqueue.h>

#include "rdmachan-pri.h"
#include "chan_trace.h"
#include "reconnect.h"
#include "uevent.h"

struct rdmachan_reconnect {
	struct list_head node;	/* in rdmachan_rc_all */
	char name[32];
	const struct rdmachan_reconnect_ops *ops;
	void *priv;
	spinlock_t lock;	/* everything below */
	struct rdmachan_reconnect_policy policy;
	enum rdmachan_link_state state;
	bool stopping;
	bool running;
	bool relost;
	bool fast_failed;
	u32 attempt;
	u32 losses;
	int last_error;
	unsigned long lost_at;
	unsigned long next_at;
	struct delayed_work work;
	struct delayed_work ff_work;
	struct device *uev_dev;	/* events go to its directory (or none) */
};

static struct workqueue_struct *rdmachan_rc_wq;

/* every link, for rdmachan_reconnect_kick_all() */
static LIST_HEAD(rdmachan_rc_all);
static DEFINE_SPINLOCK(rdmachan_rc_all_lock);

static unsigned long rdmachan_rc_ms(u32 ms)
{
	return msecs_to_jiffies(ms);
}

/* The next time the work must run (reconnecting); @lock held */
static unsigned long rdmachan_rc_due_locked(struct rdmachan_reconnect *rc)
{
	const struct rdmachan_reconnect_policy *p = &rc->policy;
	unsigned long due = rc->next_at;

	if (p->fast_fail_ms && !rc->fast_failed &&
	    time_before(rc->lost_at + rdmachan_rc_ms(p->fast_fail_ms), due))
		due = rc->lost_at + rdmachan_rc_ms(p->fast_fail_ms);
	if (p->loss_timeout_ms && rc->attempt &&
	    time_before(rc->lost_at + rdmachan_rc_ms(p->loss_timeout_ms), due))
		due = rc->lost_at + rdmachan_rc_ms(p->loss_timeout_ms);
	return due;
}

/* (Re)arm the work for its next due time; @lock held */
static void rdmachan_rc_arm_locked(struct rdmachan_reconnect *rc)
{
	unsigned long due = rdmachan_rc_due_locked(rc), now = jiffies;

	mod_delayed_work(rdmachan_rc_wq, &rc->work,
			 time_after(due, now) ? due - now : 0);
}

static bool rdmachan_rc_past(struct rdmachan_reconnect *rc, u32 ms)
{
	return ms && time_after_eq(jiffies, rc->lost_at + rdmachan_rc_ms(ms));
}

/* Milliseconds since the loss */
static u32 rdmachan_rc_down_ms(struct rdmachan_reconnect *rc)
{
	return jiffies_to_msecs(jiffies - rc->lost_at);
}

static const char *const rdmachan_link_state_names[] = {
	[RDMACHAN_LINK_LIVE]		= "live",
	[RDMACHAN_LINK_RECONNECTING]	= "reconnecting",
	[RDMACHAN_LINK_DEAD]		= "dead",
};

/*
 * A link's event as a uevent of its user's directory (uevent.c),
 * with the state it is in now; @lock held.  The variables are the
 * rdmachan_link_* tracepoints' fields.
 */
static void rdmachan_rc_uevent(struct rdmachan_reconnect *rc,
			       const char *what, u32 attempt, u32 max, int err,
			       u32 ms)
{
	lockdep_assert_held(&rc->lock);
	if (!rc->uev_dev)
		return;
	rdmachan_uevent(rc->uev_dev,
			"RDMACHAN_EVENT=link RDMACHAN_LINK=%s RDMACHAN_LINK_EVENT=%s RDMACHAN_LINK_STATE=%s RDMACHAN_ATTEMPT=%u RDMACHAN_MAX_ATTEMPTS=%u RDMACHAN_ERROR=%d RDMACHAN_MS=%u",
			rc->name, what, rdmachan_link_state_names[rc->state],
			attempt, max, err, ms);
}

/* The fast-fail time passed: its event, its log line, the callback */
static void rdmachan_rc_call_fast_fail(struct rdmachan_reconnect *rc)
{
	trace_rdmachan_link_fast_fail(rc->name, rc->policy.fast_fail_ms);
	spin_lock_irq(&rc->lock);
	rdmachan_rc_uevent(rc, "fast_fail", rc->attempt,
			   rdmachan_rc_max_attempts(&rc->policy), 0,
			   rc->policy.fast_fail_ms);
	spin_unlock_irq(&rc->lock);
	if (!rc->ops->fast_fail)
		return;
	pr_info_ratelimited("%s: fast-fail time (%u ms) passed: failing I/O while reconnecting\n",
			    rc->name, rc->policy.fast_fail_ms);
	rc->ops->fast_fail(rc->priv);
}

/*
 * The fast-fail time, on its own work item: the attempts' work may be in
 * an attempt as long as the user's connect timeout, and I/O must not
 * wait that long past fast_fail_ms.  Whichever of the two sees the time
 * first calls ->fast_fail (fast_failed, under the lock).
 */
static void rdmachan_rc_ff_work(struct work_struct *work)
{
	struct rdmachan_reconnect *rc =
		container_of(to_delayed_work(work), struct rdmachan_reconnect,
			     ff_work);
	bool call = false;

	spin_lock_irq(&rc->lock);
	if (rc->state == RDMACHAN_LINK_RECONNECTING && !rc->stopping &&
	    !rc->fast_failed &&
	    rdmachan_rc_past(rc, rc->policy.fast_fail_ms)) {
		rc->fast_failed = true;
		call = true;
	}
	spin_unlock_irq(&rc->lock);
	if (call)
		rdmachan_rc_call_fast_fail(rc);
}

/* Arm the fast-fail work for the current loss; @lock held */
static void rdmachan_rc_arm_ff_locked(struct rdmachan_reconnect *rc)
{
	unsigned long due, now = jiffies;

	if (!rc->policy.fast_fail_ms || rc->fast_failed)
		return;
	due = rc->lost_at + rdmachan_rc_ms(rc->policy.fast_fail_ms);
	mod_delayed_work(rdmachan_rc_wq, &rc->ff_work,
			 time_after(due, now) ? due - now : 0);
}

static void rdmachan_rc_work(struct work_struct *work)
{
	struct rdmachan_reconnect *rc =
		container_of(to_delayed_work(work), struct rdmachan_reconnect,
			     work);
	const struct rdmachan_reconnect_ops *ops = rc->ops;
	bool fast_fail = false;
	u32 attempt, max, down, next_ms;
	int err;

	spin_lock_irq(&rc->lock);
	if (rc->state != RDMACHAN_LINK_RECONNECTING || rc->stopping) {
		spin_unlock_irq(&rc->lock);
		return;
	}
	if (!rc->fast_failed && rdmachan_rc_past(rc, rc->policy.fast_fail_ms)) {
		rc->fast_failed = true;
		fast_fail = true;
	}
	/* at least one attempt, whatever the policy */
	if (rc->attempt && rdmachan_rc_past(rc, rc->policy.loss_timeout_ms))
		goto dead;
	if (time_before(jiffies, rc->next_at)) {
		/* woken for the fast-fail time only */
		rdmachan_rc_arm_locked(rc);
		spin_unlock_irq(&rc->lock);
		goto fast_fail;
	}
	attempt = ++rc->attempt;
	max = rdmachan_rc_max_attempts(&rc->policy);
	rc->running = true;
	rc->relost = false;
	spin_unlock_irq(&rc->lock);

	if (fast_fail) {
		rdmachan_rc_call_fast_fail(rc);
		fast_fail = false;
	}
	pr_debug("%s: attempt %u starts, %u ms after the loss\n", rc->name,
		 attempt, rdmachan_rc_down_ms(rc));
	err = ops->attempt(rc->priv);

	spin_lock_irq(&rc->lock);
	rc->running = false;
	/* lost again while it ran: the attempt did not bring the link back */
	if (!err && rc->relost)
		err = rc->last_error;
	if (!err) {
		rc->state = RDMACHAN_LINK_LIVE;
		rc->last_error = 0;
		down = rdmachan_rc_down_ms(rc);
		trace_rdmachan_link_attempt(rc->name, attempt, max, 0, 0);
		trace_rdmachan_link_state(rc->name, RDMACHAN_LINK_RECONNECTING,
					  RDMACHAN_LINK_LIVE, 0, attempt, down);
		rdmachan_rc_uevent(rc, "back", attempt, max, 0, down);
		spin_unlock_irq(&rc->lock);
		pr_info_ratelimited("%s: link back after %u attempt(s), %u ms down\n",
				    rc->name, attempt, down);
		ops->state_change(rc->priv, RDMACHAN_LINK_LIVE, 0);
		return;
	}
	rc->last_error = err;
	if (rc->stopping ||
	    rdmachan_rc_past(rc, rc->policy.loss_timeout_ms)) {
		trace_rdmachan_link_attempt(rc->name, attempt, max, err, 0);
		rdmachan_rc_uevent(rc, "attempt", attempt, max, err, 0);
		if (!rc->stopping)
			goto dead;
		spin_unlock_irq(&rc->lock);
		return;
	}
	/* one figure for the wait, its event and its log line */
	next_ms = rdmachan_rc_delay(&rc->policy, attempt + 1);
	trace_rdmachan_link_attempt(rc->name, attempt, max, err, next_ms);
	rdmachan_rc_uevent(rc, "attempt", attempt, max, err, next_ms);
	rc->next_at = jiffies + rdmachan_rc_ms(next_ms);
	rdmachan_rc_arm_locked(rc);
	spin_unlock_irq(&rc->lock);
	if (max)
		pr_info_ratelimited("%s: attempt %u of %u failed (%pe), next in %u ms\n",
				    rc->name, attempt, max, ERR_PTR(err),
				    next_ms);
	else
		pr_info_ratelimited("%s: attempt %u failed (%pe), next in %u ms\n",
				    rc->name, attempt, ERR_PTR(err), next_ms);
	return;

dead:
	rc->state = RDMACHAN_LINK_DEAD;
	err = rc->last_error;
	attempt = rc->attempt;
	trace_rdmachan_link_state(rc->name, RDMACHAN_LINK_RECONNECTING,
				  RDMACHAN_LINK_DEAD, err, attempt,
				  rdmachan_rc_down_ms(rc));
	rdmachan_rc_uevent(rc, "dead", attempt,
			   rdmachan_rc_max_attempts(&rc->policy), err,
			   rdmachan_rc_down_ms(rc));
	spin_unlock_irq(&rc->lock);
	pr_warn_ratelimited("%s: gave up after %u attempt(s) and %u ms (loss timeout), last error %pe\n",
			    rc->name, attempt, rc->policy.loss_timeout_ms,
			    ERR_PTR(err));
	if (fast_fail)
		rdmachan_rc_call_fast_fail(rc);
	ops->state_change(rc->priv, RDMACHAN_LINK_DEAD, err);
	return;

fast_fail:
	if (fast_fail)
		rdmachan_rc_call_fast_fail(rc);
}

/**
 * rdmachan_reconnect_create() - a reconnecting link, LIVE
 * @name: for the log lines ("rcblk0"), truncated to 31 characters
 * @policy: its policy (checked: see &struct rdmachan_reconnect_policy)
 * @ops: its callbacks; @ops->attempt and @ops->state_change are required
 * @priv: for the callbacks
 *
 * Context: process context.
 * Return: the link, or ERR_PTR(-EINVAL) for a policy out of bounds or
 * missing callbacks, ERR_PTR(-ENOMEM).
 */
struct rdmachan_reconnect *
rdmachan_reconnect_create(const char *name,
			  const struct rdmachan_reconnect_policy *policy,
			  const struct rdmachan_reconnect_ops *ops, void *priv)
{
	struct rdmachan_reconnect *rc;

	if (!ops || !ops->attempt || !ops->state_change ||
	    rdmachan_rc_policy_check(policy))
		return ERR_PTR(-EINVAL);
	rc = kzalloc(sizeof(*rc), GFP_KERNEL);
	if (!rc)
		return ERR_PTR(-ENOMEM);
	strscpy(rc->name, name, sizeof(rc->name));
	rc->ops = ops;
	rc->priv = priv;
	rc->policy = *policy;
	rc->state = RDMACHAN_LINK_LIVE;
	spin_lock_init(&rc->lock);
	INIT_DELAYED_WORK(&rc->work, rdmachan_rc_work);
	INIT_DELAYED_WORK(&rc->ff_work, rdmachan_rc_ff_work);
	spin_lock_irq(&rdmachan_rc_all_lock);
	list_add_tail(&rc->node, &rdmachan_rc_all);
	spin_unlock_irq(&rdmachan_rc_all_lock);
	return rc;
}
EXPORT_SYMBOL_GPL(rdmachan_reconnect_create);

/**
 * rdmachan_reconnect_lost() - the link is lost: start reconnecting
 * @rc: the link
 * @err: why (kept as the last error until an attempt fails)
 *
 * From LIVE, or from DEAD (a user that opens a dead link again, as a
 * remap does): RECONNECTING, with a fresh count and deadline, the first
 * attempt @policy.delay_ms from now.  During an attempt (from its own
 * callback, or a loss its user saw while it ran): that attempt counts as
 * failed with @err even if it returns 0, and the next one follows the
 * policy.  Reconnecting otherwise, or stopped: nothing changes.
 *
 * Context: any.
 * Return: true when this call started the reconnecting.
 */
bool rdmachan_reconnect_lost(struct rdmachan_reconnect *rc, int err)
{
	unsigned long flags;
	bool started = false;
	u32 delay = 0, max = 0;

	spin_lock_irqsave(&rc->lock, flags);
	if (!rc->stopping && rc->state == RDMACHAN_LINK_RECONNECTING &&
	    rc->running) {
		/* the attempt under way counts as failed, with @err */
		rc->relost = true;
		rc->last_error = err;
	} else if (!rc->stopping && rc->state != RDMACHAN_LINK_RECONNECTING) {
		trace_rdmachan_link_state(rc->name, rc->state,
					  RDMACHAN_LINK_RECONNECTING, err, 0, 0);
		rc->state = RDMACHAN_LINK_RECONNECTING;
		rc->attempt = 0;
		rc->losses++;
		rc->last_error = err;
		rc->fast_failed = false;
		rc->lost_at = jiffies;
		delay = rdmachan_rc_delay(&rc->policy, 1);
		max = rdmachan_rc_max_attempts(&rc->policy);
		rc->next_at = rc->lost_at + rdmachan_rc_ms(delay);
		rdmachan_rc_arm_locked(rc);
		rdmachan_rc_arm_ff_locked(rc);
		rdmachan_rc_uevent(rc, "lost", 0, max, err, delay);
		started = true;
	}
	spin_unlock_irqrestore(&rc->lock, flags);
	if (started)
		pr_info_ratelimited("%s: link lost (%pe): reconnecting, first attempt in %u ms, %s%u ms\n",
				    rc->name, ERR_PTR(err), delay,
				    max ? "giving up after " : "never giving up, ",
				    max ? rc->policy.loss_timeout_ms : 0);
	return started;
}
EXPORT_SYMBOL_GPL(rdmachan_reconnect_lost);

/**
 * rdmachan_reconnect_kick() - make the next attempt now
 * @rc: the link
 *
 * For a user that learns the way back is open (an RDMA device added, an
 * address back): while reconnecting, the wait before the next attempt
 * ends now.  Otherwise nothing.
 *
 * Context: any.
 */
void rdmachan_reconnect_kick(struct rdmachan_reconnect *rc)
{
	unsigned long flags;

	spin_lock_irqsave(&rc->lock, flags);
	if (!rc->stopping && rc->state == RDMACHAN_LINK_RECONNECTING &&
	    !rc->running) {
		rc->next_at = jiffies;
		rdmachan_rc_arm_locked(rc);
	}
	spin_unlock_irqrestore(&rc->lock, flags);
}
EXPORT_SYMBOL_GPL(rdmachan_reconnect_kick);

/**
 * rdmachan_reconnect_kick_all() - a way back may be open: try every link now
 * @why: for the log (an RDMA device added, a port active)
 *
 * rdmachan_reconnect_kick() on every link that is reconnecting, so that
 * a link lost with a device (rdma link delete) comes back when the device
 * does, not after the rest of its backoff.  A link whose attempt fails
 * waits as its policy says.
 *
 * Context: any (an RDMA device's event handler).
 */
void rdmachan_reconnect_kick_all(const char *why)
{
	struct rdmachan_reconnect *rc;
	unsigned long flags;
	u32 n = 0;

	spin_lock_irqsave(&rdmachan_rc_all_lock, flags);
	list_for_each_entry(rc, &rdmachan_rc_all, node) {
		if (READ_ONCE(rc->state) == RDMACHAN_LINK_RECONNECTING) {
			rdmachan_reconnect_kick(rc);
			n++;
		}
	}
	spin_unlock_irqrestore(&rdmachan_rc_all_lock, flags);
	if (n)
		pr_info_ratelimited("%s: %u reconnecting link(s) try now\n",
				    why, n);
}

/**
 * rdmachan_reconnect_stop() - no more attempts, for good
 * @rc: the link
 *
 * Waits for an attempt under way (as long as the user's connect timeout
 * at most).  A link that was reconnecting ends DEAD without a
 * state_change() call; a live one stays LIVE, and a later loss starts
 * nothing.  No callback runs after this returns.
 *
 * Context: process context; not from the link's own callbacks.
 */
void rdmachan_reconnect_stop(struct rdmachan_reconnect *rc)
{
	spin_lock_irq(&rc->lock);
	rc->stopping = true;
	spin_unlock_irq(&rc->lock);
	cancel_delayed_work_sync(&rc->work);
	cancel_delayed_work_sync(&rc->ff_work);
	spin_lock_irq(&rc->lock);
	if (rc->state == RDMACHAN_LINK_RECONNECTING) {
		trace_rdmachan_link_state(rc->name, rc->state,
					  RDMACHAN_LINK_DEAD, rc->last_error,
					  rc->attempt, rdmachan_rc_down_ms(rc));
		rc->state = RDMACHAN_LINK_DEAD;
		rdmachan_rc_uevent(rc, "stopped", rc->attempt,
				   rdmachan_rc_max_attempts(&rc->policy),
				   rc->last_error, rdmachan_rc_down_ms(rc));
	}
	spin_unlock_irq(&rc->lock);
}
EXPORT_SYMBOL_GPL(rdmachan_reconnect_stop);

/**
 * rdmachan_reconnect_restart() - the user brought a dead link back itself
 * @rc: the link, DEAD or stopped
 *
 * For a user that reopens a link the loop gave up on, by its own attempt
 * (a remap): the link is LIVE again, and a later loss starts reconnecting
 * with a fresh count and deadline.  The losses so far stay counted.  A
 * link reconnecting and not stopped is left alone.
 *
 * Context: process context; not concurrently with rdmachan_reconnect_stop()
 * or the link's own callbacks.
 */
void rdmachan_reconnect_restart(struct rdmachan_reconnect *rc)
{
	spin_lock_irq(&rc->lock);
	if (!rc->stopping && rc->state == RDMACHAN_LINK_RECONNECTING) {
		spin_unlock_irq(&rc->lock);
		return;
	}
	spin_unlock_irq(&rc->lock);
	/* a fast-fail wake-up left from the loss must not reach the new link */
	cancel_delayed_work_sync(&rc->work);
	cancel_delayed_work_sync(&rc->ff_work);
	spin_lock_irq(&rc->lock);
	rc->stopping = false;
	if (rc->state != RDMACHAN_LINK_LIVE) {
		trace_rdmachan_link_state(rc->name, rc->state,
					  RDMACHAN_LINK_LIVE, 0, rc->attempt, 0);
		rc->state = RDMACHAN_LINK_LIVE;
		rdmachan_rc_uevent(rc, "reopened", rc->attempt, 0, 0, 0);
	}
	rc->attempt = 0;
	rc->last_error = 0;
	rc->relost = false;
	rc->fast_failed = false;
	spin_unlock_irq(&rc->lock);
}
EXPORT_SYMBOL_GPL(rdmachan_reconnect_restart);

/**
 * rdmachan_reconnect_set_uevent() - tell the link's changes as uevents
 * @rc: the link
 * @dev: the directory they are of (the user's disk or netdev), or NULL
 *	for none
 *
 * From now on each loss, failed attempt, return, fast-fail time, death,
 * stop and reopening is a KOBJ_CHANGE uevent of @dev with the variables
 * RDMACHAN_EVENT=link, RDMACHAN_LINK (the link's name), _LINK_EVENT,
 * _LINK_STATE, _ATTEMPT, _MAX_ATTEMPTS, _ERROR and _MS
 * (Documentation/debugging.rst, "Events").  Before @dev goes, the user
 * sets NULL and calls rdmachan_uevent_flush().
 *
 * Context: process context.
 */
void rdmachan_reconnect_set_uevent(struct rdmachan_reconnect *rc,
				   struct device *dev)
{
	spin_lock_irq(&rc->lock);
	rc->uev_dev = dev;
	spin_unlock_irq(&rc->lock);
}
EXPORT_SYMBOL_GPL(rdmachan_reconnect_set_uevent);

/**
 * rdmachan_reconnect_set_policy() - change a link's policy
 * @rc: the link
 * @policy: the new one
 *
 * Takes effect at once: a link reconnecting counts its deadline and its
 * fast-fail time from the loss with the new figures, and waits the new
 * delay before its next attempt if that is sooner.
 *
 * Context: any.
 * Return: 0, or -EINVAL for a policy out of bounds (nothing changes).
 */
int rdmachan_reconnect_set_policy(struct rdmachan_reconnect *rc,
				  const struct rdmachan_reconnect_policy *policy)
{
	unsigned long flags, next;

	if (rdmachan_rc_policy_check(policy))
		return -EINVAL;
	spin_lock_irqsave(&rc->lock, flags);
	rc->policy = *policy;
	if (rc->state == RDMACHAN_LINK_RECONNECTING && !rc->stopping &&
	    !rc->running) {
		next = jiffies + rdmachan_rc_ms(rdmachan_rc_delay(policy,
								  rc->attempt + 1));
		if (time_before(next, rc->next_at))
			rc->next_at = next;
		rdmachan_rc_arm_locked(rc);
	}
	if (rc->state == RDMACHAN_LINK_RECONNECTING && !rc->stopping)
		rdmachan_rc_arm_ff_locked(rc);
	spin_unlock_irqrestore(&rc->lock, flags);
	return 0;
}
EXPORT_SYMBOL_GPL(rdmachan_reconnect_set_policy);

static u64 rdmachan_rc_left_ms(unsigned long at, unsigned long now)
{
	return time_after(at, now) ? jiffies_to_msecs(at - now) : 0;
}

/**
 * rdmachan_reconnect_get_info() - where a link stands
 * @rc: the link
 * @info: out: see &struct rdmachan_reconnect_info
 *
 * Context: any.
 */
void rdmachan_reconnect_get_info(struct rdmachan_reconnect *rc,
				 struct rdmachan_reconnect_info *info)
{
	const struct rdmachan_reconnect_policy *p = &rc->policy;
	unsigned long flags, now = jiffies;

	memset(info, 0, sizeof(*info));
	spin_lock_irqsave(&rc->lock, flags);
	info->state = rc->state;
	info->attempt = rc->attempt;
	info->max_attempts = rdmachan_rc_max_attempts(p);
	info->last_error = rc->last_error;
	info->losses = rc->losses;
	info->fast_failed = rc->fast_failed;
	if (rc->state != RDMACHAN_LINK_LIVE && rc->losses)
		info->down_ms = jiffies_to_msecs(now - rc->lost_at);
	if (rc->state == RDMACHAN_LINK_RECONNECTING) {
		if (!rc->running)
			info->next_ms = rdmachan_rc_left_ms(rc->next_at, now);
		if (p->loss_timeout_ms)
			info->deadline_ms =
				rdmachan_rc_left_ms(rc->lost_at +
						    rdmachan_rc_ms(p->loss_timeout_ms),
						    now);
	}
	spin_unlock_irqrestore(&rc->lock, flags);
}
EXPORT_SYMBOL_GPL(rdmachan_reconnect_get_info);

/**
 * rdmachan_reconnect_destroy() - stop a link's attempts and free it
 * @rc: the link (NULL or an ERR_PTR: nothing)
 *
 * Context: process context; not from the link's own callbacks.
 */
void rdmachan_reconnect_destroy(struct rdmachan_reconnect *rc)
{
	if (IS_ERR_OR_NULL(rc))
		return;
	rdmachan_reconnect_stop(rc);
	spin_lock_irq(&rdmachan_rc_all_lock);
	list_del(&rc->node);
	spin_unlock_irq(&rdmachan_rc_all_lock);
	kfree(rc);
}
EXPORT_SYMBOL_GPL(rdmachan_reconnect_destroy);

int rdmachan_reconnect_init(void)
{
	rdmachan_rc_wq = alloc_workqueue("rdmachan_rc",
					 WQ_MEM_RECLAIM | WQ_UNBOUND, 0);
	return rdmachan_rc_wq ? 0 : -ENOMEM;
}

void rdmachan_reconnect_exit(void)
{
	destroy_workqueue(rdmachan_rc_wq);
}
