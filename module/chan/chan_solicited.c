// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan: RDMACHAN_POLL_SOLICITED channels - waking for solicited
 * messages only
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
 * messages on ch->rx_pending.  Only a solicited event, or a reader that
 * takes what has arrived, hands them over to ch->rx_ready and wakes
 * waiters.  Teardown hands over whatever arrived.
 *
 * A solicited event fires when the completion is queued, whoever polls it
 * later; the work re-arms the queue before its last poll, so a solicited
 * message is always handed over by the work run for its event, or by an
 * earlier run.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include "rdmachan-pri.h"

/**
 * rdmachan_rx_hand_over() - make the parked messages readable
 * @ch: a RDMACHAN_POLL_SOLICITED channel
 *
 * Moves ch->rx_pending to the end of ch->rx_ready, in order, wakes the
 * waiters and pushes the messages to the user's recv callback.
 *
 * Context: any that the user's callback allows.
 */
void rdmachan_rx_hand_over(struct rdmachan *ch)
{
	unsigned long flags;
	bool any;

	spin_lock_irqsave(&ch->lock, flags);
	any = ch->rx_pending_count;
	list_splice_tail_init(&ch->rx_pending, &ch->rx_ready);
	ch->rx_ready_count += ch->rx_pending_count;
	ch->rx_pending_count = 0;
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
	while (test_and_set_bit_lock(RDMACHAN_POLLING, &ch->poll_lock)) {
		if (READ_ONCE(ch->io_stopped))
			return false;
		usleep_range(20, 50);
	}
	if (READ_ONCE(ch->io_stopped)) {
		clear_bit_unlock(RDMACHAN_POLLING, &ch->poll_lock);
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
		ib_process_cq_direct(ch->rcq, -1);
		clear_bit_unlock(RDMACHAN_POLLING, &ch->poll_lock);
	}
	rdmachan_rx_hand_over(ch);
}

static void rdmachan_rcq_work(struct work_struct *work)
{
	struct rdmachan *ch = container_of(work, struct rdmachan, rcq_work);
	int ret;

	if (!rdmachan_rcq_lock(ch))
		return;
	/*
	 * Re-arm, then poll what arrived; a positive return says more may
	 * have come meanwhile (IB_CQ_REPORT_MISSED_EVENTS): poll again.
	 */
	do {
		ib_process_cq_direct(ch->rcq, -1);
		ret = ib_req_notify_cq(ch->rcq, IB_CQ_SOLICITED |
				       IB_CQ_REPORT_MISSED_EVENTS);
	} while (ret > 0);
	clear_bit_unlock(RDMACHAN_POLLING, &ch->poll_lock);
	if (ret < 0) {
		/* unarmed, nothing would ever wake a reader again */
		pr_err_ratelimited("channel %u: arming the receive queue failed: %d\n",
				   ch->id, ret);
		rdmachan_fail_io(ch, -EIO);
	}
	atomic64_inc(&ch->stats.solicited_events);
	rdmachan_rx_hand_over(ch);
}

/* The device's event handler: a solicited (or error) completion came. */
static void rdmachan_rcq_event(struct ib_cq *cq, void *ctx)
{
	struct rdmachan *ch = ctx;

	queue_work(rdmachan_wq, &ch->rcq_work);
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
		pr_info_ratelimited("channel %u: %s raises no solicited event for receives: poll mode solicited is not supported\n",
				    ch->id, dev_name(&ibdev->dev));
		return -EOPNOTSUPP;
	}
	INIT_WORK(&ch->rcq_work, rdmachan_rcq_work);
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
	WRITE_ONCE(ch->rcq, cq);
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

	if (!ch->rcq)
		return;
	/*
	 * Set already by a teardown; not on a setup that failed.  A run of
	 * the work from now on leaves the queue alone; one running now is
	 * waited for.
	 */
	spin_lock_irqsave(&ch->lock, flags);
	ch->io_stopped = true;
	spin_unlock_irqrestore(&ch->lock, flags);
	cancel_work_sync(&ch->rcq_work);
	ib_destroy_cq(ch->rcq);
	cancel_work_sync(&ch->rcq_work);
	ch->rcq = NULL;
}
