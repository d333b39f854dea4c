// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan: the waits of a busy-polling datagram endpoint
 * (RDMACHAN_DGRAM_BUSY_POLL)
 *
 * An endpoint's completion queue is polled in softirq by default
 * (IB_POLL_SOFTIRQ), which costs every datagram the irq_poll hop before
 * a reader sees it.  A BUSY_POLL endpoint's queue is IB_POLL_DIRECT, as a
 * DIRECT channel's is (chan_poll.c): the thread that waits processes it
 * (rdmachan_dgram_process(), one thread at a time, under @polling), and
 * spins, running the softirqs that do soft-RoCE's work, for
 * RDMACHAN_DGRAM_SPIN_NS before it arms the queue and sleeps until its
 * next completion event (rdmachan_dgram_comp()).  poll() on the file
 * processes the queue and arms it.  Teardown takes @polling for good
 * before it frees the queue, after its own polling drained it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": dgram: " fmt

#include <linux/bitops.h>
#include <linux/delay.h>
#include <linux/ktime.h>
#include <linux/sched/signal.h>
#include <linux/wait.h>

#include "dgram.h"
#include "rdmachan.h"

/* How long a wait spins before it sleeps; a sleep's longest nap */
#define RDMACHAN_DGRAM_SPIN_NS	(2 * NSEC_PER_MSEC)
#define RDMACHAN_DGRAM_NAP	HZ
/* completions processed per call */
#define RDMACHAN_DGRAM_BUDGET	64

/**
 * rdmachan_dgram_comp() - completion event of a BUSY_POLL endpoint's CQ
 * @cq: the CQ, armed by rdmachan_dgram_arm()
 * @ctx: the endpoint
 *
 * Context: the provider's (softirq or hard interrupt).
 */
void rdmachan_dgram_comp(struct ib_cq *cq, void *ctx)
{
	struct rdmachan_dgram *d = ctx;

	atomic_inc(&d->cq_events);
	wake_up_all(&d->wq);
}

/**
 * rdmachan_dgram_process() - process a BUSY_POLL endpoint's completions
 * @d: the endpoint
 *
 * Does nothing when another thread processes them, after teardown took
 * the queue, or for an endpoint polled in softirq.
 *
 * Context: process context (the completion handlers take @d->lock with
 * interrupts off).
 */
void rdmachan_dgram_process(struct rdmachan_dgram *d)
{
	if (!rdmachan_dgram_busy(d) || test_and_set_bit_lock(0, &d->polling))
		return;
	if (d->cq)
		ib_process_cq_direct(d->cq, RDMACHAN_DGRAM_BUDGET);
	clear_bit_unlock(0, &d->polling);
}

/**
 * rdmachan_dgram_arm() - have the next completion wake @d->wq
 * @d: a BUSY_POLL endpoint
 *
 * Context: process context.
 * Return: true when completions may have come between the last
 * processing and the arming (process again), false otherwise.
 */
bool rdmachan_dgram_arm(struct rdmachan_dgram *d)
{
	int ret = 0;

	if (test_and_set_bit_lock(0, &d->polling))
		return true;	/* another thread processes them now */
	if (d->cq)
		ret = ib_req_notify_cq(d->cq, IB_CQ_NEXT_COMP |
				       IB_CQ_REPORT_MISSED_EVENTS);
	clear_bit_unlock(0, &d->polling);
	return ret > 0;
}

/*
 * Sleep on @d->wq until @cond, a completion event, or @timeout jiffies
 * (at most RDMACHAN_DGRAM_NAP).  Return: as wait_event_timeout(), or
 * -ERESTARTSYS (@intr).
 */
static long rdmachan_dgram_nap(struct rdmachan_dgram *d,
			       bool (*cond)(struct rdmachan_dgram *d),
			       long timeout, bool intr)
{
	int seen = atomic_read(&d->cq_events);

	timeout = min_t(long, timeout, RDMACHAN_DGRAM_NAP);
	if (intr)
		return wait_event_interruptible_timeout(d->wq,
			cond(d) || atomic_read(&d->cq_events) != seen, timeout);
	return wait_event_timeout(d->wq,
		cond(d) || atomic_read(&d->cq_events) != seen, timeout);
}

/**
 * rdmachan_dgram_busy_wait() - wait for @cond on a BUSY_POLL endpoint
 * @d: the endpoint
 * @cond: what is waited for; true also once @d is dead where the caller
 *	should stop waiting then
 * @timeout: jiffies, MAX_SCHEDULE_TIMEOUT for no bound
 * @intr: a signal ends the wait
 *
 * Processes the completion queue, spinning RDMACHAN_DGRAM_SPIN_NS, then
 * arms it and sleeps until its next completion event, and so on.
 *
 * Context: process context; sleeps.
 * Return: as wait_event_interruptible_timeout(): positive once @cond
 * holds, 0 when @timeout passed first, -ERESTARTSYS at a signal (@intr).
 */
long rdmachan_dgram_busy_wait(struct rdmachan_dgram *d,
			      bool (*cond)(struct rdmachan_dgram *d),
			      long timeout, bool intr)
{
	bool bounded = timeout != MAX_SCHEDULE_TIMEOUT;
	unsigned long end = jiffies + (bounded ? timeout : 0);
	u64 spin_end = ktime_get_ns() + RDMACHAN_DGRAM_SPIN_NS;
	long left = timeout, ret;

	for (;;) {
		rdmachan_dgram_process(d);
		if (cond(d))
			return max(left, 1L);
		if (intr && signal_pending(current))
			return -ERESTARTSYS;
		if (bounded) {
			left = (long)(end - jiffies);
			if (left <= 0)
				return 0;
		}
		if (ktime_get_ns() < spin_end) {
			rdmachan_poll_relax();
			continue;
		}
		/* completions that came while it was unarmed: process them */
		if (rdmachan_dgram_arm(d)) {
			rdmachan_poll_relax();
			continue;
		}
		ret = rdmachan_dgram_nap(d, cond, left, intr);
		if (ret < 0)
			return ret;
		spin_end = ktime_get_ns() + RDMACHAN_DGRAM_SPIN_NS;
	}
}

/**
 * rdmachan_dgram_poll_stop() - take the completion queue from its pollers
 * @d: the endpoint, being torn down; nothing processes its queue after
 *
 * Waits for a thread processing it now (a handler's run at most).
 *
 * Context: process context.
 */
void rdmachan_dgram_poll_stop(struct rdmachan_dgram *d)
{
	while (test_and_set_bit_lock(0, &d->polling))
		usleep_range(20, 50);
}
