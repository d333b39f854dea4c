// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan: completion processing that the user drives -
 * RDMACHAN_POLL_DIRECT and RDMACHAN_POLL_SOLICITED channels
 *
 * DIRECT.  The channel's CQ is processed only by rdmachan_poll(): the
 * user's, a blocking call's busy poll (rdmachan_wait()), the keepalive's
 * fallback poll, one poller at a time under bit RDMACHAN_POLLING; poll()
 * on the channel's file arms the CQ (rdmachan_poll_arm()) so that its
 * next completion wakes the waiters.
 *
 * SOLICITED: waking for solicited messages only.
 *
 * The verbs model lets a consumer sleep until a *solicited* message
 * arrives (ib_req_notify_cq() with IB_CQ_SOLICITED): a sender marks the
 * message that matters (the end of a burst, say) with IB_SEND_SOLICITED,
 * and the receiver is not woken for the messages before it.
 *
 * Such a channel has a receive completion queue of its own, created with
 * ib_create_cq() and armed with IB_CQ_SOLICITED; its sends complete on a
 * softirq CQ as usual.  Whoever processes the receive queue (the work run
 * by a solicited event, a reader, a blocked sender that waits for
 * credits, the keepalive tick; one at a time, under bit RDMACHAN_POLLING)
 * handles protocol messages (credits, CLOSE) at once, but parks data
 * messages on ch->recv.pending.  Only a solicited event, or a reader that
 * takes what has arrived, hands them over to ch->recv.ready and wakes
 * waiters.  Teardown hands over whatever arrived.
 *
 * A solicited event fires when the completion is queued, whoever polls it
 * later; the work re-arms the queue before its last poll, so a solicited
 * message is always handed over by the work run for its event, or by an
 * earlier run.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/sched/signal.h>

#include "rdmachan-pri.h"

/**
 * rdmachan_poll() - process completions of a channel now
 * @ch: the channel
 * @budget: most completions to process, -1 for all
 *
 * For RDMACHAN_POLL_DIRECT channels this is how completions are seen.  On
 * RDMACHAN_POLL_SOLICITED channels it processes the receive queue: the
 * peer's credits are taken at once, its messages wait for a solicited
 * event or rdmachan_recv().  On the others it returns 0 and does
 * nothing.  One thread polls a channel
 * at a time: a caller that finds another one polling (a blocking call
 * busy-polling, the keepalive's fallback poll) returns 0 at once, as it
 * does once teardown has begun.
 *
 * Context: any context that may run the channel's recv callback.
 * Return: completions processed.
 */
int rdmachan_poll(struct rdmachan *ch, int budget)
{
	struct ib_cq *cq;
	int n = 0;

	if ((ch->opts.poll_mode != RDMACHAN_POLL_DIRECT &&
	     ch->opts.poll_mode != RDMACHAN_POLL_SOLICITED) ||
	    test_and_set_bit_lock(RDMACHAN_POLLING, &ch->poll.lock))
		return 0;
	/* teardown takes the bit before it drains and frees the CQ */
	cq = ch->opts.poll_mode == RDMACHAN_POLL_DIRECT ?
	     READ_ONCE(ch->res.cq) : READ_ONCE(ch->poll.rcq);
	if (cq && !test_bit(RDMACHAN_F_IO_STOPPED, &ch->flags))
		n = ib_process_cq_direct(cq, budget);
	clear_bit_unlock(RDMACHAN_POLLING, &ch->poll.lock);
	return n;
}
EXPORT_SYMBOL_GPL(rdmachan_poll);

/**
 * rdmachan_poll_arm() - have the next completion of a DIRECT channel wake
 *	its waiters
 * @ch: a RDMACHAN_POLL_DIRECT channel
 *
 * For poll(), select() and epoll on the channel's file: nobody busy-polls
 * while they sleep, so the completion queue is armed, and its completion
 * handler (rdmachan_direct_comp()) wakes ch->wq; the waiter's next look
 * polls the queue.
 *
 * Context: process context.
 * Return: true when completions may have arrived between the caller's
 * last poll and the arming (look again), false otherwise.
 */
bool rdmachan_poll_arm(struct rdmachan *ch)
{
	int ret = 0;

	/* the bit keeps the CQ alive; teardown keeps it for good */
	while (test_and_set_bit_lock(RDMACHAN_POLLING, &ch->poll.lock)) {
		if (test_bit(RDMACHAN_F_IO_STOPPED, &ch->flags))
			return false;
		cond_resched();
	}
	if (ch->res.cq && !test_bit(RDMACHAN_F_IO_STOPPED, &ch->flags))
		ret = ib_req_notify_cq(ch->res.cq, IB_CQ_NEXT_COMP |
				       IB_CQ_REPORT_MISSED_EVENTS);
	clear_bit_unlock(RDMACHAN_POLLING, &ch->poll.lock);
	return ret > 0;
}

/**
 * rdmachan_direct_comp() - completion handler of a DIRECT channel's CQ
 * @cq: the CQ, armed by rdmachan_poll_arm()
 * @ctx: the channel
 *
 * Context: the provider's (softirq or hard interrupt).
 */
void rdmachan_direct_comp(struct ib_cq *cq, void *ctx)
{
	struct rdmachan *ch = ctx;

	wake_up_all(&ch->wq);
}

/**
 * rdmachan_poll_relax() - a busy-poll round found nothing: let others run
 *
 * What a busy poller waits for may be queued on its own CPU: soft-RoCE
 * does the protocol work of a post and of every arriving packet in
 * softirq context, and hands it to ksoftirqd once softirqs ran long.
 * Spinning over that work only delays it.  This runs softirqs pending
 * on this CPU now, and gives the CPU up when another task (ksoftirqd)
 * should have it.  Call it between rdmachan_poll() calls that found
 * nothing, as every busy-polling wait of rdmachan does.
 *
 * Context: process context, may sleep.
 */
void rdmachan_poll_relax(void)
{
	/* local_bh_enable() runs what is pending, unless ksoftirqd has it */
	local_bh_disable();
	local_bh_enable();
	cond_resched();
}
EXPORT_SYMBOL_GPL(rdmachan_poll_relax);

/*
 * Wait until @cond(ch) holds, or until jiffies @end (0: no end): sleep,
 * or busy-poll a DIRECT channel.  A SOLICITED channel waiting for
 * anything but a message polls its receive queue each tick: credits come
 * in there and raise no event.  Return: 0, -ETIMEDOUT at @end, or
 * -ERESTARTSYS on a signal.
 */
int rdmachan_wait_until(struct rdmachan *ch, bool (*cond)(struct rdmachan *),
			unsigned long end)
{
	long left = MAX_SCHEDULE_TIMEOUT;

	while (!cond(ch)) {
		if (signal_pending(current))
			return -ERESTARTSYS;
		if (end) {
			left = (long)(end - jiffies);
			if (left <= 0)
				return -ETIMEDOUT;
		}
		if (ch->opts.poll_mode == RDMACHAN_POLL_DIRECT) {
			if (!rdmachan_poll(ch, 16))
				rdmachan_poll_relax();
			continue;
		}
		if (ch->opts.poll_mode == RDMACHAN_POLL_SOLICITED &&
		    cond != rdmachan_readable) {
			rdmachan_poll(ch, -1);
			left = 1;
		}
		wait_event_interruptible_timeout(ch->wq, cond(ch), left);
	}
	return 0;
}

/*
 * Wait until @cond(ch) holds: rdmachan_wait_until() without an end.
 * Return: 0, or -ERESTARTSYS on a signal.
 */
int rdmachan_wait(struct rdmachan *ch, bool (*cond)(struct rdmachan *))
{
	return rdmachan_wait_until(ch, cond, 0);
}

/*
 * One round of a bounded wait for @cond: busy-poll a DIRECT channel
 * (yielding when idle, so that a provider's deferred work can run), or
 * sleep up to 100 ms.  Killable: a close may wait up to the channel's
 * timeout (600 s at most), which a killed process cuts short, and which
 * the hung-task detector then leaves alone.  Return: -EINTR when killed.
 */
int rdmachan_wait_round(struct rdmachan *ch,
			bool (*cond)(struct rdmachan *))
{
	if (fatal_signal_pending(current))
		return -EINTR;
	if (ch->opts.poll_mode == RDMACHAN_POLL_DIRECT) {
		if (!rdmachan_poll(ch, -1))
			rdmachan_poll_relax();
	} else if (ch->opts.poll_mode == RDMACHAN_POLL_SOLICITED) {
		/* the peer's answer lands on a queue that raises no event */
		rdmachan_poll(ch, -1);
		wait_event_killable_timeout(ch->wq, cond(ch), 1);
	} else {
		wait_event_killable_timeout(ch->wq, cond(ch), HZ / 10);
	}
	return 0;
}

/**
 * rdmachan_rx_hand_over() - make the parked messages readable
 * @ch: a RDMACHAN_POLL_SOLICITED channel
 *
 * Moves ch->recv.pending to the end of ch->recv.ready, in order, wakes the
 * waiters and pushes the messages to the user's recv callback.
 *
 * Context: any that the user's callback allows.
 */
void rdmachan_rx_hand_over(struct rdmachan *ch)
{
	unsigned long flags;
	bool any;

	spin_lock_irqsave(&ch->lock, flags);
	any = ch->recv.nr_pending;
	list_splice_tail_init(&ch->recv.pending, &ch->recv.ready);
	ch->recv.nr_ready += ch->recv.nr_pending;
	ch->recv.nr_pending = 0;
	spin_unlock_irqrestore(&ch->lock, flags);
	if (!any)
		return;
	if (ch->ops && ch->ops->recv)
		rdmachan_deliver(ch);
	wake_up_all(&ch->wq);
}

/* Take the poll bit unless teardown has begun (it keeps the bit). */
static bool rdmachan_rcq_lock(struct rdmachan *ch)
{
	while (test_and_set_bit_lock(RDMACHAN_POLLING, &ch->poll.lock)) {
		if (test_bit(RDMACHAN_F_IO_STOPPED, &ch->flags))
			return false;
		usleep_range(20, 50);
	}
	if (test_bit(RDMACHAN_F_IO_STOPPED, &ch->flags)) {
		clear_bit_unlock(RDMACHAN_POLLING, &ch->poll.lock);
		return false;
	}
	return true;
}

/**
 * rdmachan_rx_take_arrived() - a reader takes what has arrived
 * @ch: the channel
 * @may_sleep: process context: wait for another poller of the receive
 *	queue (a blocked sender, the keepalive tick) instead of skipping it
 *
 * On a RDMACHAN_POLL_SOLICITED channel, processes the receive queue and
 * hands every message that arrived over to the reader, solicited or not
 * (as a verbs consumer polls its CQ before it waits for an event).  Does
 * nothing on other channels.
 *
 * Context: any; process context with @may_sleep.
 */
void rdmachan_rx_take_arrived(struct rdmachan *ch, bool may_sleep)
{
	if (ch->opts.poll_mode != RDMACHAN_POLL_SOLICITED)
		return;
	if (!may_sleep) {
		rdmachan_poll(ch, -1);
	} else if (rdmachan_rcq_lock(ch)) {
		ib_process_cq_direct(ch->poll.rcq, -1);
		clear_bit_unlock(RDMACHAN_POLLING, &ch->poll.lock);
	}
	rdmachan_rx_hand_over(ch);
}

static void rdmachan_rcq_work(struct work_struct *work)
{
	struct rdmachan *ch = container_of(work, struct rdmachan,
					   poll.rcq_work);
	int ret;

	if (!rdmachan_rcq_lock(ch))
		return;
	/*
	 * Re-arm, then poll what arrived; a positive return says more may
	 * have come meanwhile (IB_CQ_REPORT_MISSED_EVENTS): poll again.
	 */
	do {
		ib_process_cq_direct(ch->poll.rcq, -1);
		ret = ib_req_notify_cq(ch->poll.rcq, IB_CQ_SOLICITED |
				       IB_CQ_REPORT_MISSED_EVENTS);
	} while (ret > 0);
	clear_bit_unlock(RDMACHAN_POLLING, &ch->poll.lock);
	if (ret < 0) {
		/* unarmed, nothing would ever wake a reader again */
		rdmachan_err_rl(ch, "arming the receive queue failed: %d\n",
				ret);
		rdmachan_fail_io(ch, -EIO);
	}
	atomic64_inc(&ch->stats[RDMACHAN_STAT_solicited_events]);
	rdmachan_rx_hand_over(ch);
}

/* The device's event handler: a solicited (or error) completion came. */
static void rdmachan_rcq_event(struct ib_cq *cq, void *ctx)
{
	struct rdmachan *ch = ctx;

	queue_work(rdmachan_wq, &ch->poll.rcq_work);
}

/**
 * rdmachan_rcq_create() - the receive CQ of a RDMACHAN_POLL_SOLICITED channel
 * @ch: the channel
 * @ibdev: its device
 * @cqe: entries
 * @vector: completion vector
 *
 * Context: process context.
 * Return: 0; -EOPNOTSUPP on siw, which never raises a solicited event for
 * a receive; or the error of ib_create_cq().
 */
int rdmachan_rcq_create(struct rdmachan *ch, struct ib_device *ibdev,
			u32 cqe, int vector)
{
	struct ib_cq_init_attr attr = { .cqe = cqe, .comp_vector = vector };
	struct ib_cq *cq;
	int ret;

	if (ibdev->ops.driver_id == RDMA_DRIVER_SIW) {
		rdmachan_info_rl(ch,
				 "%s raises no solicited event for receives: poll mode solicited is not supported\n",
				 dev_name(&ibdev->dev));
		return -EOPNOTSUPP;
	}
	INIT_WORK(&ch->poll.rcq_work, rdmachan_rcq_work);
	cq = ib_create_cq(ibdev, rdmachan_rcq_event, rdmachan_cq_event, ch,
			  &attr);
	if (IS_ERR(cq))
		return PTR_ERR(cq);
	/*
	 * Processed by us (ib_process_cq_direct()) and never by the CQ
	 * core: ib_drain_qp() must poll it itself, as it does a DIRECT CQ.
	 */
	cq->poll_ctx = IB_POLL_DIRECT;
	ret = ib_req_notify_cq(cq, IB_CQ_SOLICITED);
	if (ret) {
		ib_destroy_cq(cq);
		return ret;
	}
	WRITE_ONCE(ch->poll.rcq, cq);
	return 0;
}

/**
 * rdmachan_rcq_destroy() - undo rdmachan_rcq_create()
 * @ch: the channel; its QP is destroyed (or was never created)
 *
 * Context: process context.
 */
void rdmachan_rcq_destroy(struct rdmachan *ch)
{
	unsigned long flags;

	if (!ch->poll.rcq)
		return;
	/*
	 * Set already by a teardown; not on a setup that failed.  A run of
	 * the work from now on leaves the queue alone; one running now is
	 * waited for.
	 */
	spin_lock_irqsave(&ch->lock, flags);
	set_bit(RDMACHAN_F_IO_STOPPED, &ch->flags);
	spin_unlock_irqrestore(&ch->lock, flags);
	cancel_work_sync(&ch->poll.rcq_work);
	ib_destroy_cq(ch->poll.rcq);
	cancel_work_sync(&ch->poll.rcq_work);
	ch->poll.rcq = NULL;
}
